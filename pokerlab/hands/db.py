"""The hand database: an embedded DuckDB file with the tables ``hands``, ``hand_players``
and ``actions`` (schema documented in ``docs/hands.md``), and the bulk importer.

Import is batched: hands are parsed in Python (:mod:`pokerlab.hands.phh`), replayed a
batch at a time by a numba kernel (:mod:`pokerlab.hands.fastimport`, with the reference
:func:`~pokerlab.hands.replay.replay` for the hands the kernel leaves to it), and each
batch goes into DuckDB in one statement per table from numpy arrays (no row-by-row
inserts).  The key of a hand is a hash of its game facts
(:meth:`RawHand.key`), so importing the same hand twice stores it once.  A hand that
cannot be read or is not a legal hand is reported (file, position, reason) and skipped;
the others are kept.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import HandHistoryError
from pokerlab.hands.model import RawHand, Rejection
from pokerlab.hands.replay import ACTION_COLUMNS, NULL_INT, PLAYER_COLUMNS, replay

SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS hands (
    hand_id VARCHAR PRIMARY KEY,   -- hash of the hand's game facts (RawHand.key)
    seq BIGINT NOT NULL,           -- import order (1, 2, ...): orders "winnings over hands"
    source VARCHAR NOT NULL,       -- file it was read from
    source_index INTEGER NOT NULL, -- 0-based index of the hand in that file
    variant VARCHAR NOT NULL,      -- PHH variant code ('NT' = no-limit hold'em)
    table_size TINYINT NOT NULL,   -- players dealt in (2..9)
    small_blind BIGINT NOT NULL,
    big_blind BIGINT NOT NULL,
    ante BIGINT NOT NULL,          -- largest ante (0: none)
    hand_name VARCHAR,             -- PHH 'hand' field (hand number at the site)
    table_name VARCHAR,
    venue VARCHAR,
    played_at TIMESTAMP,           -- from PHH year/month/day/time when present
    board VARCHAR NOT NULL,        -- e.g. 'Jc6h3s2dQs' ('' if no flop)
    pot BIGINT NOT NULL,           -- all chips put in (antes, blinds, bets; uncalled included)
    showdown BOOLEAN NOT NULL,     -- two or more players at the end
    preflop_aggressor TINYINT,     -- seat of the last preflop raiser (NULL: none)
    last_street TINYINT NOT NULL,  -- 0 preflop, 1 flop, 2 turn, 3 river (last board dealt)
    n_actions SMALLINT NOT NULL
);
CREATE TABLE IF NOT EXISTS hand_players (
    hand_id VARCHAR NOT NULL,
    seat TINYINT NOT NULL,         -- 0-based PHH order: SB, BB, ..., button last (HU: BB, BTN)
    player VARCHAR NOT NULL,
    position VARCHAR NOT NULL,     -- SB BB UTG ... CO BTN
    starting_stack BIGINT NOT NULL,
    finishing_stack DOUBLE,        -- NULL if unknown; may be fractional after a split pot
    net DOUBLE,                    -- finishing - starting (chips), NULL if unknown
    hole VARCHAR,                  -- e.g. 'AsKd', '????' or NULL when never dealt/shown
    blind BIGINT NOT NULL,         -- blind/straddle posted
    ante BIGINT NOT NULL,
    vpip BOOLEAN NOT NULL, pfr BOOLEAN NOT NULL,
    three_bet_opp BOOLEAN NOT NULL, three_bet BOOLEAN NOT NULL,
    saw_flop BOOLEAN NOT NULL, saw_turn BOOLEAN NOT NULL, saw_river BOOLEAN NOT NULL,
    wtsd BOOLEAN NOT NULL,         -- still in at a showdown
    won_sd BOOLEAN,                -- collected chips at that showdown (NULL: result unknown)
    allin BOOLEAN NOT NULL,        -- moved all-in by a call/bet/raise
    cbet_opp BOOLEAN NOT NULL, cbet BOOLEAN NOT NULL,
    fold_cbet_opp BOOLEAN NOT NULL, fold_cbet BOOLEAN NOT NULL,
    post_bets SMALLINT NOT NULL, post_raises SMALLINT NOT NULL, post_calls SMALLINT NOT NULL,
    post_checks SMALLINT NOT NULL, post_folds SMALLINT NOT NULL,
    put_preflop BIGINT NOT NULL, put_flop BIGINT NOT NULL,   -- chips put in per street
    put_turn BIGINT NOT NULL, put_river BIGINT NOT NULL,     -- (blinds count preflop, antes not)
    raise_n SMALLINT NOT NULL,     -- bets + raises on all streets
    raise_pot_sum DOUBLE NOT NULL, -- sum over them of raise size / pot (see docs)
    -- copies of hand columns, so that statistics need no join with hands:
    seq BIGINT NOT NULL, table_size TINYINT NOT NULL,
    small_blind BIGINT NOT NULL, big_blind BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    hand_id VARCHAR NOT NULL,
    idx SMALLINT NOT NULL,         -- order of the betting action in the hand
    street TINYINT NOT NULL,       -- 0 preflop .. 3 river
    seat TINYINT NOT NULL,
    kind VARCHAR NOT NULL,         -- f fold, x check, c call, b bet, r raise
    amount BIGINT NOT NULL,        -- chips added by this action
    to_amount BIGINT NOT NULL,     -- player's total bet on this street after it
    pot_before BIGINT NOT NULL,    -- all chips in the middle before it (current street too)
    to_call BIGINT NOT NULL,       -- chips needed to call before it
    facing BIGINT NOT NULL,        -- highest bet on this street before it
    level TINYINT NOT NULL,        -- bets/raises on this street before it (blinds excluded)
    allin BOOLEAN NOT NULL,        -- this action put the player all-in
    cbet BOOLEAN NOT NULL          -- a flop continuation bet
);
"""

