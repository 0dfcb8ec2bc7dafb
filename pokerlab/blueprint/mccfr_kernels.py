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
   still uniform; the K deals are correlated): the board's strength against all 1326
   combos, which the hand-strength buckets need, is then computed once per K iterations
   (with a cumulative count per strength, so a hand's HS costs ~100 steps, not 1326).
   Buckets are computed lazily per street (preflop class, HS percentile bin; see
   :mod:`pokerlab.blueprint.cards`); the showdown outcome once per deal.  With
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

Utilities are chips.  :func:`run_iterations_py` is the plain-Python twin (same RNG, same
arithmetic order; tests compare the tables).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from pokerlab.cards.evaluator_kernels import combos_on_board_kernel, strength_nb
from pokerlab.cards.hand_classes import NUM_STRENGTHS
from pokerlab.solvers.regret import regret_matching

MULT = np.uint64(0x2545F4914F6CDD1D)
S12 = np.uint64(12)
S25 = np.uint64(25)
S27 = np.uint64(27)
S11 = np.uint64(11)
INV53 = 1.0 / 9007199254740992.0
INT_MAX = 2_000_000_000.0
DECISION = 0
FOLD_TERMINAL = 1
MASK64 = (1 << 64) - 1

# integer parameters (params_i): index names
(P_TRAV_FIXED, P_LCFR_UNTIL, P_LCFR_EVERY, P_PRUNE_AFTER, P_SNAP_EVERY, P_SNAP_AFTER,
 P_BOARD_REUSE) = range(7)
# float parameters (params_f)
F_PRUNE_PROB, F_PRUNE_THRESHOLD, F_REGRET_FLOOR = range(3)


@njit(cache=True)
def rng_next(state):  # type: ignore[no-untyped-def]
    x = state[0]
    x ^= x >> S12
    x ^= x << S25
    x ^= x >> S27
    state[0] = x
    return x * MULT


@njit(cache=True)
def rng_uniform(state):  # type: ignore[no-untyped-def]
    return np.float64(rng_next(state) >> S11) * INV53


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
def board_strengths(tables, combos, deck, board, strengths, cum):  # type: ignore[no-untyped-def]
    """``strengths[s]``: every combo's strength with the first 2 + s cards of the board
    ``deck[0:5]`` (s = 1, 2, 3; 0 where blocked); ``cum[s, v]``: how many combos not
    blocked by the board have strength below ``v``."""
    for j in range(5):
        board[j] = deck[j]
    for s in range(1, 4):
        combos_on_board_kernel(tables, combos, board, 2 + s, strengths[s])
        row = cum[s]
        for v in range(row.shape[0]):
            row[v] = 0
        for k in range(combos.shape[0]):
            v = strengths[s, k]
            if v > 0:
                row[v + 1] += 1
        for v in range(1, row.shape[0]):
            row[v] += row[v - 1]


@njit(cache=True)
def hand_strength_cum(st, cum, combo_index, a, b):  # type: ignore[no-untyped-def]
    """:func:`pokerlab.blueprint.cards.hand_strength` (the same float, bit for bit) from the
    board's cumulative strength counts: all combos, minus the ~100 sharing a card with
    the hand."""
    mine = st[combo_index[a, b]]
    less = cum[mine]
    eq = cum[mine + 1] - cum[mine]
    n = cum[cum.shape[0] - 1]
    for x in range(52):
        if x != a:
            v = st[combo_index[a, x]]
            if v > 0:
                n -= 1
                if v < mine:
                    less -= 1
                elif v == mine:
                    eq -= 1
        if x != b and x != a:
            v = st[combo_index[b, x]]
            if v > 0:
                n -= 1
                if v < mine:
                    less -= 1
                elif v == mine:
                    eq -= 1
    if n <= 0:
        return 0.5
    return (np.float64(less) + 0.5 * np.float64(eq)) / np.float64(n)


@njit(cache=True)
def _street_buckets(s, cards, bucket, nbuckets, thresholds, class_of, combo_index, tables,
                    combos, strengths, cum):  # type: ignore[no-untyped-def]
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
        a = cards[2 * p]
        b = cards[2 * p + 1]
        hs = hand_strength_cum(strengths[s], cum[s], combo_index, a, b)
        k = 0
        for i in range(nbuckets[s] - 1):
            if hs > thresholds[s, i]:
                k += 1
        bucket[p, s] = k


@njit(cache=True)
def _matching(regret, base, n, out):  # type: ignore[no-untyped-def]
    """Regret matching of ``regret[base:base + n]`` into ``out[:n]`` (the one shared
    :func:`pokerlab.solvers.regret.regret_matching`)."""
    regret_matching(regret[base:base + n], out[:n])


@njit(cache=True)
def update_regrets(regret, base, n, util, explored, v, floor, int_regret):  # type: ignore[no-untyped-def]
    """``regret[base + a] += util[a] - v`` for the explored actions, floored at ``floor``
    (int tables: rounded to whole chips, saturating at 2e9)."""
    for a in range(n):
        if not explored[a]:
            continue
        r = np.float64(regret[base + a]) + (util[a] - v)
        if int_regret:
            r = math.floor(r + 0.5)
            if r > INT_MAX:
                r = INT_MAX
        if r < floor:
            r = floor
        regret[base + a] = r


@njit(cache=True)
def terminal_value(node, trav, kind, street, com0, com1, outcome, allin_d, cidx):  # type: ignore[no-untyped-def]
    """Chips won by the traverser at a terminal node."""
    c0 = com0[node]
    c1 = com1[node]
    if kind[node] == FOLD_TERMINAL:
        v0 = np.float64(c1) if c0 > c1 else -np.float64(c0)
    else:
        m = np.float64(min(c0, c1))
        if street[node] == 0 and allin_d.shape[0] > 0:
            v0 = m * allin_d[cidx[0], cidx[1]]
        else:
            v0 = m * outcome
    return v0 if trav == 0 else -v0


@njit(cache=True)
def traverse(trav, prune, kind, actor, street, child_start, num_children, child_node, com0,
             com1, node_offset, regret, int_regret, avg, avg_mask, bucket, ready, cards, outcome,
             nbuckets, thresholds, class_of, combo_index, tables, combos, strengths, cum, sig,
             util, explored, fnode, fbase, fact, fval, sig_opp, state, params_f, allin_d,
             cidx, lock_sig, lock_row, lock_on):  # type: ignore[no-untyped-def]
    """One external-sampling traversal from the root (iterative: an explicit stack of the
    traverser's decision nodes; opponent nodes are tail steps).  Returns the root value.
    With ``lock_on``, an opponent row whose first value has ``lock_row`` set plays the fixed
    ``lock_sig`` instead of regret matching (node locking; no average-strategy update)."""
    thr = params_f[F_PRUNE_THRESHOLD]
    floor = params_f[F_REGRET_FLOOR]
    depth = -1
    node = 0
    while True:
        # descend from `node` to a terminal (value in ret) or a new traverser frame
        pushed = False
        ret = 0.0
        while True:
            if kind[node] != DECISION:
                ret = terminal_value(node, trav, kind, street, com0, com1, outcome, allin_d,
                                     cidx)
                break
            s = street[node]
            if not ready[s]:
                _street_buckets(s, cards, bucket, nbuckets, thresholds, class_of, combo_index,
                                tables, combos, strengths, cum)
                ready[s] = True
            p = actor[node]
            n = num_children[node]
            base = node_offset[node] + bucket[p, s] * n
            if p != trav:
                if lock_on and lock_row[base]:
                    for a in range(n):
                        sig_opp[a] = lock_sig[base + a]
                else:
                    _matching(regret, base, n, sig_opp)
                    if avg_mask[s]:
                        for a in range(n):
                            avg[base + a] += sig_opp[a]
                x = rng_uniform(state)
                pick = n - 1
                acc = 0.0
                for a in range(n):
                    acc += sig_opp[a]
                    if x < acc:
                        pick = a
                        break
                node = child_node[child_start[node] + pick]
                continue
            depth += 1
            fnode[depth] = node
            fbase[depth] = base
            fact[depth] = -1
            fval[depth] = 0.0
            _matching(regret, base, n, sig[depth])
            pushed = True
            break
        if not pushed:
            if depth < 0:
                return ret
            a = fact[depth]
            util[depth, a] = ret
            fval[depth] += sig[depth, a] * ret
        # advance the frame on top; pop finished frames
        while True:
            fn = fnode[depth]
            n = num_children[fn]
            cs = child_start[fn]
            a = fact[depth] + 1
            while a < n:
                ch = child_node[cs + a]
                if (prune and street[fn] < 3 and kind[ch] == DECISION
                        and np.float64(regret[fbase[depth] + a]) < thr):
                    explored[depth, a] = False
                    a += 1
                    continue
                break
            if a < n:
                explored[depth, a] = True
                fact[depth] = a
                node = child_node[cs + a]
                break
            v = fval[depth]
            update_regrets(regret, fbase[depth], n, util[depth], explored[depth], v, floor,
                           int_regret)
            depth -= 1
            if depth < 0:
                return v
            pa = fact[depth]
            util[depth, pa] = v
            fval[depth] += sig[depth, pa] * v


@njit(cache=True)
def snapshot(kind, street, num_children, node_offset, nbuckets, regret, snap, tmp):  # type: ignore[no-untyped-def]
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        n = num_children[node]
        for b in range(nbuckets[street[node]]):
            base = node_offset[node] + b * n
            _matching(regret, base, n, tmp)
            for a in range(n):
                snap[base + a] += tmp[a]


@njit(cache=True)
def run_iterations(t0, n, kind, actor, street, child_start, num_children, child_node, com0,
                   com1, node_offset, regret, int_regret, avg, avg_mask, snap, nbuckets,
                   thresholds, class_of, combo_index, tables, combos, state, deck, params_i,
                   params_f, max_depth, max_actions, allin_d):  # type: ignore[no-untyped-def]
    """Run iterations ``t0 + 1 .. t0 + n``; returns the number of node visits."""
    return run_iterations_locked(t0, n, kind, actor, street, child_start, num_children,
                                 child_node, com0, com1, node_offset, regret, int_regret, avg,
                                 avg_mask, snap, nbuckets, thresholds, class_of, combo_index,
                                 tables, combos, state, deck, params_i, params_f, max_depth,
                                 max_actions, allin_d, np.zeros(0), np.zeros(0, dtype=np.bool_),
                                 1.0)


@njit(cache=True)
def run_iterations_locked(t0, n, kind, actor, street, child_start, num_children, child_node,
                          com0, com1, node_offset, regret, int_regret, avg, avg_mask, snap,
                          nbuckets, thresholds, class_of, combo_index, tables, combos, state,
                          deck, params_i, params_f, max_depth, max_actions, allin_d, lock_sig,
                          lock_row, lock_p):  # type: ignore[no-untyped-def]
    """:func:`run_iterations` with node locking: ``lock_sig`` (the fixed probabilities, tree
    layout) is played at the opponent's rows flagged in ``lock_row`` (flag at a row's first
    value), in an iteration with probability ``lock_p`` (one extra uniform draw per
    iteration when ``0 < lock_p < 1``; none when nothing is locked, so an empty lock is
    bit-identical to :func:`run_iterations`)."""
    cards = np.zeros(9, dtype=np.int64)
    bucket = np.zeros((2, 4), dtype=np.int64)
    ready = np.zeros(4, dtype=np.bool_)
    strengths = np.zeros((4, combos.shape[0]), dtype=np.int32)
    cum = np.zeros((4, NUM_STRENGTHS + 3), dtype=np.int64)  # strengths 0..NUM_STRENGTHS+1
    board = np.zeros(5, dtype=np.int64)
    reuse = max(params_i[P_BOARD_REUSE], 1)
    need_hs = nbuckets[1] > 1 or nbuckets[2] > 1 or nbuckets[3] > 1
    if need_hs and t0 % reuse != 0:  # resuming inside a block sharing one board
        board_strengths(tables, combos, deck, board, strengths, cum)
    sig = np.zeros((max_depth + 1, max_actions))
    util = np.zeros((max_depth + 1, max_actions))
    explored = np.zeros((max_depth + 1, max_actions), dtype=np.bool_)
    tmp = np.zeros(max_actions)
    hand = np.zeros(7, dtype=np.int64)
    cidx = np.zeros(2, dtype=np.int64)
    fnode = np.zeros(max_depth + 1, dtype=np.int64)
    fbase = np.zeros(max_depth + 1, dtype=np.int64)
    fact = np.zeros(max_depth + 1, dtype=np.int64)
    fval = np.zeros(max_depth + 1)
    sig_opp = np.zeros(max_actions)
    lcfr_until = params_i[P_LCFR_UNTIL]
    lcfr_every = params_i[P_LCFR_EVERY]
    for it in range(n):
        t = t0 + it + 1
        if lcfr_every > 0 and t <= lcfr_until and t % lcfr_every == 0:
            tt = np.float64(t // lcfr_every)
            d = tt / (tt + 1.0)
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
            board_strengths(tables, combos, deck, board, strengths, cum)
        for s in range(4):
            ready[s] = False
        for j in range(5):
            hand[2 + j] = cards[4 + j]
        hand[0] = cards[0]
        hand[1] = cards[1]
        s0 = strength_nb(tables, hand, 7)
        hand[0] = cards[2]
        hand[1] = cards[3]
        s1 = strength_nb(tables, hand, 7)
        outcome = 1.0 if s0 > s1 else (-1.0 if s0 < s1 else 0.0)
        cidx[0] = combo_index[cards[0], cards[1]]
        cidx[1] = combo_index[cards[2], cards[3]]
        trav = t % 2 if params_i[P_TRAV_FIXED] < 0 else params_i[P_TRAV_FIXED]
        u = rng_uniform(state)
        prune = t > params_i[P_PRUNE_AFTER] and params_i[P_PRUNE_AFTER] >= 0 and (
            u < params_f[F_PRUNE_PROB])
        lock_on = lock_row.shape[0] > 0 and lock_p > 0.0
        if lock_on and lock_p < 1.0:
            lock_on = rng_uniform(state) < lock_p
        traverse(trav, prune, kind, actor, street, child_start, num_children, child_node,
                 com0, com1, node_offset, regret, int_regret, avg, avg_mask, bucket, ready,
                 cards, outcome, nbuckets, thresholds, class_of, combo_index, tables, combos,
                 strengths, cum, sig, util, explored, fnode, fbase, fact, fval, sig_opp,
                 state, params_f, allin_d, cidx, lock_sig, lock_row, lock_on)
        se = params_i[P_SNAP_EVERY]
        if se > 0 and t > params_i[P_SNAP_AFTER] and t % se == 0:
            snapshot(kind, street, num_children, node_offset, nbuckets, regret, snap, tmp)
    return n


# ---------------------------------------------------------------------- Python twin
class _Rng:
    def __init__(self, state: np.ndarray) -> None:
        self.x = int(state[0])

    def uniform(self) -> float:
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self.x = x
        return float(((x * 0x2545F4914F6CDD1D) & MASK64) >> 11) * INV53


def run_iterations_py(t0: int, n: int, tree: Any, node_offset: np.ndarray, regret: np.ndarray,
                      avg: np.ndarray, avg_mask: np.ndarray, snap: np.ndarray,
                      spec_thresholds: np.ndarray, nbuckets: np.ndarray, state: np.ndarray,
                      deck: np.ndarray, params_i: np.ndarray, params_f: np.ndarray,
                      allin_d: np.ndarray, lock_sig: np.ndarray | None = None,
                      lock_row: np.ndarray | None = None, lock_p: float = 1.0) -> None:
    """Plain-Python twin of :func:`run_iterations` / :func:`run_iterations_locked` (slow;
    for parity tests)."""
    from pokerlab.blueprint.cards import bucket_of_hs
    from pokerlab.cards.cards import CLASS_OF_COMBO, COMBO_INDEX
    from pokerlab.cards.evaluator import strength, strengths_on_board

    rng = _Rng(state)
    int_regret = regret.dtype.kind == "i"
    kind, street, actor = tree.kind, tree.street, tree.actor

    def matching(base: int, k: int) -> list[float]:
        pos = [max(float(regret[base + a]), 0.0) for a in range(k)]
        tot = 0.0
        for r in pos:
            if r > 0.0:
                tot += r
        return [(r / tot if r > 0 else 0.0) for r in pos] if tot > 0 else [1.0 / k] * k

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
                else:
                    st = strengths_on_board(cards[4:4 + 2 + s])
                    from pokerlab.blueprint.cards import _combos64, hand_strength

                    hs = float(hand_strength.py_func(st, _combos64(), a, b,
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
            x = rng.uniform()
            pick = nk - 1
            acc = 0.0
            for a in range(nk):
                acc += sig[a]
                if x < acc:
                    pick = a
                    break
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
