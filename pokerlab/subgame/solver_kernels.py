"""Numba kernels of the range-vectorised subgame solver.

One recursive walk (:func:`walk`) over the public tree serves every pass: a CFR update
for one player (``MODE_CFR``: current strategies by regret matching, discounted regret and
strategy-sum updates), a best response (``MODE_BR``: the opponent's average strategy, the
player maximises) and expected values (``MODE_EV``: both average strategies).  Values are
counterfactual, vectors over the updating player's hands; reaches are vectors over the
opponent's hands (and the player's own, for the strategy sums).

Terminals cost O(n) after the per-board sort (:func:`showdown_values`: one ascending and
one descending sweep with per-card sums for card removal; :func:`fold_values`: total minus
the two cards' sums).  Chance nodes deal every turn/river card with card removal; suit
isomorphic cards take the representative's values with the hands' suits swapped.

Both cores: the chance nodes of the starting street split the work into independent
subtrees (:func:`run_tasks`, ``prange``); the starting street itself is walked before
(collecting the reaches at those chance nodes) and after (combining their values).

The plain-Python twins are the same functions' ``py_func`` (numba's uncompiled originals),
run by the parity tests; the independent check is a full-tree CFR and best response through
the game protocol (:mod:`pokerlab.subgame.protocol_game`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from pokerlab.kinds import CHANCE, DECISION, FOLD, SHOWDOWN  # noqa: F401 (K.DECISION)
from pokerlab.solvers.regret import NO_RC, VEC_FLAGS, regret_match_columns

MODE_CFR = 0
MODE_BR = 1
MODE_EV = 2

TOP_FULL = 0  # walk everything
TOP_COLLECT = 1  # stop at the starting street's chance nodes, store the reaches there
TOP_COMBINE = 2  # take the starting street's chance values from the task results


@njit(cache=True)
def fold_values(opp_reach, hand_cards, opp_cards, same, payoff, out):  # type: ignore[no-untyped-def]
    """``out[h] = payoff * (weight of opponent hands sharing no card with h)``."""
    _fold_values(opp_reach, hand_cards, opp_cards, same, payoff, out, np.empty(52))


@njit(cache=True, fastmath=VEC_FLAGS, **NO_RC)
def _fold_values(opp_reach, hand_cards, opp_cards, same, payoff, out, per_card):  # type: ignore[no-untyped-def]
    """:func:`fold_values` with the per-card sums in ``per_card`` (scratch of 52 floats)."""
    for c in range(52):
        per_card[c] = 0.0
    total = 0.0
    for o in range(opp_reach.shape[0]):
        w = float(opp_reach[o])
        total += w
        per_card[opp_cards[o, 0]] += w
        per_card[opp_cards[o, 1]] += w
    for h in range(out.shape[0]):
        s = same[h]
        v = total - per_card[hand_cards[h, 0]] - per_card[hand_cards[h, 1]]
        if s >= 0:
            v += opp_reach[s]
        out[h] = payoff * v


@njit(cache=True, inline="always")
def _add_reach(opp_reach, opp_order, opp_cards, j, buf):  # type: ignore[no-untyped-def]
    """The opponent's reach of its ``j``-th hand in strength order, added to ``buf`` at
    both of the hand's cards (nothing when it is 0)."""
    w = opp_reach[opp_order[j]]
    if w != 0.0:
        buf[opp_cards[2 * j]] += w
        buf[opp_cards[2 * j + 1]] += w
    return w


@njit(cache=True)
def showdown_values(opp_reach, same, my_order, my_cards, my_str, my_n, opp_order, opp_cards, opp_str,  # type: ignore[no-untyped-def]
                    opp_n, win, tie, lose, out, buf):
    """Showdown on one river board: ``out[h] = win * W(h) + tie * T(h) + lose * L(h)`` where
    W/T/L are the opponent's reach over compatible weaker/equal/stronger hands.  Hands not
    in ``my_order[:my_n]`` (blocked by the board) get 0.  ``my_cards``/``opp_cards`` hold
    the two cards of each hand in strength order (``2 q``, ``2 q + 1``); ``buf`` is scratch
    of 104.

    Two sweeps, as the O(n) evaluation of Johanson et al. (2011): up the strengths for W,
    down for L, per-card sums for card removal.  With ``tie == 0`` (the solver passes
    payoffs relative to a tie when there is no rake) nothing more is needed; otherwise
    the forward sweep runs on to the end for the totals and T = compatible - W - L."""
    for h in range(out.shape[0]):
        out[h] = 0.0
    for k in range(104):
        buf[k] = 0.0
    acc = 0.0
    j = 0
    dw = win - tie
    for q in range(my_n):
        s = my_str[q]
        while j < opp_n and opp_str[j] < s:
            acc += _add_reach(opp_reach, opp_order, opp_cards, j, buf)
            j += 1
        out[my_order[q]] = (acc - buf[my_cards[2 * q]] - buf[my_cards[2 * q + 1]]) * dw
    total = 0.0
    if tie != 0.0:
        while j < opp_n:
            acc += _add_reach(opp_reach, opp_order, opp_cards, j, buf)
            j += 1
        total = acc
        for k in range(52):
            buf[52 + k] = buf[k]
    for k in range(52):
        buf[k] = 0.0
    acc = 0.0
    j = opp_n - 1
    dl = lose - tie
    for q in range(my_n - 1, -1, -1):
        s = my_str[q]
        while j >= 0 and opp_str[j] > s:
            acc += _add_reach(opp_reach, opp_order, opp_cards, j, buf)
            j -= 1
        h = my_order[q]
        c1 = my_cards[2 * q]
        c2 = my_cards[2 * q + 1]
        v = (acc - buf[c1] - buf[c2]) * dl
        if tie != 0.0:
            comp = total - buf[52 + c1] - buf[52 + c2]
            sm = same[h]
            if sm >= 0:
                comp += opp_reach[sm]
            v += comp * tie
        out[h] += v


