"""Ranges along a hand: both players' beliefs by Bayes through a model of their play.

A searching agent needs, at each of its decisions, the ranges of both players as the
public history has shaped them: every combo's weight is its prior (1, card removal from
the board) times the probability, under the model, of every action the player took.
The model is an agent that can say how it plays every hand at once
(:func:`pokerlab.policy.range_query.all_hands_probabilities`: the blueprint, ``pushfold``,
the rule agents).

* :class:`HoldemBeliefs`: HUNL, 1326 weights per player, updated incrementally as a view's
  events grow (a new hand, or a history that is not an extension, starts over).  A real
  action the model never offers (an off-tree raise size) is read as the model's nearest
  raise in log scale; an action the model gives zero probability with every hand leaves
  the range as it was (the model was wrong; the range stays usable).
* :class:`SmallGameBeliefs`: the same for the small protocol games (Kuhn, Leduc, ...):
  the opponent's private card as a distribution, through a tabular policy, from the
  viewer's information: its own card and the public actions.

Both are tested against brute-force reach probabilities (tests/test_beliefs.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pokerlab.cards.cards import COMBO_MASKS, NUM_COMBOS, cards_mask
from pokerlab.holdem.events import BoardDealt, CheckedOrCalled, Folded, RaisedTo, event_to_action
from pokerlab.holdem.view import PlayerView, make_view


def blocked_by_board(board: Sequence[int]) -> np.ndarray:
    """Per combo (1326): it shares a card with ``board``."""
    return (COMBO_MASKS & np.uint64(cards_mask(board))) != 0


def action_column(actions: Sequence[Any], action: Any) -> int:
    """Index of ``action`` in ``actions`` (real HUNL actions); a raise the list lacks is
    its nearest raise there (log scale of the amount); -1 when nothing fits."""
    from pokerlab.holdem.actions import ActionKind

    for k, a in enumerate(actions):
        if a == action:
            return k
    if action.kind == ActionKind.RAISE:
        best, dist = -1, math.inf
        for k, a in enumerate(actions):
            if a.kind == ActionKind.RAISE:
                d = abs(math.log(max(a.amount, 1)) - math.log(max(action.amount, 1)))
                if d < dist:
                    best, dist = k, d
        return best
    return -1


def public_events(events: Sequence[Any]) -> tuple[Any, ...]:
    """The public part of a hand's events (hole cards left out): one key for a state
    whoever holds which cards."""
    from pokerlab.holdem.events import HoleDealt

    return tuple(e for e in events if not isinstance(e, HoleDealt))


class HoldemBeliefs:
    """Both players' ranges (2 x 1326) along one HUNL hand through ``model``'s strategy."""

    def __init__(self, model: Any, *,
                 query: Callable[..., tuple[list[Any], np.ndarray]] | None = None,
                 opponent_model: Any = None) -> None:
        """``opponent_model``: when given, the actions of the player other than the view's
        are read through it (an opponent model), the view's own player's through ``model``."""
        if query is None:
            from pokerlab.policy.range_query import all_hands_probabilities

            query = all_hands_probabilities
        self.model = model
        self.opponent_model = opponent_model
        self.query: Callable[..., tuple[list[Any], np.ndarray]] = query
        self.reset()

    def reset(self) -> None:
        """A new hand: the ranges start over and the recorded strategies are forgotten."""
        self._replay_from_start()
        self.own: dict[tuple[Any, ...], tuple[list[Any], np.ndarray]] = {}

    def _replay_from_start(self) -> None:
        self.events: tuple[Any, ...] = ()
        self.ranges = np.ones((2, NUM_COMBOS))
        self.state: Any = None
        self.updates = 0

    def record(self, view: PlayerView, actions: Sequence[Any], probs: np.ndarray) -> None:
        """How the view's own player plays every combo at ``view`` (``actions``, real; and
        ``probs``, (1326, actions)): a searching agent's solved strategy, whether it acted
        there or only answered a range query.  Its range then follows that strategy's
        column of the action it is later seen to take, not the model's.  Kept by the
        public state (a query at another line of the hand does not forget it); forgotten
        with the hand (:meth:`reset`)."""
        p = np.asarray(probs, dtype=np.float64)
        if p.shape != (NUM_COMBOS, len(actions)):
            raise ValueError(f"a recorded strategy needs ({NUM_COMBOS}, {len(actions)}) "
                             f"probabilities, got {p.shape}")
        self.own[public_events(view.events)] = (list(actions), p)

    def recorded(self, events: Sequence[Any], action: Any) -> np.ndarray | None:
        """The recorded probability, per combo, of ``action`` at the state after
        ``events`` (:meth:`record`); ``None`` when nothing was recorded there or the
        action is not one of its actions."""
        got = self.own.get(public_events(events))
        if got is None:
            return None
        k = action_column(got[0], action)
        return None if k < 0 else got[1][:, k]

    def _start(self, view: PlayerView) -> None:
        self._replay_from_start()
        st = (view.state_type if view.state_type is not None else _holdem_state())(config=view.config)
        st.deal_hole(None)
        st.deal_hole(None)
        self.state = st

    def update(self, view: PlayerView) -> np.ndarray:
        """The ranges at ``view`` (a copy): events not seen yet are applied in order."""
        ev = tuple(view.events)
        if self.state is None or ev[:len(self.events)] != self.events:
            self._start(view)
        st = self.state
        for i in range(len(self.events), len(ev)):
            e = ev[i]
            if isinstance(e, BoardDealt):
                st.deal_board(list(e.cards))
                self.ranges[:, blocked_by_board(st.board)] = 0.0
            elif isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
                q = int(st.actor)
                act = event_to_action(e)
                lik = self.recorded(ev[:i], act) if q == view.player else None
                if lik is not None:
                    new = self.ranges[q] * lik
                    if new.sum() > 1e-12 * max(self.ranges[q].sum(), 1e-300):
                        self.ranges[q] = new
                        self.updates += 1
                    st.apply(act)
                    continue
                live = self.ranges[q] > 0
                who = self.model if self.opponent_model is None or q == view.player \
                    else self.opponent_model
                acts, probs = self.query(who, with_some_hole(make_view(st, q)), live)
                k = action_column(acts, act)
                if k >= 0:
                    new = self.ranges[q] * probs[:, k]
                    if new.sum() > 1e-12 * max(self.ranges[q].sum(), 1e-300):
                        self.ranges[q] = new
                        self.updates += 1
                st.apply(act)
        self.events = ev
        return self.ranges.copy()


def with_some_hole(view: PlayerView) -> PlayerView:
    """The view with two cards the board does not hold as its hole cards (the model's
    range query replaces them hand by hand; the betting does not depend on them)."""
    import dataclasses

    from pokerlab.holdem.events import HoleDealt

    free = [c for c in range(52) if c not in view.board][:2]
    hole = (free[0], free[1])
    ev = tuple(HoleDealt(e.player, hole) if isinstance(e, HoleDealt) and e.player == view.player else e
               for e in view.events)
    return dataclasses.replace(view, hole=hole, events=ev)


def _holdem_state() -> Any:
    from pokerlab.holdem.engine import HoldemState

    return HoldemState


class SmallGameBeliefs:
    """The opponent's private card given the viewer's card and the public actions, in a
    small protocol game, through a tabular ``policy`` of the opponent (information state
    string -> action probabilities, as :class:`~pokerlab.policy.tabular.TabularPolicy`).

    ``hypotheses(state, viewer)`` lists every deal consistent with the viewer's
    information as (chance probability, state) pairs at the same public history; the
    generic default replays the game from its root over every chance outcome and keeps
    those whose viewer information state matches."""

    def __init__(self, game: Any, policy: Any) -> None:
        self.game = game
        self.policy = policy

    def _probs(self, state: Any) -> dict[int, float]:
        legal = state.legal_actions()
        pol = self.policy
        if hasattr(pol, "policy_for_key"):
            row = pol.policy_for_key(state.information_state_string(state.current_player()))
        elif callable(pol):
            row = pol(state)
        else:
            row = pol.action_probabilities(state)
        out = {a: float(row.get(a, 0.0)) for a in legal}
        tot = sum(out.values())
        return {a: (v / tot if tot > 0 else 1.0 / len(legal)) for a, v in out.items()}

    def belief(self, history: Sequence[int], viewer: int) -> dict[str, float]:
        """Posterior over the opponent's information (its private part) given the viewer's
        information after ``history`` (the full action list from the root, chance
        included; the viewer knows its own card and the public actions only).  Keys are
        the opponent's information state strings' private part as the game writes them:
        the opponent's information state string at the final history."""
        target = self._replay(history)
        mine = target.information_state_string(viewer)
        opp = 1 - viewer
        post: dict[str, float] = {}
        for prob, st in self._consistent(self.game.new_initial_state(), [], history, viewer, mine):
            key = _private_key(st, opp)
            post[key] = post.get(key, 0.0) + prob
        z = sum(post.values())
        return {k: v / z for k, v in post.items()} if z > 0 else post

    def _replay(self, history: Sequence[int]) -> Any:
        st = self.game.new_initial_state()
        for a in history:
            st.apply_action(a)
        return st

    def _consistent(self, st: Any, done: list[int], history: Sequence[int], viewer: int,
                    mine: str) -> list[tuple[float, Any]]:
        """Every state at ``len(history)`` steps whose viewer information equals ``mine``,
        with its probability (chance times the opponent's policy; the viewer's own actions
        are given)."""
        out: list[tuple[float, Any]] = []
        stack: list[tuple[Any, int, float]] = [(st, 0, 1.0)]
        while stack:
            s, depth, p = stack.pop()
            if depth == len(history):
                if s.information_state_string(viewer) == mine:
                    out.append((p, s))
                continue
            if s.is_terminal():
                continue
            real = history[depth]
            if s.is_chance_node():
                for a, q in s.chance_outcomes():
                    stack.append((s.child(a), depth + 1, p * q))
            elif s.current_player() == viewer:
                if real in s.legal_actions():
                    stack.append((s.child(real), depth + 1, p))
            else:
                probs = self._probs(s)
                q = probs.get(real, 0.0)
                if q > 0:
                    stack.append((s.child(real), depth + 1, p * q))
        return out


def _private_key(state: Any, player: int) -> str:
    """The private part of ``player``'s information: what its information state string
    says before any public action (the game's own rendering of its private card)."""
    fn = getattr(state, "private_string", None)
    if fn is not None:
        return str(fn(player))
    return str(state.information_state_string(player))
