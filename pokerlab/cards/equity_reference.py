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


def order_by_strength_py(strengths: np.ndarray) -> np.ndarray:
    """Twin of :func:`~pokerlab.cards.equity_kernels.order_by_strength` (returns order[:m])."""
    idx = [i for i in range(len(strengths)) if strengths[i] > 0]
    return np.array(sorted(idx, key=lambda i: (int(strengths[i]), i)), dtype=np.int64)


def showdown_sweep_py(order: np.ndarray, strengths: np.ndarray, combos: np.ndarray,
                      weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Twin of :func:`~pokerlab.cards.equity_kernels.showdown_sweep`, same sums in the same
    order (so results agree bit for bit); zeros outside ``order``."""
    n = len(strengths)
    win, tie, tot = np.zeros(n), np.zeros(n), np.zeros(n)
    total = 0.0
    total_card = [0.0] * 52
    for i in order:
        w = float(weights[i])
        total += w
        total_card[combos[i, 0]] += w
        total_card[combos[i, 1]] += w
    below = 0.0
    below_card = [0.0] * 52
    group_card = [0.0] * 52
    groups: list[list[int]] = []
    for i in order:
        if groups and strengths[groups[-1][0]] == strengths[i]:
            groups[-1].append(int(i))
        else:
            groups.append([int(i)])
    for g in groups:
        group = 0.0
        for i in g:
            w = float(weights[i])
            group += w
            group_card[combos[i, 0]] += w
            group_card[combos[i, 1]] += w
        for i in g:
            a, b = combos[i, 0], combos[i, 1]
            wi = float(weights[i])
            win[i] = below - below_card[a] - below_card[b]
            tie[i] = group - group_card[a] - group_card[b] + wi
            tot[i] = total - total_card[a] - total_card[b] + wi
        for i in g:
            w = float(weights[i])
            below += w
            below_card[combos[i, 0]] += w
            below_card[combos[i, 1]] += w
            group_card[combos[i, 0]] -= w
            group_card[combos[i, 1]] -= w
    return win, tie, tot


def fold_sweep_py(combos: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Twin of :func:`~pokerlab.cards.equity_kernels.fold_sweep`."""
    per_card = [0.0] * 52
    total = 0.0
    for i in range(len(combos)):
        w = float(weights[i])
        total += w
        per_card[combos[i, 0]] += w
        per_card[combos[i, 1]] += w
    return np.array([total - per_card[combos[i, 0]] - per_card[combos[i, 1]] + float(weights[i])
                     for i in range(len(combos))])
