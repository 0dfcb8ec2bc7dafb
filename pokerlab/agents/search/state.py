"""What a search agent keeps between its solves: the figures a match reports
(:class:`SearchStats`), the solves of the current hand (:class:`Solve`, by
:func:`public_key`), the timing constants, and the :class:`Searcher` protocol the solving
modules read the agent through."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from pokerlab.holdem.view import PlayerView

RATE_S_PER_BYTE = 2e-9
"""Seconds of one DCFR iteration per byte of the solver's estimated memory, one thread
(measured on this 2-core machine with the float32 kernel, the other core busy: 1.3e-9 to
2.2e-9 over river and turn spots of 0.1 to 18 MB; the float64 kernel before it took 3.4e-9
to 4.2e-9); each agent refines it from its own solves."""

LOCKED_ITERATIONS = 50
"""Iterations after which a solve with locked opponent decisions or a gadget (safe) stops
within its budget (its exploitability is no measure of convergence: the best response
ignores the locks, the gadget changes the game); unlocked river solves reach 0.5% of the
pot in 50-100."""

LIMITED_ITERATIONS = 100
"""The same for a depth-limited solve, safe or not (its leaves are estimates, refreshed as
it goes; capped at 50 with a gadget, LBR setting (2) won +186 +- 168 mbb/hand over the
blueprint against the turn searcher, at 100 +72 +- 171, at 300 +144 +- 176:
docs/evaluation.md)."""

REFRESH_EVERY = 8
"""A depth-limited solve evaluates its leaves exactly before iterations 1, 2, 4, 8 and then
every this many (while its budget allows); in between a leaf's values per unit of opponent
reach are held (:class:`~pokerlab.agents.leaves.ModicumLeaves`)."""

MIN_ITERATIONS = 25
"""A subgame is solved only when at least this many iterations fit the budget."""

BUILD_SHARE = 0.85
"""Share of the remaining budget planned for iterations (the rest builds the solver)."""

LEAF_COST = {0: (0.03, 0.035), 1: (0.006, 0.007)}
"""Starting estimates, per leaf of a depth-limited flop (0) or turn (1) spot, of the seconds
to build its continuation (the base policy's tree, buckets of 32 flop runouts or every
river) and to evaluate it once for both players (8 flop runouts or 12 rivers a refresh;
benchmarks/bench_continuation.py on this machine, 0.025 s for all 48 rivers); refined by
each search."""

PRUNE = 1e-3
"""Combos whose weight is below this share of the range's largest are dropped from a
subgame (unsafe ranges); the searcher's own hand is always kept."""

WIDEN = 0.01
"""Where the two ranges of a solve admit no deal, every combo the board allows keeps this
share of the opponent's largest weight (:func:`~pokerlab.agents.search.solve.dealable`)."""

MIN_DEAL_SHARE = 1e-9
"""Two ranges deal only if the weight of their pairs of hands without a common card is at
least this share of the product of their masses: below it the solver's normaliser (a sum
of per-card differences) can round to zero, and the spot is widened instead
(:func:`~pokerlab.agents.search.solve.dealable`)."""


@dataclass
class Solve:
    """A solve of this hand: what later decisions nest in."""

    solver: Any
    searcher: int
    street: int
    n_events: int  # view events at the solve's root
    stack: int  # chips behind at the start of the solve's street (effective)
    key: tuple[Any, ...] = ()  # the public state at the root (public_key)


BUDGET_REASON = "no subgame fits the budget"
"""The fallback reason when no subgame fitted the time left."""

ERROR_PREFIX = "fallback_error: "
"""A counter of fallbacks on one error is keyed by this and the error's one line (the
counters stay numbers, so a match sums them over its chunks like the rest)."""


@dataclass
class SearchStats:
    think_ms: list[float] = field(default_factory=list)
    searches: int = 0
    fallbacks: int = 0
    nested: int = 0
    safe_solves: int = 0
    iterations: int = 0
    coarser: int = 0
    blueprint_gadgets: int = 0
    locked_nodes: int = 0
    model_refits: int = 0
    depth_limited: int = 0
    street_solves: int = 0
    widened: int = 0
    """Solves whose ranges admitted no deal until widened (:func:`~pokerlab.agents.search.solve.dealable`)."""
    warm_leaves: int = 0
    """River leaves of nested re-solves that started from the street solve's rivers
    (:meth:`~pokerlab.agents.river_leaves.RiverStepLeaves.warm_from`)."""
    reasons: dict[str, int] = field(default_factory=dict)
    searches_by_street: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Decision searches by street (0 preflop .. 3 river)."""
    think_by_street: list[list[float]] = field(default_factory=lambda: [[], [], [], []])
    """The think times of ``think_ms`` by the street of the decision."""

    fallbacks_by_street: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Decisions (and range queries) that fell back to the base policy, by street."""

    def fallback(self, street: int, error: str = "") -> None:
        """One fall back to the base policy on ``street``: ``error`` is the search's one-line
        error, empty when no subgame fitted the budget."""
        self.fallbacks += 1
        self.fallbacks_by_street[street] += 1
        key = error or BUDGET_REASON
        self.reasons[key] = self.reasons.get(key, 0) + 1

    def think(self, street: int, ms: float) -> None:
        """One decision's think time (milliseconds) on ``street``."""
        self.think_ms.append(ms)
        self.think_by_street[street].append(ms)


def public_key(view: PlayerView, n_events: int | None = None) -> tuple[Any, ...]:
    """The searcher and the public events of ``view`` (its first ``n_events`` events)."""
    from pokerlab.agents.beliefs import public_events

    return (view.player, public_events(view.events if n_events is None else view.events[:n_events]))


class Searcher(Protocol):
    """The search agent as the solving modules see it."""

    config: Any
    base: Any
    opponent: Any
    beliefs: Any
    stats: SearchStats
    rng: Any
    tree: Any
    ladder: tuple[Any, ...]
    rate: float
    leaf_cost: dict[int, tuple[float, float]]
    leaf_trees: Any
    prev: Solve | None
    solves: dict[tuple[Any, ...], Solve]

    def solve_at(self, view: PlayerView, deadline: float, mine: int | None, *,
                 root_actor: int | None = None, nest: bool = True) -> tuple[Any, int] | None: ...
