"""Traversals on Ray workers.

The ``K`` traversals of one player and iteration are split into contiguous chunks, one
Ray task per chunk; each task rebuilds the advantage networks from their weights and runs
:func:`pokerlab.deepcfr.solver.run_traversals` on its traversal ids.  Every traversal's
random stream depends only on ``(seed, iteration, player, traversal id)`` and the chunks'
samples are absorbed in traversal order, so a Ray run fills the memories with exactly the
samples a local run would (and so trains the same networks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pokerlab.deepcfr.solver import Executor, make_net, resolve_game, run_traversals

if TYPE_CHECKING:
    from pokerlab.deepcfr.solver import DeepCFRSolver


def _weights(net: Any) -> dict[str, np.ndarray] | None:
    if net is None:
        return None
    return {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}


def _remote_traversals(
    game_name: str, dim: int, weights: list[dict[str, np.ndarray] | None], traverser: int,
    iteration: int, start: int, stop: int, seed: int,
) -> dict[str, np.ndarray]:
    import torch

    from pokerlab.deepcfr.encoding import encoder_for
    from pokerlab.deepcfr.network import DeepCFRNet

    torch.set_num_threads(1)
    game = resolve_game(game_name)
    encoder = encoder_for(game)
    nets: list[DeepCFRNet | None] = []
    for w in weights:
        if w is None:
            nets.append(None)
            continue
        net = make_net(encoder, dim, 0)
        net.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in w.items()})
        nets.append(net.eval())
    return run_traversals(game, encoder, nets, traverser, iteration, range(start, stop), seed)


def _traversal_chunk(
    chunk: tuple[str, int, Any, int, int, int, int, int],
) -> dict[str, np.ndarray]:
    """One chunk of traversals (a Ray task); the weights come as one object-store
    reference shared by the chunks of a run."""
    game_name, dim, weights, *rest = chunk
    if not isinstance(weights, list):  # the ObjectRef put once per run
        import ray

        weights = ray.get(weights)
    return _remote_traversals(game_name, dim, weights, *rest)


class RayExecutor(Executor):
    """Runs traversals as Ray tasks (:func:`pokerlab.executor.map_chunks`) on a local Ray
    of ``workers`` CPUs, or on the cluster at ``address``
    (:func:`pokerlab.executor.ray_init`)."""

    def __init__(self, *, workers: int = 2, address: str | None = None,
                 chunks: int | None = None) -> None:
        from pokerlab.executor import check_workers, ray_init

        check_workers(workers, option="workers")
        self.address = address or "local"
        self.started = ray_init(self.address, num_cpus=workers)
        self.chunks = chunks if chunks is not None else max(1, workers)

    def run(
        self, solver: DeepCFRSolver, traverser: int, iteration: int
    ) -> list[dict[str, np.ndarray]]:
        import ray

        from pokerlab.executor import map_chunks

        cfg = solver.config
        k = cfg.traversals
        bounds = np.linspace(0, k, self.chunks + 1).astype(int)
        weights = ray.put([_weights(n) for n in solver.adv_nets])
        chunks = [(cfg.game, cfg.dim, weights, traverser, iteration, int(bounds[i]),
                   int(bounds[i + 1]), cfg.seed)
                  for i in range(self.chunks) if bounds[i + 1] > bounds[i]]
        return map_chunks(_traversal_chunk, chunks, backend="ray", workers=self.chunks,
                          ray_address=self.address)

    def close(self) -> None:
        if self.started:
            import ray

            ray.shutdown()
            self.started = False
