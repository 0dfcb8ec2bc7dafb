"""The engine records typed events at the source (issue 27): every ``history`` item is a
frozen record with the money after it, ``verify`` is the one legality check, and the
loops hand each agent its visible events once."""

from __future__ import annotations

import dataclasses

import pytest

from pokerlab.agents.oracle import random_config
from pokerlab.agents.random_agent import DEFAULT_WEIGHTS, SplitMix64, choose
from pokerlab.cards.cards import parse_cards
from pokerlab.holdem.engine import (
    Action,
    ActionKind,
    HoldemConfig,
    HoldemState,
    IllegalActionError,
    Phase,
)
from pokerlab.holdem.events import (
    EVENT_TYPES,
    BoardDealt,
    CheckedOrCalled,
    Folded,
    HoleDealt,
    RaisedTo,
    Shown,
    events_of,
    visible,
)
from pokerlab.holdem.view import feed_events


def _random_hand(seed: int, stop: int = 99) -> HoldemState:
    import random

    rng = random.Random(seed)
    st = HoldemState(config=random_config(rng))
    cards = rng.sample(range(52), 9)
    st.deal_hole(cards[0:2])
    st.deal_hole(cards[2:4])
    pos = 4
    sm = SplitMix64(seed)
    while not st.is_terminal and stop > 0:
        stop -= 1
        if st.phase == Phase.DEAL_BOARD:
            n = st.cards_due()
            st.deal_board(cards[pos:pos + n])
            pos += n
        else:
            st.apply(choose(st.legal(), sm, DEFAULT_WEIGHTS))
    return st


def test_history_holds_only_frozen_event_records() -> None:
    seen: set[type] = set()
    for seed in range(400):
        st = _random_hand(seed)
        for ev in st.history:
            assert not isinstance(ev, tuple), f"a tuple in the engine's history: {ev!r}"
            assert type(ev) in EVENT_TYPES
            seen.add(type(ev))
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(ev, dataclasses.fields(ev)[0].name, 9)
        assert st.clone().history == st.history
    assert seen == set(EVENT_TYPES)


def test_pot_and_bets_after_each_event_follow_the_money() -> None:
    """An independent running count (chips added per action, bets reset by a board)
    equals the records' ``pot`` and ``bets``; right after an action that does not close
    the round they are the state's own."""
    checked = 0
    for seed in range(400):
        st = _random_hand(seed)
        c = st.config
        bets = [c.big_blind, c.small_blind]
        pot = 2 * c.ante + c.big_blind + c.small_blind
        street = 0
        for ev in st.history:
            if isinstance(ev, BoardDealt):
                street += 1
                assert ev.street == street and ev.bets == (0, 0)
                bets = [0, 0]
                assert ev.pot <= pot  # an uncalled part of a bet went back
                pot = ev.pot
            elif isinstance(ev, CheckedOrCalled):
                bets[ev.player] += ev.amount
                pot += ev.amount
            elif isinstance(ev, RaisedTo):
                pot += ev.raise_to - bets[ev.player]
                bets[ev.player] = ev.raise_to
            if isinstance(ev, (Folded, CheckedOrCalled, RaisedTo)):
                assert (ev.pot, list(ev.bets)) == (pot, bets)
                checked += 1
    assert checked > 1000
    st = HoldemState(config=HoldemConfig.from_bb(100))
    st.deal_hole(parse_cards("AsAh"))
    st.deal_hole(parse_cards("KdKc"))
    st.raise_to(300)
    assert st.history[-1] == RaisedTo(1, 300)
    assert (st.history[-1].pot, st.history[-1].bets) == (st.pot, (100, 300)) == (400, (100, 300))
    st.check_or_call()  # closes the round: the figures before the bets are collected
    last = st.history[-1]
    assert isinstance(last, CheckedOrCalled) and (last.amount, last.pot, last.bets) == (
        200, 600, (300, 300))
    st.deal_board(parse_cards("2c3d4h"))
    assert st.history[-1] == BoardDealt(1, tuple(parse_cards("2c3d4h")))
    assert (st.history[-1].pot, st.history[-1].bets) == (600, (0, 0))


def test_verify_is_the_one_legality_check() -> None:
    """``verify`` accepts exactly what ``legal()`` allows, on random states and actions
    (legal amounts, one chip out of range, folds when not facing a bet)."""
    import random

    rng = random.Random(3)
    n = 0
    for seed in range(600):
        st = _random_hand(seed, stop=rng.randint(0, 6))
        if st.phase != Phase.BETTING:
            with pytest.raises(IllegalActionError, match="no player to act"):
                st.verify(Action(kind=ActionKind.CHECK_CALL))
            continue
        lg = st.legal()
        lo = lg.min_raise_to or st.stacks[st.actor] + st.bets[st.actor]
        acts = [Action(kind=ActionKind.FOLD), Action(kind=ActionKind.CHECK_CALL)]
        acts += [Action(kind=ActionKind.RAISE, amount=a)
                 for a in (lo - 1, lo, lg.max_raise_to, lg.max_raise_to + 1)]
        for a in acts:
            assert st.is_legal(a) == lg.is_legal(a), (st, a)
            n += 1
    assert n > 1000
    st = HoldemState(config=HoldemConfig())
    st.deal_hole(None)
    st.deal_hole(None)
    with pytest.raises(IllegalActionError, match="outside the legal range 200..20000"):
        st.verify(Action(kind=ActionKind.RAISE, amount=199))
    with pytest.raises(IllegalActionError, match="must be an integer"):
        st.verify(Action(kind=ActionKind.RAISE, amount=True))
    before = list(st.history)
    st.check_or_call()
    with pytest.raises(IllegalActionError, match="player 0 cannot fold: not facing a bet"):
        st.verify(Action(kind=ActionKind.FOLD))
    with pytest.raises(IllegalActionError, match="not facing a bet"):
        st.fold()
    assert st.history == [*before, CheckedOrCalled(1, 50)]


class _Recorder:
    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[object] = []

    def reset(self, seed: int) -> None:
        self.seen.clear()

    def act(self, view: object) -> Action:
        assert tuple(self.seen) == view.events  # type: ignore[attr-defined]  # fed before asked
        return Action(kind=ActionKind.CHECK_CALL)

    def observe_event(self, event: object) -> None:
        self.seen.append(event)


def test_the_match_loop_feeds_each_visible_event_once() -> None:
    from pokerlab.evaluation.matches import play_hunl_hand

    a, b = _Recorder(), _Recorder()
    cards = parse_cards("AsAh KdKc 2c3d4h5s6c")
    st = play_hunl_hand(a, b, HoldemConfig.from_bb(100), 1, cards, 1, 2)
    assert st.is_showdown
    assert tuple(b.seen) == events_of(st, 0) and tuple(a.seen) == events_of(st, 1)
    assert sum(isinstance(e, Shown) for e in a.seen) == 1
    assert [e for e in st.history if not visible(e, 0)] == [HoleDealt(1, tuple(cards[2:4])),
                                                           Shown(1, tuple(cards[2:4]))]
    # agents without observe_event are skipped; the position moves on
    assert feed_events([object(), object()], st, 0) == len(st.history)
