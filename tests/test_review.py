"""Hand review (pokerlab review): spots rebuilt from hands, decisions scored against solves."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.hands.hand_files import iter_paths
from pokerlab.hands.review import review_hands
from pokerlab.hands.review_ranges import PRESETS, blueprint_ranges
from pokerlab.hands.review_spot import ReviewConfig, build_spot, flop_ranges, hand_line

# a 6-max hand, heads-up from the flop: CO opens, BB calls; flop Ks7d2c, BB checks, CO bets
# 500 (off the 50% tree size: 500 / 650 of the pot), BB calls; turn 3h check, check; river 8h,
# BB bets 1000, CO folds
ACTIONS = repr(["d dh p1 3c9s", "d dh p2 QhQd", "d dh p3 9dTs", "d dh p4 2sQs", "d dh p5 AhKd",
                "d dh p6 7cTc", "p3 f", "p4 f", "p5 cbr 300", "p6 f", "p1 f", "p2 cc",
                "d db Ks7d2c", "p2 cc", "p5 cbr 500", "p2 cc", "d db 3h", "p2 cc", "p5 cc",
                "d db 8h", "p2 cbr 1000", "p5 f"]).replace('"', "'")
HAND = """[1]
variant = 'NT'
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 0, 0, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000, 10000, 10000, 8000]
actions = """ + ACTIONS + """
players = ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay']
"""
SMALL = {"open:CO": "AA,KK,QQ,AK,KQs", "call:BB": "QQ,JJ,AQs,KQs,77"}
CFG = ReviewConfig(iterations=300, target_pct=0.2)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("review")
    (d / "hand.phhs").write_text(HAND, encoding="utf-8")
    bad = HAND.replace("[1]", "[2]").replace("'p2 cbr 1000'", "'p2 cbr 99999'")
    (d / "two.phhs").write_text(HAND + "\n" + bad, encoding="utf-8")
    (d / "ranges.json").write_text(json.dumps(SMALL), encoding="utf-8")
    return d


def _hand(path: Path):  # noqa: ANN202
    return next(h for h in iter_paths([str(path)]) if hasattr(h, "actions"))


def test_rebuilt_spot_is_the_replays(files: Path) -> None:
    from pokerlab.hands.replay import replay

    h = _hand(files / "hand.phhs")
    line = hand_line(h)
    facts = replay(h)
    flop = [r for r in facts.actions if r[1] == 1]
    assert line.seats == (1, 4)  # BB out of position, CO in position
    assert line.pot == flop[0][6] == 650  # 300 + 300 + the small blind's 50
    assert line.stack == 10000 - 300
    spot = build_spot(line, flop_ranges(line, {**PRESETS, **SMALL})[:2], CFG)
    assert spot.pot == 650 and spot.stack == 9700
    assert "".join(facts.board.split())[:6] == "Ks7d2c" and spot.board_str() == "Ks7d2c"
    # the real off-tree bet (500 into 650) is in the tree exactly, as is the river bet
    from pokerlab.subgame.tree import build_betting_tree

    tr = build_betting_tree(spot)
    check = tr.child(0, tr.action_names[0].index("check"))
    assert "bet 500" in tr.action_names[check]


@pytest.mark.slow
def test_scores_equal_the_solved_values(files: Path) -> None:
    rep = review_hands([files / "hand.phhs"], ["Bob", "Eve"], cfg=CFG, presets={**PRESETS, **SMALL})
    assert rep["hands"] == 1 and rep["reviewed"] == 7
    ds = rep["decisions"]
    assert [d["street"] for d in ds] == ["flop", "flop", "flop", "turn", "turn", "river", "river"]
    assert [d["action"] for d in ds] == ["check", "bet 500", "call", "check", "check", "bet 1000", "fold"]
    for d in ds:
        evs = {k: v for k, v in d["ev_bb"].items() if v is not None}
        best = max(evs.values())
        # the loss is what the solved values say: best minus chosen, >= 0
        assert d["ev_loss_bb"] == pytest.approx(best - evs[d["action"]], abs=1e-9)
        assert d["ev_loss_bb"] >= 0
        if d["action"] == d["best_action"]:
            assert d["ev_loss_bb"] == 0.0
        assert abs(sum(d["mix"].values()) - 1.0) < 1e-6
    assert rep["ev_loss_bb"]["total"] == pytest.approx(sum(d["ev_loss_bb"] for d in ds))
    # QQ checking the flop: a dominated-or-not choice scored from the same values
    first = ds[0]
    assert first["player"] == "Bob" and first["street"] == "flop" and first["action"] == "check"
    assert first["situation"] == "first in"


def test_blueprint_ranges_equal_the_charts_and_beliefs() -> None:
    from pokerlab.blueprint.charts import preflop_charts

    ch = preflop_charts(100.0, depth=2)
    line = next(fl for fl in ch.flops if len(fl.path) == 2 and "raise" in fl.line)
    from pokerlab.blueprint.charts import _agent as agent_of  # noqa: PLC2701 - the test reads both

    tree = agent_of(100.0).tree
    node = 0
    acts = []
    for k, a in enumerate(line.path):
        p = int(tree.actor[node])
        e = tree.edge(node, a)
        acts.append((p, int(tree.child_amount[e]) if k == 0 else 0))
        node = tree.child(node, a)
    r = blueprint_ranges(acts, big_blind=100, stack=10000)
    np.testing.assert_allclose(r, line.reach, atol=1e-9)


@pytest.mark.slow
def test_cli_counts_bad_hands_and_refuses_unknown_hero(files: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["review", str(files / "two.phhs"), "--hero", "Bob", "--json",
                              "--ranges", str(files / "ranges.json"), "--iterations", "200"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["hands"] == 2 and rep["skipped"] == {"corrupt history": 1}
    assert rep["reviewed"] == 4  # Bob's flop check and call, turn check, river bet
    for key in ("hand", "street", "action", "best_action", "ev_loss_bb", "ev_loss_pct_pot"):
        assert key in rep["decisions"][0]
    res = runner.invoke(app, ["review", str(files / "hand.phhs"), "--hero", "Nobody", "--json"])
    assert res.exit_code == 2 and "Nobody" in res.output and "Traceback" not in res.output


def test_agent_match_reviewed_like_a_player(tmp_path: Path) -> None:
    """An agent's logged match (PHH from `pokerlab match --out`) reviewed for one player."""
    runner = CliRunner()
    phh = tmp_path / "match.phhs"
    res = runner.invoke(app, ["match", "blueprint", "tag", "--hands", "20", "--out", str(phh)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["review", str(phh), "--hero", "B-tag", "--json", "--limit", "1",
                              "--iterations", "3"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["hands"] == 20 and rep["hands_reviewed"] == 1 and rep["reviewed"] >= 1
    for d in rep["decisions"]:
        assert d["player"] == "B-tag" and d["ranges"] == "blueprint"
        assert d["ev_loss_bb"] >= 0 and abs(sum(d["mix"].values()) - 1.0) < 1e-6
        best = max(v for v in d["ev_bb"].values() if v is not None)
        assert d["ev_loss_bb"] == pytest.approx(best - d["ev_bb"][d["action"]], abs=1e-9)
    assert rep["ev_loss_bb"]["total"] == pytest.approx(sum(d["ev_loss_bb"] for d in rep["decisions"]))


def test_turn_and_river_subgames_follow_the_real_line(files: Path) -> None:
    """The turn is solved from the real board with the flop solve's strategies along the
    real actions (Bayes), the river likewise; pots and stacks are the hand's."""
    from pokerlab.cards.cards import COMBO_MASKS, combo_index
    from pokerlab.hands.review import _solve  # noqa: PLC2701 - the test reads the cache's solves
    from pokerlab.hands.review_spot import score_hand

    line = hand_line(_hand(files / "hand.phhs"))
    cfg = ReviewConfig(iterations=30, target_pct=0.0)
    ranges = flop_ranges(line, {**PRESETS, **SMALL})[:2]
    spots: list = []
    solvers: list = []

    def solve(spot):  # noqa: ANN001, ANN202
        spots.append(spot)
        solvers.append(_solve(spot, cfg, 1))
        return solvers[-1]

    ds = score_hand(line, {1}, solve, cfg, ranges)  # Bob, the big blind: flop, turn, river
    assert [d["street"] for d in ds] == ["flop", "flop", "turn", "river"]
    assert [len(s.board) for s in spots] == [3, 4, 5]
    assert [(s.pot, s.stack) for s in spots] == [(650, 9700), (1650, 9200), (1650, 9200)]
    flop = solvers[0]
    d = flop.deal

    def sigma(path: list[str], action: str) -> np.ndarray:
        v = flop.cursor(path)
        k = flop.tree.action_names[v.node].index(action)
        return flop.average_strategy(v.node, v.slot)[k]

    want = []
    for p, acts in ((0, [([], "check"), (["check", "bet 500"], "call")]), (1, [(["check"], "bet 500")])):
        w = d.weights[p].astype(np.float64).copy()
        for path, a in acts:
            w = w * sigma(path, a)
        full = np.zeros(1326)
        full[d.combos[p]] = w
        full[(COMBO_MASKS & (np.uint64(1) << np.uint64(line.board[3]))) != 0] = 0.0
        full /= full.max()
        seat = line.seats[p]
        c = combo_index(*sorted(line.hole[seat]))
        full[c] = max(full[c], 1e-3)
        want.append(full)
    np.testing.assert_allclose(spots[1].ranges[0], want[0], atol=1e-6)
    np.testing.assert_allclose(spots[1].ranges[1], want[1], atol=1e-6)
    assert spots[1].ranges[1].sum() < ranges[1].sum()  # the bet narrowed the cutoff's range


def test_unreadable_input_is_named_not_blamed_on_the_hero(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(app, ["review", str(tmp_path / "none.phhs"), "--hero", "X"])
    assert missing.exit_code == 2 and "no such file" in missing.output and "hero" not in missing.output
    bad = tmp_path / "bad.phhs"
    bad.write_text("garbage\n", encoding="utf-8")
    corrupt = runner.invoke(app, ["review", str(bad), "--hero", "X"])
    assert corrupt.exit_code == 2 and "none of the 1 hand histories could be read" in corrupt.output
    assert "not valid PHH" in corrupt.output and corrupt.output.count("\n") == 1
