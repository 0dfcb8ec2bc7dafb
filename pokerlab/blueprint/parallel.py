"""Threads for the blueprint trainer (``--threads T``): schedule and worker streams.

:func:`run_threaded` runs ``n`` more iterations of a
:class:`~pokerlab.blueprint.trainer.BlueprintTrainer` on ``T`` lock-free workers
(:func:`pokerlab.blueprint.parallel_kernels.run_workers`).  The global iterations
``t + 1 .. t + n`` are cut at every Linear CFR discount point and snapshot point; each
piece is split into ``T`` contiguous ranges, one per worker (so the traverser
alternation and the pruning warm-up follow the global iteration number), and after each
piece the discount / snapshot is applied to the whole tables, once.

Worker 0 continues the trainer's own RNG stream and deck (and hands them back), so the
checkpoint format is unchanged; workers ``w >= 1`` get streams seeded from
``(seed, w, iterations)`` and freshly shuffled decks.  Threaded runs are not bit-reproducible
(lost updates in the races, thread timing); the single-thread path is untouched.

:func:`run_block` (one worker's iterations on given tables, no discounting and no
snapshots) is shared with the Ray driver (:mod:`pokerlab.blueprint.distributed`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.blueprint import mccfr_kernels as K
from pokerlab.blueprint.seeds import seed_state
from pokerlab.errors import ConfigError
from pokerlab.solvers.regret import discount_factor_py

BlueprintTrainer = Any
"""A :class:`pokerlab.blueprint.trainer.BlueprintTrainer` (not imported: the trainer imports
this module)."""


def worker_state(seed: int, worker: int, iterations: int) -> np.ndarray:
    """A non-zero xorshift state for worker ``worker`` (>= 1) of a run at ``iterations``."""
    mix = (seed * 1_000_003 + worker * 7_919 + iterations * 104_729) & ((1 << 62) - 1)
    return seed_state(mix)


def worker_params(trainer: BlueprintTrainer) -> np.ndarray:
    """``params_i`` with discounting and snapshots off (the driver applies them)."""
    p = trainer.params_i.copy()
    p[K.P_LCFR_EVERY] = 0
    p[K.P_SNAP_EVERY] = 0
    return p


def discount_due(trainer: BlueprintTrainer, t: int) -> bool:
    c = trainer.config
    return c.lcfr_every > 0 and t <= c.lcfr_until and t % c.lcfr_every == 0


def snapshot_due(trainer: BlueprintTrainer, t: int) -> bool:
    c = trainer.config
    return c.snapshot_every > 0 and t > c.snapshot_after and t % c.snapshot_every == 0


def piece_end(trainer: BlueprintTrainer, t: int, end: int) -> int:
    """The last iteration of the piece starting at ``t + 1``: it stops before the next
    discount (applied at the start of its iteration) and at the next snapshot (applied at
    the end of its iteration), as in the single-thread kernel."""
    c = trainer.config
    e = end
    if c.lcfr_every > 0:
        d = ((t + 1) // c.lcfr_every + 1) * c.lcfr_every
        if d <= c.lcfr_until:
            e = min(e, d - 1)
    if c.snapshot_every > 0:
        se = c.snapshot_every
        s = max(-(-(t + 1) // se) * se, (c.snapshot_after // se + 1) * se)
        e = min(e, s)
    return max(e, t + 1)


def discount(trainer: BlueprintTrainer, t: int, regret: np.ndarray, avg: np.ndarray) -> None:
    """The Linear CFR discount the single-thread kernel applies at the start of ``t``."""
    c = trainer.config
    d = discount_factor_py(t // c.lcfr_every, 1.0)
    if regret.dtype.kind == "i":
        regret[:] = np.floor(regret.astype(np.float64) * d + 0.5).astype(regret.dtype)
    else:
        regret[:] = (regret.astype(np.float64) * d).astype(regret.dtype)
    avg[:] = (avg.astype(np.float64) * d).astype(avg.dtype)


def snapshot(trainer: BlueprintTrainer, regret: np.ndarray, snap: np.ndarray) -> None:
    """Add the current strategy of every row to ``snap``."""
    tr = trainer.tree
    tmp = np.zeros(trainer.max_actions)
    K.snapshot(tr.kind, tr.street, tr.num_children, trainer.layout.node_offset,
               trainer._nbuckets, regret, snap, tmp)


def kernel_args(trainer: BlueprintTrainer, regret: np.ndarray, avg: np.ndarray,
                snap: np.ndarray) -> tuple[object, ...]:
    """The kernel's arguments from ``kind`` to ``combos`` (20 items)."""
    from pokerlab.blueprint.cards import combos64
    from pokerlab.cards.evaluator import eval_tables

    t = trainer.tree
    return (t.kind, t.actor, t.street, t.child_start, t.num_children, t.child_node,
            t.committed0, t.committed1, trainer.layout.node_offset, regret,
            regret.dtype.kind == "i", avg, trainer._avg_mask, snap, trainer._nbuckets,
            trainer._thresholds, trainer._class_of, trainer._combo_index, eval_tables(),
            combos64())


