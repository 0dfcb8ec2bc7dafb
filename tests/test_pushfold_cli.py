"""``pokerlab pushfold solve|chart|learn`` on small sizes (synthetic equities)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import pokerlab.pushfold.game as pf_game
from pokerlab.cards.ranges import parse_range
from pokerlab.commands.pushfold_cmd import GROUPS
from pokerlab.policy import load_policy

runner = CliRunner()
app = GROUPS[0][1]


@pytest.fixture(autouse=True)
def synthetic(monkeypatch: pytest.MonkeyPatch) -> None:
    eq = pf_game.synthetic_equity_matrix(0)
    monkeypatch.setattr(pf_game, "equity_matrix", lambda: eq)


def test_solve_json(tmp_path: Path) -> None:
    png = tmp_path / "r.png"
    res = runner.invoke(app, ["solve", "--stack", "10", "--json", "--png", str(png)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out) == {"stack", "ante", "sb_shove_fraction", "bb_call_fraction", "sb_value_bb",
                        "exploitability_bb", "seconds", "sb_range", "bb_range"}
    assert out["stack"] == 10.0 and out["ante"] == 0.0
    assert abs(out["exploitability_bb"]) < 1e-9
    w = parse_range(out["sb_range"])
    assert w.mean() == pytest.approx(out["sb_shove_fraction"], abs=1e-6)
    assert parse_range(out["bb_range"]).mean() == pytest.approx(out["bb_call_fraction"], abs=1e-6)
    assert png.exists() and (tmp_path / "r_bb.png").exists()
    assert json.loads((tmp_path / "r.png.json").read_text())["config"]["stack"] == 10.0


def test_solve_text_and_errors() -> None:
    res = runner.invoke(app, ["solve", "--stack", "6", "--ante", "0.1"])
    assert res.exit_code == 0, res.output
    assert "SB shoves" in res.stdout and "AKs" in res.stdout
    bad = runner.invoke(app, ["solve", "--stack", "0.3"])
    assert bad.exit_code == 2 and "stack 0.3" in bad.output
    bad = runner.invoke(app, ["solve", "--method", "magic"])
    assert bad.exit_code == 2 and "magic" in bad.output
    bad = runner.invoke(app, ["solve", "--png", "x.jpg"])
    assert bad.exit_code == 2 and "x.jpg" in bad.output


def test_chart(tmp_path: Path) -> None:
    png = tmp_path / "c.svg"
    res = runner.invoke(app, ["chart", "--max-stack", "3", "--step", "1", "--json",
                              "--png", str(png)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["max_stack"] == 3.0 and out["sb"]["AA"] == 3.0 and len(out["bb"]) == 169
    assert png.exists() and (tmp_path / "c_bb.svg").exists()
    txt = runner.invoke(app, ["chart", "--max-stack", "2", "--step", "1"])
    assert txt.exit_code == 0 and "2+" in txt.stdout


def test_learn_json(tmp_path: Path) -> None:
    save = tmp_path / "pol.npz"
    res = runner.invoke(app, ["learn", "--stack", "10", "--hands", "20000", "--json",
                              "--save", str(save)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert len(out["theta"]) == 7 and out["exploitability_bb"] > 0
    assert {"stack", "ante", "sb_shove_fraction", "bb_call_fraction", "sb_value_bb",
            "exploitability_bb", "seconds", "sb_range", "bb_range", "theta"} <= set(out)
    pol = load_policy(save)
    assert len(pol) == 2652 and pol.metadata["game"] == "pushfold"
    rich = runner.invoke(app, ["learn", "--hands", "20000", "--features", "rich", "--json"])
    assert rich.exit_code == 0, rich.output
    r = json.loads(rich.stdout)
    assert set(r["theta"]) == {"sb", "bb"} and np.isfinite(r["exploitability_bb"])
    bad = runner.invoke(app, ["learn", "--features", "deep"])
    assert bad.exit_code == 2 and "deep" in bad.output
