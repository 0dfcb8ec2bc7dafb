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

STREETS = ("preflop", "flop", "turn", "river")
"""Street names of the per-street figures: ``think_ms_<street>_bin_K`` (and ``_count``,
``_sum``) summarize to ``think_ms_<street>_p50`` / ``_p99`` / ``_mean``."""


def street_prefix(street: int) -> str:
    """The bin prefix of ``street``'s think times (0 preflop .. 3 river)."""
    return f"think_ms_{STREETS[street]}_bin_"


def histogram(times_ms: Sequence[float] | np.ndarray, prefix: str = PREFIX) -> dict[str, int]:
    """Sparse bin counts of ``times_ms`` (keys ``prefix`` + bin)."""
    t = np.asarray(times_ms, dtype=np.float64)
    if t.size == 0:
        return {}
    k = np.floor(np.log(np.maximum(t, 1e-3)) / math.log(THINK_BIN)).astype(np.int64)
    bins, counts = np.unique(k, return_counts=True)
    return {f"{prefix}{b}": int(c) for b, c in zip(bins.tolist(), counts.tolist(), strict=True)}


def percentiles(counters: Mapping[str, Any], qs: Sequence[float] = (50.0, 99.0),
                prefix: str = PREFIX) -> list[float | None]:
    """Percentiles (ms) of a summed histogram (bins ``prefix`` + K): each at its bin's
    geometric middle."""
    bins = sorted((int(k[len(prefix):]), float(v)) for k, v in counters.items() if k.startswith(prefix))
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
    ``think_ms_mean`` when there are think times, and the same per street
    (``think_ms_flop_p50``, ...) for the streets that have them."""
    prefixes = [PREFIX] + [street_prefix(s) for s in range(len(STREETS))]
    out = {k: v for k, v in counters.items() if not any(k.startswith(p) for p in prefixes)}
    for prefix in prefixes:
        head = prefix[: -len("bin_")]
        n = float(counters.get(head + "count", 0) or 0)
        if n > 0:
            p50, p99 = percentiles(counters, prefix=prefix)
            out[head + "p50"] = p50
            out[head + "p99"] = p99
            out[head + "mean"] = float(counters.get(head + "sum", 0.0)) / n
    return out