@njit(cache=True)
def showdown_index(my_order, my_str, my_cards, my_n, opp_str, opp_cards, opp_n, idx):  # type: ignore[no-untyped-def]
    """The static part of :func:`showdown_fast` on one river board (built once per board and
    player), two int64 words per hand at strength position ``q`` (``n = idx.shape[0] // 2``):
    ``idx[q] = lo | l1 << 12 | l2 << 24 | c1 << 36 | h << 42`` and ``idx[n + q] = hi | h1 << 12
    | h2 << 24 | c2 << 36``, where ``lo`` / ``hi`` count the opponent's hands weaker / not
    stronger, ``l1``, ``l2`` (``h1``, ``h2``) are the slots in :func:`showdown_fast`'s per-card
    running sums of the last opponent hand below ``lo`` (``hi``) holding my first / second
    card (0: none), ``c1``, ``c2`` my cards and ``h`` my hand's index: everything the pass over
    my hands reads, in two loads."""
    n = idx.shape[0] // 2
    last = np.zeros(52, dtype=np.int64)
    for bound in range(2):
        for c in range(52):
            last[c] = 0
        j = 0
        for q in range(my_n):
            s = my_str[q]
            while j < opp_n and (opp_str[j] < s or (bound == 1 and opp_str[j] == s)):
                last[opp_cards[2 * j]] = 2 * j + 1
                last[opp_cards[2 * j + 1]] = 2 * j + 2
                j += 1
            c1 = np.int64(my_cards[2 * q])
            c2 = np.int64(my_cards[2 * q + 1])
            if bound == 0:
                idx[q] = (j | (last[c1] << 12) | (last[c2] << 24) | (c1 << 36)
                          | (np.int64(my_order[q]) << 42))
            else:
                idx[n + q] = j | (last[c1] << 12) | (last[c2] << 24) | (c2 << 36)


@njit(cache=True, fastmath=VEC_FLAGS, inline="always")
def _strength_prefix(opp_reach, opp_order, opp_cards, opp_n, pre, card_pre, run):  # type: ignore[no-untyped-def]
    """The pass over the opponent's hands in strength order of :func:`showdown_fast`: prefix
    sums of its reach (``pre``), per card in the pass's order (``card_pre``) and the per-card
    totals (``run``); returns the total reach."""
    for c in range(52):
        run[c] = 0.0
    acc = 0.0
    pre[0] = 0.0
    card_pre[0] = 0.0
    for j in range(opp_n):
        acc = _prefix_add(j, float(opp_reach[opp_order[j]]), acc, opp_cards, pre, card_pre, run)
    return acc


@njit(cache=True, fastmath=VEC_FLAGS, inline="always")
def _prefix_add(j, w, acc, opp_cards, pre, card_pre, run):  # type: ignore[no-untyped-def]
    """Hand ``j`` (in strength order, reach ``w``) of the pass of :func:`_strength_prefix`:
    returns the new total after writing ``pre[j + 1]`` and its cards' running sums."""
    acc += w
    pre[j + 1] = acc
    c1 = opp_cards[2 * j]
    c2 = opp_cards[2 * j + 1]
    x = run[c1] + w
    run[c1] = x
    card_pre[2 * j + 1] = x
    y = run[c2] + w
    run[c2] = y
    card_pre[2 * j + 2] = y
    return acc


@njit(cache=True, fastmath=VEC_FLAGS, inline="always")
def _hand_at(lo, hi, q, same, pre, card_pre, run, acc, dw, dl):  # type: ignore[no-untyped-def]
    """My ``q``-th hand in strength order: its index words ``a``, ``b``, the hand ``h``,
    its identical opponent hand ``same[h]`` and its showdown value relative to a tie."""
    a = lo[q]
    b = hi[q]
    h = a >> 42
    return a, b, h, same[h], _showdown_hand(a, b, pre, card_pre, run, acc, dw, dl)


@njit(cache=True, fastmath=VEC_FLAGS, inline="always")
def _unblocked(a, b, acc, run):  # type: ignore[no-untyped-def]
    """The opponent's reach that shares no card with the hand of index words ``a``, ``b``
    (before adding back the identical hand, counted twice by the two cards)."""
    return acc - run[(a >> 36) & 63] - run[(b >> 36) & 63]


@njit(cache=True, fastmath=VEC_FLAGS, inline="always")
def _showdown_hand(a, b, pre, card_pre, run, acc, dw, dl):  # type: ignore[no-untyped-def]
    """One hand's showdown value relative to a tie from its two static words (``a``, ``b``:
    :func:`showdown_index`) and the sums of :func:`_strength_prefix`."""
    c1 = (a >> 36) & 63
    c2 = (b >> 36) & 63
    wv = pre[a & 4095] - card_pre[(a >> 12) & 4095] - card_pre[(a >> 24) & 4095]
    lv = ((acc - pre[b & 4095]) - (run[c1] - card_pre[(b >> 12) & 4095])
          - (run[c2] - card_pre[(b >> 24) & 4095]))
    return wv * dw + lv * dl


@njit(cache=True, fastmath=VEC_FLAGS, **NO_RC)
def showdown_fast(opp_reach, same, my_n, opp_order, opp_cards, opp_n, idx,  # type: ignore[no-untyped-def]
                  win, tie, lose, out, pre, card_pre, run):
    """:func:`showdown_values` without its data-dependent branches: one pass over the
    opponent's hands in strength order builds the prefix sums of its reach (``pre``: n_o + 1)
    and, per card, of the reach holding that card (``card_pre``: 2 n_o + 1 slots, in the
    pass's order; ``run``: 52 running totals); then each of my hands reads its weaker and
    stronger sums at the static bounds of :func:`showdown_index` (``idx``), card removal by
    the per-card sums at the same bounds.  The same values as :func:`showdown_values` up to
    rounding (the sums are float64 either way)."""
    n = idx.shape[0] // 2
    acc = _strength_prefix(opp_reach, opp_order, opp_cards, opp_n, pre, card_pre, run)
    if my_n < out.shape[0]:
        for h in range(out.shape[0]):
            out[h] = 0.0
    dw = win - tie
    dl = lose - tie
    lo = idx[0:n]
    hi = idx[n:2 * n]
    for q in range(my_n):
        a, b, h, sm, v = _hand_at(lo, hi, q, same, pre, card_pre, run, acc, dw, dl)
        if tie != 0.0:
            comp = _unblocked(a, b, acc, run)
            if sm >= 0:
                comp += opp_reach[sm]
            v += comp * tie
        out[h] = v


