"""The ``expected`` LBR estimator (the agent's hand and action draws integrated out).

* hold'em: its per-deal value equals a brute force written here (every agent combo the
  deal's board and LBR's cards leave, every agent action with its probability for that
  combo, LBR deciding on its Bayes range; payoffs from the engine with the combo as the
  agent's hole cards), also for an agent that keeps state between range queries
  (``snapshot``/``restore``);
* hold'em: the same mean as the sampled estimator on the same deals, a much smaller SD;
* Kuhn/Leduc: averaged over every deal with its probability, the exact LBR value;
* bad input: ``LBRConfig(estimator=...)`` and ``pokerlab lbr --estimator``.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.cards.cards import COMBO_MASKS, COMBOS, cards_mask
from pokerlab.evaluation.lbr import (
    ExpectedHoldemSession,
    HoldemSession,
    LBRConfig,
    LBRError,
    agent_seed,
    deal_cards,
    lbr_choose,
    parse_action_set,
    per_deal_holdem,
    play_expected_hand,
)
from pokerlab.evaluation.lbr_small import (
    draw_deal,
    exact_lbr_seats,
    expected_lbr_deal,
    full_deals,
    per_deal_small,
    sampled_lbr,
)
from pokerlab.games import load_game
from pokerlab.holdem.engine import HoldemConfig
from pokerlab.policy.base import UniformRandomPolicy
from pokerlab.policy.range_query import all_hands_probabilities
from pokerlab.solvers.cfr import CFRSolver

CFG = HoldemConfig.from_bb(100)


@pytest.fixture(scope="module")
def blueprint() -> Any:
    from pokerlab.registry import make_agent

    return make_agent("blueprint-100", game="hunl", config=CFG)


# ----------------------------------------------------------------------------- brute force
def _outcomes(session: HoldemSession, combos: np.ndarray) -> np.ndarray:
    """The engine's showdown outcome (player 0's view) with each combo as the agent's
    hole cards on the deal's full board."""
    st = session.state.clone()
    while len(st.board) < 5:
        st.board.append(session.cards[4 + len(st.board)])
    out = np.zeros(len(COMBOS), dtype=np.int64)
    opp = 1 - session.seat
    for j in combos.tolist():
        st.hole[opp] = [int(COMBOS[j, 1]), int(COMBOS[j, 0])]
        out[j] = st.showdown_outcome()
    return out


def brute_force(agent: Any, seed: int, deal: int, seat: int, actions: str,
                from_round: int) -> float:
    """LBR's chips with the agent's hand uniform over the combos LBR's cards and the
    deal's board leave: per combo, every agent action with its probability for that
    combo (not range-weighted); LBR decides on its Bayes range; then the plain average
    over the combos."""
    cards = deal_cards(seed, deal)
    agent.reset(agent_seed(seed, deal, seat))
    root = HoldemSession(agent, CFG, seat, cards, parse_action_set(actions), from_round)
    known = cards_mask([*cards[2 * seat:2 * seat + 2], *cards[4:9]])
    compatible = np.flatnonzero((COMBO_MASKS & np.uint64(known)) == 0)
    outcome = _outcomes(root, compatible)
    snapshot = getattr(agent, "snapshot", None)

    def value(s: HoldemSession, reach: np.ndarray) -> np.ndarray:
        while True:
            actor = s.advance()
            if actor < 0:
                st = s.state
                if st.folded >= 0:
                    return np.full(len(COMBOS), float(st.payoffs()[seat]))
                pay = {o: float(st.showdown_payoffs(o)[seat]) for o in (-1, 0, 1)}
                return np.array([pay[int(o)] for o in outcome])
            if actor == seat:
                if s.lbr_active():
                    opts = s.lbr_options()
                    k = lbr_choose(s.range / s.range.sum(), [v for _, v in opts])
                    s.apply(opts[k][0])
                else:
                    s.apply(s.call_action())
                continue
            acts, probs = s.opponent_policy()
            ks = [k for k in range(len(acts))
                  if float((reach * probs[:, k])[compatible].sum()) > 0]
            saved = snapshot() if snapshot is not None and len(ks) > 1 else None
            total = np.zeros(len(COMBOS))
            for k in ks:
                if saved is not None:
                    agent.restore(saved)
                child = copy.copy(s)
                child.state = s.state.clone()
                r = s.range * probs[:, k]
                child.range = r / r.sum()
                child.apply(acts[k])
                total += probs[:, k] * value(child, reach * probs[:, k])
            return total

    v = value(root, np.ones(len(COMBOS)))
    return float(v[compatible].mean())


