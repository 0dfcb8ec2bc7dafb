"""Ray's token authentication: a driver without the cluster's token, or with a wrong one,
gets one line naming the address and what to do (exit 2), never Ray's minute of
``InvalidAuthToken`` lines (docs/ray.md).

The translation is tested here on the exception types and texts Ray raises; the slow test
starts a head with token authentication on this machine (``RAY_AUTH_MODE=token``, Ray
2.52 and later) in its own process and joins it from ``pokerlab`` processes with no token,
a wrong token (in ``RAY_AUTH_TOKEN`` and in ``~/.ray/auth_token``) and the right one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokerlab import executor
from pokerlab.executor import ExecutorError, auth_message, is_auth_error

POKERLAB = [sys.executable, "-m", "pokerlab.cli"]
TOKEN = "0123456789abcdef0123456789abcdef"
WRONG = "fedcba9876543210fedcba9876543210"


class AuthenticationError(Exception):
    """Stands for ``ray.exceptions.AuthenticationError`` (matched by its name)."""


def test_auth_errors_are_recognised_by_type_and_text() -> None:
    assert is_auth_error(AuthenticationError("anything"))
    assert is_auth_error(RuntimeError("RPC error: InvalidAuthToken: Authentication token "
                                      "is missing or incorrect"))
    assert is_auth_error("Unauthenticated: RPC error")
    assert not is_auth_error(ConnectionError("Failed to connect to Ray cluster"))
    assert not is_auth_error(TimeoutError("10.0.0.1:6379"))


def test_the_messages_name_the_address_the_token_and_what_to_do() -> None:
    none = auth_message("10.0.0.1:6379")
    assert none.startswith("--ray-address '10.0.0.1:6379': ") and "no token" in none
    assert "ray get-auth-token" in none and "RAY_AUTH_TOKEN" in none and "\n" not in none
    wrong = auth_message("10.0.0.1:6379", source="RAY_AUTH_TOKEN")
    assert "refused the authentication token from RAY_AUTH_TOKEN" in wrong


def _refusing(calls: list[int]) -> object:
    def answer(address: str, timeout_s: float) -> BaseException | None:
        calls.append(1)
        return AuthenticationError("RPC error: InvalidAuthToken: Authentication token is "
                                   "missing or incorrect")
    return answer


def _clean_env(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("HOME", str(home))


def test_check_token_without_a_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    _clean_env(monkeypatch, tmp_path)
    calls: list[int] = []
    monkeypatch.setattr(executor, "_gcs_answer", _refusing(calls))
    with pytest.raises(ExecutorError) as err:
        executor.check_token("10.0.0.1:6379")
    assert str(err.value) == auth_message("10.0.0.1:6379")
    assert calls == [1]  # no token to retry with


def test_check_token_with_a_wrong_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    _clean_env(monkeypatch, tmp_path)
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text(WRONG)
    calls: list[int] = []
    monkeypatch.setattr(executor, "_gcs_answer", _refusing(calls))
    monkeypatch.setattr(executor, "_token_auth_if_available", lambda: True)
    with pytest.raises(ExecutorError) as err:
        executor.check_token("10.0.0.1:6379")
    assert str(tmp_path / ".ray" / "auth_token") in str(err.value)
    assert "refused the authentication token" in str(err.value)
    assert calls == [1, 1]  # tried without, then with the token


def test_check_token_accepted_with_the_token(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    pytest.importorskip("ray")
    _clean_env(monkeypatch, tmp_path)
    monkeypatch.setenv("RAY_AUTH_TOKEN", TOKEN)
    answers = iter([AuthenticationError("InvalidAuthToken"), None])
    monkeypatch.setattr(executor, "_gcs_answer", lambda a, t: next(answers))
    monkeypatch.setattr(executor, "_token_auth_if_available", lambda: True)
    executor.check_token("10.0.0.1:6379")  # no error: ray.init then joins with the token


def test_token_mode_without_a_token_is_refused_before_ray_aborts(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    _clean_env(monkeypatch, tmp_path)
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    monkeypatch.setattr(executor, "_gcs_answer", lambda a, t: pytest.fail("probed"))
    with pytest.raises(ExecutorError, match="RAY_AUTH_MODE=token is set but this machine "
                                            "has no authentication token"):
        executor.check_token("10.0.0.1:6379")


def test_ray_init_passes_the_token_line_through(monkeypatch: pytest.MonkeyPatch) -> None:
    """The line of :func:`check_token` is what the user sees (not re-worded by ray_init's
    own translation, whose texts also match "authentication token")."""
    import socket

    ray = pytest.importorskip("ray")
    line = auth_message("127.0.0.1:1", source=None).replace("127.0.0.1:1", "X")

    def refuse(address: str, **kw: object) -> None:
        raise ExecutorError(line)

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: pytest.fail("ray.init was called"))
    monkeypatch.setattr(executor, "check_token", refuse)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        with pytest.raises(ExecutorError) as err:
            executor.ray_init(f"127.0.0.1:{s.getsockname()[1]}")
    assert str(err.value) == line


# ------------------------------------------------------------------- a real token head

HEAD = """
import sys
from ray.cluster_utils import Cluster
c = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "include_dashboard": False})
print(c.address, flush=True)
try:
    sys.stdin.read()  # until the test closes it
