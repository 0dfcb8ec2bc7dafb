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
    from pokerlab.registry import make_agent

    return make_agent(spec, game="hunl", config=HoldemConfig.from_bb(stack_bb))


def small_opponent(spec: str, game: str) -> Any:
    """The small-game opponent of an agent spec: ``call`` (check/call), else
    :func:`pokerlab.registry.make_agent` (``random``, ``policy:PATH``)."""
    from pokerlab.evaluation.lbr_small import CheckCallPolicy

    if spec.strip().lower() == "call":
        return CheckCallPolicy()
    from pokerlab.registry import make_agent

    return make_agent(spec, game=game)


def given_agent(agent: Any) -> Any:
    """The factory of an agent object given from Python (``partial(given_agent, obj)``
    pickles when the object does)."""
    return agent


def run_lbr(agent: Any, *, game: str = "hunl", actions: str = "fc", from_round: int = 1,
            hands: int = 1000, seed: int = 0, stack_bb: float | None = None,
            exact: bool = False, workers: int = 1, ray_address: str | None = None,
            progress: Callable[[int], None] | None = None,
            warn: Callable[[str], None] | None = None) -> LBRResult:
    """LBR against ``agent``: a spec (what ``pokerlab lbr`` runs) or an agent object.

    ``game`` is ``hunl``, ``kuhn``, ``leduc`` or ``eight_card``; ``exact`` (small games
    only) enumerates instead of sampling.  ``stack_bb`` (HUNL): default the agent's own
    stack (:func:`pokerlab.arena.matches.resolve_stack`; ``stack_bb`` in the result).
    Sampled runs split the deals over ``workers`` processes or Ray tasks (``ray_address``,
    ``"local"`` starts a local Ray; an object must pickle for them); the result does not
    depend on the split.
    """
    from pokerlab.arena.matches import agent_label, as_agent, resolve_stack

    kind = check_lbr_args(game=game, actions=actions, from_round=from_round, hands=hands,
                          seed=seed, exact=exact)
    from pokerlab.executor import check_ray_address, check_workers

    check_workers(workers, option="workers")
    check_ray_address(ray_address)
    name = agent_label(agent, "agent")
    stack = resolve_stack([agent], stack_bb, kind=kind, warn=warn)
    make: Callable[[], Any]
    if not isinstance(agent, str):
        obj = as_agent(agent, name) if kind == "hunl" else agent
        make = partial(given_agent, obj)
        opp = obj
    elif kind == "hunl":
        make = partial(hunl_opponent, agent, stack)
        opp = make()  # fail early
    else:
        make = partial(small_opponent, agent, kind)
        opp = make()
    if kind != "hunl" and exact:
        from pokerlab.evaluation.lbr_small import exact_lbr
        from pokerlab.games import load_game

        r = exact_lbr(load_game(kind), opp, actions=actions, from_round=from_round,
                      name=name)
        return dataclasses.replace(r, seed=seed)
    r = run_sampled_lbr(make, name=name, game=kind, actions=actions, from_round=from_round,
                        hands=hands, seed=seed, stack_bb=stack, workers=workers,
                        ray_address=ray_address, progress=progress)
    if kind == "hunl":
        r = dataclasses.replace(r, extra={**r.extra, "stack_bb": stack})
    return r
