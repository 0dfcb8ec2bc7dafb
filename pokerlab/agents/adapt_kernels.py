"""The constrained best-response value of the adaptive agent's safety budget (numba kernel
and its plain-Python twin).

:func:`constrained_best_response_value` (the twin, also used by
:mod:`pokerlab.opponents.safe`) and :func:`constrained_br_value` (the kernel) compute
``br_player``'s best value in a compiled two-player game against the other player's
behaviour strategy ``slots`` when its choice at some information sets is fixed
(``forced``: the actions it was seen to take).  Information sets are resolved deepest own
decision first (``infoset_depth``), so the choice at an information set sees the best
choices below it -- the exact best response of a perfect-recall player.

Tests: ``tests/test_adapt.py`` checks the kernel against the twin (parity) and the twin
against :func:`pokerlab.evaluation.exploit.best_response_values` with nothing forced.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from pokerlab.games.compiled import KIND_CHANCE, KIND_TERMINAL


def constrained_best_response_value(cg: Any, slots: np.ndarray, br_player: int,
                                    forced: dict[int, int]) -> float:
    """``br_player``'s best value against ``slots`` of the other player when its choice at
    each information set in ``forced`` (infoset -> slot) is fixed (plain Python)."""
    n = cg.num_nodes
    # reach of the others (other players and chance) per node
    w = np.ones(n)
    for h in range(n):
        k = cg.kind[h]
        if k == KIND_TERMINAL:
            continue
        s = int(cg.child_start[h])
        for e in range(s, s + int(cg.child_count[h])):
            c = int(cg.children[e])
            if k == KIND_CHANCE:
                w[c] = w[h] * cg.edge_prob[e]
            elif cg.player[h] != br_player:
                w[c] = w[h] * slots[cg.edge_slot[e]]
            else:
                w[c] = w[h]
    choice = np.full(cg.num_infosets, -1, dtype=np.int64)
    for i, sl in forced.items():
        choice[i] = sl
    depth = cg.infoset_depth
    mine = [i for i in range(cg.num_infosets) if cg.infoset_player[i] == br_player]
    max_depth = max((int(depth[i]) for i in mine), default=-1)
    v = np.zeros(n)
    for level in range(max_depth, -2, -1):
        q = np.zeros(cg.num_slots)
        for h in range(n - 1, -1, -1):
            k = cg.kind[h]
            if k == KIND_TERMINAL:
                v[h] = cg.utility[h, br_player]
                continue
            s = int(cg.child_start[h])
            cnt = int(cg.child_count[h])
            if k == KIND_CHANCE:
                v[h] = sum(cg.edge_prob[e] * v[cg.children[e]] for e in range(s, s + cnt))
            elif cg.player[h] != br_player:
                v[h] = sum(slots[cg.edge_slot[e]] * v[cg.children[e]] for e in range(s, s + cnt))
            else:
                i = int(cg.infoset[h])
                if choice[i] >= 0 and (i in forced or depth[i] > level):
                    v[h] = v[cg.children[s + int(choice[i]) - int(cg.infoset_offset[i])]]
                elif depth[i] == level:
                    for e in range(s, s + cnt):
                        q[cg.edge_slot[e]] += w[h] * v[cg.children[e]]
                    v[h] = 0.0
                else:
                    v[h] = 0.0
        if level >= 0:
            for i in mine:
                if depth[i] == level and i not in forced:
                    lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
                    choice[i] = lo + int(np.argmax(q[lo:hi]))
    return float(v[0])


@njit(cache=True)
def _cbr_kernel(kind: np.ndarray, player: np.ndarray, infoset: np.ndarray,
                child_start: np.ndarray, child_count: np.ndarray, children: np.ndarray,
                edge_prob: np.ndarray, edge_slot: np.ndarray, utility: np.ndarray,
                infoset_player: np.ndarray, infoset_offset: np.ndarray,
                infoset_depth: np.ndarray, slots: np.ndarray, br_player: int,
                forced: np.ndarray) -> float:  # pragma: no cover - compiled
    n = kind.shape[0]
    n_sets = infoset_player.shape[0]
    w = np.ones(n)
    for h in range(n):
        k = kind[h]
        if k == KIND_TERMINAL:
            continue
        s = child_start[h]
        for e in range(s, s + child_count[h]):
            c = children[e]
            if k == KIND_CHANCE:
                w[c] = w[h] * edge_prob[e]
            elif player[h] != br_player:
                w[c] = w[h] * slots[edge_slot[e]]
            else:
                w[c] = w[h]
    choice = forced.copy()
    max_depth = -1
    for i in range(n_sets):
        if infoset_player[i] == br_player and infoset_depth[i] > max_depth:
            max_depth = infoset_depth[i]
    v = np.zeros(n)
    q = np.zeros(slots.shape[0])
    for level in range(max_depth, -2, -1):
        q[:] = 0.0
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
                    acc += slots[edge_slot[e]] * v[children[e]]
                v[h] = acc
            else:
                i = infoset[h]
                if choice[i] >= 0 and (forced[i] >= 0 or infoset_depth[i] > level):
                    v[h] = v[children[s + choice[i] - infoset_offset[i]]]
                elif infoset_depth[i] == level:
                    for e in range(s, s + cnt):
                        q[edge_slot[e]] += w[h] * v[children[e]]
                    v[h] = 0.0
                else:
                    v[h] = 0.0
        if level >= 0:
            for i in range(n_sets):
                if infoset_player[i] == br_player and infoset_depth[i] == level \
                        and forced[i] < 0:
                    lo = infoset_offset[i]
                    hi = infoset_offset[i + 1]
                    best = lo
                    for sl in range(lo + 1, hi):
                        if q[sl] > q[best]:
                            best = sl
                    choice[i] = best
    return v[0]


def constrained_br_value(cg: Any, slots: np.ndarray, br_player: int,
                         forced: dict[int, int]) -> float:
    """:func:`constrained_best_response_value` by the numba kernel."""
    f = np.full(cg.num_infosets, -1, dtype=np.int64)
    for i, sl in forced.items():
        f[int(i)] = int(sl)
    return float(_cbr_kernel(cg.kind, cg.player, cg.infoset, cg.child_start, cg.child_count,
                             cg.children, cg.edge_prob, cg.edge_slot, cg.utility,
                             cg.infoset_player, cg.infoset_offset, cg.infoset_depth,
                             np.ascontiguousarray(slots, dtype=np.float64), int(br_player), f))
