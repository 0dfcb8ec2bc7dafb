"""The shipped 200 bb blueprint (the ACPC / Slumbot game) against the baselines, and its
LBR at the paper's settings (issue 26).

Duplicate matches at 200 bb, the same commands as

    pokerlab match blueprint-200 OPP --hands N --duplicate --seed S --json

against ``tag``, ``call``, ``raise``, ``random`` and the 100 bb blueprint played at 200 bb by
action translation (``blueprint-100``), and LBR of ``blueprint-200``:

    pokerlab lbr blueprint-200 --actions fc --hands L --seed S --json
    pokerlab lbr blueprint-200 --actions fcpa --from-round 3 --hands L2 --seed S --json

Writes the table between ``<!-- blueprint_200:begin -->`` and ``<!-- blueprint_200:end -->``
of docs/benchmarks.md (``--no-write`` to only print).

Usage: ``python benchmarks/blueprint_200.py [--hands 100000] [--small-hands 20000]
[--lbr-hands 50000] [--lbr-fcpa-hands 10000] [--workers 2] [--seed 3] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
NAME = "blueprint_200"  # the doc block <!-- NAME:begin --> .. <!-- NAME:end -->
AGENT = "blueprint-200"


def run(a: argparse.Namespace) -> dict[str, Any]:
    from pokerlab.arena import play_match, run_lbr

    out: dict[str, Any] = {"load_before": os.getloadavg()[0], "matches": {}, "lbr": {}}
    for opp, n in (("tag", a.hands), ("blueprint-100", a.small_hands), ("call", a.small_hands),
                   ("raise", a.small_hands), ("random", a.small_hands)):
        t = time.perf_counter()
        m = play_match(AGENT, opp, hands=n, duplicate=True, seed=a.seed, stack_bb=200.0,
                       workers=a.workers, warn=lambda _msg: None)
        out["matches"][opp] = {"mbb": m.mean_mbb, "ci95_mbb": m.ci95_mbb, "hands": m.hands,
                               "seconds": round(time.perf_counter() - t, 1)}
    for acts, fr, n in (("fc", 1, a.lbr_hands), ("fcpa", 3, a.lbr_fcpa_hands),
                        ("fcpa", 1, a.lbr_fcpa_hands)):
        r = run_lbr(AGENT, actions=acts, from_round=fr, hands=n, seed=a.seed, stack_bb=200.0,
                    workers=a.workers)
        out["lbr"][f"{acts} from {fr}"] = {"mbb": r.mbb, "ci95_mbb": r.ci95_mbb,
                                           "hands": r.hands, "seconds": round(r.seconds, 1)}
    out["load_after"] = os.getloadavg()[0]
    return out


def table(res: dict[str, Any]) -> str:
    lines = ["| `blueprint-200` against | hands | mbb/hand | 95% CI | seconds |",
             "|---|---:|---:|---:|---:|"]
    for opp, d in res["matches"].items():
        lines.append(f"| `{opp}` | {d['hands']:,} | {d['mbb']:+.0f} | {d['ci95_mbb']:.0f} | "
                     f"{d['seconds']:.0f} |")
    lines += ["", "| LBR of `blueprint-200` | hands | LBR mbb/hand | 95% CI | seconds |",
              "|---|---:|---:|---:|---:|"]
    for k, d in res["lbr"].items():
        lines.append(f"| {k} | {d['hands']:,} | {d['mbb']:+.0f} | {d['ci95_mbb']:.0f} | "
                     f"{d['seconds']:.0f} |")
    lines.append("")
    lines.append(f"Duplicate matches and LBR (both seats) at 200 bb, load average "
                 f"{res['load_before']:.1f} before, {res['load_after']:.1f} after. "
                 "`blueprint-100` plays at 200 bb by action translation.")
    return "\n".join(lines)


def write(text: str) -> None:
    from search_safety import write_block

    write_block(DOC, NAME, text)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--small-hands", type=int, default=20_000)
    ap.add_argument("--lbr-hands", type=int, default=50_000)
    ap.add_argument("--lbr-fcpa-hands", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    res = run(a)
    text = table(res)
    print(json.dumps(res, indent=1) if a.json else text)
    if not a.no_write:
        write(text)


if __name__ == "__main__":
    main()
