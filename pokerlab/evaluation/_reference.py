"""Plain-Python twins of the entry kernels of :mod:`pokerlab.games.pass_kernels`
(``reach_kernel``, ``values_kernel``, ``best_response_kernel``; slow; for parity tests)."""

from __future__ import annotations

import numpy as np

from pokerlab.games.compiled import KIND_CHANCE, KIND_TERMINAL
from pokerlab.games.pass_kernels import forward_reach_py


def reach_py(kind, player, child_start, child_count, children, edge_prob, edge_slot,
             slot_prob, num_players):  # type: ignore[no-untyped-def]
    reach = np.zeros((len(kind), num_players + 1))
    forward_reach_py(kind, player, child_start, child_count, children, edge_prob, edge_slot,
                     slot_prob, reach)
    return reach


def values_py(kind, child_start, child_count, children, edge_prob, edge_slot, slot_prob,
              utility):  # type: ignore[no-untyped-def]
    n, p = utility.shape
    v = np.zeros((n, p))

    def rec(h: int) -> np.ndarray:
        if kind[h] == KIND_TERMINAL:
            v[h] = utility[h]
            return v[h]
        acc = np.zeros(p)
        for e in range(child_start[h], child_start[h] + child_count[h]):
            w = edge_prob[e] if kind[h] == KIND_CHANCE else slot_prob[edge_slot[e]]
            acc += w * rec(children[e])
        v[h] = acc
        return acc

    rec(0)
    return v


def best_response_py(kind, player, infoset, child_start, child_count, children, edge_prob,
                     edge_slot, slot_prob, utility, reach, infoset_player, infoset_offset,
                     infoset_depth, br_player):  # type: ignore[no-untyped-def]
    """Recursive best response: an information set's action values are summed over its
    nodes (weighted by the others' and chance's reach), children first."""
    num_players = reach.shape[1] - 1
    n = len(kind)
    w = reach[:, num_players].copy()
    for j in range(num_players):
        if j != br_player:
            w *= reach[:, j]
    nodes_of: dict[int, list[int]] = {}
    for h in range(n):
        if kind[h] not in (KIND_TERMINAL, KIND_CHANCE) and player[h] == br_player:
            nodes_of.setdefault(int(infoset[h]), []).append(h)
    choice = np.full(len(infoset_player), -1, dtype=np.int64)

    def decide(i: int) -> int:
        if choice[i] < 0:
            lo, hi = infoset_offset[i], infoset_offset[i + 1]
            q = np.zeros(hi - lo)
            for h in nodes_of[i]:
                for k in range(hi - lo):
                    q[k] += w[h] * value(children[child_start[h] + k])
            choice[i] = lo + int(np.argmax(q))
        return int(choice[i])

    def value(h: int) -> float:
        if kind[h] == KIND_TERMINAL:
            return float(utility[h, br_player])
        s, cnt = child_start[h], child_count[h]
        if kind[h] == KIND_CHANCE:
            return float(sum(edge_prob[e] * value(children[e]) for e in range(s, s + cnt)))
        if player[h] != br_player:
            return float(sum(slot_prob[edge_slot[e]] * value(children[e])
                             for e in range(s, s + cnt)))
        i = int(infoset[h])
        return value(children[s + decide(i) - infoset_offset[i]])

    return value(0), choice
