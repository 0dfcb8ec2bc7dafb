"""Deep CFR on Leduc over seeds: pokerlab against OpenSpiel's PyTorch Deep CFR at equal CPU time.

Protocol (issue 20).  ``--seeds K`` seeds per side; every (side, seed) run trains on
OpenSpiel's ``leduc_poker`` with one torch thread for ``--budget`` seconds of the process's
CPU time (``time.process_time``: fair on a shared, oversubscribed machine, where wall time
mostly measures the neighbours).  At ``--checkpoints M`` equally spaced CPU times each run
trains its average-strategy network and is measured with OpenSpiel's exact exploitability
(checkpoint work is not counted in either side's clock).  Reported per checkpoint: mean and
95% confidence interval (Student t over the seeds) for each side, and for each level the
mean CPU time to reach it (over the seeds that did).

* pokerlab's runs keep their advantage networks (``sdcfr=True``), so the same runs also
  give the SD-CFR average ("ours_sdcfr") at every checkpoint: SD-CFR vs Deep CFR under the
  same protocol at no extra training cost.
* ``--ablation`` adds pokerlab runs with ``warm_start=True`` (the paper's ablation:
  advantage networks continued from the previous iteration instead of from scratch).
* Per-iteration speed at OpenSpiel's Leduc settings (64x64 networks / pokerlab width 64,
  300 traversals, 300 advantage steps and 1,000 policy steps of batch 2,048): both sides run
  ``--speed-iterations`` iterations plus one policy-network fit; seconds per iteration is
  the total CPU time over the iterations.

The no-argument default is a quick check that fits ``make bench`` (2 seeds, 20 CPU-s,
3 checkpoints, 2 speed iterations, 2 processes); ``--full`` is the issue's protocol:

    .venv/bin/python benchmarks/bench_deepcfr.py --full --json --raw raw.json \\
        --plot docs/deepcfr_leduc.png --sd-plot docs/deepcfr_sdcfr.png
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from typing import Any

import numpy as np

Curve = list[dict[str, float]]

# pokerlab's settings for the equal-time comparison (width 64 as OpenSpiel's 64x64; its
# traversals are cheap (memoised strategies, numpy forward), so it runs more of them).
OURS_KW: dict[str, Any] = dict(traversals=1000, memory=1_000_000, sgd_steps=300, batch=2048,
                               policy_sgd_steps=1000, dim=64, lr=1e-3)
# OpenSpiel's Leduc settings scaled to a CPU budget (the comparison of issue 20).
OS_KW: dict[str, Any] = dict(policy_network_layers=(64, 64), advantage_network_layers=(64, 64),
                             num_traversals=300, learning_rate=1e-3, batch_size_advantage=512,
                             batch_size_strategy=512, memory_capacity=1_000_000,
                             policy_network_train_steps=1000,
                             advantage_network_train_steps=200)
# OpenSpiel's own Leduc settings, for seconds per iteration (both sides).
SPEED_OURS_KW: dict[str, Any] = dict(traversals=300, memory=1_000_000, sgd_steps=300,
                                     batch=2048, policy_sgd_steps=1000, dim=64, lr=1e-3)
SPEED_OS_KW: dict[str, Any] = dict(policy_network_layers=(64, 64),
                                   advantage_network_layers=(64, 64), num_traversals=300,
                                   learning_rate=1e-3, batch_size_advantage=2048,
                                   batch_size_strategy=2048, memory_capacity=1_000_000,
                                   policy_network_train_steps=1000,
                                   advantage_network_train_steps=300)
LEVELS = (1.0, 0.5, 0.3, 0.2, 0.15, 0.1)


def _checkpoint_times(budget: float, m: int) -> list[float]:
    return [budget * (j + 1) / m for j in range(m)]


def run_ours(budget: float, m: int, seed: int, warm_start: bool = False) -> dict[str, Curve]:
    import torch

    from pokerlab.deepcfr import DeepCFRConfig, DeepCFRSolver, resolve_game
    from pokerlab.deepcfr.evaluate import exploitability

    torch.set_num_threads(1)
    game = resolve_game("leduc_poker")
    cfg = DeepCFRConfig(game="leduc_poker", seed=seed, iterations=10**6, sdcfr=True,
                        warm_start=warm_start, **OURS_KW)
    solver = DeepCFRSolver(game=game, config=cfg)
    net_curve: Curve = []
    sd_curve: Curve = []
    times = _checkpoint_times(budget, m)
    clock = 0.0
    while len(net_curve) < m:
        t0 = time.process_time()
        solver.run_iteration()
        clock += time.process_time() - t0
        if clock < times[len(net_curve)]:
            continue
        e = exploitability(game, solver.policy())
        sd = solver.sdcfr_policy()
        sd.tabulate(game)
        e_sd = exploitability(game, sd)
        while len(net_curve) < m and clock >= times[len(net_curve)]:
            j = len(net_curve)
            net_curve.append({"checkpoint": times[j], "iteration": solver.iteration,
                              "seconds": clock, "exploitability": e})
            sd_curve.append({"checkpoint": times[j], "iteration": solver.iteration,
                             "seconds": clock, "exploitability": e_sd})
        name = "ours_warm" if warm_start else "ours"
        print(f"  {name:9s} seed {seed} it {solver.iteration:4d} {clock:7.1f}s "
              f"net {e:.4f} sdcfr {e_sd:.4f}", file=sys.stderr, flush=True)
    return {"net": net_curve, "sdcfr": sd_curve}


def _ensure_tree_module() -> None:
    """OpenSpiel's deep_cfr imports ``tree`` (dm-tree) only for ``map_structure`` over flat
    NamedTuples of arrays; when dm-tree is not installed, provide exactly that."""
    try:
        import tree  # noqa: F401
    except ImportError:
        import importlib.machinery
        import types

        shim = types.ModuleType("tree")
        shim.__spec__ = importlib.machinery.ModuleSpec("tree", None)

        def map_structure(fn: Any, *structs: Any) -> Any:
            first = structs[0]
            return type(first)(*[fn(*leaves) for leaves in zip(*structs, strict=True)])

        shim.map_structure = map_structure  # type: ignore[attr-defined]
        sys.modules["tree"] = shim


def _openspiel_solver(seed: int, kw: dict[str, Any], iterations: int = 1) -> Any:
    _ensure_tree_module()
    import pyspiel
    import torch
    from open_spiel.python.pytorch import deep_cfr

    torch.set_num_threads(1)
    game = pyspiel.load_game("leduc_poker")
    # OpenSpiel seeds numpy's global RNG and torch itself from ``seed`` (default 42)
    return game, deep_cfr.DeepCFRSolver(game, num_iterations=iterations, seed=seed, **kw)


def _openspiel_iteration(solver: Any) -> None:
    # one iteration of DeepCFRSolver.solve(), step by step (same calls, same order)
    for p in range(2):
        for _ in range(solver._num_traversals):
            solver._traverse_game_tree(solver._root_node, p)
        solver._reinitialize_advantage_network(p)
        solver._learn_advantage_network(p)
    solver._iteration += 1


def run_openspiel(budget: float, m: int, seed: int) -> dict[str, Curve]:
    from open_spiel.python import policy as osp
    from open_spiel.python.algorithms import exploitability as osx

    game, solver = _openspiel_solver(seed, OS_KW)
    curve: Curve = []
    times = _checkpoint_times(budget, m)
    clock = 0.0
    it = 0
    while len(curve) < m:
        t0 = time.process_time()
        _openspiel_iteration(solver)
        it += 1
        clock += time.process_time() - t0
        if clock < times[len(curve)]:
            continue
        solver._reinitialize_policy_network()
        solver._learn_strategy_network()
        pol = osp.tabular_policy_from_callable(game, solver.action_probabilities)
        e = float(osx.exploitability(game, pol))
        while len(curve) < m and clock >= times[len(curve)]:
            curve.append({"checkpoint": times[len(curve)], "iteration": it, "seconds": clock,
                          "exploitability": e})
        print(f"  openspiel seed {seed} it {it:4d} {clock:7.1f}s expl {e:.4f}",
              file=sys.stderr, flush=True)
    return {"net": curve}


def _speed_row(iterations: int, traversal: float, adv: float, policy: float,
               total_iterations: float) -> dict[str, float]:
    """Seconds per iteration counting one policy fit over the iterations (both sides)."""
    return {"iterations_seconds": total_iterations, "policy_seconds": policy,
            "traversal_seconds": traversal, "advantage_sgd_seconds": adv,
            "traversal_per_iteration": traversal / iterations,
            "advantage_sgd_per_iteration": adv / iterations,
            "seconds_per_iteration": (total_iterations + policy) / iterations}


def speed_ours(iterations: int) -> dict[str, float]:
    import torch

    from pokerlab.deepcfr import DeepCFRConfig, DeepCFRSolver, resolve_game

    torch.set_num_threads(1)
    game = resolve_game("leduc_poker")
    solver = DeepCFRSolver(game=game, config=DeepCFRConfig(
        game="leduc_poker", seed=0, iterations=iterations, **SPEED_OURS_KW))
    t0 = time.process_time()
    solver.train()
    t1 = time.process_time()
    solver.train_strategy_network()
    t2 = time.process_time()
    sp = solver.cpu_split
    return _speed_row(iterations, sp["traversal"], sp["advantage_sgd"], t2 - t1, t1 - t0)


def speed_openspiel(iterations: int) -> dict[str, float]:
    _, solver = _openspiel_solver(0, SPEED_OS_KW, iterations)
    trav = adv = 0.0
    t0 = time.process_time()
    for _ in range(iterations):  # _openspiel_iteration, timed by phase
        for p in range(2):
            c0 = time.process_time()
            for _ in range(solver._num_traversals):
                solver._traverse_game_tree(solver._root_node, p)
            c1 = time.process_time()
            solver._reinitialize_advantage_network(p)
            solver._learn_advantage_network(p)
            trav += c1 - c0
            adv += time.process_time() - c1
        solver._iteration += 1
    t1 = time.process_time()
    solver._reinitialize_policy_network()
    solver._learn_strategy_network()
    t2 = time.process_time()
    return _speed_row(iterations, trav, adv, t2 - t1, t1 - t0)


def fit_study(iterations: list[int], fits: int, seed: int = 0) -> dict[str, Any]:
    """Root cause of the rising curve: one pokerlab run (seed ``seed``, the issue's
    settings); at each of ``iterations`` the average-strategy network is fitted ``fits``
    times (different initialisation/batch seeds) with the original recipe (uniform batches
    of 512 weighted by t, constant rate, 1,000 steps) and with the new one (merged rows,
    full batch, cosine rate, same steps); SD-CFR's exact average of the same run is the
    reference with no fitting at all."""
    import torch

    from pokerlab.deepcfr import DeepCFRConfig, DeepCFRSolver, resolve_game
    from pokerlab.deepcfr.evaluate import exploitability
    from pokerlab.deepcfr.policy import NeuralPolicy
    from pokerlab.deepcfr.solver import make_net, net_seed, train_network

    torch.set_num_threads(1)
    game = resolve_game("leduc_poker")
    # the issue's run: width 32, K=1000, 200 advantage steps of 512, policy 1000 of 512
    cfg = DeepCFRConfig(game="leduc_poker", seed=seed, iterations=max(iterations),
                        traversals=1000, memory=1_000_000, sgd_steps=200, batch=512,
                        policy_sgd_steps=1000, dim=32, sdcfr=True, merge_rows=False,
                        lr_decay=False)
    solver = DeepCFRSolver(game=game, config=cfg)
    rows = []
    for it in sorted(iterations):
        solver.train(it)
        sd = solver.sdcfr_policy()
        sd.tabulate(game)
        row: dict[str, Any] = {"iteration": it, "sdcfr": exploitability(game, sd)}
        data = solver.strategy_memory.arrays()
        for name, merge in (("original", False), ("new", True)):
            vals = []
            for r in range(fits):
                net = make_net(solver.encoder, cfg.dim, net_seed(seed, 30, it, r))
                train_network(net, data, kind="strategy", steps=1000, batch=512, lr=1e-3,
                              grad_clip=1.0, seed=net_seed(seed, 31, it, r),
                              device=torch.device("cpu"), lr_decay=merge, merge=merge,
                              current_iteration=it)
                vals.append(exploitability(game, NeuralPolicy(net=net, encoder=solver.encoder)))
            row[name] = vals
        print(f"  fit study it {it}: sdcfr {row['sdcfr']:.4f} original {row['original']} "
              f"new {row['new']}", file=sys.stderr, flush=True)
        rows.append(row)
    return {"rows": rows, "config": cfg.to_json()}


def _task(args: tuple[str, int, float, int]) -> tuple[str, int, Any]:
    kind, seed, budget, m = args
    if kind == "ours":
        return kind, seed, run_ours(budget, m, seed)
    if kind == "ours_warm":
        return kind, seed, run_ours(budget, m, seed, warm_start=True)
    if kind == "openspiel":
        return kind, seed, run_openspiel(budget, m, seed)
    if kind == "speed_ours":
        return kind, seed, speed_ours(m)
    if kind == "speed_openspiel":
        return kind, seed, speed_openspiel(m)
    if kind == "fit_study":
        return kind, seed, fit_study([5, 10, 20], m)
    raise ValueError(kind)


# ------------------------------------------------------------------ statistics
def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% Student-t confidence interval."""
    from scipy.stats import t as student

    x = np.asarray(values, dtype=np.float64)
    if len(x) < 2:
        return float(x.mean()), float("nan")
    half = float(student.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))
    return float(x.mean()), half


