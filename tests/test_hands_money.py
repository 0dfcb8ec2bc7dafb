"""Hand histories as real sites write them (issue 19): decimal money amounts, rake, walks,
shows after an uncontested win, heads-up blinds in either order, winnings checked against
the pot, exit codes and messages of ``hands import``.  Every file is written here."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pokerlab.errors import HandHistoryError
from pokerlab.hands import HandDB, RawHand, replay
from pokerlab.hands.generate import random_hands, to_phh_decimal
from pokerlab.hands.phh import iter_phh_text

DATA = Path(__file__).parent / "data" / "hands"


def _phh(body: str) -> RawHand:
    (h,) = list(iter_phh_text(body, source="t.phh"))
    assert isinstance(h, RawHand), h
    return h


def _nets(h: RawHand) -> list[float]:
    return [p[5] for p in replay(h).players]


HU_DOLLARS = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [0.50, 1]
min_bet = 1
starting_stacks = [200.30, 100]
actions = [
  'd dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 3.25', 'p1 cc', 'd db 2c3d4h', 'p1 cc', 'p2 cc',
  'd db 9s', 'p1 cc', 'p2 cc', 'd db Td', 'p1 cc', 'p2 cc', 'p1 sm AsAh', 'p2 sm KsKh',
]
currency_symbol = '$'
finishing_stacks = [203.55, 96.75]
"""


def test_decimal_amounts_are_exact_cents() -> None:
    h = _phh(HU_DOLLARS)
    assert h.unit == "0.01" and h.currency == "$"
    assert h.starting_stacks == [20030, 10000] and h.blinds_or_straddles == [50, 100]
    assert "p2 cbr 325" in h.actions
    assert _nets(h) == [325.0, -325.0]
    # the same hand in whole dollars of another file: amounts are scaled, bb stats unchanged
    h2 = _phh(HU_DOLLARS.replace("200.30", "200").replace("203.55", "203.25"))
    assert h2.unit == "0.01" and h2.starting_stacks == [20000, 10000]


def test_smallest_power_of_ten_without_currency() -> None:
    h = _phh(
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [0.5, 1, 0]\nmin_bet = 1\n"
        "starting_stacks = [100, 100, 100.5]\n"
        "actions = ['p3 cbr 2.5', 'p1 f', 'p2 f']\n"
    )
    assert h.unit == "0.1" and h.currency is None
    assert h.starting_stacks == [1000, 1000, 1005] and h.blinds_or_straddles == [5, 10, 0]
    assert _nets(h) == [-5.0, -10.0, 15.0]


def test_show_after_uncontested_win() -> None:
    h = _phh(
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        "starting_stacks = [100, 100, 100]\n"
        "actions = ['d dh p3 AsAh', 'p3 cbr 6', 'p1 f', 'p2 f', 'p3 sm AsAh']\n"
    )
    f = replay(h)
    assert not f.showdown and [p[5] for p in f.players] == [-1.0, -2.0, 3.0]
    assert f.players[2][6] == "AsAh"
    # a folded player still cannot show
    with pytest.raises(HandHistoryError, match="folded and cannot show"):
        replay(_phh(
            "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
            "starting_stacks = [100, 100, 100]\n"
            "actions = ['p3 cbr 6', 'p1 f', 'p2 f', 'p1 sm AsAh']\n"
        ))


