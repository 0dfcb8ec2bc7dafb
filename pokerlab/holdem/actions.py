"""The hold'em engine's value types: streets and seats, :class:`Action`,
:class:`LegalActions`, :class:`HoldemConfig` (re-exported by :mod:`pokerlab.holdem.engine`).

They sit below the engine, the typed events (:mod:`pokerlab.holdem.events`) and the
player's view (:mod:`pokerlab.holdem.view`) so those need not import the state machine.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import IntEnum
from typing import Any

from pokerlab.errors import ConfigError, PokerlabError

PREFLOP, FLOP, TURN, RIVER = 0, 1, 2, 3
STREET_NAMES = ("preflop", "flop", "turn", "river")
BOARD_COUNTS = (0, 3, 1, 1)
"""Board cards dealt at the start of each street."""

BIG_BLIND = 0
"""Player index of the big blind (PHH ``p1``)."""
SMALL_BLIND = 1
"""Player index of the small blind (PHH ``p2``)."""
BUTTON = SMALL_BLIND
UNKNOWN = -1
"""Card value of an unknown (not dealt for real) card."""


class IllegalActionError(PokerlabError):
    """An action that the rules do not allow in this state (the message says why)."""


class Phase(IntEnum):
    DEAL_HOLE = 0
    BETTING = 1
    DEAL_BOARD = 2
    TERMINAL = 3


class ActionKind(IntEnum):
    FOLD = 0
    CHECK_CALL = 1
    RAISE = 2


@dataclass(frozen=True, kw_only=True)
class Action:
    """A betting action.  ``amount`` is the raise-to total for ``RAISE`` (ignored else)."""

    kind: ActionKind
    amount: int = 0

    def __str__(self) -> str:
        if self.kind == ActionKind.FOLD:
            return "f"
        if self.kind == ActionKind.CHECK_CALL:
            return "cc"
        return f"cbr {self.amount}"


@dataclass(frozen=True, kw_only=True)
class LegalActions:
    """The legal action set of the player to act.

    ``call_amount`` is what check/call puts in (0 = check).  When ``can_raise`` the legal
    raise-to amounts are every integer in ``[min_raise_to, max_raise_to]`` (the latter is
    all-in); otherwise both are 0.
    """

    player: int
    can_fold: bool
    call_amount: int
    can_raise: bool
    min_raise_to: int
    max_raise_to: int

    def is_legal(self, action: Action) -> bool:
        if action.kind == ActionKind.FOLD:
            return self.can_fold
        if action.kind == ActionKind.CHECK_CALL:
            return True
        return self.can_raise and self.min_raise_to <= action.amount <= self.max_raise_to


@dataclass(frozen=True, kw_only=True)
class HoldemConfig:
    """Heads-up no-limit hold'em setup.  ``stacks[0]`` is the big blind's stack."""

    stacks: tuple[int, int] = (20000, 20000)
    small_blind: int = 50
    big_blind: int = 100
    ante: int = 0

    def __post_init__(self) -> None:
        st = tuple(self.stacks)
        if len(st) != 2:
            raise ConfigError(f"heads-up needs exactly 2 stacks, got {self.stacks!r}")

        def chips(v: Any, name: str) -> int:
            if isinstance(v, bool):
                raise ConfigError(f"{name} must be an integer number of chips, got {v!r}")
            try:
                return operator.index(v)
            except TypeError:
                raise ConfigError(
                    f"{name} must be an integer number of chips, got {v!r}") from None

        object.__setattr__(self, "small_blind", chips(self.small_blind, "small_blind"))
        object.__setattr__(self, "big_blind", chips(self.big_blind, "big_blind"))
        object.__setattr__(self, "ante", chips(self.ante, "ante"))
        object.__setattr__(self, "stacks", (chips(st[0], "stack"), chips(st[1], "stack")))
        if not 1 <= self.small_blind < self.big_blind:
            raise ConfigError(
                f"blinds must satisfy 1 <= small_blind < big_blind, got "
                f"{self.small_blind}/{self.big_blind}")
        if self.ante < 0:
            raise ConfigError(f"ante must be >= 0, got {self.ante}")
        for p, blind in ((BIG_BLIND, self.big_blind), (SMALL_BLIND, self.small_blind)):
            if self.stacks[p] <= self.ante + blind:
                raise ConfigError(
                    f"stack {self.stacks[p]} of player {p} must exceed ante + blind = "
                    f"{self.ante + blind}")

    @classmethod
    def from_bb(cls, stacks_bb: float | Sequence[float], *, small_blind: int = 50,
                big_blind: int = 100, ante: int = 0) -> HoldemConfig:
        """Stacks given in big blinds (one value for both or one per player)."""
        vals = [stacks_bb, stacks_bb] if isinstance(stacks_bb, (int, float)) else list(stacks_bb)
        if len(vals) != 2:
            raise ConfigError(f"need one or two stack sizes, got {stacks_bb!r}")
        chips = [round(float(v) * big_blind) for v in vals]
        return cls(stacks=(chips[0], chips[1]), small_blind=small_blind, big_blind=big_blind,
                   ante=ante)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["stacks"] = list(self.stacks)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HoldemConfig:
        try:
            return cls(stacks=(int(d["stacks"][0]), int(d["stacks"][1])),
                       small_blind=int(d["small_blind"]), big_blind=int(d["big_blind"]),
                       ante=int(d.get("ante", 0)))
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            raise ConfigError(f"bad holdem config {d!r}: {exc}") from None

    def __str__(self) -> str:
        a = f" ante {self.ante}" if self.ante else ""
        return (f"HUNL {self.small_blind}/{self.big_blind}{a}, stacks "
                f"{self.stacks[0]}/{self.stacks[1]}")


__all__ = [
    "BIG_BLIND", "BOARD_COUNTS", "BUTTON", "FLOP", "PREFLOP", "RIVER", "SMALL_BLIND",
    "STREET_NAMES", "TURN", "UNKNOWN", "Action", "ActionKind", "HoldemConfig",
    "IllegalActionError", "LegalActions", "Phase",
]
