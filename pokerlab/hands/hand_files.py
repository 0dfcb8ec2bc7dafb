"""Hand-history files and folders: a file's format by its name (``.phh``/``.phhs``,
PokerStars ``.txt``, ACPC ``.log``, optionally ``.xz``/``.gz``/``.bz2`` compressed) or by
its content, folders searched recursively in natural order, and every hand of every file
(:func:`iter_paths`), each a :class:`~pokerlab.hands.model.RawHand` or a
:class:`~pokerlab.hands.model.Rejection` naming its file and position."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pokerlab.errors import HandHistoryError
from pokerlab.hands.model import RawHand, Rejection
from pokerlab.hands.phh import fast_one_hand, iter_phh_text
from pokerlab.hands.textfile import read_compressed, split_name

PHH_SUFFIXES = (".phh", ".phhs")


POKERSTARS_SUFFIXES = (".txt",)


ACPC_SUFFIXES = (".log",)


def _format_of_name(name: str) -> tuple[str | None, str]:
    fmt, comp = split_name(name)
    if fmt in PHH_SUFFIXES:
        return "phh", comp
    if fmt in POKERSTARS_SUFFIXES:
        return "pokerstars", comp
    if fmt in ACPC_SUFFIXES:
        return "acpc", comp
    return None, comp


def file_format(path: str | Path) -> str | None:
    """``"phh"``, ``"pokerstars"``, ``"acpc"`` or ``None`` (not a hand-history file) from the name."""
    return _format_of_name(os.path.basename(str(path)))[0]


_DIGITS = re.compile(r"(\d+)")


def _natural_key(p: str) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in _DIGITS.split(p)]


def expand_paths(
    paths: Iterable[str | Path], *, problems: list[str] | None = None
) -> list[Path]:
    """Files to import: files as given, folders searched recursively (natural order).

    A path that does not exist, or a file of an unknown kind given explicitly, raises
    :class:`HandHistoryError` -- or, when ``problems`` is given, is described there and
    left out (so that the other paths are still imported).
    """
    return [Path(f) for f in _expand(paths, problems)]


def _expand(paths: Iterable[str | Path], problems: list[str] | None) -> list[str]:
    """:func:`expand_paths` as strings (no ``Path`` object per file of a big folder)."""
    out: list[str] = []
    for raw in paths:
        p = os.fspath(raw)
        if os.path.isdir(p):
            found: list[str] = []
            for dirpath, _dirs, files in os.walk(p):
                for name in files:
                    if _format_of_name(name)[0] is not None:
                        found.append(os.path.join(dirpath, name))
            out.extend(sorted(found, key=_natural_key))
            continue
        if os.path.isfile(p):
            if file_format(p) is not None:
                out.append(p)
                continue
            msg = (
                f"{p!r}: unknown hand-history file type (expected .phh, .phhs, .txt for "
                "PokerStars or .log for ACPC, optionally .xz/.gz/.bz2 compressed)"
            )
        else:
            msg = f"{p!r}: no such file or folder"
        if problems is None:
            raise HandHistoryError(msg)
        problems.append(msg)
    return out


def _sniff(text: str, fmt: str) -> str:
    """The reader for a text: PokerStars and ACPC logs are recognised by content."""
    head = text.lstrip()[:200]
    if head.startswith("PokerStars "):
        return "pokerstars"
    if fmt != "phh" and (
        "\nSTATE:" in text[:5000] or head.startswith("STATE:") or head.startswith("# game:")
    ):
        return "acpc"
    return fmt


def iter_file_text(text: str, fmt: str, source: str) -> Iterator[RawHand | Rejection]:
    """The hands of one file's text, by its format (``phh``, ``pokerstars``, ``acpc``)."""
    fmt = _sniff(text, fmt)
    if fmt == "phh":
        yield from iter_phh_text(text, source=source)
    elif fmt == "acpc":
        from pokerlab.hands.acpc_log import iter_acpc_text

        yield from iter_acpc_text(text, source=source)
    else:
        from pokerlab.hands.pokerstars import iter_pokerstars_text

        yield from iter_pokerstars_text(text, source=source)


def _read_plain(path: str) -> bytes:
    """A file's bytes (``os.read`` in 64 KiB pieces: cheaper per file than ``open``)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        data = os.read(fd, 65536)
        if len(data) < 65536:
            return data
        parts = [data]
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(parts)
            parts.append(chunk)
    finally:
        os.close(fd)


def _one_plain_hand(text: str) -> bool:
    """True when a PHH text is one hand without ``[section]`` headers (no line starts
    with ``[``) and is not PokerStars text: :func:`iter_phh_text` then reads it as one block."""
    if text[:1] == "[" or "\n[" in text:
        return False
    return not (text.startswith("PokerStars ") or text.lstrip().startswith("PokerStars "))


def iter_paths(
    paths: Iterable[str | Path], *, problems: list[str] | None = None
) -> Iterator[RawHand | Rejection]:
    """Every hand of every file under ``paths`` (PHH, PokerStars text, ACPC logs).

    With ``problems``, missing paths, files of unknown kind and files without any
    recognisable hand are described there (by name) instead of raising.  A plain
    one-hand ``.phh`` file (the usual folder of hand histories) is read and parsed
    without the general per-file machinery (same result, less overhead per file).
    """
    sep = os.sep
    for src in _expand(paths, problems):
        fmt, comp = _format_of_name(src[src.rfind(sep) + 1 :])
        try:
            if fmt == "phh" and not comp:
                try:
                    data = _read_plain(src)
                except OSError as exc:
                    raise HandHistoryError(f"cannot read {src!r}: {exc}") from None
                try:
                    text = data.decode("utf-8-sig")
                except UnicodeDecodeError:
                    text = data.decode("latin-1")
            else:
                text = read_compressed(src, comp)
        except HandHistoryError as exc:
            if problems is None:
                yield Rejection(source=src, position=0, message=str(exc))
            else:
                problems.append(str(exc))
            continue
        if fmt == "phh" and _one_plain_hand(text):
            one = fast_one_hand(text, src)
            if one is not None:
                yield one
                continue
        count = 0
        for item in iter_file_text(text, fmt or "phh", src):
            count += 1
            yield item
        if count == 0 and problems is not None:
            problems.append(f"{src!r}: no recognisable hand history in this file")
