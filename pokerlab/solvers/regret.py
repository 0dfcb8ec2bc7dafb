"""Regret matching, the one copy every solver uses (CFR kernels, MCCFR, push/fold CFR+,
Deep CFR's advantage networks).

Regret matching (Hart & Mas-Colell 2000, as used by CFR, Zinkevich et al. 2007) turns
cumulative regrets into a strategy: each action's probability is its positive regret over
the sum of positive regrets; when no regret is positive the strategy is uniform.
Regret matching+ (Tammelin 2014) first floors the stored regrets at zero.
Deep CFR (Brown et al. 2019) matches on predicted advantages restricted to the legal
actions and, when none is positive, plays the legal action of highest advantage.

Numba kernels (called from other ``@njit`` code, or directly on numpy rows):

* :func:`regret_match_row` ``(regrets, base, n, out, o)`` -- ``out[o:o + n]`` from
  ``regrets[base:base + n]`` (``inline="always"``: the one loop that every kernel runs --
  the CFR, MCCFR, thesis, push/fold and restricted-response kernels)
* :func:`regret_matching` ``(regrets_row, out_row)`` -- :func:`regret_match_row` of a whole row
* :func:`regret_matching_plus` ``(regrets_row, out_row)`` -- floors ``regrets_row`` in place
* :func:`regret_matching_legal` ``(values_row, legal_row, out_row)`` -- Deep CFR's rule
* :func:`regret_matching_rows` ``(values, legal, out)`` -- row-wise ``regret_matching_legal``

The one discount schedule (Linear / Discounted CFR, Brown & Sandholm 2019):
:func:`discount_factor` ``(t, exponent)`` is ``t**e / (t**e + 1)``, the factor DCFR applies
to the sums accumulated up to iteration ``t`` (``e = alpha`` for positive regrets, ``beta``
for negative ones); ``e = 1`` gives Linear CFR's ``t / (t + 1)``.  The CFR kernels
(:mod:`pokerlab.solvers.cfr_kernels`), the subgame solver's DCFR and the blueprint's
periodic Linear CFR discount (:mod:`pokerlab.blueprint.mccfr_kernels`, with ``t`` counted
in discount periods) all use it; :func:`discount_factor_py` is its plain twin.

Plain-Python twins ``*_py`` take the same arguments (lists or arrays) and do the same
arithmetic in the same order, so results agree bit for bit (tests/test_regret.py).
:func:`regret_matching_np` is the vectorised numpy form for whole tables (one row per
information set).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def regret_match_row(regrets, base, n, out, o):  # type: ignore[no-untyped-def]  # pragma: no cover
    """``out[o + k]`` <- positive part of ``regrets[base + k]`` over the sum of the positive
    parts, ``k < n`` (uniform ``1 / n`` if none > 0).  The sum runs in index order in
    float64 (int32 / float32 tables are read exactly); callers need no slicing."""
    tot = 0.0
    for k in range(n):
        r = regrets[base + k]
        if r > 0.0:
            tot += r
    if tot > 0.0:
        for k in range(n):
            r = regrets[base + k]
            out[o + k] = r / tot if r > 0.0 else 0.0
    else:
        for k in range(n):
            out[o + k] = 1.0 / n


@njit(cache=True)
def regret_matching(regrets_row, out_row):  # type: ignore[no-untyped-def]  # pragma: no cover
    """``out_row`` <- positive part of ``regrets_row`` normalised (uniform if none > 0)."""
    regret_match_row(regrets_row, 0, regrets_row.shape[0], out_row, 0)


@njit(cache=True)
def regret_matching_plus(regrets_row, out_row):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Regret matching+: floor ``regrets_row`` at 0 in place, then :func:`regret_matching`."""
    for k in range(regrets_row.shape[0]):
        if regrets_row[k] < 0.0:
            regrets_row[k] = 0.0
    regret_matching(regrets_row, out_row)


