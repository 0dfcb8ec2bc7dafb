"""Slow, obviously-correct twin of the numba evaluator (parity tests only).

Best five of ``n`` cards by trying every five-card subset and comparing hand codes.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pokerlab.cards.hand_classes import STRENGTH_OF_CODE, Code, code_of_five


def best_code(cards: Sequence[int]) -> Code:
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"need 5 to 7 cards, got {len(cards)}")
    best: Code | None = None
    for five in combinations(cards, 5):
        ranks = [c >> 2 for c in five]
        flush = len({c & 3 for c in five}) == 1
        code = code_of_five(ranks, flush)
        if best is None or code > best:
            best = code
    assert best is not None
    return best


def strength_reference(cards: Sequence[int]) -> int:
    return STRENGTH_OF_CODE[best_code(cards)]
