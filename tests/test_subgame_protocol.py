"""The spot solver against an independent model of the same spot: :class:`SpotGame` (the
spot as a protocol game, built from the betting tree and the hand evaluator only), with
pokerlab's own tabular values, best responses and full-tree CFR (issue 24, Correctness)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards.cards import COMBOS, NUM_COMBOS, combo_index, parse_cards
from pokerlab.evaluation import best_response_values, expected_values, exploitability
from pokerlab.games.compiled import KIND_TERMINAL, compile_game
from pokerlab.games.protocol import CHANCE, TERMINAL, Game, State
from pokerlab.solvers import solve
from pokerlab.subgame import SolveConfig, SpotSolver, make_spot, tree_config
from pokerlab.subgame.protocol_game import SpotGame, tabular_policy

POT = 100


def river_spot(**kw):
    """Two 7-combo ranges (some weights fractional), two bet sizes and a raise."""
    args = dict(board="Ks 8d 5c 2h 3s", pot=POT, stack=200,
                oop="AcAd,KcQc:0.5,KdQd,8c8h,5d5h,JhTh:0.7,9c9d",
                ip="QcQh,KhJh,7c6c,AhAs:0.3,4c4d,8s8h,TdTc",
                tree=tree_config(bets="50%,100%", raises="2.5x"))
    args.update(kw)
    return make_spot(**args)


def turn_spot(**kw):
    """Five combos a side, one bet size (plus all-in), no raises; the clubs and diamonds are
    interchangeable (suit isomorphism solves 35 of the 48 river cards)."""
    args = dict(board="Ks 8s 5s 2h", pot=POT, stack=100, oop="AcAd,KcQc,KdQd,9h9s,7c7d",
                ip="QcQd,JcTc,JdTd,6h6s,8c8d", tree=tree_config(bets="50%", raises="none"))
    args.update(kw)
    return make_spot(**args)


def solver_policy(game: SpotGame, solver: SpotSolver):
    """The solver's average strategy as a tabular policy of ``game`` (through the public
    cursor / node report, per combo)."""
    return tabular_policy(game, lambda path: solver.node_report(solver.cursor(list(path)))["strategy"])


def protocol_values(game: SpotGame, solver: SpotSolver):
    """(EV, BR values) through the protocol game, in the solver's convention (+ pot / 2)."""
    pol = solver_policy(game, solver)
    half = game.spot.pot / 2
    return expected_values(game, pol) + half, best_response_values(game, pol) + half, pol


@pytest.fixture(scope="module")
def river():
    return river_spot()


@pytest.fixture(scope="module")
def turn():
    return turn_spot()


# ----------------------------------------------------------------------- the game itself


def test_spot_game_follows_the_protocol(turn):
    g = SpotGame(turn)
    assert isinstance(g, Game)
    info = g.info()
    assert info.num_players == 2 and info.zero_sum and info.private_cards_first and info.perfect_recall
    root = g.new_initial_state()
    assert isinstance(root, State)
    assert root.current_player() == CHANCE and root.public_state_string() == "deal"
    outs = root.chance_outcomes()
    # 5 x 5 combos less the 2 pairs sharing a card (KcQc and KdQd with QcQd); every
    # probability proportional to w_oop * w_ip = 1
    w0, w1 = turn.ranges
    pairs = [(i, j) for i in np.nonzero(w0)[0] for j in np.nonzero(w1)[0]
             if not set(COMBOS[i]) & set(COMBOS[j])]
    assert len(outs) == len(pairs) == 23
    assert [a for a, _ in outs] == sorted(i * NUM_COMBOS + j for i, j in pairs)
    assert sum(p for _, p in outs) == pytest.approx(1.0, abs=1e-12)
    assert all(p == pytest.approx(1 / 23) for _, p in outs)
    a = combo_index(*parse_cards("Ac Ad")) * NUM_COMBOS + combo_index(*parse_cards("Qc Qd"))
    assert a in dict(outs)
    st = root.child(a)
    assert root.current_player() == CHANCE  # child() leaves the parent alone
    assert st.current_player() == 0 and st.legal_actions() == [0, 1, 2]
    assert [st.action_to_string(x) for x in st.legal_actions()] == ["check", "bet 50", "allin 100"]
    assert st.information_state_string(0) == "AcAd|Ks8s5s2h|"
    st.apply_action(0)  # check
    st.apply_action(0)  # check behind: the river is dealt
    assert st.is_chance_node()
    cards = st.chance_outcomes()
    assert len(cards) == 52 - 4 - 4 and all(p == pytest.approx(1 / 44) for _, p in cards)
    dead = set(parse_cards("Ks 8s 5s 2h Ac Ad Qc Qd"))
    assert not dead & {c for c, _ in cards}
    st.apply_action(parse_cards("Th")[0])
    assert st.public_state_string() == "Ks8s5s2h|check,check,Th"
    assert st.information_state_string(1) == "QcQd|Ks8s5s2h|check,check,Th"
    assert st.path == ("check", "check", "Th")
    st.apply_action(1)  # OOP bets 50
    assert st.current_player() == 1
    assert [st.action_to_string(x) for x in st.legal_actions()] == ["fold", "call"]
    st.apply_action(0)  # IP folds
    assert st.current_player() == TERMINAL and st.is_terminal()
    assert st.payoffs() == [100.0, 0.0] and st.returns() == [50.0, -50.0]


