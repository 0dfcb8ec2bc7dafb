"""What one call of a command may do to the files it names, beyond the value checks of
:mod:`pokerlab.commands._validate`: an empty or blank path is refused everywhere
(:func:`refuse_blank_paths`), and around the call (:func:`guard_call`) run folders and
databases are locked, a run folder that holds a run is continued or replaced only when
asked, and the output files are locked and checked again (docs/conventions.md)."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pokerlab.commands._validate import (
    FORCE_FLAG,
    PATH_FREE,
    PATH_KINDS,
    flag_name,
    flag_of,
    kind_of,
    output_files,
    refuse_existing_outputs,
)
from pokerlab.errors import ConfigError


def option_decls(fn: Callable[..., Any]) -> dict[str, tuple[str, bool]]:
    """``{every flag of an option (aliases too): (its first long flag, takes a value)}``
    of a typer command function."""
    out: dict[str, tuple[str, bool]] = {}
    for name, p in inspect.signature(fn).parameters.items():
        decls = [d for d in (getattr(p.default, "param_decls", None) or ())
                 if isinstance(d, str)]
        if type(p.default).__name__ == "ArgumentInfo":
            continue
        flag = flag_of(name, p.default)
        takes = not isinstance(getattr(p.default, "default", None), bool)
        for d in decls or [flag]:
            for one in d.split("/"):
                if one.startswith("-"):
                    out[one] = (flag, takes)
    return out


def _is_path(command: str, flag: str) -> bool:
    return kind_of(command, flag) in PATH_KINDS or flag in PATH_FREE


def refuse_blank_paths(command: str, fn: Callable[..., Any],
                       tokens: Sequence[str] | None) -> None:
    """An empty (or blank) path is refused everywhere, inputs and outputs alike (typer
    would turn it into ``.``, the current folder).  ``tokens`` are the command line's own
    words (:data:`RAW_ARGS`); nothing is checked without them."""
    if not tokens:
        return
    words = command.split()
    toks = list(tokens)
    if toks[:len(words)] != words:
        return
    decls = option_decls(fn)
    positional = [n for n, p in inspect.signature(fn).parameters.items()
                  if type(p.default).__name__ == "ArgumentInfo" and _is_path(command, n)]
    pending: str | None = None
    for tok in toks[len(words):]:
        if pending is not None:
            if not tok.strip() and _is_path(command, pending):
                raise ConfigError(f"{pending}: empty path (give a file or folder name)")
            pending = None
            continue
        if tok.startswith("--") and "=" in tok:
            flag, val = tok.split("=", 1)
            flag = decls.get(flag, (flag, True))[0]
            if not val.strip() and _is_path(command, flag):
                raise ConfigError(f"{flag}: empty path (give a file or folder name)")
            continue
        if tok.startswith("-") and tok in decls:
            flag, takes = decls[tok]
            pending = flag if takes else None
            continue
        if not tok.strip() and positional:
            raise ConfigError(f"{flag_name(positional[0])}: empty path (give a file or folder "
                              "name)")


#: command -> (flag of its run folder, flag that continues a run or None when the command
#: continues the run in its folder by design, default folder)
RUN_FOLDERS: dict[str, tuple[str, str | None, Callable[[dict[str, Any]], Path | None]]] = {
    "blueprint train": ("--out", "--resume",
                        lambda kw: Path(f"blueprint_{kw.get('preset') or 'small'}")),
    "deepcfr train": ("--checkpoint", "--resume", lambda kw: None),
    "ttt train": ("--out", None, lambda kw: None),  # its run folder is resumed by design
    "spot report": ("--out", None, lambda kw: None),  # likewise: a killed report resumes
}


#: where the replaced run's files wait, inside the run folder, until the new run has
#: written something (then they are deleted; a call that fails first puts them back)
REPLACED_NAME = ".pokerlab-replaced"


#: command -> flag of the database it writes (default: the user's hand database)
DATABASES: dict[str, str] = {"hands import": "--db"}


def _holds_run(folder: Path) -> list[str]:
    from pokerlab.runlock import LOCK_NAME

    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.name not in (LOCK_NAME, REPLACED_NAME))


def _remove(path: Path) -> None:
    import shutil

    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _settle_replaced(folder: Path) -> None:
    """A replaced run left behind by a killed ``--force`` call (the lock is ours): deleted
    when the new run wrote something, else put back (nothing replaced it)."""
    trash = folder / REPLACED_NAME
    if not trash.is_dir():
        return
    if _holds_run(folder):
        _remove(trash)
        return
    for p in trash.iterdir():
        p.rename(folder / p.name)
    trash.rmdir()


@contextlib.contextmanager
def _replacing(folder: Path, names: list[str]) -> Iterator[None]:
    """Move the run's files ``names`` aside for the call; when the call ends they are
    deleted if it wrote anything (or succeeded), else put back: a ``--force`` call that
    fails before writing (a bad option the command itself checks) loses nothing."""
    trash = folder / REPLACED_NAME
    trash.mkdir()
    for n in names:
        (folder / n).rename(trash / n)
    ok = False
    try:
        yield
        ok = True
    except BaseException as exc:
        code = getattr(exc, "exit_code", None)
        ok = type(exc).__name__ == "Exit" and code in (0, None)
        raise
    finally:
        if ok or _holds_run(folder):
            _remove(trash)
        else:
            _settle_replaced(folder)


@contextlib.contextmanager
def guard_call(command: str, flags: dict[str, str], kwargs: dict[str, Any]) -> Iterator[None]:
    """Around one call of ``command``: a run folder that already holds a run is refused
    unless the command continues it (``--resume``) or replaces it (``--force``: once the
    lock is ours, the old run's files are moved aside and deleted when the new run has
    written, so nothing of the old run mixes into the new one); a run folder or database
    is locked (:mod:`pokerlab.runlock`) for the whole call, so a second process on it is
    refused with the holder named.  A run folder this call made and left empty is
    removed."""
    from pokerlab.runlock import RunLock

    by_flag = {f: n for n, f in flags.items()}
    with contextlib.ExitStack() as stack:
        if command in RUN_FOLDERS:
            flag, resume_flag, default = RUN_FOLDERS[command]
            value = kwargs.get(by_flag.get(flag, ""))
            folder = Path(value) if value is not None else default(kwargs)
            resume = bool(kwargs.get(by_flag.get(resume_flag or "", ""), False))
            force = bool(kwargs.get(by_flag.get(FORCE_FLAG, ""), False))
            if resume and force:
                raise ConfigError(f"{resume_flag} continues the run in {flag} and "
                                  f"{FORCE_FLAG} replaces it: give one of them")
            if folder is not None:
                lock = RunLock(folder, what=f"{flag} run folder", folder=True,
                               command=f"pokerlab {command}")
                if folder.is_dir() and (lock.path.exists() or force
                                        or (folder / REPLACED_NAME).exists()):
                    stack.enter_context(lock)  # refused here when another run holds it
                    _settle_replaced(folder)
                held = _holds_run(folder)
                if resume_flag is not None and not resume and not force and held:
                    shown = ", ".join(held[:4]) + (", ..." if len(held) > 4 else "")
                    raise ConfigError(f"{flag} {str(folder)!r} already holds a run ({shown}); "
                                      f"continue it with {resume_flag}, replace it with "
                                      f"{FORCE_FLAG}, or give a new folder (nothing was "
                                      "changed)")
                made = not folder.exists()
                if made:
                    folder.mkdir()
                    stack.callback(_remove_if_empty, folder)
                if not lock.held:
                    stack.enter_context(lock)
                if force and held:
                    stack.enter_context(_replacing(folder, held))
        for flag, lock_at, _files, _may in output_files(command, flags, kwargs):
            if lock_at.parent.is_dir():  # else the command names the missing folder
                stack.enter_context(RunLock(lock_at, what=f"{flag} file", folder=False,
                                            command=f"pokerlab {command}"))
        refuse_existing_outputs(command, flags, kwargs)  # again, now that they are ours
        if command in DATABASES:
            value = kwargs.get(by_flag.get(DATABASES[command], ""))
            if value is None:
                from pokerlab.io import data_dir

                value = data_dir() / "hands.duckdb"
            if Path(value).name in ("", ".", "..") or Path(value).is_dir():
                raise ConfigError(f"{DATABASES[command]} {str(value)!r} is not a file name "
                                  "(an empty path or a folder); give a file such as "
                                  "hands.duckdb")
            if Path(value).parent.is_dir():  # else the command names the missing folder
                stack.enter_context(RunLock(value, what="database", folder=False,
                                            command=f"pokerlab {command}"))
        yield


def _remove_if_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
