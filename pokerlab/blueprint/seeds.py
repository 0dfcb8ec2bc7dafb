"""Seeding the blueprint kernels' xorshift generators (the trainer and its parallel workers)."""

from __future__ import annotations

import numpy as np

from pokerlab.rng import splitmix_seed


def seed_state(seed: int) -> np.ndarray:
    """A non-zero xorshift state from ``seed`` (:func:`pokerlab.rng.splitmix_seed`)."""
    return np.array([splitmix_seed(seed) or 1], dtype=np.uint64)
