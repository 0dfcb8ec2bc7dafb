"""The thesis agent's two trainers against the thesis's figures (docs/thesis.md; issue 30).

Trains, on the same budget of hole-card pairs (memory storage, seed 0, the default
``ThesisConfig`` otherwise), the MCCFR variant (``update="mccfr"``, external-sampling
traversals) and the thesis's own update (``update="thesis"``: simultaneous self-play of
the two instances, every action valued by one game's outcome), each with the fold rule
("move" and, for the thesis update, "credit") and without it; the thesis update also with
1,000 games per pair (the thesis's over-fitting experiment) and without pruning.  Each
trained policy (average strategy; the current one as well) then plays ``--hands``
self-play hands in its own tree, and the thesis's per-game statistics are measured with
its definitions (docs/hands.md): entered share, all-in, showdown, raise / pot and bets per
phase.  Nothing in the docs block is typed by hand: the script rewrites the part of
docs/thesis.md between the markers and writes ``docs/thesis_variants.json``.

Usage: python benchmarks/thesis_variants.py [--pairs N] [--hands N] [--quick] [--no-docs]
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from pokerlab.blueprint import thesis as T
from pokerlab.blueprint import thesis_run as TR
from pokerlab.io import atomic_write_json, atomic_write_text

BEGIN = "<!-- thesis-variants:begin (benchmarks/thesis_variants.py writes this block) -->"
END = "<!-- thesis-variants:end -->"

THESIS_AGENT = {"entered_share": 1.0, "allin_share": 1 / 3, "showdown_share": 0.03,
                "raise_pot_ratio": 5.16}
"""The thesis's agent in self-play (about 1,000 games)."""
THESIS_HUMANS = {"entered_share": 0.25, "allin_share": 0.065, "showdown_share": 0.125,
                 "raise_pot_ratio": 1.30}
BETS_HUMANS_USD = [11.66, 7.32, 10.38, 8.84]
"""The thesis's bet per phase, humans (US dollars, its online hands)."""
BETS_AGENT_EUR = [19.0, 28.0, 8.0, 1.0]
"""The thesis's bet per phase, its agent (euros; the river "about 1")."""

VARIANTS: list[tuple[str, dict[str, Any], float]] = [
    # (name, config changes, share of --pairs)
    ("mccfr, fold rule (move)", {"update": "mccfr"}, 1.0),
    ("mccfr, no fold rule", {"update": "mccfr", "fold_rule": False}, 1.0),
    ("thesis update, fold rule (move)", {"update": "thesis"}, 1.0),
    ("thesis update, fold rule (credit)", {"update": "thesis", "fold_rule_mode": "credit"}, 1.0),
    ("thesis update, no fold rule", {"update": "thesis", "fold_rule": False}, 1.0),
    ("thesis update, fold rule, no pruning", {"update": "thesis", "prune": False}, 1.0),
    ("mccfr, fold rule (move), 200 pairs", {"update": "mccfr"}, 0.01),
    ("mccfr, fold rule (move), 2,000 pairs", {"update": "mccfr"}, 0.1),
    ("thesis update, fold rule (move), 200 pairs", {"update": "thesis"}, 0.01),
    ("thesis update, fold rule (move), 2,000 pairs", {"update": "thesis"}, 0.1),
    ("thesis update, fold rule, 1,000 games per pair",
     {"update": "thesis", "early_batch": 1000, "batch": 1000}, 0.1),
    ("thesis update, no fold rule, 1,000 games per pair",
     {"update": "thesis", "fold_rule": False, "early_batch": 1000, "batch": 1000}, 0.1),
]

KEYS = ("entered_share", "allin_share", "showdown_share", "raise_pot_ratio")


def _profile(bets: list[float | None]) -> list[float | None]:
    """Bets per phase as shares of the four phases' sum: stake-free, so rows in dollars,
    euros and big blinds compare on one scale."""
    vals = [b or 0.0 for b in bets]
    tot = sum(vals)
    return [round(v / tot, 3) if tot > 0 else None for v in vals]


