"""Numba kernels of the card abstraction (see :mod:`pokerlab.abstraction.buckets`).

Features are computed per canonical board (suit isomorphism), so every final board is
evaluated once per isomorphism class:

* :func:`river_pass` -- for each canonical 5-card board, the showdown equity (EHS) of every
  combo against a uniform random opponent (one O(n log n) weighted showdown).
* :func:`turn_pass` -- for each canonical 4-card board, mean equity, mean squared equity
  and the histogram of river equity over the 46/48 river cards.
* :func:`flop_pass` -- for each canonical flop, the same over all turn+river runouts, with
  the histogram of *turn* EHS (the next street's strength) over the turn cards.

Each writes its results at the hand's canonical street index and adds the board's orbit
size to the index's weight (the number of raw deals the class stands for).  Boards are
processed in parallel; two different canonical boards never share a hand index, so the
writes do not race.

K-means with the earth mover's distance on 1-D histograms: EMD between histograms over
the same ordered bins is the L1 distance between their cumulative sums, so points and
centres are kept as CDF vectors.  The plain-Python twins are in
:mod:`pokerlab.abstraction.buckets` (``*_py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.abstraction.indexer_kernels import CHUNKS, SCRATCH, chunk_range, index_into
from pokerlab.cards.equity_kernels import order_by_strength, showdown_sweep
from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
from pokerlab.cards.hand_classes import NUM_STRENGTHS


@njit(cache=True)
def uniform_showdown(strengths, combos, count, order, eq):  # type: ignore[no-untyped-def]
    """Equity of every combo vs a uniform random disjoint combo, given the strengths of
    all combos on a final board (0 = blocked); -1 where blocked.

    The uniform-weight case of the one blocker-aware sweep
    (:func:`pokerlab.cards.equity_kernels.showdown_sweep` after the counting sort
    :func:`~pokerlab.cards.equity_kernels.order_by_strength`); ``count`` is int64 scratch
    of ``NUM_STRENGTHS + 2``, ``order`` one of n int64.  Unit weights keep every sum an
    exact integer, so the result equals the integer computation bit for bit.
    """
    n = strengths.shape[0]
    m = order_by_strength(strengths, count, order)
    ones = np.ones(n)
    win = np.empty(n)
    tie = np.empty(n)
    tot = np.empty(n)
    showdown_sweep(order, m, strengths, combos, ones, win, tie, tot)
    for i in range(n):
        eq[i] = -1.0
    for q in range(m):
        i = order[q]
        eq[i] = (win[i] + 0.5 * tie[i]) / tot[i] if tot[i] > 0 else -1.0


@njit(cache=True)
def equity_on_board(ET, combos, board5, strengths, count, order, eq):  # type: ignore[no-untyped-def]
    """Equity of every combo vs a uniform random hand on a 5-card board (-1 where blocked)."""
    combos_on_board_kernel(ET, combos, board5, 5, strengths)
    uniform_showdown(strengths, combos, count, order, eq)


@njit(cache=True, inline="always")
def hist_bin(x, nbins):  # type: ignore[no-untyped-def]
    b = int(x * nbins)
    return nbins - 1 if b >= nbins else (0 if b < 0 else b)


@njit(cache=True, inline="always")
def _equity_scratch(nc):  # type: ignore[no-untyped-def]
    """Scratch of :func:`equity_on_board` for ``nc`` combos: strengths, count, order, eq."""
    return (np.empty(nc, dtype=np.int32), np.zeros(NUM_STRENGTHS + 2, dtype=np.int64),
            np.zeros(nc, dtype=np.int64), np.empty(nc, dtype=np.float64))


@njit(cache=True, inline="always")
def _board_start(boards, b, n):  # type: ignore[no-untyped-def]
    """Buffers of the canonical board ``boards[b, :n]``: a 5-card board with those cards
    first, a hand with them at ``[2:]``, indexer scratch and the mask of the used cards."""
    board5 = np.empty(5, dtype=np.int64)
    hand = np.empty(2 + n, dtype=np.int64)
    used = 0
    for k in range(n):
        board5[k] = boards[b, k]
        hand[2 + k] = boards[b, k]
        used |= 1 << boards[b, k]
    return board5, hand, np.empty(SCRATCH, dtype=np.int64), used


@njit(cache=True, inline="always")
def _moments_scratch(nc):  # type: ignore[no-untyped-def]
    """Zeroed sums of :func:`_add_moments` for ``nc`` combos: sum, sum of squares, count."""
    return (np.zeros(nc, dtype=np.float64), np.zeros(nc, dtype=np.float64),
            np.zeros(nc, dtype=np.int64))


@njit(cache=True, inline="always")
def _add_moments(eq, s1, s2, cnt):  # type: ignore[no-untyped-def]
    """Sum, sum of squares and count of every unblocked combo's equity (``eq`` >= 0)."""
    for i in range(eq.shape[0]):
        e = eq[i]
        if e >= 0:
            s1[i] += e
            s2[i] += e * e
            cnt[i] += 1


