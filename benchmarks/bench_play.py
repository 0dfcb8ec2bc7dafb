"""Play server benchmark: the agent's response time and the hands served per second.

* agent response time (p50 / p99, ms) at the person's opponent's decisions, measured by
  the server around each decision, for the shipped agent (``blueprint`` when installed,
  else ``tag``) and for the peer in the same run, the ``call`` agent (no thinking: the
  server's own overhead per decision).  Goal from the issue: p99 < 50 ms.
* hands/s served over loopback WebSockets: ``--clients`` concurrent scripted clients
  (random legal moves) each play ``--hands`` hands; the same for the peer agent.

Usage: ``python benchmarks/bench_play.py [--json] [--clients 50] [--hands 10] [--agent SPEC]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from typing import Any

import numpy as np


def measure(agent: str, clients: int, hands: int, seed: int) -> dict[str, Any]:
    from pokerlab.play.loadgen import ClientResult, run_clients
    from pokerlab.play.server import BackgroundServer, ServerConfig

    with tempfile.TemporaryDirectory() as tmp:
        cfg = ServerConfig(agent=agent, agents=(agent,), out_dir=tmp,
                           max_sessions=clients + 10, max_sessions_per_client=clients + 10,
                           agent_timeout=60.0, seed=seed)
        bg = BackgroundServer(cfg)
        with bg as url:
            # warm: one client creates one session first (loads tables, compiles kernels)
            run_clients(url, n=1, agent=agent, hands=1, seed=seed)
            t0 = time.perf_counter()
            results = run_clients(url, n=clients, agent=agent, hands=hands, seed=seed + 1,
                                  timeout=1800.0)
            seconds = time.perf_counter() - t0
            play = bg.app.state.play
            times = [t for e in play.manager.sessions.values() for t in e.session.agent_times]
    done = [r for r in results if isinstance(r, ClientResult)]
    n_hands = sum(r.hands_finished for r in done)
    lat = [x for r in done for x in r.latencies]
    ms = np.asarray(times) * 1000.0
    return {
        "agent": agent, "clients": clients, "hands": n_hands,
        "failed_clients": len(results) - len(done),
        "seconds": round(seconds, 3), "hands_per_s": round(n_hands / seconds, 2),
        "agent_decisions": int(ms.size),
        "agent_p50_ms": round(float(np.percentile(ms, 50)), 3) if ms.size else None,
        "agent_p99_ms": round(float(np.percentile(ms, 99)), 3) if ms.size else None,
        "roundtrip_p50_ms": round(1000 * float(np.percentile(lat, 50)), 3) if lat else None,
        "roundtrip_p99_ms": round(1000 * float(np.percentile(lat, 99)), 3) if lat else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--agent", default=None, help="default: the shipped agent (blueprint/tag)")
    ap.add_argument("--peer", default="call")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.agent is None:
        from pokerlab.commands.play_cmd import default_agent

        args.agent = default_agent()
    ours = measure(args.agent, args.clients, args.hands, args.seed)
    peer = measure(args.peer, args.clients, args.hands, args.seed)
    out = {"ours": ours, "peer": peer,
           "hands_per_s_ratio": round(ours["hands_per_s"] / peer["hands_per_s"], 3),
           "p99_goal_ms": 50.0,
           "p99_goal_met": ours["agent_p99_ms"] is not None and ours["agent_p99_ms"] < 50.0}
    if args.json:
        print(json.dumps(out))
        return
    for r in (ours, peer):
        print(f"{r['agent']:>10}: {r['hands']} hands by {r['clients']} clients in "
              f"{r['seconds']:.1f} s = {r['hands_per_s']:.1f} hands/s; agent p50 "
              f"{r['agent_p50_ms']} ms, p99 {r['agent_p99_ms']} ms over {r['agent_decisions']} "
              f"decisions; round trip p50 {r['roundtrip_p50_ms']} ms, p99 "
              f"{r['roundtrip_p99_ms']} ms")
    print(f"hands/s {args.agent} / {args.peer} = {out['hands_per_s_ratio']}; "
          f"p99 goal (< 50 ms) met: {out['p99_goal_met']}")


if __name__ == "__main__":
    main()
