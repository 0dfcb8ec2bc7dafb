"""Every case of issue 29, end to end, and damaged files of every kind pokerlab reads.

Each bad input is one line ``error: ...`` on stderr, exit status 2, no traceback, nothing
written; a damaged file's line names the file.

Checklist: each case of the issue and its test (``here``: this module; ``slow``: run with
``-m slow``).

Tracebacks
  - ``equity AsKs QdQc --mc 99999999999999999999999``: here, test_huge_count_is_one_line
  - ``match tag call --stack inf``: here, test_bad_stacks
  - a small-game policy with one flipped byte (``match``, ``policy show``, ``exploit br``):
    here, test_damaged_files_are_one_line_naming_the_file[*-kuhn_policy],
    test_every_flipped_byte_of_a_policy_is_refused_or_harmless
  - ``--ray-address garbage``: here, test_ray_addresses
  - ``opponent model`` of random bytes: here,
    test_damaged_files_are_one_line_naming_the_file[random-observations]
  - a Ray cluster already running, then ``--ray-address local`` / ``blueprint train
    --ray-workers 2`` ("num_cpus must not be provided"): test_executor.py,
    test_ray_init_passes_num_cpus_only_to_a_local_start; slow: test_ray_cluster.py,
    test_a_blueprint_round_across_two_nodes and test_a_deep_cfr_iteration_across_two_nodes
    (their ``--ray-address local`` runs start while the two-node cluster runs)
A hang
  - ``--ray-address 127.0.0.1:1``: here, test_ray_addresses; a port that is no Ray head:
    test_executor.py, test_a_port_that_is_no_ray_head_is_given_up_in_bounded_time
Bad input accepted
  - ``match --game "hunl(stack=abc)"``: here, test_match_does_not_ignore_game_parameters
  - ``--workers 0`` / ``-3``: here, test_workers_below_one
  - ``play --game kuhn --agent bogus``: here, test_play_checks_its_agent_for_small_games
  - ``play`` ignores ``$POKERLAB_DATA``: here, test_play_honours_pokerlab_data
  - ``solve --out k.json``: here, test_solve_out_must_be_an_npz
  - ``holdem selfplay --out`` / ``hands report --out`` create missing folders: here,
    test_output_paths_checked_before_any_work
Work lost
  - ``blueprint train --out DIR`` over a run without ``--resume``: test_runlock.py,
    test_blueprint_train_over_an_existing_run_is_refused; ``--force`` replaces it:
    test_force_replaces_the_old_run, test_force_and_resume_together_are_refused,
    test_a_force_call_that_fails_before_writing_keeps_the_old_run,
    test_force_waits_for_the_lock_and_removes_nothing_of_a_live_run,
    test_a_killed_force_call_is_settled_by_the_next_call,
    test_deepcfr_checkpoint_folder_force; ``exploit lock --game hunl --out DIR`` over files:
    here, test_hunl_lock_run_folder_is_never_overwritten
  - two trainers on one ``--out``: test_runlock.py,
    test_two_trainers_on_one_folder_the_second_refuses; a database writer:
    test_a_database_writer_is_locked; a killed holder's lock: test_a_killed_holder_is_taken_over,
    here, test_a_kill_leaves_a_lock_that_the_next_run_takes_over
  - a kill before the first checkpoint: slow: test_runlock.py,
    test_a_kill_before_the_interval_keeps_the_first_checkpoint (SIGKILL of a real
    ``blueprint train`` after its first checkpoint, then ``--resume``)
  - ``deepcfr train --checkpoint /proc/x``: here, test_output_paths_checked_before_any_work
  - a push/fold-preset blueprint as an agent ("5 vs 16 nodes"): here,
    test_a_pushfold_blueprint_is_an_agent, test_a_pushfold_blueprint_agent_only_folds_or_shoves
Half-said
  - typer's usage block and box: here, test_parser_errors_are_one_line_without_a_box;
    test_fuzz_cli.py, test_unknown_option_and_missing_argument_are_one_line
  - a policy of another game: here, test_a_policy_of_another_game
  - a folder given as a policy: here, test_a_folder_given_as_a_policy; a folder given to
    ``blueprint info``: test_a_run_folder_given_to_blueprint_info
  - ``pushfold solve --stack 1e300`` (HiGHS): here, test_huge_pushfold_stack_is_no_solver_error
  - internal field names (``vpip_heads_up``) instead of options: here,
    test_messages_name_options_not_fields
  - a truncated PHH for ``opponent model`` names no file: here,
    test_damaged_files_are_one_line_naming_the_file[truncated-phh]
  - an empty PHH ("missing or bad field 'variant': None"): here, test_an_empty_phh
  - a Leduc opponent model's tag after the first 4,096 bytes: here,
    test_a_leduc_model_is_found_by_its_tag
  - an empty line before ``error:`` under a progress bar (``match``, ``lbr``): here,
    test_an_error_under_the_progress_bar_is_exactly_one_line
Ray on a real cluster
  - pokerlab shipped to worker nodes: test_executor.py,
    test_runtime_env_ships_the_package_to_a_cluster
  - token authentication (13 lines of InvalidAuthToken): test_ray_auth.py (the
    translation; slow: a token head joined with no, a wrong and the right token)
  - the two-node recipe, totals equal to the local run: slow: test_ray_cluster.py
Build
  - every option of every command, fed its kind's bad values: test_fuzz_cli.py
  - damaged files of every kind: here, test_damaged_files_are_one_line_naming_the_file
"""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.cli import app

