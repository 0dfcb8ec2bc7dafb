"""The shared passes of the flat-tree kernels (one vocabulary: :mod:`pokerlab.kinds`).

Over a compiled full game (:class:`~pokerlab.games.compiled.CompiledGame` arrays):

* :func:`forward_reach` -- each player's own reach and chance's reach at every node under a
  behaviour strategy given as slot probabilities (the evaluation, adaptive-agent and
  restricted-response kernels);
* :func:`tree_values` -- expected utilities bottom-up under slot probabilities;
* :func:`tree_best_response` -- the exact best response of one player, information sets
  decided deepest own decision first, optionally with the choice at some of them fixed
  (the exploitability of :mod:`pokerlab.evaluation.exploit` and the safety budget of
  :mod:`pokerlab.agents.adapt`).

Over a public tree (:class:`~pokerlab.games.public_tree.PublicTree`, hands as vectors):

* :func:`public_reach` -- each player's own reach per private hand (the CFR iteration and
  the public best response of :mod:`pokerlab.solvers.cfr_kernels`).

Entry points over a whole compiled game, used by :mod:`pokerlab.policy.exact`:
:func:`reach_kernel`, :func:`values_kernel`, :func:`best_response_kernel` (their plain twins
are in :mod:`pokerlab.evaluation._reference`; ``tests/test_evaluation.py`` checks parity).

All are ``@njit(cache=True)`` functions that other kernels call (numba inlines nothing at
the Python level); each has a plain-Python twin here (``*_py``), and
``tests/test_pass_kernels.py`` checks parity.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from pokerlab.kinds import CHANCE, TERMINAL


@njit(cache=True)
def forward_reach(kind, player, child_start, child_count, children, edge_prob, edge_slot,
                  slot_prob, reach):  # pragma: no cover - compiled
    """Fill ``reach[N, P + 1]``: per node each player's own reach (columns ``0..P-1``) and
    chance's reach (column ``P``) under ``slot_prob``."""
    n = kind.shape[0]
    pc = reach.shape[1] - 1
    for j in range(pc + 1):
        reach[0, j] = 1.0
    for h in range(n):
        k = kind[h]
        if k == TERMINAL:
            continue
        s = child_start[h]
        for e in range(s, s + child_count[h]):
            c = children[e]
            for j in range(pc + 1):
                reach[c, j] = reach[h, j]
            if k == CHANCE:
                reach[c, pc] *= edge_prob[e]
            else:
                reach[c, player[h]] *= slot_prob[edge_slot[e]]


def forward_reach_py(kind: Any, player: Any, child_start: Any, child_count: Any,
                     children: Any, edge_prob: Any, edge_slot: Any, slot_prob: Any,
                     reach: np.ndarray) -> None:
    """Plain-Python twin of :func:`forward_reach`."""
    pc = reach.shape[1] - 1
    reach[0, :] = 1.0
    for h in range(len(kind)):
        if kind[h] == TERMINAL:
            continue
        for e in range(child_start[h], child_start[h] + child_count[h]):
            c = children[e]
            reach[c] = reach[h]
            if kind[h] == CHANCE:
                reach[c, pc] *= edge_prob[e]
            else:
                reach[c, player[h]] *= slot_prob[edge_slot[e]]


@njit(cache=True)
def tree_values(kind, child_start, child_count, children, edge_prob, edge_slot, slot_prob,
                utility, lo, hi, v):  # pragma: no cover - compiled
    """Fill ``v[N, hi - lo]``: column ``j - lo`` holds the expected utility of player ``j``
    (``lo <= j < hi``) at every node under ``slot_prob`` (edges of probability 0 are
    skipped)."""
    n = kind.shape[0]
    m = hi - lo
    for h in range(n - 1, -1, -1):
        k = kind[h]
        if k == TERMINAL:
            for j in range(m):
                v[h, j] = utility[h, lo + j]
            continue
        for j in range(m):
            v[h, j] = 0.0
        s = child_start[h]
        for e in range(s, s + child_count[h]):
            w = edge_prob[e] if k == CHANCE else slot_prob[edge_slot[e]]
            if w != 0.0:
                c = children[e]
                for j in range(m):
                    v[h, j] += w * v[c, j]


def tree_values_py(kind: Any, child_start: Any, child_count: Any, children: Any,
                   edge_prob: Any, edge_slot: Any, slot_prob: Any, utility: np.ndarray,
                   lo: int, hi: int, v: np.ndarray) -> None:
    """Plain-Python twin of :func:`tree_values`."""
    for h in range(len(kind) - 1, -1, -1):
        if kind[h] == TERMINAL:
            v[h] = utility[h, lo:hi]
            continue
        acc = np.zeros(hi - lo)
        for e in range(child_start[h], child_start[h] + child_count[h]):
            w = edge_prob[e] if kind[h] == CHANCE else slot_prob[edge_slot[e]]
            if w != 0.0:
                acc += w * v[children[e]]
        v[h] = acc


