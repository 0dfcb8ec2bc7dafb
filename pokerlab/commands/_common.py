"""Shared command-line pieces: the one error path, progress bar, JSON emitter and options.

Every command module uses these instead of its own copies:

* :func:`friendly` wraps every command (``cli.py`` applies it to all registered commands):
  a :class:`~pokerlab.errors.PokerlabError` or an :class:`OSError` (unwritable ``--out``,
  missing input file, full disk, ...) becomes one line ``error: ...`` on stderr and exit
  status 2, never a traceback.
* :func:`progress` is the one rich progress bar: on stderr, and never with ``--json``.
* :func:`emit_json` prints the one JSON object a ``--json`` command writes on stdout.
* :func:`check_output_path` / :func:`check_image_path` validate an output path *before*
  long work starts.  Policy: the file's folder must already exist (pokerlab never creates
  folders the user did not ask for); the path must not be a folder and must not lie under
  a file; the folder must be writable (tested by creating and removing a temporary file).
* Option helpers give every command the same flag names, defaults and help texts:
  ``--seed`` (default 0, must be >= 0), ``--stack`` (big blinds), ``--out`` (artefact
  output), ``--png`` (picture, ``.png`` or ``.svg`` by suffix), ``--json``.
* :func:`exploitability_fields` writes exploitability in the JSON units of
  docs/conventions.md: ``exploitability`` (chips), ``exploitability_mbb`` and ``big_blind``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._file_guards import guard_call, refuse_blank_paths
from pokerlab.commands._path_checks import (
    IMAGE_SUFFIXES,
    check_image_path,
    check_output_path,
    check_positive,
    check_seed,
)
from pokerlab.commands._validate import RAW_ARGS, option_flags, validate_call
from pokerlab.errors import ConfigError, PokerlabError

# ---------------------------------------------------------------------------------- errors


def error_message(exc: BaseException) -> str:
    """One line describing ``exc`` (an OSError names its file and the system's reason)."""
    if isinstance(exc, OSError) and not isinstance(exc, PokerlabError):
        reason = exc.strerror or str(exc) or type(exc).__name__
        if exc.filename is not None:
            return f"{reason}: {os.fsdecode(exc.filename)!s}"
        return reason
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.splitlines())


def fail(message: str | BaseException) -> typer.Exit:
    """Print ``error: MESSAGE`` on stderr and return the exit (status 2) to raise."""
    text = message if isinstance(message, str) else error_message(message)
    typer.echo(f"error: {text}", err=True)
    return typer.Exit(2)


#: exit status of a call stopped after validation by :data:`VALIDATE_ONLY` (tests)
VALIDATED_EXIT = 99
#: when set (the fuzz tests), a command whose arguments pass validation stops there with
#: exit status :data:`VALIDATED_EXIT` instead of running
VALIDATE_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("VALIDATE_ONLY",
                                                                     default=False)


def friendly(fn: Callable[..., Any], command: str | None = None) -> Callable[..., Any]:
    """Turn bad-input and file-system errors into one clear line on stderr and exit 2.

    With ``command`` (its path, e.g. ``"blueprint train"``), every argument is first
    checked by its option kind (:mod:`pokerlab.commands._validate`), before any work."""
    done = getattr(fn, "__pokerlab_friendly__", None)
    if done is not None:
        if command is None or done == command:
            return fn
        fn = fn.__wrapped__  # type: ignore[attr-defined]  # wrapped again, with checks

    flags = option_flags(fn) if command is not None else {}

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            if command is not None:
                refuse_blank_paths(command, fn, RAW_ARGS.get())
                validate_call(command, flags, kwargs)
                if VALIDATE_ONLY.get():
                    raise typer.Exit(VALIDATED_EXIT)
                with guard_call(command, flags, kwargs):
                    return fn(*args, **kwargs)
            return fn(*args, **kwargs)
        except (PokerlabError, OSError) as exc:
            raise fail(exc) from None

    wrapper.__pokerlab_friendly__ = command or ""  # type: ignore[attr-defined]
    return wrapper


