"""The policy agent tracks the hand as it goes (issue 27): fed the events by the match
loop, its action probabilities and actions are exactly those of replaying every view
from its start, and a caller that feeds nothing gets the same answers."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

from policy_helpers import random_indexed_policy

from pokerlab.agents.policy_agent import HUNLPolicyAgent
from pokerlab.agents.random_agent import RandomAgent
from pokerlab.evaluation.matches import hand_cards, play_hunl_hand
from pokerlab.games import load_game
from pokerlab.holdem.engine import Action, HoldemConfig
from pokerlab.registry import make_agent

GAME = "hunl(stack=100,bets=small,buckets=test)"


class _Checked:
    """Plays ``fed`` (fed the events) and checks each of its answers against ``replay``
    (reset before every view: a replay from the start) and ``unfed`` (never fed: catches
    up from the views)."""

    name = "checked"

    def __init__(self, fed: Any, replay: Any, unfed: Any) -> None:
        self.fed, self.replay, self.unfed = fed, replay, unfed
        self.seed = 0
        self.decisions = 0

    def reset(self, seed: int) -> None:
        self.seed = seed
        self.fed.reset(seed)
        self.unfed.reset(seed)

    def observe_event(self, event: Any) -> None:
        self.fed.observe_event(event)

    def act(self, view: Any) -> Action:
        want = self.fed.action_probabilities(view)
        self.replay.reset(self.seed)
        assert self.replay.action_probabilities(view) == want
        assert self.unfed.action_probabilities(view) == want
        if not self.fed.indexed:
            assert self.fed.track(view)[2:] == self.replay.track(view)[2:]
        act = self.fed.act(view)
        assert self.unfed.act(view) == act
        self.decisions += 1
        return act


def _play(agents: list[Any], config: HoldemConfig, hands: int) -> _Checked:
    chk = _Checked(*agents)
    for i in range(hands):
        opp = RandomAgent(seed=i)
        play_hunl_hand(chk, opp, config, i % 2, hand_cards(7, i), 1000 + i, i)
    return chk


def test_fed_indexed_agent_equals_the_replay_of_every_view(tmp_path: Path) -> None:
    spec = random_indexed_policy(tmp_path / "p.npz", 3, GAME)
    for bb in (100, 37):  # the policy's stacks, and a table it was not made for
        cfg = HoldemConfig.from_bb(bb)
        agents = [make_agent(spec, config=cfg) for _ in range(3)]
        chk = _play(agents, cfg, 200)
        fed, replay, unfed = agents
        assert chk.decisions > 300
        assert fed.replays == 0 and 150 < unfed.replays <= 200  # one per hand it acts in
        assert replay.replays == chk.decisions
        assert fed.resyncs > 0  # the random opponent's sizes leave the tree
        assert fed.resyncs == unfed.resyncs


class _HashPolicy:
    """A stand-in tabular policy: weights from a hash of the information state."""

    metadata: dict[str, Any] = {}

    def action_probabilities(self, state: Any) -> dict[int, float]:
        key = state.information_state_string(state.current_player())
        acts = state.legal_actions()
        w = [1 + zlib.crc32(f"{key}|{a}".encode()) % 7 for a in acts]
        return {a: x / sum(w) for a, x in zip(acts, w, strict=True)}


def test_fed_tabular_agent_equals_the_replay_of_every_view() -> None:
    game = load_game("hunl(stack=20,bets=small)")
    cfg = HoldemConfig.from_bb(20)
    agents = [HUNLPolicyAgent(_HashPolicy(), game, name="tab") for _ in range(3)]
    chk = _play(agents, cfg, 120)
    assert chk.decisions > 150 and agents[0].replays == 0


def test_outside_views_do_not_disturb_the_fed_hand(tmp_path: Path) -> None:
    """A view of the other seat (the coach asks about the person's decisions) is answered
    from the view; the fed hand goes on where it was."""
    spec = random_indexed_policy(tmp_path / "p.npz", 4, GAME)
    cfg = HoldemConfig.from_bb(100)
    fed, other, replay = (make_agent(spec, config=cfg) for _ in range(3))

    class _Both(_Checked):
        def act(self, view: Any) -> Action:
            other.reset(self.seed)
            mine = other.action_probabilities(view)
            assert fed.action_probabilities(view) == mine
            return super().act(view)

    opp_views: list[Any] = []

    class _Opp(RandomAgent):
        def act(self, view: Any) -> Action:
            opp_views.append(view)
            fed.action_probabilities(view)  # the other seat's view: not the fed hand
            return super().act(view)

    chk = _Both(fed, replay, make_agent(spec, config=cfg))
    for i in range(100):
        play_hunl_hand(chk, _Opp(seed=i), cfg, i % 2, hand_cards(9, i), 50 + i, i)
    assert chk.decisions > 100 and len(opp_views) > 100
    assert 50 < fed.replays <= 100  # one per hand the other seat acts in
