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
from pokerlab.games.protocol import (
    CHANCE,
    TERMINAL,
    ChanceThenMoves,
    CloneChild,
    GameInfo,
    NamedTwoPlayerGame,
)

PASS = 0
BET = 1


class KuhnLikeState(ChanceThenMoves, CloneChild):
    __slots__ = ("_game", "cards", "history")

    def __init__(self, game: KuhnLikeGame) -> None:
        self._game = game
        self.cards: list[int] = []
        self.history: list[int] = []

    # -- protocol -------------------------------------------------------------------
    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return len(self.history) % 2

    def is_terminal(self) -> bool:
        h = self.history
        n = len(h)
        if n < 2:
            return False
        if n == 2:
            return not (h[0] == PASS and h[1] == BET)
        return True

    def is_chance_node(self) -> bool:
        return len(self.cards) < 2

    def player_actions(self) -> list[int]:
        return [PASS, BET]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        left = [c for c in range(self._game.num_cards) if c not in self.cards]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def apply_action(self, action: int) -> None:
        if self.is_chance_node():
            if action in self.cards or not 0 <= action < self._game.num_cards:
                raise ConfigError(f"illegal deal {action!r} in {self._game.name}")
            self.cards.append(int(action))
            return
        if self.is_terminal() or action not in (PASS, BET):
            raise ConfigError(f"illegal action {action!r} in {self._game.name} at {self}")
        self.history.append(int(action))

    def clone(self) -> KuhnLikeState:
        c = KuhnLikeState(self._game)
        c.cards = list(self.cards)
        c.history = list(self.history)
        return c

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        h = self.history
        pot = [1.0, 1.0]
        for i, a in enumerate(h):
            if a == BET:
                pot[i % 2] += 1.0
        # fold: a pass right after a bet
        if h[-1] == PASS and len(h) >= 2 and h[-2] == BET:
            folder = (len(h) - 1) % 2
            r = [0.0, 0.0]
            r[folder] = -pot[folder]
            r[1 - folder] = pot[folder]
            return r
        winner = 0 if self.cards[0] > self.cards[1] else 1
        r = [0.0, 0.0]
        r[winner] = pot[1 - winner]
        r[1 - winner] = -pot[1 - winner]
        return r

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        if p not in (0, 1):
            raise ConfigError(f"no information state for player {p!r}")
        card = str(self.cards[p]) if p < len(self.cards) else ""
        return card + "".join("pb"[a] for a in self.history)

    def public_state_string(self) -> str:
        return "".join("pb"[a] for a in self.history) + "|" + "x" * len(self.cards)

    def action_to_string(self, action: int) -> str:
        if self.is_chance_node():
            return f"Deal:{action}"
        return "Pass" if action == PASS else "Bet"

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards) + " " + "".join("pb"[a] for a in self.history)


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
