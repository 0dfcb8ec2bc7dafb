"""Policy agents off their betting tree: re-synchronisation to the nearest node, and the
all-in guard of action translation (issue 12: the shipped agent against ``tag``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from policy_helpers import random_indexed_policy

from pokerlab.abstraction.action_map import CALL, FOLD, RAISE0, ActionMap
from pokerlab.abstraction.action_tree import DECISION
from pokerlab.abstraction.bets import preset
from pokerlab.agents.policy_agent import ALLIN_BEHIND
from pokerlab.cards.cards import parse_cards
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, HoldemState
from pokerlab.registry import make_agent

GAME = "hunl(stack=100,bets=small,buckets=test)"
"""``small`` bets at 100 bb: preflop 3x / all-in, cap 2; postflop 50% / all-in, cap 2."""


def _policy(path: Path, seed: int = 0) -> str:
    return random_indexed_policy(path, seed, GAME)


def _state(hole0: str = "KdKc", hole1: str = "AsAh", bb: float = 100) -> HoldemState:
    st = HoldemState(config=HoldemConfig.from_bb(bb))
    st.deal_hole(parse_cards(hole0))
    st.deal_hole(parse_cards(hole1))
    return st


def test_four_bb_raise_is_not_read_as_all_in() -> None:
    amap = ActionMap(preset("small"))
    st = _state()
    st.check_or_call()  # the button limps; the big blind raises to 4 bb
    probs = dict(amap.translate(st, 400))
    # pseudo-harmonic between 3x (300 = 1.0 pot) and all-in (10000 = 49.5 pots)
    fa = (49.5 - 1.5) * 2.0 / (48.5 * 2.5)
    assert probs[RAISE0] == pytest.approx(fa)
    assert probs[RAISE0 + 1] == pytest.approx(1.0 - fa)
    assert amap.translate(st, 400, allin_behind=ALLIN_BEHIND) == [(RAISE0, 1.0)]
    # an all-in, and a raise that leaves less than half the stack behind, may be all-in
    assert amap.translate(st, 10000, allin_behind=ALLIN_BEHIND) == [(RAISE0 + 1, 1.0)]
    deep = dict(amap.translate(st, 6000, allin_behind=ALLIN_BEHIND))
    assert set(deep) == {RAISE0, RAISE0 + 1} and deep[RAISE0 + 1] > 0.5


def test_raise_over_the_cap_resynchronises_instead_of_calling(tmp_path: Path) -> None:
    ag = make_agent(_policy(tmp_path / "p.npz"), config=HoldemConfig.from_bb(100))
    st = _state()
    st.raise_to(250)  # button opens
    st.raise_to(750)  # big blind 3-bets (the second raise: the cap of `small`)
    st.raise_to(10000)  # button shoves: a third raise the tree does not have
    view = st.view(0)
    real, node = ag.locate(view)
    t = ag.tree
    assert node >= 0 and int(t.kind[node]) == DECISION
    assert int(t.actor[node]) == 0 and int(t.street[node]) == 0 and int(t.to_call[node]) > 0
    assert t.actions(node) == [FOLD, CALL]
    # the nearest node: the big blind facing an all-in after raising to 300 (limp, raise,
    # shove): commitments (300, 10000) against the real (750, 10000)
    assert (int(t.committed0[node]), int(t.committed1[node])) == (300, 10000)
    assert t.path(node) == [CALL, RAISE0, RAISE0 + 1]
    _, ab, ids, ok = ag.track(view)
    assert ok and ids == t.path(node) and ab.actor == 0 and ab.to_call > 0
    # the row of that node is played: fold has the policy's weight (not a forced call)
    probs = dict(ag.action_probabilities(view))
    row = ag.policy.probabilities(node, ag.bucket(0, view.hole, ()))
    assert probs[Action(kind=ActionKind.FOLD)] == pytest.approx(row[0] / row.sum(), rel=1e-6)


def test_abstract_all_in_that_is_not_real_resynchronises_on_later_streets(
        tmp_path: Path) -> None:
    ag = make_agent(_policy(tmp_path / "p.npz"), config=HoldemConfig.from_bb(100))
    ag.allin_behind = None  # the plain pseudo-harmonic mapping: a 4 bb raise may be all-in
    hits = 0
    for seed in range(40):
        ag.reset(seed)
        st = _state()
        st.check_or_call()
        st.raise_to(400)
        real, node = ag.locate(st.view(1))
        t = ag.tree
        path = t.path(node)
        hits += path[:2] == [CALL, RAISE0 + 1]
        st.check_or_call()
        st.deal_board(parse_cards("2c7d9h"))
        view = st.view(0)
        real, node = ag.locate(view)
        # the big blind acts first on the flop: always a flop decision of player 0
        assert node >= 0 and int(t.street[node]) == 1 and int(t.actor[node]) == 0
        # followed (3x) or re-synchronised (after the abstract all-in): the flop's 3x pot
        assert int(t.committed0[node]) == int(t.committed1[node]) == 300
        assert int(t.to_call[node]) == 0
        assert ag.action_probabilities(view)
    assert 0 < hits < 40  # some seeds read the raise as all-in; they still play the flop


def test_on_tree_histories_are_followed_exactly(tmp_path: Path) -> None:
    ag = make_agent(_policy(tmp_path / "p.npz"), config=HoldemConfig.from_bb(100))
    st = _state()
    st.raise_to(300)  # 3x: on the tree
    st.check_or_call()
    st.deal_board(parse_cards("2c7d9h"))
    st.check_or_call()
    st.raise_to(300)  # 50% of the 600 pot: on the tree
    real, node = ag.locate(st.view(0))
    t = ag.tree
    assert node == t.node_of([RAISE0, CALL, CALL, RAISE0])
    before = ag.resyncs
    ag.locate(st.view(0))
    assert ag.resyncs == before


def test_shipped_agent_is_the_small_preset_with_tags_sizes_on_its_tree() -> None:
    from pokerlab.blueprint.config import BlueprintConfig
    from pokerlab.blueprint.config import preset as bp_preset
    from pokerlab.registry import build_agent

    ag = build_agent("blueprint", game="hunl", config=HoldemConfig.from_bb(100))
    cfg = BlueprintConfig.from_json(ag.policy.metadata["config"])
    # the small preset with the richer bet set of docs/blueprint.md (2026-12-03)
    rich = ("preflop: 2.5x, 3x, 4x, a, cap 3; flop: 33%, 75%, a, cap 2; "
            "turn: 75%, 150%, a, cap 2; river: 75%, 150%, a, cap 2")
    assert cfg == replace(bp_preset("small"), bets=rich, cards=cfg.cards)
    assert cfg.cards == "hs"
    st = _state()
    # tag's open to 2.5 bb, its 3x re-raise and its isolation raise to 4 bb are tree sizes
    assert ag.map.translate(st, 250) == [(RAISE0, 1.0)]
    st.raise_to(250)
    assert ag.map.translate(st, 750) == [(RAISE0 + 1, 1.0)]
    limp = _state()
    limp.check_or_call()
    assert ag.map.translate(limp, 400) == [(RAISE0 + 2, 1.0)]
    # and its 75% pot bet on the flop (the flop's second size, after 33%)
    limp.check_or_call()
    limp.deal_board(parse_cards("2c7d9h"))
    assert ag.map.translate(limp, 150) == [(RAISE0 + 1, 1.0)]
