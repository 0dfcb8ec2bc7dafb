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
    from pokerlab.play.holdem_table import masked_state

    m = masked_state(st, 0)
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


def test_every_offered_agent_plays_in_the_terminal(tmp_path):
    """Issue 53 item 6: ``pokerlab play --tty --agent X`` for every agent the page's menu
    offers (``thesis`` died with a traceback; ``blueprint-200`` was not offered)."""
    from typer.testing import CliRunner

    from pokerlab.cli import app
    from pokerlab.play.agent_pool import offered_specs

    specs = offered_specs()
    assert {"thesis", "blueprint-200", "search"} <= set(specs)  # both files ship
    for spec in specs:
        r = CliRunner().invoke(app, ["play", "--tty", "--agent", spec, "--seed", "2", "--out",
                                     str(tmp_path)], input="c\n" * 8 + "q\n")
        assert r.exit_code == 0, (spec, r.output)
        assert f"pokerlab play: hunl against {spec}" in r.output, r.output
        assert "Agent: " in r.output and "Traceback" not in r.output, (spec, r.output)
        assert "session: 1 hands" in r.output, (spec, r.output)


def test_an_agent_that_cannot_start_is_one_clear_error(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    import pokerlab.play.agent_pool as pool
    from pokerlab.cli import app

    def broken(spec, **kw):
        raise AttributeError("'X' object has no attribute '_bucket'")

    monkeypatch.setattr(pool, "session_agent", broken)
    with pytest.raises(PlayError, match=r"cannot start agent 'tag': AttributeError: 'X'"):
        Session(SessionConfig(game="hunl", agent="tag", seed=1))
    r = CliRunner().invoke(app, ["play", "--tty", "--agent", "tag", "--out", str(tmp_path)],
                           input="q\n")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "error: cannot start agent 'tag': AttributeError" in r.stderr


def test_thesis_sessions_share_the_policy_and_play():
    """The thesis agent's copies keep their own tracked hand over one shared policy."""
    from pokerlab.agents.thesis import ThesisAgent

    a = Session(SessionConfig(game="hunl", agent="thesis", seed=1)).agent
    b = Session(SessionConfig(game="hunl", agent="thesis", seed=2)).agent
    assert isinstance(a, ThesisAgent) and a is not b and a.inner is not b.inner
    assert a.inner.policy is b.inner.policy and a.inner.bucketer is b.inner.bucketer
    assert a.inner._fed is not b.inner._fed
    s = Session(SessionConfig(game="hunl", agent="thesis", seed=3))
    moves = 0
    for _ in range(6):
        events = s.new_hand() + s.run_agent()
        while s.waiting == "you":
            lg = s.legal()
            events += s.act("check" if lg["check"] else "call") + s.run_agent()
        assert s.current.over and not s.current.aborted
        moves += sum(1 for e in events if getattr(e, "who", "") == "agent")
    assert moves >= 6


def test_terminal_amounts_are_whole_chips_in_plain_digits():
    """Issue 53 item 8: ``r 2,5`` is never 25 chips (nor ``r 2_5``, which ``int`` reads
    as 25)."""
    assert parse("r 25") == ("raise", 25) and parse("r 0450") == ("raise", 450)
    for text, word in (("r 2,5", "not a whole number"), ("r 2.5", "not a whole number"),
                       ("r ,5", "not a whole number"), ("r 2_5", "plain digits"),
                       ("r 1,000", "ambiguous"), ("r 1e3", "plain digits"),
                       ("r \uff12\uff15", "plain digits"), ("r +25", "plain digits")):
        with pytest.raises(PlayError, match=word):
            parse(text)
    s = Session(SessionConfig(game="hunl", seed=5), agent=CallAgent())
    inputs = iter(["r 2,5", "r 250", "q"])
    out: list[str] = []
    play_tty(s, read=lambda prompt: next(inputs), write=out.append)
    text = "\n".join(out)
    assert "error: raise amount '2,5' is not a whole number of chips" in text
    assert "You: raise to 250" in text and "raise to 25 " not in text


def test_the_agents_moves_carry_think_time_and_whether_it_searched():
    """Issue 53 item 9: every agent move's event carries its measured think time and
    whether the agent searched (its ``searches`` counter went up); the person's do not."""
    s = Session(SessionConfig(game="hunl", agent="search(ms=100,street=flop)", seed=3))
    before = s.agent.counters()["searches"]
    mine = []
    for _ in range(3):
        events = s.new_hand() + s.run_agent()
        while s.waiting == "you":
            lg = s.legal()
            events += s.act("check" if lg["check"] else "call") + s.run_agent()
        for e in events:
            j = e.to_json()
            if j["event"] != "ActionTaken":
                continue
            if j["who"] == "you":
                assert "think_ms" not in j and "searched" not in j
            else:
                mine.append(j)
    searched = [j for j in mine if j["searched"]]
    assert len(searched) == s.agent.counters()["searches"] - before >= 1
    assert any(not j["searched"] for j in mine)
    assert all(j["think_ms"] > 0 for j in mine)
    # preflop is answered from the blueprint: well under the 100 ms budget of a search
    assert min(j["think_ms"] for j in mine) < 20
    assert sum(j["think_ms"] for j in mine) / 1000 == pytest.approx(
        sum(s.agent_times[-len(mine):]), rel=0.01, abs=0.005)
    # a rule agent (no counters) never searched
    s2 = Session(SessionConfig(game="hunl", agent="call", seed=1))
    ev = [e.to_json() for e in s2.new_hand() + s2.act("call") + s2.run_agent()]
    agent = [e for e in ev if e.get("who") == "agent"]
    assert agent and not any(e["searched"] for e in agent)
