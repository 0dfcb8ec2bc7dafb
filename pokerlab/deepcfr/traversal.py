"""External-sampling MCCFR traversals that feed the Deep CFR memories.

Pure Python on the :mod:`pokerlab.games.protocol` interface; the strategy at each
information set comes from a callable so that the same code runs with the advantage
networks (training), with fixed strategies (the unbiasedness test) and in Ray workers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.rng import sample_positive
from pokerlab.solvers.regret import legal_strategy

# (cards, bets, strategy over all distinct actions, legal mask) of the player to act.
InfoStrategy = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
StrategyFn = Callable[[Any, int], InfoStrategy]


def regret_matching(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Regret matching on predicted advantages, restricted to legal actions; when no legal
    action has a positive value the highest-valued legal action gets probability 1 (as in
    the paper).  The one implementation: :func:`pokerlab.solvers.regret.legal_strategy`."""
    return legal_strategy(values, mask)


def regret_matching_batch(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Row-wise :func:`regret_matching` for arrays ``(n, num_actions)``."""
    return legal_strategy(values, mask)


@dataclass
class SampleLists:
    """Samples produced by traversals, in production order."""

    adv_cards: list[np.ndarray] = field(default_factory=list)
    adv_bets: list[np.ndarray] = field(default_factory=list)
    adv_target: list[np.ndarray] = field(default_factory=list)
    adv_mask: list[np.ndarray] = field(default_factory=list)
    strat_cards: list[np.ndarray] = field(default_factory=list)
    strat_bets: list[np.ndarray] = field(default_factory=list)
    strat_target: list[np.ndarray] = field(default_factory=list)
    strat_mask: list[np.ndarray] = field(default_factory=list)
    nodes: int = 0

    def to_arrays(self, num_slots: int, num_bets: int, num_actions: int) -> dict[str, np.ndarray]:
        def stack(xs: list[np.ndarray], shape: tuple[int, ...], dtype: Any) -> np.ndarray:
            return np.stack(xs).astype(dtype) if xs else np.zeros((0, *shape), dtype=dtype)

        return {
            "adv_cards": stack(self.adv_cards, (num_slots,), np.int16),
            "adv_bets": stack(self.adv_bets, (num_bets,), np.float32),
            "adv_target": stack(self.adv_target, (num_actions,), np.float32),
            "adv_mask": stack(self.adv_mask, (num_actions,), np.bool_),
            "strat_cards": stack(self.strat_cards, (num_slots,), np.int16),
            "strat_bets": stack(self.strat_bets, (num_bets,), np.float32),
            "strat_target": stack(self.strat_target, (num_actions,), np.float32),
            "strat_mask": stack(self.strat_mask, (num_actions,), np.bool_),
            "nodes": np.array([self.nodes], dtype=np.int64),
        }


def _sample_index(probs: np.ndarray | list[float], rng: np.random.Generator) -> int:
    return sample_positive(probs, rng.random())


def traverse(
    state: Any, traverser: int, strategy_fn: StrategyFn, rng: np.random.Generator,
    out: SampleLists, *, record_strategy: bool = True,
) -> float:
    """One external-sampling traversal below ``state``; returns the traverser's sampled
    value and appends the traverser's sampled instantaneous regrets and the opponents'
    strategies to ``out``."""
    out.nodes += 1
    if state.is_terminal():
        return float(state.returns()[traverser])
    if state.is_chance_node():
        fast = getattr(state, "sample_chance_outcome", None)
        if fast is not None:  # games with many equally likely outcomes (Flop Hold'em)
            action = int(fast(rng))
        else:
            outcomes = state.chance_outcomes()
            action = outcomes[_sample_index([p for _, p in outcomes], rng)][0]
        return traverse(state.child(action), traverser, strategy_fn, rng, out,
                        record_strategy=record_strategy)
    cur = state.current_player()
    cards, bets, strategy, mask = strategy_fn(state, cur)
    legal = state.legal_actions()
    if cur == traverser:
        values = np.zeros(len(strategy), dtype=np.float64)
        for a in legal:
            values[a] = traverse(state.child(a), traverser, strategy_fn, rng, out,
                                 record_strategy=record_strategy)
        ev = float(np.dot(strategy.astype(np.float64), values))
        regrets = np.where(mask, values - ev, 0.0)
        out.adv_cards.append(cards)
        out.adv_bets.append(bets)
        out.adv_target.append(regrets.astype(np.float32))
        out.adv_mask.append(mask)
        return ev
    if record_strategy:
        out.strat_cards.append(cards)
        out.strat_bets.append(bets)
        out.strat_target.append(strategy)
        out.strat_mask.append(mask)
    a = _sample_index(strategy, rng)
    return traverse(state.child(a), traverser, strategy_fn, rng, out,
                    record_strategy=record_strategy)


def traversal_rng(seed: int, iteration: int, player: int, k: int) -> np.random.Generator:
    """The random stream of traversal ``k`` of ``player`` at ``iteration``: it depends on
    nothing else, so local and distributed runs sample the same trajectories."""
    return np.random.default_rng([int(seed), int(iteration), int(player), int(k)])