def test_returns_are_net_zero_sum_and_within_the_bounds(river):
    for spot, zero in ((river, True), (river_spot(rake=0.05, rake_cap=8), False)):
        g = SpotGame(spot)
        cg = compile_game(g)
        term = cg.kind == KIND_TERMINAL
        u = np.asarray(cg.utility)[term]
        info = g.info()
        assert info.zero_sum is zero
        assert u.min() >= info.min_utility and u.max() <= info.max_utility
        if zero:
            assert np.abs(u.sum(axis=1)).max() == 0.0
        else:
            assert (u.sum(axis=1) < 0).all()  # the rake, at every terminal
            assert -u.sum(axis=1).max() == pytest.approx(5.0) and -u.sum(axis=1).min() == pytest.approx(8.0)


# -------------------------------------------------------- values and best response, exactly


@pytest.mark.parametrize("which", ["river", "turn"])
@pytest.mark.parametrize("iso", [True, False])
def test_values_and_best_responses_equal_the_protocol_game(which, iso, river, turn):
    spot = river if which == "river" else turn
    s = SpotSolver(spot, SolveConfig(precision="double", algo="dcfr", isomorphism=iso))
    s.solve(iterations=60, target_pct=None)  # a strategy well away from equilibrium too
    g = SpotGame(spot)
    ev, br, pol = protocol_values(g, s)
    np.testing.assert_allclose(ev, s.values(), atol=1e-6, rtol=0)
    np.testing.assert_allclose(br, s.best_response_values(), atol=1e-6, rtol=0)
    assert sum(s.values()) == pytest.approx(POT, abs=1e-6)
    assert exploitability(g, pol) == pytest.approx(s.exploitability()[0], abs=1e-6)


def test_a_flop_spot_through_two_dealt_streets():
    """A flop with tiny ranges (clubs and hearts interchangeable: 36 of 49 turns, 1,429 of
    2,352 turn-river boards solved) and one river bet: exact through both chance streets."""
    spot = make_spot(board="Ks 8s 5d", pot=POT, stack=100, oop="AcAh,KcQc,KhQh", ip="QcQh,JsTs",
                     tree=tree_config(bets="none", river_bets="100%", raises="none", allin_threshold=0))
    s = SpotSolver(spot, SolveConfig(precision="double", isomorphism=True))
    assert s.size.boards == (1, 36, 1429)
    s.solve(iterations=30, target_pct=None)
    ev, br, _ = protocol_values(SpotGame(spot), s)
    np.testing.assert_allclose(ev, s.values(), atol=1e-6, rtol=0)
    np.testing.assert_allclose(br, s.best_response_values(), atol=1e-6, rtol=0)


def test_isomorphism_changes_nothing(turn):
    out = []
    for iso in (True, False):
        s = SpotSolver(turn, SolveConfig(precision="double", isomorphism=iso))
        s.solve(iterations=40, target_pct=None)
        out.append((s.values(), s.best_response_values()))
    assert s.size.boards[2] == 48
    assert SpotSolver(turn, SolveConfig(precision="double", isomorphism=True)).size.boards[2] == 35
    np.testing.assert_allclose(np.array(out[0]), np.array(out[1]), atol=1e-6, rtol=0)


# ------------------------------------------------------------------ the same game value


@pytest.mark.parametrize("which, spot_its, cfr_its", [("river", 3000, 10000), ("turn", 3000, 5000)])
def test_full_tree_cfr_reaches_the_same_game_value(which, spot_its, cfr_its, river, turn):
    spot = river if which == "river" else turn
    s = SpotSolver(spot, SolveConfig(precision="double", algo="dcfr"))
    s.solve(iterations=spot_its, target_pct=None)
    e_spot = s.exploitability()[0]
    g = SpotGame(spot)
    res = solve(g, algo="dcfr", iterations=cfr_its)
    assert res.exploitability is not None and res.game_value is not None
    value_cfr = res.game_value + POT / 2
    # |v(sigma) - v*| <= 2 * exploitability (mean of the two gains) for each strategy pair
    tol = min(2 * (e_spot + res.exploitability), 1e-3)
    assert e_spot < 1e-3 and res.exploitability < 1e-3
    assert s.values()[0] == pytest.approx(value_cfr, abs=tol)
    assert s.values()[1] == pytest.approx(POT - value_cfr, abs=tol)
    # and the protocol game's evaluation of CFR's policy says the same as CFR itself
    assert exploitability(g, res.policy) == pytest.approx(res.exploitability, abs=1e-9)


