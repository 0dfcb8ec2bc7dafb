"""Saved per-deal LBR runs (``search_lbr.py --save-deals``): join parts of one run, pair two runs.

A 5,000-deal LBR of a turn searcher takes hours on two cores, so it is played in parts
(``search_lbr.py --first-deal K --deals N``) and joined here; two searchers saved on the
same settings are compared deal for deal over the deals both hold.

* ``join A.npz B.npz ... --out C.npz``: the parts of one run (the same searcher, base and
  settings; deal ranges that follow each other, in any order) as one file, as if played at
  once; the base's chips must agree where parts overlap, which is refused.
* ``pair A.npz B.npz``: A's searcher minus B's over the deals both hold (the same seed,
  stack, actions, round and estimator), mbb/hand with its 95% CI, overall and by LBR's seat;
  the base (the blueprint) is checked to be the same deal for deal, so the deals are the
  same deals.

Usage: ``python benchmarks/lbr_deals.py join A.npz B.npz [...] --out C.npz [--json]`` and
``python benchmarks/lbr_deals.py pair A.npz B.npz [--json]``.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_opponents import fail  # noqa: E402

SAME = ("seed", "stack", "actions", "from_round", "estimator")
"""The settings two saved runs must share to be on the same deals."""


@dataclass
class Run:
    """One saved run: per-deal chips (deals x LBR's seat) of the base and the searcher, the
    searcher's chips by outcome, its spec and settings (``first``: its first deal)."""

    path: str
    spec: str
    settings: dict[str, Any]
    base: np.ndarray
    search: np.ndarray
    outcomes: dict[str, np.ndarray]

    @property
    def first(self) -> int:
        return int(self.settings.get("first", 0))

    @property
    def end(self) -> int:
        return self.first + int(self.settings["deals"])


def load(path: str) -> Run:
    try:
        with np.load(path, allow_pickle=False) as z:
            settings = json.loads(str(z["settings"]))
            keys = json.loads(str(z["outcome_keys"])) if "outcome_keys" in z else []
            arr = np.asarray(z["outcomes"], dtype=np.float64) if keys else None
            run = Run(path, str(z["spec"]), settings, np.asarray(z["base"], dtype=np.float64),
                      np.asarray(z["search"], dtype=np.float64),
                      {k: arr[i] for i, k in enumerate(keys)} if arr is not None else {})
    except FileNotFoundError:
        raise fail(f"{path}: no such file") from None
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, json.JSONDecodeError):
        raise fail(f"{path}: not a file saved by search_lbr.py --save-deals") from None
    n = int(settings.get("deals", -1))
    if run.base.shape != (n, 2) or run.search.shape != (n, 2) or any(
            x.shape != (n, 2) for x in run.outcomes.values()):
        raise fail(f"{path}: its arrays do not hold the {n} deals its settings name")
    settings.setdefault("first", 0)
    return run


def check_same(a: Run, b: Run) -> None:
    diff = [f"{k} {a.settings.get(k)!r} in {a.path}, {b.settings.get(k)!r} in {b.path}"
            for k in SAME if a.settings.get(k) != b.settings.get(k)]
    if diff:
        raise fail("other deals: " + "; ".join(diff))


def stats(x: np.ndarray) -> dict[str, float]:
    from pokerlab.evaluation.lbr_core import line_stats

    return line_stats(x, 100.0)


def join(runs: list[Run]) -> Run:
    """The parts as one run (sorted by first deal; they must follow each other)."""
    if len(runs) < 2:
        raise fail("join needs two or more parts")
    runs = sorted(runs, key=lambda r: r.first)
    for r in runs[1:]:
        check_same(runs[0], r)
        if r.spec != runs[0].spec:
            raise fail(f"{r.path} holds {r.spec!r}, {runs[0].path} {runs[0].spec!r}: parts of one run "
                       "have one searcher")
    for a, b in zip(runs, runs[1:], strict=False):
        if b.first != a.end:
            raise fail(f"{a.path} ends before deal {a.end}, {b.path} starts at deal {b.first}: "
                       "the parts must follow each other (no gap, no overlap)")
    n = runs[-1].end - runs[0].first
    keys = sorted(set().union(*(r.outcomes for r in runs)))
    outcomes = {k: np.concatenate([r.outcomes.get(k, np.zeros_like(r.base)) for r in runs]) for k in keys}
    settings = dict(runs[0].settings, deals=n)
    return Run("joined", runs[0].spec, settings, np.concatenate([r.base for r in runs]),
               np.concatenate([r.search for r in runs]), outcomes)


