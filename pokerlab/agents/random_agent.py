"""The ``random`` agent: seeded random play (its SplitMix64 stream is :mod:`pokerlab.rng`'s).

(Moved here from ``pokerlab.holdem.agents``.)

The random agent favours all-ins, min-raises and (with unequal or short stacks) short
all-ins.  Its choice is made with integer weights and a SplitMix64 stream, exactly as the
kernel :func:`pokerlab.holdem.engine_kernels.choose_action` does, so a Python playout and
a kernel playout with the same seed take the same actions (the parity tests check it).

Weights ``(fold, check/call, min-raise, all-in, uniform raise)``; options that are not
legal get weight 0.  A "min-raise" when the minimum is all-in is an all-in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.holdem.actions import Action, ActionKind, HoldemConfig, LegalActions
from pokerlab.holdem.deal import deal_cards
from pokerlab.holdem.engine import HoldemState
from pokerlab.holdem.hand_loop import HandHooks
from pokerlab.holdem.hand_loop import play_hand as play_agents
from pokerlab.holdem.view import AgentBase, PlayerView
from pokerlab.rng import SplitMix64

OPT_FOLD, OPT_CALL, OPT_MIN, OPT_ALLIN, OPT_UNIFORM = range(5)

DEFAULT_WEIGHTS = (10, 40, 20, 15, 15)
"""Random agent of the CLI/tests: favours min-raises and all-ins."""
SHOWDOWN_WEIGHTS = (0, 60, 15, 5, 20)
"""Never folds: every hand goes to the showdown (the benchmark's playouts)."""


def check_weights(weights: Sequence[int]) -> tuple[int, int, int, int, int]:
    w = tuple(int(x) for x in weights)
    if len(w) != 5 or min(w) < 0 or w[OPT_CALL] <= 0:
        raise ConfigError(
            f"agent weights must be 5 non-negative integers (fold, call, min, all-in, "
            f"uniform) with call > 0, got {list(weights)!r}")
    return w  # type: ignore[return-value]


def choose(legal: LegalActions, rng: SplitMix64, weights: Sequence[int]) -> Action:
    """One random action from ``legal`` (the twin of the kernel's ``choose_action``)."""
    w = [weights[0] if legal.can_fold else 0, weights[1], 0, 0, 0]
    if legal.can_raise:
        w[2], w[3], w[4] = weights[2], weights[3], weights[4]
    total = sum(w)
    r = rng.below(total)
    k = 0
    while r >= w[k]:
        r -= w[k]
        k += 1
    if k == OPT_FOLD:
        return Action(kind=ActionKind.FOLD)
    if k == OPT_CALL:
        return Action(kind=ActionKind.CHECK_CALL)
    if k == OPT_MIN:
        return Action(kind=ActionKind.RAISE, amount=legal.min_raise_to)
    if k == OPT_ALLIN:
        return Action(kind=ActionKind.RAISE, amount=legal.max_raise_to)
    span = legal.max_raise_to - legal.min_raise_to + 1
    return Action(kind=ActionKind.RAISE, amount=legal.min_raise_to + rng.below(span))


def play_hand(state: HoldemState, rng: SplitMix64, weights: Sequence[int],
              cards: Sequence[int] | None = None, *,
              hooks: HandHooks | None = None) -> HoldemState:
    """Play the fresh ``state`` to the end with two random agents sharing ``rng``, on the
    one hand loop (:func:`pokerlab.holdem.hand_loop.play_hand`); cards from the RNG unless
    given.

    Cards are drawn first (hole p0, hole p1, flop, turn, river), then the actions, both
    seats from the same stream: exactly the draws of the kernel
    :func:`pokerlab.holdem.engine_kernels.random_playouts`.  ``hooks`` watch the hand
    (the PokerKit oracle's comparison)."""
    seats = (RandomAgent(weights, rng=rng), RandomAgent(weights, rng=rng))
    cs = list(cards) if cards is not None else deal_cards(rng)
    return play_agents(seats, state.config, cs, hooks=hooks, learn=False, state=state)


@dataclass(frozen=True, kw_only=True)
class RandomAgentConfig:
    """Saved with self-play files: who played the hands."""

    weights: tuple[int, int, int, int, int] = DEFAULT_WEIGHTS
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "weights", check_weights(self.weights))


def weights_array(weights: Sequence[int]) -> np.ndarray:
    return np.asarray(check_weights(weights), dtype=np.int64)


def python_playouts(config: HoldemConfig, n: int, seed: int,
                    weights: Sequence[int] = DEFAULT_WEIGHTS) -> np.ndarray:
    """Plain-Python twin of :func:`pokerlab.holdem.engine_kernels.random_playouts`:
    ``n`` hands from one SplitMix64 stream; returns the payoffs, shape ``(n, 2)``."""
    rng = SplitMix64(seed)
    out = np.zeros((n, 2), dtype=np.int64)
    for i in range(n):
        st = play_hand(HoldemState(config=config), rng, weights)
        out[i] = st.payoffs()
    return out


