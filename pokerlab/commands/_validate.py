"""The one validation layer of the command line: every option checked by its kind.

:func:`pokerlab.commands._common.friendly` (applied by ``cli.py`` to every registered
command) calls :func:`validate_call` with the command's path and its parsed arguments
*before* the command body runs, so a bad value is one line ``error: ...`` and exit 2 and
no work starts and no file is written.  Each option is classified once, by its flag (or
parameter name), in :data:`KINDS`; :data:`OVERRIDES` gives the few commands whose option
of that name means something else.  Options of no listed kind (:data:`FREE`) are free
text the command itself parses (card lists, bet sizes, presets, algorithm names).

Universal rules on top of the kinds: a float option is finite (``nan``/``inf`` are
refused everywhere) and an integer option fits in 64 bits.  The kinds:

* ``count`` (>= 1), ``count0`` (>= 0): whole numbers of at most :data:`MAX_COUNT`;
* ``seed``: 0 .. 2**63-1; ``workers``: >= 1; ``port``: 0 .. 65535;
* ``stack``: big blinds, > 0 and at most :data:`MAX_STACK_BB`; ``chips``: > 0 and at most
  :data:`MAX_CHIPS`;
* ``positive``, ``nonneg``, ``prob`` (0 .. 1), ``percent`` (0 .. 100);
* ``ray_address``: syntax, and a ``HOST:PORT`` must accept a connection (a few seconds);
* ``file_out`` / ``npz_out`` / ``image_out`` / ``folder_out`` / ``any_out``: written
  paths (``npz_out``: a policy archive, ``.npz``), checked with
  :func:`~pokerlab.commands._common.check_output_path` (folders likewise: the parent
  must exist, nothing is created);
* ``file_in`` / ``path_in`` / ``folder_in``: read paths, which must exist (and be a file,
  anything, a folder);
* ``game``: a game string ``load_game`` accepts, its parameters included; commands in
  :data:`GAME_BY_NAME` (matches, LBR, leagues, play) take ``hunl`` by name only (its
  stack is ``--stack``), so ``hunl(stack=...)`` there is refused instead of ignored;
* ``agent``: an agent spec (a built-in name, or ``policy:PATH`` naming an existing file).
"""

from __future__ import annotations

import contextvars
import inspect
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokerlab.commands._path_checks import (
    IMAGE_SUFFIXES,
    check_folder_path,
    check_output_path,
    check_seed,
)
from pokerlab.errors import ConfigError

MAX_COUNT = 10**12
MAX_STACK_BB = 1e5
MAX_CHIPS = 1e12
INT64_MAX = 2**63 - 1

#: option kind of a flag (``--hands``) or of a positional parameter (``agent_a``)
KINDS: dict[str, str] = {
    # whole numbers
    "--hands": "count", "--iterations": "count", "--traversals": "count",
    "--memory": "count", "--sgd-steps": "count", "--policy-sgd-steps": "count",
    "--batch-size": "count", "--dim": "count", "--games": "count", "--levels": "count",
    "--epochs": "count", "--eval-games": "count", "--width": "count", "--points": "count",
    "--lbr-hands": "count", "--peer-hands": "count", "--pushfold-iterations": "count",
    "--merge-every": "count", "--max-players": "count", "--threads": "count",
    "--max-nodes": "count", "--min-hands": "count", "--table-size": "count",
    "--bytes-per-value": "count", "--from-round": "count", "--per-client": "count",
    "--max-sessions": "count", "--max-strategies": "count", "--chance": "count",
    "--max-hands": "count",
    "--depth": "count0", "--mc": "count0", "--limit": "count0", "--eval-every": "count0",
    "--show-rejected": "count0", "--ray-workers": "count0", "--raise-cap": "count0",
    "--sb": "count0", "--bb": "count0", "--seat": "count0",
    "--seed": "seed", "--workers": "workers", "--port": "port",
    # amounts
    "--stack": "stack", "--max-stack": "stack", "--min-stack": "stack",
    "--pot": "chips", "--big-blind": "chips",
    "--learning-rate": "positive", "--seconds": "positive", "--minutes": "positive",
    "--checkpoint-minutes": "positive", "--target-exploitability": "positive",
    "--target": "nonneg", "--step": "positive", "--max-memory": "positive",
    "--full-at": "positive", "--grace": "positive", "--target-ci": "positive",
    # 0 means "off" (their --help says what 0 does)
    "--allin-threshold": "nonneg", "--win-margin": "nonneg", "--prior-strength": "nonneg",
    "--ante": "nonneg", "--weight-decay": "nonneg", "--rake-cap": "nonneg",
    "--af-aggressive": "positive",
    "--p": "prob", "--epsilon-start": "prob", "--epsilon-end": "prob",
    "--val-fraction": "prob", "--dropout": "prob", "--merge": "prob",
    "--force-allin": "prob", "--max-conf": "prob", "--rake": "prob", "--gamma": "prob",
    "--vpip-loose": "percent", "--afq-aggressive": "percent",
    # addresses, paths, specs
    "--ray-address": "ray_address",
    "--png": "image_out", "--svg": "image_out", "--export": "file_out", "--out": "file_out",
    "--checkpoint": "folder_out", "--cache": "folder_out",
    "--model": "file_in", "--run": "path_in", "--observations": "file_in",
    "--base": "file_in", "--resume": "file_in",
    "file": "file_in", "path": "path_in", "checkpoint": "path_in", "histories": "file_in",
    "--game": "game", "game": "game",
    "agent": "agent", "agent_a": "agent", "agent_b": "agent", "agents": "agent",
    "--agent": "agent",
}

