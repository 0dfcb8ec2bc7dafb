"""The play server: no leaks, validation, isolation, limits, crashing and slow agents."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest

pytest.importorskip("fastapi")  # the [web] extra; installed by `make test`

import warnings  # noqa: E402

with warnings.catch_warnings():  # starlette's notice about httpx, not ours
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

import pokerlab.registry as agents_base  # noqa: E402
from pokerlab.agents.rules import CallAgent  # noqa: E402
from pokerlab.cards.cards import card_str  # noqa: E402
from pokerlab.holdem import phh  # noqa: E402
from pokerlab.play.server import ServerConfig, create_app, validate  # noqa: E402
from pokerlab.play.session import PlayError  # noqa: E402

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


class Client:
    """A WebSocket client that records every message it receives."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []

    def send(self, obj: Any) -> None:
        self.ws.send_text(obj if isinstance(obj, str) else json.dumps(obj))

    def recv(self) -> dict[str, Any]:
        m = json.loads(self.ws.receive_text())
        self.log.append(m)
        return m

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            m = self.recv()
            if m["type"] == kind:
                return m
            if m["type"] == "error" and kind != "error":
                raise AssertionError(m["message"])

    def start(self, **kw: Any) -> tuple[str, dict[str, Any]]:
        self.send({"type": "start", **kw})
        sid = self.until("session")["session"]
        return sid, self.until("table")


def app_client(tmp_path, **kw: Any) -> TestClient:
    cfg = ServerConfig(out_dir=str(tmp_path), **kw)
    return TestClient(create_app(cfg))


def strings(obj: Any) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in strings(v)]
    return []


def test_health(tmp_path):
    with app_client(tmp_path) as c:
        assert c.get("/api/health").json() == {"status": "ok"}
        assert "pokerlab play" in c.get("/").text
        assert c.get("/static/app.js").status_code == 200
        assert c.get("/api/session/nope/hands.phhs").status_code == 404


def check_leaks(log: list[dict[str, Any]], session: Any) -> int:
    """Check every recorded message against the hand it belongs to; returns tables seen."""
    tables = 0
    for msg in log:
        if msg["type"] == "table":
            st = msg["state"]
            h = session.hands[st["hand"] - 1]
        elif msg["type"] == "replay":
            st = msg["frames"][-1]
            h = session.hands[msg["hand"] - 1]
        else:
            assert not any(CARD.match(x) for x in strings(msg)), msg
            continue
        you = h.human_player
        allowed = {card_str(x) for x in h.cards[2 * you:2 * you + 2]}
        allowed |= set(st["board"])
        # the agent's cards only once shown in this very message's state
        shown = st["opponent"]["cards"]
        if shown:
            assert shown == [card_str(x) for x in h.cards[2 * (1 - you):2 * (1 - you) + 2]]
            assert h.revealed
            allowed |= set(shown)
        seen = {x for x in strings(msg) if CARD.match(x)}
        assert seen <= allowed, (h.number, seen - allowed)
        # the board is a prefix of the dealt board (never the rest of the deck)
        assert st["board"] == [card_str(x) for x in h.cards[4:4 + len(st["board"])]]
        tables += msg["type"] == "table"
    return tables


async def leak_client(url: str, hands: int, seed: int) -> tuple[str, list[dict[str, Any]]]:
    import websockets

    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    async with websockets.connect(url.replace("http", "ws") + "/ws", max_size=2**22) as ws:

        async def until(kind: str) -> dict[str, Any]:
            while True:
                m = json.loads(await ws.recv())
                log.append(m)
                if m["type"] == kind:
                    return m
                assert m["type"] != "error", m

        await ws.send(json.dumps({"type": "start", "game": "hunl", "agent": "random"}))
        sid = (await until("session"))["session"]
        st = (await until("table"))["state"]
        while True:
            if st["over"]:
                if st["hand"] % 97 == 0:  # replays carry only what was seen
                    await ws.send(json.dumps({"type": "replay", "session": sid,
                                              "hand": st["hand"]}))
                    await until("replay")
                if st["hand"] >= hands:
                    return sid, log
                await ws.send(json.dumps({"type": "deal", "session": sid}))
            else:
                lg = st["legal"]
                opts: list[dict[str, Any]] = []
                if lg["fold"]:
                    opts.append({"kind": "fold"})
                opts.append({"kind": "check" if lg["check"] else "call"})
                if lg["raise"]:
                    opts.append({"kind": "raise", "amount": rng.randint(lg["min"], lg["max"])})
                    opts.append({"kind": "allin"})
                await ws.send(json.dumps({"type": "action", "session": sid, "hand": st["hand"],
                                          **rng.choice(opts)}))
            st = (await until("table"))["state"]


