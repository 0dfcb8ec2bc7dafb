"""Reading a (possibly compressed) hand-history file as text: :func:`read_text`.

Shared by the PHH, PokerStars and ACPC readers (re-exported by :mod:`pokerlab.hands.phh`).
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
from pathlib import Path

from pokerlab.errors import HandHistoryError

COMPRESSIONS = (".xz", ".gz", ".bz2")


def split_name(name: str) -> tuple[str, str]:
    """(format suffix, compression suffix) of a file name: ``x.phhs.xz`` -> (".phhs", ".xz")."""
    low = name.lower()
    comp = ""
    for c in COMPRESSIONS:
        if low.endswith(c):
            comp = c
            low = low[: -len(c)]
            break
    dot = low.rfind(".")
    return (low[dot:] if dot > 0 else ""), comp


def read_compressed(path: str, comp: str) -> str:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        if comp == ".xz":
            data = lzma.decompress(data)
        elif comp == ".gz":
            data = gzip.decompress(data)
        elif comp == ".bz2":
            data = bz2.decompress(data)
    except (OSError, lzma.LZMAError, EOFError) as exc:
        raise HandHistoryError(f"cannot read {path!r}: {exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_text(path: str | Path) -> str:
    """A (possibly compressed) hand-history file as text; raises :class:`HandHistoryError`."""
    p = str(path)
    return read_compressed(p, split_name(os.path.basename(p))[1])