#: (command path, flag) -> kind, where a command's option of that name differs
OVERRIDES: dict[tuple[str, str], str | None] = {
    ("blueprint train", "--iterations"): "count0",
    ("blueprint train", "--out"): "folder_out",
    ("blueprint train", "--bets"): "bet_set",  # a bet set: sane sizes, pot fractions postflop
    ("abstraction tree", "--bets"): "bet_set",
    ("spot solve", "--iterations"): "count0",  # 0: no iteration (the starting strategy)
    ("exploit lock", "--hands"): "count0",
    ("solve", "--out"): "npz_out",           # a policy archive: .npz only
    ("ttt train", "--out"): "folder_out",
    ("spot report", "--out"): "folder_out",  # the report folder (resumed by design)
    ("hands report", "--out"): "folder_out",
    ("review", "--out"): "folder_in",        # an existing folder (resumed by design)
    ("review", "--ranges"): "file_in",
    ("play", "--out"): "folder_out",
    ("league", "--out"): "folder_in",        # an existing folder
    ("exploit br", "--out"): "npz_out",      # a policy file
    ("exploit lock", "--out"): "any_out",    # a policy file, or the run folder for hunl
    ("holdem deal", "--stack"): None,        # a list of stacks, parsed by the command
    ("holdem selfplay", "--stack"): None,
    ("holdem deal", "--ante"): "count0",
    ("holdem selfplay", "--ante"): "count0",
    ("exploit safe", "--model"): None,       # a model spec, not only a file
}

#: commands that take hunl by name (the stack is their ``--stack``)
GAME_BY_NAME = frozenset({"match", "lbr", "league", "play"})
#: game names a command accepts beside the registered games
EXTRA_GAMES: dict[str, tuple[str, ...]] = {
    c: ("pushfold",) for c in ("play", "exploit br", "exploit rnr", "exploit curve",
                               "exploit dbr", "exploit safe", "exploit lock")}

#: options that are free text parsed by the command (no generic rule but the type's)
FREE = frozenset({
    "--algo", "--preset", "--cards", "--features", "--epsilons", "--buckets", "--bets",
    "--raises",
    "--flop-bets", "--turn-bets", "--river-bets", "--oop-bets", "--ip-bets", "--donk",
    "--oop", "--ip", "--board", "--node", "--player", "--players", "--stakes", "--since",
    "--until", "--group", "--aggression", "--compare", "--human", "--weights", "--stacks",
    "--actions", "--lbr-actions", "--device", "--storage", "--opponent", "--infosets",
    "--estimator", "--by-line",
    "--reveal", "--host", "--db", "--model", "--stack", "--update", "--precision",
    "players", "notation", "cards", "paths",
    "spot",  # train-spot: a saved spot file or a library drill's name
    "--flops", "--texture", "--line", "--check-every",
    "--hero", "--raise-streets",
})


