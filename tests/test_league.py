"""League tables and the ``pokerlab lbr`` / ``pokerlab league`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.arena.league import LeagueConfig, league_work, run_league, write_league
from pokerlab.errors import ConfigError


def test_league_hunl_tables_and_files(tmp_path: Path) -> None:
    cfg = LeagueConfig(agents=("call", "raise", "tag"), hands=6, seed=1, stack_bb=30.0,
                       lbr=True, lbr_hands=2)
    lg = run_league(cfg)
    val, ci = lg.matrix()
    assert np.all(np.isnan(np.diag(val)))
    np.testing.assert_allclose(val, -val.T)
    assert len(lg.pairings) == 3 and all(p.method == "aivat" for p in lg.pairings)
    # call vs raise: both ignore their cards, so duplicate + AIVAT cancels exactly
    p = next(p for p in lg.pairings if {p.a, p.b} == {"call", "raise"})
    assert p.value_mbb == pytest.approx(0.0, abs=1e-6) and p.value_ci95_mbb == pytest.approx(0.0)
    assert set(lg.lbr) == {"call", "raise", "tag"}
    assert lg.lbr["call"]["mbb"] == 0.0  # fc LBR cannot exploit a calling station
    files = write_league(lg, tmp_path)
    d = json.loads((tmp_path / "league.json").read_text())
    assert d["agents"] == ["call", "raise", "tag"] and d["unit"] == "mbb/hand"
    assert len(d["matrix_mbb"]) == 3 and d["matrix_mbb"][0][0] is None
    assert sorted(d["ranking"]) == ["call", "raise", "tag"]
    assert (tmp_path / "league.png").read_bytes()[:4] == b"\x89PNG"
    assert "<table>" in (tmp_path / "league.html").read_text()
    assert len(files) == 4
    with pytest.raises(ConfigError, match="existing folder"):
        write_league(lg, tmp_path / "missing")


def test_league_small_game_uses_exact_values(tmp_path: Path) -> None:
    lg = run_league(LeagueConfig(agents=("random", "policy:" + _kuhn_policy(tmp_path)),
                                 game="kuhn", hands=20, lbr=True))
    p = lg.pairings[0]
    assert p.method == "exact" and p.exact_mbb is not None
    assert p.value_mbb == pytest.approx(p.exact_mbb)
    assert lg.lbr["random"]["exact"] is True
    assert lg.lbr["random"]["mbb"] == pytest.approx(1000 / 6)  # fc: fold/call only


def _kuhn_policy(tmp_path: Path) -> str:
    from pokerlab.games import load_game
    from pokerlab.policy import save_policy
    from pokerlab.solvers.cfr import CFRSolver

    s = CFRSolver(game=load_game("kuhn"), config="cfr+")
    s.run(50)
    path = tmp_path / "kuhn.npz"
    save_policy(s.average_policy(), path)
    return str(path)


def test_league_config_errors() -> None:
    with pytest.raises(ConfigError, match="two agents"):
        LeagueConfig(agents=("call",))
    with pytest.raises(ConfigError, match="even"):
        LeagueConfig(agents=("call", "tag"), hands=3)
    with pytest.raises(ConfigError, match="target CI"):
        LeagueConfig(agents=("call", "tag"), target_ci_mbb=0.0)
    with pytest.raises(ConfigError, match="max hands"):
        LeagueConfig(agents=("call", "tag"), hands=200, max_hands=100)


def test_league_target_ci_plays_a_wide_pair_again() -> None:
    """A pair wider than the target plays again with more hands (capped), its first hands
    being the first run's; a pair within the target keeps its hands."""
    from pokerlab.arena import play_match

    cfg = LeagueConfig(agents=("random", "call", "raise"), hands=20, seed=4, stack_bb=30.0,
                       target_ci_mbb=1.0, max_hands=60)
    ticks: list[tuple[float, float | None]] = []
    lg = run_league(cfg, progress=lambda done, total=None: ticks.append((done, total)))
    by = {frozenset((p.a, p.b)): p for p in lg.pairings}
    # the bar's total grows by the hands of every pair played again, and is reached
    replayed = sum(p.hands for p in lg.pairings if p.hands != 20)
    assert ticks[-1] == (3 * 20 + replayed, 3 * 20 + replayed)
    assert all(d <= t for d, t in ticks if t is not None)
    from pokerlab.commands.lbr_cmd import league_text

    text = league_text(lg.to_json(), [])
    assert any(line.startswith("hands per pair:") and "random v call 60" in line
               for line in text)
    exact = by[frozenset(("call", "raise"))]  # both ignore their cards: CI 0
    assert exact.hands == 20 and exact.value_ci95_mbb == pytest.approx(0.0)
    wide = by[frozenset(("random", "call"))]
    assert wide.hands == 60 and 0 < wide.value_ci95_mbb
    short = run_league(LeagueConfig(agents=("random", "call"), hands=20, seed=4,
                                    stack_bb=30.0)).pairings[0]
    assert short.hands == 20 and wide.value_ci95_mbb < short.value_ci95_mbb * 1.5
    m20 = play_match("random", "call", hands=20, duplicate=True, seed=4, stack_bb=30.0)
    m60 = play_match("random", "call", hands=60, duplicate=True, seed=4, stack_bb=30.0)
    np.testing.assert_array_equal(m60.chips[:20], m20.chips)


