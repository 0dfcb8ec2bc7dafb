"""Players for self-play and evaluation: random, minimax, value-greedy, epsilon-greedy.

A player is anything with ``choose(state, rng) -> action``. A *value function* maps a batch
of state tensors (each from the point of view of the player who just moved) to predicted
values in ``[-1, 1]`` for that player; :class:`ValueAgent` turns one into a player by
evaluating every legal move's resulting position and taking the best.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import State
from pokerlab.selfplay.minimax import MinimaxSolver

ValueFunction = Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]]
"""Batch ``[n, *tensor_shape]`` -> ``[n]`` values for the player who just moved."""


class Player(Protocol):
    def choose(self, state: State, rng: np.random.Generator, *, ply: int) -> int:
        """Pick a legal action; ``ply`` is the 0-based index of this move in the game."""
        ...


def encode(state: State, player: int) -> npt.NDArray[np.float32]:
    """The state tensor from ``player``'s point of view (``state.to_tensor(player)``)."""
    fn = getattr(state, "to_tensor", None)
    if fn is None:
        raise ConfigError(
            f"state type {type(state).__name__!r} has no to_tensor(player); self-play needs one"
        )
    return np.asarray(fn(player), dtype=np.float32)


def _pick(actions: Sequence[int], rng: np.random.Generator) -> int:
    return int(actions[int(rng.integers(len(actions)))])


def _check_chance(state: State) -> None:
    if state.is_chance_node():
        raise ConfigError("players act at decision nodes; sample chance nodes in the game loop")


class RandomPlayer:
    """Uniformly random legal moves."""

    def choose(self, state: State, rng: np.random.Generator, *, ply: int) -> int:
        _check_chance(state)
        return _pick(state.legal_actions(), rng)


class MinimaxPlayer:
    """Perfect play; ties among optimal moves broken uniformly (``rng``) or by lowest id."""

    def __init__(self, *, solver: MinimaxSolver, tie_break: str = "uniform") -> None:
        if tie_break not in ("uniform", "first"):
            raise ConfigError(f"tie_break {tie_break!r} is not 'uniform' or 'first'")
        self.solver = solver
        self.tie_break = tie_break

    def choose(self, state: State, rng: np.random.Generator, *, ply: int) -> int:
        _check_chance(state)
        opt = self.solver.optimal_actions(state)
        return opt[0] if self.tie_break == "first" else _pick(opt, rng)


class ValueAgent:
    """Greedy on a value function; caches values by (position, mover) since it is fixed.

    If the value function returns two columns (value, win probability), the agent keeps to
    the moves whose predicted value is within ``win_margin`` of the best one and among those
    takes the highest predicted win probability: a learned version of "among never-losing
    moves, maximise the chance to win".
    """

    def __init__(self, *, value_fn: ValueFunction, win_margin: float = 0.1) -> None:
        if not win_margin >= 0.0:
            raise ConfigError(f"win_margin {win_margin!r} must be >= 0")
        self.value_fn = value_fn
        self.win_margin = float(win_margin)
        self._cache: dict[tuple[str, int], dict[int, tuple[float, float]]] = {}

    def action_estimates(self, state: State) -> dict[int, tuple[float, float]]:
        """(value, win probability or NaN) of the position after each legal move."""
        _check_chance(state)
        p = state.current_player()
        key = (state.public_state_string(), p)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        acts = state.legal_actions()
        batch = np.stack([encode(state.child(a), p) for a in acts])
        raw = np.asarray(self.value_fn(batch), dtype=np.float64)
        if raw.ndim == 1:
            raw = np.stack([raw, np.full_like(raw, np.nan)], axis=1)
        out = {a: (float(r[0]), float(r[1])) for a, r in zip(acts, raw, strict=True)}
        self._cache[key] = out
        return out

    def action_values(self, state: State) -> dict[int, float]:
        """Predicted value, for the player to move, of the position after each legal move."""
        return {a: v for a, (v, _) in self.action_estimates(state).items()}

    def best_action(self, state: State) -> int:
        est = self.action_estimates(state)
        best = max(v for v, _ in est.values())
        if any(np.isnan(w) for _, w in est.values()):
            # highest value, lowest id on exact ties
            return max(est, key=lambda a: (est[a][0], -a))
        safe = [a for a, (v, _) in est.items() if v >= best - self.win_margin]
        return max(safe, key=lambda a: (est[a][1], est[a][0], -a))

    def choose(self, state: State, rng: np.random.Generator, *, ply: int) -> int:
        return self.best_action(state)


def epsilon_for(epsilons: Sequence[float], move_index: int) -> float:
    """Exploration rate of move ``move_index`` (0-based ply); the last entry repeats."""
    return float(epsilons[min(move_index, len(epsilons) - 1)])


def check_epsilons(epsilons: Sequence[float]) -> None:
    if len(epsilons) == 0:
        raise ConfigError("epsilons must not be empty")
    for e in epsilons:
        if not 0.0 <= float(e) <= 1.0:
            raise ConfigError(f"epsilon {e!r} is not in [0, 1]")


class EpsilonGreedyPlayer:
    """With probability ``epsilons[move index]`` a random legal move, else ``inner``'s choice.

    The move index is the ply (0-based, both players' moves counted) or, with
    ``per_player_move=True``, the player's own move number ``ply // num_players`` (the
    tic-tac-toe tutorial's convention: x's and o's first moves both use ``epsilons[0]``).
    """

    def __init__(self, *, inner: Player, epsilons: Sequence[float],
                 per_player_move: bool = False, num_players: int = 2) -> None:
        check_epsilons(epsilons)
        if num_players < 1:
            raise ConfigError(f"num_players must be >= 1, got {num_players}")
        self.inner = inner
        self.epsilons = tuple(float(e) for e in epsilons)
        self.per_player_move = bool(per_player_move)
        self.num_players = int(num_players)

    def move_index(self, ply: int) -> int:
        return ply // self.num_players if self.per_player_move else ply

    def choose(self, state: State, rng: np.random.Generator, *, ply: int) -> int:
        if rng.random() < epsilon_for(self.epsilons, self.move_index(ply)):
            return _pick(state.legal_actions(), rng)
        return self.inner.choose(state, rng, ply=ply)
