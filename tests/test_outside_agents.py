"""Outside agents (issue 26): agent objects from Python, ``python:MODULE:FACTORY`` specs,
the ``pokerlab.agents`` entry points, and bots' own counters back from worker processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerlab.arena import play_match, run_lbr, run_league
from pokerlab.arena.league import LeagueConfig
from pokerlab.errors import AgentError
from pokerlab.registry import make_agent

BOTS = Path(__file__).parent / "outside"
SPEC = "python:tiny_outside_bot:make_bot"


@pytest.fixture(autouse=True)
def _bots_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BOTS))


def _bot():  # type: ignore[no-untyped-def]
    import tiny_outside_bot

    return tiny_outside_bot.TinyBot()


def test_spec_builds_the_outside_agent() -> None:
    a = make_agent(SPEC, seed=3)
    assert type(a).__name__ == "TinyBot" and a.seed == 3 and a.name == "tiny"
    with pytest.raises(AgentError, match="cannot import module 'no_such_bot_module'"):
        make_agent("python:no_such_bot_module:make")
    with pytest.raises(AgentError, match="has no 'nope'"):
        make_agent("python:tiny_outside_bot:nope")
    with pytest.raises(AgentError, match="no act"):
        make_agent("python:tiny_outside_bot:make_broken")
    with pytest.raises(AgentError, match="RuntimeError: no such table"):
        make_agent("python:tiny_outside_bot:make_failing")
    with pytest.raises(AgentError, match="python:MODULE:FACTORY"):
        make_agent("python:only_module")
    with pytest.raises(AgentError, match="python:MODULE:FACTORY"):
        make_agent("no_such_agent_name")


def test_entry_point_names_an_outside_agent(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    dist = tmp_path / "tinybots-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tinybots\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[pokerlab.agents]\ntinybot = tiny_outside_bot:make_bot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from pokerlab.agents.outside import entry_point_names

    assert "tinybot" in entry_point_names()
    a = make_agent("tinybot")
    assert type(a).__name__ == "TinyBot"
    m = play_match("tinybot", "call", hands=4, seed=1, workers=1)
    assert m.hands == 4 and m.counters["A"]["hands"] == 4.0


def test_agent_object_in_a_match_with_counters() -> None:
    bot = _bot()
    m = play_match(bot, "raise", hands=20, duplicate=True, seed=2, stack_bb=50)
    assert m.config.agents == ("tiny", "raise") and m.hands == 20
    assert bot.hands == 20 and bot.folds > 0  # played here, the object itself
    assert m.counters["A"] == {"hands": 20.0, "folds": float(bot.folds)}
    d = m.to_json()
    assert d["counters"]["A"]["hands"] == 20.0 and d["stack_bb"] == 50.0
    # the same hands through the spec: the same result
    s = play_match(SPEC, "raise", hands=20, duplicate=True, seed=2, stack_bb=50, workers=1)
    assert s.mean_mbb == m.mean_mbb


def test_counters_come_back_from_worker_processes() -> None:
    m = play_match(SPEC, "raise", hands=40, seed=5, stack_bb=50, workers=2)
    assert m.workers == 2 and m.hands == 40
    assert m.counters["A"]["hands"] == 40.0  # summed over both processes
    one = play_match(SPEC, "raise", hands=40, seed=5, stack_bb=50, workers=1)
    assert one.mean_mbb == m.mean_mbb and one.counters["A"] == m.counters["A"]


def test_lbr_and_league_take_objects() -> None:
    r = run_lbr(_bot(), actions="fcpa", hands=3, seed=1, stack_bb=20)
    assert r.agent == "tiny" and r.hands == 6 and r.to_json()["stack_bb"] == 20.0
    s = run_lbr(SPEC, actions="fcpa", hands=3, seed=1, stack_bb=20)
    assert s.mbb == r.mbb
    lg = run_league(LeagueConfig(agents=("tiny", "call"), hands=4, stack_bb=20.0),
                    objects={"tiny": _bot()})
    assert len(lg.pairings) == 1 and lg.pairings[0].method == "aivat"


def test_match_command_with_an_outside_spec() -> None:
    from pokerlab.cli import app

    res = CliRunner().invoke(app, ["match", SPEC, "call", "--hands", "6", "--stack", "30",
                                   "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["agents"] == [SPEC, "call"] and d["counters"]["A"]["hands"] == 6.0
    res = CliRunner().invoke(app, ["match", "python:no_such_bot_module:x", "call"])
    assert res.exit_code == 2 and res.output.count("error:") == 1
