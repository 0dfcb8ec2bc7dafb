"""Before/after of the hot paths: this checkout's benchmark scripts against another checkout's,
alternately, in one run.

A redesign that moves kernels (docs/conventions.md) must show that their speed stayed: this
script runs each benchmark of ``--benches`` once per checkout per round, in child processes
that import their own checkout's code ahead of the installed package (``python -S`` with
``PYTHONPATH=CHECKOUT:site-packages``), the two checkouts in alternating order from round to
round (so that neither always runs on a warmer or quieter machine), after one untimed warm-up
run each (numba caches).  Every number of each benchmark's ``--json`` object whose key names a
speed or a time (``per_s``, ``_s``, ``seconds``, ``_ms``, ``time``) is kept; the report gives
each such figure's median over the rounds for both checkouts and the ratio new / old, with a
note of which way is faster (a rate: higher is faster; a time: lower is faster).

Usage: ``python benchmarks/ab_checkouts.py --other OLD_CHECKOUT [--benches solvers,spot,...]
[--rounds 3] [--json]``; ``OLD_CHECKOUT`` is a ``git worktree`` of the commit before.
"""

from __future__ import annotations

import argparse
import json
import os
import site
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: benchmark -> (script, arguments): sizes chosen to finish in a minute or two each.
BENCHES: dict[str, tuple[str, list[str]]] = {
    "solvers": ("bench_solvers.py", ["--target", "1e-3"]),
    "mccfr": ("bench_mccfr.py", ["--seconds", "5", "--pushfold-iterations", "300000"]),
    "spot": ("bench_spot.py", ["--spots", "river,turn", "--threads", "1,2"]),
    "matches": ("bench_matches.py", ["--hands", "200000", "--pk-hands", "50"]),
    "continuation": ("bench_continuation.py", ["--calls", "10"]),
    "pushfold": ("bench_pushfold.py", ["--no-full-lp"]),
    "abstraction": ("bench_abstraction.py", ["--hands", "50000", "--boards", "500"]),
    "holdem": ("bench_holdem.py", ["--hands", "300000", "--py-hands", "3000", "--pk-hands", "20"]),
    "evaluator": ("bench_evaluator.py", ["--hands", "2000000", "--peer-hands", "20000"]),
    "lbr": ("bench_lbr.py", ["--hands", "10", "--lbr-hands", "20", "--aivat-hands", "50",
                             "--before-hands", "5", "--tag-hands", "2"]),
}
SPEED_WORDS = ("per_s", "_s", "seconds", "_ms", "time", "ms_", "_sec")


def speed_leaves(obj: Any, prefix: str = "") -> dict[str, float]:
    """The numeric leaves of ``obj`` whose key names a speed or a time."""
    out: dict[str, float] = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.update(speed_leaves(v, f"{prefix}{k}."))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            label = v.get("name") or v.get("spot") or v.get("game") if isinstance(v, dict) else None
            out.update(speed_leaves(v, f"{prefix}{label or i}."))
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        key = prefix.rstrip(".")
        last = key.rsplit(".", 1)[-1].lower()
        if any(w in last for w in SPEED_WORDS):
            out[key] = float(obj)
    return out


def faster_when(key: str) -> str:
    last = key.rsplit(".", 1)[-1].lower()
    return "higher" if "per_" in last else "lower"


def run_bench(checkout: Path, name: str, timeout: float) -> dict[str, Any]:
    script, extra = BENCHES[name]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(checkout), *site.getsitepackages()])
    env.pop("POKERLAB_PEER_POSTFLOP", None)  # pokerlab's side only: no peer runs
    cmd = [sys.executable, "-S", str(checkout / "benchmarks" / script), *extra, "--json"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=checkout,
                          env=env, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"ok": False, "error": tail[0], "wall_s": wall}
    text = proc.stdout.strip().splitlines()
    doc = json.loads(text[-1]) if text else {}
    return {"ok": True, "figures": speed_leaves(doc), "wall_s": wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--other", required=True, help="the checkout before (a git worktree)")
    ap.add_argument("--benches", default=",".join(BENCHES))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--no-warm", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    other = Path(args.other).resolve()
    names = [n.strip() for n in args.benches.split(",") if n.strip()]
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        sys.exit(f"error: unknown benchmark(s) {unknown}; known: {', '.join(BENCHES)}")
    sides = {"new": ROOT, "old": other}
    report: dict[str, Any] = {"other": str(other), "rounds": args.rounds, "benches": {}}
    for name in names:
        if not args.no_warm:
            for path in sides.values():
                run_bench(path, name, args.timeout)
        runs: dict[str, list[dict[str, float]]] = {"new": [], "old": []}
        errors: list[str] = []
        for r in range(args.rounds):
            order = ("new", "old") if r % 2 == 0 else ("old", "new")
            for side in order:
                res = run_bench(sides[side], name, args.timeout)
                if res["ok"]:
                    runs[side].append(res["figures"])
                else:
                    errors.append(f"{side}: {res['error']}")
        rows = {}
        both = runs["new"] and runs["old"]
        keys = sorted(set().union(*runs["new"]) & set().union(*runs["old"])) if both else []
        for k in keys:
            new = statistics.median(f[k] for f in runs["new"] if k in f)
            old = statistics.median(f[k] for f in runs["old"] if k in f)
            ratio = new / old if old else float("nan")
            better = faster_when(k)
            speed = ratio if better == "higher" else (1 / ratio if ratio else float("nan"))
            rows[k] = {"new": new, "old": old, "new_over_old": ratio, "speed_new_vs_old": speed}
        report["benches"][name] = {"figures": rows, "errors": errors,
                                   "load": os.getloadavg()[0]}
        if not args.json:
            print(f"== {name} (load {os.getloadavg()[0]:.1f})" + (f"  errors: {errors}" if errors else ""))
            for k, row in rows.items():
                print(f"  {k:60s} new {row['new']:12.4g}  old {row['old']:12.4g}  "
                      f"speed new/old {row['speed_new_vs_old']:.3f}")
            sys.stdout.flush()
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
