"""Numba kernels of the lossless hand indexer (see :mod:`pokerlab.abstraction.indexer`).

``T`` is the indexer's table tuple ``(cpr, radix, shape_size, shape_counts, key_to_config,
config_offset, config_codes, colex, unrank, ncr)``; the plain-Python twins live in
:mod:`pokerlab.abstraction.indexer` (``index_py`` / ``unindex_py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True, inline="always")
def popcount(x):  # type: ignore[no-untyped-def]
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def comb(n, k):  # type: ignore[no-untyped-def]
    """C(n, k) for small k (exact in int64 for the sizes used here); 0 when n < k."""
    if k < 0 or n < k:
        return np.int64(0)
    r = np.int64(1)
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True, inline="always")
def _key4(a, b, c, d):  # type: ignore[no-untyped-def]
    """Multiset index of four shape codes sorted a >= b >= c >= d."""
    return comb(a + 3, 4) + comb(b + 2, 3) + comb(c + 1, 2) + d


@njit(cache=True, inline="always")
def _run_end(sc, i):  # type: ignore[no-untyped-def]
    """The last position of the run of equal shape codes ``sc`` (sorted, length 4) that
    starts at ``i``: the suits of one group, ranked together as a multiset."""
    j = i
    while j + 1 < 4 and sc[j + 1] == sc[i]:
        j += 1
    return j


SCRATCH = 64
"""Length of the int64 scratch buffer the single-hand kernels take (no allocation inside)."""


@njit(cache=True)
def index_one(T, cards):  # type: ignore[no-untyped-def]
    """Canonical index of one hand (cards listed round by round)."""
    return index_into(T, cards, np.empty(SCRATCH, dtype=np.int64))


@njit(cache=True)
def index_into(T, cards, scratch):  # type: ignore[no-untyped-def]
    """:func:`index_one` with a caller-provided scratch buffer of :data:`SCRATCH` int64."""
    cpr = T[0]
    radix = T[1]
    shape_size = T[2]
    key_to_config = T[4]
    config_offset = T[5]
    colex = T[7]
    ncr = T[9]
    used = scratch[0:4]
    sidx = scratch[4:8]
    smult = scratch[8:12]
    code = scratch[12:16]
    ranks = scratch[16:20]
    order = scratch[20:24]
    sc = scratch[24:28]
    si = scratch[28:32]
    for s in range(4):
        used[s] = 0
        sidx[s] = 0
        smult[s] = 1
        code[s] = 0
        order[s] = s
    pos = 0
    for k in range(cpr.shape[0]):
        for s in range(4):
            ranks[s] = 0
        for j in range(cpr[k]):
            c = cards[pos + j]
            ranks[c & 3] |= np.int64(1) << (c >> 2)
        pos += cpr[k]
        for s in range(4):
            m = ranks[s]
            if m == 0:
                continue
            u = used[s]
            shifted = np.int64(0)
            mm = m
            while mm:
                low = mm & (-mm)
                r = 0
                while (low >> r) != 1:
                    r += 1
                shifted |= np.int64(1) << (r - popcount(u & (low - 1)))
                mm ^= low
            n = popcount(m)
            sidx[s] += smult[s] * colex[shifted]
            smult[s] *= ncr[13 - popcount(u), n]
            used[s] = u | m
            code[s] += n * radix[k]
    # sort suits by (code, sidx) descending (insertion sort on 4 items)
    for i in range(1, 4):
        j = i
        while j > 0:
            a = order[j - 1]
            b = order[j]
            if code[a] < code[b] or (code[a] == code[b] and sidx[a] < sidx[b]):
                order[j - 1] = b
                order[j] = a
                j -= 1
            else:
                break
    for i in range(4):
        sc[i] = code[order[i]]
        si[i] = sidx[order[i]]
    cfg = key_to_config[_key4(sc[0], sc[1], sc[2], sc[3])]
    idx = config_offset[cfg]
    mult = np.int64(1)
    i = 0
    while i < 4:
        j = _run_end(sc, i)
        g = j - i + 1
        n = shape_size[sc[i]]
        part = np.int64(0)
        for t in range(g):
            part += comb(si[i + t] + (g - 1 - t), g - t)
        idx += mult * part
        mult *= comb(n + g - 1, g)
        i = j + 1
    return idx


@njit(cache=True, inline="always")
def _largest_y(part, k, hi):  # type: ignore[no-untyped-def]
    """Largest y in [k-1, hi] with C(y, k) <= part."""
    lo = k - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if comb(mid, k) <= part:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def unindex_one(T, idx, out):  # type: ignore[no-untyped-def]
    """Cards (round by round, ascending within a round) of the representative of ``idx``."""
    unindex_into(T, idx, out, np.empty(SCRATCH, dtype=np.int64))


@njit(cache=True)
def unindex_into(T, idx, out, scratch):  # type: ignore[no-untyped-def]
    """:func:`unindex_one` with a caller-provided scratch buffer of :data:`SCRATCH` int64."""
    cpr = T[0]
    shape_size = T[2]
    shape_counts = T[3]
    config_offset = T[5]
    config_codes = T[6]
    unrank = T[8]
    ncr = T[9]
    nconf = config_codes.shape[0]
    lo = 0
    hi = nconf - 1
    while lo < hi:  # last config with offset <= idx
        mid = (lo + hi + 1) // 2
        if config_offset[mid] <= idx:
            lo = mid
        else:
            hi = mid - 1
    cfg = lo
    rem = idx - config_offset[cfg]
    sc = config_codes[cfg]
    si = scratch[0:4]
    i = 0
    while i < 4:
        j = _run_end(sc, i)
        g = j - i + 1
        n = shape_size[sc[i]]
        size = comb(n + g - 1, g)
        part = rem % size
        rem //= size
        for t in range(g):
            y = _largest_y(part, g - t, n + g - 1)
            part -= comb(y, g - t)
            si[i + t] = y - (g - 1 - t)
        i = j + 1
    nr = cpr.shape[0]
    fill = scratch[4:12]
    fill[0] = 0
    for k in range(1, nr):
        fill[k] = fill[k - 1] + cpr[k - 1]
    rmask = scratch[12:44]  # rmask[s * 8 + k]
    for q in range(32):
        rmask[q] = 0
    for s in range(4):
        used = np.int64(0)
        x = si[s]
        for k in range(nr):
            cnt = shape_counts[sc[s], k]
            if cnt == 0:
                continue
            m_size = ncr[13 - popcount(used), cnt]
            c = x % m_size
            x //= m_size
            shifted = unrank[cnt, c]
            # unshift: bit j of shifted -> the j-th unused rank
            m = np.int64(0)
            jj = 0
            for r in range(13):
                if (used >> r) & 1:
                    continue
                if (shifted >> jj) & 1:
                    m |= np.int64(1) << r
                jj += 1
            rmask[s * 8 + k] = m
            used |= m
    for k in range(nr):
        for card in range(52):
            if (rmask[(card & 3) * 8 + k] >> (card >> 2)) & 1:
                out[fill[k]] = card
                fill[k] += 1


CHUNKS = 64
"""Work items of the parallel batch kernels: ``prange(CHUNKS)`` over :func:`chunk_range`."""


@njit(cache=True, inline="always")
def chunk_range(ch, lo, hi, nchunks):  # type: ignore[no-untyped-def]
    """The items ``[a, b)`` of chunk ``ch`` when ``[lo, hi)`` is cut into ``nchunks``
    contiguous chunks of equal size (the last ones shorter or empty)."""
    step = (hi - lo + nchunks - 1) // nchunks
    a = lo + ch * step
    return a, min(hi, a + step)


@njit(cache=True, parallel=True)
def index_many(T, cards, out):  # type: ignore[no-untyped-def]
    for ch in prange(CHUNKS):
        scratch = np.empty(SCRATCH, dtype=np.int64)
        a, b = chunk_range(ch, 0, cards.shape[0], CHUNKS)
        for i in range(a, b):
            out[i] = index_into(T, cards[i], scratch)


@njit(cache=True, parallel=True)
def unindex_many(T, idx, out):  # type: ignore[no-untyped-def]
    for ch in prange(CHUNKS):
        a, b = chunk_range(ch, 0, idx.shape[0], CHUNKS)
        scratch = np.empty(SCRATCH, dtype=np.int64)
        for i in range(a, b):
            unindex_into(T, idx[i], out[i], scratch)


@njit(cache=True, parallel=True)
def roundtrip_range(T, lo, hi, ncards):  # type: ignore[no-untyped-def]
    """Number of ``i`` in ``[lo, hi)`` with ``index(unindex(i)) != i`` (0 for a bijection)."""
    bad = np.zeros(CHUNKS, dtype=np.int64)
    for ch in prange(CHUNKS):
        buf = np.empty(ncards, dtype=np.int64)
        scratch = np.empty(SCRATCH, dtype=np.int64)
        a, b = chunk_range(ch, lo, hi, CHUNKS)
        for i in range(a, b):
            unindex_into(T, i, buf, scratch)
            if index_into(T, buf, scratch) != i:
                bad[ch] += 1
    return bad.sum()


@njit(cache=True, parallel=True)
def cover_flop(T, size):  # type: ignore[no-untyped-def]
    """Index every (hole, flop) deal: returns (hits per index, out-of-range count)."""
    hits = np.zeros(size, dtype=np.int32)
    oob = np.zeros(52, dtype=np.int64)
    for a in prange(52):
        buf = np.empty(5, dtype=np.int64)
        scratch = np.empty(SCRATCH, dtype=np.int64)
        for b in range(a + 1, 52):
            for c in range(52):
                if c == a or c == b:
                    continue
                for d in range(c + 1, 52):
                    if d == a or d == b:
                        continue
                    for e in range(d + 1, 52):
                        if e == a or e == b:
                            continue
                        buf[0] = a
                        buf[1] = b
                        buf[2] = c
                        buf[3] = d
                        buf[4] = e
                        i = index_into(T, buf, scratch)
                        if i < 0 or i >= size:
                            oob[a] += 1
                        else:
                            hits[i] += 1  # races are harmless for the >0 check below
    return hits, oob.sum()
