"""The project's random numbers: SplitMix64 and xorshift64*, numba kernels and plain twins.

One module for every seeded stream, so a Python path and a numba kernel fed the same seed
draw the same numbers (the parity tests of the engine, the matches and the solvers rely on
it).  A base layer: it imports only numpy and numba.

**SplitMix64** (Steele, Lea & Flood 2014; the reference ``splitmix64.c`` of Vigna): the
state advances by the golden-ratio constant and each output is the state through the
:func:`mix64` finalizer.  Used for dealing, the random and policy agents, match seeds and
the thesis kernels.

**xorshift64*** (Marsaglia 2003, Vigna 2016: ``x ^= x >> 12; x ^= x << 25; x ^= x >> 27``,
output ``x * 0x2545F4914F6CDD1D``): the MCCFR blueprint's stream (its state is part of a
checkpoint).

A float in [0, 1) is always the top 53 bits of an output times ``2**-53``
(:func:`to_unit`).

Plain Python (integers; ``state`` an int):

* :func:`mix64` ``(z) -> int``; :func:`splitmix64_next` ``(state) -> (state, value)``;
  :func:`to_unit` ``(value) -> float``;
* :class:`SplitMix64` ``(seed)`` with ``next()``, ``below(n)``, ``uniform()``;
* :func:`stream_seed` ``(seed, index, stream=0)``: a 63-bit seed for item ``index`` of
  stream ``stream`` (independent of the order items are drawn in);
* :func:`event_value` / :func:`event_unit` ``(seed, index)``: a draw per event of a hand;
* :func:`splitmix_seed` ``(seed)``: the ``seed + 1``-th output of ``SplitMix64(0)``;
* :func:`xorshift64star_next` ``(x) -> (x, value)``; :class:`XorShift64Star`;
* :func:`pick` ``(pairs, u)``, :func:`sample_categorical_py` ``(probs, base, n, u)`` and
  :func:`sample_positive` ``(probs, u)``: categorical draws from a uniform ``u``.

Numba (``@njit(inline="always")``, callable from other kernels; a stream is a uint64 array
whose element 0 is the state): :func:`mix64_nb`, :func:`splitmix64_nb` ``(rs) -> uint64``,
:func:`below_nb` ``(rs, n) -> int64``, :func:`uniform01_nb` ``(rs) -> float64``,
:func:`stream_seed_nb`, :func:`event_unit_nb`, :func:`xorshift64star_nb`, :func:`xorshift64star_uniform_nb`,
:func:`sample_categorical` ``(probs, base, n, u) -> int64`` (the one categorical sampler of
the kernels: ``u < running sum``, float64 accumulation in index order).
``tests/test_rng.py`` checks each against its twin bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
from numba import njit

MASK64 = (1 << 64) - 1
LOW63 = (1 << 63) - 1
GOLDEN = 0x9E3779B97F4A7C15
"""SplitMix64's increment (2**64 / golden ratio), also the seed multiplier of the mixers."""
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB
C_INDEX = 0xD1B54A32D192ED03
C_STREAM = 0x8CB92BA72F3D8DD7
C_EVENT = 0xC2B2AE3D27D4EB4F
"""The event-index multiplier of :func:`event_unit`."""
XS_MULT = 0x2545F4914F6CDD1D
INV53 = 1.0 / 9007199254740992.0
"""``2**-53``: a 53-bit integer times this is a float in [0, 1), exactly."""

_GOLDEN = np.uint64(GOLDEN)
_MUL1 = np.uint64(MUL1)
_MUL2 = np.uint64(MUL2)
_C_INDEX = np.uint64(C_INDEX)
_C_STREAM = np.uint64(C_STREAM)
_C_EVENT = np.uint64(C_EVENT)
_LOW63 = np.uint64(LOW63)
_XS_MULT = np.uint64(XS_MULT)
_S11 = np.uint64(11)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)


