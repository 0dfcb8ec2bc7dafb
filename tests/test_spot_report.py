"""``pokerlab spot report``: one spot template over a set of flops."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pokerlab.cli import app

runner = CliRunner()
TEMPLATE = ["--pot", "10", "--stack", "20", "--oop", "QQ+,AK", "--ip", "JJ+,AQs+", "--bets", "a",
            "--raises", "none", "--iterations", "30"]
KEYS = ("ev_oop", "ev_ip", "equity_oop", "exploitability_pct", "iterations")


def _report(*args: str) -> dict[str, Any]:
    res = runner.invoke(app, ["spot", "report", *TEMPLATE, "--workers", "1", "--json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _table(obj: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "solve_seconds"} for r in obj["flops"]]


def test_report_rows_equal_spot_solve() -> None:
    rep = _report("--flops", "Td9d6h,AsKs2s")
    assert [r["board"] for r in rep["flops"]] == ["Td9d6h", "AsKs2s"]
    assert [r["weight"] for r in rep["flops"]] == [12.0, 4.0]
    assert rep["solved"] == 2 and rep["resumed"] == 0 and rep["seconds"] > 0
    for row in rep["flops"]:
        res = runner.invoke(app, ["spot", "solve", "--board", row["board"], *TEMPLATE, "--json"])
        assert res.exit_code == 0, res.output
        one = json.loads(res.stdout)
        for k in KEYS:
            assert row[k] == pytest.approx(one[k], abs=1e-9), k
        assert row["root_actions"].keys() == one["root_actions"].keys()
        for a, f in one["root_actions"].items():
            assert row["root_actions"][a] == pytest.approx(f, abs=1e-9)
        assert row["ev_oop"] + row["ev_ip"] == pytest.approx(10.0, abs=1e-3)
    td = rep["flops"][0]
    assert td["texture"] == {"suits": "two-tone", "pairing": "unpaired", "high": "T",
                             "connectedness": "connected"}
    s = rep["summary"]
    assert s["weight"] == 16.0
    assert s["ev_oop"] == pytest.approx((12 * td["ev_oop"] + 4 * rep["flops"][1]["ev_oop"]) / 16)


def test_ranges_from_files_equal_the_same_text(tmp_path: Path) -> None:
    (tmp_path / "oop.txt").write_text("QQ+,AK", encoding="utf-8")
    (tmp_path / "ip.json").write_text(json.dumps({"range": "JJ+,AQs+"}), encoding="utf-8")
    args = list(TEMPLATE)
    args[args.index("--oop") + 1] = f"@{tmp_path / 'oop.txt'}"
    args[args.index("--ip") + 1] = f"@{tmp_path / 'ip.json'}"
    res = runner.invoke(app, ["spot", "report", *args, "--workers", "1", "--json", "--flops", "Td9d6h"])
    assert res.exit_code == 0, res.output
    from_files = json.loads(res.stdout)
    text = _report("--flops", "Td9d6h")
    for k in KEYS:
        assert from_files["flops"][0][k] == pytest.approx(text["flops"][0][k], abs=1e-12), k
    from pokerlab.cards.ranges import parse_range

    assert (parse_range(from_files["template"]["oop"]) == parse_range("QQ+,AK")).all()


def test_resume_solves_only_the_missing_flops(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    flops = "Td9d6h,AsKs2s,7c7d2h"
    first = _report("--flops", flops, "--out", str(out), "--png", str(tmp_path / "r.png"))
    assert first["solved"] == 3 and (tmp_path / "r.png").stat().st_size > 1000
    assert sorted(p.name for p in (out / "flops").iterdir()) == ["7d7c2h.json", "AsKs2s.json",
                                                                 "Td9d6h.json"]
    (out / "flops" / "AsKs2s.json").unlink()  # as if killed before this flop finished
    again = _report("--flops", flops, "--out", str(out))
    assert again["solved"] == 1 and again["resumed"] == 2
    assert _table(again) == _table(first)
    # a filter reads the saved rows: nothing to solve
    mono = _report("--flops", flops, "--out", str(out), "--texture", "monotone")
    assert mono["solved"] == 0 and [r["board"] for r in mono["flops"]] == ["AsKs2s"]
    # another template in the same folder is refused
    res = runner.invoke(app, ["spot", "report", *TEMPLATE[:-1], "40", "--flops", flops, "--out", str(out)])
    assert res.exit_code == 2 and "another spot template" in res.output and "iterations" in res.output


@pytest.mark.slow
def test_killed_report_resumes_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    flops = "Td9d6h,AsKs2s,7c7d2h,Kh8c3d,9s8s7s,QcQdJh"
    cmd = [sys.executable, "-c", "from pokerlab.cli import main; main()", "spot", "report",
           *TEMPLATE[:-1], "200", "--flops", flops, "--workers", "1", "--out", str(out), "--json",
           "--cold"]  # warm chains re-form around the flops still missing: cold rows are exact
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while proc.poll() is None and len(list((out / "flops").glob("*.json"))) < 1:
            time.sleep(0.05)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    done = len(list((out / "flops").glob("*.json")))
    assert done >= 1
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    obj = json.loads(res.stdout)
    assert obj["resumed"] == done and obj["solved"] == 6 - done
    fresh = _report("--flops", flops, "--iterations", "200", "--cold")
    assert _table(obj) == _table(fresh)


def test_process_workers_give_the_same_table() -> None:
    one = _report("--flops", "Td9d6h,AsKs2s,7c7d2h")
    res = runner.invoke(app, ["spot", "report", *TEMPLATE, "--flops", "Td9d6h,AsKs2s,7c7d2h",
                              "--workers", "2", "--json"])
    assert res.exit_code == 0, res.output
    two = json.loads(res.stdout)
    assert two["backend"] == "process" and two["workers"] == 2
    assert _table(two) == _table(one)


@pytest.mark.parametrize(("args", "text"), [
    (["--flops", ""], "--flops is empty"),
    (["--flops", "Td9d6h,Xd2c3h"], "bad board 'Xd2c3h'"),
    (["--flops", "Td9d6h,Td9d"], "has 2 cards"),
    (["--flops", "30"], "25, 49, 95, 184, 1755"),
    (["--flops", "Td9d6h,AsKs2s", "--max-memory", "3e6"], "flop Td9d6h needs about 5.4 MB"),
    (["--flops", "25", "--max-memory", "1e5"], "over --max-memory"),
    (["--flops", "Td9d6h,6h9dTd"], "listed twice"),
    (["--flops", "Td9d6h", "--texture", "wet"], "unknown term 'wet'"),
    (["--flops", "Td9d6h", "--texture", "monotone"], "no flop of the set"),
])
def test_bad_input_is_one_line(args: list[str], text: str, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    res = runner.invoke(app, ["spot", "report", *TEMPLATE, "--out", str(out), *args])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], res.output
    assert not (out / "flops").exists() or not any((out / "flops").iterdir())


def test_keep_spots_needs_out() -> None:
    res = runner.invoke(app, ["spot", "report", *TEMPLATE, "--flops", "Td9d6h", "--keep-spots"])
    assert res.exit_code == 2 and res.output.startswith("error: ") and "give --out" in res.output
