"""Flop Hold'em Poker (FHP), the benchmark game of the Deep CFR paper.

Heads-up limit hold'em cut to two betting rounds, preflop and flop (no turn, no river),
with ACPC conventions:

* player 0 is the big blind (posts 2 chips), player 1 the small blind / button (posts 1);
  player 1 acts first preflop, player 0 first on the flop;
* fixed bets of 2 chips in both rounds (the small bet, as on the flop of limit hold'em);
  at most 4 bets per round, the big blind counting as the first bet preflop (so at most 3
  raises preflop, 4 bets on the flop), stacks never bind;
* action ids: 0 fold (only when facing a bet), 1 check/call, 2 bet/raise;
* chance deals player 0's two hole cards as one action (the combo index of
  :data:`pokerlab.cards.cards.COMBO_INDEX`), then player 1's, then the three flop cards as
  one action ``a*2704 + b*52 + c`` (``a < b < c``); every outcome is equally likely;
* a round ends with a call that is not its first action (a limp preflop leaves the big
  blind the option); after the flop round the best five of the seven... here the five
  cards (two hole + three flop) decide, equal hands split.

``FlopHoldem(ranks=...)`` plays with a reduced deck (all four suits of the given ranks) so
that exact checks against the generic tree algorithms stay small.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from pokerlab.cards.cards import COMBO_INDEX, COMBOS, card_str, cards_str
from pokerlab.errors import ConfigError
from pokerlab.games import register_game
from pokerlab.games.protocol import (
    CHANCE,
    TERMINAL,
    ChanceThenMoves,
    GameInfo,
    NamedTwoPlayerGame,
    fold_or_showdown_returns,
)
from pokerlab.games.two_player import TwoPlayerState, copy_slots, limit_actions, uniform_outcomes

FOLD, CALL, RAISE = 0, 1, 2
SMALL_BLIND, BIG_BLIND, BET_SIZE, MAX_BETS = 1, 2, 2, 4
MAX_ACTIONS_PER_ROUND = 6
ACTION_CHARS = "fcr"


def flop_action(cards: Sequence[int]) -> int:
    a, b, c = sorted(int(x) for x in cards)
    return a * 2704 + b * 52 + c


def flop_cards(action: int) -> tuple[int, int, int]:
    return action // 2704, (action // 52) % 52, action % 52


# ---------------------------------------------------------------- betting (shared with BR)
class Betting:
    """The betting state machine (no cards): used by states and by the public tree."""

    __slots__ = ("round", "seqs", "contrib", "bets", "to_act", "folder", "done")

    def __init__(self) -> None:
        self.round = 0
        self.seqs: list[list[int]] = [[], []]
        self.contrib = [BIG_BLIND, SMALL_BLIND]
        self.bets = 1
        self.to_act = 1
        self.folder = -1
        self.done = False  # terminal (fold or showdown)

    def copy(self) -> Betting:
        b: Betting = copy_slots(self, lists=("contrib",), nested=("seqs",))
        return b

    def legal(self) -> list[int]:
        if self.done:
            return []
        p = self.to_act
        return limit_actions(facing=self.contrib[p] < self.contrib[1 - p],
                             can_raise=self.bets < MAX_BETS)

    def apply(self, action: int) -> bool:
        """Apply a legal action; returns True when the preflop round just ended."""
        p = self.to_act
        seq = self.seqs[self.round]
        seq.append(action)
        if action == FOLD:
            self.folder = p
            self.done = True
            return False
        if action == CALL:
            self.contrib[p] = self.contrib[1 - p]
            if len(seq) >= 2:
                if self.round == 0:
                    self.round = 1
                    self.bets = 0
                    self.to_act = 0
                    return True
                self.done = True
                return False
            self.to_act = 1 - p
            return False
        self.contrib[p] = self.contrib[1 - p] + BET_SIZE
        self.bets += 1
        self.to_act = 1 - p
        return False

    def key(self) -> str:
        return "".join(ACTION_CHARS[a] for a in self.seqs[0]) + "|" + "".join(
            ACTION_CHARS[a] for a in self.seqs[1])


# ---------------------------------------------------------------- state
class FlopHoldemState(TwoPlayerState, ChanceThenMoves):
    __slots__ = ("_game", "hole", "board", "betting", "_flop_pending")

    def __init__(self, game: FlopHoldem) -> None:
        self._game = game
        self.hole: list[tuple[int, int]] = []
        self.board: tuple[int, ...] = ()
        self.betting = Betting()
        self._flop_pending = False

    def current_player(self) -> int:
        if self.betting.done:
            return TERMINAL
        if len(self.hole) < 2 or self._flop_pending:
            return CHANCE
        return self.betting.to_act

    def is_terminal(self) -> bool:
        return self.betting.done

    def is_chance_node(self) -> bool:
        return not self.betting.done and (len(self.hole) < 2 or self._flop_pending)

    def _used(self) -> set[int]:
        used = set(self.board)
        for h in self.hole:
            used.update(h)
        return used

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        used = self._used()
        deck = [c for c in self._game.deck if c not in used]
        if len(self.hole) < 2:
            acts = [int(COMBO_INDEX[a, b]) for i, a in enumerate(deck) for b in deck[i + 1:]]
        else:
            n = len(deck)
            acts = [flop_action((deck[i], deck[j], deck[k])) for i in range(n)
                    for j in range(i + 1, n) for k in range(j + 1, n)]
        return uniform_outcomes(acts)

    def sample_chance_outcome(self, rng: np.random.Generator) -> int:
        """A uniformly drawn chance action (fast path for sampling algorithms)."""
        used = self._used()
        deck = [c for c in self._game.deck if c not in used]
        if len(self.hole) < 2:
            i, j = rng.choice(len(deck), size=2, replace=False)
            return int(COMBO_INDEX[deck[i], deck[j]])
        idx = rng.choice(len(deck), size=3, replace=False)
        return flop_action([deck[i] for i in idx])

    def player_actions(self) -> list[int]:
        return self.betting.legal()

    def apply_action(self, action: int) -> None:
        if self.betting.done:
            raise ConfigError(f"action {action!r} applied to a terminal flop_holdem state")
        if self.is_chance_node():
            used = self._used()
            if len(self.hole) < 2:
                if not 0 <= action < len(COMBOS):
                    raise ConfigError(f"illegal flop_holdem hole-card deal {action!r}")
                a, b = (int(x) for x in COMBOS[action])
                if a in used or b in used or a not in self._game.deck_set \
                        or b not in self._game.deck_set:
                    raise ConfigError(f"illegal flop_holdem hole-card deal {action!r}")
                self.hole.append((a, b))
                return
            cards = flop_cards(int(action))
            if not 0 <= action < 52 ** 3 or len(set(cards) | used) != len(used) + 3 or \
                    not all(c in self._game.deck_set for c in cards) or \
                    not cards[0] < cards[1] < cards[2]:
                raise ConfigError(f"illegal flop_holdem flop deal {action!r}")
            self.board = cards
            self._flop_pending = False
            return
        if action not in self.betting.legal():
            raise ConfigError(
                f"illegal flop_holdem action {action!r}; legal {self.betting.legal()}")
        if self.betting.apply(action):
            self._flop_pending = True

    def clone(self) -> FlopHoldemState:
        c: FlopHoldemState = copy_slots(self, lists=("hole",))
        c.betting = self.betting.copy()
        return c

    def terminal_returns(self) -> list[float]:
        b = self.betting
        return fold_or_showdown_returns(
            b.contrib, b.folder, lambda p: self._game.strength(self.hole[p], self.board))

    def information_state(self, player: int) -> str:
        p = player
        hole = cards_str(sorted(self.hole[p], reverse=True)) if len(self.hole) > p else ""
        return f"P{p}:{hole}|{cards_str(sorted(self.board, reverse=True))}|{self.betting.key()}"

    def public_state_string(self) -> str:
        return f"{len(self.hole)}|{cards_str(sorted(self.board, reverse=True))}|" \
               f"{self.betting.key()}"

    def action_to_string(self, action: int) -> str:
        if self.is_chance_node():
            if len(self.hole) < 2:
                a, b = COMBOS[action]
                return "Deal:" + card_str(int(b)) + card_str(int(a))
            return "Flop:" + cards_str(sorted(flop_cards(action), reverse=True))
        return ("Fold", "Call", "Raise")[action]

    def __str__(self) -> str:
        holes = " ".join(cards_str(h) for h in self.hole)
        return f"flop_holdem[{holes} | {cards_str(self.board)}] {self.betting.key()}"


class FlopHoldem(NamedTwoPlayerGame, name="flop_holdem", actions=3):
    """Flop Hold'em Poker; ``ranks`` (0..12 = 2..A) restricts the deck for small checks."""

    def __init__(self, *, ranks: Sequence[int] | None = None) -> None:
        rs = tuple(range(13)) if ranks is None else tuple(sorted({int(r) for r in ranks}))
        if len(rs) < 2 or any(not 0 <= r < 13 for r in rs):
            raise ConfigError(f"flop_holdem ranks must be >= 2 distinct values in 0..12, got "
                              f"{ranks!r}")
        self.ranks = rs
        self.deck = [r * 4 + s for r in rs for s in range(4)]
        self.deck_set = frozenset(self.deck)
        self.big_blind = BIG_BLIND
        self.max_actions_per_round = MAX_ACTIONS_PER_ROUND

    def info(self) -> GameInfo:
        most = 2 * MAX_BETS * BET_SIZE  # four bets of 2 chips in each of the two rounds
        return GameInfo(num_players=2, num_distinct_actions=3, zero_sum=True,
                        min_utility=-float(most), max_utility=float(most),
                        private_cards_first=True,
                        # preflop: limp, 3 raises, call; flop: check, 4 bets, call
                        max_game_length=(MAX_BETS + 1) + (MAX_BETS + 2),
                        big_blind=float(BIG_BLIND))

    def new_initial_state(self) -> FlopHoldemState:
        return FlopHoldemState(self)

    # -- the PublicBettingGame capability (range-vectorised exact best response)
    def initial_betting(self) -> Betting:
        return Betting()

    def state_at(self, holes: Sequence[tuple[int, int]], board: tuple[int, ...],
                 betting: Betting) -> FlopHoldemState:
        st = FlopHoldemState(self)
        st.hole = [tuple(h) for h in holes]  # type: ignore[misc]
        st.board = tuple(board)
        st.betting = betting.copy()
        return st

    @staticmethod
    def strength(hole: Sequence[int], board: Sequence[int]) -> int:
        from pokerlab.cards.evaluator import strength

        return strength(list(hole) + list(board))

    def __repr__(self) -> str:
        return "FlopHoldem()" if len(self.ranks) == 13 else f"FlopHoldem(ranks={self.ranks})"


