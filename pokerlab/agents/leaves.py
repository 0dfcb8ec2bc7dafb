"""The leaves of a depth-limited subgame (Modicum: Brown, Sandholm & Amos 2018, *Depth-limited
solving for imperfect-information games*).

A searching agent that solves only to the end of the current street
(``SpotSolver(..., depth_limited=True)``) needs a value at each leaf (the street's end with
chips behind).  Modicum's answer: the searcher plays its blueprint for the rest of the
hand, and the opponent may **choose**, per hand, among k continuation strategies: the
blueprint and versions of it biased toward folding, calling and raising
(:class:`~pokerlab.agents.continuation.Continuation` evaluates all of them over the
1326 combos, for sampled runouts).  The choice is a decision of the opponent's at the leaf,
solved by the same CFR as the rest of the subgame: :class:`ModicumLeaves` keeps, per leaf
and opponent hand, regrets over the k variants (regret matching+), so the searcher's
strategy becomes robust to whichever continuation suits each opponent hand best.

:func:`build_leaves` makes one :class:`~pokerlab.agents.continuation.Continuation` per leaf
of a solver's depth-limited tree, following the leaf's subgame actions as real actions
from the search's root view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerlab.errors import AgentError
from pokerlab.rng import shuffled


class ModicumLeaves:
    """The leaf model of a depth-limited :class:`~pokerlab.subgame.solver.SpotSolver`
    (``set_leaf_model``): ``conts[i]`` is leaf ``i``'s continuation, ``chooser`` the
    opponent of the searcher.

    **Lazy values.**  A continuation's values are linear in the other player's reach, and
    one evaluation walks the blueprint's rest of the hand for every runout (milliseconds
    per leaf).  So the exact values are computed only when :meth:`refresh` asks (the
    searching agent does before iterations 1, 2, 4, 8 and every 8 after while its budget allows), and
    kept as values *per unit of compatible opponent reach*; in between, each hand's value
    is that per-unit value times its compatible opponent reach now.  What goes stale is
    only how each hand fares against the *shape* of the opponent's range at the leaf,
    which the regret-matched strategies move slowly."""

    def __init__(self, conts: Sequence[Any], chooser: int, *, per_refresh: int = 0, seed: int = 0) -> None:
        if not conts:
            raise AgentError("a depth-limited subgame needs at least one leaf")
        self.conts = list(conts)
        self.chooser = int(chooser)
        self.k = int(self.conts[0].k)
        n = len(self.conts)
        self.regret = np.zeros((n, self.k, 1326))
        self.avg = np.zeros((n, self.k, 1326))
        self.unit_chooser: list[np.ndarray | None] = [None] * n
        self.unit_searcher: list[np.ndarray | None] = [None] * n
        self.evaluations = 0
        self.calls = 0
        pool = {len(c.runouts) for c in self.conts}
        if len(pool) != 1:
            raise AgentError("the leaves of one subgame must share their runouts")
        self.pool = pool.pop()
        if isinstance(per_refresh, bool) or not isinstance(per_refresh, int) or per_refresh < 0:
            raise AgentError(f"per_refresh must be an integer >= 0 (0: every runout), got {per_refresh!r}")
        self.per_refresh = per_refresh if per_refresh < self.pool else 0
        self.order = np.array(shuffled(self.pool, seed), dtype=np.int64)
        self.refreshes = 0
        self.sel: np.ndarray | None = None
        """The runouts the current values come from (``None``: all of them)."""

    def refresh(self) -> None:
        """The next call for each leaf and player evaluates the continuation exactly: over
        every runout, or (``per_refresh``) over the next ``per_refresh`` of a seeded
        permutation of them, cycling, so that successive refreshes cover every runout
        equally often (round-robin chance sampling: each refresh an unbiased estimate)."""
        self.unit_chooser = [None] * len(self.conts)
        self.unit_searcher = [None] * len(self.conts)
        if self.per_refresh:
            start = self.refreshes * self.per_refresh
            self.sel = np.sort(self.order[(start + np.arange(self.per_refresh)) % self.pool])
        self.refreshes += 1

    def _current(self, leaf: int) -> np.ndarray:
        r = self.regret[leaf]
        tot = r.sum(axis=0)
        return np.divide(r, tot, out=np.full_like(r, 1.0 / self.k), where=tot > 0)

    def choice(self, leaf: int) -> np.ndarray:
        """The opponent's average choice at ``leaf``: (k, 1326), uniform where unseen."""
        a = self.avg[leaf]
        tot = a.sum(axis=0)
        return np.divide(a, tot, out=np.full_like(a, 1.0 / self.k), where=tot > 0)

    def leaf_values(self, leaf: int, player: int, mode: str, opp_reach: np.ndarray,
                    own_reach: np.ndarray) -> np.ndarray:
        """See :meth:`~pokerlab.subgame.solver.SpotSolver.set_leaf_model`."""
        self.calls += 1
        cont = self.conts[leaf]
        mass = compatible_mass(opp_reach)
        inv = np.divide(1.0, mass, out=np.zeros_like(mass), where=mass > 0)
        if player == self.chooser:
            unit = self.unit_chooser[leaf]
            if unit is None:
                v_all = cont.chooser_values(opp_reach, sel=self.sel)  # (k, 1326), the searcher's reach
                self.unit_chooser[leaf] = v_all * inv[None, :]
                self.evaluations += 1
            else:
                v_all = unit * mass[None, :]
            if mode == "br":
                return np.asarray(v_all.max(axis=0))
            sigma = self._current(leaf) if mode == "cfr" else self.choice(leaf)
            v = (sigma * v_all).sum(axis=0)
            if mode == "cfr":
                self.regret[leaf] = np.maximum(self.regret[leaf] + v_all - v[None, :], 0.0)
                self.avg[leaf] += own_reach[None, :] * sigma
            return np.asarray(v)
        sigma = self._current(leaf) if mode == "cfr" else self.choice(leaf)
        unit_s = self.unit_searcher[leaf]
        if unit_s is None:
            vals = np.asarray(cont.other_values(sigma * opp_reach[None, :], sel=self.sel))
            self.unit_searcher[leaf] = vals * inv
            self.evaluations += 1
            return vals
        return np.asarray(unit_s * mass)


