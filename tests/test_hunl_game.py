"""The one HUNL game (``pokerlab.games.hunl``) and its action map.

Checks: game strings through ``load_game``; the same information-state format for the
identity and bet-set abstractions; every abstract action's chip amount is legal (engine
rules) over random setups and states; the translation examples and properties of
``abstraction/action_map.py`` hold through the map; a bet-set game replays identically
in PokerKit; the old adapters are gone.
"""

from __future__ import annotations

import importlib
import random

import numpy as np
import pytest

from pokerlab.abstraction.action_map import (
    CALL,
    FOLD,
    RAISE0,
    ActionMap,
    BetSetAbstraction,
    Identity,
    abstraction_from_json,
    make_abstraction,
    pseudo_harmonic,
)
from pokerlab.abstraction.bets import parse_bet_set, preset
from pokerlab.agents.oracle import random_config
from pokerlab.cards.cards import parse_cards
from pokerlab.errors import BetSizeError, ConfigError
from pokerlab.games import load_game, parse_game_string
from pokerlab.games.hunl import HUNLGame, HUNLState, raise_action
from pokerlab.games.protocol import GameInfo
from pokerlab.holdem.engine import (
    Action,
    ActionKind,
    HoldemConfig,
    HoldemState,
    IllegalActionError,
    Phase,
)

BET_TEXTS = [
    "thesis", "default", "small", "tiny",
    "preflop: 2x, 3x, a, cap 3; postflop: 50%, a, cap 2",
    "2.5x, 4x, 7bb, a; 33%, 75%, 150%, 1bb, a",
    "preflop: 3x; postflop: 10%, 5000%",
    "preflop: a; postflop: cap 0",
]


def _deal(s: HUNLState, rng: random.Random) -> None:
    while s.is_chance_node():
        s.apply_action(rng.choice(s.legal_actions()))


def _real(a: Action) -> str:
    return "f" if a.kind == ActionKind.FOLD else "c" if a.kind == ActionKind.CHECK_CALL \
        else f"r{a.amount}"


# ------------------------------------------------------------------ game strings
def test_parse_game_string() -> None:
    assert parse_game_string("hunl") == ("hunl", {})
    assert parse_game_string("hunl()") == ("hunl", {})
    assert parse_game_string("hunl(stack=200,bets=thesis,buckets=169-200-200-200)") == (
        "hunl", {"stack": 200, "bets": "thesis", "buckets": "169-200-200-200"})
    # a bet-set text keeps its commas; numbers, booleans and quotes are parsed
    assert parse_game_string("hunl(bets=2.5x, 4x, a; 50%, a, cap 2, stack=12.5, x=true)") == (
        "hunl", {"bets": "2.5x, 4x, a; 50%, a, cap 2", "stack": 12.5, "x": True})
    assert parse_game_string("g(a='1,b=2', c=(1,2))") == ("g", {"a": "1,b=2", "c": "(1,2)"})
    for bad in ("hunl(stack)", "hunl(stack=1", "(stack=1)", "hunl(a=1,a=2)", "hunl(a='x)",
                "hunl,x", "hunl(1x=2)"):
        with pytest.raises(ConfigError):
            parse_game_string(bad)


