"""Iterations to the report's target by discounting schedule (issue 50: the 184-flop report).

The 184-flop report needs about 20 CPU s a flop for its 30-minute goal, 2.4x less than
today's default schedule takes. This script solves the report's template (the docs'
single-raised-pot ranges, pot 10, stack 95, one flop size 33%, turn and river 50% and
100%, no raises: ``bench_spot_report.py --raises none``) cold on a sample of the 184-flop
set with each schedule named in ``--algos`` and reports, per schedule, the iterations at
which the exploitability first reaches ``--target`` % of the pot (checked every
``--check-every`` iterations, so the count is exact to that step) and the CPU seconds of the
solve (checks included).  Flops run in parallel over ``--workers`` processes (one thread
each), every schedule on the same flops.

A schedule is ``rdcfr``, ``cfr+``, ``lcfr``, ``dcfr:ALPHA,BETA,GAMMA`` (Discounted CFR's
positive-regret, negative-regret and average-strategy exponents; ``dcfr`` alone: 1.5, 0, 2),
``dcfr+:ALPHA,GAMMA`` (regrets floored at zero; alone: 1.5, 4) or ``pdcfr+:ALPHA,GAMMA``
(Predictive DCFR+, Xu et al. 2024; alone: 2.3, 5).

Usage: ``python benchmarks/dcfr_params.py [--flops 4] [--algos "rdcfr;dcfr;dcfr:2,0,3"]
[--target 0.5] [--check-every 2] [--workers 2] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_spot_report import SRP_IP, SRP_OOP, sample_boards  # noqa: E402
from search_opponents import fail  # noqa: E402


@dataclass(frozen=True)
class Job:
    board: str
    algo: str
    target: float
    check_every: int
    max_iterations: int


def parse_algo(text: str) -> dict[str, Any]:
    """``SolveConfig`` keywords of one schedule text (see the module docstring)."""
    name, _, params = text.partition(":")
    tunable = ("dcfr", "dcfr+", "pdcfr+")
    if name not in ("rdcfr", "cfr+", "lcfr", *tunable) or (params and name not in tunable):
        raise fail(f"unknown schedule {text!r} (rdcfr, cfr+, lcfr, dcfr[:A,B,G], dcfr+[:A,G], "
                   "pdcfr+[:A,G])")
    out: dict[str, Any] = {"algo": name}
    if params:
        try:
            nums = [float(x) for x in params.split(",")]
        except ValueError:
            nums = []
        if name == "dcfr" and len(nums) == 3:
            out.update(alpha=nums[0], beta=nums[1], gamma=nums[2])
        elif name != "dcfr" and len(nums) == 2:
            out.update(alpha=nums[0], gamma=nums[1])
        else:
            want = "ALPHA,BETA,GAMMA, three" if name == "dcfr" else "ALPHA,GAMMA, two"
            raise fail(f"schedule {text!r}: {name}:{want} numbers")
    return out


def solve_one(job: Job) -> dict[str, Any]:
    """One cold solve of the template on ``job.board``: iterations to the target and CPU s."""
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver
    from pokerlab.subgame.spot import make_spot, tree_config

    tree = tree_config(flop_bets="33%", turn_bets="50%,100%", river_bets="50%,100%", raises="none")
    spot = make_spot(board=job.board, pot=10, stack=95, oop=SRP_OOP, ip=SRP_IP, tree=tree, big_blind=1)
    solver = SpotSolver(spot, SolveConfig(**parse_algo(job.algo)), threads=1)
    t0 = time.process_time()
    pct = solver.solve(iterations=job.max_iterations, target_pct=job.target, check_every=job.check_every)
    return {"board": job.board, "algo": job.algo, "iterations": int(solver.iteration),
            "pct": float(pct), "cpu_s": time.process_time() - t0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flops", type=int, default=4)
    ap.add_argument("--algos", default="rdcfr;dcfr;dcfr:2,0,3;dcfr:1.5,0.5,2;lcfr")
    ap.add_argument("--target", type=float, default=0.5)
    ap.add_argument("--check-every", type=int, default=2)
    ap.add_argument("--max-iterations", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    algos = [s.strip() for s in a.algos.split(";") if s.strip()]
    for s in algos:
        parse_algo(s)
    from pokerlab.executor import default_backend, map_chunks

    boards = sample_boards(a.flops)
    jobs = [Job(b, s, a.target, a.check_every, a.max_iterations) for s in algos for b in boards]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0]
    res = map_chunks(solve_one, jobs, backend=default_backend(a.workers, None), workers=a.workers)
    rows = []
    for s in algos:
        mine = [r for r in res if r["algo"] == s]
        rows.append({"algo": s, "iterations_mean": statistics.fmean(r["iterations"] for r in mine),
                     "cpu_s_mean": statistics.fmean(r["cpu_s"] for r in mine),
                     "reached": sum(r["pct"] <= a.target for r in mine), "flops": mine})
    out = {"started": started, "load_before": load, "load_after": os.getloadavg()[0],
           "boards": boards, "target_pct": a.target, "check_every": a.check_every, "rows": rows}
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{len(boards)} flops ({', '.join(boards)}), target {a.target}% of the pot, checked every "
          f"{a.check_every}; {started}, load {load:.1f} before, {out['load_after']:.1f} after\n")
    print("| schedule | iterations to target (mean) | CPU s per flop (mean) | reached | per flop |")
    print("|---|---:|---:|---:|---|")
    for r in rows:
        per = ", ".join(str(f["iterations"]) for f in r["flops"])
        print(f"| `{r['algo']}` | {r['iterations_mean']:.1f} | {r['cpu_s_mean']:.1f} | "
              f"{r['reached']}/{len(boards)} | {per} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
