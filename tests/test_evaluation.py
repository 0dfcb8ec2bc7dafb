from __future__ import annotations

import numpy as np
import pytest

from pokerlab.evaluation import _reference as ref
from pokerlab.evaluation import (
    best_response,
    best_response_values,
    expected_values,
    exploitability,
    mbb_per_hand,
    nash_conv,
    policy_slot_probs,
    tabulate_policy,
)
from pokerlab.games import load_game
from pokerlab.games import pass_kernels as tk
from pokerlab.games.compiled import compile_game
from pokerlab.policy import FirstActionPolicy, PolicyLookupError, TabularPolicy, UniformRandomPolicy


def random_policy(game_name: str, seed: int) -> TabularPolicy:
    cg = compile_game(load_game(game_name))
    rng = np.random.default_rng(seed)
    rows = []
    for i, key in enumerate(cg.infoset_keys):
        lo, hi = cg.infoset_offset[i], cg.infoset_offset[i + 1]
        rows.append((key, cg.infoset_actions[lo:hi], rng.dirichlet(np.ones(hi - lo))))
    return TabularPolicy.from_rows(rows)


def test_known_nash_conv_values() -> None:
    kuhn, leduc = load_game("kuhn"), load_game("leduc")
    assert nash_conv(kuhn, UniformRandomPolicy()) == pytest.approx(11 / 12, abs=1e-12)
    assert nash_conv(kuhn, FirstActionPolicy()) == pytest.approx(2.0, abs=1e-12)
    assert exploitability(kuhn, UniformRandomPolicy()) == pytest.approx(11 / 24, abs=1e-12)
    assert nash_conv(leduc, UniformRandomPolicy()) == pytest.approx(4.747222222222222, abs=1e-9)


def test_expected_values_zero_sum_and_uniform_kuhn() -> None:
    ev = expected_values(load_game("kuhn"), UniformRandomPolicy())
    assert ev.sum() == pytest.approx(0.0, abs=1e-15)
    # uniform Kuhn: player 0's value is 1/8 (enumerated by hand below)
    assert ev[0] == pytest.approx(0.125, abs=1e-12)


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_kernels_match_python_twins(game_name: str) -> None:
    cg = compile_game(load_game(game_name))
    sp = policy_slot_probs(cg, random_policy(game_name, 3))
    a = (cg.kind, cg.player, cg.child_start, cg.child_count, cg.children, cg.edge_prob,
         cg.edge_slot, sp, cg.num_players)
    reach = tk.reach_kernel(*a)
    np.testing.assert_allclose(reach, ref.reach_py(*a), rtol=0, atol=1e-15)
    b = (cg.kind, cg.child_start, cg.child_count, cg.children, cg.edge_prob, cg.edge_slot,
         sp, cg.utility)
    np.testing.assert_allclose(tk.values_kernel(*b), ref.values_py(*b), rtol=0, atol=1e-12)
    for p in (0, 1):
        c = (cg.kind, cg.player, cg.infoset, cg.child_start, cg.child_count, cg.children,
             cg.edge_prob, cg.edge_slot, sp, cg.utility, reach, cg.infoset_player,
             cg.infoset_offset, cg.infoset_depth, p)
        v1, ch1 = tk.best_response_kernel(*c)
        v2, ch2 = ref.best_response_py(*c)
        assert v1 == pytest.approx(v2, abs=1e-12)
        assert np.array_equal(ch1 >= 0, ch2 >= 0)


@pytest.mark.parametrize("game_name", ["kuhn", "leduc", "eight_card"])
def test_best_response_policy_achieves_its_value(game_name: str) -> None:
    game = load_game(game_name)
    pol = random_policy(game_name, 7)
    table = pol.to_dict()
    for p in (0, 1):
        br = best_response(game, pol, p)
        mixed = dict(table)
        mixed.update(br.policy.to_dict())
        ev = expected_values(game, TabularPolicy.from_dict(mixed))
        assert ev[p] == pytest.approx(br.value, abs=1e-12)
        assert br.value >= expected_values(game, pol)[p] - 1e-12
    brv = best_response_values(game, pol)
    assert nash_conv(game, pol) == pytest.approx(brv.sum(), abs=1e-12)  # zero-sum


