"""Agent specs to agents (:func:`make_agent` / :func:`build_agent`).

HUNL: ``random``, ``call``, ``raise``, ``tag``, ``pushfold``, ``policy:PATH``,
``blueprint`` (the shipped blueprint for the table's stack; 100 bb when no stack is
given), ``blueprint-N`` (the shipped blueprint of N big blinds: ``blueprint-100``,
``blueprint-200``), ``thesis`` (only when a thesis
policy file is shipped), ``adapt`` (the adaptive agent over a blueprint:
:mod:`pokerlab.agents.adapt_hunl`).  Small games (``kuhn``, ``leduc``, ``eight_card``): ``random`` and
``policy:PATH``.  Any game: ``python:MODULE:FACTORY`` and the names of the
``pokerlab.agents`` entry points (outside agents, :mod:`pokerlab.agents.outside`).

A policy agent knows its game's stacks (:func:`spec_stack_bb`, :func:`agent_stack_bb`);
``blueprint`` at a stack no shipped blueprint was trained for is refused by
:func:`check_spec_stack` (what matches, LBR and leagues call).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokerlab.agents.thesis import is_thesis_policy, load_thesis_agent
from pokerlab.errors import AgentError
from pokerlab.holdem.engine import HoldemConfig
from pokerlab.io import PACKAGE_DATA

HUNL_SPECS = ("random", "call", "raise", "tag", "pushfold", "policy:PATH", "blueprint",
              "thesis", "search", "adapt")
OUTSIDE_SPECS = ("python:MODULE:FACTORY",)
SMALL_SPECS = ("random", "policy:PATH", "adapt")

BLUEPRINT_FILES = ("blueprint.npz", "blueprint_policy.npz", "blueprint/policy.npz")
"""The default shipped blueprint (``blueprint`` without a stack: 100 bb)."""
MORE_BLUEPRINT_FILES = ("blueprint_200_policy.npz",)
"""Further shipped blueprints, one per stack (``blueprint-200``: the ACPC / Slumbot game)."""
THESIS_FILES = ("thesis.npz", "thesis_policy.npz", "thesis/policy.npz")


def game_kind(game: str) -> str:
    """``"hunl"``, or the game string of a small two-player protocol game
    (:func:`pokerlab.evaluation.matches.game_kind`, imported when first asked)."""
    from pokerlab.evaluation.matches import game_kind as kind

    return kind(game)


def shipped_policy(files: tuple[str, ...]) -> Path | None:
    for f in files:
        p = PACKAGE_DATA / f
        if p.is_file():
            return p
    return None


def make_agent(spec: str, *, game: str = "hunl", config: HoldemConfig | None = None,
               seed: int = 0) -> Any:
    """Build the agent named by ``spec``.

    HUNL specs: ``random``, ``call``, ``raise``, ``tag``, ``pushfold``, ``policy:PATH``,
    ``blueprint``, ``thesis``.  Small games (``kuhn``, ``leduc``, ``eight_card``):
    ``random`` and ``policy:PATH``.  ``config`` is the HUNL table (stacks, blinds).
    """
    return build_agent(spec, game=game, config=config, seed=seed)


def build_agent(spec: str, *, game: str = "hunl", config: HoldemConfig | None = None,
                seed: int = 0) -> Any:
    if not isinstance(spec, str) or not spec.strip():
        raise AgentError(f"agent spec must be a non-empty string, got {spec!r}")
    s = spec.strip()
    kind = game_kind(game)
    low = s.lower()
    from pokerlab.agents import outside

    if low.startswith("python:"):
        return outside.build_outside(s, game=kind, config=config, seed=seed)
    if low == "adapt" or low.startswith(("adapt:", "adapt(")):  # the adaptive agent
        if kind == "hunl":
            from pokerlab.agents.adapt_hunl import make_hunl_adapt_agent

            return make_hunl_adapt_agent(s, config=config, seed=seed, build=build_agent)
        from pokerlab.agents.adapt import make_adapt_agent

        return make_adapt_agent(s, game=kind, kind=kind, seed=seed, build=build_agent)
    if low == "search" or low.startswith(("search:", "search(")):  # real-time search
        if kind != "hunl":
            raise AgentError(f"agent {spec!r}: search plays heads-up no-limit hold'em only")
        from pokerlab.agents.search import make_search_agent

        return make_search_agent(s, build=build_agent, config=config, seed=seed)
    if kind != "hunl":
        from pokerlab.agents.small import SmallPolicyAgent, SmallRandomAgent

        if low == "random":
            return SmallRandomAgent(seed=seed)
        if low.startswith("policy:"):
            from pokerlab.policy import load_policy

            path = s.split(":", 1)[1]
            _check_file(path, s)
            return SmallPolicyAgent(load_policy(path), name=s, seed=seed)
        if outside.entry_point(s) is not None:
            return outside.build_outside(s, game=kind, config=config, seed=seed)
        raise AgentError(f"unknown agent {spec!r} for {kind}; known: "
                         f"{', '.join(SMALL_SPECS + OUTSIDE_SPECS)}")
    from pokerlab.agents import rules
    from pokerlab.agents.random_agent import RandomAgent

    if low == "random":
        return RandomAgent(seed=seed)
    if low == "call":
        return rules.CallAgent()
    if low == "raise":
        return rules.RaiseAgent()
    if low == "tag":
        return rules.TagAgent()
    if low == "pushfold":
        return rules.PushFoldAgent(seed=seed)
    if low.startswith("policy:"):
        path = s.split(":", 1)[1]
        _check_file(path, s)
        return _policy_agent(path, name=s, config=config, seed=seed)
    if low.startswith("blueprint-"):
        return _shipped_blueprint(s, config=config, seed=seed)
    if low in ("blueprint", "thesis"):
        p = (blueprint_for(config) if low == "blueprint" else shipped_policy(THESIS_FILES))
        if p is None:
            raise AgentError(
                f"agent {spec!r}: no {low} policy is installed in {PACKAGE_DATA} "
                f"(train one and use policy:PATH)")
        return _policy_agent(str(p), name=low, config=config, seed=seed)
    if outside.entry_point(s) is not None:
        return outside.build_outside(s, game=kind, config=config, seed=seed)
    raise AgentError(f"unknown agent {spec!r}; known: "
                     f"{', '.join(HUNL_SPECS + ('blueprint-N',) + OUTSIDE_SPECS)}")


def _check_file(path: str, spec: str) -> None:
    if not path:
        raise AgentError(f"agent spec {spec!r} needs a file: policy:PATH")
    if not Path(path).is_file():
        raise AgentError(f"agent {spec!r}: policy file {path!r} does not exist")


def _policy_agent(path: str, *, name: str, config: HoldemConfig | None, seed: int) -> Any:
    from pokerlab.agents.policy_agent import load_policy_agent

    if is_thesis_policy(path):
        return load_thesis_agent(path, name=name, seed=seed)
    return load_policy_agent(path, name=name, config=config, seed=seed)


# ----------------------------------------------------------------------------- stacks
def shipped_blueprints() -> dict[float, Path]:
    """The shipped blueprint policies by their game's stack in big blinds."""
    out: dict[float, Path] = {}
    first = shipped_policy(BLUEPRINT_FILES)
    for p in (first, *(PACKAGE_DATA / f for f in MORE_BLUEPRINT_FILES)):
        if p is None or not p.is_file():
            continue
        bb = policy_stack_bb(str(p))
        if bb is not None:
            out.setdefault(bb, p)
    return out