runner = CliRunner()


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def bad(args: list[str], *needles: str, root: Path | None = None) -> str:
    before = _files(root) if root is not None else set()
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (args, res.exit_code, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
    if root is not None:
        assert _files(root) == before, _files(root) - before
    return lines[0]


# ------------------------------------------------------------- the listed cases


def test_huge_count_is_one_line() -> None:
    bad(["equity", "AsKs", "QdQc", "--mc", "99999999999999999999999"], "--mc")
    bad(["equity", "AsKs", "QdQc", "--mc", str(10**13)], "--mc", "at most")


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "1e300", "0", "-5"])
def test_bad_stacks(value: str) -> None:
    bad(["match", "tag", "call", "--stack", value, "--hands", "10"], "--stack")


def test_huge_pushfold_stack_is_no_solver_error() -> None:
    line = bad(["pushfold", "solve", "--stack", "1e300"], "--stack")
    assert "HiGHS" not in line


def test_ray_addresses() -> None:
    bad(["match", "tag", "call", "--hands", "10", "--ray-address", "garbage"],
        "--ray-address", "garbage")
    t0 = time.monotonic()
    bad(["match", "tag", "call", "--hands", "10", "--ray-address", "127.0.0.1:1"],
        "--ray-address", "127.0.0.1:1")
    assert time.monotonic() - t0 < 120  # a refused port is no hang (a generous bound)


@pytest.mark.parametrize("spec", ["hunl(stack=abc)", "hunl(stack=50)"])
def test_match_does_not_ignore_game_parameters(spec: str) -> None:
    bad(["match", "tag", "call", "--hands", "10", "--game", spec], "--game", "--stack")
    bad(["lbr", "call", "--hands", "10", "--game", spec], "--game")


def test_bad_game_parameters_are_named() -> None:
    bad(["solve", "kuhn(x=1)", "--iterations", "2"], "GAME", "x")
    bad(["game", "info", "leduc(bogus=1)"], "bogus")


@pytest.mark.parametrize("workers", ["0", "-3"])
def test_workers_below_one(workers: str) -> None:
    bad(["match", "tag", "call", "--hands", "10", "--workers", workers], "--workers")


def test_play_checks_its_agent_for_small_games(tmp_path: Path) -> None:
    bad(["play", "--game", "kuhn", "--agent", "bogus", "--tty"], "--agent", "bogus")


def test_parser_errors_are_one_line_without_a_box() -> None:
    for args in (["equity", "AsKs", "--seed", "abc"], ["match", "--bogus"], ["equity"],
                 ["blueprint", "train", "--iterations", "1.5"]):
        line = bad(args)
        assert "╭" not in line and "Usage" not in line


def test_output_paths_checked_before_any_work(tmp_path: Path) -> None:
    bad(["deepcfr", "train", "kuhn", "--checkpoint", "/proc/x"], "--checkpoint", "/proc/x")
    bad(["holdem", "selfplay", "--hands", "5", "--out", str(tmp_path / "no" / "x.phhs")],
        "--out", "does not exist", root=tmp_path)
    bad(["hands", "report", "--out", str(tmp_path / "no" / "report")], "--out",
        root=tmp_path)
    bad(["solve", "kuhn", "--iterations", "2", "--out", str(tmp_path / "f" / "x.npz")],
        "--out", root=tmp_path)


