"""Heads-up no-limit hold'em engine: rules on worked examples, the kernel twin, the Game."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pokerlab.agents.oracle import random_config
from pokerlab.agents.random_agent import (
    DEFAULT_WEIGHTS,
    SHOWDOWN_WEIGHTS,
    SplitMix64,
    choose,
    deal_cards,
    kernel_playouts,
    python_playouts,
)
from pokerlab.cards.cards import parse_cards
from pokerlab.cards.evaluator import eval_tables
from pokerlab.errors import CardError, ConfigError
from pokerlab.games import load_game
from pokerlab.games.hunl import CHECK_CALL, FOLD, raise_action
from pokerlab.holdem import engine_kernels as K
from pokerlab.holdem.engine import (
    Action,
    ActionKind,
    HoldemConfig,
    HoldemState,
    IllegalActionError,
    Phase,
)


def dealt(cfg: HoldemConfig, h0: str = "AsAh", h1: str = "KdKc") -> HoldemState:
    s = HoldemState(config=cfg)
    s.deal_hole(parse_cards(h0))
    s.deal_hole(parse_cards(h1))
    return s


# ----------------------------------------------------------------------------- config
def test_config_validation() -> None:
    with pytest.raises(ConfigError, match="small_blind < big_blind"):
        HoldemConfig(small_blind=100, big_blind=100)
    with pytest.raises(ConfigError, match="stack 150 of player 0"):
        HoldemConfig(stacks=(150, 1000), small_blind=50, big_blind=100, ante=50)
    with pytest.raises(ConfigError, match="exactly 2 stacks"):
        HoldemConfig(stacks=(1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="integer"):
        HoldemConfig(stacks=(1000.5, 1000))  # type: ignore[arg-type]
    cfg = HoldemConfig.from_bb(200)
    assert cfg.stacks == (20000, 20000)
    assert HoldemConfig.from_json(cfg.to_json()) == cfg


# ----------------------------------------------------------------------------- rules
def test_blinds_and_first_action() -> None:
    s = dealt(HoldemConfig())
    assert s.phase == Phase.BETTING
    assert s.stacks == [19900, 19950] and s.bets == [100, 50] and s.pot == 150
    assert s.actor == 1 and s.to_call == 50  # the button (small blind) acts first preflop
    lg = s.legal()
    assert (lg.can_fold, lg.call_amount, lg.can_raise, lg.min_raise_to, lg.max_raise_to) == (
        True, 50, True, 200, 20000)


def test_min_raise_follows_last_increment() -> None:
    s = dealt(HoldemConfig())
    s.raise_to(300)  # raise by 200
    lg = s.legal()
    assert lg.player == 0 and lg.call_amount == 200 and lg.min_raise_to == 500
    s.raise_to(1000)  # raise by 700
    assert s.legal().min_raise_to == 1700
    s.check_or_call()
    assert s.phase == Phase.DEAL_BOARD and s.cards_due() == 3 and s.pot == 2000
    s.deal_board(parse_cards("2c7d9h"))
    assert s.actor == 0 and s.bets == [0, 0]  # big blind first after the flop
    lg = s.legal()
    assert (lg.can_fold, lg.call_amount, lg.min_raise_to, lg.max_raise_to) == (
        False, 0, 100, 19000)
    s.raise_to(100)  # min bet = one big blind
    assert s.legal().min_raise_to == 200


def test_big_blind_option_and_check_through() -> None:
    s = dealt(HoldemConfig())
    s.check_or_call()  # limp
    lg = s.legal()
    assert lg.player == 0 and not lg.can_fold and lg.call_amount == 0
    assert lg.min_raise_to == 200
    s.check_or_call()
    for cards in ("2c7d9h", "Js", "3d"):
        s.deal_board(parse_cards(cards))
        s.check_or_call()
        s.check_or_call()
    assert s.is_terminal and s.is_showdown and s.showdown_order == [0, 1]
    assert s.payoffs() == (100, -100)  # aces beat kings
    assert s.final_stacks() == (20100, 19900)


def test_fold_payoffs_with_ante() -> None:
    s = dealt(HoldemConfig(ante=10))
    assert s.pot == 170
    s.fold()
    assert s.payoffs() == (60, -60)
    s = dealt(HoldemConfig(ante=10))
    s.raise_to(400)
    s.fold()
    assert s.payoffs() == (-110, 110)


def test_short_all_in_does_not_reopen() -> None:
    cfg = HoldemConfig(stacks=(5000, 1300), small_blind=50, big_blind=100)
    s = dealt(cfg)
    s.check_or_call()
    s.check_or_call()
    s.deal_board(parse_cards("2c7d9h"))
    s.raise_to(1000)  # player 0 bets 1000
    lg = s.legal()
    assert lg.max_raise_to == 1200 and lg.min_raise_to == 1200  # short all-in only
    s.raise_to(1200)  # all-in for less than a full raise (+200 < 1000)
    lg = s.legal()
    assert lg.player == 0 and lg.can_fold and lg.call_amount == 200 and not lg.can_raise
    with pytest.raises(IllegalActionError, match="cannot bet or raise"):
        s.raise_to(3000)
    s.check_or_call()
    assert s.phase == Phase.DEAL_BOARD and s.showdown_order == [1, 0]
    s.deal_board(parse_cards("Js"))
    s.deal_board(parse_cards("3d"))
    assert s.is_terminal and s.payoffs() == (1300, -1300)


def test_uncalled_bet_returned_and_short_call() -> None:
    cfg = HoldemConfig(stacks=(20000, 3000), small_blind=50, big_blind=100)
    s = dealt(cfg, "KdKc", "AsAh")
    s.raise_to(300)
    s.raise_to(20000)  # player 0 shoves 20000 into a 3000 stack
    lg = s.legal()
    assert lg.call_amount == 2700 and not lg.can_raise
    s.check_or_call()  # calls all-in for less
    assert s.stacks == [17000, 0] and s.pot == 6000  # 17000 uncalled chips went back
    for c in ("2c7d9h", "Js", "3d"):
        s.deal_board(parse_cards(c))
    assert s.payoffs() == (-3000, 3000)


def test_short_stacked_button_preflop() -> None:
    # Button has 80 chips: calling the big blind is all-in for less.
    cfg = HoldemConfig(stacks=(1000, 80), small_blind=50, big_blind=100)
    s = dealt(cfg)
    lg = s.legal()
    assert lg.call_amount == 30 and not lg.can_raise and lg.can_fold
    s.check_or_call()
    assert s.phase == Phase.DEAL_BOARD and s.pot == 160 and s.stacks == [920, 0]
    for c in ("2c7d9h", "Js", "3d"):
        s.deal_board(parse_cards(c))
    assert s.payoffs() == (80, -80)


def test_split_pot() -> None:
    s = dealt(HoldemConfig(), "2c3d", "2h3s")
    s.raise_to(700)
    s.check_or_call()
    for c in ("AsKsQs", "Js", "Ts"):  # royal flush on board
        s.deal_board(parse_cards(c))
        s.check_or_call()
        s.check_or_call()
    assert s.showdown_outcome() == 0 and s.payoffs() == (0, 0)


def test_illegal_actions_and_cards() -> None:
    s = HoldemState(config=HoldemConfig())
    with pytest.raises(IllegalActionError):
        s.check_or_call()
    s.deal_hole(parse_cards("AsAh"))
    with pytest.raises(CardError, match="As dealt twice"):
        s.deal_hole(parse_cards("AsKd"))
    s.deal_hole(parse_cards("KdKc"))
    with pytest.raises(IllegalActionError, match="outside the legal range 200..20000"):
        s.raise_to(199)
    with pytest.raises(IllegalActionError, match="outside"):
        s.raise_to(20001)
    s.check_or_call()
    with pytest.raises(IllegalActionError, match="not facing a bet"):
        s.fold()
    with pytest.raises(IllegalActionError):
        s.payoffs()


def test_clone_is_independent() -> None:
    s = dealt(HoldemConfig())
    c = s.clone()
    c.raise_to(500)
    assert s.bets == [100, 50] and c.bets == [100, 500]
    assert s.betting_string() == "" and c.betting_string() == "r500"


def test_unknown_cards_betting_only() -> None:
    s = HoldemState(config=HoldemConfig())
    s.deal_hole(None)
    s.deal_hole(None)
    s.raise_to(300)
    s.check_or_call()
    s.deal_board(None)
    s.check_or_call()
    s.check_or_call()
    s.deal_board(None)
    s.check_or_call()
    s.check_or_call()
    s.deal_board(None)
    s.raise_to(600)
    s.check_or_call()
    assert s.is_showdown and s.showdown_payoffs(-1) == (-900, 900)
    assert s.showdown_payoffs(0) == (0, 0)
    with pytest.raises(CardError):
        s.payoffs()


# ----------------------------------------------------------------------------- kernels
def _kernel_snapshot(st: np.ndarray) -> tuple[object, ...]:
    lg = np.zeros(5, dtype=np.int64)
    actor = K.legal(st, lg)
    return (int(st[K.S_PHASE]), int(actor), tuple(int(x) for x in lg),
            (int(st[K.S_STACK]), int(st[K.S_STACK + 1])),
            (int(st[K.S_BET]), int(st[K.S_BET + 1])),
            int(st[K.S_POT] + st[K.S_BET] + st[K.S_BET + 1]))


def _python_snapshot(s: HoldemState) -> tuple[object, ...]:
    if s.phase == Phase.BETTING:
        lg = s.legal()
        leg = (int(lg.can_fold), lg.call_amount, int(lg.can_raise), lg.min_raise_to,
               lg.max_raise_to)
        actor = s.actor
    else:
        leg, actor = (0, 0, 0, 0, 0), -1
    return (int(s.phase), actor, leg, tuple(s.stacks), tuple(s.bets), s.pot)


def test_kernel_steps_match_python_state_by_state() -> None:
    rng = random.Random(5)
    tables = eval_tables()
    for i in range(300):
        cfg = random_config(rng)
        r = SplitMix64(i)
        cards = deal_cards(r)
        s = HoldemState(config=cfg)
        st = np.zeros(K.NS, dtype=np.int64)
        K.init_state(st, cfg.stacks[0], cfg.stacks[1], cfg.small_blind, cfg.big_blind, cfg.ante)
        s.deal_hole(cards[0:2])
        s.deal_hole(cards[2:4])
        assert K.deal_hole(st, *cards[0:4]) == 0
        pos = 4
        while True:
            assert _kernel_snapshot(st) == _python_snapshot(s)
            assert np.array_equal(K.array_from_state(s), st)  # every slot of the layout
            if s.is_terminal:
                break
            if s.phase == Phase.DEAL_BOARD:
                n = s.cards_due()
                assert K.cards_due(st) == n
                s.deal_board(cards[pos:pos + n])
                assert K.deal_board(st, np.array(cards[pos:pos + n], dtype=np.int64), n) == 0
                pos += n
                continue
            a = choose(s.legal(), r, DEFAULT_WEIGHTS)
            s.apply(a)
            rc = (K.act_fold(st) if a.kind == ActionKind.FOLD else
                  K.act_call(st) if a.kind == ActionKind.CHECK_CALL else K.act_raise(st, a.amount))
            assert rc == 0
        out = np.zeros(2, dtype=np.int64)
        assert K.payoffs(st, tables, out) == 0
        assert tuple(out) == s.payoffs()
        assert int(st[K.S_SHOW_FIRST]) == (s.showdown_order[0] if s.showdown_order else -1)


def test_kernel_rejects_illegal() -> None:
    st = np.zeros(K.NS, dtype=np.int64)
    K.init_state(st, 20000, 20000, 50, 100, 0)
    assert K.act_call(st) == K.ERR_PHASE
    K.deal_hole(st, 0, 1, 2, 3)
    assert K.act_raise(st, 199) == K.ERR_AMOUNT
    assert K.act_raise(st, 20001) == K.ERR_AMOUNT
    assert K.act_call(st) == 0
    assert K.act_fold(st) == K.ERR_FOLD


@pytest.mark.parametrize("cfg", [
    HoldemConfig(),
    HoldemConfig(stacks=(300, 1234), small_blind=5, big_blind=10, ante=3),
    HoldemConfig(stacks=(105, 60), small_blind=25, big_blind=50),
])
def test_random_playouts_kernel_equals_python_twin(cfg: HoldemConfig) -> None:
    for w in (DEFAULT_WEIGHTS, SHOWDOWN_WEIGHTS):
        a = python_playouts(cfg, 400, 11, w)
        b, nact = kernel_playouts(cfg, 400, 11, w)
        assert np.array_equal(a, b)
        assert (a.sum(axis=1) == 0).all() and nact >= 400


def test_random_playouts_known_values() -> None:
    pay, nact = kernel_playouts(HoldemConfig(), 300, 7)
    assert nact == 1347 and pay[:, 0].sum() == -11878
    assert pay[:5, 0].tolist() == [20000, -200, -300, -9300, 20000]


# ----------------------------------------------------------------------------- Game
def test_hunl_game_protocol() -> None:
    g = load_game("hunl", stacks_bb=10)
    assert g.name == "hunl" and g.num_players == 2 and g.num_distinct_actions() == 1003
    s = g.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 52
    for c in parse_cards("AsAhKdKc"):
        s.apply_action(c)
    assert s.current_player() == 1
    la = s.legal_actions()
    assert la[:3] == [FOLD, CHECK_CALL, raise_action(200)] and la[-1] == raise_action(1000)
    assert len(la) == 2 + 801
    assert s.information_state_string(0) == "[P0][AsAh][][]"
    c = s.child(raise_action(300))
    assert s.current_player() == 1 and c.current_player() == 0
    assert c.action_to_string(CHECK_CALL) == "call"
    c.apply_action(CHECK_CALL)
    assert c.is_chance_node() and len(c.chance_outcomes()) == 48
    for card in parse_cards("2c7d9h"):
        c.apply_action(card)
    assert c.information_state_string(1) == "[P1][KdKc][9h7d2c][r300c/]"
    assert c.public_state_string() == "[9h7d2c][r300c/]"
    c.apply_action(raise_action(700))
    c.apply_action(FOLD)
    assert c.is_terminal() and c.returns() == [300.0, -300.0]


def test_hunl_random_games_zero_sum() -> None:
    g = load_game("hunl", stacks=(3000, 1700), small_blind=10, big_blind=20, ante=2)
    r = random.Random(3)
    total = 0.0
    for _ in range(100):
        s = g.new_initial_state()
        while not s.is_terminal():
            la = s.legal_actions()
            if s.is_chance_node():
                s.apply_action(r.choice(la))
            else:
                s.apply_action(r.choice(la[:2] + [la[-1]] + [la[len(la) // 2]]))
        ret = s.returns()
        assert ret[0] + ret[1] == 0.0
        total += ret[0]
    assert total != 0.0
    with pytest.raises(ConfigError, match="stackz"):
        load_game("hunl", stackz=100)
    assert load_game("hunl", stack=100).config == HoldemConfig.from_bb(100)


def test_action_objects() -> None:
    s = dealt(HoldemConfig())
    s.apply(Action(kind=ActionKind.RAISE, amount=250))
    assert str(s.street_actions[0][0]) == "cbr 250"
    assert s.legal().is_legal(Action(kind=ActionKind.RAISE, amount=400))
    assert not s.legal().is_legal(Action(kind=ActionKind.RAISE, amount=399))


def test_hunl_runs_under_outcome_sampling_mccfr() -> None:
    from pokerlab.solvers.mccfr import MCCFRConfig, MCCFRSolver

    g = load_game("hunl", stacks=(6, 6), small_blind=1, big_blind=2)
    solver = MCCFRSolver(game=g, config=MCCFRConfig(sampling="outcome", seed=0))
    solver.run(300)
    assert solver.iteration == 300 and len(solver.infos) > 100
    # Every stored information set belongs to a player node with its legal actions.
    key, info = next(iter(solver.infos.items()))
    assert key.startswith("[P") and info.actions[0] in (FOLD, CHECK_CALL)


def test_chip_conservation_invariants() -> None:
    rng = random.Random(12)
    for i in range(400):
        cfg = random_config(rng)
        r = SplitMix64(i)
        cards = deal_cards(r)
        s = HoldemState(config=cfg)
        s.deal_hole(cards[0:2])
        s.deal_hole(cards[2:4])
        pos = 4
        total = sum(cfg.stacks)
        while not s.is_terminal:
            assert sum(s.stacks) + s.pot == total
            assert s.committed[0] + s.committed[1] == s.pot
            if s.phase == Phase.DEAL_BOARD:
                n = s.cards_due()
                s.deal_board(cards[pos:pos + n])
                pos += n
                continue
            lg = s.legal()
            assert lg.call_amount <= s.stacks[lg.player]
            if lg.can_raise:
                assert lg.min_raise_to <= lg.max_raise_to == s.stacks[lg.player] + s.bets[lg.player]
            s.apply(choose(lg, r, DEFAULT_WEIGHTS))
        pay = s.payoffs()
        assert pay[0] + pay[1] == 0
        assert -cfg.stacks[0] <= pay[0] <= cfg.stacks[1]
        assert sum(s.final_stacks()) == total