@njit(cache=True)
def regret_matching_legal(values_row, legal_row, out_row):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Deep CFR's rule: positive legal values normalised; if none, the best legal action
    (first one on ties) gets probability 1.  Illegal actions get 0."""
    n = len(values_row)
    tot = 0.0
    for k in range(n):
        if legal_row[k] and values_row[k] > 0.0:
            tot += values_row[k]
    if tot > 0.0:
        for k in range(n):
            v = values_row[k]
            out_row[k] = v / tot if (legal_row[k] and v > 0.0) else 0.0
        return
    best = -1
    for k in range(n):
        out_row[k] = 0.0
        if legal_row[k] and (best < 0 or values_row[k] > values_row[best]):
            best = k
    if best >= 0:
        out_row[best] = 1.0


@njit(cache=True)
def regret_matching_rows(values, legal, out):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Row-wise :func:`regret_matching_legal` over ``(n, num_actions)`` arrays."""
    for i in range(values.shape[0]):
        regret_matching_legal(values[i], legal[i], out[i])


@njit(cache=True, inline="always")
def discount_factor(t, exponent):  # type: ignore[no-untyped-def]  # pragma: no cover
    """``t**exponent / (t**exponent + 1)`` in float64: the Linear / Discounted CFR weight of
    the sums accumulated up to iteration ``t`` (``exponent = 1``: Linear CFR)."""
    x = np.float64(t) ** exponent
    return x / (x + 1.0)


# ------------------------------------------------------------------- plain-Python twins


def discount_factor_py(t: float, exponent: float) -> float:
    """Plain twin of :func:`discount_factor`."""
    x = float(t) ** float(exponent)
    return x / (x + 1.0)


def regret_match_row_py(regrets: Sequence[float] | np.ndarray, base: int, n: int,
                        out: MutableSequence[float] | np.ndarray, o: int) -> Any:
    """Twin of :func:`regret_match_row`; returns ``out``.  Values are read as Python
    floats (exact for int32 / float32 / float64 tables), so the sum is float64."""
    tot = 0.0
    for k in range(n):
        r = float(regrets[base + k])
        if r > 0.0:
            tot += r
    if tot > 0.0:
        for k in range(n):
            r = float(regrets[base + k])
            out[o + k] = r / tot if r > 0.0 else 0.0
    else:
        for k in range(n):
            out[o + k] = 1.0 / n
    return out


def regret_matching_py(regrets_row: Sequence[float] | np.ndarray,
                       out_row: MutableSequence[float] | np.ndarray) -> Any:
    """Twin of :func:`regret_matching`; returns ``out_row`` (a list or an array)."""
    return regret_match_row_py(regrets_row, 0, len(regrets_row), out_row, 0)


def regret_matching_plus_py(regrets_row: MutableSequence[float] | np.ndarray,
                            out_row: MutableSequence[float] | np.ndarray) -> Any:
    """Twin of :func:`regret_matching_plus`."""
    for k in range(len(regrets_row)):
        if regrets_row[k] < 0.0:
            regrets_row[k] = 0.0
    return regret_matching_py(regrets_row, out_row)


def regret_matching_legal_py(values_row: Sequence[float] | np.ndarray,
                             legal_row: Sequence[bool] | np.ndarray,
                             out_row: MutableSequence[float] | np.ndarray) -> Any:
    """Twin of :func:`regret_matching_legal`: its very source run by the interpreter (numba's
    ``py_func``; it takes lists too), so the parity test checks the compiled arithmetic."""
    regret_matching_legal.py_func(values_row, legal_row, out_row)
    return out_row


