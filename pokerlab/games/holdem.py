"""Heads-up no-limit hold'em (``"hunl"``) as a :mod:`pokerlab.games.protocol` game.

Wraps :class:`pokerlab.holdem.engine.HoldemState` (whose docstring states the rules).

* Players: 0 = big blind, 1 = button/small blind (PHH ``p1``/``p2``).
* Chance deals one card per chance node, uniformly from the cards left: player 0's two
  hole cards, player 1's two, then the flop (three nodes), the turn and the river.  The
  chance action id is the card (``rank*4 + suit``).
* Player action ids: ``0`` fold, ``1`` check/call, ``2 + X`` bet/raise **to** ``X`` chips
  (the street total, as PHH ``cbr X``); see :func:`raise_action` / :func:`raise_amount`.
  ``num_distinct_actions() = 3 + max(stacks)``.  ``legal_actions()`` lists every legal
  raise-to amount (up to a few ten thousand ids with deep stacks); abstractions restrict
  them.
* ``returns()`` are chips won/lost (zero-sum).
* ``information_state_string(p)``: ``"[P0][AsKd][QhJh2c|5d|][r250c/cr300]"`` -- own
  hole cards (higher first), board (flop sorted high to low, then turn, river), betting
  (``f``, ``c`` check/call, ``r<X>`` raise-to, streets split by ``/``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerlab.cards.cards import card_str
from pokerlab.errors import ConfigError
from pokerlab.games import register_game
from pokerlab.games.protocol import CHANCE, TERMINAL
from pokerlab.holdem.engine import (
    Action,
    ActionKind,
    HoldemConfig,
    HoldemState,
    IllegalActionError,
    Phase,
)

FOLD = 0
CHECK_CALL = 1
RAISE_BASE = 2


def raise_action(amount: int) -> int:
    """Action id of "bet/raise to ``amount`` chips"."""
    return RAISE_BASE + int(amount)


def raise_amount(action: int) -> int:
    """Raise-to amount of a raise action id."""
    return int(action) - RAISE_BASE


def action_of_id(action: int) -> Action:
    if action == FOLD:
        return Action(kind=ActionKind.FOLD)
    if action == CHECK_CALL:
        return Action(kind=ActionKind.CHECK_CALL)
    return Action(kind=ActionKind.RAISE, amount=raise_amount(action))


def id_of_action(action: Action) -> int:
    if action.kind == ActionKind.FOLD:
        return FOLD
    if action.kind == ActionKind.CHECK_CALL:
        return CHECK_CALL
    return raise_action(action.amount)


class HUNLState:
    """Protocol state over a :class:`HoldemState` plus the chance cards not yet used."""

    __slots__ = ("game", "engine", "_pending_cards")

    def __init__(self, game: HUNLGame, engine: HoldemState | None = None) -> None:
        self.game = game
        self.engine = engine if engine is not None else HoldemState(config=game.config)
        self._pending_cards: list[int] = []

    # -- protocol ---------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.engine.phase
        if ph == Phase.TERMINAL:
            return TERMINAL
        if ph == Phase.BETTING:
            return self.engine.actor
        return CHANCE

    def is_terminal(self) -> bool:
        return self.engine.phase == Phase.TERMINAL

    def is_chance_node(self) -> bool:
        return self.engine.phase in (Phase.DEAL_HOLE, Phase.DEAL_BOARD)

    def _used(self) -> set[int]:
        e = self.engine
        return set(e.hole[0]) | set(e.hole[1]) | set(e.board) | set(self._pending_cards)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        used = self._used()
        left = [c for c in range(52) if c not in used]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        lg = self.engine.legal()
        acts = [FOLD] if lg.can_fold else []
        acts.append(CHECK_CALL)
        if lg.can_raise:
            acts.extend(range(raise_action(lg.min_raise_to), raise_action(lg.max_raise_to) + 1))
        return acts

    def apply_action(self, action: int) -> None:
        a = int(action)
        e = self.engine
        if e.phase == Phase.TERMINAL:
            raise IllegalActionError(f"action {a} applied to a terminal hunl state")
        if self.is_chance_node():
            if not 0 <= a < 52 or a in self._used():
                raise IllegalActionError(f"illegal hunl deal {a} (card used or out of range)")
            self._pending_cards.append(a)
            if len(self._pending_cards) == e.cards_due():
                cards = self._pending_cards
                self._pending_cards = []
                if e.phase == Phase.DEAL_HOLE:
                    e.deal_hole(cards)
                else:
                    e.deal_board(cards)
            return
        if a < 0:
            raise IllegalActionError(f"illegal hunl action id {a}")
        e.apply(action_of_id(a))

    def child(self, action: int) -> HUNLState:
        c = self.clone()
        c.apply_action(action)
        return c

    def clone(self) -> HUNLState:
        c = HUNLState.__new__(HUNLState)
        c.game = self.game
        c.engine = self.engine.clone()
        c._pending_cards = list(self._pending_cards)
        return c

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        p = self.engine.payoffs()
        return [float(p[0]), float(p[1])]

    def _board_string(self) -> str:
        b = [*self.engine.board, *self._pending_cards] if self.engine.phase == Phase.DEAL_BOARD \
            else list(self.engine.board)
        flop = "".join(card_str(c) for c in sorted(b[:3], reverse=True))
        rest = "|".join(card_str(c) for c in b[3:])
        return f"{flop}|{rest}" if b[3:] else flop

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        if p not in (0, 1):
            raise ConfigError(f"no information state for player {p!r}")
        hole = list(self.engine.hole[p])
        dealing_to = 0 if not self.engine.hole[0] else 1
        if not hole and self.engine.phase == Phase.DEAL_HOLE and p == dealing_to:
            hole = list(self._pending_cards)  # the first of this player's two cards
        h = "".join(card_str(c) for c in sorted(hole, reverse=True))
        return f"[P{p}][{h}][{self._board_string()}][{self.engine.betting_string()}]"

    def public_state_string(self) -> str:
        return f"[{self._board_string()}][{self.engine.betting_string()}]"

    def action_to_string(self, action: int) -> str:
        if self.is_chance_node():
            return f"deal {card_str(int(action))}"
        if action == FOLD:
            return "fold"
        if action == CHECK_CALL:
            return "check" if self.engine.to_call == 0 else "call"
        return f"raise to {raise_amount(action)}"

    def __str__(self) -> str:
        return repr(self.engine)


class HUNLGame:
    """Heads-up no-limit hold'em with chip-exact actions."""

    def __init__(self, *, config: HoldemConfig) -> None:
        self.config = config

    @property
    def name(self) -> str:
        return "hunl"

    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return RAISE_BASE + max(self.config.stacks) + 1

    def new_initial_state(self) -> HUNLState:
        return HUNLState(self)

    def state_from_engine(self, engine: HoldemState) -> HUNLState:
        """Wrap an engine state (between deals) of this game's config."""
        if engine.config != self.config:
            raise ConfigError(f"engine config {engine.config} differs from game config "
                              f"{self.config}")
        return HUNLState(self, engine)

    def __repr__(self) -> str:
        return f"HUNLGame({self.config})"


