"""The thesis agent's trainer (pokerlab.blueprint.thesis): kernels vs twins, the thesis's
rules (6 actions, 13 deep, regrets start at 20, fold rule, pruning), storage, the agent."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from pokerlab.blueprint import thesis as T
from pokerlab.blueprint import thesis_kernels as K
from pokerlab.blueprint import thesis_run as TR
from pokerlab.errors import ConfigError

SMALL = T.ThesisConfig(stack_bb=20, bets="preflop: 2bb, a, cap 1; postflop: 5bb, a, cap 1",
                       storage="memory", early_pairs=5, early_batch=3, batch=6,
                       prune_min_visits=4, prune_threshold=0.9, record_every=5)


def _fold_rows(t: T.ThesisTree) -> np.ndarray:
    """Flat value index of the fold action of every decision node that offers one."""
    a = t.arrays
    out = [int(a["row_of"][n]) for n in t.dec_nodes
           if int(a["child_action"][int(a["child_start"][n])]) == 0]
    return np.asarray(out, dtype=np.int64)


def test_thesis_tree_limits() -> None:
    t = T.build_tree(T.ThesisConfig())
    assert int(t.tree.num_children.max()) == 6
    assert t.max_depth == 13
    assert t.tree.num_nodes == 28240 and t.num_dec == 10858
    with pytest.raises(ConfigError, match="actions at a node"):
        T.build_tree(T.ThesisConfig(bets="1bb, 2bb, 5bb, 10bb, 20bb, 50bb, a"))
    with pytest.raises(ConfigError, match="up to 17 actions"):
        T.build_tree(T.ThesisConfig(bets="preflop: 2bb, a, cap 3; postflop: 5bb, a, cap 2"))
    with pytest.raises(ConfigError, match="storage"):
        T.ThesisConfig(storage="tape")
    with pytest.raises(ConfigError, match="fold_rule_mode"):
        T.ThesisConfig(fold_rule_mode="maybe")


def test_hand_class() -> None:
    from pokerlab.cards.cards import CLASS_NAMES, parse_cards

    a, b = parse_cards("AsAh")
    assert CLASS_NAMES[T.hand_class(a, b)] == "AA"
    a, b = parse_cards("7c2d")
    assert CLASS_NAMES[T.hand_class(a, b)] == CLASS_NAMES[T.hand_class(b, a)] == "72o"


def test_kernel_matches_python_twin() -> None:
    """Three batches (with pruning between them) through the kernel and the twin."""
    from pokerlab.cards.evaluator import eval_tables

    t = T.build_tree(SMALL)
    A = t.arrays
    wk = T.Working.empty(t, 20.0)
    wp = T.Working.empty(t, 20.0)
    hole = np.array([48, 49, 0, 5], dtype=np.int64)
    sk = np.zeros(3, dtype=np.int64)
    sp = np.zeros(3, dtype=np.int64)
    settled_k = settled_p = 0
    for b, rule in enumerate((1, 0, 2)):
        K.train_batch_kernel(20, hole, A["kind"], A["actor"], A["child_start"],
                             A["num_children"], A["child_node"], A["child_action"], A["row_of"],
                             A["dec_of"], A["fold_win0"], A["sd_amount"], A["allin_node"], 0.01,
                             wk.reg, wk.ssum, wk.kept, wk.visits, wk.touched, np.uint64(77 + b),
                             rule, eval_tables(), sk)
        K.train_batch_py(20, hole, A, 0.01, wp.reg, wp.ssum, wp.kept, wp.visits, wp.touched,
                         77 + b, rule, sp)
        for p in (0, 1):
            settled_k += K.prune_kernel(p, t.seat_nodes[p], A["child_start"],
                                        A["num_children"], A["child_node"], A["row_of"],
                                        A["dec_of"], A["subtree_end"], wk.reg, wk.kept,
                                        wk.visits, wk.touched, 15, 0.8)
            settled_p += K.prune_py(p, t.seat_nodes[p], A, wp.reg, wp.kept, wp.visits,
                                    wp.touched, 15, 0.8)
    assert settled_k == settled_p > 0
    assert np.array_equal(sk, sp) and sk[0] == 60
    np.testing.assert_allclose(wk.reg, wp.reg, rtol=0, atol=1e-4)
    np.testing.assert_allclose(wk.ssum, wp.ssum, rtol=0, atol=1e-4)
    assert np.array_equal(wk.kept, wp.kept)
    assert np.array_equal(wk.visits, wp.visits)
    assert np.array_equal(wk.touched, wp.touched)


def test_uniform_twin() -> None:
    st = np.array([123], dtype=np.uint64)
    sp = [123]
    for _ in range(5):
        assert K._uniform(st) == K.uniform_py(sp)


def test_regrets_start_at_20_and_fold_rule() -> None:
    t = T.build_tree(SMALL)
    A = t.arrays
    from pokerlab.cards.evaluator import eval_tables

    folds = _fold_rows(t)
    mins = {}
    for rule in (True, False):
        w = T.Working.empty(t, 20.0)
        assert np.all(w.reg == 20.0)
        st = np.zeros(3, dtype=np.int64)
        for b in range(20):
            hole = np.array([b, 51 - b, 20 + b % 5, 30 + b % 7], dtype=np.int64)
            K.train_batch_kernel(20, hole, A["kind"], A["actor"], A["child_start"],
                                 A["num_children"], A["child_node"], A["child_action"],
                                 A["row_of"], A["dec_of"], A["fold_win0"], A["sd_amount"],
                                 A["allin_node"], 0.01, w.reg, w.ssum, w.kept, w.visits,
                                 w.touched, np.uint64(b), rule, eval_tables(), st)
        mins[rule] = float(w.reg[:, folds].min())
        # rows never used keep their initial regret
        untouched = np.flatnonzero(w.touched[0] == 0)
        if untouched.size:
            d = untouched[0]
            r = int(t.dec_row[d])
            assert np.all(w.reg[0, r:r + int(t.dec_k[d])] == 20.0)
    assert mins[True] >= 0.0
    assert mins[False] < 0.0


def test_fold_rule_moves_the_amount() -> None:
    """One traversal at a fold decision: the fold regret is floored at 0 and the rest is
    added, split equally, to the other actions (total update unchanged)."""
    t = T.build_tree(SMALL)
    A = t.arrays
    from pokerlab.cards.evaluator import eval_tables

    w1 = T.Working.empty(t, 0.0)
    w2 = T.Working.empty(t, 0.0)
    w3 = T.Working.empty(t, 0.0)
    st = np.zeros(3, dtype=np.int64)
    hole = np.array([48, 49, 0, 5], dtype=np.int64)  # AA vs 2x: folding AA loses
    for w, rule in ((w1, 0), (w2, 1), (w3, 2)):
        K.train_batch_kernel(1, hole, A["kind"], A["actor"], A["child_start"],
                             A["num_children"], A["child_node"], A["child_action"],
                             A["row_of"], A["dec_of"], A["fold_win0"], A["sd_amount"],
                             A["allin_node"], 0.01, w.reg, w.ssum, w.kept, w.visits,
                             w.touched, np.uint64(5), rule, eval_tables(), st)
    changed = 0
    for n in t.dec_nodes:
        cs = int(A["child_start"][n])
        if int(A["child_action"][cs]) != 0:
            continue
        r, k = int(A["row_of"][n]), int(A["num_children"][n])
        p = int(A["actor"][n])
        plain, ruled = w1.reg[p, r:r + k].astype(np.float64), w2.reg[p, r:r + k]
        credit = w3.reg[p, r:r + k]
        if plain[0] < 0:
            changed += 1
            assert ruled[0] == 0.0 == credit[0]
            np.testing.assert_allclose(ruled[1:], plain[1:] + plain[0] / (k - 1), atol=1e-4)
            np.testing.assert_allclose(credit[1:], plain[1:] - plain[0] / (k - 1), atol=1e-4)
            assert abs(float(ruled.sum()) - float(plain.sum())) < 1e-3
    assert changed > 0


def test_pruning_frees_rows_and_store_roundtrip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    mem = T.train_thesis(SMALL, pairs=40)
    disk = T.train_thesis(replace(SMALL, storage="disk"), pairs=40, folder=tmp_path / "s")
    assert mem.settled > 0 and mem.settled == disk.settled
    assert mem.policy.allclose(disk.policy)
    assert len(list((tmp_path / "s").glob("seat*_class*.npz"))) > 0
    rec = mem.records
    assert [r["pairs"] for r in rec][:2] == [1, 5] and rec[-1]["pairs"] == 40
    assert rec[-1]["games"] == 5 * 3 + 35 * 6 == mem.games
    # bytes = rows * 9 + values * 8 summed over the stored subtrees
    assert rec[-1]["bytes"] > 0 and rec[-1]["rows"] == len(mem.policy)
    # a settled row plays its kept action only
    pol = mem.policy
    pure = 0
    for node in range(pol.num_nodes):
        if pol.num_children[node] == 0:
            continue
        for r in range(int(pol.row_ptr[node]), int(pol.row_ptr[node + 1])):
            s = int(pol.node_offset[node]) + (r - int(pol.row_ptr[node])) * int(
                pol.num_children[node])
            row = pol.probs[s:s + int(pol.num_children[node])]
            assert abs(float(row.sum()) - 1.0) < 1e-5
            pure += int(float(row.max()) == 1.0)
    assert pure > 0


def test_agent_plays_a_thesis_policy(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pokerlab.arena.matches import play_match

    res = T.train_thesis(SMALL, pairs=30)
    paths = TR.save_run(res, tmp_path, png=True)
    assert T.is_thesis_policy(paths["policy_path"])
    cfg = TR.load_config(paths["config_path"])
    assert cfg == SMALL
    assert (tmp_path / "thesis_memory.png").stat().st_size > 1000
    agent = T.load_thesis_agent(paths["policy_path"], seed=3)
    assert agent.inner.bucket(2, (48, 49), (0, 1, 2, 3, 4)) == T.hand_class(48, 49)
    m = play_match(f"policy:{paths['policy_path']}", "call", hands=40, duplicate=True,
                   stack_bb=20, workers=1)
    assert m.hands == 40 and not m.fast_path
    # deterministic: the same match twice gives the same chips
    m2 = play_match(f"policy:{paths['policy_path']}", "call", hands=40, duplicate=True,
                    stack_bb=20, workers=1)
    assert np.array_equal(m.chips, m2.chips)


def test_shipped_thesis_agent() -> None:
    if not T.SHIPPED_POLICY.is_file():
        pytest.skip("no shipped thesis policy")
    from pokerlab.registry import make_agent

    agent = make_agent("thesis")
    assert isinstance(agent, T.ThesisAgent)
    assert T.SHIPPED_POLICY.stat().st_size < 8 * 2**20
