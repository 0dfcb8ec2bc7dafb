"""Hand histories: PHH/PokerStars import into DuckDB, statistics, styles, report, CLI.

The Pluribus figures are checked against the independent numbers of issue 7 (VPIP 26.4 %,
PFR 17.7 %, 3-bet 7.3 %, AF 2.33, AFq 52.4 %, WTSD 30.6 %, W$SD 48.8 %); the per-player
flags are recomputed in SQL from the ``actions`` table; the fast PHH reader and the
replay are compared with PokerKit.
"""

from __future__ import annotations

import json
import lzma
import random
from pathlib import Path

import pytest

from pokerlab.errors import ConfigError, HandHistoryError
from pokerlab.hands import HandDB, HandFilter, RawHand, Rejection, player_stats, replay
from pokerlab.hands.hand_files import expand_paths
from pokerlab.hands.phh import iter_phh_text, parse_phh_fields
from pokerlab.hands.pokerstars import iter_pokerstars_text
from pokerlab.hands.replay import PLAYER_COLUMNS
from pokerlab.hands.stats import parse_stakes, winnings_curves
from pokerlab.hands.style import StyleThresholds, classify_all

DATA = Path(__file__).parent / "data" / "hands"
PLURIBUS = DATA / "pluribus.phhs.xz"
BAD = DATA / "bad.phhs"
STARS = DATA / "pokerstars_sample.txt"

# (player, hands, VPIP, PFR, 3-bet, AF, AFq, WTSD, W$SD, bb/100, style) on the 10,000 hands.
EXPECTED = [
    ("Pluribus", 10000, 26.41, 17.66, 7.26, 2.333, 52.43, 30.64, 48.78, -7.09, "loose-aggressive"),
    ("MrBlue", 9121, 31.41, 18.81, 5.87, 1.932, 44.70, 28.24, 55.80, 16.45, "loose-passive"),
    ("MrOrange", 7512, 20.79, 14.32, 7.41, 1.994, 46.51, 30.93, 54.17, -12.12, "tight-passive"),
    ("Bill", 6713, 27.45, 19.90, 10.66, 2.125, 52.15, 32.41, 46.47, -3.44, "loose-aggressive"),
    ("MrPink", 6055, 26.28, 17.39, 9.27, 3.042, 55.91, 30.88, 47.41, -2.68, "loose-aggressive"),
    ("Eddie", 5510, 27.24, 17.62, 6.24, 2.972, 55.75, 29.07, 56.66, 12.19, "loose-aggressive"),
    ("MrWhite", 4483, 25.94, 17.04, 7.00, 1.916, 44.04, 26.87, 54.87, -7.41, "loose-passive"),
    ("MrBlonde", 2560, 22.58, 16.88, 9.88, 1.702, 42.08, 30.92, 61.26, -10.17, "tight-passive"),
    ("Budd", 2509, 25.11, 18.09, 8.51, 2.860, 55.04, 32.38, 50.74, 28.69, "loose-aggressive"),
    ("Joe", 1535, 22.54, 17.39, 9.39, 2.521, 54.93, 31.78, 48.00, -18.36, "tight-aggressive"),
    ("MrBrown", 1378, 25.40, 15.46, 9.01, 1.791, 47.94, 33.46, 54.65, 15.02, "loose-passive"),
    ("Hattori", 1365, 26.37, 18.02, 5.73, 1.953, 48.82, 33.84, 41.57, 3.41, "loose-passive"),
    ("ORen", 771, 26.59, 16.34, 7.51, 5.130, 60.20, 29.80, 48.89, 2.60, "loose-aggressive"),
    ("Gogo", 488, 31.76, 22.75, 11.39, 2.071, 50.88, 27.52, 43.33, -57.22, "loose-aggressive"),
]


@pytest.fixture(scope="module")
def pluribus_db(tmp_path_factory: pytest.TempPathFactory) -> HandDB:
    path = tmp_path_factory.mktemp("hands") / "pluribus.duckdb"
    db = HandDB(path=path)
    rep = db.import_paths([PLURIBUS])
    assert (rep.read, rep.stored, rep.duplicates, rep.rejected) == (10000, 10000, 0, 0)
    return db