@njit(cache=True, fastmath=VEC_FLAGS, **NO_RC)
def showdown_fold(opp, sig_s, sig_f, shared, same, my_n, opp_order, opp_cards, opp_n, idx,  # type: ignore[no-untyped-def]
                  win, tie, lose, pay_f, out_s, out_f, pre, card_pre, run, run_f):
    """A decision node's fold and showdown children at once (the river's ``fold`` and
    ``call``).  With ``shared`` (the player itself acts) both children see the opponent's
    reach ``opp``; otherwise the opponent acts and the showdown sees ``opp * sig_s``, the
    fold ``opp * sig_f`` (its strategy's rows for the two actions; the products are formed
    here, never stored).  ``out_s`` as :func:`showdown_fast`, ``out_f`` as
    :func:`fold_values` with payoff ``pay_f``.  One pass over the opponent's hands in
    strength order builds both children's sums (shared: the fold's per-card sums are the
    showdown's totals, so it reads those), and one pass over my hands writes both: the fold
    costs no pass of its own.  Hands the board blocks (not in the strength order) get 0 in
    both (their values are zeroed at the chance node above anyway).  The same values as the
    two kernels up to rounding."""
    n = idx.shape[0] // 2
    if shared:
        acc = _strength_prefix(opp, opp_order, opp_cards, opp_n, pre, card_pre, run)
        acc_f = acc
    else:
        # the showdown's sums and the fold's per-card sums in one loop (independent chains)
        for c in range(52):
            run[c] = 0.0
            run_f[c] = 0.0
        acc = 0.0
        acc_f = 0.0
        pre[0] = 0.0
        card_pre[0] = 0.0
        for j in range(opp_n):
            oj = opp_order[j]
            x0 = float(opp[oj])
            w = x0 * float(sig_s[oj])
            wf = x0 * float(sig_f[oj])
            acc = _prefix_add(j, w, acc, opp_cards, pre, card_pre, run)
            acc_f += wf
            run_f[opp_cards[2 * j]] += wf
            run_f[opp_cards[2 * j + 1]] += wf
    if my_n < out_s.shape[0]:
        for h in range(out_s.shape[0]):
            out_s[h] = 0.0
            out_f[h] = 0.0
    dw = win - tie
    dl = lose - tie
    lo = idx[0:n]
    hi = idx[n:2 * n]
    if shared:
        for q in range(my_n):
            a, b, h, sm, v = _hand_at(lo, hi, q, same, pre, card_pre, run, acc, dw, dl)
            comp = _unblocked(a, b, acc, run)
            if sm >= 0:
                comp += float(opp[sm])
            out_s[h] = v + comp * tie
            out_f[h] = pay_f * comp
        return
    for q in range(my_n):
        a, b, h, sm, v = _hand_at(lo, hi, q, same, pre, card_pre, run, acc, dw, dl)
        fv = _unblocked(a, b, acc_f, run_f)
        if sm >= 0:
            fv += float(opp[sm]) * float(sig_f[sm])
        if tie != 0.0:
            comp = _unblocked(a, b, acc, run)
            if sm >= 0:
                comp += float(opp[sm]) * float(sig_s[sm])
            v += comp * tie
        out_s[h] = v
        out_f[h] = pay_f * fv


@njit(cache=True, fastmath=VEC_FLAGS, **NO_RC)
def current_strategy(regrets, base, k, n, lock, lptr, sigma, tot):  # type: ignore[no-untyped-def]
    """Regret matching per hand into flat ``sigma[a * n + h]`` (action-major, as stored),
    vectorised over the hands (:func:`pokerlab.solvers.regret.regret_match_columns`);
    locked hands take the locked strategy."""
    regret_match_columns(regrets, base, k, n, sigma, tot)
    if lptr >= 0:
        for h in range(n):
            if lock[lptr + h] > 0.0:
                for a in range(k):
                    sigma[a * n + h] = lock[lptr + n + a * n + h]


@njit(cache=True, fastmath=VEC_FLAGS, **NO_RC)
def average_strategy(ssum, base, k, n, lock, lptr, sigma, tot):  # type: ignore[no-untyped-def]
    """The average strategy (normalised strategy sums; uniform where they are all 0)."""
    t = tot[:n]
    s0 = ssum[base:base + n]
    for h in range(n):
        t[h] = s0[h]
    for a in range(1, k):
        sa = ssum[base + a * n:base + a * n + n]
        for h in range(n):
            t[h] += sa[h]
    uni = 1.0 / k
    for a in range(k):
        sa = ssum[base + a * n:base + a * n + n]
        sg = sigma[a * n:a * n + n]
        for h in range(n):
            x = t[h]
            dv = x if x > 0.0 else 1.0
            sg[h] = sa[h] / dv if x > 0.0 else uni
    if lptr >= 0:
        for h in range(n):
            if lock[lptr + h] > 0.0:
                for a in range(k):
                    sigma[a * n + h] = lock[lptr + n + a * n + h]


@njit(cache=True)
def _zero_card(vec, card_start, card_hands, c):  # type: ignore[no-untyped-def]
    for q in range(card_start[c], card_start[c + 1]):
        vec[card_hands[q]] = 0.0


