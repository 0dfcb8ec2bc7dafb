"""The fast path of matches: two indexed policies play whole hands in one numba kernel.

When both agents of a HUNL match offer a :class:`KernelSide` (the capability method
``kernel_side()``: ``policy:`` agents holding an
:class:`~pokerlab.policy.indexed.IndexedPolicy`) over the **same** compiled betting tree, at
the match's own stacks and blinds, no translation is ever needed: every action of either
agent is an edge of the tree.  :func:`policy_match_kernel` then plays hands entirely on
flat arrays -- per hand it deals the nine cards (the same SplitMix64 stream as the Python
path), looks up each player's card bucket on every street through the hand indexer and
the agent's bucket tables, walks the :class:`~pokerlab.abstraction.action_tree.ActionTree`
sampling each decision from the acting agent's policy row (dense or CSR), and pays the
terminal from the tree's commitments (a showdown is judged by the 7-card evaluator).

Its plain-Python twin is the ordinary match path (:func:`pokerlab.evaluation.matches.
play_hunl_hand` with :class:`~pokerlab.agents.policy_agent.HUNLPolicyAgent`): same seeds,
same sampling rule, so the two give identical per-hand results (tested, with table
buckets, hand-strength buckets, dense and CSR policies).  The kernel's pieces have their
twins there too: :func:`row_start` = ``IndexedPolicy.row_start``, :func:`_sample` =
:func:`pokerlab.agents.policy_agent.sample_index`, :func:`_hs_bucket` =
``CardSpec.bucket``, :func:`pokerlab.rng.stream_seed_nb` = :func:`pokerlab.evaluation.matches.hand_seed`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from pokerlab.abstraction.indexer_kernels import SCRATCH, index_into
from pokerlab.cards.evaluator_kernels import combos_on_board_kernel, strength_nb
from pokerlab.cards.range_kernels import hand_strength
from pokerlab.holdem.engine_kernels import deal_nine
from pokerlab.kinds import DECISION, FOLD
from pokerlab.policy.kernel_side import kernel_side
from pokerlab.rng import stream_seed_nb, uniform01_nb


@njit(cache=True)
def row_start(off, rp, rb, csr, node, bucket, k):  # type: ignore[no-untyped-def]
    if not csr:
        return off[node] + bucket * k
    lo = rp[node]
    hi = rp[node + 1]
    a = lo
    b = hi
    while a < b:
        m = (a + b) // 2
        if rb[m] < bucket:
            a = m + 1
        else:
            b = m
    if a < hi and rb[a] == bucket:
        return off[node] + (a - lo) * k
    return -1


@njit(cache=True)
def _sample(probs, s, k, rs):  # type: ignore[no-untyped-def]
    """The shared sampling rule (see :mod:`pokerlab.agents.policy_agent`)."""
    total = 0.0
    if s >= 0:
        for j in range(k):
            total += np.float64(probs[s + j])
    uniform = s < 0 or total <= 0.0
    if uniform:
        total = float(k)
    u = uniform01_nb(rs)
    target = u * total
    acc = 0.0
    for j in range(k):
        acc += 1.0 if uniform else np.float64(probs[s + j])
        if target < acc:
            return j
    return k - 1


@njit(cache=True)
def table_bucket(T0, T1, T2, T3, t0, t1, t2, t3, hand, s, scratch):  # type: ignore[no-untyped-def]
    if s == 0:
        return np.int64(t0[index_into(T0, hand[:2], scratch)])
    if s == 1:
        return np.int64(t1[index_into(T1, hand[:5], scratch)])
    if s == 2:
        return np.int64(t2[index_into(T2, hand[:6], scratch)])
    return np.int64(t3[index_into(T3, hand[:7], scratch)])


@njit(cache=True)
def _hs_bucket(ET, combos, combo_index, class_of, thr, pre169, board_str, have_str, cards,
               hand, s):  # type: ignore[no-untyped-def]
    """Twin of :meth:`pokerlab.abstraction.hs_cards.CardSpec.bucket` (hand strength vs every
    combo on the current board, counted against the thresholds)."""
    a = hand[0]
    b = hand[1]
    if s == 0:
        return np.int64(class_of[combo_index[a, b]]) if pre169 else np.int64(0)
    if have_str[s] == 0:
        combos_on_board_kernel(ET, combos, cards[4:], s + 2, board_str[s])
        have_str[s] = 1
    st = board_str[s]
    mine = st[combo_index[a, b]]
    hs = hand_strength(st, combos, a, b, mine)
    k = 0
    for j in range(thr.shape[1]):
        if hs > thr[s, j]:
            k += 1
    return np.int64(k)


@njit(cache=True)
def policy_match_kernel(start, stop, duplicate, seed,  # type: ignore[no-untyped-def]
                        kind, actor, street, child_start, num_children, child_node,
                        committed0, committed1,
                        off_a, probs_a, rp_a, rb_a, csr_a, use_a, mode_a, thr_a, pre_a,
                        ta0, ta1, ta2, ta3,
                        off_b, probs_b, rp_b, rb_b, csr_b, use_b, mode_b, thr_b, pre_b,
                        tb0, tb1, tb2, tb3,
                        T0, T1, T2, T3, ET, combos, combo_index, class_of, out):
    """Hands ``start..stop-1``; ``out[i - start]`` = A's chips.

    Per agent: ``mode`` 0 looks buckets up in tables ``t0..t3`` over the hand indexer
    (``use[s]`` = 0: bucket 0 on street ``s``); mode 1 computes hand-strength buckets with
    thresholds ``thr`` (``pre`` = 169 lossless preflop classes, else 1 bucket).  Buckets
    are computed when a decision first needs them."""
    rs = np.zeros(1, dtype=np.uint64)
    ra = np.zeros(1, dtype=np.uint64)
    rbg = np.zeros(1, dtype=np.uint64)
    deck = np.empty(52, dtype=np.int64)
    cards = np.empty(9, dtype=np.int64)
    hand = np.empty(7, dtype=np.int64)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    bk = np.zeros((2, 4), dtype=np.int64)  # [agent, street], -1 = not computed yet
    board_str = np.zeros((4, combos.shape[0]), dtype=np.int32)
    have_str = np.zeros(4, dtype=np.int64)
    for i in range(start, stop):
        k = i // 2 if duplicate else i
        a_seat = i % 2
        rs[0] = stream_seed_nb(seed, k, 0)
        deal_nine(rs, deck, cards)
        ra[0] = stream_seed_nb(seed, k, 1)
        rbg[0] = stream_seed_nb(seed, k, 2)
        bk[:, :] = -1
        have_str[:] = 0
        for j in range(5):
            hand[2 + j] = cards[4 + j]
        node = 0
        while kind[node] == DECISION:
            who = actor[node]
            st = np.int64(street[node])
            kk = np.int64(num_children[node])
            ag = 0 if who == a_seat else 1
            if bk[ag, st] < 0:
                hand[0] = cards[2 * who]
                hand[1] = cards[2 * who + 1]
                if ag == 0:
                    if mode_a == 1:
                        bk[0, st] = _hs_bucket(ET, combos, combo_index, class_of, thr_a, pre_a,
                                               board_str, have_str, cards, hand, st)
                    elif use_a[st] == 0:
                        bk[0, st] = 0
                    else:
                        bk[0, st] = table_bucket(T0, T1, T2, T3, ta0, ta1, ta2, ta3, hand,
                                                  st, scratch)
                else:
                    if mode_b == 1:
                        bk[1, st] = _hs_bucket(ET, combos, combo_index, class_of, thr_b, pre_b,
                                               board_str, have_str, cards, hand, st)
                    elif use_b[st] == 0:
                        bk[1, st] = 0
                    else:
                        bk[1, st] = table_bucket(T0, T1, T2, T3, tb0, tb1, tb2, tb3, hand,
                                                  st, scratch)
            if ag == 0:
                r0 = row_start(off_a, rp_a, rb_a, csr_a, node, bk[0, st], kk)
                j = _sample(probs_a, r0, kk, ra)
            else:
                r0 = row_start(off_b, rp_b, rb_b, csr_b, node, bk[1, st], kk)
                j = _sample(probs_b, r0, kk, rbg)
            node = child_node[child_start[node] + j]
        c0 = committed0[node]
        c1 = committed1[node]
        if kind[node] == FOLD:  # the folder has fewer chips in
            pay0 = c1 if c0 > c1 else -c0
        else:
            hand[0] = cards[0]
            hand[1] = cards[1]
            s0 = strength_nb(ET, hand, 7)
            hand[0] = cards[2]
            hand[1] = cards[3]
            s1 = strength_nb(ET, hand, 7)
            m = min(c0, c1)
            pay0 = m if s0 > s1 else (-m if s1 > s0 else 0)
        out[i - start] = pay0 if a_seat == 0 else -pay0
    return 0


# ------------------------------------------------------------------------ driver
def eligible(agent_a: Any, agent_b: Any, config: Any) -> bool:
    """True when both agents offer a kernel side over the same tree at ``config``."""
    side_a, side_b = kernel_side(agent_a), kernel_side(agent_b)
    if side_a is None or side_b is None or side_a.config != config or side_b.config != config:
        return False
    return bool(side_a.tree.fingerprint() == side_b.tree.fingerprint())


def run_kernel(agent_a: Any, agent_b: Any, start: int, stop: int, duplicate: bool,
               seed: int) -> np.ndarray:
    """A's chips in hands ``start..stop-1`` (both agents :func:`eligible`)."""
    from pokerlab.abstraction.indexer import street_indexer
    from pokerlab.cards.cards import CLASS_OF_COMBO, COMBO_INDEX, COMBOS
    from pokerlab.cards.evaluator import eval_tables

    side_a, side_b = kernel_side(agent_a), kernel_side(agent_b)
    assert side_a is not None and side_b is not None, "run_kernel needs eligible agents"
    t = side_a.tree
    out = np.zeros(stop - start, dtype=np.int64)
    Ts = [street_indexer(s).tables for s in range(4)]
    policy_match_kernel(start, stop, duplicate, seed, t.kind, t.actor, t.street,
                        t.child_start, t.num_children, t.child_node, t.committed0,
                        t.committed1, *side_a.arrays, *side_b.arrays,
                        *Ts, eval_tables(), np.ascontiguousarray(COMBOS, dtype=np.int64),
                        np.ascontiguousarray(COMBO_INDEX, dtype=np.int64),
                        np.ascontiguousarray(CLASS_OF_COMBO, dtype=np.int64),
                        out)  # type: ignore[call-arg]
    return out.astype(np.float64)


def fast_match(agent_a: Any, agent_b: Any, config: Any) -> np.ndarray | None:
    """A's chips per hand of the match ``config`` (a ``MatchConfig``) by the kernel, or
    None when the agents are not :func:`eligible`."""
    if not eligible(agent_a, agent_b, config.holdem_config()):
        return None
    return run_kernel(agent_a, agent_b, 0, config.hands, config.duplicate, config.seed)
