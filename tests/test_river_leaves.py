"""River leaves (``search(depth=1,leaves=river)``): the class kernel against its plain twin,
its convergence, the strength classes against the evaluator, and a depth-limited turn solve
with river leaves against the whole tree solved to the end of the hand."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents.leaves import compatible_mass
from pokerlab.agents.river_leaf_kernels import solve_classes, step_rivers
from pokerlab.agents.river_leaf_reference import best_response_py, solve_classes_py, step_rivers_py
from pokerlab.agents.river_leaves import (
    RiverLeaves,
    RiverStepLeaves,
    build_river_leaves,
    build_step_leaves,
    river_cards,
    river_cfv,
    river_tree,
    river_values,
)
from pokerlab.cards.cards import COMBO_INDEX, COMBOS, parse_cards
from pokerlab.cards.evaluator import strength
from pokerlab.errors import AgentError
from pokerlab.subgame.resolve import counterfactual_values
from pokerlab.subgame.solve_config import SolveConfig
from pokerlab.subgame.solver import SpotSolver
from pokerlab.subgame.spot import make_spot, tree_config

TREE = tree_config(bets="50%,100%", raises="2.5x", river_bets="33%,75%,150%")
NARROW = ("22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "55+,A8s+,KTs+,QJs,AJo+,KQo")


def spot_of(board: str = "AhKd7c4s", oop: str = "random", ip: str = "random", pot: int = 100,
            stack: int = 400, tree: object = TREE) -> object:
    return make_spot(board=board, pot=pot, stack=stack, oop=oop, ip=ip, tree=tree)


def whole_and_limited(tree: object, iterations: int, target_pct: float) -> tuple[object, object, object]:
    """A turn spot (narrow ranges) solved whole, and a depth-limited solver of it: (spot,
    whole, depth-limited)."""
    spot = spot_of("Qs9h4d2c", oop=NARROW[0], ip=NARROW[1], tree=tree)
    whole = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    whole.solve(iterations=iterations, target_pct=target_pct)
    return spot, whole, SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)


def kernel(tr: object, pot: float, r0: np.ndarray, r1: np.ndarray,
           iters: int) -> tuple[np.ndarray, np.ndarray]:
    o0 = np.zeros(r0.shape[0])
    o1 = np.zeros(r0.shape[0])
    solve_classes(tr.kind, tr.player, tr.c0, tr.c1, tr.child_start, tr.num_children, tr.children,  # type: ignore[attr-defined]
                  float(pot), r0, r1, iters, o0, o1)
    return o0, o1


@pytest.mark.parametrize("iters", [1, 7, 30])
def test_kernel_equals_twin(iters: int) -> None:
    tr = river_tree(spot_of(), 200, 300)
    rng = np.random.default_rng(iters)
    r0, r1 = rng.random(40), rng.random(40)
    r0[[3, 17]] = 0.0
    o0, o1 = kernel(tr, 200, r0, r1, iters)
    p0, p1, _ = solve_classes_py(tr, 200.0, r0, r1, iters)
    np.testing.assert_allclose(o0, p0, rtol=1e-10, atol=1e-8)
    np.testing.assert_allclose(o1, p1, rtol=1e-10, atol=1e-8)


def test_class_game_converges_and_is_constant_sum() -> None:
    tr = river_tree(spot_of(), 200, 300)
    rng = np.random.default_rng(5)
    r0, r1 = rng.random(60), rng.random(60) * (rng.random(60) < 0.7)
    expl = []
    for iters in (10, 40, 150):
        o0, o1, avg = solve_classes_py(tr, 200.0, r0, r1, iters)
        # each deal's payoffs add to the pot: the two values add to pot x both masses
        assert float(r0 @ o0 + r1 @ o1) == pytest.approx(200.0 * r0.sum() * r1.sum(), rel=1e-12)
        b0 = best_response_py(tr, 200.0, r0, r1, avg, 0)
        b1 = best_response_py(tr, 200.0, r0, r1, avg, 1)
        gain = float(r0 @ (b0 - o0) + r1 @ (b1 - o1)) / (r0.sum() * r1.sum())
        expl.append(100.0 * gain / 200.0)  # % of the pot
    assert expl[0] > expl[1] > expl[2] >= -1e-9
    assert expl[1] < 2.0  # RIVER_ITERATIONS (40): within 2% of the pot
    assert expl[2] < 0.5


def test_river_classes_order_combos_by_strength() -> None:
    board = parse_cards("Qs9h4d2c")
    rc = river_cards(board)
    assert rc.rivers.shape == (48,) and set(rc.rivers.tolist()).isdisjoint(board)
    rng = np.random.default_rng(2)
    for r in (0, 17, 47):
        card = int(rc.rivers[r])
        five = [*board, card]
        live = [c for c in range(1326) if not set(COMBOS[c].tolist()) & set(five)]
        assert np.all(rc.cls[r, live] >= 0) and rc.count[r] == len(set(rc.cls[r, live].tolist()))
        dead = np.setdiff1d(np.arange(1326), live)
        assert np.all(rc.cls[r, dead] == -1)
        for _ in range(300):
            a, b = rng.choice(live, 2, replace=False)
            sa = strength([*five, *COMBOS[a].tolist()])
            sb = strength([*five, *COMBOS[b].tolist()])
            assert np.sign(sa - sb) == np.sign(int(rc.cls[r, a]) - int(rc.cls[r, b]))


@pytest.mark.parametrize(("board", "ranges"), [("Qs9h4d2c", NARROW), ("AhKd7c4s", ("random", "random"))])
def test_class_values_per_hand_against_the_exact_river(board: str, ranges: tuple[str, str]) -> None:
    """Each hand's value from the river solved over strength classes (:func:`river_cfv`)
    against the same river solved hand by hand (the spot solver, card removal between the two
    hands exact), with the same ranges: per unit of the opponent weight a hand can meet, the
    mean absolute difference (weighted by the hands' probabilities) is what the classes'
    missing blockers cost a hand: 1.3-3.3% of the pot measured on these rivers, the mean
    difference at most 1.2%."""
    pot, stack = 100, 400
    turn = make_spot(board=board, pot=pot, stack=stack, oop=ranges[0], ip=ranges[1], tree=TREE)
    reach = (np.asarray(turn.ranges[0], dtype=np.float64), np.asarray(turn.ranges[1], dtype=np.float64))
    cards = river_cards(turn.board)
    rt = river_tree(turn, pot, stack)
    for r in (0, 17, 40):
        cls_v = river_cfv(rt, cards, r, reach, iterations=400)
        rs = make_spot(board=[*turn.board, int(cards.rivers[r])], pot=pot, stack=stack, oop=ranges[0],
                       ip=ranges[1], tree=TREE)
        exact = SpotSolver(rs, SolveConfig(isomorphism=False), threads=1)
        assert exact.solve(iterations=600, target_pct=0.1, check_every=50) <= 0.1
        for p in (0, 1):
            ex = counterfactual_values(exact, [], p, best_response=False)
            mass = compatible_mass(np.where(cards.has_card[r], 0.0, reach[1 - p]))
            w = reach[p] * ~cards.has_card[r] * mass
            live = w > 0
            diff = (ex[live] - cls_v[p][live]) / mass[live] / pot * 100
            assert np.average(np.abs(diff), weights=w[live]) < 4.0
            assert abs(np.average(diff, weights=w[live])) < 1.5


def test_a_turn_that_checks_through_equals_its_river_solves() -> None:
    """A turn spot whose turn has no bets (check, check, then the river) solved whole is the
    average over the rivers of river solves: river leaves over every river give the same
    root values, up to the blockers the classes leave out (0.76% of the pot measured here, 0.34%
    with random ranges, converged: 300 and 1,000 river iterations agree)."""
    tree = tree_config(bets="", raises="", river_bets="75%", river_raises="2.5x")
    spot, whole, dl = whole_and_limited(tree, 2000, 0.05)
    leaves = build_river_leaves(dl, spot, runouts=48, iterations=300)
    assert len(leaves.trees) == 1 and leaves.trees[0].pot == 100 and leaves.trees[0].stack == 400
    dl.set_leaf_model(leaves)
    leaves.refresh()
    dl.step()
    for p in (0, 1):
        assert dl.values()[p] == pytest.approx(whole.values()[p], abs=1.0)


def test_depth_limited_turn_with_river_leaves_near_the_whole_tree() -> None:
    """The turn solved to its end with river leaves (every river at each refresh, refreshed
    every iteration) against the whole tree to the end of the hand: root values within 1.5%
    of the pot (the river's blockers and the river solves' 40 iterations)."""
    tree = tree_config(bets="75%", raises="", river_bets="75%", river_raises="")
    spot, whole, dl = whole_and_limited(tree, 1000, 0.1)
    leaves = build_river_leaves(dl, spot, runouts=48)
    dl.set_leaf_model(leaves)
    for _ in range(150):
        leaves.refresh()
        dl.step()
    for p in (0, 1):
        assert dl.values()[p] == pytest.approx(whole.values()[p], abs=1.5)
    # the leaves' values at the solve's end add up to each leaf's pot, deal for deal
    assert leaves.evaluations == 150 * len(leaves.trees)


@pytest.mark.parametrize(("t", "iters", "average", "active", "best"),
                         [(0, 1, False, False, False), (0, 3, True, False, False), (5, 2, False, True, False),
                          (9, 0, True, True, False), (4, 0, False, True, False), (6, 0, True, True, True),
                          (2, 1, True, False, True)])
def test_step_kernel_equals_twin(t: int, iters: int, average: bool, active: bool, best: bool) -> None:
    """The rivers iterated in step (:func:`step_rivers`, four of six rivers of a turn, kept
    regrets continued from iteration ``t``; ``active``: only the combos of two ranges asked
    for) against the plain twin: the same values and the same regrets and strategy sums
    after (the rivers not selected untouched); ``best``: each player's best response to the
    other's average strategies."""
    spot = spot_of("Qs9h4d2c")
    tr = river_tree(spot, 200, 300)
    rc = river_cards(spot.board)
    rivers6 = slice(10, 16)
    cls, count, rivers = rc.cls[rivers6], rc.count[rivers6], rc.rivers[rivers6]
    sel = np.array([0, 2, 3, 5], dtype=np.int64)
    rng = np.random.default_rng(t + iters)
    r0, r1 = rng.random(1326), rng.random(1326)
    act = np.arange(1326)
    if active:
        keep = rng.random(1326) < 0.4
        r0, r1 = r0 * keep * (rng.random(1326) < 0.7), r1 * keep
        act = np.flatnonzero(keep)
    E = int(tr.children.shape[0])
    size = E * int(count.sum())
    offs = np.concatenate(([0], np.cumsum(E * count)[:-1])).astype(np.int64)
    regret, ssum = rng.normal(size=size) * t, rng.random(size) * t
    reg2, ssum2 = regret.copy(), ssum.copy()
    before = regret.copy()
    cmax = int(count.max())
    out = (np.zeros(1326), np.zeros(1326))
    weight = 6 / (4 * 44)
    step_rivers(tr.kind, tr.player, tr.c0, tr.c1, tr.child_start, tr.num_children, tr.children, float(tr.pot),
                cls, count, offs, np.ascontiguousarray(COMBOS, dtype=np.int64),
                np.ascontiguousarray(COMBO_INDEX, dtype=np.int64), rivers, sel, act, weight, r0, r1, t, iters,
                regret, ssum, average, best, out[0], out[1], np.zeros(E * cmax),
                np.zeros(cmax), np.zeros((2, tr.num_nodes, cmax)), np.zeros((tr.num_nodes, cmax)),
                np.zeros((2, cmax)))
    twin = step_rivers_py(tr, cls, count, COMBOS, rivers, sel, weight, r0, r1, t, iters, reg2, ssum2, average,
                          best)
    if active:
        off = np.setdiff1d(np.arange(1326), act)
        assert np.all(out[0][off] == 0.0) and np.all(out[1][off] == 0.0)
        twin = (np.where(np.isin(np.arange(1326), act), twin[0], 0.0),
                np.where(np.isin(np.arange(1326), act), twin[1], 0.0))
    for p in (0, 1):
        np.testing.assert_allclose(out[p], twin[p], rtol=1e-9, atol=1e-7)
    np.testing.assert_allclose(regret, reg2, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ssum, ssum2, rtol=1e-9, atol=1e-9)
    assert np.any(out[0] != 0.0)
    if iters:
        moved = np.zeros(size, dtype=bool)
        for r in sel:
            moved[offs[r]:offs[r] + E * int(count[r])] = True
        assert np.all(regret[~moved] == before[~moved]) and np.any(regret[moved] != before[moved])


@pytest.mark.parametrize(("rivers", "root_tol"), [(48, 1.5), (12, 2.5)])
def test_step_leaves_per_hand_near_the_whole_tree(rivers: int, root_tol: float) -> None:
    """The turn solved with its rivers iterated in step (:class:`RiverStepLeaves`, 100
    iterations; every river at each iteration, or 12 of them in a round robin) against the
    whole tree to 0.1% of the pot: root values within ``root_tol``% of the pot and each hand's
    value (per unit of the opponent weight it meets, weighted by its probability) within 4.5%
    on average (measured: every river 0.5-0.8% and 2.9-3.0%; 12 rivers 1.7-1.9% and 2.8-2.9%;
    the agent's first schedule, 12 rivers refreshed every 8 iterations, left 7.8-10.6% per
    hand on this spot: benchmarks/river_leaf_schedules.py).  The second player's walk reads
    the values the first's step left (no second step), and each river's iterations are
    counted by its own rounds."""
    spot = spot_of("Qs9h4d2c", oop=NARROW[0], ip=NARROW[1])
    whole = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    assert whole.solve(iterations=3000, target_pct=0.1) <= 0.1
    dl = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    leaves = build_step_leaves(dl, spot, rivers=rivers, seed=3)
    assert isinstance(leaves, RiverStepLeaves)
    dl.set_leaf_model(leaves)
    dl.steps(100)
    n = len(leaves.trees)
    assert leaves.evaluations == 100 * n and leaves.calls == 200 * n
    assert np.all(leaves.steps == 100) and np.all(leaves.t == 100 * rivers // 48)
    for p in (0, 1):
        assert dl.values()[p] == pytest.approx(whole.values()[p], abs=root_tol)
        ex = counterfactual_values(whole, [], p, best_response=False)
        got = counterfactual_values(dl, [], p, best_response=False)
        mass = compatible_mass(np.asarray(spot.ranges[1 - p], dtype=np.float64))
        w = np.asarray(spot.ranges[p], dtype=np.float64) * mass
        live = w > 0
        err = np.average(np.abs(ex[live] - got[live]) / mass[live], weights=w[live]) / spot.pot * 100
        assert err < 4.5, err


def test_a_player_who_never_reaches_a_leaf_keeps_its_values() -> None:
    """A player whose strategy never goes to a leaf (its reach 0 there) still has values
    there, against the other's weight (the regrets of the actions that lead there need them;
    zeros made checking look worthless and a solve never checked back); the other's are 0.
    The values do not depend on the player's own reach."""
    spot = spot_of("Qs9h4d2c")
    tr = river_tree(spot, 200, 300)
    rc = river_cards(spot.board)
    E = int(tr.children.shape[0])
    offs = np.concatenate(([0], np.cumsum(E * rc.count)[:-1])).astype(np.int64)
    rng = np.random.default_rng(1)
    size = E * int(rc.count.sum())
    regret, ssum = rng.normal(size=size), rng.random(size)
    r0 = rng.random(1326)
    cmax = int(rc.count.max())

    def values(r1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out = (np.zeros(1326), np.zeros(1326))
        step_rivers(tr.kind, tr.player, tr.c0, tr.c1, tr.child_start, tr.num_children, tr.children,
                    float(tr.pot), rc.cls, rc.count, offs, np.ascontiguousarray(COMBOS, dtype=np.int64),
                    np.ascontiguousarray(COMBO_INDEX, dtype=np.int64), rc.rivers, np.arange(48),
                    np.arange(1326), 1 / 44, r0, r1, 3, 0, regret.copy(), ssum.copy(), False, False,
                    out[0], out[1], np.zeros(E * cmax), np.zeros(cmax), np.zeros((2, tr.num_nodes, cmax)),
                    np.zeros((tr.num_nodes, cmax)), np.zeros((2, cmax)))
        return out

    none = values(np.zeros(1326))
    some = values(rng.random(1326))
    assert np.all(none[0] == 0.0)
    assert np.any(none[1] != 0.0)
    np.testing.assert_allclose(none[1], some[1], rtol=1e-10, atol=1e-9)
    # the refreshed leaves alike: the one that cannot reach still has values
    v0, v1 = river_cfv(tr, rc, 5, (r0, np.zeros(1326)), iterations=5)
    assert np.all(v0 == 0.0) and np.any(v1 != 0.0)


def test_best_response_walk_reads_each_players_best_river() -> None:
    """In a best-response walk (a gadget's values, exploitability) each player's leaf
    values are its best response on every river to the other's average strategy: at least
    the average strategies' values for every hand, and more for some."""
    spot = spot_of("Qs9h4d2c", oop=NARROW[0], ip=NARROW[1])
    dl = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    leaves = build_step_leaves(dl, spot)
    dl.set_leaf_model(leaves)
    dl.steps(10)
    r0 = np.asarray(spot.ranges[0], dtype=np.float64)
    r1 = np.asarray(spot.ranges[1], dtype=np.float64)
    for p in (0, 1):
        own, opp = (r0, r1) if p == 0 else (r1, r0)
        ev = leaves.leaf_values(0, p, "ev", opp, own)
        br = leaves.leaf_values(0, p, "br", opp, own)
        assert np.all(br >= ev - 1e-9) and float((br - ev).max()) > 0.0


def test_nested_leaves_start_from_the_street_solve() -> None:
    """A re-solve nested after a check starts each river of its leaves where the street
    solve's same leaf is (regrets, strategy sums, iterations: no warm-up), and a leaf whose
    river betting differs is left alone."""
    spot = spot_of("Qs9h4d2c", oop=NARROW[0], ip=NARROW[1])
    street = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    before = build_step_leaves(street, spot)
    street.set_leaf_model(before)
    street.steps(12)
    from pokerlab.subgame.spot import Root

    nested_spot = make_spot(board=spot.board, pot=spot.pot, stack=spot.stack, oop=NARROW[0], ip=NARROW[1],
                            tree=TREE, root=Root(to_act=1, acted=1))
    nested = SpotSolver(nested_spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    leaves = build_step_leaves(nested, nested_spot)
    theirs = {path: j for j, path in enumerate(street.leaf_paths())}
    pairs = [(i, theirs[("check",) + path]) for i, path in enumerate(nested.leaf_paths())]
    assert len(pairs) == len(leaves.trees) >= 3
    assert leaves.warm_from(before, pairs) == len(pairs)
    for i, j in pairs:
        np.testing.assert_array_equal(leaves.regret[i], before.regret[j])
        np.testing.assert_array_equal(leaves.ssum[i], before.ssum[j])
        assert leaves.t[i] == before.t[j] == 12
    # a pair whose river betting differs (another pot) is not copied
    fresh = build_step_leaves(nested, nested_spot)
    first = (fresh.trees[0].pot, fresh.trees[0].stack)
    other = next(j for j, path in enumerate(street.leaf_paths())
                 if path[0] != "check" and (before.trees[j].pot, before.trees[j].stack) != first)
    assert fresh.warm_from(before, [(0, other)]) == 0 and fresh.t[0] == 0


def test_step_leaves_round_robin() -> None:
    """Sampled rivers: each step takes the next ``rivers`` of the seeded order, so four steps
    of 12 cover the 48 rivers once each."""
    spot = spot_of("Qs9h4d2c", oop=NARROW[0], ip=NARROW[1])
    dl = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    leaves = build_step_leaves(dl, spot, rivers=12, seed=5)
    seen = []
    for _ in range(4):
        sel = leaves.selected(0)
        assert sel.shape == (12,) and np.all(np.diff(sel) > 0)
        seen.extend(sel.tolist())
        leaves.steps[0] += 1
    assert sorted(seen) == list(range(48))
    assert np.array_equal(build_step_leaves(dl, spot).selected(0), np.arange(48))


def test_round_robin_covers_every_river() -> None:
    spot = spot_of("Qs9h4d2c", oop="AA,KK,QQ", ip="AK,JJ,TT")
    dl = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    leaves = build_river_leaves(dl, spot, seed=3)
    seen: list[int] = []
    for _ in range(4):
        leaves.refresh()
        seen += leaves.sel.tolist()
    assert sorted(seen) == list(range(48))


def test_river_values_with_every_river_sum_to_the_pot() -> None:
    """With every river and uniform reaches each hand pair's values add up to the leaf's pot."""
    spot = spot_of("Qs9h4d2c")
    tr = river_tree(spot, 200, 300)
    rc = river_cards(spot.board)  # type: ignore[attr-defined]
    w = spot.ranges[0].copy()  # type: ignore[attr-defined]
    v0, v1 = river_values(tr, rc, np.arange(48), (w, w))
    # sum over pairs of (v0 + v1) = pot x the number of disjoint pairs
    from pokerlab.agents.leaves import compatible_mass

    pairs = float(w @ compatible_mass(w))
    assert float(w @ v0 + w @ v1) == pytest.approx(200.0 * pairs, rel=1e-9)


def test_bad_input() -> None:
    flop = spot_of("Qs9h4d")
    dl = SpotSolver(flop, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    with pytest.raises(AgentError, match="turn subgame"):
        build_river_leaves(dl, flop)
    with pytest.raises(AgentError, match="4 distinct cards"):
        river_cards((1, 2, 3))
    with pytest.raises(AgentError, match="per_refresh"):
        RiverLeaves([river_tree(spot_of(), 200, 300)], river_cards((0, 13, 27, 40)), per_refresh=-1)
    with pytest.raises(AgentError, match="iterations"):
        RiverLeaves([river_tree(spot_of(), 200, 300)], river_cards((0, 13, 27, 40)), iterations=0)
    with pytest.raises(AgentError, match="turn subgame"):
        build_step_leaves(dl, flop)
    with pytest.raises(AgentError, match="iterations"):
        RiverStepLeaves([river_tree(spot_of(), 200, 300)], river_cards((0, 13, 27, 40)), iterations=0)
    with pytest.raises(AgentError, match="at least one leaf"):
        RiverStepLeaves([], river_cards((0, 13, 27, 40)))
    with pytest.raises(AgentError, match="divide 48"):
        RiverStepLeaves([river_tree(spot_of(), 200, 300)], river_cards((0, 13, 27, 40)), rivers=5)
    with pytest.raises(AgentError, match="warm-up"):
        RiverStepLeaves([river_tree(spot_of(), 200, 300)], river_cards((0, 13, 27, 40)), warm=0)


def test_turn_searcher_with_river_leaves_plays_legal_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """``search(street=turn,depth=1,leaves=river,iters=N)``: its depth-limited turn searches
    solve on in-step river leaves (12 rivers an iteration here), nested re-solves start their
    rivers from the street solve's, every action is legal (the engine refuses others), and
    two agents with the same seed play the same hands."""
    import pokerlab.agents.river_leaves as module
    from pokerlab.evaluation.matches import hand_cards, hand_seed, play_hunl_hand
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.holdem.view import final_view
    from pokerlab.registry import make_agent

    built: list[int] = []
    build = module.build_step_leaves

    def recording(*args: object, **kwargs: object) -> RiverStepLeaves:
        m = build(*args, **kwargs)  # type: ignore[arg-type]
        built.append(len(m.trees))
        assert m.rivers in (12, 48)  # the search's runouts, or every river in the gadget
        return m

    monkeypatch.setattr(module, "build_step_leaves", recording)
    cfg = HoldemConfig.from_bb(100)
    runs = []
    for _ in range(2):
        agent: object = make_agent("search(street=turn,depth=1,leaves=river,runouts=12,iters=6)",
                                   game="hunl", config=cfg, seed=5)
        opp = make_agent("blueprint", game="hunl", config=cfg, seed=6)
        built.clear()
        chips = []
        for i in range(10):
            st = play_hunl_hand(agent, opp, cfg, i % 2, hand_cards(4, i), hand_seed(4, i, 1),
                                hand_seed(4, i, 2))
            agent.end_hand(final_view(st, i % 2))  # type: ignore[attr-defined]
            chips.append(tuple(st.payoffs()))
        c = agent.counters()  # type: ignore[attr-defined]
        assert c["depth_limited"] > 0 and c["fallbacks"] == 0
        assert len(built) >= c["depth_limited"] and min(built) >= 1
        assert c["street_solves"] > 0 and c["warm_leaves"] > 0
        runs.append((chips, c["searches"], c["iterations"], c["warm_leaves"]))
    assert runs[0] == runs[1]