# Columns of the staging arrays and how each goes into its table (NULL sentinels undone).
_HAND_STAGE = (
    "hand_id",
    "seq",
    "source",
    "source_index",
    "variant",
    "table_size",
    "small_blind",
    "big_blind",
    "ante",
    "hand_name",
    "table_name",
    "venue",
    "played_at",
    "board",
    "pot",
    "showdown",
    "preflop_aggressor",
    "last_street",
    "n_actions",
)
_HAND_SELECT = ", ".join(
    f"CASE WHEN played_at = {NULL_INT} THEN NULL ELSE make_timestamp(played_at) END"
    if c == "played_at"
    else "CASE WHEN preflop_aggressor < 0 THEN NULL ELSE preflop_aggressor END"
    if c == "preflop_aggressor"
    else c
    for c in _HAND_STAGE
)
_PLAYER_STAGE = ("hand_id", *PLAYER_COLUMNS)
_PLAYER_SELECT = ", ".join(
    f"CASE WHEN isnan({c}) THEN NULL ELSE {c} END"
    if c in ("finishing_stack", "net")
    else "CASE WHEN won_sd < 0 THEN NULL ELSE won_sd = 1 END"
    if c == "won_sd"
    else c
    for c in (*_PLAYER_STAGE, "seq", "table_size", "small_blind", "big_blind")
)
_ACTION_STAGE = ("hand_id", *ACTION_COLUMNS)

_INT_COLS = {
    "seq",
    "source_index",
    "table_size",
    "small_blind",
    "big_blind",
    "ante",
    "played_at",
    "pot",
    "preflop_aggressor",
    "last_street",
    "n_actions",
    "seat",
    "starting_stack",
    "blind",
    "post_bets",
    "post_raises",
    "post_calls",
    "post_checks",
    "post_folds",
    "put_preflop",
    "put_flop",
    "put_turn",
    "put_river",
    "raise_n",
    "won_sd",
    "idx",
    "street",
    "amount",
    "to_amount",
    "pot_before",
    "to_call",
    "facing",
    "level",
}
_FLOAT_COLS = {"finishing_stack", "net", "raise_pot_sum"}
_BOOL_COLS = {
    "showdown",
    "vpip",
    "pfr",
    "three_bet_opp",
    "three_bet",
    "saw_flop",
    "saw_turn",
    "saw_river",
    "wtsd",
    "allin",
    "cbet_opp",
    "cbet",
    "fold_cbet_opp",
    "fold_cbet",
}


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
    seconds: float = 0.0

    def to_json(self, *, max_rejections: int = 100) -> dict[str, Any]:
        return {
            "read": self.read,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "rejected": self.rejected,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.read / self.seconds, 1) if self.seconds > 0 else None,
            "rejections": [
                {"source": r.source, "position": r.position, "message": r.message}
                for r in self.rejections[:max_rejections]
            ],
        }


def _column(name: str, values: Iterable[Any]) -> np.ndarray:
    if name in _INT_COLS:
        return np.fromiter(values, dtype=np.int64)
    if name in _FLOAT_COLS:
        return np.fromiter(values, dtype=np.float64)
    if name in _BOOL_COLS:
        return np.fromiter(values, dtype=np.bool_)
    vals = list(values)
    arr = np.empty(len(vals), dtype=object)
    arr[:] = vals
    return arr