@njit(cache=True)
def _dead(mode, top, opp_v, own_v):  # type: ignore[no-untyped-def]
    """0: the opponent reaches the node; 1: it does not, but a CFR update must still walk
    the subtree for the player's strategy sums and regret discounts (all values there are 0,
    terminals are skipped); 2: prune (nothing to compute or write)."""
    for i in range(opp_v.shape[0]):
        if opp_v[i] != 0.0:
            return 0
    if mode != MODE_CFR:
        return 2
    for i in range(own_v.shape[0]):
        if own_v[i] != 0.0:
            return 1
    return 2


@njit(cache=True, inline="always")
def _regret_step(r, inst, pos_d, neg_d, plus):  # type: ignore[no-untyped-def]
    """One regret's update by the instantaneous regret ``inst``: the floored schedules
    (CFR+, DCFR+, PDCFR+) scale by ``pos_d`` (1 for CFR+), add and floor at 0; the
    discounted family scales positive and negative sums by ``pos_d`` / ``neg_d`` first."""
    if plus:
        r = r * pos_d + inst
        return r if r >= 0.0 else 0.0
    return r * (pos_d if r > 0.0 else neg_d) + inst


@njit(cache=True, fastmath=VEC_FLAGS, inline="always")
def _entry_rows(regrets, ssum, cfv, sigma, base, b, n):  # type: ignore[no-untyped-def]
    """Action ``b``'s rows of one (node, board) entry: its regrets and strategy sums in the
    tables (from ``base``) and its counterfactual values and strategy in the work vectors."""
    off = base + b * n
    return (regrets[off:off + n], ssum[off:off + n], cfv[b * n:b * n + n],
            sigma[b * n:b * n + n])


@njit(cache=True, fastmath=VEC_FLAGS, **NO_RC)
def _update_compressed(regrets, ssum, rscale, sscale, e, base, k, n, cfv, out_v, own_v, sigma,  # type: ignore[no-untyped-def]
                       pos_d, neg_d, strat_d, plus):
    """The regret and strategy-sum update of one (node, board) entry stored in 16 bits:
    ``regrets`` int16 times ``rscale[e] / 32767``, ``ssum`` uint16 times ``sscale[e] /
    65535`` (one scale per entry, the largest magnitude in it, as postflop-solver's
    compression).  Decode, update as the float32 path does, re-encode with rounding.  ``cfv``
    and ``sigma`` are overwritten (the caller is done with them).  Loops over hands on
    contiguous views (vectorised; the maxima are exact in any order)."""
    rdec = float(rscale[e]) / 32767.0
    sdec = float(sscale[e]) / 65535.0
    rmax = 0.0
    smax = 0.0
    for b in range(k):
        rg, ss, cb, sb = _entry_rows(regrets, ssum, cfv, sigma, base, b, n)
        for h in range(n):
            r = _regret_step(rg[h] * rdec, cb[h] - out_v[h], pos_d, neg_d, plus)
            cb[h] = r
            a = r if r >= 0.0 else -r
            rmax = a if a > rmax else rmax
            sv = ss[h] * sdec * strat_d + own_v[h] * sb[h]
            sb[h] = sv
            smax = sv if sv > smax else smax
    renc = 32767.0 / rmax if rmax > 0.0 else 0.0
    senc = 65535.0 / smax if smax > 0.0 else 0.0
    for b in range(k):
        rg, ss, cb, sb = _entry_rows(regrets, ssum, cfv, sigma, base, b, n)
        for h in range(n):
            rg[h] = math.floor(cb[h] * renc + 0.5)
            ss[h] = math.floor(sb[h] * senc + 0.5)
    rscale[e] = rmax
    sscale[e] = smax


@njit(cache=True, fastmath=VEC_FLAGS, **NO_RC)
def _update(regrets, ssum, pred, base, k, n, cfv, out_v, own_v, sigma, pos_d, neg_d, strat_d, plus,  # type: ignore[no-untyped-def]
            pred_d):
    """The float32 regret and strategy-sum update of one (node, board) entry: regrets by the
    instantaneous regrets ``cfv[b] - out_v`` (:func:`_regret_step`), strategy sums discounted
    by ``strat_d`` plus the own reach times the strategy.  With a ``pred`` table (PDCFR+,
    else empty) the regrets the next strategy is matched on, predicted with the
    instantaneous regrets repeated: ``max(R * pred_d + inst, 0)``.  Compiled without numba's reference
    counting (``_nrt=False``): views of the shared tables then cost no atomic counter updates,
    which threads on the two cores would otherwise contend for."""
    for b in range(k):
        rg, ss, cb, sb = _entry_rows(regrets, ssum, cfv, sigma, base, b, n)
        for h in range(n):
            rg[h] = _regret_step(rg[h], cb[h] - out_v[h], pos_d, neg_d, plus)
            ss[h] = ss[h] * strat_d + own_v[h] * sb[h]
        if pred.shape[0] > 0:
            pr = pred[base + b * n:base + b * n + n]
            for h in range(n):
                x = rg[h] * pred_d + (cb[h] - out_v[h])
                pr[h] = x if x > 0.0 else 0.0


@njit(cache=True, fastmath=VEC_FLAGS, inline="always")
def _scale(dst, x, y):  # type: ignore[no-untyped-def]
    """``dst[h] = x[h] * y[h]`` over ``dst``'s length (contiguous views: vectorised)."""
    for h in range(dst.shape[0]):
        dst[h] = x[h] * y[h]


@njit(cache=True, inline="always")
def _rake(final, rake, rake_cap):  # type: ignore[no-untyped-def]
    """The rake taken from a final pot: ``rake`` of it, at most ``rake_cap`` (0: no cap)."""
    r = rake * final
    if rake_cap > 0.0 and r > rake_cap:
        r = rake_cap
    return r


