"""The play server's limits and protocol of issue 28: decision ids, sessions shared by
tabs, the per-client cap, the grace-period release, policies shared across sessions, the
offered agents, the coach's unreachable nodes, and the abusive open-start-close load."""

from __future__ import annotations

import asyncio
import json
import time
import tracemalloc
import warnings
from typing import Any

import pytest

pytest.importorskip("fastapi")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

import pokerlab.registry as registry  # noqa: E402
from pokerlab.play.agent_pool import LEAGUE_FILE, offered_specs, session_agent, strengths  # noqa: E402
from pokerlab.play.server import PlayServer, ServerConfig, create_app  # noqa: E402
from pokerlab.play.session import PlayError, Session, SessionConfig, StaleDecision  # noqa: E402
from tests.test_play_server import Client  # noqa: E402


def app_client(tmp_path, **kw: Any) -> TestClient:
    return TestClient(create_app(ServerConfig(out_dir=str(tmp_path), **kw)))


def test_session_refuses_a_stale_decision():
    s = Session(SessionConfig(game="hunl", agent="call", seed=5))
    s.new_hand()
    s.run_agent()
    d = s.snapshot()["decision"]
    assert d == 100_000 and s.decision_id() == d
    s.act("call", decision=d)
    s.run_agent()  # the call agent checks: the flop, the agent checks, the person acts
    snap = s.snapshot()
    assert snap["decision"] == 100_003
    with pytest.raises(StaleDecision, match="not the current decision"):
        s.act("check", decision=d)  # the double click's second message
    assert s.snapshot() == snap
    s.act("check", decision=snap["decision"])
    assert len(s.current.decisions) == 2


def test_server_refuses_stale_decisions_and_shares_a_session_between_tabs(tmp_path):
    with app_client(tmp_path, agent="call", agents=("call",), seed=3) as c:
        with c.websocket_connect("/ws") as wa, c.websocket_connect("/ws") as wb:
            a, b = Client(wa), Client(wb)
            sid, table = a.start(game="hunl")
            st = table["state"]
            assert st["decision"] == 100_000 and st["small_blind"] == 50
            assert st["carry"] is False and st["showdown"] is None
            a.send({"type": "coach", "session": sid, "on": True})
            assert a.until("coach_state")["on"] is True
            b.send({"type": "resume", "session": sid})
            info = b.until("session")
            assert info["coach_on"] is True and info["history"] == [] and info["tabs"] == 2
            b.until("table")
            move = {"type": "action", "session": sid, "hand": 1, "kind": "call",
                    "decision": st["decision"]}
            a.send(move)
            t1 = a.until("table")
            assert b.until("table")["state"] == t1["state"]  # the second tab follows
            assert t1["steps"]  # the steps the page paces (your call, the agent's check ...)
            entry = c.app.state.play.manager.sessions[sid]
            snap = entry.session.snapshot()
            a.send({**move, "kind": "check"})  # the same decision again
            assert a.recv()["type"] == "table"  # the page resynchronises from this
            err = a.until("error")
            assert err["code"] == "stale" and "not applied" in err["message"]
            assert entry.session.snapshot() == snap
            a.send({**move, "hand": 7})
            assert a.until("table") and a.until("error")["code"] == "stale"
            # the history comes back on a resume (a reload)
            a.send({"type": "action", "session": sid, "hand": 1, "kind": "allin",
                    "decision": snap["decision"]})
            over = a.until("table")["state"]
            assert over["over"] and over["showdown"]["showdown"]
            b.send({"type": "resume", "session": sid})
            hist = b.until("session")["history"]
            assert [h["hand"] for h in hist] == [1] and hist[0]["log"][0]["event"] == "HandStarted"


def test_per_client_cap_releases_closed_pages_first(tmp_path):
    with app_client(tmp_path, agent="call", agents=("call",), max_sessions_per_client=2) as c:
        m = c.app.state.play.manager
        with c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2:
            c1, c2 = Client(w1), Client(w2)
            sid1, _ = c1.start(game="kuhn")
            c2.start(game="kuhn")
            with c.websocket_connect("/ws") as w3:
                c3 = Client(w3)
                c3.send({"type": "start", "game": "kuhn"})
                err = c3.until("error")
                assert err["code"] == "full" and "limit per visitor is 2" in err["message"]
                w1.close()
                for _ in range(100):  # the close reaches the server
                    if not m.sessions[sid1].conns:
                        break
                    time.sleep(0.02)
                c3.start(game="kuhn")  # room: the closed page's session goes first
                assert sid1 not in m.sessions and m.released == 1 and len(m.sessions) == 2


def test_grace_period_releases_sessions_without_a_connection(tmp_path):
    with app_client(tmp_path, agent="call", agents=("call",), grace_seconds=30.0) as c:
        m = c.app.state.play.manager
        with c.websocket_connect("/ws") as w:
            sid, _ = Client(w).start(game="kuhn")
        for _ in range(100):
            if m.sessions[sid].detached_since is not None:
                break
            time.sleep(0.02)
        assert m.expire() == 0  # within the grace period a reload resumes it
        m.sessions[sid].detached_since -= 31.0
        assert m.expire() == 1 and m.released == 1 and not m.sessions
    with pytest.raises(PlayError, match="grace_seconds"):
        ServerConfig(grace_seconds=0)


def test_offered_agents_follow_the_registry(monkeypatch):
    base = offered_specs()
    assert "policy:PATH" not in base and {"tag", "call", "random", "raise"} <= set(base)
    monkeypatch.setattr(registry, "HUNL_SPECS", registry.HUNL_SPECS + ("search",))
    assert offered_specs() == base + ("search",)  # a new spec appears, nothing to change here
    assert ServerConfig(agent="tag").allowed_agents()[-1] == "search"
    s = strengths(["tag", "search"])
    tag = json.loads(LEAGUE_FILE.read_text())["agents"]["tag"]  # benchmarks/play_league.py
    assert f"average {tag['average']:+,} mbb/hand" in s["tag"] and "search" not in s
    assert f"LBR-fc {tag['lbr'][0]:+,}" in s["tag"] and f"rank {tag['rank']} of" in s["tag"]