def regret_matching_rows_py(values: np.ndarray, legal: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Twin of :func:`regret_matching_rows`."""
    for i in range(values.shape[0]):
        regret_matching_legal_py(values[i], legal[i], out[i])
    return out


def regret_matching_np(regrets: np.ndarray) -> np.ndarray:
    """Row-wise regret matching of a 2-D table (vectorised numpy, float64): each row's
    positive part over its sum, uniform where no entry is positive."""
    pos = np.maximum(regrets, 0.0)
    ps = pos.sum(axis=1, keepdims=True)
    return np.where(ps > 0, pos / np.where(ps > 0, ps, 1.0), 1.0 / regrets.shape[1])


def legal_strategy(values: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Deep CFR strategy for one row or a batch ``(n, A)``: float64 in, float32 out."""
    v = np.ascontiguousarray(values, dtype=np.float64)
    m = np.ascontiguousarray(legal, dtype=np.bool_)
    if v.shape != m.shape:
        raise ValueError(f"values {v.shape} and legal mask {m.shape} differ in shape")
    out = np.empty_like(v)
    if v.ndim == 1:
        regret_matching_legal(v, m, out)
    else:
        regret_matching_rows(v.reshape(-1, v.shape[-1]), m.reshape(-1, v.shape[-1]),
                             out.reshape(-1, v.shape[-1]))
    return out.astype(np.float32)


__all__ = [
    "NO_RC",
    "VEC_FLAGS",
    "legal_strategy",
    "regret_match_row",
    "regret_match_row_py",
    "regret_matching",
    "regret_matching_legal",
    "regret_matching_legal_py",
    "regret_matching_np",
    "regret_matching_plus",
    "regret_matching_plus_py",
    "regret_matching_py",
    "regret_matching_rows",
    "regret_matching_rows_py",
]


# ------------------------------------------------ column form (range-vectorised solvers)
NO_RC: dict[str, Any] = {"_nrt": False}
"""numba options of kernels that allocate nothing: compiled without reference counting, so
views of arrays shared between threads cost no atomic counter updates."""

VEC_FLAGS = {"nnan", "ninf", "nsz"}
"""numba ``fastmath`` flags of the loops over hands (no NaN, no infinity, no signed zero):
they let LLVM turn the loops' selects into vector min/max and vectorise them, and change no
value (no reassociation, no contraction, no approximate division)."""


@njit(cache=True, fastmath=VEC_FLAGS, **NO_RC)
def regret_match_columns(regrets, base, k, n, out, tot):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Regret matching of ``n`` hands at once over an action-major block: column ``h`` of
    ``regrets[base + a * n + h]`` (``a < k``) into ``out[a * n + h]``; ``tot`` is scratch of
    ``n``.  The rule of :func:`regret_match_row` per hand (positive regrets summed in action
    order, in the dtype of ``tot``), with one division per hand: each positive regret is
    multiplied by the sum's reciprocal (a sum below ``1e-30``, which only float32 underflow
    reaches, counts as none: uniform).  The inner loops run over hands on contiguous views,
    so that they vectorise (what the subgame solver's vectors need)."""
    t = tot[:n]
    for h in range(n):
        t[h] = 0.0
    for a in range(k):
        r = regrets[base + a * n:base + a * n + n]
        for h in range(n):
            x = r[h]
            t[h] += x if x > 0.0 else 0.0
    for h in range(n):
        s = t[h]
        t[h] = 1.0 / s if s > 1e-30 else 0.0
    uni = 1.0 / k
    for a in range(k):
        r = regrets[base + a * n:base + a * n + n]
        o = out[a * n:a * n + n]
        for h in range(n):
            x = r[h]
            v = t[h]
            o[h] = (x * v if x > 0.0 else 0.0) if v > 0.0 else uni


def regret_match_columns_py(regrets: np.ndarray, base: int, k: int, n: int, out: np.ndarray,
                            tot: np.ndarray) -> None:
    """Plain-Python twin of :func:`regret_match_columns` (the same arithmetic per hand, in
    the dtype of ``tot``)."""
    f = tot.dtype.type
    for h in range(n):
        s = f(0.0)
        for a in range(k):
            x = f(regrets[base + a * n + h])
            if x > 0.0:
                s = s + x
        inv = f(1.0) / s if s > 1e-30 else f(0.0)
        for a in range(k):
            x = f(regrets[base + a * n + h])
            out[a * n + h] = (x * inv if x > 0.0 else 0.0) if inv > 0.0 else 1.0 / k
