"""The end of a small-game hand as one player saw it (:class:`SmallHandEnd`).

The small games' counterpart of :func:`pokerlab.holdem.view.final_view`: what a learning
agent's ``end_hand(view)`` gets after a hand of Kuhn, Leduc, 8-card poker or any two-player
protocol game (matches, AIVAT, the play tables), and the one rule of small games for "this
hand ended without a showdown" (:func:`is_fold`), which the adaptive agent's tree shares;
and :class:`SmallRangeQuery`, a small-game agent that says how it plays (AIVAT's control
variates).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = ["SmallHandEnd", "SmallRangeQuery", "action_name", "is_fold", "small_hand_end"]


def action_name(state: Any, action: int) -> str:
    """A small game's name of ``action`` at ``state`` (lower case, trimmed)."""
    return str(state.action_to_string(action)).strip().lower()


def is_fold(name: str, last: str) -> bool:
    """Whether the action named ``name`` (:func:`action_name`) after one named ``last``
    folds: ``fold``, or Kuhn's ``pass`` facing a ``bet``.  The one rule of small games for
    "this hand ended without a showdown" (matches, AIVAT, the adaptive agent's tree)."""
    return name.startswith("fold") or (name.startswith("pass") and last == "bet")


@dataclass(frozen=True, slots=True)
class SmallHandEnd:
    """What ``player`` saw of a finished small-game hand (the small games' ``end_hand``
    view): its own final information state, the opponent's only when the hand reached a
    showdown (which shows the opponent's cards; ``None`` after a fold), and its result."""

    player: int
    info_state: str
    opponent_info_state: str | None
    payoff: float

    @property
    def showdown(self) -> bool:
        return self.opponent_info_state is not None


def small_hand_end(state: Any, player: int, *, showdown: bool) -> SmallHandEnd:
    """:class:`SmallHandEnd` of ``player`` at the finished protocol state ``state``;
    ``showdown``: the hand ended without a fold (the caller played it and knows)."""
    opp = 1 - int(player)
    return SmallHandEnd(player=int(player),
                        info_state=str(state.information_state_string(player)),
                        opponent_info_state=(str(state.information_state_string(opp))
                                             if showdown else None),
                        payoff=float(state.returns()[player]))


@runtime_checkable
class SmallRangeQuery(Protocol):
    """A small-game agent that says how it plays: ``action_probabilities_state(state,
    player)`` is its distribution over action ids at ``state`` (``SmallRandomAgent``,
    ``SmallPolicyAgent``, ``adapt``).  ``isinstance(agent, SmallRangeQuery)`` is the one
    test of the capability (AIVAT's control variates)."""

    def action_probabilities_state(self, state: Any, player: int) -> dict[int, float]: ...
