"""Numba kernels of the push/fold subsystem, each with a plain-Python twin (``*_py``).

* :func:`cfr_plus_kernel` -- alternating CFR+ iterations of the class-level game
  ``u = -f + b . s + s^T G c`` (169 classes, two actions each, linear averaging).
* :func:`mc_linear_kernel` -- Monte Carlo self-play with the tutorial's linear action-value
  model (7 features), epsilon-greedy actions, one SGD step per decision on the squared error.
* :func:`mc_tabular_kernel` -- the same self-play with a table of (weighted) average
  returns per (position, class, action); greedy-on-averages is stochastic fictitious play.

All randomness comes in as pre-drawn arrays, so kernel and twin give identical results.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.solvers.regret import regret_matching, regret_matching_py


# ---------------------------------------------------------------- CFR+
@njit(cache=True)
def cfr_plus_kernel(b, G, iterations, t0, reg_sb, reg_bb, avg_sb, avg_bb):  # pragma: no cover
    """Run ``iterations`` alternating CFR+ iterations starting at iteration number ``t0``.

    ``reg_sb``/``reg_bb`` (K, 2) regrets (fold, GII), ``avg_sb``/``avg_bb`` (K,) sums of
    ``t * P(GII)``; returns the sum of the averaging weights added."""
    K = b.shape[0]
    s = np.empty(K)
    c = np.empty(K)
    pr = np.empty(2)  # (fold, GII) probabilities of one class
    wsum = 0.0
    for t in range(t0, t0 + iterations):
        w = float(t)
        wsum += w
        for k in range(K):
            regret_matching(reg_sb[k], pr)
            s[k] = pr[1]
            regret_matching(reg_bb[k], pr)
            c[k] = pr[1]
        # SB: value of shove minus fold, per class
        for k in range(K):
            d = b[k]
            for l in range(K):
                d += G[k, l] * c[l]
            avg_sb[k] += w * s[k]
            r1 = reg_sb[k, 1] + (1.0 - s[k]) * d
            r0 = reg_sb[k, 0] - s[k] * d
            reg_sb[k, 1] = r1 if r1 > 0.0 else 0.0
            reg_sb[k, 0] = r0 if r0 > 0.0 else 0.0
            regret_matching(reg_sb[k], pr)
            s[k] = pr[1]
        # BB (alternating: sees SB's updated strategy): call minus fold, BB's payoff
        for l in range(K):
            d = 0.0
            for k in range(K):
                d -= s[k] * G[k, l]
            avg_bb[l] += w * c[l]
            r1 = reg_bb[l, 1] + (1.0 - c[l]) * d
            r0 = reg_bb[l, 0] - c[l] * d
            reg_bb[l, 1] = r1 if r1 > 0.0 else 0.0
            reg_bb[l, 0] = r0 if r0 > 0.0 else 0.0
    return wsum


def _rm_py(regrets_row: np.ndarray) -> float:
    """Regret-matching probability of GII (action 1) for one class's (fold, GII) regrets."""
    return float(regret_matching_py(regrets_row, [0.0, 0.0])[1])


def cfr_plus_py(b: np.ndarray, G: np.ndarray, iterations: int, t0: int, reg_sb: np.ndarray,
                reg_bb: np.ndarray, avg_sb: np.ndarray, avg_bb: np.ndarray) -> float:
    """Plain-Python twin of :func:`cfr_plus_kernel`."""
    K = len(b)
    wsum = 0.0
    for t in range(t0, t0 + iterations):
        w = float(t)
        wsum += w
        s = [_rm_py(reg_sb[k]) for k in range(K)]
        c = [_rm_py(reg_bb[k]) for k in range(K)]
        for k in range(K):
            d = float(b[k])
            for l in range(K):
                d += float(G[k, l]) * c[l]
            avg_sb[k] += w * s[k]
            reg_sb[k, 1] = max(reg_sb[k, 1] + (1.0 - s[k]) * d, 0.0)
            reg_sb[k, 0] = max(reg_sb[k, 0] - s[k] * d, 0.0)
            s[k] = _rm_py(reg_sb[k])
        for l in range(K):
            d = 0.0
            for k in range(K):
                d -= s[k] * float(G[k, l])
            avg_bb[l] += w * c[l]
            reg_bb[l, 1] = max(reg_bb[l, 1] + (1.0 - c[l]) * d, 0.0)
            reg_bb[l, 0] = max(reg_bb[l, 0] - c[l] * d, 0.0)
    return wsum


