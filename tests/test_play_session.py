"""The play session engine: arithmetic, rotation, PHH, stats, grading, errors, terminal."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from pokerlab.agents.rules import CallAgent
from pokerlab.holdem import phh
from pokerlab.holdem.engine import Action, ActionKind, HoldemState
from pokerlab.play.opponents import pushfold_nash, small_game_equilibrium
from pokerlab.play.session import PlayError, Session, SessionConfig
from pokerlab.play.tty import parse, play_tty


def random_move(s: Session, rng: random.Random) -> tuple[str, int | None]:
    lg = s.legal()
    assert lg is not None
    opts: list[tuple[str, int | None]] = []
    if lg["fold"]:
        opts.append(("fold", None))
    if lg["check"]:
        opts.append(("check", None))
    elif lg["call"] >= 0:
        opts.append(("call", None))
    if lg["raise"]:
        opts.append(("raise", rng.randint(lg["min"], lg["max"])))
        opts.append(("allin", None))
    return rng.choice(opts)


def play_hand(s: Session, rng: random.Random, check=None) -> None:
    s.new_hand()
    s.run_agent()
    while s.waiting == "you":
        if check is not None:
            check(s)
        s.act(*random_move(s, rng))
        s.run_agent()
    assert s.hand_over


def test_hunl_chip_arithmetic_rotation_and_phh(tmp_path):
    s = Session(SessionConfig(game="hunl", stack=50, seed=7), folder=tmp_path, agent=CallAgent())
    rng = random.Random(1)
    total = 2 * 5000

    def check(sess: Session) -> None:
        snap = sess.snapshot()
        # stacks + bets in front + collected pot = all chips; pot includes the bets
        assert snap["you"]["stack"] + snap["opponent"]["stack"] + snap["pot"] == total
        h = sess.current
        assert snap["you"]["stack"] == h.state.stacks[h.human_player]
        assert snap["opponent"]["cards"] is None  # the agent's cards stay hidden while betting

    buttons = []
    for _ in range(40):
        play_hand(s, rng, check)
        h = s.current
        buttons.append(h.human_player == 1)
        pay = h.state.payoffs()
        assert h.chips == pay[h.human_player] == -pay[1 - h.human_player]
        snap = s.snapshot()
        assert snap["you"]["stack"] + snap["opponent"]["stack"] == total
        assert snap["you"]["stack"] == 5000 + h.chips
    assert buttons == [True, False] * 20  # blinds rotate every hand
    files = sorted(tmp_path.glob("hand_*.phh"))
    assert len(files) == 40
    for f, h in zip(files, s.hands, strict=True):
        st = phh.read_phhs(f)[0]
        assert st.payoffs() == h.state.payoffs()
        hh = phh.load_all(f.read_text())[0]
        assert phh.pokerkit_finishing_stacks(hh) == tuple(st.final_stacks())
    # the download masks the agent's cards in hands it did not show
    text = s.phh_text()
    states = phh.loads_all(text)
    assert len(states) == 40
    for st, h in zip(states, s.hands, strict=True):
        ag = 1 - h.human_player
        assert (st.hole[ag] == [-1, -1]) == (not h.revealed)
        assert st.hole[h.human_player] == h.state.hole[h.human_player]
    summary = s.summary()
    res = np.array([h.result for h in s.hands])
    assert summary["hands"] == 40
    assert summary["total"] == pytest.approx(res.sum(), abs=1e-3)
    assert summary["ci95"] == pytest.approx(1.96 * res.std(ddof=1) / math.sqrt(40), abs=1e-3)
    assert summary["per100"] == pytest.approx(100 * res.mean(), abs=0.01)


def test_carry_stacks_and_rebuy():
    s = Session(SessionConfig(game="hunl", stack=10, seed=3, carry_stacks=True), agent=CallAgent())
    rng = random.Random(5)
    prev = None
    for _ in range(30):
        play_hand(s, rng)
        h = s.current
        c = h.state.config
        start = (c.stacks[h.human_player], c.stacks[1 - h.human_player])
        if prev is not None and min(prev) > 100:
            assert start == prev
        fin = h.state.final_stacks()
        prev = (fin[h.human_player], fin[1 - h.human_player])
        assert sum(prev) == 2000


def test_illegal_moves_change_nothing():
    s = Session(SessionConfig(game="hunl", seed=11), agent=CallAgent())
    s.new_hand()
    s.run_agent()
    while s.waiting != "you":  # pragma: no cover - the call agent checks to the person
        s.new_hand()
    before = s.snapshot()
    lg = s.legal()
    bad = [("raise", lg["min"] - 1), ("raise", lg["max"] + 1), ("raise", None), ("jump", None),
           ("raise", True), ("raise", 1.5)]
    if not lg["fold"]:
        bad.append(("fold", None))
    if not lg["check"]:
        bad.append(("check", None))
    for kind, amount in bad:
        with pytest.raises(PlayError):
            s.act(kind, amount)  # type: ignore[arg-type]
        assert s.snapshot() == before
    with pytest.raises(PlayError):
        s.new_hand()  # the hand is not over
    with pytest.raises(PlayError):
        s.agent_decision()  # not the agent's turn
    with pytest.raises(PlayError):
        s.replay(1)  # not over yet
    with pytest.raises(PlayError):
        SessionConfig(game="chess")
    with pytest.raises(PlayError):
        SessionConfig(game="hunl", stack=float("nan"))


class CrashingAgent(CallAgent):
    armed = False

    def act(self, view):
        if self.armed:
            raise RuntimeError("boom")
        return super().act(view)


def test_crashing_agent_aborts_hand_cleanly():
    agent = CrashingAgent()
    s = Session(SessionConfig(game="hunl", seed=2), agent=agent)
    agent.armed = True
    s.new_hand()
    ev = s.run_agent()
    if s.waiting == "you":
        s.act("call")
        ev = s.run_agent()
    assert s.hand_over and s.current.aborted
    assert ev[-1].aborted and "boom" in ev[-1].error
    assert s.summary()["hands"] == 0  # a cancelled hand does not count
    agent.armed = False
    play_hand(s, random.Random(0))
    assert s.summary()["hands"] == 1
    assert len(phh.loads_all(s.phh_text())) == 1  # the cancelled hand is not in the download


def test_pushfold_grading_against_nash():
    nash = pushfold_nash(10.0)
    s = Session(SessionConfig(game="pushfold", stack=10, seed=4))
    graded = 0
    expected_loss = 0.0
    rng = random.Random(9)
    for _ in range(30):
        s.new_hand()
        s.run_agent()
        while s.waiting == "you":
            h = s.current
            c1, c2 = h.state.hole[h.human_player]
            sb = h.human_player == 1
            lg = s.legal()
            assert lg["call"] == -1 if sb else lg["call"] > 0  # no limping in the trainer
            aggressive = rng.random() < 0.5
            gain, loss = nash.grade(sb, c1, c2, aggressive)
            expected_loss += loss
            s.act("allin" if aggressive else "fold")
            graded += 1
            note = h.decisions[-1].coach
            assert note["ev_loss_bb"] == pytest.approx(loss, abs=1e-4)
            assert len(note["grid"]) == 169
            s.run_agent()
    sm = s.summary()
    assert sm["decisions_graded"] == graded > 0
    assert sm["ev_loss"] == pytest.approx(expected_loss, abs=1e-3)
    # folding aces as the small blind costs exactly the shove gain; shoving them costs 0
    from pokerlab.cards.cards import parse_cards

    a1, a2 = parse_cards("AsAh")
    g, loss_fold = nash.grade(True, a1, a2, aggressive=False)
    assert loss_fold == pytest.approx(g) and g > 0
    assert nash.grade(True, a1, a2, aggressive=True)[1] == 0.0


@pytest.mark.parametrize("game", ["leduc", "kuhn"])
def test_small_games_against_equilibrium(game, tmp_path):
    s = Session(SessionConfig(game=game, seed=6), folder=tmp_path)
    pol = small_game_equilibrium(game)
    rng = random.Random(2)
    for _ in range(60):
        play_hand(s, rng)
        h = s.current
        assert h.result == h.state.returns()[h.human_player]
        snap = s.snapshot()
        start = 100 if game == "leduc" else 2
        assert snap["you"]["stack"] == start + h.chips
        assert snap["you"]["stack"] + snap["opponent"]["stack"] == 2 * start
    assert len(list(tmp_path.glob("hand_*.json"))) == 60
    # the coach shows the exact equilibrium at the person's decisions
    for h in s.hands[:10]:
        rep = s.coach_report(h.number)
        for d, note in zip(h.decisions, rep["decisions"], strict=True):
            probs = pol.action_probabilities(d.view)
            assert sum(p for _, p in note["frequencies"]) == pytest.approx(1.0)
            assert [p for _, p in note["frequencies"]] == pytest.approx(
                [round(probs[a], 4) for a in sorted(probs)], abs=1e-4)
    with pytest.raises(PlayError):
        s.phh_text()


def test_hunl_coach_with_grid():
    s = Session(SessionConfig(game="hunl", seed=1), agent=CallAgent())
    s.coach_on = True
    s.new_hand()
    s.run_agent()
    s.act("call" if not s.legal()["check"] else "check")
    s.run_agent()
    while s.waiting == "you":
        s.act("check" if s.legal()["check"] else "call")
        s.run_agent()
    rep = s.coach_report()
    first = rep["decisions"][0]
    assert first["frequencies"][0][1] == 1.0
    assert len(first["grid"]) == 169 and all(g == [0, 1.0] for g in first["grid"])


def test_replay_frames_never_show_mucked_cards():
    s = Session(SessionConfig(game="hunl", seed=8), agent=CallAgent())
    rng = random.Random(3)
    for _ in range(20):
        play_hand(s, rng)
    for h in s.hands:
        frames = s.replay(h.number)["frames"]
        agent_cards = {phh._cards([c]) for c in h.state.hole[1 - h.human_player]}
        shown = False
        for f in frames:
            cards = set(f["board"]) | set(f["you"]["cards"]) | set(f["opponent"]["cards"] or [])
            for e in f["log"]:
                cards |= set(e.get("cards", []))
            if f["opponent"]["cards"]:
                shown = True
            if not shown:
                assert not (agent_cards & cards)
        assert shown == h.revealed
        assert frames[-1]["over"]


def test_terminal_play_scripted():
    s = Session(SessionConfig(game="hunl", seed=5), agent=CallAgent())
    inputs = iter(["x", "r 1", "c", "c", "c", "c", "c", "", "s", "f", "c", "c", "c", "c", "q"])
    out: list[str] = []
    play_tty(s, read=lambda prompt: next(inputs), write=out.append)
    text = "\n".join(out)
    assert "error: unknown action 'x'" in text
    assert "error: raise to 1 is outside the legal range" in text
    assert "session: 1 hands" in text
    assert parse("r 450") == ("raise", 450)
    assert parse("a") == ("allin", None)
    with pytest.raises(PlayError):
        parse("r lots")


def test_masked_state_is_legal_phh():
    st = HoldemState(config=Session(SessionConfig(game="hunl", seed=0),
                                    agent=CallAgent()).base_config)
    st.deal_hole([0, 1])
    st.deal_hole([2, 3])
    st.apply(Action(kind=ActionKind.RAISE, amount=300))
    st.fold()
    from pokerlab.play.holdem_table import _masked

    m = _masked(st, 0)
    assert m.hole[0] == [-1, -1] and m.payoffs() == st.payoffs()
    assert phh.loads_all(phh.dumps(m))[0].payoffs() == st.payoffs()


def test_cli_tty_and_errors(tmp_path):
    from typer.testing import CliRunner

    from pokerlab.cli import app

    r = CliRunner().invoke(app, ["play", "--tty", "--agent", "call", "--seed", "1", "--out",
                                 str(tmp_path)], input="c\nc\nc\nc\nc\nq\n")
    assert r.exit_code == 0, r.output
    assert "pokerlab play: hunl against call" in r.output
    assert "session: 1 hands" in r.output
    assert len(list(tmp_path.glob("*/hand_00001.phh"))) == 1
    for args in (["play", "--game", "chess"], ["play", "--agent", "nosuchagent"],
                 ["play", "--stack", "0.5", "--tty"], ["play", "--grace", "0"],
                 ["play", "--grace", "nan"], ["play", "--per-client", "0"],
                 ["play", "--max-sessions", "0"]):
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 2 and "error:" in r.output, (args, r.output)