def work_size(n_max: int) -> int:
    """Floats of :func:`walk`'s float64 work area for hand lists of at most ``n_max``."""
    return 160 + 3 * n_max


@njit(cache=True, nogil=True, fastmath=VEC_FLAGS, **NO_RC)
def _copy(dst, src):  # type: ignore[no-untyped-def]
    for h in range(dst.shape[0]):
        dst[h] = src[h]


@njit(cache=True, nogil=True, fastmath=VEC_FLAGS, **NO_RC)
def walk(mode, top, node, p, slot, opp_reach, own_reach, out, scratch, frames, work,  # type: ignore[no-untyped-def]
         kind, player, street, child_start, num_children, children, contrib, fused,
         node_base, entry_base, regrets, ssum, rscale, sscale, pred, lock, lock_ptr,
         hand_cards, same, card_start, card_hands, swap,
         next_slot, iso_rep, iso_swap, sd_order, sd_count, sd_cards, sd_index,
         pot, rake, rake_cap, pos_d, neg_d, strat_d, plus, pred_d,
         chance_index, chance_opp, chance_own, task_of, task_cfv, root_street, leaf_of, leaf_cfv):
    """Counterfactual values ``out`` (player ``p``'s hands) of the subtree at ``node`` on
    board ``slot`` of its street, given the opponent's reach ``opp_reach``.

    A depth-first walk with an explicit stack (``frames``: (depth, 8) int64; no recursion,
    so the kernel caches): each frame holds its node, board slot, next child (or card),
    and the offsets in ``scratch`` of its opponent reach, own reach and output vectors and
    of its own work area (strategy, regret-matching sums, child values, child reaches).
    Vectors have ``scratch``'s dtype (float32 or float64); the loops over hands run on
    contiguous views so that they vectorise.  ``work``: float64 scratch of
    :func:`work_size` for the terminals' sums.  Compiled without numba's reference counting
    (it allocates nothing): views of the shared tables cost no atomic counter updates, which
    the threads of :func:`run_tasks` would otherwise contend for."""
    o = 1 - p
    n_p = hand_cards[p].shape[0]
    n_o = hand_cards[o].shape[0]
    half = 0.5 * pot
    buf = work[0:104]
    fbuf = work[104:156]
    pre = work[156:157 + n_o]
    card_pre = work[157 + n_o:158 + 3 * n_o]
    # the root's vectors
    for i in range(n_o):
        scratch[i] = opp_reach[i]
    for i in range(n_p):
        scratch[n_o + i] = own_reach[i]
    F_NODE, F_SLOT, F_A, F_OPP, F_OWN, F_OUT, F_SP, F_DEAD = 0, 1, 2, 3, 4, 5, 6, 7
    frames[0, F_NODE] = node
    frames[0, F_SLOT] = slot
    frames[0, F_A] = -1
    frames[0, F_OPP] = 0
    frames[0, F_OWN] = n_o
    frames[0, F_OUT] = n_o + n_p
    frames[0, F_SP] = n_o + 2 * n_p
    frames[0, F_DEAD] = 0
    d = 0
    while d >= 0:
        nd = frames[d, F_NODE]
        sl = frames[d, F_SLOT]
        a = frames[d, F_A]
        oo = frames[d, F_OPP]
        ow = frames[d, F_OWN]
        ou = frames[d, F_OUT]
        sp = frames[d, F_SP]
        dead = frames[d, F_DEAD]
        kd = kind[nd]
        opp_v = scratch[oo:oo + n_o]
        own_v = scratch[ow:ow + n_p]
        out_v = scratch[ou:ou + n_p]
        st = street[nd]
        if kd == FOLD or kd == SHOWDOWN:
            if dead:
                out_v[:] = 0.0
                d -= 1
                continue
            cp = contrib[nd, p]
            final = pot + contrib[nd, 0] + contrib[nd, 1]
            r = _rake(final, rake, rake_cap)
            if kd == FOLD:
                pay = (-cp if player[nd] == p else final - r - cp) - half
                _fold_values(opp_v, hand_cards[p], hand_cards[o], same[p], pay, out_v, fbuf)
            else:
                # payoffs relative to a tie (half the starting pot less): the same constant
                # for every terminal, added back by the caller (SpotSolver._run)
                tie = 0.5 * (final - r) - cp - half
                if abs(tie) < 1e-9:
                    tie = 0.0
                showdown_fast(opp_v, same[p], sd_count[p][sl], sd_order[o][sl], sd_cards[o][sl],
                              sd_count[o][sl], sd_index[p][sl], final - r - cp - half, tie, -cp - half,
                              out_v, pre, card_pre, buf)
            d -= 1
            continue
        if kd == CHANCE:
            tmp = scratch[sp:sp + n_p]
            if a == -1:
                out_v[:] = 0.0
                if not dead:
                    dead = _dead(mode, top, opp_v, own_v)
                    if dead == 2:
                        d -= 1
                        continue
                    frames[d, F_DEAD] = dead
                if top == TOP_COLLECT and st == root_street:
                    ci = chance_index[nd]
                    _copy(chance_opp[ci, :n_o], opp_v)
                    _copy(chance_own[ci, :n_p], own_v)
                    d -= 1
                    continue
                if st == root_street and chance_index[nd] >= 0 and leaf_of[chance_index[nd]] >= 0:
                    # a leaf of a depth-limited spot: its values were computed from the
                    # reaches collected there (SpotSolver._leaf_values); walks from a node
                    # below the root read the last ones
                    if not dead:
                        _copy(out_v, leaf_cfv[leaf_of[chance_index[nd]], :n_p])
                    d -= 1
                    continue
                c = 0
            else:
                # the child for card a returned its values in tmp
                _add_dealt(tmp, out_v, a, sl, card_start[p], card_hands[p], swap[p], iso_rep[st],
                           next_slot[st], iso_swap[st])
                c = a + 1
            nxt = next_slot[st]
            swp = iso_swap[st]
            while c < 52 and (nxt[sl, c] < 0 or swp[sl, c] >= 0):
                c += 1
            if c == 52:
                weight = 1.0 / (45.0 - st)
                for h in range(n_p):
                    out_v[h] *= weight
                d -= 1
                continue
            frames[d, F_A] = c
            if top == TOP_COMBINE and st == root_street:
                t = task_of[chance_index[nd], c]
                _copy(tmp, task_cfv[t, :n_p])
                continue  # handled as a returned child on the next pass
            so = sp + n_p
            sw = so + n_o
            _copy(scratch[so:so + n_o], opp_v)
            _zero_card(scratch[so:so + n_o], card_start[o], card_hands[o], c)
            _copy(scratch[sw:sw + n_p], own_v)
            _zero_card(scratch[sw:sw + n_p], card_start[p], card_hands[p], c)
            d += 1
            frames[d, F_DEAD] = dead
            frames[d, F_NODE] = children[child_start[nd]]
            frames[d, F_SLOT] = nxt[sl, c]
            frames[d, F_A] = -1
            frames[d, F_OPP] = so
            frames[d, F_OWN] = sw
            frames[d, F_OUT] = sp
            frames[d, F_SP] = sw + n_p
            continue
        # decision node
        q = player[nd]
        k = num_children[nd]
        fz = fused[nd]
        n_q = hand_cards[q].shape[0]
        base = node_base[nd] + sl * k * n_q
        sigma = scratch[sp:sp + k * n_q]
        cfv_off = sp + (k + 1) * n_q
        sub = cfv_off + k * n_p
        if a == -1:
            if not dead:
                dead = _dead(mode, top, opp_v, own_v)
                if dead == 2:
                    out_v[:] = 0.0
                    d -= 1
                    continue
                frames[d, F_DEAD] = dead
            lptr = lock_ptr[entry_base[nd] + sl]
            tot = scratch[sp + k * n_q:sp + (k + 1) * n_q]
            if mode == MODE_CFR:
                if pred.shape[0] > 0:
                    current_strategy(pred, base, k, n_q, lock, lptr, sigma, tot)
                else:
                    current_strategy(regrets, base, k, n_q, lock, lptr, sigma, tot)
            elif not (q == p and mode == MODE_BR):
                average_strategy(ssum, base, k, n_q, lock, lptr, sigma, tot)
            if fz >= 0:
                # the fold and showdown children in one evaluation (showdown_fold)
                af = fz >> 6
                asd = fz & 63
                of = scratch[cfv_off + af * n_p:cfv_off + af * n_p + n_p]
                osd = scratch[cfv_off + asd * n_p:cfv_off + asd * n_p + n_p]
                if dead:
                    of[:] = 0.0
                    osd[:] = 0.0
                else:
                    nf = children[child_start[nd] + af]
                    cpf = contrib[nf, p]
                    final = pot + contrib[nf, 0] + contrib[nf, 1]
                    pay_f = (-cpf if player[nf] == p else final - _rake(final, rake, rake_cap) - cpf) - half
                    ns = children[child_start[nd] + asd]
                    cp = contrib[ns, p]
                    final = pot + contrib[ns, 0] + contrib[ns, 1]
                    r = _rake(final, rake, rake_cap)
                    tie = 0.5 * (final - r) - cp - half
                    if abs(tie) < 1e-9:
                        tie = 0.0
                    showdown_fold(opp_v, sigma[asd * n_q:asd * n_q + n_q], sigma[af * n_q:af * n_q + n_q],
                                  q == p, same[p], sd_count[p][sl], sd_order[o][sl],
                                  sd_cards[o][sl], sd_count[o][sl], sd_index[p][sl],
                                  final - r - cp - half, tie, -cp - half, pay_f, osd, of,
                                  pre, card_pre, buf, fbuf)
            a = 0
        else:
            a += 1
        if fz >= 0:
            while a < k and (a == (fz >> 6) or a == (fz & 63)):
                a += 1
        if a < k:
            frames[d, F_A] = a
            d += 1
            frames[d, F_DEAD] = dead
            frames[d, F_NODE] = children[child_start[nd] + a]
            frames[d, F_SLOT] = sl
            frames[d, F_A] = -1
            frames[d, F_OUT] = cfv_off + a * n_p
            frames[d, F_SP] = sub + max(n_p, n_q)
            if q == p:
                if mode == MODE_BR:
                    frames[d, F_OWN] = ow
                else:
                    _scale(scratch[sub:sub + n_p], own_v, sigma[a * n_q:a * n_q + n_q])
                    frames[d, F_OWN] = sub
                frames[d, F_OPP] = oo
            else:
                _scale(scratch[sub:sub + n_q], opp_v, sigma[a * n_q:a * n_q + n_q])
                frames[d, F_OPP] = sub
                frames[d, F_OWN] = ow
            continue
        # all children done
        cfv = scratch[cfv_off:cfv_off + k * n_p]
        d -= 1
        if q != p:
            _copy(out_v, cfv[:n_p])
            for b in range(1, k):
                cb = cfv[b * n_p:b * n_p + n_p]
                for h in range(n_p):
                    out_v[h] += cb[h]
            continue
        if mode == MODE_BR:
            _copy(out_v, cfv[:n_p])
            for b in range(1, k):
                cb = cfv[b * n_p:b * n_p + n_p]
                for h in range(n_p):
                    v = cb[h]
                    out_v[h] = v if v > out_v[h] else out_v[h]
            continue
        _scale(out_v, sigma[:n_p], cfv[:n_p])
        for b in range(1, k):
            cb = cfv[b * n_p:b * n_p + n_p]
            sb = sigma[b * n_q:b * n_q + n_q]
            for h in range(n_p):
                out_v[h] += sb[h] * cb[h]
        if mode == MODE_CFR and top != TOP_COLLECT:
            if rscale.shape[0] == 0:
                _update(regrets, ssum, pred, base, k, n_p, cfv, out_v, own_v, sigma, pos_d, neg_d, strat_d,
                        plus, pred_d)
            else:
                _update_compressed(regrets, ssum, rscale, sscale, entry_base[nd] + sl, base, k, n_p,
                                   cfv, out_v, own_v, sigma, pos_d, neg_d, strat_d, plus)
    _copy(out[:n_p], scratch[n_o + n_p:n_o + 2 * n_p])


