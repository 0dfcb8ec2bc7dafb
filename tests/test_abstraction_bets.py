from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerlab.abstraction.action_map import (
    pot_fraction,
    pseudo_harmonic,
    translate,
    translation_probs,
)
from pokerlab.abstraction.bets import (
    PRESETS,
    BetSet,
    BetSize,
    parse_bet_set,
    parse_size,
    preset,
    resolve_raises,
)
from pokerlab.errors import BetSizeError


def test_parse_sizes() -> None:
    assert parse_size("33%") == BetSize(kind="pot", value=0.33)
    assert parse_size("0.5p") == BetSize(kind="pot", value=0.5)
    assert parse_size("2.5x") == BetSize(kind="mult", value=2.5)
    assert parse_size("5bb") == BetSize(kind="bb", value=5.0)
    assert parse_size("a") == BetSize(kind="allin")
    assert parse_size(" All-In ") == BetSize(kind="allin")


@pytest.mark.parametrize("bad", ["", "33", "x2", "-5bb", "0%", "1x", "abc", "2.5y", "%"])
def test_bad_size_names_part(bad: str) -> None:
    with pytest.raises(BetSizeError) as ei:
        parse_size(bad)
    assert repr(bad) in str(ei.value)


def test_parse_bet_set_forms() -> None:
    bs = parse_bet_set("2.5x, 4x, a; 33%, 75%, 150%, a")
    assert [s.text() for s in bs.streets[0].sizes] == ["2.5x", "4x", "a"]
    for i in (1, 2, 3):
        assert [s.text() for s in bs.streets[i].sizes] == ["33%", "75%", "150%", "a"]
    named = parse_bet_set("preflop: 3x, a, cap 2; postflop: 50%, a, cap 1")
    assert named.streets[0].cap == 2 and named.streets[3].cap == 1
    four = parse_bet_set("a; 50%; 75%; 100%, cap 0")
    assert four.streets[3].cap == 0 and four.streets[2].sizes[0].value == 0.75
    # round trip through the text form
    assert parse_bet_set(bs.text()) == bs
    assert parse_bet_set(named.text()) == named
    assert BetSet.from_json(json.loads(json.dumps(named.to_json()))) == named


@pytest.mark.parametrize("bad, part", [
    ("2.5x, 4y", "4y"), ("33%,,a", "33%,,a"), ("preflop: a; flop: 50%", "turn"),
    ("a; b; c; d; e", "b"), ("moon: 50%", "moon"), ("50%, cap x", "cap x"),
    ("50%, 50%", "50%"), ("a;;a", ";;"),
])
def test_bad_bet_sets(bad: str, part: str) -> None:
    with pytest.raises(BetSizeError) as ei:
        parse_bet_set(bad)
    assert part in str(ei.value) or bad in str(ei.value)


def test_presets() -> None:
    th = preset("thesis")
    assert [s.text() for s in th.streets[0].sizes] == ["1bb", "2bb", "5bb", "10bb", "20bb",
                                                       "50bb", "a"]
    assert all(st_.sizes == th.streets[0].sizes for st_ in th.streets)
    for name in PRESETS:
        assert preset(name).name == name
    with pytest.raises(BetSizeError, match="nope"):
        preset("nope")
    assert parse_bet_set("thesis") == th


def test_resolve_raises_worked_examples() -> None:
    # Preflop, blinds 50/100, button to act with 9950 behind (bet 50): 2.5x -> 250, 4x -> 400.
    pre = parse_bet_set("2.5x, 4x, a; 50%").streets[0]
    got = resolve_raises(pre, pot=150, current_bet=100, to_call=50, min_raise_to=200,
                         all_in_to=10000, big_blind=100, raises_so_far=0)
    assert got == [(0, 250), (1, 400), (2, 10000)]
    # Flop pot 600, no bet: 33% -> 198, 75% -> 450, 150% -> 900.
    post = parse_bet_set("33%, 75%, 150%, a").streets[1]
    got = resolve_raises(post, pot=600, current_bet=0, to_call=0, min_raise_to=100,
                         all_in_to=1000, big_blind=100, raises_so_far=0)
    assert got == [(0, 198), (1, 450), (2, 900), (3, 1000)]
    # Facing a 300 bet into 600 (pot now 900): pot raise = 300 + 1.0 * (900 + 300) = 1500.
    p100 = parse_bet_set("100%, 10%").streets[1]
    got = resolve_raises(p100, pot=900, current_bet=300, to_call=300, min_raise_to=600,
                         all_in_to=5000, big_blind=100, raises_so_far=1)
    assert got == [(1, 600), (0, 1500)]  # 10% is clamped up to the min-raise
    # clamped to all-in and merged with 'a' (first size keeps its id)
    got = resolve_raises(post, pot=600, current_bet=0, to_call=0, min_raise_to=100,
                         all_in_to=400, big_blind=100, raises_so_far=0)
    assert got == [(0, 198), (1, 400)]
    # cap reached: no raises
    capped = parse_bet_set("50%, cap 1").streets[1]
    assert resolve_raises(capped, pot=600, current_bet=300, to_call=300, min_raise_to=600,
                          all_in_to=5000, big_blind=100, raises_so_far=1) == []
    # thesis: raise by 5 BB facing a 300 bet -> 800
    th = preset("thesis").streets[1]
    got = dict((k, a) for k, a in resolve_raises(th, pot=900, current_bet=300, to_call=300,
                                                  min_raise_to=600, all_in_to=20000,
                                                  big_blind=100, raises_so_far=1))
    assert got[2] == 800 and got[0] == 600 and got[5] == 5300


