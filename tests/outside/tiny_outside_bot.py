"""A tiny outside bot for tests/test_outside_agents.py (not a pokerlab module): calls with
a card of rank 8 or better, otherwise checks or folds; counts its own hands and folds."""

from __future__ import annotations

from typing import Any

from pokerlab.holdem.engine import Action, ActionKind


class TinyBot:
    def __init__(self, name: str = "tiny", seed: int = 0) -> None:
        self.name = name
        self.seed = seed
        self.hands = 0
        self.folds = 0

    def reset(self, seed: int) -> None:
        self.hands += 1

    def _strong(self, hole: tuple[int, ...]) -> bool:
        return max(c // 4 for c in hole) >= 6  # rank 8 or better (2 = rank 0)

    def action_probabilities(self, view: Any) -> list[tuple[Action, float]]:
        if view.to_call > 0 and view.can_fold and not self._strong(view.hole):
            return [(Action(kind=ActionKind.FOLD), 1.0)]
        return [(Action(kind=ActionKind.CHECK_CALL), 1.0)]

    def act(self, view: Any) -> Action:
        a = self.action_probabilities(view)[0][0]
        if a.kind == ActionKind.FOLD:
            self.folds += 1
        return a

    def counters(self) -> dict[str, Any]:
        return {"hands": self.hands, "folds": self.folds, "note": "not a number"}


def make_bot(seed: int = 0, config: Any = None) -> TinyBot:
    return TinyBot(seed=seed)


class NoAct:
    pass


def make_broken() -> NoAct:
    return NoAct()


def make_failing() -> TinyBot:
    raise RuntimeError("no such table")
