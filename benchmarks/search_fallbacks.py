"""Where a searching agent searches and where it falls back to its base policy, per street
and think budget (issue 49: a searcher that falls back plays the blueprint's table lookup
and translation, which local best response exploits).

Plays ``--hands`` hands of each searcher spec against ``--opponent`` (default ``blueprint``)
in one process, the same deals and seeds for every spec (``hand_cards(seed, k)``, seats
alternating), and prints per spec: hands per second, decisions searched and fallen back on
each street with their reasons (``counters()``: ``fallbacks_budget`` = no subgame fitted the
time left, ``fallbacks_error`` = the search could not run), the mean think time per street,
DCFR iterations, depth-limited solves and leaf trees built / reused, and the searcher's
mean chips per hand (a few hundred hands say nothing about strength: use
``search_depth.py`` for that).

Usage: ``python benchmarks/search_fallbacks.py [--specs "SPEC;SPEC"] [--hands 40]
[--stack 100] [--seed 9] [--opponent blueprint] [--json]``.  Default specs:
``search(street=flop,depth=1,ms=300)`` with the default 8 runouts, 4 and 2, and
``search(street=flop,depth=1)`` (1 s).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

STREETS = ("flop", "turn", "river")
DEFAULT_SPECS = ("search(street=flop,depth=1,ms=300);search(street=flop,depth=1,ms=300,runouts=4);"
                 "search(street=flop,depth=1,ms=300,runouts=2);search(street=flop,depth=1)")


def run_spec(spec: str, *, hands: int, stack: float, seed: int, opponent: str) -> dict[str, Any]:
    """``hands`` hands of ``spec`` against ``opponent``: the figures of the module docstring."""
    from pokerlab.evaluation.matches import hand_cards, hand_seed, play_hunl_hand
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.registry import make_agent

    cfg = HoldemConfig.from_bb(stack)
    agent = make_agent(spec, game="hunl", config=cfg, seed=1)
    opp = make_agent(opponent, game="hunl", config=cfg, seed=2)
    chips = 0
    t0 = time.perf_counter()
    for k in range(hands):
        seat = k % 2
        st = play_hunl_hand(agent, opp, cfg, seat, hand_cards(seed, k), hand_seed(seed, k, 1),
                            hand_seed(seed, k, 2))
        chips += st.payoffs()[seat]
    seconds = time.perf_counter() - t0
    c = agent.counters()
    out: dict[str, Any] = {"spec": spec, "hands": hands, "seconds": seconds,
                           "hands_per_second": hands / seconds if seconds > 0 else None,
                           "chips_per_hand": chips / hands if hands else 0.0,
                           "searches": c.get("searches", 0), "fallbacks": c.get("fallbacks", 0),
                           "fallbacks_budget": c.get("fallbacks_budget", 0),
                           "fallbacks_error": c.get("fallbacks_error", 0),
                           "iterations": c.get("iterations", 0),
                           "depth_limited": c.get("depth_limited", 0),
                           "leaf_trees_built": c.get("leaf_trees_built", 0),
                           "leaf_trees_reused": c.get("leaf_trees_reused", 0),
                           "reasons": dict(getattr(getattr(agent, "stats", None), "reasons", {}) or {})}
    for s in STREETS:
        n = c.get(f"think_ms_{s}_count", 0)
        out[s] = {"searches": c.get(f"searches_{s}", 0), "fallbacks": c.get(f"fallbacks_{s}", 0),
                  "think_ms_mean": c.get(f"think_ms_{s}_sum", 0.0) / n if n else None}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--specs", default=DEFAULT_SPECS, help="searcher specs separated by ';'")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--stack", type=float, default=100.0, help="big blinds")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--opponent", default="blueprint")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.hands < 1:
        ap.error("--hands must be >= 1")
    specs = [s.strip() for s in a.specs.split(";") if s.strip()]
    if not specs:
        ap.error("--specs is empty")
    rows = []
    for spec in specs:
        try:
            rows.append(run_spec(spec, hands=a.hands, stack=a.stack, seed=a.seed, opponent=a.opponent))
        except Exception as exc:  # one clear line, whatever failed
            print(f"error: {spec}: {exc}", file=sys.stderr)
            return 2
    if a.json:
        print(json.dumps({"hands": a.hands, "stack_bb": a.stack, "seed": a.seed, "opponent": a.opponent,
                          "units": "think time in ms per decision; chips per hand of the searcher",
                          "rows": rows}))
        return 0
    print(f"{a.hands} hands each against {a.opponent}, {a.stack:g} bb, deals of seed {a.seed}")
    for r in rows:
        per = ", ".join(
            f"{s} {r[s]['searches']} searched / {r[s]['fallbacks']} fell back"
            + (f" ({r[s]['think_ms_mean']:.0f} ms)" if r[s]["think_ms_mean"] is not None else "")
            for s in STREETS)
        print(f"{r['spec']}: {r['hands_per_second']:.2f} hands/s; {per}; fallbacks for the budget "
              f"{r['fallbacks_budget']}, errors {r['fallbacks_error']}; {r['iterations']} iterations; "
              f"leaf trees built {r['leaf_trees_built']}, reused {r['leaf_trees_reused']}; "
              f"{r['chips_per_hand']:+.0f} chips/hand")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
