"""Typed events of a hold'em hand (the engine's ``history`` tuples as values).

An agent sees a hand's public betting as these (``PlayerView.events``); the opponent's
``HoleDealt``/``Shown`` events are left out of a view.  Re-exported by
:mod:`pokerlab.agents.base`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pokerlab.errors import AgentError
from pokerlab.holdem.actions import Action, ActionKind

if TYPE_CHECKING:
    from collections.abc import Sequence


@dataclass(frozen=True, slots=True)
class HoleDealt:
    """Two hole cards dealt to ``player`` (only the viewer's own appear in a view)."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Board cards dealt at the start of ``street`` (1 flop, 2 turn, 3 river)."""

    street: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Folded:
    player: int


@dataclass(frozen=True, slots=True)
class CheckedOrCalled:
    """``amount`` chips put in (0 = check)."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class RaisedTo:
    """A bet or raise to ``raise_to`` chips (this street's total, as PHH ``cbr``)."""

    player: int
    raise_to: int


@dataclass(frozen=True, slots=True)
class Shown:
    """Cards shown at the showdown (only the viewer's own appear in a view)."""

    player: int
    cards: tuple[int, ...]


Event = HoleDealt | BoardDealt | Folded | CheckedOrCalled | RaisedTo | Shown
"""A typed event of a hand (replaces the engine's loose ``history`` tuples)."""

ActionEvent = Folded | CheckedOrCalled | RaisedTo


def event_from_tuple(item: tuple[Any, ...], street: int = 0) -> Event:
    """One engine ``history`` tuple as a typed event (``street`` is for board deals)."""
    tag = item[0]
    if tag == "hole":
        return HoleDealt(int(item[1]), tuple(int(c) for c in item[2]))
    if tag == "board":
        return BoardDealt(street, tuple(int(c) for c in item[1]))
    if tag == "fold":
        return Folded(int(item[1]))
    if tag == "cc":
        return CheckedOrCalled(int(item[1]), int(item[2]))
    if tag == "cbr":
        return RaisedTo(int(item[1]), int(item[2]))
    if tag == "show":
        return Shown(int(item[1]), tuple(int(c) for c in item[2]))
    raise AgentError(f"unknown hand event {item!r}")


def events_of(state: Any, player: int | None = None) -> tuple[Event, ...]:
    """The typed events of ``state``; with ``player`` set, the opponent's cards are left out."""
    out: list[Event] = []
    street = 0
    history: Sequence[tuple[Any, ...]] = state.history
    for item in history:
        if item[0] == "board":
            street += 1
        ev = event_from_tuple(item, street)
        if player is not None and isinstance(ev, (HoleDealt, Shown)) and ev.player != player:
            continue
        out.append(ev)
    return tuple(out)


def event_to_action(ev: ActionEvent) -> Action:
    """The engine action of a betting event."""
    if isinstance(ev, Folded):
        return Action(kind=ActionKind.FOLD)
    if isinstance(ev, CheckedOrCalled):
        return Action(kind=ActionKind.CHECK_CALL)
    return Action(kind=ActionKind.RAISE, amount=ev.raise_to)
