"""The runout report of a chance node (pokerlab.subgame.runouts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.cards.cards import parse_card
from pokerlab.subgame import SolveConfig, SpotError, SpotSolver, make_spot, tree_config
from pokerlab.subgame.classes import compatible_mass
from pokerlab.subgame.runouts import runout_report

KEYS = ("ev_oop", "ev_ip", "equity_oop", "equity_ip")


@pytest.fixture(scope="module")
def turn_solver() -> SpotSolver:
    sp = make_spot(board="Kh9c4s2s", pot=60, stack=120, oop="AA,KQs,T9s,66,A5s,JJ,QTs",
                   ip="QQ,KJs,87s,A4s,99,AK", tree=tree_config(bets="50%", raises="none"))
    s = SpotSolver(sp, SolveConfig(precision="double"))
    s.solve(iterations=60, target_pct=None)
    return s


@pytest.fixture(scope="module")
def flop_solver() -> SpotSolver:
    # clubs and spades are interchangeable on Td9d6h with these ranges: the turn cards pair up
    sp = make_spot(board="Td9d6h", pot=60, stack=100, oop="TT,99,88,AdKd,QJs,A5s,KQo,JJ",
                   ip="AA,KK,QQ,AQs,KJs,T9s,87s,AK", tree=tree_config(bets="50%", raises="none"))
    s = SpotSolver(sp, SolveConfig(precision="double"))
    s.solve(iterations=12, target_pct=None)
    return s


def _check_average(rep: dict, tol: float = 1e-9) -> None:  # type: ignore[type-arg]
    assert sum(r["weight"] for r in rep["cards"]) == pytest.approx(1.0, rel=1e-12)
    for k in KEYS:
        avg = sum(r["weight"] * r[k] for r in rep["cards"])
        assert avg == pytest.approx(rep[k], rel=tol), k


@pytest.mark.parametrize("path", ["check,check", "bet 30,call", "check,bet 30,call"])
def test_turn_runouts_average_to_the_chance_node(turn_solver: SpotSolver, path: str) -> None:
    s = turn_solver
    view = s.cursor(path)
    rep = runout_report(s, view)
    node = s.node_report(view)
    assert rep["ev_oop"] == node["oop"]["range_ev"] and rep["equity_ip"] == node["ip"]["range_equity"]
    assert rep["ev_oop"] + rep["ev_ip"] == pytest.approx(60.0, rel=1e-9)  # constant-sum, no rake
    assert len(rep["cards"]) == 48 and all(len(r["cards"]) == 1 for r in rep["cards"])
    _check_average(rep)
    # a card's weight is the pair mass it leaves, over all cards: check two by hand
    masses = {}
    for name in node["cards"]:
        child = s.node_report(s.cursor([*view.path, name]))
        masses[name] = float(child["oop"]["reach"] @ compatible_mass(child["ip"]["reach"]))
    total = sum(masses.values())
    for r in rep["cards"][:: 11]:
        assert r["weight"] == pytest.approx(masses[r["card"]] / total, rel=1e-12)
    # the next decision's mix is the child node's frequencies
    r = rep["cards"][5]
    child = s.node_report(s.cursor([*view.path, r["card"]]))
    assert r["player"] == "oop"
    for a, f in child["frequencies"].items():
        assert r["actions"][a] == pytest.approx(f, rel=1e-12)
    assert sum(r["actions"].values()) == pytest.approx(1.0)


def test_flop_runouts_group_isomorphic_cards(flop_solver: SpotSolver) -> None:
    s = flop_solver
    view = s.cursor("check,check")
    grouped = runout_report(s, view)
    single = runout_report(s, view, group=False)
    assert len(single["cards"]) == 49
    # the solver keeps one of two interchangeable turn cards and hands their values over with
    # the suits swapped; the strategy sums are float32, so a swapped hand's reach matches to
    # about 1e-7
    _check_average(grouped, tol=2e-6)
    _check_average(single, tol=2e-6)
    by_card = {r["card"]: r for r in single["cards"]}
    groups = [r for r in grouped["cards"] if len(r["cards"]) > 1]
    # the board holds no club and no spade: every rank's club and spade share one row
    assert len(groups) == 13 and len(grouped["cards"]) == 49 - 13
    for g in groups:
        assert sorted(parse_card(c) & 3 for c in g["cards"]) == [0, 3]
        assert g["weight"] == pytest.approx(sum(by_card[c]["weight"] for c in g["cards"]), rel=1e-12)
        for k in KEYS:
            vals = [by_card[c][k] for c in g["cards"]]
            # the same up to that rounding (amplified a little by regret matching)
            assert max(vals) - min(vals) < 1e-4 * max(1.0, abs(vals[0]))
            assert g[k] == pytest.approx(vals[0], rel=1e-4)
            assert min(vals) - 1e-12 <= g[k] <= max(vals) + 1e-12


def test_runouts_refuse_a_decision_node(turn_solver: SpotSolver) -> None:
    with pytest.raises(SpotError, match="not a chance node"):
        runout_report(turn_solver, turn_solver.cursor("check"))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pokerlab.cli", *args], capture_output=True, text=True,
                          timeout=600)


def test_cli_runouts(tmp_path: Path, turn_solver: SpotSolver) -> None:
    f = tmp_path / "t.npz"
    turn_solver.save(f)
    r = _cli("spot", "runouts", str(f), "--node", "check,check", "--json", "--png", str(tmp_path / "r.png"))
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    want = runout_report(turn_solver, turn_solver.cursor("check,check"))
    assert len(obj["cards"]) == len(want["cards"]) == 48
    for got, exp in zip(obj["cards"], want["cards"], strict=True):
        assert set(got) >= {"card", "weight", "ev_oop", "ev_ip", "equity_oop", "actions"}
        assert got["card"] == exp["card"]
        for k in ("weight", *KEYS):
            assert got[k] == pytest.approx(exp[k], rel=1e-9)
    _check_average(obj)
    assert (tmp_path / "r.png").stat().st_size > 1000
    r = _cli("spot", "runouts", str(f), "--node", "check")
    assert r.returncode == 2 and "not a chance node" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = _cli("spot", "runouts", str(f), "--node", "check,raise 9")
    assert r.returncode == 2 and r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1
    raw = bytearray(f.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    (tmp_path / "bad.npz").write_bytes(bytes(raw))
    r = _cli("spot", "runouts", str(tmp_path / "bad.npz"), "--node", "check,check")
    assert r.returncode == 2 and r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1
