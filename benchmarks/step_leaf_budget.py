"""What the in-step river leaves give for their CPU (issue 49, item 2: leaf values "good and
cheap"), and how far their turn strategy is from the whole tree's.

On the turn spots of ``benchmarks/river_leaf_schedules.py`` (the tests' narrow ranges, pot
100, stack 400, turn bets 50% and 100% with 2.5x raises, river 33%, 75% and 150%), each row
is the depth-limited turn solve with :class:`~pokerlab.agents.river_leaves.RiverStepLeaves`:
``--rivers`` rivers iterated per turn iteration (48: every one; fewer: a seeded round robin,
the values weighted as chance sampling) and ``--iters`` iterations.  Against the whole tree
solved to ``--target`` % of the pot (the reference), per row:

* CPU seconds of the solve (one core);
* root value error and per-hand error (:func:`leaf_values.compare`, % of the pot, mean over
  both players);
* the first player's check share at the root and the second's after a check (each over its
  range), beside the whole tree's: values close to the whole tree's do not make the
  strategy close (a flat value landscape);
* with ``--locked``: the turn strategy's **loss in the whole game**: each player's turn
  decisions locked to the row's average strategy, the rest of the hand (its own river and
  the other player everywhere) solved to ``--target`` % (``--locked-iters`` at most), and the
  value the player loses against the whole tree's, % of the pot, summed over the two players
  (an exploitability of the turn strategy with the river played well by both).

Usage: ``python benchmarks/step_leaf_budget.py [--boards Qs9h4d2c,AhKd7c4s] [--rivers 48,16,12]
[--iters 25,50,100,200] [--target 0.2] [--locked] [--locked-iters 600] [--json]`` (one core;
about 1 minute a board without ``--locked``, 10 with it).
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
from river_leaf_schedules import turn_boards, turn_spot  # noqa: E402
from search_opponents import fail, ints  # noqa: E402


def shares(solver: Any, path: list[str], weights: np.ndarray) -> dict[str, float]:
    """Each action's share of ``weights`` (a range) at the decision ``path``."""
    from pokerlab.subgame.resolve import strategy_at

    names, st = strategy_at(solver, path)
    ok = ~np.isnan(st[0]) & (weights > 0)
    return {n: float((weights[ok] * st[i, ok]).sum() / weights[ok].sum()) for i, n in enumerate(names)}


def checks(solver: Any, spot: Any) -> tuple[float, float]:
    """(the first player's check share at the root, the second's after a check)."""
    r0 = np.asarray(spot.ranges[0], dtype=np.float64)
    r1 = np.asarray(spot.ranges[1], dtype=np.float64)
    return shares(solver, [], r0).get("check", 0.0), shares(solver, ["check"], r1).get("check", 0.0)


def locked_loss(spot: Any, solver: Any, whole: Any, target: float, iterations: int) -> float:
    """The two players' value lost in the whole game (% of the pot, summed) when each in
    turn plays ``solver``'s turn strategy and the rest is solved."""
    from pokerlab.subgame.resolve import decision_paths, strategy_at
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    lost = 0.0
    for p in (0, 1):
        locked = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
        for path in decision_paths(solver, p):
            _, st = strategy_at(solver, list(path))
            locked.lock(list(path), np.where(np.isnan(st), 1.0 / st.shape[0], st))
        locked.solve(iterations=iterations, target_pct=target)
        lost += whole.values()[p] - locked.values()[p]
    return 100.0 * lost / float(spot.pot)


def run_board(board: str, rivers: list[int], iters: list[int], target: float, locked: bool,
              locked_iters: int) -> dict[str, Any]:
    from pokerlab.agents.river_leaves import build_step_leaves
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    spot = turn_spot(board)
    whole = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    pct = whole.solve(iterations=5000, target_pct=target)
    out: dict[str, Any] = {"board": board, "whole_iterations": int(whole.iteration), "whole_pct": float(pct),
                           "whole_checks": checks(whole, spot), "rows": []}
    for r in rivers:
        for n in iters:
            c0 = time.process_time()
            s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
            s.set_leaf_model(build_step_leaves(s, spot, rivers=r, seed=7))
            s.steps(n)
            cpu = time.process_time() - c0
            errs = [lv.compare(s, whole, p) for p in (0, 1)]
            row = {"rivers": r, "iters": n, "cpu_s": cpu,
                   "root_error": float(np.mean([e["searcher_error"] for e in errs])),
                   "hand_error": float(np.mean([e["hand_error"] for e in errs])), "checks": checks(s, spot)}
            if locked:
                row["locked_loss"] = locked_loss(spot, s, whole, target, locked_iters)
            out["rows"].append(row)
            print(f"{board} rivers {r} iters {n}: {row}", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default="Qs9h4d2c,AhKd7c4s")
    ap.add_argument("--rivers", default="48,16,12")
    ap.add_argument("--iters", default="25,50,100,200")
    ap.add_argument("--target", type=float, default=0.2)
    ap.add_argument("--locked", action="store_true")
    ap.add_argument("--locked-iters", type=int, default=600)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    from pokerlab.errors import PokerlabError

    boards = turn_boards(a.boards)
    rivers, iters = ints(a.rivers, "--rivers", least=1), ints(a.iters, "--iters", least=1)
    if any(48 % r for r in rivers):
        raise fail(f"--rivers: each must divide 48 (1, 2, 3, 4, 6, 8, 12, 16, 24, 48), got {a.rivers!r}")
    if not 0 < a.target < 100 or a.locked_iters < 1:
        raise fail("--target must be a percentage of the pot in (0, 100) and --locked-iters >= 1")
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    try:
        rows = [run_board(b, rivers, iters, a.target, a.locked, a.locked_iters) for b in boards]
    except PokerlabError as exc:
        raise fail(str(exc)) from None
    keys = ["cpu_s", "root_error", "hand_error"] + (["locked_loss"] if a.locked else [])
    mean = []
    for i, row in enumerate(rows[0]["rows"]):
        m = {k: float(np.mean([b["rows"][i][k] for b in rows])) for k in keys}
        m["check_oop"] = float(np.mean([b["rows"][i]["checks"][0] for b in rows]))
        m["check_ip"] = float(np.mean([b["rows"][i]["checks"][1] for b in rows]))
        mean.append({"rivers": row["rivers"], "iters": row["iters"], **m})
    whole = {"check_oop": float(np.mean([b["whole_checks"][0] for b in rows])),
             "check_ip": float(np.mean([b["whole_checks"][1] for b in rows]))}
    out = {"started": started, "target_pct": a.target, "unit": "% of the pot; CPU seconds; check shares",
           "boards": rows, "mean": mean, "whole": whole}
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{len(rows)} turn boards, reference: the whole tree to {a.target}% ({started}); whole tree "
          f"checks {whole['check_oop']:.2f} (first player) / {whole['check_ip']:.2f} "
          "(second, after a check)\n")
    head = "| rivers per step | iterations | CPU s | root error | per-hand error | checks |"
    print(head + (" locked loss |" if a.locked else "") + "\n|" + "---:|" * (6 + int(a.locked)))
    for m in mean:
        line = (f"| {m['rivers']} | {m['iters']} | {m['cpu_s']:.2f} | {m['root_error']:.2f} | "
                f"{m['hand_error']:.2f} | {m['check_oop']:.2f} / {m['check_ip']:.2f} |")
        print(line + (f" {m['locked_loss']:.2f} |" if a.locked else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
