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
from numba import njit

from pokerlab.abstraction.indexer_kernels import SCRATCH
from pokerlab.cards.evaluator_kernels import (
    ROW_MASK,
    ROW_SHIFT,
    combos_on_board_kernel,
    heads_up_strengths,
    strength_from,
)
from pokerlab.cards.range_kernels import hand_strength_all
from pokerlab.evaluation.match_kernels import row_start, table_bucket
from pokerlab.holdem.abstract_ids import CALL as CALL_ID
from pokerlab.holdem.abstract_ids import FOLD as FOLD_ID
from pokerlab.holdem.engine_kernels import deal_nine
from pokerlab.kinds import DECISION, FOLD
from pokerlab.rng import event_unit_nb, stream_seed_nb, uniform01_nb


@njit(cache=True)
def _runouts(tables, hole, board, nboard):  # type: ignore[no-untyped-def]
    """Every completion of ``board`` to 5 cards avoiding ``hole``: returns (key sums and suit
    bits of the 5 board cards, card masks of the added cards, LBR strengths, the cards
    used, the added cards (-1: none))."""
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
    added = np.full((n, 2), -1, dtype=np.int64)
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
            added[r, 0] = c
            r += 1
    else:
        for a in range(nd):
            ca = deck[a]
            for b in range(a + 1, nd):
                cb = deck[b]
                keys[r] = key + key_t[ca] + key_t[cb]
                bitss[r] = bits | bit_t[ca] | bit_t[cb]
                masks[r] = (np.int64(1) << ca) | (np.int64(1) << cb)
                added[r, 0] = ca
                added[r, 1] = cb
                r += 1
    for i in range(n):
        mine[i] = strength_from(nf, offs, fl, keys[i] + hk, bitss[i] | hb)
    return keys, bitss, masks, mine, used, added


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
def _rank_strengths(nf, offs, key_t, rank_key, board_rank, out):  # type: ignore[no-untyped-def]
    """``out[13 * x + y]`` (``x <= y``): the strength without a flush of hole ranks ``x, y``
    beside a 5-card board whose rank-key sum is ``rank_key`` and rank counts
    ``board_rank`` (such a strength depends on the ranks only); -1 for pairs the board
    leaves no cards for."""
    for x in range(13):
        rx = rank_key + (key_t[4 * x] >> 16)
        for y in range(x, 13):
            if board_rank[x] >= 4 or board_rank[y] + 1 + (1 if x == y else 0) > 4:
                out[13 * x + y] = -1
                continue
            r = rx + (key_t[4 * y] >> 16)
            out[13 * x + y] = nf[offs[r >> ROW_SHIFT] + (r & ROW_MASK)]


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
    keys, bitss, masks, mine, used, added = _runouts(tables, hole, board, nboard)
    n = keys.shape[0]
    nc = combos.shape[0]
    # per runout: 2 * win + tie against each rank pair without a flush (0: no such pair);
    # the rank-pair strengths depend on the board's ranks only, so they are computed once
    # per rank pattern of the runout cards (at most 91 patterns on the flop, 13 on the turn),
    # and a row of values once per (pattern, LBR strength) class of runouts
    base_rank = np.zeros(13, dtype=np.int64)
    base_key = np.int64(0)
    for c in range(nboard):
        base_rank[board[c] >> 2] += 1
        base_key += key_t[board[c]] >> 16
    rs = np.empty((169, 169), dtype=np.int32)  # rows written before they are read
    have = np.zeros(169, dtype=np.bool_)
    br = np.zeros(13, dtype=np.int64)
    cls = np.empty(n, dtype=np.int64)  # the class of each runout
    cl_pt = np.empty(n, dtype=np.int64)
    cl_m = np.empty(n, dtype=np.int64)
    cl_n = np.zeros(n, dtype=np.int64)
    first = np.full(169, -1, dtype=np.int64)  # a pattern's classes: a linked list
    nxt = np.full(n, -1, dtype=np.int64)
    ncl = 0
    for i in range(n):
        rk = base_key
        lo_r = 13
        hi_r = 0
        for q in range(2):
            c = added[i, q]
            if c >= 0:
                r = c >> 2
                rk += key_t[c] >> 16
                lo_r = min(lo_r, r)
                hi_r = max(hi_r, r)
        pt = 13 * lo_r + hi_r if nboard == 3 else (lo_r if nboard == 4 else 0)
        if not have[pt]:
            br[:] = base_rank
            for q in range(2):
                if added[i, q] >= 0:
                    br[added[i, q] >> 2] += 1
            _rank_strengths(nf, offs, key_t, rk, br, rs[pt])
            have[pt] = True
        m = mine[i]
        q = first[pt]
        while q >= 0 and cl_m[q] != m:
            q = nxt[q]
        if q < 0:
            q = ncl
            ncl += 1
            cl_pt[q] = pt
            cl_m[q] = m
            nxt[q] = first[pt]
            first[pt] = q
        cls[i] = q
        cl_n[q] += 1
    rt = np.zeros((ncl, 169), dtype=np.int8)  # per class: 2 * win + tie per rank pair
    s2 = np.zeros(169, dtype=np.int64)  # 2 * wins + ties per rank pair, every runout
    for q in range(ncl):
        row = rs[cl_pt[q]]
        m = cl_m[q]
        ri = rt[q]
        cn = cl_n[q]
        for x in range(13):
            for y in range(x, 13):
                v = row[13 * x + y]
                if v >= 0:
                    w = _val(m, v)
                    ri[13 * x + y] = w
                    s2[13 * x + y] += cn * w
    # per card c and rank pair (rank of c, y): the sum over the runouts holding c, and per
    # pair of cards the runout of both (flop: two cards; turn: one)
    held = np.zeros((52, 13), dtype=np.int64)
    both = np.empty((52, 52), dtype=np.int64)  # read on the flop, where all are set
    for i in range(n):
        ri = rt[cls[i]]
        a = added[i, 0]
        b = added[i, 1]
        if a >= 0:
            ra = a >> 2
            for y in range(13):
                held[a, y] += np.int64(ri[13 * min(ra, y) + max(ra, y)])
        if b >= 0:
            rb_ = b >> 2
            for y in range(13):
                held[b, y] += np.int64(ri[13 * min(rb_, y) + max(rb_, y)])
            both[a, b] = i
            both[b, a] = i
    # flush corrections, per runout whose board holds 3+ cards of a suit: with 3 both hole
    # cards must be of it, with 4 one, with 5 any combo holds a flush
    corr = np.zeros(nc, dtype=np.int64)
    lists = np.empty((3, 4, nc), dtype=np.int64)  # [both / at least one / any, suit]
    nlist = np.zeros((3, 4), dtype=np.int64)
    cmj = np.zeros(nc, dtype=np.int64)
    baj = np.zeros(nc, dtype=np.int64)
    rpj = np.zeros(nc, dtype=np.int64)
    for j in range(nc):
        a = combos[j, 0]
        b = combos[j, 1]
        cmj[j] = (np.int64(1) << a) | (np.int64(1) << b)
        baj[j] = bit_t[a] | bit_t[b]
        rpj[j] = 13 * min(a >> 2, b >> 2) + max(a >> 2, b >> 2)
        if used & cmj[j]:
            continue
        for f in range(4):
            k = np.int64((a & 3) == f) + np.int64((b & 3) == f)
            for t in range(3):
                if (t == 0 and k == 2) or (t == 1 and k >= 1) or t == 2:
                    lists[t, f, nlist[t, f]] = j
                    nlist[t, f] += 1
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
        sh = 16 * fsuit
        bits = bitss[i]
        t = min(fcount - 3, 2)
        lst = lists[t, fsuit]
        ri = rt[cls[i]]
        for q in range(nlist[t, fsuit]):
            j = lst[q]
            if mk & cmj[j]:
                continue
            # five or more cards of one suit among seven make neither a full house nor
            # quads: the flush table decides
            exact = fl[((bits | baj[j]) >> sh) & 0x1FFF]
            corr[j] += _val(m, exact) - np.int64(ri[rpj[j]])
    # runouts per card: the flop's runouts hold 2 of the 47 live cards (46 hold a given
    # card, 1 both of two), the turn's 1 of 46
    nd = 50 - nboard
    per_card = nd - 1 if nboard == 3 else (1 if nboard == 4 else 0)
    for j in range(nc):
        a = combos[j, 0]
        b = combos[j, 1]
        cm = (np.int64(1) << a) | (np.int64(1) << b)
        if used & cm:
            out[j] = 0.0
            continue
        ra = a >> 2
        rb_ = b >> 2
        rp = 13 * min(ra, rb_) + max(ra, rb_)
        tot = s2[rp] + corr[j]
        cnt = n
        if nboard < 5:
            tot -= held[a, rb_] + held[b, ra]
            cnt -= 2 * per_card
            if nboard == 3:  # the runout of both cards, taken out twice
                tot += np.int64(rt[cls[both[a, b]], rp])
                cnt += 1
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