class _Batch:
    __slots__ = ("raws", "key_list", "seqs", "keys")

    def __init__(self) -> None:
        self.raws: list[RawHand] = []
        self.key_list: list[str] = []
        self.seqs: list[int] = []
        self.keys: set[str] = set()

    def __len__(self) -> int:
        return len(self.raws)


def _epoch_micros(t: dt.datetime | None) -> int:
    if t is None:
        return NULL_INT
    return int((t - dt.datetime(1970, 1, 1)).total_seconds() * 1_000_000)


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
        if read_only and not self.path.exists():
            raise HandHistoryError(f"no hand database at {str(self.path)!r} (import hands first)")
        self.path.parent.mkdir(parents=True, exist_ok=True)
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
        batch_size: int = 20_000,
        progress: Callable[[int], None] | None = None,
    ) -> ImportReport:
        """Import every hand-history file under ``paths`` (PHH and PokerStars text)."""
        from pokerlab.hands.phh import iter_paths

        return self.import_hands(iter_paths(paths), batch_size=batch_size, progress=progress)

    def import_hands(
        self,
        hands: Iterable[RawHand | Rejection],
        *,
        batch_size: int = 20_000,
        progress: Callable[[int], None] | None = None,
        fast: bool = True,
    ) -> ImportReport:
        """Replay, check and store hands; rejections are counted and listed, never fatal.

        ``fast=False`` replays every hand with the plain-Python reference instead of the
        numba batch kernel (same rows; for checking and debugging).
        """
        t0 = time.perf_counter()
        rep = ImportReport()
        seq = int(self.query("SELECT coalesce(max(seq), 0) FROM hands")[0][0])
        batch = _Batch()
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
                self._flush(batch, rep, fast=fast)
                if progress is not None:
                    progress(rep.read)
                batch = _Batch()
        if len(batch):
            self._flush(batch, rep, fast=fast)
        if progress is not None:
            progress(rep.read)
        order: dict[str, int] = {}
        for r in rep.rejections:
            order.setdefault(r.source, len(order))
        rep.rejections.sort(key=lambda r: (order[r.source], r.position))
        rep.seconds = time.perf_counter() - t0
        return rep

    def _stage(
        self, batch: _Batch, fast: bool
    ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray], list[Rejection]]:
        if fast:
            from pokerlab.hands.fastimport import replay_many

            return replay_many(batch.raws, batch.key_list, batch.seqs)
        from pokerlab.hands.fastimport import hand_row

        h_rows: list[tuple[Any, ...]] = []
        p_rows: list[tuple[Any, ...]] = []
        a_rows: list[tuple[Any, ...]] = []
        rejections: list[Rejection] = []
        for raw, key, seq in zip(batch.raws, batch.key_list, batch.seqs, strict=True):
            try:
                f = replay(raw)
            except HandHistoryError as exc:
                rejections.append(Rejection(source=raw.source, position=raw.position, message=str(exc)))
                continue
            h_rows.append(hand_row(raw, key, seq, f))
            p_rows.extend([(key, *p) for p in f.players])
            a_rows.extend([(key, *a) for a in f.actions])

        def cols(names: tuple[str, ...], rows: list[tuple[Any, ...]]) -> dict[str, np.ndarray]:
            if not rows:
                return {c: _column(c, []) for c in names}
            return {c: _column(c, v) for c, v in zip(names, zip(*rows, strict=True), strict=True)}

        return (
            cols(_HAND_STAGE, h_rows),
            cols(_PLAYER_STAGE, p_rows),
            cols(_ACTION_STAGE, a_rows),
            rejections,
        )

    def _flush(self, batch: _Batch, rep: ImportReport, *, fast: bool = True) -> None:
        con = self.con
        q = self.query
        stage_h, stage_p, stage_a, rejections = self._stage(batch, fast)
        rep.rejected += len(rejections)
        rep.rejections.extend(rejections)
        counts = stage_h["table_size"]
        for c in ("seq", "table_size", "small_blind", "big_blind"):
            stage_p[c] = np.repeat(stage_h[c], counts)
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
            cond = "" if new == len(counts) else "WHERE hand_id IN (SELECT hand_id FROM new_ids)"
            q(f"INSERT INTO hands SELECT {_HAND_SELECT} FROM stage_hands {cond}")
            q(f"INSERT INTO hand_players SELECT {_PLAYER_SELECT} FROM stage_players {cond}")
            q(f"INSERT INTO actions SELECT {', '.join(_ACTION_STAGE)} FROM stage_actions {cond}")
            q("COMMIT")
        except Exception:
            q("ROLLBACK")
            raise
        finally:
            con.unregister("stage_hands")
            con.unregister("stage_players")
            con.unregister("stage_actions")
        rep.stored += new
        rep.duplicates += len(stage_h["hand_id"]) - new
