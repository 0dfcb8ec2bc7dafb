"""Von Neumann's [0, 1] poker, discretised: the exact equilibrium against the known solution."""

from __future__ import annotations

from fractions import Fraction as Fr

import numpy as np
import pytest

from pokerlab.errors import ConfigError
from pokerlab.games import load_game
from pokerlab.games.vonneumann import analytic_solution
from pokerlab.solvers.lp import solve_lp
from pokerlab.solvers.normal_form import compare_with_sequence_form


def test_analytic_solution_pinned() -> None:
    s = analytic_solution(ante=1, bet=1)
    assert (s["a"], s["b"], s["c"], s["value"]) == pytest.approx((0.1, 0.7, 0.4, 0.1))
    s = analytic_solution(ante=1, bet=2)
    assert (s["a"], s["b"], s["c"], s["value"]) == pytest.approx((1 / 9, 7 / 9, 5 / 9, 1 / 9))
    # the indifference conditions hold exactly (B = 1): II at c, I at a and at b
    a, b, c, B = Fr(1, 10), Fr(7, 10), Fr(2, 5), 1
    assert (1 + B) * (a - (1 - b)) == -(a + 1 - b)
    assert c - (1 + B) * (1 - c) == 2 * a - 1
    assert c + (1 + B) * (b - c) - (1 + B) * (1 - b) == 2 * b - 1
    with pytest.raises(ConfigError):
        analytic_solution(ante=0, bet=1)


def _thresholds(n: int, bet: float) -> tuple[float, float, float, float]:
    g = load_game(f"vonneumann(num_hands={n},bet={bet})")
    r = solve_lp(g)
    pol = r.policy.to_dict()
    bet0 = np.array([pol[str(i)][1] for i in range(n)])
    call1 = np.array([pol[f"{i}b"][1] for i in range(n)])
    # measures: bluffs (bets in the lower half), value bets (upper half), calls
    bluff = bet0[: n // 2].sum() / n
    value_bets = bet0[n // 2:].sum() / n
    calls = call1.sum() / n
    return r.game_value, bluff, 1 - value_bets, 1 - calls


@pytest.mark.parametrize(("n", "bet"), [(40, 1.0), (37, 1.0), (45, 2.0)])
def test_discretisation_converges_to_the_solution(n: int, bet: float) -> None:
    s = analytic_solution(ante=1.0, bet=bet)
    v, a, b, c = _thresholds(n, bet)
    tol = 1.5 / n
    assert v == pytest.approx(s["value"], abs=tol / 4)
    assert a == pytest.approx(s["a"], abs=tol)
    assert b == pytest.approx(s["b"], abs=tol)
    assert c == pytest.approx(s["c"], abs=tol)


def test_hands_multiple_of_ten_give_the_value_exactly() -> None:
    assert solve_lp(load_game("vonneumann(num_hands=20)")).game_value == pytest.approx(
        0.1, abs=1e-9)


def test_rules_and_normal_form() -> None:
    g = load_game("vonneumann(num_hands=3)")
    s = g.new_initial_state()
    assert s.is_chance_node() and [p for _, p in s.chance_outcomes()] == [1 / 3] * 3
    s = s.child(2).child(1)
    assert s.current_player() == 0
    assert s.child(0).returns() == [1.0, -1.0]            # check: showdown for the ante
    assert s.child(1).child(0).returns() == [1.0, -1.0]   # bet, fold
    assert s.child(1).child(1).returns() == [2.0, -2.0]   # bet, call: ante + bet
    assert s.child(1).information_state_string(1) == "1b"
    tie = g.new_initial_state().child(1).child(1).child(1).child(1)
    assert tie.returns() == [0.0, 0.0]
    r = compare_with_sequence_form(g)
    assert r["normal_form"]["pure_strategies"] == [8, 8]
    assert r["sequence_form"]["sequences"] == [7, 7]
    assert r["value_difference"] < 1e-9
    with pytest.raises(ConfigError, match="num_hands"):
        load_game("vonneumann(num_hands=1)")
