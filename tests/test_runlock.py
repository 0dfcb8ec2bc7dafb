"""Runs that cannot clobber each other: run-folder and database locks, refused reuse."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.runlock import LOCK_NAME, RunLock, RunLockError, check_unlocked, read_holder

runner = CliRunner()

HOLD = """
import sys, time
from pokerlab.runlock import RunLock
lock = RunLock(sys.argv[1], folder=sys.argv[2] == "folder", command="holder-test")
lock.acquire()
print("held", flush=True)
time.sleep(120)
"""


def _holder(target: Path, kind: str = "folder") -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(target), kind],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def _one_line(res: object) -> str:
    out = getattr(res, "stderr")  # noqa: B009
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert getattr(res, "exit_code") == 2, out  # noqa: B009
    assert len(lines) == 1 and lines[0].startswith("error: "), out
    return lines[0]


def test_a_second_lock_is_refused_and_names_the_holder(tmp_path: Path) -> None:
    with RunLock(tmp_path, command="first") as lock:
        info = read_holder(lock.path)
        assert info is not None and info["pid"] == os.getpid()
        assert info["host"] == socket.gethostname() and info["command"] == "first"
        with pytest.raises(RunLockError) as err:
            RunLock(tmp_path).acquire()
        text = str(err.value)
        assert f"pid {os.getpid()}" in text and socket.gethostname() in text
        assert info["started"] in text and "(first)" in text
    assert not (tmp_path / LOCK_NAME).exists()  # released: the file is gone
    RunLock(tmp_path).acquire()  # and the folder is free again


def test_a_killed_holder_is_taken_over(tmp_path: Path) -> None:
    proc = _holder(tmp_path)
    try:
        with pytest.raises(RunLockError, match=f"pid {proc.pid} "):
            check_unlocked(tmp_path)
        assert (tmp_path / LOCK_NAME).exists()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    holder = read_holder(tmp_path / LOCK_NAME)
    assert holder is not None and holder["pid"] == proc.pid  # left behind by the kill
    with RunLock(tmp_path) as lock:  # stale: taken over
        assert read_holder(lock.path)["pid"] == os.getpid()  # type: ignore[index]


def test_a_lock_file_of_a_dead_pid_without_flock_is_stale(tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).write_text(json.dumps({"pid": 2**22 + 7, "host":
                                                  socket.gethostname()}))
    with RunLock(tmp_path):
        pass


def test_another_hosts_lock_is_refused(tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).write_text(json.dumps({"pid": 1, "host": "elsewhere",
                                                  "started": "then"}))
    with pytest.raises(RunLockError, match="pid 1 on elsewhere since then"):
        RunLock(tmp_path).acquire()


def test_blueprint_train_over_an_existing_run_is_refused(tmp_path: Path) -> None:
    run = tmp_path / "bp"
    run.mkdir()
    (run / "config.json").write_text("{}")
    (run / "checkpoint.npz").write_bytes(b"old")
    line = _one_line(runner.invoke(app, ["blueprint", "train", "--preset", "small",
                                         "--iterations", "10", "--out", str(run)]))
    assert "already holds a run" in line and "--resume" in line
    assert sorted(p.name for p in run.iterdir()) == ["checkpoint.npz", "config.json"]
    assert (run / "checkpoint.npz").read_bytes() == b"old"


def test_two_trainers_on_one_folder_the_second_refuses(tmp_path: Path) -> None:
    run = tmp_path / "bp"
    run.mkdir()
    proc = _holder(run)  # a trainer that has just started (only its lock is there)
    try:
        for extra in ([], ["--resume"]):
            line = _one_line(runner.invoke(app, ["blueprint", "train", "--preset", "small",
                                                 "--iterations", "10", "--out", str(run),
                                                 *extra]))
            assert f"in use by pid {proc.pid} on {socket.gethostname()}" in line
        line = _one_line(runner.invoke(app, ["deepcfr", "train", "kuhn", "--iterations",
                                             "1", "--checkpoint", str(run)]))
        assert f"pid {proc.pid}" in line
    finally:
        proc.kill()
        proc.wait()
    assert [p.name for p in run.iterdir()] == [LOCK_NAME]  # nothing of ours written


def test_a_refused_call_leaves_no_folder(tmp_path: Path) -> None:
    run = tmp_path / "new"
    res = runner.invoke(app, ["blueprint", "train", "--preset", "no-such-preset",
                              "--iterations", "10", "--out", str(run)])
    assert res.exit_code == 2
    assert not run.exists()


def test_a_database_writer_is_locked(tmp_path: Path) -> None:
    db = tmp_path / "h.duckdb"
    phh = tmp_path / "x.phh"
    phh.write_text("")
    proc = _holder(db, "file")
    try:
        line = _one_line(runner.invoke(app, ["hands", "import", str(phh), "--db", str(db)]))
        assert f"database {str(db)!r} is in use by pid {proc.pid}" in line
    finally:
        proc.kill()
        proc.wait()
    assert not db.exists()


@pytest.mark.slow
def test_a_kill_before_the_interval_keeps_the_first_checkpoint(tmp_path: Path) -> None:
    """With a 30-minute interval the first checkpoint still comes within a minute; a
    SIGKILL after it keeps its iterations, the kill's lock is taken over and --resume
    continues from them."""
    import time

    from pokerlab.blueprint.trainer import BlueprintTrainer

    run = tmp_path / "bp"
    proc = subprocess.Popen([sys.executable, "-m", "pokerlab.cli", "blueprint", "train",
                             "--preset", "small", "--minutes", "20", "--checkpoint-minutes",
                             "30", "--out", str(run)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ck = run / "checkpoint.npz"
    try:
        for _ in range(1200):  # a cap, not a speed claim: the interval is 30 minutes
            if ck.exists() or proc.poll() is not None:
                break
            time.sleep(0.5)
        assert ck.exists() and proc.poll() is None
        time.sleep(2.0)  # the rename is atomic: the file is whole once it is there
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert (run / LOCK_NAME).exists()  # left behind by the kill
    saved = BlueprintTrainer.resume(run).iterations
    assert saved > 0
    res = runner.invoke(app, ["blueprint", "train", "--out", str(run), "--resume",
                              "--iterations", "1000", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["iterations"] == saved + 1000
    assert not (run / LOCK_NAME).exists()


# ------------------------------------------------------------------------------ --force


def _pushfold_run(run: Path, iterations: int, *extra: str) -> dict[str, object]:
    res = runner.invoke(app, ["blueprint", "train", "--preset", "pushfold", "--iterations",
                              str(iterations), "--out", str(run), "--json", *extra])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def test_force_replaces_the_old_run(tmp_path: Path) -> None:
    from pokerlab.blueprint.trainer import BlueprintTrainer

    run = tmp_path / "bp"
    _pushfold_run(run, 3000, "--seed", "1")
    (run / "notes.txt").write_text("of the old run")
    (run / "tables").mkdir()
    (run / "tables" / "x.bin").write_bytes(b"old")
    assert _pushfold_run(run, 1000, "--force")["iterations"] == 1000  # not 3000 + 1000
    assert sorted(p.name for p in run.iterdir()) == ["checkpoint.npz", "config.json",
                                                     "policy.npz", "train.json"]
    tr = BlueprintTrainer.resume(run)
    assert tr.iterations == 1000 and tr.config.seed == 0


def test_force_and_resume_together_are_refused(tmp_path: Path) -> None:
    run = tmp_path / "bp"
    _pushfold_run(run, 1000)
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    line = _one_line(runner.invoke(app, ["blueprint", "train", "--preset", "pushfold",
                                         "--iterations", "10", "--out", str(run), "--force",
                                         "--resume"]))
    assert "--resume" in line and "--force" in line
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before


def test_a_force_call_that_fails_before_writing_keeps_the_old_run(tmp_path: Path) -> None:
    run = tmp_path / "bp"
    _pushfold_run(run, 1000)
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    line = _one_line(runner.invoke(app, ["blueprint", "train", "--preset", "no-such",
                                         "--iterations", "10", "--out", str(run), "--force"]))
    assert "no-such" in line
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before


def test_force_waits_for_the_lock_and_removes_nothing_of_a_live_run(tmp_path: Path) -> None:
    run = tmp_path / "bp"
    run.mkdir()
    (run / "checkpoint.npz").write_bytes(b"live")
    proc = _holder(run)
    try:
        line = _one_line(runner.invoke(app, ["blueprint", "train", "--preset", "pushfold",
                                             "--iterations", "10", "--out", str(run),
                                             "--force"]))
        assert f"in use by pid {proc.pid}" in line
    finally:
        proc.kill()
        proc.wait()
    assert (run / "checkpoint.npz").read_bytes() == b"live"


def test_a_killed_force_call_is_settled_by_the_next_call(tmp_path: Path) -> None:
    """A ``--force`` call killed after moving the old run aside: the next call puts it back
    when nothing replaced it (here: --resume continues it), and deletes it otherwise."""
    from pokerlab.commands._file_guards import REPLACED_NAME

    run = tmp_path / "bp"
    _pushfold_run(run, 1000)
    (run / REPLACED_NAME).mkdir()
    for p in list(run.iterdir()):
        if p.name != REPLACED_NAME:
            p.rename(run / REPLACED_NAME / p.name)
    assert _pushfold_run(run, 500, "--resume")["iterations"] == 1500
    assert not (run / REPLACED_NAME).exists()
    (run / REPLACED_NAME).mkdir()
    (run / REPLACED_NAME / "stale.npz").write_bytes(b"old")
    assert _pushfold_run(run, 500, "--resume")["iterations"] == 2000
    assert not (run / REPLACED_NAME).exists()


def test_deepcfr_checkpoint_folder_force(tmp_path: Path) -> None:
    ck = tmp_path / "dcfr"
    args = ["deepcfr", "train", "kuhn", "--iterations", "1", "--traversals", "20",
            "--sgd-steps", "2", "--policy-sgd-steps", "2", "--batch-size", "8", "--dim", "8",
            "--no-eval", "--checkpoint", str(ck), "--json"]
    assert runner.invoke(app, args).exit_code == 0
    (ck / "old.txt").write_text("x")
    line = _one_line(runner.invoke(app, args))
    assert "already holds a run" in line and "--force" in line
    res = runner.invoke(app, [*args, "--force"])
    assert res.exit_code == 0, res.output
    assert not (ck / "old.txt").exists() and (ck / "state.json").exists()


def test_ttt_train_force_starts_over(tmp_path: Path) -> None:
    """``ttt train`` resumes its run folder by design; ``--force`` starts a new run there."""
    pytest.importorskip("torch")
    run = tmp_path / "ttt"
    args = ["ttt", "train", "--out", str(run), "--levels", "1", "--games", "20", "--epochs",
            "1", "--eval-games", "2", "--json"]
    assert runner.invoke(app, args).exit_code == 0
    (run / "old.txt").write_text("of the old run")
    res = runner.invoke(app, [*args, "--force"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["levels"] == 1
    assert not (run / "old.txt").exists() and (run / "config.json").exists()