@pytest.mark.parametrize(("game_name", "os_name"), [("kuhn", "kuhn_poker"),
                                                     ("leduc", "leduc_poker")])
def test_exploitability_matches_openspiel(game_name: str, os_name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_ex

    from pokerlab.interop.openspiel import to_openspiel_policy

    game = load_game(game_name)
    osg = pyspiel.load_game(os_name)
    for seed in range(3):
        pol = random_policy(game_name, seed)
        ours = exploitability(game, pol)
        theirs = os_ex.exploitability(osg, to_openspiel_policy(pol, game))
        assert ours == pytest.approx(theirs, abs=1e-9)
        assert nash_conv(game, pol) == pytest.approx(os_ex.nash_conv(
            osg, to_openspiel_policy(pol, game)), abs=1e-9)


def test_tabulate_and_bad_policies() -> None:
    game = load_game("kuhn")
    tab = tabulate_policy(game, UniformRandomPolicy())
    assert len(tab) == 12 and tab.policy_for_key("0") == {0: 0.5, 1: 0.5}
    bad = TabularPolicy.from_dict({k: {0: 0.9, 1: 0.3} for k in tab})
    with pytest.raises(PolicyLookupError, match="not a distribution"):
        exploitability(game, bad)
    illegal = TabularPolicy.from_dict({k: {0: 0.5, 1: 0.25, 2: 0.25} for k in tab})
    with pytest.raises(PolicyLookupError, match="illegal actions"):
        exploitability(game, illegal)
    with pytest.raises(PolicyLookupError, match="no policy entry"):
        exploitability(game, TabularPolicy.from_dict({"0": {0: 1.0, 1: 0.0}}))
    with pytest.raises(PolicyLookupError, match="player 5"):
        best_response(game, tab, 5)


def test_mbb() -> None:
    assert mbb_per_hand(0.001) == pytest.approx(1.0)
    assert mbb_per_hand(2.0, big_blind=2.0) == pytest.approx(1000.0)


@pytest.mark.parametrize("player", [0, 1])
def test_best_response_equals_brute_force_over_pure_strategies(player: int) -> None:
    """Kuhn: each player has 6 two-action information sets, so 64 pure strategies."""
    import itertools

    game = load_game("kuhn")
    cg = compile_game(game)
    base = random_policy("kuhn", 11).to_dict()
    mine = [k for i, k in enumerate(cg.infoset_keys) if cg.infoset_player[i] == player]
    assert len(mine) == 6
    best = -np.inf
    for bits in itertools.product((0, 1), repeat=6):
        table = dict(base)
        for key, b in zip(mine, bits, strict=True):
            table[key] = {0: 1.0 - b, 1: float(b)}
        best = max(best, expected_values(game, TabularPolicy.from_dict(table))[player])
    assert best_response(game, TabularPolicy.from_dict(base), player).value == pytest.approx(
        best, abs=1e-12)


def test_kuhn_lp_policy_is_in_the_known_equilibrium_family() -> None:
    """Kuhn 1950: player 0 bets J with a in [0, 1/3], K with 3a, calls a bet with Q with
    a + 1/3; player 1 bets J after a pass with 1/3, calls with Q 1/3, always with K."""
    from pokerlab.solvers.lp import solve_lp

    pol = solve_lp(load_game("kuhn")).policy
    a = pol.policy_for_key("0")[1]
    assert -1e-9 <= a <= 1 / 3 + 1e-9
    assert pol.policy_for_key("2")[1] == pytest.approx(3 * a, abs=1e-9)
    assert pol.policy_for_key("1pb")[1] == pytest.approx(a + 1 / 3, abs=1e-9)
    assert pol.policy_for_key("0p")[1] == pytest.approx(1 / 3, abs=1e-9)
    assert pol.policy_for_key("1b")[1] == pytest.approx(1 / 3, abs=1e-9)
    assert pol.policy_for_key("2b")[1] == pytest.approx(1.0, abs=1e-9)