@njit(cache=True, inline="always")
def _store_moments(IT, combos, hand, scratch, s1, s2, cnt, w, ehs, ehs2,
                   weight):  # type: ignore[no-untyped-def]
    """Mean and mean squared equity of every combo seen (``cnt`` > 0) at its hand index
    (``hand[2:]`` holds the board), ``w`` added to the index's weight.  Returns each
    combo's index (-1: not seen)."""
    where = np.empty(combos.shape[0], dtype=np.int64)
    for i in range(combos.shape[0]):
        if cnt[i] == 0:
            where[i] = -1
            continue
        hand[0] = combos[i, 0]
        hand[1] = combos[i, 1]
        idx = index_into(IT, hand, scratch)
        where[i] = idx
        ehs[idx] = s1[i] / cnt[i]
        ehs2[idx] = s2[i] / cnt[i]
        weight[idx] += w
    return where


@njit(cache=True, parallel=True)
def river_pass(ET, IT, boards, board_w, combos, ehs, weight):  # type: ignore[no-untyped-def]
    nb = boards.shape[0]
    nc = combos.shape[0]
    for b in prange(nb):
        strengths, count, order, eq = _equity_scratch(nc)
        board5, hand, scratch, _ = _board_start(boards, b, 5)
        equity_on_board(ET, combos, board5, strengths, count, order, eq)
        for i in range(nc):
            if eq[i] < 0:
                continue
            hand[0] = combos[i, 0]
            hand[1] = combos[i, 1]
            idx = index_into(IT, hand, scratch)
            ehs[idx] = eq[i]
            weight[idx] += board_w[b]


@njit(cache=True, parallel=True)
def turn_pass(ET, IT, boards, board_w, combos, nbins, ehs, ehs2, hist, weight):  # type: ignore[no-untyped-def]
    """``hist`` is (N, nbins) uint8 counts of river equity, or (0, nbins) to skip it."""
    nb = boards.shape[0]
    nc = combos.shape[0]
    want_hist = hist.shape[0] > 0
    for b in prange(nb):
        strengths, count, order, eq = _equity_scratch(nc)
        s1, s2, cnt = _moments_scratch(nc)
        h = np.zeros((nc, nbins), dtype=np.uint8)
        board5, hand, scratch, used = _board_start(boards, b, 4)
        for r in range(52):
            if (used >> r) & 1:
                continue
            board5[4] = r
            equity_on_board(ET, combos, board5, strengths, count, order, eq)
            _add_moments(eq, s1, s2, cnt)
            if want_hist:
                for i in range(nc):
                    if eq[i] >= 0:
                        h[i, hist_bin(eq[i], nbins)] += 1
        where = _store_moments(IT, combos, hand, scratch, s1, s2, cnt, board_w[b], ehs, ehs2,
                               weight)
        if want_hist:
            for i in range(nc):
                if where[i] >= 0:
                    hist[where[i]] = h[i]


