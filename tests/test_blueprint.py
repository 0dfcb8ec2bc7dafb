"""The blueprint trainer: kernel parity, push/fold convergence, resume, pruning, memory."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from pokerlab.abstraction.action_tree import DECISION
from pokerlab.blueprint import mccfr_kernels as K
from pokerlab.blueprint.config import BlueprintConfig, preset
from pokerlab.blueprint.trainer import BlueprintTrainer, seed_state, table_bytes
from pokerlab.cards.cards import CLASS_OF_COMBO
from pokerlab.errors import ConfigError
from pokerlab.policy import IndexedPolicy, load_any_policy

# the bench game's tables after 3,000 iterations (test_kernel_pinned_against_previous_kernel)
REGRET_SUM_3000 = -4703724.683267593
AVG_SUM_3000 = 42731.000276115374
STATE_3000 = 12297653506170697281

TINY = BlueprintConfig(preset="custom", stack_bb=20.0, bets="tiny", buckets=(169, 3, 3, 3),
                       board_reuse=4,
                       card_sample=400, lcfr_until=40, lcfr_every=10, prune_after=20,
                       prune_prob=0.5, prune_threshold_bb=-0.5, regret_floor_bb=-1.0,
                       snapshot_every=15, snapshot_after=5, avg_streets=(True, True, False,
                                                                          False))


def test_thesis_regret_matching_worked_example() -> None:
    """Regrets 5/15/10/-5/-10 give 1/6, 1/2, 1/3, 0, 0; child values 0/-5/5/30/10 give the
    node value -5/6 and new regrets r + u - v."""
    regret = np.array([5, 15, 10, -5, -10], dtype=np.float32)
    sig = np.zeros(5)
    K._matching(regret, 0, 5, sig)
    assert np.allclose(sig, [1 / 6, 1 / 2, 1 / 3, 0, 0])
    assert np.round(sig, 3).tolist() == [0.167, 0.5, 0.333, 0.0, 0.0]
    util = np.array([0.0, -5.0, 5.0, 30.0, 10.0])
    v = float(sig @ util)
    assert v == pytest.approx(-5 / 6)
    K.update_regrets(regret, 0, 5, util, np.ones(5, np.bool_), v, -1e9, False)
    assert np.allclose(regret, [5 + 5 / 6, 10 + 5 / 6, 15 + 5 / 6, 25 + 5 / 6, 5 / 6], atol=1e-5)
    ints = np.array([5, 15, 10, -5, -10], dtype=np.int32)
    K.update_regrets(ints, 0, 5, util, np.ones(5, np.bool_), v, -7.0, True)
    assert ints.tolist() == [6, 11, 16, 26, 1]


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_kernel_matches_python_twin(dtype: str) -> None:
    cfg = replace(TINY, regret_dtype=dtype)
    tr = BlueprintTrainer(cfg)
    twin = BlueprintTrainer(cfg)
    tr.run(60, chunk=25)
    K.run_iterations_py(0, 60, twin.tree, twin.layout.node_offset, twin.regret, twin.avg,
                        twin._avg_mask, twin.snap, twin._thresholds, twin._nbuckets,
                        twin.state, twin.deck, twin.params_i, twin.params_f, twin._allin_d)
    assert np.array_equal(tr.state, twin.state)
    assert np.array_equal(tr.deck, twin.deck)
    assert np.abs(tr.regret).sum() > 0
    np.testing.assert_allclose(tr.regret.astype(np.float64), twin.regret.astype(np.float64),
                               rtol=1e-5, atol=2e-3 if dtype == "float32" else 1.0)
    np.testing.assert_allclose(tr.avg, twin.avg, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(tr.snap, twin.snap, rtol=1e-5, atol=1e-4)


def test_resume_equals_uninterrupted_run(tmp_path: Path) -> None:
    whole = BlueprintTrainer(TINY)
    whole.run(300, chunk=300)
    part = BlueprintTrainer(TINY)
    part.run(130, chunk=7)
    part.save(tmp_path)
    back = BlueprintTrainer.resume(tmp_path)
    assert back.iterations == 130
    back.run(170, chunk=1000)
    for name in ("regret", "avg", "snap", "state", "deck"):
        assert np.array_equal(getattr(whole, name), getattr(back, name)), name
    # a tampered checkpoint is refused
    ck = tmp_path / "checkpoint.npz"
    with np.load(ck, allow_pickle=False) as z:
        arrays = {k: np.array(z[k]) for k in z.files}
    arrays["regret"][5] += 1
    with open(ck, "wb") as fh:
        np.savez(fh, **arrays)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="checkpoint"):
        BlueprintTrainer.resume(tmp_path)


def test_disk_storage_equals_memory(tmp_path: Path) -> None:
    mem = BlueprintTrainer(TINY)
    mem.run(200, chunk=60)
    disk = BlueprintTrainer(TINY, storage="disk", folder=tmp_path)
    assert isinstance(disk.regret, np.memmap)
    assert (tmp_path / "tables_regret.npy").stat().st_size >= disk.regret.nbytes
    disk.run(120, chunk=60)
    disk.save(tmp_path)
    back = BlueprintTrainer.resume(tmp_path, storage="disk")
    back.run(80)
    for name in ("regret", "avg", "snap", "state"):
        assert np.array_equal(np.asarray(getattr(mem, name)), np.asarray(getattr(back, name)))
    assert np.array_equal(np.load(tmp_path / "tables_regret.npy"), mem.regret)
    with pytest.raises(ConfigError, match="needs a folder"):
        BlueprintTrainer(TINY, storage="disk")


def test_memory_estimate_equals_allocation() -> None:
    for cfg in (TINY, replace(TINY, regret_dtype="int32", snapshot_every=0),
                replace(TINY, avg_streets=(False, False, False, False))):
        tr = BlueprintTrainer(cfg)
        assert tr.estimated_bytes == tr.table_nbytes
        assert table_bytes(cfg, tr.layout.num_values) == tr.table_nbytes
        assert tr.infosets == tr.tree.num_infosets(cfg.buckets)
    with pytest.raises(ConfigError, match="above (max_memory|the limit of) 5000"):
        BlueprintTrainer(replace(TINY, max_memory=5_000))


def test_pruning_never_prunes_river_or_terminal_actions() -> None:
    cfg = replace(TINY, prune_after=0, prune_prob=1.0, prune_threshold_bb=-300.0,
                  regret_floor_bb=-1e6, lcfr_until=0, lcfr_every=0, snapshot_every=0)
    tr = BlueprintTrainer(cfg)
    start = -1000.0 * cfg.big_blind  # below the threshold everywhere
    tr.regret[:] = start
    tr.run(400)
    t = tr.tree
    changed_protected = 0
    for node in np.flatnonzero(t.kind == DECISION).tolist():
        k = int(t.num_children[node])
        nb = cfg.buckets[int(t.street[node])]
        lo = int(tr.layout.node_offset[node])
        rows = tr.regret[lo:lo + nb * k].reshape(nb, k)
        for a in range(k):
            child = int(t.child_node[int(t.child_start[node]) + a])
            protected = int(t.street[node]) == 3 or int(t.kind[child]) != DECISION
            moved = bool(np.any(rows[:, a] != np.float32(start)))
            if not protected:
                assert not moved, (node, a)
            elif moved:
                changed_protected += 1
    assert changed_protected > 0
    # without pruning every action moves somewhere
    tr2 = BlueprintTrainer(replace(cfg, prune_after=-1))
    tr2.regret[:] = start
    tr2.run(400)
    assert int(np.count_nonzero(tr2.regret != np.float32(start))) > int(
        np.count_nonzero(tr.regret != np.float32(start)))


def test_sampled_regret_increments_are_unbiased() -> None:
    """Push/fold tree, uniform strategies: the mean sampled increment of the small blind's
    shove regret per class equals the exact full-width increment (all opponent hands,
    the opponent's both actions) within 5 standard errors."""
    cfg = replace(preset("pushfold"), lcfr_until=0, lcfr_every=0)
    tr = BlueprintTrainer(cfg)
    tr.params_i[K.P_TRAV_FIXED] = 1  # the small blind traverses every iteration
    from pokerlab.pushfold.game import matrices_for

    mats = matrices_for()
    stack = 1000.0
    # exact: u_shove(i) = 0.5 * 100 + 0.5 * stack * mean_j D[i, j]; u_fold = -50
    u_shove = 0.5 * 100.0 + 0.5 * stack * (mats.D.sum(axis=1) / mats.V.sum(axis=1))
    inc = 0.5 * (u_shove - (-50.0))  # shove regret increment = u_shove - v
    exact_cls = np.bincount(CLASS_OF_COMBO, weights=inc, minlength=169) / np.bincount(
        CLASS_OF_COMBO, minlength=169)
    n = 40_000
    s1 = np.zeros(169)
    s2 = np.zeros(169)
    cnt = np.zeros(169)
    k0 = int(tr.tree.num_children[0])
    for _ in range(n):
        tr.regret[:] = 0.0
        tr._kernel(1)
        tr.iterations += 1
        row = tr.regret[:169 * k0].reshape(169, k0)[:, 1]
        c = int(np.flatnonzero(row != 0)[0]) if np.any(row != 0) else -1
        if c < 0:
            continue
        cnt[c] += 1
        s1[c] += row[c]
        s2[c] += float(row[c]) ** 2
    seen = cnt > 30
    mean = s1[seen] / cnt[seen]
    se = np.sqrt(np.maximum(s2[seen] / cnt[seen] - mean ** 2, 1e-12) / cnt[seen])
    z = np.abs(mean - exact_cls[seen]) / se
    assert seen.sum() > 150
    assert float(np.max(z)) < 5.0
    assert float(np.mean(z)) < 1.2


def test_pushfold_preset_converges() -> None:
    tr = BlueprintTrainer(preset("pushfold", stack=10))
    tr.run(500_000)
    early = tr.exploitability_bb()
    tr.run(2_000_000)
    late = tr.exploitability_bb()
    assert late < 1e-3
    assert late < early
    s, c = tr.pushfold_strategies()
    assert s.shape == (1326,) and c.shape == (1326,)


def test_policy_file_and_metadata(tmp_path: Path) -> None:
    tr = BlueprintTrainer(TINY)
    tr.run(50)
    paths = tr.save(tmp_path)
    pol = load_any_policy(paths["policy"])
    assert isinstance(pol, IndexedPolicy)
    assert pol.metadata["game"] == "hunl(stacks=2000,bets=tiny)"
    assert pol.metadata["iterations"] == 50
    assert len(pol) == tr.infosets
    assert np.allclose(pol.probs, tr.strategy())
    assert (tmp_path / "config.json").exists() and (tmp_path / "train.json").exists()


def _board_decks() -> list[np.ndarray]:
    """Random decks (board = first 5 cards) plus boards with 3, 4 and 5 cards of a suit."""
    rng = np.random.default_rng(3)
    decks = [rng.permutation(52).astype(np.int64) for _ in range(40)]
    for suited in (3, 4, 5):
        for _ in range(8):
            deck = rng.permutation(52).astype(np.int64)
            suit = int(rng.integers(4))
            same = [c for c in deck.tolist() if c % 4 == suit][:suited]
            rest = [c for c in deck.tolist() if c not in same]
            board = same + [c for c in rest if c % 4 != suit][:5 - suited]
            order = rng.permutation(5).tolist()
            board = [board[i] for i in order]
            decks.append(np.array(board + [c for c in deck.tolist() if c not in board],
                                  dtype=np.int64))
    return decks


def test_board_tables_and_hand_strength_are_exact() -> None:
    """The kernel's per-board tables (rank-pair fill plus flush corrections) hold every
    combo's evaluator strength, and the hand strength from them equals the direct count
    of :func:`pokerlab.blueprint.cards.hand_strength` (the same float), flushes included."""
    from pokerlab.blueprint.cards import combos64, hand_strength
    from pokerlab.cards.cards import COMBO_INDEX
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
    from pokerlab.cards.hand_classes import NUM_STRENGTHS

    combos = combos64()
    ci = np.ascontiguousarray(COMBO_INDEX, dtype=np.int64)
    mat = np.zeros((4, 52, 52), np.int16)
    hist = np.zeros((4, NUM_STRENGTHS + 2), np.int16)
    coarse = np.zeros((4, K.NUM_COARSE), np.int16)
    st = np.zeros(1326, np.int32)
    nbk = np.array([169, 50, 50, 50], dtype=np.int64)
    checked = 0
    for deck in _board_decks():
        K.board_tables(eval_tables(), deck, nbk, mat, hist, coarse)
        on_board = set(deck[:5].tolist())
        for s in (1, 2, 3):
            nb = K.BOARD_CARDS[s]
            combos_on_board_kernel(eval_tables(), combos, deck[:nb], nb, st)
            live = st > 0
            assert int(hist[s].sum()) == int(live.sum())
            assert np.array_equal(np.bincount(st[live], minlength=hist.shape[1]), hist[s])
            for k in np.flatnonzero(live)[::7].tolist():
                x, y = int(combos[k, 0]), int(combos[k, 1])
                assert mat[s, x, y] == st[k] and mat[s, y, x] == st[k]
            for a, b in ((int(deck[5]), int(deck[6])), (int(deck[7]), int(deck[8]))):
                assert a not in on_board and b not in on_board
                fast = K.hand_strength_mat(mat[s], hist[s], coarse[s], a, b,
                                           K.opponent_combos(s))
                slow = hand_strength(st, combos, a, b, st[ci[a, b]])
                assert fast == slow
                checked += 1
    assert checked == 2 * 3 * len(_board_decks())


def test_bucket_table_matches_threshold_rule() -> None:
    from pokerlab.blueprint.cards import CardSpec, bucket_of_hs

    spec = CardSpec(buckets=(169, 7, 50, 200), sample=400).with_thresholds()
    nbk = np.asarray(spec.buckets, dtype=np.int64)
    th = spec.threshold_array()
    ncombos = np.array([0] + [K.opponent_combos(s) for s in (1, 2, 3)], dtype=np.int64)
    assert ncombos.tolist() == [0, 1081, 1035, 990]
    table = np.zeros((4, 2 * ncombos[1] + 1), dtype=np.int64)
    K.bucket_table(nbk, th, ncombos, table)
    for s in (1, 2, 3):
        n = int(ncombos[s])
        for q in range(0, 2 * n + 1, 3):
            hs = 0.5 * q / n
            assert table[s, q] == bucket_of_hs(hs, spec.thresholds[s])


def test_kernel_pinned_against_previous_kernel() -> None:
    """The bench game (fcpa betting, 169/200/200/200 buckets) after 3,000 iterations: the
    table sums of the kernel before its speed-up (recursion-free traversal over per-board
    cumulative counts), which the faster kernel reproduces bit for bit."""
    from pokerlab.blueprint.bench import fcpa_config

    tr = BlueprintTrainer(fcpa_config())
    tr.run(3000, chunk=1111)
    assert float(np.sum(tr.regret, dtype=np.float64)) == REGRET_SUM_3000
    assert float(np.sum(tr.avg, dtype=np.float64)) == AVG_SUM_3000
    assert int(tr.state[0]) == STATE_3000


def test_bucket_major_kernel_equals_tree_layout_kernel() -> None:
    """The trainer's bucket-major path (tables copied into the bucket-major layout for each
    call) gives the tables of the in-place tree-layout kernel bit for bit, snapshots and
    int32 regrets included."""
    for cfg in (TINY, replace(TINY, regret_dtype="int32")):
        fast = BlueprintTrainer(cfg)
        fast.run(300, chunk=77)
        assert fast._work is not None  # the bucket-major path ran
        slow = BlueprintTrainer(cfg)
        t = slow.tree
        for t0 in range(0, 300, 77):
            K.run_iterations(t0, min(77, 300 - t0), t.kind, t.actor, t.street, t.child_start,
                             t.num_children, t.child_node, t.committed0, t.committed1,
                             slow.layout.node_offset, slow.regret, cfg.regret_dtype == "int32",
                             slow.avg, slow._avg_mask, slow.snap, slow._nbuckets,
                             slow._thresholds, slow._class_of, slow._combo_index,
                             _eval_tables(), _combos(), slow.state, slow.deck, slow.params_i,
                             slow.params_f, slow.max_depth, slow.max_actions, slow._allin_d)
        for name in ("regret", "avg", "snap", "state", "deck"):
            assert np.array_equal(getattr(fast, name), getattr(slow, name)), name
        assert np.abs(fast.snap).sum() > 0


def _eval_tables() -> object:
    from pokerlab.cards.evaluator import eval_tables

    return eval_tables()


def _combos() -> np.ndarray:
    from pokerlab.blueprint.cards import combos64

    return combos64()


def test_seed_state_nonzero_and_distinct() -> None:
    assert seed_state(0)[0] != 0
    assert seed_state(1)[0] != seed_state(2)[0]
