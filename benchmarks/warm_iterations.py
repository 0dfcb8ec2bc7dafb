"""From which iteration a warm-started flop should continue (issue 50: the 184-flop report).

For neighbour pairs of the 184-flop set (the first two flops of chains ``--chains`` of
``warm.flop_chains``), the first flop is solved cold to ``--target`` % of the pot (auto
checks, as the report), and the second is warm-started from it (``warm.warm_start``) once per
iteration in ``--iterations``, then solved to the target with a check every ``--check-every``
iterations: the iterations it needs (deterministic).  ``--ssum`` also copies the
neighbour's strategy sums under the same map.  The template is the report benchmark's
(``bench_spot_report.py --raises none``: the docs' single-raised-pot ranges, pot 10, stack
95, flop 33%, turn and river 50% and 100%).  Pairs run in parallel over ``--workers``
processes.

Usage: ``python benchmarks/warm_iterations.py [--algo rdcfr] [--iterations 10,30,60,120]
[--chains 3,12,21,30] [--target 0.5] [--check-every 2] [--ssum] [--workers 2] [--json]``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_spot_report import SRP_IP, SRP_OOP  # noqa: E402
from search_opponents import fail, ints  # noqa: E402


@dataclass(frozen=True)
class Pair:
    source: str
    board: str
    algo: str
    iterations: tuple[int, ...]
    target: float
    check_every: int
    ssum: bool


def spot(board: str) -> Any:
    from pokerlab.subgame.spot import make_spot, tree_config

    tree = tree_config(flop_bets="33%", turn_bets="50%,100%", river_bets="50%,100%", raises="none")
    return make_spot(board=board, pot=10, stack=95, oop=SRP_OOP, ip=SRP_IP, tree=tree, big_blind=1)


def run_pair(job: Pair) -> dict[str, Any]:
    """The source solved cold, then ``job.board`` warm-started from each iteration."""
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver
    from pokerlab.subgame.warm import WarmSource, warm_start

    cfg = SolveConfig(algo=job.algo)
    src = SpotSolver(spot(job.source), cfg, threads=1)
    src.solve(iterations=400, target_pct=job.target, check_every="auto")
    ws = WarmSource.of(src)
    out: dict[str, Any] = {"source": job.source, "board": job.board,
                           "source_iterations": src.iteration, "warm": {}}
    for it in job.iterations:
        dst = SpotSolver(spot(job.board), cfg, threads=1)
        if job.ssum:  # the strategy sums under the same map (warm_start maps the regrets)
            if not warm_start(dst, dataclasses.replace(ws, regrets=src.ssum), iteration=it):
                raise fail(f"{job.board} cannot be warm-started from {job.source}")
            mapped = dst.regrets.copy()
            dst.regrets[:] = 0
            dst.iteration = 0
        if not warm_start(dst, ws, iteration=it):
            raise fail(f"{job.board} cannot be warm-started from {job.source}")
        if job.ssum:
            dst.ssum[:] = mapped
        pct = dst.solve(iterations=it + 400, target_pct=job.target, check_every=job.check_every)
        out["warm"][str(it)] = {"iterations": dst.iteration - it, "pct": float(pct)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--algo", default="rdcfr")
    ap.add_argument("--iterations", default="10,30,60,120")
    ap.add_argument("--chains", default="3,12,21,30")
    ap.add_argument("--target", type=float, default=0.5)
    ap.add_argument("--check-every", type=int, default=2)
    ap.add_argument("--ssum", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    from pokerlab.errors import PokerlabError
    from pokerlab.executor import default_backend, map_chunks
    from pokerlab.subgame.flops import parse_flop_set
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.warm import flop_chains

    try:
        SolveConfig(algo=a.algo)
    except PokerlabError as exc:
        raise fail(str(exc)) from None
    its, picks = ints(a.iterations, "--iterations"), ints(a.chains, "--chains")
    chains = flop_chains(parse_flop_set("184"))
    if max(picks) >= len(chains) or any(len(chains[i]) < 2 for i in picks):
        raise fail(f"--chains: indices of chains of two or more flops below {len(chains)}")
    jobs = [Pair(chains[i][0].board, chains[i][1].board, a.algo, its, a.target, a.check_every, a.ssum)
            for i in picks]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    res = map_chunks(run_pair, jobs, backend=default_backend(a.workers, None), workers=a.workers)
    means = {str(it): statistics.fmean(r["warm"][str(it)]["iterations"] for r in res) for it in its}
    out = {"started": started, "algo": a.algo, "target_pct": a.target, "check_every": a.check_every,
           "ssum": a.ssum, "pairs": res, "iterations_mean": means}
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{a.algo}, target {a.target}% of the pot, {len(res)} pairs; {started}\n")
    print("| warm start from iteration | iterations to target (mean) | per pair |\n|---:|---:|---|")
    for it in its:
        per = ", ".join(str(r["warm"][str(it)]["iterations"]) for r in res)
        print(f"| {it} | {means[str(it)]:.1f} | {per} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
