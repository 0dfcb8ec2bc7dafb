from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from pokerlab.commands._common import friendly
from pokerlab.commands.solve_cmd import COMMANDS, seconds_ticks
from pokerlab.policy import load_policy

app = typer.Typer()


@app.callback()
def _root() -> None:
    """Test root."""


for _fn in COMMANDS:
    app.command()(friendly(_fn))

runner = CliRunner()


def test_solve_json(tmp_path: Path) -> None:
    save = tmp_path / "kuhn.npz"
    plot = tmp_path / "kuhn.png"
    res = runner.invoke(app, ["solve", "kuhn", "--algo", "cfr+", "--iterations", "300",
                              "--out", str(save), "--png", str(plot), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out) == {"game", "algo", "iterations", "seconds", "exploitability",
                        "exploitability_mbb", "big_blind", "game_value", "game_value_mbb",
                        "policy_path", "png",
                        "target_exploitability", "target_reached"}
    assert out["exploitability_mbb"] == 1000 * out["exploitability"] and out["big_blind"] == 1
    assert out["target_reached"] is None
    assert out["game"] == "kuhn" and out["algo"] == "cfr+" and out["iterations"] == 300
    assert abs(out["game_value"] + 1 / 18) < 1e-3
    assert out["exploitability"] < 1e-3
    assert out["policy_path"] == str(save)
    pol = load_policy(save)
    assert len(pol) == 12 and pol.metadata["algo"] == "cfr+"
    cfg = json.loads((tmp_path / "kuhn.npz.json").read_text())
    assert cfg["config"]["algo"] == "cfr+" and cfg["result"]["iterations"] == 300
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_solve_target_and_lp_and_mccfr() -> None:
    res = runner.invoke(app, ["solve", "leduc", "--algo", "dcfr", "--target-exploitability",
                              "1e-2", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["exploitability"] <= 1e-2 and out["iterations"] < 1000
    assert out["target_reached"] is True
    res = runner.invoke(app, ["solve", "kuhn", "--algo", "lp", "--json"])
    out = json.loads(res.stdout)
    assert abs(out["game_value"] + 1 / 18) < 1e-9 and out["iterations"] == 0
    res = runner.invoke(app, ["solve", "kuhn", "--algo", "es-mccfr", "--iterations", "200",
                              "--seed", "3", "--json"])
    out = json.loads(res.stdout)
    assert out["iterations"] == 200 and out["exploitability"] < 0.2


def test_solve_human_output() -> None:
    res = runner.invoke(app, ["solve", "kuhn", "--algo", "cfr", "--iterations", "20"])
    assert res.exit_code == 0, res.output
    assert "exploitability" in res.stdout and "mbb/hand" in res.stdout


def test_solve_errors() -> None:
    res = runner.invoke(app, ["solve", "no_game"])
    assert res.exit_code == 2 and "'no_game'" in res.output
    res = runner.invoke(app, ["solve", "kuhn", "--algo", "magic"])
    assert res.exit_code == 2 and "'magic'" in res.output
    res = runner.invoke(app, ["solve", "kuhn", "--target-exploitability", "-1"])
    assert res.exit_code == 2 and "-1" in res.output


def test_solve_unreached_target_is_reported() -> None:
    res = runner.invoke(app, ["solve", "kuhn", "--algo", "cfr", "--iterations", "5",
                              "--target-exploitability", "1e-9", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["target_reached"] is False and out["iterations"] == 5
    assert "warning: target exploitability 1e-09 not reached after 5 iterations" in res.stderr


def test_seconds_ticks_label_short_runs() -> None:
    assert seconds_ticks(0.9, 12.0) == [1.0, 2.0, 5.0, 10.0]
    assert seconds_ticks(0.013, 0.09) == [0.02, 0.04, 0.06, 0.08]  # two 1-2-5: linear
    assert seconds_ticks(0.621, 0.669) == [0.63, 0.64, 0.65, 0.66]  # far under a decade
    assert seconds_ticks(0.5, 0.5) == [0.5]
