"""The hand-strength card abstraction of the blueprint trainer and the policy agents:
cheap, exact, computed on the fly (also importable as :mod:`pokerlab.blueprint.cards`),
and the bucketers a policy agent reads its policy with (one bucket or every combo's
bucket at once; see "Bucketers" below).

``hs`` (hand strength) buckets, defined by a :class:`CardSpec`:

* preflop: the 169 lossless starting-hand classes (13x13 grid order of
  :data:`pokerlab.cards.cards.CLASS_NAMES`), or 1 bucket;
* flop, turn, river: the hand's exact hand strength HS against a uniformly random
  opponent hand on the current board (wins + half the ties over every opponent combo that
  shares no card), cut into ``buckets[s]`` bins at percentile thresholds.  The thresholds
  are computed once from ``sample`` seeded random deals (a few seconds, deterministic)
  and stored in the spec's JSON next to every trained policy, so a bucket never needs a
  table: a fresh clone can play a shipped policy at once.

Deviation from the usual blueprint abstractions (EHS / potential-aware k-means tables,
:mod:`pokerlab.abstraction.buckets`): HS has no look-ahead (draws count as weak hands) and
perfect recall of buckets is not kept (a decision node's information set is its current
bucket only).  It costs one evaluation of the board against all 1326 combos per street,
which the kernel does once per board (shared by ``board_reuse`` deals; per rank pair where
no flush is possible, see :func:`pokerlab.blueprint.mccfr_kernels.board_tables`).

Bucketers.  A :class:`Bucketer` is injected into the policy agent (an agent with other buckets is the
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

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
from numba import njit

from pokerlab.cards.cards import (
    BOARD_PREFIX,
    CLASS_OF_COMBO,
    COMBO_INDEX,
    COMBO_MASKS,
    COMBOS,
    cards_mask,
)
from pokerlab.cards.evaluator import eval_tables
from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
from pokerlab.cards.range_kernels import hand_strength, hand_strength_all, per_combo_buckets
from pokerlab.errors import ConfigError


@njit(cache=True)
def sample_hs(tables, combos, street, n, seed, out):  # type: ignore[no-untyped-def]
    """HS of ``n`` random (hole, board) deals on ``street`` (numpy RNG seeded in-kernel)."""
    np.random.seed(seed)  # noqa: NPY002  (numba's in-kernel generator)
    nb = BOARD_PREFIX[street]
    deck = np.arange(52)
    strengths = np.zeros(combos.shape[0], dtype=np.int32)
    board = np.zeros(5, dtype=np.int64)
    hand = np.zeros(7, dtype=np.int64)
    for i in range(n):
        for j in range(2 + nb):
            r = j + np.random.randint(0, 52 - j)  # noqa: NPY002
            t = deck[j]
            deck[j] = deck[r]
            deck[r] = t
        for j in range(nb):
            board[j] = deck[2 + j]
        combos_on_board_kernel(tables, combos, board, nb, strengths)
        a = deck[0]
        b = deck[1]
        ci = 0
        for k in range(combos.shape[0]):
            if (combos[k, 0] == min(a, b)) and (combos[k, 1] == max(a, b)):
                ci = k
        hand[0] = a
        hand[1] = b
        out[i] = hand_strength(strengths, combos, a, b, strengths[ci])


@dataclass(frozen=True, kw_only=True)
class CardSpec:
    """``hs`` card abstraction: bucket counts per street and the HS thresholds."""

    buckets: tuple[int, int, int, int] = (169, 50, 50, 50)
    sample: int = 20_000
    seed: int = 0
    thresholds: tuple[tuple[float, ...], ...] = field(default=(), compare=True)

    def __post_init__(self) -> None:
        b = tuple(int(x) for x in self.buckets)
        if len(b) != 4:
            raise ConfigError(f"card buckets need 4 counts, got {self.buckets!r}")
        if b[0] not in (1, 169):
            raise ConfigError(f"preflop buckets must be 169 (lossless) or 1, got {b[0]}")
        for s in (1, 2, 3):
            if not 1 <= b[s] <= 1000:
                raise ConfigError(f"bucket count {b[s]} on street {s} out of 1..1000")
        if self.sample < 100:
            raise ConfigError(f"card sample must be >= 100 deals, got {self.sample}")
        object.__setattr__(self, "buckets", b)

    @property
    def text(self) -> str:
        return "hs:" + "-".join(str(x) for x in self.buckets)

    def with_thresholds(self) -> CardSpec:
        """This spec with its thresholds computed (no-op when present)."""
        if self.thresholds:
            return self
        th = hs_thresholds(self.buckets, self.sample, self.seed)
        return CardSpec(buckets=self.buckets, sample=self.sample, seed=self.seed,
                        thresholds=th)

    def threshold_array(self) -> np.ndarray:
        """(4, max_buckets) float64: row ``s`` holds the ``buckets[s] - 1`` thresholds,
        padded with 2.0."""
        spec = self.with_thresholds()
        out = np.full((4, max(spec.buckets) + 1), 2.0)
        for s in range(1, 4):
            t = spec.thresholds[s]
            out[s, :len(t)] = t
        return out

    def bucket(self, street: int, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        """The bucket of ``hole`` on ``street`` with the first cards of ``board``."""
        a, b = int(hole[0]), int(hole[1])
        if street == 0:
            return int(CLASS_OF_COMBO[COMBO_INDEX[a, b]]) if self.buckets[0] == 169 else 0
        if self.buckets[street] == 1:
            return 0
        spec = self.with_thresholds()
        bd = np.asarray(list(board)[:BOARD_PREFIX[street]], dtype=np.int64)
        if bd.size != BOARD_PREFIX[street]:
            raise ConfigError(f"street {street} needs {BOARD_PREFIX[street]} board cards, "
                              f"got {len(board)}")
        strengths = np.zeros(COMBOS.shape[0], dtype=np.int32)
        combos = combos64()
        combos_on_board_kernel(eval_tables(), combos, bd, bd.size, strengths)
        mine = strengths[int(COMBO_INDEX[a, b])]
        hs = float(hand_strength(strengths, combos, a, b, mine))
        return bucket_of_hs(hs, spec.thresholds[street])

    def to_json(self) -> dict[str, Any]:
        spec = self.with_thresholds()
        return {"method": "hs", "buckets": list(spec.buckets), "sample": spec.sample,
                "seed": spec.seed, "thresholds": [list(t) for t in spec.thresholds]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CardSpec:
        try:
            if d.get("method", "hs") != "hs":
                raise ConfigError(f"unknown blueprint card method {d.get('method')!r}")
            th = tuple(tuple(float(x) for x in t) for t in d.get("thresholds", ()))
            return cls(buckets=tuple(int(x) for x in d["buckets"]),  # type: ignore[arg-type]
                       sample=int(d.get("sample", 20_000)), seed=int(d.get("seed", 0)),
                       thresholds=th)
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"bad card spec {d!r}: {exc}") from None


@njit(cache=True, inline="always")
def hs_bucket(hs, thresholds, n):  # type: ignore[no-untyped-def]
    """The bucket of hand strength ``hs``: how many of the first ``n`` thresholds (ascending)
    lie strictly below it, by binary search.  The one HS bucketing rule of the kernels (the
    blueprint's bucket tables, :mod:`pokerlab.blueprint.mccfr_kernels`); plain twin:
    :func:`bucket_of_hs`."""
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) >> 1
        if thresholds[mid] < hs:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def hs_buckets(hs, thresholds, out):  # type: ignore[no-untyped-def]
    """``out[j]`` <- :func:`hs_bucket` of ``hs[j]`` against all of ``thresholds`` (every
    combo of a board at once: :func:`hs_bucket_vector`)."""
    n = thresholds.shape[0]
    for j in range(hs.shape[0]):
        out[j] = hs_bucket(hs[j], thresholds, n)


def bucket_of_hs(hs: float, thresholds: Sequence[float] | np.ndarray) -> int:
    """Number of thresholds strictly below ``hs`` (plain twin of :func:`hs_bucket`)."""
    k = 0
    for t in thresholds:
        if hs > t:
            k += 1
    return k


@lru_cache(maxsize=1)
def combos64() -> np.ndarray:
    return np.ascontiguousarray(COMBOS, dtype=np.int64)


@lru_cache(maxsize=32)
def hs_thresholds(buckets: tuple[int, int, int, int], sample: int,
                seed: int) -> tuple[tuple[float, ...], ...]:
    out: list[tuple[float, ...]] = [()]
    for s in (1, 2, 3):
        k = buckets[s]
        if k == 1:
            out.append(())
            continue
        hs = np.zeros(sample)
        sample_hs(eval_tables(), combos64(), s, sample, seed * 4 + s, hs)
        q = np.quantile(hs, np.arange(1, k) / k)
        out.append(tuple(float(x) for x in q))
    return tuple(out)


# -- bucketers: the card abstractions a policy agent reads its policy with --------------

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
