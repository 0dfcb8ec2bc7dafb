"""Time of ``pokerlab spot report`` on a single-raised-pot template over the 184-flop set.

The goal (issue 50): the 184-flop report of a single-raised-pot template (one flop bet size,
two turn and two river sizes) solved to 0.5% of the pot within 30 minutes on a 2-core
machine, and linear in workers on a Ray cluster.

The template (every part can be changed by an option):

* ranges ``--ranges docs`` (default): the single-raised-pot ranges of postflop-solver's
  README that ``bench_spot.py`` uses (OOP ``66+,A8s+,...``, IP ``QQ-22,AQs-A2s,...``), with
  ``--pot 10 --stack 95`` as docs/subgame.md's report example; ``--ranges blueprint``: the
  shipped 100 bb blueprint's preflop line ``SB raise 2.5bb, BB call``
  (``pokerlab.blueprint.charts``: the big blind out of position, the button in position,
  pot 500 and stack 9,750 in the blueprint's chips, 100 a big blind), hands under
  ``--min-weight`` dropped (the blueprint's ranges hold nearly every hand at a small weight);
* bets ``--flop-bets 33%``, ``--turn-bets 50%,100%``, ``--river-bets 50%,100%``, raises
  ``--raises 2.5x`` (``--raise-cap`` 0: no cap), ``spot solve``'s all-in rules;
* ``--target 0.5`` % of the pot, ``--iterations 1000`` at most per flop.

``--flops N`` (default 184) solves the whole 184-flop set, or for N < 184 a systematic sample
of it, and projects the time of all 184: ``projected_seconds_184`` = 184 x the mean seconds
of one flop / the flops solved at once (``min(workers, N)``), plus the command's fixed cost
(start-up, memory check, the workers' uneven finish), so ``--flops 5`` is a quick estimate.
A report warm-starts each flop from a solved flop of the same shape in chains of neighbours
(``pokerlab.subgame.warm``), so the sample is whole chains of the 184-flop set's, every k-th,
until they hold at least N flops: it starts as large a share of its flops cold as the whole
set does.  ``--cold`` measures the report without warm starts on the same flops.
``--workers`` is passed to ``spot report`` (default: every
core); ``--ray-address`` runs the report on a Ray cluster.

``--ray-nodes K`` instead starts, for each w of 1, 2, ..., K, a local Ray cluster of w nodes
with one CPU each (``ray.cluster_utils.Cluster``: the same ``ray start`` processes as a
user's head and worker nodes, stopped by their own handles after the run) and runs the report
on it: flops per second per node count and the speed-up over one node (linear: w). A fresh
cluster per count, because the executor hands a cluster every flop at once: its CPUs, not
``--workers``, bound the flops solved at once.
On this 2-core machine only an idle machine gives a meaningful speed-up.

Usage: ``python benchmarks/bench_spot_report.py [--flops N] [--workers W] [--ray-nodes K]
[--ranges docs|blueprint] [--pot P --stack S ...] [--target PCT] [--algo A] [--check-every N|auto]
[--cold] [--timeout S] [--json]``.
Exit 1: the report failed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SET_SIZE = 184
GOAL_SECONDS = 1800.0
SRP_OOP = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"
SRP_IP = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"
BLUEPRINT_LINE = "SB raise 2.5bb, BB call"


class ReportError(RuntimeError):
    """``pokerlab spot report`` failed or printed no JSON."""


def sample_boards(n: int, chains: bool = False) -> list[str]:
    """The 184-flop set (n >= 184), or every 184/n-th flop of it in its own order; with
    ``chains`` (a report that warm-starts), whole chains of the set's (``warm.flop_chains``),
    every k-th, until they hold at least n flops, so that the sample starts as many flops
    cold as the whole set does."""
    from pokerlab.subgame.flops import parse_flop_set
    from pokerlab.subgame.warm import flop_chains

    flops = parse_flop_set(str(SET_SIZE))
    if n >= len(flops):
        return [f.board for f in flops]
    if not chains:
        return [flops[int((i + 0.5) * len(flops) / n)].board for i in range(n)]
    every = flop_chains(flops)
    for k in range(1, len(every) + 1):
        picked = [every[int((i + 0.5) * len(every) / k)] for i in range(k)]
        if sum(len(c) for c in picked) >= n:
            break
    return [f.board for c in picked for f in c]


def blueprint_ranges(min_weight: float) -> dict[str, Any]:
    """Pot, stack, big blind and both ranges of the shipped blueprint's SRP line."""
    from pokerlab.blueprint.charts import charts_json, preflop_charts

    lines = charts_json(preflop_charts(100.0), grids=False)["flop_lines"]
    line = next((f for f in lines if f["line"] == BLUEPRINT_LINE), None)
    if line is None:
        raise ReportError(f"the blueprint has no preflop line {BLUEPRINT_LINE!r}")

    def prune(text: str) -> str:
        keep = []
        for part in text.split(","):
            hand, _, w = part.strip().partition(":")
            if float(w or 1.0) >= min_weight:
                keep.append(part.strip())
        return ",".join(keep)

    return {"pot": line["pot"], "stack": line["stack"], "big_blind": line["big_blind"],
            "oop": prune(line["oop"]), "ip": prune(line["ip"]), "line": BLUEPRINT_LINE}


