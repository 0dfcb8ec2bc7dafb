"""``pokerlab pushfold solve|chart|learn`` on small sizes (synthetic equities)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import pokerlab.pushfold.game as pf_game
from pokerlab.cards.ranges import parse_range
from pokerlab.cli import app as cli_app
from pokerlab.policy import load_policy

runner = CliRunner()


def invoke(args: list[str]):  # type: ignore[no-untyped-def]
    """``pokerlab pushfold ARGS`` through the real CLI (its one error path included)."""
    return runner.invoke(cli_app, ["pushfold", *args])


@pytest.fixture(autouse=True)
def synthetic(monkeypatch: pytest.MonkeyPatch) -> None:
    eq = pf_game.synthetic_equity_matrix(0)
    monkeypatch.setattr(pf_game, "equity_matrix", lambda: eq)


def test_solve_json(tmp_path: Path) -> None:
    png = tmp_path / "r.png"
    res = invoke(["solve", "--stack", "10", "--json", "--png", str(png)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out) == {"stack", "ante", "sb_shove_fraction", "bb_call_fraction", "sb_value_bb",
                        "exploitability_bb", "seconds", "sb_range", "bb_range",
                        "exploitability", "exploitability_mbb", "sb_value", "sb_value_mbb",
                        "big_blind"}
    assert out["big_blind"] == 1.0 and out["exploitability"] == out["exploitability_bb"]
    assert out["exploitability_mbb"] == 1000 * out["exploitability"]
    assert out["stack"] == 10.0 and out["ante"] == 0.0
    assert abs(out["exploitability_bb"]) < 1e-9
    w = parse_range(out["sb_range"])
    assert w.mean() == pytest.approx(out["sb_shove_fraction"], abs=1e-6)
    assert parse_range(out["bb_range"]).mean() == pytest.approx(out["bb_call_fraction"], abs=1e-6)
    assert png.exists() and (tmp_path / "r_bb.png").exists()
    assert json.loads((tmp_path / "r.png.json").read_text())["config"]["stack"] == 10.0


def test_solve_text_and_errors() -> None:
    res = invoke(["solve", "--stack", "6", "--ante", "0.1"])
    assert res.exit_code == 0, res.output
    assert "SB shoves" in res.stdout and "AKs" in res.stdout
    bad = invoke(["solve", "--stack", "0.3"])
    assert bad.exit_code == 2 and "stack 0.3" in bad.output
    bad = invoke(["solve", "--algo", "magic"])
    assert bad.exit_code == 2 and "magic" in bad.output
    bad = invoke(["solve", "--png", "x.jpg"])
    assert bad.exit_code == 2 and "x.jpg" in bad.output
    bad = invoke(["solve", "--algo", "lp", "--iterations", "50"])
    assert bad.exit_code == 2 and "--iterations does nothing" in bad.output
    ok = invoke(["solve", "--algo", "cfr+", "--iterations", "50", "--json"])
    assert ok.exit_code == 0 and json.loads(ok.stdout)["exploitability_bb"] > 0


def test_chart(tmp_path: Path) -> None:
    png = tmp_path / "c.svg"
    res = invoke(["chart", "--max-stack", "3", "--step", "1", "--json",
                              "--png", str(png)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["max_stack"] == 3.0 and out["sb"]["AA"] == 3.0 and len(out["bb"]) == 169
    assert png.exists() and (tmp_path / "c_bb.svg").exists()
    txt = invoke(["chart", "--max-stack", "2", "--step", "1"])
    assert txt.exit_code == 0 and "2+" in txt.stdout


def test_learn_json(tmp_path: Path) -> None:
    save = tmp_path / "pol.npz"
    png = tmp_path / "learned.png"
    res = invoke(["learn", "--stack", "10", "--hands", "20000", "--json",
                  "--out", str(save), "--png", str(png)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert len(out["theta"]) == 7 and out["exploitability_bb"] > 0
    assert {"stack", "ante", "sb_shove_fraction", "bb_call_fraction", "sb_value_bb",
            "exploitability_bb", "seconds", "sb_range", "bb_range", "theta"} <= set(out)
    assert png.read_bytes()[:4] == b"\x89PNG" and out["png"] == str(png)
    assert out["nash_sb_range"] and out["nash_bb_range"]
    assert out["same_range_both_seats"] == (out["sb_range"] == out["bb_range"])
    pol = load_policy(save)
    assert len(pol) == 2652 and pol.metadata["game"] == "pushfold"
    rich = invoke(["learn", "--hands", "20000", "--features", "rich", "--json"])
    assert rich.exit_code == 0, rich.output
    r = json.loads(rich.stdout)
    assert set(r["theta"]) == {"sb", "bb"} and np.isfinite(r["exploitability_bb"])
    bad = invoke(["learn", "--features", "deep"])
    assert bad.exit_code == 2 and "deep" in bad.output


def test_learn_bad_seed_and_paths(tmp_path: Path) -> None:
    bad = invoke(["learn", "--hands", "100", "--seed", "-1"])
    assert bad.exit_code == 2 and "--seed" in bad.output and "-1" in bad.output
    assert "Traceback" not in bad.output
    (tmp_path / "f").write_text("x")
    bad = invoke(["learn", "--hands", "100", "--out", str(tmp_path / "f" / "p.npz")])
    assert bad.exit_code == 2 and "which is a file" in bad.output
    bad = invoke(["learn", "--hands", "100", "--png", str(tmp_path)])
    assert bad.exit_code == 2


def test_learn_text_names_both_seats() -> None:
    res = invoke(["learn", "--hands", "20000"])
    assert res.exit_code == 0, res.output
    assert "SB shoves: learned" in res.stdout and "BB calls: learned" in res.stdout
    assert "Nash" in res.stdout
