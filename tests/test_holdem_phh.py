"""PHH round trips of engine hands: written through pokerkit.HandHistory, read back by
our engine and replayed by PokerKit to the same finishing stacks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pokerkit")

from pokerlab.agents.oracle import random_config  # noqa: E402
from pokerlab.agents.random_agent import DEFAULT_WEIGHTS, SplitMix64, play_hand  # noqa: E402
from pokerlab.cards.cards import parse_cards  # noqa: E402
from pokerlab.errors import HandHistoryError  # noqa: E402
from pokerlab.holdem import phh  # noqa: E402
from pokerlab.holdem.engine import HoldemConfig, HoldemState  # noqa: E402


def _hands(n: int, seed: int) -> list[HoldemState]:
    rng = random.Random(seed)
    return [play_hand(HoldemState(config=random_config(rng)), SplitMix64(seed + i),
                      DEFAULT_WEIGHTS) for i in range(n)]


def test_known_hand_text() -> None:
    s = HoldemState(config=HoldemConfig(stacks=(1000, 800), small_blind=5, big_blind=10,
                                        ante=1))
    s.deal_hole(parse_cards("AsAh"))
    s.deal_hole(parse_cards("KdKc"))
    s.raise_to(30)  # p2 is the button / small blind and acts first
    s.raise_to(799)  # p1 (big blind) shoves
    s.check_or_call()
    s.deal_board(parse_cards("2c7d9h"))
    s.deal_board(parse_cards("Js"))
    s.deal_board(parse_cards("3d"))
    text = phh.dumps(s, hand=7, players=["bb-player", "button"])
    assert "blinds_or_straddles = [5, 10]" in text
    assert "starting_stacks = [1000, 800]" in text
    assert ("actions = ['d dh p1 AsAh', 'd dh p2 KdKc', 'p2 cbr 30', 'p1 cbr 799', 'p2 cc', "
            "'p1 sm AsAh', 'p2 sm KdKc', 'd db 2c7d9h', 'd db Js', 'd db 3d']") in text
    assert "finishing_stacks = [1800, 0]" in text
    hh = phh.to_hand_history(s)
    assert phh.pokerkit_finishing_stacks(hh) == (1800, 0)
    back = phh.loads_all(text)[0]
    assert back.history == s.history and back.final_stacks() == (1800, 0)


def test_round_trip_many_hands(tmp_path: Path) -> None:
    hands = _hands(300, 9)
    path = tmp_path / "hands.phhs"
    assert phh.write_phhs(path, hands, players=["a", "b"]) == 300
    back = phh.read_phhs(path)
    assert len(back) == 300
    for a, b in zip(hands, back, strict=True):
        assert a.config == b.config and a.history == b.history
        assert a.final_stacks() == b.final_stacks()
    # PokerKit replays every hand of the file to the same finishing stacks.
    assert phh.pokerkit_replay_file(path) == [h.final_stacks() for h in hands]


def test_bad_histories_raise() -> None:
    s = _hands(1, 3)[0]
    text = phh.dumps(s)
    with pytest.raises(HandHistoryError, match="variant"):
        phh.loads_all(text.replace("'NT'", "'FT'"))
    with pytest.raises(HandHistoryError):
        phh.loads_all("this is = not toml [")
    bad = text.replace("actions = ['d dh p1", "actions = ['p1 cbr 1', 'd dh p1")
    with pytest.raises(HandHistoryError, match="action 1"):
        phh.loads_all(bad)
    with pytest.raises(HandHistoryError, match="cannot read"):
        phh.read_phhs("/nonexistent/x.phhs")
