"""The in-memory form of one hand history, as read from PHH or PokerStars text.

:class:`RawHand` holds the PHH fields pokerlab uses (names as in the PHH standard,
https://github.com/uoftcprg/phh-std).  Amounts are integers in the hand's smallest unit
``unit`` (a decimal string: ``"1"`` for chips, ``"0.01"`` for cents of ``currency``).
Nothing here checks legality: :mod:`pokerlab.hands.replay` does that.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass


@dataclass(slots=True, kw_only=True)
class RawHand:
    """One hand history: the PHH fields, plus where it came from (``source``, ``position``)."""

    variant: str
    antes: list[int]
    blinds_or_straddles: list[int]
    min_bet: int | None
    starting_stacks: list[int]
    actions: list[str]
    players: list[str] | None = None
    finishing_stacks: list[float] | None = None
    """May hold fractions: a split pot with an odd chip leaves half chips."""
    winnings: list[float] | None = None
    hand: str | None = None
    table: str | None = None
    venue: str | None = None
    played_at: dt.datetime | None = None
    unit: str = "1"
    """Money value of one stored amount unit, as a decimal string (``"0.01"``: cents)."""
    currency: str | None = None
    """Currency code or symbol of the amounts (``"USD"``, ``"$"``, ...); ``None``: chips."""
    rake: int | None = None
    """Rake taken from the pot, in units, when the history states it."""
    source: str = ""
    position: int = 0
    """Index of the hand in its source (0-based: the n-th hand of a ``.phhs`` file)."""

    def key(self) -> str:
        """The hand's identity: a hash of the game facts (not of the text's formatting).

        Two copies of one hand (e.g. in a ``.phh`` file and inside a ``.phhs`` file, or
        re-imported) get the same key; ``source``/``position`` are not part of it.
        """
        text = repr(
            (
                self.variant,
                self.antes,
                self.blinds_or_straddles,
                self.min_bet,
                self.starting_stacks,
                self.actions,
                self.players,
                self.finishing_stacks,
                self.hand,
                self.table,
                self.venue,
                None if self.played_at is None else self.played_at.isoformat(),
            )
        )
        if self.unit != "1" or self.currency is not None or self.rake is not None:
            text += repr((self.unit, self.currency, self.rake))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]

    def where(self) -> str:
        return f"{self.source} (hand #{self.position + 1})" if self.source else f"hand #{self.position + 1}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Rejection:
    """A hand that could not be imported: where it is and why."""

    source: str
    position: int
    """0-based index of the hand in its source."""
    message: str

    def __str__(self) -> str:
        return f"{self.source} (hand #{self.position + 1}): {self.message}"


MAX_AMOUNT = 2**53
"""The largest amount (in units) a stored hand may hold: exact in a float, and nine seats'
sums stay far inside the 64-bit integers of the replay kernels and the database."""


def _shown(x: object) -> str:
    text = str(x)
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} digits)"


def amount_problem(h: RawHand) -> str | None:
    """Why the hand's amounts cannot be stored (a stack, blind, ante, bet size, rake,
    finishing stack or winning that is not a finite number of at most
    :data:`MAX_AMOUNT` units), or None."""
    fields = (("starting stack", h.starting_stacks), ("ante", h.antes),
              ("blind", h.blinds_or_straddles), ("min_bet", [h.min_bet or 0]),
              ("rake", [h.rake or 0]), ("finishing stack", h.finishing_stacks or ()),
              ("winning", h.winnings or ()))
    for what, values in fields:
        for x in values:
            if isinstance(x, float) and x != x:  # NaN
                return f"{what} {x} is not a number"
            if not -MAX_AMOUNT <= x <= MAX_AMOUNT:
                return f"{what} {_shown(x)} is too large (at most {MAX_AMOUNT:,} units)"
    return None
