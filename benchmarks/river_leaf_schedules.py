"""Where the river leaves' per-hand error comes from (issue 49, item 2: leaf values).

``benchmarks/leaf_values.py`` finds the depth-limited turn solve with river leaves close to
the whole tree at the root (1.5-1.7% of the pot) but 13-18% of the pot away per hand, while
the whole tree solved with the same 100 iterations is 0.3% away per hand, and the river
solved over strength classes is 1.3-3.3% from the river solved hand by hand with the same
ranges (``tests/test_river_leaves.py``).  So the per-hand error is neither the iterations nor
the classes: this script separates the leaves' schedule.  On a turn spot (the tests' narrow
ranges, pot 100, stack 400, turn bets 50% and 100% with 2.5x raises, river 33%, 75% and
150%), solved whole to ``--target`` % of the pot as the reference, each variant is the
depth-limited turn solve with ``--iters`` iterations and river leaves, compared by
:func:`leaf_values.compare` (root value error and per-hand error of each player, % of the pot):

* ``whole_n``: the whole tree with the same iterations (exact values past the turn);
* ``shipped``: the agent's schedule (leaves refreshed before iterations 1, 2, 4, 8 and every 8
  after, 12 rivers a refresh, round robin; the average strategies' reaches);
* ``every8_48``: the same refreshes, every river each time;
* ``every_12``: refreshed before every iteration, 12 rivers each (round robin);
* ``every_48``: refreshed before every iteration, every river (average reaches);
* ``cfrd_48``: refreshed at every call, every river, the walk's **current** reaches (CFR-D,
  Burch, Johanson & Bowling 2014: the river solved for the trunk's current strategies);
* ``step``: every river iterated in step with the turn, its regrets kept
  (:class:`~pokerlab.agents.river_leaves.RiverStepLeaves`, one class iteration per turn
  iteration).

Usage: ``python benchmarks/river_leaf_schedules.py [--boards Qs9h4d2c,AhKd7c4s] [--iters 100]
[--target 0.1] [--json]`` (one core; about 3-4 minutes a board).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import leaf_values as lv  # noqa: E402
from search_opponents import fail  # noqa: E402

NARROW = ("22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "55+,A8s+,KTs+,QJs,AJo+,KQo")
VARIANTS = ("whole_n", "shipped", "every8_48", "every_12", "every_48", "cfrd_48", "step")


def current_reach_leaves(base: Any) -> Any:
    """``base`` (a :class:`~pokerlab.agents.river_leaves.RiverLeaves`) answering every call with
    the river solved for the reaches of that call (CFR-D)."""
    from pokerlab.agents.river_leaves import river_values

    class CurrentReach(type(base)):  # type: ignore[misc]
        def leaf_values(self, leaf: int, player: int, mode: str, opp_reach: np.ndarray,
                        own_reach: np.ndarray) -> np.ndarray:
            self.calls += 1
            self.evaluations += 1
            reach = (own_reach, opp_reach) if player == 0 else (opp_reach, own_reach)
            v = river_values(self.trees[leaf], self.cards, self.sel, reach, iterations=self.iterations)
            return np.asarray(v[player])

    base.__class__ = CurrentReach
    return base


def turn_spot(board: str) -> Any:
    """The benchmark's turn spot on ``board``: the tests' narrow ranges, pot 100, stack 400,
    turn bets 50% and 100% with 2.5x raises, river 33%, 75% and 150%."""
    from pokerlab.subgame.spot import make_spot, tree_config

    tree = tree_config(bets="50%,100%", raises="2.5x", river_bets="33%,75%,150%")
    return make_spot(board=board, pot=100, stack=400, oop=NARROW[0], ip=NARROW[1], tree=tree)


def turn_boards(text: str) -> list[str]:
    """``--boards``: turn boards (4 cards) separated by commas; one clear line otherwise."""
    from pokerlab.cards.cards import parse_cards
    from pokerlab.errors import PokerlabError

    boards = [b.strip() for b in text.split(",") if b.strip()]
    try:
        if not boards or any(len(parse_cards(b)) != 4 for b in boards):
            raise fail(f"--boards takes turn boards (4 cards) separated by commas, got {text!r}")
    except PokerlabError as exc:
        raise fail(f"--boards: {exc}") from None
    return boards


def run_board(board: str, iters: int, target: float) -> dict[str, Any]:
    from pokerlab.agents.river_leaves import build_river_leaves
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    spot = turn_spot(board)
    c0 = time.process_time()
    whole = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    pct = whole.solve(iterations=5000, target_pct=target)
    out: dict[str, Any] = {"board": board, "whole_iterations": int(whole.iteration), "whole_pct": float(pct),
                           "whole_cpu_s": time.process_time() - c0, "variants": {}}

    def limited(runouts: int, every: bool, current: bool = False) -> Any:
        s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
        m = build_river_leaves(s, spot, runouts=runouts, seed=12345)
        if current:
            current_reach_leaves(m)
        if not every:
            return lv.lazy_solve(spot, m, iters)
        s.set_leaf_model(m)
        for _ in range(iters):
            m.refresh()
            s.step()
        m.refresh()
        return s

    for name in VARIANTS:
        c0 = time.process_time()
        if name == "whole_n":
            s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
            s.steps(iters)
        elif name == "shipped":
            s = limited(0, every=False)
        elif name == "every8_48":
            s = limited(48, every=False)
        elif name == "every_12":
            s = limited(12, every=True)
        elif name == "every_48":
            s = limited(48, every=True)
        elif name == "cfrd_48":
            s = limited(48, every=True, current=True)
        else:
            from pokerlab.agents.river_leaves import build_step_leaves

            s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
            s.set_leaf_model(build_step_leaves(s, spot))
            s.steps(iters)
        cpu = time.process_time() - c0
        errs = [lv.compare(s, whole, p) for p in (0, 1)]
        out["variants"][name] = {"cpu_s": cpu, "root_error": [e["searcher_error"] for e in errs],
                                 "hand_error": [e["hand_error"] for e in errs]}
        print(f"{board} {name}: root {errs[0]['searcher_error']:.2f} / {errs[1]['searcher_error']:.2f}, "
              f"per hand {errs[0]['hand_error']:.2f} / {errs[1]['hand_error']:.2f} % of the pot, "
              f"{cpu:.1f} s", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default="Qs9h4d2c,AhKd7c4s")
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--target", type=float, default=0.1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    boards = turn_boards(a.boards)
    if a.iters < 1 or not 0 < a.target < 100:
        raise fail("--iters must be >= 1 and --target a percentage of the pot in (0, 100)")
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = [run_board(b, a.iters, a.target) for b in boards]
    mean = {v: {"root_error": float(np.mean([r["variants"][v]["root_error"] for r in rows])),
                "hand_error": float(np.mean([r["variants"][v]["hand_error"] for r in rows])),
                "cpu_s": float(np.mean([r["variants"][v]["cpu_s"] for r in rows]))} for v in VARIANTS}
    out = {"started": started, "iters": a.iters, "target_pct": a.target, "unit": "% of the pot",
           "boards": rows, "mean": mean}
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{len(rows)} turn boards, {a.iters} iterations, reference: the whole tree to {a.target}% "
          f"({started})\n\n| variant | root value error | per-hand error | CPU s |\n|---|---:|---:|---:|")
    for v in VARIANTS:
        m = mean[v]
        print(f"| `{v}` | {m['root_error']:.2f} | {m['hand_error']:.2f} | {m['cpu_s']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