def pair(a: Run, b: Run) -> dict[str, Any]:
    """A's searcher minus B's over the deals both hold."""
    check_same(a, b)
    lo, hi = max(a.first, b.first), min(a.end, b.end)
    if hi <= lo:
        raise fail(f"{a.path} holds deals {a.first}..{a.end - 1}, {b.path} {b.first}..{b.end - 1}: "
                   "none in common")
    xa, xb = slice(lo - a.first, hi - a.first), slice(lo - b.first, hi - b.first)
    if not np.allclose(a.base[xa], b.base[xb]):
        raise fail(f"the base's chips differ between {a.path} and {b.path} on the same deal numbers: "
                   "not the same deals (another base, or another version of the deal)")
    d = a.search[xa] - b.search[xb]
    return {"a": a.spec, "b": b.spec, "deals": [lo, hi - 1], "a_mbb": stats(a.search[xa]),
            "b_mbb": stats(b.search[xb]), "base_mbb": stats(a.base[xa]), "difference": stats(d),
            "by_seat": {name: stats(d[:, s:s + 1])
                        for s, name in ((0, "lbr_big_blind"), (1, "lbr_button"))},
            "units": "mbb/hand won by LBR; difference: a - b, negative: a is less exploitable"}


def save(run: Run, out: str) -> None:
    from pokerlab.io import atomic_write_bytes

    path = Path(out)
    if path.exists():
        raise fail(f"{out}: exists; a saved run is never replaced")
    keys = sorted(run.outcomes)
    arr = np.stack([run.outcomes[k] for k in keys]) if keys else np.zeros((0, run.base.shape[0], 2))
    buf = io.BytesIO()
    np.savez(buf, base=run.base, search=run.search, spec=np.array(run.spec),
             settings=np.array(json.dumps(run.settings, sort_keys=True)),
             outcome_keys=np.array(json.dumps(keys)), outcomes=arr)
    atomic_write_bytes(path, buf.getvalue())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("join")
    j.add_argument("parts", nargs="+")
    j.add_argument("--out", required=True)
    j.add_argument("--json", action="store_true")
    p = sub.add_parser("pair")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.cmd == "join":
        run = join([load(x) for x in a.parts])
        save(run, a.out)
        out = {"out": a.out, "spec": run.spec, "deals": [run.first, run.end - 1],
               "search_mbb": stats(run.search), "base_mbb": stats(run.base),
               "units": "mbb/hand won by LBR"}
        print(json.dumps(out, indent=1) if a.json else
              f"{a.out}: {run.spec}, deals {run.first}..{run.end - 1}, LBR "
              f"{out['search_mbb']['mbb']:+.0f} +- {out['search_mbb']['ci95_mbb']:.0f} mbb/hand")
        return
    res = pair(load(a.a), load(a.b))
    if a.json:
        print(json.dumps(res, indent=1))
        return
    c = lambda d: f"{d['mbb']:+.0f} +- {d['ci95_mbb']:.0f}"  # noqa: E731
    print(f"deals {res['deals'][0]}..{res['deals'][1]}: LBR against {res['a']} {c(res['a_mbb'])}, "
          f"against {res['b']} {c(res['b_mbb'])}, the base {c(res['base_mbb'])} mbb/hand")
    print(f"difference ({res['a']} - {res['b']}): {c(res['difference'])}; LBR as big blind "
          f"{c(res['by_seat']['lbr_big_blind'])}, as button {c(res['by_seat']['lbr_button'])}")


if __name__ == "__main__":
    main()
