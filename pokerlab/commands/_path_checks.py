"""The checks of a path before any long work starts: a file that can be written
(:func:`check_output_path`, :func:`check_image_path`), a folder that can be written into
(:func:`check_folder_path`), and the seeds and positive amounts of the option helpers
(:mod:`pokerlab.commands._validate` checks every option by its kind with them)."""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
from pathlib import Path

from pokerlab.errors import ConfigError

IMAGE_SUFFIXES = (".png", ".svg")


def check_output_path(path: str | os.PathLike[str], *, option: str = "--out",
                      suffixes: tuple[str, ...] | None = None) -> Path:
    """Check that a file can be written at ``path`` before any long work starts.

    Raises :class:`ConfigError` naming ``option`` and the path when the path is a folder,
    lies under a file, its folder does not exist (never created for the user), the folder
    is not writable, or its suffix is not one of ``suffixes``.  Returns the path.
    """
    p = Path(path)
    if not str(path).strip():
        raise ConfigError(f"{option}: empty path (give a file name)")
    if p.name in ("", ".", ".."):
        raise ConfigError(f"{option} {str(path)!r} is not a file name")
    if p.is_dir():
        raise ConfigError(f"{option} {str(p)!r} is a folder, not a file")
    if suffixes is not None and p.suffix.lower() not in suffixes:
        raise ConfigError(f"{option} {str(p)!r} must end in {' or '.join(suffixes)}")
    parent = p.parent
    for anc in [parent, *parent.parents]:
        if anc.exists():
            if not anc.is_dir():
                raise ConfigError(f"{option} {str(p)!r} lies under {str(anc)!r}, which is a file")
            break
    if not parent.is_dir():
        raise ConfigError(f"{option} {str(p)!r}: folder {str(parent)!r} does not exist "
                          "(pokerlab does not create folders; create it first)")
    if p.exists() and not os.access(p, os.W_OK):
        raise ConfigError(f"{option} {str(p)!r} exists and is not writable")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".probe", dir=parent)
    except OSError as exc:
        raise ConfigError(f"{option} {str(p)!r}: cannot write in {str(parent)!r} "
                          f"({exc.strerror or exc})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return p


def check_image_path(path: str | os.PathLike[str], *, option: str = "--png") -> Path:
    """:func:`check_output_path` for pictures: the suffix chooses the format (.png/.svg)."""
    return check_output_path(path, option=option, suffixes=IMAGE_SUFFIXES)


def check_seed(seed: int, *, option: str = "--seed") -> int:
    """Seeds are non-negative integers (they seed numpy and the numba generators)."""
    if seed < 0 or seed >= 2**63:
        raise ConfigError(f"{option} must be a non-negative integer below 2**63, got {seed}")
    return seed


def check_positive(value: float, option: str, *, allow_zero: bool = False) -> None:
    """Raise ConfigError naming ``option`` unless ``value`` > 0 (or >= 0)."""
    ok = value >= 0 if allow_zero else value > 0
    if not ok or (isinstance(value, float) and not math.isfinite(value)):
        need = "non-negative" if allow_zero else "positive"
        raise ConfigError(f"{option} must be {need}, got {value}")


def check_folder_path(path: str | os.PathLike[str], *, option: str = "--out") -> Path:
    """A folder pokerlab will write into (a run folder): it may exist (as a folder) or
    be created by the command, but its parent must exist and be writable."""
    p = Path(path)
    if not str(path).strip():
        raise ConfigError(f"{option}: empty path (give a folder name)")
    if p.exists():
        if not p.is_dir():
            raise ConfigError(f"{option} {str(p)!r} is a file, not a folder")
        check_output_path(p / ".pokerlab-probe", option=option)
        return p
    check_output_path(p, option=option)
    return p
