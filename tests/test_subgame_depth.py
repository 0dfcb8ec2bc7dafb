"""Depth-limited spots (Brown, Sandholm & Amos 2018): the tree ends with the starting street
and the leaves' values come from a model outside the solver (``SpotSolver(...,
depth_limited=True)``, ``set_leaf_model``).

The check: a turn spot solved depth-limited, with leaf values computed from the river
played by fixed (locked) strategies, runs the same CFR as the whole turn-and-river tree
with every river decision locked to those strategies: the turn strategies agree."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pokerlab.subgame import solver_kernels as K
from pokerlab.subgame.solve_config import SolveConfig
from pokerlab.subgame.solver import SpotSolver
from pokerlab.subgame.spot import SpotError, make_spot, tree_config
from pokerlab.subgame.tree import CHANCE, DECISION

BOARD = "Td9d6hQc"
RIVERS = ["2c", "7s", "Ah"]


def _spot() -> Any:
    return make_spot(board=BOARD, pot=100, stack=1000, oop="QQ,JTs,98s,AQo,KJs,66",
                     ip="AA,KTs,Q9s,T8s,A5s,77", tree=tree_config(bets="75%", raises="2.5x", raise_cap=2))


def _locked_full() -> SpotSolver:
    """The whole tree, every river decision (every card) locked to a fixed strategy: the
    first action with 0.7, the rest sharing 0.3."""
    full = SpotSolver(_spot(), SolveConfig(isomorphism=False), threads=1)
    tr = full.tree
    from pokerlab.cards.cards import card_str

    unseen = [c for c in range(52) if card_str(c) not in {BOARD[i:i + 2] for i in range(0, 8, 2)}]

    def visit(node: int, path: list[str]) -> None:
        k = int(tr.kind[node])
        if k == CHANCE:
            child = tr.child(node, 0)
            if int(tr.street[node]) == 1 and int(tr.kind[child]) == DECISION:
                for c in unseen:
                    visit(child, path + [card_str(c)])
            return
        if k != DECISION:
            return
        if int(tr.street[node]) == 2:
            n = int(tr.num_children[node])
            strat = np.full((n, 1326), 0.3 / max(n - 1, 1))
            strat[0] = 0.7 if n > 1 else 1.0
            full.lock(path, strat)
        for a in range(int(tr.num_children[node])):
            visit(tr.child(node, a), path + [tr.action_names[node][a]])

    visit(0, [])
    return full


class LockedRiver:
    """Leaf values: the locked whole tree's river below the same leaf, walked for the
    given reaches (the kernels' expected values, plus the player's chips in the spot at
    the leaf, so that what comes back counts the chips put in after the leaf only)."""

    def __init__(self, full: SpotSolver, dls: SpotSolver) -> None:
        self.full = full
        self.nodes = []
        self.calls: dict[str, int] = {}
        for path in dls.leaf_paths():
            node = 0
            for name in path:
                node = full.tree.child(node, full.tree.action_names[node].index(name))
            assert int(full.tree.kind[node]) == CHANCE
            self.nodes.append(node)
        self.contrib = [dls.leaf_contrib(i) for i in range(len(self.nodes))]

    def leaf_values(self, leaf: int, player: int, mode: str, opp: np.ndarray, own: np.ndarray) -> np.ndarray:
        self.calls[mode] = self.calls.get(mode, 0) + 1
        f = self.full
        o = 1 - player
        vals = f._run(K.MODE_EV, player, f.iteration + 1, node=self.nodes[leaf],
                      opp_reach=opp[f.deal.combos[o]], own_reach=own[f.deal.combos[player]])
        comp = f._compatible(player, np.ascontiguousarray(opp[f.deal.combos[o]], dtype=f.vec_dtype))
        out = np.zeros(1326)
        out[f.deal.combos[player]] = vals + self.contrib[leaf][player] * comp
        return out


def test_depth_limited_turn_equals_the_locked_whole_tree() -> None:
    full = _locked_full()
    dls = SpotSolver(_spot(), SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    assert len(dls.leaf_nodes) >= 3 and dls.tree.num_nodes < full.tree.num_nodes // 2
    assert all(int(dls.tree.street[n]) == 1 for n in dls.leaf_nodes)
    model = LockedRiver(full, dls)
    dls.set_leaf_model(model)
    for _ in range(30):
        full.step()
        dls.step()
    tr = dls.tree
    compared = 0
    for node in range(tr.num_nodes):
        if int(tr.kind[node]) != DECISION:
            continue
        path: list[str] = []
        v = node
        while tr.parent[v] >= 0:
            path.append(tr.action_names[int(tr.parent[v])][int(tr.parent_action[v])])
            v = int(tr.parent[v])
        twin = 0
        for name in reversed(path):
            twin = full.tree.child(twin, full.tree.action_names[twin].index(name))
        np.testing.assert_allclose(dls.average_strategy(node, 0), full.average_strategy(twin, 0), atol=2e-4)
        compared += 1
    assert compared >= 5
    assert model.calls["cfr"] == 30 * 2 * len(dls.leaf_nodes)
    # the measures run through the leaves too (the leaf model sees "br" and "ev")
    assert abs(dls.values()[0] - full.values()[0]) < 1e-3 * full.spot.pot
    dls.exploitability()
    assert model.calls.get("br", 0) == 2 * len(dls.leaf_nodes)


def test_values_below_the_root_read_their_own_leaf_values() -> None:
    """Counterfactual values at a node below the root (what a nested re-solve's gadget and
    ranges read) walk through the leaves with the leaf values of that player and mode, not
    those the last walk left (before 2026-12-07 a walk from a node read the last CFR walk's,
    the other player's): equal to the locked whole tree's at the turn's decisions, for both
    players, after a CFR step.  (Best responses differ by construction here: the whole
    tree's best-responds on the locked river, the leaves give the locked river's values.)"""
    from pokerlab.subgame.resolve import counterfactual_values, decision_paths

    full = _locked_full()
    dls = SpotSolver(_spot(), SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    dls.set_leaf_model(LockedRiver(full, dls))
    for _ in range(20):
        full.step()
        dls.step()
    checked = 0
    for p in (0, 1):
        for q in (0, 1):
            for path in decision_paths(dls, q)[:6]:
                dls.step()  # the last walk: the second player's CFR update
                full.step()
                got = counterfactual_values(dls, path, p, best_response=False)
                want = counterfactual_values(full, path, p, best_response=False)
                np.testing.assert_allclose(got, want, atol=1e-3)
                checked += 1
    assert checked >= 12


def test_depth_limited_refusals(tmp_path: Any) -> None:
    with pytest.raises(SpotError, match="flop or turn"):
        SpotSolver(make_spot(board=BOARD + "2c", pot=100, stack=300, oop="QQ", ip="AA",
                             tree=tree_config()), SolveConfig(isomorphism=False), depth_limited=True)
    with pytest.raises(SpotError, match="isomorphism"):
        SpotSolver(_spot(), SolveConfig(), depth_limited=True)
    dls = SpotSolver(_spot(), SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    with pytest.raises(SpotError, match="set_leaf_model"):
        dls.step()
    with pytest.raises(SpotError, match="not saved"):
        dls.save(tmp_path / "x.npz")
    whole = SpotSolver(_spot(), SolveConfig(isomorphism=False), threads=1)
    with pytest.raises(SpotError, match="no leaves"):
        whole.set_leaf_model(object())
