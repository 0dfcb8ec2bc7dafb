"""External-sampling MCCFR over a compiled betting tree x card buckets (numba).

One call of :func:`run_iterations` runs ``n`` iterations ``t = t0 + 1 .. t0 + n``:

1. Linear CFR discounting (Brown & Sandholm 2019): when ``lcfr_every > 0``, ``t <=
   lcfr_until`` and ``t % lcfr_every == 0``, regrets and average-strategy sums are
   multiplied by ``d = T / (T + 1)`` with ``T = t / lcfr_every`` (Pluribus, supplementary
   Algorithm 1, with its 10-minute intervals counted in iterations).
2. Deal 9 distinct cards (partial Fisher-Yates on a persistent deck; the RNG is a
   xorshift64* stream whose state is part of the checkpoint): hole cards of player 0, of
   player 1, then the board.  With ``board_reuse = K > 1`` a board is dealt every K
   iterations and shared by K deals of hole cards from the other 47 cards (each deal is
   still uniform; the K deals are correlated).  Per board (:func:`board_tables`), for
   each street: every combo's strength in a 52 x 52 int16 matrix, a histogram of the
   strengths and a coarse cumulative count (filled per rank pair, since without a flush a
   strength depends on the two ranks only, then the few flush combos corrected); a hand's
   HS is then a coarse count plus at most 31 histogram cells minus its two matrix rows
   (:func:`strength_count`), and its bucket one lookup in a table over every possible HS
   value (:func:`bucket_table`; no division, no threshold search).  Both players'
   buckets on all streets (preflop class, HS percentile bin; see
   :mod:`pokerlab.blueprint.cards`) and the showdown outcome (from the river matrix) are
   computed once per deal, before the traversal.  With
   ``allin_d`` (the 1326 x 1326 matrix ``2 * equity - 1`` of preflop all-in equities) a
   showdown reached preflop pays its exact expectation over the board instead of the
   sampled board's result (an unbiased, lower-variance estimate: the board chance nodes
   are summed exactly).
3. The traverser is ``t % 2`` (alternating).  With probability ``prune_prob`` after
   ``prune_after`` iterations, the traverser skips actions whose regret is below
   ``prune_threshold`` -- never on the river and never an action leading to a terminal.
4. External sampling: all of the traverser's actions are explored, one action is sampled
   at opponent nodes, where the opponent's current strategy is added to the average-
   strategy sums of the streets in ``avg_mask``.  Regrets are updated ``r += u(a) - v``
   and floored at ``regret_floor`` (int32 tables round to whole chips and saturate).
5. When ``snap_every > 0``, ``t > snap_after`` and ``t % snap_every == 0``, the current
   strategy of every row is added to ``snap`` (the periodic snapshots Pluribus averages
   for the postflop streets).

Speed (the traversal is bound by dependent cache misses on the regret / average tables,
which exceed the L2 cache): the tree is packed per edge (:func:`pack_edges`: a node's
children are adjacent 32-byte rows), every decision node prefetches its decision
children's table rows (:func:`prefetch_children`, ``llvm.prefetch``), scratch is flat and
preallocated, and regret matching (:func:`pokerlab.solvers.regret.regret_match_row`) and
the regret update (:func:`update_row`) are inlined.  None of this
changes a result: the tables equal the earlier kernel's bit for bit (pinned test).

Utilities are chips.  :func:`run_iterations_py` is the plain-Python twin (same RNG, same
arithmetic order; tests compare the tables).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from pokerlab.abstraction.action_tree import DECISION, FOLD_TERMINAL
from pokerlab.abstraction.hs_cards import hs_bucket
from pokerlab.abstraction.indexer_kernels import SCRATCH, index_into
from pokerlab.cards.cards import BOARD_PREFIX as BOARD_CARDS
from pokerlab.cards.evaluator_kernels import (
    FLUSH_MASK,
    FLUSH_TEST,
    ROW_MASK,
    ROW_SHIFT,
    heads_up_strengths,
    strength_from,
)
from pokerlab.cards.hand_classes import NUM_STRENGTHS
from pokerlab.rng import XorShift64Star, sample_categorical, sample_categorical_py
from pokerlab.rng import xorshift64star_uniform_nb as rng_uniform
from pokerlab.solvers.regret import discount_factor, regret_match_row, regret_match_row_py

INT_MAX = 2_000_000_000.0
BLOCKED = np.int16(32767)  # board_tables: a combo sharing a card with the board
COARSE_SHIFT = 5
COARSE_MASK = (1 << COARSE_SHIFT) - 1
NUM_COARSE = ((NUM_STRENGTHS + 2) >> COARSE_SHIFT) + 2

# integer parameters (params_i): index names
(P_TRAV_FIXED, P_LCFR_UNTIL, P_LCFR_EVERY, P_PRUNE_AFTER, P_SNAP_EVERY, P_SNAP_AFTER,
 P_BOARD_REUSE) = range(7)
# packed edge rows (pack_edges)
E_META, E_FIRST, E_OFFSET, E_CHIPS = range(4)
EDGE_WIDTH = 4
# float parameters (params_f)
F_PRUNE_PROB, F_PRUNE_THRESHOLD, F_REGRET_FLOOR = range(3)


def _prefetch_codegen(write: int):  # type: ignore[no-untyped-def]
    """Code generator of ``llvm.prefetch`` on ``arr[idx]`` (``write`` 0 read, 1 write;
    locality 3, data cache)."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]],
                                       wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(write), i32(3), i32(1)])
        return context.get_dummy_value()

    return codegen


