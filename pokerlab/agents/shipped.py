"""The policies shipped in the package's data folder, and the stacks policies were made for.

What the registry (:mod:`pokerlab.registry`, the composition root), the blueprint charts, the
opponent models' default base and the hand reviews share: the shipped blueprint and thesis
files (:func:`shipped_policy`, :func:`shipped_blueprints`, :func:`blueprint_for`) and the
stack a policy file or an agent object was made for (:func:`policy_stack_bb`,
:func:`agent_stack_bb`).  Nothing here builds an agent from a spec.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokerlab.holdem.engine import HoldemConfig
from pokerlab.io import PACKAGE_DATA

__all__ = ["BLUEPRINT_FILES", "MORE_BLUEPRINT_FILES", "PACKAGE_DATA", "THESIS_FILES",
           "agent_stack_bb", "blueprint_for", "policy_stack_bb", "shipped_blueprints",
           "shipped_policy"]

BLUEPRINT_FILES = ("blueprint.npz", "blueprint_policy.npz", "blueprint/policy.npz")
"""The default shipped blueprint (``blueprint`` without a stack: 100 bb)."""
MORE_BLUEPRINT_FILES = ("blueprint_200_policy.npz",)
"""Further shipped blueprints, one per stack (``blueprint-200``: the ACPC / Slumbot game)."""
THESIS_FILES = ("thesis.npz", "thesis_policy.npz", "thesis/policy.npz")


def shipped_policy(files: tuple[str, ...]) -> Path | None:
    """The first of ``files`` (names in the package's data folder) that exists."""
    for f in files:
        p = PACKAGE_DATA / f
        if p.is_file():
            return p
    return None


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
