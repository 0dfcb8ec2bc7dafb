"""Push/fold benchmark: our solver and kernels against straightforward baselines, same run.

* solve one stack: our class-level LP (169 x 169, exact by suit symmetry) vs the naive
  LP over all 1326 combos (HiGHS, 2652 variables, 1.76M non-zeros) -- the "peer";
  and our CFR+ kernel run until exploitability < 1e-5.
* exploitability evaluation: our one-pass numba kernel vs numpy/BLAS matrix-vector products.
* Monte Carlo self-play: numba kernel vs its plain-Python twin (hands per second).
* a stack sweep 1..200 bb.

Usage: ``python benchmarks/bench_pushfold.py [--json] [--stack 10] [--sweep-step 1]
[--no-full-lp]``.  Prints ratios (ours / baseline speed-ups).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")
os.environ.setdefault("NUMBA_NUM_THREADS", "2")

import numpy as np  # noqa: E402


def _time(fn, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def full_combo_lp(stack: float) -> tuple[float, float]:
    """Naive baseline: SB's LP over all 1326 combos; returns (value, seconds)."""
    from scipy.optimize import linprog

    from pokerlab.pushfold.game import PushFoldConfig, combo_payoff, matrices_for

    cfg = PushFoldConfig(stack=stack)
    mats = matrices_for()
    t = time.perf_counter()
    A = combo_payoff(cfg, mats) / 1326
    n = 1326
    b = np.full(n, (cfg.fold_loss + cfg.steal_gain) / 1326)
    res = linprog(c=np.concatenate([-b, -np.ones(n)]), A_ub=np.hstack([-A.T, np.eye(n)]),
                  b_ub=np.zeros(n), bounds=[(0, 1)] * n + [(None, 0)] * n, method="highs")
    return -cfg.fold_loss - float(res.fun), time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--stack", type=float, default=10.0)
    ap.add_argument("--sweep-step", type=float, default=1.0)
    ap.add_argument("--no-full-lp", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from pokerlab.cards.cards import COMBO_MASKS
    from pokerlab.pushfold.game import PushFoldConfig, matrices_for
    from pokerlab.pushfold.learn import (
        LearnConfig,
        combo_features,
        draw_chunk,
        nonconflicting_table,
    )
    from pokerlab.pushfold.pushfold_kernels import (
        mc_linear_kernel,
        mc_linear_py,
        payoff_products_kernel,
    )
    from pokerlab.pushfold.solver import solve, stack_grid, sweep

    out: dict[str, float | int | str] = {"stack": args.stack}
    t = time.perf_counter()
    mats = matrices_for()
    out["matrix_prepare_s"] = time.perf_counter() - t
    cfg = PushFoldConfig(stack=args.stack)
    solve(cfg)  # warm-up (numba, scipy)
    sol = solve(cfg)
    out["lp_solve_s"] = _time(lambda: solve(cfg))
    out["lp_exploitability_bb"] = sol.exploitability
    # CFR+: smallest power-of-two iteration count below 1e-5
    its = 256
    while True:
        cs = solve(cfg, method="cfr+", iterations=its)
        if cs.exploitability < 1e-5 or its >= 1 << 17:
            break
        its *= 2
    out["cfr_iterations_to_1e-5"] = its
    out["cfr_solve_s"] = _time(lambda: solve(cfg, method="cfr+", iterations=its), repeat=1)
    out["cfr_exploitability_bb"] = cs.exploitability
    if not args.no_full_lp:
        val, secs = full_combo_lp(args.stack)
        out["full_lp_s"] = secs
        out["full_lp_value_diff_bb"] = abs(val - sol.sb_value)
        out["ratio_full_lp_over_class_lp"] = secs / float(out["lp_solve_s"])

    # evaluation products
    s, c = sol.sb_shove, sol.bb_call
    Ac, sA = np.empty(1326), np.empty(1326)

    def ours() -> None:
        payoff_products_kernel(mats.D, COMBO_MASKS, s, c, cfg.stack, cfg.steal_gain, Ac, sA)

    def blas() -> None:
        A = (cfg.stack * mats.D - cfg.steal_gain * mats.V) / 1225
        _ = A @ c, s @ A

    ours()
    out["products_numba_s"] = _time(ours, 5)
    out["products_numpy_s"] = _time(blas, 5)
    out["ratio_numpy_over_numba"] = out["products_numpy_s"] / out["products_numba_s"]

    # Monte Carlo self-play throughput
    lc = LearnConfig(stack=args.stack, hands=200_000)
    feats = np.ascontiguousarray(combo_features())
    nonconf = nonconflicting_table()
    eq = np.nan_to_num(mats.eq, nan=0.5)

    def run(kernel, n: int) -> float:  # type: ignore[no-untyped-def]
        ch = draw_chunk(np.random.default_rng(0), 0, n, lc)
        th = np.zeros(7)
        cnt = np.zeros(4, dtype=np.int64)
        t0 = time.perf_counter()
        kernel(th, feats, eq, nonconf, ch.sb, ch.bbk, ch.u_eps_sb, ch.u_act_sb, ch.u_eps_bb,
               ch.u_act_bb, ch.u_win, ch.eps, 0.002, cfg.stack, cfg.fold_loss, cfg.steal_gain,
               cnt)
        return n / (time.perf_counter() - t0)

    run(mc_linear_kernel, 1000)
    out["mc_numba_hands_per_s"] = max(run(mc_linear_kernel, 200_000) for _ in range(2))
    out["mc_python_hands_per_s"] = run(mc_linear_py, 20_000)
    out["ratio_numba_over_python"] = out["mc_numba_hands_per_s"] / out["mc_python_hands_per_s"]

    grid = stack_grid(1.0, 200.0, args.sweep_step)
    sw = sweep(grid)
    out["sweep_stacks"] = int(grid.size)
    out["sweep_s"] = sw.seconds
    out["sweep_max_exploitability_bb"] = float(np.abs(sw.exploitability).max())

    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:32s} {v:.6g}" if isinstance(v, float) else f"{k:32s} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