def pokerlab_cmd() -> list[str]:
    script = Path(sys.executable).parent / "pokerlab"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pokerlab.cli"]


def report_args(a: argparse.Namespace, tpl: dict[str, Any]) -> list[str]:
    """The ``spot report`` options of the template (ranges as text: ``spot report`` reads no
    @FILE)."""
    return ["--pot", str(tpl["pot"]), "--stack", str(tpl["stack"]),
            "--big-blind", str(tpl["big_blind"]), "--oop", tpl["oop"], "--ip", tpl["ip"],
            "--flop-bets", a.flop_bets, "--turn-bets", a.turn_bets, "--river-bets", a.river_bets,
            "--raises", a.raises, "--raise-cap", str(a.raise_cap), "--target", str(a.target),
            "--iterations", str(a.iterations), "--algo", a.algo, "--check-every", a.check_every,
            *(["--cold"] if a.cold else [])]


def run_report(boards: list[str], template_args: list[str], workers: int | None,
               ray_address: str | None, timeout: float) -> dict[str, Any]:
    """One ``pokerlab spot report --json`` process: its JSON plus the process's wall and CPU
    seconds (children's rusage: with the process backend, its workers included)."""
    cmd = [*pokerlab_cmd(), "spot", "report", "--flops", ",".join(boards), *template_args,
           "--json"]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    if ray_address is not None:
        cmd += ["--ray-address", ray_address]
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                              env=env, check=False)
    except subprocess.TimeoutExpired as exc:
        raise ReportError(f"spot report timed out after {timeout:g} s") from exc
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip().startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip() or proc.stdout.strip() or "no output").splitlines()[-3:]
        raise ReportError(f"spot report exited {proc.returncode}: {' | '.join(tail)}")
    out: dict[str, Any] = json.loads(lines[-1])
    out["process_wall_seconds"] = wall
    out["process_cpu_seconds"] = ((after.ru_utime + after.ru_stime)
                                  - (before.ru_utime + before.ru_stime))
    out["load_average"] = load
    return out