finally:
    c.shutdown()
"""


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("RAY_AUTH", "RAY_ADDRESS"))}
    env.update(HOME=str(home), RAY_USAGE_STATS_ENABLED="0", **extra)
    return env


@pytest.fixture(scope="module")
def token_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("ray")
    home = tmp_path_factory.mktemp("head-home")
    proc = subprocess.Popen([sys.executable, "-c", HEAD], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=_env(home, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=TOKEN))
    try:
        assert proc.stdout is not None
        address = proc.stdout.readline().strip()
        assert address, "the token head did not start"
        yield address
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _match(address: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*POKERLAB, "match", "tag", "call", "--hands", "200", "--seed",
                           "3", "--workers", "2", "--ray-address", address, "--json"],
                          capture_output=True, text=True, env=_env(home, **env),
                          timeout=600, cwd=home)


def _one_line(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 2, res.stderr[-3000:]
    assert "Traceback" not in res.stderr and "InvalidAuthToken" not in res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr[-3000:]
    assert res.stdout == ""
    return lines[0]


@pytest.mark.slow
def test_a_token_head_without_the_token(token_head: str, tmp_path: Path) -> None:
    line = _one_line(_match(token_head, tmp_path))
    assert f"--ray-address {token_head!r}" in line and "no token" in line
    assert "ray get-auth-token" in line
    line = _one_line(_match(token_head, tmp_path, RAY_AUTH_MODE="token"))
    assert "RAY_AUTH_MODE=token is set but this machine has no authentication token" in line


@pytest.mark.slow
def test_a_token_head_with_a_wrong_token(token_head: str, tmp_path: Path) -> None:
    line = _one_line(_match(token_head, tmp_path, RAY_AUTH_TOKEN=WRONG))
    assert f"{token_head!r}" in line and "refused the authentication token from " \
        "RAY_AUTH_TOKEN" in line
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text(WRONG)
    line = _one_line(_match(token_head, tmp_path))
    assert str(tmp_path / ".ray" / "auth_token") in line


@pytest.mark.slow
def test_a_token_head_with_its_token_equals_the_local_match(token_head: str,
                                                           tmp_path: Path) -> None:
    res = _match(token_head, tmp_path, RAY_AUTH_TOKEN=TOKEN)
    assert res.returncode == 0, res.stderr[-3000:]
    ray = json.loads(res.stdout.strip().splitlines()[-1])
    local = subprocess.run([*POKERLAB, "match", "tag", "call", "--hands", "200", "--seed",
                            "3", "--workers", "1", "--json"], capture_output=True, text=True,
                           env=_env(tmp_path), timeout=600, cwd=tmp_path)
    assert local.returncode == 0, local.stderr[-3000:]
    want = json.loads(local.stdout)
    assert ray["hands"] == want["hands"] == 200
    assert ray["mean_mbb"] == want["mean_mbb"] and ray["per_seat"] == want["per_seat"]
