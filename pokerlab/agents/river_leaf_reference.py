"""Plain-Python twins of :func:`pokerlab.agents.river_leaf_kernels.solve_classes` and
:func:`~pokerlab.agents.river_leaf_kernels.step_rivers` (recursive, numpy over the classes),
and a best response over the same class game for the tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.agents.river_leaf_kernels import ALPHA, BETA, GAMMA
from pokerlab.kinds import DECISION, FOLD, SHOWDOWN
from pokerlab.solvers.regret import discount_factor_py, regret_match_columns_py


def _kids(tree: Any, v: int) -> list[int]:
    s = int(tree.child_start[v])
    return [int(tree.children[s + a]) for a in range(int(tree.num_children[v]))]


def _matched(x: np.ndarray) -> np.ndarray:
    """Regret matching of an ``(actions, classes)`` block (the solvers' one rule)."""
    m, C = x.shape
    out = np.zeros(m * C)
    regret_match_columns_py(np.ascontiguousarray(x, dtype=np.float64).ravel(), 0, m, C, out, np.zeros(C))
    return out.reshape(m, C)


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


Acc = tuple[dict[int, np.ndarray], dict[int, np.ndarray], tuple[float, float, float]]
"""A CFR update's regrets, strategy sums and (positive, negative, average) discounts."""


def _walk(tree: Any, v: int, pot: float, p: int, strat: dict[int, np.ndarray], reach: list[np.ndarray],
          *, best: bool = False, acc: Acc | None = None) -> np.ndarray:
    """``p``'s values at ``v`` (``best``: ``p`` best-responds; ``acc``: ``p``'s regrets and
    strategy sums updated on the way back)."""
    if int(tree.kind[v]) in (FOLD, SHOWDOWN):
        return terminal_values(tree, v, pot, p, reach[1 - p])
    q = int(tree.player[v])
    sv = strat[v]
    vals = []
    for a, ch in enumerate(_kids(tree, v)):
        nxt = list(reach)
        nxt[q] = reach[q] * sv[a]
        vals.append(_walk(tree, ch, pot, p, strat, nxt, best=best, acc=acc))
    arr = np.array(vals)
    if q != p:
        return arr.sum(axis=0)
    if best:
        return arr.max(axis=0)
    val = (sv * arr).sum(axis=0)
    if acc is not None:
        regret, ssum, (pos_w, neg_w, avg_w) = acc
        r = regret[v]
        regret[v] = np.where(r > 0, r * pos_w, r * neg_w) + arr - val[None, :]
        ssum[v] = ssum[v] * avg_w + reach[p][None, :] * sv
    return val


def _iterate(tree: Any, pot: float, nodes: list[int], reach: list[np.ndarray], regret: dict[int, np.ndarray],
             ssum: dict[int, np.ndarray], t: int, iters: int) -> None:
    """DCFR iterations ``t + 1 .. t + iters`` (alternating, OOP first), in place."""
    for it in range(iters):
        tp = float(t + it)
        w = (discount_factor_py(tp, ALPHA), discount_factor_py(tp, BETA), (tp / (tp + 1.0)) ** GAMMA)
        for p in (0, 1):
            strat = {v: _matched(regret[v]) for v in nodes}
            _walk(tree, 0, pot, p, strat, reach, acc=(regret, ssum, w))


def solve_classes_py(tree: Any, pot: float, r0: np.ndarray, r1: np.ndarray, iters: int
                     ) -> tuple[np.ndarray, np.ndarray, dict[int, np.ndarray]]:
    """The twin of ``solve_classes``: ``(out0, out1, average strategy per decision node)``."""
    C = r0.shape[0]
    nodes = [v for v in range(tree.num_nodes) if int(tree.kind[v]) == DECISION]
    regret = {v: np.zeros((int(tree.num_children[v]), C)) for v in nodes}
    ssum = {v: np.zeros((int(tree.num_children[v]), C)) for v in nodes}
    reach = [r0.astype(float), r1.astype(float)]
    _iterate(tree, pot, nodes, reach, regret, ssum, 0, iters)
    avg = {v: _matched(ssum[v]) for v in nodes}
    return _walk(tree, 0, pot, 0, avg, reach), _walk(tree, 0, pot, 1, avg, reach), avg


def best_response_py(tree: Any, pot: float, r0: np.ndarray, r1: np.ndarray, strat: dict[int, np.ndarray],
                     p: int) -> np.ndarray:
    """``p``'s best-response values per class against the other's ``strat``."""
    return _walk(tree, 0, pot, p, strat, [r0.astype(float), r1.astype(float)], best=True)


def step_rivers_py(tree: Any, cls: np.ndarray, count: np.ndarray, combos: np.ndarray, rivers: np.ndarray,
                   sel: np.ndarray, weight: float, reach0: np.ndarray, reach1: np.ndarray, t: int, iters: int,
                   regret: np.ndarray, ssum: np.ndarray, average: bool, best: bool = False
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The twin of ``step_rivers`` (every combo active; the same flat ``regret`` / ``ssum``,
    each river's block after the earlier rivers', updated in place): ``(out0, out1)`` over
    the 1326 combos."""
    nodes = [v for v in range(tree.num_nodes) if int(tree.kind[v]) == DECISION]
    E = int(tree.children.shape[0])
    out = (np.zeros(1326), np.zeros(1326))
    offs = np.concatenate(([0], np.cumsum(E * count)[:-1]))
    for r in sel:
        C = int(count[r])
        lo = int(offs[r])

        def blocks(flat: np.ndarray, lo: int = lo, C: int = C) -> dict[int, np.ndarray]:
            return {v: flat[lo + int(tree.child_start[v]) * C:
                            lo + (int(tree.child_start[v]) + int(tree.num_children[v])) * C]
                    .reshape(int(tree.num_children[v]), C).copy() for v in nodes}

        live = cls[r] >= 0
        idx = cls[r][live]
        reach = [np.bincount(idx, weights=reach0[live], minlength=C),
                 np.bincount(idx, weights=reach1[live], minlength=C)]
        if reach[0].sum() <= 0 and reach[1].sum() <= 0:
            continue
        rg, sg = blocks(regret), blocks(ssum)
        _iterate(tree, float(tree.pot), nodes, reach, rg, sg, t, iters)
        for v in nodes:
            s = lo + int(tree.child_start[v]) * C
            regret[s:s + rg[v].size] = rg[v].ravel()
            ssum[s:s + sg[v].size] = sg[v].ravel()
        play = {v: _matched(sg[v] if average else rg[v]) for v in nodes}
        card = int(rivers[r])
        for p in (0, 1):
            if reach[1 - p].sum() <= 0:
                continue
            cv = _walk(tree, 0, float(tree.pot), p, play, reach, best=best)
            unit = cv / float(reach[1 - p].sum()) * weight
            opp = np.where((combos[:, 0] == card) | (combos[:, 1] == card), 0.0, reach1 if p == 0 else reach0)
            csum = np.zeros(52)
            np.add.at(csum, combos[:, 0], opp)
            np.add.at(csum, combos[:, 1], opp)
            mass = opp.sum() - csum[combos[:, 0]] - csum[combos[:, 1]] + opp
            out[p][live] += unit[idx] * mass[live]
    return out