def run_block(trainer: BlueprintTrainer, t0: int, n: int, regret: np.ndarray,
              avg: np.ndarray, snap: np.ndarray, state: np.ndarray, deck: np.ndarray) -> None:
    """One worker: iterations ``t0 + 1 .. t0 + n`` on the given tables and stream, without
    discounting or snapshots."""
    K.run_iterations(t0, n,  # type: ignore[call-arg]
                     *kernel_args(trainer, regret, avg, snap), state, deck,
                     worker_params(trainer), trainer.params_f, trainer.max_depth,
                     trainer.max_actions, trainer._allin_d)


def split(n: int, workers: int) -> np.ndarray:
    """``n`` iterations in ``workers`` near-equal contiguous counts."""
    return np.array([n // workers + (1 if w < n % workers else 0) for w in range(workers)],
                    dtype=np.int64)


def run_threaded(trainer: BlueprintTrainer, n: int, threads: int) -> None:
    """``n`` iterations of ``trainer`` on ``threads`` lock-free workers (module doc).
    Advances the tables and the trainer's RNG stream / deck, not ``trainer.iterations``
    (the caller's loop counts)."""
    import numba

    if threads < 1:
        raise ConfigError(f"threads must be >= 1, got {threads}")
    if trainer._ctab is not None:  # numba's parallel loop cannot take the table tuples
        raise ConfigError("threads > 1 train hand-strength cards only; cards 'pa' trains on "
                          "one thread per process (or on Ray workers)")
    previous = numba.get_num_threads()
    limit = int(getattr(numba.config, "NUMBA_NUM_THREADS", 1))
    numba.set_num_threads(max(1, min(threads, limit)))
    try:
        _run_pieces(trainer, n, threads)
    finally:
        numba.set_num_threads(previous)


def _run_pieces(trainer: BlueprintTrainer, n: int, threads: int) -> None:
    from pokerlab.blueprint.parallel_kernels import run_workers

    seed = trainer.config.seed
    t = trainer.iterations
    states = np.zeros(threads, dtype=np.uint64)
    states[0] = trainer.state[0]
    for w in range(1, threads):
        states[w] = worker_state(seed, w, t)[0]
    decks = np.tile(np.arange(52, dtype=np.int64), (threads, 1))
    decks[0] = trainer.deck
    for w in range(1, threads):  # a shuffled deck: a resumed board block needs a board
        decks[w] = np.random.default_rng(int(states[w])).permutation(52)
    states2 = states.reshape(threads, 1).copy()
    params = worker_params(trainer)
    args = kernel_args(trainer, trainer.regret, trainer.avg, trainer.snap)
    end = t + n
    while t < end:
        if discount_due(trainer, t + 1):
            discount(trainer, t + 1, trainer.regret, trainer.avg)
        e = piece_end(trainer, t, end)
        counts = split(e - t, threads)
        t0s = t + np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        run_workers(t0s, counts,  # type: ignore[call-arg]
                    *args, states2, decks, params, trainer.params_f, trainer.max_depth,
                    trainer.max_actions, trainer._allin_d)
        t = e
        if snapshot_due(trainer, t):
            snapshot(trainer, trainer.regret, trainer.snap)
    trainer.state[0] = states2[0, 0]
    trainer.deck[:] = decks[0]