def test_no_hidden_card_or_deck_leak_in_1000_hands(tmp_path):
    """Every message of 1,000 random hands holds only cards the person may see."""
    import asyncio

    from pokerlab.play.server import BackgroundServer

    cfg = ServerConfig(agent="random", agents=("random",), seed=1, out_dir=str(tmp_path),
                       rate_per_second=1e6, rate_burst=10**6, agent_timeout=60.0)
    bg = BackgroundServer(cfg)
    with bg as url:
        sid, log = asyncio.run(asyncio.wait_for(leak_client(url, 1000, 0), timeout=600))
        session = bg.app.state.play.manager.sessions[sid].session
        assert session.summary()["hands"] == 1000
        assert check_leaks(log, session) >= 2000
        assert sum(m["type"] == "replay" for m in log) == 10
        assert not any("deck" in json.dumps(m) for m in log)
        assert sum(bool(h.revealed) for h in session.hands) > 100  # showdowns were checked
        # the download holds the mucked hands masked
        import urllib.request

        with urllib.request.urlopen(f"{url}/api/session/{sid}/hands.phhs") as r:
            text = r.read().decode()
    states = phh.loads_all(text)
    assert len(states) == 1000
    for st, h in zip(states, session.hands, strict=True):
        assert (st.hole[1 - h.human_player] == [-1, -1]) == (not h.revealed)
    assert len(list(tmp_path.glob("*/hand_*.phh"))) == 1000


def test_validation_errors_change_nothing(tmp_path):
    with app_client(tmp_path, agent="call", agents=("call",), seed=2,
                    max_message_bytes=512) as c:
        with c.websocket_connect("/ws") as ws:
            cl = Client(ws)
            # before a session: only start/resume/ping
            cl.send({"type": "deal", "session": "x"})
            assert "no session" in cl.until("error")["message"]
            sid, table = cl.start(game="hunl", agent="call")
            st = table["state"]
            assert st["to_act"] == "you"
            lg = st["legal"]
            bad = [
                ("{not json", "not valid JSON"),
                ("[1, 2]", "JSON object"),
                ({"type": "teleport"}, "unknown message type"),
                ({"type": "action", "session": sid, "hand": 1, "kind": "call", "x": 1},
                 "unexpected field"),
                ({"type": "action", "session": sid, "hand": "1", "kind": "call"}, "wrong type"),
                ({"type": "action", "session": sid, "hand": 1, "kind": "call", "amount": True},
                 "wrong type"),
                ({"type": "action", "session": sid, "kind": "call"}, "needs the field 'hand'"),
                ({"type": "action", "session": sid, "hand": 2, "kind": "call"}, "not the hand"),
                ({"type": "action", "session": sid, "hand": 1, "kind": "raise",
                  "amount": lg["max"] + 1}, "outside the legal range"),
                ({"type": "action", "session": sid, "hand": 1, "kind": "raise",
                  "amount": lg["min"] - 1}, "outside the legal range"),
                ({"type": "action", "session": sid, "hand": 1, "kind": "shove"}, "unknown action"),
                ({"type": "action", "session": sid + "x", "hand": 1, "kind": "call"},
                 "wrong session"),
                ({"type": "deal", "session": sid}, "not over"),
                ({"type": "replay", "session": sid, "hand": 5}, "no hand 5"),
                ("x" * 600, "too large"),
                ({"type": "start", "game": "chess"}, "unknown game"),
                ({"type": "start", "game": "hunl", "agent": "policy:/etc/passwd"}, "not offered"),
                ({"type": "start", "game": "hunl", "stack": 1e9}, "outside"),
            ]
            if not lg["fold"]:
                bad.append(({"type": "action", "session": sid, "hand": 1, "kind": "fold"},
                            "cannot fold"))
            else:
                bad.append(({"type": "action", "session": sid, "hand": 1, "kind": "check"},
                            "cannot check"))
            session = c.app.state.play.manager.sessions[sid].session
            before = session.snapshot()
            for msg, text in bad:
                cl.send(msg)
                err = cl.until("error")
                assert text in err["message"], (msg, err)
                assert session.snapshot() == before
            assert len(c.app.state.play.manager.sessions) == 1
            # a legal move still works afterwards
            cl.send({"type": "action", "session": sid, "hand": 1,
                     "kind": "check" if lg["check"] else "call"})
            assert cl.until("table")["state"]["log"][1]["who"] == "you"


def test_validate_schema_unit():
    assert validate('{"type": "ping"}', 100) == {"type": "ping"}
    for raw in ['{"type": "ping", "a": 1}', '{"type": 3}', '"ping"', "[" * 5000]:
        with pytest.raises(PlayError):
            validate(raw, 100_000)


