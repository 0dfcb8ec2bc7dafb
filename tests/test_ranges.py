import numpy as np
import pytest

from pokerlab.cards import COMBOS, parse_cards
from pokerlab.cards.ranges import (
    class_frequencies,
    parse_range,
    plot_range_grid,
    range_grid_text,
    range_to_string,
)
from pokerlab.errors import RangeError


@pytest.mark.parametrize(
    "text, combos",
    [
        ("AA", 6), ("AKs", 4), ("AKo", 12), ("AK", 16), ("TT+", 30), ("A2s+", 48),
        ("KTo-KQo", 36), ("KQo-KTo", 36), ("22-55", 24), ("55-22", 24), ("AsKs", 1),
        ("random", 1326), ("QQ+ AKs,AKo", 34), ("T9s+", 4), ("76s", 4),
    ],
)
def test_parse_counts(text, combos):
    w = parse_range(text)
    assert int((w > 0).sum()) == combos
    assert np.all((w == 0) | (w == 1))


def test_weights_and_overrides():
    w = parse_range("AKo:0.5, AK:0.25, AsKs")
    assert w.sum() == pytest.approx(0.25 * 15 + 1)
    w = parse_range("AKo:0.5")
    assert w.sum() == pytest.approx(6.0)


def test_specific_members():
    w = parse_range("A2s+")
    names = {tuple(sorted(map(int, COMBOS[i]))) for i in np.flatnonzero(w)}
    assert tuple(sorted(parse_cards("As2s"))) in names
    assert tuple(sorted(parse_cards("AsKs"))) in names
    assert tuple(sorted(parse_cards("AsAh"))) not in names


def test_dead_cards_remove_combos():
    w = parse_range("AA,KK", dead=parse_cards("As7d2c"))
    assert w.sum() == 3 + 6


@pytest.mark.parametrize(
    "text",
    ["AA", "TT+, AKs", "22-55, A2s+, KTo+, AsKs", "QQ+, AKs, 76s, AKo:0.5",
     "random", "77:0.3, 66:0.3, 55, AJs-A9s:0.75, K9o"],
)
def test_round_trip(text):
    w = parse_range(text)
    s = range_to_string(w)
    assert np.allclose(parse_range(s), w)


def test_round_trip_random_weights():
    rng = np.random.default_rng(3)
    for _ in range(20):
        w = np.round(rng.random(1326) * (rng.random(1326) < 0.3), 3)
        if w.sum() == 0:
            continue
        assert np.allclose(parse_range(range_to_string(w)), w, atol=1e-6)


@pytest.mark.parametrize(
    "text, pos, token",
    [("AA, AXs", 5, "AXs"), ("KK:2", 1, "KK:2"), ("QQ AK-QJ", 4, "AK-QJ"), ("TT+ 1s2s", 5, "1s2s"),
     ("AA:abc", 1, "AA:abc")],
)
def test_errors_name_token_and_position(text, pos, token):
    with pytest.raises(RangeError) as e:
        parse_range(text)
    assert f"position {pos}" in str(e.value)
    assert repr(token) in str(e.value)


def test_empty_range_is_an_error():
    with pytest.raises(RangeError):
        parse_range(" , ")


def test_grid(tmp_path):
    w = parse_range("TT+, AKs, KQo:0.5")
    g = class_frequencies(w)
    assert g.shape == (13, 13)
    assert g[0, 0] == 1 and g[0, 1] == 1 and g[1, 0] == 0  # AA, AKs, AKo
    assert g[2, 1] == 0.5  # KQo sits below the diagonal
    text = range_grid_text(w)
    assert "AA 100" in text and "KQo  50" in text
    for suffix in (".png", ".svg"):
        p = plot_range_grid(w, tmp_path / f"chart{suffix}", title="t")
        assert p.stat().st_size > 1000
    with pytest.raises(RangeError):
        plot_range_grid(w, tmp_path / "chart.gif")
    assert not list(tmp_path.glob(".*tmp"))
