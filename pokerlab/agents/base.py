"""The agent layer's shared types: typed hand events, a player's view, the Agent protocol.

An agent sees a hand only through a :class:`PlayerView` (``HoldemState.view(player)``):
its own hole cards, the board, the public betting (as typed :data:`Event` values), the
stacks and the legal action range.  The opponent's hidden cards are never in a view --
not in ``hole``, not in ``events`` (opponent ``HoleDealt``/``Shown`` events are left out).

Seats follow :mod:`pokerlab.holdem.engine`: player 0 is the big blind, player 1 the
button (small blind); ``PlayerView.button`` is therefore always 1.  Matches rotate the
blinds by swapping which agent sits in which seat every hand.

HUNL agents (:class:`Agent`) return a real :class:`~pokerlab.holdem.engine.Action`
(raise-to amounts in chips).  Small-game agents (:class:`SmallGameAgent`) act on
protocol states (Kuhn, Leduc, 8-card) and return an action id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pokerlab.errors import PokerlabError
from pokerlab.holdem.engine import (
    UNKNOWN,
    Action,
    ActionKind,
    HoldemConfig,
    HoldemState,
    IllegalActionError,
    LegalActions,
    Phase,
)

if TYPE_CHECKING:
    from pokerlab.games.protocol import State


class AgentError(PokerlabError):
    """An agent spec is unknown/malformed, or an agent returned an illegal action."""


# ---------------------------------------------------------------------------- events
@dataclass(frozen=True, slots=True)
class HoleDealt:
    """Two hole cards dealt to ``player`` (only the viewer's own appear in a view)."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Board cards dealt at the start of ``street`` (1 flop, 2 turn, 3 river)."""

    street: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Folded:
    player: int


@dataclass(frozen=True, slots=True)
class CheckedOrCalled:
    """``amount`` chips put in (0 = check)."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class RaisedTo:
    """A bet or raise to ``raise_to`` chips (this street's total, as PHH ``cbr``)."""

    player: int
    raise_to: int


@dataclass(frozen=True, slots=True)
class Shown:
    """Cards shown at the showdown (only the viewer's own appear in a view)."""

    player: int
    cards: tuple[int, ...]


Event = HoleDealt | BoardDealt | Folded | CheckedOrCalled | RaisedTo | Shown
"""A typed event of a hand (replaces the engine's loose ``history`` tuples)."""

ActionEvent = Folded | CheckedOrCalled | RaisedTo


def event_from_tuple(item: tuple[Any, ...], street: int = 0) -> Event:
    """One engine ``history`` tuple as a typed event (``street`` is for board deals)."""
    tag = item[0]
    if tag == "hole":
        return HoleDealt(int(item[1]), tuple(int(c) for c in item[2]))
    if tag == "board":
        return BoardDealt(street, tuple(int(c) for c in item[1]))
    if tag == "fold":
        return Folded(int(item[1]))
    if tag == "cc":
        return CheckedOrCalled(int(item[1]), int(item[2]))
    if tag == "cbr":
        return RaisedTo(int(item[1]), int(item[2]))
    if tag == "show":
        return Shown(int(item[1]), tuple(int(c) for c in item[2]))
    raise AgentError(f"unknown hand event {item!r}")


def events_of(state: HoldemState, player: int | None = None) -> tuple[Event, ...]:
    """The typed events of ``state``; with ``player`` set, the opponent's cards are left out."""
    out: list[Event] = []
    street = 0
    for item in state.history:
        if item[0] == "board":
            street += 1
        ev = event_from_tuple(item, street)
        if player is not None and isinstance(ev, (HoleDealt, Shown)) and ev.player != player:
            continue
        out.append(ev)
    return tuple(out)


def event_to_action(ev: ActionEvent) -> Action:
    """The engine action of a betting event."""
    if isinstance(ev, Folded):
        return Action(kind=ActionKind.FOLD)
    if isinstance(ev, CheckedOrCalled):
        return Action(kind=ActionKind.CHECK_CALL)
    return Action(kind=ActionKind.RAISE, amount=ev.raise_to)


# ---------------------------------------------------------------------------- view
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

    def replay_state(self) -> HoldemState:
        """A :class:`HoldemState` at this decision rebuilt from the view alone: the
        viewer's hole cards known, the opponent's unknown (``UNKNOWN``).

        Used by agents that reason over engine states (the action map, the tree walk).
        """
        st = HoldemState(config=self.config)
        for p in (0, 1):
            st.deal_hole(list(self.hole) if p == self.player else None)
        for e in self.events:
            if isinstance(e, BoardDealt):
                st.deal_board(list(e.cards))
            elif isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
                st.apply(event_to_action(e))
        return st


def make_view(state: HoldemState, player: int) -> PlayerView:
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
    )


# ---------------------------------------------------------------------------- protocols
@runtime_checkable
class Agent(Protocol):
    """A heads-up no-limit hold'em player.

    ``reset(seed)`` is called before every hand (so per-hand play is reproducible and
    independent of the order hands are played in); ``act(view)`` returns a legal real
    action for ``view.player``.  Agents that can say how they randomise also define
    ``action_probabilities(view) -> list[tuple[Action, float]]`` (see
    :func:`action_probabilities`).
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


def action_probabilities(agent: Agent, view: PlayerView) -> list[tuple[Action, float]] | None:
    """``agent.action_probabilities(view)`` when the agent has it, else ``None``."""
    fn = getattr(agent, "action_probabilities", None)
    if fn is None:
        return None
    return list(fn(view))


def checked_act(agent: Agent, state: HoldemState) -> Action:
    """Ask ``agent`` for the actor's move at ``state`` and check it is legal.

    Raises :class:`AgentError` (naming the agent and the action) for an illegal action;
    ``state`` is left unchanged.
    """
    player = state.actor
    view = state.view(player)
    action = agent.act(view)
    if not isinstance(action, Action):
        raise AgentError(f"agent {agent.name!r} returned {action!r}, not an Action")
    if not state.legal().is_legal(action):
        lg = state.legal()
        rng = f"{lg.min_raise_to}..{lg.max_raise_to}" if lg.can_raise else "none"
        raise AgentError(
            f"agent {agent.name!r} chose the illegal action {action} as player {player} "
            f"(can fold: {lg.can_fold}, call {lg.call_amount}, raise-to range {rng})")
    return action


def hidden(cards: Sequence[int]) -> bool:
    """True when every card is unknown (``UNKNOWN``)."""
    return all(c == UNKNOWN for c in cards)


def make_agent(spec: str, *, game: str = "hunl", config: HoldemConfig | None = None,
               seed: int = 0) -> Any:
    """Build the agent named by ``spec`` (see :mod:`pokerlab.agents.registry`).

    HUNL specs: ``random``, ``call``, ``raise``, ``tag``, ``pushfold``, ``policy:PATH``,
    ``blueprint``, ``thesis``.  Small games (``kuhn``, ``leduc``, ``eight_card``):
    ``random`` and ``policy:PATH``.  ``config`` is the HUNL table (stacks, blinds).
    """
    from pokerlab.agents.registry import build_agent

    return build_agent(spec, game=game, config=config, seed=seed)