# ---------------------------------------------------------------- linear Monte Carlo
@njit(cache=True)
def _q_linear(theta, feats, i, is_sb, gii):  # pragma: no cover - compiled
    q = theta[0]
    if gii:
        q += theta[1] * feats[i, 0] + theta[2] * feats[i, 1] + theta[3] * feats[i, 2]
        q += theta[4] * feats[i, 3]
    if is_sb:
        q += theta[5]
        if gii:
            q += theta[6]
    return q


@njit(cache=True)
def _sgd_linear(theta, feats, i, is_sb, gii, target, alpha):  # pragma: no cover - compiled
    err = target - _q_linear(theta, feats, i, is_sb, gii)
    step = alpha * err
    theta[0] += step
    if gii:
        theta[1] += step * feats[i, 0]
        theta[2] += step * feats[i, 1]
        theta[3] += step * feats[i, 2]
        theta[4] += step * feats[i, 3]
    if is_sb:
        theta[5] += step
        if gii:
            theta[6] += step


@njit(cache=True, inline="always")
def _rewards(a_bb, sb_wins, stack, steal_gain):  # pragma: no cover - compiled
    """(SB, BB) chips at the end of a hand the SB shoved: the steal when the BB folds, else
    all or nothing by the showdown (``sb_wins``)."""
    if not a_bb:
        return stack + steal_gain, stack - steal_gain
    if sb_wins:
        return 2.0 * stack, 0.0
    return 0.0, 2.0 * stack


def _rewards_py(a_bb: bool, sb_wins: bool, stack: float, steal_gain: float) -> tuple[float, float]:
    """Plain twin of :func:`_rewards`."""
    if not a_bb:
        return stack + steal_gain, stack - steal_gain
    return (2.0 * stack, 0.0) if sb_wins else (0.0, 2.0 * stack)


@njit(cache=True, inline="always")
def _eps_greedy(theta, feats, i, is_sb, u_eps, u_act, e, counts):  # pragma: no cover - compiled
    """Epsilon-greedy shove/call: explore (``u_act < 0.5``, counted in ``counts[3]``) when
    ``u_eps < e``, else the action of the larger linear Q."""
    if u_eps < e:
        counts[3] += 1
        return u_act < 0.5
    return _q_linear(theta, feats, i, is_sb, True) > _q_linear(theta, feats, i, is_sb, False)


@njit(cache=True)
def mc_linear_kernel(theta, feats, eq, nonconf, sb, bbk, u_eps_sb, u_act_sb, u_eps_bb,
                     u_act_bb, u_win, eps, alpha, stack, fold_loss, steal_gain,
                     counts):  # pragma: no cover - compiled
    """Play ``len(sb)`` hands of epsilon-greedy self-play and update ``theta`` in place.

    Rewards are the player's chips at the end of the hand (stack ``S`` before the hand).
    ``counts`` (4,) accumulates SB shoves, BB decisions, BB calls and explored actions."""
    n = sb.shape[0]
    for h in range(n):
        i = sb[h]
        j = nonconf[i, bbk[h]]
        e = eps[h]
        a_sb = _eps_greedy(theta, feats, i, True, u_eps_sb[h], u_act_sb[h], e, counts)
        if not a_sb:
            _sgd_linear(theta, feats, i, True, False, stack - fold_loss, alpha)
            continue
        counts[0] += 1
        counts[1] += 1
        a_bb = _eps_greedy(theta, feats, j, False, u_eps_bb[h], u_act_bb[h], e, counts)
        if a_bb:
            counts[2] += 1
        r_sb, r_bb = _rewards(a_bb, u_win[h] < eq[i, j], stack, steal_gain)
        _sgd_linear(theta, feats, i, True, True, r_sb, alpha)
        _sgd_linear(theta, feats, j, False, a_bb, r_bb, alpha)


def _q_linear_py(theta: np.ndarray, feats: np.ndarray, i: int, is_sb: bool, gii: bool) -> float:
    x = _features_py(feats, i, is_sb, gii)
    return float(sum(float(t) * v for t, v in zip(theta, x, strict=True)))


def _eps_greedy_py(theta: np.ndarray, feats: np.ndarray, i: int, is_sb: bool, u_eps: float,
                   u_act: float, e: float, counts: np.ndarray) -> bool:
    if u_eps < e:
        counts[3] += 1
        return bool(u_act < 0.5)
    return _q_linear_py(theta, feats, i, is_sb, True) > _q_linear_py(theta, feats, i, is_sb, False)