@njit(cache=True, parallel=True)
def flop_pass(ET, IT, boards, board_w, combos, nbins, ehs, ehs2, hist, weight):  # type: ignore[no-untyped-def]
    """Flop features; ``hist`` (N, nbins) uint8 counts of the *turn* EHS over turn cards."""
    nb = boards.shape[0]
    nc = combos.shape[0]
    want_hist = hist.shape[0] > 0
    for b in prange(nb):
        strengths, count, order, eq = _equity_scratch(nc)
        s1, s2, cnt = _moments_scratch(nc)
        tsum = np.zeros((52, nc), dtype=np.float64)
        tcnt = np.zeros((52, nc), dtype=np.int64)
        board5, hand, scratch, used = _board_start(boards, b, 3)
        for t in range(52):
            if (used >> t) & 1:
                continue
            board5[3] = t
            for r in range(t + 1, 52):
                if (used >> r) & 1:
                    continue
                board5[4] = r
                equity_on_board(ET, combos, board5, strengths, count, order, eq)
                _add_moments(eq, s1, s2, cnt)
                for i in range(nc):
                    e = eq[i]
                    if e >= 0:
                        tsum[t, i] += e
                        tcnt[t, i] += 1
                        tsum[r, i] += e
                        tcnt[r, i] += 1
        where = _store_moments(IT, combos, hand, scratch, s1, s2, cnt, board_w[b], ehs, ehs2,
                               weight)
        if want_hist:
            for i in range(nc):
                idx = where[i]
                if idx < 0:
                    continue
                hist[idx] = 0
                for t in range(52):
                    if tcnt[t, i] > 0:
                        hist[idx, hist_bin(tsum[t, i] / tcnt[t, i], nbins)] += 1


# ------------------------------------------------------------------ k-means (EMD)
@njit(cache=True, inline="always")
def emd_cdf(x, c):  # type: ignore[no-untyped-def]
    d = 0.0
    for q in range(x.shape[0]):
        d += abs(x[q] - c[q])
    return d


@njit(cache=True, parallel=True)
def assign_emd(cdfs_u8, norm, centers, out, dist):  # type: ignore[no-untyped-def]
    """Nearest centre (EMD) of every histogram given as uint8 counts (rows), total ``norm``."""
    nb = cdfs_u8.shape[1]
    k = centers.shape[0]
    for ch in prange(CHUNKS):
        x = np.empty(nb, dtype=np.float32)
        lo, hi = chunk_range(ch, 0, cdfs_u8.shape[0], CHUNKS)
        for i in range(lo, hi):
            acc = 0.0
            for q in range(nb):
                acc += cdfs_u8[i, q]
                x[q] = acc / norm[i] if norm[i] > 0 else 0.0
            best = 0
            bd = 1e30
            for j in range(k):
                d = 0.0
                for q in range(nb):
                    d += abs(x[q] - centers[j, q])
                if d < bd:
                    bd = d
                    best = j
            out[i] = best
            dist[i] = bd


@njit(cache=True)
def kmeans_emd(cdfs, k, iters, seed):  # type: ignore[no-untyped-def]
    """K-means (k-means++ seeding, Lloyd iterations) of CDF rows under L1 = 1-D EMD.

    Returns ``(centres (k, nb), labels, inertia)``.  Centres are the mean CDF of their
    members (a CDF again).  Deterministic for a seed.
    """
    np.random.seed(seed)
    n, nb = cdfs.shape
    k = min(k, n)
    centers = np.zeros((k, nb), dtype=np.float32)
    d2 = np.empty(n, dtype=np.float64)
    first = np.random.randint(0, n)
    centers[0] = cdfs[first]
    for i in range(n):
        d2[i] = emd_cdf(cdfs[i], centers[0]) ** 2
    for j in range(1, k):
        tot = d2.sum()
        if tot <= 0:
            centers[j] = cdfs[np.random.randint(0, n)]
        else:
            u = np.random.random() * tot
            acc = 0.0
            pick = n - 1
            for i in range(n):
                acc += d2[i]
                if acc >= u:
                    pick = i
                    break
            centers[j] = cdfs[pick]
        for i in range(n):
            d = emd_cdf(cdfs[i], centers[j]) ** 2
            if d < d2[i]:
                d2[i] = d
    labels = np.zeros(n, dtype=np.int64)
    inertia = 0.0
    for _ in range(iters):
        changed = 0
        inertia = 0.0
        for i in range(n):
            best = 0
            bd = 1e30
            for j in range(k):
                d = emd_cdf(cdfs[i], centers[j])
                if d < bd:
                    bd = d
                    best = j
            if labels[i] != best:
                changed += 1
                labels[i] = best
            inertia += bd
        sums = np.zeros((k, nb), dtype=np.float64)
        counts = np.zeros(k, dtype=np.int64)
        for i in range(n):
            counts[labels[i]] += 1
            for q in range(nb):
                sums[labels[i], q] += cdfs[i, q]
        for j in range(k):
            if counts[j] > 0:
                for q in range(nb):
                    centers[j, q] = sums[j, q] / counts[j]
        if changed == 0:
            break
    return centers, labels, inertia
