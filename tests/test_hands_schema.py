"""The declarative column table: the database DuckDB creates, the staging columns, the
reference replay's rows and the kernel's output indices all come from it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerlab.hands import HandDB, RawHand
from pokerlab.hands import replay_kernels as K
from pokerlab.hands.fastimport import replay_many, replay_reference
from pokerlab.hands.replay import ACTION_COLUMNS, PLAYER_COLUMNS
from pokerlab.hands.schema import (
    ACTION_STAGE,
    HAND_STAGE,
    PLAYER_STAGE,
    SCHEMA_VERSION,
    TABLES,
    kernel_indices,
)

_SQL_TYPE = {"VARCHAR": "VARCHAR", "BIGINT": "BIGINT", "INTEGER": "INTEGER", "TINYINT": "TINYINT",
             "SMALLINT": "SMALLINT", "DOUBLE": "DOUBLE", "BOOLEAN": "BOOLEAN",
             "TIMESTAMP": "TIMESTAMP"}


def test_database_matches_the_table(tmp_path: Path) -> None:
    with HandDB(path=tmp_path / "s.duckdb") as db:
        assert db.query("SELECT value FROM meta") == [(str(SCHEMA_VERSION),)]
        for table, cols in TABLES.items():
            got = [(r[0], r[1], r[2]) for r in db.query(f"DESCRIBE {table}")]
            want = [
                (c.name, _SQL_TYPE[c.sql.split()[0]], "NO" if "NOT NULL" in c.sql
                 or "PRIMARY KEY" in c.sql else "YES")
                for c in cols
            ]
            assert got == want, table


def test_kernel_indices_are_dense_and_used() -> None:
    for array in ("hint", "pint", "pbool", "pflt", "aint"):
        idx = kernel_indices(array)
        assert sorted(idx.values()) == list(range(len(idx)))
    assert K.N_PINT == len(kernel_indices("pint")) and K.N_HINT == len(kernel_indices("hint"))
    # the street puts are consecutive (the kernel indexes PI_PUT0 + street)
    pi = kernel_indices("pint")
    assert [pi[f"put_{s}"] for s in ("preflop", "flop", "turn", "river")] == [
        K.PI_PUT0 + k for k in range(4)
    ]


def test_staging_round_trip() -> None:
    h = RawHand(variant="NT", antes=[0, 0, 0], blinds_or_straddles=[1, 2, 0], min_bet=2,
                starting_stacks=[100, 100, 100], actions=["p3 cbr 6", "p1 f", "p2 f"])
    fast = replay_many([h], ["k"], [1])
    ref = replay_reference([h], ["k"], [1])
    for cols, names in zip(fast[:3], (HAND_STAGE, PLAYER_STAGE, ACTION_STAGE), strict=True):
        assert tuple(cols) == names
    assert PLAYER_STAGE == ("hand_id", *PLAYER_COLUMNS)
    assert ACTION_STAGE == ("hand_id", *ACTION_COLUMNS)
    for f_cols, r_cols in zip(fast[:3], ref[:3], strict=True):
        for name in f_cols:
            a, b = f_cols[name], r_cols[name]
            assert len(a) == len(b), name
            if a.dtype.kind == "f":
                assert np.allclose(a, b, equal_nan=True), name
            else:
                assert list(a) == list(b), name
