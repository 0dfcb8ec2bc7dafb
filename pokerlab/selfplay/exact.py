"""Exact outcome probabilities of a policy against a uniformly random opponent.

Everything is computed by recursion over the game tree with :class:`fractions.Fraction`
arithmetic, memoised on the position key (valid because the policies here depend on the
position only). This gives the tic-tac-toe anchors exactly: a perfect player breaking ties
uniformly among minimax-optimal moves wins 96.78% as x and 77.75% as o; one that, among
never-losing moves, maximises its chance to win wins 99.48% as x and 91.64% as o.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import Game, State
from pokerlab.selfplay.minimax import MinimaxSolver, check_two_player

Policy = Callable[[State], Mapping[int, Fraction]]
"""A position-only policy: action -> probability (summing to 1) at the player's turns."""


@dataclass(frozen=True, kw_only=True)
class OutcomeProbs:
    """Win/draw/loss probabilities from one player's point of view."""

    win: Fraction
    draw: Fraction
    loss: Fraction

    def as_floats(self) -> dict[str, float]:
        return {"win": float(self.win), "draw": float(self.draw), "loss": float(self.loss)}


_Triple = tuple[Fraction, Fraction, Fraction]
_ZERO = Fraction(0)
_ONE = Fraction(1)


def _terminal_triple(state: State, player: int) -> _Triple:
    r = state.returns()[player]
    if r > 0:
        return (_ONE, _ZERO, _ZERO)
    if r < 0:
        return (_ZERO, _ZERO, _ONE)
    return (_ZERO, _ONE, _ZERO)


def _mix(parts: list[tuple[Fraction, _Triple]]) -> _Triple:
    w = sum((p * t[0] for p, t in parts), _ZERO)
    d = sum((p * t[1] for p, t in parts), _ZERO)
    lo = sum((p * t[2] for p, t in parts), _ZERO)
    return (w, d, lo)


def _check_player(game: Game, player: int) -> None:
    check_two_player(game)
    if player not in (0, 1):
        raise ConfigError(f"player {player!r} is not 0 or 1")


_V = TypeVar("_V")


def _memoised(value: Callable[[State, Callable[[State], _V]], _V]) -> Callable[[State], _V]:
    """``rec(state)`` = ``value(state, rec)``, memoised by ``public_state_string()``."""
    memo: dict[str, _V] = {}

    def rec(s: State) -> _V:
        key = s.public_state_string()
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = value(s, rec)
        return hit

    return rec


def _against_random(game: Game, player: int,
                    own: Callable[[State, Callable[[State], _Triple]], _Triple]) -> OutcomeProbs:
    """The exact outcome of ``player`` against a uniformly random opponent (chance at its
    probabilities); ``own(state, value)`` is the (win, draw, loss) triple at the player's
    own decisions, ``value`` the triple of any state (memoised by public state)."""
    def value(s: State, rec: Callable[[State], _Triple]) -> _Triple:
        if s.is_terminal():
            return _terminal_triple(s, player)
        if s.is_chance_node():
            return _mix([(Fraction(p), rec(s.child(a))) for a, p in s.chance_outcomes()])
        if s.current_player() == player:
            return own(s, rec)
        acts = s.legal_actions()
        q = Fraction(1, len(acts))
        return _mix([(q, rec(s.child(a))) for a in acts])

    w, d, lo = _memoised(value)(game.new_initial_state())
    return OutcomeProbs(win=w, draw=d, loss=lo)


def exact_vs_random(game: Game, policy: Policy, *, player: int) -> OutcomeProbs:
    """Exact outcome of ``policy`` playing as ``player`` against a uniformly random opponent."""
    _check_player(game, player)

    def own(s: State, rec: Callable[[State], _Triple]) -> _Triple:
        dist = policy(s)
        total = sum(dist.values(), _ZERO)
        if total != 1:
            raise ConfigError(f"policy probabilities at {s.public_state_string()!r} sum to "
                              f"{total}, not 1")
        return _mix([(Fraction(p), rec(s.child(a))) for a, p in dist.items() if p])

    return _against_random(game, player, own)


def uniform_optimal_policy(solver: MinimaxSolver) -> Policy:
    """Uniform over the minimax-optimal actions."""

    def policy(s: State) -> dict[int, Fraction]:
        acts = solver.optimal_actions(s)
        return {a: Fraction(1, len(acts)) for a in acts}

    return policy


def deterministic_policy(choose: Callable[[State], int]) -> Policy:
    """Wrap a deterministic chooser (e.g. a greedy value agent) as a :data:`Policy`."""

    def policy(s: State) -> dict[int, Fraction]:
        return {int(choose(s)): _ONE}

    return policy


def max_win_vs_random(solver: MinimaxSolver, *, player: int) -> OutcomeProbs:
    """Exact outcome of the best never-losing player against a uniformly random opponent.

    At its turns the player keeps to never-losing actions (minimax value >= 0 for it; in a
    lost position, the minimax-optimal ones) and among those picks the ones that maximise
    its exact win probability against the random opponent, breaking exact ties uniformly.
    """
    game = solver.game
    _check_player(game, player)

    def own(s: State, rec: Callable[[State], _Triple]) -> _Triple:
        av = solver.action_values(s)
        best = max(av.values())
        floor = min(best, 0.0)
        safe = [a for a, v in av.items() if v >= floor - 1e-9]
        triples = {a: rec(s.child(a)) for a in safe}
        top = max(t[0] for t in triples.values())
        chosen = [t for t in triples.values() if t[0] == top]
        q = Fraction(1, len(chosen))
        return _mix([(q, t) for t in chosen])

    return _against_random(game, player, own)


def worst_case_return(game: Game, choose: Callable[[State], int], *, player: int) -> float:
    """The lowest return ``player`` can get with deterministic ``choose`` against ANY opponent.

    ``>= 0`` means the policy never loses, whoever the opponent is (chance nodes, if any,
    are taken at their worst too).
    """
    _check_player(game, player)
    def value(s: State, rec: Callable[[State], float]) -> float:
        if s.is_terminal():
            return float(s.returns()[player])
        if s.current_player() == player:
            return rec(s.child(choose(s)))
        acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        return min(rec(s.child(a)) for a in acts)

    return _memoised(value)(game.new_initial_state())