# ----------------------------------------------------------------------------- fold/call LBR
# The steps both LBR kernels take (inlined: the loops compile as if written in place).
@njit(cache=True, inline="always")
def _lbr_buffers(combos):  # type: ignore[no-untyped-def]
    """The work areas of both LBR kernels, for the combos ``combos``: the range, the
    check-down equities and the agent's buckets by street (each with its computed-yet
    flags), :func:`_all_buckets`' strengths and hand strengths, a 7-card hand, indexer
    scratch, the board, LBR's hole cards, each combo's card mask, a deal's nine cards, a
    deck and an RNG state."""
    nc = combos.shape[0]
    masks = np.zeros(nc, dtype=np.int64)
    for j in range(nc):
        masks[j] = (np.int64(1) << combos[j, 0]) | (np.int64(1) << combos[j, 1])
    return (np.zeros(nc), np.zeros((4, nc)), np.zeros(4, dtype=np.bool_),
            np.zeros((4, nc), dtype=np.int64), np.zeros(4, dtype=np.bool_),
            np.zeros(nc, dtype=np.int32), np.zeros(nc), np.zeros(7, dtype=np.int64),
            np.empty(SCRATCH, dtype=np.int64), np.zeros(5, dtype=np.int64),
            np.zeros(2, dtype=np.int64), masks, np.zeros((1, 9), dtype=np.int64),
            np.zeros(52, dtype=np.int64), np.zeros(1, dtype=np.uint64))


