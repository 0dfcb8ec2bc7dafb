"""Agents see only what their seat saw at the end of a hand (``end_hand(final_view)``):
the opponent's cards when the showdown showed them, never after a fold or a muck."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pokerlab.agents.base import AgentBase, PlayerView, final_view, learns, start_match
from pokerlab.agents.rules import CallAgent, TagAgent
from pokerlab.evaluation.matches import (
    MatchConfig,
    SmallHandEnd,
    hand_cards,
    hand_end_view,
    play_small_hand,
    run_match,
)
from pokerlab.holdem.engine import UNKNOWN, Action, ActionKind, HoldemConfig, HoldemState
from pokerlab.holdem.events import HoleDealt, Shown

CFG = HoldemConfig.from_bb(100)
CALL = Action(kind=ActionKind.CHECK_CALL)
FOLD = Action(kind=ActionKind.FOLD)
# hole p0 (big blind), hole p1 (button), flop, turn, river
CARDS = [0, 1, 10, 11, 20, 21, 22, 30, 40]


def _hand(*moves: Action, cards: list[int] | None = None, opp_known: bool = True) -> HoldemState:
    """A hand with ``cards`` dealt, the ``moves`` made, then checked/called down."""
    c = CARDS if cards is None else cards
    st = HoldemState(config=CFG)
    st.deal_hole(c[0:2])
    st.deal_hole(c[2:4] if opp_known else None)
    pos = 4
    todo = list(moves)
    while not st.is_terminal:
        if st.phase.name == "DEAL_BOARD":
            n = st.cards_due()
            st.deal_board(c[pos:pos + n])
            pos += n
        else:
            st.apply(todo.pop(0) if todo else CALL)
    return st


def _cards_in(view: PlayerView) -> set[int]:
    """Every card the view holds anywhere (hole, board, events, opponent_hole)."""
    out = set(view.hole) | set(view.board) | set(view.opponent_hole or ())
    for ev in view.events:
        out |= set(getattr(ev, "cards", ()))
    return out


def test_a_folded_hand_never_shows_the_opponents_cards() -> None:
    st = _hand(FOLD)  # the button folds preflop
    assert st.folded == 1
    big_blind = final_view(st, 0)
    assert big_blind.opponent_hole is None and not big_blind.showdown
    assert big_blind.hole == (0, 1)
    assert not (_cards_in(big_blind) & {10, 11})  # the folded cards are nowhere
    assert not any(isinstance(e, (HoleDealt, Shown)) and e.player == 1 for e in big_blind.events)
    assert big_blind.payoff == 50 and final_view(st, 1).payoff == -50
    button = final_view(st, 1)
    assert button.opponent_hole is None and button.hole == (10, 11)
    assert not (_cards_in(button) & {0, 1})


def test_a_showdown_shows_the_opponents_cards() -> None:
    st = _hand()  # checked down to the river
    assert st.is_showdown
    v0, v1 = final_view(st, 0), final_view(st, 1)
    assert v0.opponent_hole == (10, 11) and v1.opponent_hole == (0, 1)
    assert v0.showdown and v1.showdown
    assert Shown(1, (10, 11)) in v0.events and Shown(0, (0, 1)) in v1.events
    assert v0.board == (20, 21, 22, 30, 40)
    assert v0.payoff is not None and v0.payoff == st.payoffs()[0] == -int(v1.payoff or 0)
    # a view during the hand never holds them
    mid = _hand(cards=CARDS)
    assert mid.view(0).opponent_hole is None


def test_an_all_in_run_out_shows_both_hands() -> None:
    shove = Action(kind=ActionKind.RAISE, amount=CFG.stacks[1])
    st = _hand(shove, CALL)
    v0 = final_view(st, 0)
    assert v0.opponent_hole == (10, 11) and v0.payoff == st.payoffs()[0]
    assert abs(v0.payoff) in (0, CFG.stacks[0])


def test_a_mucked_hand_stays_unknown() -> None:
    """The opponent's cards are read from its ``Shown`` event only: a showdown where it
    mucked (no ``Shown`` event, or cards shown as unknown) leaves them unknown, though the
    engine state holds them."""
    st = _hand()
    st.history = [e for e in st.history if not (isinstance(e, Shown) and e.player == 1)]
    v0 = final_view(st, 0)
    assert v0.opponent_hole is None and st.hole[1] == [10, 11]
    assert not (_cards_in(v0) & {10, 11})
    assert v0.payoff == st.payoffs()[0]  # the result is still known
    unknown = _hand(opp_known=False)  # the cards are unknown to the engine too
    v = final_view(unknown, 0)
    assert v.opponent_hole is None and v.payoff is None
    assert all(e.cards == (UNKNOWN, UNKNOWN) for e in unknown.history
               if isinstance(e, Shown) and e.player == 1)


class Spy(AgentBase):
    """A learning agent that checks the tag agent's moves and records what it is given."""

    def __init__(self) -> None:
        self.name = "spy"
        self.inner = CallAgent()
        self.views: list[PlayerView] = []
        self.events = 0
        self.matches = 0

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)

    def act(self, view: PlayerView) -> Action:
        return self.inner.act(view)

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]:
        return self.inner.action_probabilities(view)

    def observe_event(self, event: Any) -> None:
        self.events += 1

    def start_match(self) -> None:
        self.matches += 1

    def end_hand(self, view: PlayerView) -> None:
        self.views.append(view)