#: (command, flag) -> the suffixes of the file an output option writes (what the command
#: writes there); pictures (``image_out``) are ``.png``/``.svg`` and ``npz_out`` ``.npz``
#: unless listed here
OUTPUT_SUFFIXES: dict[tuple[str, str], tuple[str, ...]] = {
    ("match", "--out"): (".phhs", ".phh", ".log"),
    ("holdem selfplay", "--out"): (".phhs",),
    ("pushfold learn", "--out"): (".npz",),
    ("ttt train", "--export"): (".safetensors",),
    ("exploit rnr", "--out"): (".npz",),
    ("exploit dbr", "--out"): (".npz",),
    ("exploit lock", "--out"): (".npz",),        # a small game's policy (hunl: a folder)
    ("opponent model", "--out"): (".json", ".npz"),  # observations: .json; hands: .npz
    ("opponent sample", "--out"): (".jsonl",),
    ("spot solve", "--out"): (".npz",),
    ("spot export", "--out"): (".csv",),
    ("game tree", "--png"): (".png",),
    ("game tree", "--svg"): (".svg",),
}
#: output kinds that name a file
FILE_OUT_KINDS = frozenset({"file_out", "npz_out", "image_out", "any_out"})
#: kinds that are paths (an empty or blank path is refused for all of them)
PATH_KINDS = FILE_OUT_KINDS | {"folder_out", "file_in", "path_in", "folder_in"}
#: options of free text that are paths all the same (the command checks them further)
PATH_FREE = frozenset({"--db", "paths"})
#: (command, flag) -> the files written beside an output file
SIDE_FILES: dict[tuple[str, str], Callable[[Path], list[Path]]] = {
    ("solve", "--out"): lambda p: [p.with_name(p.name + ".json")],
    ("match", "--out"): lambda p: [p.with_name(p.name + ".json")],
    ("holdem selfplay", "--out"): lambda p: [p.with_name(p.name + ".json")],
    ("pushfold learn", "--out"): lambda p: [p.with_name(p.name + ".json")],
    ("pushfold solve", "--png"): lambda p: [p.with_name(f"{p.stem}_bb{p.suffix}")],
    ("pushfold chart", "--png"): lambda p: [p.with_name(f"{p.stem}_bb{p.suffix}")],
}
#: (command, flag) -> the files a folder output gets (the first is the one locked)
FOLDER_FILES: dict[tuple[str, str], tuple[str, ...]] = {
    ("league", "--out"): ("league.json", "league.png", "league.html"),
    ("hands report", "--out"): ("index.html",),
}
#: command -> the option that continues its output file in place (that file may exist)
CONTINUE_FLAGS: dict[str, str] = {"spot solve": "--resume"}
#: the tokens of the current command line (set by ``cli.PokerlabGroup.main``): typer turns
#: an empty path into ``Path(".")``, so an empty path is looked for in the tokens
RAW_ARGS: contextvars.ContextVar[tuple[str, ...] | None] = contextvars.ContextVar(
    "RAW_ARGS", default=None)
#: the flag that replaces an existing output (and the run in a run folder,
#: :data:`pokerlab.commands._file_guards.RUN_FOLDERS`)
FORCE_FLAG = "--force"
#: sane limits of bet sizes (``--bets``): pot fractions, multiples of the bet, big blinds
MAX_BET_POT = 100.0
MAX_BET_MULT = 100.0


def kind_of(command: str, flag: str) -> str | None:
    """The kind of ``flag`` (``--hands``, or a positional parameter's name) in
    ``command`` (``"blueprint train"``), or None for free text and flags."""
    if (command, flag) in OVERRIDES:
        return OVERRIDES[(command, flag)]
    return KINDS.get(flag)


def flag_of(name: str, default: Any) -> str:
    decls = getattr(default, "param_decls", None) or ()
    longs = [d for d in decls if isinstance(d, str) and d.startswith("--")]
    if longs:
        return longs[0].split("/")[0]
    if type(default).__name__ == "ArgumentInfo":
        return name
    return "--" + name.replace("_", "-")


