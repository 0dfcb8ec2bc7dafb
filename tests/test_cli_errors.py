"""Every listed error path of the command line: one line ``error: ...``, exit 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.commands._common import (
    check_image_path,
    check_output_path,
    emit_json,
    error_message,
    exploitability_fields,
    friendly,
)
from pokerlab.errors import ConfigError

runner = CliRunner()


def _bad(args: list[str], *needles: str) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (args, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    err = res.stderr
    assert "Traceback" not in res.output
    lines = [ln for ln in err.splitlines() if ln.startswith("error: ")]
    assert len(lines) == 1, err
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


# ------------------------------------------------------------------ the shared pieces


def test_check_output_path_policy(tmp_path: Path) -> None:
    assert check_output_path(tmp_path / "a.npz") == tmp_path / "a.npz"
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(ConfigError, match="which is a file"):
        check_output_path(f / "a.npz")
    with pytest.raises(ConfigError, match="is a folder"):
        check_output_path(tmp_path)
    with pytest.raises(ConfigError, match="does not exist"):
        check_output_path(tmp_path / "new" / "a.npz")
    assert not (tmp_path / "new").exists()  # never creates folders
    with pytest.raises(ConfigError, match="cannot write"):
        check_output_path(Path("/proc/pokerlab_probe.npz"))
    with pytest.raises(ConfigError, match=r"must end in \.png or \.svg"):
        check_image_path(tmp_path / "a.jpg")
    assert list(tmp_path.iterdir()) == [f]  # the write probe left nothing behind


def test_friendly_turns_oserror_into_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import typer

    def boom() -> None:
        open("/no/such/folder/x.txt")  # noqa: SIM115

    with pytest.raises(typer.Exit) as ei:
        friendly(boom)()
    assert ei.value.exit_code == 2
    err = capsys.readouterr().err
    assert err == "error: No such file or directory: /no/such/folder/x.txt\n"
    assert error_message(ConfigError("a\nb")) == "a b"


def test_emit_json_and_units(capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    emit_json({"x": float("nan"), "p": Path("a"), "t": (1, 2), "a": np.array([1.5, np.inf]),
               "i": np.int64(3)})
    assert json.loads(capsys.readouterr().out) == {"x": None, "p": "a", "t": [1, 2],
                                                   "a": [1.5, None], "i": 3}
    assert exploitability_fields(0.02, 2.0) == {"exploitability": 0.02,
                                                 "exploitability_mbb": 10.0, "big_blind": 2.0}


# ----------------------------------------------------------------------- solve


def test_solve_errors(tmp_path: Path) -> None:
    _bad(["solve", "kuhn", "--algo", "es-mccfr", "--seed", "-1"], "--seed", "-1")
    _bad(["solve", "kuhn", "--algo", "lp", "--iterations", "10"], "--iterations", "LP")
    _bad(["solve", "kuhn", "--algo", "lp", "--target-exploitability", "0.1"], "LP")
    _bad(["solve", "tictactoe", "--iterations", "1"], "perfect recall", "pokerlab ttt")
    f = tmp_path / "f"
    f.write_text("x")
    _bad(["solve", "kuhn", "--out", str(f / "p.npz")], "--out", "which is a file")
    _bad(["solve", "kuhn", "--out", str(tmp_path)], "--out", "is a folder")
    _bad(["solve", "kuhn", "--out", str(tmp_path / "no" / "p.npz")], "does not exist")
    _bad(["solve", "kuhn", "--png", "/proc/pokerlab.png"], "--png", "cannot write")
    _bad(["solve", "kuhn", "--png", str(tmp_path / "p.gif")], ".png or .svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]


def test_mccfr_negative_seed_in_the_api() -> None:
    from pokerlab.solvers.mccfr import MCCFRConfig

    with pytest.raises(ConfigError, match="seed must be >= 0, got -3"):
        MCCFRConfig(seed=-3)


# ----------------------------------------------------------------------- cards


def test_cards_errors(tmp_path: Path) -> None:
    _bad(["equity", "AsKs", "QhQd", "--mc", "-5"], "--mc", "-5")
    _bad(["equity", "AsKs", "QhQd", "--mc", "100", "--seed", "-2"], "--seed")
    _bad(["bench", "evaluator", "--hands", "-1"], "--hands", "-1")
    _bad(["bench", "evaluator", "--hands", "100", "--peer-hands", "0"], "--peer-hands", "0")
    _bad(["range", "TT+", "--png", str(tmp_path / "no" / "r.png")], "does not exist")
    _bad(["eval", "AsKsQs"], "5 to 7 cards")


def test_ten_is_a_card_for_equity_as_for_eval_and_board() -> None:
    a = runner.invoke(app, ["equity", "10hJh", "AsKd", "--board", "10s2c3d", "--json"])
    b = runner.invoke(app, ["equity", "ThJh", "AsKd", "--board", "Ts2c3d", "--json"])
    assert a.exit_code == 0, a.output
    ea, eb = json.loads(a.stdout), json.loads(b.stdout)
    assert ea == eb and ea["exact"] is True
    assert runner.invoke(app, ["eval", "10h10sJhJs2c", "--json"]).exit_code == 0


# ---------------------------------------------------------------- push/fold, ttt


def test_pushfold_errors(tmp_path: Path) -> None:
    _bad(["pushfold", "learn", "--seed", "-1", "--hands", "10"], "--seed")
    _bad(["pushfold", "solve", "--algo", "lp", "--iterations", "5"], "--iterations")
    _bad(["pushfold", "solve", "--png", str(tmp_path / "x" / "a.png")], "does not exist")


def test_unwritable_out_raises_no_traceback(tmp_path: Path) -> None:
    """An OSError while writing (here: a folder where the policy file should go, found only
    at write time) is one line too."""
    _bad(["solve", "kuhn", "--iterations", "2", "--out", "/proc/x.npz"], "--out")


def test_ttt_export_checked_before_training(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    (tmp_path / "f").write_text("x")
    _bad(["ttt", "train", "--out", str(tmp_path / "run"), "--export",
          str(tmp_path / "f" / "m.safetensors")], "--export", "which is a file")
    assert not (tmp_path / "run").exists()  # nothing trained, no run folder made
    _bad(["ttt", "train", "--out", str(tmp_path / "f" / "run")], "which is a file")


def test_hands_import_of_nothing_that_exists(tmp_path: Path) -> None:
    line = _bad(["hands", "import", str(tmp_path / "nope.phh"), str(tmp_path / "gone"),
                 "--db", str(tmp_path / "h.duckdb")], "no such file or folder", "nope.phh", "gone")
    assert line.startswith("error: ")
    assert not (tmp_path / "h.duckdb").exists()  # nothing created for a command that did nothing


def test_progress_bar_is_erased_by_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import rich.live

    from pokerlab.commands._common import progress

    seen: list[bool] = []
    real_stop = rich.live.Live.stop

    def stop(self: rich.live.Live) -> None:
        seen.append(bool(self.transient))
        real_stop(self)

    # the bar's display is stopped once per bar: kept when the work finished, erased
    # (transient) when an error ends it
    monkeypatch.setattr(rich.live.Live, "stop", stop)
    with progress("work", total=10) as update:
        update(3)
    with pytest.raises(ConfigError):
        with progress("work", total=10) as update:
            update(3)
            raise ConfigError("bad")
    assert seen == [False, True]  # a finished bar stays; an error erases it, leaving one line


def test_hands_db_in_a_missing_folder_is_not_created(tmp_path: Path) -> None:
    src = Path(__file__).parent / "data" / "hands" / "pluribus.phhs.xz"
    _bad(["hands", "import", str(src), "--db", str(tmp_path / "nope" / "h.duckdb")],
         "does not exist", "nope")
    assert not (tmp_path / "nope").exists()
