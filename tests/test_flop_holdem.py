"""Flop Hold'em Poker rules and its range-vectorised exact best response."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from pokerlab.cards.cards import COMBOS, canonical_form
from pokerlab.errors import ConfigError
from pokerlab.evaluation import exploitability
from pokerlab.evaluation.fhp_br import (
    best_response_values,
    build_public_tree,
    flop_classes,
    showdown_reference,
    showdown_values,
)
from pokerlab.games import load_game
from pokerlab.games.flop_holdem import (
    CALL,
    FOLD,
    RAISE,
    FlopHoldem,
    canonical_batch,
    canonical_cards,
    flop_action,
)
from pokerlab.policy.base import Policy, UniformRandomPolicy


def _deal(state, hole0, hole1, flop=None):  # type: ignore[no-untyped-def]
    from pokerlab.cards.cards import COMBO_INDEX

    state.apply_action(int(COMBO_INDEX[hole0]))
    state.apply_action(int(COMBO_INDEX[hole1]))


def test_registered_and_chance_counts() -> None:
    g = load_game("flop_holdem")
    s = g.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 1326
    s.apply_action(s.chance_outcomes()[0][0])
    assert len(s.chance_outcomes()) == 1225
    s.apply_action(s.chance_outcomes()[0][0])
    assert s.current_player() == 1  # small blind acts first preflop
    assert s.legal_actions() == [FOLD, CALL, RAISE]
    s.apply_action(CALL)  # limp
    assert s.current_player() == 0 and s.legal_actions() == [CALL, RAISE]  # BB option
    s.apply_action(CALL)
    assert s.is_chance_node()
    outs = s.chance_outcomes()
    assert len(outs) == 17296 and abs(sum(p for _, p in outs) - 1) < 1e-9
    s.apply_action(flop_action((20, 30, 40)))
    assert s.current_player() == 0  # big blind first on the flop


def test_betting_cap_and_payoffs() -> None:
    g = FlopHoldem()
    s = g.new_initial_state()
    _deal(s, (48, 49), (0, 5))  # AcAd vs 2c3d
    for _ in range(3):  # SB raise, BB re-raise, SB cap (4 bets with the blind)
        s.apply_action(RAISE)
    assert s.legal_actions() == [FOLD, CALL]
    s.apply_action(CALL)
    assert s.betting.contrib == [8, 8]
    s.apply_action(flop_action((12, 22, 35)))  # 5c 7h Ts
    for _ in range(4):
        s.apply_action(RAISE)
    assert s.legal_actions() == [FOLD, CALL]
    s.apply_action(CALL)
    assert s.is_terminal() and s.returns() == [16.0, -16.0]
    t = g.new_initial_state()
    _deal(t, (48, 49), (0, 5))
    t.apply_action(FOLD)  # SB folds its small blind
    assert t.returns() == [1.0, -1.0]


def test_bad_actions_raise() -> None:
    g = FlopHoldem()
    s = g.new_initial_state()
    with pytest.raises(ConfigError, match="hole-card deal"):
        s.apply_action(5000)
    _deal(s, (48, 49), (0, 5))
    s.apply_action(CALL)
    with pytest.raises(ConfigError, match="illegal flop_holdem action 0"):
        s.apply_action(FOLD)
    with pytest.raises(ConfigError, match="ranks"):
        FlopHoldem(ranks=[3])


def test_random_playouts_are_zero_sum() -> None:
    g = FlopHoldem()
    rng = np.random.default_rng(0)
    for _ in range(200):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance_outcome(rng))
            else:
                la = s.legal_actions()
                s.apply_action(la[rng.integers(len(la))])
        r = s.returns()
        assert r[0] == -r[1] and abs(r[0]) <= 16
        assert s.information_state_string(0) != s.information_state_string(1)


def test_canonical_cards_match_canonical_form() -> None:
    rng = np.random.default_rng(1)
    for _ in range(100):
        c = rng.choice(52, 5, replace=False)
        h, b = canonical_cards(c[:2], c[2:])
        assert (tuple(h), tuple(b)) == canonical_form(c[:2], c[2:])
    board = (7, 22, 41)
    rows = canonical_batch(COMBOS, board)
    for i in range(0, 1326, 13):
        ch, cb = canonical_form(COMBOS[i], board)
        assert tuple(rows[i]) == ch + cb


def test_public_tree_and_flop_classes() -> None:
    t = build_public_tree()
    assert len(t.round_nodes(0)) == 8 and len(t.flop_roots) == 7 and len(t.round_nodes(1)) == 70
    classes = flop_classes(list(range(52)), True)
    assert len(classes) == 1755 and sum(len(c.combo_perms) for c in classes) == 22100


def test_showdown_kernel_matches_quadratic_twin() -> None:
    from pokerlab.cards.evaluator import strengths_on_board

    rng = np.random.default_rng(2)
    for board in ((0, 13, 26), (48, 49, 50), (3, 7, 11)):
        strength = strengths_on_board(list(board)).astype(np.int64)
        # a random subset of the live hands keeps the quadratic twin fast
        valid = (strength > 0) & (rng.random(1326) < 0.15)
        reach = rng.random(1326) * valid
        fast = showdown_values(strength, valid, reach)
        slow = showdown_reference(strength, valid, reach)
        np.testing.assert_allclose(fast * valid, slow, atol=1e-9)


class _HashPolicy(Policy):
    """A fixed, asymmetric (not suit-symmetric) policy keyed on the information set."""

    def action_probabilities(self, state):  # type: ignore[no-untyped-def]
        h = zlib.crc32(state.information_state_string(state.current_player()).encode())
        legal = state.legal_actions()
        w = [((h >> (4 * i)) & 15) + 1 for i in range(len(legal))]
        return {a: x / sum(w) for a, x in zip(legal, w, strict=True)}


def test_vectorised_br_known_value_on_small_deck() -> None:
    # 3.0322751322751316 chips: uniform play on the 8-card deck, from the generic tree
    # best response (pokerlab.evaluation.exploitability; re-checked by the slow test below)
    got = best_response_values(FlopHoldem(ranks=(11, 12)), UniformRandomPolicy())
    assert got.exploitability == pytest.approx(3.0322751322751316, rel=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("policy", [UniformRandomPolicy(), _HashPolicy()])
def test_vectorised_br_equals_tree_exploitability_on_small_deck(policy: Policy) -> None:
    g = FlopHoldem(ranks=(11, 12))  # 8 cards: 28 x 15 x 4 deals, tree small enough
    expected = exploitability(g, policy)
    got = best_response_values(g, policy, isomorphism=False)
    assert got.exploitability == pytest.approx(expected, rel=1e-10, abs=1e-12)
    assert got.mbb == pytest.approx(500 * expected)


def test_isomorphic_br_equals_full_br_for_symmetric_policy() -> None:
    g = FlopHoldem(ranks=(11, 12))
    pol = UniformRandomPolicy()
    iso = best_response_values(g, pol, isomorphism=True)
    full = best_response_values(g, pol, isomorphism=False)
    assert iso.flops_evaluated == 6 and full.flops_evaluated == 56
    assert iso.values == pytest.approx(full.values, rel=1e-12)


def test_evaluation_by_capability_not_by_name() -> None:
    import inspect

    import pokerlab.evaluation.fhp_br as fhp_br
    from pokerlab.evaluation import exact_exploitability
    from pokerlab.games.protocol import PublicBettingGame

    g = FlopHoldem(ranks=(11, 12))
    assert isinstance(g, PublicBettingGame)
    assert not isinstance(load_game("kuhn"), PublicBettingGame)
    # the range best response is chosen for the capability (same value as fhp_br directly)
    assert exact_exploitability(g, UniformRandomPolicy()) == pytest.approx(
        3.0322751322751316, rel=1e-12)
    # games without it take the compiled-tree path
    assert exact_exploitability(load_game("kuhn"), UniformRandomPolicy()) == pytest.approx(
        0.4583333333333333, rel=1e-12)
    src = inspect.getsource(fhp_br)
    assert "games.flop_holdem" not in src and "FlopHoldem" not in src
    with pytest.raises(ConfigError, match="public-betting capability"):
        best_response_values(load_game("leduc"), UniformRandomPolicy())
