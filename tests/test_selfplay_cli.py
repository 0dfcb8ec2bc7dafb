"""``pokerlab ttt`` commands on small sizes, and the shipped model's guarantees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("torch")

from pokerlab.cli import app  # noqa: E402
from pokerlab.io import PACKAGE_DATA  # noqa: E402

runner = CliRunner()
SHIPPED = PACKAGE_DATA / "ttt_model.safetensors"


def test_help_lists_ttt() -> None:
    res = runner.invoke(app, ["ttt", "--help"])
    assert res.exit_code == 0
    for cmd in ("train", "eval", "play"):
        assert cmd in res.output


def test_train_then_eval_run_json(tmp_path: Path) -> None:
    run = tmp_path / "run"
    res = runner.invoke(app, ["ttt", "train", "--out", str(run), "--levels", "2", "--games", "150",
                              "--epochs", "1", "--eval-games", "40", "--width", "16", "--json",
                              "--export", str(tmp_path / "m.safetensors")])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["levels"] == 2
    assert [r["level"] for r in out["vs_previous"]] == [0, 1]
    assert sum(out["vs_random"].values()) == 40
    assert (run / "levels.png").is_file()
    assert (run / "level_01" / "dataset.csv").is_file()
    res = runner.invoke(app, ["ttt", "eval", "--run", str(run), "--games", "30", "--json"])
    assert res.exit_code == 0, res.output
    ev = json.loads(res.stdout)
    assert set(ev) >= {"vs_random", "vs_minimax", "vs_previous"}
    assert set(ev["vs_random"]) == {"win", "draw", "loss"}
    assert sum(ev["vs_random"].values()) == 30
    assert len(ev["vs_previous"]) == 2
    assert sum(v for k, v in ev["vs_previous"][1].items() if k != "level") == 30
    res = runner.invoke(app, ["ttt", "eval", "--model", str(tmp_path / "m.safetensors"),
                              "--games", "20", "--json"])
    assert res.exit_code == 0, res.output
    ev2 = json.loads(res.stdout)
    assert [r["level"] for r in ev2["vs_previous"]] == [0, 1]  # history saved by --export


def test_bad_input_exit_2(tmp_path: Path) -> None:
    res = runner.invoke(app, ["ttt", "eval", "--model", str(tmp_path / "missing.safetensors")])
    assert res.exit_code == 2
    assert "missing.safetensors" in res.output
    res = runner.invoke(app, ["ttt", "train", "--out", str(tmp_path / "r"), "--gamma", "2"])
    assert res.exit_code == 2
    assert "gamma 2" in res.output
    res = runner.invoke(app, ["ttt", "train", "--out", str(tmp_path / "r"), "--epsilons", "a"])
    assert res.exit_code == 2


def test_shipped_model_never_loses() -> None:
    assert SHIPPED.is_file() and SHIPPED.stat().st_size < 1_000_000
    res = runner.invoke(app, ["ttt", "eval", "--games", "200", "--json"])
    assert res.exit_code == 0, res.output
    ev = json.loads(res.stdout)
    assert ev["vs_minimax"]["loss"] == 0
    assert ev["never_loses"] is True
    assert ev["vs_random"]["loss"] == 0
    # at least as good as the uniform minimax-optimal player against random (96.78% / 77.75%)
    assert ev["exact_vs_random"]["x"]["win"] >= 0.9678
    assert ev["exact_vs_random"]["o"]["win"] >= 0.7775


def test_play_shows_values_and_finishes() -> None:
    moves = "\n".join(str(i) for i in range(1, 10)) + "\n"
    res = runner.invoke(app, ["ttt", "play", "--first"], input=moves * 2)
    assert res.exit_code == 0, res.output
    assert "agent's value estimates" in res.output
    assert any(s in res.output for s in ("You win!", "You lose.", "Draw."))
    assert "You win!" not in res.output  # the shipped agent never loses
    res = runner.invoke(app, ["ttt", "play"], input="q\n")
    assert res.exit_code == 0 and "bye" in res.output


def test_tutorial_preset_settings_and_override(tmp_path: Path) -> None:
    from pokerlab.selfplay.players import EpsilonGreedyPlayer, RandomPlayer
    from pokerlab.selfplay.train import TrainConfig

    t = TrainConfig.preset("tutorial")
    assert (t.gamma, t.epochs, t.val_fraction, t.batch_size, t.dropout, t.lr, t.weight_decay,
            t.epsilons, t.epsilon_per_player_move) == (0.95, 5, 0.2, 64, 0.5, 1e-4, 1e-5,
                                                       (0.5, 0.5, 0.1), True)
    assert TrainConfig.preset("tutorial", epochs=2).epochs == 2
    assert TrainConfig.preset("default") == TrainConfig()
    eg = EpsilonGreedyPlayer(inner=RandomPlayer(), epsilons=(0.5, 0.5, 0.1),
                             per_player_move=True)
    assert [eg.move_index(p) for p in range(7)] == [0, 0, 1, 1, 2, 2, 3]
    run = tmp_path / "tut"
    res = runner.invoke(app, ["ttt", "train", "--preset", "tutorial", "--out", str(run),
                              "--levels", "2", "--games", "100", "--epochs", "1",
                              "--eval-games", "20", "--width", "8", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["preset"] == "tutorial" and out["levels"] == 2
    cfg = json.loads((run / "config.json").read_text())
    assert (cfg["gamma"], cfg["lr"], cfg["epochs"], cfg["epsilon_per_player_move"]) == (
        0.95, 1e-4, 1, True)
    bad = runner.invoke(app, ["ttt", "train", "--preset", "paper", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "'paper'" in bad.output
    bad = runner.invoke(app, ["ttt", "train", "--seed", "-1", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "--seed" in bad.output