# ---------------------------------------------------------------- suit isomorphism
@lru_cache(maxsize=1)
def _perms() -> np.ndarray:
    import itertools

    return np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def canonical_cards(hole: Sequence[int], board: Sequence[int]) -> tuple[list[int], list[int]]:
    """Suit-canonical (hole, board), both sorted high to low: equal for suit-isomorphic
    inputs (same definition as :func:`pokerlab.cards.cards.canonical_form`)."""
    h = np.asarray(hole, dtype=np.int64)
    b = np.asarray(board, dtype=np.int64)
    perms = _perms()
    ph = np.sort((h >> 2)[None, :] * 4 + perms[:, h & 3], axis=1)[:, ::-1]
    pb = np.sort((b >> 2)[None, :] * 4 + perms[:, b & 3], axis=1)[:, ::-1] if len(b) else \
        np.zeros((24, 0), dtype=np.int64)
    keys = np.concatenate([ph, pb], axis=1)
    packed = np.zeros(24, dtype=np.int64)
    for j in range(keys.shape[1]):
        packed = packed * 64 + keys[:, j]
    best = keys[int(np.argmin(packed))]
    return best[: len(h)].tolist(), best[len(h):].tolist()


def canonical_batch(holes: np.ndarray, board: Sequence[int]) -> np.ndarray:
    """Canonical (hole + board) card rows ``(n, 2 + len(board))`` for many hole pairs."""
    holes = np.asarray(holes, dtype=np.int64)
    b = np.asarray(board, dtype=np.int64)
    perms = _perms()  # (24, 4)
    ph = (holes >> 2)[None, :, :] * 4 + perms[:, holes & 3]  # (24, n, 2)
    ph = np.sort(ph, axis=2)[:, :, ::-1]
    if len(b):
        pb = np.sort((b >> 2)[None, :] * 4 + perms[:, b & 3], axis=1)[:, ::-1]  # (24, k)
        pb = np.broadcast_to(pb[:, None, :], (24, len(holes), len(b)))
        keys = np.concatenate([ph, pb], axis=2)
    else:
        keys = ph
    packed = np.zeros(keys.shape[:2], dtype=np.int64)
    for j in range(keys.shape[2]):
        packed = packed * 64 + keys[:, :, j]
    best = np.argmin(packed, axis=0)
    return keys[best, np.arange(len(holes))]


# ---------------------------------------------------------------- Deep CFR view
def bet_actions(betting: Betting) -> list[tuple[int, float, float]]:
    """``(round, chips added, pot before)`` for every action so far."""
    b = Betting()
    out: list[tuple[int, float, float]] = []
    for rnd, seq in enumerate(betting.seqs):
        for a in seq:
            p = b.to_act
            pot = float(b.contrib[0] + b.contrib[1])
            before = b.contrib[p]
            b.apply(a)
            out.append((rnd, float(b.contrib[p] - before) if a != FOLD else 0.0, pot))
    return out


def deepcfr_view(state: FlopHoldemState, player: int) -> Any:
    """Cards (suit-canonical: the lossless suit isomorphism) and bets seen by ``player``."""
    if len(state.hole) <= player:
        return [[], []], bet_actions(state.betting)
    hole, board = canonical_cards(state.hole[player], state.board)
    return [hole, board], bet_actions(state.betting)


def flop_holdem(**kwargs: Any) -> FlopHoldem:
    return FlopHoldem(**kwargs)


register_game("flop_holdem", flop_holdem)