@pytest.fixture(scope="module")
def pluribus_texts() -> list[str]:
    """The 10,000 hands as separate PHH texts (sections of the shipped .phhs)."""
    text = lzma.decompress(PLURIBUS.read_bytes()).decode()
    parts = text.split("\n[")
    return [p.split("\n", 1)[1] for p in parts]


# -- the independent Pluribus figures -------------------------------------------------------


def test_pluribus_matches_independent_figures(pluribus_db: HandDB) -> None:
    (s,) = player_stats(pluribus_db, filt=HandFilter(players=("Pluribus",)))
    assert s.hands == 10000
    # issue 7: VPIP 26.4, PFR 17.7, 3-bet 7.3, AF 2.33, AFq 52.4, WTSD 30.6, W$SD 48.8
    for got, want in (
        (s.vpip, 26.4),
        (s.pfr, 17.7),
        (s.three_bet, 7.3),
        (s.afq, 52.4),
        (s.wtsd, 30.6),
        (s.wsd, 48.8),
    ):
        assert got is not None and abs(got - want) <= 0.05, (got, want)
    assert s.af is not None and abs(s.af - 2.33) <= 0.005
    # exact counts behind them
    assert s.counts["three_bet_opportunities"] == 4105
    assert s.counts["saw_flop"] == 1880
    assert s.counts["went_to_showdown"] == 576
    assert s.counts["postflop_bets_raises"] == 1318
    assert s.counts["postflop_calls"] == 565
    assert s.vpip == pytest.approx(26.41)
    assert s.pfr == pytest.approx(17.66)


def test_every_player_stats(pluribus_db: HandDB) -> None:
    stats = classify_all(player_stats(pluribus_db))
    assert [s.player for s in stats] == [e[0] for e in EXPECTED]
    for s, e in zip(stats, EXPECTED, strict=True):
        _, hands, vpip, pfr, tb, af, afq, wtsd, wsd, bb100, style = e
        assert s.hands == hands
        assert s.vpip == pytest.approx(vpip, abs=0.005)
        assert s.pfr == pytest.approx(pfr, abs=0.005)
        assert s.three_bet == pytest.approx(tb, abs=0.005)
        assert s.af == pytest.approx(af, abs=0.0005)
        assert s.afq == pytest.approx(afq, abs=0.005)
        assert s.wtsd == pytest.approx(wtsd, abs=0.005)
        assert s.wsd == pytest.approx(wsd, abs=0.005)
        assert s.bb_per_100 == pytest.approx(bb100, abs=0.005)
        assert s.style == style
        assert s.table_size == 6
    # 6 seats per hand, and no rake: the winnings sum to zero
    assert sum(s.hands for s in stats) == 60000
    assert sum(s.net_bb or 0.0 for s in stats) == pytest.approx(0.0, abs=1e-6)


def test_pluribus_other_measures(pluribus_db: HandDB) -> None:
    (s,) = player_stats(pluribus_db, filt=HandFilter(players=("Pluribus",)))
    assert s.cbet == pytest.approx(53.65, abs=0.005)
    assert s.fold_to_cbet == pytest.approx(45.01, abs=0.005)
    assert s.allin_rate == pytest.approx(0.64)
    assert s.showdown_rate == pytest.approx(5.76)
    assert s.avg_raise_pot_ratio == pytest.approx(0.6886, abs=5e-5)
    assert s.bet_per_street["preflop"] == pytest.approx(1.3017, abs=5e-5)
    assert s.bet_per_street["river"] == pytest.approx(8.0086, abs=5e-5)
    assert s.bb_per_100_se == pytest.approx(8.8147, abs=5e-4)


