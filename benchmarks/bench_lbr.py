"""Benchmark of local best response and AIVAT (issue 13), same run.

1. **Speed**: sampled LBR hands/s with ``fc`` and ``fcpa`` against the agent (default: the
   shipped ``blueprint`` when installed, else ``tag``); peer in the same run: a plain
   match of the same agent against ``call`` (``play_match``, same hands), ratio LBR/match.
2. **LBR of the baselines** (``fc`` on all rounds, duplicate deals, 95% CI).
3. **AIVAT**: the agent against each baseline (duplicate): per-hand SD of the raw result,
   of the duplicate pair means (per-hand equivalent) and of AIVAT / all-in EV, and the
   reductions.

Usage: ``python benchmarks/bench_lbr.py [--agent SPEC] [--hands N] [--lbr-hands N]
[--aivat-hands N] [--stack BB] [--json]`` (``NUMBA_NUM_THREADS=2`` or less on shared
machines).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

BASELINES = ("call", "raise", "random", "tag", "pushfold")


def _default_agent() -> str:
    from pokerlab.agents.registry import BLUEPRINT_FILES, shipped_policy

    return "blueprint" if shipped_policy(BLUEPRINT_FILES) is not None else "tag"


def main() -> None:
    from pokerlab.arena import aivat_match, play_match, run_lbr

    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", default=None)
    ap.add_argument("--hands", type=int, default=20, help="LBR deals for the speed runs")
    ap.add_argument("--lbr-hands", type=int, default=50, help="LBR deals per baseline")
    ap.add_argument("--aivat-hands", type=int, default=200, help="hands per AIVAT match")
    ap.add_argument("--stack", type=float, default=200.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    agent = a.agent or _default_agent()
    out: dict[str, Any] = {"agent": agent, "stack_bb": a.stack,
                           "load_average": os.getloadavg()[0]}
    run_lbr("call", hands=1, stack_bb=a.stack)  # compile / load caches
    speed = {}
    for acts in ("fc", "fcpa"):
        r = run_lbr(agent, actions=acts, hands=a.hands, seed=a.seed, stack_bb=a.stack)
        speed[acts] = {"hands": r.hands, "seconds": r.seconds,
                       "hands_per_s": r.hands / r.seconds, "mbb": r.mbb,
                       "ci95_mbb": r.ci95_mbb}
    t = time.perf_counter()
    m = play_match(agent, "call", hands=2 * a.hands, duplicate=True, seed=a.seed,
                   stack_bb=a.stack, workers=1, fast=False)
    peer = m.hands / (time.perf_counter() - t)
    speed["match_vs_call_hands_per_s"] = peer
    for acts in ("fc", "fcpa"):
        speed[acts]["ratio_vs_match"] = speed[acts]["hands_per_s"] / peer
    out["speed"] = speed
    lbr = {}
    for spec in dict.fromkeys((agent, *BASELINES)):
        r = run_lbr(spec, actions="fc", hands=a.lbr_hands, seed=a.seed, stack_bb=a.stack)
        lbr[spec] = {"mbb": r.mbb, "ci95_mbb": r.ci95_mbb, "hands": r.hands,
                     "seconds": r.seconds}
    out["lbr_fc"] = lbr
    aiv = {}
    for spec in BASELINES:
        if spec == agent:
            continue
        r = aivat_match(agent, spec, hands=a.aivat_hands, duplicate=True, seed=a.seed,
                        stack_bb=a.stack)
        d = r.to_json()
        aiv[spec] = {k: d[k] for k in ("mean_mbb", "ci95_mbb", "sd_mbb", "duplicate_sd_mbb",
                                       "aivat_mean_mbb", "aivat_ci95_mbb", "aivat_sd_mbb",
                                       "aivat_sd_reduction", "aivat_sd_reduction_vs_duplicate",
                                       "allin_sd_mbb", "allin_sd_reduction")}
        aiv[spec]["seconds"] = d["seconds"]
    out["aivat"] = aiv
    out["load_average_end"] = os.getloadavg()[0]
    if a.json:
        print(json.dumps(out))
        return
    print(f"agent {agent}, {a.stack:g} bb, load average {out['load_average']:.1f} -> "
          f"{out['load_average_end']:.1f}")
    print("| LBR actions | hands | hands/s | vs match (call) | LBR mbb/hand |")
    print("|---|---|---|---|---|")
    for acts in ("fc", "fcpa"):
        s = speed[acts]
        print(f"| {acts} | {s['hands']} | {s['hands_per_s']:.2f} | {s['ratio_vs_match']:.3f}x |"
              f" {s['mbb']:+.0f} +- {s['ci95_mbb']:.0f} |")
    print(f"match {agent} vs call: {peer:.1f} hands/s")
    print("\n| agent | LBR fc mbb/hand | hands |")
    print("|---|---|---|")
    for spec, v in lbr.items():
        print(f"| {spec} | {v['mbb']:+.0f} +- {v['ci95_mbb']:.0f} | {v['hands']} |")
    print("\n| vs | raw mbb/hand | SD raw | SD duplicate | SD AIVAT | AIVAT reduction "
          "(vs plain / vs duplicate) | SD all-in EV |")
    print("|---|---|---|---|---|---|---|")
    for spec, v in aiv.items():
        print(f"| {spec} | {v['mean_mbb']:+.0f} +- {v['ci95_mbb']:.0f} (AIVAT "
              f"{v['aivat_mean_mbb']:+.0f} +- {v['aivat_ci95_mbb']:.0f}) | {v['sd_mbb']:.0f} | "
              f"{v['duplicate_sd_mbb']:.0f} | {v['aivat_sd_mbb']:.0f} | "
              f"{100 * v['aivat_sd_reduction']:.0f}% / "
              f"{100 * v['aivat_sd_reduction_vs_duplicate']:.0f}% | {v['allin_sd_mbb']:.0f} |")


if __name__ == "__main__":
    main()
