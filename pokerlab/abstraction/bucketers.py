"""The card abstractions a policy agent reads its policy with, one bucket or every combo's
bucket at once.

A :class:`Bucketer` is injected into the policy agent (an agent with other buckets is the
same agent with another bucketer).  ``bucket(street, hole, board)`` is one hand's bucket;
``bucket_vector(street, board)`` is every combo's bucket on a board at once (``-1`` for
combos the board blocks), the card half of the range queries
(:func:`pokerlab.policy.range_query.bucket_vector`):

* :class:`HandStrengthBucketer` (the blueprint's ``hs`` buckets): one strength pass over
  the board and one sorted sweep (:func:`pokerlab.cards.range_kernels.hand_strength_all`);
* :class:`TableBucketer` (a card abstraction's tables): every combo's canonical index in
  one indexer call, then one table gather;
* :class:`PreflopClassBucketer` (the thesis agent): the starting-hand class.

``kernel``: the match kernel computes the same buckets, so a match may play the agent
there.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from pokerlab.cards.cards import BOARD_PREFIX, CLASS_OF_COMBO, COMBO_MASKS, COMBOS, cards_mask
from pokerlab.cards.range_kernels import combos64, per_combo_buckets

NUM_COMBOS = 1326


class Bucketer(Protocol):
    """The card abstraction a policy agent reads its policy with (see the module
    docstring)."""

    kernel: bool

    def bucket(self, street: int, hole: tuple[int, ...], board: tuple[int, ...]) -> int:
        ...


class HandStrengthBucketer:
    """The blueprint's hand-strength buckets (:class:`pokerlab.abstraction.hs_cards.CardSpec`)."""

    kernel = True

    def __init__(self, spec: Any) -> None:
        self.spec = spec

    def bucket(self, street: int, hole: tuple[int, ...], board: tuple[int, ...]) -> int:
        return int(self.spec.bucket(street, hole, board))

    def bucket_vector(self, street: int, board: tuple[int, ...]) -> np.ndarray:
        spec = self.spec
        if not hasattr(spec, "thresholds") or not hasattr(spec, "buckets"):
            return per_combo_buckets(self.bucket, street, board)
        return hs_bucket_vector(spec, street, board)


class TableBucketer:
    """The game's bucket tables (bucket 0 on streets without a table)."""

    kernel = True

    def __init__(self, cards: Any) -> None:
        self.cards = cards

    def bucket(self, street: int, hole: tuple[int, ...], board: tuple[int, ...]) -> int:
        cards = self.cards
        if cards is None or street >= len(cards.tables) or cards.num_buckets(street) <= 1:
            return 0
        return int(cards.bucket(street, hole, board[:BOARD_PREFIX[street]]))

    def bucket_vector(self, street: int, board: tuple[int, ...]) -> np.ndarray:
        if self.cards is None:
            return np.where(_blocked(board), -1, 0).astype(np.int64)
        return table_bucket_vector(self.cards, street, board)


class PreflopClassBucketer:
    """The starting-hand class 0..168 (grid order of :data:`pokerlab.cards.cards.CLASS_NAMES`)
    on every street, no board information (the thesis agent's cards); no kernel form."""

    kernel = False

    def bucket(self, street: int, hole: tuple[int, ...], board: tuple[int, ...]) -> int:
        from pokerlab.cards.cards import combo_index

        return int(CLASS_OF_COMBO[combo_index(int(hole[0]), int(hole[1]))])


def _blocked(board: tuple[int, ...]) -> np.ndarray:
    return (COMBO_MASKS & np.uint64(cards_mask(list(board)))) != 0


def hs_bucket_vector(spec: Any, street: int, board: tuple[int, ...]) -> np.ndarray:
    """Every combo's hand-strength bucket of card ``spec`` on ``board`` (``-1``: blocked)."""
    blocked = _blocked(board)
    if street == 0:
        out = (CLASS_OF_COMBO.astype(np.int64) if spec.buckets[0] == 169
               else np.zeros(NUM_COMBOS, dtype=np.int64))
        return np.where(blocked, -1, out)
    if spec.buckets[street] == 1:
        return np.where(blocked, -1, 0).astype(np.int64)
    from pokerlab.abstraction.hs_cards import hs_buckets
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
    from pokerlab.cards.range_kernels import hand_strength_all

    bd = np.asarray(list(board)[:BOARD_PREFIX[street]], dtype=np.int64)
    strengths = np.zeros(NUM_COMBOS, dtype=np.int32)
    combos = combos64()
    combos_on_board_kernel(eval_tables(), combos, bd, bd.size, strengths)
    hs = np.zeros(NUM_COMBOS)
    hand_strength_all(strengths, combos, hs)
    out = np.zeros(NUM_COMBOS, dtype=np.int64)
    hs_buckets(hs, np.asarray(spec.thresholds[street], dtype=np.float64), out)
    return np.where(blocked | (strengths == 0), -1, out)


def table_bucket_vector(cards: Any, street: int, board: tuple[int, ...]) -> np.ndarray:
    """Every combo's bucket in a card abstraction's tables on ``board`` (``-1``: blocked):
    every unblocked combo's canonical index in one indexer call, then one table gather."""
    from pokerlab.abstraction.indexer import street_indexer

    out = np.full(NUM_COMBOS, -1, dtype=np.int64)
    bd = list(board)[:BOARD_PREFIX[street]]
    live = ~_blocked(board)
    if street >= len(cards.tables) or cards.num_buckets(street) <= 1:
        out[live] = 0
        return out
    hands = np.empty((int(live.sum()), 2 + len(bd)), dtype=np.int64)
    hands[:, 0] = COMBOS[live, 1]
    hands[:, 1] = COMBOS[live, 0]
    hands[:, 2:] = np.asarray(bd, dtype=np.int64)
    out[live] = cards.tables[street][street_indexer(street).index_many(hands)]
    return out
