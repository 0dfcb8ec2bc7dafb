"""Reservoir memories for Deep CFR (Vitter's algorithm R on flat numpy arrays).

A memory keeps at most ``capacity`` samples; once full, the ``n``-th sample offered
(``n`` counted from 1) replaces a uniformly chosen slot with probability ``capacity / n``,
so at any time the memory holds a uniform sample of everything offered so far.

Every sample is an information set's features (card ids and bet features), a target
vector over the game's distinct actions (sampled regrets or a strategy), the legal-action
mask and the CFR iteration ``t`` that produced it (the Linear CFR weight).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.errors import ConfigError

FIELDS = ("cards", "bets", "target", "mask", "iteration")


class ReservoirMemory:
    """Fixed-capacity uniform sample of the (cards, bets, target, mask, iteration) stream."""

    def __init__(
        self, *, capacity: int, num_card_slots: int, num_bets: int, num_actions: int, seed: int
    ) -> None:
        if capacity < 1:
            raise ConfigError(f"memory capacity must be >= 1, got {capacity}")
        self.capacity = int(capacity)
        self.cards = np.full((capacity, num_card_slots), -1, dtype=np.int16)
        self.bets = np.zeros((capacity, num_bets), dtype=np.float32)
        self.target = np.zeros((capacity, num_actions), dtype=np.float32)
        self.mask = np.zeros((capacity, num_actions), dtype=np.bool_)
        self.iteration = np.zeros(capacity, dtype=np.float32)
        self.size = 0
        self.seen = 0
        self.rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return self.size

    def add(
        self, cards: np.ndarray, bets: np.ndarray, target: np.ndarray, mask: np.ndarray,
        iteration: float,
    ) -> None:
        """Offer one sample."""
        self.seen += 1
        if self.size < self.capacity:
            slot = self.size
            self.size += 1
        else:
            slot = int(self.rng.integers(0, self.seen))
            if slot >= self.capacity:
                return
        self.cards[slot] = cards
        self.bets[slot] = bets
        self.target[slot] = target
        self.mask[slot] = mask
        self.iteration[slot] = iteration

    def add_batch(
        self, cards: np.ndarray, bets: np.ndarray, target: np.ndarray, mask: np.ndarray,
        iteration: np.ndarray,
    ) -> None:
        """Offer samples one after the other (same result as repeated :meth:`add`)."""
        m = min(len(cards), self.capacity - self.size)
        if m > 0:  # free slots: plain copies, no random numbers drawn (as in :meth:`add`)
            lo, hi = self.size, self.size + m
            self.cards[lo:hi] = cards[:m]
            self.bets[lo:hi] = bets[:m]
            self.target[lo:hi] = target[:m]
            self.mask[lo:hi] = mask[:m]
            self.iteration[lo:hi] = iteration[:m]
            self.size = hi
            self.seen += m
        for i in range(max(m, 0), len(cards)):
            self.add(cards[i], bets[i], target[i], mask[i], float(iteration[i]))

    def arrays(self) -> dict[str, np.ndarray]:
        """The filled part of every field (views, not copies)."""
        n = self.size
        return {
            "cards": self.cards[:n], "bets": self.bets[:n], "target": self.target[:n],
            "mask": self.mask[:n], "iteration": self.iteration[:n],
        }

    # ------------------------------------------------------------ checkpointing
    def state_dict(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Arrays (for a safetensors file) and JSON-able metadata (sizes, RNG state)."""
        arrays = {k: np.ascontiguousarray(v) for k, v in self.arrays().items()}
        arrays["mask"] = arrays["mask"].astype(np.uint8)
        meta = {
            "capacity": self.capacity, "size": self.size, "seen": self.seen,
            "rng": self.rng.bit_generator.state,
        }
        return arrays, meta

    def load_state_dict(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        if int(meta["capacity"]) != self.capacity:
            raise ConfigError(
                f"checkpoint memory capacity {meta['capacity']} != configured {self.capacity}"
            )
        n = int(meta["size"])
        self.size = n
        self.seen = int(meta["seen"])
        for k in FIELDS:
            a = arrays[k]
            if len(a) != n:
                raise ConfigError(f"checkpoint memory field {k!r} has {len(a)} rows, expected {n}")
            getattr(self, k)[:n] = a.astype(getattr(self, k).dtype)
        self.rng.bit_generator.state = meta["rng"]
