"""Numba kernels of the depth-limited leaf values (:mod:`pokerlab.agents.continuation`).

One leaf's continuation is a flat tree in depth-first pre-order (``nodes[v, field]``,
fields below): node 0 is a chance node over the blueprint's translation branches at the
leaf, then the decisions of the rest of the hand (the blueprint's real actions), chance
nodes where a real action has several translations, and fold / showdown terminals
(``pay[v, player, WIN/TIE/LOSE]``).  A node's subtree is the run ``v .. END - 1``;
``PCOL`` is its edge's column at the parent (a decision) or its branch (a chance node,
probability ``pprob[v]``); ``HASCH``: a chooser decision lies in the subtree.

Per runout (the board cards still to come) the hands are the ``n = C(47, 2) = 1081``
combos the five board cards leave, in ascending showdown strength: ``hands[r]`` (combo
ids), ``gend[r]`` (the end of each hand's group of equal strength), ``clist[r, t, c]``
(the position of the ``t``-th hand holding live card ``c``), ``hidx[r]`` (where each
hand's card sums and card prefixes are in the per-card prefix table) and
``buckets[r, slot]`` (the blueprint's card bucket on the street of ``slot``: 0 the street
after the leaf, 1 the river after a flop leaf).  A decision's action probabilities are
``rows[ROFF + bucket * NCOLS + column]`` (the blueprint) and
``vrows[VOFF + (variant * NB + bucket) * NCOLS + column]`` (the chooser's variants);
``NB == 1`` (no blueprint node: check/call) reads row 0 for every hand.

A runout is one walk of the tree in pre-order with a reach buffer and a value buffer per
depth (a child that does not change the reach shares its parent's): the reach of the
player whose range is given goes down, times its action probabilities (and the branch
probabilities of chance nodes); a terminal's values against it are O(n) with card
removal (:func:`fold_values`, :func:`showdown_values`: prefix sums in strength order and
along each card's hands, inclusion-exclusion over the hand's two cards, no O(n^2) pair
loop); values go up, summed over the other player's actions and chance, weighted by the
valued player's own probabilities at its decisions.

* :func:`chooser_runout`: the chooser valued, its ``k`` variants in one walk (a value is
  a common row plus ``k`` variant rows that exist only above chooser decisions);
* :func:`other_runout`: the searcher valued against the chooser's reach split by variant
  (the variant rows go down only where a chooser decision follows, their sum beside).

Runouts run in parallel (``prange``) in chunks of :data:`CHUNK`, each into its own
buffer, and are added in runout order: the result does not depend on the thread count
(the ``_serial`` twins give the same numbers bit for bit).  The plain-Python twin of the
whole computation is :func:`pokerlab.agents.continuation_reference.continuation_reference`
(recursive, full 1326-vectors, pairwise showdowns); tests/test_continuation.py checks
that they agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.kinds import CHANCE, DECISION, FOLD

# node fields
KIND, ACTOR, SLOT, PARENT, PCOL, DEPTH, END, NCOLS, ROFF, VOFF, NB, HASCH = range(12)
NUM_FIELDS = 12

CHUNK = 64
"""Runouts evaluated in parallel before their values are added (in runout order)."""

WIN, TIE, LOSE = 0, 1, 2
"""``pay[v, player, WIN/TIE/LOSE]``: the player's value at terminal ``v`` (a fold pays
the same in all three)."""


# ----------------------------------------------------------------------------- terminals
LIVE_CARDS = 47
"""Cards not on a five-card board; each is in ``CARD_HANDS`` live combos."""
CARD_HANDS = 46
PSTRIDE = CARD_HANDS + 1
"""Rows of the per-card prefix sums: ``P[t * LIVE_CARDS + c]`` is the reach of the first
``t`` hands (by position) holding live card ``c``, ``t = 0 .. CARD_HANDS``."""
BLOCK = 16
"""Block length of the two-level prefix sum over the hands (short dependency chains)."""


@njit(cache=True)
def _card_totals(reach, clist, P):  # type: ignore[no-untyped-def]
    """``P[CARD_HANDS * LIVE_CARDS + c]`` <- the reach of the hands holding live card
    ``c`` (``clist[t, c]``: the position of the ``t``-th of them): row by row, the 47
    cards side by side, no read-modify-write chains.  Returns the total reach (every
    hand holds two cards)."""
    base = CARD_HANDS * LIVE_CARDS
    for c in range(LIVE_CARDS):
        P[base + c] = 0.0
    for t in range(CARD_HANDS):
        for c in range(LIVE_CARDS):
            P[base + c] += reach[clist[t, c]]
    tot = 0.0
    for c in range(LIVE_CARDS):
        tot += P[base + c]
    return 0.5 * tot


@njit(cache=True)
def fold_values(pay, reach, clist, hidx, P, out):  # type: ignore[no-untyped-def]
    """``out[i] = pay *`` the opponent's reach over the hands sharing no card with hand
    ``i``: the total minus its two cards' sums plus its own (inclusion-exclusion).
    ``hidx[0:2, i]``: where hand ``i``'s two card sums are in ``P`` (scratch of
    ``PSTRIDE * LIVE_CARDS``)."""
    tot = _card_totals(reach, clist, P)
    for i in range(reach.shape[0]):
        out[i] = pay * (tot - P[hidx[0, i]] - P[hidx[1, i]] + reach[i])


@njit(cache=True)
def _prefix(reach, Q):  # type: ignore[no-untyped-def]
    """``Q[i]`` <- the reach of the hands before position ``i`` (``i = 0 .. n``) by blocks
    of :data:`BLOCK`: prefixes within each block (independent short chains), then one
    chain over the block sums (kept in ``Q[n + 1:]``); returns the total."""
    n = reach.shape[0]
    nblocks = (n + BLOCK - 1) // BLOCK
    bs = Q[n + 1:]
    for b in range(nblocks):
        s = 0.0
        for i in range(b * BLOCK, min(n, b * BLOCK + BLOCK)):
            Q[i] = s
            s += reach[i]
        bs[b] = s
    carry = 0.0
    for b in range(nblocks):
        x = bs[b]
        bs[b] = carry
        carry += x
    for b in range(1, nblocks):
        c = bs[b]
        for i in range(b * BLOCK, min(n, b * BLOCK + BLOCK)):
            Q[i] += c
    Q[n] = carry
    return carry


@njit(cache=True)
def showdown_values(win, tie, lose, reach, clist, hidx, gend, P, Q, out):  # type: ignore[no-untyped-def]
    """``out[i] = win * W + tie * T + lose * L``: the opponent's reach over the hands
    sharing no card with hand ``i`` that are weaker (W), as strong (T), stronger (L).

    Hands in ascending strength, ``gend[i]`` the end of ``i``'s group of equal strength.
    Prefix sums of the reach in that order (``Q``, scratch of ``n + 1``) and along each
    live card's hands (``P``); ``hidx[2:6, i]``: the positions in ``P`` of the prefixes of
    hand ``i``'s two cards before its group and up to its end.  Then W = (all before the
    group) - (the two cards' prefixes before the group), T likewise over the group plus
    the hand itself (it holds both cards), L = all compatible - W - T: O(n), pure
    gathers."""
    n = reach.shape[0]
    for c in range(LIVE_CARDS):
        P[c] = 0.0
    for t in range(CARD_HANDS):
        row = t * LIVE_CARDS
        for c in range(LIVE_CARDS):
            P[row + LIVE_CARDS + c] = P[row + c] + reach[clist[t, c]]
    tot = _prefix(reach, Q)
    dw = win - lose
    dt = tie - lose
    q = 0
    while q < n:
        e = gend[q]
        below = Q[q]
        group = Q[e] - below
        for i in range(q, e):
            r = reach[i]
            fa = P[hidx[2, i]]
            fb = P[hidx[4, i]]
            every = tot - P[hidx[0, i]] - P[hidx[1, i]] + r
            weaker = below - fa - fb
            same = group - (P[hidx[3, i]] - fa) - (P[hidx[5, i]] - fb) + r
            out[i] = lose * every + dw * weaker + dt * same
        q = e


@njit(cache=True)
def _terminal(nodes, pay, v, valued, reach, clist, hidx, gend, P, Q, out):  # type: ignore[no-untyped-def]
    if nodes[v, KIND] == FOLD:
        fold_values(pay[v, valued, WIN], reach, clist, hidx, P, out)
    else:
        showdown_values(pay[v, valued, WIN], pay[v, valued, TIE], pay[v, valued, LOSE], reach,
                        clist, hidx, gend, P, Q, out)


# ----------------------------------------------------------------------------- chooser valued
@njit(cache=True)
def _chooser_up(nodes, vrows, k, chooser, bk, p, col, cv, vv, hv, d, tv, terminal):  # type: ignore[no-untyped-def]
    """Add the values of edge ``col`` of node ``p`` (at depth ``d - 1``) to ``p``'s: the
    child's common part ``cv[d]`` (or the terminal's ``tv``) and variant part ``vv[d]``
    (when ``hv[d]``), weighted by the chooser's variant rows at its own decisions."""
    n = tv.shape[0]
    if nodes[p, KIND] == DECISION and nodes[p, ACTOR] == chooser:
        nc = nodes[p, NCOLS]
        stride = nc if nodes[p, NB] > 1 else 0
        b = bk[nodes[p, SLOT]]
        first = not hv[d - 1]
        child_var = (not terminal) and hv[d]
        src = tv if terminal else cv[d]
        for j in range(k):
            base = nodes[p, VOFF] + j * nodes[p, NB] * nc + col
            acc = vv[d - 1, j]
            if child_var:
                cj = vv[d, j]
                if first:
                    for i in range(n):
                        acc[i] = vrows[base + b[i] * stride] * (src[i] + cj[i])
                else:
                    for i in range(n):
                        acc[i] += vrows[base + b[i] * stride] * (src[i] + cj[i])
            elif first:
                for i in range(n):
                    acc[i] = vrows[base + b[i] * stride] * src[i]
            else:
                for i in range(n):
                    acc[i] += vrows[base + b[i] * stride] * src[i]
        hv[d - 1] = True
        return
    acc = cv[d - 1]
    if terminal:
        for i in range(n):
            acc[i] += tv[i]
        return
    src = cv[d]
    for i in range(n):
        acc[i] += src[i]
    if hv[d]:
        if hv[d - 1]:
            for j in range(k):
                for i in range(n):
                    vv[d - 1, j, i] += vv[d, j, i]
        else:
            for j in range(k):
                for i in range(n):
                    vv[d - 1, j, i] = vv[d, j, i]
            hv[d - 1] = True