def option_flags(fn: Callable[..., Any]) -> dict[str, str]:
    """``{python parameter name: flag}`` of a typer command function (positional
    parameters keep their name)."""
    out: dict[str, str] = {}
    for name, p in inspect.signature(fn).parameters.items():
        out[name] = flag_of(name, p.default)
    return out


# ------------------------------------------------------------------------------ kinds


def flag_name(flag: str) -> str:
    return flag if flag.startswith("-") else flag.upper()


def _number(value: Any, flag: str) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{flag_name(flag)} {value} is not a finite number")
    if isinstance(value, int) and abs(value) > INT64_MAX:
        raise ConfigError(f"{flag_name(flag)} {value} is too large (at most {INT64_MAX})")


def _whole(value: Any, flag: str, low: int, high: int = MAX_COUNT) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{flag_name(flag)} must be a whole number, got {value!r}")
    if value < low:
        need = "positive" if low == 1 else "non-negative" if low == 0 else f">= {low}"
        raise ConfigError(f"{flag_name(flag)} must be {need} (a whole number >= {low}), "
                          f"got {value}")
    if value > high:
        raise ConfigError(f"{flag_name(flag)} must be at most {high:,}, got {value}")


def _real(value: Any, flag: str, *, low: float, high: float = math.inf,
          low_open: bool = False, what: str = "") -> None:
    x = float(value)
    if low == 0.0 and math.isfinite(x) and (x < 0 or (low_open and x == 0)):
        need = "positive" if low_open else "non-negative"
        raise ConfigError(f"{flag_name(flag)} must be {need}, got {value}")
    if not math.isfinite(x) or x < low or (low_open and x == low) or x > high:
        rng = (f"> {low:g}" if low_open else f">= {low:g}") if high == math.inf \
            else f"{'above' if low_open else 'from'} {low:g} to {high:g}"
        raise ConfigError(f"{flag_name(flag)} {x:g} is out of range: {what or 'a number'} "
                          f"{rng} (got {value})")


def _path_in(value: Any, flag: str, *, file: bool) -> None:
    p = Path(value)
    if not str(value).strip():
        raise ConfigError(f"{flag_name(flag)}: empty path (give a file or folder name)")
    if not p.exists():
        raise ConfigError(f"{flag_name(flag)} {str(p)!r} does not exist")
    if file and p.is_dir():
        raise ConfigError(f"{flag_name(flag)} {str(p)!r} is a folder, not a file")
    if not os.access(p, os.R_OK):
        raise ConfigError(f"{flag_name(flag)} {str(p)!r} is not readable")


def _game(value: Any, flag: str, command: str) -> None:
    from pokerlab.errors import PokerlabError
    from pokerlab.games import load_game, parse_game_string

    text = str(value).strip()
    if text in EXTRA_GAMES.get(command, ()):
        return
    if not text:
        raise ConfigError(f"{flag_name(flag)}: empty game name")
    if command in GAME_BY_NAME and "(" in text and not text.startswith("universal_poker"):
        try:
            name, params = parse_game_string(text)
        except PokerlabError as exc:
            raise ConfigError(f"{flag_name(flag)} {text!r}: {exc}") from None
        if name.lower() in ("hunl", "holdem", "nlhe") and params:
            raise ConfigError(f"{flag_name(flag)} {text!r}: {command} plays hunl by name; set "
                              f"its stack with --stack (parameters {', '.join(params)} "
                              "would be ignored)")
    try:
        load_game(text)
    except PokerlabError as exc:
        raise ConfigError(f"{flag_name(flag)} {text!r}: {exc}") from None
    except (TypeError, ValueError, OverflowError) as exc:
        raise ConfigError(f"{flag_name(flag)} {text!r}: bad game parameters ({exc})") from None


#: agent names a command accepts in a small game beside ``random`` and ``policy:PATH``
SMALL_AGENT_EXTRAS: dict[str, tuple[str, ...]] = {"play": ("equilibrium", "nash", "lp")}


