"""Heads-up no-limit Texas hold'em rules engine (Python object API).

Stable API (other modules build on it)
--------------------------------------
``HoldemConfig(stacks=(s0, s1), small_blind=50, big_blind=100, ante=0)``
    Frozen, keyword-only.  Chips are integers.  ``HoldemConfig.from_bb(200)`` gives
    200-big-blind stacks.  ``to_json()`` / ``from_json()``.

``HoldemState(config=cfg)``
    A new hand: antes and blinds are posted, then the state waits for hole cards.

    Dealing (``phase``):
      * ``Phase.DEAL_HOLE``: ``deal_hole(cards)`` deals player 0 then player 1 (two cards
        each, ints ``rank*4+suit``; ``None`` = unknown cards, for betting-only use).
      * ``Phase.DEAL_BOARD``: ``deal_board(cards)`` with ``cards_due()`` cards (3 for the
        flop, then 1, 1); ``None`` = unknown cards.
      * ``Phase.BETTING``: ``actor`` is the player to act (0 or 1); ``legal()`` returns a
        :class:`LegalActions`; act with ``fold()``, ``check_or_call()``,
        ``raise_to(amount)`` or ``apply(Action(...))``.
      * ``Phase.TERMINAL``: ``payoffs()`` (chips won per player; needs known cards at a
        showdown), ``showdown_payoffs(outcome)`` (for abstractions that judge the
        showdown themselves), ``final_stacks()``.

    Money: ``stacks`` (behind; at a terminal state still before the pot is paid out),
    ``bets`` (this street), ``committed`` (per player, this
    hand, antes included), ``pot`` (all chips in the middle, current bets included),
    ``to_call``, ``min_raise_to`` / ``max_raise_to`` (street-total "raise to" amounts, as
    in PHH ``cbr``), ``num_raises`` (bets/raises this street), ``street`` (0..3).
    ``clone()`` copies; ``history`` lists every event as a frozen record of
    :mod:`pokerlab.holdem.events` (betting events and board deals with the pot and the
    street's bets right after them); ``street_actions`` the betting per street.

    Legality: ``verify(action)`` raises :class:`IllegalActionError` saying why ``action``
    is not legal for the player to act (the one check: ``fold``/``check_or_call``/
    ``raise_to`` run it, and so do the agent and play loops); ``is_legal(action)``.

Seats
-----
Player 0 is the **big blind**, player 1 the **button = small blind**.  This is the order
of PHH (whose ``blinds_or_straddles = [sb, bb]`` are "reverse-assigned" heads-up, so
``p1`` posts the big blind), of PokerKit (player index 0 posts ``blinds[1]``) and of
ACPC/OpenSpiel ``universal_poker``.  So PHH ``p1``/``p2`` are our players 0/1.  The button
acts first preflop and last after the flop.

Rules (identical to PokerKit's no-limit hold'em, checked hand by hand in the tests)
--------------------------------------------------------------------------------------
* Antes are posted first and go straight into the pot; then the blinds.  Every stack
  must exceed ``ante + its blind`` (nobody is all-in before acting).
* Minimum bet one big blind; a raise must raise by at least the largest bet/raise
  increment of the street so far (and at least one big blind); anyone may go all-in for
  less.  ``min_raise_to = min(all-in, max(bets) + max(last_raise, big_blind))``.
* An all-in for less than a full raise does not reopen the betting to a player who
  already acted.  Heads-up the short all-in player is then all-in, and nobody may raise
  against an all-in opponent, so this is enforced as: a raise needs a live opponent
  (chips behind) and a call amount not below the last full raise increment (PokerKit's
  two checks).
* Fold only when facing a bet; check/call always; a player who is covered (stack not
  above the call amount) or whose opponent is all-in may only fold or call.
* Betting rounds end when every player still to act has acted; bets are then collected
  and the uncalled part of a bet returned.  If fewer than two players have chips left
  the remaining board is dealt without betting.  At the showdown the better 7-card
  hand wins the pot; equal hands split it (heads-up the pot is then always even; an
  odd chip would go to player 0, first left of the button).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pokerlab.cards.cards import card_str
from pokerlab.errors import CardError, ConfigError
from pokerlab.holdem import events as ev
from pokerlab.holdem.actions import (  # noqa: F401 - the engine's public names
    BIG_BLIND,
    BOARD_COUNTS,
    BUTTON,
    FLOP,
    PREFLOP,
    RIVER,
    SMALL_BLIND,
    STREET_NAMES,
    TURN,
    UNKNOWN,
    Action,
    ActionKind,
    HoldemConfig,
    IllegalActionError,
    LegalActions,
    Phase,
)

if TYPE_CHECKING:
    from pokerlab.holdem.view import PlayerView

_FOLD = Action(kind=ActionKind.FOLD)
_CHECK_CALL = Action(kind=ActionKind.CHECK_CALL)
"""The two actions without an amount (frozen values, shared by every state)."""


class HoldemState:
    """One heads-up no-limit hand in progress (see the module docstring)."""

    __slots__ = ("config", "stacks", "bets", "collected", "street", "phase", "actor",
                 "pending", "last_raise", "opener", "num_raises", "folded", "hole", "board",
                 "history", "street_actions", "showdown_order")

    def __init__(self, *, config: HoldemConfig) -> None:
        if not isinstance(config, HoldemConfig):
            raise ConfigError(f"config must be a HoldemConfig, got {config!r}")
        c = config
        self.config = c
        self.stacks = [c.stacks[0] - c.ante, c.stacks[1] - c.ante]
        self.collected = 2 * c.ante
        self.bets = [c.big_blind, c.small_blind]
        self.stacks[0] -= c.big_blind
        self.stacks[1] -= c.small_blind
        self.street = PREFLOP
        self.phase = Phase.DEAL_HOLE
        self.actor = -1
        self.pending = [False, False]
        self.last_raise = 0
        self.opener = -1
        self.num_raises = 0
        self.folded = -1
        self.hole: list[list[int]] = [[], []]
        self.board: list[int] = []
        self.history: list[ev.Event] = []
        """The hand's event records (:mod:`pokerlab.holdem.events`), in order."""
        self.street_actions: list[list[Action]] = [[], [], [], []]
        self.showdown_order: list[int] = []

    # ------------------------------------------------------------------ copying
    def clone(self) -> HoldemState:
        s = HoldemState.__new__(HoldemState)
        s.config = self.config
        s.stacks = list(self.stacks)
        s.bets = list(self.bets)
        s.collected = self.collected
        s.street = self.street
        s.phase = self.phase
        s.actor = self.actor
        s.pending = list(self.pending)
        s.last_raise = self.last_raise
        s.opener = self.opener
        s.num_raises = self.num_raises
        s.folded = self.folded
        s.hole = [list(self.hole[0]), list(self.hole[1])]
        s.board = list(self.board)
        s.history = list(self.history)
        s.street_actions = [list(a) for a in self.street_actions]
        s.showdown_order = list(self.showdown_order)
        return s

    # ------------------------------------------------------------------ money views
    @property
    def pot(self) -> int:
        """All chips in the middle: collected pot plus the current street's bets."""
        return self.collected + self.bets[0] + self.bets[1]

    @property
    def committed(self) -> tuple[int, int]:
        """Chips each player has put in this hand (antes, blinds and bets)."""
        st = self.config.stacks
        return (st[0] - self.stacks[0], st[1] - self.stacks[1])

    @property
    def to_call(self) -> int:
        """What the player to act must add to match the largest bet (0 if none / no actor)."""
        if self.actor < 0:
            return 0
        return max(self.bets) - self.bets[self.actor]

    @property
    def is_terminal(self) -> bool:
        return self.phase == Phase.TERMINAL

    @property
    def is_showdown(self) -> bool:
        """True at a terminal state reached without a fold."""
        return self.phase == Phase.TERMINAL and self.folded < 0

    # ------------------------------------------------------------------ legality
    def _can_raise(self, p: int) -> bool:
        stack = self.stacks[p]
        need = max(self.bets) - self.bets[p]
        call_amt = min(stack, need)
        if call_amt < self.last_raise:
            return False  # facing a short all-in: no raise (PokerKit's rule)
        if stack <= need:
            return False  # covered: can only call
        o = 1 - p
        return self.stacks[o] + self.bets[o] > max(self.bets)

    @property
    def can_fold(self) -> bool:
        return self.phase == Phase.BETTING and self.bets[self.actor] < max(self.bets)

    @property
    def can_raise(self) -> bool:
        return self.phase == Phase.BETTING and self._can_raise(self.actor)

    def _raise_range(self, p: int) -> tuple[int, int]:
        """(min, max) raise-to of player ``p`` when a raise is legal for it."""
        hi = self.stacks[p] + self.bets[p]
        return min(hi, max(self.bets) + max(self.last_raise, self.config.big_blind)), hi

    @property
    def min_raise_to(self) -> int:
        """Smallest legal raise-to (street total); 0 when no raise is legal."""
        return self._raise_range(self.actor)[0] if self.can_raise else 0

    @property
    def max_raise_to(self) -> int:
        """Largest legal raise-to (all-in); 0 when no raise is legal."""
        return self._raise_range(self.actor)[1] if self.can_raise else 0

    def legal(self) -> LegalActions:
        if self.phase != Phase.BETTING:
            raise IllegalActionError(f"no player to act in phase {self.phase.name}")
        p = self.actor
        cr = self._can_raise(p)
        lo, hi = self._raise_range(p) if cr else (0, 0)
        return LegalActions(
            player=p,
            can_fold=self.bets[p] < max(self.bets),
            call_amount=min(self.stacks[p], max(self.bets) - self.bets[p]),
            can_raise=cr,
            min_raise_to=lo,
            max_raise_to=hi,
        )

    def cards_due(self) -> int:
        """Cards the next deal needs: 2 (hole), 3/1/1 (board) or 0 while betting/terminal."""
        if self.phase == Phase.DEAL_HOLE:
            return 2
        if self.phase == Phase.DEAL_BOARD:
            return BOARD_COUNTS[len(self._board_streets_dealt()) + 1]
        return 0

    def _board_streets_dealt(self) -> list[int]:
        n = len(self.board)
        return [s for s, need in ((1, 3), (2, 4), (3, 5)) if n >= need]

    # ------------------------------------------------------------------ dealing
    def _used_cards(self) -> set[int]:
        return {c for c in (*self.hole[0], *self.hole[1], *self.board) if c != UNKNOWN}

    def _check_cards(self, cards: Sequence[int] | None, n: int, what: str) -> list[int]:
        if cards is None:
            return [UNKNOWN] * n
        lst = [int(c) for c in cards]
        if len(lst) != n:
            raise CardError(f"{what} needs {n} cards, got {len(lst)}: {list(cards)!r}")
        used = self._used_cards()
        seen: set[int] = set()
        for c in lst:
            if not 0 <= c < 52:
                raise CardError(f"card index {c} out of range 0..51 in {what}")
            if c in used or c in seen:
                raise CardError(f"card {card_str(c)} dealt twice ({what})")
            seen.add(c)
        return lst

    def deal_hole(self, cards: Sequence[int] | None) -> None:
        """Deal two hole cards to the next player without cards (player 0, then 1)."""
        if self.phase != Phase.DEAL_HOLE:
            raise IllegalActionError(f"hole cards cannot be dealt in phase {self.phase.name}")
        p = 0 if not self.hole[0] else 1
        lst = self._check_cards(cards, 2, f"hole cards of player {p}")
        self.hole[p] = lst
        self.history.append(ev.HoleDealt(p, tuple(lst)))
        if p == 1:
            self._begin_round()

    def deal_board(self, cards: Sequence[int] | None) -> None:
        """Deal the next street's board cards (3 for the flop, 1 for turn and river)."""
        if self.phase != Phase.DEAL_BOARD:
            raise IllegalActionError(f"board cards cannot be dealt in phase {self.phase.name}")
        n = self.cards_due()
        lst = self._check_cards(cards, n, STREET_NAMES[len(self._board_streets_dealt()) + 1])
        self.board.extend(lst)
        self.history.append(ev.BoardDealt(self.street + 1, tuple(lst), pot=self.collected))
        if self.showdown_order:
            # All-in run-out: no betting, deal on until the river, then the showdown.
            self.street += 1
            if self.street == RIVER:
                self._finish_showdown()
            return
        self.street += 1
        self._begin_round()

    # ------------------------------------------------------------------ betting flow
    def _effective(self, p: int) -> int:
        totals = (self.bets[0] + self.stacks[0], self.bets[1] + self.stacks[1])
        return min(self.stacks[p], max(0, min(totals) - self.bets[p]))

    def _begin_round(self) -> None:
        self.last_raise = 0
        self.num_raises = 0
        first = SMALL_BLIND if self.street == PREFLOP else BIG_BLIND
        self.opener = first
        self.pending = [self.stacks[p] > 0 and self._effective(p) > 0 for p in (0, 1)]
        self.phase = Phase.BETTING
        if self.pending[first]:
            self.actor = first
        elif self.pending[1 - first]:
            self.actor = 1 - first
        else:
            self._end_round()
            return
        only = self.pending[0] != self.pending[1]
        if only and self.bets[self.actor] >= max(self.bets):
            self._end_round()

    def _next_actor(self, p: int) -> None:
        self.pending[p] = False
        o = 1 - p
        if self.pending[o]:
            self.actor = o
        else:
            self._end_round()

    def _end_round(self) -> None:
        self.actor = -1
        self.pending = [False, False]
        cut = min(self.bets)
        for p in (0, 1):
            if self.bets[p] > cut:  # uncalled part of a bet goes back
                self.stacks[p] += self.bets[p] - cut
                self.bets[p] = cut
        self.collected += self.bets[0] + self.bets[1]
        self.bets = [0, 0]
        live = (self.stacks[0] > 0) + (self.stacks[1] > 0)
        if self.street == RIVER or live <= 1:
            o = self.opener if self.opener >= 0 else 0
            self.showdown_order = [o, 1 - o]
            for p in self.showdown_order:
                self.history.append(ev.Shown(p, tuple(self.hole[p])))
            if self.street == RIVER:
                self._finish_showdown()
                return
        self.phase = Phase.DEAL_BOARD

    def _finish_showdown(self) -> None:
        self.phase = Phase.TERMINAL
        self.actor = -1

    def _check_actor(self, what: str) -> int:
        if self.phase != Phase.BETTING:
            raise IllegalActionError(f"cannot {what}: no player to act (phase {self.phase.name})")
        return self.actor

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal for the
        player to act (nothing when it is legal).  The one legality check of the engine:
        :meth:`fold`, :meth:`check_or_call` and :meth:`raise_to` run it first, and so do
        the agent and play loops (:func:`pokerlab.holdem.view.checked_act`)."""
        kind = action.kind
        if kind == ActionKind.CHECK_CALL:
            self._check_actor("check or call")
        elif kind == ActionKind.FOLD:
            p = self._check_actor("fold")
            if self.bets[p] >= max(self.bets):
                raise IllegalActionError(f"player {p} cannot fold: not facing a bet")
        elif kind == ActionKind.RAISE:
            p = self._check_actor("raise")
            amount = action.amount
            if isinstance(amount, bool):
                raise IllegalActionError(f"raise amount must be an integer, got {amount!r}")
            try:
                amount = operator.index(amount)  # ints and numpy integers
            except TypeError:
                raise IllegalActionError(
                    f"raise amount must be an integer, got {amount!r}") from None
            if not self._can_raise(p):
                raise IllegalActionError(f"player {p} cannot bet or raise here")
            lo, hi = self._raise_range(p)
            if not lo <= amount <= hi:
                raise IllegalActionError(
                    f"raise to {amount} is outside the legal range {lo}..{hi} for player {p}")
        else:
            raise IllegalActionError(f"unknown action {action!r}")

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`verify` accepts ``action``."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def fold(self) -> None:
        self.verify(_FOLD)
        p = self.actor
        self.street_actions[self.street].append(_FOLD)
        self.history.append(ev.Folded(p, pot=self.pot, bets=(self.bets[0], self.bets[1])))
        self.folded = p
        self.actor = -1
        self.pending = [False, False]
        # Stacks and bets stay as they were: payoffs() settles the pot (the winner's
        # uncalled bet simply comes back to him).
        self.phase = Phase.TERMINAL

    def check_or_call(self) -> None:
        self.verify(_CHECK_CALL)
        p = self.actor
        amount = min(self.stacks[p], max(self.bets) - self.bets[p])
        self.bets[p] += amount
        self.stacks[p] -= amount
        self.street_actions[self.street].append(_CHECK_CALL)
        self.history.append(ev.CheckedOrCalled(p, amount, pot=self.pot,
                                               bets=(self.bets[0], self.bets[1])))
        self._next_actor(p)

    def raise_to(self, amount: int) -> None:
        """Bet or raise so that this street's bet becomes ``amount`` chips."""
        action = Action(kind=ActionKind.RAISE, amount=amount)
        self.verify(action)
        if type(amount) is not int:  # a numpy integer: stored as an int
            amount = operator.index(amount)
            action = Action(kind=ActionKind.RAISE, amount=amount)
        p = self.actor
        top = max(self.bets)
        inc = amount - top
        self.stacks[p] -= amount - self.bets[p]
        self.bets[p] = amount
        self.last_raise = max(self.last_raise, inc)
        self.num_raises += 1
        self.opener = p
        self.street_actions[self.street].append(action)
        self.history.append(ev.RaisedTo(p, amount, pot=self.pot,
                                        bets=(self.bets[0], self.bets[1])))
        o = 1 - p
        self.pending = [False, False]
        self.pending[o] = self.stacks[o] > 0
        # _can_raise guaranteed the opponent has chips behind.
        self.actor = o

    def apply(self, action: Action) -> None:
        if action.kind == ActionKind.FOLD:
            self.fold()
        elif action.kind == ActionKind.CHECK_CALL:
            self.check_or_call()
        elif action.kind == ActionKind.RAISE:
            self.raise_to(int(action.amount))
        else:  # pragma: no cover - enum exhausted
            raise IllegalActionError(f"unknown action {action!r}")

    # ------------------------------------------------------------------ results
    def final_stacks(self) -> tuple[int, int]:
        """Stacks after the hand (needs known cards at a showdown)."""
        pay = self.payoffs()
        return (self.config.stacks[0] + pay[0], self.config.stacks[1] + pay[1])

    def showdown_payoffs(self, outcome: int) -> tuple[int, int]:
        """Chips won at a showdown whose result is ``outcome`` (>0: player 0 has the better
        hand, <0: player 1, 0: split).  Works with unknown cards."""
        if not self.is_showdown:
            raise IllegalActionError("showdown_payoffs needs a terminal showdown state")
        c0, c1 = self.committed
        pot = self.collected
        if outcome > 0:
            win = (pot, 0)
        elif outcome < 0:
            win = (0, pot)
        else:
            half = pot // 2
            win = (pot - half, half)  # odd chip (never heads-up) to player 0
        return (win[0] - c0, win[1] - c1)

    def showdown_outcome(self) -> int:
        """+1 if player 0's hand is better, -1 if player 1's, 0 for a split."""
        from pokerlab.cards.evaluator import strength

        if UNKNOWN in self.board or UNKNOWN in self.hole[0] or UNKNOWN in self.hole[1]:
            raise CardError("the showdown needs known hole and board cards")
        s0 = strength([*self.hole[0], *self.board])
        s1 = strength([*self.hole[1], *self.board])
        return (s0 > s1) - (s0 < s1)

    def payoffs(self) -> tuple[int, int]:
        """Chips won (+) or lost (-) by each player; zero-sum.  Only at a terminal state."""
        if self.phase != Phase.TERMINAL:
            raise IllegalActionError("payoffs are defined only at a terminal state")
        if self.folded >= 0:
            c = self.committed
            f = self.folded
            out = [0, 0]
            out[f] = -c[f]
            out[1 - f] = c[f]
            return (out[0], out[1])
        return self.showdown_payoffs(self.showdown_outcome())

    # ------------------------------------------------------------------ agents
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know now (:class:`pokerlab.holdem.view.PlayerView`): its own
        hole cards, the board, the public betting as typed events; never the opponent's
        hidden cards."""
        from pokerlab.holdem.view import make_view

        return make_view(self, player)

    # ------------------------------------------------------------------ text
    def action_string(self, action: Action) -> str:
        return str(action)

    def betting_string(self) -> str:
        """Public betting history, streets separated by '/': ``f`` fold, ``c`` check or call,
        ``r<to>`` bet or raise to ``<to>`` (the action's raise-to amount, ``Action.amount``)."""
        parts: list[str] = []
        for s in range(self.street + 1):
            toks: list[str] = []
            for a in self.street_actions[s]:
                if a.kind == ActionKind.FOLD:
                    toks.append("f")
                elif a.kind == ActionKind.CHECK_CALL:
                    toks.append("c")
                else:
                    toks.append(f"r{a.amount}")
            parts.append("".join(toks))
        return "/".join(parts)

    def __repr__(self) -> str:
        def cs(cards: Sequence[int]) -> str:
            return "".join("??" if c == UNKNOWN else card_str(c) for c in cards)

        return (f"HoldemState({STREET_NAMES[min(self.street, 3)]}, {self.phase.name}, "
                f"actor={self.actor}, stacks={self.stacks}, bets={self.bets}, pot={self.pot}, "
                f"hole=[{cs(self.hole[0])}, {cs(self.hole[1])}], board={cs(self.board)}, "
                f"betting={self.betting_string()!r})")


def config_json(config: HoldemConfig) -> str:
    return json.dumps(config.to_json(), sort_keys=True)