@njit(cache=True, inline="always")
def _deal_streets(rng, masks, board, cur, s):  # type: ignore[no-untyped-def]
    """The board cards of the streets after ``cur`` up to ``s`` remove the combos holding
    them from the range ``rng`` (``masks[j]``: combo ``j``'s cards); returns ``s``."""
    while cur < s:
        lo = 0 if cur == 0 else 2 + cur
        cur += 1
        bmask = np.int64(0)
        for c in range(lo, 2 + cur):
            bmask |= np.int64(1) << board[c]
        for j in range(rng.shape[0]):
            if masks[j] & bmask:
                rng[j] = 0.0
    return cur


@njit(cache=True, inline="always")
def _street_equity(s, have_eq, hole, board, ET, combos, combo_index, pre_eq,  # type: ignore[no-untyped-def]
                   eq):
    """``eq[s]`` <- LBR's check-down equity of ``hole`` against every combo on street ``s``
    (preflop: the all-in equity matrix ``pre_eq``, NaN read as 0), once per street."""
    if not have_eq[s]:
        if s == 0:
            r = combo_index[hole[0], hole[1]]
            for j in range(combos.shape[0]):
                x = pre_eq[r, j]
                eq[0, j] = 0.0 if np.isnan(x) else x
        else:
            checkdown_equity(ET, hole, board, 2 + s, combos, eq[s])
        have_eq[s] = True


@njit(cache=True, inline="always")
def _row_total(rowb, ob, k):  # type: ignore[no-untyped-def]
    """The sum of the first ``k`` entries of row ``ob`` (the agent's own hand's row)."""
    total = 0.0
    for e in range(k):
        total += rowb[ob, e]
    return total


@njit(cache=True, inline="always")
def _draw_column(rowb, ob, k, x):  # type: ignore[no-untyped-def]
    """The agent's column at ``x`` (a uniform times the row's total): the number of
    cumulative sums of row ``ob`` at most ``x``, then back over zero-probability columns
    (``lbr_core.draws``' rule)."""
    acc = 0.0
    pick = 0
    for e in range(k):
        acc += rowb[ob, e]
        if acc <= x:
            pick = e + 1
    if pick > k - 1:
        pick = k - 1
    while rowb[ob, pick] <= 0.0 and pick > 0:
        pick -= 1
    return pick


@njit(cache=True, inline="always")
def _normalise(rng):  # type: ignore[no-untyped-def]
    """``rng /= rng.sum()`` with numpy's summation order (:func:`_np_sum`)."""
    tot = _np_sum(rng)
    for j in range(rng.shape[0]):
        rng[j] = rng[j] / tot


