"""The cards of a spot: each player's hand list, the dealt turn and river cards with suit
isomorphism, and the per-board strength orders the showdown sweep reads.

Hands are indexed per player over the combos of its range that the starting board does
not block (weight > 0).  A later card blocks some of them: the kernels zero their reach.

Suit isomorphism (as the postflop solvers do): at a chance node, two suits are
interchangeable when the board so far holds the same ranks in both and both ranges are
unchanged by swapping them.  Of each class of interchangeable cards only the lowest-suited
one (the representative) is solved; the others take its values with the hands' suits
swapped.  A "slot" numbers the boards of one street: slot 0 is the starting board; the turn
slots are the representative turn cards; the river slots the representative river cards of
each turn slot.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from pokerlab.cards.cards import COMBOS, NUM_COMBOS, combo_index
from pokerlab.subgame.deal_kernels import KERNEL_MIN_BOARDS, showdown_tables, showdown_tables_py

SWAPS = tuple(combinations(range(4), 2))  # the six suit transpositions


def _swap_card(c: int, s1: int, s2: int) -> int:
    s = c & 3
    if s == s1:
        return (c & ~3) | s2
    if s == s2:
        return (c & ~3) | s1
    return c


def _combo_swap_table() -> np.ndarray:
    """(6, 1326): the combo with suits swapped by each transposition."""
    out = np.empty((len(SWAPS), NUM_COMBOS), dtype=np.int64)
    for k, (s1, s2) in enumerate(SWAPS):
        for i in range(NUM_COMBOS):
            a, b = (_swap_card(int(c), s1, s2) for c in COMBOS[i])
            out[k, i] = combo_index(min(a, b), max(a, b))
    return out


_COMBO_SWAP = _combo_swap_table()


@dataclass
class Deal:
    """Card structures of a spot (see the module docstring)."""

    combos: tuple[np.ndarray, np.ndarray]  # per player: combo ids of its hands
    hand_cards: tuple[np.ndarray, np.ndarray]  # per player: (n, 2) cards
    weights: tuple[np.ndarray, np.ndarray]  # per player: initial weight of each hand
    same: tuple[np.ndarray, np.ndarray]  # per player: index of the identical combo in the other list, -1
    card_start: tuple[np.ndarray, np.ndarray]  # per player: CSR over cards of the hands holding it
    card_hands: tuple[np.ndarray, np.ndarray]
    swap: tuple[np.ndarray, np.ndarray]  # per player: (6, n) hand index after each suit swap, -1
    next_slot: tuple[np.ndarray, np.ndarray]  # per street s (0, 1): (slots of s, 52) child slot, -1 dead
    iso_rep: tuple[np.ndarray, np.ndarray]  # (slots of s, 52) representative card
    iso_swap: tuple[np.ndarray, np.ndarray]  # (slots of s, 52) swap id (-1 for a representative)
    num_slots: tuple[int, int, int]  # boards per street (0 for streets before the spot's)
    slot_cards: tuple[np.ndarray, np.ndarray, np.ndarray]  # per street: (slots, 2) turn/river card, -1
    sd_order: tuple[np.ndarray, np.ndarray]  # per player: (river slots, n) hands by strength
    sd_strength: tuple[np.ndarray, np.ndarray]
    sd_count: tuple[np.ndarray, np.ndarray]
    sd_cards: tuple[np.ndarray, np.ndarray]  # per player: (river slots, 2 n) the cards of sd_order's hands
    sd_index: tuple[np.ndarray, np.ndarray]  # per player: (river slots, 2 n) int64, showdown_index's words
    board: tuple[int, ...]
    isomorphism: bool

    @property
    def num_hands(self) -> tuple[int, int]:
        return int(self.combos[0].shape[0]), int(self.combos[1].shape[0])

    def board_of(self, street: int, slot: int) -> tuple[int, ...]:
        extra = tuple(int(c) for c in self.slot_cards[street][slot] if c >= 0)
        return self.board + extra


def river_boards(board: tuple[int, ...], river_slot_cards: np.ndarray) -> np.ndarray:
    """(river slots, 5) int64: each river slot's whole board, the spot's ``board`` followed by
    the slot's dealt cards (``Deal.slot_cards[2]``, whose rows are (turn, river) below a flop,
    (river, -1) below a turn and (-1, -1) on a river spot)."""
    sc = np.asarray(river_slot_cards, dtype=np.int64).reshape(-1, 2)
    extra = 5 - len(board)
    out = np.empty((sc.shape[0], 5), dtype=np.int64)
    out[:, : len(board)] = np.asarray(board, dtype=np.int64)
    out[:, len(board):] = sc[:, :extra]
    return out


def _suit_ranks(board: tuple[int, ...]) -> list[frozenset[int]]:
    return [frozenset(c >> 2 for c in board if (c & 3) == s) for s in range(4)]


def build_deal(board: tuple[int, ...], ranges: np.ndarray, *, isomorphism: bool = True,
               kernel: bool = True) -> Deal:
    """The spot's :class:`Deal`.  The showdown tables of every river board come from one
    kernel call (:func:`~pokerlab.subgame.deal_kernels.showdown_tables`) on a flop spot
    (at least ``KERNEL_MIN_BOARDS`` river boards), else and with ``kernel=False`` from its
    plain twin (the same tables, bit for bit)."""
    n_board = len(board)
    street0 = n_board - 3
    combos = tuple(np.flatnonzero(ranges[p] > 0).astype(np.int64) for p in (0, 1))
    hand_cards = tuple(COMBOS[combos[p]].astype(np.int64) for p in (0, 1))
    weights = tuple(ranges[p][combos[p]].astype(np.float64) for p in (0, 1))
    pos = []
    for p in (0, 1):
        m = np.full(NUM_COMBOS, -1, dtype=np.int64)
        m[combos[p]] = np.arange(combos[p].shape[0])
        pos.append(m)
    same = (pos[1][combos[0]], pos[0][combos[1]])
    card_start, card_hands = [], []
    for p in (0, 1):
        # per card, the hands holding it in ascending hand order (a stable sort by card)
        flat = hand_cards[p].reshape(-1)
        st = np.zeros(53, dtype=np.int64)
        st[1:] = np.cumsum(np.bincount(flat, minlength=52))
        card_start.append(st)
        card_hands.append((np.argsort(flat, kind="stable") // 2).astype(np.int64))
    swap = []
    for p in (0, 1):
        # C order whatever the hand count: the kernels take both players' tables as one
        # typed tuple (a single hand's (6, 1) table would otherwise type as C beside F)
        sw = np.ascontiguousarray(pos[p][_COMBO_SWAP[:, combos[p]]])
        swap.append(sw)
    sym = [bool(np.allclose(ranges[0][_COMBO_SWAP[k]], ranges[0]) and np.allclose(ranges[1][_COMBO_SWAP[k]],
                                                                                 ranges[1]))
           for k in range(len(SWAPS))]

    def level(boards: list[tuple[int, ...]], first_slot: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                        list[tuple[int, int]]]:
        """Chance from each board of ``boards``: next slot, representative, swap id."""
        nxt = np.full((len(boards), 52), -1, dtype=np.int64)
        rep = np.full((len(boards), 52), -1, dtype=np.int64)
        swp = np.full((len(boards), 52), -1, dtype=np.int64)
        children: list[tuple[int, int]] = []  # (parent slot, card) of each new slot
        for b, bd in enumerate(boards):
            ranks = _suit_ranks(bd)
            dead = set(bd)
            for c in range(52):
                if c in dead:
                    continue
                r, s = c >> 2, c & 3
                rc, sid = c, -1
                if isomorphism:
                    for s2 in range(s):
                        k = SWAPS.index((s2, s))
                        if sym[k] and ranks[s2] == ranks[s]:
                            rc, sid = r * 4 + s2, k
                            break
                rep[b, c] = rc
                swp[b, c] = sid
                if sid < 0:
                    nxt[b, c] = first_slot + len(children)
                    children.append((b, c))
            for c in range(52):
                if rep[b, c] >= 0 and swp[b, c] >= 0:
                    nxt[b, c] = nxt[b, rep[b, c]]
        return nxt, rep, swp, children

    empty = np.zeros((0, 52), dtype=np.int64)
    slot_cards: list[np.ndarray] = [np.zeros((0, 2), dtype=np.int64)] * 3
    slot_cards[street0] = np.full((1, 2), -1, dtype=np.int64)
    nxt_l: list[np.ndarray] = [empty, empty]
    rep_l: list[np.ndarray] = [empty, empty]
    swp_l: list[np.ndarray] = [empty, empty]
    boards_by_street: list[list[tuple[int, ...]]] = [[], [], []]
    boards_by_street[street0] = [tuple(board)]
    for s in range(street0, 2):
        nxt, rep, swp, children = level(boards_by_street[s], 0)
        nxt_l[s], rep_l[s], swp_l[s] = nxt, rep, swp
        boards_by_street[s + 1] = [boards_by_street[s][b] + (c,) for b, c in children]
        # each child's row: its parent's dealt cards, then its own card (-1 after them)
        ch = np.array(children, dtype=np.int64).reshape(-1, 2)
        sc = slot_cards[s][ch[:, 0]]
        sc[:, s - street0] = ch[:, 1]
        slot_cards[s + 1] = sc
    num_slots = tuple(len(boards_by_street[s]) for s in range(3))
    # showdown tables per river board, all boards in one kernel call (deal_kernels)
    boards = river_boards(tuple(board), slot_cards[2])
    tables = showdown_tables if kernel and boards.shape[0] >= KERNEL_MIN_BOARDS else showdown_tables_py
    sd_order, sd_strength, sd_count, sd_cards, sd_index = tables(
        boards, (combos[0], combos[1]), (hand_cards[0], hand_cards[1]))
    return Deal(combos=(combos[0], combos[1]), hand_cards=(hand_cards[0], hand_cards[1]),
                weights=(weights[0], weights[1]), same=(same[0], same[1]),
                card_start=(card_start[0], card_start[1]), card_hands=(card_hands[0], card_hands[1]),
                swap=(swap[0], swap[1]), next_slot=(nxt_l[0], nxt_l[1]), iso_rep=(rep_l[0], rep_l[1]),
                iso_swap=(swp_l[0], swp_l[1]), num_slots=(num_slots[0], num_slots[1], num_slots[2]),
                slot_cards=(slot_cards[0], slot_cards[1], slot_cards[2]),
                sd_order=(sd_order[0], sd_order[1]), sd_strength=(sd_strength[0], sd_strength[1]),
                sd_count=(sd_count[0], sd_count[1]), sd_cards=(sd_cards[0], sd_cards[1]),
                sd_index=(sd_index[0], sd_index[1]),
                board=tuple(board), isomorphism=isomorphism)


def count_slots(board: tuple[int, ...], ranges: np.ndarray, *,
                isomorphism: bool = True) -> tuple[int, int, int]:
    """Boards per street without building the showdown tables (for the memory estimate)."""
    street0 = len(board) - 3
    sym = [bool(np.allclose(ranges[0][_COMBO_SWAP[k]], ranges[0]) and np.allclose(ranges[1][_COMBO_SWAP[k]],
                                                                                 ranges[1]))
           for k in range(len(SWAPS))]
    boards = [tuple(board)]
    counts = [0, 0, 0]
    counts[street0] = 1
    for s in range(street0, 2):
        nxt: list[tuple[int, ...]] = []
        for bd in boards:
            ranks = _suit_ranks(bd)
            for c in range(52):
                if c in bd:
                    continue
                su = c & 3
                is_rep = True
                if isomorphism:
                    for s2 in range(su):
                        if sym[SWAPS.index((s2, su))] and ranks[s2] == ranks[su]:
                            is_rep = False
                            break
                if is_rep:
                    nxt.append(bd + (c,))
        boards = nxt
        counts[s + 1] = len(boards)
    return counts[0], counts[1], counts[2]
