"""The strategically different flops, their textures and the weighted subsets."""

from __future__ import annotations

import itertools

import pytest

from pokerlab.cards.cards import parse_cards
from pokerlab.subgame import flops as F


def test_1755_isomorphic_flops_weigh_22100() -> None:
    flops = F.all_flops()
    assert len(flops) == 1755
    assert sum(f.weight for f in flops) == 22100
    assert len({f.cards for f in flops}) == 1755
    # weights by suit pattern: monotone 4 (one per suit), paired two-tone 12, rainbow unpaired 24
    by_board = {f.board: f.weight for f in flops}
    assert by_board["AcKcQc"] == 4
    assert by_board["AcKcQd"] == 12
    assert by_board["AcKdQh"] == 24
    assert by_board["2h2d2c"] == 4
    assert by_board["AdAcKc"] == 12
    assert by_board["AdAcKh"] == 12
    # counts per texture class of canonical flops
    kinds = [f.texture for f in flops]
    assert sum(t.pairing == "trips" for t in kinds) == 13
    assert sum(t.suits == "monotone" for t in kinds) == 286
    assert sum(t.pairing == "paired" for t in kinds) == 2 * 156


def test_canonical_key_is_suit_invariant() -> None:
    cards = parse_cards("Td9d6h")
    key = F.canonical_key(cards)
    for perm in itertools.permutations(range(4)):
        moved = [(c >> 2) * 4 + perm[c & 3] for c in cards]
        assert F.canonical_key(moved) == key


def test_textures() -> None:
    t = F.texture(parse_cards("Td9d6h"))
    assert (t.suits, t.pairing, t.high, t.connectedness) == ("two-tone", "unpaired", "T", "connected")
    t = F.texture(parse_cards("As5d2h"))  # wheel window
    assert t.connectedness == "connected" and t.suits == "rainbow"
    t = F.texture(parse_cards("KsKd7s"))
    assert (t.pairing, t.connectedness, t.high) == ("paired", "disconnected", "K")
    t = F.texture(parse_cards("Ks9d2c"))
    assert t.connectedness == "semi-connected"
    t = F.texture(parse_cards("7s7d7c"))
    assert (t.pairing, t.connectedness) == ("trips", "disconnected")


def test_exact_frequencies() -> None:
    ex = F.exact_frequencies()
    raw = F.RAW_FLOPS
    assert ex["suits"][("monotone",)] * raw == pytest.approx(4 * 286)
    assert ex["suits"][("rainbow",)] * raw == pytest.approx(13 * 12 * 11 / 6 * 24 + 13 * 12 * 12 + 13 * 4)
    assert ex["pairing"][("trips",)] * raw == pytest.approx(52)
    assert ex["pairing"][("paired",)] * raw == pytest.approx(13 * 6 * 48)
    assert ex["high card"][("2",)] * raw == pytest.approx(4)
    assert ex["high card"][("A",)] * raw == pytest.approx(22100 - 4 * 12 * (4 * 12 - 1) * (4 * 12 - 2) / 6)
    # the 1,755 flops with their weights give the same marginals
    got = F.frequencies(F.all_flops())
    for m, cats in ex.items():
        assert sum(cats.values()) == pytest.approx(1.0)
        for k, v in cats.items():
            assert got[m][k] == pytest.approx(v, abs=1e-12)


@pytest.mark.parametrize("n", F.SUBSET_SIZES)
def test_subsets_reproduce_texture_frequencies(n: int) -> None:
    sub = F.flop_subset(n)
    assert len(sub) == n and len({f.cards for f in sub}) == n
    assert all(f.weight > 0 for f in sub)
    assert sum(f.weight for f in sub) == pytest.approx(22100, abs=1e-6)
    canon = {f.cards for f in F.all_flops()}
    assert all(f.cards in canon for f in sub)
    ex = F.exact_frequencies()
    got = F.frequencies(sub)
    for m, cats in ex.items():
        assert set(got[m]) == set(cats), m
        for k, v in cats.items():
            assert abs(got[m][k] - v) <= 1e-9, (m, k)
    # deterministic
    F._subset.cache_clear()
    again = F.flop_subset(n)
    assert [f.board for f in again] == [f.board for f in sub]
    assert [f.weight for f in again] == pytest.approx([f.weight for f in sub], rel=1e-12)


def test_parse_flop_set() -> None:
    assert len(F.parse_flop_set("49")) == 49
    assert len(F.parse_flop_set("1755")) == 1755
    got = F.parse_flop_set("Td9d6h, AsKs2s")
    assert [f.board for f in got] == ["Td9d6h", "AsKs2s"]
    assert [f.weight for f in got] == [12.0, 4.0]
    for bad in ("", "7", "Td9d", "Td9d6h,,AsKs2s", "Td9dXh", "Td9d6h,6h9dTd", "AsAsKd"):
        with pytest.raises(F.FlopSetError):
            F.parse_flop_set(bad)


def test_filter_terms() -> None:
    t = F.texture(parse_cards("AsKs2s"))
    assert F.matches(t, ["monotone", "a-high"])
    assert not F.matches(t, ["paired"])
    assert F.parse_filter("Monotone, A-high") == ["monotone", "a-high"]
    with pytest.raises(F.FlopSetError):
        F.parse_filter("wet")
