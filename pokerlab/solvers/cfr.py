"""Full-width CFR family over the public tree: CFR, CFR+, Linear CFR, Discounted CFR.

One traversal core (:mod:`pokerlab.solvers.cfr_kernels`), named presets:

==========  ===========  =============  ==================  =====================
preset      updates      regret floor   regret discount     average weight
==========  ===========  =============  ==================  =====================
cfr         alternating  no             no                  1
cfr-sim     simultaneous no             no                  1
cfr+        alternating  yes (RM+)      no                  t
lcfr        alternating  no             t/(t+1) both signs  t
dcfr        alternating  no             alpha=1.5, beta=0   t**gamma, gamma=2
==========  ===========  =============  ==================  =====================

These are OpenSpiel's ``CFRSolver``, ``CFRSolver(alternating_updates=False)``,
``CFRPlusSolver``, ``LCFRSolver`` and ``DCFRSolver`` update rules, so the average
policies agree to rounding at every iteration count.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.games.public_tree import KIND_DECISION, PublicTree, build_public_tree
from pokerlab.policy.tabular import TabularPolicy

from . import cfr_kernels as ck


@dataclass(frozen=True, kw_only=True)
class CFRConfig:
    """Update rules of one CFR variant (see the module table)."""

    algo: str = "cfr"
    alternating: bool = True
    regret_matching_plus: bool = False
    discount: bool = False
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


PRESETS: dict[str, CFRConfig] = {
    "cfr": CFRConfig(algo="cfr"),
    "cfr-sim": CFRConfig(algo="cfr-sim", alternating=False),
    "cfr+": CFRConfig(algo="cfr+", regret_matching_plus=True, gamma=1.0),
    "lcfr": CFRConfig(algo="lcfr", discount=True, alpha=1.0, beta=1.0, gamma=1.0),
    "dcfr": CFRConfig(algo="dcfr", discount=True, alpha=1.5, beta=0.0, gamma=2.0),
}


def cfr_config(algo: str, **overrides: Any) -> CFRConfig:
    """The preset ``algo`` with optional field overrides (e.g. ``alpha=2.0``)."""
    base = PRESETS.get(algo)
    if base is None:
        raise ConfigError(f"unknown CFR variant {algo!r}; choose from {sorted(PRESETS)}")
    return replace(base, **overrides) if overrides else base


class CFRSolver:
    """Full-width CFR-family solver on a game's public tree (Kuhn, 8-card, Leduc, ...)."""

    def __init__(self, *, game: Any, config: CFRConfig | str = "cfr") -> None:
        self.game = game
        self.config = cfr_config(config) if isinstance(config, str) else config
        if self.config.alpha < 0 or self.config.gamma < 0:
            raise ConfigError(f"alpha and gamma must be >= 0, got {self.config}")
        self.tree: PublicTree = build_public_tree(game)
        tr = self.tree
        H = tr.max_hands
        self.regrets = np.zeros((tr.num_slots, H))
        self.avg = np.zeros((tr.num_slots, H))
        self.sigma = np.zeros((tr.num_slots, H))
        self._reach = np.zeros((tr.num_nodes, 2, H))
        self._cfv = np.zeros((tr.num_nodes, 2, H))
        ck.regret_match_kernel(tr.kind, tr.player, tr.child_count, tr.slot_base,
                               self.regrets, self.sigma, -1)
        self.iteration = 0

    def run(self, iterations: int) -> None:
        """Run ``iterations`` more iterations."""
        if iterations < 0:
            raise ConfigError(f"iterations must be >= 0, got {iterations!r}")
        if iterations == 0:
            return
        c = self.config
        tr = self.tree
        ck.cfr_run_kernel(tr.kind, tr.player, tr.child_start, tr.child_count, tr.children,
                          tr.slot_base, tr.term_index, tr.utility, self.regrets, self.avg,
                          self.sigma, self._reach, self._cfv, self.iteration, iterations,
                          c.alternating, c.regret_matching_plus, c.discount, float(c.alpha),
                          float(c.beta), float(c.gamma))
        self.iteration += iterations

    # ------------------------------------------------------------------ strategies
    def average_strategy(self) -> np.ndarray:
        """Normalised average strategy ``[num_slots, H]`` (uniform where never reached)."""
        return _normalise(self.tree, self.avg)

    def average_policy(self) -> TabularPolicy:
        return strategy_to_policy(self.tree, self.average_strategy(),
                                  metadata=self._meta("average"))

    def current_policy(self) -> TabularPolicy:
        return strategy_to_policy(self.tree, self.sigma, metadata=self._meta("current"))

    def _meta(self, which: str) -> dict[str, Any]:
        return {"game": self.tree.game_name, "algo": self.config.algo,
                "iterations": self.iteration, "which": which, "config": self.config.to_json()}

    # ------------------------------------------------------------------ evaluation
    def exploitability(self, *, average: bool = True) -> float:
        """Exploitability (NashConv / 2, chips) of the average (or current) strategy."""
        return public_exploitability(self.tree, self.average_strategy() if average
                                     else self.sigma, self._reach, self._cfv)

    def game_value(self, *, average: bool = True) -> float:
        """Player 0's expected value when both play the average (or current) strategy."""
        s = self.average_strategy() if average else self.sigma
        tr = self.tree
        _, v = ck.public_br_kernel(tr.kind, tr.player, tr.child_start, tr.child_count,
                                   tr.children, tr.slot_base, tr.term_index, tr.utility, s,
                                   self._reach, self._cfv, 0)
        return float(v)


