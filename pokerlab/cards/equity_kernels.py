"""Numba kernels for exact and Monte Carlo equity (hot path).

* :func:`enumerate_boards` -- every completion of a board for ``P`` known hands, with
  incremental partial sums per loop level (see :mod:`pokerlab.cards.evaluator_kernels`).
* :func:`matchup_counts` -- wins/ties of many heads-up preflop matchups (the 1326 x 1326
  equity matrix), parallel over matchups.
* :func:`showdown_sweep` / :func:`fold_sweep` -- the one blocker-aware sweep over a range
  (showdown: weaker / equal / all disjoint weight per combo after a counting sort by
  strength, :func:`order_by_strength`; fold: disjoint weight per combo), with exact card
  removal by inclusion-exclusion over cards.  Used by equity (:func:`showdown_vs_range`),
  the card abstraction (:mod:`pokerlab.abstraction.buckets_kernels`) and the FHP best
  response (:mod:`pokerlab.evaluation.fhp_br`).
* :func:`monte_carlo` -- seeded sampling for multiway pots and ranges.

The plain-Python twins live in :mod:`pokerlab.cards.equity_reference`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.cards.evaluator_kernels import strength_from
from pokerlab.cards.hand_classes import NUM_STRENGTHS


@njit(cache=True, inline="always")
def tie_group_end(strengths, order, start, n):  # type: ignore[no-untyped-def]
    """The end (exclusive) of the run of ``order[start:n]`` whose ``strengths`` equal the
    one at ``start`` (``order`` sorts by strength: the group of hands tied there)."""
    s = strengths[order[start]]
    end = start
    while end < n and strengths[order[end]] == s:
        end += 1
    return end


@njit(cache=True)
def _leaf(nf, offs, fl, hole_keys, hole_bits, key, bits, nplayers, win, tie, eq):  # type: ignore[no-untyped-def]
    best = -1
    nbest = 0
    s0 = 0
    s1 = 0
    if nplayers == 2:
        s0 = strength_from(nf, offs, fl, key + hole_keys[0], bits | hole_bits[0])
        s1 = strength_from(nf, offs, fl, key + hole_keys[1], bits | hole_bits[1])
        if s0 > s1:
            win[0] += 1
            eq[0] += 1.0
        elif s1 > s0:
            win[1] += 1
            eq[1] += 1.0
        else:
            tie[0] += 1
            tie[1] += 1
            eq[0] += 0.5
            eq[1] += 0.5
        return
    strengths = np.empty(nplayers, dtype=np.int32)
    for p in range(nplayers):
        s = strength_from(nf, offs, fl, key + hole_keys[p], bits | hole_bits[p])
        strengths[p] = s
        if s > best:
            best = s
            nbest = 1
        elif s == best:
            nbest += 1
    for p in range(nplayers):
        if strengths[p] == best:
            if nbest == 1:
                win[p] += 1
            else:
                tie[p] += 1
            eq[p] += 1.0 / nbest


@njit(cache=True, inline="always")
def _level(k, level, prev, nd):  # type: ignore[no-untyped-def]
    """The index range of loop level ``level`` (2..5; the outermost is 1) of
    :func:`_enum_outer` below index ``prev``: the deck cards after it when the ``k`` cards
    dealt reach this level (``k >= level``), else the one "no card" index ``nd``."""
    if k >= level:
        return prev + 1, nd
    return nd, nd + 1


@njit(cache=True)
def _enum_outer(tables, a, k, nd, dk, db, base_key, base_bits, hole_keys, hole_bits, nplayers,
                win, tie, eq):  # type: ignore[no-untyped-def]
    """Leaves under outermost index ``a``; level l of 5 is used iff ``l >= 5 - k``.

    Heads-up leaves count into local scalars (no array traffic per leaf); more players go
    through :func:`_leaf`.
    """
    nf = tables.noflush
    offs = tables.offs[tables.obase[7] :]
    fl = tables.flush
    n = 0
    w0 = 0
    w1 = 0
    t = 0
    hk0 = hole_keys[0]
    hk1 = hole_keys[1]
    hb0 = hole_bits[0]
    hb1 = hole_bits[1]
    ia = nd
    if k >= 1:
        ia = np.int64(a)
    ka = base_key + dk[ia]
    ba = base_bits | db[ia]
    b_lo, b_hi = _level(k, 2, ia, nd)
    for ib in range(b_lo, b_hi):
        kb = ka + dk[ib]
        bb = ba | db[ib]
        c_lo, c_hi = _level(k, 3, ib, nd)
        for ic in range(c_lo, c_hi):
            kc = kb + dk[ic]
            bc = bb | db[ic]
            d_lo, d_hi = _level(k, 4, ic, nd)
            for id_ in range(d_lo, d_hi):
                kd = kc + dk[id_]
                bd = bc | db[id_]
                e_lo, e_hi = _level(k, 5, id_, nd)
                if nplayers == 2:
                    for ie in range(e_lo, e_hi):
                        ke = kd + dk[ie]
                        be = bd | db[ie]
                        s0 = strength_from(nf, offs, fl, ke + hk0, be | hb0)
                        s1 = strength_from(nf, offs, fl, ke + hk1, be | hb1)
                        if s0 > s1:
                            w0 += 1
                        elif s1 > s0:
                            w1 += 1
                        else:
                            t += 1
                    n += e_hi - e_lo
                else:
                    for ie in range(e_lo, e_hi):
                        _leaf(nf, offs, fl, hole_keys, hole_bits, kd + dk[ie], bd | db[ie],
                              nplayers, win, tie, eq)
                        n += 1
    if nplayers == 2:
        win[0] += w0
        win[1] += w1
        tie[0] += t
        tie[1] += t
        eq[0] += w0 + 0.5 * t
        eq[1] += w1 + 0.5 * t
    return n


@njit(cache=True, parallel=True)
def enumerate_boards(tables, holes, board, nboard, deck):  # type: ignore[no-untyped-def]
    """Exact showdown counts of ``P`` hands over every completion of the board.

    ``holes`` (P, 2), ``board`` (>= nboard), ``deck``: the cards that can still come.
    Returns ``(win[P], tie[P], equity_sum[P], boards)``; ``win`` counts sole wins, ``tie``
    shared wins, ``equity_sum`` the pot shares.
    """
    nplayers = holes.shape[0]
    k = 5 - nboard
    nd = deck.shape[0]
    key_t = tables.key
    bit_t = tables.bit
    hole_keys = np.zeros(nplayers, dtype=np.int64)
    hole_bits = np.zeros(nplayers, dtype=np.int64)
    for p in range(nplayers):
        hole_keys[p] = key_t[holes[p, 0]] + key_t[holes[p, 1]]
        hole_bits[p] = bit_t[holes[p, 0]] | bit_t[holes[p, 1]]
    base_key = 0
    base_bits = 0
    for i in range(nboard):
        base_key += key_t[board[i]]
        base_bits |= bit_t[board[i]]
    # dk/db: the deck's keys plus a zero "no card" at index nd for unused loop levels.
    dk = np.zeros(nd + 1, dtype=np.int64)
    db = np.zeros(nd + 1, dtype=np.int64)
    for i in range(nd):
        dk[i] = key_t[deck[i]]
        db[i] = bit_t[deck[i]]
    nouter = nd if k >= 1 else 1
    win = np.zeros((nouter, nplayers), dtype=np.int64)
    tie = np.zeros((nouter, nplayers), dtype=np.int64)
    eq = np.zeros((nouter, nplayers), dtype=np.float64)
    cnt = np.zeros(nouter, dtype=np.int64)
    for a in prange(nouter):
        cnt[a] = _enum_outer(tables, a, k, nd, dk, db, base_key, base_bits, hole_keys,
                             hole_bits, nplayers, win[a], tie[a], eq[a])
    return win.sum(axis=0), tie.sum(axis=0), eq.sum(axis=0), cnt.sum()


@njit(cache=True)
def _matchup(tables, c0, c1, c2, c3):  # type: ignore[no-untyped-def]
    """Wins of hand (c0, c1), wins of hand (c2, c3), ties, over all 5-card boards."""
    key_t = tables.key
    bit_t = tables.bit
    used = (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
    dk = np.zeros(49, dtype=np.int64)
    db = np.zeros(49, dtype=np.int64)
    n = 0
    for c in range(52):
        if not (used >> c) & 1:
            dk[n] = key_t[c]
            db[n] = bit_t[c]
            n += 1
    hole_keys = np.array([key_t[c0] + key_t[c1], key_t[c2] + key_t[c3]], dtype=np.int64)
    hole_bits = np.array([bit_t[c0] | bit_t[c1], bit_t[c2] | bit_t[c3]], dtype=np.int64)
    win = np.zeros(2, dtype=np.int64)
    tie = np.zeros(2, dtype=np.int64)
    eq = np.zeros(2, dtype=np.float64)
    for a in range(48):
        _enum_outer(tables, a, 5, 48, dk, db, 0, 0, hole_keys, hole_bits, 2, win, tie, eq)
    return win[0], win[1], tie[0]


@njit(cache=True, parallel=True)
def matchup_counts(tables, pairs, combos, out):  # type: ignore[no-untyped-def]
    """For each row (i, j) of ``pairs``: ``out[row] = (wins of i, wins of j, ties)``."""
    for r in prange(pairs.shape[0]):
        i = pairs[r, 0]
        j = pairs[r, 1]
        w0, w1, t = _matchup(tables, combos[i, 0], combos[i, 1], combos[j, 0], combos[j, 1])
        out[r, 0] = w0
        out[r, 1] = w1
        out[r, 2] = t


# ------------------------------------------------- the one blocker-aware range sweep
@njit(cache=True)
def order_by_strength(strengths, count, order):  # type: ignore[no-untyped-def]
    """Counting sort: ``order[:m]`` <- the combos with ``strengths > 0`` by ascending
    strength (stable); returns ``m``.  ``count`` is int64 scratch of at least
    ``NUM_STRENGTHS + 2`` entries (strengths are 1..NUM_STRENGTHS, 0 = blocked)."""
    n = strengths.shape[0]
    for v in range(count.shape[0]):
        count[v] = 0
    for i in range(n):
        v = strengths[i]
        if v > 0:
            count[v + 1] += 1
    for v in range(1, count.shape[0]):
        count[v] += count[v - 1]
    m = 0
    for i in range(n):
        v = strengths[i]
        if v > 0:
            order[count[v]] = i
            count[v] += 1
            m += 1
    return m


@njit(cache=True)
def showdown_sweep(order, m, strengths, combos, weights, out_win, out_tie,
                   out_total):  # type: ignore[no-untyped-def]
    """The one blocker-aware showdown sweep over a range on one final board.

    ``order[:m]``: the unblocked combos by ascending strength.  For each of them, over
    the combos ``j`` in ``order[:m]`` that share no card with it: ``out_win`` the weight
    of weaker ones, ``out_tie`` of equally strong ones, ``out_total`` of all.  One pass
    with inclusion-exclusion over the two cards of each combo (per-card running sums):
    O(m) after the sort.  Other entries of the outputs are left untouched.
    """
    below = 0.0
    below_card = np.zeros(52, dtype=np.float64)
    total = 0.0
    total_card = np.zeros(52, dtype=np.float64)
    for q in range(m):
        i = order[q]
        w = weights[i]
        total += w
        total_card[combos[i, 0]] += w
        total_card[combos[i, 1]] += w
    group_card = np.zeros(52, dtype=np.float64)
    pos = 0
    while pos < m:
        end = tie_group_end(strengths, order, pos, m)
        group = 0.0
        for q in range(pos, end):
            i = order[q]
            w = weights[i]
            group += w
            group_card[combos[i, 0]] += w
            group_card[combos[i, 1]] += w
        for q in range(pos, end):
            i = order[q]
            a = combos[i, 0]
            b = combos[i, 1]
            wi = weights[i]
            out_win[i] = below - below_card[a] - below_card[b]
            out_tie[i] = group - group_card[a] - group_card[b] + wi
            out_total[i] = total - total_card[a] - total_card[b] + wi
        for q in range(pos, end):
            i = order[q]
            w = weights[i]
            below += w
            below_card[combos[i, 0]] += w
            below_card[combos[i, 1]] += w
            group_card[combos[i, 0]] -= w
            group_card[combos[i, 1]] -= w
        pos = end


@njit(cache=True)
def fold_sweep(combos, weights, out):  # type: ignore[no-untyped-def]
    """``out[i]`` <- weight of the combos sharing no card with combo ``i`` (what a fold
    against the range pays, per own hand): total minus the two per-card sums plus the
    combo's own weight (inclusion-exclusion), for every combo."""
    n = combos.shape[0]
    per_card = np.zeros(52, dtype=np.float64)
    total = 0.0
    for i in range(n):
        w = weights[i]
        total += w
        per_card[combos[i, 0]] += w
        per_card[combos[i, 1]] += w
    for i in range(n):
        out[i] = total - per_card[combos[i, 0]] - per_card[combos[i, 1]] + weights[i]


