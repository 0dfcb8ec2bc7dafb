"""The Deep CFR network's input features: :class:`PokerEncoder` and the *view* type.

An encoder turns what one player sees (card ids per card group, and the betting so far as
``(round, chips added, pot before)`` triples) into the network's two fixed-size inputs.
The views of pokerlab's own games live in :mod:`pokerlab.deepcfr.views`; the lookup by
game name in :mod:`pokerlab.deepcfr.encoding`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.errors import ConfigError

View = tuple[list[list[int]], list[tuple[int, float, float]]]
ViewFn = Callable[[Any, int], View]


@dataclass(frozen=True, kw_only=True)
class PokerEncoder:
    """Fixed-size features: ``card_groups[g]`` slots for group ``g``, ``rounds`` betting
    rounds of ``positions`` betting positions each, ``num_actions`` network outputs."""

    card_groups: tuple[int, ...]
    rounds: int
    positions: int
    num_actions: int
    view: ViewFn
    suit_symmetric: bool = False  # the view canonicalises suits (lossless isomorphism)

    @property
    def num_card_slots(self) -> int:
        return int(sum(self.card_groups))

    @property
    def num_bets(self) -> int:
        return self.rounds * self.positions

    def encode(self, state: Any, player: int) -> tuple[np.ndarray, np.ndarray]:
        groups, actions = self.view(state, player)
        return self.encode_view(groups, actions)

    def encode_view(
        self, groups: Sequence[Sequence[int]], actions: Sequence[tuple[int, float, float]]
    ) -> tuple[np.ndarray, np.ndarray]:
        cards = np.full(self.num_card_slots, -1, dtype=np.int16)
        start = 0
        for size, group in zip(self.card_groups, groups, strict=False):
            for i, c in enumerate(group[:size]):
                cards[start + i] = c
            start += size
        bets = np.full(self.num_bets, -1.0, dtype=np.float32)
        used = [0] * self.rounds
        for rnd, added, pot in actions:
            k = used[rnd]
            if k >= self.positions:
                raise ConfigError(
                    f"more than {self.positions} actions in round {rnd}: encoder too small"
                )
            bets[rnd * self.positions + k] = added / pot if pot > 0 else 0.0
            used[rnd] = k + 1
        return cards, bets