def test_load_game_strings() -> None:
    g = load_game("hunl")
    assert isinstance(g, HUNLGame) and isinstance(g.abstraction, Identity)
    assert g.config == HoldemConfig() and g.cards is None
    assert g.num_distinct_actions() == 20003
    g = load_game("hunl(stack=200,bets=thesis,buckets=169-200-200-200)")
    assert g.config == HoldemConfig.from_bb(200)
    assert isinstance(g.abstraction, BetSetAbstraction)
    assert g.abstraction.bets == preset("thesis") and g.abstraction.translation == "pseudo_harmonic"
    assert g.bucket_config is not None and g.bucket_config.buckets == (169, 200, 200, 200)
    assert g.num_distinct_actions() == RAISE0 + 7
    g = load_game("hunl(stacks=3000-1700,small_blind=10,big_blind=20,ante=2,bets=default,"
                  "translation=nearest,seed=5)")
    assert g.config == HoldemConfig(stacks=(3000, 1700), small_blind=10, big_blind=20, ante=2)
    assert g.abstraction == BetSetAbstraction(bets=preset("default"), translation="nearest",
                                              seed=5)
    # the game string round-trips
    for text in ("hunl", "hunl(stack=50,bets=small)", "hunl(stacks=3000-1700,small_blind=10,"
                 "big_blind=20,ante=2,bets=2.5x, a; 50%, a,translation=nearest,seed=3)",
                 "hunl(bets=tiny,buckets=test)", "hunl(buckets=169-9-9-9,methods=lossless-ehs-ehs-ehs)"):
        g = load_game(text)
        g2 = load_game(g.game_string())
        assert g2.config == g.config and g2.abstraction == g.abstraction
        assert g2.bucket_config == g.bucket_config
    # keyword arguments still work and may be mixed with a game string
    assert load_game("hunl(bets=tiny)", stacks_bb=10).config == HoldemConfig.from_bb(10)


@pytest.mark.parametrize("text, needle", [
    ("hunl(stak=200)", "stak"),
    ("hunl(bets=zzz)", "zzz"),
    ("hunl(bets=thesis,translation=median)", "median"),
    ("hunl(translation=median)", "median"),
    ("hunl(stack=200,stacks=100)", "stack"),
    ("hunl(stack=abc)", "abc"),
    ("hunl(stacks=1-2-3)", "1-2-3"),
    ("hunl(buckets=1-2)", "4 entries"),
    ("hunl(buckets=tons)", "tons"),
    ("hunl(methods=ehs-ehs-ehs-ehs)", "methods"),
    ("hunl(seed=x,bets=thesis)", "seed"),
    ("kuhn(stack=3)", "stack"),
    ("nosuchgame(a=1)", "nosuchgame"),
])
def test_load_game_errors(text: str, needle: str) -> None:
    with pytest.raises(ConfigError if "bets=zzz" not in text else BetSizeError, match=needle):
        load_game(text)


def test_load_game_option_given_twice() -> None:
    with pytest.raises(ConfigError, match="bets given in the game string"):
        load_game("hunl(bets=tiny)", bets="small")


def test_info() -> None:
    g = load_game("hunl(stacks=1000-800,bets=tiny)")
    info = g.info()
    assert isinstance(info, GameInfo)
    assert (info.num_players, info.num_distinct_actions, info.zero_sum) == (2, RAISE0 + 2, True)
    assert (info.min_utility, info.max_utility, info.big_blind) == (-800.0, 800.0, 100.0)
    # tiny has no preflop cap: raises bounded by the big stack in big blinds (+1)
    assert info.private_cards_first and info.max_game_length == 8 + 11
    capped = load_game("hunl(stack=10,bets=preflop: a, cap 1; postflop: 100%, a, cap 2)")
    assert capped.info().max_game_length == 8 + 1 + 3 * 2


def test_abstraction_json_round_trip() -> None:
    for ab in (Identity(), make_abstraction("default", translation="nearest", seed=4),
               make_abstraction("2.5x, a; 33%, a, cap 1")):
        assert abstraction_from_json(ab.to_json()) == ab
    assert make_abstraction(None) == Identity() == make_abstraction("identity")
    with pytest.raises(ConfigError):
        abstraction_from_json({"kind": "magic"})


# ------------------------------------------------------------------ the one format
def test_information_state_format_examples() -> None:
    g = load_game("hunl(stack=10,bets=2.5x, a; 50%, a)")
    s = g.new_initial_state()
    for c in parse_cards("QsAs2s3s"):
        s.apply_action(c)
    assert s.information_state_string(0) == "[P0][AsQs][][]"
    assert s.information_state_string(1) == "[P1][3s2s][][]"
    s.apply_action(2)  # 2.5x -> 250
    s.apply_action(CALL)
    for c in parse_cards("4s9h7s"):  # the flop is shown sorted high to low
        s.apply_action(c)
    assert s.public_state_string() == "[9h7s4s][r250c/]"
    s.apply_action(CALL)
    s.apply_action(CALL)
    s.apply_action(parse_cards("2c")[0])
    assert s.information_state_string(0) == "[P0][AsQs][9h7s4s|2c][r250c/cc/]"
    assert s.action_to_string(2) == "raise 50% to 250"