def test_hunl_lock_run_folder_is_never_overwritten(tmp_path: Path) -> None:
    # the run folder of `exploit lock --game hunl` is a folder (not refused as "not a file"),
    # and one that already holds files is refused before any work
    run = tmp_path / "run"
    run.mkdir()
    (run / "policy.npz").write_bytes(b"old run")
    line = bad(["exploit", "lock", "--game", "hunl", "--opponent", str(tmp_path / "m.npz"),
                "--out", str(run)], "--out", "already holds", root=tmp_path)
    assert "not a file" not in line
    assert (run / "policy.npz").read_bytes() == b"old run"


def test_solve_out_must_be_an_npz(tmp_path: Path) -> None:
    bad(["solve", "kuhn", "--iterations", "2", "--out", str(tmp_path / "k.json")], "--out",
        ".npz", root=tmp_path)


def test_a_folder_given_as_a_policy(tmp_path: Path) -> None:
    bad(["match", f"policy:{tmp_path}", "random", "--game", "kuhn", "--hands", "2"],
        "is a folder")
    bad(["policy", "show", str(tmp_path)], "is a folder")


# ---------------------------------------------------------------- files of every kind


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("files")
    out: dict[str, Path] = {}
    r = runner.invoke(app, ["solve", "kuhn", "--iterations", "20", "--out", str(d / "k.npz")])
    assert r.exit_code == 0, r.output
    out["kuhn_policy"] = d / "k.npz"
    r = runner.invoke(app, ["solve", "leduc", "--iterations", "2", "--out", str(d / "l.npz")])
    assert r.exit_code == 0, r.output
    out["leduc_policy"] = d / "l.npz"
    r = runner.invoke(app, ["opponent", "sample", "--game", "leduc", "--opponent", "random",
                            "--hands", "200", "--out", str(d / "obs.jsonl")])
    assert r.exit_code == 0, r.output
    out["observations"] = d / "obs.jsonl"
    r = runner.invoke(app, ["opponent", "model", str(d / "obs.jsonl"), "--game", "leduc",
                            "--out", str(d / "model.json")])
    assert r.exit_code == 0, r.output
    out["model"] = d / "model.json"
    r = runner.invoke(app, ["match", "tag", "call", "--hands", "20", "--workers", "1",
                            "--out", str(d / "m.phhs")])
    assert r.exit_code == 0, r.output
    out["phh"] = d / "m.phhs"
    return out


