"""The figures of docs/subgame.md, drawn from fresh solves (nothing is edited by hand).

* ``docs/subgame_convergence.png``: exploitability (% of pot) against solve CPU seconds on
  the benchmark's turn spot for DCFR, CFR+, Linear CFR and vanilla CFR (one thread);
* ``docs/subgame_grid.png``: in-position's strategy after a check on the river spot of
  the benchmark (both ranges all hands), as the 13x13 grid coloured by action mix;
* prints one JSON object with the figures' numbers (iterations and CPU seconds to 0.3% of
  the pot per algorithm; isomorphism's saving in boards and memory on a flop spot).

Usage: python benchmarks/spot_figures.py [--out-dir docs] [--quick]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pokerlab.subgame import SolveConfig, SpotSolver, estimate_size, make_spot, tree_config
from pokerlab.subgame.report import plot_convergence, plot_strategy_grid

OOP = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"
IP = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out-dir", default="docs")
    ap.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    args = ap.parse_args()
    out = Path(args.out_dir)
    iters = 60 if args.quick else 400
    turn = make_spot(board="Td9d6hQc", pot=100, stack=400, oop=OOP, ip=IP,
                     tree=tree_config(bets="50%,100%", raises="2.5x"))
    series = []
    result: dict[str, object] = {"units": "exploitability in % of the pot; seconds are solve CPU seconds"}
    for algo in ("dcfr", "cfr+", "lcfr", "cfr"):
        s = SpotSolver(turn, SolveConfig(algo=algo), threads=1)
        s.solve(iterations=iters, target_pct=0.0, check_every=10)
        series.append((algo, s.history))
        first = next((h for h in s.history if h[2] <= 0.3), None)
        result[algo] = {"iterations_to_0.3pct": None if first is None else first[0],
                        "cpu_seconds_to_0.3pct": None if first is None else round(first[1], 3),
                        "final_pct": s.history[-1][2], "iterations": s.iteration}
    plot_convergence(series, out / "subgame_convergence.png",
                     title="turn Td9d6hQc, pot 100, stack 400, bets 50%/100%, raises 2.5x")
    river = make_spot(board="Td9d6hQc2s", pot=100, stack=400, oop="random", ip="random",
                      tree=tree_config(bets="50%,100%", raises="2.5x"))
    s = SpotSolver(river)
    s.solve(iterations=1000, target_pct=0.1)
    plot_strategy_grid(s.node_report(s.cursor("check")), out / "subgame_grid.png",
                       title="IP after OOP checks, river Td9d6hQc2s (both ranges all hands)")
    flop = make_spot(board="Td9d6h", pot=100, stack=200, oop=OOP, ip=IP,
                     tree=tree_config(flop_bets="33%,75%", turn_bets="50%,100%", river_bets="50%,100%"))
    iso, full = estimate_size(flop, isomorphism=True), estimate_size(flop, isomorphism=False)
    result["isomorphism_flop_Td9d6h"] = {"boards": [list(iso.boards), list(full.boards)],
                                         "memory_bytes": [iso.memory_bytes, full.memory_bytes],
                                         "saving": 1 - iso.memory_bytes / full.memory_bytes}
    mono = make_spot(board="Ts9s6s", pot=100, stack=200, oop=OOP, ip=IP, tree=flop.tree)
    iso, full = estimate_size(mono, isomorphism=True), estimate_size(mono, isomorphism=False)
    result["isomorphism_flop_Ts9s6s"] = {"boards": [list(iso.boards), list(full.boards)],
                                         "memory_bytes": [iso.memory_bytes, full.memory_bytes],
                                         "saving": 1 - iso.memory_bytes / full.memory_bytes}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
