"""Numba kernel of :mod:`pokerlab.agents.river_leaves`: discounted CFR on a river betting tree
over **hand-strength classes** (the combos of equal strength on the five-card board, ranked
from the weakest), the two players' ranges aggregated per class and card removal between the
two hands left out, then the counterfactual values of both players under the average
strategies.

The tree is a river :class:`~pokerlab.subgame.tree.BettingTree` (kinds of
:mod:`pokerlab.kinds`; every child after its parent).  Payoffs are chips relative to the
leaf: a player receives the pot at the end (``pot`` at the leaf plus both players' river
chips) less what it put in on the river; a tie splits the pot.  So at a showdown after river
bets of ``c`` each the winner gets ``pot + c``, the loser ``-c``, a tie ``pot / 2``; when
player ``f`` folds after putting in ``c_f`` it gets ``-c_f`` and the other ``pot + c_f``.

``out0[i]`` / ``out1[i]``: the player's value of class ``i``, summed over the other player's
class weights (its counterfactual value ignoring card removal).  The plain-Python twin is
:func:`pokerlab.agents.river_leaf_reference.solve_classes_py` (tests/test_river_leaves.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.kinds import DECISION, FOLD, SHOWDOWN
from pokerlab.solvers.regret import discount_factor, regret_match_columns
from pokerlab.subgame.solve_config import ALGO_DEFAULTS

ALPHA, BETA, GAMMA = ALGO_DEFAULTS["dcfr"]
"""Discounted CFR's exponents (Brown & Sandholm 2019), the subgame solver's default."""


@njit(cache=True)
def _match(kind, child_start, num_children, regret, strat, tot, C):  # type: ignore[no-untyped-def]
    """Regret matching at every decision (the edges of a node are one action-major block)."""
    for v in range(kind.shape[0]):
        if kind[v] == DECISION:
            s = child_start[v] * C
            m = num_children[v]
            regret_match_columns(regret, s, m, C, strat[s:s + m * C], tot)


@njit(cache=True)
def _forward(kind, player, child_start, num_children, children, strat, reach):  # type: ignore[no-untyped-def]
    n = kind.shape[0]
    C = reach.shape[2]
    for v in range(n):
        if kind[v] != DECISION:
            continue
        s = child_start[v]
        q = player[v]
        for a in range(num_children[v]):
            ch = children[s + a]
            for i in range(C):
                reach[q, ch, i] = reach[q, v, i] * strat[(s + a) * C + i]
                reach[1 - q, ch, i] = reach[1 - q, v, i]


@njit(cache=True)
def _backward(kind, player, c0, c1, child_start, num_children, children, pot, strat, reach, p, val,
              regret, ssum, pos_w, neg_w, avg_w, update):  # type: ignore[no-untyped-def]
    """``p``'s values at every node (``val``); ``update``: its regrets and strategy sums."""
    n = kind.shape[0]
    C = reach.shape[2]
    o = 1 - p
    for v in range(n - 1, -1, -1):
        k = kind[v]
        if k == FOLD:
            tot = 0.0
            for i in range(C):
                tot += reach[o, v, i]
            cf = c0[v] if player[v] == 0 else c1[v]
            x = -cf * tot if player[v] == p else (pot + cf) * tot
            for i in range(C):
                val[v, i] = x
        elif k == SHOWDOWN:
            c = c0[v]
            tot = 0.0
            for i in range(C):
                tot += reach[o, v, i]
            less = 0.0
            for i in range(C):
                ro = reach[o, v, i]
                val[v, i] = less * (pot + c) + ro * 0.5 * pot - (tot - less - ro) * c
                less += ro
        elif k == DECISION:
            s = child_start[v]
            m = num_children[v]
            if player[v] == p:
                for i in range(C):
                    x = 0.0
                    for a in range(m):
                        x += strat[(s + a) * C + i] * val[children[s + a], i]
                    val[v, i] = x
                if update:
                    for a in range(m):
                        ch = children[s + a]
                        e = (s + a) * C
                        for i in range(C):
                            r = regret[e + i]
                            r *= pos_w if r > 0.0 else neg_w
                            regret[e + i] = r + val[ch, i] - val[v, i]
                            ssum[e + i] = ssum[e + i] * avg_w + reach[p, v, i] * strat[e + i]
            else:
                for i in range(C):
                    x = 0.0
                    for a in range(m):
                        x += val[children[s + a], i]
                    val[v, i] = x


@njit(cache=True)
def solve_classes(kind, player, c0, c1, child_start, num_children, children, pot, r0, r1, iters,
                  out0, out1):  # type: ignore[no-untyped-def]
    """``iters`` DCFR iterations (alternating updates, OOP first) from uniform strategies,
    then both players' root values under the average strategies into ``out0`` / ``out1``."""
    n = kind.shape[0]
    C = r0.shape[0]
    E = children.shape[0]
    regret = np.zeros(E * C)
    ssum = np.zeros(E * C)
    strat = np.zeros(E * C)
    tot = np.zeros(C)
    reach = np.zeros((2, n, C))
    val = np.zeros((n, C))
    for i in range(C):
        reach[0, 0, i] = r0[i]
        reach[1, 0, i] = r1[i]
    for t in range(1, iters + 1):
        tp = float(t - 1)
        pos_w = discount_factor(tp, ALPHA)
        neg_w = discount_factor(tp, BETA)
        avg_w = (tp / (tp + 1.0)) ** GAMMA
        for p in range(2):
            _match(kind, child_start, num_children, regret, strat, tot, C)
            _forward(kind, player, child_start, num_children, children, strat, reach)
            _backward(kind, player, c0, c1, child_start, num_children, children, pot, strat, reach, p,
                      val, regret, ssum, pos_w, neg_w, avg_w, True)
    _match(kind, child_start, num_children, ssum, strat, tot, C)
    _forward(kind, player, child_start, num_children, children, strat, reach)
    for p in range(2):
        _backward(kind, player, c0, c1, child_start, num_children, children, pot, strat, reach, p,
                  val, regret, ssum, 0.0, 0.0, 0.0, False)
        out = out0 if p == 0 else out1
        for i in range(C):
            out[i] = val[0, i]