def blueprint_for(config: HoldemConfig | None) -> Path | None:
    """``blueprint``: the shipped blueprint for the table's stack (``config``) when one
    ships for it, else the default one (100 bb; it then plays by action translation)."""
    if config is not None and config.big_blind > 0:
        p = shipped_blueprints().get(float(min(config.stacks)) / float(config.big_blind))
        if p is not None:
            return p
    return shipped_policy(BLUEPRINT_FILES)


def _shipped_blueprint(spec: str, *, config: HoldemConfig | None, seed: int) -> Any:
    """``blueprint-N``: the shipped blueprint of N big blinds."""
    text = spec.split("-", 1)[1]
    try:
        want = float(text)
    except ValueError:
        raise AgentError(f"agent {spec!r}: blueprint-N needs a stack in big blinds, "
                         f"e.g. blueprint-100") from None
    ships = shipped_blueprints()
    if want not in ships:
        have = ", ".join(f"blueprint-{x:g}" for x in sorted(ships)) or "none"
        raise AgentError(f"agent {spec!r}: no {want:g} bb blueprint ships (shipped: {have})")
    return _policy_agent(str(ships[want]), name=f"blueprint-{want:g}", config=config,
                         seed=seed)


def policy_stack_bb(path: str) -> float | None:
    """The stack (big blinds) of the HUNL game a policy file names, or ``None`` when the
    file names no HUNL game with a bet-set abstraction (read from its metadata only)."""
    import json

    side = Path(path).with_suffix(".json")
    if side.is_file():
        try:
            cfg = json.loads(side.read_text()).get("config", {})
            if isinstance(cfg, dict) and isinstance(cfg.get("stack_bb"), (int, float)):
                return float(cfg["stack_bb"])
        except (OSError, ValueError, AttributeError):
            pass
    try:
        from pokerlab.policy.indexed import load_any_policy

        meta = load_any_policy(path).metadata
        game = meta.get("game") if isinstance(meta, dict) else None
        if not isinstance(game, str) or not game.strip().lower().startswith("hunl"):
            return None
        from pokerlab.games import load_game

        cfg = load_game(game.replace("bets=custom", "bets=identity")).config
        return float(min(cfg.stacks)) / float(cfg.big_blind)
    except Exception:  # noqa: BLE001 - no stack known; building the agent says what is wrong
        return None


