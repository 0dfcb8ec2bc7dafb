import numpy as np
import pytest

from pokerlab.cards import evaluator as E
from pokerlab.cards.evaluator_kernels import category_counts_5, category_counts_7
from pokerlab.cards.evaluator_reference import strength_reference
from pokerlab.cards.hand_classes import CATEGORY_OF_STRENGTH, NUM_STRENGTHS
from pokerlab.errors import CardError

FIVE_CARD_COUNTS = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
SEVEN_CARD_COUNTS = [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584]


def test_all_five_card_hands():
    cats, seen = category_counts_5(E.eval_tables(), CATEGORY_OF_STRENGTH)
    assert cats.tolist() == FIVE_CARD_COUNTS
    assert cats.sum() == 2_598_960
    assert int((seen > 0).sum()) == NUM_STRENGTHS == 7462


@pytest.mark.slow
def test_all_seven_card_hands():
    cats = category_counts_7(E.eval_tables(), CATEGORY_OF_STRENGTH)
    assert cats.tolist() == SEVEN_CARD_COUNTS
    assert cats.sum() == 133_784_560


def test_single_hand_and_descriptions():
    assert E.evaluate("AsKsQsJsTs") == (7462, "Straight Flush", "Royal Flush")
    assert E.evaluate("7c5d4h3s2c")[0] == 1
    s, cat, desc = E.evaluate("KsKd7h7c9d2s3c")
    assert (cat, desc) == ("Two Pair", "Two Pair, Kings and Sevens")
    assert E.evaluate("5c4d3h2sAc")[2] == "Straight, Five-high"
    assert E.evaluate("AhAdAcKsKd")[2] == "Full House, Aces full of Kings"
    assert E.evaluate("2h2d2c2sKd")[2] == "Four of a Kind, Twos"
    assert E.evaluate("Ah9h7h4h2h")[2] == "Flush, Ace-high"
    # a flush beats a straight; the wheel loses to a six-high straight
    assert E.strength("Ah9h7h4h2h") > E.strength("9c8d7h6s5c")
    assert E.strength("6c5d4h3s2c") > E.strength("5c4d3h2sAc")
    # 7-card: the board plays
    assert E.strength("2c3dAsKsQhJdTc") == E.strength("4c5dAsKsQhJdTc")


def test_bad_input():
    with pytest.raises(CardError):
        E.strength("AsKs")
    with pytest.raises(CardError, match="twice"):
        E.strength("AsAsKdQhJc")
    with pytest.raises(CardError):
        E.evaluate_batch(np.zeros((3, 4), dtype=np.int8))
    with pytest.raises(CardError):
        E.evaluate_batch(np.full((3, 7), 52))


@pytest.mark.parametrize("n", [5, 6, 7])
def test_parity_with_reference(n):
    rng = np.random.default_rng(n)
    hands = np.array([rng.choice(52, n, replace=False) for _ in range(3000)])
    fast = E.evaluate_batch(hands)
    serial = E.evaluate_batch(hands, parallel=False)
    ref = np.array([strength_reference(h.tolist()) for h in hands])
    assert np.array_equal(fast, ref)
    assert np.array_equal(serial, ref)
    assert all(E.strength(h.tolist()) == r for h, r in zip(hands[:200], ref[:200], strict=True))


def test_shipped_tables_match_rebuild():
    built = E.build_tables()
    shipped = E.eval_tables()
    for a, b in zip(built, shipped, strict=True):
        assert np.array_equal(a, b)


def test_strengths_on_board():
    board = [0, 5, 10, 20, 30]
    s = E.strengths_on_board(board)
    blocked = s == 0
    assert blocked.sum() == 1326 - 1081
    from pokerlab.cards import COMBOS

    idx = np.flatnonzero(~blocked)[:100]
    for i in idx:
        assert s[i] == strength_reference([*map(int, COMBOS[i]), *board])


def test_ordering_agrees_with_eval7():
    eval7 = pytest.importorskip("eval7")
    rng = np.random.default_rng(7)
    n = 1_000_000
    # a random 7-card pair per row: 14 distinct cards
    deck = np.argsort(rng.random((n, 52)), axis=1)[:, :14].astype(np.int8)
    ours_a = E.evaluate_batch(deck[:, :7])
    ours_b = E.evaluate_batch(deck[:, 7:])
    ours = np.sign(ours_a.astype(np.int64) - ours_b)
    cards = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    ev = eval7.evaluate
    theirs = np.empty(n, dtype=np.int64)
    for k in range(n):
        row = deck[k]
        a = ev([cards[c] for c in row[:7]])
        b = ev([cards[c] for c in row[7:]])
        theirs[k] = (a > b) - (a < b)
    assert np.array_equal(ours, theirs)