@njit(cache=True, inline="always")
def _walk_scratch(depth, n):  # type: ignore[no-untyped-def]
    """The work areas of one runout's walk: the reach row of each depth (``ridx``), the
    node at each depth (``stack``), the per-card prefix table ``P`` (:func:`fold_values`),
    the strength-order prefixes ``Q`` (:func:`_prefix`) and a terminal's values ``tv``."""
    ridx = np.zeros(depth, dtype=np.int64)
    stack = np.zeros(depth, dtype=np.int64)
    P = np.empty(LIVE_CARDS * PSTRIDE)
    Q = np.empty(n + 1 + (n + BLOCK - 1) // BLOCK)
    tv = np.empty(n)
    return ridx, stack, P, Q, tv


@njit(cache=True)
def chooser_runout(nodes, pprob, pay, rows, vrows, k, chooser, depth, bk, clist, hidx, gend,
                   reach0, out):  # type: ignore[no-untyped-def]
    """One runout, the chooser valued: ``out[j, i]`` its values of hand ``i`` playing
    variant ``j`` against the searcher's blueprint and reach ``reach0[i]``.  A value is
    kept as a common part plus a variant part that exists only above chooser decisions
    (``hv``), so terminals and the searcher's decisions add one row, not ``k``."""
    N = nodes.shape[0]
    n = reach0.shape[0]
    rb = np.empty((depth, n))
    cv = np.empty((depth, n))
    vv = np.empty((depth, k, n))
    hv = np.zeros(depth, dtype=np.bool_)
    ridx, stack, P, Q, tv = _walk_scratch(depth, n)
    for v in range(N):
        d = nodes[v, DEPTH]
        stack[d] = v
        if v == 0:
            for i in range(n):
                rb[0, i] = reach0[i]
            ridx[0] = 0
        else:
            p = nodes[v, PARENT]
            src = rb[ridx[d - 1]]
            dst = rb[d]
            if nodes[p, KIND] == CHANCE:
                pr = pprob[v]
                for i in range(n):
                    dst[i] = src[i] * pr
                ridx[d] = d
            elif nodes[p, ACTOR] != chooser:
                nc = nodes[p, NCOLS]
                stride = nc if nodes[p, NB] > 1 else 0
                base = nodes[p, ROFF] + nodes[v, PCOL]
                b = bk[nodes[p, SLOT]]
                for i in range(n):
                    dst[i] = src[i] * rows[base + b[i] * stride]
                ridx[d] = d
            else:
                ridx[d] = ridx[d - 1]
        kind = nodes[v, KIND]
        if kind == DECISION or kind == CHANCE:
            for i in range(n):
                cv[d, i] = 0.0
            hv[d] = False
            continue
        _terminal(nodes, pay, v, chooser, rb[ridx[d]], clist, hidx, gend, P, Q, tv)
        _chooser_up(nodes, vrows, k, chooser, bk, nodes[v, PARENT], nodes[v, PCOL], cv, vv, hv,
                    d, tv, True)
        dd = d - 1
        while dd >= 1 and nodes[stack[dd], END] == v + 1:
            u = stack[dd]
            _chooser_up(nodes, vrows, k, chooser, bk, nodes[u, PARENT], nodes[u, PCOL], cv, vv,
                        hv, dd, tv, False)
            dd -= 1
    for j in range(k):
        for i in range(n):
            out[j, i] = cv[0, i] + vv[0, j, i] if hv[0] else cv[0, i]


# ----------------------------------------------------------------------------- searcher valued
@njit(cache=True)
def _other_up(nodes, rows, searcher, bk, p, col, src, acc):  # type: ignore[no-untyped-def]
    """Add a child's values ``src`` (edge ``col`` of node ``p``) to ``p``'s ``acc``:
    weighted by the searcher's blueprint rows at its own decisions."""
    n = acc.shape[0]
    if nodes[p, KIND] == DECISION and nodes[p, ACTOR] == searcher:
        nc = nodes[p, NCOLS]
        stride = nc if nodes[p, NB] > 1 else 0
        base = nodes[p, ROFF] + col
        b = bk[nodes[p, SLOT]]
        for i in range(n):
            acc[i] += rows[base + b[i] * stride] * src[i]
    else:
        for i in range(n):
            acc[i] += src[i]


@njit(cache=True)
def other_runout(nodes, pprob, pay, rows, vrows, k, chooser, depth, bk, clist, hidx, gend,
                 reach0, out):  # type: ignore[no-untyped-def]
    """One runout, the searcher valued: ``out[i]`` its values of hand ``i`` (blueprint)
    against the chooser's reach ``reach0[j, i]`` split by variant.  The chooser's total
    reach (over variants) goes down beside the per-variant rows, which are kept only
    where a chooser decision follows (``HASCH``)."""
    N = nodes.shape[0]
    n = reach0.shape[1]
    searcher = 1 - chooser
    rb = np.empty((depth, k, n))
    eb = np.empty((depth, n))
    vb = np.empty((depth, n))
    ridx, stack, P, Q, tv = _walk_scratch(depth, n)
    for v in range(N):
        d = nodes[v, DEPTH]
        stack[d] = v
        if v == 0:
            for i in range(n):
                eb[0, i] = 0.0
            for j in range(k):
                for i in range(n):
                    x = reach0[j, i]
                    rb[0, j, i] = x
                    eb[0, i] += x
            ridx[0] = 0
        else:
            p = nodes[v, PARENT]
            s = ridx[d - 1]
            keep = nodes[v, HASCH] != 0
            if nodes[p, KIND] == CHANCE:
                pr = pprob[v]
                for i in range(n):
                    eb[d, i] = eb[s, i] * pr
                if keep:
                    for j in range(k):
                        for i in range(n):
                            rb[d, j, i] = rb[s, j, i] * pr
                ridx[d] = d
            elif nodes[p, ACTOR] == chooser:
                nc = nodes[p, NCOLS]
                stride = nc if nodes[p, NB] > 1 else 0
                b = bk[nodes[p, SLOT]]
                e = eb[d]
                for i in range(n):
                    e[i] = 0.0
                for j in range(k):
                    base = nodes[p, VOFF] + j * nodes[p, NB] * nc + nodes[v, PCOL]
                    src = rb[s, j]
                    if keep:
                        dst = rb[d, j]
                        for i in range(n):
                            x = src[i] * vrows[base + b[i] * stride]
                            dst[i] = x
                            e[i] += x
                    else:
                        for i in range(n):
                            e[i] += src[i] * vrows[base + b[i] * stride]
                ridx[d] = d
            else:
                ridx[d] = s
        kind = nodes[v, KIND]
        if kind == DECISION or kind == CHANCE:
            for i in range(n):
                vb[d, i] = 0.0
            continue
        _terminal(nodes, pay, v, searcher, eb[ridx[d]], clist, hidx, gend, P, Q, tv)
        _other_up(nodes, rows, searcher, bk, nodes[v, PARENT], nodes[v, PCOL], tv, vb[d - 1])
        dd = d - 1
        while dd >= 1 and nodes[stack[dd], END] == v + 1:
            u = stack[dd]
            _other_up(nodes, rows, searcher, bk, nodes[u, PARENT], nodes[u, PCOL], vb[dd],
                      vb[dd - 1])
            dd -= 1
    for i in range(n):
        out[i] = vb[0, i]


# ----------------------------------------------------------------------------- all runouts
@njit(cache=True, parallel=True)
def chooser_values_parallel(nodes, pprob, pay, rows, vrows, k, chooser, depth, hands, buckets,
                            clist, hidx, gend, sel, weight, reach, out):  # type: ignore[no-untyped-def]
    """``out[j, h] +=`` the chooser's values (variant ``j``) against the searcher's reach
    (1326), each runout of ``sel`` (indices into the per-runout arrays) times ``weight``:
    chunks of runouts in parallel, added in ``sel``'s order."""
    R = sel.shape[0]
    n = hands.shape[1]
    for c0 in range(0, R, CHUNK):
        m = min(CHUNK, R - c0)
        part = np.empty((m, k, n))
        for q in prange(m):
            r = sel[c0 + q]
            r0 = np.empty(n)
            for i in range(n):
                r0[i] = reach[hands[r, i]]
            chooser_runout(nodes, pprob, pay, rows, vrows, k, chooser, depth, buckets[r],
                           clist[r], hidx[r], gend[r], r0, part[q])
        for q in range(m):
            r = sel[c0 + q]
            for j in range(k):
                for i in range(n):
                    out[j, hands[r, i]] += weight * part[q, j, i]


@njit(cache=True)
def chooser_values_serial(nodes, pprob, pay, rows, vrows, k, chooser, depth, hands, buckets,
                          clist, hidx, gend, sel, weight, reach, out):  # type: ignore[no-untyped-def]
    """:func:`chooser_values_parallel` on one thread (the same sums in the same order)."""
    n = hands.shape[1]
    part = np.empty((k, n))
    r0 = np.empty(n)
    for r in sel:
        for i in range(n):
            r0[i] = reach[hands[r, i]]
        chooser_runout(nodes, pprob, pay, rows, vrows, k, chooser, depth, buckets[r],
                       clist[r], hidx[r], gend[r], r0, part)
        for j in range(k):
            for i in range(n):
                out[j, hands[r, i]] += weight * part[j, i]


@njit(cache=True, parallel=True)
def other_values_parallel(nodes, pprob, pay, rows, vrows, k, chooser, depth, hands, buckets,
                          clist, hidx, gend, sel, weight, reach, out):  # type: ignore[no-untyped-def]
    """``out[h] +=`` the searcher's values against the chooser's reach split by variant
    (``reach[j, h]``), each runout of ``sel`` times ``weight`` (parallel as
    :func:`chooser_values_parallel`)."""
    R = sel.shape[0]
    n = hands.shape[1]
    for c0 in range(0, R, CHUNK):
        m = min(CHUNK, R - c0)
        part = np.empty((m, n))
        for q in prange(m):
            r = sel[c0 + q]
            r0 = np.empty((k, n))
            for j in range(k):
                for i in range(n):
                    r0[j, i] = reach[j, hands[r, i]]
            other_runout(nodes, pprob, pay, rows, vrows, k, chooser, depth, buckets[r],
                         clist[r], hidx[r], gend[r], r0, part[q])
        for q in range(m):
            r = sel[c0 + q]
            for i in range(n):
                out[hands[r, i]] += weight * part[q, i]


@njit(cache=True)
def other_values_serial(nodes, pprob, pay, rows, vrows, k, chooser, depth, hands, buckets,
                        clist, hidx, gend, sel, weight, reach, out):  # type: ignore[no-untyped-def]
    """:func:`other_values_parallel` on one thread (the same sums in the same order)."""
    n = hands.shape[1]
    part = np.empty(n)
    r0 = np.empty((k, n))
    for r in sel:
        for j in range(k):
            for i in range(n):
                r0[j, i] = reach[j, hands[r, i]]
        other_runout(nodes, pprob, pay, rows, vrows, k, chooser, depth, buckets[r],
                     clist[r], hidx[r], gend[r], r0, part)
        for i in range(n):
            out[hands[r, i]] += weight * part[i]
