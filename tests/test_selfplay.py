"""Self-play: exact anchors, targets and discounting, players, matches (no torch needed)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import TERMINAL
from pokerlab.games.tictactoe import TicTacToeGame
from pokerlab.selfplay.data import (
    GameRecord,
    Move,
    build_dataset,
    discounted_targets,
    generate,
    load_csv,
    play_game,
    save_csv,
)
from pokerlab.selfplay.evaluate import WDL, play_match, vs_minimax_every_opening
from pokerlab.selfplay.exact import (
    deterministic_policy,
    exact_vs_random,
    max_win_vs_random,
    uniform_optimal_policy,
    worst_case_return,
)
from pokerlab.selfplay.minimax import MinimaxSolver, count_positions
from pokerlab.selfplay.players import (
    EpsilonGreedyPlayer,
    MinimaxPlayer,
    RandomPlayer,
    ValueAgent,
    epsilon_for,
)

TTT = TicTacToeGame()
SOLVER = MinimaxSolver(game=TTT)


# -- a second, hand-made game: take 1 or 2 stones, who takes the last one wins ------------
class NimState:
    def __init__(self, stones: int, nxt: int = 0) -> None:
        self.stones, self.nxt = stones, nxt

    def current_player(self) -> int:
        return TERMINAL if self.stones == 0 else self.nxt

    def is_terminal(self) -> bool:
        return self.stones == 0

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self) -> list[int]:
        return [a for a in (1, 2) if a <= self.stones]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply_action(self, action: int) -> None:
        self.stones -= action
        self.nxt = 1 - self.nxt

    def child(self, action: int) -> NimState:
        c = self.clone()
        c.apply_action(action)
        return c

    def clone(self) -> NimState:
        return NimState(self.stones, self.nxt)

    def returns(self) -> list[float]:
        if self.stones:
            return [0.0, 0.0]
        winner = 1 - self.nxt  # the player who just took the last stone
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def information_state_string(self, player: int | None = None) -> str:
        return self.public_state_string()

    def public_state_string(self) -> str:
        return f"{self.stones}:{self.nxt}"

    def action_to_string(self, action: int) -> str:
        return f"take{action}"

    def to_tensor(self, player: int | None = None) -> np.ndarray:
        t = np.zeros((1, 8), dtype=np.float32)
        t[0, self.stones] = 1.0
        return t


class NimGame:
    def __init__(self, stones: int) -> None:
        self.stones = stones

    @property
    def name(self) -> str:
        return "nim"

    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return 3

    def new_initial_state(self) -> NimState:
        return NimState(self.stones)


# -- exact solver and anchors ---------------------------------------------------------------
def test_solver_on_nim() -> None:
    for n in range(1, 8):
        assert MinimaxSolver(game=NimGame(n)).solve() == (-1.0 if n % 3 == 0 else 1.0)
    assert count_positions(NimGame(7)) == 14  # (stones, mover): 7:0, 6:1 and both movers for 0..5
    s = MinimaxSolver(game=NimGame(7))
    assert s.optimal_actions(NimState(7)) == [1]


def test_tictactoe_value_and_positions() -> None:
    assert SOLVER.solve() == 0.0
    assert SOLVER.num_positions == 5478


def test_anchor_uniform_optimal_vs_random() -> None:
    pol = uniform_optimal_policy(SOLVER)
    x = exact_vs_random(TTT, pol, player=0)
    o = exact_vs_random(TTT, pol, player=1)
    assert x.win == Fraction(75257, 77760) and x.loss == 0
    assert o.win == Fraction(2645, 3402) and o.loss == 0
    assert round(float(x.win) * 100, 2) == 96.78
    assert round(float(o.win) * 100, 2) == 77.75
    assert x.win + x.draw + x.loss == 1 and o.win + o.draw + o.loss == 1


def test_anchor_max_win_vs_random() -> None:
    x = max_win_vs_random(SOLVER, player=0)
    o = max_win_vs_random(SOLVER, player=1)
    assert x.win == Fraction(191, 192) and x.loss == 0
    assert o.win == Fraction(866, 945) and o.loss == 0
    assert round(float(x.win) * 100, 2) == 99.48
    assert round(float(o.win) * 100, 2) == 91.64


def test_exact_random_vs_random() -> None:
    # classical numbers: x wins 131184, o 77904, draws 46080 of the 255168 games; weighted
    # by probability x wins ~58.49%, o ~28.81%, draw ~12.70%
    rnd = exact_vs_random(TTT, lambda s: {a: Fraction(1, len(s.legal_actions()))
                                          for a in s.legal_actions()}, player=0)
    assert round(float(rnd.win), 4) == 0.5849
    assert round(float(rnd.loss), 4) == 0.2881
    assert round(float(rnd.draw), 4) == 0.1270


def test_policy_must_sum_to_one() -> None:
    with pytest.raises(ConfigError, match="sum"):
        exact_vs_random(TTT, lambda s: {s.legal_actions()[0]: Fraction(1, 2)}, player=0)
    with pytest.raises(ConfigError, match="player"):
        exact_vs_random(TTT, uniform_optimal_policy(SOLVER), player=2)


def test_worst_case() -> None:
    mm = MinimaxPlayer(solver=SOLVER, tie_break="first")
    rng = np.random.default_rng(0)

    def choose(s: object) -> int:
        return mm.choose(s, rng, ply=0)  # type: ignore[arg-type]

    assert worst_case_return(TTT, choose, player=0) == 0.0
    assert worst_case_return(TTT, choose, player=1) == 0.0

    def first_legal(s: object) -> int:
        return s.legal_actions()[0]  # type: ignore[attr-defined,no-any-return]

    assert worst_case_return(TTT, first_legal, player=0) == -1.0
    # deterministic policy as exact policy: always-first-cell x vs random
    out = exact_vs_random(TTT, deterministic_policy(first_legal), player=0)
    assert out.win + out.draw + out.loss == 1 and 0 < out.loss < 1


# -- targets and discounting ----------------------------------------------------------------
def _moves(players: list[int]) -> tuple[Move, ...]:
    z = np.zeros((1,), dtype=np.float32)
    return tuple(Move(player=p, action=0, ply=i, tensor=z) for i, p in enumerate(players))


def test_targets_winner_and_loser_discounted_per_own_move() -> None:
    rec = GameRecord(moves=_moves([0, 1, 0, 1, 0]), returns=(1.0, -1.0))
    g = 0.5
    assert discounted_targets(rec, gamma=g) == [0.25, -0.5, 0.5, -1.0, 1.0]


def test_targets_second_player_wins() -> None:
    rec = GameRecord(moves=_moves([0, 1, 0, 1, 0, 1]), returns=(-1.0, 1.0))
    assert discounted_targets(rec, gamma=0.9) == pytest.approx(
        [-0.81, 0.81, -0.9, 0.9, -1.0, 1.0])


def test_targets_draw_and_gamma_one() -> None:
    rec = GameRecord(moves=_moves([0, 1] * 4 + [0]), returns=(0.0, 0.0))
    assert discounted_targets(rec, gamma=0.9) == [0.0] * 9
    rec = GameRecord(moves=_moves([0, 1, 0]), returns=(1.0, -1.0))
    assert discounted_targets(rec, gamma=1.0) == [1.0, -1.0, 1.0]
    with pytest.raises(ConfigError, match="gamma 0"):
        discounted_targets(rec, gamma=0.0)


def test_win_targets() -> None:
    rec = GameRecord(moves=_moves([0, 1, 0, 1, 0]), returns=(1.0, -1.0))
    assert discounted_targets(rec, gamma=0.5, win=True) == [0.25, 0.0, 0.5, 0.0, 1.0]
    rec = GameRecord(moves=_moves([0, 1, 0]), returns=(0.0, 0.0))
    assert discounted_targets(rec, gamma=0.5, win=True) == [0.0, 0.0, 0.0]


def test_targets_non_alternating_game() -> None:
    # a player may move twice in a row (e.g. games with extra turns): discount per own move
    rec = GameRecord(moves=_moves([0, 0, 1, 0]), returns=(1.0, -1.0))
    assert discounted_targets(rec, gamma=0.5) == [0.25, 0.5, -1.0, 1.0]


class _Scripted:
    def __init__(self, moves: list[int]) -> None:
        self.moves = moves

    def choose(self, state: object, rng: np.random.Generator, *, ply: int) -> int:
        return self.moves[ply]


def test_real_game_dataset_tensors_and_targets(tmp_path: object) -> None:
    script = _Scripted([0, 3, 1, 4, 2])  # x wins the top row on move 5
    rec = play_game(TTT, [script, script], np.random.default_rng(0))
    assert [m.action for m in rec.moves] == [0, 3, 1, 4, 2]
    assert rec.returns == (1.0, -1.0)
    ds = build_dataset([rec], gamma=0.9, tensor_shape=(2, 3, 3))
    assert ds.y.tolist() == pytest.approx([0.81, -0.9, 0.9, -1.0, 1.0])
    assert ds.player.tolist() == [0, 1, 0, 1, 0]
    assert ds.outcome.tolist() == [1.0, -1.0, 1.0, -1.0, 1.0]
    assert ds.y_win.tolist() == pytest.approx([0.81, 0.0, 0.9, 0.0, 1.0])
    # the last sample is x's winning position from x's side: own row full, o's two marks
    np.testing.assert_array_equal(ds.x[4, 0].reshape(-1), [1, 1, 1, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(ds.x[4, 1].reshape(-1), [0, 0, 0, 1, 1, 0, 0, 0, 0])
    # o's last sample from o's side: channel 0 holds o's marks
    np.testing.assert_array_equal(ds.x[3, 0].reshape(-1), [0, 0, 0, 1, 1, 0, 0, 0, 0])
    from pathlib import Path

    p = Path(str(tmp_path)) / "d.csv"
    save_csv(ds, p)
    back = load_csv(p, tensor_shape=(2, 3, 3))
    np.testing.assert_array_equal(back.x, ds.x)
    np.testing.assert_allclose(back.y, ds.y)
    np.testing.assert_allclose(back.y_win, ds.y_win)
    np.testing.assert_array_equal(back.game, ds.game)
    np.testing.assert_array_equal(back.ply, ds.ply)
    with pytest.raises(ConfigError, match="columns"):
        load_csv(p, tensor_shape=(3, 3))


def test_generate_seeded_and_generic() -> None:
    a = generate(TTT, [RandomPlayer(), RandomPlayer()], num_games=50, gamma=0.9,
                 tensor_shape=(2, 3, 3), seed=3)
    b = generate(TTT, [RandomPlayer(), RandomPlayer()], num_games=50, gamma=0.9,
                 tensor_shape=(2, 3, 3), seed=3)
    np.testing.assert_array_equal(a.x, b.x)
    assert a.num_games == 50
    assert 5 * 50 <= len(a) <= 9 * 50
    n = generate(NimGame(7), [RandomPlayer(), RandomPlayer()], num_games=20, gamma=0.5,
                 tensor_shape=(1, 8), seed=0)
    # in Nim the last mover wins: every game's final sample has target +1
    last = [i for i in range(len(n)) if i == len(n) - 1 or n.game[i + 1] != n.game[i]]
    assert all(n.y[i] == 1.0 for i in last)


# -- players and matches -------------------------------------------------------------------
def test_epsilon_schedule() -> None:
    assert [epsilon_for((0.5, 0.1), i) for i in range(4)] == [0.5, 0.1, 0.1, 0.1]
    with pytest.raises(ConfigError, match="1.5"):
        EpsilonGreedyPlayer(inner=RandomPlayer(), epsilons=(1.5,))
    with pytest.raises(ConfigError, match="tie_break"):
        MinimaxPlayer(solver=SOLVER, tie_break="best")


def test_minimax_never_loses_and_random_loses() -> None:
    mm = MinimaxPlayer(solver=SOLVER)
    res = play_match(TTT, mm, RandomPlayer(), num_games=200, seed=1)
    assert res["total"].loss == 0
    assert res["as_first"].games == res["as_second"].games == 100
    assert res["total"].win > 150
    rng = np.random.default_rng(0)
    first = MinimaxPlayer(solver=SOLVER, tie_break="first")
    res = vs_minimax_every_opening(TTT, lambda s: first.choose(s, rng, ply=0), SOLVER)
    assert res["total"].loss == 0 and res["total"].win == 0
    # the second player faces 9 openings; first player tries 9 openings of its own
    assert res["as_first"].games >= 9 and res["as_second"].games >= 9


def test_value_agent_greedy_and_cached() -> None:
    calls: list[int] = []

    def centre_lover(batch: np.ndarray) -> np.ndarray:
        calls.append(len(batch))
        return batch[:, 0, 1, 1].astype(np.float32)  # value 1 iff my mark is in the centre

    agent = ValueAgent(value_fn=centre_lover)
    s = TTT.new_initial_state()
    assert agent.best_action(s) == 4
    assert agent.action_values(s)[4] == 1.0 and agent.action_values(s)[0] == 0.0
    assert calls == [9]  # second lookup came from the cache
    rng = np.random.default_rng(0)
    eg = EpsilonGreedyPlayer(inner=agent, epsilons=(1.0, 0.0))
    firsts = {eg.choose(s, rng, ply=0) for _ in range(50)}
    assert len(firsts) > 3  # epsilon 1 at move 0: random
    assert eg.choose(s, rng, ply=1) == 4  # epsilon 0 afterwards: greedy


def test_value_agent_two_heads_prefers_safe_win_chance() -> None:
    # value: centre 0.5, corners 0.45, edges -0.9; win probability: corners 0.8, centre 0.6,
    # edges 0.99 -> with margin 0.1 the corners are safe and likelier to win than the centre
    vals = np.array([0.45, -0.9, 0.45, -0.9, 0.5, -0.9, 0.45, -0.9, 0.45])
    wins = np.array([0.8, 0.99, 0.8, 0.99, 0.6, 0.99, 0.8, 0.99, 0.8])

    def two_heads(batch: np.ndarray) -> np.ndarray:
        cell = batch[:, 0].reshape(len(batch), 9).argmax(axis=1)
        return np.stack([vals[cell], wins[cell]], axis=1).astype(np.float32)

    s = TTT.new_initial_state()
    assert ValueAgent(value_fn=two_heads, win_margin=0.1).best_action(s) == 0
    assert ValueAgent(value_fn=two_heads, win_margin=0.0).best_action(s) == 4
    assert ValueAgent(value_fn=two_heads).action_estimates(s)[1] == pytest.approx((-0.9, 0.99))
    with pytest.raises(ConfigError, match="win_margin -1"):
        ValueAgent(value_fn=two_heads, win_margin=-1)


def test_wdl_arithmetic() -> None:
    w = WDL().add_return(1.0).add_return(0.0).add_return(-2.0)
    assert w.to_dict() == {"win": 1, "draw": 1, "loss": 1}
    assert (w + w).games == 6
