"""AIVAT and the all-in EV adjustment: exact unbiasedness on the small games, sampled
agreement with the exact match value (Leduc) and with the plain mean (HUNL)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pokerlab.agents.small import SeatPolicy, SmallPolicyAgent, SmallRandomAgent
from pokerlab.arena.aivat import aivat_match, aivat_summary
from pokerlab.errors import ConfigError
from pokerlab.evaluation import expected_values
from pokerlab.evaluation.aivat import _SmallValue, small_term
from pokerlab.games import load_game
from pokerlab.policy.base import Policy, UniformRandomPolicy
from pokerlab.solvers.cfr import CFRSolver


def _cfr_policy(game: Any, iters: int = 20) -> Policy:
    s = CFRSolver(game=game, config="cfr+")
    s.run(iters)
    return s.average_policy()


def _exact_mbb(game: Any, pa: Policy, pb: Policy) -> float:
    v0 = float(expected_values(game, SeatPolicy(pa, pb))[0])
    v1 = float(expected_values(game, SeatPolicy(pb, pa))[1])
    return 1000.0 * (v0 + v1) / 2.0


def _expected_aivat(game: Any, pols: list[Policy], known: list[bool], a: int,
                    selfplay: bool = False) -> float:
    """E[AIVAT estimate of seat ``a``] by enumerating every chance and action outcome."""
    fns = [p.action_probabilities if k else None for p, k in zip(pols, known, strict=True)]
    sp = [f if f is not None else g for f, g in zip(fns, fns[::-1], strict=True)]
    v = _SmallValue(a, fns, sp if selfplay else None)

    def walk(st: Any, prob: float, corr: float) -> float:
        if st.is_terminal():
            return prob * (float(st.returns()[a]) - corr)
        if st.is_chance_node():
            outs = dict(st.chance_outcomes())
            return sum(walk(st.child(c), prob * q, corr + small_term(v, st, c, outs))
                       for c, q in outs.items() if q > 0)
        p = st.current_player()
        probs = pols[p].action_probabilities(st)
        total = 0.0
        for act, q in probs.items():
            if q <= 0:
                continue
            term = small_term(v, st, act, probs) if known[p] else 0.0
            total += walk(st.child(act), prob * q, corr + term)
        return total

    return walk(game.new_initial_state(), 1.0, 0.0)


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_aivat_is_exactly_unbiased(game_name: str) -> None:
    game = load_game(game_name)
    cfr = _cfr_policy(game, 5)
    uni = UniformRandomPolicy()
    truth = [float(expected_values(game, SeatPolicy(cfr, uni))[0]),
             float(expected_values(game, SeatPolicy(uni, cfr))[1])]
    for known in ([True, True], [True, False], [False, True]):
        got0 = _expected_aivat(game, [cfr, uni], known, 0)
        assert got0 == pytest.approx(truth[0], abs=1e-9)
    got1 = _expected_aivat(game, [uni, cfr], [False, True], 1)
    assert got1 == pytest.approx(truth[1], abs=1e-9)
    # the self-play value function (the known agent's own policy models the other seat)
    got = _expected_aivat(game, [cfr, uni], [True, False], 0, selfplay=True)
    assert got == pytest.approx(truth[0], abs=1e-9)


def test_selfplay_value_with_both_policies_known_is_exact() -> None:
    game = load_game("leduc")
    pol = _cfr_policy(game)
    exact = _exact_mbb(game, pol, UniformRandomPolicy())
    r = aivat_match(SmallPolicyAgent(pol, name="cfr+"), SmallRandomAgent(), game="leduc",
                    hands=40, duplicate=True, seed=0, value="selfplay")
    # every control variate is exact: each duplicate pair's AIVAT mean is the match value
    pairs = r.aivat.reshape(-1, 2).mean(axis=1) * 1000.0
    np.testing.assert_allclose(pairs, exact, atol=1e-9)
    with pytest.raises(ConfigError, match="selfplay"):
        aivat_match("call", "raise", hands=2, duplicate=True, value="selfplay")


def test_aivat_leduc_within_ci_of_exact_value() -> None:
    game = load_game("leduc")
    pol = _cfr_policy(game)
    exact = _exact_mbb(game, pol, UniformRandomPolicy())
    a = SmallPolicyAgent(pol, name="cfr+")
    b = SmallRandomAgent()
    raws, aivats = [], []
    for seed in range(4):
        r = aivat_match(a, b, game="leduc", hands=500, duplicate=True, seed=seed)
        d = r.to_json()
        # every (fixed) seed: the AIVAT mean is near the exact value
        assert abs(d["aivat_mean_mbb"] - exact) <= 1.3 * d["aivat_ci95_mbb"]
        assert d["aivat_sd_reduction"] > 0.4
        raws.append(r.raw)
        aivats.append(r.aivat)
    allv = np.concatenate(aivats) * 1000.0
    pair = allv.reshape(-1, 2).mean(axis=1)
    ci = 1.96 * pair.std(ddof=1) / np.sqrt(pair.size)
    assert abs(allv.mean() - exact) <= ci
    raw = np.concatenate(raws) * 1000.0
    assert allv.std() < 0.6 * raw.std()


class _Hidden:
    """A HUNL agent that plays ``call`` but exposes no probabilities."""

    name = "hidden"

    def reset(self, seed: int) -> None:
        pass

    def act(self, view: Any) -> Any:
        from pokerlab.holdem.engine import Action, ActionKind

        return Action(kind=ActionKind.CHECK_CALL)


def test_hunl_aivat_agrees_with_plain_duplicate_mean() -> None:
    from pokerlab.arena.matches import play_match

    r = aivat_match("tag", "random", hands=100, duplicate=True, seed=0, stack_bb=50.0)
    m = play_match("tag", "random", hands=100, duplicate=True, seed=0, stack_bb=50.0,
                   workers=1)
    np.testing.assert_array_equal(r.raw, m.chips)  # the same hands as the match
    d = r.to_json()
    assert d["mean_mbb"] == pytest.approx(m.mean_mbb)
    assert d["ci95_mbb"] == pytest.approx(m.ci95_mbb)
    for key in ("aivat", "allin"):
        assert abs(d[f"{key}_mean_mbb"] - d["mean_mbb"]) <= d["ci95_mbb"] + d[f"{key}_ci95_mbb"]
    assert d["aivat_sd_mbb"] < d["sd_mbb"]
    assert d["aivat_known"] == [True, True]


def test_aivat_summary_keys_and_errors() -> None:
    s = aivat_summary("call", "raise", hands=4, duplicate=True, seed=1, stack_bb=20.0)
    for k in ("aivat_mean_mbb", "aivat_ci95_mbb", "aivat_sd_mbb", "aivat_sd_reduction",
              "allin_mean_mbb", "aivat_raw_mean_mbb"):
        assert k in s
    with pytest.raises(ConfigError, match="hidden"):
        aivat_match(_Hidden(), _Hidden(), hands=2, duplicate=True)


def test_allin_ev_and_aivat_at_short_stacks() -> None:
    # 10 bb push/fold against random: most pots are all-in before the river
    r = aivat_match("pushfold", "random", hands=100, duplicate=True, seed=2, stack_bb=10.0)
    d = r.to_json()
    assert np.count_nonzero(r.allin != r.raw) > 20
    for key in ("aivat", "allin"):
        assert abs(d[f"{key}_mean_mbb"] - d["mean_mbb"]) <= d["ci95_mbb"] + d[f"{key}_ci95_mbb"]
        assert d[f"{key}_sd_reduction"] > 0.3


def test_match_command_aivat_keys() -> None:
    import json

    from typer.testing import CliRunner

    from pokerlab.cli import app

    res = CliRunner().invoke(app, ["match", "tag", "random", "--hands", "6", "--duplicate",
                                   "--stack", "20", "--aivat", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    for key in ("aivat_mean_mbb", "aivat_ci95_mbb", "aivat_sd_mbb"):
        assert key in d
    assert d["aivat_raw_mean_mbb"] == pytest.approx(d["mean_mbb"])