def test_lbr_and_league_commands(tmp_path: Path) -> None:
    from pokerlab.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["lbr", "random", "--game", "kuhn", "--exact", "--actions", "fcpa",
                              "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    for key in ("agent", "actions", "hands", "mbb", "ci95_mbb", "seconds", "unit"):
        assert key in d
    assert d["ci95_mbb"] == 0.0 and d["unit"] == "mchips/hand"
    assert d["mbb"] == pytest.approx(458.3333333333333)
    res = runner.invoke(app, ["lbr", "call", "--hands", "3", "--actions", "fcpa", "--seed",
                              "2", "--stack", "20", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["hands"] == 6 and d["unit"] == "mbb/hand"
    assert d["mbb"] == pytest.approx(6333.333333333333)
    res = runner.invoke(app, ["lbr", "call", "--actions", "zz"])
    assert res.exit_code == 2 and "error:" in res.output and "zz" in res.output
    res = runner.invoke(app, ["lbr", "call", "--exact"])
    assert res.exit_code == 2 and "--exact" in res.output
    res = runner.invoke(app, ["lbr", "call", "--from-round", "0"])
    assert res.exit_code == 2 and "from-round" in res.output
    res = runner.invoke(app, ["league", "call", "raise", "--hands", "2", "--stack", "20",
                              "--out", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["agents"] == ["call", "raise"] and len(d["files"]) == 4
    res = runner.invoke(app, ["league", "call", "raise", "--out", str(tmp_path / "nope")])
    assert res.exit_code == 2 and "existing folder" in res.output


def test_league_on_two_processes_equals_one() -> None:
    """Each pair's hands (AIVAT) and each LBR run split over the executor: the same
    numbers hand by hand as one process."""
    cfg = LeagueConfig(agents=("blueprint-100", "tag", "call"), hands=40, seed=3,
                       stack_bb=100.0, lbr=True, lbr_hands=6)
    ticks: list[int] = []
    one = run_league(cfg, progress=lambda done, total: ticks.append(done))
    assert ticks[-1] == league_work(cfg) == 3 * 40 + 3 * 6
    assert ticks == sorted(ticks) and len(ticks) > 6  # hands as they are played
    two = run_league(cfg, workers=2)
    for p, q in zip(one.pairings, two.pairings, strict=True):
        assert (p.a, p.b, p.method) == (q.a, q.b, q.method) == (p.a, p.b, "aivat")
        assert q.value_mbb == pytest.approx(p.value_mbb, abs=1e-9)
        assert q.value_ci95_mbb == pytest.approx(p.value_ci95_mbb, abs=1e-9)
        assert q.mean_mbb == pytest.approx(p.mean_mbb, abs=1e-9)
    for name in cfg.agents:
        assert two.lbr[name]["mbb"] == pytest.approx(one.lbr[name]["mbb"], abs=1e-9)
    assert any(abs(p.value_mbb) > 100 for p in one.pairings)  # real hands were played


def test_aivat_chunks_equal_the_one_process_match() -> None:
    from pokerlab.arena.aivat import aivat_match

    one = aivat_match("blueprint-100", "tag", hands=30, seed=5, stack_bb=100.0)
    two = aivat_match("blueprint-100", "tag", hands=30, seed=5, stack_bb=100.0, workers=2)
    np.testing.assert_array_equal(one.raw, two.raw)
    np.testing.assert_allclose(two.aivat, one.aivat, rtol=0, atol=1e-9)
    np.testing.assert_allclose(two.allin, one.allin, rtol=0, atol=1e-9)
    assert one.raw.size == 30 and np.any(one.raw != 0) and two.known == one.known
    assert two.agents == ("blueprint-100", "tag")
    with pytest.raises(ConfigError, match="even"):
        from pokerlab.evaluation.aivat import aivat_match as core
        from pokerlab.registry import make_agent
        core(make_agent("call"), make_agent("tag"), hands=2, start=1)


def test_league_command_refuses_bad_workers() -> None:
    from pokerlab.cli import app

    res = CliRunner().invoke(app, ["league", "call", "raise", "--workers", "0"])
    assert res.exit_code == 2 and "--workers" in res.output and "Traceback" not in res.output