def test_same_information_states_for_identity_and_bet_sets() -> None:
    """A hand played in a bet-set game, replayed with the same real actions in the
    identity game, has the same information-state strings at every decision."""
    rng = random.Random(11)
    for text in BET_TEXTS[:6]:
        cfg = random_config(rng)
        ab = HUNLGame(cfg, BetSetAbstraction(bets=parse_bet_set(text)))
        ident = HUNLGame(cfg)
        for _ in range(15):
            a, b = ab.new_initial_state(), ident.new_initial_state()
            while not a.is_terminal():
                if a.is_chance_node():
                    c = rng.choice(a.legal_actions())
                    a.apply_action(c)
                    b.apply_action(c)
                    continue
                for p in (0, 1):
                    assert a.information_state_string(p) == b.information_state_string(p)
                assert a.public_state_string() == b.public_state_string()
                act = rng.choice(a.legal_actions())
                real = a.to_real(act)
                rid = raise_action(real.amount) if real.kind == ActionKind.RAISE else act
                assert rid in b.legal_actions()
                assert b.to_real(rid) == real
                a.apply_action(act)
                b.apply_action(rid)
            assert a.returns() == b.returns()


# ------------------------------------------------------------------ legality
def _check_options(m: ActionMap, st: HoldemState) -> None:
    acts = m.abstract_actions(st)
    assert acts == sorted(acts) and len(set(acts)) == len(acts)
    assert CALL in acts and (FOLD in acts) == st.can_fold
    opts = m.raise_options(st)
    amounts = [x for _, x in opts]
    assert amounts == sorted(amounts) and len(set(amounts)) == len(amounts)
    lg = st.legal()
    for a in acts:
        real = m.to_real(st, a)
        assert lg.is_legal(real), (a, real, lg)
    if opts:
        assert st.can_raise
        assert all(st.min_raise_to <= x <= st.max_raise_to for x in amounts)
        street = m.bets.street(st.street) if m.bets is not None else None
        if street is not None and any(z.kind == "allin" for z in street.sizes):
            assert amounts[-1] == st.max_raise_to  # the all-in edge is always offered
    elif m.bets is not None and st.can_raise:
        cap = m.bets.street(st.street).cap
        assert not m.bets.street(st.street).sizes or (cap is not None and st.num_raises >= cap)
    bad = max(acts) + 1
    with pytest.raises(IllegalActionError):
        m.to_real(st, bad)


def test_abstract_amounts_always_legal_over_random_states() -> None:
    rng = random.Random(2026)
    states = 0
    for i in range(240):
        cfg = random_config(rng)
        m = ActionMap(parse_bet_set(BET_TEXTS[i % len(BET_TEXTS)]))
        st = HoldemState(config=cfg)
        st.deal_hole(None)
        st.deal_hole(None)
        while not st.is_terminal:
            if st.phase == Phase.DEAL_BOARD:
                st.deal_board(None)
                continue
            _check_options(m, st)
            states += 1
            lg = st.legal()
            # move on with a real action (any chip amount): off-tree states too
            r = rng.random()
            if lg.can_raise and r < 0.45:
                st.raise_to(rng.randint(lg.min_raise_to, lg.max_raise_to))
            elif lg.can_fold and r < 0.5:
                st.fold()
            else:
                st.check_or_call()
    assert states > 700


def test_identity_map_is_every_legal_amount() -> None:
    m = Identity().action_map()
    st = HoldemState(config=HoldemConfig.from_bb(5))
    st.deal_hole(None)
    st.deal_hole(None)
    assert m.abstract_actions(st) == [FOLD, CALL, *range(RAISE0 + 200, RAISE0 + 501)]
    assert m.translate(st, 333) == [(RAISE0 + 333, 1.0)]
    assert m.to_real(st, RAISE0 + 333) == Action(kind=ActionKind.RAISE, amount=333)
    with pytest.raises(IllegalActionError, match="199"):
        m.translate(st, 199)


