"""LBR of the searching agent against LBR of the blueprint it searches over, on the same
deals (issue 25: "LBR (fcpa) of ``search`` below the blueprint's").

Both agents are played by the same LBR (``--actions``, default ``fcpa``, from
``--from-round``, default 4: LBR checks and calls until the river, where ``search``
starts by default, then folds, calls, bets the pot or goes all-in), deal for deal with
the same seeds. Before the search street both agents play the blueprint with the same
draws, so the per-deal difference isolates what searching changes; its 95% CI (over the
deals) is much narrower than either LBR's own.

``--estimator expected`` plays each deal with the agent's hand and action draws integrated
out (:func:`pokerlab.evaluation.lbr_core.play_expected_hand`: the same mean per deal set,
a much smaller SD per deal, many more range queries per deal); the default is ``sampled``.

``--search SPEC`` (default ``search(iters=100)``: a fixed number of DCFR iterations per
decision, about 60-100 ms of one core on a full-range river here, so the numbers do not
depend on the machine's speed) and ``--base SPEC`` (default ``blueprint-100``).

Writes the table between ``<!-- search_lbr:begin -->`` and ``<!-- search_lbr:end -->`` of
docs/search.md (``--no-write`` to only print).

``--save-deals FILE.npz`` keeps the per-deal chips of both agents (and the run's settings);
``--versus FILE.npz`` pairs this run's searcher with the searcher of such an earlier run on
the same deals (same seed, stack, actions, round and estimator, checked; its deals must hold
this run's), so two searcher configurations are compared deal for deal (``versus`` in the
JSON: this run's minus the earlier one's, overall and by seat).  ``--first-deal K`` plays
deals K .. K + deals - 1, so a run can be extended in parts (``benchmarks/lbr_deals.py``
joins saved parts and pairs saved runs).

Usage: ``python benchmarks/search_lbr.py [--deals 1000] [--first-deal 0] [--search SPEC] [--base SPEC]
[--actions fcpa] [--from-round 4] [--stack 100] [--seed 1] [--workers 2]
[--estimator sampled|expected|active] [--save-deals FILE.npz] [--versus FILE.npz] [--json] [--no-write]``
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "search.md"
NAME = "search_lbr"

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_opponents import fail  # noqa: E402


@dataclass(frozen=True)
class Chunk:
    spec: str
    actions: str
    from_round: int
    stack_bb: float
    seed: int
    deals: tuple[int, ...]
    estimator: str = "sampled"


def run_chunk(c: Chunk) -> tuple[np.ndarray, dict[str, Any], dict[str, np.ndarray]]:
    """LBR's chips per deal and seat against ``c.spec`` (built here), its counters and
    (``expected``/``active`` estimators) the chips by outcome (:meth:`HoldemSession.outcome`)."""
    from pokerlab.evaluation.lbr import LBRConfig, per_deal_holdem
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.registry import make_agent

    cfg = HoldemConfig.from_bb(c.stack_bb)
    agent = make_agent(c.spec, game="hunl", config=cfg)
    lbr = LBRConfig(actions=c.actions, from_round=c.from_round, hands=len(c.deals),
                    seed=c.seed, estimator=c.estimator)
    outcomes: dict[str, np.ndarray] | None = {} if c.estimator != "sampled" else None
    per = per_deal_holdem(agent, cfg, lbr, list(c.deals), outcomes=outcomes)
    counters = agent.counters() if hasattr(agent, "counters") else {}
    return (per, {k: v for k, v in counters.items() if isinstance(v, (int, float))},
            outcomes or {})


def lbr_per_deal(spec: str, a: argparse.Namespace
                 ) -> tuple[np.ndarray, dict[str, Any], float, dict[str, np.ndarray]]:
    from pokerlab.executor import default_backend, map_chunks

    n = a.deals
    parts = max(1, min(n, 4 * a.workers))
    bounds = [round(n * k / parts) for k in range(parts + 1)]
    chunks = [Chunk(spec, a.actions, a.from_round, a.stack, a.seed,
                    tuple(range(a.first_deal + lo, a.first_deal + hi)), a.estimator)
              for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]
    t = time.perf_counter()
    res = map_chunks(run_chunk, chunks, backend=default_backend(a.workers, None),
                     workers=a.workers)
    per = np.concatenate([r[0] for r in res])
    counters: dict[str, Any] = {}
    outcomes: dict[str, np.ndarray] = {}
    row = 0
    for p, d, o in res:
        for k, v in d.items():
            counters[k] = counters.get(k, 0) + v
        for k, x in o.items():
            outcomes.setdefault(k, np.zeros_like(per))[row:row + len(p)] = x
        row += len(p)
    return per, counters, time.perf_counter() - t, outcomes


def coarse(key: str) -> str:
    """An outcome's first street with betting and where the hand ended: ``"T Lb Af"`` stays,
    ``"T Lx Ab Lc | R Lx Ax sd"`` becomes ``"T Lx Ab Lc | R ..."`` (``pokerlab lbr --by-line
    street``)."""
    from pokerlab.evaluation.lbr_core import line_group

    return line_group(key, "street")


def opening(key: str) -> str:
    """An outcome's first two actions (``"T Lx Ab"``; ``pokerlab lbr --by-line opening``)."""
    from pokerlab.evaluation.lbr_core import line_group

    return line_group(key, "opening")