@pytest.mark.parametrize("order", ["sb_first", "bb_first"])
def test_heads_up_blinds_in_either_order(order: str) -> None:
    """PHH/PokerKit: the small blind is the button and acts first preflop, whichever order
    the blinds are listed in; positions and nets follow the players, not the list."""
    blinds = "[1, 2]" if order == "sb_first" else "[2, 1]"
    sb_player = "p2" if order == "sb_first" else "p1"
    bb_player = "p1" if order == "sb_first" else "p2"
    h = _phh(
        f"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = {blinds}\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\n"
        f"actions = ['{sb_player} cbr 6', '{bb_player} f']\n"
    )
    f = replay(h)
    pos = {p[0]: p[2] for p in f.players}
    net = {p[0]: p[5] for p in f.players}
    sb_i, bb_i = int(sb_player[1]) - 1, int(bb_player[1]) - 1
    assert pos[sb_i] == "BTN" and pos[bb_i] == "BB"
    assert net[sb_i] == 2.0 and net[bb_i] == -2.0
    # PokerKit agrees
    from pokerkit.notation import HandHistory

    hh = HandHistory(variant="NT", antes=[0, 0], blinds_or_straddles=list(h.blinds_or_straddles),
                     min_bet=2, starting_stacks=[100, 100], actions=list(h.actions))
    *_, state = iter(hh)
    assert [s - 100 for s in state.stacks] == [net[0], net[1]]


def test_walk_with_winnings_including_the_returned_blind() -> None:
    # the big blind (p1 heads-up) wins 1.50: his own 1 comes back, net +0.5 bb
    h = _phh(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0.50, 1]\nmin_bet = 1\n"
        "starting_stacks = [100, 100]\nactions = ['p2 f']\ncurrency_symbol = '$'\n"
        "winnings = [1.50, 0]\n"
    )
    f = replay(h)
    assert [p[5] for p in f.players] == [50.0, -50.0] and f.rake == 0.0
    # ... and the same walk with winnings that leave out the returned blind
    h2 = _phh(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0.50, 1]\nmin_bet = 1\n"
        "starting_stacks = [100, 100]\nactions = ['p2 f']\ncurrency_symbol = '$'\n"
        "winnings = [1.00, 0]\n"
    )
    assert _nets(h2) == [50.0, -50.0]


