"""LBR with one action set per round (issue 49 item 4): the LBR paper's setting (4),
``c,56,fc,fc`` (C preflop, the 56 sizes on the flop, F,C on turn and river).

A per-round spec whose sets are all equal is the single set, ``c`` rounds are the rounds
before ``--from-round``, the kernels equal the Python hand loop deal by deal, the small
games take one set per betting round, and bad specs are one ``error:`` line."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.evaluation.lbr import LBRConfig, check_lbr_args, per_deal_holdem
from pokerlab.evaluation.lbr_core import LBRError, parse_action_set
from pokerlab.holdem.engine import HoldemConfig

runner = CliRunner()
CFG = HoldemConfig.from_bb(100)


def _blueprint():  # type: ignore[no-untyped-def]
    from pokerlab.registry import BLUEPRINT_FILES, make_agent, shipped_policy

    if shipped_policy(BLUEPRINT_FILES) is None:
        pytest.skip("no blueprint shipped")
    return make_agent("blueprint-100", config=CFG)


def _per_deal(agent, actions: str, deals: int, *, from_round: int = 1, seed: int = 17,
              **kw) -> np.ndarray:  # type: ignore[no-untyped-def]
    lbr = LBRConfig(actions=actions, hands=deals, seed=seed, from_round=from_round,
                    estimator=kw.pop("estimator", "sampled"))
    return per_deal_holdem(agent, CFG, lbr, range(deals), **kw)


# ----------------------------------------------------------------------------- parsing
def test_per_round_specs_parse() -> None:
    a = parse_action_set("c,56,fc,fc")
    assert a.rounds == ("c", "56", "fc", "fc") and a.name == "c,56,fc,fc"
    assert [len(s) for s in a.sizes] == [0, 54, 0, 0]
    assert a.active_rounds(1) == (False, True, True, True)
    assert a.active_rounds(3) == (False, False, True, True)
    # '/' separates sets that are bet-set texts (which hold commas); upper case and
    # spaces are read as in one set
    b = parse_action_set(" C / c / 50%, 100%, a / FC ")
    assert b.rounds == ("c", "c", "50%, 100%, a", "fc") and b.name == "c / c / 50%, 100%, a / fc"
    assert [len(s) for s in b.sizes] == [0, 0, 3, 0]
    assert parse_action_set("c/c/fcpa/fcpa").name == "c,c,fcpa,fcpa"
    # a bet-set text per street in one round: that round's street
    c = parse_action_set("2.5x; 50%, a; 100%; a / fc / fc / fc")
    assert [len(s) for s in c.sizes] == [1, 0, 0, 0]
    # one set: as before (no rounds); commas inside a bet-set text stay one set
    for text, n in (("fc", 0), ("fcpa", 2), ("56", 54), ("50%, 100%, a", 3)):
        one = parse_action_set(text)
        assert one.rounds == () and [len(s) for s in one.sizes] == [n] * 4
        assert one.active_rounds(2) == (False, True, True, True)
    assert parse_action_set("c").active_rounds(1) == (False,) * 4


@pytest.mark.parametrize("text,needle", [
    ("c,56,fc,fc,fc", "5 per-round sets"),
    ("c/56/fc/fc/fc", "5 per-round sets"),
    ("c,56,fc,zz", "round 4's set 'zz'"),
    ("c,56,zz,fc", "round 3's set 'zz'"),
    ("C, 56, 50%, fc", "round 3's set '50%'"),
    ("c/zz/fc/fc", "'zz'"),
    ("c//fc/fc", "empty per-round set"),
    ("", "got ''"),
])
def test_bad_specs_are_lbr_errors(text: str, needle: str) -> None:
    with pytest.raises(LBRError, match=None) as e:
        parse_action_set(text)
    assert needle in str(e.value)


def test_the_number_of_sets_must_match_the_game() -> None:
    base: dict[str, Any] = {"from_round": 1, "hands": 10, "seed": 0, "exact": False}
    assert check_lbr_args(game="hunl", actions="c,56,fc,fc", **base) == "hunl"
    assert check_lbr_args(game="leduc", actions="fc,fcpa", **base) == "leduc"
    with pytest.raises(LBRError, match="2 per-round sets; hunl has 4 betting rounds"):
        check_lbr_args(game="hunl", actions="fc,fcpa", **base)
    with pytest.raises(LBRError, match="4 per-round sets; leduc has 2 betting rounds"):
        check_lbr_args(game="leduc", actions="c,56,fc,fc", **base)
    with pytest.raises(LBRError, match="kuhn has 1 betting round "):
        check_lbr_args(game="kuhn", actions="c/fc", **base)


@pytest.mark.parametrize("args,needle", [
    (["lbr", "call", "--actions", "c,56,fc,fc,fc"], "5 per-round sets"),
    (["lbr", "call", "--actions", "c/56/xyz/fc"], "'xyz'"),
    (["lbr", "call", "--actions", ""], "got ''"),
    (["lbr", "call", "--actions", "c/56/fc"], "hunl has 4 betting rounds"),
    (["lbr", "random", "--game", "leduc", "--actions", "c,56,fc,fc"], "leduc has 2"),
    (["league", "call", "random", "--lbr", "--lbr-actions", "fc,c/56/fc"], "hunl has 4"),
])
def test_bad_specs_on_the_command_line_are_one_line(args: list[str], needle: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines


# ----------------------------------------------------------------------------- hold'em
def test_equal_sets_per_round_are_the_single_set() -> None:
    """Four equal sets give exactly the single set's chips, deal by deal and seat by seat,
    in the fold/call kernel, the real-tree kernel and the Python hand loop."""
    agent = _blueprint()
    for one, deals, kw in (("fc", 60, {}), ("fcpa", 40, {}), ("fcpa", 12, {"kernel": False})):
        a = _per_deal(agent, one, deals, **kw)
        b = _per_deal(agent, ",".join([one] * 4), deals, **kw)
        np.testing.assert_array_equal(a, b)
        assert (a != 0).mean() > 0.5


def test_c_rounds_are_the_rounds_before_from_round() -> None:
    """``c,c,fc,fc`` is ``fc --from-round 3`` and ``c,c,fcpa,fcpa`` is ``fcpa --from-round
    3`` (the paper's setting 2): the same game for LBR, so the same chips deal by deal on
    every path (kernels, Python loop, the expected estimator); ``c,fcpa,fcpa,fcpa`` is
    ``fcpa --from-round 2``."""
    agent = _blueprint()
    for per_round, one, fr, deals, kw in (
            ("c,c,fc,fc", "fc", 3, 80, {}),
            ("c,c,fc,fc", "fc", 3, 10, {"kernel": False}),
            ("c,c,fcpa,fcpa", "fcpa", 3, 60, {}),
            ("c/fcpa/fcpa/fcpa", "fcpa", 2, 40, {}),
            ("c,c,c,fcpa", "fcpa", 4, 3, {"estimator": "expected"})):
        a = _per_deal(agent, per_round, deals, **kw)
        b = _per_deal(agent, one, deals, from_round=fr, **kw)
        np.testing.assert_array_equal(a, b)
        assert np.abs(a).sum() > 0


def test_from_round_and_c_rounds_combine() -> None:
    """``--from-round`` still applies to a per-round spec: ``fc,fcpa,fcpa,fcpa`` from
    round 2 is ``c,fcpa,fcpa,fcpa``."""
    agent = _blueprint()
    a = _per_deal(agent, "fc,fcpa,fcpa,fcpa", 30, from_round=2)
    b = _per_deal(agent, "c,fcpa,fcpa,fcpa", 30)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("actions,deals", [
    ("c,56,fc,fc", 25),  # the paper's setting (4): the real-tree kernel
    ("c,fc,c,fc", 80),  # a gap no --from-round gives: the fold/call kernel's table
    ("fc,c,fcpa,c", 40),
])
def test_per_round_kernels_equal_python_lbr_deal_by_deal(actions: str, deals: int) -> None:
    from pokerlab.evaluation.lbr import fc_kernel_deals
    from pokerlab.evaluation.lbr_tree import tree_kernel_deals

    agent = _blueprint()
    lbr = LBRConfig(actions=actions, hands=deals, seed=29)
    raises = parse_action_set(actions).raises
    fast = (tree_kernel_deals(agent, CFG, lbr, range(deals)) if raises
            else fc_kernel_deals(agent, CFG, lbr, range(deals)))
    assert fast is not None
    slow = per_deal_holdem(agent, CFG, lbr, range(deals), kernel=False)
    np.testing.assert_array_equal(fast, slow)
    np.testing.assert_array_equal(per_deal_holdem(agent, CFG, lbr, range(deals)), fast)
    assert (fast != 0).mean() > 0.5
    # and the per-round spec is a different game from each of its sets alone
    for one in sorted(set(parse_action_set(actions).rounds) - {"c"}):
        assert not np.array_equal(fast, _per_deal(agent, one, deals, seed=29))


def test_setting_4_against_call_bets_the_flop_only() -> None:
    """Against ``call`` (never folds) LBR's flop bets are called and the turn and river are
    fold/call against a range that never bets: LBR never folds there, so setting (4)
    is the flop's value bets, positive, and differs from C on every round (0 exactly)."""
    res = runner.invoke(app, ["lbr", "call", "--actions", "c,56,fc,fc", "--hands", "30",
                              "--seed", "3", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["actions"] == "c,56,fc,fc" and d["from_round"] == 1 and d["hands"] == 60
    assert d["mbb"] > 1000
    res = runner.invoke(app, ["lbr", "call", "--actions", "c/c/c/c", "--hands", "30",
                              "--seed", "3", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["actions"] == "c,c,c,c" and d["mbb"] == 0.0 and d["sd_mbb"] == 0.0


# ----------------------------------------------------------------------------- small games
def test_leduc_takes_one_set_per_round() -> None:
    """Leduc's two rounds: ``fcpa,fcpa`` is ``fcpa``, ``c,fcpa`` is ``fcpa`` from round
    2, and ``fc,fcpa`` (fold/call in round 1, raises in round 2) lies between fold/call
    everywhere and raises everywhere; the expected estimator over every deal is exact."""
    from pokerlab.agents.small import SmallRandomAgent
    from pokerlab.evaluation.lbr_small import (
        exact_lbr,
        exact_lbr_seats,
        expected_lbr_deal,
        full_deals,
    )
    from pokerlab.games import load_game
    from pokerlab.policy.base import UniformRandomPolicy

    game = load_game("leduc")
    pol = UniformRandomPolicy()
    assert exact_lbr_seats(game, pol, actions="fcpa,fcpa") == exact_lbr_seats(
        game, pol, actions="fcpa")
    assert exact_lbr_seats(game, pol, actions="c/fcpa") == exact_lbr_seats(
        game, pol, actions="fcpa", from_round=2)
    mixed = exact_lbr(game, pol, actions="fc,fcpa")
    fc = exact_lbr(game, pol, actions="fc").mbb
    fcpa = exact_lbr(game, pol, actions="fcpa").mbb
    assert mixed.actions == "fc,fcpa"
    assert len({round(mixed.mbb, 6), round(fc, 6), round(fcpa, 6)}) == 3
    assert fc < mixed.mbb < fcpa
    v0 = v1 = 0.0
    for deal, p in full_deals(game):
        a, b = expected_lbr_deal(game, pol, deal, actions="fc,fcpa")
        v0 += p * a
        v1 += p * b
    assert 1000.0 * 0.5 * (v0 + v1) == pytest.approx(mixed.mbb, rel=1e-9)
    res = runner.invoke(app, ["lbr", "random", "--game", "leduc", "--actions", "fc,fcpa",
                              "--exact", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    ref = exact_lbr(game, SmallRandomAgent(), actions="fc,fcpa")
    assert d["actions"] == "fc,fcpa" and d["mbb"] == pytest.approx(ref.mbb, rel=1e-9)


def test_league_reads_per_round_sets() -> None:
    from pokerlab.arena.league import lbr_action_sets

    assert lbr_action_sets("fc,c/56/fc/fc,fcpa@3") == ["fc", "c/56/fc/fc", "fcpa@3"]
    assert lbr_action_sets("c/56/fc/fc") == ["c/56/fc/fc"]
    assert lbr_action_sets("c,56,fc,fc") == ["c,56,fc,fc"]  # one per-round set
