"""Parity of the push/fold numba kernels with their plain-Python twins."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards.cards import CLASS_OF_COMBO
from pokerlab.pushfold.game import (
    PushFoldConfig,
    class_payoff,
    matrices_for,
    synthetic_equity_matrix,
)
from pokerlab.pushfold.learn import (
    LearnConfig,
    combo_features,
    draw_chunk,
    nonconflicting_table,
)
from pokerlab.pushfold.pushfold_kernels import (
    cfr_plus_kernel,
    cfr_plus_py,
    mc_linear_kernel,
    mc_linear_py,
    mc_tabular_kernel,
    mc_tabular_py,
)


@pytest.fixture(scope="module")
def eq() -> np.ndarray:
    return synthetic_equity_matrix(0)


def _cfr_state(K: int) -> list[np.ndarray]:
    return [np.zeros((K, 2)), np.zeros((K, 2)), np.zeros(K), np.zeros(K)]


def test_cfr_plus_parity_random_game() -> None:
    rng = np.random.default_rng(3)
    K = 12
    b = rng.normal(size=K)
    G = rng.normal(size=(K, K))
    a = _cfr_state(K)
    p = _cfr_state(K)
    w1 = cfr_plus_kernel(b, G, 40, 1, *a)
    w2 = cfr_plus_py(b, G, 40, 1, *p)
    assert w1 == w2 == sum(range(1, 41))
    for x, y in zip(a, p, strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12)
    # continuing from a later iteration number matches too
    w1 = cfr_plus_kernel(b, G, 5, 41, *a)
    w2 = cfr_plus_py(b, G, 5, 41, *p)
    assert w1 == w2
    for x, y in zip(a, p, strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12)


def test_cfr_plus_parity_class_game(eq: np.ndarray) -> None:
    b, G = class_payoff(PushFoldConfig(stack=10.0), matrices_for(eq))
    a = _cfr_state(169)
    p = _cfr_state(169)
    cfr_plus_kernel(b, G, 3, 1, *a)
    cfr_plus_py(b, G, 3, 1, *p)
    for x, y in zip(a, p, strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-15)
    assert a[2].max() > 0  # something shoved


def test_mc_linear_parity(eq: np.ndarray) -> None:
    cfg = LearnConfig(stack=10.0, hands=3000, learning_rate=0.01, epsilon_start=0.6,
                      epsilon_end=0.1)
    ch = draw_chunk(np.random.default_rng(5), 0, 3000, cfg)
    game = cfg.game
    e = np.nan_to_num(eq, nan=0.5)
    feats = np.ascontiguousarray(combo_features())
    nonconf = nonconflicting_table()
    th1, th2 = np.zeros(7), np.zeros(7)
    c1, c2 = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
    args = (ch.sb, ch.bbk, ch.u_eps_sb, ch.u_act_sb, ch.u_eps_bb, ch.u_act_bb, ch.u_win, ch.eps,
            cfg.learning_rate, game.stack, game.fold_loss, game.steal_gain)
    mc_linear_kernel(th1, feats, e, nonconf, *args, c1)
    mc_linear_py(th2, feats, e, nonconf, *args, c2)
    np.testing.assert_allclose(th1, th2, rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(c1, c2)
    assert c1[0] > 0 and c1[2] > 0 and c1[3] > 0


def test_mc_tabular_parity(eq: np.ndarray) -> None:
    cfg = LearnConfig(stack=7.0, ante=0.1, hands=3000, features="rich")
    ch = draw_chunk(np.random.default_rng(9), 0, 3000, cfg)
    game = cfg.game
    e = np.nan_to_num(eq, nan=0.5)
    nonconf = nonconflicting_table()
    cls = CLASS_OF_COMBO.astype(np.int64)

    def state() -> list[np.ndarray]:
        return [np.zeros((2, 169, 2)), np.zeros((2, 169, 2)), np.zeros((2, 169)),
                np.zeros((2, 169))]

    a, p = state(), state()
    args = (cls, e, nonconf, ch.sb, ch.bbk, ch.u_eps_sb, ch.u_act_sb, ch.u_eps_bb, ch.u_act_bb,
            ch.u_win, ch.eps, ch.wts, game.stack, game.fold_loss, game.steal_gain)
    mc_tabular_kernel(*a, *args)
    mc_tabular_py(*p, *args)
    for x, y in zip(a, p, strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-12)
    assert a[1].sum() > ch.wts.sum()  # SB decisions + BB decisions (weighted)


def test_payoff_products_parity(eq: np.ndarray) -> None:
    from pokerlab.cards.cards import COMBO_MASKS
    from pokerlab.pushfold.pushfold_kernels import payoff_products_kernel, payoff_products_py

    mats = matrices_for(eq)
    rng = np.random.default_rng(4)
    s, c = rng.random(1326), rng.random(1326)
    out_k = [np.empty(1326), np.empty(1326)]
    out_p = [np.empty(1326), np.empty(1326)]
    payoff_products_kernel(mats.D, COMBO_MASKS, s, c, 12.0, 1.25, *out_k)
    payoff_products_py(mats.D, COMBO_MASKS, s, c, 12.0, 1.25, *out_p)
    for x, y in zip(out_k, out_p, strict=True):
        np.testing.assert_allclose(x, y, rtol=1e-10, atol=1e-12)
    A = (12.0 * mats.D - 1.25 * mats.V) / 1225
    np.testing.assert_allclose(out_k[0], A @ c, atol=1e-12)
    np.testing.assert_allclose(out_k[1], s @ A, atol=1e-12)
