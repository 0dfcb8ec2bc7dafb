"""Typed events of a hold'em hand: the records the engine appends to ``HoldemState.history``.

The engine (:mod:`pokerlab.holdem.engine`) appends one frozen record per thing that
happens, as PokerKit appends its operations: :class:`HoleDealt`, :class:`BoardDealt`,
:class:`Folded`, :class:`CheckedOrCalled`, :class:`RaisedTo`, :class:`Shown`.  Betting
events and board deals also carry the money right after them: ``pot`` (every chip in the
middle, this street's bets included) and ``bets`` (each player's bets on the street;
``(0, 0)`` after a board deal).  For the action that closes a betting round these are the
figures before the bets are collected (an uncalled part of a bet is returned only then).
``pot`` and ``bets`` follow from the earlier events and the config, so they take no part in
comparing or hashing events.

Every reader of a hand reads these records; nothing parses tuples.  An agent sees a
hand's public betting as these (``PlayerView.events``, :func:`events_of`); the opponent's
``HoleDealt``/``Shown`` events are left out of a view (:func:`visible`).  Re-exported by
:mod:`pokerlab.agents.base`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokerlab.holdem.actions import Action, ActionKind


@dataclass(frozen=True, slots=True)
class _Money:
    """The money right after an event (keyword-only; see the module docstring)."""

    pot: int = field(default=0, compare=False, kw_only=True)
    bets: tuple[int, int] = field(default=(0, 0), compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class HoleDealt:
    """Two hole cards dealt to ``player`` (only the viewer's own appear in a view)."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoardDealt(_Money):
    """Board cards dealt at the start of ``street`` (1 flop, 2 turn, 3 river)."""

    street: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Folded(_Money):
    player: int


@dataclass(frozen=True, slots=True)
class CheckedOrCalled(_Money):
    """``amount`` chips put in (0 = check)."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class RaisedTo(_Money):
    """A bet or raise to ``raise_to`` chips (this street's total, as PHH ``cbr``)."""

    player: int
    raise_to: int


@dataclass(frozen=True, slots=True)
class Shown:
    """Cards shown at the showdown (only the viewer's own appear in a view)."""

    player: int
    cards: tuple[int, ...]


Event = HoleDealt | BoardDealt | Folded | CheckedOrCalled | RaisedTo | Shown
"""A typed event of a hand (what the engine's ``history`` holds)."""

ActionEvent = Folded | CheckedOrCalled | RaisedTo

EVENT_TYPES = (HoleDealt, BoardDealt, Folded, CheckedOrCalled, RaisedTo, Shown)
ACTION_TYPES = (Folded, CheckedOrCalled, RaisedTo)


def visible(ev: Event, player: int) -> bool:
    """Whether ``player`` may see ``ev`` (not the opponent's hole or shown cards)."""
    return not (isinstance(ev, (HoleDealt, Shown)) and ev.player != player)


def events_of(state: Any, player: int | None = None) -> tuple[Event, ...]:
    """The events of ``state`` (its ``history``); with ``player`` set, the opponent's cards
    are left out."""
    if player is None:
        return tuple(state.history)
    return tuple(ev for ev in state.history if visible(ev, player))


def event_to_action(ev: ActionEvent) -> Action:
    """The engine action of a betting event."""
    if isinstance(ev, Folded):
        return Action(kind=ActionKind.FOLD)
    if isinstance(ev, CheckedOrCalled):
        return Action(kind=ActionKind.CHECK_CALL)
    return Action(kind=ActionKind.RAISE, amount=ev.raise_to)
