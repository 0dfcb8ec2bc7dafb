"""The play tables' events: one family, each with one JSON form (``to_json``).

A hand's log (``HandRecord.events``) is a list of :class:`TableEvent`:

* :class:`HandStarted` and :class:`HandEnded` open and close every hand;
* on the hold'em engine the log holds the engine's own records
  (:mod:`pokerlab.holdem.events`: ``BoardDealt``, ``Folded``, ``CheckedOrCalled``,
  ``RaisedTo``, ``Shown``), each as the table logged it (:class:`EngineRecord`: the seat's
  name and, for the agent's moves, its think time); the table builds no copy of them;
* the protocol games (Kuhn, Leduc, the generic games) have no engine records: their
  moves, boards and shown cards are the protocol-level :class:`ActionTaken`,
  :class:`BoardDealt` and :class:`CardsShown`.

The JSON form is the same for both (``event``: ``ActionTaken`` / ``BoardDealt`` /
``CardsShown``, with ``who``, ``kind``, ``amount``, ``pot``...): the web page, the terminal
and the hand files read only that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerlab.cards.cards import card_str
from pokerlab.holdem import events as hev

YOU, AGENT = "you", "agent"
STREETS = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True)
class TableEvent:
    """Base of the table's events; ``to_json`` is what clients receive."""

    is_move = False
    """A player's move (the decision ids count them)."""

    def to_json(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["event"] = type(self).__name__
        return d


@dataclass(frozen=True)
class HandStarted(TableEvent):
    hand: int
    button: str  # "you" or "agent"
    stacks: dict[str, int | None]  # None: a generic game without (finite) stacks
    cards: list[str]  # the person's own hole cards


@dataclass(frozen=True)
class HandEnded(TableEvent):
    hand: int
    result: float  # the person's result in big blinds (chips for the protocol games)
    chips: int
    showdown: bool
    aborted: bool = False
    error: str = ""


def _think(d: dict[str, Any], think_ms: float | None, searched: bool | None) -> None:
    """The agent's think time and whether it searched (absent for the person's moves)."""
    if think_ms is not None:
        d["think_ms"] = think_ms
    if searched is not None:
        d["searched"] = searched


# ---------------------------------------------------------------- protocol games
@dataclass(frozen=True)
class BoardDealt(TableEvent):
    street: str
    cards: list[str]


@dataclass(frozen=True)
class ActionTaken(TableEvent):
    who: str
    kind: str  # fold | check | call | bet | raise (| action: a generic game without money)
    amount: int  # chips put in (call) or raise-to total (bet/raise)
    pot: int
    label: str = ""  # generic games: the game's own action_to_string
    think_ms: float | None = None
    """The agent's moves: how long it took to decide (milliseconds, measured in the thread
    that ran it); absent from the JSON of the person's moves."""
    searched: bool | None = None
    """The agent's moves: whether the agent searched for this one (its ``counters()``
    ``searches`` went up) rather than answering from its table."""

    is_move = True

    def to_json(self) -> dict[str, Any]:
        d = {"who": self.who, "kind": self.kind, "amount": self.amount, "pot": self.pot,
             "label": self.label}
        _think(d, self.think_ms, self.searched)
        d["event"] = "ActionTaken"
        return d


@dataclass(frozen=True)
class CardsShown(TableEvent):
    who: str
    cards: list[str]


# ---------------------------------------------------------------- the hold'em engine
@dataclass(frozen=True)
class EngineRecord(TableEvent):
    """One record of the hold'em engine's history as the table logged it: ``who`` names
    its seat (``you`` / ``agent``), the agent's moves carry their think time."""

    record: hev.Event
    who: str = ""
    think_ms: float | None = None
    searched: bool | None = None

    @property
    def is_move(self) -> bool:  # type: ignore[override]
        return isinstance(self.record, hev.ACTION_TYPES)

    # the protocol-level fields, read from the record (tests and the terminal read them)
    @property
    def kind(self) -> str:
        return str(self.to_json().get("kind", ""))

    def to_json(self) -> dict[str, Any]:
        r = self.record
        if isinstance(r, hev.BoardDealt):
            street = STREETS[r.street] if 1 <= r.street <= 3 else "board"
            return {"street": street, "cards": [card_str(c) for c in r.cards],
                    "event": "BoardDealt"}
        if isinstance(r, hev.Shown):
            return {"who": self.who, "cards": [card_str(c) for c in r.cards],
                    "event": "CardsShown"}
        if isinstance(r, hev.Folded):
            kind, amount = "fold", 0
        elif isinstance(r, hev.CheckedOrCalled):
            kind, amount = ("call" if r.amount else "check"), int(r.amount)
        elif isinstance(r, hev.RaisedTo):
            # the raiser never had more in than the opponent: it faced a bet exactly when
            # the opponent's bet (unchanged by the raise) is not zero
            kind = "raise" if r.bets[1 - r.player] > 0 else "bet"
            amount = int(r.raise_to)
        else:  # hole cards are in HandStarted, never logged
            raise TypeError(f"no table form for {type(r).__name__}")
        d: dict[str, Any] = {"who": self.who, "kind": kind, "amount": amount,
                             "pot": int(r.pot), "label": ""}
        _think(d, self.think_ms, self.searched)
        d["event"] = "ActionTaken"
        return d
