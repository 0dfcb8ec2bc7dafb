"""Numba kernel of local best response: check-down equity of one hand against every combo.

:func:`checkdown_equity` enumerates every completion of a (flop, turn or river) board
exactly and returns, for each of the 1326 opponent combos, the pot share (win + tie/2) of
the LBR player's two hole cards against that combo when both check to the showdown.
Combos that share a card with the hole cards or the board get 0 (and must carry no range
weight).  The plain-Python twin is :func:`checkdown_equity_py` (the parity test compares
them); preflop LBR uses the exact all-in equity matrix of :mod:`pokerlab.cards.equity`.

Layout of the work: the runouts (``C(47, 2) = 1081`` on the flop, 46 on the turn, 1 on
the river) are listed once with the LBR hand's strength on each; a strength without a
flush depends on the ranks only, so each runout evaluates its 91 rank pairs once and the
wins and ties are summed per rank pair; each combo then takes back out the runouts that
hold one of its cards, and the few combos that can hold a flush are evaluated exactly.
About 1.2 M evaluations per flop become about 0.1 M (5x faster on one thread here; one
thread, since LBR runs its deals in parallel processes).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.cards.equity_kernels import monte_carlo
from pokerlab.cards.evaluator_kernels import (
    ROW_MASK,
    ROW_SHIFT,
    strength_from,
)


@njit(cache=True)
def _runouts(tables, hole, board, nboard):  # type: ignore[no-untyped-def]
    """Every completion of ``board`` to 5 cards avoiding ``hole``: returns (key sums and suit
    bits of the 5 board cards, card masks of the added cards, LBR strengths)."""
    key_t = tables.key
    bit_t = tables.bit
    nf = tables.noflush
    offs = tables.offs[tables.obase[7]:]
    fl = tables.flush
    used = (np.int64(1) << hole[0]) | (np.int64(1) << hole[1])
    key = np.int64(0)
    bits = np.int64(0)
    for i in range(nboard):
        c = board[i]
        used |= np.int64(1) << c
        key += key_t[c]
        bits |= bit_t[c]
    deck = np.empty(52, dtype=np.int64)
    nd = 0
    for c in range(52):
        if not (used >> c) & 1:
            deck[nd] = c
            nd += 1
    need = 5 - nboard
    if need == 0:
        n = 1
    elif need == 1:
        n = nd
    else:
        n = nd * (nd - 1) // 2
    keys = np.empty(n, dtype=np.int64)
    bitss = np.empty(n, dtype=np.int64)
    masks = np.empty(n, dtype=np.int64)
    mine = np.empty(n, dtype=np.int64)
    hk = key_t[hole[0]] + key_t[hole[1]]
    hb = bit_t[hole[0]] | bit_t[hole[1]]
    r = 0
    if need == 0:
        keys[0] = key
        bitss[0] = bits
        masks[0] = 0
    elif need == 1:
        for a in range(nd):
            c = deck[a]
            keys[r] = key + key_t[c]
            bitss[r] = bits | bit_t[c]
            masks[r] = np.int64(1) << c
            r += 1
    else:
        for a in range(nd):
            ca = deck[a]
            for b in range(a + 1, nd):
                cb = deck[b]
                keys[r] = key + key_t[ca] + key_t[cb]
                bitss[r] = bits | bit_t[ca] | bit_t[cb]
                masks[r] = (np.int64(1) << ca) | (np.int64(1) << cb)
                r += 1
    for i in range(n):
        mine[i] = strength_from(nf, offs, fl, keys[i] + hk, bitss[i] | hb)
    return keys, bitss, masks, mine, used


@njit(cache=True, inline="always")
def _low_bit(x):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of ``x`` (> 0)."""
    c = 0
    while not (x >> c) & 1:
        c += 1
    return c


@njit(cache=True, inline="always")
def _val(m, v):  # type: ignore[no-untyped-def]
    """``2 * win + tie`` of strength ``m`` against ``v``."""
    return np.int64(m > v) + np.int64(m >= v)


