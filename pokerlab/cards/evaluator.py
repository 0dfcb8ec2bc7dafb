"""Hand evaluator: exact 5-, 6- and 7-card high-hand strength, single and batch.

``strength(cards) -> int`` in 1..7462 orders every pair of hands exactly as the rules do
(higher is better; equal means a split).  ``category`` and ``describe`` name it.  The
batch paths (:func:`evaluate_batch`, :func:`strengths_on_board`) run numba kernels over
flat arrays, in parallel over both cores.  The slow twin used by the parity tests is
:mod:`pokerlab.cards.evaluator_reference`.

For use inside other numba kernels: ``T = eval_tables()`` (an :class:`EvalTables` named
tuple) and :func:`pokerlab.cards.evaluator_kernels.strength_nb` ``(T, cards, n)`` (or, in
enumeration loops, accumulate ``T.key[card]`` sums and ``T.bit[card]`` ORs and call
:func:`~pokerlab.cards.evaluator_kernels.strength_from` with ``T.noflush``,
``T.offs[T.obase[n]:]`` and ``T.flush``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from pokerlab.cards.cards import COMBOS, parse_cards
from pokerlab.cards.evaluator_kernels import (
    ROW_MASK,
    ROW_SHIFT,
    combos_on_board_kernel,
    displace_rows,
    strength_batch_kernel,
    strength_batch_serial,
    strength_nb,
)
from pokerlab.cards.hand_classes import (
    CATEGORY_NAMES,
    CATEGORY_OF_STRENGTH,
    CODES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    NUM_STRENGTHS,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    STRENGTH_OF_CODE,
    TRIPS,
    TWO_PAIR,
    Code,
    describe_code,
    straight_top,
)
from pokerlab.errors import CardError
from pokerlab.io import PACKAGE_DATA, atomic_path

RANK_KEYS = np.array(
    [0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181], dtype=np.int64
)

class EvalTables(NamedTuple):
    """The evaluator's lookup tables (see :mod:`pokerlab.cards.evaluator_kernels`).

    A named tuple, so numba kernels read ``tables.key`` etc. (positional indexing still
    works for old callers)."""

    key: np.ndarray
    """int64 [52]: ``rank_key << 16 | 1 << (4 * suit)`` per card (summed over a hand)."""
    bit: np.ndarray
    """int64 [52]: ``1 << (16 * suit + rank)`` per card (OR-ed over a hand)."""
    offs: np.ndarray
    """int64: row displacements of the non-flush tables, all hand sizes concatenated."""
    noflush: np.ndarray
    """uint16: the compressed non-flush strength table (all hand sizes)."""
    obase: np.ndarray
    """int64 [8]: ``obase[n]`` = where the row displacements of ``n``-card hands start."""
    flush: np.ndarray
    """uint16 [8192]: strength of the flush suit's 13-bit rank mask."""


def _nonflush_code(counts: list[int]) -> Code:
    """Best non-flush code of a multiset of ranks given as counts per rank."""
    desc = [r for r in range(12, -1, -1) if counts[r] > 0]
    quads = [r for r in desc if counts[r] == 4]
    trips = [r for r in desc if counts[r] == 3]
    pairs = [r for r in desc if counts[r] == 2]
    if quads:
        q = quads[0]
        return (QUADS, (q, next(r for r in desc if r != q)))
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max([r for r in trips[1:]] + pairs)
        return (FULL_HOUSE, (t, p))
    top = straight_top(set(desc))
    if top >= 0:
        return (STRAIGHT, (top,))
    if trips:
        t = trips[0]
        kick = [r for r in desc if r != t][:2]
        return (TRIPS, (t, *kick))
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        kicker = next(r for r in desc if r not in (hi, lo))
        return (TWO_PAIR, (hi, lo, kicker))
    if pairs:
        p = pairs[0]
        return (PAIR, (p, *[r for r in desc if r != p][:3]))
    return (HIGH_CARD, tuple(desc[:5]))


def _multisets(n: int) -> list[list[int]]:
    out: list[list[int]] = []
    cur = [0] * 13

    def rec(r: int, left: int) -> None:
        if r == 13:
            if left == 0:
                out.append(list(cur))
            return
        for m in range(min(4, left) + 1):
            cur[r] = m
            rec(r + 1, left - m)
        cur[r] = 0

    rec(0, n)
    return out


TABLES_FILE = PACKAGE_DATA / "eval_tables.npz"
_TABLE_NAMES = ("key", "bit", "offs", "noflush", "obase", "flush")


