"""The cards of an ACPC game (:mod:`pokerlab.games.acpc_game`): card ids and their strings,
the showdown's hand ranking, and the cards as Deep CFR sees them.

* **Deck.** Card id ``rank * numSuits + suit``; ranks ``0..numRanks-1`` are 2, 3, 4, ...
  (a short deck keeps the *low* ranks, as ``universal_poker``; the ACPC dealer keeps the
  high ones, which orders every hand the same way), suits ``c d h s``.
* **Showdown.** The best hand from hole + board cards wins ``min(spent)`` from the other
  player; equal hands split.  Hands rank as the ACPC ``rankCardset`` evaluator: standard
  poker order (straight flush, quads, full house, flush, straight, trips, two pair, pair,
  high card), best five cards, kickers compared in order; the wheel A-2-3-4-5 exists only
  with all 13 ranks.  **Fewer than five cards** (e.g. Leduc's two): no straights or
  flushes; quads, trips, pairs and high cards compare by rank and then by as many kickers
  as there are cards (Leduc: a pair beats no pair, else the higher card wins).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

RANK_CHARS = "23456789TJQKA"


SUIT_CHARS = "cdhs"


HAND_CLASSES = ("high card", "pair", "two pair", "trips", "straight", "flush", "full house",
                "quads", "straight flush")


def card_string(card: int, num_suits: int) -> str:
    return RANK_CHARS[card // num_suits] + SUIT_CHARS[card % num_suits]


def cardset_string(cards: list[int], num_suits: int) -> str:
    """OpenSpiel's ``CardSet::ToString``: ranks high to low, suits s h d c within a rank."""
    order = sorted(cards, key=lambda c: (c // num_suits, c % num_suits), reverse=True)
    return "".join(card_string(c, num_suits) for c in order)


def _straight_top(ranks: set[int]) -> int:
    for top in range(12, 3, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    if {12, 0, 1, 2, 3} <= ranks:  # the wheel A-2-3-4-5
        return 3
    return -1


@lru_cache(maxsize=1 << 18)
def hand_value(cards: tuple[int, ...], num_suits: int) -> tuple[int, ...]:
    """Comparable value of the best hand in ``cards`` (any number), ACPC order.

    The first entry is the class (index into :data:`HAND_CLASSES`), then the ranks that
    break ties, most significant first.  Values compare correctly between hands of the
    same number of cards (all a showdown needs).
    """
    by_suit: dict[int, list[int]] = {}
    count: dict[int, int] = {}
    for c in cards:
        r, s = c // num_suits, c % num_suits
        by_suit.setdefault(s, []).append(r)
        count[r] = count.get(r, 0) + 1
    best_sf = max((_straight_top(set(rs)) for rs in by_suit.values() if len(rs) >= 5),
                  default=-1)
    if best_sf >= 0:
        return (8, best_sf)
    present = sorted(count, reverse=True)
    quads = [r for r in present if count[r] >= 4]
    if quads:
        q = quads[0]
        return (7, q, *[r for r in present if r != q][:1])
    trips = [r for r in present if count[r] >= 3]
    pairs = [r for r in present if count[r] >= 2]
    if trips:
        t = trips[0]
        others = [r for r in pairs if r != t]
        if others:
            return (6, t, others[0])
    flushes = [sorted(rs, reverse=True)[:5] for rs in by_suit.values() if len(rs) >= 5]
    if flushes:
        return (5, *max(flushes))
    top = _straight_top(set(present))
    if top >= 0:
        return (4, top)
    if trips:
        t = trips[0]
        return (3, t, *[r for r in present if r != t][:2])
    if len(pairs) >= 2:
        a, b = pairs[0], pairs[1]
        return (2, a, b, *[r for r in present if r not in (a, b)][:1])
    if pairs:
        a = pairs[0]
        return (1, a, *[r for r in present if r != a][:3])
    return (0, *present[:5])


def card_groups(gd: Any, hole: list[int], board: list[int]) -> list[list[int]]:
    """The hole cards, then each board round's cards dealt so far, as 52-card ids
    ``rank * 4 + suit`` (``gd``: the game's :class:`~pokerlab.games.gamedef.GameDef`)."""
    ns = gd.num_suits

    def c52(c: int) -> int:
        return (c // ns) * 4 + c % ns

    groups = [[c52(c) for c in hole]]
    start = 0
    for n in gd.num_board_cards:
        if n:
            groups.append([c52(c) for c in board[start:start + n]])
        start += n
    return groups
