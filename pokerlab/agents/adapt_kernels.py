"""The constrained best-response value of the adaptive agent's safety budget (numba kernel
and its plain-Python twin).

:func:`constrained_best_response_value` (the twin, also used by
:mod:`pokerlab.opponents.safe`) and :func:`constrained_br_value` (the kernel) compute
``br_player``'s best value in a compiled two-player game against the other player's
behaviour strategy ``slots`` when its choice at some information sets is fixed
(``forced``: the actions it was seen to take).  Information sets are resolved deepest own
decision first (``infoset_depth``), so the choice at an information set sees the best
choices below it -- the exact best response of a perfect-recall player.

Tests: ``tests/test_adapt.py`` checks the kernel against the twin (parity) and the twin
against :func:`pokerlab.policy.exact.best_response_values` with nothing forced.  Both
are the shared passes of :mod:`pokerlab.games.pass_kernels` (forward reach, then the tree
best response with the forced choices).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from pokerlab.games.pass_kernels import (
    forward_reach,
    forward_reach_py,
    tree_best_response,
    tree_best_response_py,
)


def constrained_best_response_value(cg: Any, slots: np.ndarray, br_player: int,
                                    forced: dict[int, int]) -> float:
    """``br_player``'s best value against ``slots`` of the other player when its choice at
    each information set in ``forced`` (infoset -> slot) is fixed (plain Python: the twins
    of the shared passes)."""
    reach = np.zeros((cg.num_nodes, cg.num_players + 1))
    forward_reach_py(cg.kind, cg.player, cg.child_start, cg.child_count, cg.children,
                     cg.edge_prob, cg.edge_slot, slots, reach)
    value, _ = tree_best_response_py(cg.kind, cg.player, cg.infoset, cg.child_start,
                                     cg.child_count, cg.children, cg.edge_prob, cg.edge_slot,
                                     slots, cg.utility, reach, cg.infoset_player,
                                     cg.infoset_offset, cg.infoset_depth, br_player,
                                     _forced_array(cg, forced))
    return value


def _forced_array(cg: Any, forced: dict[int, int]) -> np.ndarray:
    f = np.full(cg.num_infosets, -1, dtype=np.int64)
    for i, sl in forced.items():
        f[int(i)] = int(sl)
    return f


@njit(cache=True)
def _cbr_kernel(kind: np.ndarray, player: np.ndarray, infoset: np.ndarray,
                child_start: np.ndarray, child_count: np.ndarray, children: np.ndarray,
                edge_prob: np.ndarray, edge_slot: np.ndarray, utility: np.ndarray,
                infoset_player: np.ndarray, infoset_offset: np.ndarray,
                infoset_depth: np.ndarray, slots: np.ndarray, br_player: int,
                forced: np.ndarray) -> float:  # pragma: no cover - compiled
    reach = np.zeros((kind.shape[0], utility.shape[1] + 1))
    forward_reach(kind, player, child_start, child_count, children, edge_prob, edge_slot,
                  slots, reach)
    value, _ = tree_best_response(kind, player, infoset, child_start, child_count, children,
                                  edge_prob, edge_slot, slots, utility, reach, infoset_player,
                                  infoset_offset, infoset_depth, br_player, forced)
    return value


def constrained_br_value(cg: Any, slots: np.ndarray, br_player: int,
                         forced: dict[int, int]) -> float:
    """:func:`constrained_best_response_value` by the numba kernel."""
    return float(_cbr_kernel(cg.kind, cg.player, cg.infoset, cg.child_start, cg.child_count,
                             cg.children, cg.edge_prob, cg.edge_slot, cg.utility,
                             cg.infoset_player, cg.infoset_offset, cg.infoset_depth,
                             np.ascontiguousarray(slots, dtype=np.float64), int(br_player),
                             _forced_array(cg, forced)))
