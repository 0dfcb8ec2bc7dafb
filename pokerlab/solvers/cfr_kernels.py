"""The CFR traversal core: numba kernels over a :class:`~pokerlab.games.public_tree.PublicTree`.

Arrays: ``regrets``, ``avg`` (cumulative average-strategy weights) and ``sigma`` (current
strategy) are ``[num_slots, H]`` (action slot x private hand of the acting player).
``reach`` and ``cfv`` are ``[N, 2, H]`` work arrays.

One iteration for a set of players (``update_player`` = 0 / 1, or -1 for both at once):

1. forward pass: each player's own reach per hand at every node under ``sigma``;
2. backward pass: counterfactual values per hand (terminals: ``U @ reach1`` /
   ``-(reach0 @ U)``; chance-weighted matrices make chance nodes plain sums); at the
   updating player's nodes ``regret += cfv(child) - cfv(node)`` and
   ``avg += t**gamma * reach * sigma``;
3. update: optional regret floor (CFR+), optional discounting of positive / negative
   regrets by ``t**alpha/(t**alpha+1)`` / ``t**beta/(t**beta+1)`` (LCFR, DCFR; the shared
   :func:`pokerlab.solvers.regret.discount_factor`), then
   regret matching (:func:`pokerlab.solvers.regret.regret_matching`) gives the new
   ``sigma`` of the updated player(s).

These are exactly the update rules of OpenSpiel's ``CFRSolver`` / ``CFRPlusSolver`` /
``DCFRSolver`` / ``LCFRSolver``.  Plain-Python twins: :mod:`pokerlab.solvers._reference`.
"""

from __future__ import annotations

from numba import njit

from pokerlab.games.compiled import KIND_CHANCE, KIND_DECISION, KIND_TERMINAL
from pokerlab.games.pass_kernels import public_reach
from pokerlab.solvers.regret import discount_factor, regret_matching


@njit(cache=True, inline="always")
def _updated(kind, player, v, update_player):  # pragma: no cover - compiled
    """Whether node ``v`` is a decision of the player(s) being updated (-1: both)."""
    return kind[v] == KIND_DECISION and (update_player < 0 or player[v] == update_player)


@njit(cache=True)
def regret_match_kernel(kind, player, child_count, slot_base, regrets, sigma,
                        update_player):  # pragma: no cover - compiled
    """sigma <- regret matching of ``regrets`` at the nodes of ``update_player`` (-1: all)."""
    n = kind.shape[0]
    H = regrets.shape[1]
    for v in range(n):
        if not _updated(kind, player, v, update_player):
            continue
        s = slot_base[v]
        na = child_count[v]
        for h in range(H):
            regret_matching(regrets[s:s + na, h], sigma[s:s + na, h])


@njit(cache=True)
def cfr_iteration_kernel(kind, player, child_start, child_count, children, slot_base,
                         term_index, utility, regrets, avg, sigma, reach, cfv, update_player,
                         t, rm_plus, discount, alpha, beta, gamma):  # pragma: no cover
    """One CFR iteration (see module docs).  ``t`` is the 1-based iteration number."""
    n = kind.shape[0]
    H = regrets.shape[1]
    # forward: own reach per player and hand
    public_reach(kind, player, child_start, child_count, children, slot_base, sigma, reach)
    w_avg = float(t) ** gamma
    # backward: counterfactual values (only for the player(s) being updated)
    p_lo = 0 if update_player < 0 else update_player
    p_hi = 2 if update_player < 0 else update_player + 1
    for v in range(n - 1, -1, -1):
        k = kind[v]
        if k == KIND_TERMINAL:
            ti = term_index[v]
            if p_lo == 0:
                for a in range(H):
                    acc = 0.0
                    for b in range(H):
                        acc += utility[ti, a, b] * reach[v, 1, b]
                    cfv[v, 0, a] = acc
            if p_hi == 2:
                for a in range(H):
                    acc = 0.0
                    for b in range(H):
                        acc -= utility[ti, b, a] * reach[v, 0, b]
                    cfv[v, 1, a] = acc
            continue
        s = child_start[v]
        cnt = child_count[v]
        for p in range(p_lo, p_hi):
            for h in range(H):
                cfv[v, p, h] = 0.0
        if k == KIND_CHANCE:
            for e in range(s, s + cnt):
                c = children[e]
                for p in range(p_lo, p_hi):
                    for h in range(H):
                        cfv[v, p, h] += cfv[c, p, h]
            continue
        q = player[v]
        sb = slot_base[v]
        for p in range(p_lo, p_hi):
            if p == q:
                for j in range(cnt):
                    c = children[s + j]
                    for h in range(H):
                        cfv[v, p, h] += sigma[sb + j, h] * cfv[c, p, h]
            else:
                for j in range(cnt):
                    c = children[s + j]
                    for h in range(H):
                        cfv[v, p, h] += cfv[c, p, h]
        if update_player < 0 or update_player == q:
            for j in range(cnt):
                c = children[s + j]
                for h in range(H):
                    regrets[sb + j, h] += cfv[c, q, h] - cfv[v, q, h]
                    avg[sb + j, h] += w_avg * reach[v, q, h] * sigma[sb + j, h]
    # post-processing of the updated players' regrets
    if rm_plus or discount:
        fpos = 1.0
        fneg = 1.0
        if discount:
            fpos = discount_factor(t, alpha)
            fneg = discount_factor(t, beta)
        for v in range(n):
            if not _updated(kind, player, v, update_player):
                continue
            sb = slot_base[v]
            for j in range(child_count[v]):
                for h in range(H):
                    r = regrets[sb + j, h]
                    if rm_plus and r < 0.0:
                        r = 0.0
                    if discount:
                        r = r * fpos if r >= 0.0 else r * fneg
                    regrets[sb + j, h] = r
    regret_match_kernel(kind, player, child_count, slot_base, regrets, sigma, update_player)


