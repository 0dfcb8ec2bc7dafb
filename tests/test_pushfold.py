"""Push/fold game, exact solver, best responses and the Policy adapter.

Algorithm tests run on a small-cost synthetic (suit-symmetric) equity matrix; the
acceptance anchors run on the shipped exact preflop matrix."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards.cards import CLASS_INDEX, CLASS_OF_COMBO, NUM_COMBOS, class_combos, combo_index
from pokerlab.cards.cards import parse_hole as _hole
from pokerlab.cards.equity import MATCHUPS_FILE
from pokerlab.errors import ConfigError
from pokerlab.games.protocol import CHANCE, TERMINAL, Game, State
from pokerlab.policy import UniformRandomPolicy
from pokerlab.pushfold.game import (
    PushFoldConfig,
    PushFoldGame,
    class_payoff,
    conflict_mask,
    matrices_for,
    synthetic_equity_matrix,
)
from pokerlab.pushfold.policy import PushFoldPolicy, policy_exploitability, policy_strategies
from pokerlab.pushfold.solver import (
    best_responses,
    call_gain,
    chart_from_sweep,
    evaluate,
    shove_gain,
    solve,
    stack_grid,
    sweep,
)

needs_matrix = pytest.mark.skipif(
    not MATCHUPS_FILE.exists(), reason="exact preflop matchup table not built yet"
)


@pytest.fixture(scope="module")
def eq() -> np.ndarray:
    return synthetic_equity_matrix(0)


def _combo(text: str) -> int:
    a, b = _hole(text)
    return combo_index(a, b)


def _value_direct(s: np.ndarray, c: np.ndarray, cfg: PushFoldConfig, e: np.ndarray) -> float:
    """SB's value from the definition: mean over deals with exact card removal."""
    valid = conflict_mask()
    f, g, S = cfg.fold_loss, cfg.steal_gain, cfg.stack
    sd = np.where(valid, S * (2 * np.nan_to_num(e) - 1), 0.0)
    per_pair = (1 - s)[:, None] * (-f) + s[:, None] * ((1 - c)[None, :] * g + c[None, :] * sd)
    per_i = (per_pair * valid).sum(axis=1) / valid.sum(axis=1)
    return float(per_i.mean())


# ---------------------------------------------------------------- config and game
def test_config_validation() -> None:
    for bad in ({"stack": 0.5}, {"stack": -3.0}, {"stack": float("nan")},
                {"stack": 10.0, "ante": -0.1}, {"stack": 0.6, "ante": 0.2}):
        with pytest.raises(ConfigError, match="stack|ante"):
            PushFoldConfig(**bad)  # type: ignore[arg-type]
    cfg = PushFoldConfig(stack=10.0, ante=0.125)
    assert cfg.fold_loss == 0.625 and cfg.steal_gain == 1.125
    assert PushFoldConfig(stack=0.8).steal_gain == 0.8  # BB all-in with the blind
    assert cfg.to_json() == {"stack": 10.0, "ante": 0.125}


def test_protocol_game(eq: np.ndarray) -> None:
    cfg = PushFoldConfig(stack=10.0)
    game = PushFoldGame(config=cfg, equity=eq)
    assert isinstance(game, Game)
    st = game.new_initial_state()
    assert isinstance(st, State)
    assert st.current_player() == CHANCE and st.is_chance_node()
    out = st.chance_outcomes()
    assert len(out) == 1326 and abs(sum(p for _, p in out) - 1) < 1e-12
    st.apply_action(_combo("AsAh"))
    out2 = st.chance_outcomes()
    assert len(out2) == 1225 and abs(sum(p for _, p in out2) - 1) < 1e-12
    with pytest.raises(Exception, match="shares a card"):
        st.child(_combo("AsKd"))
    st.apply_action(_combo("7c2d"))
    assert st.current_player() == 0 and st.legal_actions() == [0, 1]
    assert st.information_state_string() == "SB AsAh"
    fold = st.child(0)
    assert fold.is_terminal() and fold.current_player() == TERMINAL
    assert fold.returns() == [-0.5, 0.5]
    shove = st.child(1)
    assert shove.current_player() == 1
    assert shove.information_state_string() == "BB 7c2d allin"
    assert shove.child(0).returns() == [1.0, -1.0]
    e = float(eq[_combo("AsAh"), _combo("7c2d")])
    r = shove.child(1).returns()
    assert r[0] == pytest.approx(10 * (2 * e - 1)) and r[1] == -r[0]
    assert st.clone().information_state_string() == "SB AsAh" and st.history == []