def _features_py(feats: np.ndarray, i: int, is_sb: bool, gii: bool) -> list[float]:
    x = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    if gii:
        x[1:5] = [float(v) for v in feats[i]]
    if is_sb:
        x[5] = 1.0
        x[6] = 1.0 if gii else 0.0
    return x


def _sgd_linear_py(theta: np.ndarray, feats: np.ndarray, i: int, is_sb: bool, gii: bool,
                   target: float, alpha: float) -> None:
    x = _features_py(feats, i, is_sb, gii)
    err = target - _q_linear_py(theta, feats, i, is_sb, gii)
    for k in range(7):
        theta[k] += alpha * err * x[k]


def mc_linear_py(theta: np.ndarray, feats: np.ndarray, eq: np.ndarray, nonconf: np.ndarray,
                 sb: np.ndarray, bbk: np.ndarray, u_eps_sb: np.ndarray, u_act_sb: np.ndarray,
                 u_eps_bb: np.ndarray, u_act_bb: np.ndarray, u_win: np.ndarray,
                 eps: np.ndarray, alpha: float, stack: float, fold_loss: float,
                 steal_gain: float, counts: np.ndarray) -> None:
    """Plain-Python twin of :func:`mc_linear_kernel`."""
    for h in range(len(sb)):
        i = int(sb[h])
        j = int(nonconf[i, bbk[h]])
        a_sb = _eps_greedy_py(theta, feats, i, True, u_eps_sb[h], u_act_sb[h], eps[h], counts)
        if not a_sb:
            _sgd_linear_py(theta, feats, i, True, False, stack - fold_loss, alpha)
            continue
        counts[0] += 1
        counts[1] += 1
        a_bb = _eps_greedy_py(theta, feats, j, False, u_eps_bb[h], u_act_bb[h], eps[h], counts)
        if a_bb:
            counts[2] += 1
        r_sb, r_bb = _rewards_py(a_bb, bool(u_win[h] < eq[i, j]), stack, steal_gain)
        _sgd_linear_py(theta, feats, i, True, True, r_sb, alpha)
        _sgd_linear_py(theta, feats, j, False, a_bb, r_bb, alpha)


# ---------------------------------------------------------------- tabular Monte Carlo
@njit(cache=True)
def _greedy_tab(q_sum, q_wt, pos, k):  # pragma: no cover - compiled
    """Greedy action on weighted averages; an action never tried is tried first."""
    if q_wt[pos, k, 1] == 0.0:
        return True
    if q_wt[pos, k, 0] == 0.0:
        return False
    return q_sum[pos, k, 1] / q_wt[pos, k, 1] > q_sum[pos, k, 0] / q_wt[pos, k, 0]


@njit(cache=True, inline="always")
def _tab_choice(q_sum, q_wt, greedy_gii, visits, pos, k, w, u_eps, u_act, e):  # pragma: no cover
    """Count the visit (weight ``w``) and the greedy choice of (``pos``, class ``k``) for the
    average policy, then play epsilon-greedy."""
    g = _greedy_tab(q_sum, q_wt, pos, k)
    visits[pos, k] += w
    if g:
        greedy_gii[pos, k] += w
    return (u_act < 0.5) if u_eps < e else g


@njit(cache=True)
def mc_tabular_kernel(q_sum, q_wt, greedy_gii, visits, cls, eq, nonconf, sb, bbk, u_eps_sb,
                      u_act_sb, u_eps_bb, u_act_bb, u_win, eps, wts, stack, fold_loss,
                      steal_gain):  # pragma: no cover - compiled
    """Tabular self-play: ``q_sum``/``q_wt`` (2, K, 2) weighted returns and weights per
    (position, class, action); ``greedy_gii``/``visits`` (2, K) weighted greedy-GII choices
    and visits (the average policy).  Hand ``h`` carries weight ``wts[h]``."""
    n = sb.shape[0]
    for h in range(n):
        i = sb[h]
        j = nonconf[i, bbk[h]]
        ki = cls[i]
        kj = cls[j]
        e = eps[h]
        w = wts[h]
        a_sb = _tab_choice(q_sum, q_wt, greedy_gii, visits, 0, ki, w, u_eps_sb[h], u_act_sb[h], e)
        if not a_sb:
            q_sum[0, ki, 0] += w * (stack - fold_loss)
            q_wt[0, ki, 0] += w
            continue
        a_bb = _tab_choice(q_sum, q_wt, greedy_gii, visits, 1, kj, w, u_eps_bb[h], u_act_bb[h], e)
        r_sb, r_bb = _rewards(a_bb, u_win[h] < eq[i, j], stack, steal_gain)
        q_sum[0, ki, 1] += w * r_sb
        q_wt[0, ki, 1] += w
        ab = 1 if a_bb else 0
        q_sum[1, kj, ab] += w * r_bb
        q_wt[1, kj, ab] += w


