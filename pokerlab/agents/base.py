"""The agent layer's shared types: typed hand events, a player's view, the Agent protocol.

An agent sees a hand only through a :class:`PlayerView` (``HoldemState.view(player)``):
its own hole cards, the board, the public betting (as typed :data:`Event` values), the
stacks and the legal action range.  The opponent's hidden cards are never in a view --
not in ``hole``, not in ``events`` (opponent ``HoleDealt``/``Shown`` events are left out);
at the end of a hand (:func:`final_view`) only the cards the showdown showed are added.

Seats follow :mod:`pokerlab.holdem.engine`: player 0 is the big blind, player 1 the
button (small blind); ``PlayerView.button`` is therefore always 1.  Matches rotate the
blinds by swapping which agent sits in which seat every hand.

HUNL agents (:class:`Agent`) return a real :class:`~pokerlab.holdem.engine.Action`
(raise-to amounts in chips).  Small-game agents (:class:`SmallGameAgent`) act on
protocol states (Kuhn, Leduc, 8-card) and return an action id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pokerlab.errors import AgentError
from pokerlab.games.hand_end import SmallHandEnd, SmallRangeQuery
from pokerlab.holdem.actions import Action
from pokerlab.holdem.events import (
    ActionEvent,
    BoardDealt,
    CheckedOrCalled,
    Event,
    Folded,
    HoleDealt,
    RaisedTo,
    Shown,
    event_to_action,
    events_of,
    visible,
)
from pokerlab.holdem.view import (
    AgentBase,
    PlayerView,
    RangeQuery,
    action_probabilities,
    checked_act,
    end_hand,
    feed_events,
    final_view,
    hidden,
    learns,
    make_view,
    shown_at_end,
    start_match,
)

if TYPE_CHECKING:
    from pokerlab.games.protocol import State

__all__ = [
    "ActionEvent",
    "Agent",
    "AgentBase",
    "AgentError",
    "BoardDealt",
    "CheckedOrCalled",
    "Event",
    "Folded",
    "HoleDealt",
    "PlayerView",
    "RaisedTo",
    "RangeQuery",
    "Shown",
    "SmallGameAgent",
    "SmallHandEnd",
    "SmallRangeQuery",
    "action_probabilities",
    "checked_act",
    "end_hand",
    "event_to_action",
    "events_of",
    "feed_events",
    "final_view",
    "hidden",
    "learns",
    "make_view",
    "shown_at_end",
    "start_match",
    "visible",
]


# ---------------------------------------------------------------------------- protocols
@runtime_checkable
class Agent(Protocol):
    """A heads-up no-limit hold'em player.

    ``reset(seed)`` is called before every hand (so per-hand play is reproducible and
    independent of the order hands are played in); ``act(view)`` returns a legal real
    action for ``view.player``.  Agents that can say how they randomise also define
    ``action_probabilities(view) -> list[tuple[Action, float]]`` (see
    :func:`action_probabilities`).

    **Events as the hand goes.**  An agent may define ``observe_event(event)``: the loops
    that drive the engine (the one hand loop ``holdem.hand_loop.play_hand``,
    the play tables, hence the terminal and the server) hand it every event of its hand
    that its seat may see, once each and in order, from its own ``HoleDealt`` on, before
    it is asked to act (:func:`feed_events`; ``reset`` starts a new hand).  The default is
    nothing: an agent without the method is skipped (it is not a protocol member, so
    ``isinstance(x, Agent)`` does not ask for it).  An agent that tracks the
    hand incrementally (the policy agent) must still answer a view it was not fed (an
    outside caller's), from the view alone.

    **The end of a hand.**  An agent that learns from hands defines ``end_hand(view)``:
    the hand loops (matches, AIVAT, the play tables) call it after every hand with
    :func:`final_view` of its seat -- the board, the events, its own cards, its result,
    and the opponent's cards only when the showdown showed them (``view.opponent_hole``;
    ``None`` after a fold or a muck).  It never sees the final engine state.  Such an
    agent also gets ``start_match()`` before every run of hands (:func:`start_match`).
    :class:`AgentBase` holds the no-op defaults of these optional members
    (``observe_event``, ``end_hand``, ``start_match``, ``counters``); the loops reach
    them through :func:`feed_events`, :func:`end_hand`, :func:`start_match` and
    :func:`learns`, so an agent without them (an outside bot) is simply skipped.

    **Ranges.**  An agent that answers for every hand (its action probabilities at any
    hole cards) is a :class:`RangeQuery` (small games: :class:`SmallRangeQuery`); AIVAT,
    LBR and the searching agents test ``isinstance(agent, RangeQuery)``.
    """

    name: str

    def reset(self, seed: int) -> None: ...

    def act(self, view: PlayerView) -> Action: ...



@runtime_checkable
class SmallGameAgent(Protocol):
    """A player of a small protocol game (Kuhn, Leduc, 8-card): acts on a state using only
    ``state.information_state_string(player)`` and ``state.legal_actions()``."""

    name: str

    def reset(self, seed: int) -> None: ...

    def act_state(self, state: State, player: int) -> int: ...