def kernel_playouts(config: HoldemConfig, n: int, seed: int,
                    weights: Sequence[int] = DEFAULT_WEIGHTS) -> tuple[np.ndarray, int]:
    """``n`` random hands in the numba kernel; returns (payoffs ``(n, 2)``, #actions)."""
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.holdem.engine_kernels import random_playouts

    if seed < 0:
        raise ConfigError(f"seed must be >= 0, got {seed}")
    pay = np.zeros((n, 2), dtype=np.int64)
    c = config
    nact = random_playouts(eval_tables(), n, seed, weights_array(weights), c.stacks[0],
                           c.stacks[1], c.small_blind, c.big_blind, c.ante, pay)
    return pay, int(nact)


class RandomAgent(AgentBase):
    """The ``random`` agent spec: :func:`choose` with ``weights`` from a SplitMix64 stream
    (fold only when facing a bet): its own, seeded by ``seed`` and by :meth:`reset`, or the
    ``rng`` it is given (random self-play: both seats and the cards share one stream).

    Its move depends on the legal actions alone, so the hand loop asks :meth:`act_legal`
    and builds it no view (a :class:`pokerlab.holdem.hand_loop.LegalActor`)."""

    hand_independent = True
    """Its play never looks at its cards (LBR evaluates all hands at once)."""

    def __init__(self, weights: Sequence[int] = DEFAULT_WEIGHTS, *, name: str = "random",
                 seed: int = 0, rng: SplitMix64 | None = None) -> None:
        self.weights = check_weights(weights)
        self.name = name
        self.rng = rng if rng is not None else SplitMix64(seed)

    def reset(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def act(self, view: PlayerView) -> Action:
        return choose(view.legal(), self.rng, self.weights)

    def act_legal(self, legal: LegalActions) -> Action:
        """:meth:`act` from the legal actions alone (the same draw)."""
        return choose(legal, self.rng, self.weights)

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]:
        """Fold / call / min-raise / all-in exactly; the uniform-raise weight is spread
        over every legal raise-to amount (merged with min and all-in where equal)."""
        lg = view.legal()
        w = [self.weights[0] if lg.can_fold else 0, self.weights[1], 0, 0, 0]
        if lg.can_raise:
            w[2], w[3], w[4] = self.weights[2], self.weights[3], self.weights[4]
        total = float(sum(w))
        probs: dict[Action, float] = {}

        def add(a: Action, p: float) -> None:
            if p > 0:
                probs[a] = probs.get(a, 0.0) + p

        add(Action(kind=ActionKind.FOLD), w[0] / total)
        add(Action(kind=ActionKind.CHECK_CALL), w[1] / total)
        if lg.can_raise:
            add(Action(kind=ActionKind.RAISE, amount=lg.min_raise_to), w[2] / total)
            add(Action(kind=ActionKind.RAISE, amount=lg.max_raise_to), w[3] / total)
            span = lg.max_raise_to - lg.min_raise_to + 1
            for x in range(lg.min_raise_to, lg.max_raise_to + 1):
                add(Action(kind=ActionKind.RAISE, amount=x), w[4] / total / span)
        return list(probs.items())

    def compact_distribution(self, view: PlayerView
                             ) -> tuple[list[tuple[Action, float]], np.ndarray, np.ndarray]:
        """:meth:`action_probabilities` compactly: (non-raise ``(action, p)`` pairs, raise-to
        amounts, their probabilities) -- min-raise, all-in, then every legal amount with
        its share of the uniform-raise weight (what
        :func:`pokerlab.policy.range_query.compact_distribution` reads)."""
        lg = view.legal()
        w = self.weights
        ws = [w[0] if lg.can_fold else 0, w[1], 0, 0, 0]
        if lg.can_raise:
            ws[2], ws[3], ws[4] = w[2], w[3], w[4]
        total = float(sum(ws))
        pairs = [(Action(kind=ActionKind.FOLD), ws[0] / total),
                 (Action(kind=ActionKind.CHECK_CALL), ws[1] / total)]
        pairs = [(a, q) for a, q in pairs if q > 0]
        if not lg.can_raise:
            return pairs, np.zeros(0, dtype=np.int64), np.zeros(0)
        lo, hi = lg.min_raise_to, lg.max_raise_to
        amounts = np.concatenate([[lo, hi], np.arange(lo, hi + 1)]).astype(np.int64)
        span = hi - lo + 1
        probs = np.concatenate([[ws[2] / total, ws[3] / total],
                                np.full(span, ws[4] / total / span)])
        return pairs, amounts, probs
