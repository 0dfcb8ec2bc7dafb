"""LBR speed by setting against a shipped blueprint (issue 26), three code paths in one run.

For each setting (LBR action set, first LBR round), on the same deals:

* ``reference``: the per-combo reference LBR (``per_deal_holdem(..., vectorised=False,
  kernel=False)``: one ``action_probabilities`` / bucket call per combo, as LBR was
  before issue 26) on ``--ref-deals`` deals;
* ``python``: the vectorised Python hand loop (``kernel=False``: range queries, fold
  vectors; the kernels' twin) on the same deals;
* ``kernel``: ``run_lbr(agent, ...)`` on ``--deals`` deals in one process, timed from
  building the agent (so the real betting tree is built from nothing inside the time);
  its first ``--ref-deals`` deals are checked equal to the reference's, deal by deal.

Prints a markdown table (hands/s of each path, the kernel's speed-up over each, LBR's
value with its 95% CI) and, with ``--json``, one JSON object (``hands`` = 2 x deals, both
seats; ``mbb`` = milli-big-blinds per hand).

Usage: ``NUMBA_NUM_THREADS=1 python benchmarks/bench_lbr_tree.py [--agent blueprint-100]
[--stack 100] [--deals 50000] [--ref-deals 40] [--settings fc@1,fcpa@1,fcpa@3,56@3]
[--seed 0] [--json]`` on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import numpy as np


def one(agent_spec: str, stack_bb: float, actions: str, from_round: int, deals: int,
        ref_deals: int, seed: int) -> dict[str, Any]:
    from pokerlab.arena import run_lbr
    from pokerlab.arena.lbr import hunl_opponent
    from pokerlab.evaluation.lbr import LBRConfig, per_deal_holdem
    from pokerlab.holdem.engine import HoldemConfig

    cfg = HoldemConfig.from_bb(stack_bb)
    c = LBRConfig(actions=actions, hands=ref_deals, seed=seed, from_round=from_round)
    agent = hunl_opponent(agent_spec, stack_bb)
    t = time.perf_counter()
    ref = per_deal_holdem(agent, cfg, c, range(ref_deals), vectorised=False, kernel=False)
    t_ref = time.perf_counter() - t
    agent = hunl_opponent(agent_spec, stack_bb)
    t = time.perf_counter()
    py = per_deal_holdem(agent, cfg, c, range(ref_deals), kernel=False)
    t_py = time.perf_counter() - t
    t = time.perf_counter()
    r = run_lbr(agent_spec, actions=actions, hands=deals, seed=seed, stack_bb=stack_bb,
                workers=1, from_round=from_round)
    t_k = time.perf_counter() - t
    agent = hunl_opponent(agent_spec, stack_bb)
    fast = per_deal_holdem(agent, cfg, c, range(ref_deals))
    same = bool(np.array_equal(fast, ref) and np.array_equal(py, ref))
    h_ref, h_py, h_k = 2 * ref_deals / t_ref, 2 * ref_deals / t_py, r.hands / t_k
    return {"actions": actions, "from_round": from_round, "ref_deals": ref_deals,
            "reference_hands_per_s": h_ref, "python_hands_per_s": h_py,
            "kernel_hands": r.hands, "kernel_seconds": t_k, "kernel_hands_per_s": h_k,
            "speedup_vs_reference": h_k / h_ref, "speedup_vs_python": h_k / h_py,
            "same_values": same, "mbb": r.mbb, "ci95_mbb": r.ci95_mbb}


def main() -> None:
    from pokerlab.arena import run_lbr

    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", default="blueprint-100")
    ap.add_argument("--stack", type=float, default=100.0)
    ap.add_argument("--deals", type=int, default=50_000)
    ap.add_argument("--ref-deals", type=int, default=40)
    ap.add_argument("--settings", default="fc@1,fcpa@1,fcpa@3,56@3")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    settings = []
    for item in a.settings.split(","):
        acts, _, fr = item.partition("@")
        settings.append((acts, int(fr or 1)))
    for acts, fr in settings:  # compile / load caches
        run_lbr(a.agent, actions=acts, hands=2, stack_bb=a.stack, from_round=fr)
    out: dict[str, Any] = {"agent": a.agent, "stack_bb": a.stack, "seed": a.seed,
                           "load_average": os.getloadavg()[0], "rows": []}
    for acts, fr in settings:
        out["rows"].append(one(a.agent, a.stack, acts, fr, a.deals, a.ref_deals, a.seed))
    out["load_average_end"] = os.getloadavg()[0]
    if a.json:
        print(json.dumps(out))
        return
    print(f"{a.agent} at {a.stack:g} bb, seed {a.seed}, load average "
          f"{out['load_average']:.1f} -> {out['load_average_end']:.1f}")
    print("| LBR | reference hands/s | Python hands/s | kernel hands (s) | kernel hands/s | "
          "vs reference | vs Python | same values | LBR mbb/hand |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    for v in out["rows"]:
        print(f"| `{v['actions']}` from {v['from_round']} | {v['reference_hands_per_s']:.1f} | "
              f"{v['python_hands_per_s']:.0f} | {v['kernel_hands']:,} "
              f"({v['kernel_seconds']:.0f}) | {v['kernel_hands_per_s']:,.0f} | "
              f"{v['speedup_vs_reference']:.0f}x | {v['speedup_vs_python']:.1f}x | "
              f"{v['same_values']} | {v['mbb']:+,.0f} +- {v['ci95_mbb']:,.0f} |")


if __name__ == "__main__":
    main()