def test_flags_match_sql_over_actions(pluribus_db: HandDB) -> None:
    """The per-hand flags stored at import equal the same facts recomputed from ``actions``."""
    rows = pluribus_db.query("""
        WITH a AS (
            SELECT hand_id, seat,
                bool_or(street = 0 AND kind IN ('c', 'r')) AS vpip,
                bool_or(street = 0 AND kind = 'r') AS pfr,
                bool_or(street = 0 AND level = 1) AS tbo,
                bool_or(street = 0 AND level = 1 AND kind = 'r') AS tb,
                count(*) FILTER (WHERE street > 0 AND kind = 'b') AS pb,
                count(*) FILTER (WHERE street > 0 AND kind = 'r') AS pr,
                count(*) FILTER (WHERE street > 0 AND kind = 'c') AS pc,
                count(*) FILTER (WHERE street > 0 AND kind = 'f') AS pf,
                bool_or(cbet) AS cbet,
                bool_or(allin) AS allin,
                sum(amount) FILTER (WHERE street = 1) AS put_flop,
                count(*) FILTER (WHERE kind IN ('b', 'r')) AS rn,
                sum(CASE WHEN kind IN ('b', 'r')
                    THEN (to_amount - facing) / (pot_before + to_call) ELSE 0 END) AS rsum
            FROM actions GROUP BY hand_id, seat
        )
        SELECT count(*),
            count(*) FILTER (WHERE p.vpip <> coalesce(a.vpip, false)),
            count(*) FILTER (WHERE p.pfr <> coalesce(a.pfr, false)),
            count(*) FILTER (WHERE p.three_bet_opp <> coalesce(a.tbo, false)),
            count(*) FILTER (WHERE p.three_bet <> coalesce(a.tb, false)),
            count(*) FILTER (WHERE p.post_bets <> coalesce(a.pb, 0)
                OR p.post_raises <> coalesce(a.pr, 0)
                OR p.post_calls <> coalesce(a.pc, 0) OR p.post_folds <> coalesce(a.pf, 0)),
            count(*) FILTER (WHERE p.cbet <> coalesce(a.cbet, false)),
            count(*) FILTER (WHERE p.allin <> coalesce(a.allin, false)),
            count(*) FILTER (WHERE p.put_flop <> coalesce(a.put_flop, 0)),
            count(*) FILTER (WHERE p.raise_n <> coalesce(a.rn, 0)
                             OR abs(p.raise_pot_sum - coalesce(a.rsum, 0)) > 1e-9)
        FROM hand_players p LEFT JOIN a USING (hand_id, seat)
    """)
    assert rows[0] == (60000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    # the pot of every hand is what the players put in
    (bad,) = pluribus_db.query("""
        SELECT count(*) FROM hands h JOIN (
            SELECT hand_id, sum(put_preflop + put_flop + put_turn + put_river + ante) AS s
            FROM hand_players GROUP BY hand_id) p USING (hand_id)
        WHERE h.pot <> p.s""")[0]
    assert bad == 0


def test_schema_counts(pluribus_db: HandDB) -> None:
    assert pluribus_db.count("hands") == 10000
    assert pluribus_db.count("hand_players") == 60000
    assert pluribus_db.count("actions") == 91356
    (n_sd, n_flop) = pluribus_db.query(
        "SELECT count(*) FILTER (WHERE showdown), count(*) FILTER (WHERE last_street >= 1) "
        "FROM hands"
    )[0]
    assert (n_sd, n_flop) == (1673, 5338)
    assert pluribus_db.query("SELECT count(DISTINCT hand_id) FROM hands")[0][0] == 10000


# -- filters, groups, styles --------------------------------------------------------------


def test_filters_and_group(pluribus_db: HandDB) -> None:
    assert player_stats(pluribus_db, filt=HandFilter(table_size=2)) == []
    assert len(player_stats(pluribus_db, filt=HandFilter(table_size=6))) == 14
    assert len(player_stats(pluribus_db, filt=HandFilter(stakes="50/100"))) == 14
    assert len(player_stats(pluribus_db, filt=HandFilter(stakes="100"))) == 14
    assert player_stats(pluribus_db, filt=HandFilter(stakes="1/2")) == []
    humans = tuple(e[0] for e in EXPECTED[1:])
    (g,) = player_stats(pluribus_db, filt=HandFilter(players=humans), group="humans")
    assert g.player == "humans" and g.hands == 50000
    # pooled VPIP is the hand-weighted mean of the players' VPIPs
    want = sum(e[1] * e[2] for e in EXPECTED[1:]) / 50000
    assert g.vpip == pytest.approx(want, abs=0.01)
    assert g.net_bb == pytest.approx(708.64, abs=1e-6)  # minus Pluribus's result
    with pytest.raises(ConfigError, match="x/y"):
        HandFilter(stakes="x/y")
    with pytest.raises(ConfigError, match="12"):
        HandFilter(table_size=12)
    assert parse_stakes("50/100") == (50, 100)


def test_style_thresholds(pluribus_db: HandDB) -> None:
    stats = player_stats(pluribus_db, filt=HandFilter(players=("Pluribus", "MrOrange")))
    got = {s.player: s.style for s in classify_all(stats)}
    assert got == {"Pluribus": "loose-aggressive", "MrOrange": "tight-passive"}
    strict = StyleThresholds(vpip_short_handed=30.0, af_aggressive=2.5)
    got = {s.player: s.style for s in classify_all(stats, strict)}
    assert got == {"Pluribus": "tight-passive", "MrOrange": "tight-passive"}
    afq = StyleThresholds(aggression="afq", afq_aggressive=45.0)
    got = {s.player: s.style for s in classify_all(stats, afq)}
    assert got == {"Pluribus": "loose-aggressive", "MrOrange": "tight-aggressive"}
    assert StyleThresholds().vpip_threshold(2) == 50.0
    assert StyleThresholds().vpip_threshold(9) == 20.0
    with pytest.raises(ConfigError, match="vpx"):
        StyleThresholds(aggression="vpx")


def test_winnings_curve(pluribus_db: HandDB) -> None:
    curves = winnings_curves(pluribus_db, players=["Pluribus", "Gogo"], max_points=100)
    ks, cs = curves["Pluribus"]
    assert ks[-1] == 10000 and len(ks) <= 101
    assert cs[-1] == pytest.approx(-708.64, abs=1e-6)
    assert curves["Gogo"][0][-1] == 488


# -- idempotence and bad hands -------------------------------------------------------------


def test_import_is_idempotent(tmp_path: Path, pluribus_texts: list[str]) -> None:
    db = HandDB(path=tmp_path / "h.duckdb")
    phhs = tmp_path / "some.phhs"
    phhs.write_text("".join(f"[{i + 1}]\n{t}\n" for i, t in enumerate(pluribus_texts[:50])))
    r1 = db.import_paths([phhs])
    assert (r1.read, r1.stored, r1.duplicates, r1.rejected) == (50, 50, 0, 0)
    # the same hands again, plus three of them as single .phh files and one new hand
    for i in (3, 7, 11):
        (tmp_path / f"{i}.phh").write_text(pluribus_texts[i])
    (tmp_path / "new.phh").write_text(pluribus_texts[60])
    r2 = db.import_paths([tmp_path])
    assert (r2.read, r2.stored, r2.duplicates, r2.rejected) == (54, 1, 53, 0)
    assert db.count("hands") == 51 and db.count("hand_players") == 306
    n_actions = db.count("actions")
    r3 = db.import_paths([phhs, phhs])
    assert (r3.stored, r3.duplicates) == (0, 100)
    assert db.count("actions") == n_actions
    db.close()


def test_bad_hands_are_reported_and_skipped(tmp_path: Path) -> None:
    db = HandDB(path=tmp_path / "h.duckdb")
    rep = db.import_paths([BAD])
    assert (rep.read, rep.stored, rep.rejected) == (8, 2, 6)
    where = {(Path(r.source).name, r.position) for r in rep.rejections}
    assert where == {("bad.phhs", k) for k in (1, 2, 3, 4, 6, 7)}
    msgs = {r.position: r.message for r in rep.rejections}
    assert "p3's turn" in msgs[1]
    assert "TOML" in msgs[2]
    assert "folded with 199" in msgs[3]
    assert "below the minimum 4" in msgs[4]
    assert "'FT'" in msgs[6]
    assert "still to act" in msgs[7]
    assert "bad.phhs (hand #2)" in str(rep.rejections[0])
    nets = dict(db.query("SELECT player, sum(net) FROM hand_players GROUP BY player"))
    assert nets == {"ann": 0.0, "ben": -6.0, "cat": 0.0, "dan": 6.0}
    db.close()


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    db = HandDB(path=tmp_path / "h.duckdb")
    rep = db.import_paths([tmp_path / "nope.phh"])  # reported, not raised
    assert rep.read == 0 and not rep.ok and "nope.phh" in rep.problems[0]
    with pytest.raises(HandHistoryError, match="nope"):
        expand_paths([tmp_path / "nope.phh"])
    import duckdb

    con = duckdb.connect(str(tmp_path / "old.duckdb"))
    con.execute("CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR)").fetchall()
    con.execute("INSERT INTO meta VALUES ('schema_version', '1')").fetchall()
    con.close()
    with pytest.raises(HandHistoryError, match="schema version 3 .found 1"):
        HandDB(path=tmp_path / "old.duckdb")
    (tmp_path / "x.csv").write_text("a,b\n")
    rep = db.import_paths([tmp_path / "x.csv"])
    assert "x.csv" in rep.problems[0] and "unknown hand-history file type" in rep.problems[0]
    db.close()


# -- replay rules ----------------------------------------------------------------------------


def _hand(
    actions: list[str],
    *,
    stacks: list[int] | None = None,
    blinds: list[int] | None = None,
    fin: list[float] | None = None,
) -> RawHand:
    stacks = stacks or [100, 100, 100]
    n = len(stacks)
    return RawHand(
        variant="NT",
        antes=[0] * n,
        blinds_or_straddles=blinds or [1, 2] + [0] * (n - 2),
        min_bet=2,
        starting_stacks=stacks,
        actions=actions,
        finishing_stacks=fin,
    )


def test_replay_heads_up_order_and_facts() -> None:
    # heads-up: p1 is the big blind, p2 the button (small blind) acts first preflop
    f = replay(
        _hand(
            ["p2 cbr 6", "p1 cbr 18", "p2 cc", "d db 2c3d4h", "p1 cbr 20", "p2 f"],
            stacks=[100, 100],
            blinds=[1, 2],
        )
    )
    assert f.table_size == 2 and f.small_blind == 1 and f.big_blind == 2
    assert [a[3] for a in f.actions] == ["r", "r", "c", "b", "f"]
    p1, p2 = f.players
    assert p1[2] == "BB" and p2[2] == "BTN"
    assert (p1[5], p2[5]) == (18.0, -18.0)
    assert p1[11] is True and p1[12] is True  # 3-bet opportunity and 3-bet
    assert p2[11] is False and p2[9] is True and p2[10] is True  # opener: VPIP, PFR
    assert f.preflop_aggressor == 0
    assert p1[19] is True and p1[20] is True  # the 3-bettor's flop bet is a c-bet
    assert p2[21] is True and p2[22] is True  # ... which p2 folds to
    assert f.actions[3][11] is True and f.actions[3][6] == 36  # pot before the c-bet


def test_replay_cbet_and_fold_to_cbet() -> None:
    f = replay(
        _hand(
            [
                "p3 cbr 6",
                "p1 cc",
                "p2 cc",
                "d db 2c3d4h",
                "p1 cc",
                "p2 cc",
                "p3 cbr 10",
                "p1 f",
                "p2 cc",
                "d db 5s",
                "p2 cc",
                "p3 cc",
                "d db 9s",
                "p2 cc",
                "p3 cc",
            ]
        )
    )
    by = {p[0]: p for p in f.players}
    col = {c: i for i, c in enumerate(PLAYER_COLUMNS)}
    assert by[2][col["cbet_opp"]] and by[2][col["cbet"]]
    assert by[0][col["fold_cbet_opp"]] and by[0][col["fold_cbet"]]
    assert by[1][col["fold_cbet_opp"]] and not by[1][col["fold_cbet"]]
    assert f.showdown and by[1][col["wtsd"]] and by[2][col["wtsd"]] and not by[0][col["wtsd"]]
    assert by[0][col["finishing_stack"]] != by[0][col["finishing_stack"]]  # NaN: unknown winner
    cb = [a for a in f.actions if a[11]]
    assert len(cb) == 1 and cb[0][2] == 2 and cb[0][6] == 18  # pot before the c-bet


@pytest.mark.parametrize(
    ("actions", "stacks", "message"),
    [
        (["p1 f"], None, "p3's turn"),
        (["p3 cbr 3"], None, "below the minimum 4"),
        (["p3 cbr 500"], None, "more than p3's 100"),
        (["p3 cc", "p1 cc", "p2 cc", "d db 2c3d"], None, "3 card"),
        (
            ["p3 cc", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cc", "p2 cc", "p3 cc", "d db 2c"],
            None,
            "twice",
        ),
        (["p3 cc", "p1 cc", "p2 cc", "p1 cc"], None, "no player is to act"),
        (["p3 cc", "p1 cc"], None, "still to act"),
        (["p3 cc", "p1 cc", "p2 cc"], None, "before the river"),
        (["p3 xx"], None, "unknown player action"),
        (["p9 f"], None, "no player"),
        # a short all-in raise does not reopen the betting for p3, who already acted
        (["p3 cbr 10", "p1 cbr 13", "p2 f", "p3 cbr 30"], [13, 100, 100], "cannot re-raise"),
    ],
    ids=lambda v: str(v)[:30],
)
def test_replay_rejects_illegal(actions: list[str], stacks: list[int] | None, message: str) -> None:
    with pytest.raises(HandHistoryError, match=message):
        replay(_hand(actions, stacks=stacks))


def test_short_all_in_allows_call() -> None:
    f = replay(
        _hand(
            ["p3 cbr 10", "p1 cbr 13", "p2 f", "p3 cc", "d db 2c3d4h", "d db 5s", "d db 6s"],
            stacks=[13, 100, 100],
        )
    )
    assert f.showdown and f.actions[1][10] is True  # p1's raise was all-in
    assert f.pot == 13 + 2 + 13


# -- PHH reader vs PokerKit ----------------------------------------------------------------


def _check_against_pokerkit(texts: list[str]) -> None:
    from pokerkit.notation import HandHistory

    for text in texts:
        (mine,) = list(iter_phh_text(text, source="t"))
        assert isinstance(mine, RawHand)
        hh = HandHistory.loads(text)
        assert mine.variant == hh.variant
        assert mine.antes == list(hh.antes)
        assert mine.blinds_or_straddles == list(hh.blinds_or_straddles)
        assert mine.min_bet == hh.min_bet
        assert mine.starting_stacks == list(hh.starting_stacks)
        assert mine.actions == list(hh.actions)
        assert mine.players == list(hh.players)
        assert mine.finishing_stacks == [float(x) for x in hh.finishing_stacks]
        assert mine.hand == str(hh.hand)
        # replay without the finishing stacks: chips in and out must agree with PokerKit
        state = None
        for state in hh:  # noqa: B007 - the last state is the result
            pass
        assert state is not None and not state.status
        stripped = RawHand(
            **{
                **{k: getattr(mine, k) for k in mine.__slots__},  # type: ignore[attr-defined]
                "finishing_stacks": None,
            }
        )
        facts = replay(stripped)
        nets = [p[5] for p in facts.players]
        want = [
            float(s) - float(s0) for s, s0 in zip(state.stacks, hh.starting_stacks, strict=True)
        ]
        assert nets == pytest.approx(want)
        # the file splits an odd chip in halves where PokerKit gives it to one player
        from_file = [
            float(x) - s0 for x, s0 in zip(hh.finishing_stacks, hh.starting_stacks, strict=True)
        ]
        assert from_file == pytest.approx(nets, abs=0.5)


def test_phh_reader_and_replay_agree_with_pokerkit(pluribus_texts: list[str]) -> None:
    rng = random.Random(7)
    sample = rng.sample(pluribus_texts, 150)
    # include the split pots with half chips
    sample += [t for t in pluribus_texts if ".5" in t.split("finishing_stacks", 1)[1]][:3]
    _check_against_pokerkit(sample)


@pytest.mark.slow
def test_phh_reader_and_replay_agree_with_pokerkit_all(pluribus_texts: list[str]) -> None:
    _check_against_pokerkit(pluribus_texts)


def test_fast_path_equals_tomllib(pluribus_texts: list[str]) -> None:
    import tomllib

    for text in pluribus_texts[:300]:
        assert parse_phh_fields(text) == tomllib.loads(text)
    odd = "variant = 'NT'  # trailing comment\nantes = [\n  0,\n  0,\n]\nmin_bet = 2.0\n"
    assert parse_phh_fields(odd) == {"variant": "NT", "antes": [0, 0], "min_bet": 2.0}


# -- PokerStars -----------------------------------------------------------------------------


def test_pokerstars_import(tmp_path: Path) -> None:
    hands = list(iter_pokerstars_text(STARS.read_text(), source="s"))
    assert all(isinstance(h, RawHand) for h in hands) and len(hands) == 3
    db = HandDB(path=tmp_path / "h.duckdb")
    rep = db.import_paths([STARS])
    assert (rep.read, rep.stored, rep.rejected) == (3, 3, 0)
    nets = dict(db.query("SELECT player, sum(net) FROM hand_players GROUP BY player"))
    # cents; the rake (5 + 0 + 90) is gone from the table
    assert nets == {
        "alice": -170.0 + 30.0 - 985.0,
        "bob": -5.0 - 25.0 - 10.0,
        "carol": 170.0 - 5.0 + 905.0,
    }
    stats = {s.player: s for s in player_stats(db)}
    assert stats["carol"].wsd == 100.0 and stats["alice"].wsd == 0.0
    assert stats["alice"].allin_rate == pytest.approx(100 / 3)
    # date filter: hand 3 was played at 20:02:30
    import datetime as dt

    late = player_stats(db, filt=HandFilter(since=dt.datetime(2024, 1, 15, 20, 2)))
    assert {s.player: s.hands for s in late} == {"alice": 1, "bob": 1, "carol": 1}
    assert player_stats(db, filt=HandFilter(stakes="5/10"))[0].hands == 3
    again = db.import_paths([STARS])
    assert (again.stored, again.duplicates) == (0, 3)
    db.close()


def test_pokerstars_bad_hand_is_rejected() -> None:
    text = STARS.read_text().replace(
        "Hold'em No Limit ($0.05/$0.10 USD) - 2024/01/15 20:01:10",
        "Omaha Pot Limit ($0.05/$0.10 USD) - 2024/01/15 20:01:10",
    )
    items = list(iter_pokerstars_text(text, source="s.txt"))
    assert [type(x).__name__ for x in items] == ["RawHand", "Rejection", "RawHand"]
    rej = items[1]
    assert isinstance(rej, Rejection) and rej.position == 1 and "no-limit" in rej.message


# -- report and CLI ---------------------------------------------------------------------------


def test_report(pluribus_db: HandDB, tmp_path: Path) -> None:
    from pokerlab.hands.report import ReportConfig, write_report

    out = write_report(pluribus_db, tmp_path / "rep", config=ReportConfig(min_hands=2000))
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "Pluribus" in page and "loose-aggressive" in page and "style_scatter.png" in page
    for png in out["pngs"]:
        assert Path(png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    stats = json.loads((tmp_path / "rep" / "stats.json").read_text())
    assert stats[0]["player"] == "Pluribus" and stats[0]["vpip"] == pytest.approx(26.41)
    cfg = json.loads((tmp_path / "rep" / "report_config.json").read_text())
    assert cfg["min_hands"] == 2000 and cfg["thresholds"]["af_aggressive"] == 2.0


def test_cli(tmp_path: Path, pluribus_texts: list[str]) -> None:
    from typer.testing import CliRunner

    from pokerlab.cli import app

    db = str(tmp_path / "h.duckdb")
    phhs = tmp_path / "few.phhs"
    phhs.write_text("".join(f"[{i + 1}]\n{t}\n" for i, t in enumerate(pluribus_texts[:200])))
    runner = CliRunner()
    r = runner.invoke(app, ["hands", "import", str(phhs), str(BAD), "--db", db, "--json"])
    assert r.exit_code == 3, r.output  # some hands rejected
    out = json.loads(r.stdout)
    assert (out["read"], out["stored"], out["rejected"]) == (208, 202, 6)
    assert out["rejections"][0]["position"] == 1
    r = runner.invoke(app, ["hands", "stats", "--db", db, "--players", "Pluribus,ann", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["players"]
    assert [x["player"] for x in rows] == ["Pluribus", "ann"]
    assert rows[0]["hands"] == 200 and set(rows[0]["bet_per_street"]) == {
        "preflop",
        "flop",
        "turn",
        "river",
    }
    for key in (
        "vpip",
        "pfr",
        "three_bet",
        "af",
        "afq",
        "wtsd",
        "wsd",
        "allin_rate",
        "showdown_rate",
        "avg_raise_pot_ratio",
        "bb_per_100",
        "bb_per_100_se",
        "style",
    ):
        assert key in rows[0]
    r = runner.invoke(app, ["hands", "stats", "--db", db, "--table-size", "2", "--json"])
    assert [x["player"] for x in json.loads(r.stdout)["players"]] == ["ann", "dan"]
    r = runner.invoke(app, ["hands", "stats", "--db", db, "--stakes", "nope"])
    assert r.exit_code == 2 and "nope" in r.output
    r = runner.invoke(
        app,
        [
            "hands",
            "report",
            "--db",
            db,
            "--out",
            str(tmp_path / "rep"),
            "--min-hands",
            "10",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    assert Path(json.loads(r.stdout)["html"]).exists()
    r = runner.invoke(app, ["hands", "stats", "--db", str(tmp_path / "none.duckdb")])
    assert r.exit_code == 2 and "none.duckdb" in r.output


def test_direct_reader_equals_line_reader(pluribus_texts: list[str]) -> None:
    from pokerlab.hands.phh import iter_phh_text_reference

    full = lzma.decompress(PLURIBUS.read_bytes()).decode()
    assert list(iter_phh_text(full, source="s")) == list(iter_phh_text_reference(full, source="s"))
    base = pluribus_texts[5]
    variants = [
        base.replace("\n", "\r\n"),
        "# a comment\n" + base,
        base.replace("\nactions = ", "\n\nactions = "),
        base.replace("', '", "',\n  '"),
        base + "\nactions = []\n",
        base.replace("players = ", "  players   =   "),
        base.replace("hand = ", "hand = 'x' # comment\n_unused = "),
    ]
    for v in variants:
        fast = list(iter_phh_text(v, source="v"))
        assert fast == list(iter_phh_text_reference(v, source="v")), v
    good = [x for x in (list(iter_phh_text(v))[0] for v in variants) if isinstance(x, RawHand)]
    assert len(good) == len(variants) - 1  # the duplicated key is a TOML error
    assert all(g.actions == good[0].actions for g in good)


@pytest.mark.parametrize("stack", ["inf", "nan", "-inf", "1e400", "1" + "0" * 400, "9007199254740993"])
def test_one_bad_stack_hand_is_skipped_and_counted(tmp_path: Path, pluribus_texts: list[str],
                                                  stack: str) -> None:
    """Issue 53: a hand whose starting stack is infinite, NaN or too large for the database
    is rejected (counted, listed); the other hands of the file are stored."""
    from typer.testing import CliRunner

    from pokerlab.cli import app

    texts = list(pluribus_texts[:6])
    head, rest = texts[2].split("starting_stacks = [", 1)
    texts[2] = head + "starting_stacks = [" + stack + rest[rest.index(","):]
    f = tmp_path / "six.phhs"
    f.write_text("".join(f"[{i + 1}]\n{t}\n" for i, t in enumerate(texts)))
    res = CliRunner().invoke(app, ["hands", "import", str(f), "--db", str(tmp_path / "h.duckdb"),
                                   "--one-process", "--json"])
    assert res.exit_code == 3, res.output  # some hand rejected
    out = json.loads(res.stdout)
    assert (out["read"], out["stored"], out["rejected"]) == (6, 5, 1)
    assert "Traceback" not in res.output
    (rej,) = out["rejections"]
    assert rej["source"].endswith("six.phhs") and rej["position"] == 2
    assert ("finite" in rej["message"]) if "inf" in stack or "nan" in stack \
        else ("too large" in rej["message"])
    with HandDB(path=tmp_path / "h.duckdb") as db:
        assert db.count("hands") == 5 and db.count("hand_players") == 30
    for fast in (True, False):  # the kernels' batch and the plain replay agree
        db = HandDB(path=tmp_path / f"{fast}.duckdb")
        rep = db.import_hands(iter_phh_text(f.read_text(), source="six.phhs"), fast=fast)
        assert (rep.read, rep.stored, rep.rejected) == (6, 5, 1)
        assert rep.rejections[0].position == 2
        db.close()