@njit(cache=True, nogil=True, **NO_RC)
def run_tasks(lo, hi, mode, p, task_node, task_card, task_slot, task_chance, scratch, frames, work,  # type: ignore[no-untyped-def]
              sub_opp, sub_own, out,
              kind, player, street, child_start, num_children, children, contrib, fused,
              node_base, entry_base, regrets, ssum, rscale, sscale, pred, lock, lock_ptr,
              hand_cards, same, card_start, card_hands, swap,
              next_slot, iso_rep, iso_swap, sd_order, sd_count, sd_cards, sd_index,
              pot, rake, rake_cap, pos_d, neg_d, strat_d, plus, pred_d,
              chance_index, chance_opp, chance_own, task_of, task_cfv, root_street, leaf_of, leaf_cfv):
    """The independent subtrees ``lo .. hi - 1`` below the starting street's chance nodes
    (callers run chunks of them in parallel).  The work areas (``scratch``, ``frames``,
    ``work`` as :func:`walk`'s; ``sub_opp``, ``sub_own``, ``out``: vectors of the largest
    hand list) belong to the calling thread.  Allocation-free and compiled without numba's
    reference counting, as :func:`walk`: the threads then share no counter of the common
    tables (each view of them had cost an atomic update on a cache line both cores
    write)."""
    o = 1 - p
    n_o = hand_cards[o].shape[0]
    n_p = hand_cards[p].shape[0]
    so = sub_opp[:n_o]
    sw = sub_own[:n_p]
    ov = out[:n_p]
    for t in range(lo, hi):
        ci = task_chance[t]
        c = task_card[t]
        _copy(so, chance_opp[ci, :n_o])
        _zero_card(so, card_start[o], card_hands[o], c)
        _copy(sw, chance_own[ci, :n_p])
        _zero_card(sw, card_start[p], card_hands[p], c)
        walk(mode, TOP_FULL, children[child_start[task_node[t]]], p, task_slot[t], so, sw, ov,
             scratch, frames, work,
             kind, player, street, child_start, num_children, children, contrib, fused,
             node_base, entry_base, regrets, ssum, rscale, sscale, pred, lock, lock_ptr,
             hand_cards, same, card_start, card_hands, swap,
             next_slot, iso_rep, iso_swap, sd_order, sd_count, sd_cards, sd_index,
             pot, rake, rake_cap, pos_d, neg_d, strat_d, plus, pred_d,
             chance_index, chance_opp, chance_own, task_of, task_cfv, root_street, leaf_of, leaf_cfv)
        _copy(task_cfv[t, :n_p], ov)


