"""Numba range kernels over all 1326 combos on a board: hand strength of every combo at
once and the Monte Carlo equity of many combos against a random hand.

They are card-only (no agent, no policy), so the range queries of every layer above use
them: the card buckets of :mod:`pokerlab.abstraction.hs_cards` (hand strength), the
``tag`` agent's range query (equity against a random hand), LBR's kernels.  Each has its
plain-Python twin here (``*_py``; tests/test_lbr_fast.py compares them).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

from pokerlab.cards.cards import COMBOS
from pokerlab.cards.equity_kernels import monte_carlo, tie_group_end

NUM_COMBOS = 1326

_COMBOS64: list[np.ndarray] = []


def combos64() -> np.ndarray:
    """:data:`pokerlab.cards.cards.COMBOS` as a contiguous int64 array (made once)."""
    if not _COMBOS64:
        _COMBOS64.append(np.ascontiguousarray(COMBOS, dtype=np.int64))
    return _COMBOS64[0]


def per_combo_buckets(bucket: Callable[[int, tuple[int, int], tuple[int, ...]], int], street: int,
                      board: tuple[int, ...]) -> np.ndarray:
    """Plain twin of every ``bucket_vector``: one ``bucket(street, hole, board)`` call per
    combo not blocked by ``board`` (hole cards high card first), ``-1`` for the others."""
    buckets = np.full(NUM_COMBOS, -1, dtype=np.int64)
    used = set(board)
    for j in range(NUM_COMBOS):
        a, b = int(COMBOS[j, 0]), int(COMBOS[j, 1])
        if a not in used and b not in used:
            buckets[j] = bucket(street, (b, a), tuple(board))
    return buckets


@njit(cache=True)
def hand_strength(board_strengths, combos, a, b, mine):  # type: ignore[no-untyped-def]
    """HS of the hole cards ``a, b`` with strength ``mine`` against every combo (strength
    on the same board in ``board_strengths``; 0 = blocked by the board): wins plus half
    the ties over the combos that share no card with ``a, b``.  One combo at a time (the
    card buckets of a single hand); its plain-Python run (``py_func``) is the twin of
    :func:`hand_strength_all`."""
    wins = 0.0
    n = 0
    for k in range(combos.shape[0]):
        s = board_strengths[k]
        if s == 0:
            continue
        x = combos[k, 0]
        y = combos[k, 1]
        if x == a or x == b or y == a or y == b:
            continue
        n += 1
        if mine > s:
            wins += 1.0
        elif mine == s:
            wins += 0.5
    return wins / n if n > 0 else 0.5


@njit(cache=True)
def hand_strength_all(strengths, combos, out):  # type: ignore[no-untyped-def]
    """``out[j]`` = hand strength of combo ``j`` on a board (wins + half the ties over every
    combo that shares no card with ``j``), from ``strengths`` (each combo's strength on
    the board, 0 = blocked by the board): the value
    :func:`hand_strength` gives one combo at a time, for all
    combos by one sort and an O(n) sweep with card removal (counts per card of the combos
    below and tied).  Blocked combos get -1.

    Inclusion-exclusion: the combos sharing a card with ``j = (a, b)`` are those holding
    ``a`` plus those holding ``b`` minus ``j`` itself, so ``below_j = L - L_a - L_b``,
    ``ties_j = T - T_a - T_b + 1`` and ``n_j = N - N_a - N_b + 1``; wins and halves are
    exact in float64, so the quotient equals the one-at-a-time value bit for bit."""
    n = combos.shape[0]
    # counting sort by strength (1..7462; 0 = blocked): within a strength the order does
    # not matter, every tie group is counted before any of its values is taken
    top = np.int64(0)
    for j in range(n):
        if strengths[j] > top:
            top = np.int64(strengths[j])
    start = np.zeros(top + 2, dtype=np.int64)
    for j in range(n):
        start[strengths[j] + 1] += 1
    for v in range(1, top + 2):
        start[v] += start[v - 1]
    order = np.empty(n, dtype=np.int64)
    for j in range(n):
        v = strengths[j]
        order[start[v]] = j
        start[v] += 1
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
        k = tie_group_end(strengths, order, i, n)
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
    """Plain-Python twin of :func:`hand_strength_all`: one combo at a time, by the plain
    Python run of :func:`hand_strength` (-1 for the combos the board blocks)."""
    one = hand_strength.py_func
    for j in range(combos.shape[0]):
        if strengths[j] <= 0:
            out[j] = -1.0
            continue
        out[j] = one(strengths, combos, int(combos[j, 0]), int(combos[j, 1]), strengths[j])


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
    from pokerlab.cards.equity import monte_carlo_equity, one_hot

    for t, j in enumerate(idx.tolist()):
        hole = [int(COMBOS[j, 0]), int(COMBOS[j, 1])]
        res = monte_carlo_equity([one_hot(hole), np.ones(COMBOS.shape[0])], list(board),
                                 samples=samples, seed=int(seeds[t]))
        out[j] = float(res.equity[0])