@intrinsic
def prefetch(typingctx, arr, idx):  # type: ignore[no-untyped-def]
    """Hint the CPU to load ``arr[idx]`` into the cache (``llvm.prefetch``; no effect on
    results).  The traversal's table reads are a chain of dependent cache misses (the row
    read decides the next node), so the rows of a node's children are requested early."""
    if not isinstance(arr, types.Array):
        return None
    return types.void(arr, idx), _prefetch_codegen(0)


@intrinsic
def prefetch_w(typingctx, arr, idx):  # type: ignore[no-untyped-def]
    """:func:`prefetch` with the intent to write."""
    if not isinstance(arr, types.Array):
        return None
    return types.void(arr, idx), _prefetch_codegen(1)


@njit(cache=True)
def deal(state, deck, cards, new_board):  # type: ignore[no-untyped-def]
    """Partial Fisher-Yates: a new board in ``deck[0:5]`` when ``new_board``, then hole
    cards from the other 47 in ``deck[5:9]``; ``cards`` = holes of player 0, player 1,
    then the board."""
    lo = 0 if new_board else 5
    for j in range(lo, 9):
        r = j + int(rng_uniform(state) * (52 - j))
        t = deck[j]
        deck[j] = deck[r]
        deck[r] = t
    for j in range(4):
        cards[j] = deck[5 + j]
    for j in range(5):
        cards[4 + j] = deck[j]


@njit(cache=True)
def board_tables(tables, deck, nbuckets, mat, hist, coarse):  # type: ignore[no-untyped-def]
    """For the board ``deck[0:5]`` and each street ``s`` = 1, 2, 3 (first ``2 + s`` cards):
    ``mat[s, a, b]`` = ``mat[s, b, a]``: the strength of the hole cards ``a, b`` (``BLOCKED``
    where a card is on the board, and on the diagonal); ``hist[s, v]``: how many combos not
    blocked by the board have strength ``v``; ``coarse[s, j]``: how many have strength below
    ``32 * j``.  The river is always filled (the showdown outcome reads it), flop and turn
    only when they have more than one bucket.  The rows of board cards are not kept."""
    key_t = tables.key
    bit_t = tables.bit
    nf = tables.noflush
    fl = tables.flush
    board_rank = np.zeros(13, dtype=np.int64)
    rank_nf = np.zeros((13, 13), dtype=np.int16)
    rank_row = np.zeros((13, 52), dtype=np.int16)
    for s in range(1, 4):
        if s < 3 and nbuckets[s] <= 1:
            continue
        nb = 2 + s
        offs = tables.offs[tables.obase[nb + 2]:]
        key = 0
        bits = 0
        used = 0
        board_rank[:] = 0
        for i in range(nb):
            c = deck[i]
            key += key_t[c]
            bits |= bit_t[c]
            used |= 1 << c
            board_rank[c >> 2] += 1
        # non-flush strength by the two hole ranks (cards are 4 * rank + suit), for the
        # rank pairs that exist beside this board
        rb = key >> 16
        for x in range(13):
            if board_rank[x] >= 4:
                continue
            rx = rb + (key_t[4 * x] >> 16)
            for y in range(x, 13):
                if board_rank[y] + 1 + (1 if x == y else 0) > 4:
                    continue
                r = rx + (key_t[4 * y] >> 16)
                v = nf[offs[r >> ROW_SHIFT] + (r & ROW_MASK)]
                rank_nf[x, y] = v
                rank_nf[y, x] = v
        m = mat[s]
        h = hist[s]
        h[:] = 0
        cs = coarse[s]
        cs[:] = 0
        fsuit = -1  # the suit with 3 or 4 board cards (a flush needs 2 or 1 hole cards)
        slow = False  # a one-suit board: every hand holds a flush
        for f in range(4):
            cf = (key >> (4 * f)) & 0xF
            if cf >= 5:
                slow = True
            elif cf >= 3:
                fsuit = f
        if not slow:
            # a non-flush strength depends on the two ranks only, so the histogram is
            # filled per rank pair and a matrix row is its rank's row; then the combos
            # holding a flush are moved to their flush strength
            for x in range(13):
                ax = 4 - board_rank[x]
                for y in range(x, 13):
                    c = ax * (ax - 1) // 2 if x == y else ax * (4 - board_rank[y])
                    if c > 0:
                        v = rank_nf[x, y]
                        h[v] += c
                        cs[(v >> COARSE_SHIFT) + 1] += c
            for x in range(13):
                for b in range(52):
                    rank_row[x, b] = rank_nf[x, b >> 2]
            for a in range(52):
                if (used >> a) & 1:
                    continue  # a board card's row is never read
                m[a, :] = rank_row[a >> 2]
                m[a, a] = BLOCKED
                for i in range(nb):
                    m[a, deck[i]] = BLOCKED
            if fsuit >= 0:
                two = ((key >> (4 * fsuit)) & 0xF) == 3  # both hole cards must be suited
                for a in range(fsuit, 52, 4):
                    if (used >> a) & 1:
                        continue
                    ka = key + key_t[a]
                    ba = bits | bit_t[a]
                    for b in range(52):
                        if (used >> b) & 1 or b == a:
                            continue
                        if (b & 3) == fsuit:
                            if b < a:
                                continue  # the suited pair is met once, from its lower card
                        elif two:
                            continue
                        v = np.int16(strength_from(nf, offs, fl, ka + key_t[b], ba | bit_t[b]))
                        old = m[a, b]
                        h[old] -= 1
                        cs[(old >> COARSE_SHIFT) + 1] -= 1
                        h[v] += 1
                        cs[(v >> COARSE_SHIFT) + 1] += 1
                        m[a, b] = v
                        m[b, a] = v
            for j in range(1, cs.shape[0]):
                cs[j] += cs[j - 1]
            continue
        m[:, :] = BLOCKED
        for a in range(52):
            if (used >> a) & 1:
                continue
            ka = key + key_t[a]
            ba = bits | bit_t[a]
            ra = rank_nf[a >> 2]
            for b in range(a + 1, 52):
                if (used >> b) & 1:
                    continue
                kk = ka + key_t[b]
                if ((kk & 0xFFFF) + FLUSH_TEST) & FLUSH_MASK:
                    v = np.int16(strength_from(nf, offs, fl, kk, ba | bit_t[b]))
                else:
                    v = ra[b >> 2]
                m[a, b] = v
                m[b, a] = v
                h[v] += 1
                cs[(v >> COARSE_SHIFT) + 1] += 1
        for j in range(1, cs.shape[0]):
            cs[j] += cs[j - 1]