RAKED = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.05, 0.10, 0]
min_bet = 0.10
starting_stacks = [10, 10, 10]
actions = ['p3 cbr 0.30', 'p1 f', 'p2 cc', 'd db 2c3d4h', 'p2 cc', 'p3 cbr 0.40', 'p2 f']
currency_symbol = '$'
"""


def test_rake_field_and_implied_rake() -> None:
    # winnings 1.00 from a pot of 0.65 + uncalled 0.40: contested pot 0.65, rake 0.03
    f = replay(_phh(RAKED + "winnings = [0, 0, 0.62]\nrake = 0.03\n"))
    assert f.rake == 3.0 and [p[5] for p in f.players] == [-5.0, -30.0, 32.0]
    assert sum(p[5] for p in f.players) == -f.rake
    # the same without the rake field: winnings below the pot imply it
    f2 = replay(_phh(RAKED + "winnings = [0, 0, 0.62]\n"))
    assert f2.rake == 3.0 and [p[5] for p in f2.players] == [-5.0, -30.0, 32.0]
    # finishing stacks with a rake field
    f3 = replay(_phh(RAKED + "finishing_stacks = [9.95, 9.70, 10.32]\nrake = 0.03\n"))
    assert f3.rake == 3.0
    with pytest.raises(HandHistoryError, match=r"rake \$0.04 does not match"):
        replay(_phh(RAKED + "finishing_stacks = [9.95, 9.70, 10.32]\nrake = 0.04\n"))


def test_winnings_beyond_the_pot_are_rejected_with_amounts() -> None:
    with pytest.raises(HandHistoryError, match=r"winnings sum to \$99999.00, more than the pot of \$0.65"):
        replay(_phh(RAKED + "winnings = [0, 0, 99999]\n"))
    with pytest.raises(HandHistoryError, match=r"p2 folded but has winnings \$0.10"):
        replay(_phh(RAKED + "winnings = [0, 0.10, 0.55]\n"))
    with pytest.raises(HandHistoryError, match=r"rake \$1.00 is more than the pot of \$0.65"):
        replay(_phh(RAKED + "rake = 1\n"))


def _import_nets(db: HandDB) -> tuple[float, float]:
    (net, rake), = db.query(
        "SELECT (SELECT sum(net) FROM hand_players), (SELECT sum(rake) FROM hands)"
    )
    return float(net), float(rake)


def test_generated_online_set_zero_sum_after_rake_and_pokerkit_agrees(tmp_path: Path) -> None:
    gens = random_hands(150, seed=5)
    assert any(g.options["walk"] for g in gens) and any(g.options["swapped"] for g in gens)
    assert any(g.show_after_win for g in gens) and any(g.rake for g in gens)
    path = tmp_path / "online.phhs"
    path.write_text(to_phh_decimal(gens, seed=5))
    with HandDB(path=tmp_path / "h.duckdb") as db:
        rep = db.import_paths([path])
        assert rep.ok and rep.stored == 150, rep.rejections[:3]
        net, rake = _import_nets(db)
        assert net == pytest.approx(-rake) and rake > 0
        rows = db.query(
            "SELECT h.source_index, list(p.finishing_stack ORDER BY p.seat), h.rake, h.unit "
            "FROM hands h JOIN hand_players p USING (hand_id) GROUP BY ALL ORDER BY 1"
        )
    for (k, fin, hrake, unit), g in zip(rows, gens, strict=True):
        # PokerKit's finishing stacks (it plays without rake) minus the rake charged
        assert fin == [float(x) for x in g.expected_finish()], k
        assert hrake == g.rake
        assert unit == (0.01 if g.cents else 1.0)


def test_pluribus_nets_are_zero_sum(tmp_path: Path) -> None:
    with HandDB(path=tmp_path / "h.duckdb") as db:
        rep = db.import_paths([DATA / "pluribus.phhs.xz"])
        assert rep.ok and rep.stored == 10_000
        net, rake = _import_nets(db)
        assert rake == 0.0 and net == pytest.approx(0.0, abs=1e-6)
        per_hand = db.query(
            "SELECT count(*) FROM (SELECT hand_id, sum(net) s FROM hand_players GROUP BY 1) "
            "WHERE abs(s) > 1e-9"
        )
        assert per_hand == [(0,)]


# -- hands import: exit codes and messages -----------------------------------------------------


def _cli(args: list[str]) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from pokerlab.cli import app

    r = CliRunner().invoke(app, args)
    return r.exit_code, r.stdout, r.stderr


def test_exit_codes_and_messages(tmp_path: Path) -> None:
    good = tmp_path / "good.phhs"
    good.write_text("[1]\n" + HU_DOLLARS)
    db = str(tmp_path / "h.duckdb")
    code, out, _ = _cli(["hands", "import", str(good), "--db", db, "--json"])
    assert code == 0 and json.loads(out)["stored"] == 1
    # re-import: already present is fine
    code, out, _ = _cli(["hands", "import", str(good), "--db", db, "--json"])
    assert code == 0 and json.loads(out)["duplicates"] == 1
    # a missing path is reported, the other paths are still imported: exit 3
    other = tmp_path / "other.phh"
    other.write_text(RAKED + "winnings = [0, 0, 0.62]\n")
    code, out, _ = _cli(
        ["hands", "import", str(tmp_path / "missing.phh"), str(other), "--db", db, "--json"]
    )
    res = json.loads(out)
    assert code == 3 and res["stored"] == 1 and "missing.phh" in res["problems"][0]
    # random bytes: the file is named, exit 3
    junk = tmp_path / "junk.txt"
    junk.write_bytes(os.urandom(2000))
    code, out, err = _cli(["hands", "import", str(junk), "--db", db])
    assert code == 3 and "junk.txt" in err and "no recognisable hand" in err
    # every hand rejected (the 'not whole chips' file of old now imports; a bad one does not)
    bad = tmp_path / "bad.phh"
    bad.write_text(RAKED + "winnings = [0, 0, 99999]\n")
    code, out, _ = _cli(["hands", "import", str(bad), "--db", db])
    assert code == 3 and "more than the pot" in out
    # bad options are still exit 2
    code, _, err = _cli(["hands", "import", str(good), "--db", str(tmp_path)])
    assert code == 2 and "error:" in err


def test_big_blind_statistics_do_not_depend_on_the_unit(tmp_path: Path) -> None:
    from pokerlab.hands.stats import game_stats, player_stats

    gens = [g for g in random_hands(60, seed=8) if g.cents]
    dollars = to_phh_decimal(gens, seed=1)
    # the same hands in whole chips (1 chip = 1 cent): scale every dollar amount by 100
    for g in gens:
        g.cents = False
    chips = to_phh_decimal(gens, seed=1)
    out = []
    for name, text in (("usd", dollars), ("chips", chips)):
        path = tmp_path / f"{name}.phhs"
        path.write_text(text)
        with HandDB(path=tmp_path / f"{name}.duckdb") as db:
            assert db.import_paths([path]).ok
            units = db.query("SELECT DISTINCT unit, currency FROM hands")
            gs = game_stats(db)
            ps = [(s.player, s.vpip, s.af, s.bb_per_100, s.bet_per_street) for s in player_stats(db)]
        out.append((units, gs, ps))
    assert out[0][0] == [(0.01, "$")] and out[1][0] == [(1.0, None)]
    for key in ("entered_share", "allin_share", "showdown_share", "raise_pot_ratio",
                "bet_per_street_bb"):
        assert out[0][1][key] == out[1][1][key], key
    assert out[0][2] == out[1][2]
    assert out[0][1]["bet_per_street_currency"] is not None


def test_euros() -> None:
    from pokerlab.hands.generate import to_pokerstars
    from pokerlab.hands.pokerstars import iter_pokerstars_text

    gens = [g for g in random_hands(30, seed=4, pokerstars=True) if g.cents and not g.tournament]
    text = to_pokerstars(gens).replace("$", "\u20ac").replace(" USD)", " EUR)")
    hands = list(iter_pokerstars_text(text))
    assert all(isinstance(h, RawHand) and h.currency == "EUR" and h.unit == "0.01" for h in hands)
    for h, g in zip(hands, gens, strict=True):
        assert isinstance(h, RawHand)
        assert [p[4] for p in replay(h).players] == [float(x) for x in g.expected_finish()]


def test_fast_money_reader_equals_general_reader() -> None:
    """The direct reader of decimal hands gives the same RawHands as scale_money + tomllib."""
    from pokerlab.hands.phh import iter_phh_text_reference

    texts = [to_phh_decimal(random_hands(60, seed=12), seed=2), "[1]\n" + HU_DOLLARS]
    extra = [
        RAKED + "winnings = [0, 0, 0.62]\nrake = 0.03\n",
        RAKED + "winnings = [0, 0, 0.62]\n_rake = 0.03\n",
        RAKED.replace("currency_symbol = '$'", "currency = 'EUR'")
        + "finishing_stacks = [9.95, 9.70, 10.32]\n",
        RAKED.replace("currency_symbol = '$'", "currency = ''\ncurrency_symbol = '$'"),
        RAKED.replace("currency_symbol = '$'", "currency = 'XBT'"),
        RAKED.replace("[10, 10, 10]", "[10.125, 10, 10]") + "finishing_stacks = [10.075, 9.7, 10.35]\n",
        RAKED.replace("[10, 10, 10]", "[10.000, 10, 10.0]"),
        RAKED.replace("[10, 10, 10]", "[1e1, 10, 10]"),
        RAKED.replace("'p3 cbr 0.30'", "'p3 cbr 0.30 # open'") + "hand = 7\n",
        RAKED.replace("currency_symbol = '$'\n", "") + "finishing_stacks = [9.95, 9.7, 10.325]\n",
    ]
    texts += [f"[{k + 1}]\n{t}" for k, t in enumerate(extra)]
    for text in texts:
        fast = list(iter_phh_text(text, source="s"))
        ref = list(iter_phh_text_reference(text, source="s"))
        assert fast == ref
    assert sum(isinstance(h, RawHand) for t in texts for h in iter_phh_text(t)) > 60