def by_outcome(base: dict[str, np.ndarray], search: dict[str, np.ndarray], n: int,
               group: Any = None, top: int = 25) -> list[dict[str, Any]]:
    """LBR's mbb/hand by outcome (grouped by ``group(key)`` if given) for base and
    search, and the paired difference with its 95% CI, largest differences first."""
    def grouped(o: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for k, x in o.items():
            g = group(k) if group is not None else k
            out[g] = out.get(g, np.zeros((n, 2))) + x
        return out

    b, s = grouped(base), grouped(search)
    rows = []
    for k in set(b) | set(s):
        xb, xs = b.get(k, np.zeros((n, 2))), s.get(k, np.zeros((n, 2)))
        rows.append({"outcome": k, "base_mbb": stats(xb)["mbb"], "search_mbb": stats(xs)["mbb"],
                     "difference": stats(xs - xb)})
    rows.sort(key=lambda r: -abs(r["difference"]["mbb"]))
    return rows[:top]


def stats(x: np.ndarray) -> dict[str, float]:
    """Mean and 95% CI (mbb/hand) of per-deal means (chips; big blind 100)."""
    from pokerlab.evaluation.lbr_core import line_stats

    return line_stats(x, 100.0)


def table(ev: dict[str, Any], a: argparse.Namespace) -> str:
    from pokerlab.agents.search.state import ERROR_PREFIX

    c = lambda d: f"{d['mbb']:+.0f} +- {d['ci95_mbb']:.0f}"  # noqa: E731
    lines = ["| LBR against | actions, from round | deals (hands) | LBR mbb/hand | seconds |",
             "|---|---|---:|---:|---:|"]
    for key in ("base", "search"):
        d = ev[key]
        lines.append(f"| `{d['spec']}` | {a.actions}, {a.from_round} | {a.deals:,} "
                     f"({2 * a.deals:,}) | {c(d)} | {d['seconds']:.0f} |")
    lines.append(f"| difference (search - base), same deals | | | **{c(ev['difference'])}** | |")
    for name, d in ev.get("by_seat", {}).items():
        who = "LBR as the big blind" if name == "lbr_big_blind" else "LBR as the button"
        lines.append(f"| {who}: base / search / difference | | | {c(d['base'])} / {c(d['search'])} "
                     f"/ {c(d['difference'])} | |")
    if "versus" in ev:
        v = ev["versus"]
        seats = " / ".join(c(v["by_seat"][k]) for k in ("lbr_big_blind", "lbr_button"))
        lines.append(f"| difference (search - `{v['spec']}`, an earlier run), same deals; LBR as "
                     f"big blind / as button {seats} | | | **{c(v['difference'])}** | |")
    lines.append("")
    src = ev["versus"] if "by_first_street" in ev.get("versus", {}) else ev
    other = "the earlier run" if src is not ev else "base"
    for key, what in (("by_opening", "first two actions"), ("by_first_street", "first street")):
        if not src.get(key):
            continue
        lines += [f"| LBR's {what} from its first round (L: LBR, A: the agent; x check, c call, "
                  f"f fold, b bet/raise, a all-in) | {other} | search | difference |",
                  "|---|---:|---:|---:|"]
        for r in src[key][:12]:
            name = r["outcome"].replace(" | ", " / ")
            lines.append(f"| `{name}` | {r['base_mbb']:+.0f} | {r['search_mbb']:+.0f} "
                         f"| {c(r['difference'])} |")
        lines.append("")
    sc = ev["search"].get("counters", {})
    extra = (f"; the searcher solved {sc.get('searches', 0):,} decisions and fell back to the "
             f"base policy on {sc.get('fallbacks', 0):,}" if sc else "")
    errors = {k[len(ERROR_PREFIX):]: int(v) for k, v in sc.items() if k.startswith(ERROR_PREFIX)}
    if errors:
        extra += " (errors: " + "; ".join(f"{n} x {m}" for m, n in sorted(errors.items())) + ")"
    lines.append(f"At {a.stack:g} bb, seed {a.seed}, {a.estimator} estimator, {a.workers} "
                 f"worker process(es); load "
                 f"average {ev['load_before']:.1f} before, {ev['load_after']:.1f} after"
                 f"{extra}. Negative difference: searching makes the agent less exploitable "
                 "by this LBR.")
    return "\n".join(lines)


def load_versus(path: str, settings: dict[str, Any]
                ) -> tuple[np.ndarray, str, dict[str, np.ndarray]]:
    """The searcher's per-deal chips, spec and chips by outcome (empty if not saved) of an
    earlier run saved with ``--save-deals``, cut to this run's deals: its settings must
    equal ``settings`` but for the deals, and its deals (``first`` .. ``first + deals``)
    must hold this run's."""
    from lbr_deals import load

    run = load(path)
    saved, search, spec, outcomes = run.settings, run.search, run.spec, run.outcomes
    same = {k: v for k, v in settings.items() if k not in ("deals", "first")}
    if any(saved.get(k) != v for k, v in same.items()):
        diff = ", ".join(f"{k} {saved.get(k)!r} there, {v!r} here" for k, v in same.items()
                         if saved.get(k) != v)
        raise fail(f"--versus {path}: other deals ({diff})")
    lo = settings["first"] - saved["first"]
    hi = lo + settings["deals"]
    if lo < 0 or hi > saved["deals"]:
        held = f"{saved['first']}..{saved['first'] + saved['deals'] - 1}"
        raise fail(f"--versus {path}: it holds deals {held}, "
                   f"this run plays {settings['first']}..{settings['first'] + settings['deals'] - 1}")
    return search[lo:hi], spec, {k: x[lo:hi] for k, x in outcomes.items()}


def by_seat(x: np.ndarray) -> dict[str, dict[str, float]]:
    """:func:`stats` of LBR as the big blind (seat 0: it acts first after the flop, the agent
    is the button) and as the button (seat 1): that seat's column, one value per deal."""
    return {name: stats(x[:, seat:seat + 1]) for seat, name in ((0, "lbr_big_blind"), (1, "lbr_button"))}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--first-deal", type=int, default=0,
                    help="play deals K .. K + deals - 1 (to extend an earlier run)")
    ap.add_argument("--search", default="search(iters=100)")
    ap.add_argument("--base", default="blueprint-100")
    ap.add_argument("--actions", default="fcpa")
    ap.add_argument("--from-round", type=int, default=4)
    ap.add_argument("--stack", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--estimator", choices=("sampled", "expected", "active"), default="sampled",
                    help="LBR's per-deal estimator (expected: the agent's hand and action "
                    "draws integrated out)")
    ap.add_argument("--save-deals", default="", help="keep the per-deal chips in this .npz")
    ap.add_argument("--versus", default="", help="pair the searcher with an earlier run's (.npz)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    if a.deals < 1 or a.first_deal < 0:
        raise fail(f"--deals must be >= 1 and --first-deal >= 0, got {a.deals} and {a.first_deal}")
    settings = {"seed": a.seed, "deals": a.deals, "first": a.first_deal, "stack": a.stack,
                "actions": a.actions, "from_round": a.from_round, "estimator": a.estimator}
    if a.save_deals and Path(a.save_deals).exists():
        raise fail(f"--save-deals {a.save_deals}: exists; a run never replaces another's file")
    earlier = load_versus(a.versus, settings) if a.versus else None
    ev: dict[str, Any] = {"load_before": os.getloadavg()[0], "estimator": a.estimator}
    per, outs = {}, {}
    for key, spec in (("base", a.base), ("search", a.search)):
        p, counters, secs, outs[key] = lbr_per_deal(spec, a)
        per[key] = p
        ev[key] = {"spec": spec, **stats(p), "seconds": round(secs, 1), "counters": counters}
    if outs["base"] or outs["search"]:
        ev["by_outcome"] = by_outcome(outs["base"], outs["search"], a.deals)
        ev["by_first_street"] = by_outcome(outs["base"], outs["search"], a.deals, coarse)
        ev["by_opening"] = by_outcome(outs["base"], outs["search"], a.deals, opening)
    ev["difference"] = stats(per["search"] - per["base"])
    seats = {key: by_seat(x) for key, x in (("base", per["base"]), ("search", per["search"]),
                                            ("difference", per["search"] - per["base"]))}
    ev["by_seat"] = {name: {key: seats[key][name] for key in seats} for name in seats["base"]}
    if earlier is not None:
        other, spec, other_out = earlier
        d = per["search"] - other
        ev["versus"] = {"spec": spec, "difference": stats(d), "by_seat": by_seat(d)}
        if other_out and outs["search"]:
            ev["versus"]["by_first_street"] = by_outcome(other_out, outs["search"], a.deals,
                                                         coarse)
            ev["versus"]["by_opening"] = by_outcome(other_out, outs["search"], a.deals, opening)
    if a.save_deals:
        from lbr_deals import Run, save

        save(Run(a.save_deals, a.search, settings, per["base"], per["search"], outs["search"]),
             a.save_deals)
    ev["load_after"] = os.getloadavg()[0]
    text = table(ev, a)
    print(json.dumps(ev, indent=1) if a.json else text)
    if not a.no_write:
        from search_safety import write_block

        write_block(DOC, NAME, text)


if __name__ == "__main__":
    main()
