"""The nine cards of a heads-up hand from a SplitMix64 stream: the plain twin of
:func:`pokerlab.holdem.engine_kernels.deal_nine` (matches, the random agent and the
oracle deal with it)."""

from __future__ import annotations

from pokerlab.rng import SplitMix64


def deal_cards(rng: SplitMix64) -> list[int]:
    """Nine distinct cards (4 hole + 5 board) by a partial Fisher-Yates shuffle."""
    deck = list(range(52))
    for i in range(9):
        j = i + rng.below(52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[:9]
