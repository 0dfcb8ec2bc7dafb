"""The review of the published Pluribus hands' heads-up postflop pots (docs/review.md).

The review itself is the command (run in the background, resumable: a rerun with the same
folder reuses every finished hand)::

    nohup pokerlab review tests/data/hands/pluribus.phhs.xz --hero '*' --out DIR --workers 2 &

This script reads whatever hands are finished in ``DIR/hands/`` (a run cut short included)
and reports, per player, the EV loss per decision (mean with a 95% confidence interval,
median, share of decisions at zero loss), the time per decision (CPU and wall seconds per
hand over the hands reviewed, the load average now) with the projection to 1,000 decisions,
and draws the figure (``--png``: the mean with its interval per player and the
distribution of the loss per decision).

``--check N``: the value-error check of the review settings: N spots (the first N eligible
hands whose flop ranges are at most ``--check-combos`` combos a side, so that the big solve
fits the shared machine) reviewed with the review tree and budget, then with a bigger tree
(two bet sizes a street, raises on every street) solved longer; the difference of the
scored EV loss per decision, in bb and in % of the pot.

    python benchmarks/review_pluribus.py --out DIR --png docs/review_pluribus.png [--json]
    python benchmarks/review_pluribus.py --check 4 [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PLURIBUS = ROOT / "tests" / "data" / "hands" / "pluribus.phhs.xz"


def load(out: Path) -> list[dict[str, Any]]:
    """The finished hands of a review folder (one JSON per hand)."""
    hands = []
    for f in sorted((out / "hands").glob("*.json")):
        try:
            hands.append(json.loads(f.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError):
            continue
    return hands


def ci95(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n if n else math.nan
    if n < 2:
        return m, math.nan, math.nan
    half = 1.96 * statistics.stdev(xs) / math.sqrt(n)
    return m, m - half, m + half


def summarise(hands: list[dict[str, Any]]) -> dict[str, Any]:
    decisions = [d for h in hands for d in h["decisions"]]
    players: dict[str, list[float]] = {}
    for d in decisions:
        players.setdefault(d["player"], []).append(float(d["ev_loss_bb"]))
    per = {}
    for name, xs in sorted(players.items(), key=lambda kv: -len(kv[1])):
        m, lo, hi = ci95(xs)
        per[name] = {"decisions": len(xs), "mean_bb": m, "ci95": [lo, hi], "median_bb": statistics.median(xs),
                     "zero_share": sum(1 for x in xs if x <= 1e-9) / len(xs),
                     "pct_pot_mean": statistics.fmean(float(d["ev_loss_pct_pot"]) for d in decisions
                                                      if d["player"] == name)}
    reviewed = [h for h in hands if h["decisions"]]
    cpu = sum(float(h.get("cpu_seconds", 0.0)) for h in hands)
    wall = sum(float(h.get("seconds", 0.0)) for h in hands)
    n = len(decisions)
    skipped: dict[str, int] = {}
    for h in hands:
        if h["skip"]:
            skipped[h["skip"]] = skipped.get(h["skip"], 0) + 1
    m, lo, hi = ci95([float(d["ev_loss_bb"]) for d in decisions])
    streets = {}
    for s in ("flop", "turn", "river"):
        xs = [float(d["ev_loss_bb"]) for d in decisions if d["street"] == s]
        if xs:
            sm, slo, shi = ci95(xs)
            streets[s] = {"decisions": len(xs), "mean_bb": sm, "ci95": [slo, shi]}
    return {"hands_done": len(hands), "hands_reviewed": len(reviewed), "decisions": n, "skipped": skipped,
            "mean_bb": m, "ci95": [lo, hi], "by_player": per, "by_street": streets,
            "cpu_seconds": cpu, "hand_seconds": wall,
            "cpu_seconds_per_decision": cpu / n if n else math.nan,
            "hand_seconds_per_decision": wall / n if n else math.nan,
            "load_average": list(os.getloadavg())}


def plot(summary: dict[str, Any], hands: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    decisions = [d for h in hands for d in h["decisions"]]
    names = list(summary["by_player"])
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11.0, 4.4), gridspec_kw={"width_ratios": [1, 1.4]})
    ys = np.arange(len(names))
    means = [summary["by_player"][n]["mean_bb"] for n in names]
    lo = [summary["by_player"][n]["ci95"][0] for n in names]
    hi = [summary["by_player"][n]["ci95"][1] for n in names]
    err = np.array([[m - (x if math.isfinite(x) else m) for m, x in zip(means, lo, strict=True)],
                    [(x if math.isfinite(x) else m) - m for m, x in zip(means, hi, strict=True)]])
    a1.errorbar(means, ys, xerr=err, fmt="o", capsize=4, color="tab:blue")
    a1.set_yticks(ys, [f"{n} ({summary['by_player'][n]['decisions']})" for n in names])
    a1.invert_yaxis()
    a1.set_xlabel("mean EV loss per decision (bb), 95% CI")
    a1.grid(alpha=0.3, axis="x")
    a1.set_title("per player")
    edges = np.array([0.0, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 1000.0])
    centers = np.arange(len(edges) - 1)
    width = 0.8 / max(len(names), 1)
    for k, n in enumerate(names):
        xs = np.array([float(d["ev_loss_bb"]) for d in decisions if d["player"] == n])
        counts, _ = np.histogram(np.clip(xs, 0, 999), bins=edges)
        a2.bar(centers + (k - (len(names) - 1) / 2) * width, counts / max(len(xs), 1), width=width, label=n)
    a2.set_xticks(centers, ["<0.01", ".01-.03", ".03-.1", ".1-.3", ".3-1", "1-3", "3-10", "10-30", ">30"],
                  rotation=30)
    a2.set_xlabel("EV loss per decision (bb)")
    a2.set_ylabel("share of the player's decisions")
    a2.legend(fontsize=8, ncol=2)
    a2.grid(alpha=0.3, axis="y")
    a2.set_title("distribution")
    fig.suptitle(f"Pluribus hands, heads-up postflop pots: {summary['decisions']} decisions in "
                 f"{summary['hands_reviewed']} hands reviewed", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def check(n: int, max_combos: int) -> dict[str, Any]:
    """The value-error check (module docstring)."""
    from pokerlab.hands.hand_files import iter_paths
    from pokerlab.hands.review import heads_up_from_flop, review_one
    from pokerlab.hands.review_ranges import PRESETS
    from pokerlab.hands.review_spot import ReviewConfig, Skip, flop_ranges, hand_line

    small = ReviewConfig()
    big = ReviewConfig(flop_bets="33%,75%", turn_bets="50%,100%", river_bets="50%,100%", raises="100%",
                       raise_streets="all", iterations=200, target_pct=0.3)
    rows = []
    spots = 0
    for h in iter_paths([str(PLURIBUS)]):
        if spots >= n:
            break
        if not hasattr(h, "actions") or not heads_up_from_flop(h, None):
            continue
        try:
            line = hand_line(h)
            r0, r1, _ = flop_ranges(line, dict(PRESETS))
        except Skip:
            continue
        if max(r0.sum(), r1.sum()) > max_combos:
            continue
        a = review_one(h, None, small, dict(PRESETS), threads=None)
        if not a["decisions"]:
            continue
        b = review_one(h, None, big, dict(PRESETS), threads=None)
        spots += 1
        for x, y in zip(a["decisions"], b["decisions"], strict=False):
            if (x["player"], x["street"], x["action"].split()[0]) != (y["player"], y["street"],
                                                                     y["action"].split()[0]):
                continue
            rows.append({"hand": x["hand"], "player": x["player"], "street": x["street"],
                         "action": x["action"],
                         "small_bb": x["ev_loss_bb"], "big_bb": y["ev_loss_bb"],
                         "diff_bb": x["ev_loss_bb"] - y["ev_loss_bb"],
                         "diff_pct_pot": x["ev_loss_pct_pot"] - y["ev_loss_pct_pot"],
                         "small_cpu": a["cpu_seconds"], "big_cpu": b["cpu_seconds"]})
        print(f"spot {spots}: {a['label']} {len(a['decisions'])} decisions, cpu {a['cpu_seconds']:.1f} s "
              f"vs {b['cpu_seconds']:.1f} s", file=sys.stderr, flush=True)
    diffs = [abs(r["diff_bb"]) for r in rows]
    pdiffs = [abs(r["diff_pct_pot"]) for r in rows]
    return {"spots": spots, "decisions": len(rows), "rows": rows,
            "mean_abs_diff_bb": statistics.fmean(diffs) if diffs else math.nan,
            "max_abs_diff_bb": max(diffs) if diffs else math.nan,
            "mean_abs_diff_pct_pot": statistics.fmean(pdiffs) if pdiffs else math.nan,
            "mean_loss_small_bb": statistics.fmean(r["small_bb"] for r in rows) if rows else math.nan,
            "mean_loss_big_bb": statistics.fmean(r["big_bb"] for r in rows) if rows else math.nan,
            "small": small.to_json(), "big": big.to_json(), "load_average": list(os.getloadavg())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, help="the folder of `pokerlab review ... --out DIR`")
    ap.add_argument("--png", type=Path, help="the figure (per-player EV loss)")
    ap.add_argument("--check", type=int, default=0, help="value-error check on this many spots")
    ap.add_argument("--check-combos", type=int, default=250, help="widest flop range of a checked spot")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.check:
        res = check(a.check, a.check_combos)
        if a.json:
            print(json.dumps(res))
            return
        for r in res["rows"]:
            print(f"  {r['hand']} {r['player']} {r['street']} {r['action']}: {r['small_bb']:.3f} vs "
                  f"{r['big_bb']:.3f} bb")
        print(f"{res['spots']} spots, {res['decisions']} decisions: mean |difference| "
              f"{res['mean_abs_diff_bb']:.3f} bb ({res['mean_abs_diff_pct_pot']:.2f}% pot), max "
              f"{res['max_abs_diff_bb']:.3f} bb; load {res['load_average'][0]:.1f}")
        return
    if a.out is None:
        ap.error("--out DIR (a review folder) or --check N")
    hands = load(a.out)
    s = summarise(hands)
    if a.png is not None:
        plot(s, hands, a.png)
    if a.json:
        print(json.dumps(s))
        return
    print(f"{s['hands_done']} hands done, {s['hands_reviewed']} reviewed, {s['decisions']} decisions: "
          f"mean EV loss {s['mean_bb']:.3f} bb (95% CI {s['ci95'][0]:.3f} .. {s['ci95'][1]:.3f})")
    for name, p in s["by_player"].items():
        print(f"  {name:<12} {p['decisions']:>4} decisions  mean {p['mean_bb']:.3f} bb "
              f"[{p['ci95'][0]:.3f}, {p['ci95'][1]:.3f}]  median {p['median_bb']:.3f}  "
              f"zero {p['zero_share']:.0%}")
    print(f"CPU {s['cpu_seconds_per_decision']:.1f} s / decision, hand wall "
          f"{s['hand_seconds_per_decision']:.1f} s / decision; load average {s['load_average'][0]:.1f}")


if __name__ == "__main__":
    main()
