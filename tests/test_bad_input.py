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
Issue 53 (items 7, 14, 15, 16): outputs never silently replaced, the empty path, 0 = off
  - an existing output (solve, exploit br, match, holdem selfplay, opponent model/sample,
    league, spot solve) refused without --force, the file untouched: here,
    test_an_existing_output_is_refused_untouched; every output option of every command:
    test_fuzz_cli.py, test_an_existing_output_is_refused_without_force; --force replaces:
    here, test_force_replaces_the_output
  - the output file locked for the call (two spot solve --out X): here,
    test_a_locked_output_makes_a_second_writer_fail
  - '' and blanks as paths: here, test_an_empty_path_is_refused; every path option:
    test_fuzz_cli.py, test_an_empty_or_blank_path_is_refused_everywhere
  - suffixes of file outputs, --cache and ttt --export before the work: here,
    test_output_suffixes_are_checked, test_cache_and_export_are_checked_first
  - observations with actions the game does not have: here,
    test_observations_of_actions_the_game_does_not_have
  - --bets 99999999999999999999% / 2.5x: here, test_blueprint_bets_are_sane
  - 0 means off (--allin-threshold/--force-allin/--target/--iterations of spot,
    --prior-strength, --win-margin): here, test_zero_means_off_*
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
        out = tmp_path / ("out.npz" if kind == "phh" else "out.json")  # what a model is
        args = [a.replace("FILE", str(f)).replace("OUT", str(out)) for a in cmd]
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
    from pokerlab.play.service import default_root

    assert default_root() == tmp_path / "data" / "play"  # the web server's default too


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
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.registry import make_agent

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
                str(tmp_path / "m.npz")], str(f), root=tmp_path)
    assert "variant" not in line and "None" not in line


# ------------------------------------------- issue 53: tracebacks, a hang, NaN models (12, 13)
# holdem deal/selfplay --stack inf|nan|1e308, hands import --db '', hands report
# --af-aggressive 1e308, blueprint train --max-memory 1e308, ttt train --weight-decay 1e308,
# bench mccfr --seconds 1e308 (a hang), a learning rate of 1e308 (a NaN model saved, exit 0),
# the play socket's integer stack above 1e308; one bad-stack hand in hands import:
# test_hands.py, test_one_bad_stack_hand_is_skipped_and_counted.

HANDS_DATA = Path(__file__).parent / "data" / "hands"


@pytest.mark.parametrize("value", ["inf", "nan", "1e308", "200,inf"])
@pytest.mark.parametrize("cmd", ["deal", "selfplay"])
def test_holdem_stacks_are_finite(cmd: str, value: str, tmp_path: Path) -> None:
    extra = ["--hands", "2", "--out", str(tmp_path / "s.phhs")] if cmd == "selfplay" else []
    bad(["holdem", cmd, "--stack", value, *extra], "--stacks", "finite", root=tmp_path)


def test_hands_import_with_an_empty_db(tmp_path: Path) -> None:
    bad(["hands", "import", str(HANDS_DATA / "bad.phhs"), "--db", ""], "--db", root=tmp_path)
    bad(["hands", "stats", "--db", ""])
    bad(["hands", "import", str(HANDS_DATA / "bad.phhs"), "--db", str(tmp_path)], "--db",
        "not a file name", root=tmp_path)


def test_huge_thresholds_and_budgets(tmp_path: Path) -> None:
    from pokerlab.hands import HandDB

    db = tmp_path / "h.duckdb"
    with HandDB(path=db) as hdb:
        assert hdb.import_paths([HANDS_DATA / "bad.phhs"]).stored == 2
    bad(["hands", "report", "--af-aggressive", "1e308", "--db", str(db), "--out",
         str(tmp_path / "r")], "--af-aggressive", "at most 1000", root=tmp_path)
    bad(["blueprint", "train", "--max-memory", "1e308", "--out", str(tmp_path / "bt")],
        "--max-memory", root=tmp_path)
    bad(["ttt", "train", "--weight-decay", "1e308", "--out", str(tmp_path / "tt")],
        "--weight-decay", root=tmp_path)
    bad(["bench", "mccfr", "--seconds", "1e308"], "--seconds", "at most 3600")


def test_a_diverging_ttt_run_saves_no_model(tmp_path: Path) -> None:
    run = tmp_path / "tt"
    line = bad(["ttt", "train", "--levels", "1", "--games", "200", "--epochs", "1",
                "--eval-games", "10", "--learning-rate", "1e308", "--out", str(run), "--json"],
               "diverged", "--learning-rate")
    assert not list(run.rglob("*.safetensors")) and not list(run.rglob("metrics.json")), line


