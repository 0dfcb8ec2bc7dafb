"""What one player may know at a decision: :class:`PlayerView` (``HoldemState.view``).

An agent sees a hand only through a view: its own hole cards, the board, the public
betting (as typed :mod:`pokerlab.holdem.events`), the stacks and the legal action range;
never the opponent's hidden cards.  :func:`checked_act` asks an agent for a move and checks
it.  This module sits below :mod:`pokerlab.holdem.engine` (which calls :func:`make_view`)
and reads states by their attributes only.  Re-exported by :mod:`pokerlab.agents.base`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerlab.errors import AgentError
from pokerlab.holdem.actions import (
    UNKNOWN,
    Action,
    HoldemConfig,
    IllegalActionError,
    LegalActions,
    Phase,
)
from pokerlab.holdem.events import (
    ActionEvent,
    BoardDealt,
    CheckedOrCalled,
    Event,
    Folded,
    RaisedTo,
    event_to_action,
    events_of,
    visible,
)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What ``player`` may know at a decision (never the opponent's hidden cards).

    Money fields are chips: ``stacks`` behind, ``bets`` this street, ``pot`` everything in
    the middle including this street's bets; ``min_raise_to``/``max_raise_to`` are
    street-total raise-to amounts (0 when no raise is legal).
    """

    player: int
    hole: tuple[int, ...]
    board: tuple[int, ...]
    street: int
    pot: int
    stacks: tuple[int, int]
    bets: tuple[int, int]
    to_call: int
    min_raise_to: int
    max_raise_to: int
    can_fold: bool
    can_raise: bool
    events: tuple[Event, ...]
    button: int
    big_blind: int
    config: HoldemConfig
    actor: int = -1
    """The player to act (-1 when nobody is); agents are asked only when ``actor == player``."""
    state_type: Any = field(default=None, compare=False, repr=False)
    """The state class the view was made from (what :meth:`replay_state` rebuilds)."""

    # ------------------------------------------------------------ conveniences
    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def is_acting(self) -> bool:
        return self.actor == self.player

    @property
    def call_amount(self) -> int:
        """Chips a check/call puts in (the call capped by the stack)."""
        return min(self.to_call, self.stacks[self.player])

    def legal(self) -> LegalActions:
        """The legal actions of the viewer (it must be the player to act)."""
        if not self.is_acting:
            raise IllegalActionError(f"player {self.player} is not the player to act")
        return LegalActions(player=self.player, can_fold=self.can_fold,
                            call_amount=self.call_amount, can_raise=self.can_raise,
                            min_raise_to=self.min_raise_to, max_raise_to=self.max_raise_to)

    def is_legal(self, action: Action) -> bool:
        return self.is_acting and self.legal().is_legal(action)

    def action_events(self) -> list[ActionEvent]:
        """The betting events only, in order."""
        return [e for e in self.events if isinstance(e, (Folded, CheckedOrCalled, RaisedTo))]

    def street_action_events(self) -> list[list[ActionEvent]]:
        """Betting events per street (index 0..3)."""
        out: list[list[ActionEvent]] = [[], [], [], []]
        street = 0
        for e in self.events:
            if isinstance(e, BoardDealt):
                street = e.street
            elif isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
                out[street].append(e)
        return out

    def replay_state(self) -> Any:
        """A :class:`HoldemState` at this decision rebuilt from the view alone: the
        viewer's hole cards known, the opponent's unknown (``UNKNOWN``).

        Used by agents that reason over engine states (the action map, the tree walk).
        """
        if self.state_type is None:
            raise AgentError("this view was not made by make_view; it cannot replay a state")
        st = self.state_type(config=self.config)
        for p in (0, 1):
            st.deal_hole(list(self.hole) if p == self.player else None)
        for e in self.events:
            if isinstance(e, BoardDealt):
                st.deal_board(list(e.cards))
            elif isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
                st.apply(event_to_action(e))
        return st


def make_view(state: Any, player: int) -> PlayerView:
    """The view of ``player`` at ``state`` (what ``HoldemState.view`` returns)."""
    if player not in (0, 1):
        raise AgentError(f"player must be 0 or 1, got {player!r}")
    if state.phase == Phase.DEAL_HOLE and len(state.hole[player]) == 0:
        hole: tuple[int, ...] = ()
    else:
        hole = tuple(state.hole[player])
    acting = state.phase == Phase.BETTING and state.actor == player
    can_raise = acting and state.can_raise
    return PlayerView(
        player=player,
        hole=hole,
        board=tuple(state.board),
        street=min(state.street, 3),
        pot=state.pot,
        stacks=(state.stacks[0], state.stacks[1]),
        bets=(state.bets[0], state.bets[1]),
        to_call=state.to_call if acting else 0,
        min_raise_to=state.min_raise_to if can_raise else 0,
        max_raise_to=state.max_raise_to if can_raise else 0,
        can_fold=acting and state.can_fold,
        can_raise=can_raise,
        events=events_of(state, player),
        button=1,
        big_blind=state.config.big_blind,
        config=state.config,
        actor=state.actor if state.phase == Phase.BETTING else -1,
        state_type=type(state),
    )


def action_probabilities(agent: Any, view: PlayerView) -> list[tuple[Action, float]] | None:
    """``agent.action_probabilities(view)`` when the agent has it, else ``None``."""
    fn = getattr(agent, "action_probabilities", None)
    if fn is None:
        return None
    return list(fn(view))


def checked_act(agent: Any, state: Any) -> Action:
    """Ask ``agent`` for the actor's move at ``state`` and check it is legal.

    Raises :class:`AgentError` (naming the agent and the action) for an illegal action;
    ``state`` is left unchanged.
    """
    player = state.actor
    view = state.view(player)
    action = agent.act(view)
    if not isinstance(action, Action):
        raise AgentError(f"agent {agent.name!r} returned {action!r}, not an Action")
    if not state.is_legal(action):
        lg = state.legal()
        rng = f"{lg.min_raise_to}..{lg.max_raise_to}" if lg.can_raise else "none"
        raise AgentError(
            f"agent {agent.name!r} chose the illegal action {action} as player {player} "
            f"(can fold: {lg.can_fold}, call {lg.call_amount}, raise-to range {rng})")
    return action


def feed_events(seats: Sequence[Any], state: Any, since: int) -> int:
    """Hand each agent of ``seats`` (seat order) the events of ``state`` from position
    ``since`` on that its seat may see, once each, through its ``observe_event(event)``
    (agents without it are skipped; see :class:`pokerlab.agents.base.Agent`).  Returns the
    new position (``len(state.history)``): the next call's ``since``."""
    history = state.history
    n = len(history)
    if since >= n:
        return n
    fns = [getattr(a, "observe_event", None) for a in seats]
    for i in range(since, n):
        ev = history[i]
        for p, fn in enumerate(fns):
            if fn is not None and visible(ev, p):
                fn(ev)
    return n


def hidden(cards: Sequence[int]) -> bool:
    """True when every card is unknown (``UNKNOWN``)."""
    return all(c == UNKNOWN for c in cards)
