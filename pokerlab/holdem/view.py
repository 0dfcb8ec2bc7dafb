"""What one player may know at a decision: :class:`PlayerView` (``HoldemState.view``).

An agent sees a hand only through a view: its own hole cards, the board, the public
betting (as typed :mod:`pokerlab.holdem.events`), the stacks and the legal action range;
never the opponent's hidden cards.  At the end of a hand it sees :func:`final_view`: the
same, plus the opponent's cards only where the showdown showed them (a folded or mucked
hand stays unknown) and its own result.  :func:`checked_act` asks an agent for a move and
checks it.  :class:`AgentBase` gives an agent the no-op defaults of the optional members
(``observe_event``, ``end_hand``, ``start_match``, ``counters``); :func:`feed_events`,
:func:`end_hand`, :func:`start_match` and :func:`learns` are how the hand loops reach
them, also for agents that do not derive from it.  This module sits below
:mod:`pokerlab.holdem.engine` (which calls :func:`make_view`) and reads states by their
attributes only.  Re-exported by :mod:`pokerlab.agents.base`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

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
    Shown,
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
    opponent_hole: tuple[int, ...] | None = None
    """The opponent's hole cards as the showdown showed them; ``None`` while they are
    unknown: always during a hand, and at its end when the opponent folded or mucked
    (:func:`final_view` only sets it)."""
    payoff: int | None = None
    """The viewer's chips won (+) or lost (-) in the finished hand (:func:`final_view`, at
    a terminal state whose result is known); ``None`` otherwise."""

    # ------------------------------------------------------------ conveniences
    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def showdown(self) -> bool:
        """The opponent's cards were shown (a :func:`final_view` of a showdown)."""
        return self.opponent_hole is not None

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


def shown_at_end(ev: Event, player: int) -> bool:
    """Whether ``player`` has seen ``ev`` once the hand is over: what it may see during the
    hand (:func:`~pokerlab.holdem.events.visible`) and the opponent's cards shown at the
    showdown (a :class:`~pokerlab.holdem.events.Shown` of known cards; cards shown as
    unknown were mucked)."""
    return visible(ev, player) or (isinstance(ev, Shown) and not hidden(ev.cards))


def final_view(state: Any, player: int) -> PlayerView:
    """What ``player`` saw of the hand ``state`` once it is over: :func:`make_view`, with
    the opponent's shown cards (``opponent_hole``, and its ``Shown`` event in ``events``)
    only when the engine's events show them at the showdown -- never after a fold, never
    for a hand shown as unknown (mucked) -- and ``payoff``, the viewer's result.

    The one end-of-hand input of agents (``end_hand(view)``): the opponent's hole cards in
    ``state`` are read from its ``Shown`` events only, never from ``state.hole``."""
    base = make_view(state, player)
    opp = 1 - player
    events = tuple(ev for ev in state.history if shown_at_end(ev, player))
    shown = next((tuple(ev.cards) for ev in events
                  if isinstance(ev, Shown) and ev.player == opp), None)
    payoff: int | None = None
    if state.phase == Phase.TERMINAL:
        cards = [*state.hole[0], *state.hole[1], *state.board]
        if state.folded >= 0 or UNKNOWN not in cards:
            payoff = int(state.payoffs()[player])
    return replace(base, events=events, opponent_hole=shown, payoff=payoff)


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
    if not isinstance(action, Action) or not state.is_legal(action):
        raise move_error(agent, action, player, state.legal())
    return action


def move_error(agent: Any, action: Any, player: int, legal: Any) -> AgentError:
    """The one error for a move ``agent`` may not make as ``player``: not an
    :class:`Action`, or an action outside ``legal`` (its legal actions, named)."""
    if not isinstance(action, Action):
        return AgentError(f"agent {agent.name!r} returned {action!r}, not an Action")
    rng = f"{legal.min_raise_to}..{legal.max_raise_to}" if legal.can_raise else "none"
    return AgentError(
        f"agent {agent.name!r} chose the illegal action {action} as player {player} "
        f"(can fold: {legal.can_fold}, call {legal.call_amount}, raise-to range {rng})")


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


# ---------------------------------------------------------------------- agent defaults
class AgentBase:
    """The optional members of an agent, as no-ops (derive from it and override what the
    agent uses; see :class:`pokerlab.agents.base.Agent`).

    * ``observe_event(event)``: each event of the hand its seat may see, once, in order
      (:func:`feed_events`);
    * ``end_hand(view)``: the end of every hand, with :func:`final_view` of its seat (the
      opponent's cards only where the showdown showed them).  An agent that overrides it
      *learns* (:func:`learns`): it has no match fast path and starts afresh in every run
      of hands;
    * ``start_match()``: before every run of hands (a match, a chunk of one, a session);
    * ``counters()``: the agent's own numbers (summed over a match's chunks).
    """

    def observe_event(self, event: Event) -> None:
        return None

    def end_hand(self, view: Any) -> None:
        """The end of a hand: a :class:`PlayerView` from :func:`final_view` (HUNL), a
        ``SmallHandEnd`` (small games, :mod:`pokerlab.games.hand_end`)."""
        return None

    def start_match(self) -> None:
        return None

    def counters(self) -> dict[str, float]:
        return {}


@runtime_checkable
class RangeQuery(Protocol):
    """An agent that answers for every hand: ``action_probabilities(view)`` gives its
    distribution over real actions at ``view`` for whatever hole cards the view holds (the
    range queries of :mod:`pokerlab.policy.range_query` put each combo in turn).  AIVAT
    takes the control variates of such a seat; LBR and the searching agents read ranges
    through it.  ``isinstance(agent, RangeQuery)`` is the one test of the capability."""

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]: ...


def learns(agent: Any) -> bool:
    """Whether ``agent`` learns from finished hands: it has an ``end_hand`` of its own (not
    :class:`AgentBase`'s no-op)."""
    fn = getattr(agent, "end_hand", None)
    return callable(fn) and getattr(fn, "__func__", None) is not AgentBase.end_hand


def start_match(agents: Sequence[Any]) -> None:
    """``start_match()`` of each learning agent of ``agents`` (each object once): learning
    agents start afresh with every run of hands."""
    seen: list[Any] = []
    for a in agents:
        if learns(a) and not any(a is b for b in seen):
            seen.append(a)
            fn = getattr(a, "start_match", None)
            if callable(fn):
                fn()


def end_hand(seats: Sequence[Any], state: Any) -> None:
    """The end of the hand ``state`` for each agent of ``seats`` (seat order) that learns:
    ``end_hand(final_view(state, seat))``, what its seat saw and nothing more."""
    for p, a in enumerate(seats):
        if learns(a):
            a.end_hand(final_view(state, p))
