"""Slow plain-Python twins of :mod:`pokerlab.cards.equity_kernels` (parity tests only)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from pokerlab.cards.evaluator_reference import strength_reference


def hand_equity_reference(holes: Sequence[Sequence[int]], board: Sequence[int]) -> tuple[list[float], int]:
    """Pot share of each hand summed over every board completion, and the board count."""
    used = {c for h in holes for c in h} | set(board)
    deck = [c for c in range(52) if c not in used]
    eq = [0.0] * len(holes)
    n = 0
    for extra in combinations(deck, 5 - len(board)):
        full = list(board) + list(extra)
        s = [strength_reference(list(h) + full) for h in holes]
        best = max(s)
        winners = [p for p, v in enumerate(s) if v == best]
        for p in winners:
            eq[p] += 1.0 / len(winners)
        n += 1
    return eq, n


def showdown_vs_range_reference(
    strengths: np.ndarray, weights: np.ndarray, combos: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """O(n^2) version of ``showdown_vs_range``."""
    n = strengths.shape[0]
    win = np.zeros(n)
    tie = np.zeros(n)
    tot = np.zeros(n)
    for i in range(n):
        if strengths[i] <= 0:
            continue
        a, b = combos[i]
        for j in range(n):
            if strengths[j] <= 0:
                continue
            c, d = combos[j]
            if len({a, b, c, d}) < 4:
                continue
            tot[i] += weights[j]
            if strengths[j] < strengths[i]:
                win[i] += weights[j]
            elif strengths[j] == strengths[i]:
                tie[i] += weights[j]
    return win, tie, tot
