"""``pokerlab holdem deal`` / ``selfplay`` through typer's CliRunner (small sizes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("pokerkit")

from pokerlab.cli import app  # noqa: E402
from pokerlab.holdem import phh  # noqa: E402

runner = CliRunner()


def test_deal_text_and_json() -> None:
    res = runner.invoke(app, ["holdem", "deal", "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert "p1 (big blind): Kd Ts, stack 20000" in res.output
    assert "result: showdown, p1 wins; p1 +20000, p2 -20000" in res.output
    assert "blinds_or_straddles = [50, 100]" in res.output
    res = runner.invoke(app, ["holdem", "deal", "--seed", "1", "--json"])
    assert res.exit_code == 0
    d = json.loads(res.stdout)
    assert d["payoffs"] == [20000, -20000] and d["hole"] == ["KdTs", "Qh9s"]
    assert d["board"] == "5d5cTd4h4c" and d["showdown"] is True
    st = phh.loads_all(d["phh"])[0]
    assert st.final_stacks() == (40000, 0)


def test_selfplay_writes_phh_pokerkit_replays(tmp_path: Path) -> None:
    out = tmp_path / "sp.phhs"
    res = runner.invoke(app, ["holdem", "selfplay", "--hands", "120", "--seed", "5",
                              "--stacks", "200,35", "--out", str(out), "--verify", "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["hands"] == 120 and rep["verified_hands"] == 120
    assert rep["chips_won"][0] + rep["chips_won"][1] == 0
    cfg = json.loads((tmp_path / "sp.phhs.json").read_text())
    assert cfg["game"]["stacks"] == [20000, 3500] and cfg["seed"] == 5
    states = phh.read_phhs(out)
    assert len(states) == 120
    assert sum(s.payoffs()[0] for s in states) == rep["chips_won"][0]
    # Same seed, same file.
    out2 = tmp_path / "sp2.phhs"
    res2 = runner.invoke(app, ["holdem", "selfplay", "--hands", "120", "--seed", "5",
                               "--stacks", "200,35", "--out", str(out2), "--json"])
    assert json.loads(res2.stdout)["sha256"] == rep["sha256"]


def test_bad_input_exit_2(tmp_path: Path) -> None:
    res = runner.invoke(app, ["holdem", "deal", "--stacks", "abc"])
    assert res.exit_code == 2 and "--stacks 'abc'" in res.output
    res = runner.invoke(app, ["holdem", "deal", "--stacks", "1"])  # 100 chips: not > blind
    assert res.exit_code == 2 and "must exceed" in res.output
    res = runner.invoke(app, ["holdem", "selfplay", "--hands", "0",
                              "--out", str(tmp_path / "x.phhs")])
    assert res.exit_code == 2 and "--hands must be positive" in res.output
    res = runner.invoke(app, ["holdem", "deal", "--weights", "1,0,0,0,0"])
    assert res.exit_code == 2 and "weights" in res.output
