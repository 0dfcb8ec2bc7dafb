"""A scripted WebSocket client population for the load test and the benchmark.

:func:`run_clients` connects ``n`` clients to a running play server, each plays
``hands`` hands with seeded random legal moves, and returns what they saw.  Everything
is bounded: each client stops after its hands, and the whole run after ``timeout`` s.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ClientResult:
    session: str = ""
    hands_finished: int = 0
    aborted: int = 0
    errors: list[str] = field(default_factory=list)
    messages: int = 0
    latencies: list[float] = field(default_factory=list)


def choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    opts: list[dict[str, Any]] = []
    if legal["fold"]:
        opts.append({"kind": "fold"})
    if legal["check"]:
        opts += [{"kind": "check"}] * 3
    elif legal["call"] >= 0:
        opts += [{"kind": "call"}] * 3
    if legal["raise"]:
        opts.append({"kind": "raise", "amount": rng.randint(legal["min"], legal["max"])})
    return rng.choice(opts)


async def one_client(url: str, *, game: str, agent: str, hands: int, seed: int) -> ClientResult:
    import websockets

    rng = random.Random(seed)
    res = ClientResult()
    ws_url = url.replace("http://", "ws://") + "/ws"
    async with websockets.connect(ws_url, max_size=2**22) as ws:

        async def request(msg: dict[str, Any], want: str) -> dict[str, Any]:
            t0 = time.perf_counter()
            await ws.send(json.dumps(msg))
            while True:
                m = json.loads(await ws.recv())
                res.messages += 1
                if m["type"] == want:
                    res.latencies.append(time.perf_counter() - t0)
                    return m
                if m["type"] == "error":
                    res.errors.append(m["message"])
                    raise RuntimeError(m["message"])

        await ws.send(json.dumps({"type": "start", "game": game, "agent": agent}))
        while True:
            m = json.loads(await ws.recv())
            res.messages += 1
            if m["type"] == "session":
                res.session = m["session"]
            elif m["type"] == "table":
                break
            elif m["type"] == "error":
                res.errors.append(m["message"])
                return res
        st = m["state"]
        while True:
            if st["over"]:
                res.hands_finished += 1
                res.aborted += int(bool(st["aborted"]))
                if res.hands_finished >= hands:
                    return res
                m = await request({"type": "deal", "session": res.session}, "table")
            else:
                m = await request({"type": "action", "session": res.session, "hand": st["hand"],
                                   "decision": st["decision"], **choose(st["legal"], rng)},
                                  "table")
            st = m["state"]


async def _run(url: str, n: int, game: str, agent: str, hands: int, seed: int,
               timeout: float) -> list[ClientResult | BaseException]:
    tasks = [one_client(url, game=game, agent=agent, hands=hands, seed=seed + i)
             for i in range(n)]
    return list(await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True),
                                       timeout=timeout))


def run_clients(url: str, *, n: int, game: str = "hunl", agent: str = "random", hands: int = 3,
                seed: int = 0, timeout: float = 600.0) -> list[ClientResult | BaseException]:
    """Run ``n`` concurrent clients against ``url`` (a ``BackgroundServer``'s URL)."""
    return asyncio.run(_run(url, n, game, agent, hands, seed, timeout))
