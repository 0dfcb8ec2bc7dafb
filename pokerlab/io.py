"""Atomic file writing and small on-disk helpers shared by every subsystem.

Nothing pokerlab writes is ever left half-written: data goes to a temporary file in the
same folder, is flushed and fsynced, then renamed over the target in one step.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import platformdirs

#: what reading a damaged ``.npz``/zip archive can raise (a flipped byte may hit the zip
#: headers, the deflate stream or the ``.npy`` header): readers turn these into one error
#: naming the file
ARCHIVE_ERRORS: tuple[type[BaseException], ...] = (
    zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, struct.error, ValueError, OSError,
    EOFError, KeyError, IndexError, NotImplementedError, UnicodeDecodeError, OverflowError,
)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, suffix: str | None = None) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; on success it is renamed onto ``path``.

    On an exception the temporary file is removed and ``path`` is untouched.  ``suffix``
    (default: the target's suffix) matters to writers that look at the extension.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=(target.suffix if suffix is None else suffix) + ".tmp",
        dir=target.parent,
    )
    os.close(fd)
    tmp_path = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp_path, 0o666 & ~umask)  # mkstemp creates 0600; give the usual mode
    try:
        yield tmp_path
        with open(tmp_path, "rb+") as fh:
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_path, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike[str], obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=True) + "\n")


def file_has_tag(path: str | os.PathLike[str], tag: bytes, *, first: bytes | None = None,
                 block: int = 1 << 20) -> bool:
    """Whether the file holds the format tag ``tag`` anywhere (read in blocks, so a tag
    at the end of a large file is found too); with ``first``, the file's first
    non-blank byte must be it (``b"{"`` for JSON).  Unreadable files give False."""
    try:
        with open(path, "rb") as fh:
            tail = b""
            start = True
            while True:
                data = fh.read(block)
                if not data:
                    return False
                if start and first is not None:
                    lead = data.lstrip()
                    if lead and not lead.startswith(first):
                        return False
                    start = not lead
                if tag in tail + data:
                    return True
                tail = data[-len(tag):]
    except OSError:
        return False


def read_bytes(path: str | os.PathLike[str], error: type[Exception], what: str) -> bytes:
    """The bytes of the file ``path``; one ``error`` naming it (``cannot read WHAT
    'PATH': reason``) when it cannot be read."""
    p = os.fspath(path)
    try:
        with open(p, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise error(f"cannot read {what} {p!r}: {exc.strerror}") from None


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | os.PathLike[str]) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def cache_dir() -> Path:
    """Folder for computed caches (``$POKERLAB_CACHE`` or the user cache directory)."""
    env = os.environ.get("POKERLAB_CACHE")
    p = Path(env) if env else Path(platformdirs.user_cache_dir("pokerlab"))
    p.mkdir(parents=True, exist_ok=True)
    return p


def data_dir() -> Path:
    """Folder for user data such as the hand database (``$POKERLAB_DATA`` or the user data dir)."""
    env = os.environ.get("POKERLAB_DATA")
    p = Path(env) if env else Path(platformdirs.user_data_dir("pokerlab"))
    p.mkdir(parents=True, exist_ok=True)
    return p


PACKAGE_DATA = Path(__file__).parent / "data"
"""Data files shipped inside the package (small tables, the Pluribus sample, ...)."""
