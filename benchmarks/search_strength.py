"""Strength of the searching agent: duplicate matches against the shipped blueprint and
the rule agents, next to the blueprint's own results against them, and the strength per
second of thought (a figure).  Writes docs/search_strength.json and docs/search_strength.png.

    .venv/bin/python benchmarks/search_strength.py --hands 20000 --workers 2
    .venv/bin/python benchmarks/search_strength.py --figure-only   # redraw from the JSON

Rows already in the JSON with the same spec, opponent, hands and seed are kept (so runs
can be added one at a time: --only 'search(ms=1000)').
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
OUT = DOCS / "search_strength.json"

PAIRS = [
    ("search(ms=100)", "blueprint"),
    ("search(ms=100,safe=0)", "blueprint"),
    ("search(ms=100)", "tag"),
    ("blueprint", "tag"),
    ("search(ms=100)", "call"),
    ("blueprint", "call"),
    ("search(ms=100)", "raise"),
    ("blueprint", "raise"),
    ("search(ms=300)", "blueprint"),
    ("search(ms=300,street=turn)", "blueprint"),
    ("search(ms=1000)", "blueprint"),
]


def run_pair(a: str, b: str, hands: int, seed: int, workers: int) -> dict[str, object]:
    from pokerlab.arena import play_match

    t0 = time.perf_counter()
    res = play_match(a, b, hands=hands, duplicate=True, seed=seed, stack_bb=100, workers=workers)
    d = res.to_json()
    row = {"a": a, "b": b, "hands": d["hands"], "seed": seed, "mean_mbb": d["mean_mbb"],
           "ci95_mbb": d["ci95_mbb"], "seconds": time.perf_counter() - t0,
           "hands_per_hour": 3600 * d["hands"] / max(time.perf_counter() - t0, 1e-9),
           "think_ms_p50": (d.get("think_ms_p50") or {}).get("A"),
           "think_ms_p99": (d.get("think_ms_p99") or {}).get("A"),
           "counters": (d.get("counters") or {}).get("A", {})}
    return row


def figure(rows: list[dict[str, object]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = [(r["think_ms_p50"], r["mean_mbb"], r["ci95_mbb"], r["a"]) for r in rows
           if r["b"] == "blueprint" and str(r["a"]).startswith("search") and "safe=0" not in str(r["a"])]
    if not pts:
        return
    pts.sort()
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], fmt="o-", capsize=4)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("think time per searched decision, median (ms)")
    ax.set_ylabel("search vs blueprint (mbb/hand, 95% CI)")
    ax.set_title("Strength per second of thought (100 bb, duplicate)")
    fig.tight_layout()
    fig.savefig(DOCS / "search_strength.png", dpi=120)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--figure-only", action="store_true")
    args = ap.parse_args()
    data = json.loads(OUT.read_text()) if OUT.exists() else {"rows": []}
    rows: list[dict[str, object]] = data["rows"]
    if not args.figure_only:
        for a, b in PAIRS:
            if args.only and a not in args.only and f"{a} {b}" not in args.only:
                continue
            if any(r["a"] == a and r["b"] == b and r["hands"] == args.hands and r["seed"] == args.seed
                   for r in rows):
                continue
            row = run_pair(a, b, args.hands, args.seed, args.workers)
            print(json.dumps({k: v for k, v in row.items() if k != "counters"}), flush=True)
            rows = [r for r in rows if not (r["a"] == a and r["b"] == b)] + [row]
            OUT.write_text(json.dumps({"command": "python benchmarks/search_strength.py", "rows": rows},
                                      indent=1) + "\n")
    figure(rows)
    table(rows)
    return 0


def table(rows: list[dict[str, object]]) -> None:
    from search_safety import write_block

    lines = ["| agent | opponent | hands | mbb/hand | 95% CI | think p50 (ms) | think p99 (ms) "
             "| searched / fallback | hands/hour |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        c = r.get("counters") or {}
        p50 = "" if r.get("think_ms_p50") is None else f"{r['think_ms_p50']:.0f}"
        p99 = "" if r.get("think_ms_p99") is None else f"{r['think_ms_p99']:.0f}"
        sf = ""
        if c.get("searches") is not None:
            sf = f"{int(c.get('searches', 0))} / {int(c.get('fallbacks', 0))}"
        lines.append(f"| `{r['a']}` | {r['b']} | {r['hands']} | {r['mean_mbb']:+.0f} | {r['ci95_mbb']:.0f} "
                     f"| {p50} | {p99} | {sf} | {r['hands_per_hour']:,.0f} |")
    write_block(DOCS / "search.md", "search_strength", "\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
