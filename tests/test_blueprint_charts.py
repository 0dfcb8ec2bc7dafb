"""``pokerlab blueprint charts``: the shipped blueprints' preflop charts and flop ranges."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.agents.policy_agent import load_policy_agent
from pokerlab.blueprint.charts import Charts, charts_json, preflop_charts
from pokerlab.cards.cards import combo_index, parse_cards
from pokerlab.cards.ranges import parse_range
from pokerlab.cli import app
from pokerlab.holdem.engine import HoldemState
from pokerlab.registry import shipped_blueprints

runner = CliRunner()
HANDS = [("AsAh", "7c2d"), ("7c2d", "KsQs"), ("KsQs", "5h4h"), ("5h4h", "JdTd"), ("9c9d", "AhKc")]


@pytest.fixture(scope="module", params=[100.0, 200.0])
def charts(request: Any) -> tuple[Charts, Any]:
    stack = request.param
    agent = load_policy_agent(str(shipped_blueprints()[stack]), name="bp")
    return preflop_charts(stack, depth=2), agent


def _node(ch: Charts, line: str) -> Any:
    return next(n for n in ch.nodes if n.line == line)


def _policy(agent: Any, st: HoldemState) -> list[float]:
    res = agent.abstract_weights(st.view(st.actor))
    assert res is not None
    _, _, w = res
    return [x / sum(w) for x in w]


def test_chart_frequencies_equal_the_blueprint_policy(charts: tuple[Charts, Any]) -> None:
    ch, agent = charts
    root = _node(ch, "SB first")
    assert root.actions[:2] == ["fold", "limp"] and "all-in" in root.actions
    facing = _node(ch, "SB raise 2.5bb")
    assert facing.actions[:2] == ["fold", "call"] and facing.player == 0
    for sb, bb in HANDS:
        st = HoldemState(config=agent.game.config)
        st.deal_hole(parse_cards(bb))  # player 0: the big blind
        st.deal_hole(parse_cards(sb))
        assert st.actor == 1
        c_sb = combo_index(*parse_cards(sb))
        c_bb = combo_index(*parse_cards(bb))
        assert root.strategy[:, c_sb] == pytest.approx(_policy(agent, st), abs=1e-6)
        st.raise_to(250)
        assert facing.strategy[:, c_bb] == pytest.approx(_policy(agent, st), abs=1e-6)
    # a class's grid entry is its combos' mean where every combo reaches
    g = root.grid(root.actions.index("raise 2.5bb"))
    aa = [combo_index(*parse_cards(h)) for h in ("AsAh", "AsAd", "AsAc", "AhAd", "AhAc", "AdAc")]
    assert g["AA"] == pytest.approx(float(np.mean(root.strategy[2, aa])), abs=1e-12)
    freq = root.frequencies()
    assert sum(freq.values()) == pytest.approx(1.0)
    assert freq["fold"] == pytest.approx(float(root.strategy[0].mean()), abs=1e-12)


def test_flop_ranges_are_products_along_the_line(charts: tuple[Charts, Any]) -> None:
    ch, _ = charts
    root = _node(ch, "SB first")
    facing = _node(ch, "SB raise 2.5bb")
    line = next(f for f in ch.flops if f.line == "SB raise 2.5bb, BB call")
    assert np.array_equal(line.reach[1], root.strategy[root.actions.index("raise 2.5bb")])
    assert np.array_equal(line.reach[0], facing.strategy[facing.actions.index("call")])
    assert line.pot == 500 and line.stack == int(ch.stack_bb) * 100 - 250
    limp = next(f for f in ch.flops if f.line == "SB limp, BB check")
    check = _node(ch, "SB limp")
    assert np.array_equal(limp.reach[0], check.strategy[check.actions.index("check")])
    assert limp.pot == 200
    r = line.ranges()
    for who, p in (("oop", 0), ("ip", 1)):
        back = parse_range(r[who])
        assert back == pytest.approx(line.reach[p], rel=1e-5, abs=1e-12)


def test_charts_command_ranges_feed_spot_solve(tmp_path: Any) -> None:
    res = runner.invoke(app, ["blueprint", "charts", "--depth", "2", "--json", "--line", "SB raise 3bb",
                              "--png", str(tmp_path / "c.png")])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert [c["line"] for c in obj["charts"]] == ["SB raise 3bb"]
    assert set(obj["charts"][0]["grid"]["call"]) >= {"AA", "72o", "AKs"}
    assert (tmp_path / "c.png").stat().st_size > 1000
    line = next(f for f in obj["flop_lines"] if f["line"] == "SB raise 3bb, BB call")
    assert line["pot"] == 600 and line["big_blind"] == 100
    res = runner.invoke(app, ["spot", "tree", "--board", "Td9d6h", "--pot", str(line["pot"]),
                              "--stack", str(line["stack"]), "--big-blind", "100", "--oop", line["oop"],
                              "--ip", line["ip"], "--json"])
    assert res.exit_code == 0, res.output
    tree = json.loads(res.stdout)
    dead = set(parse_cards("Td9d6h"))
    from pokerlab.cards.cards import COMBOS
    for who, k in (("oop", 0), ("ip", 1)):
        w = parse_range(line[who])
        live = [i for i in range(1326) if w[i] > 0 and not ({int(COMBOS[i, 0]), int(COMBOS[i, 1])} & dead)]
        assert tree["hands"][k] == len(live)


def test_charts_bad_input() -> None:
    for args, text in ((["--stack", "150"], "no blueprint of that stack"),
                       (["--line", "SB dance"], "not a preflop line")):
        res = runner.invoke(app, ["blueprint", "charts", "--depth", "1", *args])
        assert res.exit_code == 2 and res.output.startswith("error: ") and text in res.output, res.output
    assert charts_json(preflop_charts(100, depth=1), grids=False)["flop_lines"] == []
