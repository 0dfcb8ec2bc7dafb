"""A play session's configuration (:class:`SessionConfig`, checked against the table
registry) and its hand record (:class:`HandRecord`: the state, the log of
:class:`~pokerlab.play.session.TableEvent`, the person's decisions, the replay frames)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pokerlab.play.errors import PlayError
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


# ---------------------------------------------------------------- hand records
@dataclass
class HandRecord:
    number: int
    human_player: int
    state: Any
    cards: list[int]
    events: list[Any] = field(default_factory=list)  # session.TableEvent
    frames: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[Any] = field(default_factory=list)  # session.Decision
    result: float = 0.0
    chips: int = 0
    over: bool = False
    aborted: bool = False
    error: str = ""
    revealed: bool = False
    phh_path: str = ""
    moves: list[tuple[int, int, str]] = field(default_factory=list)  # generic: (player, id, label)
