import numpy as np
import pytest

from pokerlab.cards import COMBO_INDEX, COMBOS, parse_cards
from pokerlab.cards.equity import (
    MATCHUPS_FILE,
    canonical_matchups,
    hand_equity,
    load_matchups,
    monte_carlo_equity,
    one_hot,
    preflop_equity_matrix,
    range_equity,
)
from pokerlab.cards.equity_kernels import matchup_counts, showdown_vs_range
from pokerlab.cards.equity_reference import hand_equity_reference, showdown_vs_range_reference
from pokerlab.cards.evaluator import eval_tables, strengths_on_board
from pokerlab.cards.ranges import parse_range
from pokerlab.errors import CardError


def H(text):
    return parse_cards(text)


def test_known_preflop_values():
    r = hand_equity([H("AsKs"), H("QhQd")])
    assert r.boards == 1_712_304
    assert r.win[0] == pytest.approx(0.46018, abs=5e-6)
    assert r.win[1] == pytest.approx(0.53589, abs=5e-6)
    assert r.tie[0] == pytest.approx(0.00393, abs=5e-6)
    assert r.equity[0] == pytest.approx(0.46214, abs=5e-6)
    r = hand_equity([H("AdAc"), H("KhKs")])
    assert (r.win[0], r.win[1], r.tie[0]) == pytest.approx((0.81065, 0.18554, 0.00382), abs=5e-6)


@pytest.mark.parametrize(
    "holes, board",
    [
        (["AsKs", "QhQd"], "2s3s4h5d"),
        (["AsKs", "QhQd"], "2s3s4h"),
        (["7c7d", "AhKh", "Ts9s"], "2h8h9d"),
        (["AsAd", "KsKd"], "AhKhQc2d3c"),
    ],
)
def test_parity_with_reference(holes, board):
    hs = [H(h) for h in holes]
    b = H(board)
    fast = hand_equity(hs, b)
    eq, n = hand_equity_reference(hs, b)
    assert fast.boards == n
    assert np.allclose(np.array(fast.equity) * n, eq)


def test_bad_equity_input():
    with pytest.raises(CardError, match="twice"):
        hand_equity([H("AsKs"), H("AsQd")])
    with pytest.raises(CardError):
        hand_equity([H("AsKs")])
    with pytest.raises(CardError):
        hand_equity([H("AsKs"), H("QdQh")], H("2c3c"))


def test_showdown_vs_range_parity():
    rng = np.random.default_rng(0)
    board = H("2s7h9dJcKs")
    s = strengths_on_board(board)
    w = rng.random(1326) * (rng.random(1326) < 0.2)
    combos = COMBOS.astype(np.int64)
    out = [np.zeros(1326) for _ in range(3)]
    showdown_vs_range(s, w, combos, *out)
    ref = showdown_vs_range_reference(s, w, combos)
    live = s > 0
    for a, b in zip(out, ref, strict=True):
        assert np.allclose(a[live], b[live])


def test_range_equity_postflop_matches_pairwise():
    board = H("Ah7d2c5s")
    r1 = parse_range("AK, 77", dead=board)
    r2 = parse_range("QQ+, 65s", dead=board)
    res = range_equity(r1, r2, board)
    # pairwise exact enumeration over every combo pair
    num = den = 0.0
    for i in np.flatnonzero(r1):
        for j in np.flatnonzero(r2):
            a, b = map(int, COMBOS[i])
            c, d = map(int, COMBOS[j])
            if len({a, b, c, d}) < 4:
                continue
            e = hand_equity([[a, b], [c, d]], board)
            num += r1[i] * r2[j] * e.equity[0] * e.boards
            den += r1[i] * r2[j] * e.boards
    assert res.equity[0] == pytest.approx(num / den, abs=1e-12)


def test_monte_carlo_close_to_exact_and_seeded():
    a = monte_carlo_equity([one_hot(H("AsKs")), one_hot(H("QhQd"))], samples=200_000, seed=1)
    b = monte_carlo_equity([one_hot(H("AsKs")), one_hot(H("QhQd"))], samples=200_000, seed=1)
    assert a.equity == b.equity
    assert a.stderr is not None
    assert abs(a.equity[0] - 0.46214) < 4 * a.stderr[0]
    multi = monte_carlo_equity(
        [parse_range("TT+"), parse_range("AKs,AKo"), parse_range("random")], samples=50_000, seed=2
    )
    assert sum(multi.equity) == pytest.approx(1.0)


def test_canonical_matchups_count():
    pairs, cls, flip = canonical_matchups()
    assert pairs.shape == (47_008, 2)
    assert cls.size == 812_175


