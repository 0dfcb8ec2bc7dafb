"""The searching agent against the blueprint and the rule agents, paired with the blueprint
on the same deals, duplicate with AIVAT (issue 25's strength goals).

For each opponent X (``blueprint``, ``call``, ``raise``, ``tag``) two duplicate matches on
the same seed (the same cards and the same seeds for X): ``SEARCH`` against X and, unless X
is the blueprint itself, ``blueprint`` against X.  Every hand is valued raw and with AIVAT
(:func:`pokerlab.evaluation.aivat.aivat_match`; the same hands the match plays), and the
difference ``SEARCH - blueprint`` is taken per duplicate deal pair (both seats of a deal),
so its 95% CI is over the deal pairs of the one seed; against X = blueprint the
difference is the searcher's own result.  Each worker process plays one contiguous chunk
(the searcher learns the opponent during the match: every chunk starts from the base
policy again).  Think time per searched decision and hands per second come from the
agents' counters.

Writes ``docs/search_opponents.json`` (``_200`` at 200 bb) and the table between
``<!-- search_opponents:begin -->`` and ``<!-- search_opponents:end -->`` of docs/search.md
(``search_opponents_200`` at 200 bb); ``--no-write`` only prints.  The per-hand values of
every match are kept in ``--out`` (``.npz``) and reused by a later run with the same
settings (``--fresh`` plays them again).

Usage: ``python benchmarks/search_opponents.py [--search search] [--opponents
blueprint,call,raise,tag] [--hands 20000] [--hands-for blueprint=40000] [--stack 100]
[--seed 101] [--workers 2] [--out runs/search_opponents] [--fresh] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "search.md"
NAME = "search_opponents"
Z95 = 1.959963984540054


def fail(msg: str) -> SystemExit:
    print(f"error: {msg}", file=sys.stderr)
    return SystemExit(2)


def ints(text: str, option: str, *, least: int = 0) -> tuple[int, ...]:
    """Whole numbers ``>= least`` separated by commas (an option's value), else one line
    naming ``option`` and exit 2."""
    try:
        vals = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        vals = ()
    if not vals or min(vals) < least:
        raise fail(f"{option} takes whole numbers >= {least} separated by commas, got {text!r}")
    return vals


@dataclass(frozen=True)
class Chunk:
    spec: str
    opponent: str
    stack: float
    seed: int
    start: int
    stop: int


def run_chunk(c: Chunk) -> dict[str, Any]:
    """Hands ``start..stop-1`` of ``spec`` against ``opponent`` with AIVAT, and the counters
    of ``spec``'s agent over them."""
    from pokerlab.evaluation.aivat import aivat_match
    from pokerlab.evaluation.matches import agent_counters
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.registry import build_agent

    hc = HoldemConfig.from_bb(c.stack)
    a = build_agent(c.spec, game="hunl", config=hc)
    b = build_agent(c.opponent, game="hunl", config=hc)
    before = agent_counters(a)
    t = time.perf_counter()
    res = aivat_match(a, b, game="hunl", hands=c.stop - c.start, duplicate=True, seed=c.seed,
                      stack_bb=c.stack, names=(c.spec, c.opponent), start=c.start)
    secs = time.perf_counter() - t
    after = agent_counters(a)
    return {"raw": res.raw, "aivat": res.aivat, "seconds": secs,
            "counters": {k: v - before.get(k, 0.0) for k, v in after.items()}}


def play(spec: str, opp: str, a: argparse.Namespace) -> dict[str, Any]:
    """Per-hand raw and AIVAT chips of ``spec`` against ``opp`` (cached in ``--out``)."""
    from pokerlab.evaluation.matches import hand_ranges
    from pokerlab.executor import default_backend, map_chunks

    key = re.sub(r"[^A-Za-z0-9._=-]+", "_", f"{spec}__{opp}__{a.stack:g}__{a.seed}__{a.hands}")
    path = Path(a.out) / f"{key}.npz"
    if path.exists() and not a.fresh:
        z = np.load(path, allow_pickle=False)
        return {"raw": z["raw"], "aivat": z["aivat"], "seconds": float(z["seconds"]),
                "counters": json.loads(str(z["counters"])), "cached": True}
    chunks = [Chunk(spec, opp, a.stack, a.seed, lo, hi) for lo, hi in hand_ranges(a.hands, a.workers)]
    t = time.perf_counter()
    res = map_chunks(run_chunk, chunks, backend=default_backend(a.workers, None), workers=a.workers)
    wall = time.perf_counter() - t
    counters: dict[str, float] = {}
    for r in res:
        for k, v in r["counters"].items():
            counters[k] = counters.get(k, 0.0) + v
    out = {"raw": np.concatenate([r["raw"] for r in res]), "aivat": np.concatenate([r["aivat"] for r in res]),
           "seconds": wall, "counters": counters, "cached": False}
    from pokerlab.io import atomic_path

    Path(a.out).mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez(fh, raw=out["raw"], aivat=out["aivat"], seconds=np.float64(wall),
                 counters=np.array(json.dumps(counters)))
    return out


def pairs(x: np.ndarray, big_blind: float) -> np.ndarray:
    """mbb/hand per duplicate deal pair."""
    y = np.asarray(x, dtype=np.float64) * 1000.0 / big_blind
    return y.reshape(-1, 2).mean(axis=1)


def stat(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(Z95 * x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--search", default="search")
    ap.add_argument("--opponents", default="blueprint,call,raise,tag")
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--hands-for", default="",
                    help="other hand counts by opponent, e.g. blueprint=40000 (comma-separated)")
    ap.add_argument("--stack", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="runs/search_opponents")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args(argv)
    if a.hands < 2 or a.hands % 2:
        raise fail("--hands must be even and >= 2")
    if a.workers < 1:
        raise fail("--workers must be >= 1")
    from pokerlab.think import summarize

    bb = 100.0  # HoldemConfig.from_bb: the big blind is 100 chips
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    loads = [os.getloadavg()[0]]
    rows: list[dict[str, Any]] = []
    per_opp: dict[str, int] = {}
    for item in [x.strip() for x in a.hands_for.split(",") if x.strip()]:
        name, eq, num = item.partition("=")
        if not eq or not num.strip().isdigit() or int(num) < 2 or int(num) % 2:
            raise fail(f"--hands-for {item!r}: write OPPONENT=HANDS with an even count >= 2")
        per_opp[name.strip()] = int(num)
    opponents = [o.strip() for o in a.opponents.split(",") if o.strip()]
    for name in per_opp:
        if name not in opponents:
            raise fail(f"--hands-for {name!r}: not one of --opponents ({', '.join(opponents)})")
    for opp in opponents:
        oa = argparse.Namespace(**{**vars(a), "hands": per_opp.get(opp, a.hands)})
        s = play(a.search, opp, oa)
        loads.append(os.getloadavg()[0])
        sp_raw, sp_av = pairs(s["raw"], bb), pairs(s["aivat"], bb)
        row: dict[str, Any] = {"opponent": opp, "hands": int(s["raw"].size)}
        row["search_raw"], row["search_raw_ci"] = stat(sp_raw)
        row["search_aivat"], row["search_aivat_ci"] = stat(sp_av)
        if opp.lower().startswith("blueprint"):
            row["diff_aivat"], row["diff_aivat_ci"] = row["search_aivat"], row["search_aivat_ci"]
            row["diff_raw"], row["diff_raw_ci"] = row["search_raw"], row["search_raw_ci"]
        else:
            b = play("blueprint", opp, oa)
            loads.append(os.getloadavg()[0])
            bp_raw, bp_av = pairs(b["raw"], bb), pairs(b["aivat"], bb)
            row["blueprint_raw"], row["blueprint_raw_ci"] = stat(bp_raw)
            row["blueprint_aivat"], row["blueprint_aivat_ci"] = stat(bp_av)
            row["diff_raw"], row["diff_raw_ci"] = stat(sp_raw - bp_raw)
            row["diff_aivat"], row["diff_aivat_ci"] = stat(sp_av - bp_av)
        c = summarize(s["counters"])
        for k in ("think_ms_p50", "think_ms_p99", "searches", "fallbacks", "locked_nodes"):
            if k in c:
                row[k] = float(c[k])
        row["hands_per_second"] = row["hands"] / s["seconds"] if s["seconds"] > 0 else math.nan
        row["cached"] = bool(s["cached"])
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = {"started": started, "load_average": [min(loads), max(loads)],
               "command": "python benchmarks/search_opponents.py " + " ".join(
                   argv if argv is not None else sys.argv[1:]),
               "search": a.search, "stack_bb": a.stack, "seed": a.seed, "workers": a.workers,
               "rows": rows}
    text = table(summary)
    print(text)
    if not a.no_write:
        from pokerlab.io import atomic_write_text

        suffix = "" if a.stack == 100 else f"_{a.stack:g}"
        atomic_write_text(ROOT / "docs" / f"{NAME}{suffix}.json", json.dumps(summary, indent=1) + "\n")
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from search_safety import write_block

        write_block(DOC, NAME + suffix, text)
    return 0


def _f(x: float | None, ci: float | None = None) -> str:
    if x is None or not math.isfinite(x):
        return ""
    return f"{x:+,.0f}" if ci is None else f"{x:+,.0f} +- {ci:,.0f}"


def table(summary: dict[str, Any]) -> str:
    lo, hi = summary["load_average"]
    lines = [f"`{summary['command']}` ({summary['started']}, load average {lo:.1f}-{hi:.1f}; "
             f"`{summary['search']}` at {summary['stack_bb']:g} bb, seed {summary['seed']}, "
             f"{summary['workers']} worker process(es), each learning on its own half; mbb/hand, "
             "95% CI over the duplicate deal pairs; `- blueprint`: the same deal pairs played by "
             "the blueprint, paired):", "",
             "| opponent | hands | search, AIVAT | blueprint, AIVAT | search - blueprint, AIVAT | "
             "search - blueprint, raw | think p50 / p99 (ms) | searches / fallbacks | locked nodes | "
             "hands/s |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in summary["rows"]:
        think = (f"{r['think_ms_p50']:.1f} / {r['think_ms_p99']:.1f}" if "think_ms_p50" in r else "")
        sf = f"{r['searches']:,.0f} / {r['fallbacks']:,.0f}" if "searches" in r else ""
        lines.append(
            f"| {r['opponent']} | {r['hands']:,} | {_f(r['search_aivat'], r['search_aivat_ci'])} | "
            f"{_f(r.get('blueprint_aivat'), r.get('blueprint_aivat_ci'))} | "
            f"**{_f(r['diff_aivat'], r['diff_aivat_ci'])}** | {_f(r['diff_raw'], r['diff_raw_ci'])} | "
            f"{think} | {sf} | {r.get('locked_nodes', 0):,.0f} | {r['hands_per_second']:.0f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
