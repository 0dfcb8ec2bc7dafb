"""Normal form vs sequence form (pokerlab.solvers.normal_form) on Kuhn and small games."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import ConfigError
from pokerlab.games import load_game
from pokerlab.solvers.normal_form import (
    compare_with_sequence_form,
    normal_form,
    pure_strategy_count,
    solve_matrix_game,
)


def test_kuhn_sizes_and_value() -> None:
    nf = normal_form(load_game("kuhn"))
    assert nf.num_strategies == (64, 64)
    assert nf.num_sequences == (13, 13)
    # every pure-strategy pair's payoff is a chance average of the 6 deals (multiples of 1/6)
    assert np.allclose(nf.payoff * 6, np.round(nf.payoff * 6))
    _p, _q, v = solve_matrix_game(nf.payoff)
    assert v == pytest.approx(-1 / 18, abs=1e-9)


def test_kuhn_normal_form_equals_sequence_form() -> None:
    r = compare_with_sequence_form(load_game("kuhn"))
    assert r["normal_form"]["value"] == pytest.approx(-1 / 18, abs=1e-9)
    assert r["sequence_form"]["value"] == pytest.approx(-1 / 18, abs=1e-9)
    assert r["nf_behaviour_vs_sf"] == pytest.approx(-1 / 18, abs=1e-9)
    assert abs(r["exploitability"]["normal_form_solution"]) < 1e-9
    assert abs(r["exploitability"]["sequence_form_solution"]) < 1e-9
    p0, p1 = r["players"]
    assert p0["realisation_equivalent"] and p1["realisation_equivalent"]
    # player 1's equilibrium is unique: both forms give the same behaviour strategy
    assert r["max_behaviour_difference"][1] < 1e-7
    b1 = p1["behaviour"]
    assert b1["0b"] == pytest.approx([1.0, 0.0], abs=1e-6)   # jack folds to a bet
    assert b1["1b"] == pytest.approx([2 / 3, 1 / 3], abs=1e-6)  # queen calls 1/3
    assert b1["0p"] == pytest.approx([2 / 3, 1 / 3], abs=1e-6)  # jack bluffs 1/3
    assert b1["2b"] == pytest.approx([0.0, 1.0], abs=1e-6)
    # player 0's: one of the family alpha in [0, 1/3]: bet J alpha, bet K 3 alpha,
    # call Q after pass-bet alpha + 1/3
    b0 = p0["behaviour"]
    alpha = b0["0"][1]
    assert 0.0 <= alpha <= 1 / 3 + 1e-9
    assert b0["2"][1] == pytest.approx(3 * alpha, abs=1e-6)
    assert b0["1pb"][1] == pytest.approx(alpha + 1 / 3, abs=1e-6)
    assert r["sequence_form"]["sequences"] == [13, 13]
    assert r["normal_form"]["pure_strategies"] == [64, 64]


def test_matrix_game_known_solution() -> None:
    # matching pennies with a twist: value 1/5? rows (2,-1),(-1,1): p = (2/5, 3/5), v = 1/5
    p, q, v = solve_matrix_game(np.array([[2.0, -1.0], [-1.0, 1.0]]))
    assert v == pytest.approx(1 / 5)
    assert p == pytest.approx([2 / 5, 3 / 5])
    assert q == pytest.approx([2 / 5, 3 / 5])


def test_refuses_large_games() -> None:
    c = pure_strategy_count(load_game("leduc"))
    assert c[0] > 10**100
    with pytest.raises(ConfigError, match="pure strategies"):
        normal_form(load_game("leduc"))
    with pytest.raises(ConfigError, match="more than --max-strategies 10"):
        normal_form(load_game("kuhn"), max_strategies=10)
