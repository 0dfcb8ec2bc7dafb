"""Poker game descriptions: ACPC ``.game`` files and OpenSpiel ``universal_poker(...)`` strings.

Both parse into one frozen :class:`GameDef`, which writes back to both forms
(:meth:`GameDef.to_acpc`, :meth:`GameDef.to_universal_poker`).

ACPC format (``project_acpc_server/game.c``, ``readGame``)::

    GAMEDEF
    nolimit
    numPlayers = 2
    numRounds = 4
    stack = 20000 20000
    blind = 100 50
    firstPlayer = 2 1 1 1
    numSuits = 4
    numRanks = 13
    numHoleCards = 2
    numBoardCards = 0 3 1 1
    END GAMEDEF

Keywords are case-insensitive; ``=`` is optional; a line starting with ``#`` and blank
lines are ignored.  ``limit``/``nolimit`` sets the betting (ACPC default: limit).
Per-player lists (``stack``, ``blind``) take ``numPlayers`` values, per-round lists
(``raiseSize``, ``firstPlayer``, ``maxRaises``, ``numBoardCards``) ``numRounds`` values;
as in ACPC, values past those counts are ignored (at most 10 resp. 4 are read).
ACPC defaults: ``stack`` = 2147483647 (unlimited), ``firstPlayer`` = 1 every round,
``maxRaises`` = 255 (unlimited); ``raiseSize`` is required for limit betting only.
ACPC limits: 2..10 players, 1..4 rounds, 1..4 suits, 1..13 ranks, 1..3 hole cards, at most
7 board cards in all, no more cards dealt than the deck holds, every blind <= its stack.

Deviations (stricter than ACPC, which silently ignores such lines): an unknown keyword, a
keyword given twice, a non-integer or negative value, or text after ``END GAMEDEF`` is an
error naming the line.  ``#`` also starts a comment at the end of a line.

``universal_poker(...)`` strings use OpenSpiel's parameter names and *its* defaults
(``betting=nolimit``, ``numRounds=2``, ``blind=100 100``, ``stack=1200 1200``,
``raiseSize=100 100``, ``numSuits=4``, ``numRanks=6``, ``numHoleCards=1``,
``numBoardCards=0 1``, ``bettingAbstraction=fcpa``); as in OpenSpiel, ``stack`` is ignored
for limit betting and ``raiseSize`` for no-limit betting.  The subgame parameters
(``potSize``, ``boardCards``, ``handReaches``) are rejected unless empty.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from pokerlab.errors import ConfigError

INT32_MAX = 2147483647
UINT8_MAX = 255
MAX_PLAYERS = 10
MAX_ROUNDS = 4
MAX_BOARD_CARDS = 7
MAX_HOLE_CARDS = 3
MAX_SUITS = 4
MAX_RANKS = 13
MAX_NUM_ACTIONS = 64  # per round (ACPC forces call/fold near this many actions)
MAX_FILE_CHARS = 1_000_000

BETTING_ABSTRACTIONS = ("fullgame", "fcpa", "fc")


class GameDefError(ConfigError):
    """A game definition (file or parameter string) is malformed or breaks an ACPC limit."""


@dataclass(frozen=True, kw_only=True)
class GameDef:
    """One poker game in the ACPC game-definition model (see the module docs).

    ``first_player`` is 1-based as in the file.  ``stack`` entries of 2147483647 mean
    "unlimited" (the ACPC default; limit games normally leave it).  ``raise_size`` is empty
    for no-limit betting.
    """

    betting: str
    num_players: int
    num_rounds: int
    blind: tuple[int, ...]
    stack: tuple[int, ...] = ()
    raise_size: tuple[int, ...] = ()
    first_player: tuple[int, ...] = ()
    max_raises: tuple[int, ...] = ()
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]

    def __post_init__(self) -> None:
        n, r = self.num_players, self.num_rounds
        if self.betting not in ("limit", "nolimit"):
            raise GameDefError(f"betting must be 'limit' or 'nolimit', got {self.betting!r}")
        for name in ("num_players", "num_rounds", "num_suits", "num_ranks", "num_hole_cards"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise GameDefError(f"{name} must be an integer, got {v!r}")
        if not 2 <= n <= MAX_PLAYERS:
            raise GameDefError(f"invalid number of players: {n} (ACPC allows 2..{MAX_PLAYERS})")
        if not 1 <= r <= MAX_ROUNDS:
            raise GameDefError(f"invalid number of rounds: {r} (ACPC allows 1..{MAX_ROUNDS})")
        # defaults (ACPC) for the optional lists
        if not self.stack:
            object.__setattr__(self, "stack", (INT32_MAX,) * n)
        if not self.first_player:
            object.__setattr__(self, "first_player", (1,) * r)
        if not self.max_raises:
            object.__setattr__(self, "max_raises", (UINT8_MAX,) * r)
        for name in ("blind", "stack", "raise_size", "first_player", "max_raises",
                     "num_board_cards"):
            v = getattr(self, name)
            if not isinstance(v, tuple) or not all(
                    isinstance(x, int) and not isinstance(x, bool) for x in v):
                raise GameDefError(f"{name} must be a tuple of integers, got {v!r}")
            if any(x < 0 for x in v):
                raise GameDefError(f"{name} values must be >= 0, got {v!r}")
        for name, want in (("blind", n), ("stack", n), ("first_player", r),
                           ("max_raises", r), ("num_board_cards", r)):
            got = len(getattr(self, name))
            if got != want:
                what = "player" if name in ("blind", "stack") else "round"
                raise GameDefError(f"{name} needs {want} values (one per {what}), got {got}")
        if self.betting == "limit":
            if len(self.raise_size) != r:
                raise GameDefError(f"raise_size needs {r} values (one per round) for limit "
                                   f"betting, got {len(self.raise_size)}")
            if any(x < 1 for x in self.raise_size):
                raise GameDefError(f"raise sizes must be >= 1, got {self.raise_size}")
        elif self.raise_size:
            raise GameDefError("raise_size applies to limit betting only")
        if any(s > INT32_MAX for s in self.stack) or any(b > INT32_MAX for b in self.blind):
            raise GameDefError("stack and blind values must fit in 32 bits")
        for p in range(n):
            if self.stack[p] < 1:
                raise GameDefError(f"stack of player {p + 1} must be >= 1, got {self.stack[p]}")
            if self.blind[p] > self.stack[p]:
                raise GameDefError(f"blind for player {p + 1} ({self.blind[p]}) is greater "
                                   f"than its stack ({self.stack[p]})")
        for i, fp in enumerate(self.first_player):
            if not 1 <= fp <= n:
                raise GameDefError(f"invalid first player {fp} on round {i + 1} "
                                   f"(players are 1..{n})")
        if any(m > UINT8_MAX for m in self.max_raises):
            raise GameDefError(f"max_raises values must be <= {UINT8_MAX}, got {self.max_raises}")
        if not 1 <= self.num_suits <= MAX_SUITS:
            raise GameDefError(f"invalid number of suits: {self.num_suits} "
                               f"(ACPC allows 1..{MAX_SUITS})")
        if not 1 <= self.num_ranks <= MAX_RANKS:
            raise GameDefError(f"invalid number of ranks: {self.num_ranks} "
                               f"(ACPC allows 1..{MAX_RANKS})")
        if not 1 <= self.num_hole_cards <= MAX_HOLE_CARDS:
            raise GameDefError(f"invalid number of hole cards: {self.num_hole_cards} "
                               f"(ACPC allows 1..{MAX_HOLE_CARDS})")
        if sum(self.num_board_cards) > MAX_BOARD_CARDS:
            raise GameDefError(f"too many board cards: {sum(self.num_board_cards)} "
                               f"(ACPC allows {MAX_BOARD_CARDS} in all)")
        if self.cards_dealt > self.deck_size:
            raise GameDefError(f"too many hole and board cards ({self.cards_dealt}) for a deck "
                               f"of {self.deck_size}")

    # ------------------------------------------------------------------ derived facts
    @property
    def deck_size(self) -> int:
        return self.num_suits * self.num_ranks

    @property
    def cards_dealt(self) -> int:
        return self.num_hole_cards * self.num_players + sum(self.num_board_cards)

    @property
    def is_limit(self) -> bool:
        return self.betting == "limit"

    @property
    def big_blind(self) -> int:
        return max(self.blind)

    def with_changes(self, **changes: object) -> GameDef:
        """A copy with some fields replaced (validated again)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ writers
    def to_acpc(self) -> str:
        """The ACPC ``.game`` text (as ``printGame`` writes it; defaults left out)."""
        lines = ["GAMEDEF", self.betting, f"numPlayers = {self.num_players}",
                 f"numRounds = {self.num_rounds}"]
        if any(s < INT32_MAX for s in self.stack):
            lines.append("stack = " + _join(self.stack))
        lines.append("blind = " + _join(self.blind))
        if self.is_limit:
            lines.append("raiseSize = " + _join(self.raise_size))
        if any(f != 1 for f in self.first_player):
            lines.append("firstPlayer = " + _join(self.first_player))
        if any(m != UINT8_MAX for m in self.max_raises):
            lines.append("maxRaises = " + _join(self.max_raises))
        lines += [f"numSuits = {self.num_suits}", f"numRanks = {self.num_ranks}",
                  f"numHoleCards = {self.num_hole_cards}",
                  "numBoardCards = " + _join(self.num_board_cards), "END GAMEDEF"]
        return "\n".join(lines) + "\n"

    def to_universal_poker(self, betting_abstraction: str | None = None) -> str:
        """The ``universal_poker(...)`` string of this game (every parameter explicit).

        ``betting_abstraction`` defaults to ``fullgame``; limit games are written with
        ``fcpa`` instead (the same limit game: OpenSpiel's ``fullgame`` ids clash there).  Limit games
        with finite stacks cannot be written: OpenSpiel ignores ``stack`` for limit betting.
        """
        if betting_abstraction is None:
            betting_abstraction = "fullgame"
        if betting_abstraction not in BETTING_ABSTRACTIONS:
            raise GameDefError(f"unknown bettingAbstraction {betting_abstraction!r}; "
                               f"choose from {', '.join(BETTING_ABSTRACTIONS)}")
        if self.is_limit and betting_abstraction == "fullgame":
            betting_abstraction = "fcpa"  # the same limit game, with usable action ids
        if self.is_limit and any(s < INT32_MAX for s in self.stack):
            raise GameDefError("universal_poker ignores stack for limit betting: a limit game "
                               f"with stacks {_join(self.stack)} has no universal_poker form")
        # OpenSpiel reads a one-number list parameter as an integer and then rejects it,
        # so one-round lists are written twice ("firstPlayer=1 1"); ACPC ignores extras.
        def many(values: tuple[int, ...]) -> str:
            return _join(values * 2 if len(values) == 1 else values)

        parts = [f"betting={self.betting}", f"numPlayers={self.num_players}",
                 f"numRounds={self.num_rounds}", f"blind={_join(self.blind)}"]
        if self.is_limit:
            parts.append(f"raiseSize={many(self.raise_size)}")
        else:
            parts.append(f"stack={_join(self.stack)}")
        parts.append(f"firstPlayer={many(self.first_player)}")
        if any(m != UINT8_MAX for m in self.max_raises):
            parts.append(f"maxRaises={many(self.max_raises)}")
        parts += [f"numSuits={self.num_suits}", f"numRanks={self.num_ranks}",
                  f"numHoleCards={self.num_hole_cards}",
                  f"numBoardCards={many(self.num_board_cards)}",
                  f"bettingAbstraction={betting_abstraction}"]
        return "universal_poker(" + ",".join(parts) + ")"

    def to_json(self) -> dict[str, object]:
        return {"betting": self.betting, "num_players": self.num_players,
                "num_rounds": self.num_rounds, "stack": list(self.stack),
                "blind": list(self.blind), "raise_size": list(self.raise_size),
                "first_player": list(self.first_player), "max_raises": list(self.max_raises),
                "num_suits": self.num_suits, "num_ranks": self.num_ranks,
                "num_hole_cards": self.num_hole_cards,
                "num_board_cards": list(self.num_board_cards)}


