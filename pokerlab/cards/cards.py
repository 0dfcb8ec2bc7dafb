"""Cards as small integers, the 1326 hole-card combos and the 169 preflop classes.

A card is ``rank * 4 + suit`` with rank 0..12 for 2..A and suit 0..3 for c, d, h, s.
So ``0 == "2c"``, ``51 == "As"``.  The 1326 two-card combos are indexed in the order of
``itertools.combinations(range(52), 2)`` (lower card first).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from pokerlab.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NUM_CARDS = 52
NUM_COMBOS = 1326
NUM_CLASSES = 169
BOARD_PREFIX = (0, 3, 4, 5)
"""Board cards dealt by the end of each street (preflop, flop, turn, river)."""

_RANK_OF = {ch: i for i, ch in enumerate(RANKS)}
_RANK_OF.update({ch.lower(): i for i, ch in enumerate(RANKS) if ch.isalpha()})
_RANK_OF["1"] = -1  # explicit: "1s" is never a card (handled as an error below)
_SUIT_OF = {ch: i for i, ch in enumerate(SUITS)}
_SUIT_OF.update({ch.upper(): i for i, ch in enumerate(SUITS)})


def card_rank(card: int) -> int:
    return card >> 2


def card_suit(card: int) -> int:
    return card & 3


def make_card(rank: int, suit: int) -> int:
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(f"rank {rank} / suit {suit} out of range")
    return rank * 4 + suit


def parse_card(text: str) -> int:
    """Parse one card such as ``"As"``, ``"Td"`` or ``"2c"`` (``"10h"`` is accepted too)."""
    if not isinstance(text, str):
        raise CardError(f"card must be a string, got {type(text).__name__}")
    t = text.strip()
    if t.startswith("10") and len(t) == 3:
        t = "T" + t[2]
    if len(t) != 2:
        raise CardError(f"bad card {text!r}: expected a rank (2-9, T, J, Q, K, A) and a suit (c, d, h, s)")
    r = _RANK_OF.get(t[0], None)
    if r is None or r < 0:
        raise CardError(f"bad card {text!r}: unknown rank {t[0]!r}")
    s = _SUIT_OF.get(t[1], None)
    if s is None:
        raise CardError(f"bad card {text!r}: unknown suit {t[1]!r}")
    return r * 4 + s


_SPLIT = re.compile(r"[\s,]+")


def parse_cards(text: str | Iterable[str] | Iterable[int], *, unique: bool = True) -> list[int]:
    """Parse a list of cards: ``"AsKd"``, ``"As Kd Qh"``, ``"As,Kd"`` or a list of strings.

    Raises :class:`CardError` naming the offending text, also for a card given twice.
    """
    cards: list[int] = []
    if isinstance(text, str):
        for chunk in _SPLIT.split(text.strip()):
            if not chunk:
                continue
            c = chunk.replace("10", "T")
            if len(c) % 2:
                raise CardError(f"bad cards {text!r}: {chunk!r} is not a sequence of two-character cards")
            for i in range(0, len(c), 2):
                cards.append(parse_card(c[i : i + 2]))
    else:
        for item in text:
            if isinstance(item, (int, np.integer)):
                if not 0 <= int(item) < NUM_CARDS:
                    raise CardError(f"card index {item} out of range 0..51")
                cards.append(int(item))
            else:
                cards.append(parse_card(item))
    if unique and len(set(cards)) != len(cards):
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise CardError(f"card {card_str(c)} given twice in {text!r}")
            seen.add(c)
    return cards


def parse_board(text: str | Iterable[str] | Iterable[int] | None) -> list[int]:
    """Parse a board of 0, 3, 4 or 5 cards."""
    if text is None:
        return []
    cards = parse_cards(text)
    if len(cards) not in (0, 3, 4, 5):
        raise CardError(f"bad board {text!r}: a board has 0, 3, 4 or 5 cards, got {len(cards)}")
    return cards


def parse_hole(text: str | Iterable[str] | Iterable[int]) -> tuple[int, int]:
    cards = parse_cards(text)
    if len(cards) != 2:
        raise CardError(f"bad hole cards {text!r}: expected exactly 2 cards, got {len(cards)}")
    return cards[0], cards[1]


def card_str(card: int) -> str:
    if not 0 <= int(card) < NUM_CARDS:
        raise CardError(f"card index {card} out of range 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: Iterable[int], sep: str = "") -> str:
    return sep.join(card_str(int(c)) for c in cards)


# ---------------------------------------------------------------- combos
def _build_combos() -> tuple[np.ndarray, np.ndarray]:
    combos = np.zeros((NUM_COMBOS, 2), dtype=np.int8)
    index = -np.ones((NUM_CARDS, NUM_CARDS), dtype=np.int16)
    k = 0
    for a in range(NUM_CARDS):
        for b in range(a + 1, NUM_CARDS):
            combos[k] = (a, b)
            index[a, b] = k
            index[b, a] = k
            k += 1
    combos.setflags(write=False)
    index.setflags(write=False)
    return combos, index


COMBOS, COMBO_INDEX = _build_combos()
"""``COMBOS[i] = (low card, high card)``; ``COMBO_INDEX[a, b]`` the combo index (or -1)."""

COMBO_MASKS = (np.uint64(1) << COMBOS[:, 0].astype(np.uint64)) | (
    np.uint64(1) << COMBOS[:, 1].astype(np.uint64)
)
"""Bit mask of the two cards of every combo (uint64)."""


def combo_index(c1: int, c2: int) -> int:
    if c1 == c2:
        raise CardError(f"a combo needs two different cards, got {card_str(c1)} twice")
    return int(COMBO_INDEX[c1, c2])


def combo_str(i: int) -> str:
    a, b = COMBOS[i]
    return card_str(int(b)) + card_str(int(a))  # higher card first, e.g. "AsKd"


def cards_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def combos_blocked_by(cards: Iterable[int]) -> np.ndarray:
    """Boolean array over the 1326 combos: True where the combo uses one of ``cards``."""
    m = np.uint64(cards_mask(cards))
    return (COMBO_MASKS & m) != 0


def deal_possible(r0: np.ndarray, r1: np.ndarray) -> bool:
    """Whether two ranges over the 1326 combos (weights > 0 count) hold some pair of hands
    with no card in common.  Counted by cards, not by pairs: the pairs that share a card
    are the sum over cards of the two ranges' combos holding it, less the combos in both
    (a combo shares both its cards with itself, so it is counted twice there)."""
    s0 = np.asarray(r0) > 0
    s1 = np.asarray(r1) > 0
    n0, n1 = int(s0.sum()), int(s1.sum())
    if n0 == 0 or n1 == 0:
        return False
    a = np.bincount(COMBOS[s0].ravel(), minlength=52)
    b = np.bincount(COMBOS[s1].ravel(), minlength=52)
    sharing = int(np.dot(a, b)) - int(np.count_nonzero(s0 & s1))
    return n0 * n1 > sharing


# ---------------------------------------------------------------- 169 preflop classes
def _class_name(hi: int, lo: int, suited: bool) -> str:
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if suited else "o")


def _build_classes() -> tuple[list[str], np.ndarray]:
    names: list[str] = []
    # Grid order: row i / column j with rank A..2; suited above the diagonal.
    for i in range(13):
        for j in range(13):
            r1, r2 = 12 - i, 12 - j
            if i == j:
                names.append(_class_name(r1, r1, False))
            elif i < j:
                names.append(_class_name(r1, r2, True))
            else:
                names.append(_class_name(r2, r1, False))
    of_combo = np.zeros(NUM_COMBOS, dtype=np.int16)
    pos = {n: k for k, n in enumerate(names)}
    for k in range(NUM_COMBOS):
        a, b = int(COMBOS[k, 0]), int(COMBOS[k, 1])
        ra, rb = a >> 2, b >> 2
        hi, lo = max(ra, rb), min(ra, rb)
        of_combo[k] = pos[_class_name(hi, lo, (a & 3) == (b & 3))]
    of_combo.setflags(write=False)
    return names, of_combo


CLASS_NAMES, CLASS_OF_COMBO = _build_classes()
"""The 169 preflop classes in 13x13 grid order (row-major, A first; suited above the
diagonal) and, for every combo, the index of its class."""

CLASS_INDEX = {n: i for i, n in enumerate(CLASS_NAMES)}
CLASS_SIZES = np.bincount(CLASS_OF_COMBO, minlength=NUM_CLASSES)


def preflop_class(c1: int, c2: int) -> str:
    return CLASS_NAMES[int(CLASS_OF_COMBO[combo_index(c1, c2)])]


def class_combos(name: str) -> np.ndarray:
    """Indices of the combos of a preflop class such as ``"AKs"``, ``"T9o"``, ``"77"``."""
    key = name.strip()
    if len(key) == 3:
        key = key[0].upper() + key[1].upper() + key[2].lower()
    else:
        key = key.upper()
    if key not in CLASS_INDEX:
        raise CardError(f"unknown preflop class {name!r}")
    return np.flatnonzero(CLASS_OF_COMBO == CLASS_INDEX[key])


# ---------------------------------------------------------------- suit isomorphism
def canonical_form(hole: Sequence[int], board: Sequence[int] = ()) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Canonical representative of a hand + board under suit permutation.

    Suits are relabelled in order of first appearance when the cards are read as
    ``sorted(hole, desc)`` then ``sorted(board, desc)``, with ties among suits broken so that
    the result is the lexicographically smallest relabelling.  Two (hole, board) pairs are
    suit-isomorphic iff their canonical forms are equal.
    """
    import itertools

    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for perm in itertools.permutations(range(4)):
        h = tuple(sorted(((c >> 2) * 4 + perm[c & 3] for c in hole), reverse=True))
        b = tuple(sorted(((c >> 2) * 4 + perm[c & 3] for c in board), reverse=True))
        cand = (h, b)
        if best is None or cand < best:
            best = cand
    assert best is not None
    return best


def suit_permutations() -> np.ndarray:
    """All 24 suit permutations as an array (24, 4)."""
    import itertools

    return np.array(list(itertools.permutations(range(4))), dtype=np.int8)


def permute_cards(cards: np.ndarray, perm: Sequence[int]) -> np.ndarray:
    """Apply a suit permutation to an array of cards."""
    p = np.asarray(perm, dtype=np.int64)
    c = np.asarray(cards, dtype=np.int64)
    return (c >> 2) * 4 + p[c & 3]
