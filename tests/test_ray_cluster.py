"""Ray as a user runs it: a head and a second worker node on this machine, joined by
address (docs/ray.md), running a match, a blueprint round and a Deep CFR iteration across
both nodes; each total equals the run on a private local Ray (or in this process).

Slow (two Ray nodes start, every command is its own ``pokerlab`` process).  The cluster is
made with ``ray.cluster_utils.Cluster`` -- the same ``ray start`` processes, stopped by
their own handles at the end, so other Ray instances on the machine are never touched
(``ray stop`` would stop them all).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

POKERLAB = [sys.executable, "-m", "pokerlab.cli"]


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


def _run(args: list[str], tmp: Path, timeout: float = 900) -> dict[str, Any]:
    env = {**os.environ, "POKERLAB_DATA": str(tmp / "data"), "RAY_USAGE_STATS_ENABLED": "0"}
    res = subprocess.run([*POKERLAB, *args, "--json"], capture_output=True, text=True,
                         env=env, timeout=timeout, cwd=tmp)
    assert res.returncode == 0, (args, res.stderr[-3000:])
    return json.loads(res.stdout.strip().splitlines()[-1])


def _alive_nodes(address: str) -> int:
    code = (f"import ray; ray.init(address={address!r}, log_to_driver=False); "
            "print(sum(n['Alive'] for n in ray.nodes()))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return int(res.stdout.strip().splitlines()[-1])


def test_two_nodes_are_up(cluster: Any) -> None:
    assert _alive_nodes(cluster.address) == 2


def test_a_match_across_two_nodes_equals_the_local_match(cluster: Any, tmp_path: Path) -> None:
    args = ["match", "tag", "call", "--hands", "4000", "--seed", "5"]
    local = _run([*args, "--workers", "1"], tmp_path)
    ray = _run([*args, "--workers", "2", "--ray-address", cluster.address], tmp_path)
    assert ray["hands"] == local["hands"] == 4000
    assert ray["mean_mbb"] == local["mean_mbb"]
    assert ray["sd_mbb"] == local["sd_mbb"]
    assert ray["per_seat"] == local["per_seat"]


def test_a_blueprint_round_across_two_nodes(cluster: Any, tmp_path: Path) -> None:
    base = ["blueprint", "train", "--preset", "pushfold", "--iterations", "100000",
            "--ray-workers", "2", "--merge-every", "25000"]
    local = _run([*base, "--ray-address", "local", "--out", str(tmp_path / "a")], tmp_path)
    ray = _run([*base, "--ray-address", cluster.address, "--out", str(tmp_path / "b")],
               tmp_path)
    assert ray["iterations"] == local["iterations"] == 100_000
    assert ray["exploitability_bb"] == local["exploitability_bb"]


def test_a_deep_cfr_iteration_across_two_nodes(cluster: Any, tmp_path: Path) -> None:
    base = ["deepcfr", "train", "kuhn", "--iterations", "1", "--traversals", "200",
            "--sgd-steps", "20", "--policy-sgd-steps", "20", "--batch-size", "64",
            "--workers", "2"]
    local = _run([*base, "--ray-address", "local"], tmp_path)
    ray = _run([*base, "--ray-address", cluster.address], tmp_path)
    assert ray["iterations"] == local["iterations"] == 1
    assert ray["exploitability"] == local["exploitability"]
