"""Lock-free multi-threaded blueprint iterations (numba ``prange``), as Pluribus did.

:func:`run_workers` runs ``T`` workers in a ``prange``; worker ``w`` runs
``counts[w]`` iterations ``t0s[w] + 1 .. t0s[w] + counts[w]`` of
:func:`pokerlab.blueprint.mccfr_kernels.run_iterations` with its own RNG stream
(``states[w]``) and deck (``decks[w]``) on the *shared* regret / average / snapshot
tables, without locks: concurrent read-modify-writes of one table entry can lose an
update (Pluribus accepted the same races).  The caller passes ``params_i`` with Linear
CFR discounting and snapshots switched off and applies them itself between calls (they
touch whole tables and must not run inside racing workers).  Threaded runs are therefore
not bit-reproducible; ``T = 1`` equals the single-thread kernel bit for bit (tested).

:func:`run_workers_py` is the plain-Python twin: the same workers one after another.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from pokerlab.blueprint.mccfr_kernels import run_iterations


@njit(cache=True, parallel=True)
def run_workers(t0s, counts, kind, actor, street, child_start, num_children, child_node, com0,
                com1, node_offset, regret, int_regret, avg, avg_mask, snap, nbuckets,
                thresholds, class_of, combo_index, tables, combos, states, decks, params_i,
                params_f, max_depth, max_actions, allin_d):  # type: ignore[no-untyped-def]
    """Worker ``w`` runs ``counts[w]`` iterations from ``t0s[w]`` (see the module doc)."""
    nw = t0s.shape[0]
    for w in prange(nw):
        run_iterations(t0s[w], counts[w], kind, actor, street, child_start, num_children,
                       child_node, com0, com1, node_offset, regret, int_regret, avg, avg_mask,
                       snap, nbuckets, thresholds, class_of, combo_index, tables, combos,
                       states[w], decks[w], params_i, params_f, max_depth, max_actions,
                       allin_d)
    return nw


def run_workers_py(t0s: np.ndarray, counts: np.ndarray, *args: Any) -> int:
    """Plain-Python twin of :func:`run_workers`: the workers one after another (each
    through the compiled single-thread kernel; its own twin is
    :func:`pokerlab.blueprint.mccfr_kernels.run_iterations_py`)."""
    a = list(args)
    # args: kind .. combos (20 items), states, decks, params_i, params_f, max_depth,
    # max_actions, allin_d
    states, decks = a[20], a[21]
    for w in range(t0s.shape[0]):
        run_iterations(int(t0s[w]), int(counts[w]),  # type: ignore[call-arg]
                       *a[:20], states[w], decks[w], *a[22:])
    return int(t0s.shape[0])