def _agent(value: Any, flag: str, command: str, game: str | None) -> None:
    from pokerlab.registry import HUNL_SPECS, SMALL_SPECS

    g = (game or "hunl").strip()
    if g in EXTRA_GAMES.get(command, ()):
        return  # push/fold in play: its own agents
    small = g.split("(", 1)[0].strip().lower() not in ("hunl", "holdem", "nlhe")
    specs_known = (*SMALL_SPECS, *SMALL_AGENT_EXTRAS.get(command, ())) if small \
        else HUNL_SPECS
    known = [s for s in specs_known if not s.endswith(":PATH")]
    specs = value if isinstance(value, list | tuple) else [value]
    for spec in specs:
        s = str(spec).strip()
        if s.lower().startswith(("adapt:", "adapt(", "search:", "search(", "python:",
                                 "blueprint-")):
            continue  # agents with options (adaptive, search, outside, sized blueprints):
            #           the registry checks them
        if s.lower().startswith("policy:"):
            path = s.split(":", 1)[1]
            if not path:
                raise ConfigError(f"{flag_name(flag)} {s!r} needs a file: policy:PATH")
            _path_in(path, f"{flag_name(flag)} {s!r}: policy file", file=True)
            if small:
                _policy_of_game(path, g, flag)
            continue
        if s.lower() not in known:
            raise ConfigError(f"{flag_name(flag)}: unknown agent {s!r} for {g}; known: "
                              f"{', '.join(specs_known)}")


def _policy_of_game(path: str, game: str, flag: str) -> None:
    """A small game's policy file must be one of that game (its metadata says which)."""
    from pokerlab.errors import PolicyFileError
    from pokerlab.policy import load_policy

    if Path(path).stat().st_size > 64 << 20:
        return  # large files are HUNL policies; the agent's loader checks them
    try:
        meta = load_policy(path).metadata
    except PolicyFileError as exc:
        if "indexed policy" in str(exc):
            return
        raise
    made_for = str(meta.get("game", "")).strip() if isinstance(meta, dict) else ""
    if made_for and made_for.replace(" ", "") != game.replace(" ", ""):
        raise ConfigError(f"{flag_name(flag)}: policy file {path!r} is a policy of "
                          f"{made_for!r}, not of {game!r}")


def _is_hunl(game: str | None) -> bool:
    return game is not None and game.strip().lower().startswith(("hunl", "holdem", "nlhe"))


def check_bet_set(text: str, *, option: str = "--bets") -> None:
    """A bet set (``pokerlab.abstraction.bets``) whose sizes are sane: finite, a pot
    fraction at most :data:`MAX_BET_POT` pots, a multiple at most :data:`MAX_BET_MULT`,
    big blinds at most :data:`MAX_STACK_BB`; after the flop nobody has bet when the street
    starts, so a street's sizes there are pot fractions (``N%``), big blinds or all-in, not
    multiples of the bet faced (``2.5x``)."""
    from pokerlab.abstraction.bets import STREETS, parse_bet_set
    from pokerlab.errors import BetSizeError

    if not text.strip():
        raise ConfigError(f"{option} is empty; give a bet set such as "
                          "\"preflop: 2.5x, a, cap 3; postflop: 75%, a, cap 3\"")
    try:
        bet_set = parse_bet_set(text)
    except BetSizeError as exc:
        raise ConfigError(f"{option}: {exc}") from None
    limits = {"pot": (MAX_BET_POT, f"{MAX_BET_POT * 100:,.0f}% of the pot"),
              "mult": (MAX_BET_MULT, f"{MAX_BET_MULT:g}x the bet faced"),
              "bb": (MAX_STACK_BB, f"{MAX_STACK_BB:,.0f}bb")}
    for street, bets in zip(STREETS, bet_set.streets, strict=True):
        for size in bets.sizes:
            if size.kind in limits:
                cap, said = limits[size.kind]
                if not (math.isfinite(size.value) and size.value <= cap):
                    raise ConfigError(f"{option}: bet size {size.text()!r} on the {street} is "
                                      f"too large (at most {said})")
            if size.kind == "mult" and street != "preflop":
                raise ConfigError(
                    f"{option}: {size.text()!r} on the {street} is a multiple of the bet faced, "
                    "but no bet is faced when the street starts: give postflop sizes as pot "
                    "fractions (N%, e.g. 75%), big blinds (Nbb) or a (all-in); multiples (Nx) "
                    "are preflop sizes")