# ------------------------------------------------------------------------ plain Python
def mix64(z: int) -> int:
    """SplitMix64's output finalizer of a 64-bit integer."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * MUL1) & MASK64
    z = ((z ^ (z >> 27)) * MUL2) & MASK64
    return z ^ (z >> 31)


def splitmix64_next(state: int) -> tuple[int, int]:
    """One SplitMix64 step: ``(new state, output)``."""
    state = (int(state) + GOLDEN) & MASK64
    return state, mix64(state)


def to_unit(value: int) -> float:
    """A float in [0, 1) from the top 53 bits of a 64-bit output."""
    return float(value >> 11) * INV53


class SplitMix64:
    """SplitMix64 (Steele, Lea & Flood 2014): the same integer stream as :func:`splitmix64_nb`."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = int(seed) & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """An integer in ``[0, n)`` (``n >= 1``; modulo reduction, bias < 2**-50)."""
        return self.next() % n

    def uniform(self) -> float:
        """A float in [0, 1) (:func:`to_unit` of the next output)."""
        return to_unit(self.next())


def shuffled(n: int, seed: int, count: int | None = None) -> list[int]:
    """The first ``count`` (default all ``n``) of a uniform random permutation of
    ``0 .. n - 1``: a partial Fisher-Yates shuffle with ``SplitMix64(seed)``, position
    ``i`` swapped with one drawn from ``i .. n - 1``."""
    k = n if count is None else min(int(count), n)
    rng = SplitMix64(int(seed))
    idx = list(range(n))
    for i in range(k):
        j = i + rng.below(n - i)
        idx[i], idx[j] = idx[j], idx[i]
    return idx[:k]


T = TypeVar("T")


def pick(pairs: Sequence[tuple[T, float]], u: float) -> T:
    """The first item of ``(item, probability)`` pairs whose running probability sum
    exceeds ``u`` (a uniform draw in [0, 1), or in [0, total) for unnormalised weights);
    the last item when rounding leaves the sum at or below ``u``."""
    return pairs[sample_categorical_py([p for _, p in pairs], 0, len(pairs), u)][0]


def sample_categorical_py(probs: Sequence[float] | np.ndarray, base: int, n: int,
                          u: float) -> int:
    """Plain twin of :func:`sample_categorical`: the first ``k < n`` whose running sum of
    ``probs[base:base + n]`` (float64, index order) exceeds ``u`` (``u < sum``); ``n - 1``
    when rounding leaves the sum at or below ``u``."""
    acc = 0.0
    for k in range(n):
        acc += float(probs[base + k])
        if u < acc:
            return k
    return n - 1


def sample_positive(probs: Sequence[float] | np.ndarray, u: float) -> int:
    """The categorical draw of the tabular samplers (:mod:`pokerlab.solvers.mccfr`, Deep CFR's
    traversal): like :func:`sample_categorical_py` over the whole of ``probs`` but entries
    ``<= 0`` are passed over, and the fallback is the last positive entry (0 if none), so a
    zero-probability action is never drawn even when rounding leaves the sum below ``u``."""
    acc = 0.0
    last = 0
    for i, p in enumerate(probs):
        if p > 0.0:
            acc += float(p)
            last = i
            if u < acc:
                return i
    return last


def stream_seed(seed: int, index: int, stream: int = 0) -> int:
    """A 63-bit seed for item ``index`` of stream ``stream`` of a run seeded ``seed``:
    :func:`mix64` of ``seed * GOLDEN + (index + 1) * C_INDEX + stream * C_STREAM``."""
    return mix64(int(seed) * GOLDEN + (int(index) + 1) * C_INDEX
                 + int(stream) * C_STREAM) & LOW63


def event_value(seed: int, index: int) -> int:
    """The first output of ``SplitMix64(seed * GOLDEN + index * C_EVENT)``: a draw tied to
    event number ``index`` of a hand played with ``seed`` (the policy agent's randomised
    action translation), the same however often the hand is replayed."""
    return SplitMix64(int(seed) * GOLDEN + int(index) * C_EVENT).next()


def event_unit(seed: int, index: int) -> float:
    """:func:`to_unit` of :func:`event_value` (twin: :func:`event_unit_nb`)."""
    return to_unit(event_value(seed, index))


def splitmix_seed(seed: int) -> int:
    """:func:`mix64` of ``(seed + 1) * GOLDEN``: the ``seed + 1``-th output of
    ``SplitMix64(0)``, a well-mixed 64-bit state from a small seed."""
    return mix64(int(seed) * GOLDEN + GOLDEN)


def xorshift64star_next(x: int) -> tuple[int, int]:
    """One xorshift64* step: ``(new state, output)`` (the state must be non-zero)."""
    x ^= x >> 12
    x ^= (x << 25) & MASK64
    x ^= x >> 27
    return x, (x * XS_MULT) & MASK64


class XorShift64Star:
    """xorshift64*: the same stream as :func:`xorshift64star_nb` (``state`` an int or a
    uint64 array whose element 0 is the state; the array is not modified)."""

    __slots__ = ("x",)

    def __init__(self, state: int | np.ndarray) -> None:
        self.x = int(state[0]) if isinstance(state, np.ndarray) else int(state)

    def next(self) -> int:
        self.x, v = xorshift64star_next(self.x)
        return v

    def uniform(self) -> float:
        return to_unit(self.next())


# ------------------------------------------------------------------------------ numba
@njit(cache=True, inline="always")
def mix64_nb(z):  # type: ignore[no-untyped-def]
    """Twin of :func:`mix64` (``z`` uint64)."""
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def splitmix64_nb(rs):  # type: ignore[no-untyped-def]
    """SplitMix64 step on ``rs[0]`` (uint64): the next output (twin: ``SplitMix64.next``)."""
    rs[0] += _GOLDEN
    return mix64_nb(rs[0])


@njit(cache=True, inline="always")
def below_nb(rs, n):  # type: ignore[no-untyped-def]
    """Twin of ``SplitMix64.below``: an int64 in ``[0, n)``."""
    return np.int64(splitmix64_nb(rs) % np.uint64(n))


@njit(cache=True, inline="always")
def uniform01_nb(rs):  # type: ignore[no-untyped-def]
    """Twin of ``SplitMix64.uniform``: a float64 in [0, 1) from ``rs``."""
    return np.float64(splitmix64_nb(rs) >> _S11) * INV53


@njit(cache=True, inline="always")
def stream_seed_nb(seed, index, stream):  # type: ignore[no-untyped-def]
    """Twin of :func:`stream_seed` (uint64 arithmetic)."""
    z = (np.uint64(seed) * _GOLDEN + np.uint64(index + 1) * _C_INDEX
         + np.uint64(stream) * _C_STREAM)
    return mix64_nb(z) & _LOW63


@njit(cache=True, inline="always")
def event_unit_nb(seed, index):  # type: ignore[no-untyped-def]
    """Twin of :func:`event_unit` (``seed``, ``index`` non-negative int64)."""
    z = np.uint64(seed) * _GOLDEN + np.uint64(index) * _C_EVENT + _GOLDEN
    return np.float64(mix64_nb(z) >> _S11) * INV53


@njit(cache=True, inline="always")
def sample_categorical(probs, base, n, u):  # type: ignore[no-untyped-def]
    """The one categorical sampler of the kernels: the first ``k < n`` whose running sum of
    ``probs[base:base + n]`` (float64 accumulator, index order) exceeds the uniform draw
    ``u`` (``u < sum``); ``n - 1`` when rounding leaves the sum at or below ``u``.  Twin:
    :func:`sample_categorical_py`; ``base`` spares the callers a slice in their hot loops."""
    acc = 0.0
    for k in range(n):
        acc += probs[base + k]
        if u < acc:
            return k
    return n - 1


@njit(cache=True, inline="always")
def xorshift64star_nb(state):  # type: ignore[no-untyped-def]
    """xorshift64* step on ``state[0]`` (uint64, non-zero): the next output."""
    x = state[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    state[0] = x
    return x * _XS_MULT


@njit(cache=True, inline="always")
def xorshift64star_uniform_nb(state):  # type: ignore[no-untyped-def]
    """A float64 in [0, 1) from the next xorshift64* output (twin: ``XorShift64Star.uniform``)."""
    return np.float64(xorshift64star_nb(state) >> _S11) * INV53


__all__ = [
    "C_EVENT",
    "C_INDEX",
    "C_STREAM",
    "GOLDEN",
    "INV53",
    "LOW63",
    "MASK64",
    "MUL1",
    "MUL2",
    "XS_MULT",
    "SplitMix64",
    "XorShift64Star",
    "below_nb",
    "event_unit",
    "event_unit_nb",
    "event_value",
    "mix64",
    "mix64_nb",
    "pick",
    "sample_categorical",
    "sample_categorical_py",
    "sample_positive",
    "splitmix64_next",
    "splitmix64_nb",
    "splitmix_seed",
    "stream_seed",
    "stream_seed_nb",
    "to_unit",
    "uniform01_nb",
    "xorshift64star_next",
    "xorshift64star_nb",
    "xorshift64star_uniform_nb",
]
