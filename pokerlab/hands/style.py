"""Playing-style classes: tight/loose x passive/aggressive.

A player is *loose* when VPIP is at or above the looseness threshold for the table size
(the common rules of thumb: heads-up 50 %, short-handed 3-6 players 25 %, full ring 7-9
players 20 %), and *aggressive* when the postflop aggression factor is at or above 2.0
(or, with ``aggression="afq"``, the aggression frequency at or above 50 %).  All of it
is adjustable through :class:`StyleThresholds`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pokerlab.errors import ConfigError

if TYPE_CHECKING:
    from pokerlab.hands.stats import PlayerStats

#: the largest aggression-factor threshold (bets and raises per call)
MAX_AF = 1000.0

STYLES = ("tight-passive", "tight-aggressive", "loose-passive", "loose-aggressive")


@dataclass(frozen=True, kw_only=True)
class StyleThresholds:
    vpip_heads_up: float = 50.0
    vpip_short_handed: float = 25.0
    vpip_full_ring: float = 20.0
    aggression: str = "af"
    """Which measure decides passive/aggressive: ``"af"`` or ``"afq"``."""
    af_aggressive: float = 2.0
    afq_aggressive: float = 50.0

    def __post_init__(self) -> None:
        if self.aggression not in ("af", "afq"):
            raise ConfigError(f"aggression measure {self.aggression!r}: expected 'af' or 'afq'")
        for name in ("vpip_heads_up", "vpip_short_handed", "vpip_full_ring", "afq_aggressive"):
            v = getattr(self, name)
            if not 0.0 <= v <= 100.0:
                raise ConfigError(f"{name} = {v} is not a percentage in 0..100")
        if self.af_aggressive <= 0:
            raise ConfigError(f"af_aggressive = {self.af_aggressive} must be positive")
        if not self.af_aggressive <= MAX_AF:
            raise ConfigError(f"af_aggressive = {self.af_aggressive:g} is too large (an "
                              f"aggression factor threshold is at most {MAX_AF:g})")

    def vpip_threshold(self, table_size: int) -> float:
        if table_size <= 2:
            return self.vpip_heads_up
        if table_size <= 6:
            return self.vpip_short_handed
        return self.vpip_full_ring

    def aggression_threshold(self) -> float:
        return self.af_aggressive if self.aggression == "af" else self.afq_aggressive


def aggression_value(s: PlayerStats, aggression: str = "af") -> float | None:
    """The player's value on the aggression axis; AF with no calls counts as infinite."""
    if aggression == "afq":
        return s.afq
    if s.af is not None:
        return s.af
    if s.counts.get("postflop_bets_raises", 0) > 0:
        return float("inf")
    return None


def classify(
    s: PlayerStats, thresholds: StyleThresholds | None = None, *, table_size: int | None = None
) -> str:
    """One of :data:`STYLES`, or ``"unknown"`` when VPIP or aggression is undefined."""
    t = thresholds or StyleThresholds()
    agg = aggression_value(s, t.aggression)
    if s.vpip is None or agg is None:
        return "unknown"
    loose = s.vpip >= t.vpip_threshold(table_size if table_size is not None else s.table_size)
    aggressive = agg >= t.aggression_threshold()
    return f"{'loose' if loose else 'tight'}-{'aggressive' if aggressive else 'passive'}"


def classify_all(
    stats: list[PlayerStats],
    thresholds: StyleThresholds | None = None,
    *,
    table_size: int | None = None,
) -> list[PlayerStats]:
    """The same statistics with ``style`` filled in (new objects)."""
    return [replace(s, style=classify(s, thresholds, table_size=table_size)) for s in stats]
