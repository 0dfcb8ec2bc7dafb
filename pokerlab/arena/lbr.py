"""LBR against an agent spec: :func:`run_lbr` (what ``pokerlab lbr`` runs).

The method is :mod:`pokerlab.evaluation.lbr` (sampled, split over processes:
:func:`~pokerlab.evaluation.lbr.run_sampled_lbr`) and
:mod:`pokerlab.evaluation.lbr_small` (exact, small games); here a spec becomes the
opponent, in every worker process (:func:`hunl_opponent`, :func:`small_opponent`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import Any

from pokerlab.evaluation.lbr import (  # noqa: F401 - the LBR names, as before
    LBRResult,
    check_lbr_args,
    run_sampled_lbr,
)
from pokerlab.holdem.engine import HoldemConfig


def hunl_opponent(spec: str, stack_bb: float) -> Any:
    """The HUNL agent of ``spec`` at ``stack_bb`` big blinds."""
    from pokerlab.agents import make_agent

    return make_agent(spec, game="hunl", config=HoldemConfig.from_bb(stack_bb))


def small_opponent(spec: str, game: str) -> Any:
    """The small-game opponent of an agent spec: ``call`` (check/call), else
    :func:`pokerlab.agents.make_agent` (``random``, ``policy:PATH``)."""
    from pokerlab.evaluation.lbr_small import CheckCallPolicy

    if spec.strip().lower() == "call":
        return CheckCallPolicy()
    from pokerlab.agents import make_agent

    return make_agent(spec, game=game)


def run_lbr(spec: str, *, game: str = "hunl", actions: str = "fc", from_round: int = 1,
            hands: int = 1000, seed: int = 0, stack_bb: float = 200.0, exact: bool = False,
            workers: int = 1, ray_address: str | None = None,
            progress: Callable[[int], None] | None = None) -> LBRResult:
    """LBR against the agent ``spec`` (what ``pokerlab lbr`` runs).

    ``game`` is ``hunl``, ``kuhn``, ``leduc`` or ``eight_card``; ``exact`` (small games
    only) enumerates instead of sampling.  Sampled runs split the deals over ``workers``
    processes or Ray tasks (``ray_address``, ``"local"`` starts a local Ray); the result
    does not depend on the split.
    """
    kind = check_lbr_args(game=game, actions=actions, from_round=from_round, hands=hands,
                          seed=seed, exact=exact)
    from pokerlab.executor import check_ray_address, check_workers

    check_workers(workers, option="workers")
    check_ray_address(ray_address)
    make: Callable[[], Any]
    if kind == "hunl":
        make = partial(hunl_opponent, spec, stack_bb)
        make()  # fail early
    else:
        make = partial(small_opponent, spec, kind)
        opp = make()
        if exact:
            from pokerlab.evaluation.lbr_small import exact_lbr
            from pokerlab.games import load_game

            r = exact_lbr(load_game(kind), opp, actions=actions, from_round=from_round,
                          name=spec)
            return dataclasses.replace(r, seed=seed)
    return run_sampled_lbr(make, name=spec, game=kind, actions=actions, from_round=from_round,
                           hands=hands, seed=seed, stack_bb=stack_bb, workers=workers,
                           ray_address=ray_address, progress=progress)
