"""Deep CFR on Leduc: pokerlab against OpenSpiel's PyTorch Deep CFR, same run, same CPU time.

Both run on OpenSpiel's ``leduc_poker`` with one torch thread, for the same budget of
training time, measured as the process's CPU time (``time.process_time``: on a shared,
oversubscribed machine wall time mostly measures the neighbours; for these single-threaded
runs CPU time is the wall time they would take alone); at checkpoints each trains its
average-strategy network and is measured with OpenSpiel's exact exploitability (checkpoint
time is not counted).  Prints both curves, the exploitability each reached within the
budget, and how much sooner pokerlab reached OpenSpiel's final exploitability.  ``--plot`` writes a PNG.

    .venv/bin/python benchmarks/bench_deepcfr.py --budget 150 --plot docs/deepcfr_leduc.png
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

Curve = list[dict[str, float]]


def run_ours(budget: float, every: int, seed: int, cfg_kw: dict[str, Any]) -> Curve:
    from pokerlab.deepcfr import DeepCFRConfig, DeepCFRSolver, load_game
    from pokerlab.deepcfr.evaluate import exploitability

    game = load_game("leduc_poker")
    solver = DeepCFRSolver(game=game, config=DeepCFRConfig(game="leduc_poker", seed=seed,
                                                           iterations=10**6, **cfg_kw))
    curve = []
    clock = 0.0
    while clock < budget:
        t0 = time.process_time()
        solver.run_iteration()
        clock += time.process_time() - t0
        if solver.iteration % every == 0 or clock >= budget:
            e = exploitability(game, solver.policy())
            curve.append({"iteration": solver.iteration, "seconds": clock, "exploitability": e})
            print(f"  ours      it {solver.iteration:4d} {clock:7.1f}s expl {e:.4f}",
                  file=sys.stderr, flush=True)
    return curve


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


def run_openspiel(budget: float, every: int, seed: int, kw: dict[str, Any]) -> Curve:
    _ensure_tree_module()
    import pyspiel
    from open_spiel.python import policy as osp
    from open_spiel.python.algorithms import exploitability as osx
    from open_spiel.python.pytorch import deep_cfr

    game = pyspiel.load_game("leduc_poker")
    solver = deep_cfr.DeepCFRSolver(game, seed=seed, num_iterations=1, **kw)
    curve = []
    clock = 0.0
    it = 0
    while clock < budget:
        t0 = time.process_time()
        # one iteration of DeepCFRSolver.solve(), step by step (same calls, same order)
        for p in range(2):
            for _ in range(solver._num_traversals):
                solver._traverse_game_tree(solver._root_node, p)
            solver._reinitialize_advantage_network(p)
            solver._learn_advantage_network(p)
        solver._iteration += 1
        it += 1
        clock += time.process_time() - t0
        if it % every == 0 or clock >= budget:
            solver._reinitialize_policy_network()
            solver._learn_strategy_network()
            pol = osp.tabular_policy_from_callable(game, solver.action_probabilities)
            e = float(osx.exploitability(game, pol))
            curve.append({"iteration": it, "seconds": clock, "exploitability": e})
            print(f"  openspiel it {it:4d} {clock:7.1f}s expl {e:.4f}", file=sys.stderr,
                  flush=True)
    return curve


def first_time_below(curve: list[dict[str, float]], level: float) -> float | None:
    for c in curve:
        if c["exploitability"] <= level:
            return c["seconds"]
    return None


def plot_leduc(ours: Curve, theirs: Curve, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for curve, name in ((ours, "pokerlab Deep CFR"), (theirs, "OpenSpiel Deep CFR")):
        it = np.array([c["iteration"] for c in curve])
        sec = np.array([c["seconds"] for c in curve])
        ex = np.array([1000 * c["exploitability"] for c in curve])
        ax[0].plot(it, ex, marker="o", label=name)
        ax[1].plot(sec, ex, marker="o", label=name)
    for a, xl in zip(ax, ("iterations", "training CPU seconds (1 thread)"), strict=True):
        a.set_xlabel(xl)
        a.set_ylabel("exploitability (mbb/hand)")
        a.set_yscale("log")
        a.grid(True, which="both", alpha=0.3)
        a.legend()
    fig.suptitle("Deep CFR on Leduc hold'em, same CPU time")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def plot_fhp(files: list[str], path: str) -> list[dict[str, float]]:
    """FHP curve from ``deepcfr train --json`` outputs and checkpoint ``state.json`` files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts: dict[int, dict[str, float]] = {}
    for f in files:
        obj = json.loads(open(f).read())
        rows = obj.get("history", []) + ([obj] if "exploitability_mbb" in obj else [])
        for r in rows:
            if r.get("exploitability_mbb") is not None:
                it = int(r.get("iteration", r.get("iterations", 0)))
                pts[it] = {"iteration": it,
                                            "cpu_seconds": r["cpu_seconds"],
                                            "mbb": r["exploitability_mbb"]}
    curve = [pts[k] for k in sorted(pts)]
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for a, key, xl in ((ax[0], "iteration", "iterations"),
                       (ax[1], "cpu_seconds", "training CPU seconds (1 thread)")):
        a.plot([c[key] for c in curve], [c["mbb"] for c in curve], marker="o",
               label="pokerlab Deep CFR (exact BR)")
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
    return curve


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=240.0,
                    help="training CPU seconds per side")
    ap.add_argument("--every", type=int, default=5, help="evaluate every N iterations")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", default=None, help="write the curves to this PNG")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--from-json", default=None,
                    help="re-plot a previous --json output instead of running")
    ap.add_argument("--fhp-plot", default=None, help="plot the FHP curve of --fhp-files")
    ap.add_argument("--fhp-files", nargs="*", default=[],
                    help="deepcfr train --json outputs / checkpoint state.json files")
    args = ap.parse_args()
    if args.fhp_plot:
        print(json.dumps({"fhp_curve": plot_fhp(args.fhp_files, args.fhp_plot)}))
        return
    if args.from_json:
        prev = json.loads(open(args.from_json).read())
        if args.plot:
            plot_leduc(prev["ours_curve"], prev["openspiel_curve"], args.plot)
        return
    import torch

    torch.set_num_threads(1)
    # Traversals are cheap for us (memoised strategies, numpy forward), SGD is not: more
    # traversals per iteration and a width-32 network (14,499 parameters for Leduc)
    ours_kw = dict(traversals=1000, memory=1_000_000, sgd_steps=200, batch=512,
                   policy_sgd_steps=1000, dim=32, lr=1e-3)
    # OpenSpiel's Leduc settings scaled to a CPU budget (its defaults train 1 step per iteration)
    os_kw = dict(policy_network_layers=(64, 64), advantage_network_layers=(64, 64),
                 num_traversals=300, learning_rate=1e-3, batch_size_advantage=512,
                 batch_size_strategy=512, memory_capacity=1_000_000,
                 policy_network_train_steps=1000, advantage_network_train_steps=200)
    theirs = run_openspiel(args.budget, args.every, args.seed, os_kw)
    ours = run_ours(args.budget, args.every, args.seed, ours_kw)
    e_ours, e_theirs = ours[-1]["exploitability"], theirs[-1]["exploitability"]
    t_theirs = theirs[-1]["seconds"]
    t_ours = first_time_below(ours, e_theirs)
    out = {
        "game": "leduc_poker", "budget_seconds": args.budget,
        "ours_final_exploitability": e_ours, "openspiel_final_exploitability": e_theirs,
        "ours_final_mbb": 1000 * e_ours, "openspiel_final_mbb": 1000 * e_theirs,
        "exploitability_ratio_openspiel_over_ours": e_theirs / e_ours,
        "ours_seconds_to_openspiel_final": t_ours,
        "speedup_to_openspiel_final": (t_theirs / t_ours) if t_ours else None,
        "ours_iterations": ours[-1]["iteration"], "openspiel_iterations": theirs[-1]["iteration"],
        "ours_curve": ours, "openspiel_curve": theirs, "ours_config": ours_kw,
        "openspiel_config": {k: list(v) if isinstance(v, tuple) else v
                             for k, v in os_kw.items()},
    }
    if args.plot:
        plot_leduc(ours, theirs, args.plot)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            if not k.endswith("_curve"):
                print(f"{k}: {v}")


if __name__ == "__main__":
    main()