def test_sessions_are_isolated(tmp_path):
    with app_client(tmp_path, agent="call", agents=("call",), seed=3) as c:
        with c.websocket_connect("/ws") as wa, c.websocket_connect("/ws") as wb:
            a, b = Client(wa), Client(wb)
            sid_a, ta = a.start(game="hunl")
            sid_b, tb = b.start(game="hunl")
            assert sid_a != sid_b and len(sid_a) >= 32
            server = c.app.state.play
            snap_a = server.manager.sessions[sid_a].session.snapshot()
            for msg in ({"type": "action", "session": sid_a, "hand": 1, "kind": "call"},
                        {"type": "deal", "session": sid_a},
                        {"type": "replay", "session": sid_a, "hand": 1},
                        {"type": "coach", "session": sid_a, "on": True}):
                b.send(msg)
                assert "wrong session" in b.until("error")["message"]
            assert server.manager.sessions[sid_a].session.snapshot() == snap_a
            assert not server.manager.sessions[sid_a].session.coach_on
            # B's messages never carried A's cards
            a_cards = set(ta["state"]["you"]["cards"])
            assert not any(a_cards & set(strings(m)) for m in b.log if m["type"] != "table"
                           or m["session"] != sid_a)
            assert all(m.get("session", sid_b) == sid_b for m in b.log)
            # guessing an id fails
            b.send({"type": "resume", "session": "A" * 32})
            assert "unknown or expired" in b.until("error")["message"]
            # a second start on a connection replaces its session (no hoarding)
            sid_b2, _ = b.start(game="kuhn")
            assert sid_b not in server.manager.sessions and sid_b2 in server.manager.sessions
            assert len(server.manager.sessions) == 2


def test_session_cap_expiry_and_rate_limit(tmp_path):
    with app_client(tmp_path, agent="call", agents=("call",), max_sessions=2,
                    idle_seconds=3600, rate_per_second=0.5, rate_burst=5) as c:
        server = c.app.state.play
        with c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2, \
                c.websocket_connect("/ws") as w3:
            c1, c2, c3 = Client(w1), Client(w2), Client(w3)
            sid1, _ = c1.start(game="kuhn")
            c2.start(game="leduc")
            c3.send({"type": "start", "game": "kuhn"})
            assert "server is full" in c3.until("error")["message"]
            # expiry: make session 1 look idle
            server.manager.sessions[sid1].last_seen -= 10_000
            assert server.manager.expire() == 1
            c1.send({"type": "deal", "session": sid1})
            assert "unknown or expired" in c1.until("error")["message"]
            c3.start(game="kuhn")  # room again
            # rate limit: a burst of 5, then errors
            for _ in range(12):
                c2.send({"type": "ping"})
            got = [c2.recv()["type"] for _ in range(12)]
            assert got.count("pong") <= 6 and got.count("error") >= 6


class SlowAgent(CallAgent):
    armed = False
    mode = "slow"

    def act(self, view):
        if SlowAgent.armed:
            if SlowAgent.mode == "slow":
                time.sleep(4.0)
            else:
                raise RuntimeError("agent exploded")
        return super().act(view)


@pytest.mark.parametrize("mode", ["slow", "crash"])
def test_slow_or_crashing_agent_ends_hand_cleanly(tmp_path, monkeypatch, mode):
    real = agents_base.make_agent

    def fake(spec, **kw):
        if spec == "flaky":
            return SlowAgent(name="flaky")
        return real(spec, **kw)

    monkeypatch.setattr(agents_base, "make_agent", fake)
    SlowAgent.mode = mode
    SlowAgent.armed = False
    try:
        with app_client(tmp_path, agent="flaky", agents=("flaky",), agent_timeout=1.0,
                        seed=4) as c:
            with c.websocket_connect("/ws") as ws:
                cl = Client(ws)
                sid, table = cl.start(game="hunl")
                SlowAgent.armed = True
                st = table["state"]
                # play until the agent must act; then the hand is cancelled with an error
                for _ in range(10):
                    if st["over"]:
                        break
                    lg = st["legal"]
                    cl.send({"type": "action", "session": sid, "hand": st["hand"],
                             "kind": "check" if lg["check"] else "call"})
                    st = cl.until("table")["state"]
                assert st["over"] and st["aborted"]
                word = "longer than" if mode == "slow" else "exploded"
                assert word in st["error"]
                SlowAgent.armed = False
                cl.send({"type": "deal", "session": sid})
                st = cl.until("table")["state"]
                assert st["hand"] == 2 and not st["over"]
                cl.send({"type": "ping"})
                assert cl.until("pong")["type"] == "pong"
    finally:
        SlowAgent.armed = False