# ---------------------------------------------------------------- evaluation
def test_evaluate_matches_definition(eq: np.ndarray) -> None:
    rng = np.random.default_rng(1)
    s = rng.random(NUM_COMBOS)
    c = rng.random(NUM_COMBOS)
    for cfg in (PushFoldConfig(stack=7.5), PushFoldConfig(stack=3.0, ante=0.25)):
        ev = evaluate(s, c, cfg, eq)
        assert ev.sb_value == pytest.approx(_value_direct(s, c, cfg, eq), abs=1e-12)
        br_s, br_c = best_responses(s, c, cfg, eq)
        assert evaluate(br_s, c, cfg, eq).sb_value == pytest.approx(ev.sb_best_response_value,
                                                                    abs=1e-12)
        assert evaluate(s, br_c, cfg, eq).sb_value == pytest.approx(ev.bb_best_response_value,
                                                                    abs=1e-12)
        assert ev.sb_gain > 0 and ev.bb_gain > 0
        assert ev.exploitability == pytest.approx((ev.sb_gain + ev.bb_gain) / 2)
        # no pure strategy does better than the best response
        for _ in range(3):
            s2 = (rng.random(NUM_COMBOS) < 0.5).astype(float)
            assert evaluate(s2, c, cfg, eq).sb_value <= ev.sb_best_response_value + 1e-12


def test_gains_are_per_hand_evs(eq: np.ndarray) -> None:
    cfg = PushFoldConfig(stack=10.0)
    mats = matrices_for(eq)
    c = np.zeros(NUM_COMBOS)
    # BB never calls: shoving wins the blinds, a gain of f + g over folding
    np.testing.assert_allclose(shove_gain(c, cfg, mats), 1.5)
    c[:] = 1.0
    i = _combo("AsAh")
    valid = conflict_mask()[i]
    expect = np.mean(10 * (2 * eq[i, valid] - 1)) + 0.5
    assert shove_gain(c, cfg, mats)[i] == pytest.approx(expect)
    s = np.zeros(NUM_COMBOS)
    s[i] = 1.0
    g = call_gain(s, cfg, mats)
    j = _combo("KdKc")
    assert g[j] == pytest.approx(-(10 * (2 * eq[i, j] - 1)) + 1.0)
    assert np.isnan(g[_combo("AsKd")])  # blocked: never faces this shove


# ---------------------------------------------------------------- solving
@pytest.mark.parametrize("stack", [1.0, 4.0, 12.5, 40.0])
def test_lp_solution_is_exact_on_combos(eq: np.ndarray, stack: float) -> None:
    sol = solve(PushFoldConfig(stack=stack), equity=eq)
    assert abs(sol.exploitability) < 1e-9
    assert sol.sb_value == pytest.approx(_value_direct(sol.sb_shove, sol.bb_call, sol.config, eq),
                                         abs=1e-12)
    # class-constant strategies (suit symmetry)
    for k in (CLASS_INDEX["AKs"], CLASS_INDEX["T9o"], CLASS_INDEX["55"]):
        idx = np.flatnonzero(CLASS_OF_COMBO == k)
        assert np.ptp(sol.sb_shove[idx]) == 0 and np.ptp(sol.bb_call[idx]) == 0


def test_cfr_plus_converges_to_lp(eq: np.ndarray) -> None:
    cfg = PushFoldConfig(stack=10.0, ante=0.1)
    lp = solve(cfg, equity=eq)
    e1 = solve(cfg, method="cfr+", iterations=200, equity=eq)
    e2 = solve(cfg, method="cfr+", iterations=4000, equity=eq)
    assert e2.exploitability < e1.exploitability
    assert e2.exploitability < 1e-5
    assert e2.sb_value == pytest.approx(lp.sb_value, abs=2e-5)
    with pytest.raises(ConfigError, match="unknown push/fold method 'fp'"):
        solve(cfg, method="fp", equity=eq)


def test_class_reduction_matches_combo_game(eq: np.ndarray) -> None:
    cfg = PushFoldConfig(stack=6.0)
    mats = matrices_for(eq)
    b, G = class_payoff(cfg, mats)
    rng = np.random.default_rng(2)
    s_cls, c_cls = rng.random(169), rng.random(169)
    u_cls = -cfg.fold_loss + b @ s_cls + s_cls @ G @ c_cls
    ev = evaluate(s_cls[CLASS_OF_COMBO], c_cls[CLASS_OF_COMBO], cfg, eq)
    assert u_cls == pytest.approx(ev.sb_value, abs=1e-12)


