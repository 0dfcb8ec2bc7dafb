"""Match speed: two ``policy:`` agents over a bet-set abstraction with card buckets, the
numba kernel against a PokerKit-driven loop of the same agents, in one run.

Setup: the ``default`` bet set (preflop 2.5x, 4x, all-in, cap 3; postflop 33%, 75%,
150%, all-in, cap 3) at 50 big blinds, compiled into an ActionTree; card buckets
169 / 50 / 50 / 50 (lossless preflop, synthetic random bucket tables for flop, turn and
river over the hand indexer's canonical indices: the lookups cost what real tables cost);
two IndexedPolicy agents with random float32 rows.

* kernel: :func:`pokerlab.evaluation.match_kernels.policy_match_kernel` -- deal, bucket
  lookups (hand indexer + table) on every street, tree walk with per-decision row lookup
  and sampling, showdown evaluation; one thread.
* PokerKit loop: ``NoLimitTexasHoldem`` state per hand (dealing, legality, showdown and
  chip pushing by PokerKit); at each decision the same agents pick their action the same
  way (bucket lookup, policy row at (node, bucket), the same SplitMix64 sampling) and act
  through PokerKit.  Its per-hand results are checked equal to the kernel's.
* engine path: our engine and :class:`~pokerlab.agents.policy_agent.HUNLPolicyAgent`
  (views, ActionMap translation) -- the general path every other agent uses.

Usage: python benchmarks/bench_matches.py [--hands 200000] [--pk-hands 300] [--json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from pokerlab.abstraction.action_map import BetSetAbstraction  # noqa: E402
from pokerlab.abstraction.action_tree import compile_tree  # noqa: E402
from pokerlab.abstraction.bets import preset  # noqa: E402
from pokerlab.abstraction.buckets import BucketConfig, CardAbstraction  # noqa: E402
from pokerlab.abstraction.indexer import street_indexer  # noqa: E402
from pokerlab.agents.policy_agent import (  # noqa: E402
    HUNLPolicyAgent,
    sample_index,
    uniform_from,
)
from pokerlab.agents.random_agent import SplitMix64  # noqa: E402
from pokerlab.cards.cards import cards_str  # noqa: E402
from pokerlab.evaluation.match_kernels import run_kernel  # noqa: E402
from pokerlab.evaluation.matches import hand_cards, hand_seed, play_hunl_hand  # noqa: E402
from pokerlab.games.hunl import HUNLGame  # noqa: E402
from pokerlab.holdem.engine import HoldemConfig  # noqa: E402
from pokerlab.policy.indexed import IndexedPolicy  # noqa: E402

SEED = 1


def make_agents(stack_bb: float, buckets: tuple[int, int, int, int]) -> tuple[Any, Any]:
    cfg = HoldemConfig.from_bb(stack_bb)
    bets = preset("default")
    tree = compile_tree(bets, cfg)
    rng = np.random.default_rng(0)
    tables = [np.arange(169, dtype=np.uint16)] + [
        rng.integers(0, buckets[s], street_indexer(s).size).astype(np.uint16)
        for s in (1, 2, 3)]
    bc = BucketConfig(buckets=buckets, methods=("lossless", "ehs", "ehs", "ehs"))
    cards = CardAbstraction(config=bc, tables=tables)
    game = HUNLGame(cfg, BetSetAbstraction(bets=bets), cards)
    lay = tree.layout(buckets)
    agents = []
    for seed in (1, 2):
        probs = np.random.default_rng(seed).random(lay.num_values).astype(np.float32)
        pol = IndexedPolicy.from_tree(tree, buckets, probs, metadata={"game": "synthetic"})
        agents.append(HUNLPolicyAgent(pol, game, name=f"policy{seed}"))
    return agents[0], agents[1]


def pokerkit_hand(a: Any, b: Any, i: int) -> float:
    """Hand ``i`` driven by PokerKit, the agents deciding as in the kernel."""
    from pokerlab.agents.oracle import pokerkit_state

    cfg = a.game.config
    tree = a.tree
    a_seat = i % 2
    cs = hand_cards(SEED, i)
    rngs = {a_seat: SplitMix64(hand_seed(SEED, i, 1)),
            1 - a_seat: SplitMix64(hand_seed(SEED, i, 2))}
    agent = {a_seat: a, 1 - a_seat: b}
    pk = pokerkit_state(cfg)
    pk.deal_hole(cards_str(cs[0:2]))
    pk.deal_hole(cards_str(cs[2:4]))
    pos = 4
    node = 0
    while pk.status:
        if pk.can_deal_board():
            n = 3 if pos == 4 else 1
            pk.deal_board(cards_str(cs[pos:pos + n]))
            pos += n
            continue
        p = pk.actor_index
        if p is None:
            break
        ag = agent[p]
        s = int(tree.street[node])
        hole = (cs[2 * p], cs[2 * p + 1])
        bucket = ag.bucket(s, hole, tuple(cs[4:9]))
        k = int(tree.num_children[node])
        r0 = ag.policy.row_start(node, bucket)
        w = [1.0] * k if r0 < 0 else [float(x) for x in ag.policy.probs[r0:r0 + k]]
        if sum(w) <= 0:
            w = [1.0] * k
        j = sample_index(w, uniform_from(rngs[p]))
        e = int(tree.child_start[node]) + j
        act = int(tree.child_action[e])
        if act == 0:
            pk.fold()
        elif act == 1:
            pk.check_or_call()
        else:
            pk.complete_bet_or_raise_to(int(tree.child_amount[e]))
        node = int(tree.child_node[e])
    return float(pk.stacks[a_seat] - cfg.stacks[a_seat])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--pk-hands", type=int, default=300)
    ap.add_argument("--stack", type=float, default=50.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    buckets = (169, 50, 50, 50)
    t = time.perf_counter()
    a, b = make_agents(args.stack, buckets)
    setup = time.perf_counter() - t
    run_kernel(a, b, 0, 1000, False, SEED)  # compile / load the cache
    load_before = os.getloadavg()[0]
    t, c = time.perf_counter(), time.process_time()
    chips = run_kernel(a, b, 0, args.hands, False, SEED)
    k_wall, k_cpu = time.perf_counter() - t, time.process_time() - c
    m = min(args.pk_hands, args.hands)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        t, c = time.perf_counter(), time.process_time()
        pk = np.array([pokerkit_hand(a, b, i) for i in range(m)])
        pk_wall, pk_cpu = time.perf_counter() - t, time.process_time() - c
    cfg = a.game.config
    t, c = time.perf_counter(), time.process_time()
    eng = np.array([play_hunl_hand(a, b, cfg, i % 2, hand_cards(SEED, i),
                                   hand_seed(SEED, i, 1), hand_seed(SEED, i, 2)).payoffs()[i % 2]
                    for i in range(m)], dtype=np.float64)
    e_wall, e_cpu = time.perf_counter() - t, time.process_time() - c
    res = {
        "setup": {"bets": "default", "stack_bb": args.stack, "buckets": list(buckets),
                  "tree_nodes": a.tree.num_nodes, "setup_seconds": round(setup, 2)},
        "kernel": {"hands": args.hands, "wall_s": k_wall, "cpu_s": k_cpu,
                   "hands_per_s": args.hands / k_wall, "hands_per_cpu_s": args.hands / k_cpu,
                   "mean_mbb_a": float(chips.mean() / cfg.big_blind * 1000)},
        "pokerkit_loop": {"hands": m, "wall_s": pk_wall, "cpu_s": pk_cpu,
                          "hands_per_s": m / pk_wall, "hands_per_cpu_s": m / pk_cpu,
                          "agrees_with_kernel": bool(np.array_equal(pk, chips[:m]))},
        "engine_agents": {"hands": m, "wall_s": e_wall, "cpu_s": e_cpu,
                          "hands_per_s": m / e_wall,
                          "agrees_with_kernel": bool(np.array_equal(eng, chips[:m]))},
        "speedup_vs_pokerkit_wall": (args.hands / k_wall) / (m / pk_wall),
        "speedup_vs_pokerkit_cpu": (args.hands / k_cpu) / (m / pk_cpu),
        "speedup_vs_engine_wall": (args.hands / k_wall) / (m / e_wall),
        "load_average_1min": [load_before, os.getloadavg()[0]],
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(res))
        return
    print(f"default bets, {args.stack:g} bb, buckets {buckets}, tree {a.tree.num_nodes} nodes")
    print(f"kernel        {res['kernel']['hands_per_s']:>12,.0f} hands/s "
          f"({res['kernel']['hands_per_cpu_s']:,.0f} per CPU-s)")
    print(f"PokerKit loop {res['pokerkit_loop']['hands_per_s']:>12,.1f} hands/s "
          f"(same results: {res['pokerkit_loop']['agrees_with_kernel']})")
    print(f"engine+agents {res['engine_agents']['hands_per_s']:>12,.1f} hands/s "
          f"(same results: {res['engine_agents']['agrees_with_kernel']})")
    print(f"kernel / PokerKit: {res['speedup_vs_pokerkit_wall']:,.0f}x wall, "
          f"{res['speedup_vs_pokerkit_cpu']:,.0f}x CPU; load {res['load_average_1min']}")


if __name__ == "__main__":
    main()
