"""The one HUNL hand loop: :func:`play_hand` drives the engine with agent objects.

Every Python loop that plays hold'em hands with agents is this one: matches
(:func:`pokerlab.evaluation.matches.play_hunl_hand`), AIVAT (its value terms are
:class:`HandHooks`), random self-play and the plain twin of the random-playout kernel
(:mod:`pokerlab.agents.random_agent`, :mod:`pokerlab.agents.selfplay`) and the PokerKit
oracle (:mod:`pokerlab.agents.oracle`, whose comparison is a :class:`HandHooks`).  It needs
the engine and the player's view only (:func:`~pokerlab.holdem.view.feed_events`,
:func:`~pokerlab.holdem.view.checked_act`, :func:`~pokerlab.holdem.view.end_hand`), so it
sits in the holdem layer, below the agents and the evaluation that both use it.

An agent whose move depends on the legal actions alone (the random agent) is a
:class:`LegalActor`: the loop asks it ``act_legal(legal)`` and builds no
:class:`~pokerlab.holdem.view.PlayerView` for it (a view holds the seat's events: building
one at every decision would cost random self-play a third of its speed).  Events are fed
only to the agents that observe them (an ``observe_event`` other than
:class:`~pokerlab.holdem.view.AgentBase`'s no-op).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from pokerlab.holdem.actions import Action, HoldemConfig, LegalActions, Phase
from pokerlab.holdem.engine import HoldemState
from pokerlab.holdem.view import AgentBase, checked_act, end_hand, feed_events, move_error

__all__ = ["HandHooks", "LegalActor", "acts_on_legal", "checked_legal_act", "observes",
           "play_hand"]


class HandHooks:
    """What a caller of :func:`play_hand` may watch (no-ops here; AIVAT's value terms and
    the oracle's comparison override them): the state after the hole cards, before and
    after each board deal, and each checked action before it is applied."""

    def dealt(self, state: HoldemState) -> None:
        return None

    def before_board(self, state: HoldemState) -> None:
        return None

    def after_board(self, state: HoldemState) -> None:
        return None

    def before_action(self, state: HoldemState, action: Action) -> None:
        return None


_NO_HOOKS = HandHooks()


@runtime_checkable
class LegalActor(Protocol):
    """An agent whose move is a function of the legal actions (and its own random stream)
    only: :func:`play_hand` asks it ``act_legal(legal)`` instead of ``act(view)``; both
    must give the same move."""

    name: str

    def act_legal(self, legal: LegalActions) -> Action: ...


_LEGAL_ACTOR: dict[type, bool] = {}
"""Per agent class, whether it is a :class:`LegalActor` (an ``isinstance`` test of a
runtime protocol costs some 12 microseconds, a seventh of a random hand)."""


def _owner(t: type, name: str) -> type | None:
    return next((c for c in t.__mro__ if name in c.__dict__), None)


def acts_on_legal(agent: Any) -> bool:
    """``isinstance(agent, LegalActor)``, and its ``act_legal`` is no older than its
    ``act`` (a subclass that overrides ``act`` alone, to watch the views say, is asked
    ``act(view)``); remembered per class (not for a class that forwards attributes with
    ``__getattr__``, whose instances may differ)."""
    t = type(agent)
    known = _LEGAL_ACTOR.get(t)
    if known is not None:
        return known
    got = isinstance(agent, LegalActor)
    if got:
        legal_owner, act_owner = _owner(t, "act_legal"), _owner(t, "act")
        got = (legal_owner is None or act_owner is None
               or issubclass(legal_owner, act_owner))
    if not hasattr(t, "__getattr__"):
        _LEGAL_ACTOR[t] = got
    return got


def observes(agent: Any) -> bool:
    """Whether ``agent`` takes the hand's events (an ``observe_event`` of its own, not
    :class:`~pokerlab.holdem.view.AgentBase`'s no-op)."""
    fn = getattr(agent, "observe_event", None)
    return callable(fn) and getattr(fn, "__func__", None) is not AgentBase.observe_event


def checked_legal_act(agent: Any, state: HoldemState) -> Action:
    """:func:`~pokerlab.holdem.view.checked_act` for a :class:`LegalActor`: its move at
    ``state`` from the legal actions, checked (:class:`AgentError` naming the agent and the
    action when it is illegal; ``state`` is left unchanged)."""
    lg = state.legal()
    action = agent.act_legal(lg)
    if not isinstance(action, Action) or not lg.is_legal(action):
        raise move_error(agent, action, lg.player, lg)
    return action


def play_hand(seats: Sequence[Any], config: HoldemConfig, cards: Sequence[int], *,
              hooks: HandHooks | None = None, learn: bool = True,
              state: HoldemState | None = None) -> HoldemState:
    """The one HUNL hand loop: the agents of ``seats`` (seat order, already reset) play the
    given 9 cards (hole p0, hole p1, flop, turn, river).  Each agent that observes gets its
    visible events as the hand goes (:func:`~pokerlab.holdem.view.feed_events`), every move
    is checked (:func:`~pokerlab.holdem.view.checked_act`, :func:`checked_legal_act` for a
    :class:`LegalActor`), and with ``learn`` each learning agent gets the end of the hand as
    its seat saw it (:func:`~pokerlab.holdem.view.end_hand`: ``end_hand(final_view)``).

    ``state``: a fresh state to play in (default: a new one of ``config``); the played
    state is returned.  ``hooks`` see the hand as it goes (:class:`HandHooks`)."""
    h = hooks if hooks is not None else _NO_HOOKS
    st = state if state is not None else HoldemState(config=config)
    st.deal_hole(cards[0:2])
    st.deal_hole(cards[2:4])
    h.dealt(st)
    fed_seats = [a if observes(a) else None for a in seats]
    feeding = any(a is not None for a in fed_seats)
    quick = [acts_on_legal(a) for a in seats]
    pos = 4
    fed = 0  # events handed to the agents so far (each once, as the hand goes)
    while st.phase != Phase.TERMINAL:
        if st.phase == Phase.DEAL_BOARD:
            h.before_board(st)
            n = st.cards_due()
            st.deal_board(cards[pos:pos + n])
            pos += n
            h.after_board(st)
        else:
            if feeding:
                fed = feed_events(fed_seats, st, fed)
            p = st.actor
            act = checked_legal_act(seats[p], st) if quick[p] else checked_act(seats[p], st)
            h.before_action(st, act)
            st.apply(act)
    if feeding:
        feed_events(fed_seats, st, fed)
    if learn:
        end_hand(seats, st)
    return st
