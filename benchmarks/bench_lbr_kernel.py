"""LBR speed against the shipped blueprint (issue 26): the check-down equity kernel per
flop texture and whole LBR runs, for an A/B of two checkouts in one window.

Prints one JSON object: ``checkdown_ms`` (one flop's exact check-down equity of AdQd against
every combo, rainbow / two-tone / monotone, one thread), ``ab`` (``run_lbr("blueprint",
actions=A, hands=N, seed=5, stack_bb=100, workers=1)``: seconds including the agent's
construction, and the LBR value, which must be the same in both checkouts) and, unless
``--ab-only``, ``rate`` (hands/s of longer ``fc`` runs from round 1 and from the turn).
The A/B runs ``fc`` (400 deals), ``fcpa`` (600) and ``56`` from the turn (100 deals).
``--agent SPEC`` (default ``blueprint``) names the agent; give both checkouts the same
``policy:FILE`` when their shipped blueprints differ.

Usage: ``NUMBA_NUM_THREADS=1 python benchmarks/bench_lbr_kernel.py [--ab-only] [--agent
SPEC]``; for the
old code, the same command with ``PYTHONPATH=OLD_CHECKOUT`` (a ``git worktree``), run
alternately with the new one.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def checkdown_ms() -> dict[str, float]:
    from pokerlab.cards.cards import COMBOS, parse_cards
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.evaluation.lbr_kernels import checkdown_equity

    et = eval_tables()
    combos = COMBOS.astype(np.int64)
    out = np.zeros(1326)
    hole = np.array(parse_cards("AdQd"), dtype=np.int64)
    res = {}
    for name, flop in (("rainbow", "Ks9h5c"), ("twotone", "Ks9s5c"), ("monotone", "Ks9s5s")):
        board = np.array(parse_cards(flop) + [0, 1], dtype=np.int64)
        checkdown_equity(et, hole, board, 3, combos, out)
        t = time.perf_counter()
        for _ in range(100):
            checkdown_equity(et, hole, board, 3, combos, out)
        res[name] = round((time.perf_counter() - t) * 10.0, 3)
    return res


def main() -> None:
    from pokerlab.arena import run_lbr

    ap = argparse.ArgumentParser()
    ap.add_argument("--ab-only", action="store_true")
    ap.add_argument("--agent", default="blueprint")
    a = ap.parse_args()
    run_lbr(a.agent, actions="fc", hands=3, stack_bb=100)  # load the kernels
    out: dict[str, object] = {"checkdown_ms": checkdown_ms(), "ab": {}}
    for acts, n, fr in (("fc", 400, 1), ("fcpa", 600, 1), ("56", 100, 3)):
        t = time.perf_counter()
        r = run_lbr(a.agent, actions=acts, hands=n, seed=5, stack_bb=100, workers=1,
                    from_round=fr)
        key = acts if fr == 1 else f"{acts} from {fr}"
        out["ab"][key] = {"hands": r.hands, "seconds": round(time.perf_counter() - t, 2),  # type: ignore[index]
                          "mbb": r.mbb}
    if not a.ab_only:
        rate = {}
        for fr in (1, 3):
            t = time.perf_counter()
            r = run_lbr(a.agent, actions="fc", hands=10_000, seed=5, stack_bb=100,
                        workers=1, from_round=fr)
            rate[f"fc from {fr}"] = round(r.hands / (time.perf_counter() - t))
        out["rate"] = rate
    print(json.dumps(out))


if __name__ == "__main__":
    main()
