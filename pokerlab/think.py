"""Think time of searching agents as counters a match can sum over worker processes.

A searching agent reports its per-decision think times (milliseconds) as a sparse
histogram of log-spaced bins (``think_ms_bin_K``: decisions whose time lies in
``[THINK_BIN**K, THINK_BIN**(K+1))``), plus ``think_ms_count`` and ``think_ms_sum``.  Sums of
these over chunks are the histogram of the whole match, from which :func:`percentiles`
reads the median and the 99th percentile (to within the bin width, 2%), and
:func:`summarize` turns a match's counters into ``think_ms_p50`` / ``think_ms_p99`` /
``think_ms_mean`` with the bins left out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

THINK_BIN = 1.02
"""Ratio between neighbouring bins (2%)."""

PREFIX = "think_ms_bin_"


def histogram(times_ms: Sequence[float] | np.ndarray) -> dict[str, int]:
    """Sparse bin counts of ``times_ms``."""
    t = np.asarray(times_ms, dtype=np.float64)
    if t.size == 0:
        return {}
    k = np.floor(np.log(np.maximum(t, 1e-3)) / math.log(THINK_BIN)).astype(np.int64)
    bins, counts = np.unique(k, return_counts=True)
    return {f"{PREFIX}{b}": int(c) for b, c in zip(bins.tolist(), counts.tolist(), strict=True)}


def percentiles(counters: Mapping[str, Any], qs: Sequence[float] = (50.0, 99.0)) -> list[float | None]:
    """Percentiles (ms) of a summed histogram: each at its bin's geometric middle."""
    bins = sorted((int(k[len(PREFIX):]), float(v)) for k, v in counters.items() if k.startswith(PREFIX))
    total = sum(c for _, c in bins)
    out: list[float | None] = []
    for q in qs:
        if total <= 0:
            out.append(None)
            continue
        need = q / 100.0 * total
        run = 0.0
        val = bins[-1][0]
        for b, c in bins:
            run += c
            if run >= need - 1e-9:
                val = b
                break
        out.append(float(THINK_BIN ** (val + 0.5)))
    return out


def summarize(counters: Mapping[str, Any]) -> dict[str, Any]:
    """``counters`` without the bins, plus ``think_ms_p50``, ``think_ms_p99`` and
    ``think_ms_mean`` when there are think times."""
    out = {k: v for k, v in counters.items() if not k.startswith(PREFIX)}
    n = float(counters.get("think_ms_count", 0) or 0)
    if n > 0:
        p50, p99 = percentiles(counters)
        out["think_ms_p50"] = p50
        out["think_ms_p99"] = p99
        out["think_ms_mean"] = float(counters.get("think_ms_sum", 0.0)) / n
    return out
