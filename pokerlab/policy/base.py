"""The one policy exchange type of pokerlab.

A :class:`Policy` answers one question: at a (non-terminal, non-chance) state of a game
given through :mod:`pokerlab.games.protocol`, with which probability does the player to act
choose each legal action?  Everything that produces a strategy (tabular solvers, neural
networks, push/fold charts, hand-written bots) returns a ``Policy``; everything that
measures one (:mod:`pokerlab.evaluation`, arenas) takes a ``Policy``.

Subclassing for a non-tabular policy needs exactly one method::

    class MyNetPolicy(Policy):
        def action_probabilities(self, state):
            logits = net(encode(state))
            return {a: p for a, p in zip(state.legal_actions(), softmax(logits))}

Rules a subclass must follow:

* the returned dict maps **legal action ids** of ``state`` to probabilities that are
  non-negative and sum to 1 (missing legal actions mean probability 0);
* the answer may depend only on what the acting player knows, i.e. on
  ``state.information_state_string()`` (evaluation calls it once per information set on one
  representative state and reuses the answer for the others).
"""

from __future__ import annotations

import abc

from pokerlab.games.protocol import State


class Policy(abc.ABC):
    """A (behavioural) strategy profile: action probabilities for the player to act."""

    @abc.abstractmethod
    def action_probabilities(self, state: State) -> dict[int, float]:
        """Probabilities over ``state.legal_actions()`` for ``state.current_player()``."""


class UniformRandomPolicy(Policy):
    """Every legal action with equal probability."""

    def action_probabilities(self, state: State) -> dict[int, float]:
        legal = state.legal_actions()
        p = 1.0 / len(legal)
        return {a: p for a in legal}


class FirstActionPolicy(Policy):
    """Always the lowest-numbered legal action (OpenSpiel's ``FirstActionPolicy``)."""

    def action_probabilities(self, state: State) -> dict[int, float]:
        legal = state.legal_actions()
        return {a: (1.0 if i == 0 else 0.0) for i, a in enumerate(legal)}


class SeatPolicy(Policy):
    """Player 0 plays ``first``, player 1 plays ``second`` (for exact match values)."""

    def __init__(self, first: Policy, second: Policy) -> None:
        self.first = first
        self.second = second

    def action_probabilities(self, state: State) -> dict[int, float]:
        pol = self.first if state.current_player() == 0 else self.second
        return pol.action_probabilities(state)
