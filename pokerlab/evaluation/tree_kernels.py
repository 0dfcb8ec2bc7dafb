"""Numba kernels over a :class:`~pokerlab.games.compiled.CompiledGame` (full tree).

Thin entry points to the shared passes of :mod:`pokerlab.games.pass_kernels`.  Plain-Python
twins with the same signatures live in :mod:`pokerlab.evaluation._reference`;
``tests/test_evaluation.py`` checks parity.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.games.pass_kernels import forward_reach, tree_best_response, tree_values


@njit(cache=True)
def reach_kernel(kind, player, child_start, child_count, children, edge_prob, edge_slot,
                 slot_prob, num_players):  # pragma: no cover - compiled
    """Per node: each player's own reach (columns 0..P-1) and chance reach (column P)."""
    reach = np.zeros((kind.shape[0], num_players + 1))
    forward_reach(kind, player, child_start, child_count, children, edge_prob, edge_slot,
                  slot_prob, reach)
    return reach


@njit(cache=True)
def values_kernel(kind, child_start, child_count, children, edge_prob, edge_slot, slot_prob,
                  utility):  # pragma: no cover - compiled
    """Expected utility of every node for every player under ``slot_prob``."""
    n, p = utility.shape
    v = np.zeros((n, p))
    tree_values(kind, child_start, child_count, children, edge_prob, edge_slot, slot_prob,
                utility, 0, p, v)
    return v


@njit(cache=True)
def best_response_kernel(kind, player, infoset, child_start, child_count, children, edge_prob,
                         edge_slot, slot_prob, utility, reach, infoset_player, infoset_offset,
                         infoset_depth, br_player):  # pragma: no cover - compiled
    """Exact best response of ``br_player`` to ``slot_prob`` of the others (the shared
    :func:`pokerlab.games.pass_kernels.tree_best_response`, nothing forced).

    Returns ``(value, choice)`` where ``choice[i]`` is the chosen slot of every information
    set ``i`` of ``br_player`` (-1 for other players' sets).
    """
    forced = np.full(infoset_player.shape[0], -1, dtype=np.int64)
    return tree_best_response(kind, player, infoset, child_start, child_count, children,
                              edge_prob, edge_slot, slot_prob, utility, reach, infoset_player,
                              infoset_offset, infoset_depth, br_player, forced)