def check_value(kind: str, value: Any, flag: str, command: str = "",
                game: str | None = None) -> None:
    """Raise :class:`ConfigError` naming ``flag`` unless ``value`` is a good ``kind``."""
    from pokerlab.executor import check_ray_address, check_workers

    if value is None:
        return
    if kind == "count":
        _whole(value, flag, 1)
    elif kind == "count0":
        _whole(value, flag, 0)
    elif kind == "seed":
        _whole(value, flag, 0, INT64_MAX)
        check_seed(value, option=flag)
    elif kind == "workers":
        check_workers(value, option=flag)
        _whole(value, flag, 1)
    elif kind == "port":
        _whole(value, flag, 0, 65535)
    elif kind == "stack":
        _real(value, flag, low=0.0, high=MAX_STACK_BB, low_open=True,
              what="a stack in big blinds")
    elif kind == "chips":
        _real(value, flag, low=0.0, high=MAX_CHIPS, low_open=True, what="an amount")
    elif kind == "positive":
        _real(value, flag, low=0.0, low_open=True)
    elif kind == "nonneg":
        _real(value, flag, low=0.0)
    elif kind == "prob":
        _real(value, flag, low=0.0, high=1.0, what="a probability")
    elif kind == "percent":
        _real(value, flag, low=0.0, high=100.0, what="a percentage")
    elif kind == "ray_address":
        check_ray_address(str(value), option=flag, reachable=True)
    elif kind == "file_out":
        check_output_path(value, option=flag, suffixes=OUTPUT_SUFFIXES.get((command, flag)))
    elif kind == "npz_out":
        check_output_path(value, option=flag,
                          suffixes=OUTPUT_SUFFIXES.get((command, flag), (".npz",)))
    elif kind == "image_out":
        check_output_path(value, option=flag,
                          suffixes=OUTPUT_SUFFIXES.get((command, flag), IMAGE_SUFFIXES))
    elif kind == "folder_out":
        check_folder_path(value, option=flag)
    elif kind == "any_out":
        p = Path(value)
        if p.is_dir():
            check_folder_path(p, option=flag)
        elif _is_hunl(game):
            check_output_path(p, option=flag)  # the run folder the command makes
        else:
            check_output_path(p, option=flag, suffixes=OUTPUT_SUFFIXES.get((command, flag)))
    elif kind == "file_in":
        _path_in(value, flag, file=True)
    elif kind == "path_in":
        _path_in(value, flag, file=False)
    elif kind == "folder_in":
        if not str(value).strip():
            raise ConfigError(f"{flag_name(flag)}: empty path (give a folder name)")
        if not Path(value).is_dir():
            raise ConfigError(f"{flag_name(flag)} {str(value)!r} must be an existing folder")
    elif kind == "game":
        _game(value, flag, command)
    elif kind == "agent":
        _agent(value, flag, command, game)
    elif kind == "bet_set":
        check_bet_set(str(value), option=flag)
    else:  # pragma: no cover - a typo in the tables
        raise AssertionError(f"unknown option kind {kind!r}")


def validate_call(command: str, flags: dict[str, str], kwargs: dict[str, Any]) -> None:
    """Check every argument of one call of ``command`` (module docstring); ``flags``
    maps the function's parameter names to their flags (:func:`option_flags`)."""
    def order(item: tuple[str, Any]) -> int:  # the game first: agents depend on it
        return 0 if kind_of(command, flags.get(item[0], "")) == "game" else 1

    for name, value in sorted(kwargs.items(), key=order):
        flag = flags.get(name, "--" + name.replace("_", "-"))
        for v in value if isinstance(value, list | tuple) else [value]:
            _number(v, flag)
        kind = kind_of(command, flag)
        if kind is None or value is None or isinstance(value, bool):
            continue
        game = kwargs.get("game")
        game = game if isinstance(game, str) else None
        if isinstance(value, list | tuple) and kind != "agent":
            for v in value:
                check_value(kind, v, flag, command, game)
        else:
            check_value(kind, value, flag, command, game)
    refuse_existing_outputs(command, flags, kwargs)


