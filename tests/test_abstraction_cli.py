from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from pokerlab.commands.abstraction_cmd import GROUPS

app = typer.Typer()
for _name, _sub, _help in GROUPS:
    app.add_typer(_sub, name=_name, help=_help)
runner = CliRunner()


def test_tree_json() -> None:
    res = runner.invoke(app, ["abstraction", "tree", "--bets", "tiny", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["sequences"] == {"preflop": 4, "flop": 6, "turn": 18, "river": 54}
    assert out["memory_bytes"] == 2 * 4 * out["values_per_table"]


def test_tree_text_and_errors() -> None:
    res = runner.invoke(app, ["abstraction", "tree", "--bets", "preflop: 3x, a; postflop: 50%, a, cap 2"])
    assert res.exit_code == 0 and "sequences" in res.stdout
    res = runner.invoke(app, ["abstraction", "tree", "--bets", "2.5x, 4q"])
    assert res.exit_code == 2 and "4q" in res.output
    res = runner.invoke(app, ["abstraction", "tree", "--buckets", "1,2"])
    assert res.exit_code == 2 and "1,2" in res.output


def test_build_json_and_cache(tmp_path: Path) -> None:
    args = ["abstraction", "build", "--preset", "test", "--cache", str(tmp_path), "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert not out["from_cache"]
    assert out["streets"][0] == {"street": "preflop", "canonical_hands": 169, "buckets": 169,
                                 "method": "lossless", "used_buckets": 169}
    res = runner.invoke(app, args)
    assert json.loads(res.stdout)["from_cache"] is True
    res = runner.invoke(app, ["abstraction", "build", "--preset", "nope", "--json"])
    assert res.exit_code == 2 and "nope" in res.output
