"""benchmarks/lbr_deals.py (saved LBR runs joined from parts and paired deal for deal) and
search_lbr.py's ``--versus`` cut to a run's deals (``--first-deal``), on synthetic files:
the numbers are the ones a run played at once would give."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerlab.evaluation.lbr_core import line_stats

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name: str) -> Any:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


SETTINGS = {"seed": 1, "stack": 100.0, "actions": "fcpa", "from_round": 3, "estimator": "active"}


def _part(path: Path, spec: str, base: np.ndarray, search: np.ndarray, first: int,
          outcomes: dict[str, np.ndarray] | None = None, **changed: Any) -> str:
    settings = dict(SETTINGS, deals=int(base.shape[0]), first=first, **changed)
    keys = sorted(outcomes or {})
    arr = np.stack([outcomes[k] for k in keys]) if outcomes else np.zeros((0, base.shape[0], 2))
    buf = io.BytesIO()
    np.savez(buf, base=base, search=search, spec=np.array(spec),
             settings=np.array(json.dumps(settings, sort_keys=True)),
             outcome_keys=np.array(json.dumps(keys)), outcomes=arr)
    path.write_bytes(buf.getvalue())
    return str(path)


def _chips(seed: int, n: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, 500.0, size=(n, 2))


def test_parts_join_into_the_run_played_at_once_and_pair_over_common_deals(tmp_path: Path) -> None:
    mod = _load("lbr_deals")
    base, a, b = _chips(1, 90), _chips(2, 90), _chips(3, 90)
    out_a = {"T Lb Af": a * 0.25, "R Lx Ax sd": a * 0.75}
    p1 = _part(tmp_path / "a1.npz", "A", base[:30], a[:30], 0, {k: x[:30] for k, x in out_a.items()})
    p2 = _part(tmp_path / "a2.npz", "A", base[30:], a[30:], 30, {k: x[30:] for k, x in out_a.items()})
    mod.main(["join", p2, p1, "--out", str(tmp_path / "a.npz")])  # any order
    run = mod.load(str(tmp_path / "a.npz"))
    assert (run.first, run.end) == (0, 90)
    np.testing.assert_array_equal(run.base, base)
    np.testing.assert_array_equal(run.search, a)
    np.testing.assert_array_equal(run.outcomes["T Lb Af"], a * 0.25)
    # B holds deals 20..89 only: the pair is over 20..89
    pb = _part(tmp_path / "b.npz", "B", base[20:], b[20:], 20)
    res = mod.pair(run, mod.load(pb))
    assert res["deals"] == [20, 89]
    want = line_stats(a[20:] - b[20:], 100.0)
    assert res["difference"]["mbb"] == pytest.approx(want["mbb"])
    assert res["difference"]["ci95_mbb"] == pytest.approx(want["ci95_mbb"])
    button = line_stats((a[20:] - b[20:])[:, 1:], 100.0)["mbb"]
    assert res["by_seat"]["lbr_button"]["mbb"] == pytest.approx(button)
    # a join never replaces a file
    with pytest.raises(SystemExit) as e:
        mod.main(["join", p1, p2, "--out", str(tmp_path / "a.npz")])
    assert e.value.code == 2


def test_bad_parts_and_pairs_are_refused_with_one_line(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    mod = _load("lbr_deals")
    base, a = _chips(1, 40), _chips(2, 40)
    p1 = _part(tmp_path / "p1.npz", "A", base[:10], a[:10], 0)
    gap = _part(tmp_path / "gap.npz", "A", base[20:], a[20:], 20)
    other = _part(tmp_path / "other.npz", "A", base[10:], a[10:], 10, actions="56")
    spec = _part(tmp_path / "spec.npz", "B", base[10:], a[10:], 10)
    wrong_base = _part(tmp_path / "wb.npz", "B", base[:10] + 1.0, a[:10], 0)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    cases = [(["join", p1, gap, "--out", str(tmp_path / "x.npz")], "follow each other"),
             (["join", p1, other, "--out", str(tmp_path / "x.npz")], "other deals"),
             (["join", p1, spec, "--out", str(tmp_path / "x.npz")], "one searcher"),
             (["pair", p1, gap], "none in common"),
             (["pair", p1, wrong_base], "not the same deals"),
             (["pair", p1, str(junk)], "not a file saved"),
             (["pair", p1, str(tmp_path / "missing.npz")], "no such file")]
    for argv, words in cases:
        with pytest.raises(SystemExit) as e:
            mod.main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err, (argv, err)
    assert not (tmp_path / "x.npz").exists()


def test_versus_is_cut_to_this_runs_deals(tmp_path: Path) -> None:
    mod = _load("search_lbr")
    base, s = _chips(4, 50), _chips(5, 50)
    old = _part(tmp_path / "old.npz", "search", base, s, 0, {"T Lb Af": s})
    settings = dict(SETTINGS, deals=20, first=25)
    search, spec, outs = mod.load_versus(old, settings)
    assert spec == "search"
    np.testing.assert_array_equal(search, s[25:45])
    np.testing.assert_array_equal(outs["T Lb Af"], s[25:45])
    with pytest.raises(SystemExit):  # past the saved deals
        mod.load_versus(old, dict(SETTINGS, deals=30, first=25))
    with pytest.raises(SystemExit):  # other settings
        mod.load_versus(old, dict(SETTINGS, deals=10, first=0, seed=2))
    # a file saved before --first-deal (no "first") holds deals 0..
    legacy = tmp_path / "legacy.npz"
    buf = io.BytesIO()
    np.savez(buf, base=base, search=s, spec=np.array("search"),
             settings=np.array(json.dumps(dict(SETTINGS, deals=50), sort_keys=True)),
             outcome_keys=np.array("[]"), outcomes=np.zeros((0, 50, 2)))
    legacy.write_bytes(buf.getvalue())
    search, _, _ = mod.load_versus(str(legacy), dict(SETTINGS, deals=10, first=0))
    np.testing.assert_array_equal(search, s[:10])