# ---------------------------------------------------------------------- output files


def output_files(command: str, flags: dict[str, str], kwargs: dict[str, Any]
                 ) -> list[tuple[str, Path, list[Path], bool]]:
    """``(flag, the file locked, every file written, may exist)`` of each file one call of
    ``command`` writes (a run folder's files are :func:`guard_call`'s)."""
    by_flag = {f: n for n, f in flags.items()}
    game = kwargs.get("game")
    game = game if isinstance(game, str) else None
    out: list[tuple[str, Path, list[Path], bool]] = []
    for name, value in kwargs.items():
        flag = flags.get(name, "--" + name.replace("_", "-"))
        kind = kind_of(command, flag)
        if (command, flag) not in FOLDER_FILES and kind not in FILE_OUT_KINDS:
            continue
        if not isinstance(value, str | os.PathLike) or not str(value).strip():
            continue
        p = Path(value)
        if (command, flag) in FOLDER_FILES:
            names = FOLDER_FILES[(command, flag)]
            out.append((flag, p / names[0], [p / n for n in names], False))
        elif kind in FILE_OUT_KINDS:
            if kind == "any_out" and (p.is_dir() or _is_hunl(game)):
                continue  # a run folder (hunl): the command refuses one that holds files
            side = SIDE_FILES.get((command, flag))
            out.append((flag, p, [p, *(side(p) if side else [])], False))
    cont_flag = CONTINUE_FLAGS.get(command)
    cont = kwargs.get(by_flag.get(cont_flag or "", ""))
    if cont is not None and str(cont).strip():
        cp = Path(cont)
        same = [i for i, o in enumerate(out) if o[1].resolve() == cp.resolve()]
        for i in same:  # the output continues the file it names
            out[i] = (out[i][0], out[i][1], out[i][2], True)
        if not same and not any(o[0] == "--out" for o in out):
            out.append((str(cont_flag), cp, [cp], True))  # written back in place
    return out


def refuse_existing_outputs(command: str, flags: dict[str, str],
                            kwargs: dict[str, Any]) -> None:
    """An output file that already exists is refused unless ``--force`` (or the command's
    continue option, :data:`CONTINUE_FLAGS`): nothing is replaced without a word."""
    by_flag = {f: n for n, f in flags.items()}
    if bool(kwargs.get(by_flag.get(FORCE_FLAG, ""), False)):
        return
    for flag, _lock, files, may_exist in output_files(command, flags, kwargs):
        there = [f for f in files if f.exists()]
        if may_exist or not there:
            continue
        hint = (f", or continue it with {CONTINUE_FLAGS[command]} {there[0]}"
                if command in CONTINUE_FLAGS and there[0] == files[0] else "")
        what = "" if there[0] == files[0] and (command, flag) not in FOLDER_FILES \
            else f" (written by {flag} {str(Path(kwargs[by_flag[flag]]))!r})"
        raise ConfigError(f"{flag}: {str(there[0])!r} already exists{what}; pass {FORCE_FLAG} "
                          f"to replace it{hint} (nothing was changed)")


__all__ = [
    "CONTINUE_FLAGS",
    "FILE_OUT_KINDS",
    "FOLDER_FILES",
    "MAX_BET_MULT",
    "MAX_BET_POT",
    "OUTPUT_SUFFIXES",
    "PATH_FREE",
    "PATH_KINDS",
    "RAW_ARGS",
    "SIDE_FILES",
    "check_bet_set",
    "output_files",
    "refuse_existing_outputs",
    "EXTRA_GAMES",
    "FREE",
    "GAME_BY_NAME",
    "KINDS",
    "MAX_COUNT",
    "SMALL_AGENT_EXTRAS",
    "MAX_STACK_BB",
    "OVERRIDES",
    "FORCE_FLAG",
    "flag_name",
    "flag_of",
    "check_value",
    "kind_of",
    "option_flags",
    "validate_call",
]
