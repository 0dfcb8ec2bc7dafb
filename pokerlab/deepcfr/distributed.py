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


class RayExecutor(Executor):
    """Runs traversals as Ray tasks on ``workers`` local processes, or on the cluster at
    ``address`` (``ray.init(address=...)``)."""

    def __init__(self, *, workers: int = 2, address: str | None = None,
                 chunks: int | None = None) -> None:
        import ray

        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            self.started = True
        self.chunks = chunks if chunks is not None else max(1, workers)
        self._task = ray.remote(num_cpus=1)(_remote_traversals)

    def run(
        self, solver: DeepCFRSolver, traverser: int, iteration: int
    ) -> list[dict[str, np.ndarray]]:
        cfg = solver.config
        k = cfg.traversals
        bounds = np.linspace(0, k, self.chunks + 1).astype(int)
        weights = self.ray.put([_weights(n) for n in solver.adv_nets])
        refs = [
            self._task.remote(cfg.game, cfg.dim, weights, traverser, iteration,
                              int(bounds[i]), int(bounds[i + 1]), cfg.seed)
            for i in range(self.chunks) if bounds[i + 1] > bounds[i]
        ]
        return list(self.ray.get(refs))

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
            self.started = False
