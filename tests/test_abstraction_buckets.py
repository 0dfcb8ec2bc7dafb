from __future__ import annotations

import json
from math import comb
from pathlib import Path

import numpy as np
import pytest

from pokerlab.abstraction import buckets as B
from pokerlab.abstraction import buckets_kernels as BK
from pokerlab.abstraction.indexer import street_indexer
from pokerlab.cards.cards import COMBOS, parse_cards
from pokerlab.cards.evaluator import eval_tables
from pokerlab.errors import ConfigError

COMBOS64 = COMBOS.astype(np.int64)


@pytest.mark.parametrize("board", ["AsKsQsJsTs", "2c7d9hJsKd", "5h5d5c9s9h", "Ac2d3h4s6c"])
def test_river_equity_kernel_matches_twin(board: str) -> None:
    b = np.array(parse_cards(board), dtype=np.int64)
    eq = np.empty(1326)
    BK.equity_on_board(eval_tables(), COMBOS64, b, np.empty(1326, np.int32),
                       np.zeros(7464, np.int64), np.zeros(1326, np.int64), eq)
    ref = B.river_equity_py(list(b))
    assert np.allclose(eq, ref)
    assert (eq >= 0).sum() == 1081


def test_river_equity_known_values() -> None:
    # Royal flush on board: everyone splits -> 0.5.  The nuts on a dry board wins all.
    eq = B.river_equity_py(parse_cards("AsKsQsJsTs"))
    assert np.allclose(eq[eq >= 0], 0.5)
    eq = B.river_equity_py(parse_cards("2c7d9hKsKd"))
    kk = [i for i in range(1326) if {int(c) for c in COMBOS[i]} == set(parse_cards("KcKh"))][0]
    assert eq[kk] == 1.0  # quad kings, no flush possible: beats all 990 hands


def test_canonical_boards_counts() -> None:
    for n, count in ((3, 1755), (4, 16432)):
        reps, w = B.canonical_boards(n)
        assert reps.shape == (count, n)
        assert w.sum() == comb(52, n)


def test_turn_pass_matches_twin() -> None:
    reps, w = B.canonical_boards(4)
    sel = (reps[[17, 9000]], w[[17, 9000]])
    f = B.street_features(2, bins=10, boards=sel)
    ix = street_indexer(2)
    for b in sel[0]:
        e, e2, h = B.turn_features_py(list(b), 10)
        for i in range(0, 1326, 7):
            if set(COMBOS[i].tolist()) & set(b.tolist()):
                continue
            j = ix.index(list(COMBOS[i]) + list(b))
            assert f.ehs[j] == pytest.approx(e[i], abs=1e-6)
            assert f.ehs2[j] == pytest.approx(e2[i], abs=1e-6)
            assert np.array_equal(f.hist[j], h[i])
            assert h[i].sum() == 46


def test_flop_pass_consistent_with_turn_pass() -> None:
    flops, fw = B.canonical_boards(3)
    board = flops[1000]
    f = B.street_features(1, bins=8, boards=(board[None, :], fw[[1000]]))
    turns = np.array([list(board) + [t] for t in range(52) if t not in board], dtype=np.int64)
    tf = B.street_features(2, bins=8, boards=(turns, np.ones(len(turns))))
    fix, tix = street_indexer(1), street_indexer(2)
    for i in range(0, 1326, 37):
        hole = [int(c) for c in COMBOS[i]]
        if set(hole) & set(board.tolist()):
            continue
        tehs = [tf.ehs[tix.index(hole + list(board) + [t])] for t in range(52)
                if t not in board and t not in hole]
        j = fix.index(hole + list(board))
        assert f.ehs[j] == pytest.approx(np.mean(tehs), abs=1e-5)
        hist = np.bincount(np.minimum((np.array(tehs) * 8).astype(int), 7), minlength=8)
        assert np.array_equal(f.hist[j], hist)
        assert f.weight[j] > 0


def test_percentile_buckets() -> None:
    v = np.arange(100, dtype=np.float64)
    b = B.percentile_buckets(v, np.ones(100), 4)
    assert np.array_equal(np.bincount(b), [25, 25, 25, 25])
    assert (np.diff(b.astype(int)) >= 0).all()
    # weights move the thresholds
    w = np.ones(100)
    w[:10] = 10.0
    b = B.percentile_buckets(v, w, 2)
    assert b[:10].max() == 0 and int(np.bincount(b)[0]) == 10  # 10 heavy items > half the mass
    # ties share a bucket
    b = B.percentile_buckets(np.array([0.5] * 10 + [1.0]), np.ones(11), 3)
    assert len(set(b[:10].tolist())) == 1


