"""The runouts of a :class:`~pokerlab.agents.continuation.Continuation`: every turn/river
card sequence of a board or a seeded sample of them, and the per-runout card arrays its
kernels read (live combos by strength, card prefix positions, the agent's buckets), kept
per agent for the leaves of one subgame."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerlab.agents.continuation_kernels import (
    CARD_HANDS,
    LIVE_CARDS,
)
from pokerlab.cards.cards import COMBOS, NUM_COMBOS, card_str
from pokerlab.errors import AgentError, CardError, ConfigError
from pokerlab.rng import shuffled


# ----------------------------------------------------------------------------- runouts
def check_board(board: Sequence[int]) -> tuple[int, ...]:
    b = tuple(int(c) for c in board)
    if len(b) not in (3, 4):
        raise CardError(f"a continuation leaf is on the flop or turn: the board needs 3 or 4 "
                        f"cards, got {len(b)}: {list(board)!r}")
    if len(set(b)) != len(b) or not all(0 <= c < 52 for c in b):
        raise CardError(f"bad board {list(board)!r}: cards must be distinct, 0..51")
    return b


def all_runouts(board: Sequence[int]) -> list[tuple[int, ...]]:
    """Every completion of ``board`` (3 or 4 cards) to five cards, in card order: the
    river cards of a turn board, the ordered (turn, river) pairs of a flop board."""
    b = check_board(board)
    deck = [c for c in range(52) if c not in b]
    if len(b) == 4:
        return [(c,) for c in deck]
    return [(t, r) for t in deck for r in deck if r != t]


def sample_runouts(board: Sequence[int], count: int | None, seed: int) -> list[tuple[int, ...]]:
    """``count`` distinct runouts of ``board`` drawn uniformly without replacement
    (a partial Fisher-Yates shuffle of :func:`all_runouts` with ``SplitMix64(seed)``), in
    the order drawn; ``count=None`` (or at least all of them): every runout, in card
    order."""
    runs = all_runouts(board)
    if count is None:
        return runs
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ConfigError(f"runout count must be an integer >= 1 (or None: all), got {count!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConfigError(f"seed must be an integer >= 0, got {seed!r}")
    m = len(runs)
    if count >= m:
        return runs
    return [runs[i] for i in shuffled(m, int(seed), int(count))]


def runout_counts(board_len: int) -> tuple[int, int]:
    """``(M, N)``: the runouts of a board of ``board_len`` cards, and those disjoint from
    two hands as well (the count each hand pair averages over)."""
    left = 52 - board_len
    if board_len == 4:
        return left, left - 4
    return left * (left - 1), (left - 4) * (left - 5)


def check_runouts(board: tuple[int, ...], runouts: Any) -> list[tuple[int, ...]]:
    need = 5 - len(board)
    if isinstance(runouts, np.ndarray):
        runouts = runouts.reshape(len(runouts), -1).tolist() if runouts.size else []
    if isinstance(runouts, (str, bytes)) or not isinstance(runouts, Sequence) or not runouts:
        raise CardError(f"runouts must be a non-empty list of {need}-card tuples, got "
                        f"{runouts!r}")
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    bset = set(board)
    for run in runouts:
        try:
            cards = tuple(int(c) for c in run)
        except (TypeError, ValueError):
            raise CardError(f"runout {run!r} is not a tuple of {need} card indices") from None
        if len(cards) != need:
            raise CardError(f"runout {run!r} has {len(cards)} cards; a board of {len(board)} "
                            f"needs {need}")
        if not all(0 <= c < 52 for c in cards) or len(set(cards)) != need:
            raise CardError(f"runout {run!r}: cards must be distinct, 0..51")
        clash = [c for c in cards if c in bset]
        if clash:
            raise CardError(f"runout {' '.join(card_str(c) for c in cards)} clashes with the "
                            f"board {' '.join(card_str(c) for c in board)} "
                            f"({' '.join(card_str(c) for c in clash)})")
        if cards in seen:
            raise CardError(f"runout {' '.join(card_str(c) for c in cards)} is listed twice "
                            "(runouts are drawn without replacement)")
        seen.add(cards)
        out.append(cards)
    return out


# ----------------------------------------------------------------------------- cards
CARDS_CACHE = 4
"""Runout samples whose arrays each agent keeps (:func:`runout_cards`): the leaves of one
subgame share their board and runouts."""


CARDS_CACHE_BYTES = 64 << 20
"""Larger runout arrays are not kept."""


_CARDS: weakref.WeakKeyDictionary[Any, dict[Any, tuple[np.ndarray, ...]]] = (
    weakref.WeakKeyDictionary())


def runout_cards(agent: Any, board: tuple[int, ...], runouts: list[tuple[int, ...]]
                 ) -> tuple[np.ndarray, ...]:
    """The per-runout arrays of the kernels (read-only): ``hands`` (R, n) the live combos
    by ascending strength, ``clist`` (R, CARD_HANDS, LIVE_CARDS) the positions of each live
    card's hands, ``hidx`` (R, 6, n) where each hand's card sums and prefixes are in the
    per-card prefix table, ``gend`` (R, n) the end of each hand's group of equal
    strength, ``buckets`` (R, streets after the board, n) the agent's card buckets.  The
    last :data:`CARDS_CACHE` of them are kept per agent (keyed by board and runouts)."""
    key = (tuple(board), tuple(runouts))
    try:
        per: dict[Any, tuple[np.ndarray, ...]] | None = _CARDS.setdefault(agent, {})
    except TypeError:  # not weak-referenceable: no cache
        per = None
    if per is not None:
        hit = per.get(key)
        if hit is not None:
            return hit
    arrays = _runout_cards(agent, tuple(board), runouts)
    for a in arrays:
        a.flags.writeable = False
    if per is not None and sum(a.nbytes for a in arrays) <= CARDS_CACHE_BYTES:
        while len(per) >= CARDS_CACHE:
            per.pop(next(iter(per)))
        per[key] = arrays
    return arrays


def _runout_cards(agent: Any, board: tuple[int, ...], runouts: list[tuple[int, ...]]
                  ) -> tuple[np.ndarray, ...]:
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
    from pokerlab.cards.range_kernels import combos64
    from pokerlab.policy.range_query import bucket_vector

    R = len(runouts)
    leaf_street = len(board) - 2  # 3 cards: the flop, 4: the turn
    nslots = 4 - leaf_street - 1  # streets after the leaf
    n = 1081  # C(47, 2) combos live on a five-card board
    hands = np.empty((R, n), dtype=np.int16)
    clist = np.empty((R, CARD_HANDS, LIVE_CARDS), dtype=np.int16)
    hidx = np.empty((R, 6, n), dtype=np.int16)
    gend = np.empty((R, n), dtype=np.int16)
    buckets = np.empty((R, nslots, n), dtype=np.int32)
    cache: dict[tuple[int, ...], np.ndarray] = {}
    tables = eval_tables()
    combos = combos64()
    st = np.zeros(NUM_COMBOS, dtype=np.int32)
    pos = np.arange(n)
    for r, run in enumerate(runouts):
        full = board + run
        combos_on_board_kernel(tables, combos, np.asarray(full, dtype=np.int64), 5, st)
        live = np.nonzero(st > 0)[0]
        order = live[np.argsort(st[live], kind="stable")]
        hands[r] = order
        s = st[order]
        # each hand's group of equal strength: [start, end)
        last = np.nonzero(np.append(s[1:] != s[:-1], True))[0] + 1
        sizes = np.diff(np.append(0, last))
        end = np.repeat(last, sizes)
        start = end - np.repeat(sizes, sizes)
        gend[r] = end
        # the hands of each live card, by position; a hand's place in its cards' lists
        lc = np.array([c for c in range(52) if c not in full])
        slot_of = np.full(52, -1)
        slot_of[lc] = np.arange(LIVE_CARDS)
        hc = COMBOS[order]  # (n, 2)
        cs = slot_of[hc]  # (n, 2): the live-card slot of each hand's two cards
        for t in (0, 1):
            hidx[r, t] = CARD_HANDS * LIVE_CARDS + cs[:, t]
        flat_c = cs.ravel()
        flat_p = np.repeat(pos, 2)
        by = np.lexsort((flat_p, flat_c))  # by card, then position
        lists = flat_p[by].reshape(LIVE_CARDS, CARD_HANDS)
        clist[r] = lists.T
        for t in (0, 1):
            mine = lists[cs[:, t]]  # (n, CARD_HANDS): the hands of each hand's card t
            before = (mine < start[:, None]).sum(axis=1)
            upto = (mine < end[:, None]).sum(axis=1)
            hidx[r, 2 + 2 * t] = before * LIVE_CARDS + cs[:, t]
            hidx[r, 3 + 2 * t] = upto * LIVE_CARDS + cs[:, t]
        for q in range(nslots):
            bd = board + run[:q + 1]
            bv = cache.get(bd)
            if bv is None:
                bv = cache[bd] = bucket_vector(agent, leaf_street + 1 + q, bd)
            buckets[r, q] = bv[order]
    if R and int(buckets.min()) < 0:  # pragma: no cover - live hands have a bucket
        raise AgentError("a live combo has no card bucket")
    return hands, clist, hidx, gend, buckets