def _normalise(tree: PublicTree, weights: np.ndarray) -> np.ndarray:
    out = np.empty_like(weights)
    ck.normalise_kernel(tree.kind, tree.child_count, tree.slot_base, weights, out)
    return out


def public_exploitability(tree: PublicTree, strategy: np.ndarray,
                          reach: np.ndarray | None = None, cfv: np.ndarray | None = None
                          ) -> float:
    """NashConv / 2 of a public-tree strategy ``[num_slots, H]``."""
    H = tree.max_hands
    if reach is None:
        reach = np.zeros((tree.num_nodes, 2, H))
    if cfv is None:
        cfv = np.zeros((tree.num_nodes, 2, H))
    total = 0.0
    for p in (0, 1):
        br, val = ck.public_br_kernel(tree.kind, tree.player, tree.child_start,
                                      tree.child_count, tree.children, tree.slot_base,
                                      tree.term_index, tree.utility, strategy, reach, cfv, p)
        total += br - val
    return float(total / 2.0)


def strategy_to_policy(tree: PublicTree, strategy: np.ndarray,
                       metadata: dict[str, Any] | None = None) -> TabularPolicy:
    """A :class:`TabularPolicy` with an entry for every information set of the tree."""
    rows = []
    dec = np.nonzero(tree.kind == KIND_DECISION)[0]
    for v in dec:
        s, na = int(tree.slot_base[v]), int(tree.child_count[v])
        acts = tree.edge_action[tree.child_start[v]:tree.child_start[v] + na]
        for h in np.nonzero(tree.valid[v])[0]:
            rows.append((tree.keys[v][h], acts, strategy[s:s + na, h]))
    return TabularPolicy.from_rows(rows, metadata=metadata)


def policy_to_strategy(tree: PublicTree, policy: TabularPolicy) -> np.ndarray:
    """The public-tree strategy array of a tabular policy (uniform at invalid hands)."""
    strat = np.zeros((tree.num_slots, tree.max_hands))
    dec = np.nonzero(tree.kind == KIND_DECISION)[0]
    for v in dec:
        s, na = int(tree.slot_base[v]), int(tree.child_count[v])
        strat[s:s + na] = 1.0 / na
        for h in np.nonzero(tree.valid[v])[0]:
            strat[s:s + na, h] = policy.probabilities(tree.keys[v][h])
    return strat
