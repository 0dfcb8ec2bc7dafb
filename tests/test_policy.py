from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import PolicyFileError
from pokerlab.games import load_game
from pokerlab.policy import (
    FirstActionPolicy,
    PolicyLookupError,
    TabularPolicy,
    UniformRandomPolicy,
    load_policy,
    save_policy,
)


def _kuhn_table() -> TabularPolicy:
    return TabularPolicy.from_dict(
        {"0": {0: 0.75, 1: 0.25}, "1pb": {0: 1.0, 1: 0.0}, "2b": {1: 1.0, 0: 0.0}},
        metadata={"game": "kuhn", "algo": "test"})


def test_tabular_lookup_and_state() -> None:
    pol = _kuhn_table()
    assert len(pol) == 3 and "1pb" in pol
    assert pol.legal_actions("2b").tolist() == [0, 1]
    assert pol.probabilities("2b").tolist() == [0.0, 1.0]
    st = load_game("kuhn").new_initial_state()
    st.apply_action(0)
    st.apply_action(2)
    assert pol.action_probabilities(st) == {0: 0.75, 1: 0.25}
    st.apply_action(0)
    with pytest.raises(PolicyLookupError, match="'2p'"):
        pol.action_probabilities(st)
    pol2 = TabularPolicy.from_dict(pol.to_dict(), missing="uniform")
    assert pol2.action_probabilities(st) == {0: 0.5, 1: 0.5}


def test_base_policies() -> None:
    st = load_game("leduc").new_initial_state()
    st.apply_action(0)
    st.apply_action(3)
    assert UniformRandomPolicy().action_probabilities(st) == {1: 0.5, 2: 0.5}
    assert FirstActionPolicy().action_probabilities(st) == {1: 1.0, 2: 0.0}


def test_save_load_roundtrip(tmp_path: Path) -> None:
    pol = _kuhn_table()
    path = tmp_path / "p.npz"
    save_policy(pol, path)
    back = load_policy(path)
    assert back.allclose(pol, atol=0.0)
    assert back.metadata == {"game": "kuhn", "algo": "test"}
    assert back.keys() == pol.keys()
    # unicode keys survive
    u = TabularPolicy.from_dict({"é♠": {3: 1.0}})
    save_policy(u, tmp_path / "u.npz")
    assert load_policy(tmp_path / "u.npz").policy_for_key("é♠") == {3: 1.0}


def test_load_errors(tmp_path: Path) -> None:
    pol = _kuhn_table()
    path = tmp_path / "p.npz"
    save_policy(pol, path)
    raw = path.read_bytes()
    with pytest.raises(PolicyFileError, match="cannot read"):
        load_policy(tmp_path / "nope.npz")
    (tmp_path / "trunc.npz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(PolicyFileError, match="corrupt or truncated"):
        load_policy(tmp_path / "trunc.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip at all")
    with pytest.raises(PolicyFileError, match="not a pokerlab policy"):
        load_policy(tmp_path / "junk.npz")

    def rewrite(name: str, mutate) -> Path:  # type: ignore[no-untyped-def]
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        mutate(arrays)
        out = tmp_path / name
        with open(out, "wb") as fh:
            np.savez(fh, **arrays)
        return out

    def bump_version(a):  # type: ignore[no-untyped-def]
        h = json.loads(a["header"].tobytes())
        h["version"] = 99
        a["header"] = np.frombuffer(json.dumps(h).encode(), dtype=np.uint8)

    with pytest.raises(PolicyFileError, match="version 99"):
        load_policy(rewrite("v.npz", bump_version))

    def tamper(a):  # type: ignore[no-untyped-def]
        a["probs"] = a["probs"].copy()
        a["probs"][0] = 0.5

    with pytest.raises(PolicyFileError, match="checksum"):
        load_policy(rewrite("t.npz", tamper))

    def foreign(a):  # type: ignore[no-untyped-def]
        a["header"] = np.frombuffer(b'{"format": "other"}', dtype=np.uint8)

    with pytest.raises(PolicyFileError, match="not a pokerlab-policy"):
        load_policy(rewrite("f.npz", foreign))
    with pytest.raises(PolicyFileError, match="lacks arrays"):
        load_policy(rewrite("m.npz", lambda a: a.pop("probs")))
    # pickled object arrays are refused, not executed
    with open(tmp_path / "obj.npz", "wb") as fh:
        np.savez(fh, header=np.array([{"x": 1}], dtype=object), key_bytes=np.zeros(1),
                 key_lengths=np.zeros(1), offsets=np.zeros(1), actions=np.zeros(1),
                 probs=np.zeros(1))
    with pytest.raises(PolicyFileError):
        load_policy(tmp_path / "obj.npz")
    assert zipfile.is_zipfile(path)


def test_save_rejects_non_tabular(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError, match="UniformRandomPolicy"):
        save_policy(UniformRandomPolicy(), tmp_path / "x.npz")  # type: ignore[arg-type]


def test_bad_construction() -> None:
    with pytest.raises(PolicyLookupError):
        TabularPolicy(keys=["a"], offsets=[0, 0], actions=[], probs=[])
    with pytest.raises(PolicyLookupError, match="duplicate"):
        TabularPolicy(keys=["a", "a"], offsets=[0, 1, 2], actions=[0, 0], probs=[1, 1])


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(
    st.text(min_size=0, max_size=12),
    st.lists(st.floats(min_value=0.0, max_value=1.0, allow_nan=False), min_size=1,
             max_size=4),
    max_size=8))
def test_save_load_property(tmp_path_factory: pytest.TempPathFactory,
                            table: dict[str, list[float]]) -> None:
    pol = TabularPolicy.from_rows(
        [(k, list(range(len(v))), v) for k, v in table.items()],
        metadata={"n": len(table)})
    path = tmp_path_factory.mktemp("p") / "x.npz"
    save_policy(pol, path)
    back = load_policy(path)
    assert back.keys() == pol.keys()
    assert back.allclose(pol, atol=0.0)
    assert back.metadata == {"n": len(table)}