@njit(cache=True, nogil=True, **NO_RC)
def cfr_iterations(disc, plus, opp0, own0, opp1, own1, out0, out1, scratch, frames, work,  # type: ignore[no-untyped-def]
                   kind, player, street, child_start, num_children, children, contrib, fused,
                   node_base, entry_base, regrets, ssum, rscale, sscale, pred, lock, lock_ptr,
                   hand_cards, same, card_start, card_hands, swap,
                   next_slot, iso_rep, iso_swap, sd_order, sd_count, sd_cards, sd_index,
                   pot, rake, rake_cap,
                   chance_index, chance_opp, chance_own, task_of, task_cfv, root_street, leaf_of, leaf_cfv):
    """``disc.shape[0]`` whole CFR iterations in one call, each an update of out of position
    (reach ``own0``, opponent ``opp0``) then of in position, by :func:`walk` over the whole
    tree; row ``i`` of ``disc`` holds iteration ``i``'s (positive-regret, negative-regret,
    strategy-sum, prediction) discounts.  For spots without chance nodes on the starting street (the
    river, where a solve is a few hundred walks of a fraction of a millisecond each): the
    same walks as one :meth:`SpotSolver.step` each, without two calls from Python per
    iteration."""
    for i in range(disc.shape[0]):
        pos_d = disc[i, 0]
        neg_d = disc[i, 1]
        strat_d = disc[i, 2]
        pred_d = disc[i, 3]
        for p in range(2):  # out of position, then in position
            opp = opp0 if p == 0 else opp1
            own = own0 if p == 0 else own1
            out = out0 if p == 0 else out1
            walk(MODE_CFR, TOP_FULL, 0, p, 0, opp, own, out, scratch, frames, work,
                 kind, player, street, child_start, num_children, children, contrib, fused,
                 node_base, entry_base, regrets, ssum, rscale, sscale, pred, lock, lock_ptr,
                 hand_cards, same, card_start, card_hands, swap,
                 next_slot, iso_rep, iso_swap, sd_order, sd_count, sd_cards, sd_index,
                 pot, rake, rake_cap, pos_d, neg_d, strat_d, plus, pred_d,
                 chance_index, chance_opp, chance_own, task_of, task_cfv, root_street, leaf_of,
                 leaf_cfv)


@njit(cache=True)
def _equity_river(slot, opp_reach, p, hand_cards, same, sd_order, sd_str, sd_count, sd_cards, out_eq, out_w):  # type: ignore[no-untyped-def]
    o = 1 - p
    buf = np.empty(104)
    showdown_values(opp_reach, same[p], sd_order[p][slot], sd_cards[p][slot], sd_str[p][slot],
                    sd_count[p][slot], sd_order[o][slot], sd_cards[o][slot], sd_str[o][slot],
                    sd_count[o][slot], 1.0, 0.5, 0.0, out_eq, buf)
    showdown_values(opp_reach, same[p], sd_order[p][slot], sd_cards[p][slot], sd_str[p][slot],
                    sd_count[p][slot], sd_order[o][slot], sd_cards[o][slot], sd_str[o][slot],
                    sd_count[o][slot], 1.0, 1.0, 1.0, out_w, buf)


