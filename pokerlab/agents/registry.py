"""Agent specs to agents (:func:`make_agent` / :func:`build_agent`).

HUNL: ``random``, ``call``, ``raise``, ``tag``, ``pushfold``, ``policy:PATH``,
``blueprint`` (the shipped blueprint policy, when it is installed), ``thesis`` (only when a
thesis policy file is shipped).  Small games (``kuhn``, ``leduc``, ``eight_card``):
``random`` and ``policy:PATH``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokerlab.agents.thesis import is_thesis_policy, load_thesis_agent
from pokerlab.errors import AgentError
from pokerlab.holdem.engine import HoldemConfig
from pokerlab.io import PACKAGE_DATA

HUNL_SPECS = ("random", "call", "raise", "tag", "pushfold", "policy:PATH", "blueprint",
              "thesis")
SMALL_SPECS = ("random", "policy:PATH")

BLUEPRINT_FILES = ("blueprint.npz", "blueprint_policy.npz", "blueprint/policy.npz")
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
    if kind != "hunl":
        from pokerlab.agents.small import SmallPolicyAgent, SmallRandomAgent

        if low == "random":
            return SmallRandomAgent(seed=seed)
        if low.startswith("policy:"):
            from pokerlab.policy import load_policy

            path = s.split(":", 1)[1]
            _check_file(path, s)
            return SmallPolicyAgent(load_policy(path), name=s, seed=seed)
        raise AgentError(f"unknown agent {spec!r} for {kind}; known: {', '.join(SMALL_SPECS)}")
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
    if low in ("blueprint", "thesis"):
        p = shipped_policy(BLUEPRINT_FILES if low == "blueprint" else THESIS_FILES)
        if p is None:
            raise AgentError(
                f"agent {spec!r}: no {low} policy is installed in {PACKAGE_DATA} "
                f"(train one and use policy:PATH)")
        return _policy_agent(str(p), name=low, config=config, seed=seed)
    raise AgentError(f"unknown agent {spec!r}; known: {', '.join(HUNL_SPECS)}")


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