def expected_value(agent: Any, seed: int, deal: int, seat: int, actions: str,
                   from_round: int) -> float:
    agent.reset(agent_seed(seed, deal, seat))
    sess = ExpectedHoldemSession(agent, CFG, seat, deal_cards(seed, deal),
                                 parse_action_set(actions), from_round)
    return play_expected_hand(sess)


@pytest.mark.parametrize("deal", [0, 1, 2])
def test_expected_equals_brute_force_blueprint(blueprint: Any, deal: int) -> None:
    for seat in (0, 1):
        want = brute_force(blueprint, 4, deal, seat, "fcpa", 4)
        got = expected_value(blueprint, 4, deal, seat, "fcpa", 4)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-9)
    # the run's entry point gives the same numbers
    per = per_deal_holdem(blueprint, CFG, LBRConfig(actions="fcpa", from_round=4, seed=4,
                                                    estimator="expected"), [deal])
    assert per[0, 1] == pytest.approx(want, rel=1e-9, abs=1e-9)


def test_expected_equals_brute_force_tag() -> None:
    from pokerlab.registry import make_agent

    tag = make_agent("tag", game="hunl", config=CFG)
    for seat in (0, 1):
        want = brute_force(tag, 9, 5, seat, "fcpa", 4)
        assert expected_value(tag, 9, 5, seat, "fcpa", 4) == pytest.approx(
            want, rel=1e-9, abs=1e-9)


class Stateful:
    """The blueprint's range query, reweighted by a counter of the queries answered
    (``count % 3``): its answers depend on its state, which ``snapshot``/``restore``
    take and put back."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.count = 0
        self.restores = 0
        self.all_hands_live = True

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)
        self.count = 0

    def action_probabilities_all_hands(self, view: Any, live: np.ndarray
                                       ) -> tuple[list[Any], np.ndarray]:
        acts, probs = all_hands_probabilities(self.inner, view, live)
        self.count += 1
        tilt = 1.0 + 0.5 * (self.count % 3) * np.arange(len(acts))
        p = probs * tilt[None, :]
        rows = p.sum(axis=1, keepdims=True)
        return acts, np.divide(p, rows, out=np.zeros_like(p), where=rows > 0)

    def snapshot(self) -> int:
        return self.count

    def restore(self, state: int) -> None:
        self.restores += 1
        self.count = state


def test_agent_state_is_restored_before_each_branch(blueprint: Any) -> None:
    agent = Stateful(blueprint)
    for seat in (0, 1):
        want = brute_force(agent, 6, 3, seat, "fcpa", 4)
        agent.restores = 0
        got = expected_value(agent, 6, 3, seat, "fcpa", 4)
        assert agent.restores > 10
        assert got == pytest.approx(want, rel=1e-9, abs=1e-9)


# ----------------------------------------------------------------------------- variance
def test_expected_has_the_sampled_mean_and_a_smaller_sd(blueprint: Any) -> None:
    """Blueprint-100, fcpa from the river, 80 deals (seed 21): the expected estimator's
    mean lies within the sampled run's 95% CI and its per-deal SD is a fraction of the
    sampled one's (measured: 2,835 against 17,641 mbb/hand, ratio 0.16)."""
    deals = range(80)
    lbr = LBRConfig(actions="fcpa", from_round=4, seed=21)
    sampled = per_deal_holdem(blueprint, CFG, lbr, deals, kernel=False).mean(axis=1) * 10.0
    lbr_e = LBRConfig(actions="fcpa", from_round=4, seed=21, estimator="expected")
    expected = per_deal_holdem(blueprint, CFG, lbr_e, deals).mean(axis=1) * 10.0
    n = len(sampled)
    sd_s, sd_e = float(sampled.std(ddof=1)), float(expected.std(ddof=1))
    ci_s = 1.959963984540054 * sd_s / math.sqrt(n)
    assert abs(float(expected.mean()) - float(sampled.mean())) < ci_s
    assert sd_e < 0.5 * sd_s
    print(f"sampled {sampled.mean():+.0f} +- {ci_s:.0f} (sd {sd_s:.0f}), expected "
          f"{expected.mean():+.0f} +- {1.96 * sd_e / math.sqrt(n):.0f} (sd {sd_e:.0f}), "
          f"sd ratio {sd_e / sd_s:.3f} mbb/hand")


