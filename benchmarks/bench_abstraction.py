"""Benchmark of the card-abstraction hot paths against their references, same run.

* Hand indexer: our numba ``index_many`` (river, 7 cards) vs the lead's
  ``pokerlab.cards.cards.canonical_form`` (Python, 24 permutations) and our own
  plain-Python twin, hands per second and ratios.
* River equity of all 1326 combos vs a uniform hand on one board: our counting-sort
  ``uniform_showdown`` vs ``pokerlab.cards.equity_kernels.showdown_vs_range`` (argsort,
  float weights), boards per second and ratio (results checked equal).

Usage: ``python benchmarks/bench_abstraction.py [--hands N] [--boards N] [--json]``
(run with ``NUMBA_NUM_THREADS=2`` or less on shared machines).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from pokerlab.abstraction import buckets_kernels as BK
from pokerlab.abstraction.indexer import street_indexer
from pokerlab.cards.cards import COMBOS, canonical_form
from pokerlab.cards.equity_kernels import showdown_vs_range
from pokerlab.cards.evaluator import eval_tables
from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
from pokerlab.cards.hand_classes import NUM_STRENGTHS


def _rate(fn, n: int, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--boards", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    ix = street_indexer("river")
    hands = np.array([rng.permutation(52)[:7] for _ in range(a.hands)], dtype=np.int64)
    ix.index_many(hands[:10])  # compile / load the cache
    ours = _rate(lambda: ix.index_many(hands), a.hands)
    few = hands[: max(1, a.hands // 100)]
    ref = _rate(lambda: [canonical_form(h[:2].tolist(), h[2:].tolist()) for h in few], len(few), 1)
    twin = _rate(lambda: [ix.index_py(h.tolist()) for h in few], len(few), 1)

    ET = eval_tables()
    combos = COMBOS.astype(np.int64)
    boards = np.array([rng.permutation(52)[:5] for _ in range(a.boards)], dtype=np.int64)
    strengths = np.empty(1326, np.int32)
    count = np.zeros(NUM_STRENGTHS + 2, np.int64)
    order = np.zeros(1326, np.int64)
    eq = np.empty(1326)
    ones = np.ones(1326)
    win, tie, tot = np.zeros(1326), np.zeros(1326), np.zeros(1326)

    def run_ours() -> None:
        for b in boards:
            BK.equity_on_board(ET, combos, b, strengths, count, order, eq)

    def run_ref() -> None:
        for b in boards:
            combos_on_board_kernel(ET, combos, b, 5, strengths)
            showdown_vs_range(strengths, ones, combos, win, tie, tot)

    run_ours()
    run_ref()
    # equality check on the last board
    live = strengths > 0
    ref_eq = (win + 0.5 * tie) / np.maximum(tot, 1)
    assert np.allclose(eq[live], ref_eq[live])
    eq_ours = _rate(run_ours, a.boards)
    eq_ref = _rate(run_ref, a.boards)
    out = {
        "indexer_hands_per_s": round(ours),
        "canonical_form_hands_per_s": round(ref),
        "python_twin_hands_per_s": round(twin),
        "indexer_vs_canonical_form": round(ours / ref, 1),
        "indexer_vs_python_twin": round(ours / twin, 1),
        "river_equity_boards_per_s": round(eq_ours),
        "showdown_vs_range_boards_per_s": round(eq_ref),
        "river_equity_ratio": round(eq_ours / eq_ref, 2),
    }
    if a.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:34s} {v:>14,}")


if __name__ == "__main__":
    main()