@njit(cache=True, inline="always")
def _bayes(rng, rowb, bk, s, pick):  # type: ignore[no-untyped-def]
    """Bayes' rule after the agent's column ``pick`` on street ``s``: each live combo's
    weight times its bucket's (``bk[s, j]``) probability of it, renormalised."""
    for j in range(rng.shape[0]):
        if rng[j] > 0.0:
            rng[j] = rng[j] * rowb[bk[s, j], pick]
    _normalise(rng)


@njit(cache=True, inline="always")
def _showdown(ET, hand, board, deals):  # type: ignore[no-untyped-def]
    """1 when seat 0's hole cards (``deals[0, 0:2]``) beat seat 1's (``deals[0, 2:4]``) on
    the five board cards, -1 when they lose, 0 on a tie (``hand``: 7-card scratch)."""
    for c in range(5):
        hand[2 + c] = board[c]
    s0, s1 = heads_up_strengths(ET, hand, deals[0, 0], deals[0, 1], deals[0, 2], deals[0, 3])
    return 1 if s0 > s1 else (-1 if s1 > s0 else 0)


@njit(cache=True)
def _all_buckets(s, board, mode, use, thr, pre, t0, t1, t2, t3, T0, T1, T2, T3, ET, combos,
                 class_of, strengths, hs, hand, scratch, out):  # type: ignore[no-untyped-def]
    """Every combo's bucket on street ``s`` of ``board`` (-1: blocked by the board):
    :func:`pokerlab.evaluation.lbr.bucket_vector` (hand strength, ``mode`` 1) or the
    tables over the hand indexer (``mode`` 0; ``use[s]`` = 0: bucket 0)."""
    nb = 0 if s == 0 else 2 + s
    bm = np.int64(0)
    for c in range(nb):  # the board dealt so far blocks
        bm |= np.int64(1) << board[c]
    nc = combos.shape[0]
    if mode == 1 and s > 0:
        combos_on_board_kernel(ET, combos, board, nb, strengths)
        hand_strength_all(strengths, combos, hs)
    for j in range(nc):
        a = combos[j, 0]
        b = combos[j, 1]
        if bm & ((np.int64(1) << a) | (np.int64(1) << b)):
            out[j] = -1
            continue
        if mode == 1:
            if s == 0:
                out[j] = class_of[j] if pre else 0
            elif strengths[j] == 0:
                out[j] = -1
            else:  # thresholds ascending (padded with 2.0): how many lie below hs
                h = hs[j]
                lo = 0
                hi = thr.shape[1]
                while lo < hi:
                    mid = (lo + hi) >> 1
                    if thr[s, mid] < h:
                        lo = mid + 1
                    else:
                        hi = mid
                out[j] = lo
        elif use[s] == 0:
            out[j] = 0
        else:
            hand[0] = b
            hand[1] = a
            for c in range(nb):
                hand[2 + c] = board[c]
            out[j] = table_bucket(T0, T1, T2, T3, t0, t1, t2, t3, hand, s, scratch)


@njit(cache=True, inline="always")
def _policy_row(probs, r0, n, w):  # type: ignore[no-untyped-def]
    """The agent's ``n`` action weights of one policy row into ``w`` (the row from
    ``probs[r0:]``; ``r0 < 0``: a row the policy never reached, uniform), uniform when they
    add to nothing; returns their total (``n`` in the uniform case), in the float order of
    the Python path (``lbr._node_rows``)."""
    tot = 0.0
    for e in range(n):
        x = 1.0 if r0 < 0 else np.float64(probs[r0 + e])
        w[e] = x
        tot = tot + x
    if not (tot > 0.0):
        tot = 0.0
        for e in range(n):
            w[e] = 1.0
            tot = tot + 1.0
    return tot


