"""Where to start searching, and depth-limited (Modicum) against whole-hand subgames, at equal
think time (issue 25, build item 4).

Each searcher spec plays the shipped blueprint over the same duplicate deals and seeds
with AIVAT (:func:`search_opponents.play`: per-hand raw and AIVAT chips, cached in
``--out``); the table gives each one's result, its think time per searched decision and
hands per second, and the difference to the first spec paired over the same deal pairs.
The default rows, all at the default budget of 1 s per decision: ``search`` (the river
only), ``search(street=turn)`` (the turn's whole rest of the hand, on the coarsest tree of
the ladder that fits), ``search(street=turn,depth=1,leaves=modicum)`` (the turn to its end,
Modicum's leaves: the blueprint continues, the opponent chooses among it and its fold-, call-
and raise-biased versions), ``search(street=turn,depth=1)`` (the turn to its end, the river
iterated in step at its leaves) and ``search(street=flop,depth=1)`` (from the flop, Modicum's
flop leaves).

Writes ``docs/search_depth.json``, the table between ``<!-- search_depth:begin -->`` and
``<!-- search_depth:end -->`` of docs/search.md and the figure ``docs/search_depth.png``
(strength per second of thought; ``--no-write`` only prints).

Usage: ``python benchmarks/search_depth.py [--specs "SPEC;SPEC;..."] [--hands 4000]
[--stack 100] [--seed 131] [--workers 2] [--out runs/search_depth] [--fresh] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_opponents import _f, fail, pairs, play, stat  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "search.md"
NAME = "search_depth"
SPECS = ("search;search(street=turn);search(street=turn,depth=1,leaves=modicum);"
         "search(street=turn,depth=1);search(street=flop,depth=1)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--specs", default=SPECS)
    ap.add_argument("--opponent", default="blueprint")
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--stack", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=131)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="runs/search_depth")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--png", default="docs/search_depth.png",
                    help="the figure of strength per second of thought ('' for none)")
    a = ap.parse_args(argv)
    if a.hands < 2 or a.hands % 2:
        raise fail("--hands must be even and >= 2")
    specs = [s.strip() for s in a.specs.split(";") if s.strip()]
    if not specs:
        raise fail("--specs names no searcher")
    from pokerlab.think import summarize

    bb = 100.0
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    loads = [os.getloadavg()[0]]
    rows: list[dict[str, Any]] = []
    first: np.ndarray | None = None
    for spec in specs:
        r = play(spec, a.opponent, a)
        loads.append(os.getloadavg()[0])
        av = pairs(r["aivat"], bb)
        row: dict[str, Any] = {"spec": spec, "hands": int(r["raw"].size)}
        row["aivat"], row["aivat_ci"] = stat(av)
        row["raw"], row["raw_ci"] = stat(pairs(r["raw"], bb))
        if first is None:
            first = av
        else:
            row["vs_first"], row["vs_first_ci"] = stat(av - first)
        c = summarize(r["counters"])
        for k in ("think_ms_p50", "think_ms_p99", "think_ms_mean", "searches", "fallbacks",
                  "depth_limited", "coarser_trees", "iterations"):
            if k in c:
                row[k] = float(c[k])
        row["hands_per_second"] = row["hands"] / r["seconds"] if r["seconds"] > 0 else math.nan
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = {"started": started, "load_average": [min(loads), max(loads)],
               "command": "python benchmarks/search_depth.py " + " ".join(
                   argv if argv is not None else sys.argv[1:]),
               "opponent": a.opponent, "stack_bb": a.stack, "seed": a.seed, "rows": rows}
    text = table(summary)
    print(text)
    if not a.no_write:
        from pokerlab.io import atomic_write_text

        suffix = "" if a.stack == 100 else f"_{a.stack:g}"
        atomic_write_text(ROOT / "docs" / f"{NAME}{suffix}.json", json.dumps(summary, indent=1) + "\n")
        from search_safety import write_block

        write_block(DOC, NAME + suffix, text)
        if a.png:
            figure(summary, ROOT / a.png)
    return 0


def figure(summary: dict[str, Any], path: Path) -> None:
    """Strength against the opponent (AIVAT, 95% CI) over the mean think time per searched
    decision, one point per searcher (log time axis)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in summary["rows"] if "think_ms_mean" in r]
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    for r in rows:
        ax.errorbar(r["think_ms_mean"], r["aivat"], yerr=r["aivat_ci"], fmt="o", capsize=4,
                    label=r["spec"])
    ax.axhline(0.0, color="grey", lw=0.8)
    ax.set_xscale("log")
    from matplotlib.ticker import FixedLocator, NullFormatter, ScalarFormatter

    ax.xaxis.set_major_locator(FixedLocator([3, 10, 30, 100, 300, 1000, 3000]))
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.legend(fontsize=8, loc="lower center")
    ax.set_xlabel("mean think time per searched decision (ms, log scale)")
    ax.set_ylabel(f"mbb/hand against {summary['opponent']} (AIVAT, 95% CI)")
    ax.set_title(f"Strength per second of thought, {summary['stack_bb']:g} bb, "
                 f"{rows[0]['hands'] if rows else 0:,} hands each")
    fig.tight_layout()
    from pokerlab.io import atomic_path

    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=120, format="png")
    plt.close(fig)


def table(summary: dict[str, Any]) -> str:
    lo, hi = summary["load_average"]
    first = summary["rows"][0]["spec"] if summary["rows"] else ""
    lines = [f"`{summary['command']}` ({summary['started']}, load average {lo:.1f}-{hi:.1f}; "
             f"against `{summary['opponent']}` at {summary['stack_bb']:g} bb, seed {summary['seed']}; "
             "mbb/hand of the searcher, 95% CI over the duplicate deal pairs; the last column "
             f"paired with `{first}` over the same pairs; think time per searched decision):", "",
             "| searcher | hands | AIVAT | raw | - first, AIVAT | think p50 / p99 / mean (ms) | "
             "searches / depth-limited / coarser / fallbacks | iterations per search | hands/s |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in summary["rows"]:
        think = (f"{r['think_ms_p50']:.0f} / {r['think_ms_p99']:.0f} / {r.get('think_ms_mean', math.nan):.0f}"
                 if "think_ms_p50" in r else "")
        counts = (f"{r.get('searches', 0):,.0f} / {r.get('depth_limited', 0):,.0f} / "
                  f"{r.get('coarser_trees', 0):,.0f} / {r.get('fallbacks', 0):,.0f}")
        its = r.get("iterations", 0) / r["searches"] if r.get("searches") else math.nan
        lines.append(f"| `{r['spec']}` | {r['hands']:,} | {_f(r['aivat'], r['aivat_ci'])} | "
                     f"{_f(r['raw'], r['raw_ci'])} | {_f(r.get('vs_first'), r.get('vs_first_ci'))} | "
                     f"{think} | {counts} | {its:.0f} | {r['hands_per_second']:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