def _distance(s: dict[str, Any]) -> float:
    """Distance to the thesis agent's four figures: the absolute differences of the three
    shares plus ``|ln(raise_pot / 5.16)|`` (the ratio spans orders of magnitude: a preflop
    shove into the blinds alone is 13,300%)."""
    d = sum(abs(float(s[k]) - THESIS_AGENT[k]) for k in KEYS[:3])
    rp = s["raise_pot_ratio"]
    d += abs(math.log(float(rp) / 5.16)) if rp else 10.0
    return round(d, 3)


def verdict(out: dict[str, Any]) -> None:
    """``closest`` and ``reproduced`` (entered, all-in and showdown each within 5 points)."""
    for v in out["variants"]:
        v["distance_to_thesis"] = _distance(v["average"])
    best = min(out["variants"], key=lambda v: v["distance_to_thesis"])
    out["closest"] = best["name"]
    out["reproduced"] = [v["name"] for v in out["variants"] if all(
        abs(v["average"][k] - THESIS_AGENT[k]) <= 0.05 for k in KEYS[:3])]


def run(pairs: int, hands: int, seed: int) -> dict[str, Any]:
    base = T.ThesisConfig(storage="memory", seed=seed)
    tree = T.build_tree(base)
    out: dict[str, Any] = {"pairs": pairs, "hands": hands, "seed": seed,
                           "stack_bb": base.stack_bb, "variants": []}
    for name, changes, share in VARIANTS:
        cfg = replace(base, **changes)
        n = max(1, int(round(pairs * share)))
        t0 = time.perf_counter()
        r = T.train_thesis(cfg, pairs=n, window=max(1, n // 5), keep_strategy=True)
        wall = time.perf_counter() - t0
        assert r.strategy is not None and r.current_strategy is not None
        avg = TR.play_stats(tree, r.strategy, games=hands, seed=seed + 1,
                           big_blind=cfg.big_blind)
        cur = TR.play_stats(tree, r.current_strategy, games=hands, seed=seed + 1,
                           big_blind=cfg.big_blind)
        s = r.summary()
        row = {"name": name, "config": changes, "pairs": r.pairs, "games": r.games,
               "train_seconds": round(wall, 1), "settled_nodes": s["settled_nodes"],
               "training_games_window": s["selfplay_games"],
               "training_allin_share": s["selfplay_allin_share"],
               "training_fold_share": s["selfplay_fold_share"],
               "average": avg, "current": cur, "distance_to_thesis": _distance(avg)}
        out["variants"].append(row)
        print(json.dumps({"variant": name, "seconds": row["train_seconds"],
                          "entered": avg["entered_share"], "allin": avg["allin_share"]}),
              flush=True)
    verdict(out)
    return out


def _pct(x: float | None, ci: float | None = None) -> str:
    if x is None:
        return "-"
    s = f"{100 * x:.1f}%" if x < 10 else f"{100 * x:,.0f}%"
    return s + (f" +- {100 * ci:.1f}" if ci is not None else "")


def _bets(b: list[Any]) -> str:
    return " / ".join("-" if v is None else f"{v:.3g}" for v in b)


def markdown(res: dict[str, Any]) -> str:
    L = [BEGIN, "",
         f"Budget: {res['pairs']:,} hole-card pairs per variant (unless named; a tenth of "
         f"that with 1,000 games per pair), {res['stack_bb']:.0f} bb stacks, seed {res['seed']}; each policy "
         f"(average strategy) then plays {res['hands']:,} self-play hands in its own tree "
         "(95% CIs; thesis definitions, docs/hands.md). Training all-in / fold: the sampled "
         "self-play games of the last fifth of the pairs (current strategies). Regenerate "
         "with `python benchmarks/thesis_variants.py`.", "",
         "| variant | pairs (games) | train s | entered | all-in | showdown | raise / pot "
         "| training all-in / fold | distance |",
         "|---|---|---|---|---|---|---|---|---|",
         "| *thesis: its agent in self-play* | | | 100% | ~33% | 3% | 516% | | 0 |",
         "| *thesis: humans* | | | 25% | 6.5% | ~12.5% | 130% | | |"]
    for v in res["variants"]:
        a = v["average"]
        L.append(f"| {v['name']} | {v['pairs']:,} ({v['games']:,}) | {v['train_seconds']} | "
                 f"{_pct(a['entered_share'], a['entered_ci'])} | "
                 f"{_pct(a['allin_share'], a['allin_ci'])} | "
                 f"{_pct(a['showdown_share'], a['showdown_ci'])} | "
                 f"{_pct(a['raise_pot_ratio'])} | {_pct(v['training_allin_share'])} / "
                 f"{_pct(v['training_fold_share'])} | {v['distance_to_thesis']} |")
    L += ["", "Current strategies at the end of training (same hands): " + "; ".join(
        f"{v['name']}: entered {_pct(v['current']['entered_share'])}, all-in "
        f"{_pct(v['current']['allin_share'])}, showdown {_pct(v['current']['showdown_share'])}"
        for v in res["variants"]) + ".", ""]
    rep = res["reproduced"]
    L.append(f"**Reproduced** (entered, all-in and showdown each within 5 points of the "
             f"thesis's): {', '.join(rep) if rep else 'none'}. Closest by distance (sum of the "
             f"absolute differences of the three shares plus |ln(raise/pot / 516%)|): "
             f"{res['closest']}.")
    nof = [v for v in res["variants"] if v["config"].get("fold_rule") is False]
    L.append("Eternal all-in (without the fold rule, the share of the training's sampled "
             "games that end all-in): " + "; ".join(
                 f"{v['name']}: {_pct(v['training_allin_share'])}" for v in nof) + ".")
    L += ["", "Bet per phase (preflop / flop / turn / river, both players, over the hands "
          "that reached the phase). The thesis gives currency (humans in dollars, its agent "
          "in euros) without stakes, so every row is also shown as shares of its four "
          "phases' sum, the one scale on which dollars, euros and big blinds compare:", "",
          "| row | per phase | unit | shares of the sum |", "|---|---|---|---|",
          f"| *thesis: humans* | {_bets(BETS_HUMANS_USD)} | $ | "
          f"{_bets(_profile(BETS_HUMANS_USD))} |",
          f"| *thesis: its agent* | {_bets(BETS_AGENT_EUR)} | EUR | "
          f"{_bets(_profile(BETS_AGENT_EUR))} |"]
    for v in res["variants"]:
        b = v["average"]["bet_per_street_bb"]
        L.append(f"| {v['name']} | {_bets(b)} | bb | {_bets(_profile(b))} |")
    L += ["", END]
    return "\n".join(L)


def write_docs(res: dict[str, Any], doc: Path) -> None:
    text = doc.read_text()
    block = markdown(res)
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    atomic_write_text(doc, text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=20_000)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="a smoke run (no docs written)")
    ap.add_argument("--no-docs", action="store_true")
    ap.add_argument("--out-dir", default="docs")
    ap.add_argument("--from-json", default=None,
                    help="rewrite the docs block from a saved thesis_variants.json (no training)")
    args = ap.parse_args()
    pairs, hands = (200, 2000) if args.quick else (args.pairs, args.hands)
    if args.from_json:
        res = json.loads(Path(args.from_json).read_text())
        verdict(res)
    else:
        res = run(pairs, hands, args.seed)
    if not (args.quick or args.no_docs):
        d = Path(args.out_dir)
        atomic_write_json(d / "thesis_variants.json", res)
        write_docs(res, d / "thesis.md")
    print(json.dumps({k: res[k] for k in ("pairs", "hands", "closest", "reproduced")}))


if __name__ == "__main__":
    main()
