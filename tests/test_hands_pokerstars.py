"""pokerlab's PokerStars reader, hand by hand against PokerKit's converter, on generated
files (cash in dollars, tournaments, play chips, 2-9 players, antes, straddles, all-ins,
side pots, uncalled bets, shows/mucks/collected, both river-line forms, rake)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from pokerlab.hands import HandDB, RawHand, Rejection, replay
from pokerlab.hands.generate import random_hands, to_pokerstars
from pokerlab.hands.pokerstars import iter_pokerstars_text

GENS = random_hands(160, seed=11, pokerstars=True)


def _ours(text: str) -> list[RawHand]:
    out = list(iter_pokerstars_text(text, source="g.txt"))
    assert all(isinstance(h, RawHand) for h in out), [h for h in out if isinstance(h, Rejection)][:2]
    return [h for h in out if isinstance(h, RawHand)]


def test_every_generated_hand_replays_to_pokerkits_result() -> None:
    text = to_pokerstars(GENS, seed=1)
    hands = _ours(text)
    assert len(hands) == len(GENS)
    kinds = {"tournament": 0, "cents": 0, "chips": 0, "antes": 0, "straddle": 0, "rake": 0}
    for h, g in zip(hands, GENS, strict=True):
        f = replay(h)
        assert [p[4] for p in f.players] == [float(x) for x in g.expected_finish()]
        assert sum(p[5] for p in f.players) == pytest.approx(-f.rake)
        assert f.rake == g.rake
        assert h.unit == ("0.01" if g.cents else "1")
        kinds["tournament"] += g.tournament
        kinds["cents"] += g.cents
        kinds["chips"] += not g.cents and not g.tournament
        kinds["antes"] += any(g.antes)
        kinds["straddle"] += len([b for b in g.blinds if b]) > 2
        kinds["rake"] += g.rake > 0
    assert all(v > 0 for v in kinds.values()), kinds
    assert {len(g.stacks) for g in GENS} >= {2, 3, 6, 9}


def test_both_river_line_forms_read_the_same() -> None:
    joined = [h.actions for h in _ours(to_pokerstars(GENS, seed=2, river_split=0.0))]
    split = [h.actions for h in _ours(to_pokerstars(GENS, seed=2, river_split=1.0))]
    assert joined == split
    assert sum(1 for a in joined if sum(x.startswith("d db") for x in a) == 3) > 10


def _pokerkit(block: str, cents: bool) -> object:
    from pokerkit.notation import PokerStarsParser

    def value(s: str) -> int:
        s = s.replace(",", "")
        return round(float(s) * 100) if cents else int(s)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return PokerStarsParser()._parse(block, value)


def test_hand_by_hand_against_pokerkits_converter() -> None:
    """Where PokerKit's converter is right: it does not read antes or straddles, and takes
    the wrong card from a river line of the form ``[a b c] [d] [e]``."""
    plain = [g for g in GENS if not any(g.antes) and len([b for b in g.blinds if b]) == 2]
    assert len(plain) > 60
    text = to_pokerstars(plain, seed=3, river_split=0.0)
    ours = _ours(text)
    blocks = [b.strip("\n") for b in text.split("\n\n\n") if b.strip()]
    assert len(blocks) == len(ours)
    for block, h, g in zip(blocks, ours, plain, strict=True):
        hh = _pokerkit(block, g.cents)
        assert h.players == list(hh.players)  # type: ignore[attr-defined]
        assert h.starting_stacks == list(hh.starting_stacks)  # type: ignore[attr-defined]
        assert h.blinds_or_straddles == list(hh.blinds_or_straddles)  # type: ignore[attr-defined]
        theirs = [a for a in hh.actions if "????" not in a]  # type: ignore[attr-defined]
        # PokerKit writes the shows where its state reveals them; compare both in order
        mine_bet = [a for a in h.actions if " sm " not in a]
        theirs_bet = [a for a in theirs if " sm " not in a]
        assert mine_bet == theirs_bet, block
        assert sorted(a for a in h.actions if " sm " in a) == sorted(
            a for a in theirs if " sm " in a
        )
        # PokerKit's result has no rake; ours is PokerKit's minus the rake the site took
        *_, state = iter(hh)  # type: ignore[call-overload]
        assert [int(x) for x in state.stacks] == g.final


def test_rejections_say_why() -> None:
    text = to_pokerstars(GENS[:3], seed=4)
    blocks = text.split("\n\n\n")
    omaha = blocks[0].replace("Hold'em No Limit", "Omaha Pot Limit", 1)
    twice = blocks[1].replace("*** FLOP ***", "*** FIRST FLOP ***", 1)
    items = list(iter_pokerstars_text("\n\n\n".join([omaha, twice, blocks[2]]), source="x.txt"))
    assert isinstance(items[0], Rejection) and "only no-limit hold'em" in items[0].message
    if "*** FIRST FLOP ***" in twice:
        assert isinstance(items[1], Rejection) and "run it twice" in items[1].message
    assert isinstance(items[2], RawHand)
    assert "x.txt (hand #1)" in str(items[0])


def test_import_of_generated_file(tmp_path: Path) -> None:
    path = tmp_path / "stars.txt"
    path.write_text(to_pokerstars(GENS, seed=5))
    with HandDB(path=tmp_path / "h.duckdb") as db:
        rep = db.import_paths([path], group="stars")
        assert rep.ok and rep.stored == len(GENS)
        (net, rake), = db.query(
            "SELECT (SELECT sum(net) FROM hand_players), (SELECT sum(rake) FROM hands)"
        )
        assert net == pytest.approx(-rake) and rake == sum(g.rake for g in GENS)
        assert db.query("SELECT DISTINCT grp FROM hands") == [("stars",)]
        cur = dict(db.query("SELECT coalesce(currency, '-'), count(*) FROM hands GROUP BY 1"))
        assert cur["USD"] == sum(g.cents for g in GENS)
        # per-player money: the dollars won in cash hands, which sum to minus the dollar rake
        from pokerlab.hands import player_stats

        usd = sum(s.net_currency.get("USD", 0.0) for s in player_stats(db))
        rake_usd = sum(g.rake for g in GENS if g.cents) / 100
        assert usd == pytest.approx(-rake_usd)
        pooled = player_stats(db, group="all")
        assert pooled[0].net_currency["USD"] == pytest.approx(-rake_usd)
