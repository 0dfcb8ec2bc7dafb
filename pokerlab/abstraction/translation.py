"""Action translation: map an opponent's off-tree bet into the abstract bet set.

Bets are expressed as pot fractions: a bet of ``x`` means a raise increment of ``x`` times
the pot after calling (:func:`pot_fraction`).  Two mappings:

* **nearest** (what the thesis does): the tree size closest to ``x`` (absolute difference
  of pot fractions; a tie goes to the smaller size).  Deterministic and exploitable.
* **pseudo-harmonic** (Ganzfried & Sandholm 2013, "Action translation in extensive-form
  games with large action spaces: axioms, paradoxes, and the pseudo-harmonic mapping",
  IJCAI): for tree sizes ``A < B`` and ``A <= x <= B``, map ``x`` to ``A`` with probability

      f_A(x) = ((B - x) * (1 + A)) / ((B - A) * (1 + x))

  and to ``B`` otherwise.  ``f_A(A) = 1``, ``f_A(B) = 0`` and ``f_A`` falls strictly in
  between.  A bet below the smallest tree size maps to that size, a bet above the
  largest to the largest (both with probability 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from pokerlab.errors import BetSizeError

METHODS = ("nearest", "pseudo_harmonic")


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """Probability that a bet of ``x`` (pot fractions) maps to the smaller size ``a``."""
    for name, v in (("x", x), ("A", a), ("B", b)):
        if not math.isfinite(v) or v < 0:
            raise BetSizeError(f"pot fraction {name}={v!r} must be finite and >= 0")
    if not a < b:
        raise BetSizeError(f"need A < B, got A={a!r}, B={b!r}")
    if not a <= x <= b:
        raise BetSizeError(f"bet x={x!r} is outside [A, B] = [{a!r}, {b!r}]")
    return ((b - x) * (1.0 + a)) / ((b - a) * (1.0 + x))


def pot_fraction(*, raise_to: float, pot: float, current_bet: float, to_call: float) -> float:
    """A bet/raise as a pot fraction: ``(raise_to - current_bet) / (pot + to_call)``."""
    denom = pot + to_call
    if denom <= 0:
        raise BetSizeError(f"pot + to_call must be positive, got {denom!r}")
    if raise_to < current_bet:
        raise BetSizeError(f"raise to {raise_to!r} is below the current bet {current_bet!r}")
    return (raise_to - current_bet) / denom


def translation_probs(x: float, sizes: Sequence[float], *,
                      method: str = "pseudo_harmonic") -> list[tuple[int, float]]:
    """``(index into sizes, probability)`` pairs (probability > 0) for a bet of ``x``.

    ``sizes`` are the tree's pot fractions in any order (indices refer to that order).
    """
    if method not in METHODS:
        raise BetSizeError(f"unknown translation method {method!r}; expected one of {METHODS}")
    if not sizes:
        raise BetSizeError("cannot translate into an empty set of sizes")
    if not math.isfinite(x) or x < 0:
        raise BetSizeError(f"bet pot fraction {x!r} must be finite and >= 0")
    order = sorted(range(len(sizes)), key=lambda i: (sizes[i], i))
    vals = [float(sizes[i]) for i in order]
    if len(set(vals)) != len(vals):
        raise BetSizeError(f"tree sizes must be distinct, got {list(sizes)!r}")
    if x <= vals[0]:
        return [(order[0], 1.0)]
    if x >= vals[-1]:
        return [(order[-1], 1.0)]
    hi = int(np.searchsorted(np.asarray(vals), x, side="left"))
    lo = hi - 1
    if vals[hi] == x:
        return [(order[hi], 1.0)]
    a, b = vals[lo], vals[hi]
    if method == "nearest":
        return [(order[lo], 1.0)] if x - a <= b - x else [(order[hi], 1.0)]
    p = pseudo_harmonic(x, a, b)
    out = [(order[lo], p), (order[hi], 1.0 - p)]
    return [(i, q) for i, q in out if q > 0]


def translate(x: float, sizes: Sequence[float], *, method: str = "pseudo_harmonic",
              rng: np.random.Generator | None = None) -> int:
    """One index into ``sizes`` for a bet of ``x``, sampled with ``rng`` when randomised."""
    probs = translation_probs(x, sizes, method=method)
    if len(probs) == 1:
        return probs[0][0]
    if rng is None:
        raise BetSizeError("the pseudo-harmonic mapping is randomised: pass rng (seeded)")
    u = float(rng.random())
    return probs[0][0] if u < probs[0][1] else probs[1][0]
