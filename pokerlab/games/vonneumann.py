"""Von Neumann poker: the continuous [0, 1] poker model, discretised into N hands.

The continuous game (von Neumann & Morgenstern 1944, section 19; Ferguson & Ferguson 2003):
both players ante ``ante``; each receives a hand, independent and uniform on [0, 1];
player 0 checks (showdown for the antes) or bets ``bet``; after a bet player 1 folds
(player 0 takes the antes) or calls (showdown for ante + bet); the higher hand wins.

Its solution, with the bet measured in antes (``B = bet / ante``): player 0 bets with
``x < a`` (bluffs) and with ``x > b`` (value bets) and checks between; player 1 calls with
``y > c``, where::

    a = B / ((B + 1)(B + 4)),   b = (B^2 + 4B + 2) / ((B + 1)(B + 4)),
    c = B (B + 3) / ((B + 1)(B + 4)),   value (player 0) = ante * B / ((B + 1)(B + 4))

(ante 1, bet 1: a = 1/10, b = 7/10, c = 2/5, value 1/10; bet 2, the pot: 1/9, 7/9, 5/9,
1/9).  :func:`analytic_solution` gives these numbers; ``tests/test_vonneumann.py`` checks
that the exact equilibrium of the discretised game converges to them.

Discretisation: ``num_hands`` = N hands ``0..N-1`` (hand ``i`` stands for the interval
``[i/N, (i+1)/N)``), dealt to each player independently and uniformly (chance: player 0's
hand, then player 1's), so equal hands are possible and split the pot.  Action ids: player
0 ``0`` check / ``1`` bet; player 1 (after a bet only) ``0`` fold / ``1`` call.  Information
states ``"<hand>"`` (player 0) and ``"<hand>b"`` (player 1), as Kuhn's.
"""

from __future__ import annotations

import pokerlab.games as _games
from pokerlab.errors import ConfigError
from pokerlab.games.protocol import GameInfo, TwoPlayerGame, fold_or_showdown_returns
from pokerlab.games.two_player import OneHandEachState

CHECK = 0
BET = 1
FOLD = 0
CALL = 1


def analytic_solution(*, ante: float = 1.0, bet: float = 1.0) -> dict[str, float]:
    """The continuous game's thresholds ``a`` (bluff below), ``b`` (value-bet above), ``c``
    (call above) and player 0's game value (module docs)."""
    if not ante > 0 or not bet > 0:
        raise ConfigError(f"ante and bet must be positive, got {ante!r} / {bet!r}")
    B = bet / ante
    d = (B + 1) * (B + 4)
    return {"a": B / d, "b": (B * B + 4 * B + 2) / d, "c": B * (B + 3) / d,
            "value": ante * B / d}


class VonNeumannState(OneHandEachState):
    """A von Neumann poker state: the two hands dealt (``private``) and the actions so far."""

    __slots__ = ()
    _game: VonNeumannGame

    def is_terminal(self) -> bool:
        h = self.history
        return len(self.private) == 2 and (len(h) == 2 or (len(h) == 1 and h[0] == CHECK))

    def deal_outcomes(self) -> list[int]:
        return list(range(self._game.num_hands))  # independent hands: equal ones possible

    def terminal_returns(self) -> list[float]:
        g = self._game
        h = self.history
        contrib = [g.ante + (g.bet if h[0] == BET else 0.0),
                   g.ante + (g.bet if h == [BET, CALL] else 0.0)]
        folder = 1 if h == [BET, FOLD] else -1
        return fold_or_showdown_returns(contrib, folder, lambda p: self.private[p])

    def move_name(self, action: int) -> str:
        if not self.history:
            return "Check" if action == CHECK else "Bet"
        return "Fold" if action == FOLD else "Call"


class VonNeumannGame(TwoPlayerGame):
    """Von Neumann's [0, 1] poker with ``num_hands`` hands (module docs)."""

    def __init__(self, *, num_hands: int = 10, ante: float = 1.0, bet: float = 1.0) -> None:
        if isinstance(num_hands, bool) or not isinstance(num_hands, int) or num_hands < 2:
            raise ConfigError(f"num_hands must be an integer >= 2, got {num_hands!r}")
        if not float(ante) > 0 or not float(bet) > 0:
            raise ConfigError(f"ante and bet must be positive, got {ante!r} / {bet!r}")
        self.num_hands = num_hands
        self.ante = float(ante)
        self.bet = float(bet)

    @property
    def name(self) -> str:
        return f"vonneumann(num_hands={self.num_hands},ante={self.ante:g},bet={self.bet:g})"

    def num_distinct_actions(self) -> int:
        return 2

    def info(self) -> GameInfo:
        s = self.ante + self.bet
        return GameInfo(num_players=2, num_distinct_actions=2, zero_sum=True, min_utility=-s,
                        max_utility=s, private_cards_first=True, max_game_length=2,
                        big_blind=self.ante)

    def new_initial_state(self) -> VonNeumannState:
        return VonNeumannState(self)

    def analytic_solution(self) -> dict[str, float]:
        """The continuous game's solution for this ante and bet."""
        return analytic_solution(ante=self.ante, bet=self.bet)

    def __repr__(self) -> str:
        return f"VonNeumannGame(num_hands={self.num_hands}, ante={self.ante}, bet={self.bet})"


_register = getattr(_games, "register_game", None)
if _register is not None:
    _register("vonneumann", VonNeumannGame)