@njit(cache=True)
def lbr_fc_kernel(seed, ids, active, kind, actor, street, child_start,  # type: ignore[no-untyped-def]
                  num_children, child_action, child_node, committed0, committed1, stacks,
                  off, probs, rp, rb, csr, use, mode, thr, pre, t0, t1, t2, t3,
                  T0, T1, T2, T3, ET, combos, combo_index, class_of, pre_eq, out):
    """Fold/call LBR against an indexed policy agent on its own tree, every hand in one
    kernel: ``out[i, seat]`` = LBR's chips in seat ``seat`` of deal number ``ids[i]`` of
    the run seeded ``seed`` (its cards, the agent's action draws: the streams of
    ``lbr_core.deal_cards`` and ``lbr_core.draws``, one draw per agent decision).
    ``active[street]`` (preflop .. river) is 1 where LBR chooses between fold and
    check/call, 0 where it only checks/calls (``lbr.active_table``: before
    ``from_round``, or a round whose per-round set is ``c``).

    The plain-Python twin is the general LBR (:func:`pokerlab.evaluation.lbr.
    per_deal_holdem` with :class:`~pokerlab.evaluation.lbr.HoldemSession`): the same
    range (uniform over the combos that miss LBR's cards, board cards removed, Bayes'
    rule through the policy's rows at every agent action, renormalised), the same
    check-down equities, the same decision rule (``lbr_core.lbr_choose``: call, then
    fold, a later option must win by more than a relative 1e-9) and the same draw from
    the agent's row.  With fold and call only, the hand never leaves the tree."""
    nc = combos.shape[0]
    rng, eq, have_eq, bk, have_bk, strengths, hs, hand, scratch, board, hole, masks, deals, \
        deck, rs = _lbr_buffers(combos)
    row = np.zeros(16)
    rowb = np.empty((65536, 16))  # per bucket: the node's row (stamped per decision)
    stamp = np.zeros(65536, dtype=np.int64)
    dec = 0
    for i in range(ids.shape[0]):
        rs[0] = stream_seed_nb(seed, ids[i], 9)
        deal_nine(rs, deck, deals[0])
        for c in range(5):
            board[c] = deals[0, 4 + c]
        have_bk[:] = False  # the agent's buckets depend on the board only: both seats
        for seat in range(2):
            opp = 1 - seat
            hole[0] = deals[0, 2 * seat]
            hole[1] = deals[0, 2 * seat + 1]
            rs[0] = stream_seed_nb(seed, 2 * ids[i] + seat, 1)
            hm = (np.int64(1) << hole[0]) | (np.int64(1) << hole[1])
            for j in range(nc):
                rng[j] = 0.0 if masks[j] & hm else 1.0
            oc = combo_index[deals[0, 2 * opp], deals[0, 2 * opp + 1]]
            have_eq[:] = False
            node = 0
            cur = 0
            while kind[node] == DECISION:
                s = street[node]
                cur = _deal_streets(rng, masks, board, cur, s)
                cs = child_start[node]
                k = num_children[node]
                if actor[node] == seat:
                    pick = -1
                    call_e = -1
                    fold_e = -1
                    for e in range(k):
                        a = child_action[cs + e]
                        if a == CALL_ID:
                            call_e = e
                        elif a == FOLD_ID:
                            fold_e = e
                    pick = call_e
                    if active[s] != 0 and fold_e >= 0:  # else checking is all LBR can do
                        _street_equity(s, have_eq, hole, board, ET, combos, combo_index,
                                       pre_eq, eq)
                        c_me = committed0[node] if seat == 0 else committed1[node]
                        c_opp = committed1[node] if seat == 0 else committed0[node]
                        c_call = min(stacks[seat], c_opp)
                        den = max(_np_sum(rng), 1e-300)
                        wn = rng / den
                        v = (2.0 * eq[s] - 1.0) * np.float64(c_call)
                        ev_call = np.dot(wn, v)
                        ev_fold = -np.float64(c_me) * _np_sum(wn)
                        if ev_fold > ev_call + 1e-9 * (1.0 + abs(ev_call)):
                            pick = fold_e
                    node = child_node[cs + pick]
                    continue
                # the agent: every live combo's row (one per bucket), then one draw
                if not have_bk[s]:
                    _all_buckets(s, board, mode, use, thr, pre, t0, t1, t2, t3, T0, T1, T2,
                                 T3, ET, combos, class_of, strengths, hs, hand, scratch, bk[s])
                    have_bk[s] = True
                # one row per bucket (as the Python path: rows by bucket, gathered)
                dec += 1
                for j in range(nc):
                    if rng[j] > 0.0:
                        b = bk[s, j]
                        if stamp[b] != dec:
                            stamp[b] = dec
                            r0 = row_start(off, rp, rb, csr, node, b, k)
                            tw = _policy_row(probs, r0, k, row)
                            for e in range(k):
                                rowb[b, e] = row[e] / tw
                ob = bk[s, oc]
                x = uniform01_nb(rs) * _row_total(rowb, ob, k)
                pick = _draw_column(rowb, ob, k, x)
                _bayes(rng, rowb, bk, s, pick)
                node = child_node[cs + pick]
            c0 = committed0[node]
            c1 = committed1[node]
            if kind[node] == FOLD:
                pay0 = c1 if c0 > c1 else -c0
            else:
                sg = _showdown(ET, hand, board, deals)
                m = min(c0, c1)
                pay0 = m if sg > 0 else (-m if sg < 0 else 0)
            out[i, seat] = pay0 if seat == 0 else -pay0


