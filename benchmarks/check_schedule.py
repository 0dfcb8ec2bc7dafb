"""When a report's solve should check its exploitability (issue 50: the 184-flop report).

A solve to a target (``SpotSolver.solve(target_pct=...)``) stops at the first exploitability
check at or under the target, so it pays for the iterations past the crossing that come
before the next check, and for every check (a best response of both players: about 0.8 of an
iteration on this template).  This benchmark records, for whole chains of the 184-flop set as
the report solves them (``warm.flop_chains``: the first flop cold, each next one
warm-started from the one before), **the exploitability after every iteration** from the
4th up to ``--past`` iterations beyond the crossing (the first at or under the target; a
schedule's check past the record is taken as under it), and each flop's time of one
iteration and of one check.  Then it replays check schedules on those curves (the
iterations a solve's state reaches do not depend on when it is checked): for each schedule,
the iterations and checks each flop would have spent, in iterations (a check counted at its
measured cost).  ``oracle`` checks exactly at the crossing: the floor.

A warm-started flop starts from its neighbour's regrets at that neighbour's crossing (the
report starts it from wherever the neighbour's last check stopped, a few iterations on).

Schedules (``--schedules``, separated by semicolons):

* ``auto``: ``solve_config.next_check`` (what the report uses): the power law through the
  last two checks since the strategy average last restarted (``rdcfr``: iterations 2, 5, 17,
  65, 257, ...), the first check 20 iterations in;
* ``fit:F,A,M``: the same rule with the first check ``F`` on, the first after a restart
  ``A`` after it (``A`` = 0: restarts ignored) and the margin ``M``; ``fit:10,0,1.02`` is the
  rule before 2026-12-07;
* ``every:N``: a check every N iterations;
* ``oracle``.

The template is the report benchmark's (``bench_spot_report.py --raises none``: the docs'
single-raised-pot ranges, pot 10, stack 95, flop 33%, turn and river 50% and 100%);
``--chains`` picks chains of ``flop_chains`` over the 184 set (indices; ``--chain-length``
their most flops, default the report's); chains run in
parallel over ``--workers`` processes.  ``--curves FILE[,FILE...]`` replays the curves of earlier
``--json`` outputs (together) instead of recording.

Usage: ``python benchmarks/check_schedule.py [--chains 3,12,21,30] [--chain-length N]
[--algo rdcfr] [--target 0.5] [--past 2] [--schedules "auto;fit:10,0,1.02;every:5;oracle"]
[--workers 2] [--curves FILE,...]
[--json]``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_opponents import fail  # noqa: E402
from warm_iterations import ints, spot  # noqa: E402


@dataclass(frozen=True)
class Chain:
    boards: tuple[str, ...]
    algo: str
    target: float
    past: int
    cap: int


def record_chain(job: Chain) -> list[dict[str, Any]]:
    """Each flop's exploitability after every iteration (from the 4th after its start) up to
    ``job.past`` past the first at or under the target; warm-started as the report does."""
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver
    from pokerlab.subgame.warm import WarmSource, warm_start

    cfg = SolveConfig(algo=job.algo)
    source = None
    out = []
    for board in job.boards:
        s = SpotSolver(spot(board), cfg, threads=1)
        warm = source is not None and warm_start(s, source)
        start = s.iteration
        curve: dict[int, float] = {}
        crossing = None
        snap = None
        it_cpu = 0.0
        check_cpu = 0.0
        checks = 0
        while s.iteration - start < job.cap:
            t0 = time.process_time()
            s.step()
            it_cpu += time.process_time() - t0
            k = s.iteration - start
            if k < 4:
                continue
            t0 = time.process_time()
            pct = float(s.exploitability()[1])
            check_cpu += time.process_time() - t0
            checks += 1
            curve[k] = pct
            if crossing is None and pct <= job.target:
                crossing = k
                snap = WarmSource.of(s)
                snap = dataclasses.replace(snap, regrets=snap.regrets.copy(), rscale=snap.rscale.copy(),
                                           pred=snap.pred.copy())
            if crossing is not None and k >= crossing + job.past:
                break
        source = snap
        iters = s.iteration - start
        out.append({"board": board, "warm": bool(warm), "start": start, "crossing": crossing,
                    "curve": {str(k): v for k, v in curve.items()},
                    "iteration_seconds": it_cpu / iters, "check_seconds": check_cpu / max(checks, 1)})
    return out


Schedule = Callable[[list[tuple[int, float]], float, int, int], int]


def schedule(name: str) -> Schedule | None:
    """The check schedule ``name`` (``None``: the oracle)."""
    from pokerlab.subgame import solve_config

    if name == "oracle":
        return None
    if name == "auto":
        return solve_config.next_check
    kind, _, arg = name.partition(":")
    if kind == "every":
        try:
            n = int(arg)
        except ValueError:
            raise ValueError(name) from None
        if n < 1:
            raise ValueError(name)
        return lambda checks, _t, start, _seg: (checks[-1][0] if checks else start) + n
    if kind == "fit":
        try:
            f, a, m = arg.split(",")
            first, after, margin = int(f), int(a), float(m)
        except ValueError:
            raise ValueError(name) from None
        if first < 1 or after < 0 or margin <= 0:
            raise ValueError(name)

        def fit(checks: list[tuple[int, float]], target: float, start: int, seg: int) -> int:
            return solve_config.next_check(checks, target, start, seg if after else 0, first=first,
                                           after=after, margin=margin)
        return fit
    raise ValueError(name)


def replay(flop: dict[str, Any], sched: Schedule | None, target: float, cap: int,
           config: Any) -> dict[str, float]:
    """The iterations and checks one flop's solve spends under ``sched`` (its checks at
    iterations ``start + k``; past the recorded curve the solve is taken as converged)."""
    curve = {int(k): v for k, v in flop["curve"].items()}
    ratio = flop["check_seconds"] / flop["iteration_seconds"]
    if sched is None:
        k = flop["crossing"] if flop["crossing"] is not None else cap
        return {"iterations": k, "checks": 1, "cost": k + ratio}
    start = int(flop["start"])
    checks: list[tuple[int, float]] = []
    last = max(curve)
    while True:
        seg = config.average_restart(start, checks[-1][0] if checks else start)
        due = min(sched(checks, target, start, seg), start + cap)
        k = due - start
        if k > last:  # beyond the record: past the crossing by --past, below the target
            pct = target
        else:
            pct = curve.get(k, math.inf)  # the first 3 iterations are not recorded
        checks.append((due, pct))
        if pct <= target or k >= cap:
            break
    n = len(checks)
    return {"iterations": k, "checks": n, "cost": k + n * ratio}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chains", default="3,12,21,30")
    ap.add_argument("--chain-length", type=int, default=None,
                    help="the chains' most flops (default: the report's, warm.CHAIN_LENGTH)")
    ap.add_argument("--algo", default="rdcfr")
    ap.add_argument("--target", type=float, default=0.5)
    ap.add_argument("--past", type=int, default=2)
    ap.add_argument("--cap", type=int, default=400)
    ap.add_argument("--schedules", default="auto;fit:10,0,1.02;every:5;every:10;oracle")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--curves", default=None,
                    help="replay the curves of earlier --json outputs (comma-separated)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    from pokerlab.errors import PokerlabError
    from pokerlab.executor import default_backend, map_chunks
    from pokerlab.subgame.flops import parse_flop_set
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.warm import flop_chains

    names = [n.strip() for n in a.schedules.split(";") if n.strip()]
    try:
        scheds = {n: schedule(n) for n in names}
    except ValueError as exc:
        raise fail(f"--schedules: unknown schedule {exc}; auto, every:N, fit:F,A,M or oracle") from None
    if a.curves is not None:
        flops, when, algos = [], [], set()
        for path in a.curves.split(","):
            try:
                old = json.loads(Path(path).read_text())
                flops += old["flops"]
                when.append(old["started"])
                algos.add(old["algo"])
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise fail(f"--curves {path}: not a check_schedule.py --json output ({exc})") from None
        if len(algos) != 1:
            raise fail(f"--curves: recorded with different --algo ({', '.join(sorted(algos))})")
        started, algo = " and ".join(when), algos.pop()
    else:
        try:
            SolveConfig(algo=a.algo)
        except PokerlabError as exc:
            raise fail(str(exc)) from None
        picks = ints(a.chains, "--chains")
        if a.chain_length is not None and a.chain_length < 1:
            raise fail(f"--chain-length must be >= 1, got {a.chain_length}")
        chains = flop_chains(parse_flop_set("184"), *([a.chain_length] if a.chain_length else []))
        if max(picks) >= len(chains):
            raise fail(f"--chains: indices below {len(chains)}")
        jobs = [Chain(tuple(f.board for f in chains[i]), a.algo, a.target, a.past, a.cap) for i in picks]
        started, algo = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), a.algo
        res = map_chunks(record_chain, jobs, backend=default_backend(a.workers, None), workers=a.workers)
        flops = [f for chain in res for f in chain]
    rows = {}
    cfg = SolveConfig(algo=algo)
    for name, sched in scheds.items():
        per = [replay(f, sched, a.target, a.cap, cfg) for f in flops]
        rows[name] = {
            "iterations_mean": statistics.fmean(p["iterations"] for p in per),
            "checks_mean": statistics.fmean(p["checks"] for p in per),
            "cost_mean": statistics.fmean(p["cost"] for p in per),
            "cold_cost_mean": statistics.fmean([p["cost"] for p, f in zip(per, flops, strict=True)
                                                if not f["warm"]] or [math.nan]),
            "warm_cost_mean": statistics.fmean([p["cost"] for p, f in zip(per, flops, strict=True)
                                                if f["warm"]] or [math.nan]),
            "per_flop": [p["iterations"] for p in per]}
    out = {"started": started, "algo": algo, "target_pct": a.target, "flops": flops, "schedules": rows,
           "unit": "iterations per flop (a check counted at its measured cost in iterations)"}
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    ratio = statistics.fmean(f["check_seconds"] / f["iteration_seconds"] for f in flops)
    cold = sum(not f["warm"] for f in flops)
    print(f"{algo}, target {a.target}% of the pot, {len(flops)} flops ({cold} cold); a check costs "
          f"{ratio:.2f} iterations; recorded {started}\n")
    print("| schedule | cost (iterations) | iterations | checks | cold | warm |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, r in rows.items():
        print(f"| {name} | {r['cost_mean']:.1f} | {r['iterations_mean']:.1f} | {r['checks_mean']:.1f} | "
              f"{r['cold_cost_mean']:.1f} | {r['warm_cost_mean']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
