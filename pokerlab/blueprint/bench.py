"""ES-MCCFR speed and memory: pokerlab's blueprint kernel vs OpenSpiel's C++ solver, same run.

* Game: 200 bb ACPC HUNL (blinds 50/100, 20,000 chips) with OpenSpiel's ``fcpa`` betting
  (fold, call, pot, all-in).  pokerlab: the bet set ``100%, a`` (pot and all-in, no cap)
  over the hand-strength buckets 169 / 200 / 200 / 200; OpenSpiel:
  ``universal_poker(... bettingAbstraction=fcpa)`` and ``ExternalSamplingMCCFRSolver``
  (lossless cards).  Both single-threaded, same wall-clock budget.
* Bytes per information set: pokerlab's tables (regrets + average strategy, float32) over
  its information sets (exact).  OpenSpiel stores a hash map of information-state strings;
  its table cannot be listed from Python, so its bytes per information set are measured on
  a small ``universal_poker`` fcpa game (2 rounds, 24 cards, 20 bb, 20,160 sets) whose information sets
  are enumerated: the growth of the process's resident memory over an ES-MCCFR run that
  touches every information set, divided by their number (a lower bound for HUNL, whose
  information-state strings are longer).
* Refinements on the same budget: iterations/s with and without pruning (fcpa game) and
  the push/fold preset's exact exploitability with and without Linear CFR discounting.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import Any

from pokerlab.games.protocol import decision_states

FCPA_HUNL = ("universal_poker(betting=nolimit,numPlayers=2,numRounds=4,blind=100 50,"
             "firstPlayer=2 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,"
             "numBoardCards=0 3 1 1,stack=20000 20000,bettingAbstraction=fcpa)")
FCPA_SMALL = ("universal_poker(betting=nolimit,numPlayers=2,numRounds=2,blind=100 50,"
              "firstPlayer=2 1,numSuits=4,numRanks=6,numHoleCards=1,numBoardCards=0 1,"
              "stack=2000 2000,bettingAbstraction=fcpa)")


def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def fcpa_config(**kw: Any) -> Any:
    from pokerlab.blueprint.config import BlueprintConfig

    base = BlueprintConfig(preset="bench-fcpa", stack_bb=200.0, bets="100%, a",
                           buckets=(169, 200, 200, 200), lcfr_until=0, lcfr_every=0,
                           prune_after=-1, board_reuse=16)
    return replace(base, **kw)


def run_pokerlab(seconds: float, **kw: Any) -> dict[str, Any]:
    from pokerlab.blueprint.trainer import BlueprintTrainer

    tr = BlueprintTrainer(fcpa_config(**kw))
    tr.run(2000)  # compile / warm up
    start_it, start_s = tr.iterations, tr.seconds
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        tr.run(100_000)  # one kernel call each, the trainer's default chunk
    its = tr.iterations - start_it
    secs = tr.seconds - start_s
    return {"it_per_s": its / secs, "iterations": its, "infosets": tr.infosets,
            "bytes": tr.table_nbytes, "bytes_per_infoset": tr.table_nbytes / tr.infosets,
            "nodes": tr.tree.num_nodes}


def run_openspiel(seconds: float) -> dict[str, Any]:
    import pyspiel

    game = pyspiel.load_game(FCPA_HUNL)
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=0)
    for _ in range(200):
        solver.run_iteration()
    n = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        for _ in range(50):
            solver.run_iteration()
        n += 50
    return {"it_per_s": n / (time.perf_counter() - t), "iterations": n}


_RSS_CHILD = """
import os, sys, pyspiel
def rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
g = pyspiel.load_game(sys.argv[1])
s = pyspiel.ExternalSamplingMCCFRSolver(g, seed=0)
s.run_iteration()
b = rss()
for _ in range(int(sys.argv[2])):
    s.run_iteration()
print(rss() - b)
"""


def openspiel_bytes_per_infoset(iterations: int = 60_000) -> dict[str, Any]:
    """ΔRSS / information sets of OpenSpiel's ES-MCCFR on the small fcpa game (a fresh
    process, so nothing freed earlier is reused; ``iterations`` touch every set)."""
    import subprocess
    import sys

    import pyspiel

    game = pyspiel.load_game(FCPA_SMALL)
    keys: set[str] = set()

    keys.update(st.information_state_string()
                for st in decision_states(game.new_initial_state()))
    out = subprocess.run([sys.executable, "-c", _RSS_CHILD, FCPA_SMALL, str(iterations)],
                         capture_output=True, text=True, check=True)
    grown = int(out.stdout.strip().splitlines()[-1])
    return {"infosets": len(keys), "rss_growth": grown,
            "bytes_per_infoset": grown / max(len(keys), 1)}


def pushfold_discounting(iterations: int) -> dict[str, float]:
    from pokerlab.blueprint.config import preset
    from pokerlab.blueprint.trainer import BlueprintTrainer

    out: dict[str, float] = {}
    for name, cfg in (("lcfr", preset("pushfold")),
                      ("plain", replace(preset("pushfold"), lcfr_until=0, lcfr_every=0))):
        tr = BlueprintTrainer(cfg)
        tr.run(iterations)
        out[f"pushfold_exploitability_bb_{name}"] = tr.exploitability_bb()
    return out


def run_benchmark(*, seconds: float = 10.0, pushfold_iterations: int = 1_000_000,
                  openspiel: bool = True) -> dict[str, Any]:
    ours = run_pokerlab(seconds)
    res: dict[str, Any] = {
        "game": "HUNL 200bb, fcpa betting", "seconds_per_run": seconds,
        "pokerlab_it_per_s": ours["it_per_s"], "pokerlab_infosets": ours["infosets"],
        "pokerlab_bytes": ours["bytes"],
        "pokerlab_bytes_per_infoset": ours["bytes_per_infoset"],
        "pokerlab_tree_nodes": ours["nodes"], "pokerlab_cards": "hs:169-200-200-200",
    }
    if openspiel:
        try:
            peer = run_openspiel(seconds)
            mem = openspiel_bytes_per_infoset()
        except ImportError:
            peer, mem = {"it_per_s": None}, {"bytes_per_infoset": None}
        res["openspiel_it_per_s"] = peer["it_per_s"]
        res["openspiel_bytes_per_infoset"] = mem["bytes_per_infoset"]
        res["openspiel_bytes_game"] = "universal_poker fcpa, 2 rounds, 24 cards, 20 bb"
        if peer["it_per_s"]:
            res["ratio"] = ours["it_per_s"] / peer["it_per_s"]
        if mem["bytes_per_infoset"]:
            res["bytes_ratio"] = ours["bytes_per_infoset"] / mem["bytes_per_infoset"]
    pruned = run_pokerlab(seconds, prune_after=0, prune_prob=0.95,
                          prune_threshold_bb=-3.0, regret_floor_bb=-3.1)
    res["pokerlab_pruning_it_per_s"] = pruned["it_per_s"]
    res["pruning_speedup"] = pruned["it_per_s"] / ours["it_per_s"]
    res.update(pushfold_discounting(pushfold_iterations))
    res["pushfold_iterations"] = pushfold_iterations
    return res
