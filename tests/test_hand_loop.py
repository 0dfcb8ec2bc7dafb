"""The one HUNL hand loop (pokerlab.holdem.hand_loop) under random self-play, the oracle and
matches, and the agent API members the loops read without probing (counters, protocols)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pokerlab.agents import oracle
from pokerlab.agents.outside import check_agent
from pokerlab.agents.random_agent import (
    DEFAULT_WEIGHTS,
    RandomAgent,
    SplitMix64,
    kernel_playouts,
    play_hand,
    python_playouts,
)
from pokerlab.agents.rules import TagAgent
from pokerlab.agents.selfplay import SelfplayConfig, play, summary
from pokerlab.errors import AgentError
from pokerlab.evaluation.lbr_core import SnapshotAgent
from pokerlab.evaluation.lbr_tree import CursorAgent
from pokerlab.evaluation.matches import agent_counters
from pokerlab.holdem.actions import Action, ActionKind, LegalActions
from pokerlab.holdem.deal import deal_cards
from pokerlab.holdem.engine import HoldemConfig, HoldemState
from pokerlab.holdem.events import BoardDealt, CheckedOrCalled, Folded, RaisedTo
from pokerlab.holdem.hand_loop import HandHooks, acts_on_legal
from pokerlab.holdem.hand_loop import play_hand as loop_hand
from pokerlab.holdem.phh import phh_line
from pokerlab.holdem.view import AgentBase, RangeQuery

CFG = HoldemConfig.from_bb(100)


class _ViewRandom(RandomAgent):
    """A random agent asked through ``act(view)`` (overriding ``act`` turns off the
    loop's ``act_legal`` path): counts its views."""

    views = 0

    def act(self, view: Any) -> Action:
        type(self).views += 1
        return super().act(view)


def test_selfplay_numbers_are_those_of_the_old_inline_loop() -> None:
    # measured with the loop random self-play had before it moved onto play_hand
    got = summary(play(SelfplayConfig(hands=200, seed=5, game=CFG)))
    assert got == {"hands": 200, "showdowns": 139, "folds": 61, "all_in_hands": 146,
                   "chips_won": [143008, -143008], "actions": 879}


def test_python_twin_matches_the_kernel_bit_for_bit() -> None:
    cfg = HoldemConfig(stacks=(900, 1300), small_blind=5, big_blind=10, ante=1)
    pay, _ = kernel_playouts(cfg, 300, 17, DEFAULT_WEIGHTS)
    assert np.array_equal(python_playouts(cfg, 300, 17, DEFAULT_WEIGHTS), pay)


def test_act_legal_and_act_view_play_the_same_hands() -> None:
    assert acts_on_legal(RandomAgent()) and not acts_on_legal(_ViewRandom())
    assert not acts_on_legal(TagAgent())
    rng_a, rng_b = SplitMix64(9), SplitMix64(9)
    _ViewRandom.views = 0
    n_actions = 0
    for _ in range(60):
        a = play_hand(HoldemState(config=CFG), rng_a, DEFAULT_WEIGHTS)
        seats = (_ViewRandom(rng=rng_b), _ViewRandom(rng=rng_b))
        b = loop_hand(seats, CFG, deal_cards(rng_b))
        assert a.history == b.history and a.payoffs() == b.payoffs()
        n_actions += sum(isinstance(e, (Folded, CheckedOrCalled, RaisedTo)) for e in a.history)
    assert _ViewRandom.views == n_actions > 60


class _Recorder(HandHooks):
    def __init__(self) -> None:
        self.log: list[str] = []

    def dealt(self, state: HoldemState) -> None:
        self.log.append(f"dealt{len(state.history)}")

    def before_board(self, state: HoldemState) -> None:
        self.log.append(f"b{len(state.board)}")

    def after_board(self, state: HoldemState) -> None:
        self.log.append(f"a{len(state.board)}")

    def before_action(self, state: HoldemState, action: Action) -> None:
        assert state.is_legal(action)
        self.log.append("act")


def test_hooks_see_every_deal_and_action_once() -> None:
    for seed in range(20):
        hooks = _Recorder()
        st = play_hand(HoldemState(config=CFG), SplitMix64(seed), DEFAULT_WEIGHTS, hooks=hooks)
        boards = [len(e.cards) for e in st.history if isinstance(e, BoardDealt)]
        acts = sum(isinstance(e, (Folded, CheckedOrCalled, RaisedTo)) for e in st.history)
        assert hooks.log[0] == "dealt2"  # both hole cards dealt, nothing else yet
        assert hooks.log.count("act") == acts
        seen = [x for x in hooks.log if x[0] in "ab" and x != "act"]
        want: list[str] = []
        n = 0
        for k in boards:
            want += [f"b{n}", f"a{n + k}"]
            n += k
        assert seen == want


class _Folder(AgentBase):
    name = "folder"

    def reset(self, seed: int) -> None:
        return None

    def act(self, view: Any) -> Action:  # pragma: no cover - act_legal is asked
        raise AssertionError

    def act_legal(self, legal: LegalActions) -> Action:
        return Action(kind=ActionKind.FOLD)


def test_an_illegal_act_legal_move_names_the_agent() -> None:
    cards = deal_cards(SplitMix64(1))
    # the button (seat 1) opens preflop facing the big blind: fold is legal, so it folds
    st = loop_hand((RandomAgent(seed=1), _Folder()), CFG, cards)
    assert st.folded == 1 and st.payoffs() == (50, -50)
    # the big blind after the button's call: a fold is illegal (not facing a bet)
    class _Caller(RandomAgent):
        def act_legal(self, legal: LegalActions) -> Action:
            return Action(kind=ActionKind.CHECK_CALL)

    with pytest.raises(AgentError, match="'folder' chose the illegal action"):
        loop_hand((_Folder(), _Caller(seed=2)), CFG, cards)


def test_oracle_counts_are_those_of_its_old_loop() -> None:
    bad, feats = oracle.run_differential(60, 4)
    assert bad == []
    assert feats == {"all_in": 38, "showdown": 45, "min_raise": 32, "fold": 15,
                     "short_all_in_raise": 12, "short_call": 17, "split": 3, "hands": 60}


def test_oracle_stops_at_the_first_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    real = oracle._snapshot_pk

    def off_by_one(pk: Any) -> tuple[Any, ...]:
        snap = real(pk)
        return (*snap[:6], snap[6] + 1, *snap[7:])  # PokerKit's pot one chip more

    monkeypatch.setattr(oracle, "_snapshot_pk", off_by_one)
    bad, st = oracle.compare_hand(CFG, 3, DEFAULT_WEIGHTS)
    assert len(bad) == 1 and bad[0].startswith("step 0 (") and "pot: ours 150 pokerkit 151" in bad[0]
    assert not any(isinstance(e, (Folded, CheckedOrCalled, RaisedTo)) for e in st.history)


def test_phh_line_writes_every_action_kind() -> None:
    assert [phh_line("dh", 0, "AsKd"), phh_line("db", cards="2c3d4h"), phh_line("f", 1),
            phh_line("cc", 0), phh_line("cbr", 1, amount=300), phh_line("sm", 0, "AhAd"),
            phh_line("sm", 1)] == ["d dh p1 AsKd", "d db 2c3d4h", "p2 f", "p1 cc",
                                   "p2 cbr 300", "p1 sm AhAd", "p2 sm"]


class _Counting:
    name = "counting"

    def counters(self) -> dict[str, Any]:
        return {"hands": 3, "ratio": 0.5, "flag": True, "label": "x"}


class _Broken(_Counting):
    def counters(self) -> dict[str, Any]:
        raise RuntimeError("broken")


class _Bare:
    name = "bare"

    def act(self, view: Any) -> Action:  # pragma: no cover - never asked
        raise AssertionError


def test_agent_counters_read_counters_only() -> None:
    assert agent_counters(_Counting()) == {"hands": 3.0, "ratio": 0.5}
    assert agent_counters(_Broken()) == {}
    assert agent_counters(_Bare()) == {}  # no counters(): none
    assert agent_counters(RandomAgent()) == {}  # AgentBase's default
    wrapped = check_agent(_Bare(), "bare")  # an outside bot without reset
    assert wrapped.counters() == {} and agent_counters(wrapped) == {}

    class _BareCounting(_Counting):
        def act(self, view: Any) -> Action:  # pragma: no cover
            raise AssertionError

    assert agent_counters(check_agent(_BareCounting(), "c")) == {"hands": 3.0, "ratio": 0.5}


def test_capability_protocols() -> None:
    class _Snap:
        def snapshot(self) -> int:
            return 1

        def restore(self, state: int) -> None:
            return None

    assert isinstance(_Snap(), SnapshotAgent) and not isinstance(RandomAgent(), SnapshotAgent)
    assert not isinstance(RandomAgent(), CursorAgent)
    assert isinstance(RandomAgent(), RangeQuery) and not isinstance(_Bare(), RangeQuery)