@pytest.mark.parametrize("lr", ["1e308", "1e30"])
def test_a_diverging_deep_cfr_run_saves_no_nets(tmp_path: Path, lr: str) -> None:
    ck = tmp_path / "dc"
    bad(["deepcfr", "train", "kuhn", "--iterations", "2", "--traversals", "50", "--sgd-steps",
         "5", "--policy-sgd-steps", "5", "--learning-rate", lr, "--checkpoint", str(ck),
         "--json"], "diverged", "--learning-rate")
    assert not list(tmp_path.rglob("*.safetensors"))


def test_the_play_socket_refuses_huge_and_non_finite_numbers(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from pokerlab.play.server import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(out_dir=str(tmp_path)))) as c, \
            c.websocket_connect("/ws") as ws:
        for raw, needle in (('{"type": "start", "stack": 1' + "0" * 400 + "}", "too large"),
                            ('{"type": "start", "stack": 1e400}', "finite"),
                            ('{"type": "start", "stack": NaN}', "finite"),
                            ('{"type": "start", "stack": 1e300}', "stack")):
            ws.send_text(raw)
            msg = ws.receive_json()
            assert msg["type"] == "error" and needle in msg["message"], (raw[:40], msg)
        ws.send_text('{"type": "ping"}')  # the connection is still open
        assert ws.receive_json()["type"] == "pong"


# ------------------------------------------------- issue 53: outputs, empty paths, 0 = off


@pytest.mark.parametrize("case", ["solve", "exploit br", "match", "holdem selfplay",
                                  "opponent model", "opponent sample", "league", "spot solve"])
def test_an_existing_output_is_refused_untouched(case: str, files: dict[str, Path],
                                                 tmp_path: Path) -> None:
    old = b"the user's old file\n"
    name = {"solve": "k.npz", "exploit br": "br.npz", "match": "m.phhs",
            "holdem selfplay": "s.phhs", "opponent model": "m.json",
            "opponent sample": "o.jsonl", "league": "league.json",
            "spot solve": "spot.npz"}[case]
    target = tmp_path / name
    target.write_bytes(old)
    out = str(tmp_path) if case == "league" else str(target)
    args = {
        "solve": ["solve", "kuhn", "--iterations", "5", "--out", out],
        "exploit br": ["exploit", "br", "--game", "kuhn", "--opponent", "call", "--out", out],
        "match": ["match", "random", "call", "--hands", "4", "--workers", "1", "--out", out],
        "holdem selfplay": ["holdem", "selfplay", "--hands", "3", "--out", out],
        "opponent model": ["opponent", "model", str(files["observations"]), "--game",
                           "leduc", "--out", out],
        "opponent sample": ["opponent", "sample", "--game", "kuhn", "--opponent", "call",
                            "--hands", "5", "--out", out],
        "league": ["league", "random", "call", "--hands", "4", "--out", out],
        "spot solve": ["spot", "solve", "--board", "Td9d6h5c2s", "--pot", "100", "--stack",
                       "90", "--oop", "AA", "--ip", "KK", "--iterations", "5", "--out", out],
    }[case]
    line = bad(args, "already exists", "--force", str(target), root=tmp_path)
    assert target.read_bytes() == old
    if case == "spot solve":
        assert "--resume" in line  # the other way to use an existing spot file


