"""Plain-Python twin of :func:`pokerlab.agents.river_leaf_kernels.solve_classes` (recursive,
numpy over the classes), and a best response over the same class game for the tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.agents.river_leaf_kernels import ALPHA, BETA, GAMMA
from pokerlab.kinds import DECISION, FOLD, SHOWDOWN


def _kids(tree: Any, v: int) -> list[int]:
    s = int(tree.child_start[v])
    return [int(tree.children[s + a]) for a in range(int(tree.num_children[v]))]


def _matched(x: np.ndarray) -> np.ndarray:
    pos = np.maximum(x, 0.0)
    tot = pos.sum(axis=0)
    m = x.shape[0]
    return np.where(tot > 0, pos / np.where(tot > 0, tot, 1.0), 1.0 / m)


def terminal_values(tree: Any, v: int, pot: float, p: int, opp: np.ndarray) -> np.ndarray:
    """``p``'s values per class at the fold or showdown ``v`` against the other's class
    weights ``opp``."""
    tot = float(opp.sum())
    if int(tree.kind[v]) == FOLD:
        f = int(tree.player[v])
        cf = float(tree.c0[v] if f == 0 else tree.c1[v])
        return np.full(opp.shape[0], -cf * tot if f == p else (pot + cf) * tot)
    c = float(tree.c0[v])
    less = np.concatenate(([0.0], np.cumsum(opp)[:-1]))
    return less * (pot + c) + opp * 0.5 * pot - (tot - less - opp) * c


def _values(tree: Any, v: int, pot: float, p: int, strat: dict[int, np.ndarray], reach: list[np.ndarray],
            best: bool = False) -> np.ndarray:
    """``p``'s values at ``v`` (``best``: ``p`` best-responds)."""
    if int(tree.kind[v]) in (FOLD, SHOWDOWN):
        return terminal_values(tree, v, pot, p, reach[1 - p])
    kids = _kids(tree, v)
    q = int(tree.player[v])
    sv = strat[v]
    vals = []
    for a, ch in enumerate(kids):
        nxt = [r.copy() for r in reach]
        if q != p:
            nxt[q] = reach[q] * sv[a]
        vals.append(_values(tree, ch, pot, p, strat, nxt, best))
    arr = np.array(vals)
    if q == p:
        return arr.max(axis=0) if best else (sv * arr).sum(axis=0)
    return arr.sum(axis=0)


def solve_classes_py(tree: Any, pot: float, r0: np.ndarray, r1: np.ndarray, iters: int
                     ) -> tuple[np.ndarray, np.ndarray, dict[int, np.ndarray]]:
    """The twin of ``solve_classes``: ``(out0, out1, average strategy per decision node)``."""
    C = r0.shape[0]
    nodes = [v for v in range(tree.num_nodes) if int(tree.kind[v]) == DECISION]
    regret = {v: np.zeros((int(tree.num_children[v]), C)) for v in nodes}
    ssum = {v: np.zeros((int(tree.num_children[v]), C)) for v in nodes}
    for t in range(1, iters + 1):
        tp = float(t - 1)
        pos_w = tp ** ALPHA / (tp ** ALPHA + 1.0)
        neg_w = tp ** BETA / (tp ** BETA + 1.0) if t > 1 else 0.0
        avg_w = (tp / (tp + 1.0)) ** GAMMA
        for p in (0, 1):
            strat = {v: _matched(regret[v]) for v in nodes}
            _update(tree, 0, pot, p, strat, [r0.astype(float), r1.astype(float)], regret, ssum,
                    (pos_w, neg_w, avg_w))
    avg = {v: _matched(ssum[v]) for v in nodes}
    reach = [r0.astype(float), r1.astype(float)]
    return _values(tree, 0, pot, 0, avg, reach), _values(tree, 0, pot, 1, avg, reach), avg


def _update(tree: Any, v: int, pot: float, p: int, strat: dict[int, np.ndarray], reach: list[np.ndarray],
            regret: dict[int, np.ndarray], ssum: dict[int, np.ndarray], w: tuple[float, float, float]
            ) -> np.ndarray:
    if int(tree.kind[v]) in (FOLD, SHOWDOWN):
        return terminal_values(tree, v, pot, p, reach[1 - p])
    kids = _kids(tree, v)
    q = int(tree.player[v])
    sv = strat[v]
    vals = []
    for a, ch in enumerate(kids):
        nxt = [r.copy() for r in reach]
        nxt[q] = reach[q] * sv[a]
        vals.append(_update(tree, ch, pot, p, strat, nxt, regret, ssum, w))
    arr = np.array(vals)
    if q != p:
        return arr.sum(axis=0)
    val = (sv * arr).sum(axis=0)
    pos_w, neg_w, avg_w = w
    r = regret[v]
    regret[v] = np.where(r > 0, r * pos_w, r * neg_w) + arr - val[None, :]
    ssum[v] = ssum[v] * avg_w + reach[p][None, :] * sv
    return val


def best_response_py(tree: Any, pot: float, r0: np.ndarray, r1: np.ndarray, strat: dict[int, np.ndarray],
                     p: int) -> np.ndarray:
    """``p``'s best-response values per class against the other's ``strat``."""
    return _values(tree, 0, pot, p, strat, [r0.astype(float), r1.astype(float)], best=True)
