"""``make bench`` (benchmarks/run_all.py): the generated section of docs/benchmarks.md."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("run_all", ROOT / "benchmarks" / "run_all.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["run_all"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_rewrites_only_its_section(tmp_path: Path) -> None:
    ra = _load()
    doc = tmp_path / "b.md"
    doc.write_text("# Benchmarks\n\nhand-written\n")
    ok = {"name": "x", "command": "python benchmarks/x.py --json", "load": "load 1.0",
          "seconds": 2.0, "ok": True, "result": {"rate_per_s": 1234567.0, "ratio": 2.5,
                                                  "nested": {"a": 1}, "many": list(range(20))}}
    bad = {"name": "y", "command": "python benchmarks/y.py --json", "load": "load 1.0",
           "ok": False, "error": "exit 1: no peer"}
    ra.write_doc(ra.render([ok, bad], "first"), doc)
    ra.write_doc(ra.render([ok], "second"), doc)
    text = doc.read_text()
    assert text.startswith("# Benchmarks\n\nhand-written\n")
    assert text.count(ra.START) == 1 and text.count(ra.END) == 1
    assert "second" in text and "first" not in text and "no peer" not in text
    assert "| rate_per_s | 1,234,567 |" in text and "| ratio | 2.5 |" in text
    assert "| nested.a | 1 |" in text and "| many | (20 values) |" in text
    assert set(ra.BENCHES) >= {"evaluator", "solvers", "hands", "abstraction", "spot_startup",
                               "spot_report"}
    assert all((ROOT / "benchmarks" / s).is_file() for s, _ in ra.BENCHES.values())


def test_merge_keeps_previous_results() -> None:
    ra = _load()
    old = [{"name": "solvers", "ok": True}, {"name": "evaluator", "ok": False}]
    new = [{"name": "evaluator", "ok": True}]
    merged = ra.merge(old, new)
    assert [r["name"] for r in merged] == ["evaluator", "solvers"]  # BENCHES order
    assert merged[0]["ok"] is True
