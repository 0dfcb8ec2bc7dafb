"""The exact equilibrium of a small game, cached per game object (the prior of the
opponent models; re-exported by :mod:`pokerlab.opponents.models`)."""

from __future__ import annotations

from typing import Any

from pokerlab.policy.base import Policy


def equilibrium(game: Any) -> Policy:
    """The exact equilibrium of a small game (sequence-form LP), cached per game object."""
    cache = _EQ_CACHE.get(id(game))
    if cache is not None and cache[0] is game:
        return cache[1]
    from pokerlab.solvers.lp import solve_lp

    pol = solve_lp(game).policy
    _EQ_CACHE[id(game)] = (game, pol)
    return pol


_EQ_CACHE: dict[int, tuple[Any, Policy]] = {}