def summarize(res: dict[str, Any], n: int, workers: int) -> dict[str, Any]:
    """Seconds per flop and the projected time of all 184 flops."""
    rows = res["flops"]
    per_flop = [float(r["solve_seconds"]) for r in rows]
    lanes = max(1, min(workers, n))
    solving = sum(per_flop) / lanes
    fixed = max(0.0, res["process_wall_seconds"] - solving)
    projected = SET_SIZE * statistics.fmean(per_flop) / lanes + fixed
    return {
        "flops": n, "workers": workers, "backend": res.get("backend"),
        "seconds": res["process_wall_seconds"], "report_seconds": res.get("seconds"),
        "cpu_seconds": res["process_cpu_seconds"],
        "seconds_per_flop": res["process_wall_seconds"] / n,
        "flop_solve_seconds_mean": statistics.fmean(per_flop),
        "flop_solve_seconds_max": max(per_flop),
        "flops_per_second": n / res["process_wall_seconds"],
        "fixed_seconds": fixed,
        "projected_seconds_184": projected if n < SET_SIZE else res["process_wall_seconds"],
        "projected_minutes_184": (projected if n < SET_SIZE else res["process_wall_seconds"]) / 60,
        "within_30_minutes": (projected if n < SET_SIZE else res["process_wall_seconds"])
        <= GOAL_SECONDS,
        "iterations_mean": statistics.fmean(float(r["iterations"]) for r in rows),
        "warm_started": sum(1 for r in rows if r.get("warm_from")),
        "exploitability_pct_max": max(float(r["exploitability_pct"]) for r in rows),
        "all_reached_target": all(bool(r["target_reached"]) for r in rows),
        "memory_bytes_max": max(int(r["memory_bytes"]) for r in rows),
        "load_average": res["load_average"],
    }


