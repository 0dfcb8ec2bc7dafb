"""The belief tracker (pokerlab.agents.beliefs): exact ranges on Kuhn (analytic), Leduc
(an independent Bayes computation by substituting the opponent's card) and push/fold
hold'em (the shove range is the chart's)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from pokerlab.agents.beliefs import HoldemBeliefs, SmallGameBeliefs, action_column
from pokerlab.cards.cards import COMBOS, NUM_COMBOS
from pokerlab.games import load_game
from pokerlab.holdem.actions import Action, ActionKind


def _hashed_policy(seed: str):
    """A fixed pseudo-random behaviour policy over any game's information states."""
    def pol(state):
        legal = state.legal_actions()
        key = state.information_state_string(state.current_player())
        h = hashlib.sha256((seed + key).encode()).digest()
        w = np.array([0.05 + h[i] / 255 for i in range(len(legal))])
        return {a: float(x) for a, x in zip(legal, w / w.sum(), strict=True)}
    return pol


def test_kuhn_posterior_after_a_bet_is_analytic() -> None:
    alpha = 0.2
    bet_prob = {"0": alpha, "1": 0.0, "2": 3 * alpha}  # J bluffs alpha, K value-bets 3 alpha

    def pol(state):
        info = state.information_state_string(state.current_player())
        b = bet_prob.get(info, 0.5)
        return {0: 1 - b, 1: b}

    tracker = SmallGameBeliefs(load_game("kuhn"), pol)
    post = tracker.belief([0, 1, 1], viewer=1)  # P0 holds J (hidden), P1 the Q; P0 bets
    assert post == pytest.approx({"0b": 0.25, "2b": 0.75})
    post = tracker.belief([2, 1, 0], viewer=1)  # P0 checks: J (1-a), K (1-3a)
    assert post == pytest.approx({"0p": 0.8 / 1.2, "2p": 0.4 / 1.2})


def _substitution_posterior(game, pol, history, viewer):
    """P(opponent card | viewer's information) by substituting each candidate card for the
    opponent's deal (history[1 - viewer]) and multiplying chance and policy probabilities."""
    opp = 1 - viewer
    post: dict[str, float] = {}
    for c in range(6):
        h = list(history)
        h[opp] = c
        st = game.new_initial_state()
        p = 1.0
        ok = True
        for a in h:
            if st.is_chance_node():
                probs = dict(st.chance_outcomes())
                if a not in probs:
                    ok = False
                    break
                p *= probs[a]
            elif st.current_player() == opp:
                p *= pol(st)[a]
            st.apply_action(a)
        if ok and p > 0:
            key = st.information_state_string(opp)
            post[key] = post.get(key, 0.0) + p
    z = sum(post.values())
    return {k: v / z for k, v in post.items()}


@pytest.mark.parametrize("seed", range(6))
def test_leduc_posteriors_equal_an_independent_bayes(seed: int) -> None:
    game = load_game("leduc")
    pol = _hashed_policy(f"leduc{seed}")
    rng = np.random.default_rng(seed)
    # a random history from the root, stopped at a random non-terminal point
    st = game.new_initial_state()
    history: list[int] = []
    stop = int(rng.integers(3, 9))
    while not st.is_terminal() and len(history) < stop:
        if st.is_chance_node():
            outs = st.chance_outcomes()
            a = outs[int(rng.integers(len(outs)))][0]
        else:
            a = int(rng.choice(st.legal_actions()))
        nxt = st.child(a)
        if nxt.is_terminal():
            break
        st = nxt
        history.append(a)
    for viewer in (0, 1):
        got = SmallGameBeliefs(game, pol).belief(history, viewer)
        want = _substitution_posterior(game, pol, history, viewer)
        assert got.keys() == want.keys()
        for k in want:
            assert got[k] == pytest.approx(want[k], abs=1e-12)


def test_pushfold_shove_range_is_the_chart() -> None:
    from pokerlab.agents.rules import PushFoldAgent
    from pokerlab.holdem.engine import HoldemConfig, HoldemState

    cfg = HoldemConfig.from_bb(8)
    agent = PushFoldAgent(seed=0)
    st = HoldemState(config=cfg)
    st.deal_hole([0, 5])
    st.deal_hole([12, 17])
    sb = st.view(1)
    shove = Action(kind=ActionKind.RAISE, amount=sb.max_raise_to)
    st.apply(shove)
    tracker = HoldemBeliefs(agent)
    r = tracker.update(st.view(0))
    assert tracker.updates == 1
    assert np.all(r[0] == 1.0)  # the big blind has not acted
    from pokerlab.policy.range_query import with_hole as _with_hole

    for j in range(0, NUM_COMBOS, 37):
        a, b = int(COMBOS[j, 0]), int(COMBOS[j, 1])
        probs = dict(agent.action_probabilities(_with_hole(sb, (b, a))))
        assert r[1, j] == pytest.approx(probs.get(shove, 0.0), abs=1e-12)
    assert 0.1 < r[1].mean() < 0.9  # a real range: some hands shove, some fold


def test_off_tree_raise_reads_as_the_nearest() -> None:
    acts = [Action(kind=ActionKind.FOLD), Action(kind=ActionKind.CHECK_CALL),
            Action(kind=ActionKind.RAISE, amount=300), Action(kind=ActionKind.RAISE, amount=1000)]
    assert action_column(acts, Action(kind=ActionKind.RAISE, amount=350)) == 2
    assert action_column(acts, Action(kind=ActionKind.RAISE, amount=800)) == 3
    assert action_column(acts, Action(kind=ActionKind.CHECK_CALL)) == 1
    assert action_column(acts[1:], Action(kind=ActionKind.FOLD)) == -1
