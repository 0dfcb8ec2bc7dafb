"""The LBR table of the shipped agents at the papers' sample size (issue 26).

For each agent and each of the LBR paper's settings (Lisý & Bowling 2017): (1) ``fc``
from round 1, (2) ``fcpa`` from round 3 (call preflop and flop, then fold / call / pot /
all-in), (3) ``56`` from round 3, and ``fcpa`` from round 1 as an extra column,
``run_lbr(agent, actions, hands=deals, from_round, seed, stack_bb=the agent's own)``:
every deal in both seats, so ``hands`` = 2 x deals (default 50,000 deals = the papers'
2 x 50,000 hands).  Prints a markdown table (mbb/hand +- 95% CI, seconds) and, with
``--json``, one JSON object (``mbb``: LBR's mean winnings, milli-big-blinds per hand;
positive = the agent is at least that exploitable).

Usage: ``NUMBA_NUM_THREADS=1 python benchmarks/lbr_table.py [--agents
blueprint-100,blueprint-200] [--deals 50000] [--seed 0] [--workers 1] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

SETTINGS = (("fc", 1), ("fcpa", 3), ("56", 3), ("fcpa", 1))


def main() -> None:
    from pokerlab.arena import run_lbr
    from pokerlab.arena.matches import resolve_stack

    ap = argparse.ArgumentParser()
    ap.add_argument("--agents", default="blueprint-100,blueprint-200")
    ap.add_argument("--deals", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out: dict[str, Any] = {"deals": a.deals, "seed": a.seed, "workers": a.workers,
                           "load_average": os.getloadavg()[0], "agents": {}}
    for spec in a.agents.split(","):
        stack = resolve_stack([spec], None)
        rows = {}
        for acts, fr in SETTINGS:
            r = run_lbr(spec, actions=acts, hands=a.deals, from_round=fr, seed=a.seed,
                        stack_bb=stack, workers=a.workers)
            d = r.to_json()
            rows[f"{acts}@{fr}"] = {"mbb": d["mbb"], "ci95_mbb": d["ci95_mbb"],
                                    "hands": d["hands"], "seconds": d["seconds"],
                                    "seat_mbb": d.get("seat_mbb")}
        out["agents"][spec] = {"stack_bb": stack, "rows": rows}
    out["load_average_end"] = os.getloadavg()[0]
    if a.json:
        print(json.dumps(out))
        return
    print(f"{a.deals:,} deals (2 x {a.deals:,} hands) per cell, seed {a.seed}, "
          f"{a.workers} process(es), load average {out['load_average']:.1f} -> "
          f"{out['load_average_end']:.1f}")
    print("| agent | stack | (1) fc, all rounds | (2) C, C, FCPA, FCPA | (3) C, C, 56, 56 | "
          "fcpa, all rounds |")
    print("|---|---:|---|---|---|---|")
    for spec, v in out["agents"].items():
        cells = []
        for acts, fr in SETTINGS:
            c = v["rows"][f"{acts}@{fr}"]
            cells.append(f"{c['mbb']:+,.0f} +- {c['ci95_mbb']:,.0f} ({c['seconds']:.0f} s)")
        print(f"| `{spec}` | {v['stack_bb']:g} bb | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
