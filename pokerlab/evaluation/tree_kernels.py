"""Numba kernels over a :class:`~pokerlab.games.compiled.CompiledGame` (full tree).

Plain-Python twins with the same signatures live in :mod:`pokerlab.evaluation._reference`;
``tests/test_evaluation.py`` checks parity.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.games.compiled import KIND_CHANCE, KIND_TERMINAL


@njit(cache=True)
def reach_kernel(kind, player, child_start, child_count, children, edge_prob, edge_slot,
                 slot_prob, num_players):  # pragma: no cover - compiled
    """Per node: each player's own reach (columns 0..P-1) and chance reach (column P)."""
    n = kind.shape[0]
    reach = np.zeros((n, num_players + 1))
    for j in range(num_players + 1):
        reach[0, j] = 1.0
    for h in range(n):
        k = kind[h]
        if k == KIND_TERMINAL:
            continue
        s = child_start[h]
        for e in range(s, s + child_count[h]):
            c = children[e]
            for j in range(num_players + 1):
                reach[c, j] = reach[h, j]
            if k == KIND_CHANCE:
                reach[c, num_players] *= edge_prob[e]
            else:
                reach[c, player[h]] *= slot_prob[edge_slot[e]]
    return reach


@njit(cache=True)
def values_kernel(kind, child_start, child_count, children, edge_prob, edge_slot, slot_prob,
                  utility):  # pragma: no cover - compiled
    """Expected utility of every node for every player under ``slot_prob``."""
    n, p = utility.shape
    v = np.zeros((n, p))
    for h in range(n - 1, -1, -1):
        k = kind[h]
        if k == KIND_TERMINAL:
            for j in range(p):
                v[h, j] = utility[h, j]
            continue
        s = child_start[h]
        for e in range(s, s + child_count[h]):
            w = edge_prob[e] if k == KIND_CHANCE else slot_prob[edge_slot[e]]
            if w != 0.0:
                c = children[e]
                for j in range(p):
                    v[h, j] += w * v[c, j]
    return v


@njit(cache=True)
def best_response_kernel(kind, player, infoset, child_start, child_count, children, edge_prob,
                         edge_slot, slot_prob, utility, reach, infoset_player, infoset_offset,
                         infoset_depth, br_player):  # pragma: no cover - compiled
    """Exact best response of ``br_player`` to ``slot_prob`` of the others.

    Returns ``(value, choice)`` where ``choice[i]`` is the chosen slot of every information
    set ``i`` of ``br_player`` (-1 for other players' sets).  Information sets are decided
    deepest (most own earlier decisions) first, one bottom-up pass per depth level.
    """
    n, p = utility.shape
    num_i = infoset_player.shape[0]
    num_players = reach.shape[1] - 1
    w = np.ones(n)
    for h in range(n):
        x = reach[h, num_players]
        for j in range(num_players):
            if j != br_player:
                x *= reach[h, j]
        w[h] = x
    choice = np.full(num_i, -1, dtype=np.int64)
    max_depth = -1
    for i in range(num_i):
        if infoset_player[i] == br_player and infoset_depth[i] > max_depth:
            max_depth = infoset_depth[i]
    v = np.zeros(n)
    q = np.zeros(infoset_offset[num_i])
    for level in range(max_depth, -2, -1):
        for h in range(n - 1, -1, -1):
            k = kind[h]
            if k == KIND_TERMINAL:
                v[h] = utility[h, br_player]
                continue
            s = child_start[h]
            cnt = child_count[h]
            if k == KIND_CHANCE:
                acc = 0.0
                for e in range(s, s + cnt):
                    acc += edge_prob[e] * v[children[e]]
                v[h] = acc
            elif player[h] != br_player:
                acc = 0.0
                for e in range(s, s + cnt):
                    pr = slot_prob[edge_slot[e]]
                    if pr != 0.0:
                        acc += pr * v[children[e]]
                v[h] = acc
            else:
                i = infoset[h]
                d = infoset_depth[i]
                if d > level:
                    v[h] = v[children[s + choice[i] - infoset_offset[i]]]
                elif d == level:
                    wh = w[h]
                    for e in range(s, s + cnt):
                        q[edge_slot[e]] += wh * v[children[e]]
                    v[h] = 0.0
                else:
                    v[h] = 0.0
        if level >= 0:
            for i in range(num_i):
                if infoset_player[i] == br_player and infoset_depth[i] == level:
                    lo = infoset_offset[i]
                    best = lo
                    for sl in range(lo + 1, infoset_offset[i + 1]):
                        if q[sl] > q[best]:
                            best = sl
                    choice[i] = best
    return v[0], choice
