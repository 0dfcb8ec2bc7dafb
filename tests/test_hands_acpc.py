"""ACPC match logs (``STATE:`` lines): write, read back, and the same statistics as the same
hands in PHH."""

from __future__ import annotations

from pathlib import Path

from pokerlab.hands import HandDB, RawHand, replay
from pokerlab.hands.acpc_log import acpc_line, iter_acpc_text, write_acpc_log
from pokerlab.hands.generate import random_hands
from pokerlab.hands.stats import game_stats, player_stats


def _hands(count: int, seed: int) -> list[RawHand]:
    out = []
    for g in random_hands(count, seed=seed, pokerstars=True):
        if any(g.antes) or len([b for b in g.blinds if b]) > 2:
            continue
        out.append(
            RawHand(
                variant="NT",
                antes=list(g.antes),
                blinds_or_straddles=list(g.blinds),
                min_bet=max(g.blinds),
                starting_stacks=list(g.stacks),
                actions=list(g.actions),
                players=list(g.names),
                finishing_stacks=[float(x) for x in g.final],
            )
        )
    return out


def test_known_line() -> None:
    h = RawHand(
        variant="NT",
        antes=[0, 0],
        blinds_or_straddles=[50, 100],
        min_bet=100,
        starting_stacks=[20000, 20000],
        actions=["d dh p1 9hQc", "d dh p2 8dAs", "p2 cbr 250", "p1 cc", "d db 8c6s5d",
                 "p1 cc", "p2 cbr 250", "p1 cbr 750", "p2 f"],
        players=["Alice", "Bob"],
    )
    line = acpc_line(h, 0)
    assert line == "STATE:0:r250c/cr500r1000f:9hQc|8dAs/8c6s5d:500|-500:Alice|Bob"
    (back,) = list(iter_acpc_text(line))
    assert isinstance(back, RawHand)
    assert [a for a in back.actions if not a.startswith("d dh")] == [
        a for a in h.actions if not a.startswith("d dh")
    ]
    assert back.finishing_stacks == [20500, 19500]


def test_round_trip_and_results(tmp_path: Path) -> None:
    hands = _hands(120, seed=21)
    assert {len(h.starting_stacks) for h in hands} >= {2, 3, 6}
    path = tmp_path / "match.log"
    assert write_acpc_log(hands, path) == len(hands)
    back = list(iter_acpc_text(path.read_text(), source=str(path)))
    assert len(back) == len(hands)
    for h, b in zip(hands, back, strict=True):
        assert isinstance(b, RawHand)
        assert b.starting_stacks == h.starting_stacks
        assert b.blinds_or_straddles == h.blinds_or_straddles
        bets = [a for a in h.actions if a.split()[1] in ("f", "cc", "cbr", "db")]
        assert [a for a in b.actions if a.split()[1] in ("f", "cc", "cbr", "db")] == bets
        assert b.finishing_stacks == h.finishing_stacks
        # the log's hand replays to the same result
        assert [p[4] for p in replay(b).players] == h.finishing_stacks


def test_same_statistics_as_phh(tmp_path: Path) -> None:
    from pokerkit.notation import HandHistory

    hands = _hands(120, seed=22)
    log = tmp_path / "m.log"
    phh = tmp_path / "m.phhs"
    hhs = [
        HandHistory(variant="NT", antes=h.antes, blinds_or_straddles=h.blinds_or_straddles,
                    min_bet=h.min_bet, starting_stacks=h.starting_stacks, actions=h.actions,
                    players=h.players, finishing_stacks=[int(x) for x in h.finishing_stacks or []])
        for h in hands
    ]
    phh.write_text(HandHistory.dumps_all(hhs))
    write_acpc_log(hhs, log)  # PokerKit HandHistory objects, as `pokerlab match --out` passes
    results = []
    for path in (log, phh):
        with HandDB(path=tmp_path / f"{path.suffix[1:]}.duckdb") as db:
            rep = db.import_paths([path])
            assert rep.ok and rep.stored == len(hands), rep.rejections[:2]
            gs = game_stats(db)
            ps = {s.player: (s.hands, s.vpip, s.pfr, s.af, s.net_bb) for s in player_stats(db)}
            results.append((gs, ps))
    assert results[0][0] == results[1][0]
    assert results[0][1] == results[1][1]


def test_engine_states_are_accepted(tmp_path: Path) -> None:
    from pokerlab.holdem.engine import HoldemConfig, HoldemState

    st = HoldemState(config=HoldemConfig(stacks=(200, 200), small_blind=1, big_blind=2, ante=0))
    st.deal_hole([0, 1])
    st.deal_hole([2, 3])
    st.raise_to(6)
    st.fold()
    path = tmp_path / "e.log"
    assert write_acpc_log([st], path) == 1
    (h,) = list(iter_acpc_text(path.read_text()))
    assert isinstance(h, RawHand) and h.finishing_stacks == [198, 202]