# ---------------------------------------------------------- a half-street toy game, exactly


def test_polarised_range_against_a_bluff_catcher():
    """River, OOP must check; IP holds 3 nut combos (88: a set) and 4 air combos (JTs),
    OOP 12 bluff catchers (KQ: top pair, beats the air, loses to the set); IP may bet the
    pot once, no raises.  Nash: IP bets every set and bluffs B = V * b / (P + b) = 1.5 combos
    (bluffs are b / (P + 2b) = 1/3 of its bets), i.e. 37.5 % of the air; OOP calls P / (P + b)
    = 1/2 (the air's indifference); OOP's value is P * P(IP checks) = 100 * 2.5 / 7."""
    P, b = 100, 100
    spot = make_spot(board="Ks 8d 5c 2h 3s", pot=P, stack=1000, oop="KQ", ip="88,JTs",
                     tree=tree_config(bets="100%", oop_bets="none", raises="none", allin_threshold=0))
    s = SpotSolver(spot, SolveConfig(precision="double", algo="dcfr"))
    assert s.action_names(0) == ["check"]
    pct = s.solve(iterations=3000, target_pct=0.005)
    assert pct <= 0.005
    rep = s.node_report(s.cursor(["check"]))
    assert rep["player"] == "ip" and rep["actions"] == ["check", f"bet {b}"]
    strat = rep["strategy"]
    w = spot.ranges[1]
    hands = np.nonzero(w)[0]
    nuts = [h for h in hands if 6 in COMBOS[h] // 4]  # rank 8 = index 6
    air = [h for h in hands if h not in nuts]
    assert len(nuts) == 3 and len(air) == 4
    assert strat[1, nuts].min() > 0.99
    bluff = float(strat[1, air].mean())
    value_combos, bluff_combos = 3.0, 3.0 * b / (P + b)
    assert bluff == pytest.approx(bluff_combos / len(air), abs=1e-2)  # 0.375
    assert rep["frequencies"][f"bet {b}"] == pytest.approx((value_combos + bluff_combos) / 7, abs=1e-2)
    rep2 = s.node_report(s.cursor(["check", f"bet {b}"]))
    assert rep2["player"] == "oop" and rep2["actions"] == ["fold", "call"]
    assert rep2["frequencies"]["call"] == pytest.approx(P / (P + b), abs=1e-2)
    ev_oop = P * (len(air) - bluff_combos) / 7
    assert s.values()[0] == pytest.approx(ev_oop, abs=0.05)
    # full-tree CFR on the protocol game agrees
    res = solve(SpotGame(spot), algo="dcfr", iterations=2000)
    assert res.game_value + P / 2 == pytest.approx(ev_oop, abs=1e-3)


# ------------------------------------------------------------------------- convergence


def test_exploitability_falls_with_iterations(river):
    s = SpotSolver(river, SolveConfig(precision="double", algo="dcfr"))
    seen = []
    for it in (10, 50, 200):
        s.solve(iterations=it, target_pct=None)
        seen.append(s.exploitability()[1])
    assert seen[0] > seen[1] > seen[2]
    assert seen[2] < 0.5


# --------------------------------------------------------------- symmetry and plain equity


def test_no_betting_gives_the_equity_split():
    rng = "AcAd,KcQc:0.5,KdQd,8c8h,5d5h,JhTh:0.7,9c9d,QcQh,7c6c"
    nobet = tree_config(bets="none", raises="none")
    # identical ranges, nobody can bet: a symmetric game, each gets half the pot
    sym = make_spot(board="Ks 8d 5c 2h 3s", pot=POT, stack=200, oop=rng, ip=rng, tree=nobet)
    s = SpotSolver(sym, SolveConfig(precision="double"))
    s.solve(iterations=1, target_pct=None)
    ev = s.values()
    assert ev[0] == pytest.approx(POT / 2, abs=1e-9) and ev[1] == pytest.approx(POT / 2, abs=1e-9)
    assert s.equity() == pytest.approx(0.5, abs=1e-9)
    # different ranges on the turn: EV = pot x equity over every river, both counted independently
    for spot in (turn_spot(tree=nobet), river_spot(tree=nobet)):
        g = SpotGame(spot)
        s = SpotSolver(spot, SolveConfig(precision="double"))
        s.solve(iterations=1, target_pct=None)
        only = tabular_policy(g, lambda path: np.ones((1, NUM_COMBOS)))
        ev_p = expected_values(g, only) + POT / 2
        np.testing.assert_allclose(s.values(), ev_p, atol=1e-6, rtol=0)
        assert s.values()[0] == pytest.approx(POT * s.equity(), abs=1e-6)


# ----------------------------------------------------------------------------------- rake


@pytest.mark.parametrize("which", ["river", "turn"])
def test_rake_reduces_the_values_by_the_expected_rake(which):
    spot = (river_spot if which == "river" else turn_spot)(rake=0.05, rake_cap=8)
    s = SpotSolver(spot, SolveConfig(precision="double"))
    s.solve(iterations=200, target_pct=None)
    g = SpotGame(spot)
    ev, br, pol = protocol_values(g, s)
    np.testing.assert_allclose(ev, s.values(), atol=1e-6, rtol=0)
    np.testing.assert_allclose(br, s.best_response_values(), atol=1e-6, rtol=0)
    expected_rake = -float(np.sum(expected_values(g, pol)))
    assert 5.0 <= expected_rake <= 8.0
    assert sum(s.values()) == pytest.approx(POT - expected_rake, abs=1e-6)
    chips = 0.5 * float(np.sum(br - ev))
    assert s.exploitability()[0] == pytest.approx(chips, abs=1e-6)


# ------------------------------------------------------------------------- node locking


def test_locking_oop_to_check_is_the_game_without_oop_bets(river):
    """A river lock of OOP's root to 'check' is the spot where OOP has no bet (its only bet
    is at the root; its raises stay): the re-solved values equal that game's value, which
    full-tree CFR finds on its protocol game; IP's best response is the protocol game's."""
    s = SpotSolver(river, SolveConfig(precision="double", algo="dcfr"))
    s.solve(iterations=400, target_pct=None)
    free_ip = s.values()[1]
    k = len(s.action_names(0))
    check = np.zeros((k, NUM_COMBOS))
    check[0] = 1.0
    locked = SpotSolver(river, SolveConfig(precision="double", algo="dcfr"))
    locked.lock((), check)
    locked.solve(iterations=1000, target_pct=None)
    rep = locked.node_report(locked.cursor(()))
    live = river.ranges[0] > 0
    assert np.all(rep["strategy"][0, live] == 1.0)
    g = SpotGame(river)
    ev, br, _ = protocol_values(g, locked)
    np.testing.assert_allclose(br, locked.best_response_values(), atol=1e-6, rtol=0)
    np.testing.assert_allclose(ev, locked.values(), atol=1e-6, rtol=0)
    restricted = river_spot(tree=tree_config(bets="50%,100%", oop_bets="none", raises="2.5x"))
    res = solve(SpotGame(restricted), algo="dcfr", iterations=3000)
    gain_ip = locked.best_response_values()[1] - locked.values()[1]
    assert gain_ip < 0.01
    tol = 2 * (gain_ip + res.exploitability) + 1e-6
    assert locked.values()[1] == pytest.approx(POT / 2 - res.game_value, abs=tol)
    # restricting OOP can only help IP
    assert locked.values()[1] > free_ip + 0.1


def test_locking_some_hands_to_bet_moves_the_best_response(river):
    s = SpotSolver(river, SolveConfig(precision="double", algo="dcfr", isomorphism=False))
    s.solve(iterations=200, target_pct=None)
    br_free = s.best_response_values()
    names = s.action_names(0)
    bet = np.zeros((len(names), NUM_COMBOS))
    bet[names.index("bet 100")] = 1.0
    hands = np.zeros(NUM_COMBOS, dtype=bool)
    air = parse_cards("Jh Th")
    hands[combo_index(min(air), max(air))] = True  # JhTh: air, locked to bet the pot
    s.lock((), bet, hands)
    rep = s.node_report(s.cursor(()))
    jt = combo_index(min(air), max(air))
    assert rep["strategy"][names.index("bet 100"), jt] == 1.0
    g = SpotGame(river)
    ev, br, _ = protocol_values(g, s)  # right after the lock, nothing re-solved yet
    np.testing.assert_allclose(br, s.best_response_values(), atol=1e-6, rtol=0)
    np.testing.assert_allclose(ev, s.values(), atol=1e-6, rtol=0)
    assert not np.allclose(br, br_free, atol=1e-3)
    s.solve(iterations=600, target_pct=None)
    ev, br, _ = protocol_values(g, s)
    np.testing.assert_allclose(br, s.best_response_values(), atol=1e-6, rtol=0)
    assert s.node_report(s.cursor(()))["strategy"][names.index("bet 100"), jt] == 1.0