def build_tables() -> EvalTables:
    """Build the lookup tables from the hand rules (about 2 s; the result is shipped)."""
    key = np.array(
        [(int(RANK_KEYS[c >> 2]) << 16) | (1 << (4 * (c & 3))) for c in range(52)], dtype=np.int64
    )
    bit = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
    obase = np.zeros(8, dtype=np.int64)
    offs_parts: list[np.ndarray] = []
    table = np.zeros(0, dtype=np.uint16)
    n_offs = 0
    for n in (5, 6, 7):
        ms = _multisets(n)
        sums = np.array(ms, dtype=np.int64) @ RANK_KEYS
        values = np.array([STRENGTH_OF_CODE[_nonflush_code(m)] for m in ms], dtype=np.uint16)
        rows = sums >> ROW_SHIFT
        cols = sums & ROW_MASK
        offs = displace_rows(rows, cols, int(rows.max()) + 1, 1 << ROW_SHIFT) + table.size
        idx = offs[rows] + cols
        part = np.zeros(int(idx.max()) + 1 - table.size, dtype=np.uint16)
        part[idx - table.size] = values
        table = np.concatenate([table, part])
        obase[n] = n_offs
        n_offs += offs.size
        offs_parts.append(offs)
    offs_all = np.concatenate(offs_parts)
    flush = np.zeros(8192, dtype=np.uint16)
    for mask in range(8192):
        ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
        if len(ranks) < 5:
            continue
        top = straight_top(set(ranks))
        code: Code = (STRAIGHT_FLUSH, (top,)) if top >= 0 else (FLUSH, tuple(ranks[:5]))
        flush[mask] = STRENGTH_OF_CODE[code]
    return EvalTables(key=key, bit=bit, offs=offs_all, noflush=table, obase=obase, flush=flush)


def save_tables(path: Path, tables: EvalTables) -> None:
    """Write tables as a checksummed npz (atomic)."""
    arrays: dict[str, Any] = dict(zip(_TABLE_NAMES, tables, strict=True))
    digest = _digest(tables)
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez_compressed(fh, sha256=np.array(digest), **arrays)


def _digest(tables: EvalTables) -> str:
    h = hashlib.sha256()
    for name, arr in zip(_TABLE_NAMES, tables, strict=True):
        h.update(name.encode())
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


@lru_cache(maxsize=1)
def eval_tables() -> EvalTables:
    """The evaluator's lookup tables: loaded from the shipped file (checksummed), or rebuilt."""
    try:
        with np.load(TABLES_FILE, allow_pickle=False) as z:
            tables = EvalTables(*(np.array(z[n]) for n in _TABLE_NAMES))
            ok = str(z["sha256"]) == _digest(tables)
    except (OSError, KeyError, ValueError):
        ok = False
    if not ok:
        tables = build_tables()
    for a in tables:
        a.setflags(write=False)
    return tables


def _as_cards(cards: Sequence[int] | str) -> np.ndarray:
    lst = parse_cards(cards) if isinstance(cards, str) else parse_cards(list(cards))
    if not 5 <= len(lst) <= 7:
        raise CardError(f"a hand to evaluate has 5 to 7 cards, got {len(lst)}: {cards!r}")
    return np.array(lst, dtype=np.int64)


def strength(cards: Sequence[int] | str) -> int:
    """Strength 1..7462 of the best five of 5-7 cards (higher is better)."""
    arr = _as_cards(cards)
    return int(strength_nb(eval_tables(), arr, arr.size))


def category(s: int) -> int:
    """Category index (0 = high card .. 8 = straight flush) of a strength."""
    if not 1 <= s <= NUM_STRENGTHS:
        raise ValueError(f"strength {s} out of range 1..{NUM_STRENGTHS}")
    return int(CATEGORY_OF_STRENGTH[s])


def category_name(s: int) -> str:
    return CATEGORY_NAMES[category(s)]


def describe(s: int) -> str:
    """Readable description, e.g. ``"Two Pair, Kings and Sevens"``."""
    if not 1 <= s <= NUM_STRENGTHS:
        raise ValueError(f"strength {s} out of range 1..{NUM_STRENGTHS}")
    return describe_code(CODES[s - 1])


def evaluate(cards: Sequence[int] | str) -> tuple[int, str, str]:
    """``(strength, category name, description)`` of 5-7 cards."""
    s = strength(cards)
    return s, category_name(s), describe(s)


def evaluate_batch(hands: np.ndarray, *, parallel: bool = True) -> np.ndarray:
    """Strengths of many hands at once: ``hands`` is an int array (N, n) with 5 <= n <= 7.

    Cards are not checked for duplicates here (this is the hot path); values must be 0..51.
    """
    h = np.ascontiguousarray(hands)
    if h.ndim != 2 or not 5 <= h.shape[1] <= 7:
        raise CardError(f"hands must have shape (N, 5..7), got {h.shape}")
    if h.size and (h.min() < 0 or h.max() > 51):
        raise CardError("card values must be in 0..51")
    if h.dtype not in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        h = h.astype(np.int64)
    out = np.empty(h.shape[0], dtype=np.int32)
    (strength_batch_kernel if parallel else strength_batch_serial)(eval_tables(), h, out)
    return out


def strengths_on_board(board: Sequence[int] | str) -> np.ndarray:
    """Strength of all 1326 combos with a board of 3, 4 or 5 cards; 0 for blocked combos."""
    b = parse_cards(board) if isinstance(board, str) else parse_cards(list(board))
    if len(b) not in (3, 4, 5):
        raise CardError(f"board must have 3, 4 or 5 cards, got {len(b)}: {board!r}")
    out = np.empty(COMBOS.shape[0], dtype=np.int32)
    combos_on_board_kernel(eval_tables(), COMBOS, np.array(b, dtype=np.int64), len(b), out)
    return out