# ------------------------------------------------------------------------------- output


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON object on stdout (NaN/inf become null: strict JSON)."""
    typer.echo(json.dumps(_strict(obj)))


def _strict(obj: Any) -> Any:
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): _strict(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_strict(v) for v in obj]
    if isinstance(obj, Path):
        return str(obj)
    if hasattr(obj, "item") and callable(obj.item) and getattr(obj, "shape", None) == ():
        return _strict(obj.item())  # numpy scalar
    if hasattr(obj, "tolist") and callable(obj.tolist):
        return _strict(obj.tolist())  # numpy array
    return obj


def exploitability_fields(chips: float | None, big_blind: float, *,
                          prefix: str = "exploitability") -> dict[str, float | None]:
    """``{prefix: chips, prefix_mbb: 1000*chips/big_blind, "big_blind": big_blind}``."""
    if big_blind <= 0:
        raise ConfigError(f"big blind must be positive, got {big_blind}")
    mbb = None if chips is None else 1000.0 * chips / big_blind
    return {prefix: chips, f"{prefix}_mbb": mbb, "big_blind": float(big_blind)}


class ProgressUpdate:
    """Callable handed out by :func:`progress`: ``update(done, total=None, **fields)``."""

    def __init__(self, bar: Any, task: Any) -> None:
        self._bar = bar
        self._task = task

    def __call__(self, done: float, total: float | None = None, **fields: Any) -> None:
        if self._bar is None:
            return
        kwargs: dict[str, Any] = {"completed": done, **fields}
        if total is not None:
            kwargs["total"] = total
        self._bar.update(self._task, **kwargs)


@contextlib.contextmanager
def progress(label: str, *, enabled: bool = True, total: float | None = None,
             unit: str = "", fields: dict[str, str] | None = None) -> Iterator[ProgressUpdate]:
    """The one progress bar: rich, on stderr; a no-op when ``enabled`` is False (``--json``).

    ``fields`` are extra named values shown after the count (e.g. ``{"expl": "-"}`` shows
    ``expl -``); update them with ``update(done, expl="0.01")``.  ``total=None`` gives an
    indeterminate bar until an update sets a total.
    """
    if not enabled:
        yield ProgressUpdate(None, None)
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    count = "{task.completed:.0f}" + ("" if total is None else "/{task.total:.0f}")
    columns: list[Any] = [TextColumn(f"[bold]{label}"), BarColumn(),
                          TextColumn(count + (f" {unit}" if unit else ""))]
    for name in fields or {}:
        columns.append(TextColumn(f"{name} {{task.fields[{name}]}}"))
    columns.append(TimeElapsedColumn())
    bar = Progress(*columns, console=Console(stderr=True), transient=False)
    extra: dict[str, Any] = dict(fields or {})
    task = bar.add_task(label, total=total, **extra)
    bar.start()
    try:
        yield ProgressUpdate(bar, task)
    except BaseException:
        # an error leaves its one line, not a half-drawn bar: the bar is erased, and
        # ``Progress.stop`` (which adds an empty line on a non-terminal) is not called
        bar.live.transient = True
        bar.live.stop()
        raise
    bar.stop()


# --------------------------------------------------------------------------- checks
# (defined in _validate, the one validation layer, and offered here as before)


# -------------------------------------------------------------------------- options


def seed_option(help: str = "Random seed (>= 0).") -> Any:
    """``--seed`` with the one default, 0."""
    return typer.Option(0, "--seed", help=help)


def stack_option(default: float = 100.0, help: str = "Effective stack in big blinds.") -> Any:
    """``--stack`` in big blinds."""
    return typer.Option(default, "--stack", help=help)


def out_option(help: str = "Write the artefact here (its folder must exist).",
               default: Path | None = None) -> Any:
    """``--out``: the artefact a command writes (policy, model, run folder, hand file)."""
    return typer.Option(default, "--out", help=help)


def png_option(help: str = "Write a picture here (.png or .svg by suffix).") -> Any:
    """``--png``: picture output, format chosen by the suffix."""
    return typer.Option(None, "--png", help=help)


def force_option(help: str = "Replace an output file that already exists (without "
                 "--force it is refused).") -> Any:
    """``--force``: the one way to replace an existing output file (the validation layer
    refuses one otherwise, :func:`~pokerlab.commands._validate.refuse_existing_outputs`)."""
    return typer.Option(False, "--force", help=help)


def json_option() -> Any:
    """``--json``: one JSON object on stdout, nothing else (no progress bar)."""
    return typer.Option(False, "--json", help="Print one JSON object on stdout.")


def algo_option(default: str, help: str) -> Any:
    """``--algo``: which algorithm (never ``--method``)."""
    return typer.Option(default, "--algo", help=help)


def iterations_option(default: int | None, help: str = "Iterations.") -> Any:
    return typer.Option(default, "--iterations", help=help)


def hands_option(default: int, help: str = "Number of hands.") -> Any:
    return typer.Option(default, "--hands", help=help)


def batch_size_option(default: int | None, help: str = "Minibatch size.") -> Any:
    return typer.Option(default, "--batch-size", help=help)


def learning_rate_option(default: float | None, help: str = "Learning rate.") -> Any:
    return typer.Option(default, "--learning-rate", help=help)


__all__ = [
    "IMAGE_SUFFIXES",
    "RAW_ARGS",
    "VALIDATED_EXIT",
    "VALIDATE_ONLY",
    "ProgressUpdate",
    "algo_option",
    "batch_size_option",
    "check_image_path",
    "check_output_path",
    "check_positive",
    "check_seed",
    "emit_json",
    "error_message",
    "exploitability_fields",
    "fail",
    "force_option",
    "friendly",
    "hands_option",
    "iterations_option",
    "json_option",
    "learning_rate_option",
    "out_option",
    "png_option",
    "progress",
    "seed_option",
    "stack_option",
]
