from __future__ import annotations

import numpy as np
import pytest

from pokerlab.evaluation import expected_values, exploitability
from pokerlab.games import load_game
from pokerlab.games.public_tree import build_public_tree
from pokerlab.solvers import _reference as ref
from pokerlab.solvers import cfr_kernels as ck
from pokerlab.solvers.cfr import (
    PRESETS,
    CFRSolver,
    cfr_config,
    policy_to_strategy,
    public_exploitability,
)
from pokerlab.solvers.lp import solve_lp
from pokerlab.solvers.mccfr import MCCFRConfig, MCCFRSolver

KUHN_VALUE = -1.0 / 18.0
LEDUC_VALUE = -0.085606424078


@pytest.mark.parametrize("algo", sorted(PRESETS))
@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_cfr_kernel_matches_python_twin(game_name: str, algo: str) -> None:
    tr = build_public_tree(load_game(game_name))
    c = cfr_config(algo)
    H = tr.max_hands
    states = []
    for run in (ck.cfr_run_kernel, ref.cfr_run_py):
        regrets = np.zeros((tr.num_slots, H))
        avg = np.zeros((tr.num_slots, H))
        sigma = np.zeros((tr.num_slots, H))
        ck.regret_match_kernel(tr.kind, tr.player, tr.child_count, tr.slot_base, regrets,
                               sigma, -1)
        reach = np.zeros((tr.num_nodes, 2, H))
        cfv = np.zeros((tr.num_nodes, 2, H))
        run(tr.kind, tr.player, tr.child_start, tr.child_count, tr.children, tr.slot_base,
            tr.term_index, tr.utility, regrets, avg, sigma, reach, cfv, 0, 4, c.alternating,
            c.regret_matching_plus, c.discount, c.alpha, c.beta, c.gamma)
        states.append((regrets, avg, sigma))
    for a, b in zip(states[0], states[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_small_kernels_match_python_twins(game_name: str) -> None:
    tr = build_public_tree(load_game(game_name))
    rng = np.random.default_rng(0)
    w = rng.random((tr.num_slots, tr.max_hands))
    w[0] = 0.0
    out1 = np.zeros_like(w)
    out2 = np.zeros_like(w)
    ck.normalise_kernel(tr.kind, tr.child_count, tr.slot_base, w, out1)
    ref.normalise_py(tr.kind, tr.child_count, tr.slot_base, w, out2)
    np.testing.assert_allclose(out1, out2, atol=1e-15)
    r = rng.normal(size=w.shape)
    s1 = np.zeros_like(w)
    s2 = np.zeros_like(w)
    ck.regret_match_kernel(tr.kind, tr.player, tr.child_count, tr.slot_base, r, s1, -1)
    ref.regret_match_py(tr.kind, tr.player, tr.child_count, tr.slot_base, r, s2, -1)
    np.testing.assert_allclose(s1, s2, atol=1e-15)
    reach = np.zeros((tr.num_nodes, 2, tr.max_hands))
    cfv = np.zeros_like(reach)
    for p in (0, 1):
        a = (tr.kind, tr.player, tr.child_start, tr.child_count, tr.children, tr.slot_base,
             tr.term_index, tr.utility, out1, reach, cfv, p)
        assert ck.public_br_kernel(*a) == pytest.approx(ref.public_br_py(*a), abs=1e-12)


@pytest.mark.parametrize("game_name", ["kuhn", "eight_card", "leduc"])
def test_public_tree_exploitability_equals_full_tree(game_name: str) -> None:
    game = load_game(game_name)
    s = CFRSolver(game=game, config="cfr")
    s.run(7)
    pol = s.average_policy()
    assert len(pol) == build_public_tree(game).num_infosets
    assert s.exploitability() == pytest.approx(exploitability(game, pol), abs=1e-12)
    assert s.game_value() == pytest.approx(expected_values(game, pol)[0], abs=1e-12)
    # round trip policy -> public strategy
    strat = policy_to_strategy(s.tree, pol)
    assert public_exploitability(s.tree, strat) == pytest.approx(s.exploitability(), abs=1e-12)
    cur = s.current_policy()
    assert exploitability(game, cur) == pytest.approx(s.exploitability(average=False),
                                                      abs=1e-12)


def _openspiel_python_solver(algo: str, osg):  # type: ignore[no-untyped-def]
    from open_spiel.python.algorithms import cfr as os_cfr
    from open_spiel.python.algorithms import discounted_cfr as os_dcfr

    return {
        "cfr": lambda: os_cfr.CFRSolver(osg),
        "cfr-sim": lambda: os_cfr._CFRSolver(osg, alternating_updates=False,
                                             linear_averaging=False,
                                             regret_matching_plus=False),
        "cfr+": lambda: os_cfr.CFRPlusSolver(osg),
        "lcfr": lambda: os_dcfr.LCFRSolver(osg),
        "dcfr": lambda: os_dcfr.DCFRSolver(osg),
    }[algo]()


@pytest.mark.parametrize("algo", sorted(PRESETS))
def test_same_as_openspiel_python_solvers_kuhn(algo: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_ex

    from pokerlab.interop.openspiel import from_openspiel_policy

    osg = pyspiel.load_game("kuhn_poker")
    game = load_game("kuhn")
    ours = CFRSolver(game=game, config=algo)
    theirs = _openspiel_python_solver(algo, osg)
    for n in (1, 10, 40):
        ours.run(n - ours.iteration)
        while theirs._iteration < n:
            theirs.evaluate_and_update_policy()
        e_theirs = os_ex.exploitability(osg, theirs.average_policy())
        assert ours.exploitability() == pytest.approx(e_theirs, abs=1e-9)
        table = from_openspiel_policy(theirs.average_policy(), osg)
        assert ours.average_policy().allclose(
            type(table).from_dict({k: table.policy_for_key(k) for k in ours.average_policy()}),
            atol=1e-9)


@pytest.mark.parametrize("algo", ["cfr", "cfr+"])
@pytest.mark.parametrize(("game_name", "os_name"), [("kuhn", "kuhn_poker"),
                                                     ("leduc", "leduc_poker")])
def test_same_as_openspiel_cpp_solvers(algo: str, game_name: str, os_name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    osg = pyspiel.load_game(os_name)
    game = load_game(game_name)
    ours = CFRSolver(game=game, config=algo)
    theirs = pyspiel.CFRSolver(osg) if algo == "cfr" else pyspiel.CFRPlusSolver(osg)
    done = 0
    for n in (1, 5, 30):
        ours.run(n - ours.iteration)
        while done < n:
            theirs.evaluate_and_update_policy()
            done += 1
        e_theirs = pyspiel.exploitability(osg, theirs.average_policy())
        assert ours.exploitability() == pytest.approx(e_theirs, abs=1e-9)


@pytest.mark.parametrize("algo", ["cfr-sim", "lcfr", "dcfr"])
def test_same_as_openspiel_python_solvers_leduc(algo: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    osg = pyspiel.load_game("leduc_poker")
    ours = CFRSolver(game=load_game("leduc"), config=algo)
    theirs = _openspiel_python_solver(algo, osg)
    for _ in range(2):
        theirs.evaluate_and_update_policy()
    ours.run(2)
    from open_spiel.python.policy import python_policy_to_pyspiel_policy

    e_theirs = pyspiel.exploitability(osg, python_policy_to_pyspiel_policy(
        theirs.average_policy()))
    assert ours.exploitability() == pytest.approx(e_theirs, abs=1e-9)


@pytest.mark.parametrize(("algo", "iters"), [("cfr", 3), ("cfr+", 25), ("dcfr", 60),
                                              ("lcfr", 10)])
def test_openspiel_exploitability_of_exported_policies(algo: str, iters: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_ex
    from open_spiel.python.policy import python_policy_to_pyspiel_policy

    from pokerlab.interop.openspiel import to_openspiel_policy

    kuhn, leduc = load_game("kuhn"), load_game("leduc")
    s = CFRSolver(game=kuhn, config=algo)
    s.run(iters)
    pol = s.average_policy()
    assert os_ex.exploitability(pyspiel.load_game("kuhn_poker"),
                                to_openspiel_policy(pol, kuhn)) == pytest.approx(
        exploitability(kuhn, pol), abs=1e-9)
    s = CFRSolver(game=leduc, config=algo)
    s.run(iters)
    pol = s.average_policy()
    osp = python_policy_to_pyspiel_policy(to_openspiel_policy(pol, leduc))
    assert pyspiel.exploitability(pyspiel.load_game("leduc_poker"), osp) == pytest.approx(
        exploitability(leduc, pol), abs=1e-9)


def test_openspiel_python_exploitability_leduc_cfr_plus() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_ex

    from pokerlab.interop.openspiel import to_openspiel_policy

    leduc = load_game("leduc")
    s = CFRSolver(game=leduc, config="cfr+")
    s.run(100)
    pol = s.average_policy()
    assert os_ex.exploitability(pyspiel.load_game("leduc_poker"),
                                to_openspiel_policy(pol, leduc)) == pytest.approx(
        exploitability(leduc, pol), abs=1e-9)


def test_kuhn_cfr_plus_value_within_1e3_in_300_iterations() -> None:
    s = CFRSolver(game=load_game("kuhn"), config="cfr+")
    s.run(300)
    assert abs(s.game_value() - KUHN_VALUE) < 1e-3
    assert s.exploitability() < 1e-3


def test_leduc_cfr_plus_1000_iterations() -> None:
    s = CFRSolver(game=load_game("leduc"), config="cfr+")
    s.run(1000)
    assert s.exploitability() < 1e-3
    assert abs(s.game_value() - LEDUC_VALUE) < 1e-3


def test_lp_values() -> None:
    kuhn = solve_lp(load_game("kuhn"))
    assert kuhn.game_value == pytest.approx(KUHN_VALUE, abs=1e-9)
    assert kuhn.value_player1_lp == pytest.approx(-KUHN_VALUE, abs=1e-9)
    assert exploitability(load_game("kuhn"), kuhn.policy) < 1e-9
    leduc = solve_lp(load_game("leduc"))
    assert leduc.game_value == pytest.approx(LEDUC_VALUE, abs=1e-6)
    assert exploitability(load_game("leduc"), leduc.policy) < 1e-8
    assert expected_values(load_game("leduc"), leduc.policy)[0] == pytest.approx(
        LEDUC_VALUE, abs=1e-6)


def test_eight_card_lp_equals_cfr() -> None:
    game = load_game("eight_card")
    lp = solve_lp(game)
    s = CFRSolver(game=game, config="cfr+")
    s.run(5000)
    assert s.game_value() == pytest.approx(lp.game_value, abs=1e-6)
    assert lp.game_value == pytest.approx(-1.0 / 16.0, abs=1e-9)  # recorded in docs/games.md
    assert exploitability(game, lp.policy) < 1e-9


@pytest.mark.parametrize(("sampling", "checkpoints"),
                         [("external", (10, 100, 1000)), ("outcome", (10, 300, 3000))])
def test_mccfr_exploitability_falls(sampling: str, checkpoints: tuple[int, ...]) -> None:
    game = load_game("kuhn")
    s = MCCFRSolver(game=game, config=MCCFRConfig(sampling=sampling, seed=0))
    values = []
    for n in checkpoints:
        s.run(n - s.iteration)
        values.append(exploitability(game, s.average_policy()))
    assert values[0] > values[1] > values[2]
    assert values[-1] < 0.1
    again = MCCFRSolver(game=game, config=MCCFRConfig(sampling=sampling, seed=0))
    again.run(checkpoints[0])
    first = MCCFRSolver(game=game, config=MCCFRConfig(sampling=sampling, seed=0))
    first.run(checkpoints[0])
    assert again.average_policy().allclose(first.average_policy(), atol=0.0)


def test_mccfr_leduc_learns() -> None:
    game = load_game("leduc")
    s = MCCFRSolver(game=game, config=MCCFRConfig(sampling="external", seed=0))
    s.run(1000)
    assert exploitability(game, s.average_policy()) < 1.5  # uniform: 2.37


def test_bad_configs() -> None:
    from pokerlab.errors import ConfigError

    with pytest.raises(ConfigError, match="'cfrx'"):
        cfr_config("cfrx")
    with pytest.raises(ConfigError, match="'sideways'"):
        MCCFRSolver(game=load_game("kuhn"), config=MCCFRConfig(sampling="sideways"))
    with pytest.raises(ConfigError, match="-1"):
        CFRSolver(game=load_game("kuhn")).run(-1)


def test_compile_limit_and_mccfr_without_exact_evaluation(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    import pokerlab.games.compiled as compiled
    from pokerlab.errors import ConfigError
    from pokerlab.solvers.driver import solve

    with pytest.raises(compiled.GameTooLargeError, match="more than 100"):
        compiled.compile_game(load_game("leduc"), max_nodes=100)
    # the walk itself also stops at the limit (the estimate is only a first filter)
    with pytest.raises(compiled.GameTooLargeError, match="more than 5000 nodes"):
        compiled.compile_game(load_game("leduc"), max_nodes=5000)

    def too_large(game, **_):  # type: ignore[no-untyped-def]
        raise compiled.GameTooLargeError(f"game {game.name!r} too large")

    monkeypatch.setattr(compiled, "compile_game", too_large)
    res = solve(load_game("kuhn"), algo="os-mccfr", iterations=50, seed=1)
    assert res.iterations == 50 and res.exploitability is None and res.game_value is None
    assert len(res.policy) > 0
    with pytest.raises(ConfigError, match="too large"):
        solve(load_game("kuhn"), algo="es-mccfr", target_exploitability=0.1)
