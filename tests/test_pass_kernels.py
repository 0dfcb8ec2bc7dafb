"""The shared vocabulary of the tree kernels: node kinds, the forward-reach / value /
best-response passes (:mod:`pokerlab.games.pass_kernels`), the categorical sampler
(:func:`pokerlab.rng.sample_categorical`), the discount schedule
(:func:`pokerlab.solvers.regret.discount_factor`) and the HS bucket rule
(:func:`pokerlab.abstraction.hs_cards.hs_bucket`): each kernel against its plain twin, and
numbers."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab import kinds
from pokerlab.abstraction import action_tree
from pokerlab.abstraction.hs_cards import bucket_of_hs, hs_bucket
from pokerlab.evaluation import policy_slot_probs
from pokerlab.games import load_game
from pokerlab.games import pass_kernels as pk
from pokerlab.games.compiled import KIND_CHANCE, KIND_DECISION, KIND_TERMINAL, compile_game
from pokerlab.games.public_tree import build_public_tree
from pokerlab.policy import TabularPolicy, UniformRandomPolicy
from pokerlab.rng import pick, sample_categorical, sample_categorical_py, sample_positive
from pokerlab.solvers.regret import discount_factor, discount_factor_py
from pokerlab.subgame import tree as subgame_tree


def test_one_set_of_node_kinds() -> None:
    assert (kinds.DECISION, kinds.FOLD, kinds.SHOWDOWN, kinds.CHANCE, kinds.TERMINAL) == \
        (0, 1, 2, 3, 4)
    assert (KIND_DECISION, KIND_CHANCE, KIND_TERMINAL) == (0, 3, 4)
    assert (action_tree.DECISION, action_tree.FOLD_TERMINAL, action_tree.SHOWDOWN_TERMINAL) \
        == (0, 1, 2)
    assert (subgame_tree.DECISION, subgame_tree.CHANCE, subgame_tree.FOLD,
            subgame_tree.SHOWDOWN) == (0, 3, 1, 2)
    assert kinds.NodeKind(3).name == "CHANCE"
    assert [kinds.NAMES[k] for k in (kinds.DECISION, kinds.CHANCE, kinds.TERMINAL)] == \
        ["decision", "chance", "terminal"]
    cg = compile_game(load_game("kuhn"))
    assert sorted(set(cg.kind.tolist())) == [0, 3, 4]
    assert int(cg.kind[0]) == kinds.CHANCE


def _random_slots(cg, seed: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    rows = []
    for i, key in enumerate(cg.infoset_keys):
        lo, hi = cg.infoset_offset[i], cg.infoset_offset[i + 1]
        rows.append((key, cg.infoset_actions[lo:hi], rng.dirichlet(np.ones(hi - lo))))
    return policy_slot_probs(cg, TabularPolicy.from_rows(rows))


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_passes_match_their_twins(game_name: str) -> None:
    cg = compile_game(load_game(game_name))
    sp = _random_slots(cg, 5)
    n, p = cg.num_nodes, cg.num_players
    args = (cg.kind, cg.player, cg.child_start, cg.child_count, cg.children, cg.edge_prob,
            cg.edge_slot, sp)
    r1, r2 = np.zeros((n, p + 1)), np.zeros((n, p + 1))
    pk.forward_reach(*args, r1)
    pk.forward_reach_py(*args, r2)
    np.testing.assert_array_equal(r1, r2)
    # the leaves' probabilities (all reaches and chance's multiplied) sum to 1
    assert r1[cg.kind == KIND_TERMINAL].prod(axis=1).sum() == pytest.approx(1.0, abs=1e-12)
    vargs = (cg.kind, cg.child_start, cg.child_count, cg.children, cg.edge_prob, cg.edge_slot,
             sp, cg.utility)
    v1, v2 = np.zeros((n, p)), np.zeros((n, p))
    pk.tree_values(*vargs, 0, p, v1)
    pk.tree_values_py(*vargs, 0, p, v2)
    np.testing.assert_allclose(v1, v2, rtol=0, atol=1e-12)
    np.testing.assert_allclose(v1.sum(axis=1), 0.0, atol=1e-12)  # zero-sum
    one = np.zeros((n, 1))
    pk.tree_values(*vargs, 1, 2, one)  # player 1 alone
    np.testing.assert_array_equal(one[:, 0], v1[:, 1])
    for br in (0, 1):
        free = np.full(cg.num_infosets, -1, dtype=np.int64)
        forced = free.copy()
        mine = np.flatnonzero(cg.infoset_player == br)
        forced[mine[::3]] = cg.infoset_offset[mine[::3]]  # first action at every third set
        bargs = (cg.kind, cg.player, cg.infoset, cg.child_start, cg.child_count, cg.children,
                 cg.edge_prob, cg.edge_slot, sp, cg.utility, r1, cg.infoset_player,
                 cg.infoset_offset, cg.infoset_depth, br)
        vf, cf = pk.tree_best_response(*bargs, free)
        vf_py, cf_py = pk.tree_best_response_py(*bargs, free)
        assert vf == pytest.approx(vf_py, abs=1e-12)
        np.testing.assert_array_equal(cf, cf_py)
        vc, cc = pk.tree_best_response(*bargs, forced)
        vc_py, cc_py = pk.tree_best_response_py(*bargs, forced)
        assert vc == pytest.approx(vc_py, abs=1e-12)
        np.testing.assert_array_equal(cc, cc_py)
        assert np.array_equal(cc[forced >= 0], forced[forced >= 0])
        assert vc <= vf + 1e-12  # forcing choices can only lower the best response


def test_best_response_numbers_kuhn_uniform() -> None:
    """Uniform Kuhn: best responses 1/2 (player 0; its on-policy value is 1/8) and 5/12
    (player 1), so NashConv = 11/12 (test_evaluation.py)."""
    cg = compile_game(load_game("kuhn"))
    sp = policy_slot_probs(cg, UniformRandomPolicy())
    reach = np.zeros((cg.num_nodes, 3))
    pk.forward_reach(cg.kind, cg.player, cg.child_start, cg.child_count, cg.children,
                     cg.edge_prob, cg.edge_slot, sp, reach)
    free = np.full(cg.num_infosets, -1, dtype=np.int64)
    vals = [pk.tree_best_response(cg.kind, cg.player, cg.infoset, cg.child_start,
                                  cg.child_count, cg.children, cg.edge_prob, cg.edge_slot, sp,
                                  cg.utility, reach, cg.infoset_player, cg.infoset_offset,
                                  cg.infoset_depth, p, free)[0] for p in (0, 1)]
    assert vals[0] == pytest.approx(0.5, abs=1e-12)
    assert vals[1] == pytest.approx(5 / 12, abs=1e-12)


def test_public_reach_matches_twin() -> None:
    tree = build_public_tree(load_game("leduc"))
    rng = np.random.default_rng(2)
    sigma = rng.random((tree.num_slots, tree.max_hands))
    a = (tree.kind, tree.player, tree.child_start, tree.child_count, tree.children,
         tree.slot_base, sigma)
    r1 = np.zeros((tree.num_nodes, 2, tree.max_hands))
    r2 = np.zeros_like(r1)
    pk.public_reach(*a, r1)
    pk.public_reach_py(*a, r2)
    np.testing.assert_array_equal(r1, r2)
    assert r1[0].min() == 1.0


def test_categorical_sampler() -> None:
    probs = np.array([0.0, 0.25, 0.5, 0.25, 9.0])
    # u < running sum: 0.25 goes to index 2 (0.25 is not < 0.25), 0.7499 stays at 2
    for u, want in [(0.0, 1), (0.2499, 1), (0.25, 2), (0.7499, 2), (0.75, 3), (0.9999, 3)]:
        assert sample_categorical(probs, 0, 4, u) == want
        assert sample_categorical_py(probs, 0, 4, u) == want
    # an offset row; rounding past the sum falls back to the last slot
    assert sample_categorical(probs, 1, 3, 0.5) == 1
    assert sample_categorical(probs, 1, 3, 1.5) == 2
    assert sample_categorical_py([0.1, 0.2], 0, 2, 0.95) == 1
    assert pick([("a", 0.5), ("b", 0.5)], 0.5) == "b"
    # the tabular samplers never draw a zero-probability action, even past the sum
    assert sample_positive([0.5, 0.5, 0.0], 1.0) == 1
    assert sample_positive([0.0, 0.3, 0.7], 0.3) == 2
    assert sample_positive([0.0, 0.0], 0.5) == 0
    rng = np.random.default_rng(0)
    for _ in range(200):
        k = int(rng.integers(1, 7))
        p = rng.dirichlet(np.ones(k)).astype(np.float32)
        u = float(rng.random())
        assert sample_categorical(p, 0, k, u) == sample_categorical_py(p, 0, k, u)


def test_discount_schedule() -> None:
    assert discount_factor(1, 1.0) == 0.5
    assert discount_factor(3, 1.0) == 0.75  # Linear CFR: t / (t + 1)
    assert discount_factor(4, 1.5) == pytest.approx(8 / 9, abs=1e-15)  # DCFR alpha
    assert discount_factor(7, 0.0) == 0.5  # DCFR beta = 0
    for t in range(1, 60):
        for e in (0.0, 0.5, 1.0, 1.5, 2.0):
            assert discount_factor(t, e) == discount_factor_py(t, e)


def test_hs_bucket_rule() -> None:
    thr = np.array([0.2, 0.5, 0.5, 0.8, 2.0, 2.0])
    for hs, want in [(0.0, 0), (0.2, 0), (0.2000001, 1), (0.5, 1), (0.6, 3), (0.8, 3),
                     (0.95, 4), (1.0, 4)]:
        assert hs_bucket(hs, thr, 4) == want
        assert bucket_of_hs(hs, thr[:4]) == want
    assert hs_bucket(1.0, thr, 6) == 4  # padding (2.0) never counts


def test_hs_buckets_of_a_board_agree_with_the_card_spec() -> None:
    from pokerlab.abstraction.hs_cards import CardSpec, hs_bucket_vector
    from pokerlab.cards.cards import COMBOS, parse_cards

    spec = CardSpec(buckets=(169, 6, 6, 6), sample=3000, seed=1).with_thresholds()
    board = tuple(parse_cards("Ah7d2c"))
    vec = hs_bucket_vector(spec, 1, board)
    assert vec.shape == (1326,)
    assert int((vec == -1).sum()) == 1326 - 1176  # combos holding a board card
    seen = vec[vec >= 0]
    assert seen.min() == 0 and seen.max() == 5
    for j in range(0, 1326, 37):
        if vec[j] >= 0:
            assert vec[j] == spec.bucket(1, tuple(int(c) for c in COMBOS[j]), board)
