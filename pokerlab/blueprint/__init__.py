"""Blueprint training for heads-up no-limit hold'em: external-sampling MCCFR over a
compiled betting tree x card buckets, with the Pluribus refinements (see docs/blueprint.md).

* :mod:`pokerlab.blueprint.config` -- :class:`BlueprintConfig` and the presets.
* :mod:`pokerlab.blueprint.cards` -- the on-the-fly HS card abstraction.
* :mod:`pokerlab.blueprint.mccfr_kernels` -- the numba kernel and its Python twin.
* :mod:`pokerlab.blueprint.trainer` -- :class:`BlueprintTrainer` (tables, checkpoints, policy).
"""

from pokerlab.blueprint.config import PRESETS, BlueprintConfig, preset

__all__ = ["PRESETS", "BlueprintConfig", "preset"]