@njit(cache=True)
def strength_count(m, h, cs, a, b):  # type: ignore[no-untyped-def]
    """``2 * below + equal``: the opponent combos (sharing no card with the board nor with
    the hole cards ``a, b``) whose strength is below / equal to the hand's, from one
    street's :func:`board_tables` (coarse cumulative count plus at most 31 histogram cells,
    minus the hand's two matrix rows; the hand itself is counted equal in both rows)."""
    mine = m[a, b]
    less = cs[mine >> COARSE_SHIFT]
    for v in range(mine & ~COARSE_MASK, mine):
        less += h[v]
    le = less + h[mine] + 1
    ra = m[a]
    rb = m[b]
    lt_rows = 0
    le_rows = 0
    for x in range(52):
        v = ra[x]
        w = rb[x]
        lt_rows += (v < mine) + (w < mine)
        le_rows += (v <= mine) + (w <= mine)
    return (less - lt_rows) + (le - le_rows)


def opponent_combos(street: int) -> int:
    """Opponent combos beside a hand and the board of ``street`` (1, 2, 3): C(L - 2, 2) with
    ``L`` cards off the board."""
    live = 52 - BOARD_CARDS[street] - 2
    return live * (live - 1) // 2


@njit(cache=True)
def hand_strength_mat(m, h, cs, a, b, n):  # type: ignore[no-untyped-def]
    """:func:`pokerlab.blueprint.cards.hand_strength` (the same float, bit for bit: ``below +
    equal / 2`` is exact) of ``a, b`` against the ``n`` opponent combos."""
    return 0.5 * np.float64(strength_count(m, h, cs, a, b)) / np.float64(n)


@njit(cache=True)
def bucket_table(nbuckets, thresholds, ncombos, table):  # type: ignore[no-untyped-def]
    """``table[s, q]``: the bucket of the hand strength ``q / 2 / ncombos[s]`` (every value
    :func:`strength_count` can give): the number of thresholds strictly below it."""
    for s in range(1, 4):
        nt = nbuckets[s] - 1
        n = ncombos[s]
        for q in range(2 * n + 1):
            table[s, q] = hs_bucket(0.5 * np.float64(q) / np.float64(n), thresholds[s], nt)


@njit(cache=True)
def _street_buckets(s, cards, bucket, nbuckets, btable, class_of, combo_index, mat, hist,
                    coarse):  # type: ignore[no-untyped-def]
    """Fill ``bucket[0, s]`` and ``bucket[1, s]``."""
    if s == 0:
        for p in range(2):
            if nbuckets[0] == 1:
                bucket[p, 0] = 0
            else:
                bucket[p, 0] = class_of[combo_index[cards[2 * p], cards[2 * p + 1]]]
        return
    if nbuckets[s] == 1:
        bucket[0, s] = 0
        bucket[1, s] = 0
        return
    for p in range(2):
        bucket[p, s] = btable[s, strength_count(mat[s], hist[s], coarse[s], cards[2 * p],
                                                cards[2 * p + 1])]


@njit(cache=True)
def _table_buckets(s, cards, bucket, nbuckets, ctab, h7, scratch):  # type: ignore[no-untyped-def]
    """Fill ``bucket[0, s]`` and ``bucket[1, s]`` (``s`` >= 1) from the card abstraction's
    tables ``ctab = (T1, T2, T3, t1, t2, t3)``: hand-indexer tables and bucket tables of the
    flop, turn and river (:mod:`pokerlab.abstraction.buckets`)."""
    if nbuckets[s] == 1:
        bucket[0, s] = 0
        bucket[1, s] = 0
        return
    nb = 2 + s
    for j in range(nb):
        h7[2 + j] = cards[4 + j]
    for p in range(2):
        h7[0] = cards[2 * p]
        h7[1] = cards[2 * p + 1]
        if s == 1:
            bucket[p, s] = np.int64(ctab[3][index_into(ctab[0], h7[:5], scratch)])
        elif s == 2:
            bucket[p, s] = np.int64(ctab[4][index_into(ctab[1], h7[:6], scratch)])
        else:
            bucket[p, s] = np.int64(ctab[5][index_into(ctab[2], h7[:7], scratch)])


@njit(cache=True)
def _matching(regret, base, n, out):  # type: ignore[no-untyped-def]
    """Regret matching of ``regret[base:base + n]`` into ``out[:n]`` (the one shared
    :func:`pokerlab.solvers.regret.regret_match_row`, which :func:`traverse` inlines)."""
    regret_match_row(regret, base, n, out, 0)


