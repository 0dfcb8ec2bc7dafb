"""The one regret-matching module: numba kernels vs plain-Python twins, and its users."""

from __future__ import annotations

import numpy as np

from pokerlab.solvers.regret import (
    legal_strategy,
    regret_matching,
    regret_matching_legal,
    regret_matching_legal_py,
    regret_matching_plus,
    regret_matching_plus_py,
    regret_matching_py,
    regret_matching_rows,
    regret_matching_rows_py,
)


def _rows(seed: int, n: int = 300) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = int(rng.integers(1, 7))
        row = rng.normal(size=k)
        if rng.random() < 0.3:
            row = -np.abs(row)  # no positive regret: uniform / argmax fallback
        if rng.random() < 0.2:
            row[rng.integers(k)] = 0.0
        out.append(row)
    return out


def test_regret_matching_values() -> None:
    out = np.empty(3)
    regret_matching(np.array([1.0, -2.0, 3.0]), out)
    assert out.tolist() == [0.25, 0.0, 0.75]
    regret_matching(np.array([-1.0, 0.0, -3.0]), out)
    assert out.tolist() == [1 / 3, 1 / 3, 1 / 3]
    reg = np.array([2.0, -5.0])
    regret_matching_plus(reg, out[:2])
    assert reg.tolist() == [2.0, 0.0] and out[:2].tolist() == [1.0, 0.0]


def test_regret_matching_parity_bitwise() -> None:
    for row in _rows(1):
        a, b = np.empty_like(row), np.empty_like(row)
        regret_matching(row, a)
        regret_matching_py(row, b)
        assert np.array_equal(a, b)
        assert regret_matching_py(row.tolist(), [0.0] * len(row)) == b.tolist()
        r1, r2 = row.copy(), row.copy()
        regret_matching_plus(r1, a)
        regret_matching_plus_py(r2, b)
        assert np.array_equal(a, b) and np.array_equal(r1, r2)
        assert abs(a.sum() - 1.0) < 1e-12


def test_legal_parity_and_rules() -> None:
    rng = np.random.default_rng(2)
    for row in _rows(3):
        legal = rng.random(len(row)) < 0.7
        legal[rng.integers(len(row))] = True
        a, b = np.empty_like(row), np.empty_like(row)
        regret_matching_legal(row, legal, a)
        regret_matching_legal_py(row, legal, b)
        assert np.array_equal(a, b)
        assert abs(a.sum() - 1.0) < 1e-12 and not a[~legal].any()
    vals = np.array([[1.0, 3.0, 9.0], [-1.0, -3.0, 9.0], [-2.0, -1.0, -1.0]])
    mask = np.array([[True, True, False], [True, True, False], [True, True, True]])
    k, p = np.empty_like(vals), np.empty_like(vals)
    regret_matching_rows(vals, mask, k)
    regret_matching_rows_py(vals, mask, p)
    assert np.array_equal(k, p)
    assert k.tolist() == [[0.25, 0.75, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]  # first best
    assert legal_strategy(vals, mask).dtype == np.float32
    assert legal_strategy(vals[0], mask[0]).tolist() == [0.25, 0.75, 0.0]


def test_users_share_the_module() -> None:
    """CFR's kernel, its Python twin, MCCFR, push/fold CFR+ and Deep CFR all agree."""
    import inspect

    import pokerlab.deepcfr.traversal as dt
    import pokerlab.pushfold.pushfold_kernels as pk
    import pokerlab.solvers._reference as ref
    import pokerlab.solvers.cfr_kernels as ck
    import pokerlab.solvers.mccfr as mc

    for mod in (ck, ref, mc, pk, dt):
        assert "pokerlab.solvers.regret" in inspect.getsource(mod), mod.__name__
    assert mc._rm([1.0, -1.0, 3.0]) == [0.25, 0.0, 0.75]
    assert pk._rm_py(np.array([1.0, 3.0])) == 0.75
    assert dt.regret_matching(np.array([-1.0, -3.0, 9.0]),
                              np.array([True, True, False])).tolist() == [1.0, 0.0, 0.0]


def test_regret_match_row_offsets_and_table_dtypes() -> None:
    """The inlined row helper every kernel runs (MCCFR, thesis, CFR, restricted responses):
    offsets into a flat table, int32 / float32 / float64 tables, numba = Python twin."""
    from pokerlab.solvers.regret import regret_match_row, regret_match_row_py, regret_matching_np

    rng = np.random.default_rng(3)
    for dtype in (np.float64, np.float32, np.int32):
        table = (rng.normal(size=200) * 1000).astype(dtype)
        table[rng.random(200) < 0.2] = 0
        for _ in range(100):
            n = int(rng.integers(1, 7))
            base = int(rng.integers(0, 200 - n))
            o = int(rng.integers(0, 5))
            a, b = np.full(12, -1.0), np.full(12, -1.0)
            regret_match_row(table, base, n, a, o)
            regret_match_row_py(table, base, n, b, o)
            assert np.array_equal(a, b)
            assert (a[:o] == -1.0).all() and (a[o + n:] == -1.0).all()
            c = np.empty(n)
            regret_matching(table[base:base + n].astype(np.float64), c)
            assert np.array_equal(a[o:o + n], c)
    rows = rng.normal(size=(50, 4))
    rows[:10] = -np.abs(rows[:10])
    np_rows = regret_matching_np(rows)
    for i in range(50):
        assert np.allclose(np_rows[i], regret_matching_py(rows[i], [0.0] * 4), rtol=0, atol=1e-15)
