"""Counting the abstract betting tree of a bet set (no cards): :func:`tree_size`.

A memoised walk over the engine's betting states with the actions of
:class:`~pokerlab.abstraction.action_map.ActionMap`: decision nodes and actions per
street, fold and showdown terminals, information sets for given bucket counts (imperfect
recall: the current bucket; perfect recall: every street's bucket) and the memory of
regret + average-strategy tables.  The compiled ``ActionTree`` reproduces these counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.abstraction.action_map import CALL, FOLD, ActionMap
from pokerlab.abstraction.bets import BetSet
from pokerlab.errors import ConfigError
from pokerlab.holdem.engine import HoldemConfig, HoldemState, Phase


# ------------------------------------------------------------------ tree size
@dataclass(kw_only=True)
class TreeSize:
    """Size of the abstract betting tree (public nodes, no cards)."""

    decision_nodes: list[int]
    actions: list[int]
    terminal_folds: int
    terminal_showdowns: int
    infosets: int
    infosets_perfect_recall: int
    values: int
    buckets: tuple[int, ...]
    bytes_per_value: int

    @property
    def memory_bytes(self) -> int:
        """Regrets plus average-strategy sums: two values per (infoset, action)."""
        return 2 * self.values * self.bytes_per_value

    def to_json(self) -> dict[str, Any]:
        names = ("preflop", "flop", "turn", "river")
        return {
            "sequences": {names[s]: self.decision_nodes[s] for s in range(4)},
            "actions": {names[s]: self.actions[s] for s in range(4)},
            "decision_nodes": sum(self.decision_nodes),
            "terminal_folds": self.terminal_folds,
            "terminal_showdowns": self.terminal_showdowns,
            "buckets": list(self.buckets),
            "infosets": self.infosets,
            "infosets_perfect_recall": self.infosets_perfect_recall,
            "values_per_table": self.values,
            "bytes_per_value": self.bytes_per_value,
            "memory_bytes": self.memory_bytes,
        }


def _key(st: HoldemState) -> tuple[Any, ...]:
    return (st.street, st.phase, st.actor, tuple(st.bets), tuple(st.stacks), st.last_raise,
            st.num_raises, tuple(st.pending), bool(st.showdown_order), st.collected)


def tree_size(bets: BetSet, holdem: HoldemConfig | None = None, *,
              buckets: tuple[int, ...] = (169, 200, 200, 200),
              bytes_per_value: int = 4, max_nodes: int = 3_000_000) -> TreeSize:
    """Count the abstract betting tree of ``bets`` (memoised over identical betting states).

    Information sets: a decision node on street ``s`` holds ``buckets[s]`` of them with
    imperfect recall (the current bucket only) and ``prod(buckets[:s+1])`` with perfect
    recall.  ``values`` counts (infoset, action) pairs with imperfect recall.
    """
    if len(buckets) != 4 or any(b < 1 for b in buckets):
        raise ConfigError(f"buckets needs 4 positive counts, got {buckets!r}")
    cfg = holdem or HoldemConfig()
    pr = [int(np.prod(buckets[: s + 1], dtype=object)) for s in range(4)]
    memo: dict[tuple[Any, ...], tuple[int, ...]] = {}
    amap = ActionMap(bets)
    # result vector: nodes[4], actions[4], folds, showdowns, infosets, infosets_pr, values
    zero = (0,) * 13

    def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(x + y for x, y in zip(a, b, strict=True))

    def rec(st: HoldemState) -> tuple[int, ...]:
        while st.phase == Phase.DEAL_BOARD:
            st.deal_board(None)
        if st.phase == Phase.TERMINAL:
            r = [0] * 13
            if st.folded >= 0:
                r[8] = 1
            else:
                r[9] = 1
            return tuple(r)
        k = _key(st)
        hit = memo.get(k)
        if hit is not None:
            return hit
        if len(memo) > max_nodes:
            raise ConfigError(f"betting tree has more than {max_nodes} distinct states; "
                              "use a raise cap or fewer sizes")
        acts = amap.abstract_actions(st)
        s = st.street
        r = [0] * 13
        r[s] = 1
        r[4 + s] = len(acts)
        r[10] = buckets[s]
        r[11] = pr[s]
        r[12] = buckets[s] * len(acts)
        tot = tuple(r)
        opts = dict(amap.raise_options(st))
        for a in acts:
            c = st.clone()
            if a == FOLD:
                c.fold()
            elif a == CALL:
                c.check_or_call()
            else:
                c.raise_to(opts[a])
            tot = add(tot, rec(c))
        memo[k] = tot
        return tot

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        root = HoldemState(config=cfg)
        root.deal_hole(None)
        root.deal_hole(None)
        res = rec(root) if root.phase != Phase.TERMINAL else zero
    finally:
        sys.setrecursionlimit(old)
    return TreeSize(decision_nodes=list(res[0:4]), actions=list(res[4:8]),
                    terminal_folds=res[8], terminal_showdowns=res[9], infosets=res[10],
                    infosets_perfect_recall=res[11], values=res[12],
                    buckets=tuple(buckets), bytes_per_value=bytes_per_value)