@njit(cache=True, inline="always")
def update_row(regret, base, n, util, explored, o, v, floor, int_regret):  # type: ignore[no-untyped-def]
    """``regret[base + a] += util[o + a] - v`` for the explored actions (``explored[o +
    a]``), floored at ``floor`` (int tables: rounded to whole chips, saturating at 2e9).
    Inlined into :func:`traverse`."""
    for a in range(n):
        if not explored[o + a]:
            continue
        r = np.float64(regret[base + a]) + (util[o + a] - v)
        if int_regret:
            r = math.floor(r + 0.5)
            if r > INT_MAX:
                r = INT_MAX
        if r < floor:
            r = floor
        regret[base + a] = r


@njit(cache=True)
def update_regrets(regret, base, n, util, explored, v, floor, int_regret):  # type: ignore[no-untyped-def]
    """:func:`update_row` with ``o = 0`` (the update :func:`traverse` runs)."""
    update_row(regret, base, n, util, explored, 0, v, floor, int_regret)


@njit(cache=True)
def pack_edges(kind, actor, street, child_start, num_children, child_node, node_offset, com0,
               com1, ed):  # type: ignore[no-untyped-def]
    """Row ``e`` of ``ed`` describes the node that edge ``e`` leads to (row ``E``: the
    root), so a node's children are adjacent rows (half a cache line each): ``E_META`` =
    kind | actor << 4 | street << 8 | children << 12, ``E_FIRST`` its first child edge,
    ``E_OFFSET`` its table offset, ``E_CHIPS`` a fold's chips won by player 0 or a
    showdown's stake ``min(committed)``."""
    ne = child_node.shape[0]
    for e in range(ne + 1):
        node = child_node[e] if e < ne else 0
        ed[e, E_META] = (np.int64(kind[node]) | (np.int64(actor[node]) & 0xF) << 4
                         | np.int64(street[node]) << 8 | np.int64(num_children[node]) << 12)
        ed[e, E_FIRST] = child_start[node]
        ed[e, E_OFFSET] = node_offset[node]
        c0 = com0[node]
        c1 = com1[node]
        if kind[node] == FOLD_TERMINAL:
            ed[e, E_CHIPS] = c1 if c0 > c1 else -c0
        else:
            ed[e, E_CHIPS] = min(c0, c1)


@njit(cache=True)
def prefetch_children(e, ed, bucket, rowb, regret, avg, avg_mask, trav):  # type: ignore[no-untyped-def]
    """Prefetch the table rows of the decision children of the node at edge ``e`` (and the
    average-strategy rows of the opponent's)."""
    cs = ed[e, E_FIRST]
    for c in range(cs, cs + ((ed[e, E_META] >> 12) & 0xFF)):
        meta = ed[c, E_META]
        if meta & 0xF != DECISION:
            continue
        s = (meta >> 8) & 0xF
        p = (meta >> 4) & 0xF
        if bucket is None:  # bucket-major (a compile-time branch: two specialisations)
            base = ed[c, E_OFFSET] + rowb[p, s]
        else:
            base = ed[c, E_OFFSET] + bucket[p, s] * ((meta >> 12) & 0xFF)
        if p == trav:
            # read, then written by the regret update
            prefetch_w(regret, base)  # type: ignore[call-arg]
        else:
            prefetch(regret, base)  # type: ignore[call-arg]
            if avg_mask[s]:
                prefetch_w(avg, base)  # type: ignore[call-arg]


@njit(cache=True)
def traverse(trav, prune, ed, regret, int_regret, avg, avg_mask, bucket, rowb, sig, util,
             explored, fedge, fbase, fact, fval, sig_opp, state, thr, floor, sd_pre, sd_post,
             lock_sig, lock_row, lock_on, ma):  # type: ignore[no-untyped-def]
    """One external-sampling traversal from the root (iterative: an explicit stack of the
    traverser's decision nodes, each kept as the edge that leads to it; opponent nodes are
    tail steps).  Returns the root value.  A showdown pays ``stake * sd_pre`` on the
    preflop, ``stake * sd_post`` later (player 0's view).  A row starts at ``E_OFFSET +
    bucket[p, s] * children`` (tree layout) or, with ``bucket=None``, at ``E_OFFSET +
    rowb[p, s]`` (bucket-major, see :func:`run_iterations_bucket_major`; numba compiles the
    two cases separately).
    ``sig``, ``util``, ``explored``: flat ``depth * ma + action`` scratch.  With
    ``lock_on``, an opponent row whose first value has ``lock_row`` set plays the fixed
    ``lock_sig`` instead of regret matching (node locking; no average-strategy update)."""
    sgn = 1.0 if trav == 0 else -1.0
    depth = -1
    e = ed.shape[0] - 1  # the root
    while True:
        # descend from edge `e` to a terminal (value in ret) or a new traverser frame
        pushed = False
        ret = 0.0
        while True:
            meta = ed[e, E_META]
            k = meta & 0xF
            s = (meta >> 8) & 0xF
            if k != DECISION:
                chips = np.float64(ed[e, E_CHIPS])
                if k == FOLD_TERMINAL:
                    ret = sgn * chips
                elif s == 0:
                    ret = sgn * (chips * sd_pre)
                else:
                    ret = sgn * (chips * sd_post)
                break
            prefetch_children(e, ed, bucket, rowb, regret, avg, avg_mask, trav)
            p = (meta >> 4) & 0xF
            n = (meta >> 12) & 0xFF
            if bucket is None:
                base = ed[e, E_OFFSET] + rowb[p, s]
            else:
                base = ed[e, E_OFFSET] + bucket[p, s] * n
            if p != trav:
                if lock_on and lock_row[base]:
                    for a in range(n):
                        sig_opp[a] = lock_sig[base + a]
                else:
                    regret_match_row(regret, base, n, sig_opp, 0)
                    if avg_mask[s]:
                        for a in range(n):
                            avg[base + a] += sig_opp[a]
                e = ed[e, E_FIRST] + sample_categorical(sig_opp, 0, n, rng_uniform(state))
                continue
            depth += 1
            fedge[depth] = e
            fbase[depth] = base
            fact[depth] = -1
            fval[depth] = 0.0
            regret_match_row(regret, base, n, sig, depth * ma)
            pushed = True
            break
        if not pushed:
            if depth < 0:
                return ret
            o = depth * ma + fact[depth]
            util[o] = ret
            fval[depth] += sig[o] * ret
        # advance the frame on top; pop finished frames
        while True:
            fe = fedge[depth]
            meta = ed[fe, E_META]
            n = (meta >> 12) & 0xFF
            cs = ed[fe, E_FIRST]
            o = depth * ma
            a = fact[depth] + 1
            if prune and (meta >> 8) & 0xF < 3:
                while a < n:
                    if (ed[cs + a, E_META] & 0xF == DECISION
                            and np.float64(regret[fbase[depth] + a]) < thr):
                        explored[o + a] = False
                        a += 1
                        continue
                    break
            if a < n:
                explored[o + a] = True
                fact[depth] = a
                e = cs + a
                break
            v = fval[depth]
            update_row(regret, fbase[depth], n, util, explored, o, v, floor, int_regret)
            depth -= 1
            if depth < 0:
                return v
            o = depth * ma + fact[depth]
            util[o] = v
            fval[depth] += sig[o] * v