def compatible_mass(r: np.ndarray) -> np.ndarray:
    """For each combo, the weight of ``r`` (1326) on the combos it shares no card with."""
    from pokerlab.cards.cards import COMBOS

    per_card = np.bincount(COMBOS.T.ravel(), weights=np.concatenate((r, r)), minlength=52)
    return float(r.sum()) - per_card[COMBOS[:, 0]] - per_card[COMBOS[:, 1]] + r


def leaf_actions(view: Any, solver: Any, path: Sequence[str]) -> list[Any]:
    """The real actions of the subgame ``path`` (action names) from ``view``'s state."""
    from pokerlab.holdem.view import make_view
    from pokerlab.subgame.resolve import real_action

    st = view.replay_state()
    tr = solver.tree
    node = 0
    out = []
    for name in path:
        a = tr.action_names[node].index(name)
        act = real_action(make_view(st, int(st.actor)), name, tr.action_amounts[node][a])
        out.append(act)
        st.apply(act)
        node = tr.child(node, a)
    return out


TURN_RUNOUTS = 12
"""River cards evaluated per refresh of a turn leaf when none are asked for (``runouts=0``):
four refreshes cycle through all 48.  Measured against every river at every refresh on 20
held-out turn spots (benchmarks/leaf_values.py, docs/search.md): the same error against
whole-tree solves (root 2.01 against 2.15% of the pot, per hand 9.0 against 8.3%, paired
differences within their CIs) at a third of the CPU."""

EVERY_RIVER = 48
"""The river cards below a turn board: ``runouts=EVERY_RIVER`` evaluates a turn leaf over
all of them at every refresh (no sampling)."""

FLOP_RUNOUTS = 8
"""(turn, river) runouts evaluated per refresh of a flop leaf when none are asked for
(``runouts=0``)."""

FLOP_POOL = 4
"""A flop leaf's pool of sampled runouts holds this many refreshes' worth."""


def build_leaves(solver: Any, base: Any, view: Any, *, chooser: int, runouts: int, seed: int,
                 bias: float = 5.0, trees: Any = None) -> ModicumLeaves:
    """A :class:`ModicumLeaves` for every leaf of ``solver``'s depth-limited tree (rooted at
    ``view``): the base policy ``base`` continues; each refresh evaluates ``runouts``
    runouts per leaf (the same for every leaf), cycling through a pool in an order drawn
    with ``seed``: below a turn leaf the pool is every river card (``runouts=0``:
    :data:`TURN_RUNOUTS`; 48 or more: all of them at every refresh), below a flop leaf
    ``FLOP_POOL x runouts`` sampled (turn, river) pairs (``runouts=0``:
    :data:`FLOP_RUNOUTS`).  ``trees``: a
    :class:`~pokerlab.agents.continuation.LeafTrees` of ``base`` (leaf trees of earlier
    subgames with the same betting are reused)."""
    from pokerlab.agents.continuation import Continuation
    from pokerlab.agents.continuation_runouts import sample_runouts

    board = tuple(view.board)
    if len(board) == 4:
        per, outs = (runouts if runouts > 0 else TURN_RUNOUTS), sample_runouts(board, None, seed)
    else:
        per = runouts if runouts > 0 else FLOP_RUNOUTS
        outs = sample_runouts(board, FLOP_POOL * per, seed)
    conts = [Continuation(base, view, leaf_actions(view, solver, path), chooser=chooser,
                          runouts=outs, bias=bias, trees=trees) for path in solver.leaf_paths()]
    return ModicumLeaves(conts, chooser, per_refresh=per, seed=seed + 1)