def test_kmeans_emd_separates_clusters() -> None:
    rng = np.random.default_rng(0)
    lows = np.zeros((50, 10), dtype=np.uint8)
    highs = np.zeros((50, 10), dtype=np.uint8)
    for r in range(50):
        lows[r, rng.integers(0, 3)] = 40
        highs[r, rng.integers(7, 10)] = 40
    hist = np.concatenate([lows, highs])
    labels, md = B.emd_buckets(hist, np.ones(100), 2, sample=100, iters=20, seed=1)
    assert set(labels[:50].tolist()) == {0} and set(labels[50:].tolist()) == {1}
    # EMD of a shift of one bin is 1 bin width in CDF-L1 units
    a = B.hist_to_cdf(np.array([[1, 0, 0]]))[0]
    c = B.hist_to_cdf(np.array([[0, 1, 0]]))[0]
    assert BK.emd_cdf(a.astype(np.float32), c.astype(np.float32)) == pytest.approx(1.0)
    assert md >= 0


def test_config_validation() -> None:
    with pytest.raises(ConfigError, match="river"):
        B.BucketConfig(methods=("lossless", "pa", "pa", "pa"))
    with pytest.raises(ConfigError, match="moon"):
        B.BucketConfig(methods=("lossless", "moon", "pa", "ehs"))
    with pytest.raises(ConfigError, match="max_street"):
        B.BucketConfig(buckets=(10, 1, 1, 1), methods=("ehs", "ehs", "ehs", "ehs"), max_street=0)
    with pytest.raises(ConfigError):
        B.preset("nope")
    assert B.preset("default").buckets == (169, 200, 200, 200)
    assert B.preset("default").key() != B.preset("ehs").key()


def test_build_cache_checksum(tmp_path: Path) -> None:
    cfg = B.preset("test")
    ab, cached = B.load_or_build(cfg, root=tmp_path)
    assert not cached and ab.tables[0].tolist() == list(range(169))
    assert ab.bucket(0, parse_cards("AsAd")) == ab.bucket(0, parse_cards("AhAc"))
    ab2, cached2 = B.load_or_build(cfg, root=tmp_path)
    assert cached2 and np.array_equal(ab2.tables[0], ab.tables[0])
    folder = B.cache_path(cfg, tmp_path)
    meta = json.loads((folder / "config.json").read_text())
    assert meta["config"]["buckets"] == [169, 1, 1, 1] and len(meta["sha256"]) == 64
    (folder / "buckets.npz").write_bytes(b"corrupt")
    with pytest.raises(ConfigError, match="checksum"):
        B.load(folder)
    ab3, cached3 = B.load_or_build(cfg, root=tmp_path)  # rebuilt
    assert not cached3 and B.load(folder).tables[0].size == 169
    with pytest.raises(ConfigError, match="flop"):
        ab.bucket(1, parse_cards("AsAd"), parse_cards("2c3c4c"))


@pytest.mark.slow
def test_flop_features_full_weights() -> None:
    f = B.street_features(1, bins=10)
    assert f.weight.sum() == 1326 * comb(50, 3)
    assert (f.weight > 0).all()
    pf = B.preflop_features(f, bins=10)
    aa = street_indexer(0).index(parse_cards("AsAh"))
    assert pf.ehs[aa] == pytest.approx(0.85, abs=0.02)  # AA vs a random hand: ~85%


def test_assign_emd_matches_twin_and_kmeans_fixed_point() -> None:
    rng = np.random.default_rng(4)
    hist = rng.integers(0, 6, size=(400, 12)).astype(np.uint8)
    hist[:, 0] += 1  # no empty rows
    cdf = B.hist_to_cdf(hist).astype(np.float32)
    centers, labels, _ = BK.kmeans_emd(np.ascontiguousarray(cdf), 7, 100, 3)
    out = np.empty(400, dtype=np.int64)
    dist = np.empty(400, dtype=np.float32)
    BK.assign_emd(hist, hist.sum(axis=1).astype(np.float32), centers, out, dist)
    ref_lab, ref_d = B.assign_emd_py(hist, centers)
    assert np.allclose(dist, ref_d, atol=1e-4)
    assert (out == ref_lab).mean() > 0.99  # float32 near-ties may differ
    # Lloyd fixed point: every centre is the mean CDF of its members
    for j in range(centers.shape[0]):
        members = cdf[labels == j]
        if len(members):
            assert np.allclose(centers[j], members.mean(axis=0), atol=1e-5)
