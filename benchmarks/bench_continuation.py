"""Speed of the depth-limited leaf values (:mod:`pokerlab.agents.continuation`).

Leaves against the shipped blueprint (100 bb unless ``--stack``), both after the line
``SB raises to 2.5 bb, BB calls``:

* ``turn``: the flop checked through, the turn root of the big blind; path check,
  check (the leaf before the river), all 48 rivers;
* ``flop``: the flop root of the big blind; path check, check (the leaf before the turn:
  the turn and river betting follow), ``R`` = 4, 8, 16 sampled (turn, river) runouts.

For each: the construction time (path, continuation tree, bucket vectors, strength
orders; the agent already loaded; mean of 3 after a first one, which also pays the
process's one-time loads; and with the card arrays shared, as for the other leaves of a
subgame on the same runouts), the tree's nodes and the bytes the calls read, and
the time of one :meth:`~pokerlab.agents.continuation.Continuation.chooser_values` (all
``k = 4`` variants) and one ``other_values`` call (mean of ``--calls`` calls after a
warm-up call; ``parallel=True``: numba's threads as set by ``NUMBA_NUM_THREADS``, and
``parallel=False``: one thread).  The plain-Python twin (:func:`~pokerlab.agents.continuation.
continuation_reference`) is timed on the turn leaf with ``--twin-runouts`` rivers: the
kernel's speed-up over it is per runout.

Usage: ``python benchmarks/bench_continuation.py [--stack 100] [--calls 20]
[--twin-runouts 2] [--seed 0] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import numpy as np


def _root(cfg: Any, street: int) -> Any:
    from pokerlab.holdem.engine import Action, ActionKind, HoldemState

    call = Action(kind=ActionKind.CHECK_CALL)
    st = HoldemState(config=cfg)
    st.deal_hole([0, 5])
    st.deal_hole([10, 15])
    st.apply(Action(kind=ActionKind.RAISE, amount=int(2.5 * cfg.big_blind)))
    st.apply(call)
    st.deal_board([22, 27, 32])  # 7h 8s Tc
    if street == 2:
        st.apply(call)
        st.apply(call)
        st.deal_board([47])  # Ks
    return st.view(st.actor)


def _time_calls(fn: Any, arg: np.ndarray, calls: int) -> float:
    fn(arg)  # warm-up (compilation on a first run)
    t = time.perf_counter()
    for _ in range(calls):
        fn(arg)
    return (time.perf_counter() - t) / calls * 1000.0


def one(agent: Any, cfg: Any, street: int, count: int | None, calls: int, seed: int
        ) -> dict[str, Any]:
    from pokerlab.agents.continuation import Continuation
    from pokerlab.agents.continuation_runouts import _CARDS, sample_runouts
    from pokerlab.holdem.engine import Action, ActionKind

    call = Action(kind=ActionKind.CHECK_CALL)
    view = _root(cfg, street)
    runs = sample_runouts(view.board, count, seed)
    t = time.perf_counter()
    cont = Continuation(agent, view, [call, call], chooser=1, runouts=runs)
    t_first = (time.perf_counter() - t) * 1000.0
    t_build = 0.0
    for _ in range(3):
        _CARDS.clear()  # every card array built again
        t = time.perf_counter()
        cont = Continuation(agent, view, [call, call], chooser=1, runouts=runs)
        t_build += (time.perf_counter() - t) / 3 * 1000.0
    t = time.perf_counter()
    for _ in range(3):  # another leaf of the same subgame: the card arrays are shared
        Continuation(agent, view, [call, call], chooser=1, runouts=runs)
    t_tree = (time.perf_counter() - t) / 3 * 1000.0
    rng = np.random.default_rng(seed)
    other = rng.random(1326)
    chooser = rng.random((cont.k, 1326))
    res = {"leaf": "turn" if street == 2 else "flop", "runouts": len(runs),
           "nodes": cont.num_nodes, "bytes": cont.nbytes, "build_ms": t_build,
           "first_build_ms": t_first, "shared_cards_build_ms": t_tree,
           "chooser_values_ms": _time_calls(
               lambda r: cont.chooser_values(r, parallel=True), other, calls),
           "other_values_ms": _time_calls(
               lambda r: cont.other_values(r, parallel=True), chooser, calls),
           "chooser_values_1thread_ms": _time_calls(
               lambda r: cont.chooser_values(r, parallel=False), other, calls),
           "other_values_1thread_ms": _time_calls(
               lambda r: cont.other_values(r, parallel=False), chooser, calls)}
    return res


def twin(agent: Any, cfg: Any, runouts: int, seed: int) -> dict[str, Any]:
    from pokerlab.agents.continuation import Continuation
    from pokerlab.agents.continuation_reference import continuation_reference
    from pokerlab.agents.continuation_runouts import sample_runouts
    from pokerlab.holdem.engine import Action, ActionKind

    call = Action(kind=ActionKind.CHECK_CALL)
    view = _root(cfg, 2)
    cont = Continuation(agent, view, [call, call], chooser=1,
                        runouts=sample_runouts(view.board, runouts, seed))
    other = np.random.default_rng(seed).random(1326)
    fast = cont.chooser_values(other)
    t = time.perf_counter()
    ref = continuation_reference(cont, other_reach=other)
    t_ref = (time.perf_counter() - t) * 1000.0
    t_k = _time_calls(cont.chooser_values, other, 5)
    err = float(np.abs(fast - ref).max() / max(1e-300, float(np.abs(ref).max())))
    return {"runouts": runouts, "twin_chooser_values_ms": t_ref, "kernel_chooser_values_ms": t_k,
            "speedup": t_ref / t_k, "max_relative_difference": err}


def main() -> None:
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.registry import make_agent

    ap = argparse.ArgumentParser()
    ap.add_argument("--stack", type=float, default=100.0)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--twin-runouts", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cfg = HoldemConfig.from_bb(a.stack)
    agent = make_agent("blueprint", game="hunl", config=cfg)
    rows = [one(agent, cfg, 2, None, a.calls, a.seed)]
    for count in (4, 8, 16):
        rows.append(one(agent, cfg, 1, count, a.calls, a.seed))
    tw = twin(agent, cfg, a.twin_runouts, a.seed)
    out = {"stack_bb": a.stack,
           "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
           "numba_threads": os.environ.get("NUMBA_NUM_THREADS", "default"),
           "cpus": os.cpu_count(), "leaves": rows, "twin": tw}
    if a.json:
        print(json.dumps(out))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"blueprint at {a.stack:g} bb, numba threads: {out['numba_threads']} "
          f"({out['cpus']} cpus, load average {load:.2f})")
    print("| leaf | runouts | nodes | MB | build ms (first) | build, cards shared ms "
          "| chooser_values ms, threads | other_values ms, threads | chooser_values ms, 1 thread "
          "(default) | other_values ms, 1 thread (default) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['leaf']} | {r['runouts']} | {r['nodes']} | {r['bytes'] / 1e6:.2f} "
              f"| {r['build_ms']:.1f} ({r['first_build_ms']:.0f}) | {r['shared_cards_build_ms']:.1f} "
              f"| {r['chooser_values_ms']:.2f} "
              f"| {r['other_values_ms']:.2f} "
              f"| {r['chooser_values_1thread_ms']:.2f} | {r['other_values_1thread_ms']:.2f} |")
    print(f"plain-Python twin, turn leaf, {tw['runouts']} rivers: "
          f"{tw['twin_chooser_values_ms']:.0f} ms vs kernel {tw['kernel_chooser_values_ms']:.2f} ms "
          f"({tw['speedup']:.0f}x), max relative difference {tw['max_relative_difference']:.1e}")


if __name__ == "__main__":
    main()
