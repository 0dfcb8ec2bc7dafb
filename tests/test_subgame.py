"""The spot solver: bet-tree conventions, kernel parity with plain twins, isomorphism,
threads, files, the command line and its errors."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from pokerlab.cards.cards import COMBOS, combo_index, parse_cards
from pokerlab.cards.evaluator import strength
from pokerlab.errors import BetSizeError, ConfigError, RangeError
from pokerlab.solvers.regret import regret_match_columns, regret_match_columns_py
from pokerlab.subgame import SolveConfig, SpotError, SpotFileError, SpotSolver, make_spot, tree_config
from pokerlab.subgame import solver_kernels as K
from pokerlab.subgame.deal import build_deal, count_slots
from pokerlab.subgame.spot import parse_sizes
from pokerlab.subgame.tree import CHANCE, DECISION, build_betting_tree

RIVER = "Td9d6hQc2s"
SMALL_OOP = "AA,KK,QQ,JTs,98s,A5s,76s"
SMALL_IP = "KK,QJs,T9s,AQo,88,54s,A2s"


def _names(spot, path=()):  # type: ignore[no-untyped-def]
    tree = build_betting_tree(spot)
    node = 0
    for a in path:
        node = tree.child(node, tree.action_names[node].index(a))
    return tree.action_names[node]


# ------------------------------------------------------------------------ bet tree


def test_size_parsing() -> None:
    assert [str(s) for s in parse_sizes("33%, 75%,a", raise_sizes=False, what="bet")] == ["33%", "75%", "a"]
    assert [str(s) for s in parse_sizes("2.5x,100%", raise_sizes=True, what="raise")] == ["2.5x", "100%"]
    assert parse_sizes("none", raise_sizes=True, what="raise") == ()
    for bad in ("75", "x", "0%", "-5%", "2.5x"):
        with pytest.raises(BetSizeError):
            parse_sizes(bad, raise_sizes=False, what="bet")
    with pytest.raises(BetSizeError):
        parse_sizes("1x", raise_sizes=True, what="raise")


def test_tree_conventions() -> None:
    base = dict(board=RIVER, pot=100, oop="AA", ip="KK")
    # % of pot, 2.5x raises, min raise, add all-in under 1.5 pots, a bet over the stack is all-in
    sp = make_spot(stack=1000, tree=tree_config(bets="33%,75%", raises="2.5x", allin_threshold=0), **base)
    assert _names(sp) == ["check", "bet 33", "bet 75"]
    assert _names(sp, ["bet 33"]) == ["fold", "call", "raise 83"]  # 2.5 x 33
    assert _names(sp, ["check"]) == ["check", "bet 33", "bet 75"]
    sp = make_spot(stack=120, tree=tree_config(bets="33%,75%,200%", raises="2.5x", force_allin=0), **base)
    assert _names(sp) == ["check", "bet 33", "bet 75", "allin 120"]  # 200% > stack -> all-in
    # add-all-in threshold: all-in (120) is 1.2 pots <= 1.5
    sp = make_spot(stack=120, tree=tree_config(bets="33%", raises="none", allin_threshold=1.5,
                                                force_allin=0), **base)
    assert _names(sp) == ["check", "bet 33", "allin 120"]
    assert _names(sp, ["bet 33"]) == ["fold", "call"]  # raises: none
    # force all-in: after a 75% bet and a call, 45 behind into a 250 pot: SPR 0.18 <= 0.2
    sp = make_spot(stack=120, tree=tree_config(bets="75%", raises="none", allin_threshold=0,
                                                force_allin=0.2), **base)
    assert _names(sp) == ["check", "allin 120"]
    # merging: 70% and 75% are one size (the larger stays)
    sp = make_spot(stack=1000, tree=tree_config(bets="70%,75%", allin_threshold=0, merge=0.1), **base)
    assert _names(sp) == ["check", "bet 75"]
    sp = make_spot(stack=1000, tree=tree_config(bets="70%,75%", allin_threshold=0, merge=0), **base)
    assert _names(sp) == ["check", "bet 70", "bet 75"]
    # raise cap: bet, raise, then only fold / call
    sp = make_spot(stack=10_000, tree=tree_config(bets="50%", raises="2x", allin_threshold=0, raise_cap=2),
                   **base)
    assert _names(sp, ["bet 50", "raise 100"]) == ["fold", "call"]


def test_donk_sizes_and_streets() -> None:
    tree = tree_config(bets="50%", raises="none", donk="25%", allin_threshold=0)
    sp = make_spot(board="Td9d6hQc", pot=100, stack=1000, oop="AA", ip="KK", tree=tree)
    bt = build_betting_tree(sp)
    # turn: OOP leads at 50% (no previous street); after check, bet, call the river is dealt
    assert bt.action_names[0] == ["check", "bet 50"]
    node = bt.child(bt.child(bt.child(0, 0), 1), 1)  # check, bet 50 (IP), call (OOP)
    assert bt.kind[node] == CHANCE  # the river
    river = bt.child(node, 0)
    assert bt.action_names[river] == ["check", "bet 50"]  # OOP called: its lead is a 25% donk bet
    node = bt.child(bt.child(0, 1), 1)  # bet 50 (OOP), call (IP)
    assert bt.action_names[bt.child(node, 0)] == ["check", "bet 100"]  # pot 200, 50%


# ----------------------------------------------------------------- kernel parity


def _brute_showdown(opp_reach, my_cards, opp_cards, board, win, tie, lose):  # type: ignore[no-untyped-def]
    out = np.zeros(len(my_cards))
    for h, (a, b) in enumerate(my_cards):
        if a in board or b in board:
            continue
        sh = strength(list(board) + [a, b])
        for o, (c, d) in enumerate(opp_cards):
            if {a, b} & {c, d} or c in board or d in board:
                continue
            so = strength(list(board) + [c, d])
            out[h] += opp_reach[o] * (win if sh > so else tie if sh == so else lose)
    return out


def test_showdown_and_fold_sweeps_match_brute_force() -> None:
    rng = np.random.default_rng(3)
    board = tuple(parse_cards(RIVER))
    ranges = np.zeros((2, 1326))
    live = [i for i in range(1326) if not set(COMBOS[i].tolist()) & set(board)]
    for p in (0, 1):
        ranges[p, rng.choice(live, 120, replace=False)] = rng.random(120) + 0.05
    d = build_deal(board, ranges)
    opp = rng.random(d.num_hands[1])
    # with a tie payoff (three outcomes) and relative to a tie (two sweeps only), compiled
    # and the plain-Python twin
    for win, tie, lose in ((150.0, 50.0, -50.0), (100.0, 0.0, -100.0)):
        ref = _brute_showdown(opp, d.hand_cards[0].tolist(), d.hand_cards[1].tolist(), board, win, tie, lose)
        for fn in (K.showdown_values, K.showdown_values.py_func):
            out = np.full(d.num_hands[0], 7.0)
            fn(opp, d.same[0], d.sd_order[0][0], d.sd_cards[0][0], d.sd_strength[0][0], d.sd_count[0][0],
               d.sd_order[1][0], d.sd_cards[1][0], d.sd_strength[1][0], d.sd_count[1][0],
               win, tie, lose, out, np.empty(104))
            np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-9)
        # the branch-free form over the static bounds (as the walk runs it)
        for fn in (K.showdown_fast, K.showdown_fast.py_func):
            for dt in (np.float64, np.float32):
                out = np.full(d.num_hands[0], 7.0, dtype=dt)
                fn(opp.astype(dt), d.same[0], d.sd_count[0][0], d.sd_order[1][0], d.sd_cards[1][0],
                   d.sd_count[1][0], d.sd_index[0][0], win, tie, lose, out, np.empty(d.num_hands[1] + 1),
                   np.empty(2 * d.num_hands[1] + 1), np.empty(52))
                np.testing.assert_allclose(out, ref, rtol=1e-12 if dt == np.float64 else 1e-5,
                                           atol=1e-9 if dt == np.float64 else 1e-3)
    # the static words: compiled and twin agree; the bounds count the opponent's weaker /
    # not stronger hands, and the cards and hand are my hand's
    idx = np.zeros_like(d.sd_index[0][0])
    K.showdown_index.py_func(d.sd_order[0][0], d.sd_strength[0][0], d.sd_cards[0][0], d.sd_count[0][0],
                             d.sd_strength[1][0], d.sd_cards[1][0], d.sd_count[1][0], idx)
    np.testing.assert_array_equal(idx, d.sd_index[0][0])
    n0, c0 = d.num_hands[0], int(d.sd_count[0][0])
    opp_str = d.sd_strength[1][0][:int(d.sd_count[1][0])]
    my_str = d.sd_strength[0][0][:c0]
    lo, hi = idx[:c0], idx[n0:n0 + c0]
    np.testing.assert_array_equal(lo & 4095, np.searchsorted(opp_str, my_str, side="left"))
    np.testing.assert_array_equal(hi & 4095, np.searchsorted(opp_str, my_str, side="right"))
    np.testing.assert_array_equal(lo >> 42, d.sd_order[0][0][:c0])
    np.testing.assert_array_equal((lo >> 36) & 63, d.sd_cards[0][0][0:2 * c0:2])
    np.testing.assert_array_equal((hi >> 36) & 63, d.sd_cards[0][0][1:2 * c0:2])
    fold = np.zeros(d.num_hands[0])
    K.fold_values(opp, d.hand_cards[0], d.hand_cards[1], d.same[0], 2.0, fold)
    ref_fold = [2.0 * sum(opp[o] for o, oc in enumerate(d.hand_cards[1].tolist()) if not set(hc) & set(oc))
                for hc in d.hand_cards[0].tolist()]
    np.testing.assert_allclose(fold, ref_fold, rtol=1e-12)
    # a fold and a showdown child together (showdown_fold): with the fold's own reach and with
    # the showdown's (shared), compiled and twin, the same values as the two kernels apart
    # (the opponent acting: its reach times its strategy's rows for the two actions)
    sig_s, sig_f = rng.random(d.num_hands[1]), rng.random(d.num_hands[1])
    for win, tie, lose in ((150.0, 50.0, -50.0), (100.0, 0.0, -100.0)):
        for shared, rs, rf in ((False, opp * sig_s, opp * sig_f), (True, opp, opp)):
            ref = _brute_showdown(rs, d.hand_cards[0].tolist(), d.hand_cards[1].tolist(), board,
                                  win, tie, lose)
            ref_f = np.zeros(d.num_hands[0])
            K.fold_values(rf, d.hand_cards[0], d.hand_cards[1], d.same[0], -3.0, ref_f)
            for fn in (K.showdown_fold, K.showdown_fold.py_func):
                out_s, out_f = np.full(d.num_hands[0], 7.0), np.full(d.num_hands[0], 7.0)
                fn(opp, sig_s, sig_f, shared, d.same[0], d.sd_count[0][0], d.sd_order[1][0], d.sd_cards[1][0],
                   d.sd_count[1][0], d.sd_index[0][0], win, tie, lose, -3.0, out_s, out_f,
                   np.empty(d.num_hands[1] + 1), np.empty(2 * d.num_hands[1] + 1), np.empty(52), np.empty(52))
                np.testing.assert_allclose(out_s, ref, rtol=1e-12, atol=1e-9)
                np.testing.assert_allclose(out_f, ref_f, rtol=1e-12, atol=1e-9)


def test_fused_fold_and_showdown_change_no_value() -> None:
    """The walk evaluates a river decision's fold and showdown children together; solving with
    and without that gives the same regrets, strategy sums and exploitability."""
    spot = make_spot(board=RIVER, pot=100, stack=300, oop="QQ+,AK,T9s,87s,65s", ip="JJ-88,AQ,KQs,T9o",
                     tree=tree_config(bets="50%,100%", raises="2.5x"))
    a, b = SpotSolver(spot), SpotSolver(spot)
    assert int((a.fused >= 0).sum()) > 0
    b.fused[:] = -1
    for _ in range(12):
        a.step()
        b.step()
    np.testing.assert_allclose(a.regrets, b.regrets, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(a.ssum, b.ssum, rtol=1e-5, atol=1e-4)
    assert a.exploitability()[0] == pytest.approx(b.exploitability()[0], rel=1e-6, abs=1e-7)


def test_regret_match_columns_twin() -> None:
    rng = np.random.default_rng(1)
    regrets = rng.normal(size=4 * 37).astype(np.float32)
    regrets[:37] = -1.0  # some hands with no positive regret at all
    regrets[37:74][:5] = -2.0
    out, out_py = np.zeros(4 * 37), np.zeros(4 * 37)
    regret_match_columns(regrets, 0, 4, 37, out, np.zeros(37))
    regret_match_columns_py(regrets, 0, 4, 37, out_py, np.zeros(37))
    np.testing.assert_array_equal(out, out_py)
    np.testing.assert_allclose(out.reshape(4, 37).sum(axis=0), 1.0)
    # the per-hand rule: positive regrets over their sum, uniform without one
    r = regrets.astype(np.float64).reshape(4, 37)
    pos = np.maximum(r, 0.0)
    tot = pos.sum(axis=0)
    ref = np.where(tot > 0, pos / np.where(tot > 0, tot, 1.0), 0.25)
    np.testing.assert_allclose(out.reshape(4, 37), ref, rtol=1e-14)
    # float32 vectors (the solver's default): the twin in float32 scalars agrees bit for bit
    out32, out32_py = np.zeros(4 * 37, dtype=np.float32), np.zeros(4 * 37, dtype=np.float32)
    regret_match_columns(regrets, 0, 4, 37, out32, np.zeros(37, dtype=np.float32))
    regret_match_columns_py(regrets, 0, 4, 37, out32_py, np.zeros(37, dtype=np.float32))
    np.testing.assert_array_equal(out32, out32_py)
    np.testing.assert_allclose(out32.reshape(4, 37), ref, rtol=1e-6)


def _small_river(**kw):  # type: ignore[no-untyped-def]
    return make_spot(board=RIVER, pot=100, stack=300, oop=SMALL_OOP, ip=SMALL_IP,
                     tree=tree_config(bets="50%,100%", raises="2.5x"), **kw)


def test_walk_matches_its_plain_python_twin() -> None:
    s = SpotSolver(_small_river())
    s.solve(iterations=7, target_pct=None)
    for mode in (K.MODE_BR, K.MODE_EV):
        fast = s._run(mode, 0, 8)
        orig = K.walk
        try:
            K.walk = orig.py_func  # type: ignore[assignment]
            slow = s._run(mode, 0, 8)
        finally:
            K.walk = orig
        np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12)
    # one CFR iteration through the twin changes the tables exactly as the kernel does
    a = SpotSolver(_small_river())
    b = SpotSolver(_small_river())
    a.solve(iterations=3, target_pct=None)
    b.solve(iterations=2, target_pct=None)
    orig = K.walk
    try:
        K.walk = orig.py_func  # type: ignore[assignment]
        b.step()
    finally:
        K.walk = orig
    # the twin does the stored float32 sums in numpy float32 scalars, the kernel in float64
    np.testing.assert_allclose(a.regrets, b.regrets, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(a.ssum, b.ssum, rtol=1e-4, atol=1e-4)
    # PDCFR+: the predicted regrets too
    cfg = SolveConfig(algo="pdcfr+")
    a = SpotSolver(_small_river(), cfg)
    b = SpotSolver(_small_river(), cfg)
    a.solve(iterations=3, target_pct=None)
    b.solve(iterations=2, target_pct=None)
    try:
        K.walk = orig.py_func  # type: ignore[assignment]
        b.step()
    finally:
        K.walk = orig
    assert a.pred.any()
    np.testing.assert_allclose(a.regrets, b.regrets, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(a.pred, b.pred, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(a.ssum, b.ssum, rtol=1e-4, atol=1e-4)


# ------------------------------------------------------------------ solving


def test_river_converges_constant_sum_and_algorithms() -> None:
    last = {}
    for algo in ("dcfr", "rdcfr", "pdcfr+", "dcfr+", "cfr+", "lcfr", "cfr"):
        s = SpotSolver(_small_river(), SolveConfig(algo=algo))
        e = []
        for it in (10, 50, 300):
            s.solve(iterations=it, target_pct=None)
            e.append(s.exploitability()[1])
        assert e[0] > e[1] > e[2], (algo, e)
        ev = s.values()
        assert ev[0] + ev[1] == pytest.approx(100.0, abs=1e-3)  # float32 vectors (the default)
        last[algo] = (e[2], ev[0])
    assert last["dcfr"][0] < 0.1 and last["rdcfr"][0] < 0.1
    assert last["pdcfr+"][0] < 0.1 and last["dcfr+"][0] < 0.1
    # every algorithm approaches the one game value
    for algo in ("rdcfr", "pdcfr+", "dcfr+", "cfr+", "lcfr"):
        assert last[algo][1] == pytest.approx(last["dcfr"][1], abs=0.1)


def test_each_schedule_has_its_papers_parameters_unless_given() -> None:
    assert (SolveConfig().alpha, SolveConfig().beta, SolveConfig().gamma) == (1.5, 0.0, 2.0)
    pd = SolveConfig(algo="pdcfr+")
    assert (pd.alpha, pd.gamma) == (2.3, 5.0) and pd.predictive
    assert (SolveConfig(algo="dcfr+").alpha, SolveConfig(algo="dcfr+").gamma) == (1.5, 4.0)
    assert SolveConfig(algo="pdcfr+", alpha=2.0).alpha == 2.0
    assert SolveConfig(algo="pdcfr+").to_json()["gamma"] == 5.0
    # PDCFR+ (Xu et al. 2024): regrets by (t-1)^a / ((t-1)^a + 1), floored; the prediction
    # made at the end of iteration t by t^a / (t^a + 1); the average by ((t-1)/t)^gamma
    pos, _, strat, clip = pd.discounts(4)
    assert pos == pytest.approx(3 ** 2.3 / (3 ** 2.3 + 1)) and clip
    assert strat == pytest.approx((3 / 4) ** 5)
    assert pd.discounts(1) == (0.0, 0.0, 0.0, True)
    assert pd.prediction_discount(4) == pytest.approx(4 ** 2.3 / (4 ** 2.3 + 1))
    assert SolveConfig(algo="dcfr").prediction_discount(4) == 0.0
    with pytest.raises(ConfigError, match="pdcfr\\+.*--compress"):
        SolveConfig(algo="pdcfr+", compress=True)
    with pytest.raises(ConfigError, match="unknown --algo"):
        SolveConfig(algo="pdcfr")


def test_pdcfr_plus_matches_on_the_regrets_predicted_with_the_last_ones() -> None:
    """After iteration t the stored regrets are R_t = max(d_t R_(t-1) + r_t, 0) and the
    predicted ones max(d_(t+1) R_t + r_t, 0); where R_t > 0 the instantaneous regret is
    r_t = R_t - d_t R_(t-1), so the prediction is known from two snapshots of R alone.
    The current strategy is regret matching on the prediction."""
    cfg = SolveConfig(algo="pdcfr+")
    s = SpotSolver(_small_river(), cfg, threads=1)
    s.solve(iterations=6, target_pct=None)
    before = s.regrets.astype(np.float64).copy()
    s.step()
    t = s.iteration
    after = s.regrets.astype(np.float64)
    d_t = cfg.discounts(t)[0]
    d_next = cfg.prediction_discount(t)
    moved = (after > 0) & (after != before)
    assert moved.sum() > 100
    inst = after - d_t * before
    want = np.maximum(d_next * after + inst, 0.0)
    np.testing.assert_allclose(s.pred[moved], want[moved], rtol=1e-4, atol=1e-3)
    assert (s.regrets >= 0).all() and (s.pred >= 0).all()
    # the predicted regrets are not the stored ones: the prediction is what is played
    assert not np.allclose(s.pred[moved], after[moved])
    plain = SpotSolver(_small_river(), SolveConfig(algo="dcfr+"))
    assert plain.pred.shape == (0,)
    # the memory estimate counts the second table, with or without a built tree
    assert s.size.memory_bytes - plain.size.memory_bytes == 4 * s.pred.shape[0]
    from pokerlab.subgame.solve_config import estimate_size
    assert estimate_size(_small_river(), predictive=True).memory_bytes == s.size.memory_bytes


def test_restarted_dcfr_schedule_is_postflop_solvers() -> None:
    """rdcfr: positive regrets by (i-1)^1.5 / ((i-1)^1.5 + 1) with i the 0-based iteration,
    negative ones halved, strategy sums by (j / (j + 1))^3, j the iterations since the last
    power of 4: the average restarts (multiplier 0) at 0-based iterations 1, 4, 16, 64."""
    c = SolveConfig(algo="rdcfr")
    restarts = [t - 1 for t in range(1, 300) if c.discounts(t)[2] == 0.0]
    assert restarts == [0, 1, 4, 16, 64, 256]
    pos, neg, strat, clip = c.discounts(6)  # 0-based iteration 5: 4^1 was 1 iteration ago
    assert pos == pytest.approx(4 ** 1.5 / (4 ** 1.5 + 1)) and neg == 0.5 and not clip
    assert strat == pytest.approx((1 / 2) ** 3)
    assert c.discounts(20)[2] == pytest.approx((3 / 4) ** 3)


def test_no_betting_values_are_the_equity_split_and_rake_is_paid() -> None:
    tree = tree_config(bets="none", raises="none")
    sp = make_spot(board=RIVER, pot=100, stack=300, oop=SMALL_OOP, ip=SMALL_IP, tree=tree)
    s = SpotSolver(sp)
    s.solve(iterations=1, target_pct=None)
    ev = s.values()
    assert ev[0] == pytest.approx(100 * s.equity(), abs=1e-9)
    raked = SpotSolver(make_spot(board=RIVER, pot=100, stack=300, oop=SMALL_OOP, ip=SMALL_IP, tree=tree,
                                 rake=0.05, rake_cap=3))
    raked.solve(iterations=1, target_pct=None)
    ev_r = raked.values()
    assert ev_r[0] + ev_r[1] == pytest.approx(97.0, abs=1e-9)  # min(5% of 100, cap 3)
    assert ev_r[0] == pytest.approx(97 * s.equity(), abs=1e-9)


def test_symmetric_spot_has_symmetric_values() -> None:
    # no one may bet and both hold the same range: each gets half the pot
    rng = "AA,KK,QQ,JJ,AKs,KQs,T9s"
    sp = make_spot(board="2c5d8hJs3c", pot=60, stack=100, oop=rng, ip=rng, tree=tree_config(bets="none"))
    s = SpotSolver(sp)
    s.solve(iterations=1, target_pct=None)
    assert s.values() == pytest.approx((30.0, 30.0), abs=1e-9)


def _turn_spot(**kw):  # type: ignore[no-untyped-def]
    return make_spot(board="Kh9c4s2s", pot=60, stack=120, oop="AA,KQs,T9s,66,A5s", ip="QQ,KJs,87s,A4s,99",
                     tree=tree_config(bets="75%", raises="none"), **kw)


def test_single_precision_follows_double() -> None:
    """float32 vectors (the default) and float64 ones: the same solve up to float32 rounding."""
    sp = make_spot(board="Td9d6hQc", pot=100, stack=200, oop=SMALL_OOP, ip=SMALL_IP,
                   tree=tree_config(bets="75%", raises="2.5x"))
    single = SpotSolver(sp)
    double = SpotSolver(sp, SolveConfig(precision="double"))
    assert single.scratch.dtype == np.float32 and double.scratch.dtype == np.float64
    for s in (single, double):
        s.solve(iterations=60, target_pct=None)
    np.testing.assert_allclose(single.values(), double.values(), atol=2e-3)
    # iterations amplify the last-bit differences a little, as any two CFR runs would
    np.testing.assert_allclose(single.exploitability(), double.exploitability(), rtol=0.05)
    assert single.exploitability()[1] < 2.0
    with pytest.raises(ConfigError, match="--precision"):
        SolveConfig(precision="half")


def test_isomorphism_saves_boards_and_keeps_values() -> None:
    # Kh9c4s2s: clubs/diamonds/hearts differ in ranks; a range without suit preference...
    sp = make_spot(board="Td9d6h", pot=60, stack=120, oop="TT,99,AKs", ip="88,AQs,QJs",
                   tree=tree_config(bets="75%", raises="none"))
    full = count_slots(sp.board, sp.ranges, isomorphism=False)
    iso = count_slots(sp.board, sp.ranges, isomorphism=True)
    assert full == (1, 49, 49 * 48)
    assert iso[1] < full[1] and iso[2] < full[2]  # clubs and spades are interchangeable
    a = SpotSolver(sp, SolveConfig(isomorphism=True, precision="double"))
    b = SpotSolver(sp, SolveConfig(isomorphism=False, precision="double"))
    assert a.size.memory_bytes < b.size.memory_bytes
    # the same arithmetic up to summation order: equal while rounding differences are tiny
    # (later iterations amplify the last-bit differences, as any two CFR runs would)
    a.solve(iterations=2, target_pct=None)
    b.solve(iterations=2, target_pct=None)
    np.testing.assert_allclose(a.values(), b.values(), atol=1e-9)
    np.testing.assert_allclose(a.exploitability(), b.exploitability(), atol=1e-9)
    # a card dealt on an isomorphic suit reads the representative's strategy with suits swapped
    ra = a.node_report(a.cursor("check,check,2s"))
    rb = b.node_report(b.cursor("check,check,2s"))
    np.testing.assert_allclose(np.nan_to_num(ra["strategy"]), np.nan_to_num(rb["strategy"]), atol=1e-9)
    np.testing.assert_allclose(np.nan_to_num(ra["oop"]["ev"]), np.nan_to_num(rb["oop"]["ev"]), atol=1e-9)
    a.solve(iterations=200, target_pct=None)
    b.solve(iterations=200, target_pct=None)
    assert a.exploitability()[1] < 1.0 and b.exploitability()[1] < 1.0
    np.testing.assert_allclose(a.values(), b.values(), atol=0.05)


def test_threads_give_identical_results() -> None:
    a = SpotSolver(_turn_spot(), threads=1)
    b = SpotSolver(_turn_spot(), threads=2)
    a.solve(iterations=12, target_pct=None)
    b.solve(iterations=12, target_pct=None)
    np.testing.assert_array_equal(a.regrets, b.regrets)
    np.testing.assert_array_equal(a.ssum, b.ssum)


def test_task_chunks_split_the_work_evenly() -> None:
    """The tasks below the turn's chance nodes go to the threads in contiguous ranges of
    about equal estimated cost (a call's river subtree against an all-in's showdown)."""
    sp = make_spot(board="Td9d6hQc", pot=100, stack=200, oop=SMALL_OOP, ip=SMALL_IP,
                   tree=tree_config(bets="50%, 100%", raises="2.5x"))
    s = SpotSolver(sp, threads=2)
    cost = s._task_costs()
    n = s.task_node.shape[0]
    assert cost.shape == (n,) and cost.min() >= 1.0
    # an all-in called on the turn leaves a river of one showdown per card; a check-check a
    # whole river tree
    assert cost.max() / cost.min() > 10
    for threads in (2, 3, 4):
        chunks = s._task_chunks(threads)
        assert chunks[0][0] == 0 and chunks[-1][1] == n
        assert all(a[1] == b[0] for a, b in zip(chunks[:-1], chunks[1:], strict=True))
        shares = np.array([cost[a:b].sum() for a, b in chunks]) / cost.sum()
        assert len(chunks) == threads and shares.max() < 1.0 / threads + 0.05
    assert s._task_chunks(1) == [(0, n)]


def test_node_report_and_cursor() -> None:
    s = SpotSolver(_small_river())
    s.solve(iterations=200, target_pct=None)
    rep = s.node_report(s.cursor(()))
    assert rep["player"] == "oop" and rep["actions"] == ["check", "bet 50", "bet 100"]
    assert sum(rep["frequencies"].values()) == pytest.approx(1.0)
    # the range EV at the root is the player's value
    assert rep["oop"]["range_ev"] == pytest.approx(s.values()[0], abs=1e-6)
    aa = combo_index(*sorted(parse_cards("AcAd")))
    assert np.nansum(rep["strategy"][:, aa]) == pytest.approx(1.0)
    assert 0 <= rep["oop"]["equity"][aa] <= 1
    with pytest.raises(SpotError, match="no action 'bet 33'"):
        s.cursor("bet 33")
    with pytest.raises(SpotError, match="hand is over"):
        s.cursor("bet 50,fold,check")


def test_node_locking_changes_the_best_response() -> None:
    s = SpotSolver(_small_river())
    s.solve(iterations=300, target_pct=None)
    free = s.best_response_values()
    # lock OOP's root to always bet pot: IP's best response gains against that
    strat = np.zeros((3, 1326))
    strat[2] = 1.0
    s.lock((), strat)
    rep = s.node_report(s.cursor(()))
    assert rep["frequencies"]["bet 100"] == pytest.approx(1.0)
    assert s.best_response_values()[1] > free[1] + 0.5
    with pytest.raises(SpotError, match="probabilities"):
        s.lock((), np.zeros((3, 1326)))


def test_save_load_resume_is_exact(tmp_path) -> None:  # type: ignore[no-untyped-def]
    a = SpotSolver(_turn_spot())
    a.solve(iterations=20, target_pct=None)
    a.save(tmp_path / "s.npz")
    b = SpotSolver.load(tmp_path / "s.npz")
    assert b.iteration == 20
    a.solve(iterations=35, target_pct=None)
    b.solve(iterations=35, target_pct=None)
    np.testing.assert_array_equal(a.regrets, b.regrets)
    assert a.values() == b.values()
    # PDCFR+ keeps its predicted regrets in the file: the resumed solve plays the same
    c = SpotSolver(_small_river(), SolveConfig(algo="pdcfr+"))
    c.solve(iterations=5, target_pct=None)
    c.save(tmp_path / "p.npz")
    d = SpotSolver.load(tmp_path / "p.npz")
    assert d.config.algo == "pdcfr+" and d.config.alpha == 2.3
    np.testing.assert_array_equal(c.pred, d.pred)
    c.solve(iterations=12, target_pct=None)
    d.solve(iterations=12, target_pct=None)
    np.testing.assert_array_equal(c.regrets, d.regrets)
    np.testing.assert_array_equal(c.pred, d.pred)
    raw = bytearray((tmp_path / "s.npz").read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    (tmp_path / "bad.npz").write_bytes(bytes(raw))
    with pytest.raises(SpotFileError):
        SpotSolver.load(tmp_path / "bad.npz")
    (tmp_path / "short.npz").write_bytes(bytes(raw[:200]))
    with pytest.raises(SpotFileError):
        SpotSolver.load(tmp_path / "short.npz")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(SpotFileError, match="not a pokerlab spot file"):
        SpotSolver.load(tmp_path / "text.npz")


def test_bad_spots() -> None:
    with pytest.raises(RangeError, match="empty once the board"):
        make_spot(board="AsAhAd", pot=10, stack=10, oop="AA", ip="KK")
    with pytest.raises(SpotError, match="3, 4 or 5 cards"):
        make_spot(board="AsAh", pot=10, stack=10, oop="AA", ip="KK")
    with pytest.raises(SpotError, match="--pot"):
        make_spot(board=RIVER, pot=-1, stack=10, oop="AA", ip="KK")
    with pytest.raises(RangeError, match="share a card"):
        make_spot(board=RIVER, pot=10, stack=10, oop="AcAd", ip="AcAh")
    with pytest.raises(ConfigError):
        SolveConfig(algo="magic")
    with pytest.raises(SpotError, match="max-memory"):
        SpotSolver(_small_river(), max_memory=1000)


# ---------------------------------------------------------------- command line


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pokerlab.cli", *args], capture_output=True, text=True,
                          timeout=600)


def test_cli_solve_tree_show(tmp_path) -> None:  # type: ignore[no-untyped-def]
    spot = ["--board", RIVER, "--pot", "100", "--stack", "300", "--oop", SMALL_OOP, "--ip", SMALL_IP,
            "--bets", "50%,100%"]
    r = _cli("spot", "solve", *spot, "--out", str(tmp_path / "s.npz"), "--json")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    for key in ("board", "pot", "stack", "iterations", "exploitability", "exploitability_pct", "ev_oop",
                "ev_ip", "equity_oop", "root_actions", "nodes", "memory_bytes", "seconds", "cpu_seconds"):
        assert key in obj
    assert obj["exploitability_pct"] <= 0.3
    assert obj["ev_oop"] + obj["ev_ip"] == pytest.approx(100.0, abs=1e-4)  # float32 vectors
    assert obj["exploitability"] == pytest.approx(obj["exploitability_pct"], rel=1e-9)  # pot 100
    assert set(obj["root_actions"]) == {"check", "bet 50", "bet 100"}
    r = _cli("spot", "tree", *spot, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["nodes"] == obj["nodes"]
    r = _cli("spot", "show", str(tmp_path / "s.npz"), "--node", "check,bet 100", "--json",
             "--png", str(tmp_path / "g.png"))
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["player"] == "oop" and rep["actions"][:2] == ["fold", "call"]
    assert all("strategy" in h and "ev" in h for h in rep["hands"])
    assert (tmp_path / "g.png").stat().st_size > 1000
    # an existing --out is never replaced without --resume
    r = _cli("spot", "solve", *spot, "--out", str(tmp_path / "s.npz"))
    assert r.returncode == 2 and "already exists" in r.stderr
    r = _cli("spot", "solve", "--resume", str(tmp_path / "s.npz"), "--target", "0.05", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["iterations"] >= obj["iterations"]


@pytest.mark.parametrize("args, message", [
    (["--board", "Td9dXX"], "bad card"),
    (["--oop", "AK+zz"], "range"),
    (["--bets", "75"], "bet size"),
    (["--raises", "2.5y"], "raise size"),
    (["--board", "AsAhAd", "--oop", "AA"], "empty once the board"),
    (["--max-memory", "1000"], "max-memory"),
    (["--iterations", "-1"], "--iterations"),
    (["--pot", "abc"], "pot"),
])
def test_cli_bad_input_is_one_line(args, message) -> None:  # type: ignore[no-untyped-def]
    base = {"--board": RIVER, "--pot": "100", "--stack": "300", "--oop": SMALL_OOP, "--ip": SMALL_IP}
    for k, v in zip(args[::2], args[1::2], strict=True):
        base[k] = v
    flat = [x for kv in base.items() for x in kv]
    r = _cli("spot", "solve", *flat)
    assert r.returncode == 2, r.stderr
    lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
    assert message.lower() in r.stderr.lower()
    assert "Traceback" not in r.stderr and len(lines) <= 1 or "Usage" in r.stderr


def test_cli_corrupt_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "x.npz").write_bytes(b"PK\x03\x04garbage")
    r = _cli("spot", "show", str(tmp_path / "x.npz"))
    assert r.returncode == 2 and r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1


def test_enumerated_boards_cover_every_runout() -> None:
    # without isomorphism, a flop spot has every turn and every (turn, river) pair
    sp = make_spot(board="As7d2c", pot=10, stack=10, oop="KK", ip="QQ", tree=tree_config(bets="none"))
    assert count_slots(sp.board, sp.ranges, isomorphism=False) == (1, 49, 49 * 48)
    d = build_deal(sp.board, sp.ranges, isomorphism=False)
    pairs = {tuple(r) for r in d.slot_cards[2].tolist()}
    assert len(pairs) == 49 * 48
    assert all(a != b for a, b in pairs) and not any(c in sp.board for pair in pairs for c in pair)
    bt = build_betting_tree(sp)
    assert bt.kind[0] == DECISION


def test_compressed_storage_halves_memory_and_keeps_the_solution(tmp_path) -> None:  # type: ignore[no-untyped-def]
    sp = _turn_spot()
    full = SpotSolver(sp)
    comp = SpotSolver(sp, SolveConfig(compress=True))
    assert comp.regrets.dtype == np.int16 and comp.ssum.dtype == np.uint16
    assert comp.size.memory_bytes < 0.65 * full.size.memory_bytes  # showdown tables stay full size
    full.solve(iterations=300, target_pct=None)
    comp.solve(iterations=300, target_pct=None)
    # 16-bit rounding costs a little precision, not the solution
    assert comp.exploitability()[1] < 0.5
    assert comp.exploitability()[1] < full.exploitability()[1] + 0.3
    np.testing.assert_allclose(comp.values(), full.values(), atol=0.05)
    # every stored entry uses its full 16-bit range: the largest magnitude is the scale
    used = comp.rscale > 0
    assert used.any() and np.all(comp.sscale[used] > 0)
    # save / load of a compressed solve continues exactly
    comp.save(tmp_path / "c.npz")
    back = SpotSolver.load(tmp_path / "c.npz")
    assert back.config.compress and back.regrets.dtype == np.int16
    comp.solve(iterations=310, target_pct=None)
    back.solve(iterations=310, target_pct=None)
    np.testing.assert_array_equal(comp.regrets, back.regrets)
    np.testing.assert_array_equal(comp.rscale, back.rscale)


def test_compressed_update_twin() -> None:
    rng = np.random.default_rng(5)
    k, n = 3, 17
    out = []
    for fn in (K._update_compressed, K._update_compressed.py_func):
        reg = rng.integers(-32767, 32767, size=k * n + 4).astype(np.int16)
        ssum = rng.integers(0, 65535, size=k * n + 4).astype(np.uint16)
        rs, ss = np.array([3.0, 2.5], dtype=np.float32), np.array([1.0, 7.0], dtype=np.float32)
        cfv = rng.normal(size=k * n)
        sig = rng.random(k * n)
        own = rng.random(n)
        outv = rng.normal(size=n)
        rng = np.random.default_rng(5)  # the same inputs for the twin
        fn(reg, ssum, rs, ss, 1, 4, k, n, cfv, outv, own, sig, 0.7, 0.0, 0.25, False)
        out.append((reg.copy(), ssum.copy(), rs.copy(), ss.copy()))
    for x, y in zip(out[0], out[1], strict=True):
        np.testing.assert_array_equal(x, y)
    assert np.abs(out[0][0][4:]).max() == 32767 and out[0][1][4:].max() == 65535


def test_batched_iterations_equal_single_steps() -> None:
    """On a river spot ``steps(n)`` runs n iterations in one kernel call: the same regrets,
    strategy sums and exploitability as n calls of ``step``, for DCFR and CFR+."""
    spot = make_spot(board=RIVER, pot=100, stack=300, oop="QQ+,AK,T9s,87s,65s", ip="JJ-88,AQ,KQs,T9o",
                     tree=tree_config(bets="50%,100%", raises="2.5x"))
    for algo in ("dcfr", "cfr+"):
        a, b = SpotSolver(spot, SolveConfig(algo=algo)), SpotSolver(spot, SolveConfig(algo=algo))
        for _ in range(13):
            a.step()
        b.steps(5)
        b.steps(0)
        b.steps(8)
        assert a.iteration == b.iteration == 13
        np.testing.assert_array_equal(a.regrets, b.regrets)
        np.testing.assert_array_equal(a.ssum, b.ssum)
        assert a.exploitability() == b.exploitability()
    # solve runs up to each check in one go and reports the iterations it ran
    c = SpotSolver(spot)
    seen: list[int] = []
    c.solve(iterations=25, target_pct=None, check_every=10, callback=lambda it, _p: seen.append(it))
    assert c.iteration == 25 and seen == [10, 20, 25]
    d = SpotSolver(spot)
    d.steps(25)
    np.testing.assert_array_equal(c.regrets, d.regrets)
    with pytest.raises(ConfigError, match="check_every"):
        c.solve(iterations=30, check_every=0)
