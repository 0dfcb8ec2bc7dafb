"""AIVAT of agent specs: :func:`aivat_match` (specs or objects) and :func:`aivat_summary`
(what ``pokerlab match --aivat`` adds).  The estimator is :mod:`pokerlab.evaluation.aivat`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pokerlab.evaluation import aivat as _core
from pokerlab.evaluation.aivat import AIVATResult
from pokerlab.evaluation.matches import game_kind


def aivat_match(agent_a: Any, agent_b: Any, *, game: str = "hunl", hands: int = 1000,
                duplicate: bool = True, seed: int = 0, stack_bb: float | None = None,
                names: tuple[str, str] | None = None, value: str = "checkdown",
                warn: Any = None, workers: int = 1, ray_address: str | None = None,
                progress: Any = None) -> AIVATResult:
    """:func:`pokerlab.evaluation.aivat.aivat_match` with agents given as objects or specs
    (a spec is built for the match's table and named by itself); ``stack_bb`` defaults to
    the agents' own (:func:`pokerlab.arena.matches.resolve_stack`).

    ``workers`` > 1 (or ``ray_address``) plays the hands in chunks on the one executor
    (:func:`pokerlab.evaluation.aivat.aivat_chunked`): the same result hand by hand; agent
    objects are pickled to the workers. ``progress(done, total)`` counts hands."""
    from pokerlab.arena.matches import ObjectFactory, resolve_stack, spec_agent
    from pokerlab.executor import check_ray_address, check_workers
    from pokerlab.registry import build_agent

    kind = game_kind(game)
    _core.check_value(value, kind)
    stack_bb = resolve_stack([agent_a, agent_b], stack_bb, kind=kind, warn=warn)
    nm = names or (str(agent_a) if isinstance(agent_a, str) else str(agent_a.name),
                   str(agent_b) if isinstance(agent_b, str) else str(agent_b.name))
    check_workers(workers, option="workers")
    if ray_address is not None:
        check_ray_address(ray_address)
    if workers > 1 or ray_address is not None:
        objects = {k: x for k, x in enumerate((agent_a, agent_b)) if not isinstance(x, str)}
        make: Any = ObjectFactory(objects) if objects else spec_agent
        specs = tuple(x if isinstance(x, str) else nm[k]
                      for k, x in enumerate((agent_a, agent_b)))
        res = _core.aivat_chunked(make, (specs[0], specs[1]), game=kind, hands=hands,
                                  duplicate=duplicate, seed=seed, stack_bb=stack_bb,
                                  value=value, workers=workers, ray_address=ray_address,
                                  progress=progress)
        return replace(res, agents=nm)  # the chunks name agents by their specs
    hc = None
    if kind == "hunl":
        from pokerlab.holdem.engine import HoldemConfig

        hc = HoldemConfig.from_bb(stack_bb)
    a = build_agent(agent_a, game=kind, config=hc) if isinstance(agent_a, str) else agent_a
    b = build_agent(agent_b, game=kind, config=hc) if isinstance(agent_b, str) else agent_b
    return _core.aivat_match(a, b, game=kind, hands=hands, duplicate=duplicate, seed=seed,
                             stack_bb=stack_bb, names=nm, value=value, progress=progress)


def aivat_summary(agent_a: str, agent_b: str, *, game: str = "hunl", hands: int = 1000,
                  duplicate: bool = False, seed: int = 0, stack_bb: float | None = None,
                  warn: Any = None, workers: int = 1,
                  ray_address: str | None = None) -> dict[str, Any]:
    """The keys ``pokerlab match --aivat`` adds to its JSON: ``aivat_mean_mbb``,
    ``aivat_ci95_mbb``, ``aivat_sd_mbb`` (plus the SD reductions and all-in figures).

    Replays the match's own deals and seeds, so ``mean_mbb`` here equals the match's."""
    res = aivat_match(agent_a, agent_b, game=game, hands=hands, duplicate=duplicate,
                      seed=seed, stack_bb=stack_bb, warn=warn, workers=workers,
                      ray_address=ray_address)
    d = res.to_json()
    keep = {k: v for k, v in d.items() if k.startswith(("aivat_", "allin_"))
            or k == "duplicate_sd_mbb"}
    keep["aivat_raw_mean_mbb"] = d["mean_mbb"]
    return keep