def _join(values: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in values)


# ---------------------------------------------------------------------- ACPC .game files

# keyword (lower case) -> (field, kind, max values); kind "int" = one value, "list" = many
_KEYWORDS: dict[str, tuple[str, str, int]] = {
    "stack": ("stack", "list", MAX_PLAYERS),
    "blind": ("blind", "list", MAX_PLAYERS),
    "raisesize": ("raise_size", "list", MAX_ROUNDS),
    "numplayers": ("num_players", "int", 1),
    "numrounds": ("num_rounds", "int", 1),
    "firstplayer": ("first_player", "list", MAX_ROUNDS),
    "maxraises": ("max_raises", "list", MAX_ROUNDS),
    "numsuits": ("num_suits", "int", 1),
    "numranks": ("num_ranks", "int", 1),
    "numholecards": ("num_hole_cards", "int", 1),
    "numboardcards": ("num_board_cards", "list", MAX_ROUNDS),
}
_DISPLAY = {"stack": "stack", "blind": "blind", "raisesize": "raiseSize",
            "numplayers": "numPlayers", "numrounds": "numRounds", "firstplayer": "firstPlayer",
            "maxraises": "maxRaises", "numsuits": "numSuits", "numranks": "numRanks",
            "numholecards": "numHoleCards", "numboardcards": "numBoardCards"}
