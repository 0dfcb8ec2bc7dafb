"""Any small two-player protocol game at the play table: ACPC definitions and
``universal_poker(...)`` strings through the one generic session path.

Complete hands through the session API (results equal the protocol's returns when the
hand is replayed from the logged deal and moves; seats alternate; the coach shows the LP
equilibrium), no leak of the agent's private cards over the WebSocket, clear errors for
games too large to play, and one hand played by clicking in a real browser.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from pokerlab.games import load_game
from pokerlab.play.generic import capabilities, load_play_game, shipped_games
from pokerlab.play.opponents import small_game_equilibrium
from pokerlab.play.session import YOU, PlayError, Session, SessionConfig
from tests.conftest import chromium_path

TINY_NL = """# a tiny no-limit game: 6 chips each, blinds 2/1, 6-card deck, one board card
GAMEDEF
nolimit
numPlayers = 2
numRounds = 2
stack = 6 6
blind = 2 1
firstPlayer = 2 1
numSuits = 2
numRanks = 3
numHoleCards = 1
numBoardCards = 0 1
END GAMEDEF
"""





@pytest.fixture(scope="module")
def tiny_nl(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("gamedefs") / "tiny_nl.game"
    path.write_text(TINY_NL)
    return f"gamedef:{path}"


def replay_returns(game_name: str, deal: list[int], moves: list[list[Any]]) -> list[float]:
    """Replay a logged hand on a fresh protocol state: chance outcomes and moves in order."""
    st = load_game(game_name).new_initial_state()
    d, m = list(deal), list(moves)
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(d.pop(0))
        else:
            player, action, _label = m.pop(0)
            assert st.current_player() == player
            st.apply_action(action)
    assert not d and not m
    return [float(x) for x in st.returns()]


def play_hands(s: Session, hands: int, seed: int, *, by_kind: bool = False) -> None:
    rng = random.Random(seed)
    for _ in range(hands):
        s.new_hand()
        s.run_agent()
        while s.waiting == YOU:
            lg = s.legal()
            assert lg is not None
            item = rng.choice(lg["actions"])
            if by_kind and item["kind"] in ("fold", "check", "call"):
                s.act(item["kind"])
            elif by_kind and item["kind"] in ("bet", "raise") and item["label"][-1].isdigit():
                s.act("raise", int(item["label"].split()[-1]))
            else:
                s.act("action", action=item["id"])
            s.run_agent()
        assert s.hand_over


def check_session(s: Session, folder: Path) -> None:
    total = 0.0
    for h in s.hands:
        assert h.over and not h.aborted
        assert h.human_player == (0 if h.number % 2 == 1 else 1)  # seats alternate
        ret = h.state.returns()
        assert h.result == ret[h.human_player]
        doc = json.loads((folder / f"hand_{h.number:05d}.json").read_text())
        assert doc["result"] == h.result and doc["you"] == h.human_player
        assert replay_returns(s.game, doc["deal"], doc["moves"]) == [float(x) for x in ret]
        total += h.result
    sm = s.summary()
    assert sm["hands"] == len(s.hands) and sm["unit"] == "chips"
    assert sm["total"] == pytest.approx(total)


def test_leduc5_hands_through_the_session(tmp_path):
    s = Session(SessionConfig(game="gamedef:leduc5", seed=5), folder=tmp_path)
    assert s.agent_name == "equilibrium"
    play_hands(s, 30, seed=1)
    check_session(s, tmp_path)
    # limit game without stacks: no stacks shown, pot = chips put in
    snap = s.snapshot(s.hands[0])
    assert snap["you"]["stack"] is None and snap["opponent"]["stack"] is None
    first = s.hands[0].frames[0]
    assert first["pot"] == 2 and first["you"]["bet"] == 1
    assert first["info_state"].startswith("[Round 0]")
    assert f"[Private: {first['you']['cards'][0]}]" in first["info_state"]
    # the coach: the LP equilibrium at the person's information sets
    pol = small_game_equilibrium("gamedef:leduc5")
    h = next(h for h in s.hands if h.decisions)
    rep = s.coach_report(h.number)
    for d, note in zip(h.decisions, rep["decisions"], strict=True):
        probs = pol.action_probabilities(d.view)
        freqs = dict(note["frequencies"])
        assert sum(freqs.values()) == pytest.approx(1.0, abs=1e-3)
        for a, p in probs.items():
            assert freqs[d.view.action_to_string(a)] == pytest.approx(p, abs=1e-4)


def test_no_limit_definition_money_and_kinds(tiny_nl, tmp_path):
    s = Session(SessionConfig(game=tiny_nl, seed=9), folder=tmp_path)
    play_hands(s, 24, seed=2, by_kind=True)
    check_session(s, tmp_path)
    for h in s.hands:
        snap = s.snapshot(h)
        # chips are conserved: 6 each, the person's final stack is 6 + the result
        assert snap["you"]["stack"] == 6 + h.chips
        assert snap["you"]["stack"] + snap["opponent"]["stack"] == 12
        for f in h.frames:
            assert f["you"]["stack"] + f["opponent"]["stack"] + (f["pot"] or 0) == 12
    acts = [e for h in s.hands for e in h.events if e.is_move]
    kinds = {e.kind for e in acts}
    assert {"fold", "call", "raise"} <= kinds
    for e in acts:  # raises carry the raise-to total, as the game's label says
        if e.kind in ("bet", "raise"):
            assert e.label == f"Raise to {e.amount}"
    # a move that names no legal action changes nothing
    s.new_hand()
    s.run_agent()
    if s.waiting == YOU:
        n = len(s.current.state.actions[0])
        with pytest.raises(PlayError, match="not legal"):
            s.act("action", action=99)
        with pytest.raises(PlayError, match="raise 99"):
            s.act("raise", 99)
        assert len(s.current.state.actions[0]) == n


def test_universal_poker_string_and_capabilities():
    game = ("universal_poker(betting=limit,numPlayers=2,numRounds=1,blind=1 1,raiseSize=1,"
            "firstPlayer=1,maxRaises=1,numSuits=1,numRanks=3,numHoleCards=1,numBoardCards=0)")
    s = Session(SessionConfig(game=game, agent="random", seed=3))
    assert s.agent_name == "random"
    play_hands(s, 12, seed=4)
    for h in s.hands:
        assert h.result == h.state.returns()[h.human_player]
    caps = capabilities(load_play_game("gamedef:leduc5"))
    assert caps.card is not None and caps.card(0) == "2c" and caps.money and caps.showdown_flag


def test_games_too_large_or_unknown_are_clear_errors():
    with pytest.raises(PlayError, match="20001 distinct actions"):
        SessionConfig(game="gamedef:holdem.nolimit.2p.reverse_blinds")
    big = ("universal_poker(betting=limit,numPlayers=2,numRounds=3,blind=1 2,raiseSize=2 4 4,"
           "firstPlayer=2 1 1,maxRaises=3 4 4,numSuits=4,numRanks=13,numHoleCards=2,"
           "numBoardCards=0 3 1)")
    with pytest.raises(PlayError, match="histories"):
        SessionConfig(game=big)
    with pytest.raises(PlayError, match="nope"):
        SessionConfig(game="gamedef:nope")
    assert "gamedef:leduc5" in shipped_games() and "gamedef:nolimit_short" in shipped_games()
    assert not any("holdem" in g for g in shipped_games())


# ------------------------------------------------------------------ over the WebSocket
def test_no_leak_over_the_websocket(tmp_path):
    """Every message of 150 random leduc5 hands holds only what the person may see."""
    pytest.importorskip("fastapi")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from pokerlab.play.server import ServerConfig, create_app

    cfg = ServerConfig(out_dir=str(tmp_path), seed=3, rate_per_second=1e6, rate_burst=10**6,
                       agent_timeout=120.0)
    rng = random.Random(0)
    log: list[dict[str, Any]] = []
    app = create_app(cfg)
    with TestClient(app) as c, c.websocket_connect("/ws") as ws:
        def until(kind: str) -> dict[str, Any]:
            while True:
                m = json.loads(ws.receive_text())
                log.append(m)
                assert m["type"] != "error", m
                if m["type"] == kind:
                    return m

        assert "gamedef:leduc5" in c.get("/api/config").json()["games"]
        ws.send_text(json.dumps({"type": "start", "game": "gamedef:leduc5"}))
        sid = until("session")["session"]
        st = until("table")["state"]
        ws.send_text(json.dumps({"type": "coach", "session": sid, "on": True}))
        until("coach_state")
        while True:
            if st["over"]:
                if st["hand"] % 50 == 0:
                    ws.send_text(json.dumps({"type": "replay", "session": sid,
                                             "hand": st["hand"]}))
                    until("replay")
                if st["hand"] >= 150:
                    break
                ws.send_text(json.dumps({"type": "deal", "session": sid}))
            else:
                a = rng.choice(st["legal"]["actions"])
                ws.send_text(json.dumps({"type": "action", "session": sid, "hand": st["hand"],
                                         "kind": "action", "action": a["id"]}))
            st = until("table")["state"]
        # a page cannot make the server read a file
        ws.send_text(json.dumps({"type": "start", "game": "gamedef:/etc/passwd"}))
        err = json.loads(ws.receive_text())
        assert err["type"] == "error" and "unknown game" in err["message"]
    session = app.state.play.manager.sessions[sid].session
    assert session.summary()["hands"] == 150
    tables = revealed = 0
    for msg in log:
        if msg["type"] not in ("table", "replay"):
            continue
        states = [msg["state"]] if msg["type"] == "table" else msg["frames"]
        for state in states:
            h = session.hands[state["hand"] - 1]
            you, ag = h.human_player, 1 - h.human_player
            mine = set(session._g_cards(h, you))
            theirs = session._g_cards(h, ag)
            text = json.dumps(state)
            cards = {x for x in re.findall(r'"([2-9TJQKA][cdhs])"', text)}
            allowed = mine | set(state["board"])
            if state["opponent"]["cards"] is not None:
                assert state["over"] and h.revealed
                assert state["opponent"]["cards"] == theirs
                allowed |= set(theirs)
                revealed += 1
            else:
                assert f"Private: {theirs[0]}" not in text
                assert state["opponent"]["info_state"] is None
            assert cards <= allowed, (h.number, cards - allowed)
            assert state["board"] == [session.caps.card(c) for c in h.state.board][
                :len(state["board"])]
            tables += 1
    assert tables > 300 and revealed > 20
    assert not any("deck" in json.dumps(m) for m in log)


# ------------------------------------------------------------------ in a real browser
def test_browser_hand_of_a_gamedef_game(tiny_nl, tmp_path):
    pytest.importorskip("uvicorn")
    sync_api = pytest.importorskip("playwright.sync_api")

    from pokerlab.play.server import BackgroundServer, ServerConfig

    cfg = ServerConfig(game=tiny_nl, out_dir=str(tmp_path), seed=4, agent="call",
                       agents=("call",))
    bg = BackgroundServer(cfg)
    with bg as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(60_000)
        page.goto(f"{url}/?pace=0")
        page.wait_for_function("window.pokerlab && window.pokerlab.tables > 0")
        options = page.eval_on_selector_all("#game-select option", "os => os.map(o => o.value)")
        assert tiny_nl in options and "gamedef:leduc5" in options and "hunl" in options
        play = bg.app.state.play
        s = play.manager.sessions[page.evaluate("window.pokerlab.session")].session
        assert s.game == tiny_nl and s.agent_name == "equilibrium"
        for _ in range(12):  # click the first button offered (fold or check/call) each time
            h = s.current
            if h.over:
                break
            snap = s.snapshot()
            labels = page.eval_on_selector_all("#generic-actions button",
                                               "bs => bs.map(b => b.dataset.action)")
            assert labels == [str(a["id"]) for a in snap["legal"]["actions"]]
            assert page.text_content("#you-stack") == str(snap["you"]["stack"])
            assert page.text_content("#pot") == str(snap["pot"])
            # cards, pot and stacks drawn; no raw state strings on a card game's table
            assert page.is_hidden("#state-lines")
            assert "Money:" not in page.inner_text("body")
            assert [b["text"] for b in snap["legal"]["actions"]] == page.eval_on_selector_all(
                "#generic-actions button", "bs => bs.map(b => b.firstChild.textContent)")
            assert page.eval_on_selector_all("#opp-cards .card.back", "cs => cs.length") == 1
            n = page.evaluate("window.pokerlab.tables")
            page.click("#generic-actions button >> nth=0")
            page.wait_for_function("n => window.pokerlab.tables > n", arg=n)
        h = s.current
        assert h.over and h.result == h.state.returns()[h.human_player]
        snap = s.snapshot()
        assert page.text_content("#you-stack") == str(6 + h.chips)
        result = page.text_content("#hand-result")
        assert (f"{abs(h.chips)} chips" in result) if h.chips else result == "Split pot"
        assert page.text_content("#hands-played") == "1"
        if h.revealed:
            shown = page.eval_on_selector_all("#opp-cards .card", "cs => cs.map(c => c.dataset.card)")
            assert shown == snap["opponent"]["cards"]
        log = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)")
        assert log[0].startswith("Hand 1") and log[-1].startswith("Result")
        browser.close()


def test_terminal_play_of_a_generic_game():
    from pokerlab.play.tty import play_tty

    game = ("universal_poker(betting=limit,numPlayers=2,numRounds=1,blind=1 1,raiseSize=1,"
            "firstPlayer=1,maxRaises=1,numSuits=1,numRanks=3,numHoleCards=1,numBoardCards=0)")
    s = Session(SessionConfig(game=game, seed=2))
    lines: list[str] = []
    answers = iter(["9", "x", "1", "1", "1", "1"])
    play_tty(s, read=lambda prompt: (lines.append(prompt), next(answers))[1],
             write=lines.append, max_hands=2)
    text = "\n".join(lines)
    assert "no action 9; choose 1..2" in text and "error: unknown action 'x'" in text
    assert "public: 2||" in text and "1 Check, 2 Bet" in text  # the verbs, not the labels
    assert s.summary()["hands"] == 2
    assert [h.human_player for h in s.hands] == [0, 1]
    assert all(h.result == h.state.returns()[h.human_player] for h in s.hands)
