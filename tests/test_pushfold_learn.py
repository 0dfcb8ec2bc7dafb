"""The Monte Carlo RL learners of push/fold (tutorial linear model and tabular)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards.cards import COMBO_MASKS, combo_index, parse_hole
from pokerlab.cards.equity import MATCHUPS_FILE
from pokerlab.errors import ConfigError
from pokerlab.pushfold.game import PushFoldConfig, synthetic_equity_matrix
from pokerlab.pushfold.learn import (
    LearnConfig,
    combo_features,
    learn,
    linear_greedy,
    nonconflicting_table,
)
from pokerlab.pushfold.solver import evaluate

needs_matrix = pytest.mark.skipif(
    not MATCHUPS_FILE.exists(), reason="exact preflop matchup table not built yet"
)


@pytest.fixture(scope="module")
def eq() -> np.ndarray:
    return synthetic_equity_matrix(0)


def _combo(text: str) -> int:
    return combo_index(*parse_hole(text))


def test_config_validation() -> None:
    with pytest.raises(ConfigError, match="'linear'"):
        LearnConfig(features="linear")
    with pytest.raises(ConfigError, match="hands"):
        LearnConfig(hands=0)
    with pytest.raises(ConfigError, match="learning rate"):
        LearnConfig(learning_rate=2.0)
    with pytest.raises(ConfigError, match="epsilon start"):
        LearnConfig(epsilon_start=1.5)
    with pytest.raises(ConfigError, match="stack"):
        LearnConfig(stack=0.2)
    assert LearnConfig().to_json()["features"] == "tutorial"


def test_features_and_deals() -> None:
    f = combo_features()
    np.testing.assert_allclose(f[_combo("AsKs")], [1.0, 12 / 13, 1.0, 1.0])
    np.testing.assert_allclose(f[_combo("7c2d")], [6 / 13, 1 / 13, 0.0, 5 ** 0.25])
    np.testing.assert_allclose(f[_combo("9h9d")], [8 / 13, 8 / 13, 0.0, 0.0])
    t = nonconflicting_table()
    assert t.shape == (1326, 1225)
    for i in (0, 700, 1325):
        assert np.all((COMBO_MASKS[t[i]] & COMBO_MASKS[i]) == 0)
        assert len(set(t[i].tolist())) == 1225


def test_linear_greedy_reading() -> None:
    theta = np.array([9.0, 1.0, 0.0, 0.0, 0.0, 0.5, -0.7])
    s, c = linear_greedy(theta)
    # GII gain is high/13; SB shoves when high/13 - 0.7 > 0: ranks 1..13, so J (10) and up
    assert s[_combo("JsTd")] == 1.0 and s[_combo("Ts9d")] == 0.0
    assert c.min() == 1.0


def test_tutorial_learner_seeded(eq: np.ndarray) -> None:
    cfg = LearnConfig(stack=10.0, hands=150_000, seed=3, checkpoints=2)
    r1 = learn(cfg, equity=eq)
    r2 = learn(cfg, equity=eq)
    assert r1.theta is not None and r2.theta is not None
    np.testing.assert_array_equal(r1.theta, r2.theta)
    r3 = learn(LearnConfig(stack=10.0, hands=150_000, seed=4, checkpoints=2), equity=eq)
    assert r3.theta is not None and not np.array_equal(r1.theta, r3.theta)
    # SB's fold is worth S - 0.5 chips (BB's fold, S - 1, shares theta[0] with BB's GII
    # value, which has no intercept of its own: the model cannot fit it exactly)
    assert r1.theta[0] + r1.theta[5] == pytest.approx(9.5, abs=0.15)
    ev = evaluate(r1.sb_shove, r1.bb_call, PushFoldConfig(stack=10.0), eq)
    assert r1.exploitability == pytest.approx(ev.exploitability)
    assert r1.exploitability > 0
    assert len(r1.history) == 2 and r1.counts["sb_shoves"] > 0
    js = r1.to_json()
    assert len(js["theta"]) == 7 and "SB fold is worth" in js["theta_reading"][0]


def test_rich_learner_improves(eq: np.ndarray) -> None:
    cfg = LearnConfig(stack=10.0, hands=400_000, features="rich", checkpoints=4,
                      epsilon_start=0.3, epsilon_end=0.0, seed=1)
    r = learn(cfg, equity=eq)
    ex = [h["exploitability_bb"] for h in r.history]
    assert ex[-1] < ex[0]
    assert r.q_table is not None and r.q_table.shape == (2, 169, 2)
    # folding in the SB is worth exactly S - 0.5 in every class that folded at all
    sb_fold = r.q_table[0, :, 0]
    np.testing.assert_allclose(sb_fold[np.isfinite(sb_fold)], 9.5)


@needs_matrix
def test_tutorial_learner_exact_matrix() -> None:
    """The tutorial's qualitative results at S = 10 with a fixed seed."""
    r = learn(LearnConfig(stack=10.0, hands=1_000_000, seed=0))
    assert r.theta is not None
    assert r.theta[0] + r.theta[5] == pytest.approx(9.5, abs=0.1)
    assert 0.40 <= r.sb_shove_fraction <= 0.70
    assert 0.30 <= r.bb_call_fraction <= 0.65
    aa = _combo("AsAh")
    assert r.sb_shove[aa] == 1.0 and r.bb_call[aa] == 1.0
    assert 0.0 < r.exploitability < 0.5


@needs_matrix
def test_rich_learner_exact_matrix() -> None:
    r = learn(LearnConfig(stack=10.0, hands=2_000_000, features="rich", checkpoints=4,
                          epsilon_start=0.3, epsilon_end=0.0, seed=0))
    ex = [h["exploitability_bb"] for h in r.history]
    assert ex[-1] < ex[0] and ex[-1] < 0.02
