"""Turn leaves valued by solving the river (``search(depth=1,leaves=river)``; issue 49's leaf
values "when both players play the river well").

A depth-limited turn subgame (:class:`~pokerlab.subgame.solver.SpotSolver` with
``depth_limited=True``) needs, at every end of the turn with chips behind, both players'
values of the river.  Modicum's leaves (:mod:`pokerlab.agents.leaves`) let the searcher play
the blueprint there and the opponent choose among biased versions of it: the searcher's
river is worth what the blueprint makes of it, the opponent's at least that, and a turn
solve on those values reads a lead as strong and folds to it (docs/evaluation.md, "LBR's
winnings by line").  Here the river is **solved**, as DeepStack's value networks and
Burch, Johanson & Bowling's CFR-D (AAAI 2014) value a subgame's leaves: whenever the leaf
values are refreshed, each leaf's river subgame is solved over the two ranges that reach the
leaf, and the equilibrium's counterfactual values are the leaf's values until the next
refresh (per unit of compatible opponent reach in between, as
:class:`~pokerlab.agents.leaves.ModicumLeaves` keeps them).

What makes it cheap (milliseconds per leaf and refresh):

* **Hand-strength classes.** On a river board the combos of equal strength form a class
  (30-90 of them); the river subgame is solved over the classes, each player's
  weights summed per class, so the showdown is one sweep over the classes and a CFR iteration
  costs nodes x classes (:mod:`pokerlab.agents.river_leaf_kernels`).  What this leaves out is
  card removal between the two hands inside the river solve (blockers); a hand's value is its
  class's value per unit of the other's weight times the weight it can really meet (no card
  in common, the river card removed).
* **Round-robin rivers** as the Modicum leaves do: each refresh solves ``per_refresh`` of the
  48 river cards (an unbiased estimate of the average over the river), cycling through a
  seeded order, so four refreshes cover every card.  (Keeping each river's latest values and
  averaging all 48 was worse on the same 10 spots: root error 6.0% of the pot against 1.5%,
  the early refreshes' values going stale.)
* **The average strategies' ranges.**  The river is solved over the reaches of the turn
  solve's *average* strategies at the leaf (the CFR updates' reaches summed with DCFR's
  weights, which is the sequence-form average), not the current iteration's: those jump
  from one iteration to the next, and values solved for one snapshot stand for eight
  iterations.  On 10 held-out turn spots (benchmarks/leaf_values.py) the current
  iteration's reaches left the solve's root value 9.5% of the pot from the whole tree's, the
  average's 1.5%.
* A fixed number of DCFR iterations per river (:data:`RIVER_ITERATIONS`) from scratch.

The river's betting is the spot's river sizes (``river_bets``, ``raises``, ``raise_cap`` of
the search), from the real pot and stacks at the leaf.

:class:`RiverStepLeaves` keeps the same class games over **every** river from one turn
iteration to the next and iterates them in step with the turn solve.  Refreshing
:class:`RiverLeaves` on the schedule above leaves each hand's value 8-11% of the pot from the
whole tree's on the tests' spots, and only solving every river at every iteration brings it
near the classes' own error (benchmarks/river_leaf_schedules.py); iterating in step gets there
at a small part of that cost (benchmarks/leaf_values.py: 3.5% per hand on the agent's spots).
The searcher (``search(depth=1,leaves=river)``) uses :class:`RiverStepLeaves` with
:data:`SEARCH_RIVERS` rivers a turn iteration (``runouts``), a nested re-solve's rivers
starting from its street solve's (:meth:`RiverStepLeaves.warm_from`); :class:`RiverLeaves`
stays for the benchmarks' comparisons.

A player whose reach at a leaf is 0 (its strategy never goes there) keeps its values there,
against the other's weight: a CFR walk needs them for the regrets of the actions that lead
there (before 2026-12-07 both leaf models gave it 0, and a turn solve whose player stopped
checking back once never checked back again: docs/search.md, "River leaves").
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerlab.agents.leaves import compatible_mass
from pokerlab.agents.river_leaf_kernels import GAMMA, solve_classes, step_rivers
from pokerlab.cards.cards import COMBO_INDEX, COMBOS, NUM_COMBOS
from pokerlab.errors import AgentError
from pokerlab.rng import shuffled

RIVER_ITERATIONS = 40
"""DCFR iterations of each river subgame per refresh."""

RIVERS = 48
"""The river cards below a turn board."""

AVERAGE_POWER = GAMMA
"""The weight ``t ** AVERAGE_POWER`` of iteration ``t``'s reaches in the average (DCFR's
gamma, as the solver's average strategy)."""

