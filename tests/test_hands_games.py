"""Per-game (table-level) statistics: hand-made hands with known answers, and the Pluribus
hands recounted directly from PokerKit's replays."""

from __future__ import annotations

import lzma
import random
from pathlib import Path
from typing import Any

import pytest

from pokerlab.hands import HandDB, RawHand
from pokerlab.hands.phh import iter_phh_text
from pokerlab.hands.stats import game_stats

DATA = Path(__file__).parent / "data" / "hands"
BOARD = ["d db 4d5d9h", "d db Tc", "d db Jc"]


def _hand(actions: list[str], k: int) -> RawHand:
    return RawHand(
        variant="NT",
        antes=[0, 0, 0],
        blinds_or_straddles=[1, 2, 0],
        min_bet=2,
        starting_stacks=[100, 100, 100],
        actions=actions,
        hand=str(k),
    )


ALLIN = ["d dh p1 2c3c", "d dh p2 AsAh", "d dh p3 KsKh", "p3 cbr 100", "p1 f", "p2 cc",
         *BOARD, "p2 sm AsAh", "p3 sm KsKh"]
SHOWDOWN = ["p3 cc", "p1 cc", "p2 cc", BOARD[0], "p1 cc", "p2 cbr 4", "p3 cc", "p1 f",
            BOARD[1], "p2 cc", "p3 cc", BOARD[2], "p2 cc", "p3 cc"]
WALK = ["p3 f", "p1 f"]
POT_RAISE = ["p3 cbr 7", "p1 f", "p2 f"]  # pot 3, call 2: raise by 5 = the pot after calling


def _db(tmp_path: Path, hands: list[RawHand], name: str = "g") -> HandDB:
    db = HandDB(path=tmp_path / f"{name}.duckdb")
    rep = db.import_hands(hands, group=name)
    assert rep.ok and rep.stored == len(hands), rep.rejections
    return db


def test_known_answers(tmp_path: Path) -> None:
    hands = [_hand(a, k) for k, a in enumerate((ALLIN, SHOWDOWN, WALK, POT_RAISE))]
    with _db(tmp_path, hands) as db:
        gs = game_stats(db, group="g")
        assert game_stats(db, group="other")["hands"] == 0
    assert gs["hands"] == 4
    # entered: pokerlab VPIP 2 + 2 + 0 + 1 of 12 seats; thesis adds the big blind's check
    assert gs["entered_share"] == {"pokerlab": round(5 / 12, 4), "thesis": round(6 / 12, 4)}
    assert gs["allin_share"] == 0.25
    assert gs["showdown_share"] == 0.5
    # bets/raises: all-in raise (98 over 3 + 2; 100 added to 3), flop bet 4 into 6, pot raise
    assert gs["raise_pot_ratio"]["pokerlab"] == pytest.approx((98 / 5 + 4 / 6 + 1.0) / 3, abs=1e-4)
    assert gs["raise_pot_ratio"]["thesis"] == pytest.approx((100 / 3 + 4 / 6 + 7 / 3) / 3, abs=1e-4)
    # preflop: 201, 6, 3, 10 chips = 100.5, 3, 1.5, 5 bb; flop 8 chips = 4 bb in one hand
    assert gs["bet_per_street_bb"]["pokerlab"] == {
        "preflop": 27.5, "flop": 1.0, "turn": 0.0, "river": 0.0,
    }
    assert gs["bet_per_street_bb"]["thesis"] == {
        "preflop": 27.5, "flop": 2.0, "turn": 0.0, "river": 0.0,
    }
    assert gs["currency"] is None and gs["bet_per_street_currency"] is None


def test_pot_raise_alone_and_currency(tmp_path: Path) -> None:
    with _db(tmp_path, [_hand(POT_RAISE, 0)], "pot") as db:
        gs = game_stats(db)
    assert gs["raise_pot_ratio"] == {"pokerlab": 1.0, "thesis": round(7 / 3, 4)}
    (h,) = list(iter_phh_text(
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [0.05, 0.10, 0]\n"
        "min_bet = 0.10\nstarting_stacks = [10, 10, 10]\ncurrency_symbol = '$'\n"
        "actions = ['p3 cbr 0.35', 'p1 f', 'p2 f']\n"
    ))
    assert isinstance(h, RawHand)
    with _db(tmp_path, [h], "usd") as db:
        gs = game_stats(db)
    assert gs["currency"] == "$"
    assert gs["bet_per_street_currency"]["preflop"] == pytest.approx(0.5)
    assert gs["bet_per_street_bb"]["pokerlab"]["preflop"] == pytest.approx(5.0)
    assert gs["raise_pot_ratio"]["pokerlab"] == 1.0


