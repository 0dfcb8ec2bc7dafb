"""Play by protocol (issue 52): the tables are chosen by what the game is (one registry),
a hold'em hand's events are the engine's own records, push/fold is the ``pushfold``
agent plus a grader, and no module of the play package compares a game's name."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from pokerlab.holdem import events as hev
from pokerlab.play.generic_table import GenericSession
from pokerlab.play.holdem_table import HoldemSession
from pokerlab.play.pushfold_table import PushFoldGrader, PushFoldSession
from pokerlab.play.registry import GAMES, TABLES, table_spec
from pokerlab.play.session import ActionTaken, EngineRecord, PlayError, Session, SessionConfig
from pokerlab.play.small_table import KuhnTable, LeducTable

PLAY = Path(__file__).resolve().parent.parent / "pokerlab" / "play"


def test_registry_chooses_the_table_by_what_the_game_is():
    assert GAMES == ("hunl", "pushfold", "leduc", "kuhn")
    want = {"hunl": HoldemSession, "pushfold": PushFoldSession, "leduc": LeducTable,
            "kuhn": KuhnTable}
    for game in GAMES:
        s = Session(SessionConfig(game=game, seed=1, stack=10))
        assert type(s) is want[game]
        assert s.summary()["unit"] == ("bb" if TABLES[game].engine else "chips")
    s = Session(SessionConfig(game="gamedef:leduc5", seed=1))
    assert type(s) is GenericSession and s.summary()["unit"] == "chips"
    spec = table_spec("gamedef:leduc5")
    assert spec.checked and spec.game_agents and not spec.engine
    assert table_spec("pushfold").own_agent and table_spec("hunl").hunl_agents
    # the stack ranges come from the registry
    with pytest.raises(PlayError, match=r"outside 2..1000 for hunl"):
        SessionConfig(game="hunl", stack=1.5)
    with pytest.raises(PlayError, match=r"outside 1..50 for the push/fold trainer"):
        SessionConfig(game="pushfold", stack=51)
    SessionConfig(game="pushfold", stack=50)


def _literal_strings(node: ast.AST) -> set[str]:
    out = set()
    for c in [node.left, *node.comparators] if isinstance(node, ast.Compare) else []:
        elts = c.elts if isinstance(c, (ast.Tuple, ast.List, ast.Set)) else [c]
        out |= {e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return out


def test_no_game_name_is_compared_outside_the_registry():
    found = []
    for path in sorted(PLAY.glob("*.py")):
        if path.name == "registry.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare) and _literal_strings(node) & set(GAMES):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def test_holdem_hand_logs_the_engine_records_themselves():
    s = Session(SessionConfig(game="hunl", agent="tag", seed=11))
    rng = random.Random(3)
    for _ in range(6):
        s.new_hand()
        s.run_agent()
        while s.waiting == "you":
            lg = s.legal()
            s.act(rng.choice(["call", "fold"] if lg["fold"] else ["check"]))
            s.run_agent()
        h = s.current
        logged = [e.record for e in h.events if isinstance(e, EngineRecord)]
        records = [r for r in h.state.history if not isinstance(r, hev.HoleDealt)]
        assert len(logged) == len(records) > 0
        assert all(a is b for a, b in zip(logged, records, strict=True))  # no copies
        assert not any(isinstance(e, ActionTaken) for e in h.events)
        moves = [e.to_json() for e in h.events if e.is_move]
        assert len(moves) == sum(isinstance(r, hev.ACTION_TYPES) for r in records)
        for e, j in zip([e for e in h.events if e.is_move], moves, strict=True):
            assert j["event"] == "ActionTaken" and j["pot"] == e.record.pot
            assert ("think_ms" in j) == (j["who"] == "agent")


def test_protocol_and_engine_events_have_one_json_form():
    s = Session(SessionConfig(game="leduc", seed=2))
    s.new_hand()
    s.run_agent()
    s.act("call")
    small = next(e for e in s.current.events if e.is_move).to_json()
    h = Session(SessionConfig(game="hunl", agent="call", seed=2))
    h.new_hand()
    h.run_agent()
    h.act("call")
    big = next(e for e in h.current.events if e.is_move).to_json()
    assert set(small) - {"think_ms", "searched"} == set(big) - {"think_ms", "searched"} == {
        "event", "who", "kind", "amount", "pot", "label"}


@pytest.mark.parametrize("stack", [10.0, 40.0])
def test_pushfold_is_the_pushfold_agent_plus_a_grader(stack):
    from pokerlab.agents.rules import PushFoldAgent
    from pokerlab.holdem.engine import ActionKind

    s = Session(SessionConfig(game="pushfold", stack=stack, seed=5))
    assert isinstance(s.agent, PushFoldAgent) and isinstance(s.grader, PushFoldGrader)
    nash = s.grader.nash
    assert nash.stack == stack
    checked = 0
    for _ in range(8):
        s.new_hand()
        h = s.current
        if s.waiting == "agent":  # the agent is the small blind: its shove frequency is Nash
            st = h.state
            probs = s.agent.action_probabilities(st.view(st.actor))
            shove = sum(p for a, p in probs if a.kind == ActionKind.RAISE)
            assert {a.kind for a, _ in probs} <= {ActionKind.RAISE, ActionKind.FOLD}
            assert shove == pytest.approx(nash.shove_prob(*st.hole[st.actor]), abs=1e-9)
            checked += 1
        s.run_agent()
        while s.waiting == "you":
            s.act("allin" if s.legal()["raise"] else "call")
            s.run_agent()
    assert checked > 0
    graded = [d.coach for hh in s.hands for d in hh.decisions]
    assert len(graded) == s.summary()["decisions_graded"] > 0
    assert s.summary()["ev_loss"] == pytest.approx(sum(c["ev_loss_bb"] for c in graded),
                                                   abs=1e-3)
