"""Agents' own stacks (issue 26): match/LBR/league default to the policy's stack,
``blueprint-100``, ``blueprint`` refused at a stack no blueprint ships for; the league's
text table with CIs and several LBR action sets."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pokerlab.arena.league import LeagueConfig, lbr_action_sets, run_league
from pokerlab.arena.matches import resolve_stack
from pokerlab.errors import AgentError
from pokerlab.registry import (
    BLUEPRINT_FILES,
    agent_stack_bb,
    shipped_blueprints,
    shipped_policy,
    spec_stack_bb,
)

needs_blueprint = pytest.mark.skipif(shipped_policy(BLUEPRINT_FILES) is None,
                                     reason="no blueprint shipped")


@needs_blueprint
def test_blueprint_stacks() -> None:
    from pokerlab.registry import make_agent

    assert spec_stack_bb("blueprint") == 100.0 and spec_stack_bb("blueprint-100") == 100.0
    assert spec_stack_bb("tag") is None
    assert agent_stack_bb(make_agent("blueprint-100")) == 100.0
    said: list[str] = []
    assert resolve_stack(["blueprint", "tag"], None, warn=said.append) == 100.0
    assert resolve_stack(["tag", "call"], None, warn=said.append) == 200.0
    assert said == []
    with pytest.raises(AgentError, match="no 150 bb blueprint ships"):
        resolve_stack(["blueprint", "tag"], 150.0, warn=said.append)
    assert resolve_stack(["blueprint-100", "tag"], 200.0, warn=said.append) == 200.0
    assert len(said) == 1 and "blueprint-100 (100 bb)" in said[0]
    with pytest.raises(AgentError, match="no 150 bb blueprint ships"):
        make_agent("blueprint-150")
    with pytest.raises(AgentError, match="blueprint-N"):
        make_agent("blueprint-big")


@needs_blueprint
def test_commands_default_to_the_policy_stack() -> None:
    from pokerlab.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["match", "blueprint", "call", "--hands", "2", "--workers", "1",
                              "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["stack_bb"] == 100.0
    res = runner.invoke(app, ["lbr", "blueprint", "--hands", "1", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["stack_bb"] == 100.0
    res = runner.invoke(app, ["match", "blueprint", "call", "--stack", "150", "--hands", "2"])
    assert res.exit_code == 2 and res.output.count("error:") == 1
    assert "no 150 bb blueprint ships" in res.output
    res = runner.invoke(app, ["lbr", "blueprint-100", "--stack", "150", "--hands", "1",
                              "--json"])
    assert res.exit_code == 0
    assert json.loads(res.stdout)["stack_bb"] == 150.0
    assert res.stderr.count("warning:") == 1


needs_blueprint_200 = pytest.mark.skipif(200.0 not in shipped_blueprints(),
                                         reason="no 200 bb blueprint shipped")


@needs_blueprint_200
def test_the_200bb_blueprint_is_the_acpc_game() -> None:
    """``blueprint-200`` plays the ACPC / Slumbot game (blinds 50/100, stacks 20,000), and
    ``blueprint`` means it at a 200 bb table (the 100 bb one otherwise)."""
    from pokerlab.cli import app
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.registry import make_agent

    a = make_agent("blueprint-200")
    assert agent_stack_bb(a) == 200.0
    assert a.game.config.stacks == (20000, 20000) and a.game.config.big_blind == 100
    assert spec_stack_bb("blueprint-200") == 200.0
    deep = make_agent("blueprint", config=HoldemConfig.from_bb(200.0))
    assert agent_stack_bb(deep) == 200.0
    assert agent_stack_bb(make_agent("blueprint", config=HoldemConfig.from_bb(100.0))) == 100.0
    said: list[str] = []
    assert resolve_stack(["blueprint", "tag"], 200.0, warn=said.append) == 200.0
    assert resolve_stack(["blueprint-200", "tag"], None, warn=said.append) == 200.0
    assert said == []
    res = CliRunner().invoke(app, ["match", "blueprint-200", "tag", "--hands", "4",
                                   "--duplicate", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["stack_bb"] == 200.0


def test_lbr_action_sets() -> None:
    assert lbr_action_sets("fc") == ["fc"]
    assert lbr_action_sets("fc, FCPA,fc") == ["fc", "fcpa"]
    assert lbr_action_sets("50%, 100%, a") == ["50%, 100%, a"]
    assert lbr_action_sets("fc, fcpa@3,56 @3") == ["fc", "fcpa@3", "56@3"]
    assert lbr_action_sets("fcpa@3") == ["fcpa@3"]


def test_league_lbr_from_round_columns() -> None:
    from pokerlab.evaluation.lbr_core import LBRError

    lg = run_league(LeagueConfig(agents=("call", "raise"), hands=4, stack_bb=20.0, lbr=True,
                                 lbr_hands=2, lbr_actions="fc,fcpa@3"))
    by = lg.lbr["call"]["by_actions"]
    assert set(by) == {"fc", "fcpa@3"} and by["fcpa@3"]["from_round"] == 3
    with pytest.raises(LBRError, match="from-round"):
        run_league(LeagueConfig(agents=("call", "raise"), hands=4, stack_bb=20.0, lbr=True,
                                lbr_hands=2, lbr_actions="fc,fcpa@7"))


def test_league_text_has_cis_and_lbr_columns() -> None:
    from pokerlab.cli import app

    res = CliRunner().invoke(app, ["league", "call", "raise", "--hands", "4", "--stack", "20",
                                   "--lbr", "--lbr-actions", "fc,fcpa", "--lbr-hands", "2"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.strip().splitlines()
    assert "LBR fc" in lines[0] and "LBR fcpa" in lines[0]
    assert "+-" in lines[1] and "95% CI" in lines[-1]
    lg = run_league(LeagueConfig(agents=("call", "raise"), hands=4, stack_bb=20.0, lbr=True,
                                 lbr_hands=2, lbr_actions="fc,fcpa"))
    e = lg.lbr["call"]
    assert e["actions"] == "fc" and e["mbb"] == 0.0
    assert set(e["by_actions"]) == {"fc", "fcpa"} and e["by_actions"]["fcpa"]["mbb"] > 1000