@njit(cache=True, inline="always")
def _deal_card_reach(sub, opp_reach, card_start_o, card_hands_o, c):  # type: ignore[no-untyped-def]
    """``sub`` <- the opponent's reach with the hands holding card ``c`` removed."""
    for i in range(sub.shape[0]):
        sub[i] = opp_reach[i]
    _zero_card(sub, card_start_o, card_hands_o, c)


@njit(cache=True, inline="always")
def _add_dealt(t, out, c, slot, card_start_p, card_hands_p, swap_p, reps, nxt, swp):  # type: ignore[no-untyped-def]
    """Add the values ``t`` of dealt card ``c`` (its hands that hold ``c`` zeroed) and, for
    every later card isomorphic to it on board ``slot``, ``t`` permuted, to ``out`` (a chance
    node's sum over the cards; the walk's chance nodes and the equity runouts)."""
    n = out.shape[0]
    _zero_card(t, card_start_p, card_hands_p, c)
    for h in range(n):
        out[h] += t[h]
    for c2 in range(c + 1, 52):
        if reps[slot, c2] == c and nxt[slot, c2] >= 0:
            perm = swap_p[swp[slot, c2]]
            for h in range(n):
                out[h] += t[perm[h]]


@njit(cache=True)
def _equity_deal(s, slot, opp_reach, p, hand_cards, same, card_start, card_hands, swap,  # type: ignore[no-untyped-def]
                 next_slot, iso_rep, iso_swap, sd_order, sd_str, sd_count, sd_cards, out_eq, out_w):
    """One card dealt from street ``s`` (0: the turn, then every river through
    :func:`_equity_deal_turn`; 1: the river) and every runout after it."""
    o = 1 - p
    n_p = out_eq.shape[0]
    nxt = next_slot[s]
    swp = iso_swap[s]
    out_eq[:] = 0.0
    out_w[:] = 0.0
    te = np.empty(n_p)
    tw = np.empty(n_p)
    sub = np.empty(opp_reach.shape[0])
    for c in range(52):
        if nxt[slot, c] < 0 or swp[slot, c] >= 0:
            continue
        _deal_card_reach(sub, opp_reach, card_start[o], card_hands[o], c)
        if s == 1:
            _equity_river(nxt[slot, c], sub, p, hand_cards, same, sd_order, sd_str, sd_count, sd_cards,
                          te, tw)
        else:
            _equity_deal_turn(nxt[slot, c], sub, p, hand_cards, same, card_start, card_hands, swap,
                              next_slot, iso_rep, iso_swap, sd_order, sd_str, sd_count, sd_cards, te, tw)
        _add_dealt(te, out_eq, c, slot, card_start[p], card_hands[p], swap[p], iso_rep[s], nxt, swp)
        _add_dealt(tw, out_w, c, slot, card_start[p], card_hands[p], swap[p], iso_rep[s], nxt, swp)
    weight = 1.0 / (45.0 - s)
    for h in range(n_p):
        out_eq[h] *= weight
        out_w[h] *= weight


@njit(cache=True)
def _equity_deal_turn(slot, opp_reach, p, hand_cards, same, card_start, card_hands, swap,  # type: ignore[no-untyped-def]
                      next_slot, iso_rep, iso_swap, sd_order, sd_str, sd_count, sd_cards, out_eq, out_w):
    """The river dealt from turn board ``slot`` (the inner level of a flop runout: numba
    compiles no recursion, so this is :func:`_equity_deal` of street 1 spelled out)."""
    o = 1 - p
    nxt = next_slot[1]
    swp = iso_swap[1]
    out_eq[:] = 0.0
    out_w[:] = 0.0
    te = np.empty(out_eq.shape[0])
    tw = np.empty(out_eq.shape[0])
    sub = np.empty(opp_reach.shape[0])
    for c in range(52):
        if nxt[slot, c] >= 0 and swp[slot, c] < 0:
            _deal_card_reach(sub, opp_reach, card_start[o], card_hands[o], c)
            _equity_river(nxt[slot, c], sub, p, hand_cards, same, sd_order, sd_str, sd_count, sd_cards,
                          te, tw)
            _add_dealt(te, out_eq, c, slot, card_start[p], card_hands[p], swap[p], iso_rep[1], nxt,
                       swp)
            _add_dealt(tw, out_w, c, slot, card_start[p], card_hands[p], swap[p], iso_rep[1], nxt,
                       swp)
    out_eq *= 1.0 / 44.0
    out_w *= 1.0 / 44.0


@njit(cache=True)
def equity_values(s, slot, opp_reach, p, hand_cards, same, card_start, card_hands, swap,  # type: ignore[no-untyped-def]
                  next_slot, iso_rep, iso_swap, sd_order, sd_str, sd_count, sd_cards, out_eq, out_w):
    """Equity of each of ``p``'s hands against ``opp_reach`` over every runout from street
    ``s`` board ``slot``: ``out_eq[h]`` sums (win + tie / 2) weights, ``out_w[h]`` the
    compatible weights (equity = out_eq / out_w), both averaged over runouts."""
    if s == 2:
        _equity_river(slot, opp_reach, p, hand_cards, same, sd_order, sd_str, sd_count, sd_cards,
                      out_eq, out_w)
    else:
        _equity_deal(s, slot, opp_reach, p, hand_cards, same, card_start, card_hands, swap,
                     next_slot, iso_rep, iso_swap, sd_order, sd_str, sd_count, sd_cards, out_eq, out_w)
