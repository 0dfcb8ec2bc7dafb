"""Blueprint training on Ray workers, merged by a driver every ``K`` iterations.

:class:`RayTrainer` drives a :class:`~pokerlab.blueprint.trainer.BlueprintTrainer` (the
master tables) with ``W`` Ray actors, one per process or machine, each holding its own
copy of the tables.  One round:

1. the driver puts the master regret / average tables in the object store;
2. worker ``w`` copies them, runs its contiguous share of the next ``W * K`` global
   iterations (:func:`pokerlab.blueprint.parallel.run_block`: its own RNG stream and
   deck, no discounting, no snapshots) and returns its *increments* (new minus old
   table, in float64);
3. the driver adds every worker's increments to the master, floors the regrets at
   ``regret_floor_bb`` (int32 tables: rounds and saturates), and applies the Linear CFR
   discount / snapshot that falls due, once, on the merged tables (rounds are cut at
   those iterations, as in :mod:`pokerlab.blueprint.parallel`).

The approximation: within a round a worker samples with the master strategy of the round
start plus its own updates only -- the other workers' increments of that round reach it
one merge later (a staleness of up to ``(W - 1) * K`` iterations), and the sum of the
increments is not the update a single sequential run would make (regret matching is not
linear; the floor is applied per worker and again after the merge).  This is the usual
asynchronous / "Hogwild"-style argument: with ``K`` small against the run, the merged
run behaves like a sequential one (tested on the push/fold preset).  With ``W = 1`` the
merge is exact: a one-worker run equals the single-thread trainer bit for bit.

Worker 0 continues the trainer's own RNG stream and deck (so the checkpoint format is
unchanged); workers ``w >= 1`` are seeded from ``(seed, w, iterations)``.  ``address``
joins an existing cluster; without it (or with ``"local"``) a private local Ray with
``num_cpus=W`` is started (and shut down by :meth:`RayTrainer.close`); both through
:func:`pokerlab.executor.ray_init`.  The workers are actors, not
:func:`~pokerlab.executor.map_chunks` tasks: each keeps its trainer (tables, tree,
kernels) between rounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.blueprint import mccfr_kernels as K
from pokerlab.blueprint.config import BlueprintConfig
from pokerlab.blueprint.parallel import (
    discount,
    discount_due,
    piece_end,
    run_block,
    snapshot,
    snapshot_due,
    split,
    worker_state,
)
from pokerlab.blueprint.trainer import BlueprintTrainer
from pokerlab.errors import ConfigError


class BlueprintWorker:
    """One Ray actor: a trainer copy that runs blocks of iterations on the master tables
    it is sent and returns the increments."""

    def __init__(self, config_json: dict[str, Any]) -> None:
        self.trainer = BlueprintTrainer(BlueprintConfig.from_json(config_json))

    def run(self, tables: tuple[np.ndarray, np.ndarray], t0: int, n: int,
            state: np.ndarray, deck: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                          np.ndarray]:
        tr = self.trainer
        regret = np.array(tables[0], dtype=tr.regret.dtype)
        avg = np.array(tables[1], dtype=tr.avg.dtype)
        state = np.array(state, dtype=np.uint64)
        deck = np.array(deck, dtype=np.int64)
        if n > 0:
            run_block(tr, t0, n, regret, avg, tr.snap, state, deck)
        dreg = regret.astype(np.float64) - np.asarray(tables[0], dtype=np.float64)
        davg = avg.astype(np.float64) - np.asarray(tables[1], dtype=np.float64)
        return dreg, davg, state, deck


def merge(trainer: BlueprintTrainer, dregs: list[np.ndarray], davgs: list[np.ndarray]) -> None:
    """Add the workers' increments to the master tables; floor (and for int32 tables round
    and saturate) the regrets."""
    floor = float(trainer.params_f[K.F_REGRET_FLOOR])
    r = trainer.regret.astype(np.float64)
    for d in dregs:
        r += d
    if trainer.regret.dtype.kind == "i":
        r = np.minimum(np.floor(r + 0.5), K.INT_MAX)
    trainer.regret[:] = np.maximum(r, floor).astype(trainer.regret.dtype)
    if trainer.avg.size:
        a = trainer.avg.astype(np.float64)
        for d in davgs:
            a += d
        trainer.avg[:] = a.astype(trainer.avg.dtype)


class RayTrainer:
    """Runs a trainer's iterations on ``workers`` Ray actors (module docstring)."""

    def __init__(self, trainer: BlueprintTrainer, *, workers: int = 2,
                 merge_every: int = 10_000, address: str | None = None) -> None:
        if workers < 1:
            raise ConfigError(f"Ray workers must be >= 1, got {workers}")
        if merge_every < 1:
            raise ConfigError(f"merge interval must be >= 1, got {merge_every}")
        from pokerlab.executor import ray_init

        self.trainer = trainer
        self.workers = workers
        self.merge_every = merge_every
        self.started = ray_init(address or "local", num_cpus=workers)
        import ray

        self.ray = ray
        actor: Any = ray.remote(num_cpus=1)(BlueprintWorker)
        cfg = trainer.config.to_json()
        self.actors: list[Any] = [actor.remote(cfg) for _ in range(workers)]
        seed = trainer.config.seed
        self.states = [trainer.state.copy()] + [worker_state(seed, w, trainer.iterations)
                                                for w in range(1, workers)]
        self.decks = [trainer.deck.copy()] + [
            np.random.default_rng(int(self.states[w][0])).permutation(52).astype(np.int64)
            for w in range(1, workers)]

    def run(self, iterations: int) -> None:
        """``iterations`` more global iterations, merged every ``W * K``."""
        tr = self.trainer
        t = tr.iterations
        end = t + iterations
        while t < end:
            if discount_due(tr, t + 1):
                discount(tr, t + 1, tr.regret, tr.avg)
            e = piece_end(tr, t, min(end, t + self.workers * self.merge_every))
            counts = split(e - t, self.workers)
            t0s = t + np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
            ref = self.ray.put((np.asarray(tr.regret), np.asarray(tr.avg)))
            futs = [a.run.remote(ref, int(t0s[w]), int(counts[w]), self.states[w],
                                 self.decks[w]) for w, a in enumerate(self.actors)]
            outs = self.ray.get(futs)
            merge(tr, [o[0] for o in outs], [o[1] for o in outs])
            for w, o in enumerate(outs):
                self.states[w] = np.array(o[2], dtype=np.uint64)
                self.decks[w] = np.array(o[3], dtype=np.int64)
            t = e
            if snapshot_due(tr, t):
                snapshot(tr, tr.regret, tr.snap)
        tr.iterations = end
        tr.state[:] = self.states[0]
        tr.deck[:] = self.decks[0]

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
        if self.started:
            self.ray.shutdown()
            self.started = False
