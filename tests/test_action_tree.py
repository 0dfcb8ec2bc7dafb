"""The compiled betting tree (pokerlab.abstraction.action_tree)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction.action_tree import (
    CALL,
    DECISION,
    FOLD,
    FOLD_TERMINAL,
    SHOWDOWN_TERMINAL,
    compile_tree,
    estimate_tree,
    raise_options,
)
from pokerlab.abstraction.bets import parse_bet_set, preset, resolve_raises
from pokerlab.errors import ConfigError
from pokerlab.holdem.engine import HoldemConfig, HoldemState, Phase


def _tree_size():  # type: ignore[no-untyped-def]
    """The old memoised walk (moving from abstraction/game.py to games/hunl.py)."""
    for mod in ("pokerlab.abstraction.tree_count", "pokerlab.abstraction.game"):
        try:
            m = __import__(mod, fromlist=["tree_size"])
        except ImportError:
            continue
        if hasattr(m, "tree_size"):
            return m.tree_size
    pytest.skip("tree_size is not importable")


@pytest.mark.parametrize(("name", "bb"), [("tiny", 100), ("small", 100), ("small", 200),
                                          ("small", 20), ("tiny", 10)])
def test_counts_equal_tree_size(name: str, bb: int) -> None:
    tree_size = _tree_size()
    cfg = HoldemConfig.from_bb(bb)
    old = tree_size(preset(name), cfg, buckets=(169, 50, 50, 50))
    tree = compile_tree(preset(name), cfg)
    assert list(tree.decision_nodes_per_street()) == old.decision_nodes
    assert int(np.count_nonzero(tree.kind == FOLD_TERMINAL)) == old.terminal_folds
    assert int(np.count_nonzero(tree.kind == SHOWDOWN_TERMINAL)) == old.terminal_showdowns
    assert tree.num_infosets((169, 50, 50, 50)) == old.infosets
    lay = tree.layout((169, 50, 50, 50))
    assert lay.num_values == old.values
    # actions per street
    for s in range(4):
        sel = (tree.kind == DECISION) & (tree.street == s)
        assert int(tree.num_children[sel].sum()) == old.actions[s]


@pytest.mark.slow
def test_counts_equal_tree_size_default() -> None:
    tree_size = _tree_size()
    cfg = HoldemConfig.from_bb(100)
    old = tree_size(preset("default"), cfg)
    tree = compile_tree(preset("default"), cfg)
    assert list(tree.decision_nodes_per_street()) == old.decision_nodes
    assert tree.num_infosets((169, 200, 200, 200)) == old.infosets


def test_estimate_equals_allocation() -> None:
    for name in ("tiny", "small"):
        est = estimate_tree(preset(name), HoldemConfig.from_bb(100))
        tree = compile_tree(preset(name), HoldemConfig.from_bb(100))
        assert est.nodes == tree.num_nodes
        assert est.edges == tree.num_edges
        assert est.bytes == tree.nbytes
        assert est.decision_nodes_per_street == tree.decision_nodes_per_street()
        assert est.infosets((169, 50, 50, 50)) == tree.num_infosets((169, 50, 50, 50))


def test_limits_raise_config_error() -> None:
    with pytest.raises(ConfigError, match="nodes, above the limit of 100"):
        compile_tree(preset("small"), HoldemConfig.from_bb(100), max_nodes=100)
    with pytest.raises(ConfigError, match="bytes, above the limit of 1000"):
        compile_tree(preset("small"), HoldemConfig.from_bb(100), max_bytes=1000)


def _action_map():  # type: ignore[no-untyped-def]
    from pokerlab.abstraction.action_map import ActionMap

    return ActionMap


@pytest.mark.parametrize("bets", ["small", "default",
                                  "preflop: 2x, 3x, 50%, a, cap 4; postflop: 25%, 1.5p, a"])
def test_walk_matches_engine_and_resolve_raises(bets: str) -> None:
    bs = parse_bet_set(bets)
    cfg = HoldemConfig.from_bb(50)
    tree = compile_tree(bs, cfg)
    amap_cls = _action_map()
    amap = amap_cls(bs) if amap_cls is not None else None
    rng = np.random.default_rng(0)
    for _ in range(300):
        st = HoldemState(config=cfg)
        st.deal_hole(None)
        st.deal_hole(None)
        node = 0
        while True:
            betting_street = st.street
            while st.phase == Phase.DEAL_BOARD:
                st.deal_board(None)
            expect_street = betting_street if st.phase == Phase.TERMINAL else st.street
            assert tree.street[node] == min(expect_street, 3)
            assert tree.pot[node] == st.pot
            c = st.committed
            assert (tree.committed0[node], tree.committed1[node]) == c
            if st.phase == Phase.TERMINAL:
                if st.folded >= 0:
                    assert tree.kind[node] == FOLD_TERMINAL
                    assert tree.payoff0(node) == st.payoffs()[0]
                else:
                    assert tree.kind[node] == SHOWDOWN_TERMINAL
                    for out in (-1, 0, 1):
                        assert tree.payoff0(node, out) == st.showdown_payoffs(out)[0]
                break
            assert tree.kind[node] == DECISION
            assert tree.actor[node] == st.actor
            assert tree.to_call[node] == st.to_call
            opts = dict(raise_options(st, bs))
            rr = (resolve_raises(bs.street(st.street), pot=st.pot, current_bet=max(st.bets),
                                 to_call=st.to_call, min_raise_to=st.min_raise_to,
                                 all_in_to=st.max_raise_to, big_blind=cfg.big_blind,
                                 raises_so_far=st.num_raises) if st.can_raise else [])
            assert sorted(opts.items()) == sorted((2 + k, amt) for k, amt in rr)
            expect = ([FOLD] if st.can_fold else []) + [CALL] + sorted(opts)
            assert tree.actions(node) == expect
            lo = int(tree.child_start[node])
            for e in range(lo, lo + int(tree.num_children[node])):
                a = int(tree.child_action[e])
                if a >= 2:
                    assert int(tree.child_amount[e]) == opts[a]
            if amap is not None:
                assert amap.abstract_actions(st) == expect
                assert sorted(amap.raise_options(st)) == sorted(opts.items())
            a = int(rng.choice(expect))
            nxt = tree.child(node, a)
            if a == FOLD:
                st.fold()
            elif a == CALL:
                st.check_or_call()
            else:
                st.raise_to(opts[a])
            node = nxt
            assert tree.node_of_state(st) == node
            assert tree.node_of(tree.path(node)) == node


def test_preorder_and_navigation() -> None:
    tree = compile_tree(preset("tiny"), HoldemConfig.from_bb(100))
    assert tree.kind[0] == DECISION and tree.actor[0] == 1  # the button acts first preflop
    # children follow their parent in pre-order; edges are contiguous in node order
    assert np.all(tree.child_node > np.repeat(np.arange(tree.num_nodes),
                                              tree.num_children.astype(np.int64)))
    starts = np.zeros(tree.num_nodes, np.int64)
    np.cumsum(tree.num_children[:-1].astype(np.int64), out=starts[1:])
    assert np.array_equal(starts, tree.child_start)
    for n in range(tree.num_nodes):
        path = tree.path(n)
        assert tree.node_of(path) == n
    with pytest.raises(ConfigError, match="abstract action 7 is not legal at node 0"):
        tree.child(0, 7)
    assert tree.fingerprint() == compile_tree(preset("tiny"),
                                              HoldemConfig.from_bb(100)).fingerprint()
