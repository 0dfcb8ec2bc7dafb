"""``pokerlab blueprint train / info / strategy``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerlab.cli import app

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.output


def test_train_info_strategy(tmp_path: Path) -> None:
    out = tmp_path / "pf"
    code, text = _run("blueprint", "train", "--preset", "pushfold", "--iterations", "40000",
                      "--out", str(out), "--json")
    assert code == 0, text
    res = json.loads(text)
    for key in ("preset", "iterations", "seconds", "infosets", "bytes", "iterations_per_s",
                "policy_path", "exploitability_bb", "exploitability", "exploitability_mbb",
                "big_blind"):
        assert key in res
    assert res["iterations"] == 40000
    assert res["infosets"] == 2 * 169
    assert res["exploitability_bb"] < 0.05
    assert res["exploitability_mbb"] == pytest.approx(1000 * res["exploitability_bb"])
    code, text = _run("blueprint", "train", "--preset", "pushfold", "--iterations", "1000",
                      "--out", str(out), "--resume", "--json")
    assert code == 0, text
    assert json.loads(text)["iterations"] == 41000
    pol = res["policy_path"]
    code, text = _run("blueprint", "info", pol, "--json")
    assert code == 0, text
    info = json.loads(text)
    assert info["iterations"] == 41000 and info["infosets"] == 338
    assert info["preflop_nodes"][0] == {"node": 0, "path": [], "actor": 1, "actions": [0, 2]}
    png = tmp_path / "root.png"
    code, text = _run("blueprint", "strategy", pol, "--node", "root", "--png", str(png),
                      "--json")
    assert code == 0, text
    st = json.loads(text)
    assert png.stat().st_size > 1000
    assert st["actions"][0] == "fold" and len(st["grid"]) == 169
    assert st["grid"]["AA"][1] > 0.9  # aces shove
    assert sum(st["frequency"].values()) == pytest.approx(1.0)
    code, text = _run("blueprint", "strategy", pol, "--node", "path:2")
    assert code == 0, text
    assert "player 0 to act" in text


@pytest.mark.parametrize(("args", "msg"), [
    (["--preset", "nope"], "unknown blueprint preset 'nope'"),
    (["--threads", "0"], "--threads must be positive"),
    (["--iterations", "5", "--minutes", "1"], "not both"),
    (["--storage", "tape"], "--storage must be memory or disk"),
    (["--stack", "-3"], "--stack must be positive"),
    (["--bets", "flop: 33q"], "bad bet size '33q'"),
    (["--bets", "  "], "--bets is empty"),
])
def test_train_errors(tmp_path: Path, args: list[str], msg: str) -> None:
    code, text = _run("blueprint", "train", "--out", str(tmp_path / "x"), *args)
    assert code == 2
    assert text.strip().startswith("error:") and msg in text
    assert len(text.strip().splitlines()) == 1


def test_info_rejects_foreign_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a policy")
    code, text = _run("blueprint", "info", str(bad))
    assert code == 2 and text.startswith("error:")


def test_train_with_own_bet_set(tmp_path: Path) -> None:
    """``--bets`` replaces the preset's bet set: the tree, the saved config and the agent
    that plays the policy all follow it."""
    from pokerlab.abstraction.bets import parse_bet_set
    from pokerlab.abstraction.tree_count import tree_size
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.policy import load_any_policy

    bets = "preflop: 3x, a, cap 2; flop: 33%, 75%, a, cap 1; turn: 75%, a, cap 1; river: a"
    out = tmp_path / "b"
    code, text = _run("blueprint", "train", "--preset", "small", "--stack", "20",
                      "--bets", bets, "--buckets", "169,5,5,5", "--iterations", "2000",
                      "--out", str(out), "--json")
    assert code == 0, text
    res = json.loads(text)
    cfg = json.loads((out / "config.json").read_text())
    assert cfg["bets"] == bets
    size = tree_size(parse_bet_set(bets), HoldemConfig(stacks=(2000, 2000), small_blind=50,
                                                       big_blind=100), buckets=(169, 5, 5, 5))
    assert res["infosets"] == size.infosets
    pol = load_any_policy(res["policy_path"])
    assert pol.metadata["config"]["bets_text"] == parse_bet_set(bets).text()
    code, text = _run("match", f"policy:{res['policy_path']}", "call", "--hands", "200",
                      "--stack", "20", "--json")
    assert code == 0, text
    assert json.loads(text)["hands"] == 200
