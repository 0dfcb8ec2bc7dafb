"""A fuzz suite generated from the command tree itself.

Every command of ``pokerlab`` and every one of its options is found by walking the typer
app; each option's kind comes from the one validation table
(:mod:`pokerlab.commands._validate`), and each kind has its bad values below.  Every bad
value must give one line ``error: ...`` on stderr, exit status 2, no traceback, and no file
written.  A new command or option is covered without a new test; one whose kind is not
known fails :func:`test_every_option_has_a_kind`.

The calls run with ``VALIDATE_ONLY`` set: a call whose arguments all pass the checks stops
with exit status ``VALIDATED_EXIT`` instead of doing the work, so an accepted bad value is
a failure here (and never a long run).  The default run tries the first bad values of each
kind; ``-m slow`` tries them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.testing
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.commands._common import VALIDATE_ONLY, VALIDATED_EXIT
from pokerlab.commands._validate import (
    FILE_OUT_KINDS,
    FOLDER_FILES,
    FREE,
    OUTPUT_SUFFIXES,
    PATH_FREE,
    PATH_KINDS,
    kind_of,
)

runner = CliRunner()

#: bad values of each option kind, most telling first ({tmp}: the test's folder, which
#: holds a file ``afile``)
BAD: dict[str, list[str]] = {
    "count": ["0", "-1", "99999999999999999999999", str(10**13)],
    "count0": ["-1", "99999999999999999999999", str(10**13)],
    "seed": ["-1", str(2**63)],
    "workers": ["0", "-3"],
    "port": ["70000", "-1"],
    "stack": ["inf", "0", "nan", "1e300", "-5"],
    "chips": ["nan", "0", "inf", "-1"],
    "positive": ["0", "nan", "-1", "inf"],
    "nonneg": ["-1", "nan", "inf"],
    "prob": ["1.5", "-0.1", "nan"],
    "percent": ["101", "-1", "nan"],
    "ray_address": ["garbage", "127.0.0.1:1", "host:99999", "ray://"],
    "file_out": ["/proc/x", "{tmp}/missing/f.out", "{tmp}", "{tmp}/afile/x"],
    "npz_out": ["{tmp}/k.json", "/proc/x.npz", "{tmp}/missing/x.npz"],
    "image_out": ["{tmp}/x.jpg", "/proc/x.png", "{tmp}/missing/x.png"],
    "folder_out": ["/proc/x", "{tmp}/afile", "{tmp}/missing/run"],
    "any_out": ["/proc/x", "{tmp}/missing/x"],
    "file_in": ["{tmp}/nope", "{tmp}"],
    "path_in": ["{tmp}/nope", "{tmp}/afile/x"],
    "folder_in": ["{tmp}/nope", "{tmp}/afile"],
    "game": ["bogus", "hunl(stack=abc)", "kuhn(x=1)", "hunl("],
    "agent": ["bogus", "policy:{tmp}/nope", "policy:{tmp}"],
    "bet_set": ["2.5x", "99999999999999999999%", "flop: 33q"],
}
#: values of the parser's own kind errors, by the option's Python type
BAD_TYPE: dict[str, list[str]] = {"int": ["abc", "1.5"], "float": ["abc", "1..2"]}

#: a good value for each required parameter, by kind or by name
GOOD_KIND: dict[str, str] = {
    "game": "kuhn", "agent": "random", "file_in": "{tmp}/afile", "path_in": "{tmp}/afile",
    "folder_in": "{tmp}", "folder_out": "{tmp}/run", "file_out": "{tmp}/o.out",
    "image_out": "{tmp}/p.png", "npz_out": "{tmp}/p.npz", "any_out": "{tmp}/o.out",
    "count": "1", "count0": "0",
    "seed": "0", "workers": "1", "stack": "10", "chips": "10", "positive": "1",
    "nonneg": "0", "prob": "0.5", "percent": "50", "port": "8000",
    "ray_address": "local",
}
GOOD_NAME: dict[str, list[str]] = {
    "players": ["AsKs", "QdQc"], "notation": ["AA"], "cards": ["AsKs"],
    "paths": ["{tmp}/afile"], "agents": ["random", "call"],
}


ROOT = typer.main.get_command(app)


def _commands() -> list[tuple[str, Any]]:
    root = ROOT
    out: list[tuple[str, Any]] = []

    def walk(cmd: Any, path: list[str]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, [*path, name])
        else:
            out.append((" ".join(path), cmd))

    walk(root, [])
    return out


COMMANDS = _commands()


def _flag(p: Any) -> str:
    longs = [o for o in p.opts if o.startswith("--")]
    return longs[0] if longs else p.name


def _is_option(p: Any) -> bool:
    return type(p).__name__ == "TyperOption"


def _type_name(p: Any) -> str:
    ann = p.type_descriptor.annotation
    args = getattr(ann, "__args__", None)
    if args:  # X | None, list[X]
        ann = next((a for a in args if a is not type(None)), ann)
    return getattr(ann, "__name__", str(ann))


def _is_flag(p: Any) -> bool:
    return _type_name(p) == "bool"


def _fill(text: str, tmp: Path) -> str:
    return text.replace("{tmp}", str(tmp))


def _base_args(cmd_path: str, cmd: Any, tmp: Path, skip: str) -> tuple[list[str], list[str]]:
    """(positional values, option tokens) of a call that gives every required parameter
    except ``skip`` a good value."""
    positional: list[str] = []
    options: list[str] = []
    for p in cmd.params:
        flag = _flag(p)
        if flag == skip or not p.required:
            continue
        kind = kind_of(cmd_path, flag)
        if p.name in GOOD_NAME:
            vals = [_fill(v, tmp) for v in GOOD_NAME[p.name]]
        elif (cmd_path, flag) in OUTPUT_SUFFIXES:
            vals = [_fill("{tmp}/o" + OUTPUT_SUFFIXES[(cmd_path, flag)][0], tmp)]
        elif kind in GOOD_KIND:
            vals = [_fill(GOOD_KIND[kind], tmp)]
        else:
            vals = ["x"]
        if _is_option(p):
            for v in vals:
                options += [flag, v]
        else:
            positional += vals
    return positional, options


def _call(cmd_path: str, cmd: Any, target: Any, value: str, tmp: Path) -> list[str]:
    positional, options = _base_args(cmd_path, cmd, tmp, _flag(target))
    args = cmd_path.split()
    if _is_option(target):
        return [*args, *positional, *options, _flag(target), value]
    # a positional parameter: put the bad value in its slot
    slots: list[str] = []
    for p in cmd.params:
        if _is_option(p):
            continue
        if p is target:
            slots.append(value)
            if p.nargs == -1 and p.name == "agents":
                slots.append("random")
        elif p.required:
            kind = kind_of(cmd_path, _flag(p))
            vals = GOOD_NAME.get(p.name) or [GOOD_KIND.get(kind or "", "x")]
            slots += [_fill(v, tmp) for v in vals]
    return [*args, *slots, *options]


def _files(tmp: Path) -> set[str]:
    return {str(p.relative_to(tmp)) for p in tmp.rglob("*")}


@pytest.fixture()
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "afile").write_text("not a pokerlab file\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("POKERLAB_DATA", str(tmp_path / "data"))
    # the click command is built once, not once per call (90% of the time otherwise)
    monkeypatch.setattr(typer.testing, "_get_command", lambda _app: ROOT)
    token = VALIDATE_ONLY.set(True)
    try:
        yield tmp_path
    finally:
        VALIDATE_ONLY.reset(token)


def _assert_refused(args: list[str], tmp: Path) -> str:
    cmd = dict(COMMANDS).get(" ".join(args[:2])) or dict(COMMANDS).get(args[0])
    assert getattr(getattr(cmd, "callback", None), "__pokerlab_friendly__", None), args
    before = _files(tmp)
    res = runner.invoke(app, args)
    where = f"pokerlab {' '.join(args)}"
    assert res.exit_code != VALIDATED_EXIT, f"accepted a bad value: {where}"
    assert res.exit_code == 2, (where, res.exit_code, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), (where,
                                                                            res.exception)
    assert "Traceback" not in res.output, where
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), (where, res.stderr)
    assert res.stdout == "", (where, res.stdout)
    assert _files(tmp) == before, (where, _files(tmp) - before)
    return lines[0]


def _cases(all_values: bool) -> list[tuple[str, str, str]]:
    cases: list[tuple[str, str, str]] = []
    for cmd_path, cmd in COMMANDS:
        for p in cmd.params:
            if _is_flag(p):
                continue
            flag = _flag(p)
            kind = kind_of(cmd_path, flag)
            values = list(BAD.get(kind or "", []))
            if _is_option(p):
                values += BAD_TYPE.get(_type_name(p), [])
            if not all_values:
                values = values[:2]
            cases += [(cmd_path, flag, v) for v in values]
    return cases


def _run(cases: list[tuple[str, str, str]], tmp: Path) -> None:
    commands = dict(COMMANDS)
    for cmd_path, flag, value in cases:
        cmd = commands[cmd_path]
        target = next(p for p in cmd.params if _flag(p) == flag)
        line = _assert_refused(_call(cmd_path, cmd, target, _fill(value, tmp), tmp), tmp)
        name = flag if flag.startswith("-") else None
        if name is not None and value not in ("abc", "1.5", "1..2"):
            assert name in line, (cmd_path, flag, value, line)


def test_the_tree_is_walked() -> None:
    names = {c for c, _ in COMMANDS}
    assert {"match", "solve", "blueprint train", "deepcfr train", "hands import",
            "exploit br", "spot solve"} <= names
    assert len(COMMANDS) >= 40


def test_every_command_is_checked() -> None:
    """cli.py wraps every command, whichever module registered it, with the checks."""
    wrong = [c for c, cmd in COMMANDS
             if getattr(cmd.callback, "__pokerlab_friendly__", None) != c]
    assert wrong == []


def test_every_option_has_a_kind() -> None:
    """Each non-flag parameter of every command is of a known kind or declared free text
    (parsed by the command itself)."""
    unknown = []
    for cmd_path, cmd in COMMANDS:
        for p in cmd.params:
            if _is_flag(p):
                continue
            flag = _flag(p)
            if kind_of(cmd_path, flag) is None and flag not in FREE and \
                    (cmd_path, flag) not in _FREE_HERE:
                unknown.append(f"{cmd_path} {flag}")
    assert unknown == []


_FREE_HERE = {("holdem deal", "--stack"), ("holdem selfplay", "--stack"),
              ("exploit safe", "--model")}


def test_bad_values_of_every_option(sandbox: Path) -> None:
    cases = _cases(all_values=False)
    assert len(cases) > 300
    _run(cases, sandbox)


@pytest.mark.slow
def test_all_bad_values_of_every_option(sandbox: Path) -> None:
    _run(_cases(all_values=True), sandbox)


def test_unknown_option_and_missing_argument_are_one_line(sandbox: Path) -> None:
    for cmd_path, cmd in COMMANDS:
        line = _assert_refused([*cmd_path.split(), "--no-such-option"], sandbox)
        assert "--no-such-option" in line and cmd_path in line
        if any(p.required for p in cmd.params):
            line = _assert_refused(cmd_path.split(), sandbox)
            assert "missing" in line.lower()


def test_accepted_values_reach_the_command(sandbox: Path) -> None:
    """The good values used above pass the checks (else the cases above prove nothing)."""
    for cmd_path, cmd in COMMANDS:
        positional, options = _base_args(cmd_path, cmd, sandbox, "")
        res = runner.invoke(app, [*cmd_path.split(), *positional, *options])
        free = [p for p in cmd.params if p.required and kind_of(cmd_path, _flag(p)) is None
                and p.name not in GOOD_NAME]
        if free:
            continue  # a required free-text value the command parses ("x")
        assert res.exit_code == VALIDATED_EXIT, (cmd_path, res.output)



def _path_params(cmd_path: str, cmd: Any) -> list[Any]:
    return [p for p in cmd.params if not _is_flag(p)
            and (kind_of(cmd_path, _flag(p)) in PATH_KINDS or _flag(p) in PATH_FREE)]


def test_an_empty_or_blank_path_is_refused_everywhere(sandbox: Path) -> None:
    """``''`` (typer's ``.``, the current folder) and ``' '`` are no path, input or output."""
    tried = 0
    for cmd_path, cmd in COMMANDS:
        for p in _path_params(cmd_path, cmd):
            for value in ("", "  "):
                line = _assert_refused(_call(cmd_path, cmd, p, value, sandbox), sandbox)
                assert "empty path" in line, (cmd_path, _flag(p), line)
                name = _flag(p) if _is_option(p) else p.name.upper()
                assert name in line, (cmd_path, line)
                tried += 1
    assert tried > 60


def _output_params(cmd_path: str, cmd: Any) -> list[Any]:
    return [p for p in cmd.params if _is_option(p)
            and (kind_of(cmd_path, _flag(p)) in FILE_OUT_KINDS
                 or (cmd_path, _flag(p)) in FOLDER_FILES)]


def test_every_command_writing_a_file_has_force() -> None:
    missing = [c for c, cmd in COMMANDS if _output_params(c, cmd)
               and not any("--force" in p.opts for p in cmd.params)]
    assert missing == []


def test_an_existing_output_is_refused_without_force(sandbox: Path) -> None:
    """Every output option of every command: a file already there is refused with one line
    naming it and --force (and left as it was); with --force the call is accepted."""
    tried = 0
    for cmd_path, cmd in COMMANDS:
        for p in _output_params(cmd_path, cmd):
            flag = _flag(p)
            if (cmd_path, flag) in FOLDER_FILES:
                value = str(sandbox)
                there = sandbox / FOLDER_FILES[(cmd_path, flag)][0]
            else:
                suffixes = OUTPUT_SUFFIXES.get((cmd_path, flag)) or (
                    (".png",) if kind_of(cmd_path, flag) == "image_out" else (".npz",))
                there = sandbox / f"old{suffixes[0]}"
                value = str(there)
            there.write_bytes(b"old bytes\n")
            try:
                line = _assert_refused(_call(cmd_path, cmd, p, value, sandbox), sandbox)
                assert "already exists" in line and "--force" in line and flag in line, line
                assert str(there) in line, line
                assert there.read_bytes() == b"old bytes\n"
                args = [*_call(cmd_path, cmd, p, value, sandbox), "--force"]
                res = runner.invoke(app, args)
                assert res.exit_code == VALIDATED_EXIT, (args, res.output)
            finally:
                there.unlink()
            tried += 1
    assert tried >= 25
