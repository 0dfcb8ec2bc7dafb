"""Hand-strength against potential-aware card buckets at equal training time (issue 26).

Train (``--train``): two blueprint runs of the same preset (``small``: its bet set, 100 bb,
169 / 50 / 50 / 50 buckets) side by side, one process each on one thread, for the same
``--minutes``, one with ``--cards hs`` and one with ``--cards pa``:

    pokerlab blueprint train --preset small --cards hs --minutes M --threads 1 --out DIR/hs
    pokerlab blueprint train --preset small --cards pa --minutes M --threads 1 --out DIR/pa

(the ``pa`` tables are built first, outside the training time, and cached).  Evaluate
(always): duplicate matches of each policy against the other, against the shipped 100 bb
blueprint (``blueprint-100``) and against ``tag`` and ``call``, and LBR (``fc`` and
``fcpa``, both seats) of each, at 100 bb:

    pokerlab match policy:DIR/pa/policy.npz policy:DIR/hs/policy.npz --hands N --duplicate
    pokerlab match policy:DIR/X/policy.npz tag --hands N2 --duplicate
    pokerlab lbr policy:DIR/X/policy.npz --actions fc --hands L

Writes the table between ``<!-- blueprint_cards:begin -->`` and ``<!-- blueprint_cards:end
-->`` of docs/blueprint.md (``--no-write`` to only print).

Usage: ``python benchmarks/blueprint_cards.py --dir DIR [--train --minutes 30] [--hands
200000] [--tag-hands 40000] [--lbr-hands 5000] [--workers 2] [--json] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "blueprint.md"
NAME = "blueprint_cards"  # the doc block <!-- NAME:begin --> .. <!-- NAME:end -->
CARDS = ("hs", "pa")


def train(folder: Path, minutes: float, preset: str) -> dict[str, Any]:
    """Both runs at once (one process each); returns their ``--json`` results."""
    exe = str(Path(sys.executable).with_name("pokerlab"))
    # the pa tables first (cached), so the training minutes are the same for both
    subprocess.run([exe, "abstraction", "build", "--preset", "small", "--json"], check=True,
                   stdout=subprocess.DEVNULL)
    procs = {}
    for c in CARDS:
        procs[c] = subprocess.Popen(
            [exe, "blueprint", "train", "--preset", preset, "--cards", c, "--minutes",
             str(minutes), "--threads", "1", "--out", str(folder / c), "--force", "--json"],
            stdout=subprocess.PIPE, text=True)
    out = {}
    for c, p in procs.items():
        text, _ = p.communicate()
        if p.returncode != 0:
            raise SystemExit(f"training {c} failed (exit {p.returncode})")
        out[c] = json.loads(text.strip().splitlines()[-1])
    return out


def evaluate(folder: Path, a: argparse.Namespace) -> dict[str, Any]:
    from pokerlab.arena import play_match, run_lbr

    spec = {c: f"policy:{folder / c / 'policy.npz'}" for c in CARDS}
    res: dict[str, Any] = {"load_before": os.getloadavg()[0], "matches": {}, "lbr": {}}
    t = time.perf_counter()
    m = play_match(spec["pa"], spec["hs"], hands=a.hands, duplicate=True, seed=a.seed,
                   stack_bb=100.0, workers=a.workers)
    res["matches"]["pa vs hs"] = _m(m, time.perf_counter() - t)
    for c in CARDS:
        for opp, n in (("tag", a.tag_hands), ("call", a.tag_hands),
                       ("blueprint-100", a.hands)):
            t = time.perf_counter()
            m = play_match(spec[c], opp, hands=n, duplicate=True, seed=a.seed, stack_bb=100.0,
                           workers=a.workers)
            res["matches"][f"{c} vs {opp}"] = _m(m, time.perf_counter() - t)
        for acts in ("fc", "fcpa"):
            r = run_lbr(spec[c], actions=acts, hands=a.lbr_hands, seed=a.seed, stack_bb=100.0,
                        workers=a.workers)
            res["lbr"][f"{c} {acts}"] = {"mbb": r.mbb, "ci95_mbb": r.ci95_mbb,
                                         "hands": r.hands, "seconds": r.seconds}
    res["load_after"] = os.getloadavg()[0]
    return res


def _m(m: Any, seconds: float) -> dict[str, Any]:
    return {"mbb": m.mean_mbb, "ci95_mbb": m.ci95_mbb, "hands": m.hands,
            "seconds": round(seconds, 1)}


def table(trained: dict[str, Any], ev: dict[str, Any]) -> str:
    lines = ["| cards | iterations | it/s | info sets | vs the other | vs shipped | vs tag "
             "| vs call | LBR fc | LBR fcpa |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    pm = ev["matches"]["pa vs hs"]
    for c in CARDS:
        tr = trained.get(c, {})
        sign = 1.0 if c == "pa" else -1.0
        cell = lambda d, s=1.0: f"{s * d['mbb']:+.0f} +- {d['ci95_mbb']:.0f}"  # noqa: E731
        lines.append(
            f"| `{c}` | {tr.get('iterations', 0):,} | {tr.get('iterations_per_s', 0):,.0f} | "
            f"{tr.get('infosets', 0):,} | {cell(pm, sign)} | "
            f"{cell(ev['matches'][f'{c} vs blueprint-100'])} | "
            f"{cell(ev['matches'][f'{c} vs tag'])} | {cell(ev['matches'][f'{c} vs call'])} | "
            f"{cell(ev['lbr'][f'{c} fc'])} | {cell(ev['lbr'][f'{c} fcpa'])} |")
    n = pm["hands"]
    nt = ev["matches"]["pa vs tag"]["hands"]
    nl = ev["lbr"]["pa fc"]["hands"]
    lines.append("")
    lines.append(f"mbb/hand +- 95% CI at 100 bb; matches duplicate ({n:,} hands between the "
                 f"two and against the shipped `blueprint-100`, {nt:,} against each rule "
                 f"agent), LBR {nl:,} hands per setting "
                 f"(both seats); load average {ev['load_before']:.1f} before, "
                 f"{ev['load_after']:.1f} after.")
    return "\n".join(lines)


def write(text: str) -> None:
    from search_safety import write_block

    write_block(DOC, NAME, text)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", type=Path, required=True)
    ap.add_argument("--train", action="store_true")
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--preset", default="small")
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--tag-hands", type=int, default=40_000)
    ap.add_argument("--lbr-hands", type=int, default=5_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    a.dir.mkdir(parents=True, exist_ok=True)
    trained_path = a.dir / "trained.json"
    if a.train:
        trained = train(a.dir, a.minutes, a.preset)
        trained_path.write_text(json.dumps(trained, indent=1))
    trained = json.loads(trained_path.read_text()) if trained_path.is_file() else {}
    ev = evaluate(a.dir, a)
    text = table(trained, ev)
    if a.json:
        print(json.dumps({"trained": trained, "evaluation": ev}, indent=1))
    else:
        print(text)
    if not a.no_write:
        write(text)


if __name__ == "__main__":
    main()
