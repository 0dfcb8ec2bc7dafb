"""The showdown-table kernel of build_deal (pokerlab/subgame/deal_kernels.py): parity with its
plain twin bit for bit (same order, ties included, same dtypes and shapes) on flop, turn and
river spots, with and without isomorphism, narrow, full, one-combo and board-blocking ranges;
build_deal field by field against the twin path; the tables' numbers on a known river."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from pokerlab.cards.cards import COMBOS, NUM_COMBOS, combo_index, parse_cards
from pokerlab.cards.evaluator import eval_tables, strength
from pokerlab.subgame import deal_kernels as DK
from pokerlab.subgame import make_spot, tree_config
from pokerlab.subgame.deal import Deal, build_deal, river_boards
from pokerlab.subgame.solver_kernels import showdown_index


def _ranges(kind: str, board: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    live = np.array([i for i in range(NUM_COMBOS) if not set(COMBOS[i].tolist()) & set(board)])
    r = np.zeros((2, NUM_COMBOS))
    if kind == "full":
        r[:, live] = 1.0
    elif kind == "narrow":
        r[0, rng.choice(live, 60, replace=False)] = rng.random(60) + 0.05
        r[1, rng.choice(live, 150, replace=False)] = rng.random(150) + 0.05
    elif kind == "one":  # a range of one combo against a full one
        r[0, live[17]] = 1.0
        r[1, live] = 1.0
    elif kind == "blocking":  # weight on combos holding board cards (never live) in both ranges
        r[0, rng.choice(NUM_COMBOS, 200, replace=False)] = 1.0
        r[1, rng.choice(NUM_COMBOS, 90, replace=False)] = 0.5
        for p in (0, 1):
            r[p, combo_index(board[0], board[1])] = 1.0
            r[p, [i for i in range(NUM_COMBOS) if board[2] in COMBOS[i]][:5]] = 1.0
    return r


def _assert_tables_equal(a: DK.SdTables, b: DK.SdTables) -> None:
    for name, x, y in zip(("order", "strength", "count", "cards", "index"), a, b, strict=True):
        for p in (0, 1):
            assert x[p].dtype == y[p].dtype, name
            assert x[p].shape == y[p].shape, name
            np.testing.assert_array_equal(x[p], y[p], err_msg=name)


def _assert_deals_equal(a: Deal, b: Deal) -> None:
    for f in fields(Deal):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, tuple) and x and isinstance(x[0], np.ndarray):
            assert len(x) == len(y), f.name
            for u, v in zip(x, y, strict=True):
                assert u.dtype == v.dtype and u.shape == v.shape, f.name
                np.testing.assert_array_equal(u, v, err_msg=f.name)
        else:
            assert x == y, f.name


CASES = [("Td9d6h", True, "full"), ("Td9d6h", True, "narrow"), ("Td9d6h", False, "narrow"),
         ("Td9d6h", True, "one"), ("AsKsQs", True, "blocking"), ("7c7d7h", True, "full"),
         ("Td9d6h2c", False, "full"), ("Td9d6h2c", True, "narrow"), ("Td9d6h2c", False, "one"),
         ("Td9d6h2c", True, "blocking"), ("8s8h3d3c", True, "full"), ("Td9d6h2c3s", False, "full"),
         ("Td9d6h2c3s", False, "blocking")]


@pytest.mark.parametrize("board_s,iso,kind", CASES)
def test_kernel_matches_twin(board_s: str, iso: bool, kind: str) -> None:
    board = tuple(parse_cards(board_s))
    ranges = _ranges(kind, board)
    d = build_deal(board, ranges, isomorphism=iso)
    boards = river_boards(board, d.slot_cards[2])
    assert boards.shape == (d.num_slots[2], 5) and boards.dtype == np.int64
    got = DK.showdown_tables(boards, d.combos, d.hand_cards)
    ref = DK.showdown_tables_py(boards, d.combos, d.hand_cards)
    _assert_tables_equal(got, ref)
    # build_deal through the twin path: every field equal
    _assert_deals_equal(d, build_deal(board, ranges, isomorphism=iso, kernel=False))


def test_full_flop_without_isomorphism_matches_twin() -> None:
    board = tuple(parse_cards("Td9d6h"))
    ranges = _ranges("full", board)
    d = build_deal(board, ranges, isomorphism=False)
    assert d.num_slots == (1, 49, 2352)
    _assert_deals_equal(d, build_deal(board, ranges, isomorphism=False, kernel=False))


def test_uncompiled_rows_match_twin() -> None:
    # the kernel's own logic run as plain Python (numba's py_func) on a turn spot
    board = tuple(parse_cards("Td9d6h2c"))
    d = build_deal(board, _ranges("narrow", board, seed=5), isomorphism=False)
    boards = river_boards(board, d.slot_cards[2])
    union = np.union1d(d.combos[0], d.combos[1])
    uidx = []
    for p in (0, 1):
        m = np.full(union.shape[0], -1, dtype=np.int64)
        m[np.searchsorted(union, d.combos[p])] = np.arange(d.combos[p].shape[0])
        uidx.append(m)
    nb = boards.shape[0]
    outs = [(np.zeros((nb, n), np.int32), np.zeros((nb, n), np.int16), np.zeros(nb, np.int64),
             np.zeros((nb, 2 * n), np.uint8), np.zeros((nb, 2 * n), np.int64)) for n in d.num_hands]
    DK.showdown_tables_rows.py_func(eval_tables(), boards, COMBOS[union].astype(np.int64), uidx[0], uidx[1],
                                    d.hand_cards[0], d.hand_cards[1], *outs[0], *outs[1], 0, boards.shape[0])
    o, s, c, k, i = ((outs[0][j], outs[1][j]) for j in range(5))
    _assert_tables_equal((o, s, c, k, i), DK.showdown_tables_py(boards, d.combos, d.hand_cards))


def test_tables_on_a_known_river() -> None:
    # river Td9d6h2c3s, OOP {87s (straight), AA, 22 (set), 3s3d... blocked}, IP {QJs, 22}
    board = tuple(parse_cards("Td9d6h2c3s"))
    ranges = np.zeros((2, NUM_COMBOS))
    hands0 = ["8c7c", "AhAs", "AdAc", "2d2h", "3s3d", "KhKd"]
    hands1 = ["QhJh", "2s2h", "AhAs"]
    for p, hs in ((0, hands0), (1, hands1)):
        for h in hs:
            a, b = parse_cards(h)
            ranges[p, combo_index(min(a, b), max(a, b))] = 1.0
    d = build_deal(board, ranges, isomorphism=False)
    assert d.num_slots == (0, 0, 1)
    # hand indices follow ascending combo id; 3s3d holds the board's 3s, so it is never live
    cnt0, cnt1 = int(d.sd_count[0][0]), int(d.sd_count[1][0])
    assert (cnt0, cnt1) == (5, 3)
    s0 = d.sd_strength[0][0][:cnt0]
    assert np.all(np.diff(s0.astype(np.int64)) >= 0)
    # strengths are the evaluator's, hand by hand
    for q in range(cnt0):
        hi = int(d.sd_order[0][0][q])
        assert int(s0[q]) == strength(list(board) + d.hand_cards[0][hi].tolist())
        assert d.sd_cards[0][0][2 * q: 2 * q + 2].tolist() == d.hand_cards[0][hi].tolist()
    # AhAs and AdAc tie: the lower hand index first (stable)
    aces = [q for q in range(cnt0) if d.hand_cards[0][int(d.sd_order[0][0][q])][0] >> 2 == 12]
    assert len(aces) == 2 and s0[aces[0]] == s0[aces[1]]
    assert d.sd_order[0][0][aces[0]] < d.sd_order[0][0][aces[1]]
    # the strongest OOP hand is the straight 8c7c; the weakest KhKd
    best = d.hand_cards[0][int(d.sd_order[0][0][cnt0 - 1])].tolist()
    worst = d.hand_cards[0][int(d.sd_order[0][0][0])].tolist()
    assert sorted(best) == sorted(parse_cards("8c7c")) and sorted(worst) == sorted(parse_cards("KhKd"))
    # the padding after the live hands stays zero
    assert d.sd_order[0][0][cnt0:].tolist() == [0] and d.sd_cards[0][0][2 * cnt0:].tolist() == [0, 0]
    # index words: IP's hands weaker / not stronger than each OOP hand (QJs < AA < 22 set < 87s)
    idx = d.sd_index[0][0]
    n0 = d.num_hands[0]
    assert [int(w) & 4095 for w in idx[:cnt0]] == [1, 1, 1, 2, 3]
    assert [int(w) & 4095 for w in idx[n0:n0 + cnt0]] == [1, 2, 2, 3, 3]
    ref = np.zeros_like(idx)
    showdown_index.py_func(d.sd_order[0][0], d.sd_strength[0][0], d.sd_cards[0][0], d.sd_count[0][0],
                           d.sd_strength[1][0], d.sd_cards[1][0], d.sd_count[1][0], ref)
    np.testing.assert_array_equal(idx, ref)


def test_card_lists_and_slot_cards() -> None:
    # the per-card hand lists (CSR) and the dealt cards per slot, against plain loops
    sp = make_spot(board="As7d2c", pot=10, stack=10, oop="KK,QQ,AK", ip="JJ,T9s,A7o",
                   tree=tree_config(bets="none"))
    d = build_deal(sp.board, sp.ranges, isomorphism=True)
    for p in (0, 1):
        lists: list[list[int]] = [[] for _ in range(52)]
        for i, (a, b) in enumerate(d.hand_cards[p].tolist()):
            lists[a].append(i)
            lists[b].append(i)
        assert d.card_start[p].tolist() == [0] + np.cumsum([len(x) for x in lists]).tolist()
        assert d.card_hands[p].tolist() == [i for x in lists for i in x]
        assert d.card_start[p].dtype == np.int64 and d.card_hands[p].dtype == np.int64
    turns = d.slot_cards[1]
    assert turns.shape == (d.num_slots[1], 2) and np.all(turns[:, 1] == -1)
    for j, (t, r) in enumerate(d.slot_cards[2].tolist()):
        assert r >= 0 and t in turns[:, 0] and r != t
        assert d.board_of(2, j) == sp.board + (t, r)
    boards = river_boards(sp.board, d.slot_cards[2])
    assert boards[:, :3].tolist() == [list(sp.board)] * d.num_slots[2]
    assert boards[:, 3:].tolist() == d.slot_cards[2].tolist()
