"""``pokerlab spot report`` on a two-node Ray cluster, as a user runs it (docs/ray.md): a
head and a second worker node on this machine joined by address, the report of four flops
of a tiny template with 1 and with 2 workers equal to the local run, row for row.

The Ray test is slow (two Ray nodes start, each report is its own ``pokerlab`` process);
the cluster is made with ``ray.cluster_utils.Cluster`` -- the same ``ray start``
processes, stopped by their own handles at the end, so other Ray instances on the machine
are never touched.  The fast tests check ``benchmarks/bench_spot_report.py``'s flop sample
and projection, and ``bench_spot_startup.py``'s import-time parsing, on made-up numbers.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
POKERLAB = [sys.executable, "-m", "pokerlab.cli"]
BOARDS = "Td9d6h,As7c2d,8h8d3s,KsQsJs"
TINY = ["spot", "report", "--flops", BOARDS, "--pot", "10", "--stack", "20",
        "--oop", "AA,KK,QQ,JJ,AKs,AQs,KQs,76s", "--ip", "TT,99,88,AJs,KJs,QJs,JTs,T9s",
        "--bets", "50%", "--raises", "none", "--iterations", "40", "--target", "0"]


def _bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1,
                                                      "include_dashboard": False})
    try:
        c.add_node(num_cpus=1)
        c.wait_for_nodes()
        yield c
    finally:
        c.shutdown()


def _report(extra: list[str], tmp: Path) -> dict[str, Any]:
    env = {**os.environ, "POKERLAB_DATA": str(tmp / "data"), "RAY_USAGE_STATS_ENABLED": "0"}
    res = subprocess.run([*POKERLAB, *TINY, *extra, "--json"], capture_output=True, text=True,
                         env=env, timeout=900, cwd=tmp)
    assert res.returncode == 0, (extra, res.stderr[-3000:])
    out: dict[str, Any] = json.loads(res.stdout.strip().splitlines()[-1])
    return out


def _rows(out: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if not k.endswith("seconds")} for r in out["flops"]]


@pytest.mark.slow
def test_report_on_two_ray_nodes_equals_the_local_report(cluster: Any, tmp_path: Path) -> None:
    local = _report(["--workers", "1"], tmp_path)
    one = _report(["--workers", "1", "--ray-address", cluster.address], tmp_path)
    two = _report(["--workers", "2", "--ray-address", cluster.address], tmp_path)
    assert local["backend"] != "ray"
    assert one["backend"] == two["backend"] == "ray"
    assert [r["board"] for r in local["flops"]] == ["Td9d6h", "As7c2d", "8h8d3s", "KsQsJs"]
    assert local["count"] == one["count"] == two["count"] == 4
    assert all(r["iterations"] == 40 for r in local["flops"])
    # each flop's EVs share its pot (no rake): a real solve, not an empty row
    for r in local["flops"]:
        assert r["ev_oop"] + r["ev_ip"] == pytest.approx(10.0, abs=1e-4)  # float32 values
        assert 0.0 < r["equity_oop"] < 1.0
    assert _rows(one) == _rows(local)
    assert _rows(two) == _rows(local)
    assert one["summary"] == local["summary"] == two["summary"]


def test_report_bench_samples_the_184_set_and_projects() -> None:
    b = _bench("bench_spot_report")
    full = b.sample_boards(184)
    assert len(full) == 184 == len(set(full))
    five = b.sample_boards(5)
    assert len(five) == 5 and set(five) <= set(full)
    assert five == [full[18], full[55], full[92], full[128], full[165]]
    res = {"flops": [{"solve_seconds": s, "iterations": 100, "exploitability_pct": 0.4,
                      "target_reached": True, "memory_bytes": 1000} for s in (10.0, 30.0)],
           "process_wall_seconds": 25.0, "process_cpu_seconds": 45.0, "seconds": 24.0,
           "backend": "process", "load_average": 0.5}
    s = b.summarize(res, 2, 2)
    # two lanes: the solving took (10 + 30) / 2 = 20 s of the 25, so 5 s are fixed;
    # 184 flops of 20 s mean on two lanes: 184 * 20 / 2 + 5
    assert s["fixed_seconds"] == pytest.approx(5.0)
    assert s["projected_seconds_184"] == pytest.approx(1845.0)
    assert s["within_30_minutes"] is False
    assert s["seconds_per_flop"] == pytest.approx(12.5)
    assert s["flops_per_second"] == pytest.approx(0.08)


def test_startup_bench_reads_importtime() -> None:
    b = _bench("bench_spot_startup")
    text = ("import time: self [us] | cumulative | imported package\n"
            "import time:       100 |        100 |     numpy.core\n"
            "import time:       400 |        500 |   numpy\n"
            "import time:      2000 |       2500 | numba\n"
            "import time:       300 |        300 | typer\n")
    rows = b.parse_importtime(text)
    assert rows[1] == ("numpy", 400, 500)
    off = b.import_offenders(rows, 2)
    assert off["total_import_seconds"] == pytest.approx(0.0028)
    assert off["packages_seconds"] == {"numba": 0.002, "numpy": 0.0005}
    assert list(off["modules_cumulative_seconds"]) == ["numba", "numpy"]
    assert b.percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.9) == pytest.approx(4.6)
