"""Benchmark of local best response and AIVAT (issues 13 and 26), same run.

0. **Before/after** (issue 26): the per-combo reference LBR (``vectorised=False``: one
   ``action_probabilities`` / bucket call per combo, as LBR was before the range queries)
   and the vectorised LBR on the same deals, ``fc`` and ``fcpa``, against the agent and
   against ``tag`` (``--before-hands`` / ``--tag-hands`` deals); hands/s of both, the
   speed-up, and a check that both gave the same value for every hand.
1. **Speed**: sampled LBR hands/s with ``fc`` and ``fcpa`` against the agent (default: the
   shipped ``blueprint`` when installed, else ``tag``); peer in the same run: a plain
   match of the same agent against ``call`` (``play_match``, same hands), ratio LBR/match.
2. **LBR of the baselines** (``fc`` on all rounds, duplicate deals, 95% CI).
3. **AIVAT**: the agent against each baseline (duplicate): per-hand SD of the raw result,
   of the duplicate pair means (per-hand equivalent) and of AIVAT / all-in EV, and the
   reductions.

Usage: ``python benchmarks/bench_lbr.py [--agent SPEC] [--hands N] [--before-hands N]
[--tag-hands N] [--lbr-hands N] [--aivat-hands N] [--stack BB] [--json]``
(``NUMBA_NUM_THREADS=2`` or less on shared machines; the stack defaults to the agent's
own).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

BASELINES = ("call", "raise", "random", "tag", "pushfold")


def _default_agent() -> str:
    from pokerlab.registry import BLUEPRINT_FILES, shipped_policy

    return "blueprint" if shipped_policy(BLUEPRINT_FILES) is not None else "tag"


def main() -> None:
    from pokerlab.arena import aivat_match, play_match, run_lbr

    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", default=None)
    ap.add_argument("--hands", type=int, default=20, help="LBR deals for the speed runs")
    ap.add_argument("--lbr-hands", type=int, default=50, help="LBR deals per baseline")
    ap.add_argument("--aivat-hands", type=int, default=200, help="hands per AIVAT match")
    ap.add_argument("--before-hands", type=int, default=20,
                    help="deals of the before/after comparison against the agent")
    ap.add_argument("--tag-hands", type=int, default=3,
                    help="deals of the before/after comparison against tag")
    ap.add_argument("--stack", type=float, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    agent = a.agent or _default_agent()
    from pokerlab.arena.matches import resolve_stack

    a.stack = resolve_stack([agent], a.stack)
    out: dict[str, Any] = {"agent": agent, "stack_bb": a.stack,
                           "load_average": os.getloadavg()[0]}
    run_lbr("call", hands=1, stack_bb=a.stack)  # compile / load caches
    out["before_after"] = {agent: before_after(agent, a.stack, a.before_hands, a.seed)}
    if agent != "tag" and a.tag_hands > 0:
        out["before_after"]["tag"] = before_after("tag", 200.0, a.tag_hands, a.seed)
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
    print("| vs | LBR actions | deals | before hands/s | after hands/s | speed-up | same "
          "values |")
    print("|---|---|---|---|---|---|---|")
    for spec, per in out["before_after"].items():
        for acts, v in per.items():
            print(f"| {spec} | {acts} | {v['deals']} | {v['before_hands_per_s']:.2f} | "
                  f"{v['after_hands_per_s']:.1f} | {v['speedup']:.1f}x | {v['same_values']} |")
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


def before_after(spec: str, stack_bb: float, deals: int, seed: int) -> dict[str, Any]:
    """Per-combo reference LBR and vectorised LBR on the same deals (see the module doc)."""
    import numpy as np

    from pokerlab.arena.lbr import hunl_opponent
    from pokerlab.evaluation.lbr import LBRConfig, per_deal_holdem
    from pokerlab.holdem.engine import HoldemConfig

    cfg = HoldemConfig.from_bb(stack_bb)
    agent = hunl_opponent(spec, stack_bb)
    res: dict[str, Any] = {}
    for acts in ("fc", "fcpa"):
        c = LBRConfig(actions=acts, hands=max(1, deals), seed=seed)
        per_deal_holdem(agent, cfg, c, [0])  # compile / caches
        per_deal_holdem(agent, cfg, c, [0], vectorised=False)
        t = time.perf_counter()
        old = per_deal_holdem(agent, cfg, c, range(deals), vectorised=False)
        t_old = time.perf_counter() - t
        t = time.perf_counter()
        new = per_deal_holdem(agent, cfg, c, range(deals))
        t_new = time.perf_counter() - t
        res[acts] = {"deals": deals, "hands": 2 * deals,
                     "before_hands_per_s": 2 * deals / t_old,
                     "after_hands_per_s": 2 * deals / t_new, "speedup": t_old / t_new,
                     "same_values": bool(np.array_equal(old, new)),
                     "mbb": float(new.mean() * 1000 / cfg.big_blind)}
    return res


if __name__ == "__main__":
    main()