PER_REFRESH = 12
"""River cards solved per refresh of a leaf when none are asked for (``runouts=0``)."""


class RiverCards:
    """The 48 river cards of a turn board and, per card, every combo's strength class
    (``cls[r, c]``: 0 the weakest live class; -1 a combo blocked by the board) and the number
    of classes."""

    def __init__(self, board: Sequence[int]) -> None:
        from pokerlab.cards.evaluator import eval_tables
        from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
        from pokerlab.cards.range_kernels import combos64

        b = tuple(int(c) for c in board)
        if len(b) != 4 or len(set(b)) != 4 or not all(0 <= c < 52 for c in b):
            raise AgentError("river leaves are below a turn: the board needs 4 distinct cards, "
                             f"got {list(board)!r}")
        self.board = b
        self.rivers = np.array([c for c in range(52) if c not in b], dtype=np.int64)
        self.cls = np.full((RIVERS, NUM_COMBOS), -1, dtype=np.int32)
        self.count = np.zeros(RIVERS, dtype=np.int64)
        tables = eval_tables()
        combos = combos64()
        st = np.zeros(NUM_COMBOS, dtype=np.int32)
        for r, card in enumerate(self.rivers):
            combos_on_board_kernel(tables, combos, np.array((*b, int(card)), dtype=np.int64), 5, st)
            live = st > 0
            uniq, inv = np.unique(st[live], return_inverse=True)
            self.cls[r, live] = inv
            self.count[r] = uniq.shape[0]
        riv = self.rivers[:, None]
        self.has_card = (COMBOS[None, :, 0] == riv) | (COMBOS[None, :, 1] == riv)
        """``(48, 1326)``: whether a combo holds the river card."""


_CARDS: OrderedDict[tuple[int, ...], RiverCards] = OrderedDict()
CARDS_KEPT = 8
"""Turn boards whose :class:`RiverCards` are kept (a hand's searches share its board)."""


def river_cards(board: Sequence[int]) -> RiverCards:
    """:class:`RiverCards` of a turn board (the last :data:`CARDS_KEPT` boards kept)."""
    key = tuple(int(c) for c in board)
    hit = _CARDS.get(key)
    if hit is not None:
        _CARDS.move_to_end(key)
        return hit
    rc = RiverCards(key)
    _CARDS[key] = rc
    while len(_CARDS) > CARDS_KEPT:
        _CARDS.popitem(last=False)
    return rc


@dataclasses.dataclass(frozen=True)
class RiverTree:
    """One leaf's river betting as the kernel's flat arrays; ``pot``: chips in the middle at
    the leaf; ``stack``: the effective stack behind."""

    pot: int
    stack: int
    kind: np.ndarray
    player: np.ndarray
    c0: np.ndarray
    c1: np.ndarray
    child_start: np.ndarray
    num_children: np.ndarray
    children: np.ndarray

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])


def river_tree(spot: Any, pot: int, stack: int) -> RiverTree:
    """The river betting tree of ``spot``'s tree config (its river sizes) from a leaf with
    ``pot`` in the middle and ``stack`` behind."""
    from pokerlab.subgame.spot import Root
    from pokerlab.subgame.tree import build_betting_tree

    if pot <= 0 or stack <= 0:
        raise AgentError(f"a river leaf needs chips in the pot and behind, got pot {pot}, stack {stack}")
    board = tuple(spot.board[:4]) + (next(c for c in range(52) if c not in spot.board),)
    rspot = dataclasses.replace(spot, board=board, pot=int(pot), stack=int(stack), root=Root())
    tr = build_betting_tree(rspot)
    order = np.arange(tr.num_nodes)
    if np.any(tr.parent[1:] >= order[1:]):  # pragma: no cover - the builder adds parents first
        raise AgentError("river tree: a child before its parent")
    return RiverTree(pot=int(pot), stack=int(stack), kind=np.ascontiguousarray(tr.kind, dtype=np.int64),
                     player=np.ascontiguousarray(tr.player, dtype=np.int64),
                     c0=np.ascontiguousarray(tr.contrib[:, 0], dtype=np.float64),
                     c1=np.ascontiguousarray(tr.contrib[:, 1], dtype=np.float64),
                     child_start=np.ascontiguousarray(tr.child_start, dtype=np.int64),
                     num_children=np.ascontiguousarray(tr.num_children, dtype=np.int64),
                     children=np.ascontiguousarray(tr.children, dtype=np.int64))


