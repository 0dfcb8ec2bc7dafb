"""Re-solving inside a spot (pokerlab.subgame.resolve): a spot that starts mid-street is
the subtree of the full spot, and safe re-solving (the resolve gadget) never raises the
exact exploitability of the searcher's strategy (river spots: best response is exact)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.subgame import SolveConfig, SpotSolver, make_spot, tree_config
from pokerlab.subgame.resolve import (
    counterfactual_values,
    decision_paths,
    lock_player,
    node_reach,
    root_after,
    strategy_at,
    subgame_spot,
)
from pokerlab.subgame.spot import Root, SpotError

TREE = tree_config(bets="50%,100%", raises="2.5x")
OOP = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+,T9s,98s"
IP = "55+,A5s+,KTs+,QJs,AJo+,KQo,T8s,86s,J9s"


def _spot(board: str = "Ks9h5c2d7s", stack: int = 300):
    return make_spot(board=board, pot=100, stack=stack, oop=OOP, ip=IP, tree=TREE)


def _subtree_names(s: SpotSolver, node: int) -> list[list[str]]:
    tr = s.tree
    out: list[list[str]] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(list(tr.action_names[n]))
        for a in range(int(tr.num_children[n]) - 1, -1, -1):
            stack.append(tr.child(n, a))
    return out


@pytest.mark.parametrize("prefix", [("check",), ("bet 50",), ("check", "bet 100"), ("bet 50", "raise 125")])
def test_mid_street_root_is_the_subtree(prefix: tuple[str, ...]) -> None:
    spot = _spot()
    full = SpotSolver(spot)
    acts = []
    for name in prefix:
        kind, _, amt = name.partition(" ")
        acts.append((kind, int(amt or 0)))
    root = root_after(spot, acts)
    sub = SpotSolver(make_spot(board=spot.board, pot=100, stack=300, oop=OOP, ip=IP, tree=TREE, root=root))
    node = full.cursor(list(prefix)).node
    assert _subtree_names(sub, 0) == _subtree_names(full, node)
    assert np.array_equal(sub.tree.contrib[0], full.tree.contrib[node])


def test_mid_street_values_equal_the_full_tree() -> None:
    """Both strategies fixed: the subgame's counterfactual values at its root equal the full
    tree's at the node (same reach)."""
    spot = _spot()
    full = SpotSolver(spot, SolveConfig(precision="double"))
    full.solve(iterations=30, target_pct=None)
    path = ("bet 50",)
    view, r0, r1 = node_reach(full, path)
    sub_spot = subgame_spot(spot, root_after(spot, [("bet", 50)]), 1, (r0, r1), safe=False)
    strategies0 = {p[1:]: strategy_at(full, p)[1] for p in decision_paths(full, 0, prefix=path)}
    strategies1 = {p[1:]: strategy_at(full, p)[1] for p in decision_paths(full, 1, prefix=path)}
    sub = lock_player(sub_spot, 0, strategies0, SolveConfig(isomorphism=False, precision="double"))
    for p, st in strategies1.items():
        sub.lock(list(p), np.where(np.isnan(st), 1 / st.shape[0], st), ~np.isnan(st[0]))
    for p in (0, 1):
        a = counterfactual_values(full, path, p, best_response=False)
        b = counterfactual_values(sub, (), p, best_response=False)
        assert np.allclose(a, b, atol=1e-6, rtol=1e-6)


@pytest.mark.parametrize("board,prefix,searcher", [
    ("Ks9h5c2d7s", ("check",), 1),
    ("Ks9h5c2d7s", ("bet 50",), 1),
    ("QdJd8c4s2h", ("check", "bet 50"), 0),
])
def test_safe_resolving_never_raises_exploitability(board: str, prefix: tuple[str, ...],
                                                    searcher: int) -> None:
    spot = _spot(board)
    trunk = SpotSolver(spot)
    trunk.solve(iterations=6, target_pct=None)
    opp = 1 - searcher
    br_trunk = trunk.best_response_values()[opp]
    cbv = counterfactual_values(trunk, prefix, opp, best_response=True)
    _, r0, r1 = node_reach(trunk, prefix)
    acts = [(n.partition(" ")[0], int(n.partition(" ")[2] or 0)) for n in prefix]
    root = root_after(spot, acts)
    results = {}
    for safe in (False, True):
        sub = SpotSolver(subgame_spot(spot, root, searcher, (r0, r1), safe=safe))
        if safe:
            sub.set_gadget(opp, cbv)
        sub.solve(iterations=400, target_pct=None)
        strategies = {}
        for p in decision_paths(trunk, searcher):
            inside = p[:len(prefix)] == prefix
            strategies[p] = strategy_at(sub, p[len(prefix):])[1] if inside else strategy_at(trunk, p)[1]
        combined = lock_player(spot, searcher, strategies)
        results[safe] = combined.best_response_values()[opp]
        if safe:  # per hand: the opponent gains nothing at the subgame root over its old values
            after = counterfactual_values(combined, prefix, opp, best_response=True)
            live = cbv != 0
            assert np.all(after[live] <= cbv[live] + 1e-3 * np.abs(cbv[live]).max())
    assert results[True] <= br_trunk + 1e-6
    assert np.isfinite(results[False])


def test_root_state_is_checked() -> None:
    with pytest.raises(SpotError, match="more"):
        make_spot(board="Ks9h5c2d7s", pot=100, stack=300, oop=OOP, ip=IP, tree=TREE,
                  root=Root(to_act=1, bets=(0, 50), acted=1, aggressions=1))
    with pytest.raises(SpotError, match="street is over"):
        root_after(_spot(), [("check", 0), ("check", 0)])


def test_gadget_values_are_checked() -> None:
    s = SpotSolver(_spot())
    with pytest.raises(SpotError, match="1326"):
        s.set_gadget(0, np.zeros(5))


def test_public_solver_api_matches_the_reports() -> None:
    """``SpotSolver.average_strategy`` is the strategy ``node_report`` shows (per hand, in
    the solver's order) and ``counterfactual_values`` the per-hand values behind
    ``values()`` / ``best_response_values()`` (their ratio: the normaliser cancels)."""
    s = SpotSolver(_spot(), SolveConfig(isomorphism=False), threads=1)
    s.steps(20)
    sigma = s.average_strategy(0)
    names, strat = strategy_at(s, ())
    assert names == s.action_names(0) and sigma.shape == (len(names), s.deal.combos[0].size)
    np.testing.assert_array_equal(strat[:, s.deal.combos[0]], sigma)
    np.testing.assert_allclose(sigma.sum(axis=0), 1.0, atol=1e-12)
    node = s.cursor(["bet 50"]).node
    below = strategy_at(s, ["bet 50"])[1][:, s.deal.combos[1]]
    np.testing.assert_array_equal(s.average_strategy(node), below)
    for p in (0, 1):
        w = s.deal.weights[p]
        ev = float(np.dot(w, s.counterfactual_values(p)))
        br = float(np.dot(w, s.counterfactual_values(p, best_response=True)))
        assert br >= ev > 0
        assert ev / br == pytest.approx(s.values()[p] / s.best_response_values()[p], rel=1e-12)
        full = counterfactual_values(s, (), p, best_response=False)
        np.testing.assert_allclose(full[s.deal.combos[p]], s.counterfactual_values(p), rtol=0, atol=0)