@njit(cache=True)
def _rank_vals(nf, offs, key_t, key, board_rank, m, row):  # type: ignore[no-untyped-def]
    """``row[13 * x + y]``: ``2 * win + tie`` of strength ``m`` against hole ranks ``x, y``
    without a flush beside the 5-card board whose key sum is ``key`` (such a strength
    depends on the ranks only); 0 for pairs the board leaves no cards for."""
    rb = key >> 16
    for x in range(13):
        if board_rank[x] >= 4:
            continue
        rx = rb + (key_t[4 * x] >> 16)
        for y in range(x, 13):
            if board_rank[y] + 1 + (1 if x == y else 0) > 4:
                continue
            r = rx + (key_t[4 * y] >> 16)
            v = _val(m, nf[offs[r >> ROW_SHIFT] + (r & ROW_MASK)])
            row[13 * x + y] = v
            row[13 * y + x] = v


@njit(cache=True)
def checkdown_equity(tables, hole, board, nboard, combos, out):  # type: ignore[no-untyped-def]
    """``out[j]`` = pot share of ``hole`` against combo ``j`` over every runout of ``board``
    (first ``nboard`` of ``board``, 3 <= nboard <= 5); 0 for combos that share a card.

    Without a flush a 7-card strength depends on the ranks only, so per runout the 91 rank
    pairs are evaluated once (:func:`_rank_strengths`) and ``2 * wins + ties`` is summed
    per rank pair over all runouts; then per combo (in parallel) the runouts holding one of
    its cards are taken back out (they are listed per card) and, on runouts whose board has
    three or more cards of a suit, the combos that may hold a flush are evaluated exactly
    and corrected.  All counts are integers, so every quotient equals the one-at-a-time
    value (:func:`checkdown_equity_py`) bit for bit."""
    key_t = tables.key
    bit_t = tables.bit
    nf = tables.noflush
    offs = tables.offs[tables.obase[7]:]
    fl = tables.flush
    keys, bitss, masks, mine, used = _runouts(tables, hole, board, nboard)
    n = keys.shape[0]
    nc = combos.shape[0]
    # per runout: 2 * win + tie against each rank pair without a flush (0: no such pair)
    rt = np.zeros((n, 169), dtype=np.int8)
    base_rank = np.zeros(13, dtype=np.int64)
    for c in range(nboard):
        base_rank[board[c] >> 2] += 1
    for i in range(n):
        br = base_rank.copy()
        mk = masks[i]
        while mk:
            c = _low_bit(mk)
            br[c >> 2] += 1
            mk &= mk - 1
        _rank_vals(nf, offs, key_t, keys[i], br, mine[i], rt[i])
    # 2 * wins + ties per rank pair over every runout
    s2 = np.zeros(169, dtype=np.int64)
    for i in range(n):
        for r in range(169):
            s2[r] += rt[i, r]
    # the runouts holding each card
    per_card = np.zeros(52, dtype=np.int64)
    runs_of = np.zeros((52, max(n // 8, 1) if nboard < 5 else 1), dtype=np.int64)
    for i in range(n):
        mk = masks[i]
        while mk:
            c = _low_bit(mk)
            runs_of[c, per_card[c]] = i
            per_card[c] += 1
            mk &= mk - 1
    # flush corrections, per runout whose board holds 3+ cards of a suit
    corr = np.zeros(nc, dtype=np.int64)
    two = np.zeros((4, nc), dtype=np.int64)  # live combos with both cards of the suit
    one = np.zeros((4, nc), dtype=np.int64)  # ... with at least one
    nlist = np.zeros((2, 4), dtype=np.int64)
    every = np.arange(nc)
    for j in range(nc):
        a = combos[j, 0]
        b = combos[j, 1]
        if used & ((np.int64(1) << a) | (np.int64(1) << b)):
            continue
        for f in range(4):
            k = np.int64((a & 3) == f) + np.int64((b & 3) == f)
            if k == 2:
                two[f, nlist[0, f]] = j
                nlist[0, f] += 1
            if k >= 1:
                one[f, nlist[1, f]] = j
                nlist[1, f] += 1
    for i in range(n):
        key = keys[i]
        fsuit = -1
        fcount = 0
        for f in range(4):
            cf = (key >> (4 * f)) & 0xF
            if cf >= 3:
                fsuit = f
                fcount = cf
        if fsuit < 0:
            continue
        m = mine[i]
        mk = masks[i]
        bits = bitss[i]
        # 3 of the suit on the board: both hole cards must be of it; 4: one; 5: any combo
        lst = two[fsuit] if fcount == 3 else (one[fsuit] if fcount == 4 else every)
        for q in range(lst.shape[0] if fcount >= 5 else nlist[fcount - 3, fsuit]):
            j = lst[q]
            a = combos[j, 0]
            b = combos[j, 1]
            cm = (np.int64(1) << a) | (np.int64(1) << b)
            if (used & cm) or (mk & cm):
                continue
            suited = np.int64((a & 3) == fsuit) + np.int64((b & 3) == fsuit)
            if fcount + suited < 5:
                continue
            kk = key + key_t[a] + key_t[b]
            exact = strength_from(nf, offs, fl, kk, bits | bit_t[a] | bit_t[b])
            ra = a >> 2
            rb = b >> 2
            rp = 13 * min(ra, rb) + max(ra, rb)
            corr[j] += _val(m, exact) - np.int64(rt[i, rp])
    for j in range(nc):
        a = combos[j, 0]
        b = combos[j, 1]
        cm = (np.int64(1) << a) | (np.int64(1) << b)
        if used & cm:
            out[j] = 0.0
            continue
        ra = a >> 2
        rb = b >> 2
        rp = 13 * min(ra, rb) + max(ra, rb)
        tot = s2[rp] + corr[j]
        cnt = n
        for q in range(per_card[a]):
            tot -= np.int64(rt[runs_of[a, q], rp])
            cnt -= 1
        for q in range(per_card[b]):
            i = runs_of[b, q]
            if (masks[i] >> a) & 1:
                continue  # the runout of both cards: taken out once
            tot -= np.int64(rt[i, rp])
            cnt -= 1
        out[j] = (0.5 * np.float64(tot)) / np.float64(cnt) if cnt > 0 else 0.0


def checkdown_equity_py(hole: tuple[int, int], board: list[int], combos: np.ndarray,
                        out: np.ndarray) -> None:
    """Plain-Python twin of :func:`checkdown_equity` (slow; for the parity tests)."""
    import itertools

    from pokerlab.cards.evaluator import strength

    used = set(hole) | set(board)
    deck = [c for c in range(52) if c not in used]
    runouts = list(itertools.combinations(deck, 5 - len(board)))
    mine = [strength([*hole, *board, *r]) for r in runouts]
    for j in range(combos.shape[0]):
        a, b = int(combos[j, 0]), int(combos[j, 1])
        if a in used or b in used:
            out[j] = 0.0
            continue
        score = 0.0
        cnt = 0
        for r, m in zip(runouts, mine, strict=True):
            if a in r or b in r:
                continue
            s = strength([a, b, *board, *r])
            score += 1.0 if m > s else (0.5 if m == s else 0.0)
            cnt += 1
        out[j] = score / cnt if cnt else 0.0


# ----------------------------------------------------------------------------- range queries
@njit(cache=True)
def hand_strength_all(strengths, combos, out):  # type: ignore[no-untyped-def]
    """``out[j]`` = hand strength of combo ``j`` on a board (wins + half the ties over every
    combo that shares no card with ``j``), from ``strengths`` (each combo's strength on
    the board, 0 = blocked by the board): the value
    :func:`pokerlab.abstraction.hs_cards.hand_strength` gives one combo at a time, for all
    combos by one sort and an O(n) sweep with card removal (counts per card of the combos
    below and tied).  Blocked combos get -1.

    Inclusion-exclusion: the combos sharing a card with ``j = (a, b)`` are those holding
    ``a`` plus those holding ``b`` minus ``j`` itself, so ``below_j = L - L_a - L_b``,
    ``ties_j = T - T_a - T_b + 1`` and ``n_j = N - N_a - N_b + 1``; wins and halves are
    exact in float64, so the quotient equals the one-at-a-time value bit for bit."""
    n = combos.shape[0]
    order = np.argsort(strengths, kind="mergesort")
    total_c = np.zeros(52, dtype=np.int64)
    below_c = np.zeros(52, dtype=np.int64)
    tie_c = np.zeros(52, dtype=np.int64)
    total = 0
    for j in range(n):
        out[j] = -1.0
        if strengths[j] > 0:
            total += 1
            total_c[combos[j, 0]] += 1
            total_c[combos[j, 1]] += 1
    below = 0
    i = 0
    while i < n:
        s = strengths[order[i]]
        k = i
        while k < n and strengths[order[k]] == s:
            k += 1
        if s > 0:
            for q in range(i, k):
                j = order[q]
                tie_c[combos[j, 0]] += 1
                tie_c[combos[j, 1]] += 1
            ties = k - i
            for q in range(i, k):
                j = order[q]
                a = combos[j, 0]
                b = combos[j, 1]
                lo = below - below_c[a] - below_c[b]
                tt = ties - tie_c[a] - tie_c[b] + 1
                nn = total - total_c[a] - total_c[b] + 1
                out[j] = (lo + 0.5 * tt) / nn if nn > 0 else 0.5
            for q in range(i, k):
                j = order[q]
                a = combos[j, 0]
                b = combos[j, 1]
                tie_c[a] -= 1
                tie_c[b] -= 1
                below_c[a] += 1
                below_c[b] += 1
            below += ties
        i = k


def hand_strength_all_py(strengths: np.ndarray, combos: np.ndarray, out: np.ndarray) -> None:
    """Plain-Python twin of :func:`hand_strength_all` (one combo at a time)."""
    for j in range(combos.shape[0]):
        if strengths[j] <= 0:
            out[j] = -1.0
            continue
        a, b = int(combos[j, 0]), int(combos[j, 1])
        wins = 0.0
        cnt = 0
        for k in range(combos.shape[0]):
            s = strengths[k]
            if s == 0:
                continue
            x, y = int(combos[k, 0]), int(combos[k, 1])
            if x in (a, b) or y in (a, b):
                continue
            cnt += 1
            if strengths[j] > s:
                wins += 1.0
            elif strengths[j] == s:
                wins += 0.5
        out[j] = wins / cnt if cnt > 0 else 0.5


@njit(cache=True, parallel=True)
def equity_vs_random_each(tables, combos, board, nboard, dead, idx, seeds, samples, out):  # type: ignore[no-untyped-def]
    """``out[idx[t]]`` = Monte Carlo equity of combo ``idx[t]`` against a uniformly random
    hand on ``board`` (``samples`` deals, stream seeded by ``seeds[t]``): exactly
    :func:`pokerlab.cards.equity.monte_carlo_equity` of that one-hot range against the
    uniform range (the same cumulative weights, the same kernel, so the same number), for
    many combos in one call (the range query of the ``tag`` agent; twin:
    :func:`equity_vs_random_each_py`)."""
    n = combos.shape[0]
    cum1 = np.zeros(n)
    acc = 0.0
    dm = np.uint64(dead)
    for k in range(n):
        m = (np.uint64(1) << np.uint64(combos[k, 0])) | (np.uint64(1) << np.uint64(combos[k, 1]))
        if (dm & m) == 0:
            acc += 1.0
        cum1[k] = acc
    for t in prange(idx.shape[0]):
        j = idx[t]
        cum = np.empty((2, n))
        for k in range(n):
            cum[0, k] = 1.0 if k >= j else 0.0
            cum[1, k] = cum1[k]
        res = monte_carlo(tables, cum, combos, board, nboard, dead, samples, seeds[t])
        cnt = res[4]
        out[j] = res[2][0] / cnt if cnt > 0 else np.nan


def equity_vs_random_each_py(board: list[int], idx: np.ndarray, seeds: np.ndarray,
                             samples: int, out: np.ndarray) -> None:
    """Twin of :func:`equity_vs_random_each`: one ``monte_carlo_equity`` call per combo."""
    from pokerlab.cards.cards import COMBOS
    from pokerlab.cards.equity import monte_carlo_equity, one_hot

    for t, j in enumerate(idx.tolist()):
        hole = [int(COMBOS[j, 0]), int(COMBOS[j, 1])]
        res = monte_carlo_equity([one_hot(hole), np.ones(COMBOS.shape[0])], list(board),
                                 samples=samples, seed=int(seeds[t]))
        out[j] = float(res.equity[0])