def test_sweep_and_chart(eq: np.ndarray) -> None:
    grid = stack_grid(1.0, 3.0, 0.5)
    np.testing.assert_allclose(grid, [1.0, 1.5, 2.0, 2.5, 3.0])
    sw = sweep(grid, equity=eq)
    assert sw.sb_class.shape == (5, 169) and np.all(np.abs(sw.exploitability) < 1e-9)
    one = solve(PushFoldConfig(stack=2.0), equity=eq)
    assert sw.sb_value[2] == pytest.approx(one.sb_value, abs=1e-12)
    assert sw.sb_shove_fraction()[2] == pytest.approx(one.sb_shove_fraction)
    chart = chart_from_sweep(sw, 0.5)
    aa = CLASS_INDEX["AA"]
    assert chart.sb_max_stack[aa] == 3.0 and chart.labels("sb")[aa] == "3+"
    assert len(chart.text("bb").splitlines()) == 13
    with pytest.raises(ConfigError):
        stack_grid(5.0, 1.0, 0.5)


def test_policy_adapter(eq: np.ndarray) -> None:
    cfg = PushFoldConfig(stack=8.0)
    sol = solve(cfg, equity=eq)
    pol = PushFoldPolicy.from_solution(sol)
    game = PushFoldGame(config=cfg, equity=eq)
    st = game.new_initial_state()
    st.apply_action(_combo("AsAh"))
    st.apply_action(_combo("7c2d"))
    assert pol.action_probabilities(st) == {0: 0.0, 1: 1.0}
    s, c = policy_strategies(pol, game)
    np.testing.assert_array_equal(s, sol.sb_shove)
    np.testing.assert_array_equal(c, sol.bb_call)
    tab = pol.to_tabular()
    assert len(tab) == 2 * 1326
    assert tab.action_probabilities(st) == pytest.approx({0: 0.0, 1: 1.0})
    assert abs(policy_exploitability(tab, cfg, eq).exploitability) < 1e-9
    uni = policy_exploitability(UniformRandomPolicy(), cfg, eq)
    assert uni.exploitability > 0.1
    with pytest.raises(ConfigError, match="1326"):
        PushFoldPolicy(sb_shove=np.zeros(3), bb_call=np.zeros(NUM_COMBOS))


# ---------------------------------------------------------------- the exact game
ANCHORS = {5.0: (72.2, 62.3), 10.0: (58.4, 37.3), 15.0: (45.7, 28.8), 20.0: (40.3, 21.7)}


@needs_matrix
@pytest.mark.parametrize("stack", sorted(ANCHORS))
def test_anchors_exact_matrix(stack: float) -> None:
    sol = solve(PushFoldConfig(stack=stack))
    assert abs(sol.exploitability) < 1e-5
    sb, bb = ANCHORS[stack]
    assert abs(100 * sol.sb_shove_fraction - sb) <= 2.0
    assert abs(100 * sol.bb_call_fraction - bb) <= 2.0
    aa = class_combos("AA")
    assert np.all(sol.sb_shove[aa] == 1.0) and np.all(sol.bb_call[aa] == 1.0)
    assert sol.sb_shove[_combo("7c2d")] == 0.0  # the worst hand folds from 5 bb up


@needs_matrix
def test_exact_matrix_sanity() -> None:
    from pokerlab.pushfold.game import equity_matrix

    e = equity_matrix()
    valid = conflict_mask()
    np.testing.assert_allclose((e + e.T)[valid], 1.0, atol=1e-12)
    short = solve(PushFoldConfig(stack=1.0))
    assert short.sb_shove_fraction > 0.95 and short.bb_call_fraction == 1.0
    deep = solve(PushFoldConfig(stack=100.0))
    assert deep.sb_shove_fraction < 0.2
    # an ante widens the shoving range
    ante = solve(PushFoldConfig(stack=10.0, ante=0.125))
    assert ante.sb_shove_fraction > solve(PushFoldConfig(stack=10.0)).sb_shove_fraction
    assert abs(ante.exploitability) < 1e-5
    # CFR+ reaches the goal too
    cfr = solve(PushFoldConfig(stack=10.0), method="cfr+", iterations=20_000)
    assert cfr.exploitability < 1e-5


def test_class_lp_matches_full_combo_lp(eq: np.ndarray) -> None:
    """Oracle: the LP over all 1326 combos (no suit reduction) has the same value."""
    from scipy.optimize import linprog

    from pokerlab.pushfold.game import combo_payoff

    cfg = PushFoldConfig(stack=9.0, ante=0.1)
    A = combo_payoff(cfg, matrices_for(eq)) / NUM_COMBOS
    n = NUM_COMBOS
    b = np.full(n, (cfg.fold_loss + cfg.steal_gain) / n)
    res = linprog(c=np.concatenate([-b, -np.ones(n)]), A_ub=np.hstack([-A.T, np.eye(n)]),
                  b_ub=np.zeros(n), bounds=[(0, 1)] * n + [(None, 0)] * n, method="highs")
    assert res.status == 0
    full_value = -cfg.fold_loss - float(res.fun)
    assert solve(cfg, equity=eq).sb_value == pytest.approx(full_value, abs=1e-7)
