"""Searching agents against the shipped blueprint, duplicate matches with AIVAT (issue 25).

Each run is ``pokerlab match SPEC blueprint --hands N --duplicate --aivat --stack S --seed
SEED --workers W --json`` (a fixed number of iterations per decision, ``iters=N``, so that
AIVAT's replays are the same match); the match objects are saved in ``--out`` (one JSON
file per run), summarised in ``docs/search_aivat.json`` and written as the table between
``<!-- search_aivat:begin -->`` and ``<!-- search_aivat:end -->`` of docs/search.md.
``--from DIR[,DIR...]`` rebuilds the summary and table from the match files of earlier runs;
``--append`` keeps the rows already in the summary.  Seeds of the same searcher and stack
are also pooled (hands-weighted mean, 95% CI).

Usage: ``python benchmarks/search_aivat.py [--runs "SPEC@STACK@SEED;..."] [--hands 20000]
[--workers 1] [--out DIR] [--from DIR[,DIR]] [--append] [--no-write]``
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


def pooled(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (searcher, stack) with more than one seed: the hands-weighted mean of the seeds and
    its 95% CI (independent deals: half-widths combine as the root of the sum of squares,
    each weighted by its share of the hands)."""
    groups: dict[tuple[str, float], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["searcher"], float(r["stack_bb"])), []).append(r)
    out = []
    for (searcher, stack), rs in groups.items():
        if len(rs) < 2:
            continue
        n = sum(r["hands"] for r in rs)
        entry: dict[str, Any] = {"searcher": searcher, "stack_bb": stack, "seeds": [r["seed"] for r in rs],
                                 "hands": n}
        for key in ("raw", "aivat"):
            entry[f"{key}_mbb"] = sum(r[f"{key}_mbb"] * r["hands"] for r in rs) / n
            entry[f"{key}_ci95_mbb"] = sum((r[f"{key}_ci95_mbb"] * r["hands"]) ** 2 for r in rs) ** 0.5 / n
        out.append(entry)
    return out


def pooled_table(groups: list[dict[str, Any]]) -> str:
    lines = ["| searcher | stack | seeds | hands | raw | AIVAT |", "|---|---:|---|---:|---:|---:|"]
    for g in groups:
        seeds = ", ".join(str(x) for x in g["seeds"])
        lines.append(f"| `{g['searcher']}` | {g['stack_bb']:g} bb | {seeds} | "
                     f"{g['hands']:,} | {g['raw_mbb']:+.0f} +- {g['raw_ci95_mbb']:.0f} | "
                     f"{g['aivat_mbb']:+.0f} +- {g['aivat_ci95_mbb']:.0f} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default=RUNS)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="folder for the match files")
    ap.add_argument("--from", dest="src", type=Path, default=None)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--append", action="store_true",
                    help="keep the rows already in docs/search_aivat.json (a new run of the same "
                         "searcher, stack and seed replaces its row)")
    a = ap.parse_args()
    matches: list[dict[str, Any]] = []
    if a.src is not None:
        files = sorted(f for d in str(a.src).split(",") for f in Path(d).glob("*.json"))
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
    if a.append:
        try:
            old_rows = json.loads(SUMMARY.read_text())["rows"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"error: --append: cannot read the rows of {SUMMARY} ({exc})", file=sys.stderr)
            return 2
        key = ("searcher", "stack_bb", "seed")
        new_keys = {tuple(r[k] for k in key) for r in rows}
        rows = [r for r in old_rows if tuple(r[k] for k in key) not in new_keys] + rows
    groups = pooled(rows)
    text = table(rows)
    if groups:
        text += ("\n\nSeeds together (the same searcher and stack; hands-weighted means, 95% CI):\n\n"
                 + pooled_table(groups))
    print(text)
    if not a.no_write:
        from search_safety import write_block

        SUMMARY.write_text(json.dumps({"command": "python benchmarks/search_aivat.py", "rows": rows,
                                       "pooled": groups}, indent=1) + "\n")
        write_block(DOC, NAME, text)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    raise SystemExit(main())
