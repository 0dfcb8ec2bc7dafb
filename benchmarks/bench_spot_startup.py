"""Whole-process wall time of ``pokerlab spot solve`` on a river spot, start-up included.

The goal (issue 50): ``pokerlab spot solve`` of a river spot, the whole process, under 1 s.
The spot is ``bench_spot.py``'s river spot (Td9d6hQc2s, pot 100, stack 400, every hand on
both sides, bets 50%,100%, raises 2.5x, target 0.3% of the pot, one thread). The command
runs ``--runs`` times (after one warm-up run, reported apart: it may compile or load numba
caches) as a fresh process each; reported: the median and the 90th percentile of the wall
times, the part inside the command (its JSON ``seconds``: the spot built and solved) and the
rest (interpreter, imports, argument checks, exit).

When the median is over ``--budget`` (1 s), ``python -X importtime`` of the same command
lists where the start-up goes: the modules of largest cumulative import time and the
top-level packages (numba, numpy, typer, rich, ...) by their total.

Usage: ``python benchmarks/bench_spot_startup.py [--runs N] [--budget S] [--top K] [--json]``.
Exit 1: the command failed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FULL_RANGE = ("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
              "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")
SPOT_ARGS = ["spot", "solve", "--board", "Td9d6hQc2s", "--pot", "100", "--stack", "400",
             "--oop", FULL_RANGE, "--ip", FULL_RANGE, "--bets", "50%,100%", "--raises", "2.5x",
             "--target", "0.3", "--threads", "1", "--json"]


def pokerlab_cmd() -> list[str]:
    script = Path(sys.executable).parent / "pokerlab"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pokerlab.cli"]


def run_once(timeout: float) -> dict[str, Any]:
    """One ``pokerlab spot solve`` process: wall seconds and the command's own seconds."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    t0 = time.perf_counter()
    proc = subprocess.run([*pokerlab_cmd(), *SPOT_ARGS], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env, check=False)
    wall = time.perf_counter() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip().startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip() or "no output").splitlines()[-3:]
        raise RuntimeError(f"pokerlab spot solve exited {proc.returncode}: {' | '.join(tail)}")
    out = json.loads(lines[-1])
    return {"wall": wall, "command": float(out["seconds"]),
            "solve": float(out.get("solve_seconds") or 0.0),
            "iterations": out.get("iterations"), "exploitability_pct": out.get("exploitability_pct")}


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation between order statistics."""
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def parse_importtime(text: str) -> list[tuple[str, int, int]]:
    """``-X importtime`` lines as (module, self us, cumulative us), in import order."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        parts = line[len("import time:"):].split("|")
        if len(parts) != 3:
            continue
        try:
            self_us, cum_us = int(parts[0].strip()), int(parts[1].strip())
        except ValueError:
            continue
        rows.append((parts[2].strip(), self_us, cum_us))
    return rows


def import_offenders(rows: list[tuple[str, int, int]], top: int) -> dict[str, Any]:
    """The modules of largest cumulative import time, and each top-level package's total
    (the sum of its modules' own times)."""
    by_pkg: dict[str, int] = {}
    for name, self_us, _ in rows:
        pkg = name.split(".")[0]
        by_pkg[pkg] = by_pkg.get(pkg, 0) + self_us
    total = sum(s for _, s, _ in rows)
    mods = sorted(rows, key=lambda r: -r[2])[:top]
    pkgs = sorted(by_pkg.items(), key=lambda kv: -kv[1])[:top]
    return {"total_import_seconds": total / 1e6,
            "modules_cumulative_seconds": {n: c / 1e6 for n, _, c in mods},
            "packages_seconds": {p: s / 1e6 for p, s in pkgs}}


def importtime(timeout: float, top: int) -> dict[str, Any]:
    """``python -X importtime`` of the same command (its imports, with the command's own
    function-level imports, which come after the CLI's)."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "pokerlab.cli", *SPOT_ARGS],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env,
                          check=False)
    return import_offenders(parse_importtime(proc.stderr), top)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10, help="timed runs after the warm-up run")
    ap.add_argument("--budget", type=float, default=1.0, help="goal for the median, seconds")
    ap.add_argument("--top", type=int, default=12, help="import offenders listed")
    ap.add_argument("--importtime", action="store_true", help="list import times even under budget")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error("--runs must be >= 1")
    load = os.getloadavg()[0]
    try:
        first = run_once(a.timeout)
        runs = [run_once(a.timeout) for _ in range(a.runs)]
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    walls = [r["wall"] for r in runs]
    outside = [r["wall"] - r["command"] for r in runs]
    med = statistics.median(walls)
    out: dict[str, Any] = {
        "runs": a.runs, "budget_seconds": a.budget,
        "median_seconds": med, "p90_seconds": percentile(walls, 0.9),
        "min_seconds": min(walls), "first_run_seconds": first["wall"],
        "median_command_seconds": statistics.median(r["command"] for r in runs),
        "median_solve_seconds": statistics.median(r["solve"] for r in runs),
        "median_startup_seconds": statistics.median(outside),
        "under_budget": med < a.budget, "iterations": runs[0]["iterations"],
        "exploitability_pct": runs[0]["exploitability_pct"],
        "load_average_start": load, "load_average_end": os.getloadavg()[0],
    }
    if med >= a.budget or a.importtime:
        out["imports"] = importtime(a.timeout, a.top)
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"pokerlab spot solve, river spot, {a.runs} runs (whole process, start-up included):")
    print(f"  median {med:.3f} s, p90 {out['p90_seconds']:.3f} s, min {out['min_seconds']:.3f} s "
          f"(first run {first['wall']:.3f} s); goal < {a.budget:g} s: "
          + ("met" if out["under_budget"] else "NOT met"))
    print(f"  inside the command {out['median_command_seconds']:.3f} s (solve "
          f"{out['median_solve_seconds']:.3f} s); outside it (interpreter, imports, exit) "
          f"{out['median_startup_seconds']:.3f} s; load {load:.1f} -> {out['load_average_end']:.1f}")
    if "imports" in out:
        imp = out["imports"]
        print(f"imports (-X importtime): {imp['total_import_seconds']:.3f} s in all")
        print("  by package: " + ", ".join(f"{p} {s:.3f}" for p, s in imp["packages_seconds"].items()))
        print("  largest cumulative: " + ", ".join(
            f"{m} {s:.3f}" for m, s in imp["modules_cumulative_seconds"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
