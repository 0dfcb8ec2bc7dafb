"""Leduc hold'em with exactly the rules, action ids and strings of OpenSpiel's ``leduc_poker``.

* Deck of 6 cards, ids ``0..5``; rank = id // 2 (three ranks J, Q, K, two suits each).
* Each player antes 1 chip (stacks of 100).  Chance deals player 0's card, then player 1's,
  each uniformly from the cards left (action id = card id).
* Two betting rounds, player 0 acts first in each.  Actions: 0 fold, 1 call/check,
  2 raise.  Raise sizes are 2 in round 1 and 4 in round 2; at most two raises per round.
  Fold is legal only when facing a raise.  A round ends with a call that is not the
  round's first action (check-check, or a call of a raise).
* Between the rounds chance deals one public card uniformly from the 4 cards left.
* A fold loses the chips put in.  At the showdown a player whose rank pairs the public
  card wins; otherwise the higher rank wins; equal ranks split.

Information-state strings reproduce OpenSpiel's verbatim, e.g.
``[Observer: 0][Private: 0][Round 2][Player: 0][Pot: 10][Money: 95 95][Public: 3]``
``[Round1: 2 2 1][Round2: ]``.
"""

from __future__ import annotations

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import (
    CHANCE,
    TERMINAL,
    ChanceThenMoves,
    GameInfo,
    NamedTwoPlayerGame,
    fold_or_showdown_returns,
)
from pokerlab.games.two_player import TwoPlayerState, copy_slots, limit_actions, uniform_outcomes

FOLD = 0
CALL = 1
RAISE = 2
NUM_CARDS = 6
STARTING_MONEY = 100
ANTE = 1
MAX_RAISES = 2
RAISE_SIZES = (2, 4)


class LeducState(TwoPlayerState, ChanceThenMoves):
    __slots__ = ("_game", "private", "public", "round", "seqs", "contrib", "stakes",
                 "num_raises", "player", "folder", "_terminal")

    def __init__(self, game: LeducGame) -> None:
        self._game = game
        self.private: list[int] = []
        self.public = -1
        self.round = 1
        self.seqs: list[list[int]] = [[], []]
        self.contrib = [ANTE, ANTE]
        self.stakes = ANTE
        self.num_raises = 0
        self.player = CHANCE
        self.folder = -1
        self._terminal = False

    def current_player(self) -> int:
        return TERMINAL if self._terminal else self.player

    def is_terminal(self) -> bool:
        return self._terminal

    def is_chance_node(self) -> bool:
        return (not self._terminal) and self.player == CHANCE

    def _used(self) -> list[int]:
        return self.private + ([self.public] if self.public >= 0 else [])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        used = self._used()
        return uniform_outcomes([c for c in range(NUM_CARDS) if c not in used])

    def player_actions(self) -> list[int]:
        return limit_actions(facing=self.contrib[self.player] < self.stakes,
                             can_raise=self.num_raises < MAX_RAISES)

    def apply_action(self, action: int) -> None:
        if self._terminal:
            raise ConfigError(f"action {action!r} applied to a terminal leduc state")
        if self.player == CHANCE:
            if action in self._used() or not 0 <= action < NUM_CARDS:
                raise ConfigError(f"illegal leduc deal {action!r}")
            if len(self.private) < 2:
                self.private.append(int(action))
                if len(self.private) == 2:
                    self.player = 0
            else:
                self.public = int(action)
                self.player = 0
            return
        if action not in self.legal_actions():
            raise ConfigError(f"illegal leduc action {action!r}; legal {self.legal_actions()}")
        p = self.player
        seq = self.seqs[self.round - 1]
        if action == FOLD:
            seq.append(FOLD)
            self.folder = p
            self._terminal = True
            return
        if action == CALL:
            first = len(seq) == 0
            seq.append(CALL)
            self.contrib[p] = self.stakes
            if first:
                self.player = 1 - p
                return
            # round over
            if self.round == 1:
                self.round = 2
                self.num_raises = 0
                self.player = CHANCE
            else:
                self._terminal = True
            return
        # raise
        seq.append(RAISE)
        self.stakes += RAISE_SIZES[self.round - 1]
        self.contrib[p] = self.stakes
        self.num_raises += 1
        self.player = 1 - p

    def clone(self) -> LeducState:
        c: LeducState = copy_slots(self, lists=("private", "contrib"), nested=("seqs",))
        return c

    def _rank_value(self, p: int) -> int:
        r = self.private[p] // 2
        if r == self.public // 2:
            return 100 + r
        return r

    def terminal_returns(self) -> list[float]:
        return fold_or_showdown_returns(self.contrib, self.folder, self._rank_value)

    def information_state(self, player: int) -> str:
        p = player
        priv = self.private[p] if p < len(self.private) else -10000
        cur = self.current_player()
        pot = self.contrib[0] + self.contrib[1]
        m0 = STARTING_MONEY - self.contrib[0]
        m1 = STARTING_MONEY - self.contrib[1]
        pub = f"[Public: {self.public}]" if self.public >= 0 else ""
        r1 = " ".join(str(a) for a in self.seqs[0])
        r2 = " ".join(str(a) for a in self.seqs[1])
        return (f"[Observer: {p}][Private: {priv}][Round {self.round}][Player: {cur}]"
                f"[Pot: {pot}][Money: {m0} {m1}]{pub}[Round1: {r1}][Round2: {r2}]")

    def public_state_string(self) -> str:
        r1 = "".join("fcr"[a] for a in self.seqs[0])
        r2 = "".join("fcr"[a] for a in self.seqs[1])
        pub = str(self.public) if self.public >= 0 else "-"
        return f"{'x' * len(self.private)}|{r1}|{pub}|{r2}"

    def action_to_string(self, action: int) -> str:
        if self.is_chance_node():
            return f"Chance outcome:{action}"
        return ("Fold", "Call", "Raise")[action]

    def __str__(self) -> str:
        return f"leduc[{self.private} {self.public}] {self.public_state_string()}"


class LeducGame(NamedTwoPlayerGame, name="leduc", actions=3):
    """Leduc hold'em (OpenSpiel ``leduc_poker`` rules)."""

    def info(self) -> GameInfo:
        most = ANTE + MAX_RAISES * RAISE_SIZES[0] + MAX_RAISES * RAISE_SIZES[1]  # 13 chips
        # longest round: check, raise, raise, call
        return GameInfo(num_players=2, num_distinct_actions=3, zero_sum=True,
                        min_utility=-float(most), max_utility=float(most),
                        private_cards_first=True, max_game_length=2 * (MAX_RAISES + 2),
                        big_blind=1.0)

    def new_initial_state(self) -> LeducState:
        return LeducState(self)

    def __repr__(self) -> str:
        return "LeducGame()"


def leduc_poker() -> LeducGame:
    return LeducGame()
