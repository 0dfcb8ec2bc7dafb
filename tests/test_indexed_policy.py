"""IndexedPolicy: rows by (node, bucket), file round trip and tamper detection."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from pokerlab.abstraction.action_tree import DECISION, compile_tree
from pokerlab.abstraction.bets import preset
from pokerlab.errors import PolicyFileError
from pokerlab.holdem.engine import HoldemConfig
from pokerlab.policy import (
    IndexedPolicy,
    PolicyLookupError,
    TabularPolicy,
    load_any_policy,
    load_policy,
    save_policy,
)

BUCKETS = (169, 5, 4, 3)


def _policy(seed: int = 0) -> IndexedPolicy:
    tree = compile_tree(preset("tiny"), HoldemConfig.from_bb(20))
    lay = tree.layout(BUCKETS)
    rng = np.random.default_rng(seed)
    probs = np.zeros(lay.num_values, np.float32)
    for n in np.flatnonzero(tree.kind == DECISION):
        k = int(tree.num_children[n])
        nb = BUCKETS[int(tree.street[n])]
        block = rng.random((nb, k)).astype(np.float32)
        block /= block.sum(axis=1, keepdims=True)
        probs[lay.node_offset[n]:lay.node_offset[n] + nb * k] = block.ravel()
    return IndexedPolicy.from_tree(tree, BUCKETS, probs,
                                   metadata={"game": "hunl(stack=20,bets=tiny)", "seed": seed})


def test_rows_and_lookup() -> None:
    pol = _policy()
    tree = compile_tree(preset("tiny"), HoldemConfig.from_bb(20))
    assert pol.storage == "dense"
    assert len(pol) == tree.num_infosets(BUCKETS)
    lay = tree.layout(BUCKETS)
    n = 0
    k = int(tree.num_children[0])
    assert list(pol.actions(0)) == tree.actions(0)
    row = pol.probabilities(0, 7)
    assert np.allclose(row, pol.probs[lay.node_offset[n] + 7 * k: lay.node_offset[n] + 8 * k])
    assert abs(row.sum() - 1.0) < 1e-6
    d = pol.action_probabilities_at(0, 7)
    assert sorted(d) == tree.actions(0)
    with pytest.raises(PolicyLookupError, match="bucket 169 out of range"):
        pol.probabilities(0, 169)
    term = int(np.flatnonzero(tree.kind != DECISION)[0])
    with pytest.raises(PolicyLookupError, match=f"node {term} is not a decision node"):
        pol.probabilities(term, 0)


@pytest.mark.parametrize("storage", ["dense", "csr"])
def test_round_trip(tmp_path: Path, storage: str) -> None:
    pol = _policy()
    if storage == "csr":
        keep = np.random.default_rng(1).random(len(pol)) < 0.5
        pol = pol.to_csr(keep=keep)
        assert pol.storage == "csr"
        assert len(pol) == int(keep.sum())
    path = tmp_path / "p.npz"
    save_policy(pol, path)
    back = load_any_policy(path)
    assert isinstance(back, IndexedPolicy)
    assert back.allclose(pol)
    assert back.metadata == {"game": "hunl(stack=20,bets=tiny)", "seed": 0}
    assert back.storage == storage
    # a CSR row that is absent plays uniformly
    if storage == "csr":
        node = 0
        absent = [b for b in range(169) if pol.row_start(node, b) < 0]
        assert absent
        k = int(pol.num_children[node])
        assert np.allclose(back.probabilities(node, absent[0]), 1.0 / k)
    with pytest.raises(PolicyFileError, match="indexed policy; read it with"):
        load_policy(path)


def test_csr_matches_dense_on_kept_rows() -> None:
    pol = _policy(3)
    csr = pol.to_csr(keep=np.ones(len(pol), bool))
    for node in (0, 1, 5):
        if pol.num_children[node] == 0:
            continue
        for b in range(int(pol.num_buckets[node])):
            assert np.array_equal(pol.probabilities(node, b), csr.probabilities(node, b))


def _rewrite(path: Path, out: Path, edit: dict[str, np.ndarray]) -> None:
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: np.array(z[k]) for k in z.files}
    arrays.update(edit)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
    out.write_bytes(buf.getvalue())


def test_tamper_detection(tmp_path: Path) -> None:
    pol = _policy()
    path = tmp_path / "p.npz"
    save_policy(pol, path)
    with np.load(path, allow_pickle=False) as z:
        probs = np.array(z["probs"])
        header = json.loads(bytes(z["header"]).decode())
    probs[3] += np.float32(0.25)
    bad = tmp_path / "bad.npz"
    _rewrite(path, bad, {"probs": probs})
    with pytest.raises(PolicyFileError, match="fails its checksum"):
        load_any_policy(bad)
    header["metadata"] = json.dumps({"game": "other"})
    bad2 = tmp_path / "bad2.npz"
    _rewrite(path, bad2, {"header": np.frombuffer(json.dumps(header).encode(), np.uint8)})
    with pytest.raises(PolicyFileError, match="fails its checksum"):
        load_any_policy(bad2)
    header["version"] = 99
    bad3 = tmp_path / "bad3.npz"
    _rewrite(path, bad3, {"header": np.frombuffer(json.dumps(header).encode(), np.uint8)})
    with pytest.raises(PolicyFileError, match="indexed version 99"):
        load_any_policy(bad3)
    trunc = tmp_path / "trunc.npz"
    trunc.write_bytes(path.read_bytes()[:200])
    with pytest.raises(PolicyFileError, match="corrupt or truncated"):
        load_any_policy(trunc)
    with pytest.raises(PolicyFileError, match="cannot read policy file"):
        load_any_policy(tmp_path / "missing.npz")
    assert zipfile.is_zipfile(path)


def test_tabular_still_loads_through_load_any(tmp_path: Path) -> None:
    tab = TabularPolicy.from_dict({"a": {0: 0.5, 1: 0.5}}, metadata={"game": "kuhn"})
    save_policy(tab, tmp_path / "t.npz")
    back = load_any_policy(tmp_path / "t.npz")
    assert isinstance(back, TabularPolicy)
    assert back.allclose(tab)


def test_action_probabilities_needs_integer_infoset() -> None:
    pol = _policy()

    class S:
        def current_player(self) -> int:
            return 1

        def infoset_index(self, player: int) -> tuple[int, int]:
            return (0, 12)

    assert pol.action_probabilities(S()) == pol.action_probabilities_at(0, 12)  # type: ignore[arg-type]

    class T:
        def current_player(self) -> int:
            return 1

    with pytest.raises(PolicyLookupError, match="cannot name its information set"):
        pol.action_probabilities(T())  # type: ignore[arg-type]
