from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction import indexer_kernels as K
from pokerlab.abstraction.indexer import (
    KNOWN_SIZES,
    HandIndexer,
    brute_canonical,
    street_indexer,
)
from pokerlab.cards.cards import canonical_form, parse_cards, suit_permutations
from pokerlab.errors import CardError, ConfigError

STREETS = ("preflop", "flop", "turn", "river")


@pytest.mark.parametrize("street", STREETS)
def test_known_counts(street: str) -> None:
    assert street_indexer(street).size == KNOWN_SIZES[street]


def test_waugh_ordered_round_counts() -> None:
    # Waugh's paper: ordered rounds (2, 3, 1, 1) give 55,190,538 turn and 2,428,287,420 river.
    assert HandIndexer(rounds=(2, 3, 1)).size == 55_190_538
    assert HandIndexer(rounds=(2, 3, 1, 1)).size == 2_428_287_420
    assert HandIndexer(rounds=(5,)).size == 134_459  # 5-card boards
    assert HandIndexer(rounds=(3,)).size == 1_755


def test_preflop_classes() -> None:
    ix = street_indexer("preflop")
    seen = {}
    for a in range(52):
        for b in range(a + 1, 52):
            i = ix.index([a, b])
            key = canonical_form([a, b])
            assert seen.setdefault(i, key) == key
    assert sorted(seen) == list(range(169))


def _random_hands(n: int, ncards: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(52)[:ncards] for _ in range(n)], dtype=np.int64)


@pytest.mark.parametrize("street", STREETS)
def test_kernel_python_parity_and_roundtrip(street: str) -> None:
    ix = street_indexer(street)
    hands = _random_hands(300, ix.num_cards, 7)
    idx = ix.index_many(hands)
    for h, i in zip(hands[:120], idx[:120], strict=True):
        assert ix.index_py([int(c) for c in h]) == i
        rep = ix.unindex(int(i))
        assert ix.unindex_py(int(i)) == rep
        assert brute_canonical(rep, ix.rounds) == brute_canonical(list(h), ix.rounds)
        assert ix.index(rep) == i
    reps = ix.unindex_many(idx)
    assert np.array_equal(ix.index_many(reps), idx)
    rng = np.random.default_rng(3)
    for i in rng.integers(0, ix.size, 50):
        assert ix.index_py(ix.unindex_py(int(i))) == i


@pytest.mark.parametrize("street", STREETS)
def test_isomorphic_iff_same_index(street: str) -> None:
    ix = street_indexer(street)
    perms = suit_permutations()
    hands = _random_hands(200, ix.num_cards, 11)
    for h in hands[:60]:
        base = ix.index(list(h))
        for p in perms[::5]:
            hp = (h >> 2) * 4 + p[h & 3]
            assert ix.index(list(hp)) == base
    keys = [brute_canonical(list(h), ix.rounds) for h in hands]
    idx = ix.index_many(hands)
    for a in range(len(hands)):
        for b in range(a + 1, len(hands)):
            assert (keys[a] == keys[b]) == (idx[a] == idx[b])


def test_flop_bijection_full() -> None:
    ix = street_indexer("flop")
    assert K.roundtrip_range(ix.tables, 0, ix.size, 5) == 0


def test_known_values_and_errors() -> None:
    ix = street_indexer("flop")
    a = ix.index("AsKs2c3d4h")
    assert a == ix.index("AhKh2c3d4s") == ix.index("KdAd4c3h2s")
    assert ix.index("AsKd2c3d4h") != a
    assert ix.unindex(ix.size - 1) and ix.unindex(0)
    with pytest.raises(CardError, match="5 cards"):
        ix.index("AsKs2c")
    with pytest.raises(CardError):
        ix.index("AsAs2c3d4h")
    with pytest.raises(ConfigError, match="out of range"):
        ix.unindex(ix.size)
    with pytest.raises(ConfigError):
        HandIndexer(rounds=(0, 3))
    assert parse_cards("AsKs") == [51, 47]


@pytest.mark.slow
def test_flop_every_deal_covered() -> None:
    ix = street_indexer("flop")
    hits, oob = K.cover_flop(ix.tables, ix.size)
    assert oob == 0 and int((hits == 0).sum()) == 0


@pytest.mark.slow
def test_turn_bijection_full() -> None:
    ix = street_indexer("turn")
    assert K.roundtrip_range(ix.tables, 0, ix.size, 6) == 0


@pytest.mark.slow
def test_river_bijection_full() -> None:
    ix = street_indexer("river")
    assert K.roundtrip_range(ix.tables, 0, ix.size, 7) == 0
