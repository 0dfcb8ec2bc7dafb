"""Numba kernel of local best response: check-down equity of one hand against every combo.

:func:`checkdown_equity` enumerates every completion of a (flop, turn or river) board
exactly and returns, for each of the 1326 opponent combos, the pot share (win + tie/2) of
the LBR player's two hole cards against that combo when both check to the showdown.
Combos that share a card with the hole cards or the board get 0 (and must carry no range
weight).  The plain-Python twin is :func:`checkdown_equity_py` (the parity test compares
them); preflop LBR uses the exact all-in equity matrix of :mod:`pokerlab.cards.equity`.

Layout of the work: the runouts (``C(47, 2) = 1081`` on the flop, 46 on the turn, 1 on
the river) are listed once with the LBR hand's strength on each; then the combos are
processed in parallel, each summing wins and ties over the runouts it does not block.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.cards.evaluator_kernels import strength_from


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


@njit(cache=True, parallel=True)
def checkdown_equity(tables, hole, board, nboard, combos, out):  # type: ignore[no-untyped-def]
    """``out[j]`` = pot share of ``hole`` against combo ``j`` over every runout of ``board``
    (first ``nboard`` of ``board``, 3 <= nboard <= 5); 0 for combos that share a card."""
    key_t = tables.key
    bit_t = tables.bit
    nf = tables.noflush
    offs = tables.offs[tables.obase[7]:]
    fl = tables.flush
    keys, bitss, masks, mine, used = _runouts(tables, hole, board, nboard)
    n = keys.shape[0]
    for j in prange(combos.shape[0]):
        a = combos[j, 0]
        b = combos[j, 1]
        cm = (np.int64(1) << a) | (np.int64(1) << b)
        if used & cm:
            out[j] = 0.0
            continue
        ka = key_t[a] + key_t[b]
        ba = bit_t[a] | bit_t[b]
        score = 0.0
        cnt = 0
        for i in range(n):
            if masks[i] & cm:
                continue
            s = strength_from(nf, offs, fl, keys[i] + ka, bitss[i] | ba)
            m = mine[i]
            if m > s:
                score += 1.0
            elif m == s:
                score += 0.5
            cnt += 1
        out[j] = score / cnt if cnt > 0 else 0.0


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