def _greedy_tab_py(q_sum: np.ndarray, q_wt: np.ndarray, pos: int, k: int) -> bool:
    if q_wt[pos, k, 1] == 0.0:
        return True
    if q_wt[pos, k, 0] == 0.0:
        return False
    return bool(q_sum[pos, k, 1] / q_wt[pos, k, 1] > q_sum[pos, k, 0] / q_wt[pos, k, 0])


def _tab_choice_py(q_sum: np.ndarray, q_wt: np.ndarray, greedy_gii: np.ndarray,
                   visits: np.ndarray, pos: int, k: int, w: float, u_eps: float, u_act: float,
                   e: float) -> bool:
    g = _greedy_tab_py(q_sum, q_wt, pos, k)
    visits[pos, k] += w
    greedy_gii[pos, k] += w if g else 0.0
    return bool(u_act < 0.5) if u_eps < e else g


def mc_tabular_py(q_sum: np.ndarray, q_wt: np.ndarray, greedy_gii: np.ndarray,
                  visits: np.ndarray, cls: np.ndarray, eq: np.ndarray, nonconf: np.ndarray,
                  sb: np.ndarray, bbk: np.ndarray, u_eps_sb: np.ndarray, u_act_sb: np.ndarray,
                  u_eps_bb: np.ndarray, u_act_bb: np.ndarray, u_win: np.ndarray,
                  eps: np.ndarray, wts: np.ndarray, stack: float, fold_loss: float,
                  steal_gain: float) -> None:
    """Plain-Python twin of :func:`mc_tabular_kernel`."""
    for h in range(len(sb)):
        i = int(sb[h])
        j = int(nonconf[i, bbk[h]])
        ki, kj = int(cls[i]), int(cls[j])
        w = float(wts[h])
        a_sb = _tab_choice_py(q_sum, q_wt, greedy_gii, visits, 0, ki, w, u_eps_sb[h], u_act_sb[h],
                              eps[h])
        if not a_sb:
            q_sum[0, ki, 0] += w * (stack - fold_loss)
            q_wt[0, ki, 0] += w
            continue
        a_bb = _tab_choice_py(q_sum, q_wt, greedy_gii, visits, 1, kj, w, u_eps_bb[h], u_act_bb[h],
                              eps[h])
        r_sb, r_bb = _rewards_py(a_bb, bool(u_win[h] < eq[i, j]), stack, steal_gain)
        q_sum[0, ki, 1] += w * r_sb
        q_wt[0, ki, 1] += w
        ab = 1 if a_bb else 0
        q_sum[1, kj, ab] += w * r_bb
        q_wt[1, kj, ab] += w


# ---------------------------------------------------------------- payoff products
@njit(cache=True)
def payoff_products_kernel(D, masks, s, c, stack, steal_gain, Ac, sA):  # pragma: no cover
    """``Ac = A @ c`` and ``sA = A.T @ s`` for ``A = (S D - g V) / 1225`` in one pass over
    ``D`` (``V`` comes from the card masks), single-threaded."""
    n = D.shape[0]
    for i in range(n):
        Ac[i] = 0.0
        sA[i] = 0.0
    for i in range(n):
        mi = masks[i]
        si = s[i]
        acc = 0.0
        for j in range(n):
            if (mi & masks[j]) != 0:
                continue
            a = stack * D[i, j] - steal_gain
            acc += a * c[j]
            sA[j] += si * a
        Ac[i] = acc / 1225.0
    for j in range(n):
        sA[j] /= 1225.0


def payoff_products_py(D: np.ndarray, masks: np.ndarray, s: np.ndarray, c: np.ndarray,
                       stack: float, steal_gain: float, Ac: np.ndarray, sA: np.ndarray) -> None:
    """Plain-Python twin of :func:`payoff_products_kernel` (one row at a time)."""
    n = D.shape[0]
    for i in range(n):
        valid = (masks & masks[i]) == 0
        a = np.where(valid, stack * D[i] - steal_gain, 0.0)
        Ac[i] = float(sum(float(x) for x in a * c)) / 1225.0
    for j in range(n):
        valid = (masks & masks[j]) == 0
        a = np.where(valid, stack * D[:, j] - steal_gain, 0.0)
        sA[j] = float(sum(float(x) for x in a * s)) / 1225.0