def test_needs_solve_line_for_an_unsolved_game():
    server = PlayServer(ServerConfig(game="hunl"))
    assert server._needs_solve({"game": "hunl"}) == ""
    line = server._needs_solve({"game": "universal_poker(betting=limit,numRanks=3,numSuits=2)"})
    assert "solving the exact equilibrium" in line
    server.pool.shutdown()


def test_coach_marks_nodes_the_equilibrium_never_reaches():
    s = Session(SessionConfig(game="gamedef:leduc5", seed=1))
    marked = graded = 0
    for _ in range(30):
        s.new_hand()
        s.run_agent()
        while not s.hand_over:  # always the last action (the biggest raise)
            s.act("action", action=s.legal()["actions"][-1]["id"])
            s.run_agent()
        reach = 1.0
        for d, note in zip(s.current.decisions, s.coach_report()["decisions"], strict=True):
            graded += 1
            assert note["reached"] is (reach > 1e-12)
            if not note["reached"]:
                marked += 1
                assert "never reaches" in note["note"]
            reach *= dict(s.agent.probabilities(d.view, d.human_player)).get(d.action_id, 0.0)
    assert graded > 30 and marked > 0


def test_policy_agents_share_one_policy_and_an_extra_session_is_small():
    from pokerlab.registry import BLUEPRINT_FILES, shipped_policy

    if shipped_policy(BLUEPRINT_FILES) is None:
        pytest.skip("no shipped blueprint")
    first = Session(SessionConfig(game="hunl", agent="blueprint", seed=1))
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    more = [Session(SessionConfig(game="hunl", agent="blueprint", seed=2 + i)) for i in range(4)]
    per = (tracemalloc.get_traced_memory()[0] - base) / len(more)
    tracemalloc.stop()
    a, b = first.agent, more[0].agent
    assert a is not b and a.policy is b.policy and a.tree is b.tree
    arrays = [v for v in vars(a.policy).values() if hasattr(v, "flags")]
    assert arrays and not any(v.flags.writeable for v in arrays)
    assert a.rng is not b.rng
    assert per < 1_000_000, per  # bytes per extra blueprint session
    # separate streams: the same deal and seed give the same moves, another seed may differ
    c = session_agent("blueprint", config=first.base_config, seed=9)
    assert c.policy is a.policy


async def _abusive(ws_url: str, n: int) -> int:
    import websockets

    started = 0
    for _ in range(n):  # open, start, close: the pattern that filled the server
        async with websockets.connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "start", "game": "hunl"}))
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "table":
                    started += 1
                    break
                if m["type"] == "error":
                    raise AssertionError(m["message"])
    return started


async def _visitor(ws_url: str, local: str) -> dict[str, Any]:
    import websockets

    async with websockets.connect(ws_url, local_addr=(local, 0)) as ws:
        await ws.send(json.dumps({"type": "start", "game": "hunl"}))
        while True:
            m = json.loads(await ws.recv())
            if m["type"] in ("table", "error"):
                return m


@pytest.mark.parametrize("cycles", [60, pytest.param(200, marks=pytest.mark.slow)])
def test_open_start_close_loop_leaves_room(tmp_path, cycles):
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    from pokerlab.play.server import BackgroundServer

    cfg = ServerConfig(agent="call", agents=("call",), out_dir=str(tmp_path), max_sessions=20,
                       max_sessions_per_client=4, grace_seconds=2.0, seed=1)
    bg = BackgroundServer(cfg)
    with bg as url:
        ws_url = url.replace("http://", "ws://") + "/ws"
        m = bg.app.state.play.manager
        assert asyncio.run(_abusive(ws_url, cycles)) == cycles
        mine = [e for e in m.sessions.values() if e.owner == "127.0.0.1"]
        assert len(mine) <= cfg.max_sessions_per_client
        assert m.released >= cycles - cfg.max_sessions_per_client
        # a new visitor (another address) and the same address both get a table
        assert asyncio.run(_visitor(ws_url, "127.0.0.2"))["type"] == "table"
        assert asyncio.run(_visitor(ws_url, "127.0.0.1"))["type"] == "table"
        # and the closed pages' sessions go after the grace period (sweeper)
        for _ in range(400):
            if not m.sessions:
                break
            time.sleep(0.05)
        assert not m.sessions


def test_a_small_game_table_plays_the_configured_agent(tmp_path):
    # `pokerlab play --game leduc --agent adapt`: the leduc table plays adapt (which learns
    # from the hands of the session), other small games offered by the page the equilibrium
    with app_client(tmp_path, game="leduc", small_agent="adapt", seed=2) as c:
        with c.websocket_connect("/ws") as ws:
            cl = Client(ws)
            sid, _ = cl.start(game="leduc")
            s = c.app.state.play.manager.sessions[sid].session
            assert s.agent_name == "adapt"
            sid2, _ = cl.start(game="kuhn")
            assert c.app.state.play.manager.sessions[sid2].session.agent_name == "kuhn-equilibrium"


def test_play_command_checks_a_small_game_agent(tmp_path):
    from typer.testing import CliRunner

    from pokerlab.cli import app

    res = CliRunner().invoke(app, ["play", "--game", "leduc", "--agent", "bogus", "--out",
                                   str(tmp_path), "--no-open"])
    assert res.exit_code == 2 and "bogus" in res.stderr