def test_matchup_kernel_matches_enumeration():
    pairs = np.array([[COMBO_INDEX[51, 47], COMBO_INDEX[42, 41]]])
    out = np.zeros((1, 3), dtype=np.int64)
    matchup_counts(eval_tables(), pairs, COMBOS.astype(np.int64), out)
    r = hand_equity([[51, 47], [42, 41]])
    assert out[0, 0] == round(r.win[0] * r.boards)
    assert out[0, 2] == round(r.tie[0] * r.boards)


def test_preflop_matrix():
    assert MATCHUPS_FILE.exists()
    load_matchups()  # checksum
    m = preflop_equity_matrix()
    valid = ~np.isnan(m)
    assert valid.sum() == 2 * 812_175
    assert np.allclose((m + m.T)[valid], 1.0)
    rng = np.random.default_rng(5)
    idx = np.argwhere(valid)
    for i, j in idx[rng.choice(len(idx), 6, replace=False)]:
        e = hand_equity([list(map(int, COMBOS[i])), list(map(int, COMBOS[j]))])
        assert m[i, j] == pytest.approx(e.equity[0], abs=1e-12)
    i, j = COMBO_INDEX[51, 47], COMBO_INDEX[42, 41]
    assert m[i, j] == pytest.approx(0.46214, abs=5e-6)
    # preflop range vs range uses the matrix: AA vs KK
    res = range_equity(parse_range("AA"), parse_range("KK"))
    assert res.equity[0] == pytest.approx(0.82, abs=0.01)
    # one-hot ranges reproduce direct enumeration, win and tie included
    res = range_equity(one_hot(H("AsKs")), one_hot(H("QhQd")))
    assert (res.win[0], res.win[1], res.tie[0]) == pytest.approx((0.46018, 0.53589, 0.00393), abs=5e-6)
    assert res.equity[0] == pytest.approx(0.46214, abs=5e-6)


# ------------------------------------------------- the one blocker-aware range sweep
def test_showdown_and_fold_sweep_twins_bitwise():
    from pokerlab.cards.equity_kernels import fold_sweep, order_by_strength, showdown_sweep
    from pokerlab.cards.equity_reference import (
        fold_sweep_py,
        order_by_strength_py,
        showdown_sweep_py,
    )
    from pokerlab.cards.hand_classes import NUM_STRENGTHS

    rng = np.random.default_rng(5)
    combos = COMBOS.astype(np.int64)
    for _ in range(3):
        board = rng.permutation(52)[:5].tolist()
        s = strengths_on_board(board).astype(np.int64)
        w = rng.random(1326) * (rng.random(1326) < 0.5)
        order = np.zeros(1326, dtype=np.int64)
        m = order_by_strength(s, np.zeros(NUM_STRENGTHS + 2, dtype=np.int64), order)
        assert np.array_equal(order[:m], order_by_strength_py(s)) and m == int((s > 0).sum())
        out = [np.zeros(1326) for _ in range(3)]
        showdown_sweep(order, m, s, combos, w, *out)
        twin = showdown_sweep_py(order[:m], s, combos, w)
        for a, b in zip(out, twin, strict=True):
            assert np.array_equal(a, b)  # same sums in the same order
        ref = showdown_vs_range_reference(s, w, combos)
        live = s > 0
        for a, b in zip(out, ref, strict=True):
            assert np.allclose(a[live], b[live], rtol=0, atol=1e-9)
        f = np.zeros(1326)
        fold_sweep(combos, w, f)
        assert np.array_equal(f, fold_sweep_py(combos, w))
        disjoint = np.array([w[[j for j in range(1326) if not set(combos[j]) & set(combos[i])]]
                             .sum() for i in range(0, 1326, 97)])
        assert np.allclose(f[::97], disjoint, rtol=0, atol=1e-9)


def test_sweep_users_share_one_kernel():
    """The card abstraction's uniform showdown is the sweep with unit weights (exact)."""
    import inspect

    from pokerlab.abstraction import buckets_kernels as bk
    from pokerlab.cards.hand_classes import NUM_STRENGTHS
    from pokerlab.evaluation import fhp_br

    board = H("3c8d8hQsAc")
    s = strengths_on_board(board).astype(np.int32)
    combos = COMBOS.astype(np.int64)
    eq = np.empty(1326)
    bk.uniform_showdown(s, combos, np.zeros(NUM_STRENGTHS + 2, np.int64),
                        np.zeros(1326, np.int64), eq)
    win, tie, tot = showdown_vs_range_reference(s, np.ones(1326), combos)
    live = s > 0
    assert np.array_equal(eq[live], (win[live] + 0.5 * tie[live]) / tot[live])
    assert np.all(eq[~live] == -1.0)
    for mod in (bk, fhp_br):
        src = inspect.getsource(mod)
        assert "showdown_sweep" in src and "per_card[c1" not in src
