"""What a spot solve is configured with and what it costs: the algorithm and its
discounts, the storage (:class:`SolveConfig`), and the node count and memory of a spot
before anything is allocated (:func:`estimate_size`, :class:`TreeSize`), used by
:class:`~pokerlab.subgame.solver.SpotSolver` and the callers that plan a solve."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.checks import check_finite_at_least
from pokerlab.errors import ConfigError
from pokerlab.solvers.regret import discount_factor_py
from pokerlab.subgame.deal import count_slots
from pokerlab.subgame.spot import Spot
from pokerlab.subgame.tree import DECISION, BettingTree, count_betting_tree

ALGOS = ("dcfr", "rdcfr", "pdcfr+", "dcfr+", "cfr+", "lcfr", "cfr")

#: (alpha, beta, gamma) of each discounted schedule when not given: Discounted CFR's
#: (Brown & Sandholm 2019), DCFR+'s and PDCFR+'s (Xu et al. 2024: positive regrets
#: discounted by alpha, negative ones floored at zero, the average weighted by gamma)
ALGO_DEFAULTS: dict[str, tuple[float, float, float]] = {
    "dcfr": (1.5, 0.0, 2.0), "dcfr+": (1.5, 0.0, 4.0), "pdcfr+": (2.3, 0.0, 5.0)}

PRECISIONS: dict[str, Any] = {"single": np.float32, "double": np.float64}


@dataclass(frozen=True, kw_only=True)
class SolveConfig:
    """``algo``: ``dcfr`` (Discounted CFR, alpha 1.5, beta 0, gamma 2 by default), ``rdcfr``
    (Discounted CFR with the strategy average restarted at iterations 4^k, as postflop-solver
    schedules it: :meth:`discounts`), ``pdcfr+`` (Predictive Discounted CFR+, Xu et al.
    2024: regrets discounted by alpha 2.3 and floored at zero, the strategy matched on the
    regrets predicted one iteration on, the last instantaneous regrets repeated, the average
    weighted by gamma 5; one more table of regrets' size), ``dcfr+`` (the same without the
    prediction, alpha 1.5, gamma 4), ``cfr+``, ``lcfr`` (Linear CFR) or ``cfr`` (vanilla);
    ``alpha``, ``beta``, ``gamma``: the discounted schedules' exponents (``None``: the
    algorithm's, :data:`ALGO_DEFAULTS`; beta is unused by the floored ``+`` schedules);
    ``isomorphism``: solve one of each class of suit-isomorphic turn/river cards;
    ``compress``: store regrets and strategy sums in 16 bits (int16 / uint16 with one float32
    scale per node and board, as postflop-solver's compression) instead of float32: about
    half the memory; ``precision``: the reach and value vectors of the walk in ``single``
    (float32, as postflop-solver; the default) or ``double`` (float64) precision (sums over
    hands at terminals are float64 either way)."""

    algo: str = "dcfr"
    alpha: float = None  # type: ignore[assignment]  # None: ALGO_DEFAULTS (resolved here)
    beta: float = None  # type: ignore[assignment]
    gamma: float = None  # type: ignore[assignment]
    isomorphism: bool = True
    compress: bool = False
    precision: str = "single"

    def __post_init__(self) -> None:
        if self.algo not in ALGOS:
            raise ConfigError(f"unknown --algo {self.algo!r}: expected one of {', '.join(ALGOS)}")
        defaults = ALGO_DEFAULTS.get(self.algo, ALGO_DEFAULTS["dcfr"])
        for name, default in zip(("alpha", "beta", "gamma"), defaults, strict=True):
            if getattr(self, name) is None:
                object.__setattr__(self, name, default)
        check_finite_at_least(self, ("alpha", "beta", "gamma"), prefix="DCFR ")
        if self.precision not in PRECISIONS:
            raise ConfigError(f"unknown --precision {self.precision!r}: expected one of "
                              f"{', '.join(PRECISIONS)}")
        if self.predictive and self.compress:
            raise ConfigError("--algo pdcfr+ keeps its predicted regrets in float32: it does not "
                              "combine with --compress")

    @property
    def predictive(self) -> bool:
        """Whether the strategy is matched on predicted regrets (a table of its own)."""
        return self.algo == "pdcfr+"

    def prediction_discount(self, t: int) -> float:
        """The discount of the regrets of iterations 1..t in the prediction made at the end of
        iteration ``t`` for ``t + 1`` (PDCFR+: the next iteration's own discount)."""
        return discount_factor_py(t, self.alpha) if self.predictive else 0.0

    def discounts(self, t: int) -> tuple[float, float, float, bool]:
        """(positive-regret, negative-regret, strategy-sum) multipliers applied to the sums of
        iterations 1..t-1 at iteration ``t`` (1-based), and whether regrets are clipped."""
        if self.algo == "cfr":
            return 1.0, 1.0, 1.0, False
        prev = t - 1
        if self.algo == "rdcfr":
            # postflop-solver's schedule (0-based iteration ``prev``): positive regrets
            # discounted by (i-1)^1.5 / ((i-1)^1.5 + 1), negative ones halved, and the strategy
            # sums by (j / (j + 1))^3 with j the iterations since the last power of 4, so the
            # average restarts at iterations 1, 4, 16, 64, ... and forgets the early strategies
            ta = float(max(prev - 1, 0)) ** 1.5
            since = prev - (0 if prev == 0 else 1 << ((prev.bit_length() - 1) & ~1))
            return ta / (ta + 1.0), 0.5, (since / (since + 1.0)) ** 3, False
        if self.algo == "cfr+":
            return 1.0, 1.0, (prev / t), True
        if self.algo in ("dcfr+", "pdcfr+"):
            if prev == 0:
                return 0.0, 0.0, 0.0, True
            return discount_factor_py(prev, self.alpha), 1.0, (prev / t) ** self.gamma, True
        if self.algo == "lcfr":
            d = prev / t
            return d, d, d, False
        if prev == 0:
            return 0.0, 0.0, 0.0, False
        return (discount_factor_py(prev, self.alpha), discount_factor_py(prev, self.beta),
                (prev / t) ** self.gamma, False)

    def average_restart(self, start: int, t: int) -> int:
        """The iteration the strategy average of a solve that started after iteration
        ``start`` last restarted at, by iteration ``t``: ``start + 1`` (a solve's own first
        iteration, warm-started or not, begins an empty average) or the last iteration
        since whose strategy-sum multiplier is 0 (``rdcfr``: 2, 5, 17, 65, 257, ...)."""
        for i in range(t, start + 1, -1):
            if self.discounts(i)[2] == 0.0:
                return i
        return start + 1

    def to_json(self) -> dict[str, Any]:
        return {"algo": self.algo, "alpha": self.alpha, "beta": self.beta, "gamma": self.gamma,
                "isomorphism": self.isomorphism, "compress": self.compress, "precision": self.precision}


#: ``check_every="auto"``: the first exploitability check after this many iterations (and
#: the step when the last checks do not fall)
FIRST_CHECK = 20
#: an adaptive check aims this far past the predicted crossing (a check costs about 0.8 of
#: an iteration, an iteration too many one; aiming a little late saves a check)
CHECK_MARGIN = 1.02
#: the first check after the strategy average restarts comes this many iterations after it
AFTER_RESTART = 10


def next_check(checks: list[tuple[int, float]], target: float, start: int = 0,
               segment: int = 0, *, first: int = FIRST_CHECK, after: int = AFTER_RESTART,
               margin: float = CHECK_MARGIN) -> int:
    """The iteration of the next exploitability check of ``check_every="auto"``, after
    ``checks`` ((iteration, exploitability %) so far, of a solve that started at iteration
    ``start``), whose strategy average last restarted at iteration ``segment``
    (:meth:`SolveConfig.average_restart`): the first :data:`FIRST_CHECK` on; then where the
    power law through the last two checks since the restart (exploitability ~ c t^-k, as
    CFR variants converge; a restart breaks the curve: the average starts again and the
    exploitability jumps) reaches ``target``, times :data:`CHECK_MARGIN`, at least 2 and at
    most ``max(FIRST_CHECK, 2 x the last gap)`` iterations on, so that an early slope is
    measured again before a long jump; :data:`AFTER_RESTART` after the restart while fewer
    than two checks follow it (else :data:`FIRST_CHECK` on), and :data:`FIRST_CHECK` on
    when the last two checks do not fall.  ``first``, ``after`` and ``margin`` replace those
    constants (benchmarks/check_schedule.py compares them; ``segment=0, first=10`` is the
    rule before restarts were heeded)."""
    if not checks:
        return start + first
    i2, p2 = checks[-1]
    since = [c for c in checks if c[0] >= segment]
    if len(since) < 2:
        if i2 < segment + after:
            return max(i2 + 2, segment + after)
        return i2 + first
    i1, p1 = since[-2]
    gap = i2 - i1
    if not (p2 < p1 and p2 > 0 and target > 0 and math.isfinite(target) and i1 > 0):
        return i2 + first
    k = math.log(p1 / p2) / math.log(i2 / i1)
    want = i2 * (p2 / target) ** (1.0 / k) * margin
    return int(min(max(math.ceil(want), i2 + 2), i2 + max(first, 2 * gap)))


@dataclass(frozen=True)
class TreeSize:
    """What a spot costs before anything is allocated."""

    betting_nodes: int
    decision_nodes: int
    nodes: int  # every decision, chance and terminal node over every board (isomorphism applied)
    boards: tuple[int, int, int]
    memory_bytes: int

    def to_json(self) -> dict[str, Any]:
        return {"betting_nodes": self.betting_nodes, "decision_nodes": self.decision_nodes,
                "nodes": self.nodes, "boards": list(self.boards), "memory_bytes": self.memory_bytes}


def layout(tree: BettingTree, n_hands: tuple[int, int], slots: tuple[int, int, int]
            ) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    node_base = np.full(tree.num_nodes, -1, dtype=np.int64)
    entry_base = np.full(tree.num_nodes, -1, dtype=np.int64)
    total = 0
    entries = 0
    nodes = 0
    for i in range(tree.num_nodes):
        ns = slots[int(tree.street[i])]
        nodes += ns
        if tree.kind[i] != DECISION:
            continue
        k = int(tree.num_children[i])
        n = n_hands[int(tree.player[i])]
        node_base[i] = total
        entry_base[i] = entries
        total += ns * k * n
        entries += ns
    return node_base, entry_base, total, entries, nodes


def estimate_size(spot: Spot, *, isomorphism: bool = True, tree: BettingTree | None = None,
                  compress: bool = False, max_memory: float | None = None,
                  max_nodes: int = 5_000_000, predictive: bool = False) -> TreeSize:
    """Node count and memory of ``spot`` (regrets + strategy sums in float32, or in 16 bits
    with two float32 scales per entry when ``compress``; a float32 table of predicted
    regrets more when ``predictive``, PDCFR+; the showdown tables, the per-board
    bookkeeping) without allocating the solver's arrays.  Without ``tree`` the betting tree
    is counted, not built (:func:`pokerlab.subgame.tree.count_betting_tree`: milliseconds),
    stopping with one :class:`SpotError` past ``max_nodes`` betting nodes or, given
    ``max_memory`` (bytes), as soon as the spot is known to need more."""
    n_hands = (int(np.count_nonzero(spot.ranges[0])), int(np.count_nonzero(spot.ranges[1])))
    slots = count_slots(spot.board, spot.ranges, isomorphism=isomorphism)
    # order (int32), strength (int16), cards (2 x uint8), showdown_index's words (2 x int64)
    showdown = slots[2] * (n_hands[0] + n_hands[1]) * 24
    if tree is None:
        per_value, per_entry = (4, 16) if compress else (12 if predictive else 8, 8)
        weights = ([64.0] * 3 + [float(per_entry * slots[s]) for s in range(3)]
                   + [float(per_value * slots[s] * n_hands[p]) for s in range(3) for p in range(2)])
        limit = math.inf if max_memory is None else float(max_memory) - showdown
        over = (f"the spot needs more than {(max_memory or 0) / 1e6:,.1f} MB: use fewer bet sizes, a "
                "raise cap or narrower ranges")
        count = count_betting_tree(spot, max_nodes=max_nodes, weights=weights, max_weight=limit,
                                   weight_error=over)
        total, entries, nodes = count.layout(n_hands, slots)
        num_nodes, decisions = count.num_nodes, count.decisions
    else:
        _, _, total, entries, nodes = layout(tree, n_hands, slots)
        num_nodes, decisions = tree.num_nodes, int(np.count_nonzero(tree.kind == DECISION))
    storage = 2 * (2 * total + 4 * entries) if compress else (3 if predictive else 2) * 4 * total
    mem = storage + 8 * entries + showdown + 64 * num_nodes
    return TreeSize(betting_nodes=num_nodes, decision_nodes=decisions, nodes=nodes, boards=slots,
                    memory_bytes=int(mem))
