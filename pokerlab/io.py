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
    (default: the target's suffix) matters to writers that look at the extension.  The
    temporary is ``.NAME.PID-XXXXXXXX.SUFFIX.tmp`` (PID: the writer's process id); the
    temporaries of killed writers of ``path`` are removed first
    (:func:`remove_stale_temporaries`).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tail = (target.suffix if suffix is None else suffix) + ".tmp"
    remove_stale_temporaries(target, suffix=tail)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=tail,
                               dir=target.parent)
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


#: a temporary of the old naming (no writer pid) older than this is stale
STALE_TEMPORARY_SECONDS = 24 * 3600.0


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (another user's counts)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process (EPERM): alive
        return True
    return True


def _process_start(pid: int) -> float | None:
    """When process ``pid`` started (seconds since the epoch), where /proc says."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        ticks = int(stat.rsplit(")", 1)[1].split()[19])
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def remove_stale_temporaries(path: str | os.PathLike[str], *, suffix: str | None = None,
                             ) -> list[Path]:
    """Remove the temporaries that killed writers of ``path`` left (:func:`atomic_path`'s
    ``.NAME.PID-XXXXXXXX.SUFFIX.tmp``): those whose writer process is gone, or whose pid
    now belongs to a process that started after the temporary was last written (a reused
    pid); a temporary of the old naming (no pid) when older than
    :data:`STALE_TEMPORARY_SECONDS`.  ``suffix``: the temporaries' ending (default: the
    target's suffix + ``.tmp``).  Returns the removed paths."""
    import re
    import time

    target = Path(path)
    tail = re.escape(target.suffix + ".tmp" if suffix is None else suffix)
    head = f".{target.name}."
    pattern = re.compile(r"(?:(\d+)-)?[A-Za-z0-9_]{8}" + tail)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    now = time.time()
    for e in entries:
        if not e.name.startswith(head):
            continue
        m = pattern.fullmatch(e.name[len(head):])
        if m is None:
            continue
        try:
            mtime = e.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if m.group(1) is None:
            stale = now - mtime > STALE_TEMPORARY_SECONDS
        else:
            pid = int(m.group(1))
            if pid == os.getpid():
                continue
            started = _process_start(pid) if pid_alive(pid) else None
            stale = not pid_alive(pid) or (started is not None and started > mtime + 1.0)
        if stale:
            with contextlib.suppress(OSError):
                os.unlink(e.path)
                removed.append(Path(e.path))
    return removed


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
