"""Solver speed: pokerlab's CFR family against OpenSpiel on Leduc poker, same run.

1. Wall time to reach exploitability <= TARGET (default 1e-3) on Leduc:
   ours = the fastest full-width preset (cfr+ and dcfr are tried), timed from a fresh game
   object, *including* building the public tree and every exploitability check made on
   the way; OpenSpiel = ``pyspiel.CFRPlusSolver`` (C++), timing *only* its
   ``evaluate_and_update_policy`` calls (its exploitability checks are not counted).
2. Per-iteration time of every preset against OpenSpiel's C++ solvers (``CFRSolver``,
   ``CFRPlusSolver``) and Python solvers (``cfr``, ``discounted_cfr``).

Usage: python benchmarks/bench_solvers.py [--target 1e-3] [--json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr as os_cfr  # noqa: E402
from open_spiel.python.algorithms import discounted_cfr as os_dcfr  # noqa: E402

from pokerlab.games import load_game  # noqa: E402
from pokerlab.solvers.cfr import PRESETS, CFRSolver  # noqa: E402


def ours_time_to_target(algo: str, target: float) -> tuple[float, int, float]:
    t0 = time.perf_counter()
    solver = CFRSolver(game=load_game("leduc"), config=algo)  # fresh tree build
    step = 10
    while True:
        solver.run(step)
        e = solver.exploitability()
        if e <= target:
            return time.perf_counter() - t0, solver.iteration, e
        if solver.iteration >= 200_000:
            raise RuntimeError(f"{algo} did not reach {target}")


def openspiel_time_to_target(target: float) -> tuple[float, int, float]:
    game = pyspiel.load_game("leduc_poker")
    t0 = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    spent = time.perf_counter() - t0
    it = 0
    while True:
        t1 = time.perf_counter()
        solver.evaluate_and_update_policy()
        spent += time.perf_counter() - t1
        it += 1
        if it >= 300 or it % 10 == 0:  # checks are free for the peer
            e = pyspiel.exploitability(game, solver.average_policy())
            if e <= target:
                return spent, it, e
        if it > 100_000:
            raise RuntimeError("OpenSpiel did not reach the target")


def per_iteration() -> dict[str, Any]:
    game = load_game("leduc")
    osg = pyspiel.load_game("leduc_poker")
    out: dict[str, Any] = {}
    for algo in PRESETS:
        s = CFRSolver(game=game, config=algo)
        s.run(5)  # warm
        n = 2000
        t0 = time.perf_counter()
        s.run(n)
        out[f"ours/{algo}"] = (time.perf_counter() - t0) / n
    for name, make in [("cfr", pyspiel.CFRSolver), ("cfr+", pyspiel.CFRPlusSolver)]:
        s = make(osg)
        s.evaluate_and_update_policy()
        n = 20
        t0 = time.perf_counter()
        for _ in range(n):
            s.evaluate_and_update_policy()
        out[f"openspiel-cpp/{name}"] = (time.perf_counter() - t0) / n
    py = {
        "cfr": lambda: os_cfr.CFRSolver(osg),
        "cfr-sim": lambda: os_cfr._CFRSolver(osg, alternating_updates=False,
                                             linear_averaging=False,
                                             regret_matching_plus=False),
        "cfr+": lambda: os_cfr.CFRPlusSolver(osg),
        "lcfr": lambda: os_dcfr.LCFRSolver(osg),
        "dcfr": lambda: os_dcfr.DCFRSolver(osg),
    }
    for name, mk in py.items():
        s = mk()
        n = 2
        t0 = time.perf_counter()
        for _ in range(n):
            s.evaluate_and_update_policy()
        out[f"openspiel-python/{name}"] = (time.perf_counter() - t0) / n
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--target", type=float, default=1e-3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    # warm numba caches (not timed)
    w = CFRSolver(game=load_game("kuhn"), config="cfr+")
    w.run(2)
    w.exploitability()

    ours: dict[str, Any] = {}
    for algo in ("cfr+", "dcfr"):
        secs, its, e = ours_time_to_target(algo, args.target)
        ours[algo] = {"seconds": secs, "iterations": its, "exploitability": e}
    best = min(ours, key=lambda a: ours[a]["seconds"])
    os_secs, os_its, os_e = openspiel_time_to_target(args.target)
    per_it = per_iteration()
    ratios = {}
    for algo in PRESETS:
        mine = per_it[f"ours/{algo}"]
        for peer in ("openspiel-cpp", "openspiel-python"):
            key = f"{peer}/{algo}"
            if key in per_it:
                ratios[f"{algo} vs {peer}"] = per_it[key] / mine
    result = {
        "target": args.target,
        "ours_time_to_target": ours,
        "ours_fastest": best,
        "openspiel_cfr_plus_time_to_target": {"seconds": os_secs, "iterations": os_its,
                                              "exploitability": os_e},
        "time_to_target_speedup": os_secs / ours[best]["seconds"],
        "per_iteration_seconds": per_it,
        "per_iteration_speedup": ratios,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"Leduc, time to exploitability <= {args.target:g}")
    for algo, r in ours.items():
        print(f"  pokerlab {algo:5s}: {r['seconds']:.3f} s, {r['iterations']} it "
              f"(incl. tree build and checks)")
    print(f"  OpenSpiel C++ CFRPlusSolver: {os_secs:.3f} s, {os_its} it (iterations only)")
    print(f"  speed-up (pokerlab {best} vs OpenSpiel C++ CFR+): "
          f"{result['time_to_target_speedup']:.1f}x")
    print("Per-iteration time (Leduc)")
    for k, v in per_it.items():
        print(f"  {k:28s} {v * 1e3:10.3f} ms")
    for k, v in ratios.items():
        print(f"  {k:35s} {v:10.1f}x")


if __name__ == "__main__":
    main()
