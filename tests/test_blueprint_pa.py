"""The blueprint trainer on potential-aware card tables (``cards="pa"``, issue 26): the
kernel's table buckets against the plain-Python twin, the policy's metadata and game."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from pokerlab.abstraction.buckets import BucketConfig, CardAbstraction
from pokerlab.abstraction.indexer import street_indexer
from pokerlab.blueprint import mccfr_kernels as K
from pokerlab.blueprint.config import PA_METHODS, BlueprintConfig
from pokerlab.blueprint.trainer import BlueprintTrainer
from pokerlab.errors import ConfigError

PA = BlueprintConfig(preset="custom", stack_bb=20.0, bets="tiny", buckets=(169, 3, 4, 5),
                     cards="pa", board_reuse=4, lcfr_until=40, lcfr_every=10, prune_after=20,
                     prune_prob=0.5, prune_threshold_bb=-0.5, regret_floor_bb=-1.0,
                     snapshot_every=15, snapshot_after=5)


@pytest.fixture(scope="module")
def fake_cards() -> CardAbstraction:
    """Tables of the right sizes whose buckets scatter the canonical indices (building the
    real tables takes minutes; the kernel only looks them up)."""
    cfg = BucketConfig(buckets=PA.buckets, methods=PA_METHODS)
    tables = [np.arange(169, dtype=np.uint16)]
    for s in (1, 2, 3):
        n = street_indexer(s).size
        idx = np.arange(n, dtype=np.uint64)
        tables.append(((idx * np.uint64(2654435761)) >> np.uint64(7)).astype(np.int64)
                      .__mod__(PA.buckets[s]).astype(np.uint16))
    return CardAbstraction(config=cfg, tables=tables)


def test_pa_kernel_matches_python_twin(fake_cards: CardAbstraction) -> None:
    tr = BlueprintTrainer(PA, cards=fake_cards)
    twin = BlueprintTrainer(PA, cards=fake_cards)
    tr.run(80, chunk=30)
    K.run_iterations_py(0, 80, twin.tree, twin.layout.node_offset, twin.regret, twin.avg,
                        twin._avg_mask, twin.snap, twin._thresholds, twin._nbuckets,
                        twin.state, twin.deck, twin.params_i, twin.params_f, twin._allin_d,
                        card_tables=fake_cards)
    assert np.array_equal(tr.state, twin.state)
    assert np.abs(tr.regret).sum() > 0
    np.testing.assert_allclose(tr.regret.astype(np.float64), twin.regret.astype(np.float64),
                               rtol=1e-5, atol=2e-3)
    np.testing.assert_allclose(tr.avg, twin.avg, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(tr.snap, twin.snap, rtol=1e-5, atol=1e-4)
    # the table buckets matter: hand-strength buckets give other tables
    hs = BlueprintTrainer(replace(PA, cards="hs", card_sample=400))
    hs.run(80, chunk=30)
    assert not np.allclose(hs.regret, tr.regret)


def test_pa_threads_refused_ray_block_runs(fake_cards: CardAbstraction) -> None:
    from pokerlab.blueprint.parallel import run_block, run_threaded, worker_state

    b = BlueprintTrainer(PA, cards=fake_cards)
    with pytest.raises(ConfigError, match="threads > 1 train hand-strength cards only"):
        run_threaded(b, 50, 2)
    # a Ray / process worker's block runs the table kernel
    reg, avg, snap = np.zeros_like(b.regret), np.zeros_like(b.avg), np.zeros_like(b.snap)
    run_block(b, 0, 40, reg, avg, snap, worker_state(0, 1, 0), np.arange(52, dtype=np.int64))
    assert np.abs(reg).sum() > 0


def test_pa_policy_names_its_tables(fake_cards: CardAbstraction) -> None:
    tr = BlueprintTrainer(PA, cards=fake_cards)
    tr.run(20, chunk=20)
    meta = tr.metadata()
    assert meta["buckets"] == "pa:169-3-4-5"
    assert meta["cards"]["method"] == "pa"
    assert meta["cards"]["key"] == BucketConfig(buckets=PA.buckets, methods=PA_METHODS).key()
    assert "buckets=169-3-4-5" in meta["game"]
    from pokerlab.agents.policy_agent import _policy_game

    game = _policy_game(meta["game"], meta)
    assert game.bucket_config is not None and game.bucket_config.key() == meta["cards"]["key"]
    assert tr.summary()["cards"] == "pa:169-3-4-5"


def test_pa_config_errors() -> None:
    with pytest.raises(ConfigError, match="cards must be one of"):
        BlueprintConfig(cards="emd")
    with pytest.raises(ConfigError, match="169 preflop classes"):
        BlueprintConfig(cards="pa", buckets=(1, 50, 50, 50))
    wrong = CardAbstraction(config=BucketConfig(buckets=(169, 9, 9, 9), methods=PA_METHODS),
                            tables=[np.zeros(1, np.uint16)] * 4)
    with pytest.raises(ConfigError, match="given card abstraction"):
        BlueprintTrainer(PA, cards=wrong)
    # old configs (no "cards" key) read as hand strength
    d = PA.to_json()
    d.pop("cards")
    assert BlueprintConfig.from_json(d).cards == "hs"


def test_lbr_table_bucket_vector_equals_per_combo(fake_cards: CardAbstraction) -> None:
    """LBR's all-hands bucket query for a table bucketer equals one lookup per combo."""
    from types import SimpleNamespace

    from pokerlab.abstraction.hs_cards import TableBucketer
    from pokerlab.policy.range_query import bucket_vector
    from pokerlab.policy.range_query import bucket_vector_py as _bucket_vector_py

    tb = TableBucketer(fake_cards)
    agent = SimpleNamespace(bucketer=tb, bucket=tb.bucket)
    rng = np.random.default_rng(3)
    for street in (0, 1, 2, 3):
        board = tuple(int(c) for c in rng.permutation(52)[:5])
        fast = bucket_vector(agent, street, board)
        slow = _bucket_vector_py(agent, street, board)
        assert np.array_equal(fast, slow), street
        assert (fast >= 0).sum() == 47 * 46 // 2
