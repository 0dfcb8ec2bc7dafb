"""Matches between players and exhaustive play against the minimax player.

Win/draw/loss counts are always from the evaluated agent's point of view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import Game, State
from pokerlab.selfplay.data import play_game
from pokerlab.selfplay.minimax import MinimaxSolver, check_two_player
from pokerlab.selfplay.players import Player


@dataclass(frozen=True, kw_only=True)
class WDL:
    win: int = 0
    draw: int = 0
    loss: int = 0

    @property
    def games(self) -> int:
        return self.win + self.draw + self.loss

    def __add__(self, other: WDL) -> WDL:
        return WDL(win=self.win + other.win, draw=self.draw + other.draw,
                   loss=self.loss + other.loss)

    def add_return(self, r: float) -> WDL:
        if r > 0:
            return WDL(win=self.win + 1, draw=self.draw, loss=self.loss)
        if r < 0:
            return WDL(win=self.win, draw=self.draw, loss=self.loss + 1)
        return WDL(win=self.win, draw=self.draw + 1, loss=self.loss)

    def to_dict(self) -> dict[str, int]:
        return {"win": self.win, "draw": self.draw, "loss": self.loss}


def play_match(
    game: Game, agent: Player, opponent: Player, *, num_games: int, seed: int
) -> dict[str, WDL]:
    """``num_games`` games, the agent first in even-numbered games, second in odd ones.

    Returns ``{"as_first": ..., "as_second": ..., "total": ...}``.
    """
    check_two_player(game)
    if num_games < 1:
        raise ConfigError(f"num_games {num_games!r} must be >= 1")
    rng = np.random.default_rng(seed)
    seats = [WDL(), WDL()]
    for i in range(num_games):
        me = i % 2
        players = [agent, opponent] if me == 0 else [opponent, agent]
        rec = play_game(game, players, rng)
        seats[me] = seats[me].add_return(rec.returns[me])
    return {"as_first": seats[0], "as_second": seats[1], "total": seats[0] + seats[1]}


def vs_minimax_every_opening(
    game: Game, choose: Callable[[State], int], solver: MinimaxSolver
) -> dict[str, WDL]:
    """A deterministic agent against every minimax-optimal line, from every opening.

    As the first player, the agent's first move is forced to each legal opening in turn and
    it plays on by itself; as the second player, the opponent opens with each legal move.
    After the opening the opponent branches over *every* minimax-optimal move, so each
    leaf is one game and ``loss == 0`` means no minimax player, whatever its tie-breaking,
    beats the agent from any opening. Returns ``{"as_first", "as_second", "total"}``.
    """
    check_two_player(game)

    def rec(s: State, me: int) -> WDL:
        if s.is_terminal():
            return WDL().add_return(s.returns()[me])
        if s.is_chance_node():
            raise ConfigError("vs_minimax_every_opening needs a game without chance nodes")
        if s.current_player() == me:
            return rec(s.child(choose(s)), me)
        out = WDL()
        for a in solver.optimal_actions(s):
            out = out + rec(s.child(a), me)
        return out

    root = game.new_initial_state()
    seats = [WDL(), WDL()]
    for me in (0, 1):
        for a in root.legal_actions():
            seats[me] = seats[me] + rec(root.child(a), me)
    return {"as_first": seats[0], "as_second": seats[1], "total": seats[0] + seats[1]}
