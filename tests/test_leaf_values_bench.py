"""benchmarks/leaf_values.py's comparison (:func:`compare`) on a turn spot whose answer is
known: a depth-limited subgame whose leaves are valued exactly (the river played by fixed,
locked strategies: tests/test_subgame_depth.py's construction) equals the locked whole tree,
so its measured value error is ~0; wrong leaf values give a clearly positive one."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerlab.subgame.solve_config import SolveConfig
from pokerlab.subgame.solver import SpotSolver
from tests.test_subgame_depth import LockedRiver, _locked_full, _spot


def _bench() -> Any:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "leaf_values.py"
    spec = importlib.util.spec_from_file_location("leaf_values", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["leaf_values"] = mod
    spec.loader.exec_module(mod)
    return mod


class Shifted(LockedRiver):
    """The exact leaf values with a gift: out of position gets ``share`` of the leaf's pot
    more at every leaf, in position as much less (still constant-sum: a wrong model)."""

    share = 0.1

    def leaf_values(self, leaf: int, player: int, mode: str, opp: np.ndarray, own: np.ndarray) -> np.ndarray:
        from pokerlab.agents.leaves import compatible_mass

        v = super().leaf_values(leaf, player, mode, opp, own)
        pot = float(self.full.spot.pot) + sum(self.contrib[leaf])
        sign = 1.0 if player == 0 else -1.0
        return v + sign * self.share * pot * np.where(own > 0, compatible_mass(opp), 0.0)


@pytest.fixture(scope="module")
def solved() -> dict[str, Any]:
    full = _locked_full()
    out: dict[str, Any] = {"full": full}
    for name, model in (("exact", LockedRiver), ("shifted", Shifted)):
        dls = SpotSolver(_spot(), SolveConfig(isomorphism=False), threads=1, depth_limited=True)
        dls.set_leaf_model(model(full, dls))
        out[name] = dls
    for _ in range(30):
        full.step()
        out["exact"].step()
        out["shifted"].step()
    return out


def test_exact_leaves_measure_no_error(solved: dict[str, Any]) -> None:
    lv = _bench()
    for searcher in (0, 1):
        got = lv.compare(solved["exact"], solved["full"], searcher)
        assert max(got["root_error"]) < 1e-4  # % of the pot
        assert abs(got["searcher_signed"]) < 1e-4
        assert got["hand_error"] < 1e-4
    # the per-hand values average to the root value (their weights: the hands' probabilities)
    for p in (0, 1):
        v, w = lv.hand_values(solved["full"], p)
        assert float(np.dot(w, v) / w.sum()) == pytest.approx(solved["full"].values()[p], rel=1e-4)


def test_wrong_leaves_measure_an_error(solved: dict[str, Any]) -> None:
    lv = _bench()
    got = lv.compare(solved["shifted"], solved["full"], 0)
    assert got["searcher_signed"] > 2.0  # out of position flattered: % of the pot
    assert got["root_error"][0] == pytest.approx(got["root_error"][1], rel=1e-3)
    assert got["hand_error"] > 2.0
    other = lv.compare(solved["shifted"], solved["full"], 1)
    assert other["searcher_signed"] == pytest.approx(-got["searcher_signed"], rel=1e-3)
    # showdown equity at the leaves (the cheap baseline) is not the locked river either:
    # close at the root (0.19% of the pot), far per hand
    eq, _ = lv.equity_solve(_spot(), 30)
    got = lv.compare(eq, solved["full"], 0)
    assert 0.1 < got["searcher_error"] < 1.0 and got["hand_error"] > 2.0


def test_summaries() -> None:
    lv = _bench()
    m, ci = lv.mean_ci([1.0, 3.0])
    assert m == 2.0 and ci == pytest.approx(1.96 * np.sqrt(2.0) / np.sqrt(2.0))
    rows = [{"modicum": {"searcher_error": 1.0, "searcher_signed": -1.0, "hand_error": 2.0}},
            {"modicum": {"searcher_error": 3.0, "searcher_signed": 3.0, "hand_error": 4.0}}, {}]
    s = lv.summarize(rows, "modicum")
    got = (s["spots"], s["root_error"], s["signed"], s["hand_error"], s["max_root_error"])
    assert got == (2, 2.0, 1.0, 3.0, 3.0)
