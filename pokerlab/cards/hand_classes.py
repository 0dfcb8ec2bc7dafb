"""The 7,462 equivalence classes of five-card poker hands, their order and their names.

A hand *code* is ``(category, ranks)`` where ``ranks`` lists the ranks (0..12 = 2..A) in
order of significance, e.g. two pair kings and sevens with a nine kicker is
``(TWO_PAIR, (11, 5, 7))``.  Comparing codes as tuples orders hands exactly as the rules
do.  A *strength* is the position of a code in the sorted list of all 7,462 codes, plus
one: 1 is the worst high card (7-5-4-3-2), 7,462 the royal flush.  Strength 0 means
"no hand" (e.g. a blocked combo).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "High Card",
    "Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "Full House",
    "Four of a Kind",
    "Straight Flush",
)
NUM_STRENGTHS = 7462

_RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
    "King", "Ace",
)
_RANK_PLURALS = (
    "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks",
    "Queens", "Kings", "Aces",
)

Code = tuple[int, tuple[int, ...]]


def straight_top(rank_set: set[int] | frozenset[int]) -> int:
    """Top rank of the best straight in a set of ranks, or -1 (the wheel's top is 3 = Five)."""
    for top in range(12, 3, -1):
        if all((top - k) in rank_set for k in range(5)):
            return top
    if {12, 0, 1, 2, 3} <= set(rank_set):
        return 3
    return -1


def all_codes() -> list[Code]:
    """All 7,462 five-card hand codes, worst first."""
    codes: list[Code] = []
    desc = list(range(12, -1, -1))
    five_sets = [c for c in combinations(desc, 5) if straight_top(set(c)) < 0]  # no straights
    codes += [(HIGH_CARD, c) for c in five_sets]
    for p in desc:
        codes += [(PAIR, (p, *k)) for k in combinations([r for r in desc if r != p], 3)]
    for hi, lo in combinations(desc, 2):
        codes += [(TWO_PAIR, (hi, lo, k)) for k in desc if k not in (hi, lo)]
    for t in desc:
        codes += [(TRIPS, (t, *k)) for k in combinations([r for r in desc if r != t], 2)]
    codes += [(STRAIGHT, (top,)) for top in range(3, 13)]
    codes += [(FLUSH, c) for c in five_sets]
    for t in desc:
        codes += [(FULL_HOUSE, (t, p)) for p in desc if p != t]
    for q in desc:
        codes += [(QUADS, (q, k)) for k in desc if k != q]
    codes += [(STRAIGHT_FLUSH, (top,)) for top in range(3, 13)]
    codes.sort()
    assert len(codes) == NUM_STRENGTHS
    return codes


CODES: list[Code] = all_codes()
STRENGTH_OF_CODE: dict[Code, int] = {c: i + 1 for i, c in enumerate(CODES)}
CATEGORY_OF_STRENGTH = np.array([-1] + [c[0] for c in CODES], dtype=np.int8)
"""``CATEGORY_OF_STRENGTH[s]`` is the category of strength ``s`` (index 0: -1)."""
CATEGORY_OF_STRENGTH.setflags(write=False)


_DESCRIPTIONS: dict[int, str] = {
    HIGH_CARD: "High Card, {n0}",
    PAIR: "Pair of {p0}",
    TWO_PAIR: "Two Pair, {p0} and {p1}",
    TRIPS: "Three of a Kind, {p0}",
    STRAIGHT: "Straight, {n0}-high",
    FLUSH: "Flush, {n0}-high",
    FULL_HOUSE: "Full House, {p0} full of {p1}",
    QUADS: "Four of a Kind, {p0}",
    STRAIGHT_FLUSH: "Straight Flush, {n0}-high",
}
"""Per category, the description of a code: ``n0`` is the first rank's name (``Ace``),
``p0``/``p1`` the first/second rank's plural (``Aces``)."""


def describe_code(code: Code) -> str:
    cat, r = code
    if cat == STRAIGHT_FLUSH and r[0] == 12:
        return "Royal Flush"
    second = r[1] if len(r) > 1 else r[0]
    return _DESCRIPTIONS[cat].format(n0=_RANK_NAMES[r[0]], p0=_RANK_PLURALS[r[0]],
                                     p1=_RANK_PLURALS[second])


def code_of_five(ranks: list[int] | tuple[int, ...], flush: bool) -> Code:
    """Code of exactly five cards given their ranks and whether they are all one suit."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    top = straight_top(set(counts)) if len(counts) == 5 else -1
    if flush and top >= 0:
        return (STRAIGHT_FLUSH, (top,))
    if groups[0][1] == 4:
        return (QUADS, (groups[0][0], groups[1][0]))
    if groups[0][1] == 3 and groups[1][1] == 2:
        return (FULL_HOUSE, (groups[0][0], groups[1][0]))
    if flush:
        return (FLUSH, tuple(sorted(ranks, reverse=True)))
    if top >= 0:
        return (STRAIGHT, (top,))
    if groups[0][1] == 3:
        return (TRIPS, (groups[0][0], groups[1][0], groups[2][0]))
    if groups[0][1] == 2 and groups[1][1] == 2:
        return (TWO_PAIR, (groups[0][0], groups[1][0], groups[2][0]))
    if groups[0][1] == 2:
        return (PAIR, tuple(g[0] for g in groups))
    return (HIGH_CARD, tuple(g[0] for g in groups))