# ----------------------------------------------------------------------------- real-tree LBR
# The real tree's node table ``N[node, field]`` (built by
# :class:`pokerlab.evaluation.lbr_tree.RealTree`, which uses the same values; tests/test_lbr.py
# checks they agree): its fields, its node kinds and the kinds of LBR's options ``O[o, 0]``.
KIND, STREET, READY, ANODE, NROW, KEEP0, NKEEP, COL0, NCOL, CALLCOL, FOLDPOS, OPT0, NOPT, \
    PAY_WIN, PAY_TIE, PAY_LOSE = range(16)
LBR_NODE, AGENT_NODE, FOLD_END, SHOWDOWN_END = 1, 2, 3, 4
OPT_CALL, OPT_FOLD, OPT_RAISE = 0, 1, 2

@njit(cache=True, inline="always")
def _follow(E, BP, BN, edge, seed):  # type: ignore[no-untyped-def]
    """The node an edge leads to: its one branch, or the translation's draw
    (``rng.pick`` of the branch probabilities at ``event_unit(seed, event index)``)."""
    nb = E[edge, 1]
    b0 = E[edge, 2]
    if nb == 1:
        return BN[b0]
    u = event_unit_nb(seed, E[edge, 0])
    acc = 0.0
    for q in range(nb):
        acc += BP[b0 + q]
        if u < acc:
            return BN[b0 + q]
    return BN[b0 + nb - 1]


@njit(cache=True, inline="always")
def _agent_row(N, K, node, b, off, probs, rp, rb, csr, w, out):  # type: ignore[no-untyped-def]
    """The agent's column probabilities at real node ``node`` for bucket ``b`` into
    ``out``, as ``lbr._node_rows`` computes them (the same float operations in the same
    order); the fold probability (``lbr.indexed_fold_vectors``) is returned."""
    an = N[node, ANODE]
    n = N[node, NROW]
    k0 = N[node, KEEP0]
    nk = N[node, NKEEP]
    ncol = N[node, NCOL]
    r0 = row_start(off, rp, rb, csr, an, b, n)
    _policy_row(probs, r0, n, w)
    tk = 0.0
    for e in range(nk):
        tk = tk + w[K[k0 + e, 0]]
    good = tk > 0.0
    for c in range(ncol):
        out[c] = 0.0
    fold = 0.0
    fp = N[node, FOLDPOS]
    for e in range(nk):
        pos = K[k0 + e, 0]
        x = w[pos] / tk if good else 0.0
        out[K[k0 + e, 1]] += x
        if pos == fp:
            fold = x
    if not good:
        out[N[node, CALLCOL]] = 1.0
    return fold