def summarize(curves: list[Curve]) -> dict[str, Any]:
    """Per checkpoint mean / CI over seeds, and per level the mean time to reach it."""
    m = min(len(c) for c in curves)
    rows = []
    for j in range(m):
        vals = [c[j]["exploitability"] for c in curves]
        mean, ci = mean_ci(vals)
        rows.append({"checkpoint_seconds": curves[0][j]["checkpoint"], "mean": mean,
                     "ci95": ci, "values": vals,
                     "iterations_mean": float(np.mean([c[j]["iteration"] for c in curves]))})
    levels = {}
    for lv in LEVELS:
        reach = [next((p["seconds"] for p in c if p["exploitability"] <= lv), None)
                 for c in curves]
        got = [r for r in reach if r is not None]
        levels[str(lv)] = {"seeds_reached": len(got), "seeds": len(curves),
                           "mean_seconds": float(np.mean(got)) if got else None}
    return {"checkpoints": rows, "levels": levels}


# ------------------------------------------------------------------ plots
def plot_bands(series: dict[str, dict[str, Any]], path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for name, summ in series.items():
        rows = summ["checkpoints"]
        x = np.array([r["checkpoint_seconds"] for r in rows])
        y = 1000 * np.array([r["mean"] for r in rows])
        h = 1000 * np.nan_to_num(np.array([r["ci95"] for r in rows]))
        ax.plot(x, y, marker="o", label=name)
        ax.fill_between(x, np.maximum(y - h, 1e-3), y + h, alpha=0.2)
    ax.set_xlabel("training CPU seconds (1 thread)")
    ax.set_ylabel("exploitability (mbb/hand), mean and 95% CI")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _fhp_curve(files: list[str]) -> list[dict[str, float]]:
    pts: dict[int, dict[str, float]] = {}
    for f in files:
        obj = json.loads(open(f).read())
        rows = obj.get("history", []) + ([obj] if "exploitability_mbb" in obj else [])
        for r in rows:
            if r.get("exploitability_mbb") is not None:
                it = int(r.get("iteration", r.get("iterations", 0)))
                pts[it] = {"iteration": it, "cpu_seconds": r["cpu_seconds"],
                           "mbb": r["exploitability_mbb"]}
    return [pts[k] for k in sorted(pts)]


def plot_fhp(files: list[str], path: str,
             warm_files: list[str] | None = None) -> dict[str, list[dict[str, float]]]:
    """FHP curve from ``deepcfr train --json`` outputs and checkpoint ``state.json`` files
    (``warm_files``: a ``--warm-start`` run of the same settings, drawn alongside)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = {"pokerlab Deep CFR (exact BR)": _fhp_curve(files)}
    if warm_files:
        curves["same, --warm-start"] = _fhp_curve(warm_files)
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for a, key, xl in ((ax[0], "iteration", "iterations"),
                       (ax[1], "cpu_seconds", "training CPU seconds (1 thread)")):
        for label, curve in curves.items():
            a.plot([c[key] for c in curve], [c["mbb"] for c in curve], marker="o",
                   label=label)
        a.axhline(37, color="g", ls="--", label="paper: Deep CFR 37")
        a.axhline(47, color="r", ls=":", label="paper: NFSP 47")
        a.set_xlabel(xl)
        a.set_ylabel("exploitability (mbb/hand)")
        a.set_yscale("log")
        a.grid(True, which="both", alpha=0.3)
        a.legend()
    fig.suptitle("Deep CFR on Flop Hold'em Poker")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return curves


def _plots(out: dict[str, Any], args: argparse.Namespace) -> None:
    k = out["seeds"]
    if args.plot and "ours" in out and "openspiel" in out:
        plot_bands({"pokerlab Deep CFR": out["ours"], "OpenSpiel Deep CFR": out["openspiel"]},
                   args.plot, f"Deep CFR on Leduc, equal CPU time, {k} seeds per side")
    if args.sd_plot and "ours" in out:
        plot_bands({"pokerlab Deep CFR (strategy net)": out["ours"],
                    "pokerlab SD-CFR (same runs)": out["ours_sdcfr"]},
                   args.sd_plot, f"SD-CFR vs Deep CFR on Leduc, {k} seeds")
    if args.ablation_plot and "ours_warm" in out and "ours" in out:
        # the warm-started runs may be shorter: compare over their checkpoints only
        cut = len(out["ours_warm"]["checkpoints"])

        def head(summ: dict[str, Any]) -> dict[str, Any]:
            return {**summ, "checkpoints": summ["checkpoints"][:cut]}

        kw = len(out["runs"].get("ours_warm", {})) if "runs" in out else k
        plot_bands({"from scratch (paper)": head(out["ours"]),
                    "warm start": out["ours_warm"],
                    "from scratch, SD-CFR": head(out["ours_sdcfr"]),
                    "warm start, SD-CFR": out["ours_warm_sdcfr"]},
                   args.ablation_plot, f"Advantage nets from scratch ({k} seeds) vs "
                   f"warm-started ({kw} seeds), Leduc")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--full", action="store_true",
                    help="the issue's protocol: 5 seeds, 120 CPU-s, 6 checkpoints, "
                    "5 speed iterations (explicit options still win)")
    ap.add_argument("--seeds", type=int, default=None,
                    help="seeds per side (default 2; --full: 5)")
    ap.add_argument("--budget", type=float, default=None,
                    help="training CPU seconds per run (default 20; --full: 120)")
    ap.add_argument("--first-seed", type=int, default=0,
                    help="seeds are first-seed .. first-seed+seeds-1")
    ap.add_argument("--checkpoints", type=int, default=None,
                    help="equally spaced evaluation points (default 3; --full: 6)")
    ap.add_argument("--jobs", type=int, default=2, help="runs in parallel processes")
    ap.add_argument("--ablation", action="store_true", help="also warm-started runs")
    ap.add_argument("--fit-study", type=int, default=0,
                    help="policy-net fits per checkpoint of the root-cause study (0: skip)")
    ap.add_argument("--speed-iterations", type=int, default=None,
                    help="iterations of each side at OpenSpiel's settings (0: skip; "
                    "default 2; --full: 5)")
    ap.add_argument("--plot", default=None, help="ours vs OpenSpiel, with CI bands")
    ap.add_argument("--sd-plot", default=None, help="SD-CFR vs Deep CFR, with CI bands")
    ap.add_argument("--ablation-plot", default=None, help="from scratch vs warm start")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--from-json", default=None,
                    help="re-plot a previous --json output instead of running")
    ap.add_argument("--only", default=None,
                    help="comma-separated subset of ours,openspiel,ours_warm to run")
    ap.add_argument("--raw", default=None, help="also save the raw per-run results here")
    ap.add_argument("--from-raw", default=None,
                    help="summarise saved raw results (same other options) instead of running")
    ap.add_argument("--fhp-plot", default=None, help="plot the FHP curve of --fhp-files")
    ap.add_argument("--fhp-files", nargs="*", default=[],
                    help="deepcfr train --json outputs / checkpoint state.json files")
    ap.add_argument("--fhp-warm-files", nargs="*", default=[],
                    help="the same for a --warm-start run (the ablation), drawn alongside")
    args = ap.parse_args()
    quick, full = (2, 20.0, 3, 2), (5, 120.0, 6, 5)
    for name, q, f in zip(("seeds", "budget", "checkpoints", "speed_iterations"), quick, full,
                          strict=True):
        if getattr(args, name) is None:
            setattr(args, name, f if args.full else q)
    if args.fhp_plot:
        print(json.dumps({"fhp_curves": plot_fhp(args.fhp_files, args.fhp_plot,
                                                 args.fhp_warm_files)}))
        return
    if args.from_json:
        _plots(json.loads(open(args.from_json).read()), args)
        return
    tasks: list[tuple[str, int, float, int]] = []
    if args.speed_iterations > 0:
        tasks += [("speed_ours", 0, 0.0, args.speed_iterations),
                  ("speed_openspiel", 0, 0.0, args.speed_iterations)]
    if args.fit_study > 0:
        tasks.append(("fit_study", 0, 0.0, args.fit_study))
    kinds = ["ours", "openspiel"] + (["ours_warm"] if args.ablation else [])
    if args.only:
        kinds = [k for k in kinds if k in args.only.split(",")]
    seed_list = range(args.first_seed, args.first_seed + args.seeds)
    tasks += [(k, s, args.budget, args.checkpoints) for s in seed_list for k in kinds]
    results: list[Any]
    if args.from_raw:
        results = [tuple(r) for r in json.loads(open(args.from_raw).read())]
    else:
        from pokerlab.io import atomic_write_json

        results = []

        def keep(res: tuple[str, int, Any]) -> None:
            results.append(res)
            if args.raw:  # after every run: an interrupted sweep keeps the runs it finished
                atomic_write_json(args.raw, results)

        if args.jobs > 1:
            with mp.get_context("spawn").Pool(args.jobs) as pool:
                for res in pool.imap(_task, tasks, chunksize=1):
                    keep(res)
        else:
            for t in tasks:
                keep(_task(t))
    runs: dict[str, dict[int, Any]] = {}
    for kind, seed, res in results:
        runs.setdefault(kind, {})[int(seed)] = res
    out: dict[str, Any] = {"game": "leduc_poker", "budget_seconds": args.budget,
                           "load_average_at_end": list(os.getloadavg()),
                           "seeds": len(runs.get("ours", {})), "checkpoints": args.checkpoints,
                           "ours_config": OURS_KW,
                           "openspiel_config": {k: list(v) if isinstance(v, tuple) else v
                                                for k, v in OS_KW.items()}}
    seeds = sorted(runs.get("ours", {}))
    if not any(k in runs for k in ("ours", "openspiel", "ours_warm")):  # speed figures only
        for side in ("ours", "openspiel"):
            if f"speed_{side}" in runs:
                out[f"{side}_seconds_per_iteration"] = runs[f"speed_{side}"][0][
                    "seconds_per_iteration"]
                out[f"speed_{side}"] = runs[f"speed_{side}"][0]
        print(json.dumps(out))
        return
    if "ours" in runs:
        out["ours"] = summarize([runs["ours"][s]["net"] for s in seeds])
        out["ours_sdcfr"] = summarize([runs["ours"][s]["sdcfr"] for s in seeds])
    if "openspiel" in runs:
        out["openspiel"] = summarize([runs["openspiel"][s]["net"] for s in sorted(runs["openspiel"])])
    if "ours_warm" in runs:
        warm = sorted(runs["ours_warm"])
        out["ours_warm"] = summarize([runs["ours_warm"][s]["net"] for s in warm])
        out["ours_warm_sdcfr"] = summarize([runs["ours_warm"][s]["sdcfr"] for s in warm])
    for name in ("ours", "openspiel", "ours_sdcfr"):
        if name in out:
            last = out[name]["checkpoints"][-1]
            out[f"{name}_final_mean"] = last["mean"]
            out[f"{name}_final_ci95"] = last["ci95"]
    if "speed_ours" in runs and "speed_openspiel" in runs:
        so, sos = runs["speed_ours"][0], runs["speed_openspiel"][0]
        out["speed_iterations"] = args.speed_iterations
        out["speed_ours"], out["speed_openspiel"] = so, sos
        out["speed_settings"] = {"ours": SPEED_OURS_KW, "openspiel": {
            k: list(v) if isinstance(v, tuple) else v for k, v in SPEED_OS_KW.items()}}
        out["ours_seconds_per_iteration"] = so["seconds_per_iteration"]
        out["openspiel_seconds_per_iteration"] = sos["seconds_per_iteration"]
    if "fit_study" in runs:
        out["fit_study"] = runs["fit_study"][0]
    out["runs"] = {k: {str(s): v for s, v in d.items()} for k, d in runs.items()
                   if not k.startswith(("speed", "fit"))}
    _plots(out, args)
    if args.json:
        print(json.dumps(out))
    else:
        for name in ("ours", "ours_sdcfr", "openspiel", "ours_warm", "ours_warm_sdcfr"):
            if name not in out:
                continue
            print(name)
            for r in out[name]["checkpoints"]:
                print(f"  {r['checkpoint_seconds']:7.1f}s  {1000 * r['mean']:8.1f} "
                      f"+- {1000 * r['ci95']:6.1f} mbb  (it {r['iterations_mean']:.1f})")
        for side in ("ours", "openspiel"):
            if f"speed_{side}" in out:
                r = out[f"speed_{side}"]
                print(f"{side}_seconds_per_iteration: {r['seconds_per_iteration']:.2f} "
                      f"(traversal {r['traversal_per_iteration']:.2f}, advantage SGD "
                      f"{r['advantage_sgd_per_iteration']:.2f} per iteration; policy fit "
                      f"{r['policy_seconds']:.2f})")


if __name__ == "__main__":
    main()
