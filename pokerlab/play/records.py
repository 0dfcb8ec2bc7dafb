"""What a play session keeps: its configuration (:class:`SessionConfig`), the person's
running result (:class:`Stats`) and every hand (:class:`HandRecord`, with the person's
:class:`Decision` records for the coach)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pokerlab.play.errors import PlayError
from pokerlab.play.events import TableEvent
from pokerlab.play.registry import GAMES, table_spec


# ---------------------------------------------------------------- configuration
@dataclass(frozen=True, kw_only=True)
class SessionConfig:
    """One play session.  ``stack`` in big blinds (hunl/pushfold); ``seed`` None = random.

    ``agent``: an agent spec; ``""`` is the game's default (``tag`` in hunl, the exact
    equilibrium in the other games).  Generic games take ``equilibrium``, ``random`` or
    ``policy:PATH``.
    """

    game: str = "hunl"
    agent: str = ""
    stack: float = 100.0
    carry_stacks: bool = False
    seed: int | None = None
    max_hands: int = 100_000
    keep_replays: int = 500

    def __post_init__(self) -> None:
        spec = table_spec(self.game)
        if spec.checked:
            from pokerlab.play.generic import load_play_game

            try:
                load_play_game(self.game)
            except PlayError as exc:
                raise PlayError(f"{exc} (tables: {', '.join(GAMES)} or a small two-player "
                                "game string such as gamedef:leduc5)") from None
        if not isinstance(self.stack, (int, float)) or not math.isfinite(self.stack):
            raise PlayError(f"stack must be a number of big blinds, got {self.stack!r}")
        if spec.stacks is not None and not spec.stacks[0] <= self.stack <= spec.stacks[1]:
            raise PlayError(f"stack {self.stack} bb is outside {spec.stacks[0]:g}.."
                            f"{spec.stacks[1]:g} {spec.stack_owner}")
        if self.max_hands < 1:
            raise PlayError(f"max_hands must be >= 1, got {self.max_hands}")


# ---------------------------------------------------------------- stats
@dataclass
class Stats:
    """Running result of the person (per-hand results in big blinds)."""

    results: list[float] = field(default_factory=list)
    ev_loss: float = 0.0
    decisions_graded: int = 0

    def add(self, r: float) -> None:
        self.results.append(float(r))

    def summary(self) -> dict[str, Any]:
        n = len(self.results)
        total = sum(self.results)
        mean = total / n if n else 0.0
        if n >= 2:
            var = sum((x - mean) ** 2 for x in self.results) / (n - 1)
            sd = math.sqrt(var)
            ci = 1.96 * sd / math.sqrt(n)
        else:
            sd, ci = 0.0, 0.0
        running: list[float] = []
        acc = 0.0
        for x in self.results:
            acc += x
            running.append(round(acc, 4))
        return {"hands": n, "total": round(total, 4), "mean": round(mean, 4),
                "sd": round(sd, 4), "ci95": round(ci, 4),
                "per100": round(100 * mean, 2), "per100_ci95": round(100 * ci, 2),
                "running": running[-400:], "ev_loss": round(self.ev_loss, 4),
                "decisions_graded": self.decisions_graded}


# ---------------------------------------------------------------- hand records
@dataclass
class Decision:
    """One decision of the person: what was legal, what was chosen, the coach's notes."""

    street: str
    to_call: int
    pot: int
    chosen: str
    view: Any = None  # engine view (hunl) or protocol state clone (small games)
    human_player: int = 0
    coach: dict[str, Any] | None = None
    action_id: int | None = None  # small and generic games: the chosen action id


@dataclass
class HandRecord:
    number: int
    human_player: int
    state: Any
    cards: list[int]
    events: list[TableEvent] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    result: float = 0.0
    chips: int = 0
    over: bool = False
    aborted: bool = False
    error: str = ""
    revealed: bool = False
    phh_path: str = ""
    moves: list[tuple[int, int, str]] = field(default_factory=list)  # generic: (player, id, label)
