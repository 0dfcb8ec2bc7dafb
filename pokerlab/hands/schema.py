"""The hand database's columns, declared once.

Each table is a tuple of :class:`Column`: name, SQL type, numpy staging type, where the
value comes from, and how a staged value becomes the stored one (NULL sentinels).  From
it come the SQL schema (:data:`SCHEMA`), the staging column names and ``SELECT`` lists
of the bulk insert, the typed column sets, the rows the reference replay produces
(:data:`PLAYER_ROW`, :data:`ACTION_ROW`) and the column indices of the numba kernel's
output arrays (:func:`kernel_indices`).  ``tests/test_hands_schema.py`` checks the round
trip: the database DuckDB creates has exactly these columns and types.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

NULL_INT = -(2**62)
"""Stand-in for NULL in integer columns during bulk loading (turned into NULL in SQL)."""

SCHEMA_VERSION = 3


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    sql: str
    """SQL type, with ``NOT NULL`` where it applies."""
    dtype: str
    """Staging array type: ``i`` int64, ``f`` float64, ``b`` bool, ``o`` object."""
    doc: str
    origin: str = "row"
    """``row``: from the replay (kernel or reference); ``import``: set by the importer
    (ids, order, labels); ``copy``: copied from the hand's row (players only)."""
    select: str = ""
    """SQL expression that turns the staged value into the stored one ('' = the name)."""
    kernel: str = ""
    """Kernel output array holding it (``hint``, ``pint``, ``pbool``, ``pflt``, ``aint``)."""

    @property
    def stored(self) -> str:
        return self.select or self.name


def _c(name: str, sql: str, dtype: str, doc: str, **kw: str) -> Column:
    return Column(name, sql, dtype, doc, **kw)


def _null_if(cond: str, value: str) -> str:
    """The ``select`` of a column whose staged sentinel (``cond``) is stored as NULL."""
    return f"CASE WHEN {cond} THEN NULL ELSE {value} END"


HANDS: tuple[Column, ...] = (
    _c("hand_id", "VARCHAR PRIMARY KEY", "o", "hash of the hand's game facts (RawHand.key)", origin="import"),
    _c("seq", "BIGINT NOT NULL", "i", "import order (1, 2, ...)", origin="import"),
    _c("source", "VARCHAR NOT NULL", "o", "file it was read from", origin="import"),
    _c("source_index", "INTEGER NOT NULL", "i", "0-based index of the hand in that file", origin="import"),
    _c("variant", "VARCHAR NOT NULL", "o", "PHH variant code ('NT' = no-limit hold'em)", origin="import"),
    _c("table_size", "TINYINT NOT NULL", "i", "players dealt in (2..9)"),
    _c("small_blind", "BIGINT NOT NULL", "i", "in units", kernel="hint"),
    _c("big_blind", "BIGINT NOT NULL", "i", "in units", kernel="hint"),
    _c("ante", "BIGINT NOT NULL", "i", "largest ante (0: none)", kernel="hint"),
    _c("hand_name", "VARCHAR", "o", "PHH 'hand' field (hand number at the site)", origin="import"),
    _c("table_name", "VARCHAR", "o", "table name", origin="import"),
    _c("venue", "VARCHAR", "o", "site or event", origin="import"),
    _c("played_at", "TIMESTAMP", "i", "from PHH year/month/day/time when present",
       origin="import", select=_null_if(f"played_at = {NULL_INT}", "make_timestamp(played_at)")),
    _c("board", "VARCHAR NOT NULL", "o", "e.g. 'Jc6h3s2dQs' ('' if no flop)", origin="import"),
    _c("pot", "BIGINT NOT NULL", "i", "all put in (antes, blinds, bets; uncalled too)", kernel="hint"),
    _c("showdown", "BOOLEAN NOT NULL", "b", "two or more players at the end", kernel="hint"),
    _c("preflop_aggressor", "TINYINT", "i", "seat of the last preflop raiser (NULL: none)",
       select=_null_if("preflop_aggressor < 0", "preflop_aggressor"), kernel="hint"),
    _c("last_street", "TINYINT NOT NULL", "i", "0 preflop .. 3 river (last board dealt)", kernel="hint"),
    _c("n_actions", "SMALLINT NOT NULL", "i", "betting actions", kernel="hint"),
    _c("rake", "DOUBLE NOT NULL", "f", "taken from the pot (units): nets sum to -rake", kernel="hint"),
    _c("unit", "DOUBLE NOT NULL", "f", "money value of one amount unit (0.01: cents)", origin="import"),
    _c("currency", "VARCHAR", "o", "'USD', '$', ... (NULL: play chips / unknown)", origin="import"),
    _c("grp", "VARCHAR", "o", "label given at import (--group), NULL if none", origin="import"),
)