@njit(cache=True)
def cfr_run_kernel(kind, player, child_start, child_count, children, slot_base, term_index,
                   utility, regrets, avg, sigma, reach, cfv, t0, num_iterations, alternating,
                   rm_plus, discount, alpha, beta, gamma):  # pragma: no cover - compiled
    """``num_iterations`` iterations numbered ``t0 + 1 ...``."""
    for i in range(num_iterations):
        t = t0 + 1 + i
        if alternating:
            for p in range(2):
                cfr_iteration_kernel(kind, player, child_start, child_count, children,
                                     slot_base, term_index, utility, regrets, avg, sigma,
                                     reach, cfv, p, t, rm_plus, discount, alpha, beta, gamma)
        else:
            cfr_iteration_kernel(kind, player, child_start, child_count, children, slot_base,
                                 term_index, utility, regrets, avg, sigma, reach, cfv, -1, t,
                                 rm_plus, discount, alpha, beta, gamma)


@njit(cache=True)
def public_br_kernel(kind, player, child_start, child_count, children, slot_base, term_index,
                     utility, sigma, reach, cfv, br_player):  # pragma: no cover - compiled
    """Best-response value of ``br_player`` against ``sigma`` of the other player, and
    the value of ``br_player`` when both follow ``sigma``.  Returns ``(br_value, value)``.

    ``cfv`` receives the best-response counterfactual values (player ``br_player``) in
    column 0 and the on-policy values in column 1.
    """
    n = kind.shape[0]
    H = sigma.shape[1]
    public_reach(kind, player, child_start, child_count, children, slot_base, sigma, reach)
    o_br = 1 - br_player
    sign = 1.0 if br_player == 0 else -1.0
    for v in range(n - 1, -1, -1):
        k = kind[v]
        if k == KIND_TERMINAL:
            ti = term_index[v]
            for a in range(H):
                acc = 0.0
                for b in range(H):
                    if br_player == 0:
                        acc += utility[ti, a, b] * reach[v, 1, b]
                    else:
                        acc += utility[ti, b, a] * reach[v, 0, b]
                cfv[v, 0, a] = sign * acc
                cfv[v, 1, a] = sign * acc
            continue
        s = child_start[v]
        cnt = child_count[v]
        if k == KIND_CHANCE or player[v] == o_br:
            for h in range(H):
                cfv[v, 0, h] = 0.0
                cfv[v, 1, h] = 0.0
            for e in range(s, s + cnt):
                c = children[e]
                for h in range(H):
                    cfv[v, 0, h] += cfv[c, 0, h]
                    cfv[v, 1, h] += cfv[c, 1, h]
            continue
        sb = slot_base[v]
        for h in range(H):
            best = cfv[children[s], 0, h]
            on = sigma[sb, h] * cfv[children[s], 1, h]
            for j in range(1, cnt):
                c = children[s + j]
                if cfv[c, 0, h] > best:
                    best = cfv[c, 0, h]
                on += sigma[sb + j, h] * cfv[c, 1, h]
            cfv[v, 0, h] = best
            cfv[v, 1, h] = on
    brv = 0.0
    val = 0.0
    for h in range(H):
        brv += cfv[0, 0, h]
        val += cfv[0, 1, h]
    return brv, val


@njit(cache=True)
def normalise_kernel(kind, child_count, slot_base, weights, out):  # pragma: no cover
    """out <- per (node, hand) normalised ``weights`` (uniform where they sum to 0)."""
    n = kind.shape[0]
    H = weights.shape[1]
    for v in range(n):
        if kind[v] != KIND_DECISION:
            continue
        s = slot_base[v]
        na = child_count[v]
        for h in range(H):
            tot = 0.0
            for k in range(na):
                tot += weights[s + k, h]
            if tot > 0.0:
                for k in range(na):
                    out[s + k, h] = weights[s + k, h] / tot
            else:
                for k in range(na):
                    out[s + k, h] = 1.0 / na