def test_a_leduc_model_is_found_by_its_tag(files: dict[str, Path]) -> None:
    """A model whose format tag sits at the end of the file (sorted keys put it after the
    body, as older pokerlab wrote it) is still found."""
    f = files["model"].with_name("sorted.json")
    f.write_text(json.dumps(json.loads(files["model"].read_text()), indent=1, sort_keys=True))
    assert b"pokerlab-opponent-model" not in f.read_bytes()[:4096]
    r = runner.invoke(app, ["exploit", "br", "--game", "leduc", "--opponent", str(f),
                            "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["game"] == "leduc" and d["gain"] > 0


def test_a_policy_of_another_game(files: dict[str, Path]) -> None:
    bad(["match", f"policy:{files['leduc_policy']}", "random", "--game", "kuhn",
         "--hands", "2"], "leduc", "kuhn", str(files["leduc_policy"]))


def _damaged(src: Path, how: str, dst: Path, other: Path) -> Path:
    raw = src.read_bytes()
    if how == "truncated":
        data = raw[: len(raw) // 2]
    elif how.startswith("flip"):
        at = {"flip-first": 0, "flip-middle": len(raw) // 2}[how]
        b = bytearray(raw)
        b[at] ^= 0x5A
        data = bytes(b)
    elif how == "random":
        data = np.random.default_rng(7).integers(0, 256, 3000, dtype=np.uint8).tobytes()
    elif how == "empty":
        data = b""
    else:  # wrong kind: another file kind's bytes
        data = other.read_bytes()
    dst.write_bytes(data)
    return dst


HOWS = ["truncated", "flip-first", "flip-middle", "random", "empty", "wrong"]

#: file kind -> (the command reading FILE, the file used as the wrong kind)
READERS: dict[str, tuple[list[list[str]], str]] = {
    "kuhn_policy": ([["policy", "show", "FILE"],
                     ["match", "policy:FILE", "random", "--game", "kuhn", "--hands", "2"],
                     ["exploit", "br", "--game", "kuhn", "--opponent", "FILE"]], "model"),
    "model": ([["exploit", "br", "--game", "leduc", "--opponent", "FILE"]], "kuhn_policy"),
    "observations": ([["opponent", "model", "FILE", "--game", "leduc", "--out", "OUT"]],
                     "kuhn_policy"),
    "phh": ([["opponent", "model", "FILE", "--game", "hunl", "--player", "A-tag",
              "--out", "OUT"]], "kuhn_policy"),
}


@pytest.mark.parametrize("kind", sorted(READERS))
@pytest.mark.parametrize("how", HOWS)
def test_damaged_files_are_one_line_naming_the_file(files: dict[str, Path], kind: str,
                                                    how: str, tmp_path: Path) -> None:
    commands, other = READERS[kind]
    if kind == "observations" and how == "flip-middle":
        pytest.skip("observations carry no checksum: a changed count is a valid file")
    if kind == "phh" and how == "flip-middle":
        pytest.skip("a PHH file carries no checksum: a changed byte may be a legal hand")
    f = _damaged(files[kind], how, tmp_path / f"damaged{files[kind].suffix}", files[other])
    for cmd in commands:
        args = [a.replace("FILE", str(f)).replace("OUT", str(tmp_path / "out.json"))
                for a in cmd]
        bad(args, f.name, root=tmp_path)


def test_every_flipped_byte_of_a_policy_is_refused_or_harmless(files: dict[str, Path],
                                                              tmp_path: Path) -> None:
    """A flipped byte anywhere in a small-game policy file: the checksum (or the archive's
    own checks) refuses it with an error naming the file, or it hit bytes the contents do
    not depend on (zip timestamps, ...) and the policy read is the very same."""
    from pokerlab.errors import PolicyFileError
    from pokerlab.policy import load_policy

    src = files["kuhn_policy"]
    ref = load_policy(src)
    raw = src.read_bytes()
    f = tmp_path / "flipped.npz"
    refused = same = 0
    for i in range(len(raw)):
        b = bytearray(raw)
        b[i] ^= 0x5A
        f.write_bytes(bytes(b))
        try:
            pol = load_policy(f)
        except PolicyFileError as exc:
            assert str(f) in str(exc)
            refused += 1
            continue
        assert pol.keys() == ref.keys() and pol.allclose(ref, atol=0.0)
        same += 1
    assert refused + same == len(raw) and refused > len(raw) // 2


def test_a_kill_leaves_a_lock_that_the_next_run_takes_over(tmp_path: Path) -> None:
    from pokerlab.runlock import LOCK_NAME

    run = tmp_path / "bp"
    run.mkdir()
    (run / LOCK_NAME).write_text(json.dumps({"pid": 2**22 + 11, "host": socket.gethostname(),
                                             "started": "earlier"}))
    r = runner.invoke(app, ["blueprint", "train", "--preset", "small", "--iterations", "200",
                            "--out", str(run), "--json"])
    assert r.exit_code == 0, r.output
    assert not (run / LOCK_NAME).exists()
    assert json.loads(r.stdout)["iterations"] == 200
    assert os.path.exists(run / "checkpoint.npz")


# ------------------------------------------------------------------ more of the issue


def test_play_honours_pokerlab_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POKERLAB_DATA", str(tmp_path / "data"))
    res = runner.invoke(app, ["play", "--game", "kuhn", "--tty", "--seed", "1"], input="q\n")
    assert res.exit_code == 0, res.output
    sessions = list((tmp_path / "data" / "play").iterdir())
    assert len(sessions) == 1 and sessions[0].name.endswith("-tty")
    assert str(sessions[0]) in res.stdout
    from pokerlab.play.service import _default_root

    assert _default_root() == tmp_path / "data" / "play"  # the web server's default too


@pytest.fixture(scope="module")
def pushfold_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("pf") / "run"
    r = runner.invoke(app, ["blueprint", "train", "--preset", "pushfold", "--iterations",
                            "2000", "--out", str(run), "--json"])
    assert r.exit_code == 0, r.output
    return run


@pytest.mark.parametrize("opponent", ["call", "tag", "pushfold"])
def test_a_pushfold_blueprint_is_an_agent(pushfold_run: Path, opponent: str) -> None:
    """The push/fold preset's tree has no limp; the agent compiles the same tree, and a
    real limp of its opponent (``call``, ``tag``) re-synchronises it instead of failing."""
    spec = f"policy:{pushfold_run / 'policy.npz'}"
    r = runner.invoke(app, ["match", spec, opponent, "--hands", "300", "--stack", "10",
                            "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["hands"] == 300 and d["stack_bb"] == 10.0


def test_a_pushfold_blueprint_agent_only_folds_or_shoves(pushfold_run: Path) -> None:
    from pokerlab.agents.registry import make_agent
    from pokerlab.holdem.engine import HoldemConfig

    agent = make_agent(f"policy:{pushfold_run / 'policy.npz'}", game="hunl",
                       config=HoldemConfig.from_bb(10.0))
    assert agent.tree.num_nodes == 5 and agent.policy.num_nodes == 5
    assert agent.tree.actions(0) == [0, 2]  # fold, all-in: no limp


def test_a_run_folder_given_to_blueprint_info(pushfold_run: Path, tmp_path: Path) -> None:
    r = runner.invoke(app, ["blueprint", "info", str(pushfold_run), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["path"] == str(pushfold_run / "policy.npz") and d["preset"] == "pushfold"
    assert d["nodes"] == 5 and d["iterations"] == 2000
    line = bad(["blueprint", "info", str(tmp_path)], str(tmp_path), "no policy.npz")
    assert "Is a directory" not in line
    (tmp_path / "checkpoint.npz").write_bytes(b"x")
    bad(["blueprint", "info", str(tmp_path)], "no policy.npz yet")
    bad(["blueprint", "strategy", str(tmp_path)], "no policy.npz yet")


BOOM = '''
from pokerlab.errors import AgentError
from pokerlab.holdem.engine import Action, ActionKind


class Boom:
    """Calls, then gives up (an error in the middle of the run, with the bar drawn)."""

    name = "boom"

    def __init__(self):
        self.n = 0

    def _tick(self):
        self.n += 1
        if self.n > 30:
            raise AgentError("boom: the bot gave up")

    def act(self, view):
        self._tick()
        return Action(kind=ActionKind.CHECK_CALL)

    def action_probabilities(self, view):
        self._tick()
        return [(Action(kind=ActionKind.CHECK_CALL), 1.0)]


def make():
    return Boom()
'''


@pytest.mark.parametrize("cmd", [["match", "python:plboom:make", "call"],
                                 ["lbr", "python:plboom:make"]])
def test_an_error_under_the_progress_bar_is_exactly_one_line(
        cmd: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plboom.py").write_text(BOOM)
    monkeypatch.syspath_prepend(str(tmp_path))
    res = runner.invoke(app, [*cmd, "--hands", "400", "--workers", "1"])
    assert res.exit_code == 2, res.output
    assert res.stderr == "error: boom: the bot gave up\n"


def test_messages_name_options_not_fields(tmp_path: Path) -> None:
    db = str(tmp_path / "h.duckdb")
    for args, flag in ((["--vpip-loose", "150"], "--vpip-loose"),
                       (["--af-aggressive", "0"], "--af-aggressive"),
                       (["--afq-aggressive", "101"], "--afq-aggressive")):
        for cmd in (["stats"], ["report", "--out", str(tmp_path / "r")]):
            line = bad(["hands", *cmd, *args, "--db", db], flag)
            assert "_" not in line.split(":", 2)[1], line  # no vpip_heads_up, af_aggressive


def test_an_empty_phh(tmp_path: Path) -> None:
    f = tmp_path / "empty.phhs"
    f.write_text("")
    line = bad(["opponent", "model", str(f), "--game", "hunl", "--player", "x", "--out",
                str(tmp_path / "m.json")], str(f), root=tmp_path)
    assert "variant" not in line and "None" not in line