def test_force_replaces_the_output(tmp_path: Path) -> None:
    k = tmp_path / "k.npz"
    k.write_bytes(b"old")
    r = runner.invoke(app, ["solve", "kuhn", "--iterations", "20", "--out", str(k), "--force",
                            "--json"])
    assert r.exit_code == 0, r.output
    from pokerlab.policy import load_policy

    assert load_policy(k).metadata["game"] == "kuhn"
    assert not (tmp_path / "k.npz.lock").exists()  # the lock went with the call
    o = tmp_path / "o.jsonl"
    o.write_text("old\n")
    r = runner.invoke(app, ["opponent", "sample", "--game", "kuhn", "--opponent", "call",
                            "--hands", "7", "--out", str(o), "--force"])
    assert r.exit_code == 0, r.output
    lines = o.read_text().splitlines()
    assert len(lines) >= 7 and all(json.loads(ln)["action"] in (0, 1) for ln in lines)
    s = tmp_path / "s.phhs"
    s.write_text("old\n")
    (tmp_path / "s.phhs.json").write_text("{}")
    bad(["holdem", "selfplay", "--hands", "3", "--out", str(s)], "already exists")
    r = runner.invoke(app, ["holdem", "selfplay", "--hands", "3", "--out", str(s), "--force",
                            "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["hands"] == 3 and s.read_text().count("variant") == 3
    assert json.loads((tmp_path / "s.phhs.json").read_text())["hands"] == 3


def test_a_side_file_counts_as_an_output(tmp_path: Path) -> None:
    (tmp_path / "k.npz.json").write_text("{}")  # solve writes its config next to the policy
    bad(["solve", "kuhn", "--iterations", "5", "--out", str(tmp_path / "k.npz")],
        "k.npz.json", "already exists", "--force", root=tmp_path)


def test_a_locked_output_makes_a_second_writer_fail(tmp_path: Path) -> None:
    """Two writers of one file: while the first holds it (its ``FILE.lock``), the second
    fails with one line naming the holder; nothing is written."""
    from pokerlab.runlock import RunLock

    out = tmp_path / "spot.npz"
    spot = ["spot", "solve", "--board", "Td9d6h5c2s", "--pot", "100", "--stack", "90",
            "--oop", "AA", "--ip", "KK", "--iterations", "5", "--out", str(out)]
    with RunLock(out, what="--out file", folder=False, command="pokerlab spot solve"):
        line = bad(spot, "--out file", str(out), "in use by pid", str(os.getpid()),
                   "pokerlab spot solve")
        assert not out.exists()
        bad(["solve", "kuhn", "--iterations", "5", "--out", str(out)], "in use")
    r = runner.invoke(app, [*spot, "--json"])  # the lock is free again
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["iterations"] == 5 and out.exists()
    assert not (tmp_path / "spot.npz.lock").exists()
    assert "wait for it" in line


@pytest.mark.parametrize("args", [
    ["blueprint", "train", "--out", "", "--iterations", "1"],
    ["blueprint", "train", "--out=", "--iterations", "1"],
    ["hands", "import", ""],
    ["hands", "import", " "],
    ["hands", "stats", "--db", ""],
    ["solve", "kuhn", "--out", ""],
    ["solve", "kuhn", "--png", "  "],
    ["policy", "show", ""],
    ["match", "random", "call", "--out", ""],
    ["holdem", "selfplay", "--out", ""],
    ["ttt", "train", "--out", ""],
    ["league", "random", "call", "--out", ""],
    ["game", "tree", "kuhn", "--svg", " "],
    ["opponent", "model", "", "--game", "kuhn", "--out", "m.json"],
])
def test_an_empty_path_is_refused(args: list[str], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("POKERLAB_DATA", str(tmp_path / "data"))
    bad(args, "empty path", root=tmp_path)


@pytest.mark.parametrize(("args", "expected"), [
    (["opponent", "sample", "--game", "kuhn", "--opponent", "call", "--out", "o.json"],
     ".jsonl"),
    (["holdem", "selfplay", "--hands", "2", "--out", "x.txt"], ".phhs"),
    (["pushfold", "learn", "--hands", "10", "--out", "p.json"], ".npz"),
    (["exploit", "dbr", "--game", "kuhn", "--observations", "OBS", "--out", "r.json"], ".npz"),
    (["exploit", "rnr", "--game", "kuhn", "--opponent", "call", "--p", "0.5", "--out", "r"],
     ".npz"),
    (["exploit", "br", "--game", "kuhn", "--opponent", "call", "--out", "r.policy"], ".npz"),
    (["match", "random", "call", "--out", "m.txt"], ".phhs"),
    (["spot", "solve", "--board", "Td9d6h", "--out", "s.json"], ".npz"),
    (["ttt", "train", "--out", "run", "--export", "m.pt"], ".safetensors"),
    (["game", "tree", "kuhn", "--svg", "t.png"], ".svg"),
    (["solve", "kuhn", "--png", "p.jpg"], ".png"),
    (["opponent", "model", "OBS", "--game", "leduc", "--out", "m.npz"], ".json"),
])
def test_output_suffixes_are_checked(args: list[str], expected: str, files: dict[str, Path],
                                     tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = [str(files["observations"]) if a == "OBS" else a for a in args]
    line = bad(args, "must end in", expected, root=tmp_path)
    assert "--" in line


def test_a_hand_history_model_is_an_npz(files: dict[str, Path], tmp_path: Path) -> None:
    bad(["opponent", "model", str(files["phh"]), "--game", "hunl", "--player", "A-tag",
         "--out", str(tmp_path / "m.json")], "--out", ".npz", root=tmp_path)


def test_cache_and_export_are_checked_first(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    bad(["abstraction", "build", "--preset", "small", "--cache", str(tmp_path / "afile")],
        "--cache", "is a file", root=tmp_path)
    bad(["abstraction", "build", "--cache", str(tmp_path / "no" / "cache")], "--cache",
        "does not exist", root=tmp_path)
    bad(["ttt", "train", "--out", str(tmp_path / "run"), "--export",
         str(tmp_path / "no" / "m.safetensors")], "--export", root=tmp_path)
    (tmp_path / "m.safetensors").write_bytes(b"old model")
    bad(["ttt", "train", "--out", str(tmp_path / "run"), "--export",
         str(tmp_path / "m.safetensors")], "--export", "already exists", "--force",
        root=tmp_path)
    assert (tmp_path / "m.safetensors").read_bytes() == b"old model"


def test_observations_of_actions_the_game_does_not_have(files: dict[str, Path],
                                                        tmp_path: Path) -> None:
    first = json.loads(files["observations"].read_text().splitlines()[0])
    key = "infoset" if "infoset" in first else "public"
    obs = tmp_path / "o.jsonl"
    obs.write_text(json.dumps({key: first[key], "action": 7}) + "\n")
    for args in (["opponent", "model", str(obs), "--game", "leduc", "--out",
                  str(tmp_path / "m.json")],
                 ["exploit", "dbr", "--game", "leduc", "--observations", str(obs)]):
        line = bad(args, str(obs), "action 7", "leduc does not have", root=tmp_path)
        assert repr(first[key]) in line
    obs.write_text(json.dumps({"infoset": "no such state", "action": 0}) + "\n")
    bad(["opponent", "model", str(obs), "--game", "leduc", "--out", str(tmp_path / "m.json")],
        "'no such state'", "leduc does not have", root=tmp_path)
    # the sampled observations themselves (both kinds of keys) are all accepted
    both = tmp_path / "both.jsonl"
    r = runner.invoke(app, ["opponent", "sample", "--game", "leduc", "--opponent", "random",
                            "--hands", "300", "--reveal", "showdown", "--out", str(both)])
    assert r.exit_code == 0, r.output
    kinds = {next(iter(json.loads(ln))) for ln in both.read_text().splitlines()}
    assert kinds == {"infoset", "public"}
    r = runner.invoke(app, ["opponent", "model", str(both), "--game", "leduc", "--out",
                            str(tmp_path / "m.json"), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["observations"] == len(both.read_text().splitlines())


@pytest.mark.parametrize(("bets", "needles"), [
    ("99999999999999999999%", ("too large", "10,000% of the pot")),
    ("preflop: 2.5x, a; postflop: 1e9bb", ("bad bet size",)),
    ("preflop: 200000bb, a; postflop: 75%", ("too large", "100,000bb")),
    ("preflop: 500x, a; postflop: 75%", ("too large", "100x")),
    ("2.5x", ("on the flop", "multiple of the bet faced", "pot fractions (N%")),
    ("preflop: 3x; flop: 50%; turn: 2x; river: 75%", ("on the turn", "N%")),
])
def test_blueprint_bets_are_sane(bets: str, needles: tuple[str, ...], tmp_path: Path) -> None:
    bad(["blueprint", "train", "--bets", bets, "--iterations", "1", "--out",
         str(tmp_path / "run")], "--bets", *needles, root=tmp_path)
    bad(["abstraction", "tree", "--bets", bets], "--bets", *needles)


def test_a_sane_bet_set_is_accepted() -> None:
    r = runner.invoke(app, ["abstraction", "tree", "--bets",
                            "preflop: 2.5x, 100x, a; postflop: 33%, 10000%, a", "--stack", "20",
                            "--json"])
    assert r.exit_code == 0, r.output


SPOT = ["--board", "Td9d6h5c2s", "--pot", "100", "--stack", "90", "--oop", "AA,KK",
        "--ip", "QQ,JJ"]


def test_zero_means_off_in_the_spot_tree() -> None:
    """--allin-threshold 0: no all-in is added; --force-allin 0: no bet becomes all-in."""
    def root(*extra: str) -> list[str]:
        r = runner.invoke(app, ["spot", "tree", *SPOT, *extra, "--json"])
        assert r.exit_code == 0, r.output
        return list(json.loads(r.stdout)["root_actions"])

    # bet 75 leaves 15 behind into a pot of 250 (ratio 0.06 <= 0.15): forced all-in
    assert root() == ["check", "allin 90"]
    assert root("--force-allin", "0") == ["check", "bet 75", "allin 90"]  # 0.9 pots <= 1.5
    assert root("--allin-threshold", "0", "--force-allin", "0") == ["check", "bet 75"]
    assert root("--allin-threshold", "0") == ["check", "allin 90"]  # still forced


def test_zero_means_off_in_spot_solve() -> None:
    """--target 0 runs all --iterations; --iterations 0 reports the starting strategy."""
    r = runner.invoke(app, ["spot", "solve", *SPOT, "--allin-threshold", "0", "--force-allin",
                            "0", "--target", "0", "--iterations", "40", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["iterations"] == 40 and d["target_pct"] == 0.0 and not d["target_reached"]
    assert sorted(d["root_actions"]) == ["bet 75", "check"]
    r = runner.invoke(app, ["spot", "solve", *SPOT, "--iterations", "40", "--json"])
    assert json.loads(r.stdout)["iterations"] < 40  # the default target stops it early
    r = runner.invoke(app, ["spot", "solve", *SPOT, "--iterations", "0", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["iterations"] == 0 and d["exploitability_pct"] > 1.0  # uniform: far off


def test_zero_means_off_prior_strength(files: dict[str, Path], tmp_path: Path) -> None:
    """--prior-strength 0: at an observed information set the model is the observed
    frequencies alone."""
    from collections import Counter

    from pokerlab.games import load_game
    from pokerlab.games.compiled import compile_game
    from pokerlab.opponents.models import load_model

    m = tmp_path / "m0.json"
    r = runner.invoke(app, ["opponent", "model", str(files["observations"]), "--game", "leduc",
                            "--prior-strength", "0", "--out", str(m)])
    assert r.exit_code == 0, r.output
    g = load_game("leduc")
    model = load_model(str(m), g)
    rows = [json.loads(ln) for ln in files["observations"].read_text().splitlines()]
    counts: dict[str, Counter[int]] = {}
    for row in rows:
        if "infoset" in row:
            counts.setdefault(row["infoset"], Counter())[row["action"]] += 1
    cg = compile_game(g)
    checked = 0
    for i, key in enumerate(cg.infoset_keys):
        if key in counts:
            n = sum(counts[key].values())
            probs = model.action_probabilities(cg.representative[i])
            for a, p in probs.items():
                assert p == pytest.approx(counts[key][a] / n)
            checked += 1
    assert checked > 10
    r = runner.invoke(app, ["exploit", "dbr", "--game", "leduc", "--observations",
                            str(files["observations"]), "--prior-strength", "0",
                            "--iterations", "50", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["observations"] == len(rows)


def test_zero_means_off_win_margin() -> None:
    """--win-margin 0 is accepted: only the moves of the best value are 'safe'."""
    from pokerlab.commands._common import VALIDATE_ONLY, VALIDATED_EXIT

    token = VALIDATE_ONLY.set(True)
    try:
        r = runner.invoke(app, ["ttt", "train", "--win-head", "--win-margin", "0"])
    finally:
        VALIDATE_ONLY.reset(token)
    assert r.exit_code == VALIDATED_EXIT, r.output
    from pokerlab.selfplay.train import TrainConfig

    assert TrainConfig(win_margin=0.0).win_margin == 0.0


@pytest.mark.parametrize(("command", "flag", "said"), [
    ("spot solve", "--allin-threshold", "(0: never add it)"),
    ("spot tree", "--force-allin", "(0: never)"),
    ("spot solve", "--target", "(0: no target, run all --iterations)"),
    ("spot solve", "--iterations", "(0: none; report the starting strategy)"),
    ("opponent model", "--prior-strength", "(0: no prior"),
    ("exploit dbr", "--prior-strength", "(0: no prior"),
    ("ttt train", "--win-margin", "(0: only the moves of the best value are safe)"),
])
def test_zero_means_off_is_said_in_help(command: str, flag: str, said: str) -> None:
    import typer

    cmd = typer.main.get_command(app)
    for word in command.split():
        cmd = cmd.commands[word]  # type: ignore[attr-defined]
    param = next(p for p in cmd.params if flag in p.opts)
    assert said in " ".join(str(getattr(param, "help", "")).split())
