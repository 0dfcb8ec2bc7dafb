"""``pokerlab policy show``: per-information-set listing, unreached sets, pictures, JSON."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.policy import TabularPolicy, save_policy

runner = CliRunner()


def _solve(tmp_path: Path, game: str, algo: str, extra: list[str]) -> Path:
    out = tmp_path / f"{game}_{algo}.npz"
    res = runner.invoke(app, ["solve", game, "--algo", algo, *extra, "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    return out


def test_eight_card_lp_marks_unreached(tmp_path: Path) -> None:
    path = _solve(tmp_path, "eight_card", "lp", [])
    png = tmp_path / "e8.svg"
    res = runner.invoke(app, ["policy", "show", str(path), "--json", "--png", str(png)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["game"] == "eight_card" and out["num_infosets"] == 32
    rows = {r["key"]: r for r in out["infosets"]}
    # the best card never passes first (it bets), so '7pb' is never reached by this policy
    assert rows["7"]["actions"][1]["prob"] == 1.0
    assert rows["7pb"]["reached"] is False and rows["7pb"]["own_reach"] == 0.0
    unreached = sorted(k for k, r in rows.items() if r["reached"] is False)
    assert out["num_unreached"] == len(unreached) == 2 and "7pb" in unreached
    assert rows["0"]["reached"] is True and rows["0"]["own_reach"] == 1.0
    assert [a["name"] for a in rows["0"]["actions"]] == ["Pass", "Bet"]
    assert all(abs(sum(a["prob"] for a in r["actions"]) - 1) < 1e-9 for r in rows.values())
    assert png.read_text().lstrip().startswith("<?xml")
    text = runner.invoke(app, ["policy", "show", str(path)])
    assert text.exit_code == 0
    line = next(ln for ln in text.stdout.splitlines() if ln.strip().startswith("7pb"))
    assert "unreached" in line
    assert "2 never reached" in text.stdout


def test_kuhn_cfr_all_reached_and_limit(tmp_path: Path) -> None:
    path = _solve(tmp_path, "kuhn", "cfr", ["--iterations", "50"])
    out = json.loads(runner.invoke(app, ["policy", "show", str(path), "--json"]).stdout)
    assert out["num_infosets"] == 12 and out["num_unreached"] == 0
    txt = runner.invoke(app, ["policy", "show", str(path), "--limit", "3"]).stdout
    assert "9 more" in txt


def test_unknown_game_and_pushfold_grids(tmp_path: Path) -> None:
    pol = TabularPolicy.from_dict({"x": {0: 0.25, 1: 0.75}}, metadata={"game": "nope"})
    p = tmp_path / "p.npz"
    save_policy(pol, p)
    out = json.loads(runner.invoke(app, ["policy", "show", str(p), "--json"]).stdout)
    assert out["infosets"][0]["reached"] is None and "nope" in out["reach_note"]
    assert out["num_unreached"] is None

    from pokerlab.pushfold.policy import PushFoldPolicy

    sb = np.zeros(1326)
    sb[:6] = 1.0  # the six AA combos? whatever they are, 6 combos of one class
    pf = PushFoldPolicy(sb_shove=sb, bb_call=np.full(1326, 0.5))
    q = tmp_path / "pf.npz"
    save_policy(pf.to_tabular(metadata={"game": "pushfold"}), q)
    png = tmp_path / "pf.png"
    res = runner.invoke(app, ["policy", "show", str(q), "--png", str(png), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["num_infosets"] == 2652 and out["num_unreached"] == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_errors(tmp_path: Path) -> None:
    res = runner.invoke(app, ["policy", "show", str(tmp_path / "missing.npz")])
    assert res.exit_code == 2 and "missing.npz" in res.stderr and "Traceback" not in res.output
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    res = runner.invoke(app, ["policy", "show", str(bad)])
    assert res.exit_code == 2 and res.stderr.startswith("error: ")
    res = runner.invoke(app, ["policy", "show", str(bad), "--png", str(tmp_path / "a.bmp")])
    assert res.exit_code == 2 and ".png or .svg" in res.stderr


def test_indexed_policy_summary(tmp_path: Path) -> None:
    from pokerlab.policy import IndexedPolicy

    pol = IndexedPolicy(num_children=np.array([2, 3]), child_action=np.array([0, 1, 0, 1, 2]),
                        num_buckets=np.array([2, 1]),
                        probs=np.array([0.5, 0.5, 1, 0, 0.2, 0.3, 0.5], dtype=np.float32),
                        metadata={"game": "hunl(stack=100)"})
    p = tmp_path / "ip.npz"
    save_policy(pol, p)
    res = runner.invoke(app, ["policy", "show", str(p), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["kind"] == "indexed" and out["num_nodes"] == 2
    assert out["nodes"][0]["mean_probs"] == [0.75, 0.25]
    assert out["nodes"][1]["action_ids"] == [0, 1, 2]
    res = runner.invoke(app, ["policy", "show", str(p), "--png", str(tmp_path / "x.png")])
    assert res.exit_code == 2 and "tabular policies only" in res.stderr
