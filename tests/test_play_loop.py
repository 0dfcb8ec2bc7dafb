"""The play server's event loop stays free (issue 53 item 5): a slow agent -- its end-of-hand
call (``end_hand``, where the searching agent refits its opponent model) or its decision -- runs in
a worker thread, so ``/api/health`` and the other tables are answered while it works.

A real uvicorn server in a background thread; the agent's ``end_hand`` sleeps 0.5 s (a
sleep holds no GIL: what is measured is the loop, not the interpreter).  Before the fix the
loop ran the end of the hand itself and answered nothing for those 0.5 s.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
wsc = pytest.importorskip("websockets.sync.client")

import pokerlab.registry as registry  # noqa: E402
from pokerlab.agents.rules import CallAgent  # noqa: E402
from pokerlab.play.server import BackgroundServer, ServerConfig  # noqa: E402

OBSERVE_S = 0.5
ACT_S = 0.3
MARGIN_S = 0.25
"""A probe sent while the agent works must be answered within this (half the observe's
sleep: a blocked loop answers none of them before the sleep ends)."""


class SleepyAgent(CallAgent):
    """Calls; each end-of-hand call (``end_hand``) sleeps OBSERVE_S, each armed decision ACT_S; the
    windows of both are recorded (monotonic clock)."""

    windows: list[tuple[str, float, float]] = []
    busy = threading.Event()
    slow_act = False

    def end_hand(self, view: Any) -> None:
        t0 = time.monotonic()
        SleepyAgent.busy.set()
        time.sleep(OBSERVE_S)
        SleepyAgent.windows.append(("observe", t0, time.monotonic()))

    def act(self, view: Any) -> Any:
        if SleepyAgent.slow_act:
            t0 = time.monotonic()
            SleepyAgent.busy.set()
            time.sleep(ACT_S)
            SleepyAgent.windows.append(("act", t0, time.monotonic()))
        return super().act(view)


class Probe(threading.Thread):
    """GET /api/health every 10 ms: (sent, answered) per probe."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.times: list[tuple[float, float]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            t0 = time.monotonic()
            with urllib.request.urlopen(f"{self.url}/api/health", timeout=10) as r:
                assert json.loads(r.read()) == {"status": "ok"}
            self.times.append((t0, time.monotonic()))
            time.sleep(0.01)


@pytest.fixture
def server(tmp_path, monkeypatch) -> Iterator[str]:
    real = registry.make_agent

    def fake(spec: str, **kw: Any) -> Any:
        if spec == "sleepy":
            return SleepyAgent(name="sleepy")
        return real(spec, **kw)

    monkeypatch.setattr(registry, "make_agent", fake)
    SleepyAgent.windows = []
    SleepyAgent.slow_act = False
    cfg = ServerConfig(agent="sleepy", agents=("sleepy", "call"), out_dir=str(tmp_path),
                       seed=5)
    with BackgroundServer(cfg) as url:
        yield url


def until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m = json.loads(ws.recv(timeout=30))
        if m["type"] == kind:
            return m
        assert m["type"] != "error", m["message"]


def start(ws: Any, agent: str) -> tuple[str, dict[str, Any]]:
    ws.send(json.dumps({"type": "start", "game": "hunl", "agent": agent}))
    sid = until(ws, "session")["session"]
    return sid, until(ws, "table")["state"]


def move(ws: Any, sid: str, st: dict[str, Any], kind: str, amount: int | None = None) -> None:
    msg: dict[str, Any] = {"type": "action", "session": sid, "hand": st["hand"], "kind": kind,
                           "decision": st["decision"]}
    if amount is not None:
        msg["amount"] = amount
    ws.send(json.dumps(msg))


def check_window(probe: Probe, window: tuple[str, float, float]) -> int:
    """The probes sent while the agent worked: each answered within MARGIN_S, and some
    answered before the agent was done.  Returns how many were answered inside."""
    _, t0, t1 = window
    during = [(a, b) for a, b in probe.times if t0 <= a <= t1 - 0.05]
    assert during, "no probe was sent while the agent worked"
    worst = max(b - a for a, b in during)
    assert worst < MARGIN_S, (worst, window)
    inside = sum(1 for _, b in probe.times if t0 < b < t1)
    assert inside >= 3, (inside, window)  # a blocked loop answers none before t1
    return inside


def test_a_slow_observe_or_decision_does_not_stall_health_or_other_tables(server):
    url = server
    ws_url = url.replace("http", "ws") + "/ws"
    probe = Probe(url)
    with wsc.connect(ws_url) as a, wsc.connect(ws_url) as b:
        sid_a, st_a = start(a, "sleepy")
        sid_b, st_b = start(b, "call")
        assert st_a["to_act"] == "you" and st_b["to_act"] == "you"  # both on the button
        assert len(SleepyAgent.windows) == 0
        probe.start()
        try:
            # 1. the person's fold ends hand 1: the agent's observe runs (0.5 s) ...
            SleepyAgent.busy.clear()
            t_sent = time.monotonic()
            move(a, sid_a, st_a, "fold")
            assert SleepyAgent.busy.wait(10)
            # ... while another table's move is answered at once
            t_b = time.monotonic()
            move(b, sid_b, st_b, "call")
            st_b = until(b, "table")["state"]
            t_b_done = time.monotonic()
            assert st_b["street"] == "flop" and st_b["to_act"] == "you"
            st_a = until(a, "table")["state"]
            assert st_a["over"] and st_a["result"] == -0.5
            kind, o0, o1 = SleepyAgent.windows[-1]
            assert kind == "observe" and o1 - o0 >= OBSERVE_S and o0 >= t_sent
            assert t_b_done - t_b < MARGIN_S and t_b_done < o1  # B was served during A's work
            check_window(probe, SleepyAgent.windows[-1])

            # 2. the agent's own move ends hand 2 (it calls an all-in): observe again
            a.send(json.dumps({"type": "deal", "session": sid_a}))
            st_a = until(a, "table")["state"]
            assert st_a["hand"] == 2 and st_a["to_act"] == "you"  # it limped; you are BB
            SleepyAgent.slow_act = True  # and its decision takes 0.3 s
            move(a, sid_a, st_a, "raise", st_a["legal"]["max"])
            st_a = until(a, "table")["state"]
            assert st_a["over"] and st_a["showdown"]["showdown"]
            assert [k for k, _, _ in SleepyAgent.windows] == ["observe", "act", "observe"]
            for w in SleepyAgent.windows[1:]:
                check_window(probe, w)
            # the agent's measured think time is the 0.3 s decision, sent with its move
            called = [e for e in st_a["log"] if e["event"] == "ActionTaken"
                      and e["who"] == "agent"][-1]
            assert called["kind"] == "call" and called["searched"] is False
            assert 1000 * ACT_S <= called["think_ms"] < 1000 * (ACT_S + MARGIN_S)
        finally:
            probe.stop.set()
            probe.join(10)