@njit(cache=True)
def snapshot(kind, street, num_children, node_offset, nbuckets, regret, snap, tmp):  # type: ignore[no-untyped-def]
    """Add the current strategy of every row to ``snap`` (tree layout)."""
    _snapshot(kind, street, num_children, node_offset, nbuckets, regret, snap, tmp, False,
              np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64))


@njit(cache=True)
def _snapshot(kind, street, num_children, node_offset, nbuckets, regret, snap, tmp, bm, sbase,
              swidth):  # type: ignore[no-untyped-def]
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        n = num_children[node]
        s = street[node]
        for b in range(nbuckets[s]):
            if bm:
                base = node_offset[node] + sbase[s] + b * swidth[s]
            else:
                base = node_offset[node] + b * n
            _matching(regret, base, n, tmp)
            for a in range(n):
                snap[base + a] += tmp[a]


@njit(cache=True)
def bucket_major_layout(kind, street, num_children, nbuckets, local, sbase, swidth):  # type: ignore[no-untyped-def]
    """The kernel's bucket-major layout: street ``s``, bucket ``b`` is one block of
    ``swidth[s]`` values (all of the street's decision nodes in pre-order, ``local[node]``
    their offsets in it) starting at ``sbase[s] + b * swidth[s]``."""
    swidth[:] = 0
    for node in range(kind.shape[0]):
        if kind[node] == DECISION:
            local[node] = swidth[street[node]]
            swidth[street[node]] += num_children[node]
    sbase[0] = 0
    for s in range(1, 4):
        sbase[s] = sbase[s - 1] + nbuckets[s - 1] * swidth[s - 1]


@njit(cache=True, inline="always")
def _permute_rows(tree_t, bm_t, t, m, n, nb, w, to_bucket_major):  # type: ignore[no-untyped-def]
    if tree_t.shape[0] == 0:
        return
    if to_bucket_major:
        for _b in range(nb):
            for a in range(n):
                bm_t[m + a] = tree_t[t + a]
            t += n
            m += w
    else:
        for _b in range(nb):
            for a in range(n):
                tree_t[t + a] = bm_t[m + a]
            t += n
            m += w


@njit(cache=True)
def permute_tables(kind, street, num_children, node_offset, nbuckets, local, sbase, swidth,
                   regret, avg, snap, r2, a2, s2, to_bucket_major):  # type: ignore[no-untyped-def]
    """Copy ``regret``, ``avg``, ``snap`` (tree layout: ``node_offset``, node-major) into
    ``r2``, ``a2``, ``s2`` (bucket-major layout), or back; empty tables are skipped."""
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        n = num_children[node]
        s = street[node]
        t = node_offset[node]
        m = sbase[s] + local[node]
        _permute_rows(regret, r2, t, m, n, nbuckets[s], swidth[s], to_bucket_major)
        _permute_rows(avg, a2, t, m, n, nbuckets[s], swidth[s], to_bucket_major)
        _permute_rows(snap, s2, t, m, n, nbuckets[s], swidth[s], to_bucket_major)


@njit(cache=True)
def run_iterations_bucket_major(t0, n, kind, actor, street, child_start, num_children,
                                child_node, com0, com1, node_offset, regret, int_regret, avg,
                                avg_mask, snap, nbuckets, thresholds, class_of, combo_index,
                                tables, combos, state, deck, params_i, params_f, max_depth,
                                max_actions, allin_d, r2, a2, s2, ctab=None):  # type: ignore[no-untyped-def]
    """:func:`run_iterations` on bucket-major copies of the tables (copied in, run, copied
    back): the same results bit for bit (a permutation of where each value lives), but one
    iteration's rows of a player and street lie in one block, so far fewer cache lines are
    touched.  Needs a second copy of the tables for the call (the trainer uses it below a
    size limit, single-threaded, without node locking).  ``r2``, ``a2``, ``s2``: work
    tables of the same sizes and types, kept by the caller between calls."""
    nn = kind.shape[0]
    local = np.zeros(nn, dtype=np.int64)
    sbase = np.zeros(4, dtype=np.int64)
    swidth = np.zeros(4, dtype=np.int64)
    bucket_major_layout(kind, street, num_children, nbuckets, local, sbase, swidth)
    permute_tables(kind, street, num_children, node_offset, nbuckets, local, sbase, swidth,
                   regret, avg, snap, r2, a2, s2, True)
    _run(t0, n, kind, actor, street, child_start, num_children, child_node, com0, com1, local,
         r2, int_regret, a2, avg_mask, s2, nbuckets, thresholds, class_of, combo_index, tables,
         state, deck, params_i, params_f, max_depth, max_actions, allin_d, np.zeros(0),
         np.zeros(0, dtype=np.bool_), 1.0, True, sbase, swidth, ctab)
    permute_tables(kind, street, num_children, node_offset, nbuckets, local, sbase, swidth,
                   regret, avg, snap, r2, a2, s2, False)
    return n