def river_cfv(tree: RiverTree, cards: RiverCards, r: int, reach: tuple[np.ndarray, np.ndarray], *,
              iterations: int = RIVER_ITERATIONS) -> tuple[np.ndarray, np.ndarray]:
    """Both players' values over the 1326 combos when the river is ``cards.rivers[r]``: the
    river solved over the classes; a hand's value is its class's value per unit of the
    other's weight times the weight it can meet (no common card, the river card removed);
    zero for the combos the river card blocks."""
    cls = cards.cls[r]
    live = cls >= 0
    C = int(cards.count[r])
    idx = cls[live]
    rc = [np.bincount(idx, weights=reach[p][live], minlength=C) for p in (0, 1)]
    tot = [float(rc[0].sum()), float(rc[1].sum())]
    out = (np.zeros(NUM_COMBOS), np.zeros(NUM_COMBOS))
    if tot[0] <= 0.0 and tot[1] <= 0.0:
        return out
    o0 = np.zeros(C)
    o1 = np.zeros(C)
    solve_classes(tree.kind, tree.player, tree.c0, tree.c1, tree.child_start, tree.num_children,
                  tree.children, float(tree.pot), rc[0], rc[1], int(iterations), o0, o1)
    for p, o in ((0, o0), (1, o1)):
        # a player whose reach is 0 here still has values (against the other's weight); the
        # other's are 0
        if tot[1 - p] <= 0.0:
            continue
        unit = o / tot[1 - p]
        opp = np.where(cards.has_card[r], 0.0, reach[1 - p])
        mass = compatible_mass(opp)
        out[p][live] = unit[idx] * mass[live]
    return out


def river_values(tree: RiverTree, cards: RiverCards, sel: np.ndarray, reach: tuple[np.ndarray, np.ndarray],
                 *, iterations: int = RIVER_ITERATIONS) -> tuple[np.ndarray, np.ndarray]:
    """Both players' leaf values over the 1326 combos (the units of
    :meth:`~pokerlab.subgame.solver.SpotSolver.set_leaf_model`) from the river cards ``sel``
    (indices into ``cards.rivers``), each weighing ``48 / (len(sel) x 44)`` (each hand pair
    meets 44 rivers): :func:`river_cfv` summed."""
    w = RIVERS / (len(sel) * (RIVERS - 4))
    out = (np.zeros(NUM_COMBOS), np.zeros(NUM_COMBOS))
    for r in sel:
        v = river_cfv(tree, cards, int(r), reach, iterations=iterations)
        out[0][:] += w * v[0]
        out[1][:] += w * v[1]
    return out