def hunl_game(*, stacks: int | Sequence[int] | None = None, stacks_bb: float | None = None,
              small_blind: int = 50, big_blind: int = 100, ante: int = 0,
              config: HoldemConfig | None = None, **extra: Any) -> HUNLGame:
    """Factory for ``load_game("hunl", ...)``: chips (``stacks``) or big blinds."""
    if extra:
        raise ConfigError(f"unknown hunl option(s) {sorted(extra)}")
    if config is not None:
        return HUNLGame(config=config)
    if stacks is not None and stacks_bb is not None:
        raise ConfigError("give stacks (chips) or stacks_bb, not both")
    if stacks_bb is not None:
        cfg = HoldemConfig.from_bb(stacks_bb, small_blind=small_blind, big_blind=big_blind,
                                   ante=ante)
    else:
        st = 200 * big_blind if stacks is None else stacks
        pair = (int(st), int(st)) if isinstance(st, int) else tuple(int(x) for x in st)
        if len(pair) != 2:
            raise ConfigError(f"hunl needs 2 stacks, got {stacks!r}")
        cfg = HoldemConfig(stacks=(pair[0], pair[1]), small_blind=small_blind,
                           big_blind=big_blind, ante=ante)
    return HUNLGame(config=cfg)


register_game("hunl", hunl_game)
