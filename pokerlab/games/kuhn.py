"""Kuhn poker and Oliehoek's 8-card poker: one-card, one-bet poker on an N-card deck.

Rules (both games; Kuhn has N=3, 8-card poker N=8):

* Two players each ante 1 chip (Oliehoek: a *gambler* and a *dealer* each own two coins and
  ante one).  Chance deals player 0 a card, then player 1 a different card, uniformly from a
  one-suit deck of ranks ``0..N-1`` (action id = card rank; 8-card poker's ranks 1..8 are
  ids 0..7).
* Player 0 (the gambler) passes (action 0) or bets 1 (action 1).
* After a bet, player 1 folds (0, "Pass") -- losing the ante -- or calls (1, "Bet"),
  leading to a showdown for 2.
* After a pass, player 1 passes (showdown for 1) or bets; after that bet, player 0 folds
  (loses 1) or calls (showdown for 2).
* At a showdown the higher card takes the pot.

Action ids, chance order and information-state strings equal OpenSpiel's ``kuhn_poker``
(``"<card><history>"`` with history letters ``p``/``b``), so policies exchange directly.
"""

from __future__ import annotations

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import GameInfo, NamedTwoPlayerGame, fold_or_showdown_returns
from pokerlab.games.two_player import OneHandEachState

PASS = 0
BET = 1


class KuhnLikeState(OneHandEachState):
    """A Kuhn-like state: the two cards dealt (``private``) and the actions so far."""

    __slots__ = ()
    _game: KuhnLikeGame

    @property
    def num_cards(self) -> int:
        """Cards in the deck (3 for Kuhn, 8 for 8-card poker)."""
        return self._game.num_cards

    def is_terminal(self) -> bool:
        h = self.history
        n = len(h)
        if n < 2:
            return False
        if n == 2:
            return not (h[0] == PASS and h[1] == BET)
        return True

    def deal_outcomes(self) -> list[int]:
        return [c for c in range(self._game.num_cards) if c not in self.private]

    def terminal_returns(self) -> list[float]:
        h = self.history
        contrib = [1.0, 1.0]  # the antes, then a chip per bet
        for i, a in enumerate(h):
            if a == BET:
                contrib[i % 2] += 1.0
        # fold: a pass right after a bet
        folder = (len(h) - 1) % 2 if h[-1] == PASS and len(h) >= 2 and h[-2] == BET else -1
        return fold_or_showdown_returns(contrib, folder, lambda p: self.private[p])

    def move_name(self, action: int) -> str:
        return "Pass" if action == PASS else "Bet"


class KuhnLikeGame(NamedTwoPlayerGame, name="kuhn", actions=2):
    """An N-card one-bet poker game (see module docs)."""

    def __init__(self, *, num_cards: int, name: str) -> None:
        if num_cards < 2:
            raise ConfigError(f"num_cards must be >= 2, got {num_cards!r}")
        self.num_cards = num_cards
        self._name = name

    @property
    def name(self) -> str:  # each game of the family has its own
        return self._name

    def info(self) -> GameInfo:
        # ante 1 + bet 1: at most 2 chips change hands; pass-bet-call is the longest play
        return GameInfo(num_players=2, num_distinct_actions=2, zero_sum=True, min_utility=-2.0,
                        max_utility=2.0, private_cards_first=True, max_game_length=3,
                        big_blind=1.0)

    def new_initial_state(self) -> KuhnLikeState:
        return KuhnLikeState(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self._name!r}, num_cards={self.num_cards})"


def kuhn_poker() -> KuhnLikeGame:
    """Kuhn poker (3 cards), equal to OpenSpiel's ``kuhn_poker``."""
    return KuhnLikeGame(num_cards=3, name="kuhn")


def eight_card_poker() -> KuhnLikeGame:
    """Oliehoek's 8-card poker (ranks 1..8 are card ids 0..7)."""
    return KuhnLikeGame(num_cards=8, name="eight_card")
