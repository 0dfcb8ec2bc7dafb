"""The hand review's flop spots solved with plain DCFR and with restarted DCFR (``rdcfr``).

The review (``pokerlab review``, docs/review.md) solves one flop spot per hand with a fixed
iteration cap; this script takes the flop spots of the first ``--hands`` heads-up hands of
the shipped Pluribus file (both players reviewed, the review's own trees and ranges) and
solves each with every ``ALGO@ITERATIONS/CHECK_EVERY`` of ``--runs`` on one thread: the
exploitability reached (% of the pot) and the CPU seconds, per spot and in total.

Usage: ``python benchmarks/review_algos.py [--hands 6] [--runs dcfr@40/10,rdcfr@35/20] [--json]``
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HANDS_FILE = ROOT / "tests" / "data" / "hands" / "pluribus.phhs.xz"


def flop_spots(n_hands: int) -> list[Any]:
    """The flop spots the review solves for the first ``n_hands`` reviewable hands."""
    from pokerlab.hands.hand_files import iter_paths
    from pokerlab.hands.model import RawHand
    from pokerlab.hands.review import heads_up_from_flop
    from pokerlab.hands.review_ranges import PRESETS
    from pokerlab.hands.review_spot import ReviewConfig, flop_ranges, hand_line, score_hand

    spots: list[Any] = []
    cfg = ReviewConfig(iterations=1)

    def grab(spot: Any) -> Any:
        if len(spot.board) == 3:
            spots.append(spot)
        raise _Enough

    class _Enough(Exception):
        pass

    for h in iter_paths([str(HANDS_FILE)]):
        if len(spots) >= n_hands:
            break
        if not isinstance(h, RawHand) or not heads_up_from_flop(h, None):
            continue
        try:
            line = hand_line(h)
            r0, r1, _ = flop_ranges(line, dict(PRESETS))
            score_hand(line, set(line.seats), grab, cfg, (r0, r1))
        except _Enough:
            continue
        except Exception:  # noqa: BLE001 - a hand the review skips is skipped here too
            continue
    return spots


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--runs", default="dcfr@40/10,rdcfr@35/20")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    runs = []
    for item in a.runs.split(","):
        algo, rest = item.split("@")
        its, every = rest.split("/")
        runs.append((algo, int(its), int(every), item))
    rows = []
    totals = {r[3]: {"cpu_s": 0.0, "pct": 0.0} for r in runs}
    spots = flop_spots(a.hands)
    for sp in spots:
        row: dict[str, Any] = {"board": sp.board_str(),
                               "combos": [int((sp.ranges[p] > 0).sum()) for p in (0, 1)]}
        for algo, its, every, name in runs:
            s = SpotSolver(sp, SolveConfig(algo=algo), threads=1)
            c0 = time.process_time()
            pct = s.solve(iterations=its, target_pct=1.0, check_every=every)
            cpu = time.process_time() - c0
            row[name] = {"exploitability_pct": pct, "cpu_s": cpu}
            totals[name]["cpu_s"] += cpu
            totals[name]["pct"] += pct / len(spots)
        rows.append(row)
        if not a.json:
            print(row["board"], row["combos"], "  ".join(
                f"{n}: {row[n]['exploitability_pct']:.2f}% {row[n]['cpu_s']:.1f}s" for *_, n in runs),
                flush=True)
    out = {"spots": rows, "totals": totals, "units": "exploitability in % of the pot, CPU seconds"}
    if a.json:
        print(json.dumps(out))
    else:
        for n, t in totals.items():
            print(f"{n}: mean exploitability {t['pct']:.2f}% of the pot, CPU {t['cpu_s']:.1f} s")


if __name__ == "__main__":
    main()