@njit(cache=True)
def lbr_tree_kernel(start, seed, ids, active, N, K, COLS, O, OF, E, BP, BN,  # type: ignore[no-untyped-def]
                    roots, off, probs, rp, rb, csr, use, mode, thr, pre, t0, t1, t2, t3,
                    T0, T1, T2, T3, ET, combos, combo_index, class_of, pre_eq, rowb, stamp,
                    rowf, fstamp, ctr, status, out):
    """LBR with raises against an indexed policy agent over the real betting tree of
    :class:`pokerlab.evaluation.lbr_tree.RealTree` (node table ``N``, keep rows ``K``,
    column edges ``COLS``, LBR options ``O`` / ``OF``, edges ``E``, branch probabilities
    and nodes ``BP`` / ``BN``, the two seats' ``roots``; ``active[street]``: 0 where LBR
    only checks/calls, as ``lbr_fc_kernel``'s, and there the tree's LBR nodes hold the
    call option alone).  Hand-seat ``h`` (deal number
    ``ids[h // 2]`` of the run seeded ``seed``, LBR in seat ``h % 2``) from ``start`` on:
    ``out[h // 2, seat]`` = LBR's chips; the cards, the agent's action draws and its seed
    (which draws its randomised translations) are the streams of ``lbr_core.deal_cards``,
    ``lbr_core.draws`` and ``lbr_core.agent_seed``.  Stops at the first hand that reaches
    a node not yet built: ``status = (h, node, 0)`` (Python builds it and calls again
    from ``h``); ``status[0]`` = ``2 * len(ids)`` when all are done; ``status[2]`` != 0
    for a hand the kernel does not play (a bucket outside the tables or a zero row for
    the agent's own hand: the Python path raises or decides).

    The plain-Python twin is the general LBR hand loop (``lbr.per_deal_holdem(...,
    kernel=False)``): range, check-down equities, the decision rule
    (``lbr_core.lbr_choose``) and the agent's draws as there (tests/test_lbr_tree.py)."""
    nc = combos.shape[0]
    nd = ids.shape[0]
    rng, eq, have_eq, bk, have_bk, strengths, hs, hand, scratch, board, hole, masks, deals, \
        deck, rs = _lbr_buffers(combos)
    wn = np.zeros(nc)
    v = np.zeros(nc)
    w = np.zeros(16)
    nbk = rowb.shape[0]
    bk_deal = -1
    status[2] = 0
    for h in range(start, 2 * nd):
        i = h >> 1
        seat = h & 1
        opp = 1 - seat
        if bk_deal != i:
            rs[0] = stream_seed_nb(seed, ids[i], 9)
            deal_nine(rs, deck, deals[0])
            for c in range(5):
                board[c] = deals[0, 4 + c]
            have_bk[:] = False  # the agent's buckets depend on the board only
            bk_deal = i
        hole[0] = deals[0, 2 * seat]
        hole[1] = deals[0, 2 * seat + 1]
        hm = (np.int64(1) << hole[0]) | (np.int64(1) << hole[1])
        for j in range(nc):
            rng[j] = 0.0 if masks[j] & hm else 1.0
        oc = combo_index[deals[0, 2 * opp], deals[0, 2 * opp + 1]]
        have_eq[:] = False
        aseed = stream_seed_nb(seed, 2 * ids[i] + seat, 3)
        rs[0] = stream_seed_nb(seed, 2 * ids[i] + seat, 1)
        node = roots[seat]
        cur = 0
        while True:
            if N[node, READY] == 0:  # not built yet
                status[0] = h
                status[1] = node
                return
            kd = N[node, KIND]
            if kd >= FOLD_END:  # a terminal
                break
            s = N[node, STREET]
            cur = _deal_streets(rng, masks, board, cur, s)
            if kd == LBR_NODE:  # call, fold, raises valued against the range
                o0 = N[node, OPT0]
                no = N[node, NOPT]
                pick = 0
                if no > 1 and active[s] != 0:
                    _street_equity(s, have_eq, hole, board, ET, combos, combo_index, pre_eq,
                                   eq)
                    den = max(_np_sum(rng), 1e-300)
                    for j in range(nc):
                        wn[j] = rng[j] / den
                    best = -np.inf
                    for q in range(no):
                        okd = O[o0 + q, 0]
                        c = OF[o0 + q, 0]
                        if okd == OPT_CALL:
                            for j in range(nc):
                                v[j] = (2.0 * eq[s, j] - 1.0) * c
                            ev = np.dot(wn, v)
                        elif okd == OPT_FOLD:
                            ev = -c * _np_sum(wn)
                        else:
                            child = _follow(E, BP, BN, O[o0 + q, 1], aseed)
                            copp = OF[o0 + q, 1]
                            folds = (N[child, KIND] == AGENT_NODE and N[child, ANODE] >= 0
                                     and N[child, FOLDPOS] >= 0)
                            if folds and not have_bk[s]:
                                _all_buckets(s, board, mode, use, thr, pre, t0, t1, t2, t3,
                                             T0, T1, T2, T3, ET, combos, class_of,
                                             strengths, hs, hand, scratch, bk[s])
                                have_bk[s] = True
                            ctr[1] += 1
                            for j in range(nc):
                                f = 0.0
                                if folds and rng[j] > 0.0:
                                    b = bk[s, j]
                                    if b < 0 or b >= nbk:
                                        status[2] = 2
                                        return
                                    if fstamp[b] != ctr[1]:
                                        fstamp[b] = ctr[1]
                                        rowf[b] = _agent_row(N, K, child, b, off, probs, rp,
                                                             rb, csr, w, rowb[b])
                                    f = rowf[b]
                                v[j] = f * copp + (1.0 - f) * (2.0 * eq[s, j] - 1.0) * c
                            ev = np.dot(wn, v)
                        if np.isfinite(best):
                            tol = 1e-9 * (1.0 + abs(best))
                        else:
                            tol = 1e-9
                        if ev > best + tol:
                            best = ev
                            pick = q
                node = _follow(E, BP, BN, O[o0 + pick, 1], aseed)
                continue
            # the agent: every live combo's row (one per bucket), one draw, Bayes
            ncol = N[node, NCOL]
            c0 = N[node, COL0]
            x = uniform01_nb(rs)
            if not (rng[oc] > 0.0):
                status[2] = 3
                return
            if N[node, ANODE] < 0:  # off its tree: check/call for every hand
                _normalise(rng)
                node = _follow(E, BP, BN, COLS[c0], aseed)
                continue
            if not have_bk[s]:
                _all_buckets(s, board, mode, use, thr, pre, t0, t1, t2, t3, T0, T1, T2,
                             T3, ET, combos, class_of, strengths, hs, hand, scratch, bk[s])
                have_bk[s] = True
            ctr[0] += 1
            dec = ctr[0]
            for j in range(nc):
                if rng[j] > 0.0:
                    b = bk[s, j]
                    if b < 0 or b >= nbk:
                        status[2] = 2
                        return
                    if stamp[b] != dec:
                        stamp[b] = dec
                        _agent_row(N, K, node, b, off, probs, rp, rb, csr, w, rowb[b])
            ob = bk[s, oc]
            if ob < 0 or ob >= nbk or stamp[ob] != dec:
                status[2] = 3
                return
            total = _row_total(rowb, ob, ncol)
            if not (total > 0.0):
                status[2] = 3
                return
            pick = _draw_column(rowb, ob, ncol, x * total)
            _bayes(rng, rowb, bk, s, pick)
            node = _follow(E, BP, BN, COLS[c0 + pick], aseed)
        if N[node, KIND] == FOLD_END:
            pay0 = N[node, PAY_WIN]
        else:
            sg = _showdown(ET, hand, board, deals)
            pay0 = N[node, PAY_WIN] if sg > 0 else (N[node, PAY_LOSE] if sg < 0 else N[node, PAY_TIE])
        out[i, seat] = pay0 if seat == 0 else -pay0
    status[0] = 2 * nd
    status[1] = -1