@njit(cache=True)
def run_iterations(t0, n, kind, actor, street, child_start, num_children, child_node, com0,
                   com1, node_offset, regret, int_regret, avg, avg_mask, snap, nbuckets,
                   thresholds, class_of, combo_index, tables, combos, state, deck, params_i,
                   params_f, max_depth, max_actions, allin_d, ctab=None):  # type: ignore[no-untyped-def]
    """Run iterations ``t0 + 1 .. t0 + n``; returns ``n``.  (``combos`` is no longer read;
    it stays in the signature that the trainer, threads and Ray driver share.)  ``ctab``:
    card buckets from tables (see :func:`_table_buckets`) instead of hand strength."""
    return run_iterations_locked(t0, n, kind, actor, street, child_start, num_children,
                                 child_node, com0, com1, node_offset, regret, int_regret, avg,
                                 avg_mask, snap, nbuckets, thresholds, class_of, combo_index,
                                 tables, combos, state, deck, params_i, params_f, max_depth,
                                 max_actions, allin_d, np.zeros(0), np.zeros(0, dtype=np.bool_),
                                 1.0, ctab)


@njit(cache=True)
def run_iterations_locked(t0, n, kind, actor, street, child_start, num_children, child_node,
                          com0, com1, node_offset, regret, int_regret, avg, avg_mask, snap,
                          nbuckets, thresholds, class_of, combo_index, tables, combos, state,
                          deck, params_i, params_f, max_depth, max_actions, allin_d, lock_sig,
                          lock_row, lock_p, ctab=None):  # type: ignore[no-untyped-def]
    """:func:`run_iterations` with node locking: ``lock_sig`` (the fixed probabilities, tree
    layout) is played at the opponent's rows flagged in ``lock_row`` (flag at a row's first
    value), in an iteration with probability ``lock_p`` (one extra uniform draw per
    iteration when ``0 < lock_p < 1``; none when nothing is locked, so an empty lock is
    bit-identical to :func:`run_iterations`)."""
    return _run(t0, n, kind, actor, street, child_start, num_children, child_node, com0, com1,
                node_offset, regret, int_regret, avg, avg_mask, snap, nbuckets, thresholds,
                class_of, combo_index, tables, state, deck, params_i, params_f, max_depth,
                max_actions, allin_d, lock_sig, lock_row, lock_p, False,
                np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64), ctab)


