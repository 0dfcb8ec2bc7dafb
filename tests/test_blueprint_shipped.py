"""The shipped blueprint policies (pokerlab/data/blueprint_policy.npz, 100 bb, and
blueprint_200_policy.npz, 200 bb: the ACPC / Slumbot game)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import pokerlab
from pokerlab.abstraction.action_tree import DECISION, compile_tree
from pokerlab.blueprint.cards import CardSpec
from pokerlab.blueprint.config import BlueprintConfig
from pokerlab.policy import IndexedPolicy, load_any_policy

DATA = Path(pokerlab.__file__).parent / "data"
SHIPPED = DATA / "blueprint_policy.npz"
SHIPPED_FILES = {100: SHIPPED, 200: DATA / "blueprint_200_policy.npz"}


@pytest.fixture(scope="module")
def policy() -> IndexedPolicy:
    if not SHIPPED.exists():
        pytest.skip("no shipped blueprint policy")
    pol = load_any_policy(SHIPPED)
    assert isinstance(pol, IndexedPolicy)
    return pol


def test_shipped_files_fit_the_budget() -> None:
    """All shipped policies together at most 25 MB (issue 26)."""
    total = sum(p.stat().st_size for p in DATA.glob("*_policy.npz"))
    assert 0 < total <= 25 * 1024 * 1024


@pytest.mark.parametrize("bb", sorted(SHIPPED_FILES))
def test_shipped_policy_is_small_and_complete(bb: int) -> None:
    path = SHIPPED_FILES[bb]
    if not path.exists():
        pytest.skip(f"no {bb} bb blueprint shipped")
    policy = load_any_policy(path)
    assert isinstance(policy, IndexedPolicy)
    meta = policy.metadata
    assert meta["game"].startswith(f"hunl(stacks={bb * 100},")
    assert meta["preset"] == "small"
    assert meta["iterations"] >= 10_000_000
    cfg = BlueprintConfig.from_json(meta["config"])
    tree = compile_tree(cfg.bet_set(), cfg.holdem(), no_limp=cfg.no_limp)
    assert tree.fingerprint() == meta["tree_fingerprint"]
    assert np.array_equal(tree.num_children, policy.num_children)
    assert len(policy) == tree.num_infosets(cfg.buckets)
    # every row is a distribution
    for node in np.flatnonzero(tree.kind == DECISION)[::97].tolist():
        for b in range(int(policy.num_buckets[node])):
            row = policy.probabilities(node, b)
            assert abs(row.sum() - 1.0) < 1e-5 and row.min() >= 0.0


def test_shipped_card_spec_needs_no_tables(policy: IndexedPolicy) -> None:
    spec = CardSpec.from_json(policy.metadata["cards"])
    assert spec.thresholds and len(spec.thresholds[3]) == spec.buckets[3] - 1
    # the nuts is in the top river bucket, a busted hand in the bottom one
    from pokerlab.cards.cards import parse_cards

    board = parse_cards("AhKhQh2c3d")
    assert spec.bucket(3, parse_cards("JhTh"), board) == spec.buckets[3] - 1
    assert spec.bucket(3, parse_cards("7d6c"), board) <= 3  # seven high
    assert spec.bucket(0, parse_cards("AsAd")) == 0  # AA is class 0 in grid order


def test_preflop_strategy_is_sensible(policy: IndexedPolicy) -> None:
    # the small blind (button) never folds aces and folds 72o more often than aces
    p_aa = policy.action_probabilities_at(0, 0)
    from pokerlab.cards.cards import CLASS_INDEX

    p_72 = policy.action_probabilities_at(0, CLASS_INDEX["72o"])
    assert p_aa.get(0, 0.0) < 0.01
    assert p_72.get(0, 0.0) > p_aa.get(0, 0.0)


def test_info_of_the_shipped_policy_reads_its_training_summary(policy: IndexedPolicy) -> None:
    import json

    from typer.testing import CliRunner

    from pokerlab.cli import app

    res = CliRunner().invoke(app, ["blueprint", "info", str(SHIPPED), "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    side = json.loads(SHIPPED.with_suffix(".json").read_text())["summary"]
    assert d["iterations"] == side["iterations"] == policy.metadata["iterations"] > 10_000_000
    assert d["seconds"] == side["seconds"] and d["seconds"] > 0
    assert d["train_bytes"] == side["bytes"] > d["policy_bytes"] > 0
    assert d["infosets"] == side["infosets"] == len(policy)
