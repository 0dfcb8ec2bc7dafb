"""The hand database: an embedded DuckDB file with the tables ``hands``, ``hand_players``
and ``actions`` (schema documented in ``docs/hands.md``), and the bulk importer.

Import is batched: hands are parsed in Python (:mod:`pokerlab.hands.phh`), replayed a
batch at a time by a numba kernel (:mod:`pokerlab.hands.fastimport`, with the reference
:func:`~pokerlab.hands.replay.replay` for the hands the kernel leaves to it; the kernels
run in this process or in a worker process, :mod:`pokerlab.hands.kernel_worker`), and
each batch goes into DuckDB in one statement per table from numpy arrays (no row-by-row
inserts), by a writer thread.  The key of a hand is a hash of its game facts
(:meth:`RawHand.key`), so importing the same hand twice stores it once.  A hand that
cannot be read or is not a legal hand is reported (file, position, reason) and skipped;
the others are kept.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import HandHistoryError
from pokerlab.hands.fastimport import PendingReplay, finish_replay, replay_reference, start_replay
from pokerlab.hands.model import RawHand, Rejection
from pokerlab.hands.schema import (
    ACTION_SELECT,
    HAND_SELECT,
    PLAYER_COPIES,
    PLAYER_SELECT,
    SCHEMA,
    SCHEMA_VERSION,
)

__all__ = ["HandDB", "ImportReport", "default_db_path", "SCHEMA", "SCHEMA_VERSION", "BATCH_SIZE"]

BATCH_SIZE = 4_000
"""Hands per bulk insert: small enough that replaying one batch overlaps storing the last."""

AHEAD = 3
"""Batches read ahead of the kernels when they run in a worker process."""


def default_db_path() -> Path:
    from pokerlab.io import data_dir

    return data_dir() / "hands.duckdb"


@dataclass(kw_only=True)
class ImportReport:
    """What one import did: hands read, newly stored, already present, rejected (with why)."""

    read: int = 0
    stored: int = 0
    duplicates: int = 0
    rejected: int = 0
    rejections: list[Rejection] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Paths not imported at all: missing, of unknown kind, or without any hand."""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """At least one hand stored (or already present) and nothing rejected or missing."""
        return (
            self.stored + self.duplicates > 0 and self.rejected == 0 and not self.problems
        )

    def to_json(self, *, max_rejections: int = 100) -> dict[str, Any]:
        return {
            "read": self.read,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "rejected": self.rejected,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.read / self.seconds, 1) if self.seconds > 0 else None,
            "problems": list(self.problems),
            "rejections": [
                {"source": r.source, "position": r.position, "message": r.message}
                for r in self.rejections[:max_rejections]
            ],
        }


class _Batch:
    __slots__ = ("raws", "key_list", "seqs", "keys")

    def __init__(self) -> None:
        self.raws: list[RawHand] = []
        self.key_list: list[str] = []
        self.seqs: list[int] = []
        self.keys: set[str] = set()

    def __len__(self) -> int:
        return len(self.raws)


