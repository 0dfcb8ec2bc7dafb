"""The Deep CFR run configuration (saved as ``config.json`` next to every checkpoint)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pokerlab.checks import check_counts
from pokerlab.errors import ConfigError


@dataclass(frozen=True, kw_only=True)
class DeepCFRConfig:
    """Hyper-parameters of one Deep CFR run.

    ``iterations`` CFR iterations; each runs ``traversals`` external-sampling traversals per
    player, then trains that player's advantage network from scratch for ``sgd_steps``
    Adam steps of ``batch`` samples.  ``memory`` is the capacity of each advantage memory
    and of the strategy memory.  ``policy_sgd_steps`` steps train the average-strategy
    network at the end.  ``sdcfr`` also keeps every iteration's advantage networks (the
    "store all value networks" variant, a.k.a. single deep CFR).

    ``warm_start`` continues each advantage network from the previous iteration's instead
    of re-initialising it (the paper's ablation; the paper trains from scratch).
    ``merge_rows`` trains on the memory with the rows of one information set merged (exact,
    see :func:`pokerlab.deepcfr.solver.aggregate_rows`) and ``lr_decay`` anneals the
    learning rate to 0 along a cosine; both off is the original recipe.
    """

    game: str
    iterations: int = 100
    traversals: int = 1000
    memory: int = 1_000_000
    sgd_steps: int = 1000
    batch: int = 2048
    policy_sgd_steps: int = 4000
    lr: float = 1e-3
    grad_clip: float = 1.0
    dim: int = 64
    sdcfr: bool = False
    warm_start: bool = False
    merge_rows: bool = True
    lr_decay: bool = True
    seed: int = 0
    device: str = "cpu"

    def __post_init__(self) -> None:
        check_counts(self, ("iterations", "traversals", "memory", "sgd_steps", "batch", "dim"))
        if self.policy_sgd_steps < 0:
            raise ConfigError(f"policy_sgd_steps must be >= 0, got {self.policy_sgd_steps!r}")
        if not self.lr > 0:
            raise ConfigError(f"lr must be > 0, got {self.lr!r}")
        if not self.grad_clip > 0:
            raise ConfigError(f"grad_clip must be > 0, got {self.grad_clip!r}")
        if self.device not in ("cpu", "cuda", "auto"):
            raise ConfigError(f"device must be cpu, cuda or auto, got {self.device!r}")

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> DeepCFRConfig:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(obj) - names
        if unknown:
            raise ConfigError(f"unknown Deep CFR config keys {sorted(unknown)}")
        return cls(**obj)

    def replace(self, **changes: Any) -> DeepCFRConfig:
        return dataclasses.replace(self, **changes)
