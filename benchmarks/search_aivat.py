"""Searching agents against the shipped blueprint, duplicate matches with AIVAT (issue 25).

Each run is ``pokerlab match SPEC blueprint --hands N --duplicate --aivat --stack S --seed
SEED --workers W --json`` (a fixed number of iterations per decision, ``iters=N``, so that
AIVAT's replays are the same match); the match objects are saved in ``--out`` (one JSON
file per run), summarised in ``docs/search_aivat.json`` and written as the table between
``<!-- search_aivat:begin -->`` and ``<!-- search_aivat:end -->`` of docs/search.md.
``--from DIR`` rebuilds the summary and table from the match files of an earlier run.

Usage: ``python benchmarks/search_aivat.py [--runs "SPEC@STACK@SEED;..."] [--hands 20000]
[--workers 1] [--out DIR] [--from DIR] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "search.md"
SUMMARY = ROOT / "docs" / "search_aivat.json"
NAME = "search_aivat"
RUNS = ("search(iters=50,safe=1)@100@31;search(iters=200,safe=1)@100@31;"
        "search(iters=50,safe=1,gadget=bp)@100@31;search(iters=50,safe=0)@100@31;"
        "search(iters=50,safe=1)@200@31;search(iters=50,safe=0)@200@31;"
        "search(iters=50,safe=0)@200@41;search(iters=50,safe=0)@100@51;"
        "search(iters=50,safe=1)@100@51")


def fail(msg: str) -> SystemExit:
    """One line on stderr, exit code 2."""
    print(f"error: {msg}", file=sys.stderr)
    return SystemExit(2)


def parse_runs(text: str) -> list[tuple[str, float, int]]:
    out = []
    for item in text.split(";"):
        item = item.strip()
        if not item:
            continue
        parts = item.split("@")
        if len(parts) != 3:
            raise fail(f"run {item!r} must be SPEC@STACK@SEED")
        try:
            out.append((parts[0], float(parts[1]), int(parts[2])))
        except ValueError:
            raise fail(f"run {item!r}: stack and seed must be numbers") from None
    return out


def play(spec: str, stack: float, seed: int, hands: int, workers: int) -> dict[str, Any]:
    exe = Path(sys.executable).with_name("pokerlab")
    cmd = [str(exe), "match", spec, "blueprint", "--hands", str(hands), "--duplicate", "--aivat",
           "--stack", f"{stack:g}", "--workers", str(workers), "--seed", str(seed), "--json"]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        last = (res.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise fail(f"{' '.join(cmd)} failed: {last}")
    return dict(json.loads(res.stdout))


def row(m: dict[str, Any]) -> dict[str, Any]:
    a = m["counters"]["A"]
    return {"searcher": m["agents"][0], "stack_bb": m["stack_bb"], "seed": m["seed"],
            "hands": m["hands"], "raw_mbb": m["mean_mbb"], "raw_ci95_mbb": m["ci95_mbb"],
            "aivat_mbb": m["aivat_mean_mbb"], "aivat_ci95_mbb": m["aivat_ci95_mbb"],
            "aivat_sd_reduction_vs_duplicate": m["aivat_sd_reduction_vs_duplicate"],
            "think_ms_p50": m["think_ms_p50"]["A"], "think_ms_p99": m["think_ms_p99"]["A"],
            "searches": a.get("searches", 0), "nested": a.get("nested_solves", 0),
            "fallbacks": a.get("fallbacks", 0), "hands_per_second": m["hands_per_second"]}


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| searcher | stack | seed | hands | raw | AIVAT | think p50 / p99 (ms) | "
             "searches / nested / fallbacks | hands/s |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(
            f"| `{r['searcher']}` | {r['stack_bb']:g} bb | {r['seed']} | {r['hands']:,} | "
            f"{r['raw_mbb']:+.0f} +- {r['raw_ci95_mbb']:.0f} | {r['aivat_mbb']:+.0f} +- "
            f"{r['aivat_ci95_mbb']:.0f} | {r['think_ms_p50']:.1f} / {r['think_ms_p99']:.1f} | "
            f"{r['searches']:,.0f} / {r['nested']:,.0f} / {r['fallbacks']:,.0f} | "
            f"{r['hands_per_second']:.0f} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default=RUNS)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="folder for the match files")
    ap.add_argument("--from", dest="src", type=Path, default=None)
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    matches: list[dict[str, Any]] = []
    if a.src is not None:
        files = sorted(a.src.glob("*.json"))
        if not files:
            print(f"error: no match files (*.json) in {a.src}", file=sys.stderr)
            return 2
        for f in files:
            try:
                matches.append(json.loads(f.read_text()))
            except (OSError, ValueError) as exc:
                print(f"error: {f}: not a match JSON file ({exc})", file=sys.stderr)
                return 2
    else:
        runs = parse_runs(a.runs)
        out = a.out or Path(f"search_aivat_{time.strftime('%Y%m%d_%H%M%S')}")
        if out.exists():
            raise fail(f"{out} exists: give a new --out folder (a run never replaces another)")
        out.mkdir(parents=True)
        for i, (spec, stack, seed) in enumerate(runs):
            m = play(spec, stack, seed, a.hands, a.workers)
            (out / f"{i:02d}.json").write_text(json.dumps(m) + "\n")
            matches.append(m)
            print(f"[{spec} at {stack:g} bb, seed {seed} done]", file=sys.stderr)
    try:
        rows = [row(m) for m in matches]
    except (KeyError, TypeError) as exc:
        print(f"error: a match file lacks the AIVAT keys of a searcher's match ({exc})", file=sys.stderr)
        return 2
    text = table(rows)
    print(text)
    if not a.no_write:
        from search_safety import write_block

        SUMMARY.write_text(json.dumps({"command": "python benchmarks/search_aivat.py", "rows": rows},
                                      indent=1) + "\n")
        write_block(DOC, NAME, text)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raise SystemExit(main())
