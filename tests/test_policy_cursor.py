"""The one cursor over a blueprint's policy tree (pokerlab.abstraction.cursor): play, deal,
decision, branches and the re-sync rule, against the policy agent that uses it."""

from __future__ import annotations

from pathlib import Path

from policy_helpers import random_indexed_policy

from pokerlab.abstraction.action_map import CALL, RAISE0
from pokerlab.abstraction.cursor import Cursor
from pokerlab.cards.cards import parse_cards
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, HoldemState
from pokerlab.registry import make_agent

GAME = "hunl(stack=100,bets=small,buckets=test)"


def _agent(tmp_path: Path):  # type: ignore[no-untyped-def]
    return make_agent(random_indexed_policy(tmp_path / "p.npz", 0, GAME),
                      config=HoldemConfig.from_bb(100))


def _state() -> HoldemState:
    st = HoldemState(config=HoldemConfig.from_bb(100))
    st.deal_hole(parse_cards("KdKc"))
    st.deal_hole(parse_cards("AsAh"))
    return st


def test_cursor_follows_the_tree_and_resyncs_over_the_cap(tmp_path: Path) -> None:
    ag = _agent(tmp_path)
    st = _state()
    cur = ag.cursor(st.view(0))
    assert isinstance(cur, Cursor) and cur.node == 0 and cur.decision() == 0
    t = ag.tree
    cur.play(Action(kind=ActionKind.RAISE, amount=250), 2, 0)  # the 3x open: on the tree
    assert cur.node == t.child(0, t.actions(0).index(RAISE0)) and not cur.lost
    cur.play(Action(kind=ActionKind.RAISE, amount=750), 3, 0)  # the cap's second raise
    before = ag.resyncs
    cur.play(Action(kind=ActionKind.RAISE, amount=10000), 4, 0)  # over the cap: lost
    assert cur.lost
    node = cur.synced_node()  # the re-sync rule, the cursor unchanged
    assert cur.lost and node >= 0
    assert (int(t.committed0[node]), int(t.committed1[node])) == (300, 10000)
    assert cur.resync(own=True) and cur.node == node and not cur.lost
    assert ag.resyncs == before + 1
    assert not cur.resync()  # on the tree now: nothing to do
    # the agent's own walk gives the same node
    st.raise_to(250)
    st.raise_to(750)
    st.raise_to(10000)
    assert ag.locate(st.view(0))[1] == node


def test_branches_match_play_and_leave_the_cursor_alone(tmp_path: Path) -> None:
    ag = _agent(tmp_path)
    st = _state()
    cur = ag.cursor(st.view(0))
    call = Action(kind=ActionKind.CHECK_CALL)
    (p, b), = cur.branches(call, [10, 11, 12, 13, 14])
    assert p == 1.0 and cur.node == 0 and cur.real.pot == st.pot
    ref = cur.copy()
    ref.play(call, 2, 0)
    assert b.node == ref.node == ag.tree.child(0, ag.tree.actions(0).index(CALL))
    # after the big blind checks the flop is dealt from the given board
    (_, b2), = b.branches(call, [10, 11, 12, 13, 14])
    assert list(b2.real.board) == [10, 11, 12] and b2.real.street == 1
    assert b2.decision() == b2.node >= 0