PLAYERS: tuple[Column, ...] = (
    _c("hand_id", "VARCHAR NOT NULL", "o", "the hand", origin="import"),
    _c("seat", "TINYINT NOT NULL", "i", "0-based PHH order: SB, BB, ..., button last (HU: BB, BTN)"),
    _c("player", "VARCHAR NOT NULL", "o", "name"),
    _c("position", "VARCHAR NOT NULL", "o", "SB BB UTG ... CO BTN"),
    _c("starting_stack", "BIGINT NOT NULL", "i", "units", kernel="pint"),
    _c("finishing_stack", "DOUBLE", "f", "NULL if unknown; may be fractional after a split pot",
       select=_null_if("isnan(finishing_stack)", "finishing_stack"), kernel="pflt"),
    _c("net", "DOUBLE", "f", "finishing - starting (units), NULL if unknown",
       select=_null_if("isnan(net)", "net"), kernel="pflt"),
    _c("hole", "VARCHAR", "o", "e.g. 'AsKd', '????' or NULL when never dealt/shown"),
    _c("blind", "BIGINT NOT NULL", "i", "blind/straddle posted", kernel="pint"),
    _c("ante", "BIGINT NOT NULL", "i", "ante posted", kernel="pint"),
    _c("vpip", "BOOLEAN NOT NULL", "b", "called or raised preflop", kernel="pbool"),
    _c("pfr", "BOOLEAN NOT NULL", "b", "raised preflop", kernel="pbool"),
    _c("three_bet_opp", "BOOLEAN NOT NULL", "b", "faced one preflop raise", kernel="pbool"),
    _c("three_bet", "BOOLEAN NOT NULL", "b", "re-raised it", kernel="pbool"),
    _c("saw_flop", "BOOLEAN NOT NULL", "b", "in at the flop", kernel="pbool"),
    _c("saw_turn", "BOOLEAN NOT NULL", "b", "in at the turn", kernel="pbool"),
    _c("saw_river", "BOOLEAN NOT NULL", "b", "in at the river", kernel="pbool"),
    _c("wtsd", "BOOLEAN NOT NULL", "b", "still in at a showdown", kernel="pbool"),
    _c("won_sd", "BOOLEAN", "i", "collected chips at that showdown (NULL: result unknown)",
       select=_null_if("won_sd < 0", "won_sd = 1"), kernel="pint"),
    _c("allin", "BOOLEAN NOT NULL", "b", "moved all-in by a call/bet/raise", kernel="pbool"),
    _c("cbet_opp", "BOOLEAN NOT NULL", "b", "could c-bet the flop", kernel="pbool"),
    _c("cbet", "BOOLEAN NOT NULL", "b", "c-bet the flop", kernel="pbool"),
    _c("fold_cbet_opp", "BOOLEAN NOT NULL", "b", "faced a flop c-bet", kernel="pbool"),
    _c("fold_cbet", "BOOLEAN NOT NULL", "b", "folded to it", kernel="pbool"),
    _c("post_bets", "SMALLINT NOT NULL", "i", "postflop bets", kernel="pint"),
    _c("post_raises", "SMALLINT NOT NULL", "i", "postflop raises", kernel="pint"),
    _c("post_calls", "SMALLINT NOT NULL", "i", "postflop calls", kernel="pint"),
    _c("post_checks", "SMALLINT NOT NULL", "i", "postflop checks", kernel="pint"),
    _c("post_folds", "SMALLINT NOT NULL", "i", "postflop folds", kernel="pint"),
    _c("put_preflop", "BIGINT NOT NULL", "i", "put in preflop (blinds count, antes not)", kernel="pint"),
    _c("put_flop", "BIGINT NOT NULL", "i", "units put in on the flop", kernel="pint"),
    _c("put_turn", "BIGINT NOT NULL", "i", "units put in on the turn", kernel="pint"),
    _c("put_river", "BIGINT NOT NULL", "i", "units put in on the river", kernel="pint"),
    _c("raise_n", "SMALLINT NOT NULL", "i", "bets + raises on all streets", kernel="pint"),
    _c("raise_pot_sum", "DOUBLE NOT NULL", "f", "sum of raise size / pot (see docs)", kernel="pflt"),
    _c("seq", "BIGINT NOT NULL", "i", "copy of hands.seq", origin="copy"),
    _c("table_size", "TINYINT NOT NULL", "i", "copy of hands.table_size", origin="copy"),
    _c("small_blind", "BIGINT NOT NULL", "i", "copy of hands.small_blind", origin="copy"),
    _c("big_blind", "BIGINT NOT NULL", "i", "copy of hands.big_blind", origin="copy"),
)

ACTIONS: tuple[Column, ...] = (
    _c("hand_id", "VARCHAR NOT NULL", "o", "the hand", origin="import"),
    _c("idx", "SMALLINT NOT NULL", "i", "order of the betting action in the hand", kernel="aint"),
    _c("street", "TINYINT NOT NULL", "i", "0 preflop .. 3 river", kernel="aint"),
    _c("seat", "TINYINT NOT NULL", "i", "actor", kernel="aint"),
    _c("kind", "VARCHAR NOT NULL", "o", "f fold, x check, c call, b bet, r raise"),
    _c("amount", "BIGINT NOT NULL", "i", "units added by this action", kernel="aint"),
    _c("to_amount", "BIGINT NOT NULL", "i", "player's total bet on this street after it", kernel="aint"),
    _c("pot_before", "BIGINT NOT NULL", "i", "all units in the middle before it", kernel="aint"),
    _c("to_call", "BIGINT NOT NULL", "i", "units needed to call before it", kernel="aint"),
    _c("facing", "BIGINT NOT NULL", "i", "highest bet on this street before it", kernel="aint"),
    _c("level", "TINYINT NOT NULL", "i", "bets/raises on this street before it", kernel="aint"),
    _c("allin", "BOOLEAN NOT NULL", "b", "this action put the player all-in", kernel="aint"),
    _c("cbet", "BOOLEAN NOT NULL", "b", "a flop continuation bet", kernel="aint"),
)