_INT_RE = re.compile(r"[0-9]+")
_KEY_RE = re.compile(r"([A-Za-z]+)\s*(.*)", re.S)


def parse_gamedef(text: str, *, source: str = "<string>") -> GameDef:
    """Parse ACPC game-definition text (see the module docs); errors name line and keyword."""
    if not isinstance(text, str):
        raise GameDefError(f"{source}: game definition must be text, got {type(text).__name__}")
    if len(text) > MAX_FILE_CHARS:
        raise GameDefError(f"{source}: game definition longer than {MAX_FILE_CHARS} characters")
    values: dict[str, tuple[int, tuple[int, ...]]] = {}   # keyword -> (line, values)
    betting: tuple[int, str] | None = None
    ended = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{source}, line {lineno}"
        if ended:
            raise GameDefError(f"{where}: text after END GAMEDEF (line {ended}): {raw.strip()!r}")
        low = line.lower()
        if low.split() == ["end", "gamedef"]:
            ended = lineno
            continue
        if low == "gamedef":
            continue
        if low in ("limit", "nolimit"):
            if betting is not None:
                raise GameDefError(f"{where}: betting type given twice ({betting[1]} on line "
                                   f"{betting[0]}, {low} here)")
            betting = (lineno, low)
            continue
        m = _KEY_RE.fullmatch(line)
        key = m.group(1).lower() if m else ""
        if key not in _KEYWORDS:
            word = m.group(1) if m else line.split()[0]
            raise GameDefError(f"{where}: unknown keyword {word!r}; known: limit, nolimit, "
                               + ", ".join(_DISPLAY.values()))
        assert m is not None
        name = _DISPLAY[key]
        if key in values:
            raise GameDefError(f"{where}: {name} given twice (first on line {values[key][0]})")
        rest = m.group(2).strip()
        if rest.startswith("="):
            rest = rest[1:].strip()
        tokens = rest.replace("=", " ").split()
        _, kind, most = _KEYWORDS[key]
        if not tokens:
            raise GameDefError(f"{where}: {name} has no value")
        for tok in tokens:
            if not _INT_RE.fullmatch(tok):
                raise GameDefError(f"{where}: {name} value {tok!r} is not a non-negative integer")
        if len(tokens) > most:
            raise GameDefError(f"{where}: {name} takes at most {most} value"
                               f"{'s' if most > 1 else ''}, got {len(tokens)}")
        nums = tuple(int(t) for t in tokens)
        if any(v > INT32_MAX for v in nums):
            raise GameDefError(f"{where}: {name} value {max(nums)} does not fit in 32 bits")
        values[key] = (lineno, nums)
    return _build(values, "nolimit" if betting is not None and betting[1] == "nolimit"
                  else "limit", source, lambda k: f"{source}, line {values[k][0]}: "
                  f"{_DISPLAY[k]}")