# ------------------------------------------------------------------ translation
def _flop_state(bets: str) -> tuple[ActionMap, HoldemState]:
    """Limped pot of 200 chips on the flop, big blind to act (no bet yet)."""
    st = HoldemState(config=HoldemConfig.from_bb(100))
    st.deal_hole(None)
    st.deal_hole(None)
    st.check_or_call()
    st.check_or_call()
    st.deal_board(None)
    return ActionMap(parse_bet_set(bets)), st


def test_translation_examples_through_the_map() -> None:
    m, st = _flop_state("preflop: 3x; postflop: 50%, 100%, 400%")
    assert m.raise_options(st) == [(2, 100), (3, 200), (4, 800)]  # x = 0.5, 1, 4
    # on-tree sizes map to themselves
    for a, amt in m.raise_options(st):
        assert m.translate(st, amt) == [(a, 1.0)]
    # 150 chips = 0.75 pot: pseudo-harmonic between 0.5 and 1 -> 3/7 to the smaller
    p = m.translate(st, 150)
    assert [a for a, _ in p] == [2, 3]
    assert p[0][1] == pytest.approx(3 / 7) and p[1][1] == pytest.approx(4 / 7)
    # 400 chips = 2 pots: between 1 and 4 -> (4-2)(1+1)/((4-1)(1+2)) = 4/9
    assert m.translate(st, Action(kind=ActionKind.RAISE, amount=400))[0] == (3, pytest.approx(4 / 9))
    # above the largest size -> the largest; fold / call translate to themselves
    assert m.translate(st, 9900) == [(4, 1.0)]
    assert m.translate(st, Action(kind=ActionKind.CHECK_CALL)) == [(CALL, 1.0)]
    with pytest.raises(IllegalActionError, match="fold"):
        m.translate(st, Action(kind=ActionKind.FOLD))
    # nearest: 150 (0.75) ties to the smaller, 160 (0.8) goes to 100%
    n = ActionMap(m.bets, translation="nearest")
    assert n.translate(st, 150) == [(2, 1.0)] and n.translate(st, 160) == [(3, 1.0)]
    # randomised draws follow the probabilities (seeded)
    rng = np.random.default_rng(0)
    draws = [m.sample(st, 150, rng) for _ in range(4000)]
    assert abs(draws.count(2) / 4000 - 3 / 7) < 0.03
    with pytest.raises(BetSizeError, match="rng"):
        m.sample(st, 150)
    assert n.sample(st, 150) == 2


def test_translation_when_no_abstract_raise_is_left() -> None:
    m, st = _flop_state("preflop: 3x; postflop: 50%, cap 1")
    st.raise_to(100)
    assert st.can_raise and m.raise_options(st) == []
    assert m.translate(st, 500) == [(CALL, 1.0)]


def test_translation_properties_through_the_map() -> None:
    """Over random states and real raises: probabilities positive and summing to one,
    on-tree amounts exact, the pseudo-harmonic value of the bracketing sizes, and the
    probability of the smaller size falling as the real bet grows."""
    rng = random.Random(5)
    checked = 0
    for i in range(150):
        cfg = random_config(rng)
        bets = parse_bet_set(BET_TEXTS[i % 6])
        m = ActionMap(bets)
        st = HoldemState(config=cfg)
        st.deal_hole(None)
        st.deal_hole(None)
        while not st.is_terminal:
            if st.phase == Phase.DEAL_BOARD:
                st.deal_board(None)
                continue
            lg = st.legal()
            opts = m.raise_options(st)
            if lg.can_raise and len(opts) >= 2:
                top, pot, tc = max(st.bets), st.pot, st.to_call
                fr = {a: (x - top) / (pot + tc) for a, x in opts}
                prev: tuple[int, float] | None = None
                xs = sorted({rng.randint(lg.min_raise_to, lg.max_raise_to) for _ in range(6)})
                for x in xs:
                    pr = m.translate(st, x)
                    assert all(p > 0 for _, p in pr) and sum(p for _, p in pr) == pytest.approx(1)
                    assert all(a in fr for a, _ in pr)
                    fx = (x - top) / (pot + tc)
                    if len(pr) == 2:
                        (a_lo, p_lo), (a_hi, _) = pr
                        assert fr[a_lo] < fx < fr[a_hi]
                        assert p_lo == pytest.approx(pseudo_harmonic(fx, fr[a_lo], fr[a_hi]))
                        if prev is not None and prev[0] == a_lo:
                            assert p_lo <= prev[1] + 1e-12
                        prev = (a_lo, p_lo)
                        checked += 1
                    nearest = ActionMap(bets, translation="nearest").translate(st, x)
                    assert len(nearest) == 1
                    best = min(abs(fr[a] - fx) for a in fr)
                    assert abs(fr[nearest[0][0]] - fx) == pytest.approx(best)
                for a, amt in opts:
                    assert m.translate(st, amt) == [(a, 1.0)]
            r = rng.random()
            if lg.can_raise and r < 0.4:
                st.raise_to(rng.randint(lg.min_raise_to, lg.max_raise_to))
            elif lg.can_fold and r < 0.45:
                st.fold()
            else:
                st.check_or_call()
    assert checked > 100