def test_active_estimator(blueprint: Any) -> None:
    """``active``: with LBR active from the first round nothing is drawn, so it is
    ``expected`` exactly; from the river it draws the earlier actions by their
    range-weighted probabilities and keeps the sampled run's mean with less spread."""
    e = per_deal_holdem(blueprint, CFG, LBRConfig(actions="fc", from_round=1, seed=5,
                                                  estimator="expected"), range(2))
    a = per_deal_holdem(blueprint, CFG, LBRConfig(actions="fc", from_round=1, seed=5,
                                                  estimator="active"), range(2))
    np.testing.assert_array_equal(e, a)
    deals = range(80)
    sampled = per_deal_holdem(blueprint, CFG, LBRConfig(actions="fcpa", from_round=4, seed=21),
                              deals, kernel=False).mean(axis=1) * 10.0
    active = per_deal_holdem(blueprint, CFG, LBRConfig(actions="fcpa", from_round=4, seed=21,
                                                       estimator="active"), deals).mean(axis=1) * 10.0
    sd_s, sd_a = float(sampled.std(ddof=1)), float(active.std(ddof=1))
    ci_s = 1.959963984540054 * sd_s / math.sqrt(len(sampled))
    assert abs(float(active.mean()) - float(sampled.mean())) < ci_s
    assert sd_a < 0.7 * sd_s


# ----------------------------------------------------------------------------- small games
@pytest.mark.parametrize("game_name,actions,from_round", [
    ("kuhn", "fcpa", 1), ("leduc", "fcpa", 1), ("leduc", "fc", 1), ("leduc", "fcpa", 2)])
def test_expected_over_all_deals_is_exact_lbr(game_name: str, actions: str,
                                              from_round: int) -> None:
    game = load_game(game_name)
    solver = CFRSolver(game=game, config="cfr+")
    solver.run(10)
    for pol in (UniformRandomPolicy(), solver.average_policy()):
        v0 = v1 = 0.0
        for deal, p in full_deals(game):
            a, b = expected_lbr_deal(game, pol, deal, actions=actions, from_round=from_round)
            v0 += p * a
            v1 += p * b
        e0, e1 = exact_lbr_seats(game, pol, actions=actions, from_round=from_round)
        assert v0 == pytest.approx(e0, rel=1e-9, abs=1e-12)
        assert v1 == pytest.approx(e1, rel=1e-9, abs=1e-12)


def test_small_game_runs_play_the_drawn_deals() -> None:
    game = load_game("leduc")
    pol = UniformRandomPolicy()
    lbr = LBRConfig(actions="fcpa", seed=3, estimator="expected")
    per = per_deal_small(game, pol, lbr, range(6))
    for d in range(6):
        deal = draw_deal(game, np.random.default_rng([3, d, 7]))
        assert per[d] == pytest.approx(expected_lbr_deal(game, pol, deal, actions="fcpa"),
                                       rel=1e-12)
    r = sampled_lbr(game, pol, hands=400, seed=5, estimator="expected")
    s = sampled_lbr(game, pol, hands=400, seed=5)
    exact = 1000.0 * 0.5 * sum(exact_lbr_seats(game, pol, actions="fcpa"))
    assert abs(r.mbb - exact) < r.ci95_mbb
    assert r.sd_mbb < 0.6 * s.sd_mbb
    assert r.to_json()["estimator"] == "expected"
    assert s.to_json()["estimator"] == "sampled"


