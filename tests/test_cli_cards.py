import json

from typer.testing import CliRunner

from pokerlab.cli import app

runner = CliRunner()


def test_equity_json():
    r = runner.invoke(app, ["equity", "AsKs", "QhQd", "--board", "2s3s4h", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert set(d) == {"equity", "win", "tie", "boards", "exact"}
    assert d["boards"] == 990 and d["exact"] is True
    assert abs(sum(d["equity"]) - 1) < 1e-12


def test_equity_monte_carlo_json():
    r = runner.invoke(app, ["equity", "AsKs", "QQ+", "--mc", "20000", "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["exact"] is False and d["samples"] == 20000 and len(d["stderr"]) == 2


def test_equity_bad_input_exit_2():
    r = runner.invoke(app, ["equity", "AsKs", "QhQd", "--board", "2s3"])
    assert r.exit_code == 2
    assert "2s3" in r.output
    r = runner.invoke(app, ["equity", "AsKs", "AsQd"])
    assert r.exit_code == 2 and "twice" in r.output


def test_range_cli(tmp_path):
    png = tmp_path / "r.png"
    r = runner.invoke(app, ["range", "TT+,AKs", "--png", str(png), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["combos"] == 34 and d["range"] == "TT+, AKs"
    assert png.stat().st_size > 1000
    r = runner.invoke(app, ["range", "TT+,AXs"])
    assert r.exit_code == 2 and "AXs" in r.output


def test_eval_cli():
    r = runner.invoke(app, ["eval", "KsKd7h7c9d2s3c", "--json"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["description"] == "Two Pair, Kings and Sevens"


def test_bench_evaluator_json():
    r = runner.invoke(app, ["bench", "evaluator", "--hands", "20000", "--peer-hands", "2000", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for k in ("hands", "pokerlab_per_s", "eval7_per_s", "phevaluator_per_s", "ratio_vs_eval7"):
        assert k in d
    assert d["hands"] == 20000 and d["pokerlab_per_s"] > 0


def test_demo_quick_runs():
    r = runner.invoke(app, ["demo", "--quick"])
    assert r.exit_code == 0, r.output
    assert "Royal Flush" in r.output and "46.214%" in r.output
    assert "-0.055555556" in r.output  # Kuhn game value -1/18
    assert "58.3%" in r.output  # push/fold at 10 bb: SB shoves 58.3%
