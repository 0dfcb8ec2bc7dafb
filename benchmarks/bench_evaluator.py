"""Evaluator and equity benchmark: pokerlab vs eval7 / phevaluator / treys in one run.

    .venv/bin/python benchmarks/bench_evaluator.py [--hands 4000000] [--json]
    .venv/bin/python benchmarks/bench_evaluator.py --matrix   # also rebuild the 1326x1326 matrix

Reports hands/s of the batch 7-card path (both cores and one), the peers' per-hand rate
from Python on the same hands, their ratios, and the exact preflop enumeration of one
matchup (1,712,304 boards, two 7-card evaluations each) as evaluations/s.
"""

from __future__ import annotations

import argparse
import json
import time

from pokerlab.cards import parse_cards
from pokerlab.cards.bench import run_evaluator_benchmark
from pokerlab.cards.equity import build_matchup_counts, hand_equity


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=4_000_000)
    ap.add_argument("--peer-hands", type=int, default=500_000)
    ap.add_argument("--matrix", action="store_true", help="time the full equity-matrix build")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res = run_evaluator_benchmark(hands=args.hands, peer_hands=args.peer_hands)
    hand_equity([parse_cards("AsKs"), parse_cards("QhQd")])  # compile
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        r = hand_equity([parse_cards("AsKs"), parse_cards("QhQd")])
        best = min(best, time.perf_counter() - t)
    res["enumeration_seconds"] = best
    res["enumeration_evals_per_s"] = 2 * r.boards / best
    e7 = res.get("eval7_per_s")
    res["enumeration_ratio_vs_eval7"] = (2 * r.boards / best) / e7 if isinstance(e7, float) else None
    if args.matrix:
        t = time.perf_counter()
        build_matchup_counts()
        res["matrix_seconds"] = time.perf_counter() - t
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>30}: {v:,.3f}" if isinstance(v, float) else f"{k:>30}: {v}")


if __name__ == "__main__":
    main()
