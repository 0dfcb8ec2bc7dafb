"""Lossless suit-isomorphism hand indexer per street (Waugh 2013).

Follows K. Waugh, "A fast and optimal hand isomorphism algorithm" (AAAI workshop 2013):
a hand is dealt in rounds (e.g. hole 2, board 3); cards within a round are a set, rounds
are ordered.  Two hands are isomorphic when a permutation of the suits maps
one onto the other.  The indexer maps every hand to a dense index in
``[0, number of isomorphism classes)`` and back to a canonical representative:

* Each suit's cards form a *suit history*: one rank set per round.  Its *shape* is the
  number of cards per round; within a shape the history has a mixed-radix index whose
  digit for a round is the colex rank of that round's rank set, expressed over the ranks
  not used by earlier rounds (Waugh's "shifted" rank sets).
* A hand is the multiset of its four suit histories.  Sorting the suits by (shape,
  history index) gives the canonical order; the sorted shapes are the hand's
  *configuration*.  Inside a configuration, each group of suits with equal shapes is a
  multiset of history indices, indexed with the combinatorial number system with
  repetition, and the groups combine by mixed radix; configurations are laid out one after
  the other (an offset table).

Per street the board is one round (:data:`STREET_ROUNDS`: hole 2 + board 0/3/4/5), which
gives 169 preflop, 1,286,792 flop, 13,960,050 turn and 123,156,254 river classes.  The
same code with ordered rounds ``(2, 3, 1, 1)`` reproduces Waugh's 55,190,538 turn and
2,428,287,420 river counts.

The hot paths are the numba kernels in :mod:`pokerlab.abstraction.indexer_kernels`;
:func:`index_py` / :func:`unindex_py` are the plain-Python twins (parity-tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from math import comb
from typing import Any

import numpy as np

from pokerlab.abstraction import indexer_kernels as K
from pokerlab.cards.cards import parse_cards
from pokerlab.errors import CardError, ConfigError

STREET_ROUNDS: dict[str, tuple[int, ...]] = {
    "preflop": (2,),
    "flop": (2, 3),
    "turn": (2, 4),
    "river": (2, 5),
}
"""Rounds per street: the board is one set (the order flop/turn/river is forgotten), which
gives the counts of the issue; ``HandIndexer(rounds=(2, 3, 1, 1))`` keeps the order
(Waugh's 55,190,538 turn and 2,428,287,420 river classes)."""
STREET_NAMES = ("preflop", "flop", "turn", "river")
KNOWN_SIZES = {"preflop": 169, "flop": 1_286_792, "turn": 13_960_050, "river": 123_156_254}

IndexerTables = tuple[Any, ...]


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _colex(mask: int) -> int:
    r, i = 0, 1
    for b in range(13):
        if mask >> b & 1:
            r += comb(b, i)
            i += 1
    return r


def _key4(a: int, b: int, c: int, d: int) -> int:
    return comb(a + 3, 4) + comb(b + 2, 3) + comb(c + 1, 2) + d


class HandIndexer:
    """Indexer for hands dealt in rounds of ``rounds`` cards (e.g. ``(2, 3, 1)`` = turn)."""

    def __init__(self, *, rounds: Sequence[int]) -> None:
        rs = tuple(int(r) for r in rounds)
        if not rs or any(r < 1 for r in rs) or sum(rs) > 13 or len(rs) > 8:
            raise ConfigError(f"bad indexer rounds {tuple(rounds)!r}")
        self.rounds = rs
        self.num_cards = sum(rs)
        nr = len(rs)
        radix = [1] * nr
        for k in range(1, nr):
            radix[k] = radix[k - 1] * (rs[k - 1] + 1)
        ns = radix[-1] * (rs[-1] + 1)
        counts = np.zeros((ns, nr), dtype=np.int64)
        size = np.zeros(ns, dtype=np.int64)
        for code in range(ns):
            x, used, sz = code, 0, 1
            for k in range(nr):
                c = x % (rs[k] + 1)
                x //= rs[k] + 1
                counts[code, k] = c
                sz *= comb(13 - used, c)
                used += c
            size[code] = sz
        self._shape_counts_py = [tuple(int(v) for v in row) for row in counts]
        self._shape_size_py = [int(v) for v in size]
        # configurations: 4 shape codes sorted descending whose counts sum to rs per round
        configs: list[tuple[int, int, int, int]] = []

        def rec(prefix: list[int], left: list[int], maxcode: int) -> None:
            if len(prefix) == 4:
                if all(v == 0 for v in left):
                    configs.append((prefix[0], prefix[1], prefix[2], prefix[3]))
                return
            for code in range(maxcode, -1, -1):
                cs = self._shape_counts_py[code]
                if all(cs[k] <= left[k] for k in range(nr)):
                    rec(prefix + [code], [left[k] - cs[k] for k in range(nr)], code)

        rec([], list(rs), ns - 1)
        configs.sort(key=lambda t: _key4(*t))
        key_to_config = -np.ones(comb(ns + 3, 4), dtype=np.int64)
        offsets = np.zeros(len(configs) + 1, dtype=np.int64)
        for i, cfg in enumerate(configs):
            key_to_config[_key4(*cfg)] = i
            offsets[i + 1] = offsets[i] + self._config_size(cfg)
        self.size = int(offsets[-1])
        self._configs = configs
        self._offsets_py = [int(v) for v in offsets]
        colex = np.array([_colex(m) for m in range(1 << 13)], dtype=np.int64)
        unrank = np.zeros((14, comb(13, 6)), dtype=np.int64)
        for m in range(1 << 13):
            unrank[_popcount(m), colex[m]] = m
        ncr = np.array([[comb(n, k) for k in range(14)] for n in range(14)], dtype=np.int64)
        self._colex_py = colex
        self._unrank_py = unrank
        self.tables: IndexerTables = (
            np.array(rs, dtype=np.int64), np.array(radix, dtype=np.int64), size, counts,
            key_to_config, offsets, np.array(configs, dtype=np.int64).reshape(-1, 4),
            colex, unrank, ncr,
        )

    def _config_size(self, cfg: Sequence[int]) -> int:
        total, i = 1, 0
        while i < 4:
            j = i
            while j + 1 < 4 and cfg[j + 1] == cfg[i]:
                j += 1
            g = j - i + 1
            total *= comb(self._shape_size_py[cfg[i]] + g - 1, g)
            i = j + 1
        return total

    # ------------------------------------------------------------------ API
    def _check(self, cards: Sequence[int] | str) -> np.ndarray:
        lst = parse_cards(cards) if isinstance(cards, str) else parse_cards(list(cards))
        if len(lst) != self.num_cards:
            raise CardError(f"indexer for rounds {self.rounds} takes {self.num_cards} cards, "
                            f"got {len(lst)}: {cards!r}")
        return np.array(lst, dtype=np.int64)

    def index(self, cards: Sequence[int] | str) -> int:
        """Canonical index of hole + board cards (listed round by round)."""
        return int(K.index_one(self.tables, self._check(cards)))

    def unindex(self, index: int) -> list[int]:
        """Cards of the canonical representative of ``index`` (round by round)."""
        if not 0 <= int(index) < self.size:
            raise ConfigError(f"index {index} out of range 0..{self.size - 1}")
        out = np.empty(self.num_cards, dtype=np.int64)
        K.unindex_one(self.tables, np.int64(index), out)
        return [int(c) for c in out]

    def index_many(self, cards: np.ndarray) -> np.ndarray:
        """Indices of many hands: ``cards`` is (N, num_cards); not checked for duplicates."""
        arr = np.ascontiguousarray(cards, dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] != self.num_cards:
            raise CardError(f"cards must have shape (N, {self.num_cards}), got {arr.shape}")
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise CardError("card values must be in 0..51")
        out = np.empty(arr.shape[0], dtype=np.int64)
        K.index_many(self.tables, arr, out)
        return out

    def unindex_many(self, indices: np.ndarray) -> np.ndarray:
        idx = np.ascontiguousarray(indices, dtype=np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= self.size):
            raise ConfigError(f"indices must be in 0..{self.size - 1}")
        out = np.empty((idx.shape[0], self.num_cards), dtype=np.int64)
        K.unindex_many(self.tables, idx, out)
        return out

    # ------------------------------------------------------------------ Python twins
    def index_py(self, cards: Sequence[int]) -> int:
        """Plain-Python twin of :func:`indexer_kernels.index_one`."""
        rs = self.rounds
        used = [0] * 4
        sidx = [0] * 4
        smult = [1] * 4
        code = [0] * 4
        pos = 0
        radix = [int(v) for v in self.tables[1]]
        for k, nk in enumerate(rs):
            ranks = [0] * 4
            for c in cards[pos:pos + nk]:
                ranks[c & 3] |= 1 << (c >> 2)
            pos += nk
            for s in range(4):
                m = ranks[s]
                if not m:
                    continue
                unused = [r for r in range(13) if not used[s] >> r & 1]
                shifted = sum(1 << unused.index(r) for r in range(13) if m >> r & 1)
                n = _popcount(m)
                sidx[s] += smult[s] * _colex(shifted)
                smult[s] *= comb(13 - _popcount(used[s]), n)
                used[s] |= m
                code[s] += n * radix[k]
        suits = sorted(range(4), key=lambda s: (code[s], sidx[s]), reverse=True)
        sc = [code[s] for s in suits]
        si = [sidx[s] for s in suits]
        cfg = self._configs.index((sc[0], sc[1], sc[2], sc[3]))
        idx, mult, i = self._offsets_py[cfg], 1, 0
        while i < 4:
            j = i
            while j + 1 < 4 and sc[j + 1] == sc[i]:
                j += 1
            g = j - i + 1
            idx += mult * sum(comb(si[i + t] + g - 1 - t, g - t) for t in range(g))
            mult *= comb(self._shape_size_py[sc[i]] + g - 1, g)
            i = j + 1
        return idx

    def unindex_py(self, index: int) -> list[int]:
        """Plain-Python twin of :func:`indexer_kernels.unindex_one`."""
        import bisect

        cfg = bisect.bisect_right(self._offsets_py, index) - 1
        rem = index - self._offsets_py[cfg]
        sc = self._configs[cfg]
        si = [0] * 4
        i = 0
        while i < 4:
            j = i
            while j + 1 < 4 and sc[j + 1] == sc[i]:
                j += 1
            g = j - i + 1
            n = self._shape_size_py[sc[i]]
            size = comb(n + g - 1, g)
            part = rem % size
            rem //= size
            for t in range(g):
                k = g - t
                lo, hi = k - 1, n + g - 1
                while lo < hi:  # largest y with C(y, k) <= part
                    mid = (lo + hi + 1) // 2
                    lo, hi = (mid, hi) if comb(mid, k) <= part else (lo, mid - 1)
                y = lo
                part -= comb(y, k)
                si[i + t] = y - (g - 1 - t)
            i = j + 1
        rounds_cards: list[list[int]] = [[] for _ in self.rounds]
        for s in range(4):
            used, x = 0, si[s]
            for k in range(len(self.rounds)):
                cnt = self._shape_counts_py[sc[s]][k]
                if cnt == 0:
                    continue
                msize = comb(13 - _popcount(used), cnt)
                c = x % msize
                x //= msize
                shifted = int(self._unrank_py[cnt, c])
                unused = [r for r in range(13) if not used >> r & 1]
                m = sum(1 << unused[j] for j in range(13) if shifted >> j & 1)
                rounds_cards[k].extend(r * 4 + s for r in range(13) if m >> r & 1)
                used |= m
        return [c for rc in rounds_cards for c in sorted(rc)]


@lru_cache(maxsize=8)
def indexer_for(rounds: tuple[int, ...]) -> HandIndexer:
    return HandIndexer(rounds=rounds)


def street_indexer(street: str | int) -> HandIndexer:
    """The indexer of a street (name or 0..3): hole cards plus the board dealt so far."""
    name = STREET_NAMES[street] if isinstance(street, int) and 0 <= street < 4 else street
    if name not in STREET_ROUNDS:
        raise ConfigError(f"unknown street {street!r}; expected one of {STREET_NAMES}")
    return indexer_for(STREET_ROUNDS[str(name)])


def brute_canonical(cards: Sequence[int], rounds: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Independent (slow) canonical key: the smallest per-round sorted relabelling over
    all 24 suit permutations.  Two hands are isomorphic iff their keys are equal."""
    best: tuple[tuple[int, ...], ...] | None = None
    for perm in permutations(range(4)):
        pos, parts = 0, []
        for n in rounds:
            parts.append(tuple(sorted((c >> 2) * 4 + perm[c & 3] for c in cards[pos:pos + n])))
            pos += n
        cand = tuple(parts)
        if best is None or cand < best:
            best = cand
    assert best is not None
    return best