# ----------------------------------------------------------------------------- bad input
def test_bad_estimator_is_refused() -> None:
    with pytest.raises(LBRError, match="'x'"):
        LBRConfig(estimator="x")
    with pytest.raises(LBRError, match="estimator"):
        LBRConfig(estimator=None)  # type: ignore[arg-type]
    assert LBRConfig().estimator == "sampled"


def test_cli_bad_estimator_is_one_line() -> None:
    from pokerlab.cli import app

    res = CliRunner().invoke(app, ["lbr", "random", "--estimator", "x"])
    assert res.exit_code == 2
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "--estimator" in lines[0] and "'x'" in lines[0]
    assert "Traceback" not in res.output
    res = CliRunner().invoke(app, ["lbr", "random", "--game", "leduc", "--exact",
                                   "--estimator", "expected"])
    assert res.exit_code == 2 and res.stderr.startswith("error: ")


def test_cli_expected_estimator_in_json() -> None:
    import json

    from pokerlab.cli import app

    res = CliRunner().invoke(app, ["lbr", "random", "--game", "leduc", "--hands", "20",
                                   "--actions", "fcpa", "--estimator", "expected", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["estimator"] == "expected" and d["deals"] == 20


# ----------------------------------------------------------------------------- by outcome
def test_outcome_names_the_line_from_lbrs_first_round() -> None:
    from pokerlab.holdem.actions import Action, ActionKind

    call, fold = Action(kind=ActionKind.CHECK_CALL), Action(kind=ActionKind.FOLD)
    sess = ExpectedHoldemSession(UniformRandomPolicy(), CFG, 0, deal_cards(1, 0),
                                 parse_action_set("fcpa"), 3)
    script = [call, call, call, call,  # preflop limp-check, flop check-check (before round 3)
              Action(kind=ActionKind.RAISE, amount=200),  # LBR (big blind) bets the pot
              Action(kind=ActionKind.RAISE, amount=9900),  # the agent goes all in
              fold]
    for act in script:
        assert sess.advance() >= 0
        sess.apply(act)
    assert sess.advance() < 0
    assert sess.outcome() == "T Lb Aa Lf"
    sess = ExpectedHoldemSession(UniformRandomPolicy(), CFG, 1, deal_cards(1, 0),
                                 parse_action_set("fcpa"), 2)
    for act in [call] * 8:  # limp-check, then check down from the flop, LBR on the button
        assert sess.advance() >= 0
        sess.apply(act)
    assert sess.advance() < 0
    assert sess.outcome() == "F Ax Lx | T Ax Lx | R Ax Lx sd"


def test_value_by_outcome_sums_to_the_deals_value(blueprint: Any) -> None:
    import re

    lbr = LBRConfig(actions="fcpa", from_round=3, hands=4, seed=3, estimator="active")
    outcomes: dict[str, np.ndarray] = {}
    per = per_deal_holdem(blueprint, CFG, lbr, [0, 1, 2, 3], outcomes=outcomes)
    plain = per_deal_holdem(blueprint, CFG, lbr, [0, 1, 2, 3])
    np.testing.assert_allclose(per, plain, atol=1e-9)
    np.testing.assert_allclose(sum(outcomes.values()), per, atol=1e-9)
    assert len(outcomes) > 5  # the agent's actions are expanded: many lines per deal
    line = r"[LA][xcfba]( [LA][xcfba])*"
    pattern = re.compile(rf"T {line}( \| R {line})?( sd)?")
    assert all(pattern.fullmatch(k) for k in outcomes), sorted(outcomes)
    # a hand that ends by a fold on the turn is worth exactly the chips in before the fold
    for k, x in outcomes.items():
        if k.endswith("Af") and " | " not in k:
            assert (x >= 0).all()
    with pytest.raises(LBRError, match="expected or active"):
        per_deal_holdem(blueprint, CFG, LBRConfig(actions="fcpa", from_round=3, hands=1),
                        [0], outcomes={})


def test_line_groups_and_rows_sum_to_the_value() -> None:
    from pokerlab.evaluation.lbr_core import NO_LINE, line_group, line_rows, merge_lines

    key = "T Lx Ab Lc | R Lx Ax sd"
    assert line_group(key, "line") == key
    assert line_group(key, "street") == "T Lx Ab Lc | R ..."
    assert line_group(key, "opening") == "T Lx Ab"
    assert line_group("T Lb Af", "street") == "T Lb Af"
    assert line_group("", "opening") == NO_LINE
    with pytest.raises(LBRError, match="--by-line must be one of line, street, opening"):
        line_group(key, "seat")
    # two chunks of two deals each, merged by their first rows; chips, big blind 100
    parts = [(0, {"T Lb Af": np.array([[100.0, 0.0], [50.0, 50.0]])}),
             (2, {"T Lb Af": np.array([[0.0, 0.0], [10.0, 10.0]]),
                  "T Lx Ab Lc | R Lx Ax sd": np.array([[-300.0, 100.0], [0.0, 0.0]])})]
    lines = merge_lines(parts, 4)
    assert lines["T Lx Ab Lc | R Lx Ax sd"][:2].tolist() == [[0.0, 0.0], [0.0, 0.0]]
    rows = line_rows(lines, 4, 100.0)
    # per-deal means (chips): fold line 50, 50, 0, 10 -> 27.5 chips = 275 mbb/hand
    assert rows[0]["line"] == "T Lb Af" and rows[0]["mbb"] == pytest.approx(275.0)
    assert rows[1]["mbb"] == pytest.approx(-250.0)  # (-100) / 4 chips
    sd = float(np.std([500.0, 500.0, 0.0, 100.0], ddof=1))
    assert rows[0]["ci95_mbb"] == pytest.approx(1.959963984540054 * sd / 2.0)
    total = sum(x for x in lines.values()).mean(axis=1).mean() * 10.0
    assert sum(r["mbb"] for r in rows) == pytest.approx(total)
    assert [r["line"] for r in line_rows(lines, 4, 100.0, "opening")] == ["T Lb Af", "T Lx Ab"]


def test_cli_by_line_splits_lbrs_value_and_refuses_the_sampled_estimator() -> None:
    import json

    from pokerlab.cli import app

    args = ["lbr", "call", "--actions", "fcpa", "--from-round", "3", "--estimator", "active",
            "--hands", "6", "--seed", "4", "--by-line", "street"]
    res = CliRunner().invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    by = d["by_line"]
    assert by["group"] == "street" and by["unit"] == "mbb/hand"
    assert sum(r["mbb"] for r in by["rows"]) == pytest.approx(d["mbb"], abs=1e-6)
    assert all(r["line"].startswith("T ") for r in by["rows"])
    # the same deals over two processes: the same split
    two = CliRunner().invoke(app, [*args, "--json", "--workers", "2"])
    assert two.exit_code == 0, two.output
    rows2 = {r["line"]: r["mbb"] for r in json.loads(two.stdout)["by_line"]["rows"]}
    assert rows2 == pytest.approx({r["line"]: r["mbb"] for r in by["rows"]})
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0 and "LBR's winnings by street" in text.stdout
    for bad, what in ((["--estimator", "sampled"], "expected or active"),
                      (["--by-line", "seat"], "--by-line must be one of")):
        res = CliRunner().invoke(app, [*args, *bad])
        assert res.exit_code == 2, res.output
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and what in lines[0] and "Traceback" not in res.output