def _build(values: dict[str, tuple[int, tuple[int, ...]]], betting: str, source: str,
           where: object) -> GameDef:
    """Check counts like ACPC's readGame, then construct (which checks the limits)."""
    def need(key: str) -> tuple[int, ...]:
        if key not in values:
            raise GameDefError(f"{source}: {_DISPLAY[key]} is missing")
        return values[key][1]

    def loc(key: str) -> str:
        return where(key) if callable(where) else f"{source}: {_DISPLAY[key]}"

    n = need("numplayers")[0]
    r = need("numrounds")[0]
    if not 1 <= r <= MAX_ROUNDS:
        raise GameDefError(f"{loc('numrounds')}: invalid number of rounds {r} "
                           f"(ACPC allows 1..{MAX_ROUNDS})")
    if not 2 <= n <= MAX_PLAYERS:
        raise GameDefError(f"{loc('numplayers')}: invalid number of players {n} "
                           f"(ACPC allows 2..{MAX_PLAYERS})")

    def lst(key: str, count: int, *, required: bool) -> tuple[int, ...]:
        if key not in values:
            if required:
                raise GameDefError(f"{source}: {_DISPLAY[key]} is missing")
            return ()
        got = values[key][1]
        if len(got) < count:
            raise GameDefError(f"{loc(key)}: only read {len(got)} value"
                               f"{'s' if len(got) != 1 else ''}, need {count}")
        return got[:count]

    kwargs: dict[str, object] = {
        "betting": betting, "num_players": n, "num_rounds": r,
        "stack": lst("stack", n, required=False),
        "blind": lst("blind", n, required=True),
        "raise_size": lst("raisesize", r, required=True) if betting == "limit" else (),
        "first_player": lst("firstplayer", r, required=False),
        "max_raises": lst("maxraises", r, required=False),
        "num_suits": need("numsuits")[0], "num_ranks": need("numranks")[0],
        "num_hole_cards": need("numholecards")[0],
        "num_board_cards": lst("numboardcards", r, required=True),
    }
    try:
        return GameDef(**kwargs)  # type: ignore[arg-type]
    except GameDefError as exc:
        raise GameDefError(f"{source}: {exc}") from None


