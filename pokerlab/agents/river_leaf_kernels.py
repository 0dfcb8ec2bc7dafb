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
class weights (its counterfactual value ignoring card removal).  :func:`step_rivers` runs
every river of a turn leaf in one call, each continuing from its kept regrets.  The
plain-Python twins are :func:`pokerlab.agents.river_leaf_reference.solve_classes_py` and
:func:`~pokerlab.agents.river_leaf_reference.step_rivers_py` (tests/test_river_leaves.py).
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
              regret, ssum, pos_w, neg_w, avg_w, update, best):  # type: ignore[no-untyped-def]
    """``p``'s values at every node (``val``); ``update``: its regrets and strategy sums;
    ``best``: ``p`` best-responds (the other plays ``strat``)."""
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
            if player[v] == p and best:
                for i in range(C):
                    x = val[children[s], i]
                    for a in range(1, m):
                        x = max(x, val[children[s + a], i])
                    val[v, i] = x
            elif player[v] == p:
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
def _iterate(kind, player, c0, c1, child_start, num_children, children, pot, t, iters, regret, ssum,
             strat, tot, reach, val):  # type: ignore[no-untyped-def]
    """DCFR iterations ``t + 1 .. t + iters`` (alternating updates, OOP first) of the class
    game whose root reaches are ``reach[:, 0]``."""
    C = reach.shape[2]
    for it in range(iters):
        tp = float(t + it)
        pos_w = discount_factor(tp, ALPHA)
        neg_w = discount_factor(tp, BETA)
        avg_w = (tp / (tp + 1.0)) ** GAMMA
        for p in range(2):
            _match(kind, child_start, num_children, regret, strat, tot, C)
            _forward(kind, player, child_start, num_children, children, strat, reach)
            _backward(kind, player, c0, c1, child_start, num_children, children, pot, strat, reach, p,
                      val, regret, ssum, pos_w, neg_w, avg_w, True, False)


@njit(cache=True)
def _root_values(kind, player, c0, c1, child_start, num_children, children, pot, table, strat, tot,
                 reach, val, out0, out1, best):  # type: ignore[no-untyped-def]
    """Both players' root values per class (``out0`` / ``out1``) under the strategies matched
    on ``table`` (the regrets: the current strategies; the strategy sums: the average);
    ``best``: each player's best response to the other's."""
    C = reach.shape[2]
    _match(kind, child_start, num_children, table, strat, tot, C)
    _forward(kind, player, child_start, num_children, children, strat, reach)
    for p in range(2):
        _backward(kind, player, c0, c1, child_start, num_children, children, pot, strat, reach, p,
                  val, table, table, 0.0, 0.0, 0.0, False, best)
        out = out0 if p == 0 else out1
        for i in range(C):
            out[i] = val[0, i]


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
    _iterate(kind, player, c0, c1, child_start, num_children, children, pot, 0, iters, regret, ssum,
             strat, tot, reach, val)
    _root_values(kind, player, c0, c1, child_start, num_children, children, pot, ssum, strat, tot,
                 reach, val, out0, out1, False)


@njit(cache=True)
def step_rivers(kind, player, c0, c1, child_start, num_children, children, pot, cls, count, offs, combos,
                combo_index, rivers, sel, act, weight, reach0, reach1, t, iters, regret, ssum, average,
                best, out0, out1, strat, tot, reach, val, rc):  # type: ignore[no-untyped-def]
    """The rivers ``sel`` (indices into ``rivers``) of a turn leaf in one call, each river's
    class game continuing from its state (:class:`~pokerlab.agents.river_leaves.RiverStepLeaves`:
    the river iterated in step with the turn solve).  River ``r`` (card ``rivers[r]``, classes
    ``cls[r]``, ``count[r]`` of them) keeps its regrets and strategy sums in the
    ``E x count[r]`` block of ``regret`` / ``ssum`` from ``offs[r]``.  For each river: the
    two reaches (1326 combos, the river card's combos left out) summed per class; ``iters``
    DCFR iterations (alternating, OOP first) numbered ``t + 1 .. t + iters``; then both
    players' class values under the current strategies (``average``: the average ones;
    ``best``: each player's best response to the other's; the values the iterations'
    updates saw, before them, left the depth-limited turn's root value 2.5% of the pot
    further from the whole tree's on the tests' spot); each combo's value is its class's per
    unit of the other's class weight times the weight it can meet (no common card, the river
    card removed), added
    with ``weight`` (``1/44`` a river over every river: each pair of hands meets 44) into
    ``out0`` / ``out1``.  ``act``: the combos that can hold weight or be asked for a value
    (the two spot ranges; the others stay 0).  ``combo_index[a, b]``: the combo of cards
    ``a`` and ``b``.  Work areas (sized for the most classes): ``strat``, ``tot``, ``reach``
    (2, nodes, C), ``val`` (nodes, C), ``rc`` (2, C: the class weights, then the class values)."""
    E = children.shape[0]
    for h in range(1326):
        out0[h] = 0.0
        out1[h] = 0.0
    # each player's opponent weight over the active combos and per card, once: a river
    # card's combos are taken out per river from these
    total = np.zeros(2)
    csum = np.zeros((2, 52))
    for j in range(act.shape[0]):
        h = act[j]
        a = combos[h, 0]
        b = combos[h, 1]
        for p in range(2):
            w = reach1[h] if p == 0 else reach0[h]
            total[p] += w
            csum[p, a] += w
            csum[p, b] += w
    for q in range(sel.shape[0]):
        r = sel[q]
        C = count[r]
        card = rivers[r]
        rg = regret[offs[r]:offs[r] + E * C]
        sg = ssum[offs[r]:offs[r] + E * C]
        for i in range(C):
            rc[0, i] = 0.0
            rc[1, i] = 0.0
        for j in range(act.shape[0]):
            h = act[j]
            k = cls[r, h]
            if k >= 0:
                rc[0, k] += reach0[h]
                rc[1, k] += reach1[h]
        t0 = 0.0
        t1 = 0.0
        for i in range(C):
            t0 += rc[0, i]
            t1 += rc[1, i]
        if t0 <= 0.0 and t1 <= 0.0:
            continue
        # one player's reach may be 0 at the leaf (its strategy never goes there): its
        # values still count (against the other's weight; a CFR walk's regrets need them),
        # the other's are 0
        rch = reach[:, :, :C]
        vl = val[:, :C]
        for i in range(C):
            rch[0, 0, i] = rc[0, i]
            rch[1, 0, i] = rc[1, i]
        st = strat[:E * C]
        _iterate(kind, player, c0, c1, child_start, num_children, children, pot, t, iters, rg, sg,
                 st, tot, rch, vl)
        _root_values(kind, player, c0, c1, child_start, num_children, children, pot,
                     sg if average else rg, st, tot, rch, vl, rc[0, :C], rc[1, :C], best)
        for p in range(2):
            if (t1 if p == 0 else t0) <= 0.0:
                continue
            opp = reach1 if p == 0 else reach0
            out = out0 if p == 0 else out1
            unit = weight / (t1 if p == 0 else t0)
            # the other's weight a combo can meet: the total less its two cards' sums plus the
            # identical combo, each less the combos holding the river card
            tot_r = total[p] - csum[p, card]
            for j in range(act.shape[0]):
                h = act[j]
                k = cls[r, h]
                if k >= 0:
                    a = combos[h, 0]
                    b = combos[h, 1]
                    mass = (tot_r - (csum[p, a] - opp[combo_index[a, card]])
                            - (csum[p, b] - opp[combo_index[b, card]]) + opp[h])
                    out[h] += rc[p, k] * unit * mass
