"""Numba kernels of :func:`pokerlab.subgame.deal.build_deal`: every river board's showdown
tables in one call.

For each river board (a row of a ``(boards, 5)`` array) and each player, the tables the
showdown sweep reads (:class:`pokerlab.subgame.deal.Deal`'s ``sd_*`` fields): the live hands
(not blocked by the board) in ascending strength order, ties by hand index (a stable sort),
their strengths, their cards, their count and :func:`~pokerlab.subgame.solver_kernels.
showdown_index`'s words.

The kernel evaluates the union of both players' combos once per board with the evaluator's
own kernel (:func:`pokerlab.cards.evaluator_kernels.combos_on_board_kernel`), sorts the live
ones by strength with a two-pass stable radix sort (strengths are at most 7462 < 2**13; ties
keep the union's order, which is ascending combo id and so ascending hand index for both
players) and emits each player's hands by walking that one order.  Boards are independent:
``prange`` over chunks of boards, each with its own scratch; the result does not depend on
the thread count.

The plain twin is :func:`showdown_tables_py` (``strengths_on_board``, a stable ``argsort``
and one ``showdown_index`` call per board and player: the original Python loop); the parity
tests hold the two equal bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.cards.cards import COMBOS
from pokerlab.cards.evaluator import eval_tables, strengths_on_board
from pokerlab.cards.evaluator_kernels import PARALLEL_CHUNKS, chunk_bounds, combos_on_board_kernel
from pokerlab.subgame.solver_kernels import showdown_index

LOW_BITS = 7  # the radix sort's first digit: strength & 127, then strength >> 7 (< 64)
LOW_MASK = (1 << LOW_BITS) - 1
HIGH_BUCKETS = 64  # 7462 >> 7 = 58

SdTables = tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray],
                 tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
"""(sd_order, sd_strength, sd_count, sd_cards, sd_index), each a pair over the players."""


@njit(cache=True, inline="always")
def _emit(i, s, hc, order, strg, crd, k):  # type: ignore[no-untyped-def]
    """Hand ``i`` (-1: the player has no such combo) of strength ``s`` as the player's
    ``k``-th live hand of the board; the player's next position."""
    if i < 0:
        return k
    order[k] = i
    strg[k] = s
    crd[2 * k] = hc[i, 0]
    crd[2 * k + 1] = hc[i, 1]
    return k + 1


@njit(cache=True)
def showdown_tables_rows(tables, boards, ucards, uidx0, uidx1, hc0, hc1, order0, strg0, cnt0, crd0, idx0,  # type: ignore[no-untyped-def]
                         order1, strg1, cnt1, crd1, idx1, lo, hi):
    """Boards ``lo..hi`` of :func:`showdown_tables_kernel` (serial, its own scratch)."""
    u = ucards.shape[0]
    su = np.empty(u, dtype=np.int32)
    live = np.empty(u, dtype=np.int64)  # live union positions, then sorted by the low digit
    tmp = np.empty(u, dtype=np.int64)
    srt = np.empty(u, dtype=np.int64)
    low = np.empty(LOW_MASK + 2, dtype=np.int64)
    high = np.empty(HIGH_BUCKETS + 1, dtype=np.int64)
    for b in range(lo, hi):
        combos_on_board_kernel(tables, ucards, boards[b], 5, su)
        # stable LSD radix sort of the live positions by strength: low digit, then high
        low[:] = 0
        high[:] = 0
        m = 0
        for j in range(u):
            s = su[j]
            if s > 0:
                live[m] = j
                low[(s & LOW_MASK) + 1] += 1
                high[(s >> LOW_BITS) + 1] += 1
                m += 1
        for d in range(LOW_MASK + 1):
            low[d + 1] += low[d]
        for d in range(HIGH_BUCKETS):
            high[d + 1] += high[d]
        for t in range(m):
            j = live[t]
            d = su[j] & LOW_MASK
            tmp[low[d]] = j
            low[d] += 1
        for t in range(m):
            j = tmp[t]
            d = su[j] >> LOW_BITS
            srt[high[d]] = j
            high[d] += 1
        # each player's hands in that order (a union position belongs to one or both)
        o0 = order0[b]
        s0 = strg0[b]
        c0 = crd0[b]
        o1 = order1[b]
        s1 = strg1[b]
        c1 = crd1[b]
        k0 = 0
        k1 = 0
        for t in range(m):
            j = srt[t]
            k0 = _emit(uidx0[j], su[j], hc0, o0, s0, c0, k0)
            k1 = _emit(uidx1[j], su[j], hc1, o1, s1, c1, k1)
        cnt0[b] = k0
        cnt1[b] = k1
        showdown_index(o0, s0, c0, cnt0[b], s1, c1, cnt1[b], idx0[b])
        showdown_index(o1, s1, c1, cnt1[b], s0, c0, cnt0[b], idx1[b])


KERNEL_MIN_BOARDS = 100
""":func:`pokerlab.subgame.deal.build_deal` uses the kernel from this many river boards (a
flop spot: 1,000 to 2,352) and the plain twin below it (a turn or river spot: at most 48
boards, a few ms either way): loading the kernel costs a process about 30-50 ms on its
first call, which a river ``spot solve`` (under 1 s in all) would feel."""


