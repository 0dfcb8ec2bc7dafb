"""Exact minimax (expectimax at chance nodes) with memoisation on the position key.

For perfect-information two-player zero-sum games on the :mod:`pokerlab.games.protocol`
protocol. Positions are identified by ``state.public_state_string()``, which for a
perfect-information game is the whole position; the table is filled lazily and is shared
by every query, so solving tic-tac-toe touches each of its 5,478 legal positions once.
"""

from __future__ import annotations

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import Game, State


def check_two_player(game: Game) -> None:
    if game.num_players != 2:
        raise ConfigError(
            f"game {game.name!r} has {game.num_players} players; self-play and minimax need 2"
        )


class MinimaxSolver:
    """Game-theoretic values of positions, player 0's point of view, memoised."""

    def __init__(self, *, game: Game) -> None:
        check_two_player(game)
        self.game = game
        self._value: dict[str, float] = {}

    def value(self, state: State) -> float:
        """Minimax value of ``state`` for player 0 (``-value`` for player 1)."""
        key = state.public_state_string()
        v = self._value.get(key)
        if v is not None:
            return v
        if state.is_terminal():
            v = float(state.returns()[0])
        elif state.is_chance_node():
            v = sum(p * self.value(state.child(a)) for a, p in state.chance_outcomes())
        else:
            vals = [self.value(state.child(a)) for a in state.legal_actions()]
            v = max(vals) if state.current_player() == 0 else min(vals)
        self._value[key] = v
        return v

    def value_for(self, state: State, player: int) -> float:
        v = self.value(state)
        return v if player == 0 else -v

    def action_values(self, state: State) -> dict[int, float]:
        """Value of each legal action for the player to move (its own point of view)."""
        p = state.current_player()
        if state.is_terminal() or state.is_chance_node():
            return {}
        return {a: self.value_for(state.child(a), p) for a in state.legal_actions()}

    def optimal_actions(self, state: State, *, tol: float = 1e-9) -> list[int]:
        """Every legal action that achieves the minimax value for the player to move."""
        av = self.action_values(state)
        if not av:
            return []
        best = max(av.values())
        return [a for a, v in av.items() if v >= best - tol]

    def solve(self) -> float:
        """Solve the game from the initial state; returns the game value for player 0."""
        return self.value(self.game.new_initial_state())

    @property
    def num_positions(self) -> int:
        """Distinct positions (terminal ones included) evaluated so far."""
        return len(self._value)


def count_positions(game: Game) -> int:
    """Distinct positions reachable from the initial state (terminal ones included)."""
    seen: set[str] = set()
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        key = s.public_state_string()
        if key in seen:
            continue
        seen.add(key)
        if s.is_terminal():
            continue
        acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        stack.extend(s.child(a) for a in acts)
    return len(seen)
