"""Strategically different flops, their textures and weighted representative subsets.

* :func:`all_flops`: the 1,755 suit-isomorphic flops (each a canonical board and its weight,
  the number of the 22,100 raw flops it stands for);
* :func:`texture` / :class:`Texture`: the texture categories of a flop: suit pattern
  (``monotone`` / ``two-tone`` / ``rainbow``), pairing (``unpaired`` / ``paired`` /
  ``trips``), high-card rank (``2`` .. ``A``) and connectedness (``connected``: its three
  ranks fit in one five-rank straight window, ace high or low, so a straight is possible by
  the river; ``semi-connected``: two of its distinct ranks do; ``disconnected``: none do,
  trips included);
* :func:`flop_subset` ``(n)``: a deterministic weighted subset of ``n`` flops for the
  documented sizes :data:`SUBSET_SIZES` (25, 49, 95, 184).  The flops are chosen by
  systematic sampling in proportion to weight along the flops sorted by texture (high card,
  pairing, suits, connectedness, then the lower ranks), with the rarest categories added
  when sampling misses them, and their weights are fitted by iterative proportional
  fitting from their own raw counts so that every texture marginal -- suit pattern x
  pairing (hence each alone), high card and connectedness -- equals the exact frequency
  over all 22,100 flops (to rounding, :data:`FIT_TOLERANCE`);
* :func:`parse_flop_set`: ``--flops`` (a size, or a comma-separated list of boards).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

from pokerlab.cards.cards import RANKS, SUITS, parse_cards
from pokerlab.errors import PokerlabError

RAW_FLOPS = 22100
NUM_FLOPS = 1755
SUBSET_SIZES = (25, 49, 95, 184)
SET_SIZES = (*SUBSET_SIZES, NUM_FLOPS)
FIT_TOLERANCE = 1e-12

SUIT_PATTERNS = ("monotone", "two-tone", "rainbow")
PAIRINGS = ("unpaired", "paired", "trips")
CONNECTEDNESS = ("connected", "semi-connected", "disconnected")
HIGH_CARDS = tuple(RANKS[::-1])  # "A", "K", ..., "2"
#: the marginals the subsets reproduce (name -> the texture fields of its categories)
MARGINALS: dict[str, tuple[str, ...]] = {
    "suits": ("suits",), "pairing": ("pairing",), "suits x pairing": ("suits", "pairing"),
    "high card": ("high",), "connectedness": ("connectedness",)}
#: the straight windows as rank sets (ace low: A2345, then 23456 .. TJQKA)
_WINDOWS = [frozenset({12, 0, 1, 2, 3})] + [frozenset(range(lo, lo + 5)) for lo in range(9)]


class FlopSetError(PokerlabError):
    """A bad ``--flops`` value: an unknown size, an empty list or a malformed board."""


@dataclass(frozen=True, kw_only=True)
class Texture:
    suits: str
    pairing: str
    high: str
    connectedness: str

    def to_json(self) -> dict[str, str]:
        return {"suits": self.suits, "pairing": self.pairing, "high": self.high,
                "connectedness": self.connectedness}

    def category(self, fields: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(getattr(self, f) for f in fields)


@dataclass(frozen=True, kw_only=True)
class Flop:
    """A flop (cards sorted high to low) and its weight (raw flops it stands for)."""

    cards: tuple[int, int, int]
    weight: float

    @property
    def board(self) -> str:
        return "".join(RANKS[c >> 2] + SUITS[c & 3] for c in self.cards)

    @property
    def texture(self) -> Texture:
        return texture(self.cards)


def texture(cards: tuple[int, ...] | list[int]) -> Texture:
    """The texture categories of a three-card flop (module docstring)."""
    ranks = [c >> 2 for c in cards]
    suits = len({c & 3 for c in cards})
    distinct = set(ranks)
    pairing = {3: "unpaired", 2: "paired", 1: "trips"}[len(distinct)]
    best = max(len(distinct & w) for w in _WINDOWS)
    conn = ("connected" if best >= 3 else "semi-connected" if best == 2 else "disconnected")
    return Texture(suits={1: "monotone", 2: "two-tone", 3: "rainbow"}[suits], pairing=pairing,
                   high=RANKS[max(ranks)], connectedness=conn)


def _perm_table() -> np.ndarray:
    perms = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
    return perms


def canonical_key(cards: tuple[int, ...] | list[int]) -> tuple[int, int, int]:
    """The canonical flop of ``cards`` under suit permutations: the lexicographically
    smallest high-to-low sorted relabelling."""
    best: tuple[int, int, int] | None = None
    for p in _perm_table():
        t = tuple(sorted(((c >> 2) * 4 + int(p[c & 3]) for c in cards), reverse=True))
        if best is None or t < best:
            best = t  # type: ignore[assignment]
    assert best is not None
    return best


@functools.lru_cache(maxsize=1)
def _all() -> tuple[Flop, ...]:
    raw = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)  # (22100, 3)
    best: np.ndarray | None = None
    for p in _perm_table():
        m = (raw >> 2) * 4 + p[raw & 3]
        m = -np.sort(-m, axis=1)  # high to low
        code = (m[:, 0] * 52 + m[:, 1]) * 52 + m[:, 2]
        best = code if best is None else np.minimum(best, code)
    assert best is not None
    codes, counts = np.unique(best, return_counts=True)
    out = [Flop(cards=(int(c // 2704), int(c // 52 % 52), int(c % 52)), weight=float(n))
           for c, n in zip(codes, counts, strict=True)]
    out.sort(key=_order)
    return tuple(out)


def _order(f: Flop) -> tuple[int, ...]:
    """The stratification order: high card, pairing, suits, connectedness, lower ranks."""
    t = f.texture
    r = sorted((c >> 2 for c in f.cards), reverse=True)
    return (-r[0], PAIRINGS.index(t.pairing), SUIT_PATTERNS.index(t.suits),
            CONNECTEDNESS.index(t.connectedness), -r[1], -r[2], *f.cards)


def all_flops() -> list[Flop]:
    """The 1,755 strategically different flops, weights summing to 22,100."""
    return list(_all())


def exact_frequencies() -> dict[str, dict[tuple[str, ...], float]]:
    """Each marginal's categories and their exact fraction of the 22,100 raw flops (counted
    over the raw flops themselves)."""
    out: dict[str, dict[tuple[str, ...], float]] = {m: {} for m in MARGINALS}
    for cards in itertools.combinations(range(52), 3):
        t = texture(cards)
        for m, fields in MARGINALS.items():
            k = t.category(fields)
            out[m][k] = out[m].get(k, 0.0) + 1.0
    return {m: {k: v / RAW_FLOPS for k, v in d.items()} for m, d in out.items()}


def frequencies(flops: list[Flop]) -> dict[str, dict[tuple[str, ...], float]]:
    """The texture marginals of weighted flops, as fractions of their total weight."""
    total = sum(f.weight for f in flops)
    out: dict[str, dict[tuple[str, ...], float]] = {m: {} for m in MARGINALS}
    for f in flops:
        t = f.texture
        for m, fields in MARGINALS.items():
            k = t.category(fields)
            out[m][k] = out[m].get(k, 0.0) + f.weight / total
    return out


_FIT = ("suits x pairing", "high card", "connectedness")
#: in the feasibility check every chosen flop keeps at least this multiple of its own
#: fraction of the raw flops
_FLOOR = 0.01


def _system(flops: list[Flop], target: dict[str, dict[tuple[str, ...], float]]
            ) -> tuple[np.ndarray, np.ndarray, list[tuple[str, tuple[str, ...]]]]:
    """The marginal constraints ``A w = b`` (fractions) of the fitted marginals."""
    rows: list[list[float]] = []
    b: list[float] = []
    names: list[tuple[str, tuple[str, ...]]] = []
    for m in _FIT:
        fields = MARGINALS[m]
        cats = [f.texture.category(fields) for f in flops]
        for k, v in sorted(target[m].items()):
            rows.append([1.0 if c == k else 0.0 for c in cats])
            b.append(v)
            names.append((m, k))
    return np.array(rows), np.array(b), names


def _short(flops: list[Flop], target: dict[str, dict[tuple[str, ...], float]]
           ) -> list[tuple[str, tuple[str, ...]]]:
    """The categories the flops cannot fit with every weight at least :data:`_FLOOR` of its
    natural share (a linear programme with slack; empty: a strictly positive fit exists)."""
    from scipy.optimize import linprog

    a, b, names = _system(flops, target)
    m, n = a.shape
    w0 = np.array([f.weight for f in flops]) / RAW_FLOPS
    c = np.concatenate([np.zeros(n), np.ones(2 * m)])
    a_eq = np.hstack([a, np.eye(m), -np.eye(m)])
    bounds = [(_FLOOR * x, None) for x in w0] + [(0.0, None)] * (2 * m)
    res = linprog(c, A_eq=a_eq, b_eq=b, bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - the programme always has a solution
        raise FlopSetError(f"the flop weights' programme failed: {res.message}")
    slack = res.x[n:n + m] + res.x[n + m:]
    return [names[i] for i in np.flatnonzero(slack > 1e-12)]


def _fit(flops: list[Flop], target: dict[str, dict[tuple[str, ...], float]]) -> np.ndarray:
    """Iterative proportional fitting of the flops' weights (from their natural weights) to
    the target marginals: the fit closest to the natural weights in relative entropy."""
    w = np.array([f.weight for f in flops], dtype=np.float64)
    w /= w.sum()
    groups: list[tuple[np.ndarray, np.ndarray]] = []
    for m in _FIT:
        fields = MARGINALS[m]
        keys = sorted(target[m])
        cat = np.array([keys.index(f.texture.category(fields)) for f in flops])
        goal = np.array([target[m][k] for k in keys])
        groups.append((cat, goal))
    for _ in range(200000):
        err = 0.0
        for cat, goal in groups:
            sums = np.bincount(cat, weights=w, minlength=len(goal))
            err = max(err, float(np.abs(sums - goal).max()))
            w *= (goal / sums)[cat]
        if err <= FIT_TOLERANCE:
            return w * RAW_FLOPS
    raise FlopSetError("the subset's weights cannot reproduce the texture frequencies")  # pragma: no cover


def _systematic(pool: list[Flop], n: int) -> list[Flop]:
    """``n`` flops of ``pool`` (in texture order) by systematic sampling in proportion to
    weight (the midpoints of ``n`` equal steps of the cumulative weight)."""
    if n <= 0:
        return []
    cum = np.cumsum([f.weight for f in pool])
    pos = (np.arange(n) + 0.5) * cum[-1] / n
    chosen: list[int] = []
    for i in np.searchsorted(cum, pos, side="right"):
        j = int(min(i, len(pool) - 1))
        while j in chosen:  # a flop heavier than the step: its neighbour instead
            j = (j + 1) % len(pool)
        chosen.append(j)
    return [pool[i] for i in sorted(chosen)]


def _core(flops: list[Flop], target: dict[str, dict[tuple[str, ...], float]]) -> list[Flop]:
    """A few flops that fit every marginal exactly with positive weights and whose category
    columns span all the constraints: the union of the supports of basic solutions of
    ``A w = b, w >= 0`` over all flops (linear programmes preferring heavy flops, in turn
    with the texture order as tie-break), until their columns have the full rank.  Any
    flop added to them can then take a positive weight too (a small move along the
    combination of the core's columns that equals the new flop's column)."""
    from scipy.optimize import linprog

    a, b, _ = _system(flops, target)
    full = int(np.linalg.matrix_rank(a))
    weight = np.array([f.weight for f in flops])
    order = np.arange(len(flops), dtype=np.float64) / len(flops)
    core: list[int] = []
    for t in range(50):
        cost = -np.log(weight) + (order if t % 2 == 0 else 1.0 - order) * 1e-3 * (t + 1)
        res = linprog(cost, A_eq=a, b_eq=b, bounds=[(0.0, None)] * len(flops), method="highs")
        if res.status != 0:  # pragma: no cover - the flops' own weights are a solution
            raise FlopSetError(f"the flop weights' programme failed: {res.message}")
        core += [int(i) for i in np.flatnonzero(res.x > 1e-15) if int(i) not in core]
        if int(np.linalg.matrix_rank(a[:, core])) == full:
            break
        # the next programme may not use the flops found so far for the categories it lacks
        weight = weight.copy()
        weight[core] = weight[core] * 0.5
    return [flops[i] for i in sorted(core)]


@functools.cache
def _subset(n: int) -> tuple[Flop, ...]:
    """The subset of ``n`` flops: the core (:func:`_core`), then the rest by systematic
    sampling in proportion to weight along the texture order; weights by iterative
    proportional fitting from the flops' raw counts (all deterministic)."""
    flops = list(_all())
    target = exact_frequencies()
    core = _core(flops, target)
    if len(core) > n:
        raise FlopSetError(f"a subset needs at least {len(core)} flops to reproduce every texture")
    chosen = sorted(_systematic([f for f in flops if f not in core], n - len(core)) + core, key=_order)
    if _short(chosen, target):  # pragma: no cover - the core guarantees a positive fit
        raise FlopSetError(f"no subset of {n} flops reproduces every texture frequency")
    w = _fit(chosen, target)
    return tuple(Flop(cards=f.cards, weight=float(x)) for f, x in zip(chosen, w, strict=True))


