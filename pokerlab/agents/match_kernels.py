"""The match fast path's old home: it lives in :mod:`pokerlab.evaluation.match_kernels`
(at the layer of the matches that use it); agents offer it by ``kernel_side()``."""

from __future__ import annotations

from pokerlab.evaluation.match_kernels import (
    KernelSide,
    eligible,
    fast_match,
    kernel_side,
    policy_arrays,
    policy_match_kernel,
    run_kernel,
)

__all__ = ["KernelSide", "eligible", "fast_match", "kernel_side", "policy_arrays",
           "policy_match_kernel", "run_kernel"]