class RiverLeaves:
    """The leaf model (``SpotSolver.set_leaf_model``) of a depth-limited turn subgame whose
    leaves are valued by solving the river (module docstring).  ``trees[i]``: leaf ``i``'s
    river betting; ``cards``: the turn board's rivers."""

    def __init__(self, trees: Sequence[RiverTree], cards: RiverCards, *, per_refresh: int = 0,
                 seed: int = 0, iterations: int = RIVER_ITERATIONS) -> None:
        if not trees:
            raise AgentError("a depth-limited subgame needs at least one leaf")
        if isinstance(per_refresh, bool) or not isinstance(per_refresh, int) or per_refresh < 0:
            raise AgentError(f"per_refresh must be an integer >= 0 (0: {PER_REFRESH} rivers), "
                             f"got {per_refresh!r}")
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise AgentError(f"iterations must be an integer >= 1, got {iterations!r}")
        self.trees = list(trees)
        self.cards = cards
        self.iterations = iterations
        self.per_refresh = min(per_refresh or PER_REFRESH, RIVERS)
        self.order = np.array(shuffled(RIVERS, seed), dtype=np.int64)
        self.refreshes = 0
        self.sel = np.arange(RIVERS)
        self.unit: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(self.trees)
        n = len(self.trees)
        self.reach_sum = np.zeros((n, 2, NUM_COMBOS))
        """Per leaf, both players' reaches there summed over the CFR iterations with DCFR's
        weights (``t ** AVERAGE_POWER``): the reach of the average strategies."""
        self.seen = np.zeros(n, dtype=np.int64)
        self.evaluations = 0
        self.calls = 0

    def refresh(self) -> None:
        """The next call for each leaf solves its river again, over the next ``per_refresh``
        river cards of the seeded order (cycling)."""
        self.unit = [None] * len(self.trees)
        start = self.refreshes * self.per_refresh
        self.sel = np.sort(self.order[(start + np.arange(self.per_refresh)) % RIVERS])
        self.refreshes += 1

    def leaf_values(self, leaf: int, player: int, mode: str, opp_reach: np.ndarray,
                    own_reach: np.ndarray) -> np.ndarray:
        """See :meth:`~pokerlab.subgame.solver.SpotSolver.set_leaf_model` (the same values
        in every mode).  The river is solved over the reaches of the **average** strategies
        (the CFR updates' reaches summed with DCFR's weights: the sequence-form average), not
        the current iteration's, which jump from one iteration to the next: between refreshes
        the values stand for the average's river, which moves slowly."""
        self.calls += 1
        reach = (own_reach, opp_reach) if player == 0 else (opp_reach, own_reach)
        if mode == "cfr" and player == 0:
            self.seen[leaf] += 1
            w = float(self.seen[leaf]) ** AVERAGE_POWER
            self.reach_sum[leaf, 0] += w * reach[0]
            self.reach_sum[leaf, 1] += w * reach[1]
        mass = compatible_mass(opp_reach)
        unit = self.unit[leaf]
        if unit is None:
            avg = (self.reach_sum[leaf, 0], self.reach_sum[leaf, 1]) if self.seen[leaf] else reach
            v0, v1 = river_values(self.trees[leaf], self.cards, self.sel, avg, iterations=self.iterations)
            self.evaluations += 1
            m0 = compatible_mass(avg[1])
            m1 = compatible_mass(avg[0])
            unit = (np.divide(v0, m0, out=np.zeros_like(v0), where=m0 > 0),
                    np.divide(v1, m1, out=np.zeros_like(v1), where=m1 > 0))
            self.unit[leaf] = unit
        return np.asarray(unit[player] * mass)


STEP_ITERATIONS = 1
"""Class-game iterations of every river per CFR iteration of the turn (:class:`RiverStepLeaves`)."""

STEP_RIVERS = RIVERS
"""Rivers of a leaf iterated per CFR iteration of the turn (:class:`RiverStepLeaves`;
fewer: a round robin over a seeded order, the values an unbiased estimate over the rivers)."""

SEARCH_RIVERS = 16
"""Rivers per turn iteration in the searcher (``search(depth=1,leaves=river)``, ``runouts=0``):
a third of the cost of every river per iteration, so about three times the iterations in its
1-second budget, for noisier values per iteration (benchmarks/step_leaf_budget.py measures
the trade)."""

GADGET_WARM = 10
"""Iterations of every river of a leaf in the first search's gadget (the blueprint's reaches):
as many river iterations as :class:`RiverLeaves`' 12 rivers of 40."""


