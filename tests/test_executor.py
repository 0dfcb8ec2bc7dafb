"""The one executor (:mod:`pokerlab.executor`): order, determinism across backends, errors,
Ray addresses, and the ``--workers`` / ``--ray-address`` options of every command."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.errors import ConfigError, PokerlabError
from pokerlab.executor import (
    ExecutorError,
    check_ray_address,
    check_workers,
    default_backend,
    map_chunks,
    parse_ray_address,
    ray_init,
    runtime_env,
)

runner = CliRunner()


# ------------------------------------------------------------------ chunk functions
# module level: the process and Ray backends pickle them by reference


def _draws(chunk: tuple[int, int]) -> np.ndarray:
    """A chunk carries its own seed: the result depends on nothing else."""
    seed, n = chunk
    return np.random.default_rng(seed).normal(size=n)


def _slow_square(x: int) -> int:
    time.sleep(0.05 * (3 - x))  # later chunks finish first
    return x * x


def _fails_on_two(x: int) -> int:
    if x == 2:
        raise ConfigError(f"bad chunk {x}")
    return x


def _dies(x: int) -> int:
    if x == 1:
        os._exit(3)
    return x


# ------------------------------------------------------------------ map_chunks


def test_results_in_chunk_order_with_progress() -> None:
    seen: list[tuple[int, int]] = []
    out = map_chunks(_slow_square, [0, 1, 2, 3], backend="local",
                     progress=lambda d, t: seen.append((d, t)), size=lambda x: x + 1)
    assert out == [0, 1, 4, 9]
    assert seen == [(1, 10), (3, 10), (6, 10), (10, 10)]
    seen.clear()
    out = map_chunks(_slow_square, [0, 1, 2, 3], backend="process", workers=2,
                     progress=lambda d, t: seen.append((d, t)))
    assert out == [0, 1, 4, 9]  # chunk order, not finishing order
    assert [d for d, _ in seen] == [1, 2, 3, 4] and seen[-1] == (4, 4)
    assert map_chunks(_slow_square, [], backend="process", workers=2) == []


def test_same_numbers_on_every_backend_and_worker_count() -> None:
    chunks = [(seed, 5) for seed in range(6)]
    local = map_chunks(_draws, chunks)
    for workers in (1, 2, 3):
        other = map_chunks(_draws, chunks, backend="process", workers=workers)
        assert all(np.array_equal(a, b) for a, b in zip(local, other, strict=True))


def test_an_error_in_a_chunk_surfaces_as_itself() -> None:
    for backend in ("local", "process"):
        with pytest.raises(ConfigError, match="bad chunk 2") as ei:
            map_chunks(_fails_on_two, [0, 1, 2, 3], backend=backend, workers=2)  # type: ignore[arg-type]
        assert any("chunk 3 of 4" in n for n in getattr(ei.value, "__notes__", [])), backend
    with pytest.raises(ExecutorError, match="worker process died"):
        map_chunks(_dies, [0, 1], backend="process", workers=2)


def test_bad_backend_and_worker_counts() -> None:
    with pytest.raises(ExecutorError, match="unknown executor backend 'threads'"):
        map_chunks(_draws, [(0, 1)], backend="threads")  # type: ignore[arg-type]
    for bad in (0, -3):
        with pytest.raises(ExecutorError, match=f"--workers must be a whole number >= 1, "
                           f"got {bad}"):
            check_workers(bad)
        with pytest.raises(ExecutorError, match="workers"):
            map_chunks(_draws, [(0, 1)], backend="process", workers=bad)
    assert check_workers(None) is None and check_workers(4) == 4
    assert default_backend(None, None) == "local" and default_backend(1, None) == "local"
    assert default_backend(2, None) == "process" and default_backend(1, "local") == "ray"


# ------------------------------------------------------------------ Ray addresses


def test_ray_address_syntax() -> None:
    assert parse_ray_address("local") == ("local", None, None)
    assert parse_ray_address(" auto ") == ("auto", None, None)
    assert parse_ray_address("10.0.0.5:6379") == ("10.0.0.5:6379", "10.0.0.5", 6379)
    assert parse_ray_address("head-node.example.org:6380")[1:] == ("head-node.example.org",
                                                                   6380)
    assert parse_ray_address("ray://head:10002")[1:] == ("head", 10002)
    assert parse_ray_address("ray://head")[1:] == ("head", 10001)
    assert parse_ray_address("[::1]:6379")[1:] == ("::1", 6379)
    for bad in ("garbage", "", "host:", "host:0", "host:99999", "host:port", "a b:1",
                "http://x:1", "ray://", "[zz]:1", ":6379"):
        with pytest.raises(ExecutorError, match="--ray-address") as ei:
            parse_ray_address(bad)
        assert repr(bad.strip()) in str(ei.value) or repr(bad) in str(ei.value), bad
        assert "\n" not in str(ei.value)
    assert isinstance(ExecutorError("x"), PokerlabError)
    assert check_ray_address(None) is None


def test_unreachable_address_fails_fast_without_ray() -> None:
    t0 = time.perf_counter()
    with pytest.raises(ExecutorError, match=r"'127\.0\.0\.1:1': no Ray cluster there"):
        check_ray_address("127.0.0.1:1", reachable=True)
    with pytest.raises(ExecutorError, match=r"'127\.0\.0\.1:1'"):
        ray_init("127.0.0.1:1")
    assert time.perf_counter() - t0 < 5.0
    with pytest.raises(ExecutorError, match="cannot resolve host"):
        check_ray_address("no-such-host.invalid:6379", reachable=True)


def test_runtime_env_ships_the_package_to_a_cluster() -> None:
    import pokerlab

    root = os.path.dirname(os.path.abspath(pokerlab.__file__))
    local = runtime_env(ship=False)
    assert local["env_vars"]["PYTHONPATH"].split(os.pathsep)[0] == os.path.dirname(root)
    cluster = runtime_env(ship=True)
    assert cluster["py_modules"] == [root] and "__pycache__" in cluster["excludes"]


def test_ray_init_passes_num_cpus_only_to_a_local_start(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """The 'num_cpus must not be provided' fix: joining never passes resources; 'local'
    always starts its own Ray (``address="local"``), whatever runs on the machine."""
    ray = pytest.importorskip("ray")
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: calls.append(kw))
    monkeypatch.setattr("pokerlab.executor.check_token", lambda *a, **k: None)  # no GCS
    assert ray_init("local", 3) is True
    assert calls[-1]["address"] == "local" and calls[-1]["num_cpus"] == 3
    assert "env_vars" in calls[-1]["runtime_env"]
    assert ray_init("auto", 3) is True
    assert calls[-1]["address"] == "auto" and "num_cpus" not in calls[-1]
    assert "py_modules" in calls[-1]["runtime_env"]
    with socket.socket() as s:  # a listening port passes the probe
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        addr = f"127.0.0.1:{s.getsockname()[1]}"
        assert ray_init(addr, 3) is True
    assert calls[-1]["address"] == addr and "num_cpus" not in calls[-1]

    def refuse(**kw: Any) -> None:
        raise ConnectionError("Could not find any running Ray instance.\nPlease start one")

    monkeypatch.setattr(ray, "init", refuse)
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    with pytest.raises(ExecutorError, match=r"^--ray-address: cannot join the Ray cluster "
                       r"at 'auto': Could not find any running Ray instance\.$"):
        ray_init("auto")


def test_a_port_that_is_no_ray_head_is_given_up_in_bounded_time() -> None:
    """Ray alone retries an address that accepts TCP but is no GCS for many minutes."""
    pytest.importorskip("ray")
    code = ("import socket, time\n"
            "from pokerlab.executor import ExecutorError, ray_init\n"
            "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(8)\n"
            "try:\n"
            "    ray_init(f'127.0.0.1:{s.getsockname()[1]}', connect_timeout_s=3)\n"
            "except ExecutorError as e:\n"
            "    print('ERR', e)\n")
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert time.perf_counter() - t0 < 60
    assert "ERR --ray-address: cannot join" in res.stdout and "no answer within 3 s" in \
        res.stdout, (res.stdout, res.stderr)


def test_ray_backend_gives_the_local_numbers_and_unwraps_errors() -> None:
    pytest.importorskip("ray")
    import ray
    from ray import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # tests/ is no package
    chunks = [(seed, 4) for seed in range(3)]
    local = map_chunks(_draws, chunks)
    on_ray = map_chunks(_draws, chunks, backend="ray", workers=2, ray_address="local")
    assert all(np.array_equal(a, b) for a, b in zip(local, on_ray, strict=True))
    assert not ray.is_initialized()  # the session it started is shut down
    with pytest.raises(ConfigError, match="bad chunk 2"):
        map_chunks(_fails_on_two, [1, 2], backend="ray", workers=2)


# ------------------------------------------------------------------ the command line


def _bad(args: list[str], *needles: str) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (args, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("error: ")]
    assert len(lines) == 1, res.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


@pytest.mark.parametrize("bad", ["0", "-3"])
def test_workers_below_one_are_refused(bad: str) -> None:
    msg = f"--workers must be a whole number >= 1, got {bad}"
    _bad(["match", "random", "call", "--hands", "10", "--workers", bad], msg)
    _bad(["lbr", "random", "--game", "kuhn", "--hands", "10", "--workers", bad], msg)
    _bad(["deepcfr", "train", "kuhn", "--iterations", "1", "--workers", bad], msg)


def test_bad_ray_addresses_are_one_line() -> None:
    need = ["--ray-address 'garbage' is not a Ray address"]
    _bad(["match", "random", "call", "--hands", "10", "--ray-address", "garbage"], *need)
    _bad(["lbr", "random", "--game", "kuhn", "--hands", "10", "--ray-address", "garbage"],
         *need)
    _bad(["deepcfr", "train", "kuhn", "--iterations", "1", "--ray-address", "garbage"],
         *need)
    _bad(["blueprint", "train", "--preset", "pushfold", "--iterations", "10",
          "--ray-address", "garbage"], *need)
    t0 = time.perf_counter()
    _bad(["match", "random", "call", "--hands", "10", "--ray-address", "127.0.0.1:1"],
         "'127.0.0.1:1': no Ray cluster there")
    _bad(["blueprint", "train", "--preset", "pushfold", "--iterations", "10",
          "--ray-address", "127.0.0.1:1"], "'127.0.0.1:1'")
    assert time.perf_counter() - t0 < 10.0