class HandDB:
    """An open hand database (a DuckDB file, created with its schema on first use)."""

    def __init__(
        self,
        *,
        path: str | Path | None = None,
        read_only: bool = False,
        threads: int | None = None,
    ) -> None:
        import duckdb

        self.path = Path(path) if path is not None else default_db_path()
        if self.path.name in ("", ".", "..") or self.path.is_dir():
            raise HandHistoryError(f"hand database {str(path)!r} is not a file name (an empty "
                                   "path or a folder); give a file such as hands.duckdb")
        if read_only and not self.path.exists():
            raise HandHistoryError(f"no hand database at {str(self.path)!r} (import hands first)")
        if path is None:  # pokerlab's own data folder: created on first use
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif not self.path.parent.is_dir():  # a folder the user named: never created for them
            raise HandHistoryError(f"hand database {str(self.path)!r}: folder "
                                   f"{str(self.path.parent)!r} does not exist (create it first)")
        try:
            self.con = duckdb.connect(str(self.path), read_only=read_only)
        except duckdb.Error as exc:
            raise HandHistoryError(f"cannot open hand database {str(self.path)!r}: {exc}") from None
        if threads is not None:
            if threads < 1:
                raise HandHistoryError(f"threads = {threads} must be at least 1")
            self.query(f"SET threads = {int(threads)}")
        if not read_only:
            self.con.execute(SCHEMA).fetchall()
            self.query("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
        try:
            rows = self.query("SELECT value FROM meta WHERE key = 'schema_version'")
        except Exception:  # noqa: BLE001 - a DuckDB file that is not a hand database
            rows = []
        if rows != [(str(SCHEMA_VERSION),)]:
            self.con.close()
            found = rows[0][0] if rows else "none"
            raise HandHistoryError(
                f"{str(self.path)!r} is not a pokerlab hand database of schema version "
                f"{SCHEMA_VERSION} (found {found}); import into a new file"
            )

    def query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        """Run one SQL statement and return all its rows (DuckDB wants results consumed)."""
        return self.con.execute(sql, params or []).fetchall()

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> HandDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def count(self, table: str = "hands") -> int:
        if table not in ("hands", "hand_players", "actions"):
            raise HandHistoryError(f"unknown table {table!r}")
        return int(self.query(f"SELECT count(*) FROM {table}")[0][0])

    # -- import ------------------------------------------------------------------------

    def import_paths(
        self,
        paths: Iterable[str | Path],
        *,
        batch_size: int = BATCH_SIZE,
        progress: Callable[[int], None] | None = None,
        group: str | None = None,
        kernels: Any = None,
    ) -> ImportReport:
        """Import every hand-history file under ``paths`` (PHH, PokerStars text, ACPC logs).

        Missing paths and files without a recognisable hand are listed in
        ``ImportReport.problems``; the other paths are still imported.  ``group`` labels
        the newly stored hands (column ``hands.grp``).  ``kernels``: where the replay
        kernels run (see :meth:`import_hands`).
        """
        from pokerlab.hands.hand_files import iter_paths

        problems: list[str] = []
        rep = self.import_hands(
            iter_paths(paths, problems=problems),
            batch_size=batch_size,
            progress=progress,
            group=group,
            kernels=kernels,
        )
        rep.problems = problems
        return rep

    def import_hands(
        self,
        hands: Iterable[RawHand | Rejection],
        *,
        batch_size: int = BATCH_SIZE,
        progress: Callable[[int], None] | None = None,
        fast: bool = True,
        group: str | None = None,
        kernels: Any = None,
    ) -> ImportReport:
        """Replay, check and store hands; rejections are counted and listed, never fatal.

        ``fast=False`` replays every hand with the plain-Python reference instead of the
        numba batch kernel (same rows; for checking and debugging).  ``kernels``: ``None``
        runs the kernels in this process; a
        :class:`~pokerlab.hands.kernel_worker.KernelWorker` runs them in its child process,
        up to :data:`AHEAD` batches behind the reading (same rows).
        """
        t0 = time.perf_counter()
        rep = ImportReport()
        seq = int(self.query("SELECT coalesce(max(seq), 0) FROM hands")[0][0])
        batch = _Batch()
        # Pipeline: the main thread reads and replays batch k+1 while one writer thread
        # stores batch k (DuckDB works outside the GIL); at most one write in flight.
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="hands-db") as pool:
            pending: Future[tuple[int, int]] | None = None
            replays: deque[PendingReplay] = deque()

            def settle() -> None:
                nonlocal pending
                if pending is not None:
                    new, total = pending.result()
                    rep.stored += new
                    rep.duplicates += total - new
                    pending = None

            def store(pend: PendingReplay) -> None:
                nonlocal pending
                staged = self._columns(finish_replay(pend), rep, group=group)
                settle()
                pending = pool.submit(self._write, *staged)
                if progress is not None:
                    progress(rep.read)

            def flush(b: _Batch) -> None:
                nonlocal pending
                if not fast:
                    staged = self._columns(
                        replay_reference(b.raws, b.key_list, b.seqs), rep, group=group
                    )
                    settle()
                    pending = pool.submit(self._write, *staged)
                    if progress is not None:
                        progress(rep.read)
                    return
                replays.append(start_replay(b.raws, b.key_list, b.seqs, kernels))
                # store what the kernels have finished; wait only when AHEAD batches wait
                while replays and (len(replays) > AHEAD or replays[0].ready()):
                    store(replays.popleft())

            for item in hands:
                rep.read += 1
                if isinstance(item, Rejection):
                    rep.rejected += 1
                    rep.rejections.append(item)
                    continue
                key = item.key()
                if key in batch.keys:
                    rep.duplicates += 1
                    continue
                seq += 1
                batch.keys.add(key)
                batch.raws.append(item)
                batch.key_list.append(key)
                batch.seqs.append(seq)
                if len(batch) >= batch_size:
                    flush(batch)
                    batch = _Batch()
            if len(batch):
                flush(batch)
            finish = getattr(kernels, "finish", None)
            if finish is not None:
                finish()  # the worker may exit while the last batches are stored
            while replays:
                store(replays.popleft())
            settle()
        if progress is not None:
            progress(rep.read)
        order: dict[str, int] = {}
        for r in rep.rejections:
            order.setdefault(r.source, len(order))
        rep.rejections.sort(key=lambda r: (order[r.source], r.position))
        rep.seconds = time.perf_counter() - t0
        return rep

    def _columns(
        self,
        staged: tuple[
            dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray], list[Rejection]
        ],
        rep: ImportReport,
        *,
        group: str | None,
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray]]:
        """A replayed batch's staging columns, with the label and the copied columns
        (rejections go to ``rep``)."""
        stage_h, stage_p, stage_a, rejections = staged
        grp = np.empty(len(stage_h["hand_id"]), dtype=object)
        grp[:] = group
        stage_h["grp"] = grp
        rep.rejected += len(rejections)
        rep.rejections.extend(rejections)
        counts = stage_h["table_size"]
        for c in PLAYER_COPIES:
            stage_p[c] = np.repeat(stage_h[c], counts)
        return stage_h, stage_p, stage_a

    def _write(
        self,
        stage_h: dict[str, np.ndarray],
        stage_p: dict[str, np.ndarray],
        stage_a: dict[str, np.ndarray],
    ) -> tuple[int, int]:
        """Store staged columns in one transaction; returns (new hands, hands staged)."""
        con = self.con
        q = self.query
        total = len(stage_h["hand_id"])
        if total == 0:
            return 0, 0
        con.register("stage_hands", stage_h)
        con.register("stage_players", stage_p)
        con.register("stage_actions", stage_a)
        try:
            q("BEGIN TRANSACTION")
            q(
                "CREATE OR REPLACE TEMP TABLE new_ids AS SELECT hand_id FROM stage_hands s "
                "WHERE NOT EXISTS (SELECT 1 FROM hands h WHERE h.hand_id = s.hand_id)"
            )
            new = int(q("SELECT count(*) FROM new_ids")[0][0])
            # all new (the usual case): no filtering needed
            cond = "" if new == total else "WHERE hand_id IN (SELECT hand_id FROM new_ids)"
            q(f"INSERT INTO hands SELECT {HAND_SELECT} FROM stage_hands {cond}")
            q(f"INSERT INTO hand_players SELECT {PLAYER_SELECT} FROM stage_players {cond}")
            q(f"INSERT INTO actions SELECT {ACTION_SELECT} FROM stage_actions {cond}")
            q("COMMIT")
        except Exception:
            q("ROLLBACK")
            raise
        finally:
            con.unregister("stage_hands")
            con.unregister("stage_players")
            con.unregister("stage_actions")
        return new, total