@njit(cache=True, parallel=True)
def showdown_tables_kernel(tables, boards, ucards, uidx0, uidx1, hc0, hc1, order0, strg0, cnt0, crd0,  # type: ignore[no-untyped-def]
                           idx0, order1, strg1, cnt1, crd1, idx1):
    """Every river board's showdown tables for both players (see the module docstring).

    ``boards``: (B, 5) river boards; ``ucards``: (u, 2) cards of the union of both players'
    combos in ascending combo id; ``uidx0``/``uidx1``: (u,) each union combo's hand index in
    that player's list, -1 where it has none; ``hc0``/``hc1``: (n, 2) the players' hand cards.
    Outputs (zeroed by the caller): ``order`` (B, n) int32, ``strg`` (B, n) int16, ``cnt``
    (B,) int64, ``crd`` (B, 2 n) uint8, ``idx`` (B, 2 n) int64."""
    for k in prange(PARALLEL_CHUNKS):
        lo, hi = chunk_bounds(k, boards.shape[0], PARALLEL_CHUNKS)
        if lo < hi:
            showdown_tables_rows(tables, boards, ucards, uidx0, uidx1, hc0, hc1, order0, strg0, cnt0, crd0,
                                 idx0, order1, strg1, cnt1, crd1, idx1, lo, hi)


def _outputs(nb: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (np.zeros((nb, n), dtype=np.int32), np.zeros((nb, n), dtype=np.int16),  # strengths <= 7462
            np.zeros(nb, dtype=np.int64), np.zeros((nb, 2 * n), dtype=np.uint8),
            np.zeros((nb, 2 * n), dtype=np.int64))


def showdown_tables(boards: np.ndarray, combos: tuple[np.ndarray, np.ndarray],
                    hand_cards: tuple[np.ndarray, np.ndarray]) -> SdTables:
    """The showdown tables of every river board (rows of ``boards``, (B, 5)) for the players'
    hand lists (``combos``: ascending combo ids; ``hand_cards``: their (n, 2) cards), by the
    kernel.  Equal bit for bit to :func:`showdown_tables_py`."""
    boards = np.ascontiguousarray(boards, dtype=np.int64).reshape(-1, 5)
    nb = boards.shape[0]
    union = np.union1d(combos[0], combos[1]).astype(np.int64)
    uidx = []
    for p in (0, 1):
        m = np.full(union.shape[0], -1, dtype=np.int64)
        m[np.searchsorted(union, combos[p])] = np.arange(combos[p].shape[0])
        uidx.append(m)
    ucards = np.ascontiguousarray(COMBOS[union], dtype=np.int64).reshape(-1, 2)
    hc = [np.ascontiguousarray(hand_cards[p], dtype=np.int64).reshape(-1, 2) for p in (0, 1)]
    o0, s0, c0, k0, i0 = _outputs(nb, combos[0].shape[0])
    o1, s1, c1, k1, i1 = _outputs(nb, combos[1].shape[0])
    if nb:
        showdown_tables_kernel(eval_tables(), boards, ucards, uidx[0], uidx[1], hc[0], hc[1],
                               o0, s0, c0, k0, i0, o1, s1, c1, k1, i1)
    return (o0, o1), (s0, s1), (c0, c1), (k0, k1), (i0, i1)


def showdown_tables_py(boards: np.ndarray, combos: tuple[np.ndarray, np.ndarray],
                       hand_cards: tuple[np.ndarray, np.ndarray]) -> SdTables:
    """Plain twin of :func:`showdown_tables`: a Python loop over the boards with
    ``strengths_on_board``, a stable ``argsort`` and ``showdown_index`` per board and player."""
    river_boards = [tuple(int(c) for c in row) for row in np.asarray(boards).reshape(-1, 5)]
    sd_order, sd_strength, sd_count, sd_cards = [], [], [], []
    strengths = [strengths_on_board(bd) for bd in river_boards]
    for p in (0, 1):
        n = combos[p].shape[0]
        order = np.zeros((len(river_boards), n), dtype=np.int32)
        strg = np.zeros((len(river_boards), n), dtype=np.int16)  # strengths are at most 7462
        cnt = np.zeros(len(river_boards), dtype=np.int64)
        crd = np.zeros((len(river_boards), 2 * n), dtype=np.uint8)
        for j, s_all in enumerate(strengths):
            sv = s_all[combos[p]]
            live = np.flatnonzero(sv > 0)
            o = live[np.argsort(sv[live], kind="stable")]
            order[j, : o.shape[0]] = o
            strg[j, : o.shape[0]] = sv[o]
            cnt[j] = o.shape[0]
            crd[j, : 2 * o.shape[0]] = hand_cards[p][o].reshape(-1)
        sd_order.append(order)
        sd_strength.append(strg)
        sd_count.append(cnt)
        sd_cards.append(crd)
    sd_index = []
    for p in (0, 1):
        other = 1 - p
        idx = np.zeros((len(river_boards), 2 * combos[p].shape[0]), dtype=np.int64)
        for j in range(len(river_boards)):
            showdown_index(sd_order[p][j], sd_strength[p][j], sd_cards[p][j], sd_count[p][j],
                           sd_strength[other][j], sd_cards[other][j], sd_count[other][j], idx[j])
        sd_index.append(idx)
    return ((sd_order[0], sd_order[1]), (sd_strength[0], sd_strength[1]), (sd_count[0], sd_count[1]),
            (sd_cards[0], sd_cards[1]), (sd_index[0], sd_index[1]))
