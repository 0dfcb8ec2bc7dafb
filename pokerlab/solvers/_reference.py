"""Plain-Python twins of :mod:`pokerlab.solvers.cfr_kernels` (slow; for parity tests).

Written per information set (node, hand) with explicit loops, as the textbook states CFR.
"""

from __future__ import annotations

import numpy as np

from pokerlab.solvers.cfr_kernels import KIND_CHANCE, KIND_DECISION, KIND_TERMINAL
from pokerlab.solvers.regret import discount_factor_py, regret_matching_py


def regret_match_py(kind, player, child_count, slot_base, regrets, sigma,
                    update_player):  # type: ignore[no-untyped-def]
    for v in range(len(kind)):
        if kind[v] != KIND_DECISION or (update_player >= 0 and player[v] != update_player):
            continue
        s, na = slot_base[v], child_count[v]
        for h in range(regrets.shape[1]):
            regret_matching_py(regrets[s:s + na, h], sigma[s:s + na, h])


def cfr_iteration_py(kind, player, child_start, child_count, children, slot_base, term_index,
                     utility, regrets, avg, sigma, reach, cfv, update_player, t, rm_plus,
                     discount, alpha, beta, gamma):  # type: ignore[no-untyped-def]
    H = regrets.shape[1]

    def rec(v: int, r0: np.ndarray, r1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Counterfactual values (player 0, player 1) per hand at node v."""
        if kind[v] == KIND_TERMINAL:
            u = utility[term_index[v]]
            return u @ r1, -(r0 @ u)
        kids = [children[e] for e in range(child_start[v], child_start[v] + child_count[v])]
        if kind[v] == KIND_CHANCE:
            out0, out1 = np.zeros(H), np.zeros(H)
            for c in kids:
                a, b = rec(c, r0, r1)
                out0 += a
                out1 += b
            return out0, out1
        q = player[v]
        sb = slot_base[v]
        child_vals = []
        for j, c in enumerate(kids):
            if q == 0:
                child_vals.append(rec(c, r0 * sigma[sb + j], r1))
            else:
                child_vals.append(rec(c, r0, r1 * sigma[sb + j]))
        own = np.zeros(H)
        other = np.zeros(H)
        for j, (a, b) in enumerate(child_vals):
            mine, theirs = (a, b) if q == 0 else (b, a)
            own += sigma[sb + j] * mine
            other += theirs
        if update_player < 0 or update_player == q:
            my_reach = r0 if q == 0 else r1
            for j, (a, b) in enumerate(child_vals):
                mine = a if q == 0 else b
                regrets[sb + j] += mine - own
                avg[sb + j] += float(t) ** gamma * my_reach * sigma[sb + j]
        return (own, other) if q == 0 else (other, own)

    rec(0, np.ones(H), np.ones(H))
    for v in range(len(kind)):
        if kind[v] != KIND_DECISION or (update_player >= 0 and player[v] != update_player):
            continue
        sb, na = slot_base[v], child_count[v]
        for j in range(na):
            for h in range(H):
                r = regrets[sb + j, h]
                if rm_plus and r < 0:
                    r = 0.0
                if discount:
                    r *= discount_factor_py(t, alpha if r >= 0 else beta)
                regrets[sb + j, h] = r
    regret_match_py(kind, player, child_count, slot_base, regrets, sigma, update_player)


def cfr_run_py(kind, player, child_start, child_count, children, slot_base, term_index,
               utility, regrets, avg, sigma, reach, cfv, t0, num_iterations, alternating,
               rm_plus, discount, alpha, beta, gamma):  # type: ignore[no-untyped-def]
    for i in range(num_iterations):
        t = t0 + 1 + i
        for p in ((0, 1) if alternating else (-1,)):
            cfr_iteration_py(kind, player, child_start, child_count, children, slot_base,
                             term_index, utility, regrets, avg, sigma, reach, cfv, p, t,
                             rm_plus, discount, alpha, beta, gamma)


def public_br_py(kind, player, child_start, child_count, children, slot_base, term_index,
                 utility, sigma, reach, cfv, br_player):  # type: ignore[no-untyped-def]
    H = sigma.shape[1]

    def rec(v: int, r_opp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if kind[v] == KIND_TERMINAL:
            u = utility[term_index[v]]
            x = u @ r_opp if br_player == 0 else -(r_opp @ u)
            return x, x.copy()
        kids = [children[e] for e in range(child_start[v], child_start[v] + child_count[v])]
        if kind[v] == KIND_CHANCE or player[v] != br_player:
            best, on = np.zeros(H), np.zeros(H)
            for j, c in enumerate(kids):
                ro = r_opp if kind[v] == KIND_CHANCE else r_opp * sigma[slot_base[v] + j]
                a, b = rec(c, ro)
                best += a
                on += b
            return best, on
        vals = [rec(c, r_opp) for c in kids]
        best = np.max(np.stack([a for a, _ in vals]), axis=0)
        on = sum(sigma[slot_base[v] + j] * b for j, (_, b) in enumerate(vals))
        return best, np.asarray(on)

    a, b = rec(0, np.ones(H))
    return float(a.sum()), float(b.sum())


def normalise_py(kind, child_count, slot_base, weights, out):  # type: ignore[no-untyped-def]
    for v in range(len(kind)):
        if kind[v] != KIND_DECISION:
            continue
        s, na = slot_base[v], child_count[v]
        blk = weights[s:s + na]
        tot = blk.sum(axis=0)
        out[s:s + na] = np.where(tot > 0, blk / np.where(tot > 0, tot, 1.0), 1.0 / na)