@njit(cache=True)
def showdown_vs_range(strengths, weights, combos, out_win, out_tie, out_total):  # type: ignore[no-untyped-def]
    """Weighted showdown of every combo against a range on one final board.

    ``strengths[i]`` (0 = blocked by the board), ``weights[j]`` the opponent range.  For each
    combo ``i`` with ``strengths[i] > 0``: ``out_win[i] = sum of weights[j]`` over combos ``j``
    disjoint from ``i`` with lower strength; ``out_tie[i]`` the same with equal strength;
    ``out_total[i]`` over all disjoint unblocked ``j`` (:func:`showdown_sweep`).
    """
    n = strengths.shape[0]
    order = np.empty(n, dtype=np.int64)
    count = np.empty(NUM_STRENGTHS + 2, dtype=np.int64)
    m = order_by_strength(strengths, count, order)
    showdown_sweep(order, m, strengths, combos, weights, out_win, out_tie, out_total)


@njit(cache=True)
def _sample_combo(cum, used):  # type: ignore[no-untyped-def]
    """Index into a cumulative weight vector, or -1 after too many conflicts."""
    for _ in range(1000):
        u = np.random.random() * cum[-1]
        lo = 0
        hi = cum.shape[0] - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cum[mid] > u:
                hi = mid
            else:
                lo = mid + 1
        if (used >> np.uint64(lo)) & np.uint64(1) == 0:
            return lo
    return -1