def load_gamedef(path: str | os.PathLike[str]) -> GameDef:
    """Read and parse an ACPC ``.game`` file (or a shipped name such as ``leduc``)."""
    p = resolve_gamedef_path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise GameDefError(f"cannot read game definition {str(p)!r}: "
                           f"{exc.strerror or exc}") from None
    if len(data) > MAX_FILE_CHARS:
        raise GameDefError(f"{p}: game definition longer than {MAX_FILE_CHARS} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameDefError(f"{p}: game definition is not UTF-8 text") from None
    return parse_gamedef(text, source=str(p))


def shipped_gamedefs() -> dict[str, Path]:
    """The definitions shipped in ``pokerlab/data/games`` by name (file stem)."""
    d = Path(__file__).resolve().parent.parent / "data" / "games"
    return {f.stem: f for f in sorted(d.glob("*.game"))}


def resolve_gamedef_path(path: str | os.PathLike[str]) -> Path:
    """``path`` itself when it exists, else the shipped definition of that name."""
    p = Path(path)
    if p.exists():
        return p
    shipped = shipped_gamedefs()
    stem = p.name[:-5] if p.name.endswith(".game") else p.name
    if str(path) in shipped or (p.parent == Path(".") and stem in shipped):
        return shipped[stem]
    raise GameDefError(f"no game definition file {str(path)!r} (and no shipped definition of "
                       f"that name; shipped: {', '.join(shipped)})")


# ------------------------------------------------------------- universal_poker(...) strings

_UP_DEFAULTS: dict[str, str] = {
    "numPlayers": "2", "betting": "nolimit", "stack": "1200 1200", "blind": "100 100",
    "raiseSize": "100 100", "numRounds": "2", "firstPlayer": "1 1", "maxRaises": "",
    "numSuits": "4", "numRanks": "6", "numHoleCards": "1", "numBoardCards": "0 1",
    "bettingAbstraction": "fcpa", "calcOddsNumSims": "0", "potSize": "0", "boardCards": "",
    "handReaches": "",
}
_UP_TO_KEY = {"numPlayers": "numplayers", "stack": "stack", "blind": "blind",
              "raiseSize": "raisesize", "numRounds": "numrounds", "firstPlayer": "firstplayer",
              "maxRaises": "maxraises", "numSuits": "numsuits", "numRanks": "numranks",
              "numHoleCards": "numholecards", "numBoardCards": "numboardcards"}


def parse_universal_poker(text: str) -> tuple[GameDef, str]:
    """Parse ``universal_poker(k=v,...)`` into ``(GameDef, bettingAbstraction)``."""
    if not isinstance(text, str):
        raise GameDefError(f"universal_poker string must be text, got {type(text).__name__}")
    s = text.strip()
    if len(s) > MAX_FILE_CHARS:
        raise GameDefError("universal_poker string is too long")
    if s == "universal_poker":
        body = ""
    elif s.startswith("universal_poker(") and s.endswith(")"):
        body = s[len("universal_poker("):-1]
    else:
        raise GameDefError(f"not a universal_poker(...) string: {text[:80]!r}")
    given: dict[str, str] = {}
    if body.strip():
        for part in body.split(","):
            if "=" not in part:
                raise GameDefError(f"universal_poker parameter {part.strip()!r} lacks '=value'")
            k, v = part.split("=", 1)
            k, v = k.strip(), v.strip()
            if k not in _UP_DEFAULTS:
                raise GameDefError(f"unknown universal_poker parameter {k!r}; known: "
                                   + ", ".join(_UP_DEFAULTS))
            if k in given:
                raise GameDefError(f"universal_poker parameter {k!r} given twice")
            given[k] = v
    p = {**_UP_DEFAULTS, **given}
    for k in ("potSize", "boardCards", "handReaches"):
        if p[k] not in ("", "0"):
            raise GameDefError(f"universal_poker subgame parameter {k}={p[k]!r} is not "
                               "supported")
    if not _INT_RE.fullmatch(p["calcOddsNumSims"]):
        raise GameDefError(f"calcOddsNumSims value {p['calcOddsNumSims']!r} is not a "
                           "non-negative integer")
    betting = p["betting"]
    if betting not in ("limit", "nolimit"):
        raise GameDefError(f"betting should be limit or nolimit, not {betting!r}")
    abstraction = p["bettingAbstraction"]
    if abstraction not in BETTING_ABSTRACTIONS:
        raise GameDefError(f"bettingAbstraction {abstraction!r} is not supported; choose from "
                           + ", ".join(BETTING_ABSTRACTIONS))
    values: dict[str, tuple[int, tuple[int, ...]]] = {}
    for name, key in _UP_TO_KEY.items():
        if name == "stack" and betting == "limit":
            continue  # OpenSpiel leaves the ACPC default (unlimited) for limit games
        if name == "raiseSize" and betting == "nolimit":
            continue
        raw = p[name].split()
        if not raw:
            continue
        for tok in raw:
            if not _INT_RE.fullmatch(tok):
                raise GameDefError(f"universal_poker {name} value {tok!r} is not a "
                                   "non-negative integer")
        nums = tuple(int(t) for t in raw)
        _, kind, most = _KEYWORDS[key]
        if len(nums) > most:
            raise GameDefError(f"universal_poker {name} takes at most {most} value"
                               f"{'s' if most > 1 else ''}, got {len(nums)}")
        if any(v > INT32_MAX for v in nums):
            raise GameDefError(f"universal_poker {name} value {max(nums)} does not fit in 32 "
                               "bits")
        values[key] = (0, nums)
    gd = _build(values, betting, "universal_poker",
                lambda k: f"universal_poker {_DISPLAY[k]}")
    if max(gd.blind) < 1:
        raise GameDefError("universal_poker needs a blind of at least one chip")
    return gd, abstraction