# ------------------------------------------------------------------ protocol + PokerKit
def test_bet_set_game_replays_in_pokerkit() -> None:
    """Random abstract play in bet-set games: every real action the map produces is
    accepted by PokerKit and the final stacks agree."""
    pytest.importorskip("pokerkit")
    import warnings

    from pokerlab.agents.oracle import pokerkit_state
    from pokerlab.cards.cards import cards_str

    rng = random.Random(7)
    hands = 0
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="A card being dealt", category=UserWarning)
        for i in range(160):
            cfg = random_config(rng)
            g = HUNLGame(cfg, BetSetAbstraction(bets=parse_bet_set(BET_TEXTS[i % 6])))
            s = g.new_initial_state()
            pk = pokerkit_state(cfg)
            dealt = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(rng.choice(s.legal_actions()))
                    e = s.engine
                    hole_cards = [c for h in e.hole for c in h]
                    if len(hole_cards) == 4 and dealt == 0:
                        pk.deal_hole(cards_str(e.hole[0]))
                        pk.deal_hole(cards_str(e.hole[1]))
                        dealt = 4
                    if dealt and len(e.board) + 4 > dealt and not s._pending:
                        pk.deal_board(cards_str(e.board[dealt - 4:]))
                        dealt = 4 + len(e.board)
                    continue
                acts = s.legal_actions()
                a = rng.choice(acts)
                real = s.to_real(a)
                if real.kind == ActionKind.FOLD:
                    pk.fold()
                elif real.kind == ActionKind.CHECK_CALL:
                    pk.check_or_call()
                else:
                    assert pk.can_complete_bet_or_raise_to(real.amount)
                    pk.complete_bet_or_raise_to(real.amount)
                s.apply_action(a)
            assert not pk.status
            assert tuple(pk.stacks) == s.engine.final_stacks()
            ret = s.returns()
            assert ret[0] + ret[1] == 0
            hands += 1
    assert hands == 160


def test_illegal_ids_are_errors_not_changes() -> None:
    g = load_game("hunl(stack=20,bets=tiny)")
    s = g.new_initial_state()
    with pytest.raises(IllegalActionError, match="52"):
        s.apply_action(52)
    for c in (0, 1, 2, 3):
        s.apply_action(c)
    with pytest.raises(IllegalActionError, match="card"):
        HUNLState(g).child(0).apply_action(0)  # the same card twice
    s.apply_action(CALL)  # button limps: the big blind may not fold
    before = repr(s.engine)
    assert s.legal_actions() == [CALL, RAISE0]
    for bad in (FOLD, -1, RAISE0 + 1, 99):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
    assert repr(s.engine) == before


# ------------------------------------------------------------------ the old copies
def test_old_adapters_are_gone() -> None:
    for mod in ("pokerlab.games.holdem", "pokerlab.abstraction.game"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(mod)
    # one state class for both abstractions
    assert type(load_game("hunl").new_initial_state()) is type(
        load_game("hunl(bets=tiny)").new_initial_state()) is HUNLState