@contextmanager
def local_cluster(nodes: int) -> Iterator[str]:
    """A Ray cluster of ``nodes`` nodes with one CPU each on this machine; its address."""
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        for _ in range(nodes - 1):
            c.add_node(num_cpus=1)
        c.wait_for_nodes()
        yield str(c.address)
    finally:
        c.shutdown()


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flops", type=int, default=SET_SIZE,
                    help="flops to solve: 184 (the set) or a sample of it, projected to 184")
    ap.add_argument("--workers", type=int, default=None, help="spot report --workers")
    ap.add_argument("--ray-address", default=None, help="spot report --ray-address")
    ap.add_argument("--ray-nodes", type=int, default=0,
                    help="run the report on local Ray clusters of 1..K one-CPU nodes (flops per "
                         "second per node count)")
    ap.add_argument("--ranges", choices=("docs", "blueprint"), default="docs")
    ap.add_argument("--min-weight", type=float, default=0.01,
                    help="--ranges blueprint: drop hands of a smaller weight")
    ap.add_argument("--pot", type=float, default=None, help="default 10 (docs), 500 (blueprint)")
    ap.add_argument("--stack", type=float, default=None, help="default 95 (docs), 9750 (blueprint)")
    ap.add_argument("--flop-bets", default="33%")
    ap.add_argument("--turn-bets", default="50%,100%")
    ap.add_argument("--river-bets", default="50%,100%")
    ap.add_argument("--raises", default="2.5x")
    ap.add_argument("--raise-cap", type=int, default=0)
    ap.add_argument("--target", type=float, default=0.5, help="exploitability, %% of the pot")
    ap.add_argument("--iterations", type=int, default=1000, help="most iterations per flop")
    ap.add_argument("--algo", default="rdcfr", help="spot report --algo (its default: rdcfr)")
    ap.add_argument("--check-every", default="auto", help="spot report --check-every (its default: auto)")
    ap.add_argument("--cold", action="store_true",
                    help="spot report --cold: no warm starts (the same sample of whole chains)")
    ap.add_argument("--timeout", type=float, default=7200.0, help="seconds per report")
    ap.add_argument("--json", action="store_true")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    a = ap.parse_args(argv)
    if a.flops < 1:
        ap.error("--flops must be >= 1")
    if a.workers is not None and a.workers < 1:
        ap.error("--workers must be >= 1")
    if a.ray_nodes < 0 or (a.ray_nodes and a.ray_address):
        ap.error("--ray-nodes starts its own cluster: give it or --ray-address, not both")
    if a.ranges == "blueprint":
        tpl = blueprint_ranges(a.min_weight)
    else:
        tpl = {"pot": 10, "stack": 95, "big_blind": 1, "oop": SRP_OOP, "ip": SRP_IP}
    tpl.update({k: v for k, v in (("pot", a.pot), ("stack", a.stack)) if v is not None})
    boards = sample_boards(a.flops, chains=True)
    n = len(boards)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    out: dict[str, Any] = {
        "template": {"ranges": a.ranges, "pot": tpl["pot"], "stack": tpl["stack"],
                     "big_blind": tpl["big_blind"], "flop_bets": a.flop_bets,
                     "turn_bets": a.turn_bets, "river_bets": a.river_bets, "raises": a.raises,
                     "raise_cap": a.raise_cap, "target_pct": a.target, "iterations": a.iterations,
                     "algo": a.algo, "check_every": a.check_every, "warm": not a.cold,
                     **({"line": tpl["line"], "min_weight": a.min_weight}
                        if a.ranges == "blueprint" else {})},
        "flop_count": n, "boards": boards, "cpu_count": cores, "goal_seconds": GOAL_SECONDS,
    }
    try:
        targs = report_args(a, tpl)
        if a.ray_nodes:
            # a fresh cluster of w one-CPU nodes per run: the executor hands a cluster every
            # flop at once, so w nodes (not --workers) is what bounds the flops solved at once
            runs: dict[str, Any] = {}
            for w in range(1, a.ray_nodes + 1):
                with local_cluster(w) as address:
                    res = run_report(boards, targs, w, address, a.timeout)
                runs[f"workers_{w}"] = summarize(res, n, w)
                if not a.json:
                    print(f"[ray, {w} node(s) done]", file=sys.stderr, flush=True)
            base = runs["workers_1"]["flops_per_second"]
            for w in range(1, a.ray_nodes + 1):
                r = runs[f"workers_{w}"]
                r["speedup_over_1_worker"] = r["flops_per_second"] / base
            out.update(ray_nodes=a.ray_nodes, ray=runs)
        else:
            workers = a.workers if a.workers is not None else cores
            res = run_report(boards, targs, workers, a.ray_address, a.timeout)
            out.update(summarize(res, n, workers))
    except ReportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"template: {json.dumps(out['template'])}")
    print(f"flops: {n} ({', '.join(boards[:8])}{', ...' if n > 8 else ''})")
    if a.ray_nodes:
        print(f"{'workers':>7} {'seconds':>8} {'flops/s':>8} {'speed-up':>8} {'load':>5}")
        for w in range(1, a.ray_nodes + 1):
            r = out["ray"][f"workers_{w}"]
            print(f"{w:>7} {r['seconds']:8.1f} {r['flops_per_second']:8.4f} "
                  f"{r['speedup_over_1_worker']:8.2f} {r['load_average']:5.1f}")
        return 0
    print(f"workers {out['workers']} ({out['backend']}): {out['seconds']:.1f} s wall, "
          f"{out['cpu_seconds']:.1f} CPU s, {out['seconds_per_flop']:.1f} s per flop "
          f"(one flop's solve: mean {out['flop_solve_seconds_mean']:.1f} s, "
          f"max {out['flop_solve_seconds_max']:.1f} s; fixed {out['fixed_seconds']:.1f} s)")
    print(f"iterations mean {out['iterations_mean']:.0f} ({out['warm_started']} of {n} flops warm-started), "
          f"exploitability max "
          f"{out['exploitability_pct_max']:.3f}% (target {a.target}%: "
          f"{'reached' if out['all_reached_target'] else 'NOT reached'} on every flop), "
          f"memory max {out['memory_bytes_max'] / 1e6:.0f} MB, load {out['load_average']:.1f}")
    label = "projected for 184 flops" if n < SET_SIZE else "184 flops"
    print(f"{label}: {out['projected_minutes_184']:.1f} min "
          f"({'within' if out['within_30_minutes'] else 'over'} the 30-minute goal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