@njit(cache=True)
def tree_best_response(kind, player, infoset, child_start, child_count, children, edge_prob,
                       edge_slot, slot_prob, utility, reach, infoset_player, infoset_offset,
                       infoset_depth, br_player, forced):  # pragma: no cover - compiled
    """Exact best response of ``br_player`` to ``slot_prob`` of the others.

    ``reach`` is :func:`forward_reach` of ``slot_prob``; ``forced[i] >= 0`` fixes the slot
    chosen at information set ``i`` (-1: free).  Returns ``(value, choice)`` where
    ``choice[i]`` is the chosen slot of every information set ``i`` of ``br_player`` (-1 for
    other players' sets).  Information sets are decided deepest (most own earlier decisions)
    first, one bottom-up pass per depth level.
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
    choice = forced.copy()
    max_depth = -1
    for i in range(num_i):
        if infoset_player[i] == br_player and infoset_depth[i] > max_depth:
            max_depth = infoset_depth[i]
    v = np.zeros(n)
    q = np.zeros(infoset_offset[num_i])
    for level in range(max_depth, -2, -1):
        for h in range(n - 1, -1, -1):
            k = kind[h]
            if k == TERMINAL:
                v[h] = utility[h, br_player]
                continue
            s = child_start[h]
            cnt = child_count[h]
            if k == CHANCE:
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
                if choice[i] >= 0 and (forced[i] >= 0 or d > level):
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
                if infoset_player[i] == br_player and infoset_depth[i] == level \
                        and forced[i] < 0:
                    lo = infoset_offset[i]
                    best = lo
                    for sl in range(lo + 1, infoset_offset[i + 1]):
                        if q[sl] > q[best]:
                            best = sl
                    choice[i] = best
    return v[0], choice


def tree_best_response_py(kind: Any, player: Any, infoset: Any, child_start: Any,
                          child_count: Any, children: Any, edge_prob: Any, edge_slot: Any,
                          slot_prob: Any, utility: np.ndarray, reach: np.ndarray,
                          infoset_player: Any, infoset_offset: Any, infoset_depth: Any,
                          br_player: int, forced: np.ndarray) -> tuple[float, np.ndarray]:
    """Plain-Python twin of :func:`tree_best_response` (same level-by-level order)."""
    n = len(kind)
    num_players = reach.shape[1] - 1
    w = reach[:, num_players].copy()
    for j in range(num_players):
        if j != br_player:
            w *= reach[:, j]
    choice = np.array(forced, dtype=np.int64, copy=True)
    mine = [i for i in range(len(infoset_player))
            if infoset_player[i] == br_player and forced[i] < 0]
    max_depth = max((int(infoset_depth[i]) for i in range(len(infoset_player))
                     if infoset_player[i] == br_player), default=-1)
    v = np.zeros(n)
    q = np.zeros(int(infoset_offset[-1]))
    for level in range(max_depth, -2, -1):
        for h in range(n - 1, -1, -1):
            if kind[h] == TERMINAL:
                v[h] = utility[h, br_player]
                continue
            s, cnt = int(child_start[h]), int(child_count[h])
            if kind[h] == CHANCE:
                v[h] = sum(edge_prob[e] * v[children[e]] for e in range(s, s + cnt))
            elif player[h] != br_player:
                v[h] = sum(slot_prob[edge_slot[e]] * v[children[e]] for e in range(s, s + cnt))
            else:
                i = int(infoset[h])
                if choice[i] >= 0 and (forced[i] >= 0 or infoset_depth[i] > level):
                    v[h] = v[children[s + int(choice[i]) - int(infoset_offset[i])]]
                elif infoset_depth[i] == level:
                    for e in range(s, s + cnt):
                        q[edge_slot[e]] += w[h] * v[children[e]]
                    v[h] = 0.0
                else:
                    v[h] = 0.0
        if level >= 0:
            for i in mine:
                if infoset_depth[i] == level:
                    lo, hi = int(infoset_offset[i]), int(infoset_offset[i + 1])
                    choice[i] = lo + int(np.argmax(q[lo:hi]))
    return float(v[0]), choice


@njit(cache=True)
def public_reach(kind, player, child_start, child_count, children, slot_base, sigma,
                 reach):  # pragma: no cover - compiled
    """Fill ``reach[N, 2, H]``: each player's own reach per private hand at every node of a
    two-player public tree under ``sigma[num_slots, H]`` (chance edges keep the reach: the
    public tree's chance weights live in its utility matrices)."""
    n = kind.shape[0]
    H = sigma.shape[1]
    for p in range(2):
        for h in range(H):
            reach[0, p, h] = 1.0
    for v in range(n):
        k = kind[v]
        if k == TERMINAL:
            continue
        s = child_start[v]
        if k == CHANCE:
            for e in range(s, s + child_count[v]):
                c = children[e]
                for p in range(2):
                    for h in range(H):
                        reach[c, p, h] = reach[v, p, h]
        else:
            q = player[v]
            o = 1 - q
            sb = slot_base[v]
            for j in range(child_count[v]):
                c = children[s + j]
                for h in range(H):
                    reach[c, q, h] = reach[v, q, h] * sigma[sb + j, h]
                    reach[c, o, h] = reach[v, o, h]


def public_reach_py(kind: Any, player: Any, child_start: Any, child_count: Any,
                    children: Any, slot_base: Any, sigma: np.ndarray,
                    reach: np.ndarray) -> None:
    """Plain-Python twin of :func:`public_reach`."""
    reach[0] = 1.0
    for v in range(len(kind)):
        if kind[v] == TERMINAL:
            continue
        s = int(child_start[v])
        for j in range(int(child_count[v])):
            c = children[s + j]
            reach[c] = reach[v]
            if kind[v] != CHANCE:
                reach[c, player[v]] = reach[v, player[v]] * sigma[slot_base[v] + j]


# ------------------------------------------------- entry points over a whole compiled game
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