TABLES: dict[str, tuple[Column, ...]] = {"hands": HANDS, "hand_players": PLAYERS, "actions": ACTIONS}

# Kernel-only columns (not stored as such): status, swap flag, hole cards.
_KERNEL_EXTRA = {
    "hint": ("status", "swap"),
    "pint": ("c1", "c2"),
    "pbool": (),
    "pflt": (),
    "aint": ("kind",),
}


def kernel_indices(array: str) -> dict[str, int]:
    """Column indices of one kernel output array: extras first, then the table's columns."""
    names: list[str] = list(_KERNEL_EXTRA[array])
    for cols in TABLES.values():
        names.extend(c.name for c in cols if c.kernel == array and c.name not in names)
    return {n: k for k, n in enumerate(names)}


def _create(table: str, cols: tuple[Column, ...]) -> str:
    body = ",\n".join(f"    {c.name} {c.sql}" for c in cols)
    return f"CREATE TABLE IF NOT EXISTS {table} (\n{body}\n);"


SCHEMA = "\n".join(
    [
        "CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);",
        *(_create(t, cols) for t, cols in TABLES.items()),
    ]
)
"""The SQL that creates the database."""

HAND_STAGE = tuple(c.name for c in HANDS)
"""Staged hand columns, in table order."""
PLAYER_ROW = tuple(c.name for c in PLAYERS if c.origin == "row")
"""One player row of the reference replay (:class:`pokerlab.hands.replay.HandFacts`)."""
PLAYER_STAGE = ("hand_id", *PLAYER_ROW)
"""Staged player columns (the ``copy`` columns are filled from the hands at insert)."""
PLAYER_COPIES = tuple(c.name for c in PLAYERS if c.origin == "copy")
ACTION_ROW = tuple(c.name for c in ACTIONS if c.origin == "row")
"""One action row of the reference replay."""
ACTION_STAGE = ("hand_id", *ACTION_ROW)
HAND_ROW_FROM_REPLAY = tuple(c.name for c in HANDS if c.origin == "row")

INT_COLS = frozenset(c.name for cols in TABLES.values() for c in cols if c.dtype == "i")
FLOAT_COLS = frozenset(c.name for cols in TABLES.values() for c in cols if c.dtype == "f")
BOOL_COLS = frozenset(c.name for cols in TABLES.values() for c in cols if c.dtype == "b")


def select_list(cols: tuple[Column, ...]) -> str:
    """The ``SELECT`` list that turns staged columns into stored ones."""
    return ", ".join(c.stored for c in cols)


HAND_SELECT = select_list(HANDS)
PLAYER_SELECT = select_list(PLAYERS)
ACTION_SELECT = select_list(ACTIONS)


def column_array(name: str, values: Iterable[Any]) -> np.ndarray:
    """A staging array for column ``name`` (its numpy type from the table)."""
    if name in INT_COLS:
        return np.fromiter(values, dtype=np.int64)
    if name in FLOAT_COLS:
        return np.fromiter(values, dtype=np.float64)
    if name in BOOL_COLS:
        return np.fromiter(values, dtype=np.bool_)
    vals = list(values)
    arr = np.empty(len(vals), dtype=object)
    arr[:] = vals
    return arr


def epoch_micros(t: dt.datetime | None) -> int:
    """A timestamp as staged (microseconds since 1970; :data:`NULL_INT` for none)."""
    if t is None:
        return NULL_INT
    return int((t - dt.datetime(1970, 1, 1)).total_seconds() * 1_000_000)


REVIEW_SQL = """CREATE TABLE IF NOT EXISTS review_decisions (
    hand_id VARCHAR NOT NULL, hero VARCHAR NOT NULL, decision INTEGER NOT NULL,
    hand VARCHAR, street VARCHAR, situation VARCHAR, board VARCHAR, cards VARCHAR,
    action VARCHAR, best_action VARCHAR, ev_loss_bb DOUBLE, ev_loss_pct_pot DOUBLE,
    pot_bb DOUBLE, mix VARCHAR,
    PRIMARY KEY (hand_id, hero, decision)
);"""
"""Hand review (``pokerlab review --db``): one row per scored postflop decision of a hero,
next to the hand (``hand_id`` = ``hands.hand_id``); ``mix`` is the solution's strategy for
the hero's hand as JSON (action -> probability).  Created on first use, outside
:data:`TABLES` (the import pipeline does not write it)."""