class RiverStepLeaves:
    """Turn leaves whose rivers are **iterated in step with the turn solve** (issue 49, leaf
    values): every river of every leaf keeps its class game's regrets and strategy sums, and
    each CFR iteration of the turn (the first player's walk, which meets each leaf once)
    runs ``iterations`` more iterations of ``rivers`` of them (all 48 by default; fewer, a
    divisor of 48: the next ones of a seeded round robin, weighted ``48 / rivers``, as
    chance-sampled CFR, each river's iterations numbered by its own rounds) on the reaches
    the walk brings.  The values of those iterations' updates value the leaf, for
    the first player's walk and, kept, for the second's (the second player's river values
    under the first's strategies of that walk: half an iteration behind, as simultaneous
    updates).  The best-response and value walks read the rivers' average strategies over
    every river.  So the turn and its class-abstracted rivers are solved as one game by CFR,
    with the river re-solved for the trunk's current strategies as in CFR-D (Burch, Johanson
    & Bowling 2014) but a step at a time (benchmarks/river_leaf_schedules.py: solving every
    river at every iteration from scratch is what brings the per-hand error down).  A leaf
    first asked outside a CFR walk (the first search's gadget, its strategies locked to the
    blueprint) solves every river with ``warm`` iterations on those reaches first.
    ``active``: the combos of the two ranges (values are computed for these only).
    ``refresh`` does nothing (the solve loop calls it on Modicum's schedule)."""

    def __init__(self, trees: Sequence[RiverTree], cards: RiverCards, *, iterations: int = STEP_ITERATIONS,
                 rivers: int = STEP_RIVERS, seed: int = 0, active: np.ndarray | None = None,
                 warm: int = RIVER_ITERATIONS) -> None:
        if not trees:
            raise AgentError("a depth-limited subgame needs at least one leaf")
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise AgentError(f"iterations must be an integer >= 1, got {iterations!r}")
        if isinstance(warm, bool) or not isinstance(warm, int) or warm < 1:
            raise AgentError(f"warm-up iterations must be an integer >= 1, got {warm!r}")
        if isinstance(rivers, bool) or not isinstance(rivers, int) or rivers < 1 or RIVERS % rivers:
            raise AgentError(f"rivers per step must divide {RIVERS} (1, 2, 3, 4, 6, 8, 12, 16, 24 or 48), "
                             f"got {rivers!r}")
        self.trees = list(trees)
        self.cards = cards
        self.iterations = iterations
        self.rivers = rivers
        self.warm = warm
        self.order = np.array(shuffled(RIVERS, seed), dtype=np.int64)
        self.every = np.arange(RIVERS, dtype=np.int64)
        per = int(cards.count.sum())
        self.offs = [np.ascontiguousarray(
            np.concatenate(([0], np.cumsum(int(tr.children.shape[0]) * cards.count)[:-1])), dtype=np.int64)
            for tr in self.trees]
        self.regret = [np.zeros(int(tr.children.shape[0]) * per) for tr in self.trees]
        self.ssum = [np.zeros(int(tr.children.shape[0]) * per) for tr in self.trees]
        self.t = np.zeros(len(self.trees), dtype=np.int64)
        self.steps = np.zeros(len(self.trees), dtype=np.int64)
        self.kept: list[np.ndarray | None] = [None] * len(self.trees)
        cmax = int(cards.count.max())
        emax = max(int(tr.children.shape[0]) for tr in self.trees)
        nmax = max(tr.num_nodes for tr in self.trees)
        self.work = (np.zeros(emax * cmax), np.zeros(cmax), np.zeros((2, nmax, cmax)),
                     np.zeros((nmax, cmax)), np.zeros((2, cmax)))
        self.combos = np.ascontiguousarray(COMBOS, dtype=np.int64)
        self.combo_index = np.ascontiguousarray(COMBO_INDEX, dtype=np.int64)
        act = np.arange(NUM_COMBOS) if active is None else np.flatnonzero(np.asarray(active, dtype=bool))
        self.active = np.ascontiguousarray(act, dtype=np.int64)
        self.evaluations = 0
        self.calls = 0

    def refresh(self) -> None:
        """Nothing: every CFR walk of the first player iterates the rivers."""

    def selected(self, leaf: int) -> np.ndarray:
        """The rivers of ``leaf``'s next step: every one, or the next ``rivers`` of the
        round robin (sorted)."""
        if self.rivers >= RIVERS:
            return self.every
        start = int(self.steps[leaf]) * self.rivers
        return np.sort(self.order[(start + np.arange(self.rivers)) % RIVERS])

    def step(self, leaf: int, reach: tuple[np.ndarray, np.ndarray], iterations: int, average: bool,
             sel: np.ndarray | None = None, best: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``iterations`` more class-game iterations of the rivers ``sel`` (default every
        one) of ``leaf`` on ``reach``, numbered from ``t[leaf]`` (the caller counts), then
        both players' values over the 1326 combos under the current (``average``: average)
        strategies (``best``: each player's best response to the other's average)."""
        tr = self.trees[leaf]
        c = self.cards
        rs = self.every if sel is None else sel
        out = (np.zeros(NUM_COMBOS), np.zeros(NUM_COMBOS))
        step_rivers(tr.kind, tr.player, tr.c0, tr.c1, tr.child_start, tr.num_children, tr.children,
                    float(tr.pot), c.cls, c.count, self.offs[leaf], self.combos, self.combo_index, c.rivers,
                    rs, self.active, RIVERS / (len(rs) * (RIVERS - 4)),
                    np.ascontiguousarray(reach[0], dtype=np.float64),
                    np.ascontiguousarray(reach[1], dtype=np.float64), int(self.t[leaf]), int(iterations),
                    self.regret[leaf], self.ssum[leaf], bool(average or best), bool(best), out[0], out[1],
                    *self.work)
        return out

    def warm_from(self, source: RiverStepLeaves, pairs: Sequence[tuple[int, int]]) -> int:
        """Start leaf ``i`` where ``source``'s leaf ``j`` is, for each ``(i, j)`` of ``pairs``
        whose river betting is the same (pot, stack and tree) on the same turn board: its
        rivers' regrets, strategy sums and counts (a nested re-solve's rivers continue the
        street solve's instead of starting from uniform strategies).  The leaves warmed."""
        n = 0
        if source.cards.board != self.cards.board:
            return 0
        for i, j in pairs:
            a, b = self.trees[i], source.trees[j]
            if (a.pot, a.stack) != (b.pot, b.stack) or not np.array_equal(a.kind, b.kind) or \
                    not np.array_equal(a.children, b.children):
                continue
            self.regret[i][:] = source.regret[j]
            self.ssum[i][:] = source.ssum[j]
            # every river has had about t[j] iterations: a new round robin starts from there
            self.t[i] = max(int(source.t[j]), 1)
            self.steps[i] = 0
            n += 1
        return n

    def leaf_values(self, leaf: int, player: int, mode: str, opp_reach: np.ndarray,
                    own_reach: np.ndarray) -> np.ndarray:
        """See :meth:`~pokerlab.subgame.solver.SpotSolver.set_leaf_model`: in the first
        player's CFR walk the rivers take their next iterations on the walk's reaches and
        the values after them value the leaf (the second player's kept for its walk); in a
        value walk, the average strategies over every river; in a best-response walk, the
        player's best response on every river to the other's average (so a gadget's values
        are the opponent's best response to the whole solve, as the whole tree's are)."""
        self.calls += 1
        reach = (own_reach, opp_reach) if player == 0 else (opp_reach, own_reach)
        if mode == "cfr":
            if player == 1 and self.kept[leaf] is not None:
                v = self.kept[leaf]
                self.kept[leaf] = None
                return np.asarray(v)
            if player == 1:
                return self.step(leaf, reach, 0, average=False)[1]
            self.evaluations += 1
            out = self.step(leaf, reach, self.iterations, average=False, sel=self.selected(leaf))
            self.steps[leaf] += 1
            if self.steps[leaf] % (RIVERS // self.rivers) == 0:  # a round of the round robin done
                self.t[leaf] += self.iterations
            self.kept[leaf] = out[1]
            return out[0]
        n = self.warm if self.steps[leaf] == 0 and self.t[leaf] == 0 else 0
        out = self.step(leaf, reach, n, average=True, best=mode == "br")
        self.t[leaf] += n
        return out[player]


def leaf_trees(solver: Any, spot: Any) -> list[RiverTree]:
    """The river betting of every leaf of ``solver``'s depth-limited turn tree (``spot``: its
    subgame): each leaf's pot and stack behind from the chips both players have put in since
    the spot began (equal at a leaf: the street closed with a call or checks)."""
    if len(spot.board) != 4:
        raise AgentError("river leaves value the leaves of a turn subgame; this one is on the "
                         f"{['flop', 'turn', 'river'][len(spot.board) - 3]}")
    trees = []
    for li in range(len(solver.leaf_nodes)):
        c0, c1 = solver.leaf_contrib(li)
        if c0 != c1:  # pragma: no cover - a street closes with equal bets
            raise AgentError(f"leaf {li}: unequal chips at the end of the street ({c0}, {c1})")
        trees.append(river_tree(spot, int(spot.pot) + c0 + c1, int(spot.stack) - c0))
    return trees


def build_river_leaves(solver: Any, spot: Any, *, runouts: int = 0, seed: int = 0,
                       iterations: int = RIVER_ITERATIONS) -> RiverLeaves:
    """A :class:`RiverLeaves` for every leaf of ``solver``'s depth-limited turn tree."""
    return RiverLeaves(leaf_trees(solver, spot), river_cards(spot.board), per_refresh=runouts, seed=seed,
                       iterations=iterations)


def build_step_leaves(solver: Any, spot: Any, *, iterations: int = STEP_ITERATIONS, rivers: int = STEP_RIVERS,
                      seed: int = 0, warm: int = RIVER_ITERATIONS) -> RiverStepLeaves:
    """A :class:`RiverStepLeaves` for every leaf of ``solver``'s depth-limited turn tree
    (values for the combos of the spot's two ranges)."""
    active = (np.asarray(spot.ranges[0]) > 0) | (np.asarray(spot.ranges[1]) > 0)
    return RiverStepLeaves(leaf_trees(solver, spot), river_cards(spot.board), iterations=iterations,
                           rivers=rivers, seed=seed, active=active, warm=warm)