def flop_subset(n: int) -> list[Flop]:
    """The weighted subset of ``n`` flops (``n`` in :data:`SET_SIZES`; 1755: all flops)."""
    if n == NUM_FLOPS:
        return all_flops()
    if n not in SUBSET_SIZES:
        raise FlopSetError(f"--flops {n}: the flop sets have {', '.join(map(str, SET_SIZES))} flops, "
                           "or give a comma-separated list of boards")
    return list(_subset(n))


def parse_flop_set(text: str) -> list[Flop]:
    """``--flops``: a set size (:data:`SET_SIZES`) or a comma-separated list of boards (each
    weighted by the raw flops of its isomorphism class, as in the full set)."""
    s = str(text).strip()
    if not s:
        raise FlopSetError("--flops is empty: give a set size "
                           f"({', '.join(map(str, SET_SIZES))}) or a list of boards")
    if s.isdigit():
        return flop_subset(int(s))
    weight = {f.cards: f.weight for f in _all()}
    out: list[Flop] = []
    seen: set[tuple[int, ...]] = set()
    for part in s.split(","):
        b = part.strip()
        if not b:
            raise FlopSetError(f"--flops {text!r}: an empty board in the list")
        try:
            cards = parse_cards(b)
        except PokerlabError as exc:
            raise FlopSetError(f"--flops: bad board {b!r}: {exc}") from None
        if len(cards) != 3:
            raise FlopSetError(f"--flops: board {b!r} has {len(cards)} cards, a flop has 3")
        key = tuple(sorted(cards, reverse=True))
        if key in seen:
            raise FlopSetError(f"--flops: board {b!r} is listed twice")
        seen.add(key)
        out.append(Flop(cards=(key[0], key[1], key[2]), weight=weight[canonical_key(key)]))
    return out


def matches(t: Texture, terms: list[str]) -> bool:
    """Whether texture ``t`` passes every filter term (``monotone``, ``two-tone``,
    ``rainbow``, ``unpaired``, ``paired``, ``trips``, ``connected``, ``semi-connected``,
    ``disconnected``, ``A-high`` .. ``2-high``)."""
    for term in terms:
        if term in SUIT_PATTERNS:
            ok = t.suits == term
        elif term in PAIRINGS:
            ok = t.pairing == term
        elif term in CONNECTEDNESS:
            ok = t.connectedness == term
        else:
            ok = t.high == term[0].upper()
        if not ok:
            return False
    return True


def parse_filter(text: str | None) -> list[str]:
    """``--texture``: comma-separated terms (see :func:`matches`), checked."""
    if text is None or not text.strip():
        return []
    terms = [t.strip().lower() for t in text.split(",") if t.strip()]
    known = (*SUIT_PATTERNS, *PAIRINGS, *CONNECTEDNESS)
    for t in terms:
        if t in known:
            continue
        if len(t) == 6 and t.endswith("-high") and t[0].upper() in RANKS:
            continue
        raise FlopSetError(f"--texture: unknown term {t!r} (use {', '.join(known)} or a high card "
                           "such as A-high)")
    return terms
