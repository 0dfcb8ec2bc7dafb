"""Numba kernels of the hand evaluator (hot path).

Each card contributes two precomputed integers:

* ``key[c] = rank_key << 16 | 1 << (4 * suit)``: the high part is a rank key whose sum over
  ``n`` cards (5 <= n <= 7) is unique for every multiset of ranks of that size (keys from
  Kenneth Shackleton's SKPokerEval) and indexes the non-flush table of size ``n``; the low
  16 bits are packed per-suit counters: a flush exists iff some nibble reaches 5, i.e.
  ``(counts + 0x3333) & 0x8888 != 0``.  One addition per card maintains both.
* ``bit[c] = 1 << (16 * suit + rank)``: packed per-suit rank masks, so the flush suit's
  13-bit rank mask indexes the flush table (only needed in the rare flush case).

Both are additive/OR-able, so enumerations keep partial sums per loop level and each
leaf costs one table read.

The non-flush tables are compressed by row-displacement perfect hashing (Tarjan & Yao):
the rank sum ``k`` is split into a row ``k >> 9`` and a column ``k & 511``; every row has
a displacement ``offs[row]`` such that ``noflush[offs[row] + col]`` never collides.  The
7-card table shrinks from 7.8 M entries to 89 k (178 kB, cache resident), which is what
makes random-access batch evaluation fast.

The tables are the named tuple :class:`pokerlab.cards.evaluator.EvalTables` ``(key, bit,
offs, noflush, obase, flush)`` where ``obase[n]`` is where the row offsets for ``n``-card
hands start; kernels read them by name (``tables.key``), never by position.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.cards.hand_classes import NUM_STRENGTHS

FLUSH_TEST = 0x3333
FLUSH_MASK = 0x8888
ROW_SHIFT = 9
ROW_MASK = (1 << ROW_SHIFT) - 1


@njit(cache=True, inline="always")
def strength_from(noflush, offs, flush, key, bits):  # type: ignore[no-untyped-def]
    """Strength from a packed key sum and suit bits, with the tables already unpacked.

    ``offs`` is the row-offset slice for the hand size: ``tables.offs[tables.obase[n]:]``.  Hot
    loops hoist these three arrays out of the loop and call this.
    """
    # Branch-free: both lookups are cheap (the flush table is 16 kB), a select picks one.
    f = ((key & 0xFFFF) + FLUSH_TEST) & FLUSH_MASK
    r = key >> 16
    nfv = noflush[offs[r >> ROW_SHIFT] + (r & ROW_MASK)]
    shift = 0 if f & 0x8 else (16 if f & 0x80 else (32 if f & 0x800 else 48))
    fv = flush[(bits >> shift) & 0x1FFF]
    return np.int64(fv if f != 0 else nfv)


@njit(cache=True, inline="always")
def nonflush(tables, n, k):  # type: ignore[no-untyped-def]
    """Non-flush strength of ``n`` cards whose rank-key sum is ``k``."""
    return np.int32(tables.noflush[tables.offs[tables.obase[n] + (k >> ROW_SHIFT)] + (k & ROW_MASK)])


@njit(cache=True, inline="always")
def flush_or_zero(tables, key, cards, n):  # type: ignore[no-untyped-def]
    """Flush strength if the ``n`` cards hold a flush (suit bits computed lazily), else 0."""
    f = ((key & 0xFFFF) + FLUSH_TEST) & FLUSH_MASK
    if f == 0:
        return np.int32(0)
    s = 0
    while (f >> (4 * s + 3)) & 1 == 0:
        s += 1
    mask = 0
    for i in range(n):
        c = cards[i]
        if (c & 3) == s:
            mask |= 1 << (c >> 2)
    return np.int32(tables.flush[mask])


@njit(cache=True)
def strength_nb(tables, cards, n):  # type: ignore[no-untyped-def]
    """Strength (1..7462, higher is better) of the first ``n`` cards of ``cards`` (5..7)."""
    key = 0
    for i in range(n):
        key += tables.key[cards[i]]
    f = flush_or_zero(tables, key, cards, n)
    if f:
        return f
    return nonflush(tables, n, key >> 16)


@njit(cache=True, inline="always")
def heads_up_strengths(tables, hand, a0, a1, b0, b1):  # type: ignore[no-untyped-def]
    """The 7-card strengths (:func:`strength_nb`) of hole cards ``a0 a1`` and ``b0 b1`` on
    the board already in ``hand[2:7]`` (``hand[:2]`` is overwritten)."""
    hand[0] = a0
    hand[1] = a1
    s0 = strength_nb(tables, hand, 7)
    hand[0] = b0
    hand[1] = b1
    return s0, strength_nb(tables, hand, 7)


@njit(cache=True)
def _batch_rows(tables, hands, out, lo, hi):  # type: ignore[no-untyped-def]
    # Only the packed keys are summed; the suit bits are gathered in the rare flush case
    # (about 3% of random 7-card hands), which measured ~35% faster than branch-free here.
    n = hands.shape[1]
    key_t = tables.key
    nf = tables.noflush
    offs = tables.offs[tables.obase[n] :]
    for h in range(lo, hi):
        key = 0
        for i in range(n):
            key += key_t[hands[h, i]]
        if ((key & 0xFFFF) + FLUSH_TEST) & FLUSH_MASK:
            out[h] = flush_or_zero(tables, key, hands[h], n)
        else:
            r = key >> 16
            out[h] = nf[offs[r >> ROW_SHIFT] + (r & ROW_MASK)]


PARALLEL_CHUNKS = 64
"""Rows of a ``prange`` kernel are split in this many equal chunks (:func:`chunk_bounds`)."""


@njit(cache=True, inline="always")
def chunk_bounds(k, n, chunks):  # type: ignore[no-untyped-def]
    """Rows ``[lo, hi)`` of chunk ``k`` when ``n`` rows are split in ``chunks`` equal chunks
    (empty, ``lo >= hi``, past the last row)."""
    step = (n + chunks - 1) // chunks
    lo = k * step
    return lo, min(n, lo + step)


@njit(cache=True, parallel=True)
def strength_batch_kernel(tables, hands, out):  # type: ignore[no-untyped-def]
    for k in prange(PARALLEL_CHUNKS):
        lo, hi = chunk_bounds(k, hands.shape[0], PARALLEL_CHUNKS)
        if lo < hi:
            _batch_rows(tables, hands, out, lo, hi)


@njit(cache=True)
def strength_batch_serial(tables, hands, out):  # type: ignore[no-untyped-def]
    _batch_rows(tables, hands, out, 0, hands.shape[0])


@njit(cache=True)
def combos_on_board_kernel(tables, combos, board, nboard, out):  # type: ignore[no-untyped-def]
    """Strength of every combo (rows of ``combos``) with the board; 0 where blocked."""
    key_t = tables.key
    bit_t = tables.bit
    nf = tables.noflush
    offs = tables.offs[tables.obase[nboard + 2] :]
    fl = tables.flush
    key = 0
    bits = 0
    used = 0
    for i in range(nboard):
        c = board[i]
        key += key_t[c]
        bits |= bit_t[c]
        used |= 1 << c
    for k in range(combos.shape[0]):
        a = combos[k, 0]
        b = combos[k, 1]
        if (used >> a) & 1 or (used >> b) & 1:
            out[k] = 0
        else:
            out[k] = strength_from(nf, offs, fl, key + key_t[a] + key_t[b],
                                   bits | bit_t[a] | bit_t[b])


@njit(cache=True)
def category_counts_5(tables, cat_of_strength):  # type: ignore[no-untyped-def]
    """Histogram of categories and of strengths over all C(52,5) five-card hands."""
    cats = np.zeros(9, dtype=np.int64)
    seen = np.zeros(NUM_STRENGTHS + 1, dtype=np.int64)  # index = strength 1..7462
    k0 = tables.key
    b0 = tables.bit
    nf = tables.noflush
    offs = tables.offs[tables.obase[5] :]
    fl = tables.flush
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    kd = k0[a] + k0[b] + k0[c] + k0[d]
                    bd = b0[a] | b0[b] | b0[c] | b0[d]
                    for e in range(d + 1, 52):
                        s = strength_from(nf, offs, fl, kd + k0[e], bd | b0[e])
                        seen[s] += 1
                        cats[cat_of_strength[s]] += 1
    return cats, seen


@njit(cache=True)
def _counts7_from(tables, cat_of_strength, a, out):  # type: ignore[no-untyped-def]
    k0 = tables.key
    b0 = tables.bit
    nf = tables.noflush
    offs = tables.offs[tables.obase[7] :]
    fl = tables.flush
    for b in range(a + 1, 52):
        kb = k0[a] + k0[b]
        bb = b0[a] | b0[b]
        for c in range(b + 1, 52):
            kc = kb + k0[c]
            bc = bb | b0[c]
            for d in range(c + 1, 52):
                kd = kc + k0[d]
                bd = bc | b0[d]
                for e in range(d + 1, 52):
                    ke = kd + k0[e]
                    be = bd | b0[e]
                    for f in range(e + 1, 52):
                        kf = ke + k0[f]
                        bf = be | b0[f]
                        for g in range(f + 1, 52):
                            s = strength_from(nf, offs, fl, kf + k0[g], bf | b0[g])
                            out[cat_of_strength[s]] += 1


@njit(cache=True, parallel=True)
def category_counts_7(tables, cat_of_strength):  # type: ignore[no-untyped-def]
    """Histogram of categories over all C(52,7) seven-card hands (parallel over the first card)."""
    per = np.zeros((52, 9), dtype=np.int64)
    for a in prange(52):
        _counts7_from(tables, cat_of_strength, a, per[a])
    return per.sum(axis=0)


@njit(cache=True)
def displace_rows(rows, cols, nrows, width):  # type: ignore[no-untyped-def]
    """First-fit row displacement: offsets such that ``offs[rows] + cols`` are distinct."""
    occ = np.zeros(rows.size * 4 + width * 4, dtype=np.bool_)
    offs = np.zeros(nrows, dtype=np.int64)
    order = np.argsort(rows)
    starts = np.zeros(nrows + 1, dtype=np.int64)
    for r in rows:
        starts[r + 1] += 1
    for i in range(nrows):
        starts[i + 1] += starts[i]
    cnt = starts[1:] - starts[:-1]
    for r in np.argsort(-cnt, kind="mergesort"):
        if cnt[r] == 0:
            continue
        cs = cols[order[starts[r] : starts[r + 1]]]
        d = 0
        while True:
            ok = True
            for c in cs:
                if occ[d + c]:
                    ok = False
                    break
            if ok:
                break
            d += 1
        for c in cs:
            occ[d + c] = True
        offs[r] = d
    return offs