# ------------------------------------------------------------------ translation
def test_pseudo_harmonic_formula_worked_examples() -> None:
    # f_A(x) = ((B - x)(1 + A)) / ((B - A)(1 + x))
    assert pseudo_harmonic(0.75, 0.5, 1.0) == pytest.approx(0.375 / 0.875)  # 3/7
    assert pseudo_harmonic(0.5, 0.25, 1.0) == pytest.approx(5 / 9)
    assert pseudo_harmonic(0.5, 0.0, 1.0) == pytest.approx(1 / 3)  # (1 - x)/(1 + x)
    assert pseudo_harmonic(2.0, 1.0, 4.0) == pytest.approx((2 * 2) / (3 * 3))
    assert pseudo_harmonic(1.0, 1.0, 4.0) == 1.0
    assert pseudo_harmonic(4.0, 1.0, 4.0) == 0.0


def test_translation_probs_examples() -> None:
    sizes = [0.33, 0.75, 1.5]
    assert translation_probs(0.75, sizes) == [(1, 1.0)]
    assert translation_probs(0.1, sizes) == [(0, 1.0)]
    assert translation_probs(9.0, sizes) == [(2, 1.0)]
    p = translation_probs(1.0, sizes)
    expect = ((1.5 - 1.0) * 1.75) / (0.75 * 2.0)
    assert p[0][0] == 1 and p[0][1] == pytest.approx(expect)
    assert p[1][0] == 2 and p[1][1] == pytest.approx(1 - expect)
    assert translation_probs(1.0, sizes, method="nearest") == [(1, 1.0)]
    assert translation_probs(1.2, sizes, method="nearest") == [(2, 1.0)]
    # indices refer to the caller's order
    assert translation_probs(0.7, [1.5, 0.75, 0.33], method="nearest") == [(1, 1.0)]
    with pytest.raises(BetSizeError, match="rng"):
        translate(1.0, sizes)
    rng = np.random.default_rng(0)
    draws = [translate(1.0, sizes, rng=rng) for _ in range(4000)]
    assert abs(draws.count(1) / 4000 - expect) < 0.03
    with pytest.raises(BetSizeError, match="moon"):
        translation_probs(1.0, sizes, method="moon")


@given(st.floats(0.0, 5.0), st.floats(0.01, 5.0), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_pseudo_harmonic_properties(a: float, gap: float, u: float, v: float) -> None:
    b = a + gap
    assert pseudo_harmonic(a, a, b) == pytest.approx(1.0)
    assert pseudo_harmonic(b, a, b) == pytest.approx(0.0, abs=1e-12)
    x1, x2 = sorted((a + u * gap, a + v * gap))
    f1, f2 = pseudo_harmonic(x1, a, b), pseudo_harmonic(x2, a, b)
    assert 0.0 <= f2 <= f1 <= 1.0 + 1e-12  # falls monotonically from 1 to 0
    if x2 - x1 > 1e-9 * (1 + b):
        assert f2 < f1


@given(st.lists(st.floats(0.05, 10.0), min_size=1, max_size=6, unique=True), st.floats(0, 12))
def test_translation_probs_sum_to_one(sizes: list[float], x: float) -> None:
    for method in ("nearest", "pseudo_harmonic"):
        pr = translation_probs(x, sizes, method=method)
        assert math.isclose(sum(p for _, p in pr), 1.0)
        assert 1 <= len(pr) <= 2
    if x in sizes:
        assert translation_probs(x, sizes) == [(sizes.index(x), 1.0)]


def test_pot_fraction() -> None:
    assert pot_fraction(raise_to=450, pot=600, current_bet=0, to_call=0) == 0.75
    assert pot_fraction(raise_to=1500, pot=900, current_bet=300, to_call=300) == 1.0
    with pytest.raises(BetSizeError):
        pot_fraction(raise_to=100, pot=900, current_bet=300, to_call=300)
