"""A richer bet set for the 100 bb blueprint against the shipped one (issue 26).

Train (once, outside this script; its command and config are in the run folder):

    pokerlab blueprint train --preset small --stack 100 --threads 1 --minutes 85 \\
        --bets "preflop: 2.5x, 3x, 4x, a, cap 3; flop: 33%, 75%, a, cap 2; \\
                turn: 75%, 150%, a, cap 2; river: 75%, 150%, a, cap 2" --out DIR

Evaluate: duplicate matches of the new policy against the old one (``--old``, default the
shipped ``blueprint-100``), against ``tag`` and ``call``, the old one against the same
rule agents in the same run, and LBR fc of both (both seats), all at 100 bb:

    pokerlab match policy:DIR/policy.npz blueprint-100 --hands N --duplicate
    pokerlab match policy:DIR/policy.npz tag --hands N2 --duplicate
    pokerlab lbr policy:DIR/policy.npz --actions fc --hands L

Writes the table between ``<!-- blueprint_bets:begin -->`` and ``<!-- blueprint_bets:end
-->`` of docs/blueprint.md (``--no-write`` to only print; ``--block NAME`` for another block).
``--stack 200 --old blueprint-200 --block blueprint_bets_200`` evaluates a 200 bb run the
same way; ``--lbr56-hands N`` adds LBR with the 56 bet sizes from the turn (the paper's
setting 3) for both policies.

Usage: ``python benchmarks/blueprint_bets.py --dir DIR [--old SPEC] [--old-label TEXT]
[--stack 100] [--hands 200000] [--tag-hands 40000] [--lbr-hands 20000] [--lbr56-hands 0]
[--workers 2] [--block NAME] [--json] [--no-write] [--table-only]`` (``--table-only``:
rewrite the table from DIR's evaluation.json without playing)
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "blueprint.md"
NAME = "blueprint_bets"  # the doc block <!-- NAME:begin --> .. <!-- NAME:end -->


def evaluate(folder: Path, a: argparse.Namespace) -> dict[str, Any]:
    from blueprint_cards import _m  # a match result's mbb, CI, hands and seconds

    from pokerlab.arena import play_match, run_lbr

    new = f"policy:{folder / 'policy.npz'}"
    specs = {"new": new, "old": a.old}
    res: dict[str, Any] = {"load_before": os.getloadavg()[0], "matches": {}, "lbr": {}}
    t = time.perf_counter()
    res["stack_bb"] = a.stack
    m = play_match(new, a.old, hands=a.hands, duplicate=True, seed=a.seed, stack_bb=a.stack,
                   workers=a.workers)
    res["matches"]["new vs old"] = _m(m, time.perf_counter() - t)
    for name, spec in specs.items():
        for opp in ("tag", "call"):
            t = time.perf_counter()
            m = play_match(spec, opp, hands=a.tag_hands, duplicate=True, seed=a.seed,
                           stack_bb=a.stack, workers=a.workers)
            res["matches"][f"{name} vs {opp}"] = _m(m, time.perf_counter() - t)
        if a.lbr_hands:
            r = run_lbr(spec, actions="fc", hands=a.lbr_hands, seed=a.seed, stack_bb=a.stack,
                        workers=a.workers)
            res["lbr"][f"{name} fc"] = {"mbb": r.mbb, "ci95_mbb": r.ci95_mbb,
                                        "hands": r.hands, "seconds": r.seconds}
        if a.lbr56_hands:
            r = run_lbr(spec, actions="56", hands=a.lbr56_hands, seed=a.seed, stack_bb=a.stack,
                        workers=a.workers, from_round=3)
            res["lbr"][f"{name} 56"] = {"mbb": r.mbb, "ci95_mbb": r.ci95_mbb,
                                        "hands": r.hands, "seconds": r.seconds}
    res["load_after"] = os.getloadavg()[0]
    return res


def table(folder: Path, ev: dict[str, Any], old: str, old_label: str | None = None) -> str:
    cfg = json.loads((folder / "config.json").read_text())
    tr = json.loads((folder / "train.json").read_text())
    cell = lambda d, s=1.0: f"{s * d['mbb']:+.0f} +- {d['ci95_mbb']:.0f}"  # noqa: E731
    mt = ev["matches"]
    lbr = ev["lbr"]
    has56 = "new 56" in lbr
    lines = ["| policy | bets | iterations | info sets | new vs old | vs tag | vs call "
             "| LBR fc |" + (" LBR 56 from the turn |" if has56 else ""),
             "|---|---|---:|---:|---:|---:|---:|---:|" + ("---:|" if has56 else "")]
    na = lambda k: cell(lbr[k]) if k in lbr else "-"  # noqa: E731
    lines.append(f"| new | `{cfg['bets']}` | {tr['iterations']:,} | {tr['infosets']:,} | "
                 f"{cell(mt['new vs old'])} | {cell(mt['new vs tag'])} | "
                 f"{cell(mt['new vs call'])} | {na('new fc')} |"
                 + (f" {na('new 56')} |" if has56 else ""))
    lines.append(f"| old ({old_label or f'`{old}`'}) | shipped `SMALL_BETS` | | | "
                 f"{cell(mt['new vs old'], -1.0)} | "
                 f"{cell(mt['old vs tag'])} | {cell(mt['old vs call'])} | {na('old fc')} |"
                 + (f" {na('old 56')} |" if has56 else ""))
    lines.append("")
    stack = ev.get("stack_bb", 100.0)
    lines.append(f"mbb/hand +- 95% CI at {stack:g} bb, duplicate matches ({mt['new vs old']['hands']:,}"
                 f" hands new against old, {mt['new vs tag']['hands']:,} against each rule "
                 f"agent), LBR fc over both seats; load average {ev['load_before']:.1f} before, "
                 f"{ev['load_after']:.1f} after.")
    return "\n".join(lines)


def write(text: str, block: str = NAME) -> None:
    from search_safety import write_block

    write_block(DOC, block, text)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", type=Path, required=True)
    ap.add_argument("--old", default="blueprint-100")
    ap.add_argument("--stack", type=float, default=100.0, help="stacks in big blinds")
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--tag-hands", type=int, default=40_000)
    ap.add_argument("--lbr-hands", type=int, default=20_000)
    ap.add_argument("--lbr56-hands", type=int, default=0,
                    help="deals of LBR with the 56 sizes from the turn (0: none)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--block", default=NAME, help="the doc block to write")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--old-label", default=None,
                    help="how the table names the old policy (default: its spec)")
    ap.add_argument("--table-only", action="store_true",
                    help="no matches: the table from DIR/evaluation.json of an earlier run")
    a = ap.parse_args()
    if a.table_only:
        ev = json.loads((a.dir / "evaluation.json").read_text())
        text = table(a.dir, ev, a.old, a.old_label)
        print(text)
        if not a.no_write:
            write(text, a.block)
        return
    ev = evaluate(a.dir, a)
    text = table(a.dir, ev, a.old, a.old_label)
    if a.json:
        print(json.dumps({"evaluation": ev}, indent=1))
    else:
        print(text)
    (a.dir / "evaluation.json").write_text(json.dumps(ev, indent=1))
    if not a.no_write:
        write(text, a.block)


if __name__ == "__main__":
    main()