@njit(cache=True)
def _np_sum(a):  # type: ignore[no-untyped-def]
    """``a.sum()`` as numpy adds a contiguous float64 vector (pairwise: blocks of at most
    128 summed with eight accumulators, halves split at multiples of 8), so the range
    weights round as in the Python path."""
    n = a.shape[0]
    stack = np.empty((64, 2), dtype=np.int64)
    stack[0, 0] = 0
    stack[0, 1] = n
    top = 1
    res = 0.0
    # the recursion sum(lo, n) = sum(lo, n2) + sum(lo + n2, n - n2), added left to right:
    # the leaves are summed in order and combined pairwise by a second stack
    vals = np.empty(64)
    depth = np.empty(64, dtype=np.int64)
    nv = 0
    lvl = np.empty(64, dtype=np.int64)
    lvl[0] = 0
    while top > 0:
        top -= 1
        lo = stack[top, 0]
        m = stack[top, 1]
        d = lvl[top]
        if m > 128:
            n2 = m // 2
            n2 -= n2 % 8
            stack[top, 0] = lo + n2
            stack[top, 1] = m - n2
            lvl[top] = d + 1
            stack[top + 1, 0] = lo
            stack[top + 1, 1] = n2
            lvl[top + 1] = d + 1
            top += 2
            continue
        if m < 8:
            r = 0.0
            for q in range(m):
                r += a[lo + q]
        else:
            r0 = a[lo]
            r1 = a[lo + 1]
            r2 = a[lo + 2]
            r3 = a[lo + 3]
            r4 = a[lo + 4]
            r5 = a[lo + 5]
            r6 = a[lo + 6]
            r7 = a[lo + 7]
            q = 8
            while q < m - (m % 8):
                r0 += a[lo + q]
                r1 += a[lo + q + 1]
                r2 += a[lo + q + 2]
                r3 += a[lo + q + 3]
                r4 += a[lo + q + 4]
                r5 += a[lo + q + 5]
                r6 += a[lo + q + 6]
                r7 += a[lo + q + 7]
                q += 8
            r = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
            while q < m:
                r += a[lo + q]
                q += 1
        # combine with finished siblings: a node's value is (left) + (right)
        vals[nv] = r
        depth[nv] = d
        nv += 1
        while nv >= 2 and depth[nv - 1] == depth[nv - 2]:
            vals[nv - 2] = vals[nv - 2] + vals[nv - 1]
            depth[nv - 2] -= 1
            nv -= 1
    res = vals[0] if nv > 0 else 0.0
    return res
