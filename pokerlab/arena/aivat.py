"""AIVAT of agent specs: :func:`aivat_match` (specs or objects) and :func:`aivat_summary`
(what ``pokerlab match --aivat`` adds).  The estimator is :mod:`pokerlab.evaluation.aivat`.
"""

from __future__ import annotations

from typing import Any

from pokerlab.evaluation import aivat as _core
from pokerlab.evaluation.aivat import AIVATResult
from pokerlab.evaluation.matches import game_kind


def aivat_match(agent_a: Any, agent_b: Any, *, game: str = "hunl", hands: int = 1000,
                duplicate: bool = True, seed: int = 0, stack_bb: float | None = None,
                names: tuple[str, str] | None = None, value: str = "checkdown",
                warn: Any = None) -> AIVATResult:
    """:func:`pokerlab.evaluation.aivat.aivat_match` with agents given as objects or specs
    (a spec is built for the match's table and named by itself); ``stack_bb`` defaults to
    the agents' own (:func:`pokerlab.arena.matches.resolve_stack`)."""
    from pokerlab.agents.registry import build_agent
    from pokerlab.arena.matches import resolve_stack

    kind = game_kind(game)
    _core.check_value(value, kind)
    stack_bb = resolve_stack([agent_a, agent_b], stack_bb, kind=kind, warn=warn)
    nm = names or (str(agent_a) if isinstance(agent_a, str) else str(agent_a.name),
                   str(agent_b) if isinstance(agent_b, str) else str(agent_b.name))
    hc = None
    if kind == "hunl":
        from pokerlab.holdem.engine import HoldemConfig

        hc = HoldemConfig.from_bb(stack_bb)
    a = build_agent(agent_a, game=kind, config=hc) if isinstance(agent_a, str) else agent_a
    b = build_agent(agent_b, game=kind, config=hc) if isinstance(agent_b, str) else agent_b
    return _core.aivat_match(a, b, game=kind, hands=hands, duplicate=duplicate, seed=seed,
                             stack_bb=stack_bb, names=nm, value=value)


def aivat_summary(agent_a: str, agent_b: str, *, game: str = "hunl", hands: int = 1000,
                  duplicate: bool = False, seed: int = 0, stack_bb: float | None = None,
                  warn: Any = None) -> dict[str, Any]:
    """The keys ``pokerlab match --aivat`` adds to its JSON: ``aivat_mean_mbb``,
    ``aivat_ci95_mbb``, ``aivat_sd_mbb`` (plus the SD reductions and all-in figures).

    Replays the match's own deals and seeds, so ``mean_mbb`` here equals the match's."""
    res = aivat_match(agent_a, agent_b, game=game, hands=hands, duplicate=duplicate,
                      seed=seed, stack_bb=stack_bb, warn=warn)
    d = res.to_json()
    keep = {k: v for k, v in d.items() if k.startswith(("aivat_", "allin_"))
            or k == "duplicate_sd_mbb"}
    keep["aivat_raw_mean_mbb"] = d["mean_mbb"]
    return keep
