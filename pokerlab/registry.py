"""Agent specs to agents (:func:`make_agent` / :func:`build_agent`): the composition root.

The one place that turns a spec string into an agent object, wiring each agent with what
it needs from the layers around it, by import: the adaptive agent on HUNL gets its
response trainer (:func:`pokerlab.opponents.hunl_model.adapt_trainer`, an application above
the agents), the searching agent and the adaptive agents their base agents (built here,
through :func:`build_agent`).  No module is named in a string.  It sits above the
applications it wires (``blueprint``, ``opponents``) and below those that resolve specs
(``arena``, ``play``, ``hands``) and the front end (pokerlab/_layers.py).

HUNL: ``random``, ``call``, ``raise``, ``tag``, ``pushfold``, ``policy:PATH``,
``blueprint`` (the shipped blueprint for the table's stack; 100 bb when no stack is
given), ``blueprint-N`` (the shipped blueprint of N big blinds: ``blueprint-100``,
``blueprint-200``), ``thesis`` (only when a thesis
policy file is shipped), ``adapt`` (the adaptive agent over a blueprint:
:mod:`pokerlab.agents.adapt_hunl`), ``search`` (:mod:`pokerlab.agents.search`).  Small
games (``kuhn``, ``leduc``, ``eight_card``): ``random``, ``policy:PATH`` and ``adapt``.  Any
game: ``python:MODULE:FACTORY`` and the names of the ``pokerlab.agents`` entry points
(outside agents, :mod:`pokerlab.agents.outside`).

A policy agent knows its game's stacks (:func:`spec_stack_bb`, :func:`agent_stack_bb`);
``blueprint`` at a stack no shipped blueprint was trained for is refused by
:func:`check_spec_stack` (what matches, LBR and leagues call).  The shipped files
themselves are :mod:`pokerlab.agents.shipped` (re-exported here).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokerlab.agents.shipped import (
    BLUEPRINT_FILES,
    MORE_BLUEPRINT_FILES,
    PACKAGE_DATA,
    THESIS_FILES,
    agent_stack_bb,
    blueprint_for,
    policy_stack_bb,
    shipped_blueprints,
    shipped_policy,
)
from pokerlab.agents.thesis import is_thesis_policy, load_thesis_agent
from pokerlab.errors import AgentError
from pokerlab.games.heads_up import game_kind
from pokerlab.holdem.engine import HoldemConfig

__all__ = ["BLUEPRINT_FILES", "HUNL_SPECS", "MORE_BLUEPRINT_FILES", "OUTSIDE_SPECS",
           "PACKAGE_DATA", "SMALL_SPECS", "THESIS_FILES", "agent_stack_bb", "blueprint_for",
           "build_agent", "check_spec_stack", "game_kind", "make_agent", "policy_stack_bb",
           "shipped_blueprints", "shipped_policy", "spec_stack_bb"]

HUNL_SPECS = ("random", "call", "raise", "tag", "pushfold", "policy:PATH", "blueprint",
              "thesis", "search", "adapt")
OUTSIDE_SPECS = ("python:MODULE:FACTORY",)
SMALL_SPECS = ("random", "policy:PATH", "adapt")


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
            from pokerlab.opponents.hunl_model import adapt_trainer

            return make_hunl_adapt_agent(s, config=config, seed=seed, build=build_agent,
                                         responder=adapt_trainer)
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
