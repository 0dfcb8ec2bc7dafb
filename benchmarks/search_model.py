"""The searching agent with an opponent model against the rule agents (issue 25).

For each opponent X (``call``, ``raise``, ``tag``):

1. **history**: ``pokerlab match blueprint X --hands H --duplicate --stack 100 --seed SH
   --out DIR/X.phhs`` (the opponent's play as a user would log it);
2. **model**: ``pokerlab opponent model DIR/X.phhs --player B-X --out DIR/X_model.npz`` (the
   Dirichlet posterior on the blueprint's tree, docs/exploitation.md);
3. **matches** on fresh deals (seed S, so every agent below meets the same cards and the
   same opponent seeds): ``blueprint``, ``search(iters=I)`` (ranges through the blueprint),
   ``search(iters=I,model=policy:DIR/X_model.npz,lock=1)`` (the learned model: ranges through
   it, its decisions locked in every subgame), ``search(iters=I,learn=N,lock=1)`` (the model
   learned during the match itself, refitted every N hands from the prior blueprint; each
   worker process's half of the match learns on its own) and, with ``--exact``, the same with the rule
   agent itself as the model (``model=X``) against X; every match ``--duplicate --stack 100``.

Every row gives mbb/hand with a 95% CI over the duplicate deal pairs, and the difference
to ``blueprint`` paired over the same deal pairs (the search only changes river play, so
the pairing removes most of the card luck).  Rewrites the section between
``<!-- search_model:begin -->`` and ``<!-- search_model:end -->`` of docs/search.md and
``docs/search_model.json``.

Usage: ``python benchmarks/search_model.py [--opponents call,raise,tag] [--hands 4000]
[--history-hands 20000] [--iters 50] [--seed 91] [--history-seed 81] [--workers 2]
[--learn 100] [--stack 100|200] [--exact] [--out DIR] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "search.md"
SUMMARY = ROOT / "docs" / "search_model.json"
NAME = "search_model"


def fail(msg: str) -> SystemExit:
    print(f"error: {msg}", file=sys.stderr)
    return SystemExit(2)


def pairs_mbb(chips: np.ndarray, big_blind: float) -> np.ndarray:
    """mbb/hand per duplicate deal pair (the two seats of one deal are adjacent hands)."""
    x = np.asarray(chips, dtype=np.float64) / big_blind * 1000.0
    if x.size % 2:
        raise fail("a duplicate match has an even number of hands")
    return x.reshape(-1, 2).mean(axis=1)


def ci95(x: np.ndarray) -> float:
    return float(1.96 * x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else float("nan")


def load() -> float:
    return float(os.getloadavg()[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponents", default="call,raise,tag")
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--history-hands", type=int, default=20000)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--seed", type=int, default=91)
    ap.add_argument("--history-seed", type=int, default=81)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--learn", type=int, default=100,
                    help="also the searcher that learns its model in the match, refitting every N hands "
                         "(0: not)")
    ap.add_argument("--exact", action="store_true", help="also the rule agent itself as the model")
    ap.add_argument("--out", default="runs/search_model")
    ap.add_argument("--stack", type=int, default=100, choices=(100, 200),
                    help="big blinds (the shipped blueprint of that stack is the prior; 200 writes "
                         "docs/search_model_200.json and the search_model_200 section)")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args(argv)
    if a.hands < 2 or a.hands % 2 or a.history_hands < 2:
        raise fail("--hands must be even and >= 2, --history-hands >= 2")
    from pokerlab.arena.matches import play_match
    from pokerlab.opponents.hunl_model import default_base_path
    from pokerlab.registry import MORE_BLUEPRINT_FILES, PACKAGE_DATA
    from pokerlab.think import summarize

    base_policy = default_base_path() if a.stack == 100 else PACKAGE_DATA / MORE_BLUEPRINT_FILES[0]

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    exe = Path(sys.executable).with_name("pokerlab")
    rows: list[dict[str, Any]] = []
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    loads = [load()]
    for opp in [o.strip() for o in a.opponents.split(",") if o.strip()]:
        stem = opp if a.stack == 100 else f"{opp}_{a.stack}"
        hist = out / f"{stem}.phhs"
        model = out / f"{stem}_model.npz"
        t0 = time.perf_counter()
        if not hist.exists():
            play_match("blueprint", opp, hands=a.history_hands, duplicate=True, seed=a.history_seed,
                       stack_bb=float(a.stack), out=hist, workers=a.workers)
        if not model.exists():
            subprocess.run([str(exe), "opponent", "model", str(hist), "--player", f"B-{opp}",
                            "--base", str(base_policy), "--out", str(model)], check=True,
                           stdout=subprocess.DEVNULL)
        model_s = time.perf_counter() - t0
        specs = ["blueprint", f"search(iters={a.iters})",
                 f"search(iters={a.iters},model=policy:{model},lock=1)"]
        if a.learn > 0:
            specs.append(f"search(iters={a.iters},learn={a.learn},lock=1)")
        if a.exact:
            specs.append(f"search(iters={a.iters},model={opp},lock=1)")
        base_pairs: np.ndarray | None = None
        for spec in specs:
            t = time.perf_counter()
            res = play_match(spec, opp, hands=a.hands, duplicate=True, seed=a.seed, stack_bb=float(a.stack),
                             workers=a.workers)
            secs = time.perf_counter() - t
            loads.append(load())
            p = pairs_mbb(res.chips, res.big_blind)
            row: dict[str, Any] = {"agent": spec.replace(str(model), f"{stem}_model.npz"), "opponent": opp,
                                   "hands": res.hands, "mbb": float(p.mean()), "ci95_mbb": ci95(p),
                                   "seconds": secs, "hands_per_second": res.hands / secs}
            if base_pairs is None:
                base_pairs = p
                row["model_seconds"] = model_s
            else:
                d = p - base_pairs
                row["vs_blueprint_mbb"] = float(d.mean())
                row["vs_blueprint_ci95_mbb"] = ci95(d)
            c = summarize(res.counters.get("A", {}))
            if "think_ms_p50" in c:
                row["think_ms_p50"] = float(c["think_ms_p50"])
                row["think_ms_p99"] = float(c["think_ms_p99"])
                row["searches"] = int(c.get("searches", 0))
                row["fallbacks"] = int(c.get("fallbacks", 0))
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary = {"started": started, "load_average": [min(loads), max(loads)],
               "command": "python benchmarks/search_model.py " + " ".join(argv if argv is not None
                                                                         else sys.argv[1:]),
               "history_hands": a.history_hands, "history_seed": a.history_seed, "seed": a.seed,
               "stack_bb": float(a.stack), "rows": rows}
    if not a.no_write:
        from pokerlab.io import atomic_write_text

        atomic_write_text(SUMMARY if a.stack == 100 else SUMMARY.with_name("search_model_200.json"),
                          json.dumps(summary, indent=1) + "\n")
        write_doc(summary)
    return 0


def fmt(x: float | None, ci: float | None = None) -> str:
    if x is None:
        return ""
    s = f"{x:+,.0f}"
    return s if ci is None else f"{s} +- {ci:,.0f}"


def write_doc(summary: dict[str, Any]) -> None:
    from pokerlab.io import atomic_write_text

    lo, hi = summary["load_average"]
    lines = [f"`{summary['command']}` ({summary['started']}, load average {lo:.1f}-{hi:.1f}; models "
             f"from {summary['history_hands']:,} duplicate hands of `blueprint` against each opponent, "
             f"seed {summary['history_seed']}; matches on seed {summary['seed']}, "
             f"{summary['stack_bb']:.0f} bb; mbb/hand of "
             "the agent, 95% CI over the duplicate deal pairs; `- blueprint`: paired over the same "
             "pairs):", "",
             "| agent | opponent | hands | mbb/hand | - blueprint | think p50 / p99 (ms) | "
             "searches / fallbacks | hands/s |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in summary["rows"]:
        think = (f"{r['think_ms_p50']:.1f} / {r['think_ms_p99']:.1f}" if "think_ms_p50" in r else "")
        sf = f"{r['searches']:,} / {r['fallbacks']:,}" if "searches" in r else ""
        lines.append(f"| `{r['agent']}` | {r['opponent']} | {r['hands']:,} | "
                     f"{fmt(r['mbb'], r['ci95_mbb'])} | "
                     f"{fmt(r.get('vs_blueprint_mbb'), r.get('vs_blueprint_ci95_mbb'))} | {think} | {sf} | "
                     f"{r['hands_per_second']:.0f} |")
    text = DOC.read_text()
    name = NAME if summary["stack_bb"] == 100 else f"{NAME}_200"
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if begin not in text or end not in text:
        raise fail(f"{DOC} has no {begin} ... {end} section")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    atomic_write_text(DOC, head + begin + "\n" + "\n".join(lines) + "\n" + end + tail)


if __name__ == "__main__":
    raise SystemExit(main())
