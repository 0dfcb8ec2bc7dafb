"""A/B of the spot solver's thread scaling: this checkout against another one, alternately.

Each round runs one child process per checkout (the other checkout's code imported ahead
of the installed package: ``python -S`` with ``PYTHONPATH=OTHER:site-packages``); a child
builds the ``--spot`` of benchmarks/bench_spot.py, warms the kernels, then solves a fixed
number of iterations (no exploitability checks) on 1 and on 2 threads and prints wall and
CPU seconds.  The speed-up is wall(1 thread) / wall(2 threads) in the same child; both
checkouts see the same machine within a round, so compare them round by round.

Usage: ``python benchmarks/bench_spot_ab.py --other DIR [--spot turn] [--iterations 60]
[--rounds 3] [--json]``.  ``--child`` is the worker (internal).
"""

from __future__ import annotations

import argparse
import json
import os
import site
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(spot_name: str, iterations: int) -> dict[str, object]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_spot import SPOTS

    import pokerlab
    from pokerlab.subgame.solver import SpotSolver
    from pokerlab.subgame.spot import make_spot, tree_config

    sp = SPOTS[spot_name]
    tc = tree_config(flop_bets=sp.flop_bets, turn_bets=sp.turn_bets, river_bets=sp.river_bets,
                     raises=sp.raises, allin_threshold=sp.allin_threshold, force_allin=sp.force_allin)
    spot = make_spot(board=sp.board, pot=sp.pot, stack=sp.stack, oop=sp.oop, ip=sp.ip, tree=tc)
    out: dict[str, object] = {"code": str(Path(pokerlab.__file__).parent.parent), "spot": spot_name,
                              "iterations": iterations}
    for threads in (1, 2):
        s = SpotSolver(spot, threads=threads)
        s.solve(iterations=2, target_pct=None)  # kernels, thread pool and work areas ready
        c, w = time.process_time(), time.perf_counter()
        s.solve(iterations=2 + iterations, target_pct=None)
        out[f"wall_{threads}"] = time.perf_counter() - w
        out[f"cpu_{threads}"] = time.process_time() - c
        out[f"ev_{threads}"] = s.values()[0]
    out["speedup"] = float(out["wall_1"]) / float(out["wall_2"])  # type: ignore[arg-type]
    return out


def run(code: Path | None, spot: str, iterations: int) -> dict[str, object]:
    env = dict(os.environ)
    cmd = [sys.executable]
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code), *site.getsitepackages()])
        cmd.append("-S")
    cmd += [str(Path(__file__).resolve()), "--child", "--spot", spot, "--iterations", str(iterations)]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(code or ROOT),
                         check=True)
    return dict(json.loads(res.stdout.strip().splitlines()[-1]))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--other", type=Path, help="the other checkout (a git worktree)")
    ap.add_argument("--spot", default="turn")
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", action="store_true")
    a = ap.parse_args()
    if a.child:
        print(json.dumps(child(a.spot, a.iterations)))
        return 0
    if a.other is None:
        ap.error("--other DIR is required")
    rows = []
    for r in range(a.rounds):
        for label, code in (("this", None), ("other", a.other.resolve())):
            d = run(code, a.spot, a.iterations)
            d.update(round=r, checkout=label, load=os.getloadavg()[0])
            rows.append(d)
            if not a.json:
                print(f"round {r} {label:5s} 1 thread {d['wall_1']:.2f} s wall / {d['cpu_1']:.2f} CPU-s; "
                      f"2 threads {d['wall_2']:.2f} s / {d['cpu_2']:.2f} CPU-s; speed-up "
                      f"{d['speedup']:.2f}x (load {d['load']:.1f})", flush=True)
    if a.json:
        print(json.dumps({"rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
