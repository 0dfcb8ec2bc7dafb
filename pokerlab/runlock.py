"""Locks that keep two pokerlab processes off one run folder or one database.

A lock is a small JSON file (``.pokerlab.lock`` in a run folder, ``FILE.lock`` next to a
database) holding the holder's pid, host, start time and command, and an exclusive
``flock`` on it held for as long as the holder runs.  The kernel drops the ``flock`` when
the holder dies (even by SIGKILL), so a lock left behind by a dead process is simply taken
over; a live holder gives one :class:`RunLockError` naming it::

    error: run folder 'bp' is in use by pid 4242 on host1 since 2026-12-02T05:01:09Z
    (pokerlab blueprint train --out bp); wait for it to finish or stop it

On a shared file system whose ``flock`` is not enforced between machines, a lock whose
holder is another host is refused while its pid file names a live-looking holder; one
whose holder is this host and whose pid is gone is taken over.

This module is in the base layer (standard library only).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from pokerlab.errors import PokerlabError
from pokerlab.io import pid_alive

LOCK_NAME = ".pokerlab.lock"

try:  # pragma: no cover - POSIX only; elsewhere the pid check alone protects
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


class RunLockError(PokerlabError):
    """Another live process holds the run folder or database."""


def lock_path_for(target: str | os.PathLike[str], *, folder: bool) -> Path:
    """The lock file of a run folder (inside it) or of a file (next to it)."""
    p = Path(target)
    return p / LOCK_NAME if folder else p.with_name(p.name + ".lock")


def read_holder(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The holder recorded in a lock file, or None when there is none or it is unreadable."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _describe(holder: dict[str, Any] | None) -> str:
    if not holder:
        return "another process"
    cmd = holder.get("command")
    return (f"pid {holder.get('pid', '?')} on {holder.get('host', '?')} since "
            f"{holder.get('started', '?')}" + (f" ({cmd})" if cmd else ""))


class RunLock:
    """An exclusive lock on a run folder or a database (module docstring).

    ``with RunLock(target, what="run folder", folder=True):`` -- the folder must exist
    (a run folder is made before it is locked); for a file (``folder=False``) only its
    parent must exist.  ``command`` is recorded for the message other processes get.
    """

    def __init__(self, target: str | os.PathLike[str], *, what: str = "run folder",
                 folder: bool = True, command: str | None = None) -> None:
        self.target = Path(target)
        self.what = what
        self.path = lock_path_for(target, folder=folder)
        self.command = command if command is not None else _command_line()
        self._fh: IO[str] | None = None

    # -------------------------------------------------------------------------- use

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    @property
    def held(self) -> bool:
        return self._fh is not None

    def _busy(self, holder: dict[str, Any] | None) -> RunLockError:
        return RunLockError(f"{self.what} {str(self.target)!r} is in use by "
                            f"{_describe(holder)}; wait for it to finish or stop it")

    def acquire(self) -> None:
        if self._fh is not None:
            return
        for _ in range(20):
            fh = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open
            try:
                if fcntl is not None:
                    try:
                        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except OSError as exc:
                        if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                            raise
                        raise self._busy(read_holder(self.path)) from None
                # the file may have been removed (released) between open and flock
                try:
                    same = os.stat(self.path).st_ino == os.fstat(fh.fileno()).st_ino
                except FileNotFoundError:
                    same = False
                if not same:
                    fh.close()
                    continue
                holder = read_holder(self.path)
                if holder and not self._may_take_over(holder):
                    raise self._busy(holder)
                fh.seek(0)
                fh.truncate()
                fh.write(json.dumps(self.info()) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
                self._fh = fh
                return
            except BaseException:
                if self._fh is not fh:
                    fh.close()
                raise
        raise self._busy(read_holder(self.path))  # pragma: no cover - a lock storm

    def _may_take_over(self, holder: dict[str, Any]) -> bool:
        """With the ``flock`` ours, a recorded holder is stale unless it is a live pid on
        another host (whose ``flock`` this host may not see)."""
        if fcntl is None:  # pragma: no cover
            return holder.get("host") == socket.gethostname() and \
                not pid_alive(int(holder.get("pid", 0)))
        if holder.get("host") not in (None, socket.gethostname()):
            return False  # another machine's lock on a shared folder: refuse
        return True

    def release(self) -> None:
        fh, self._fh = self._fh, None
        if fh is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        fh.close()

    def info(self) -> dict[str, Any]:
        return {"pid": os.getpid(), "host": socket.gethostname(),
                "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "command": self.command}


def _command_line() -> str:
    argv = [os.path.basename(sys.argv[0]) if sys.argv else "python", *sys.argv[1:]]
    return " ".join(argv)[:200]


def check_unlocked(target: str | os.PathLike[str], *, what: str = "run folder",
                   folder: bool = True) -> None:
    """Raise :class:`RunLockError` when a live process holds ``target`` (a read-only
    look: nothing is created)."""
    path = lock_path_for(target, folder=folder)
    if not path.exists():
        return
    lock = RunLock(target, what=what, folder=folder)
    lock.acquire()
    lock.release()


@contextlib.contextmanager
def run_lock(target: str | os.PathLike[str], *, what: str = "run folder",
             folder: bool = True) -> Iterator[RunLock]:
    """``with run_lock(folder):`` -- :class:`RunLock` as a context manager."""
    lock = RunLock(target, what=what, folder=folder)
    with lock:
        yield lock


__all__ = ["LOCK_NAME", "RunLock", "RunLockError", "check_unlocked", "lock_path_for",
           "read_holder", "run_lock"]