class _Plain:
    name = "plain"


def test_learns_is_an_end_hand_of_its_own() -> None:
    assert learns(Spy()) and not learns(AgentBase()) and not learns(_Plain())
    assert not learns(TagAgent())
    s = Spy()
    start_match([s, s, TagAgent()])  # each learner once
    assert s.matches == 1


def test_a_match_hands_each_learner_its_own_final_view() -> None:
    spy = Spy()
    cfg = MatchConfig(agents=("spy", "tag"), hands=60, seed=3, stack_bb=100.0)
    res = run_match(cfg, lambda spec, game, hc, slot: spy if slot == 0 else TagAgent(),
                    workers=1, fast=False)
    assert spy.matches == 1 and len(spy.views) == 60 and spy.events > 60 * 4
    folds = shows = 0
    for i, v in enumerate(spy.views):
        cards = hand_cards(3, i)
        mine, theirs = cards[2 * v.player:2 * v.player + 2], cards[2 - 2 * v.player:4 - 2 * v.player]
        assert v.player == i % 2 and v.hole == tuple(mine)
        assert v.payoff == pytest.approx(res.chips[i])
        if v.opponent_hole is None:
            folds += 1
            assert not (_cards_in(v) & set(theirs))
        else:
            shows += 1
            assert v.opponent_hole == tuple(theirs)
    assert folds > 0 and shows > 0  # the calling spy sees the tag agent fold and show


def test_aivat_feeds_events_and_ends_hands_as_a_match_does() -> None:
    from pokerlab.evaluation.aivat import aivat_match

    spy = Spy()
    res = aivat_match(spy, TagAgent(), hands=20, seed=1, stack_bb=100.0, names=("spy", "tag"))
    assert spy.matches == 1 and len(spy.views) == 20 and spy.events > 20 * 4
    assert np.allclose([v.payoff for v in spy.views], res.raw)
    for i, v in enumerate(spy.views):
        if v.opponent_hole is not None:
            cards = hand_cards(1, i // 2)
            assert v.opponent_hole == tuple(cards[2 - 2 * v.player:4 - 2 * v.player])


class SmallSpy(AgentBase):
    """A small-game learner that passes/checks-calls and records its end views."""

    def __init__(self, move: int) -> None:
        self.name = "small-spy"
        self.move = move
        self.views: list[SmallHandEnd] = []

    def reset(self, seed: int) -> None:
        pass

    def act_state(self, state: Any, player: int) -> int:
        legal = state.legal_actions()
        return self.move if self.move in legal else legal[0]

    def end_hand(self, view: SmallHandEnd) -> None:
        self.views.append(view)


def test_small_games_show_the_opponent_only_at_a_showdown() -> None:
    from pokerlab.games import load_game

    game = load_game("kuhn")
    bettor, passer = SmallSpy(1), SmallSpy(0)  # Kuhn: 0 pass, 1 bet
    play_small_hand(game, bettor, passer, 0, 5, 1, 2)  # bet, pass: a fold
    (vb,), (vp,) = bettor.views, passer.views
    assert vb.player == 0 and vp.player == 1
    assert vb.opponent_info_state is None and vp.opponent_info_state is None
    assert vb.info_state.endswith("bp") and vb.payoff == 1.0 and vp.payoff == -1.0
    a, b = SmallSpy(1), SmallSpy(1)  # bet, call: a showdown
    play_small_hand(game, a, b, 0, 5, 1, 2)
    assert a.views[0].opponent_info_state == b.views[0].info_state
    assert b.views[0].opponent_info_state == a.views[0].info_state
    assert a.views[0].showdown and abs(a.views[0].payoff) == 2.0


def test_the_play_tables_view_dispatches_on_the_state() -> None:
    st = _hand(FOLD)
    assert hand_end_view(st, 0, showdown=True) == final_view(st, 0)  # read from the events


def test_the_hunl_adaptive_agent_counts_only_what_was_shown() -> None:
    """The learning agents read the view, not the state: the same showdown hand counted
    at (node, bucket) when shown, at the node only when the opponent mucked."""
    from pokerlab.agents.adapt_hunl import HUNLAdaptAgent, HUNLAdaptConfig
    from pokerlab.registry import build_agent

    bp = build_agent("blueprint", game="hunl", config=CFG)
    st = _hand()
    shown = HUNLAdaptAgent(bp, HUNLAdaptConfig(refit=10_000), name="adapt")
    shown.end_hand(final_view(st, 0))
    st.history = [e for e in st.history if not (isinstance(e, Shown) and e.player == 1)]
    mucked = HUNLAdaptAgent(bp, HUNLAdaptConfig(refit=10_000), name="adapt")
    mucked.end_hand(final_view(st, 0))
    assert shown.obs.known.sum() > 0 and shown.obs.public.sum() == 0
    assert mucked.obs.known.sum() == 0 and mucked.obs.public.sum() == shown.obs.known.sum()
    assert shown.won == mucked.won == st.payoffs()[0]