def _recount(texts: list[str]) -> dict[str, Any]:
    """The per-game statistics counted directly from PokerKit's replay of each hand."""
    from pokerkit.notation import HandHistory

    seats = entered_pl = entered_th = allin_hands = showdowns = 0
    ratios_pl: list[float] = []
    ratios_th: list[float] = []
    street_sum = [0.0] * 4
    street_reached = [0] * 4
    for text in texts:
        hh = HandHistory.loads(text)
        n = len(hh.starting_stacks)
        bb = max(hh.blinds_or_straddles)
        seats += n
        put = [float(sum(min(b, s) for b, s in zip(hh.blinds_or_straddles, hh.starting_stacks,
                                                       strict=True))), 0.0, 0.0, 0.0]
        street = 0
        folded: set[int] = set()
        vpip: set[int] = set()
        entered: set[int] = set()
        allin = False
        prev: dict[str, Any] = {}
        for state, action in hh.state_actions:
            if action is not None:
                w = action.split()
                if w[0] == "d" and w[1] == "db":
                    street += 1
                elif w[0] != "d" and w[1] in ("f", "cc", "cbr"):
                    i = int(w[0][1:]) - 1
                    added = prev["stacks"][i] - state.stacks[i]
                    put[street] += added
                    if w[1] == "f":
                        folded.add(i)
                    else:
                        if street == 0:
                            entered.add(i)
                            if added > 0 and (w[1] == "cbr" or prev["to_call"] > 0):
                                vpip.add(i)
                        if added > 0 and state.stacks[i] == 0:
                            allin = True
                    if w[1] == "cbr":
                        pot_before = prev["pot"]
                        to_call = prev["to_call"]
                        size = int(w[2]) - max(prev["bets"])
                        ratios_pl.append(size / (pot_before + to_call))
                        ratios_th.append(added / pot_before)
            prev = {
                "stacks": list(state.stacks),
                "bets": list(state.bets),
                "pot": state.total_pot_amount,
                "to_call": state.checking_or_calling_amount or 0 if state.actor_index is not None else 0,
            }
        entered_pl += len(vpip)
        entered_th += len(entered)
        allin_hands += allin
        showdowns += n - len(folded) >= 2
        for s in range(4):
            if street >= s:
                street_reached[s] += 1
            street_sum[s] += put[s] / bb
    h = len(texts)
    names = ("preflop", "flop", "turn", "river")
    return {
        "hands": h,
        "entered_share": {"pokerlab": round(entered_pl / seats, 4), "thesis": round(entered_th / seats, 4)},
        "allin_share": round(allin_hands / h, 4),
        "showdown_share": round(showdowns / h, 4),
        "raise_pot_ratio": {
            "pokerlab": round(sum(ratios_pl) / len(ratios_pl), 4),
            "thesis": round(sum(ratios_th) / len(ratios_th), 4),
        },
        "bet_per_street_bb": {
            "pokerlab": {n_: round(street_sum[s] / h, 4) for s, n_ in enumerate(names)},
            "thesis": {
                n_: round(street_sum[s] / street_reached[s], 4) for s, n_ in enumerate(names)
            },
        },
    }


def _pluribus_texts() -> list[str]:
    text = lzma.decompress((DATA / "pluribus.phhs.xz").read_bytes()).decode()
    return [p.split("\n", 1)[1] for p in text.split("\n[")]


@pytest.mark.parametrize("count", [600, pytest.param(10_000, marks=pytest.mark.slow)])
def test_pluribus_equal_to_pokerkit_recount(tmp_path: Path, count: int) -> None:
    texts = _pluribus_texts()
    if count < len(texts):
        texts = random.Random(3).sample(texts, count)
    phhs = tmp_path / "s.phhs"
    phhs.write_text("".join(f"[{k + 1}]\n{t}\n" for k, t in enumerate(texts)))
    with HandDB(path=tmp_path / "p.duckdb") as db:
        assert db.import_paths([phhs], group="plur").ok
        gs = game_stats(db, group="plur")
    want = _recount(texts)
    for key, value in want.items():
        if isinstance(value, dict) and key == "bet_per_street_bb":
            for d in ("pokerlab", "thesis"):
                assert gs[key][d] == pytest.approx(value[d], abs=2e-4), key
        elif isinstance(value, dict):
            assert gs[key] == pytest.approx(value, abs=2e-4), key
        else:
            assert gs[key] == pytest.approx(value, abs=2e-4), key


def test_cli_per_game(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from pokerlab.cli import app

    hands = [_hand(a, k) for k, a in enumerate((ALLIN, SHOWDOWN, WALK, POT_RAISE))]
    _db(tmp_path, hands, "mine").close()
    r = CliRunner().invoke(
        app,
        ["hands", "stats", "--per-game", "--group", "mine", "--db", str(tmp_path / "mine.duckdb"),
         "--json"],
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["group"] == "mine" and out["hands"] == 4 and out["allin_share"] == 0.25
