"""Local best response: kernel parity, exact LBR vs exact BR, sampled vs exact, HUNL sanity."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards.cards import COMBO_INDEX, COMBOS
from pokerlab.cards.evaluator import eval_tables
from pokerlab.evaluation import best_response_values
from pokerlab.evaluation.lbr import (
    LBRConfig,
    LBRError,
    checkdown_equities,
    lbr_choose,
    lbr_holdem,
    parse_action_set,
)
from pokerlab.evaluation.lbr_kernels import checkdown_equity, checkdown_equity_py
from pokerlab.evaluation.lbr_small import classify, exact_lbr, exact_lbr_seats, sampled_lbr
from pokerlab.games import load_game
from pokerlab.policy.base import Policy, UniformRandomPolicy
from pokerlab.solvers.cfr import CFRSolver


class AlwaysCall(Policy):
    """Check when possible, call a bet (never folds, never raises)."""

    def action_probabilities(self, state):  # type: ignore[no-untyped-def]
        return {classify(state)[1]: 1.0}


def _policies(game):  # type: ignore[no-untyped-def]
    out = [("uniform", UniformRandomPolicy()), ("call", AlwaysCall())]
    solver = CFRSolver(game=game, config="cfr+")
    for it in (1, 10, 100):
        solver.run(it - solver.iteration)
        out.append((f"cfr+{it}", solver.average_policy()))
    return out


# ----------------------------------------------------------------------------- kernel
@pytest.mark.parametrize("nboard", [4, 5])
def test_checkdown_kernel_matches_python_twin(nboard: int) -> None:
    hole = np.array([48, 37], dtype=np.int64)
    board = np.array([0, 5, 22, 30, 51], dtype=np.int64)
    combos = COMBOS.astype(np.int64)
    fast = np.zeros(1326)
    slow = np.zeros(1326)
    checkdown_equity(eval_tables(), hole, board, nboard, combos, fast)
    checkdown_equity_py((48, 37), [int(c) for c in board[:nboard]], combos, slow)
    np.testing.assert_allclose(fast, slow, atol=1e-12)
    assert fast[COMBO_INDEX[48, 0]] == 0.0  # clashes with the hole/board


def test_checkdown_flop_matches_direct_enumeration() -> None:
    import itertools

    from pokerlab.cards.evaluator import strength

    hole, board = (51, 46), [0, 13, 27]
    eq = checkdown_equities(hole, board)
    for opp in [(50, 49), (1, 2)]:
        deck = [c for c in range(52) if c not in (*hole, *board, *opp)]
        score = 0.0
        runs = list(itertools.combinations(deck, 2))
        for r in runs:
            a = strength([*hole, *board, *r])
            b = strength([*opp, *board, *r])
            score += 1.0 if a > b else (0.5 if a == b else 0.0)
        assert eq[COMBO_INDEX[opp[0], opp[1]]] == pytest.approx(score / len(runs), abs=1e-12)
    assert eq[COMBO_INDEX[51, 3]] == 0.0


def test_preflop_equity_row() -> None:
    eq = checkdown_equities((51, 50), ())  # AA
    assert 0.8 < float(eq[COMBO_INDEX[0, 5]]) < 0.9
    assert eq[COMBO_INDEX[51, 3]] == 0.0


# ----------------------------------------------------------------------------- decision rule
def test_choose_ties_prefer_earlier() -> None:
    w = np.array([0.5, 0.5])
    assert lbr_choose(w, [np.array([1.0, -1.0]), 0.0, np.array([2.0, -2.0])]) == 0
    assert lbr_choose(w, [np.array([1.0, -2.0]), 0.0]) == 1
    assert lbr_choose(w, [0.0, -1.0, np.array([3.0, 0.0])]) == 2


def test_action_sets() -> None:
    assert not parse_action_set("fc").raises
    assert [s.kind for s in parse_action_set("fcpa").sizes[1]] == ["pot", "allin"]
    s56 = parse_action_set("56").sizes[3]
    assert len(s56) == 54  # + fold and call = 56 actions
    assert s56[1].value == pytest.approx(0.05)
    custom = parse_action_set("2.5x; 50%, 100%, a")
    assert len(custom.sizes[0]) == 1 and len(custom.sizes[2]) == 3
    with pytest.raises(LBRError, match="zz"):
        parse_action_set("zz")
    with pytest.raises(LBRError, match="from-round"):
        LBRConfig(from_round=5)
    with pytest.raises(LBRError, match="hands"):
        LBRConfig(hands=0)


# ----------------------------------------------------------------------------- exact LBR
@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_exact_lbr_never_exceeds_best_response(game_name: str) -> None:
    game = load_game(game_name)
    for name, pol in _policies(game):
        br = best_response_values(game, pol)
        for actions in ("fc", "fcpa"):
            for rnd in (1, 2):
                lbr = exact_lbr_seats(game, pol, actions=actions, from_round=rnd)
                assert lbr[0] <= br[0] + 1e-9, (name, actions, rnd)
                assert lbr[1] <= br[1] + 1e-9, (name, actions, rnd)
        if name == "call":
            # against a calling station the check-down assumption is exact: LBR is a BR
            lbr = exact_lbr_seats(game, pol, actions="fcpa")
            np.testing.assert_allclose(lbr, br, atol=1e-9)


def test_exact_lbr_numbers() -> None:
    kuhn = load_game("kuhn")
    r = exact_lbr(kuhn, UniformRandomPolicy(), name="uniform")
    # LBR is a best response in Kuhn against uniform play: (1/2 + 5/12) / 2 chips
    assert r.mbb == pytest.approx(1000 * (0.5 + 5 / 12) / 2)
    assert r.ci95_mbb == 0.0 and r.exact and r.unit == "mchips/hand"
    leduc = load_game("leduc")
    assert exact_lbr(leduc, AlwaysCall()).mbb == pytest.approx(1000 * 1.4666666666666666)
    # LBR is strictly weaker than a best response against uniform Leduc play
    v = exact_lbr_seats(leduc, UniformRandomPolicy())
    assert v[0] == pytest.approx(1.7296296296296296)
    assert v[0] < best_response_values(leduc, UniformRandomPolicy())[0] - 0.3


# ----------------------------------------------------------------------------- sampled
@pytest.mark.parametrize("actions", ["fc", "fcpa"])
def test_sampled_lbr_within_ci_of_exact_on_leduc(actions: str) -> None:
    game = load_game("leduc")
    solver = CFRSolver(game=game, config="cfr+")
    solver.run(10)
    for pol in (UniformRandomPolicy(), solver.average_policy()):
        exact = exact_lbr(game, pol, actions=actions).mbb
        r = sampled_lbr(game, pol, actions=actions, hands=400, seed=3)
        assert r.hands == 800 and r.ci95_mbb > 0
        assert abs(r.mbb - exact) <= r.ci95_mbb, (actions, r.mbb, exact, r.ci95_mbb)


# ----------------------------------------------------------------------------- HUNL
def test_hunl_lbr_against_calling_station_is_large() -> None:
    from pokerlab.registry import make_agent

    r = lbr_holdem(make_agent("call"), lbr=LBRConfig(actions="fcpa", hands=12, seed=0))
    assert r.hands == 24 and r.unit == "mbb/hand"
    assert r.mbb > 2000.0
    # fold/call only cannot exploit it: with duplicate deals every check-down cancels
    r0 = lbr_holdem(make_agent("call"), lbr=LBRConfig(actions="fc", hands=6, seed=0))
    assert r0.mbb == 0.0


def test_hunl_lbr_random_above_tag() -> None:
    from pokerlab.registry import make_agent

    cfg = LBRConfig(actions="fc", hands=3, seed=1)
    rnd = lbr_holdem(make_agent("random"), lbr=cfg)
    tag = lbr_holdem(make_agent("tag"), lbr=cfg)
    assert rnd.mbb > tag.mbb
    assert rnd.mbb > 1000.0


def test_all_hands_probabilities_match_single_queries() -> None:
    from pokerlab.holdem.engine import HoldemConfig, HoldemState
    from pokerlab.policy.range_query import all_hands_probabilities
    from pokerlab.registry import make_agent

    st = HoldemState(config=HoldemConfig.from_bb(100))
    st.deal_hole([0, 1])
    st.deal_hole([2, 3])
    st.raise_to(250)  # button opens; the big blind decides
    tag = make_agent("tag")
    live = np.ones(1326, dtype=bool)
    acts, probs = all_hands_probabilities(tag, st.view(0), live)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0)
    for hole in [(51, 50), (4, 9), (30, 47)]:
        view = st.view(0)
        from pokerlab.policy.range_query import with_hole as _with_hole

        single = dict(tag.action_probabilities(_with_hole(view, hole)))
        row = probs[COMBO_INDEX[hole[0], hole[1]]]
        for k, a in enumerate(acts):
            assert row[k] == pytest.approx(single.get(a, 0.0))


def test_indexed_policy_agent_all_hands_fast_path(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pokerlab.abstraction.action_tree import compile_tree
    from pokerlab.holdem.engine import HoldemConfig, HoldemState
    from pokerlab.policy.indexed import IndexedPolicy, save_indexed_policy
    from pokerlab.policy.range_query import indexed_policy_all_hands as _indexed_policy_all_hands
    from pokerlab.policy.range_query import with_hole as _with_hole
    from pokerlab.registry import make_agent

    g = load_game("hunl(stack=20,bets=small,buckets=test)")
    tree = compile_tree(g.action_map.bets, g.config)
    buckets = g.bucket_config.buckets
    probs = np.random.default_rng(4).random(tree.layout(buckets).num_values)
    pol = IndexedPolicy.from_tree(tree, buckets, probs.astype(np.float32),
                                  metadata={"game": g.game_string()})
    save_indexed_policy(pol, tmp_path / "p.npz")
    cfg = HoldemConfig.from_bb(20)
    agent = make_agent(f"policy:{tmp_path / 'p.npz'}", config=cfg)
    st = HoldemState(config=cfg)
    st.deal_hole([0, 1])
    st.deal_hole([2, 3])
    st.raise_to(300)
    st.check_or_call()
    st.deal_board([10, 20, 30])
    live = np.ones(1326, dtype=bool)
    for j in range(1326):
        a, b = COMBOS[j]
        if a in (10, 20, 30) or b in (10, 20, 30):
            live[j] = False
    view = st.view(0)
    res = _indexed_policy_all_hands(agent, view, live)
    assert res is not None
    acts, mat = res
    np.testing.assert_allclose(mat[live].sum(axis=1), 1.0)
    assert not mat[~live].any()
    for j in np.nonzero(live)[0][::97]:
        a, b = int(COMBOS[j, 0]), int(COMBOS[j, 1])
        ref = dict(agent.action_probabilities(_with_hole(view, (b, a))))
        for k, act in enumerate(acts):
            assert mat[j, k] == pytest.approx(ref.get(act, 0.0), abs=1e-6)
    r = lbr_holdem(agent, config=cfg, lbr=LBRConfig(actions="fcpa", hands=2, seed=0))
    assert r.hands == 4 and np.isfinite(r.mbb)


def test_run_lbr_split_over_processes_gives_the_same_result() -> None:
    from pokerlab.arena.lbr import run_lbr

    one = run_lbr("random", game="kuhn", actions="fcpa", hands=40, seed=2, workers=1)
    two = run_lbr("random", game="kuhn", actions="fcpa", hands=40, seed=2, workers=2)
    assert one.mbb == two.mbb and one.ci95_mbb == two.ci95_mbb and one.hands == 80
    ex = run_lbr("call", game="leduc", actions="fcpa", exact=True)
    assert ex.exact and ex.mbb == pytest.approx(1000 * 1.4666666666666666)
