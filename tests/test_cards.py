import numpy as np
import pytest

from pokerlab.cards import (
    CLASS_NAMES,
    CLASS_SIZES,
    COMBOS,
    canonical_form,
    card_str,
    class_combos,
    combo_index,
    combo_str,
    combos_blocked_by,
    parse_board,
    parse_card,
    parse_cards,
    parse_hole,
    permute_cards,
    preflop_class,
)
from pokerlab.errors import CardError


def test_card_round_trip():
    assert parse_card("2c") == 0
    assert parse_card("As") == 51
    assert parse_card("Td") == 8 * 4 + 1
    assert [card_str(c) for c in range(52)] == [r + s for r in "23456789TJQKA" for s in "cdhs"]
    assert all(parse_card(card_str(c)) == c for c in range(52))
    assert parse_cards("AsKdQh") == [51, 45, 42]
    assert parse_cards("As Kd, Qh") == [51, 45, 42]
    assert parse_card("10h") == parse_card("Th")


@pytest.mark.parametrize(
    "bad, fragment",
    [("Ax", "'Ax'"), ("1s", "'1s'"), ("Zs", "'Zs'"), ("A", "'A'"), ("Asz", "'Asz'")],
)
def test_bad_card_names_offending_text(bad, fragment):
    with pytest.raises(CardError) as e:
        parse_card(bad)
    assert fragment in str(e.value)


def test_bad_card_lists():
    with pytest.raises(CardError, match="As given twice"):
        parse_cards("AsKdAs")
    with pytest.raises(CardError, match="got 2"):
        parse_board("AsKd")
    with pytest.raises(CardError, match="exactly 2"):
        parse_hole("AsKdQh")
    with pytest.raises(CardError, match="'AsK'"):
        parse_cards("AsK")


def test_combos():
    assert COMBOS.shape == (1326, 2)
    assert len({tuple(c) for c in COMBOS}) == 1326
    assert combo_index(51, 50) == combo_index(50, 51) == 1325
    assert combo_str(1325) == "AsAh"
    assert combos_blocked_by([51]).sum() == 51
    assert combos_blocked_by(parse_cards("AsKsQs")).sum() == 3 * 51 - 3


def test_preflop_classes():
    assert len(CLASS_NAMES) == 169
    assert CLASS_NAMES[0] == "AA" and CLASS_NAMES[1] == "AKs" and CLASS_NAMES[13] == "AKo"
    assert CLASS_NAMES[168] == "22"
    assert sorted(set(CLASS_SIZES.tolist())) == [4, 6, 12]
    assert (CLASS_SIZES == 6).sum() == 13 and (CLASS_SIZES == 4).sum() == 78
    assert preflop_class(*parse_cards("AsKs")) == "AKs"
    assert preflop_class(*parse_cards("Th9d")) == "T9o"
    assert preflop_class(*parse_cards("7h7d")) == "77"
    assert len(class_combos("t9o")) == 12


def test_canonical_form_isomorphism():
    hole, board = parse_cards("AsKs"), parse_cards("2s7h9h")
    base = canonical_form(hole, board)
    rng = np.random.default_rng(0)
    for _ in range(20):
        perm = rng.permutation(4)
        h2 = permute_cards(np.array(hole), perm).tolist()
        b2 = permute_cards(np.array(board), perm).tolist()
        assert canonical_form(h2, b2) == base
    assert canonical_form(parse_cards("AsKh"), []) != canonical_form(parse_cards("AsKs"), [])
    # 169 preflop classes == number of distinct canonical hole-card forms
    forms = {canonical_form(list(map(int, c)), []) for c in COMBOS}
    assert len(forms) == 169


def test_deal_possible_counts_pairs_by_cards_as_brute_force_does():
    """``deal_possible`` (pairs sharing a card counted by cards) against every pair."""
    from pokerlab.cards import COMBO_INDEX, COMBO_MASKS, deal_possible

    rng = np.random.default_rng(5)
    cases = []
    for size in (1, 2, 3, 5, 20, 200):
        for _ in range(40):
            r0 = np.zeros(1326)
            r1 = np.zeros(1326)
            r0[rng.choice(1326, size=size, replace=False)] = rng.random(size) + 0.1
            r1[rng.choice(1326, size=max(1, size // 2), replace=False)] = 1.0
            cases.append((r0, r1))
    # ranges that block each other: one hand against every hand holding one of its cards
    ak = COMBO_INDEX[48, 44]
    r0 = np.zeros(1326)
    r0[ak] = 1.0
    blocking = ((COMBO_MASKS & COMBO_MASKS[ak]) != 0).astype(float)
    cases += [(r0, blocking), (blocking, r0), (r0, r0), (np.zeros(1326), blocking)]
    # the same one hand and one other sharing a card: no deal; one disjoint hand: a deal
    r1 = np.zeros(1326)
    r1[COMBO_INDEX[48, 40]] = 1.0
    cases.append((r0 + r1, r1))
    r2 = r1.copy()
    r2[COMBO_INDEX[0, 1]] = 0.5
    cases.append((r0 + r1, r2))
    got = [deal_possible(a, b) for a, b in cases]
    want = [bool(np.any((COMBO_MASKS[a > 0][:, None] & COMBO_MASKS[b > 0][None, :]) == 0)) for a, b in cases]
    assert got == want
    assert got[-6:] == [False, False, False, False, False, True]
    assert 0 < sum(got) < len(got)
