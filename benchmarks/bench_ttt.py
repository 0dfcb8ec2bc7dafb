"""Tic-tac-toe: pokerlab's game and exact solver against OpenSpiel, same run.

1. Random playouts per second: ``TicTacToeGame`` (pure Python) against OpenSpiel's C++
   ``tic_tac_toe`` driven from Python (both pick moves with the same numpy generator).
2. Solving the game (value of the empty board): our memoised minimax (fills the table of
   all 5,478 positions) against OpenSpiel's ``alpha_beta_search`` (no transposition table)
   and against the same memoised recursion written over OpenSpiel states.
3. Greedy value-network agent: moves per second with the position cache (the shipped model).

Usage: python benchmarks/bench_ttt.py [--games 20000] [--json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import minimax as os_minimax  # noqa: E402

from pokerlab.games.tictactoe import TicTacToeGame  # noqa: E402
from pokerlab.selfplay.minimax import MinimaxSolver  # noqa: E402


def playouts_ours(n: int, seed: int) -> float:
    g = TicTacToeGame()
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    for _ in range(n):
        s = g.new_initial_state()
        while not s.is_terminal():
            acts = s.legal_actions()
            s.apply_action(acts[int(rng.integers(len(acts)))])
    return n / (time.perf_counter() - t0)


def playouts_openspiel(n: int, seed: int) -> float:
    g = pyspiel.load_game("tic_tac_toe")
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    for _ in range(n):
        s = g.new_initial_state()
        while not s.is_terminal():
            acts = s.legal_actions()
            s.apply_action(acts[int(rng.integers(len(acts)))])
    return n / (time.perf_counter() - t0)


def solve_ours() -> tuple[float, float]:
    t0 = time.perf_counter()
    v = MinimaxSolver(game=TicTacToeGame()).solve()
    return time.perf_counter() - t0, v


def solve_openspiel_alpha_beta() -> tuple[float, float]:
    g = pyspiel.load_game("tic_tac_toe")
    t0 = time.perf_counter()
    v, _ = os_minimax.alpha_beta_search(g)
    return time.perf_counter() - t0, float(v)


def solve_openspiel_memo() -> tuple[float, float]:
    g = pyspiel.load_game("tic_tac_toe")
    memo: dict[str, float] = {}

    def rec(s: Any) -> float:
        k = str(s)
        if k in memo:
            return memo[k]
        if s.is_terminal():
            v = float(s.returns()[0])
        else:
            vals = [rec(s.child(a)) for a in s.legal_actions()]
            v = max(vals) if s.current_player() == 0 else min(vals)
        memo[k] = v
        return v

    t0 = time.perf_counter()
    v = rec(g.new_initial_state())
    return time.perf_counter() - t0, v


def agent_moves_per_s(n_games: int, seed: int) -> float | None:
    try:
        import torch

        torch.set_num_threads(1)
        from pokerlab.io import PACKAGE_DATA
        from pokerlab.selfplay.net import load_model, make_value_fn
        from pokerlab.selfplay.players import EpsilonGreedyPlayer, ValueAgent
    except ImportError:
        return None
    path = PACKAGE_DATA / "ttt_model.safetensors"
    if not path.is_file():
        return None
    net, _ = load_model(path)
    agent = EpsilonGreedyPlayer(inner=ValueAgent(value_fn=make_value_fn(net)),
                                epsilons=(0.5, 0.1))
    g = TicTacToeGame()
    rng = np.random.default_rng(seed)
    moves = 0
    t0 = time.perf_counter()
    for _ in range(n_games):
        s = g.new_initial_state()
        while not s.is_terminal():
            s.apply_action(agent.choose(s, rng, ply=moves % 9))
            moves += 1
    return moves / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    ours = playouts_ours(a.games, a.seed)
    peer = playouts_openspiel(a.games, a.seed)
    t_ours, v_ours = solve_ours()
    t_ab, v_ab = solve_openspiel_alpha_beta()
    t_memo, v_memo = solve_openspiel_memo()
    assert v_ours == v_ab == v_memo == 0.0
    agent = agent_moves_per_s(max(a.games // 4, 1), a.seed)
    out = {
        "playouts_per_s": {"pokerlab": ours, "openspiel": peer, "ratio": ours / peer},
        "solve_s": {"pokerlab_memo": t_ours, "openspiel_alpha_beta": t_ab,
                    "openspiel_states_memo": t_memo,
                    "speedup_vs_alpha_beta": t_ab / t_ours, "speedup_vs_memo": t_memo / t_ours},
        "agent_moves_per_s": agent,
    }
    if a.json:
        print(json.dumps(out))
        return
    print(f"random playouts/s: pokerlab {ours:,.0f}  OpenSpiel {peer:,.0f}  "
          f"ratio {ours / peer:.2f}")
    print(f"solve (value 0): pokerlab memo {t_ours:.3f}s  OpenSpiel alpha-beta {t_ab:.3f}s "
          f"(x{t_ab / t_ours:.1f})  memo over OpenSpiel states {t_memo:.3f}s "
          f"(x{t_memo / t_ours:.2f})")
    if agent is not None:
        print(f"greedy value agent (shipped model, eps 0.5/0.1, cached): {agent:,.0f} moves/s")


if __name__ == "__main__":
    main()