@njit(cache=True)
def monte_carlo(tables, cum_weights, combos, board, nboard, dead_mask, samples, seed):  # type: ignore[no-untyped-def]
    """Monte Carlo showdown of ``P`` ranges (cumulative weights over the 1326 combos).

    Returns ``(win[P], tie[P], eq[P], eq_sq[P], n)``; ``eq_sq`` sums squared pot shares so
    the caller can give a standard error.  A sample whose hands cannot be dealt without
    conflict (after 1000 rejections) is skipped.
    """
    np.random.seed(seed)
    nf = tables.noflush
    offs = tables.offs[tables.obase[7] :]
    fl = tables.flush
    nplayers = cum_weights.shape[0]
    win = np.zeros(nplayers, dtype=np.int64)
    tie = np.zeros(nplayers, dtype=np.int64)
    eq = np.zeros(nplayers, dtype=np.float64)
    eq_sq = np.zeros(nplayers, dtype=np.float64)
    cards = np.empty(7, dtype=np.int64)
    strengths = np.empty(nplayers, dtype=np.int32)
    hole = np.empty((nplayers, 2), dtype=np.int64)
    done = 0
    for _ in range(samples):
        used = np.uint64(dead_mask)
        ok = True
        for p in range(nplayers):
            # rejection sampling of the combo against cards already used
            found = -1
            for _t in range(1000):
                k = _sample_combo(cum_weights[p], np.uint64(0))
                a = combos[k, 0]
                b = combos[k, 1]
                m = (np.uint64(1) << np.uint64(a)) | (np.uint64(1) << np.uint64(b))
                if used & m == 0:
                    found = k
                    used |= m
                    hole[p, 0] = a
                    hole[p, 1] = b
                    break
            if found < 0:
                ok = False
                break
        if not ok:
            continue
        for i in range(nboard):
            cards[2 + i] = board[i]
        for i in range(nboard, 5):
            while True:
                c = np.random.randint(0, 52)
                m = np.uint64(1) << np.uint64(c)
                if used & m == 0:
                    used |= m
                    cards[2 + i] = c
                    break
        best = -1
        nbest = 0
        for p in range(nplayers):
            cards[0] = hole[p, 0]
            cards[1] = hole[p, 1]
            key = 0
            bits = 0
            for i in range(7):
                key += tables.key[cards[i]]
                bits |= tables.bit[cards[i]]
            s = strength_from(nf, offs, fl, key, bits)
            strengths[p] = s
            if s > best:
                best = s
                nbest = 1
            elif s == best:
                nbest += 1
        for p in range(nplayers):
            if strengths[p] == best:
                share = 1.0 / nbest
                if nbest == 1:
                    win[p] += 1
                else:
                    tie[p] += 1
                eq[p] += share
                eq_sq[p] += share * share
        done += 1
    return win, tie, eq, eq_sq, done