@njit(cache=True)
def _run(t0, n, kind, actor, street, child_start, num_children, child_node, com0, com1,
         node_offset, regret, int_regret, avg, avg_mask, snap, nbuckets, thresholds, class_of,
         combo_index, tables, state, deck, params_i, params_f, max_depth, max_actions, allin_d,
         lock_sig, lock_row, lock_p, bm, sbase, swidth, ctab):  # type: ignore[no-untyped-def]
    """The iteration loop.  ``bm``: the tables are bucket-major (``node_offset`` holds the
    offsets within a street's block, see :func:`bucket_major_layout`), else the tree
    layout (``node_offset[node] + bucket * children``)."""
    cards = np.zeros(9, dtype=np.int64)
    rowb = np.zeros((2, 4), dtype=np.int64)  # bucket-major: each row block's start
    bucket = np.zeros((2, 4), dtype=np.int64)
    mat = np.zeros((4, 52, 52), dtype=np.int16)
    matf = mat.reshape(mat.size)
    hist = np.zeros((4, NUM_STRENGTHS + 2), dtype=np.int16)
    coarse = np.zeros((4, NUM_COARSE), dtype=np.int16)
    ncombos = np.zeros(4, dtype=np.int64)
    for s in range(1, 4):
        live = 52 - (2 + s) - 2
        ncombos[s] = live * (live - 1) // 2
    btable = np.zeros((4, 2 * ncombos[1] + 1), dtype=np.int64)
    bucket_table(nbuckets, thresholds, ncombos, btable)
    reuse = max(params_i[P_BOARD_REUSE], 1)
    need_hs = (nbuckets[1] > 1 or nbuckets[2] > 1 or nbuckets[3] > 1) and ctab is None
    h7 = np.zeros(7, dtype=np.int64)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    if need_hs and t0 % reuse != 0:  # resuming inside a block sharing one board
        board_tables(tables, deck, nbuckets, mat, hist, coarse)
    sig = np.zeros((max_depth + 1) * max_actions)
    util = np.zeros((max_depth + 1) * max_actions)
    explored = np.zeros((max_depth + 1) * max_actions, dtype=np.bool_)
    ed = np.zeros((child_node.shape[0] + 1, EDGE_WIDTH), dtype=np.int64)
    pack_edges(kind, actor, street, child_start, num_children, child_node, node_offset, com0,
               com1, ed)
    thr = params_f[F_PRUNE_THRESHOLD]
    floor = params_f[F_REGRET_FLOOR]
    has_allin = allin_d.shape[0] > 0
    tmp = np.zeros(max_actions)
    hand = np.zeros(7, dtype=np.int64)
    fedge = np.zeros(max_depth + 1, dtype=np.int64)
    fbase = np.zeros(max_depth + 1, dtype=np.int64)
    fact = np.zeros(max_depth + 1, dtype=np.int64)
    fval = np.zeros(max_depth + 1)
    sig_opp = np.zeros(max_actions)
    lcfr_until = params_i[P_LCFR_UNTIL]
    lcfr_every = params_i[P_LCFR_EVERY]
    for it in range(n):
        t = t0 + it + 1
        if lcfr_every > 0 and t <= lcfr_until and t % lcfr_every == 0:
            d = discount_factor(t // lcfr_every, 1.0)
            for i in range(regret.shape[0]):
                if int_regret:
                    regret[i] = math.floor(np.float64(regret[i]) * d + 0.5)
                else:
                    regret[i] = np.float64(regret[i]) * d
            for i in range(avg.shape[0]):
                avg[i] = np.float64(avg[i]) * d
        new_board = (t - 1) % reuse == 0
        deal(state, deck, cards, new_board)
        if new_board and need_hs:
            board_tables(tables, deck, nbuckets, mat, hist, coarse)
        if need_hs:  # request the hole cards' matrix rows before they are read
            for s in range(1, 4):
                for j in range(4):
                    row = (s * 52 + cards[j]) * 52
                    prefetch(matf, row)  # type: ignore[call-arg]
                    prefetch(matf, row + 51)  # type: ignore[call-arg]
        _street_buckets(0, cards, bucket, nbuckets, btable, class_of, combo_index, mat, hist,
                        coarse)
        if need_hs:
            s0 = mat[3, cards[0], cards[1]]
            s1 = mat[3, cards[2], cards[3]]
        else:
            for j in range(5):
                hand[2 + j] = cards[4 + j]
            s0, s1 = heads_up_strengths(tables, hand, cards[0], cards[1], cards[2],
                                        cards[3])
        outcome = 1.0 if s0 > s1 else (-1.0 if s0 < s1 else 0.0)
        for s in range(1, 4):
            if ctab is None:
                _street_buckets(s, cards, bucket, nbuckets, btable, class_of, combo_index, mat,
                                hist, coarse)
            else:
                _table_buckets(s, cards, bucket, nbuckets, ctab, h7, scratch)
        sd_pre = outcome
        if has_allin:
            sd_pre = allin_d[combo_index[cards[0], cards[1]], combo_index[cards[2], cards[3]]]
        trav = t % 2 if params_i[P_TRAV_FIXED] < 0 else params_i[P_TRAV_FIXED]
        u = rng_uniform(state)
        prune = t > params_i[P_PRUNE_AFTER] and params_i[P_PRUNE_AFTER] >= 0 and (
            u < params_f[F_PRUNE_PROB])
        lock_on = lock_row.shape[0] > 0 and lock_p > 0.0
        if lock_on and lock_p < 1.0:
            lock_on = rng_uniform(state) < lock_p
        if bm:
            for p in range(2):
                for s in range(4):
                    rowb[p, s] = sbase[s] + bucket[p, s] * swidth[s]
            traverse(trav, prune, ed, regret, int_regret, avg, avg_mask, None, rowb, sig, util,
                     explored, fedge, fbase, fact, fval, sig_opp, state, thr, floor, sd_pre,
                     outcome, lock_sig, lock_row, lock_on, max_actions)
        else:
            traverse(trav, prune, ed, regret, int_regret, avg, avg_mask, bucket, rowb, sig,
                     util, explored, fedge, fbase, fact, fval, sig_opp, state, thr, floor,
                     sd_pre, outcome, lock_sig, lock_row, lock_on, max_actions)
        se = params_i[P_SNAP_EVERY]
        if se > 0 and t > params_i[P_SNAP_AFTER] and t % se == 0:
            _snapshot(kind, street, num_children, node_offset, nbuckets, regret, snap, tmp, bm,
                      sbase, swidth)
    return n


# ---------------------------------------------------------------------- Python twin
def run_iterations_py(t0: int, n: int, tree: Any, node_offset: np.ndarray, regret: np.ndarray,
                      avg: np.ndarray, avg_mask: np.ndarray, snap: np.ndarray,
                      spec_thresholds: np.ndarray, nbuckets: np.ndarray, state: np.ndarray,
                      deck: np.ndarray, params_i: np.ndarray, params_f: np.ndarray,
                      allin_d: np.ndarray, lock_sig: np.ndarray | None = None,
                      lock_row: np.ndarray | None = None, lock_p: float = 1.0,
                      card_tables: Any = None) -> None:
    """Plain-Python twin of :func:`run_iterations` / :func:`run_iterations_locked` (slow;
    for parity tests).  ``card_tables``: a
    :class:`~pokerlab.abstraction.buckets.CardAbstraction` whose tables give the flop, turn
    and river buckets (the kernel's ``ctab``)."""
    from pokerlab.blueprint.cards import bucket_of_hs
    from pokerlab.cards.cards import CLASS_OF_COMBO, COMBO_INDEX
    from pokerlab.cards.evaluator import strength, strengths_on_board

    rng = XorShift64Star(state)
    int_regret = regret.dtype.kind == "i"
    kind, street, actor = tree.kind, tree.street, tree.actor

    def matching(base: int, k: int) -> list[float]:
        return regret_match_row_py(regret, base, k, [0.0] * k, 0)  # type: ignore[no-any-return]

    for it in range(n):
        t = t0 + it + 1
        le = int(params_i[P_LCFR_EVERY])
        if le > 0 and t <= params_i[P_LCFR_UNTIL] and t % le == 0:
            d = float(t // le) / (float(t // le) + 1.0)
            for i in range(regret.shape[0]):
                regret[i] = (math.floor(float(regret[i]) * d + 0.5) if int_regret
                             else float(regret[i]) * d)
            for i in range(avg.shape[0]):
                avg[i] = float(avg[i]) * d
        reuse = max(int(params_i[P_BOARD_REUSE]), 1)
        for j in range(0 if (t - 1) % reuse == 0 else 5, 9):
            r = j + int(rng.uniform() * (52 - j))
            deck[j], deck[r] = deck[r], deck[j]
        cards = [int(x) for x in deck[5:9]] + [int(x) for x in deck[0:5]]
        s0 = strength(cards[0:2] + cards[4:9])
        s1 = strength(cards[2:4] + cards[4:9])
        outcome = 1.0 if s0 > s1 else (-1.0 if s0 < s1 else 0.0)
        c0i = int(COMBO_INDEX[cards[0], cards[1]])
        c1i = int(COMBO_INDEX[cards[2], cards[3]])
        bucket: dict[tuple[int, int], int] = {}

        def get_bucket(p: int, s: int, cards: list[int] = cards,
                       bucket: dict[tuple[int, int], int] = bucket) -> int:
            if (p, s) not in bucket:
                a, b = cards[2 * p], cards[2 * p + 1]
                if s == 0:
                    bucket[p, s] = (int(CLASS_OF_COMBO[COMBO_INDEX[a, b]])
                                    if nbuckets[0] > 1 else 0)
                elif nbuckets[s] == 1:
                    bucket[p, s] = 0
                elif card_tables is not None:
                    bucket[p, s] = int(card_tables.bucket(s, (a, b), cards[4:4 + 2 + s]))
                else:
                    st = strengths_on_board(cards[4:4 + 2 + s])
                    from pokerlab.blueprint.cards import combos64, hand_strength

                    hs = float(hand_strength.py_func(st, combos64(), a, b,
                                                     st[COMBO_INDEX[a, b]]))
                    bucket[p, s] = bucket_of_hs(hs, spec_thresholds[s, :nbuckets[s] - 1])
            return bucket[p, s]

        trav = t % 2 if params_i[P_TRAV_FIXED] < 0 else int(params_i[P_TRAV_FIXED])
        u0 = rng.uniform()
        prune = bool(t > params_i[P_PRUNE_AFTER] and params_i[P_PRUNE_AFTER] >= 0
                     and u0 < params_f[F_PRUNE_PROB])
        lock_on = lock_row is not None and lock_row.shape[0] > 0 and lock_p > 0.0
        if lock_on and lock_p < 1.0:
            lock_on = rng.uniform() < lock_p

        def walk(node: int, trav: int = trav, prune: bool = prune,
                 outcome: float = outcome, c0i: int = c0i, c1i: int = c1i,
                 lock_on: bool = lock_on) -> float:
            k = int(kind[node])
            if k != DECISION:
                c0, c1 = int(tree.committed0[node]), int(tree.committed1[node])
                if k == FOLD_TERMINAL:
                    v0 = float(c1) if c0 > c1 else -float(c0)
                elif street[node] == 0 and allin_d.shape[0] > 0:
                    v0 = float(min(c0, c1)) * float(allin_d[c0i, c1i])
                else:
                    v0 = float(min(c0, c1)) * outcome
                return v0 if trav == 0 else -v0
            s = int(street[node])
            p = int(actor[node])
            nk = int(tree.num_children[node])
            base = int(node_offset[node]) + get_bucket(p, s) * nk
            cs = int(tree.child_start[node])
            sig = matching(base, nk)
            if p == trav:
                v = 0.0
                util = [0.0] * nk
                expl = [False] * nk
                for a in range(nk):
                    ch = int(tree.child_node[cs + a])
                    if (prune and s < 3 and kind[ch] == DECISION
                            and float(regret[base + a]) < params_f[F_PRUNE_THRESHOLD]):
                        continue
                    expl[a] = True
                    util[a] = walk(ch)
                    v += sig[a] * util[a]
                for a in range(nk):
                    if not expl[a]:
                        continue
                    r = float(regret[base + a]) + (util[a] - v)
                    if int_regret:
                        r = min(float(math.floor(r + 0.5)), INT_MAX)
                    regret[base + a] = max(r, float(params_f[F_REGRET_FLOOR]))
                return v
            if lock_on and lock_row is not None and lock_sig is not None and lock_row[base]:
                sig = [float(lock_sig[base + a]) for a in range(nk)]
            elif avg_mask[s]:
                for a in range(nk):
                    avg[base + a] = np.float32(float(avg[base + a]) + sig[a])
            pick = sample_categorical_py(sig, 0, nk, rng.uniform())
            return walk(int(tree.child_node[cs + pick]))

        walk(0)
        se = int(params_i[P_SNAP_EVERY])
        if se > 0 and t > params_i[P_SNAP_AFTER] and t % se == 0:
            for node in np.flatnonzero(kind == DECISION):
                nk = int(tree.num_children[node])
                for b in range(int(nbuckets[street[node]])):
                    base = int(node_offset[node]) + b * nk
                    sg = matching(base, nk)
                    for a in range(nk):
                        snap[base + a] = np.float32(float(snap[base + a]) + sg[a])
    state[0] = np.uint64(rng.x)
