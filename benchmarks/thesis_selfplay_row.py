"""Regenerate docs/thesis.md's "blueprint agent in self-play" row (and its bet-per-street
numbers) from the commands the page lists, so the row is never hand-edited:

    pokerlab match blueprint blueprint --hands 2000 --seed 12 --out blueprint_selfplay.phhs
    pokerlab hands import blueprint_selfplay.phhs --db cmp.duckdb --group blueprint-selfplay
    (per-game statistics of the group: pokerlab.hands.compare.compare_groups)

Usage: ``python benchmarks/thesis_selfplay_row.py [--hands N] [--seed S] [--json]
[--no-write]``.  Only the row whose first cell starts with ``pokerlab: blueprint agent in
self-play`` and the ``blueprint A / B / C / D`` numbers of the bet-per-street sentence
below the table are rewritten (docs/thesis.md is shared with the thesis-agent work).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "thesis.md"
LABEL = "pokerlab: blueprint agent in self-play"
GROUP = "blueprint-selfplay"


def measure(hands: int, seed: int) -> dict[str, Any]:
    from pokerlab.arena import play_match
    from pokerlab.hands.compare import compare_groups
    from pokerlab.hands.db import HandDB

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "blueprint_selfplay.phhs"
        play_match("blueprint", "blueprint", hands=hands, seed=seed, out=log)
        db = HandDB(path=Path(tmp) / "cmp.duckdb")
        try:
            db.import_paths([log], group=GROUP)
            g = compare_groups(db, [GROUP])["groups"][0]
        finally:
            close = getattr(db, "close", None)
            if close is not None:
                close()
    gs = g["game_stats"]
    return {"hands": gs["hands"], "entered_share": gs["entered_share"],
            "allin_share": gs["allin_share"], "showdown_share": gs["showdown_share"],
            "raise_pot_ratio": gs["raise_pot_ratio"],
            "bet_per_street_bb": gs["bet_per_street_bb"]["thesis"], "style": g["style"],
            "command": f"pokerlab match blueprint blueprint --hands {hands} --seed {seed} "
                       "--out blueprint_selfplay.phhs", "seed": seed}


def _pct(v: float | None, digits: int = 1) -> str:
    return "n/a" if v is None else f"{100.0 * v:,.{digits}f}%"


def row(m: dict[str, Any]) -> str:
    e, r = m["entered_share"], m["raise_pot_ratio"]
    return (f"| {LABEL} ([script](../benchmarks/thesis_selfplay_row.py)) | {m['hands']:,} | "
            f"{_pct(e['thesis'])} ({_pct(e['pokerlab'])}) | {_pct(m['allin_share'])} | "
            f"{_pct(m['showdown_share'])} | {_pct(r['thesis'], 0)} ({_pct(r['pokerlab'], 0)}) "
            f"| {m['style']} |")


def bets(m: dict[str, Any]) -> str:
    vals = [m["bet_per_street_bb"].get(s) for s in ("preflop", "flop", "turn", "river")]
    return "blueprint " + " / ".join("n/a" if v is None else f"{v:.1f}" for v in vals)


def rewrite(text: str, m: dict[str, Any]) -> str:
    lines = text.split("\n")
    hits = [i for i, ln in enumerate(lines) if ln.startswith(f"| {LABEL}")]
    if len(hits) != 1:
        raise SystemExit(f"expected one row starting with '| {LABEL}' in {DOC}, found "
                         f"{len(hits)}")
    lines[hits[0]] = row(m)
    out = "\n".join(lines)
    out, n = re.subn(r"blueprint (?:[\d.]+|n/a) / (?:[\d.]+|n/a) / (?:[\d.]+|n/a) / "
                     r"(?:[\d.]+|n/a)", bets(m), out, count=1)
    if n != 1:
        raise SystemExit(f"no 'blueprint A / B / C / D' bet-per-street numbers in {DOC}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-write", action="store_true", help="print only")
    a = ap.parse_args(argv)
    m = measure(a.hands, a.seed)
    if not a.no_write:
        from pokerlab.io import atomic_write_text

        atomic_write_text(DOC, rewrite(DOC.read_text(), m))
    if a.json:
        print(json.dumps(m))
    else:
        print(row(m))
        print(bets(m))
    return 0


if __name__ == "__main__":
    sys.exit(main())
