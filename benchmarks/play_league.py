"""The league behind the play page's agent tooltips (``pokerlab/play/league.json``).

Plays ``pokerlab league`` over the agents a player can choose at a 100 bb table (AIVAT
where a pair has it, duplicate hands, 95% CIs, LBR fc per agent), writes the league's own
files to ``--out`` and the summary the play page reads (per agent: average mbb/hand against
the others, LBR fc with its CI, rank) to ``pokerlab/play/league.json``, with the command in
its ``source``.  ``--from DIR`` converts an earlier league folder instead of playing.

Usage: ``python benchmarks/play_league.py [--agents blueprint,thesis,tag,call,raise,random]
[--hands 10000] [--lbr-hands 2000] [--stack 100] [--workers 2] [--out DIR] [--from DIR]
[--no-write]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "pokerlab" / "play" / "league.json"
AGENTS = "blueprint,thesis,tag,call,raise,random"


def _number(x: Any) -> float | int:
    """A stack in big blinds as JSON writes it: 100, not 100.0 or "100"."""
    v = float(x)
    return int(v) if v.is_integer() else v


def summary(league: dict[str, Any], source: str, date: str) -> dict[str, Any]:
    """The play page's summary of a ``league.json`` object (see the module docstring)."""
    cfg = league["config"]
    ranking = list(league["ranking"])
    agents: dict[str, Any] = {}
    for name in league["agents"]:
        entry: dict[str, Any] = {"average": int(round(league["average_mbb"][name])),
                                 "rank": ranking.index(name) + 1}
        lb = (league.get("lbr") or {}).get(name)
        if lb:
            entry["lbr"] = [int(round(lb["mbb"])), int(round(lb["ci95_mbb"]))]
        agents[name] = entry
    ordered = dict(sorted(agents.items(), key=lambda kv: kv[1]["rank"]))
    return {"source": source, "date": date, "stack": _number(cfg["stack_bb"]),
            "hands_per_pair": cfg["hands"], "agents": ordered}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--agents", default=AGENTS)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--lbr-hands", type=int, default=2_000)
    ap.add_argument("--stack", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="folder for the league's own files")
    ap.add_argument("--from", dest="src", type=Path, default=None,
                    help="convert this earlier league folder (its league.json) instead")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    if a.src is not None:
        src = a.src / "league.json"
        if not src.is_file():
            print(f"error: no league.json in {a.src} (a `pokerlab league --out DIR` folder)",
                  file=sys.stderr)
            return 2
        try:
            league = json.loads(src.read_text())
        except json.JSONDecodeError as exc:
            print(f"error: {src} is not a league.json: {exc}", file=sys.stderr)
            return 2
        cfg = league["config"]
        date = time.strftime("%Y-%m-%d", time.gmtime(src.stat().st_mtime))
    else:
        from pokerlab.arena.league import run_league
        from pokerlab.evaluation.league import LeagueConfig, write_league

        cfg_obj = LeagueConfig(agents=tuple(a.agents.split(",")), hands=a.hands, seed=a.seed,
                               stack_bb=a.stack, lbr=True, lbr_hands=a.lbr_hands)
        res = run_league(cfg_obj, workers=a.workers)
        if a.out is not None:
            a.out.mkdir(parents=True, exist_ok=True)
            write_league(res, a.out)
        league = res.to_json()
        cfg = league["config"]
        date = time.strftime("%Y-%m-%d", time.gmtime())
    lbr = f" --lbr --lbr-hands {cfg['lbr_hands']}" if cfg.get("lbr") else ""
    source = (f"benchmarks/play_league.py: pokerlab league {' '.join(cfg['agents'])} --hands "
              f"{cfg['hands']}{lbr} --stack {cfg['stack_bb']:g} "
              f"--seed {cfg['seed']} (AIVAT where a pair has it, {cfg['hands']:,} duplicate hands "
              "per pair, 95% CI; docs/evaluation.md)")
    doc = summary(league, source, date)
    text = json.dumps(doc, indent=1) + "\n"
    print(text)
    if not a.no_write:
        from pokerlab.io import atomic_path

        with atomic_path(TARGET) as tmp:
            Path(tmp).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