def agent_stack_bb(agent: Any) -> float | None:
    """The stack (big blinds) an agent object was built for: its ``stack_bb`` attribute,
    else its policy game's stacks (``agent.game.config``); ``None`` for agents that play
    any stack alike (rule agents)."""
    v = getattr(agent, "stack_bb", None)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    cfg = getattr(getattr(agent, "game", None), "config", None)
    stacks = getattr(cfg, "stacks", None)
    bb = getattr(cfg, "big_blind", None)
    if stacks and isinstance(bb, (int, float)) and bb > 0:
        return float(min(stacks)) / float(bb)
    return None


def spec_stack_bb(spec: str, at: float | None = None) -> float | None:
    """The stack (big blinds) the agent of ``spec`` was trained for (``policy:PATH``,
    ``blueprint``, ``blueprint-N``, ``thesis``; ``adapt``: its base's), ``None`` for agents
    without one.  ``at``: the table's stack, where ``blueprint`` means the blueprint
    shipped for it when there is one."""
    spec = _adapt_base(spec)
    low = spec.strip().lower()
    if low == "blueprint" and at is not None and float(at) in shipped_blueprints():
        return float(at)
    if low.startswith("policy:"):
        path = spec.strip().split(":", 1)[1]
        return policy_stack_bb(path) if Path(path).is_file() else None
    if low.startswith("blueprint-"):
        try:
            return float(low.split("-", 1)[1])
        except ValueError:
            return None
    if low in ("blueprint", "thesis"):
        p = shipped_policy(BLUEPRINT_FILES if low == "blueprint" else THESIS_FILES)
        return None if p is None else policy_stack_bb(str(p))
    return None


def check_spec_stack(spec: str, stack_bb: float) -> None:
    """Refuse ``blueprint`` at a stack no shipped blueprint was trained for (a match,
    LBR or league at ``stack_bb`` big blinds; ``adapt``: its base)."""
    if _adapt_base(spec).strip().lower() != "blueprint":
        return
    ships = shipped_blueprints()
    if ships and float(stack_bb) not in ships:
        have = ", ".join(f"{x:g} bb (blueprint-{x:g})" for x in sorted(ships))
        other = f"blueprint-{min(ships):g}"
        if spec.strip().lower().startswith("adapt"):  # adapt over the blueprint: as its base
            other = f"adapt:{other}"
        raise AgentError(f"no {float(stack_bb):g} bb blueprint ships (shipped: {have}); name "
                         f"{other} to play it at {float(stack_bb):g} bb by action translation")


def _adapt_base(spec: str) -> str:
    """The base policy spec of a HUNL ``adapt`` spec (``spec`` itself otherwise)."""
    low = spec.strip().lower()
    if not (low == "adapt" or low.startswith(("adapt:", "adapt("))):
        return spec
    from pokerlab.agents.adapt_hunl import parse_hunl_spec

    try:
        return parse_hunl_spec(spec).base
    except AgentError:
        return spec
