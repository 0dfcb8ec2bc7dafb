"""``spot solve`` checkpoints (issue 53, item 17): a solve killed after N iterations and
continued with ``--resume`` ends exactly where the uninterrupted solve ends, and the
temporaries that killed writers of an output leave behind are removed on its next write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.io import atomic_write_bytes, remove_stale_temporaries
from pokerlab.subgame import SpotSolver

runner = CliRunner()

SPOT = ["--board", "Kh9c4s2s", "--pot", "60", "--stack", "120", "--oop", "AA,KQs,T9s,66,A5s",
        "--ip", "QQ,KJs,87s,A4s,99", "--bets", "75%", "--raises", "none"]
RUN = ["--iterations", "40", "--target", "0", "--threads", "1", "--json"]


class Killed(BaseException):
    """Stands for a SIGKILL: nothing of the command runs after it."""


def _solve(*args: str) -> dict[str, object]:
    res = runner.invoke(app, ["spot", "solve", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_killed_solve_resumes_to_the_uninterrupted_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = tmp_path / "full.npz"
    whole = _solve(*SPOT, *RUN, "--out", str(full))
    assert whole["iterations"] == 40 and whole["checkpoints"] == 0  # the default: 5 minutes

    # the same solve, checkpointing after every check (10 iterations), killed at 25
    ck = tmp_path / "ck.npz"
    steps = SpotSolver.steps

    def dying_steps(self: SpotSolver, count: int) -> None:
        if self.iteration + count > 25:
            steps(self, 25 - self.iteration)
            raise Killed
        steps(self, count)

    monkeypatch.setattr(SpotSolver, "steps", dying_steps)
    with pytest.raises(Killed):
        runner.invoke(app, ["spot", "solve", *SPOT, *RUN, "--out", str(ck),
                            "--checkpoint-minutes", "1e-9"], catch_exceptions=False)
    monkeypatch.setattr(SpotSolver, "steps", steps)
    saved = SpotSolver.load(ck)
    assert saved.iteration == 20  # the last checkpoint before the kill
    assert [h[0] for h in saved.history] == [10, 20]
    assert not list(tmp_path.glob(".ck.npz.*.tmp"))

    resumed = _solve("--resume", str(ck), *RUN)
    assert resumed["iterations"] == 40 and resumed["out"] == str(ck)
    a, b = SpotSolver.load(full), SpotSolver.load(ck)
    assert a.iteration == b.iteration == 40
    np.testing.assert_allclose(b.regrets, a.regrets, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(b.ssum, a.ssum, rtol=1e-6, atol=1e-6)
    assert resumed["exploitability"] == pytest.approx(whole["exploitability"], rel=1e-6, abs=1e-9)
    assert resumed["ev_oop"] == pytest.approx(whole["ev_oop"], rel=1e-6)
    assert [h[2] for h in b.history] == pytest.approx([h[2] for h in a.history], rel=1e-6)


def test_stale_temporaries_are_removed_on_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "spot.npz"
    old = time.time() - 3 * 24 * 3600
    dead = tmp_path / f".spot.npz.{_dead_pid()}-abcd_123.npz.tmp"
    live = tmp_path / f".spot.npz.{os.getppid()}-live0000.npz.tmp"   # a writer still running
    legacy_old = tmp_path / ".spot.npz.x1y2z3w4.npz.tmp"           # the old naming, 3 days old
    legacy_new = tmp_path / ".spot.npz.q1w2e3r4.npz.tmp"           # the old naming, fresh
    other = tmp_path / f".spot.npz.json.{_dead_pid()}-abcd_123.json.tmp"  # another output's
    for p in (dead, live, legacy_old, legacy_new, other):
        p.write_bytes(b"x" * 1000)
    os.utime(legacy_old, (old, old))
    atomic_write_bytes(target, b"data")
    assert target.read_bytes() == b"data"
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {"spot.npz", live.name, legacy_new.name, other.name}
    assert remove_stale_temporaries(target) == []
    # a pid reused by a process that started after the temporary was written
    reused = tmp_path / f".spot.npz.{os.getpid()}-reused00.npz.tmp"
    reused.write_bytes(b"x")
    os.utime(reused, (old, old))
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        mine = tmp_path / f".spot.npz.{child.pid}-reused00.npz.tmp"
        reused.rename(mine)
        assert remove_stale_temporaries(target) == [mine]
    finally:
        child.kill()
        child.wait()


def test_a_kill_during_the_save_leaves_nothing_after_the_resume(tmp_path: Path) -> None:
    ck = tmp_path / "ck.npz"
    first = _solve(*SPOT, "--iterations", "10", "--target", "0", "--threads", "1", "--json",
                   "--out", str(ck))
    assert first["iterations"] == 10
    # what a writer killed in the middle of the save leaves: a large temporary
    junk = tmp_path / f".ck.npz.{_dead_pid()}-k1ll3d00.npz.tmp"
    junk.write_bytes(b"\0" * (1 << 20))
    again = _solve("--resume", str(ck), "--iterations", "20", "--target", "0", "--threads", "1",
                   "--json")
    assert again["iterations"] == 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ck.npz"]
