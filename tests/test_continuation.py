"""Depth-limited leaf values from continuation strategies (pokerlab.agents.continuation):
the numba kernels against their plain-Python twin, the values against a brute-force walk
of the real game through the agent's public API, the unbiased runout weighting, and bad
input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pokerlab.agents.continuation import VARIANTS, Continuation
from pokerlab.agents.continuation_reference import continuation_reference
from pokerlab.agents.continuation_runouts import all_runouts, runout_counts, sample_runouts
from pokerlab.cards.cards import COMBO_INDEX, COMBO_MASKS, COMBOS, cards_mask
from pokerlab.errors import AgentError, CardError, ConfigError
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, HoldemState, Phase

CALL = Action(kind=ActionKind.CHECK_CALL)
FOLD = Action(kind=ActionKind.FOLD)
FLOP = (22, 27, 32)  # 7h 8s Tc
TURN = 47  # Ks
HOLES = ((0, 5), (10, 15))  # 2c 3d, 4h 5s: the root view's own cards (irrelevant to values)


def _bet(x: int) -> Action:
    return Action(kind=ActionKind.RAISE, amount=x)


@pytest.fixture(scope="module")
def cfg() -> HoldemConfig:
    return HoldemConfig.from_bb(100)


@pytest.fixture(scope="module")
def agent(cfg: HoldemConfig) -> Any:
    from pokerlab.registry import BLUEPRINT_FILES, make_agent, shipped_policy

    if shipped_policy(BLUEPRINT_FILES) is None:
        pytest.skip("no blueprint shipped")
    return make_agent("blueprint", game="hunl", config=cfg)


def _root_state(cfg: HoldemConfig, street: int, holes: tuple[tuple[int, int], ...] = HOLES,
                flop: tuple[int, int, int] = FLOP, turn: int = TURN) -> HoldemState:
    """SB raises to 2.5 bb, BB calls; flop 7h 8s Tc (root: street 1) checked through to
    the turn Ks (root: street 2).  The big blind (player 0) acts first at the root."""
    st = HoldemState(config=cfg)
    st.deal_hole(list(holes[0]))
    st.deal_hole(list(holes[1]))
    st.apply(_bet(250))
    st.apply(CALL)
    st.deal_board(list(flop))
    if street == 2:
        st.apply(CALL)
        st.apply(CALL)
        st.deal_board([turn])
    return st


def _view(cfg: HoldemConfig, street: int) -> Any:
    st = _root_state(cfg, street)
    return st.view(st.actor)


def _reach(rng: np.random.Generator, board: tuple[int, ...], zeros: float = 0.3) -> np.ndarray:
    r = rng.random(1326)
    r[rng.random(1326) < zeros] = 0.0
    r[(COMBO_MASKS & np.uint64(cards_mask(list(board)))) != 0] = 0.0
    return r


def _close(a: np.ndarray, b: np.ndarray, rel: float = 1e-9) -> None:
    scale = float(np.abs(b).max())
    assert scale > 0
    np.testing.assert_allclose(a, b, rtol=rel, atol=rel * scale)


# ----------------------------------------------------------------------------- parity
@pytest.mark.parametrize("street,path,chooser,count", [
    (2, [CALL, CALL], 0, 3),
    (2, [_bet(550), CALL], 1, 2),  # a randomised translation: two branches
    (1, [_bet(375), CALL], 1, 2),  # flop leaf: turn and river betting follow
])
def test_kernels_equal_the_python_twin(agent: Any, cfg: HoldemConfig, street: int,
                                       path: list[Action], chooser: int, count: int) -> None:
    view = _view(cfg, street)
    runs = sample_runouts(view.board, count, 7)
    cont = Continuation(agent, view, path, chooser=chooser, runouts=runs)
    rng = np.random.default_rng(3)
    other = _reach(rng, view.board)
    chooser_reach = np.stack([_reach(rng, view.board) for _ in VARIANTS])
    fast = cont.chooser_values(other)
    assert fast.shape == (4, 1326)
    _close(fast, continuation_reference(cont, other_reach=other))
    np.testing.assert_array_equal(cont.chooser_values(other, parallel=True), fast)
    fo = cont.other_values(chooser_reach)
    assert fo.shape == (1326,)
    _close(fo, continuation_reference(cont, chooser_reach=chooser_reach))
    np.testing.assert_array_equal(cont.other_values(chooser_reach, parallel=True), fo)
    # the variants differ (the bias matters) and blocked combos get nothing
    assert np.abs(fast[1] - fast[0]).max() > 1.0 and np.abs(fast[3] - fast[0]).max() > 1.0
    blocked = (COMBO_MASKS & np.uint64(cards_mask(list(view.board)))) != 0
    assert not fast[:, blocked].any() and not fo[blocked].any()


@pytest.mark.parametrize("stack_bb", [100, 200])
def test_values_add_up_to_the_leaf_pot(agent: Any, stack_bb: int) -> None:
    """With every runout, one hand against one hand: the chooser's value (any variant)
    plus the searcher's value is the pot at the leaf (what both put in before it).  At
    200 bb with the 200-bb blueprint too."""
    cfg = HoldemConfig.from_bb(stack_bb)
    if stack_bb != 100:
        from pokerlab.registry import make_agent

        agent = make_agent("blueprint", game="hunl", config=cfg)
        assert agent.game.config.stacks == (20000, 20000)
    view = _view(cfg, 2)
    cont = Continuation(agent, view, [_bet(375), CALL], chooser=1,
                        runouts=all_runouts(view.board))
    assert cont.leaf_pot == 500 + 2 * 375
    assert cont.weight == pytest.approx(1 / 44)
    hc, hs = COMBO_INDEX[51, 50], COMBO_INDEX[3, 1]  # As Ad vs 2s 2d
    other = np.zeros(1326)
    other[hs] = 1.0
    vc = cont.chooser_values(other)
    for j in range(cont.k):
        cr = np.zeros((cont.k, 1326))
        cr[j, hc] = 1.0
        vs = cont.other_values(cr)
        assert vc[j, hc] + vs[hs] == pytest.approx(cont.leaf_pot, rel=1e-12)
    assert vc[0, hc] > 0.8 * cont.leaf_pot  # aces are way ahead


def test_leaves_of_one_sample_share_their_card_arrays(agent: Any, cfg: HoldemConfig) -> None:
    view = _view(cfg, 2)
    runs = sample_runouts(view.board, 3, 2)
    a = Continuation(agent, view, [CALL, CALL], chooser=0, runouts=runs)
    b = Continuation(agent, view, [_bet(375), CALL], chooser=0, runouts=list(runs))
    assert a.hands is b.hands and a.buckets is b.buckets and not a.hands.flags.writeable
    assert a.num_nodes != b.num_nodes and a.leaf_pot == 500 and b.leaf_pot == 1250
    assert 0 < a.nbytes < 200 << 20


# ----------------------------------------------------------------------------- brute force
def _biased(probs: list[tuple[Action, float]], kind: ActionKind | None, bias: float
            ) -> list[tuple[Action, float]]:
    w = [(a, p * (bias if a.kind == kind else 1.0)) for a, p in probs]
    tot = sum(p for _, p in w)
    return [(a, p / tot) for a, p in w]


_KINDS = {"blueprint": None, "fold": ActionKind.FOLD, "call": ActionKind.CHECK_CALL,
          "raise": ActionKind.RAISE}


def _walk(agent: Any, st: HoldemState, chooser: int, lead: tuple[int, int],
          bias: float) -> np.ndarray:
    """``out[j]``: the chooser's and the searcher's expected (chips from the pot - chips
    put in after the leaf) when the chooser plays variant ``j`` and the searcher the
    blueprint, from the real river state ``st`` (both hands known), through
    ``agent.action_probabilities`` and the engine's own showdown."""
    if st.phase == Phase.TERMINAL:
        pay = st.payoffs()
        s = 1 - chooser
        return np.tile([pay[chooser] + lead[chooser], pay[s] + lead[s]],
                       (len(VARIANTS), 1)).astype(float)
    assert st.phase == Phase.BETTING
    probs = agent.action_probabilities(st.view(st.actor))
    kids = []
    for a, _ in probs:
        c = st.clone()
        c.apply(a)
        kids.append(_walk(agent, c, chooser, lead, bias))
    out = np.zeros((len(VARIANTS), 2))
    for j, name in enumerate(VARIANTS):
        q = probs if st.actor != chooser else _biased(probs, _KINDS[name], bias)
        for (_, p), kid in zip(q, kids, strict=True):
            out[j] += p * kid[j]
    return out


def _brute(agent: Any, cfg: HoldemConfig, path: list[Action], runs: list[tuple[int, ...]],
           chooser: int, hc_list: list[int], hs_list: list[int]) -> dict[tuple[int, int, int], Any]:
    """Per (chooser hand, searcher hand, runout): :func:`_walk` from the leaf, the hand
    replayed from its start with both hands known; pairs that clash are left out."""
    out: dict[tuple[int, int, int], Any] = {}
    for hc in hc_list:
        for hs in hs_list:
            if int(COMBO_MASKS[hc] & COMBO_MASKS[hs]):
                continue
            holes: list[tuple[int, int]] = [(0, 0), (0, 0)]
            holes[chooser] = (int(COMBOS[hc, 0]), int(COMBOS[hc, 1]))
            holes[1 - chooser] = (int(COMBOS[hs, 0]), int(COMBOS[hs, 1]))
            for q, run in enumerate(runs):
                if int(COMBO_MASKS[hc] | COMBO_MASKS[hs]) & cards_mask(list(run)):
                    continue
                st = _root_state(cfg, 2, tuple(holes))
                for a in path:
                    st.apply(a)
                lead = st.committed
                st.deal_board(list(run))
                out[hc, hs, q] = _walk(agent, st, chooser, lead, 5.0)
    return out


def _pick_hands(board: tuple[int, ...], seed: int, count: int) -> list[int]:
    rng = np.random.default_rng(seed)
    dead = cards_mask(list(board))
    live = [h for h in range(1326) if not int(COMBO_MASKS[h]) & dead]
    return sorted(int(h) for h in rng.choice(live, size=count, replace=False))


def _brute_values(walks: dict[tuple[int, int, int], Any], weight: float, k: int,
                  other: np.ndarray, chooser_reach: np.ndarray
                  ) -> tuple[dict[int, np.ndarray], dict[int, float]]:
    vc: dict[int, np.ndarray] = {}
    vs: dict[int, float] = {}
    for (hc, hs, _), w in walks.items():
        vc[hc] = vc.get(hc, np.zeros(k)) + weight * other[hs] * w[:, 0]
        vs[hs] = vs.get(hs, 0.0) + weight * float(chooser_reach[:, hc] @ w[:, 1])
    return vc, vs


@pytest.mark.parametrize("path,chooser", [([CALL, CALL], 0), ([_bet(375), CALL], 1)])
def test_values_equal_a_brute_force_walk_of_the_real_game(agent: Any, cfg: HoldemConfig,
                                                         path: list[Action], chooser: int) -> None:
    """A turn leaf, three rivers, a handful of hands on each side: every pair walked on
    the real engine with the agent's own ``action_probabilities`` (biased by hand for the
    chooser) and the exact showdown of the engine."""
    view = _view(cfg, 2)
    runs = sample_runouts(view.board, 3, 11)
    cont = Continuation(agent, view, path, chooser=chooser, runouts=runs)
    assert len(cont.branches) == 1
    hc_list = _pick_hands(view.board, 1, 5)
    hs_list = _pick_hands(view.board, 2, 5)
    rng = np.random.default_rng(5)
    other = np.zeros(1326)
    other[hs_list] = rng.random(len(hs_list)) + 0.1
    chooser_reach = np.zeros((cont.k, 1326))
    chooser_reach[:, hc_list] = rng.random((cont.k, len(hc_list))) + 0.1
    walks = _brute(agent, cfg, path, runs, chooser, hc_list, hs_list)
    vc, vs = _brute_values(walks, cont.weight, cont.k, other, chooser_reach)
    got_c = cont.chooser_values(other)
    got_s = cont.other_values(chooser_reach)
    for hc in hc_list:
        _close(got_c[:, hc], vc[hc])
    for hs in hs_list:
        _close(np.array([got_s[hs]]), np.array([vs[hs]]))
    assert max(float(np.ptp(v)) for v in vc.values()) > 1.0  # the variants matter here


def test_a_randomised_translation_is_the_mixture_over_the_agents_draws(agent: Any,
                                                                     cfg: HoldemConfig) -> None:
    """The path's 550-chip bet lies between the blueprint's 75% and 150% pot: the agent
    reads it as either, drawn from its seed and the event number (the same draw for both
    seats).  The continuation is the mixture of the two readings with the translation's
    probabilities: equal to the brute force of agents re-seeded onto each branch, weighted
    by those probabilities."""
    from pokerlab.registry import make_agent

    path = [_bet(550), CALL]
    view = _view(cfg, 2)
    runs = sample_runouts(view.board, 2, 4)
    cont = Continuation(agent, view, path, chooser=1, runouts=runs)
    assert len(cont.branches) == 2
    probs = [p for p, _ in cont.branches]
    assert sum(probs) == pytest.approx(1.0) and min(probs) > 0.3
    hc_list = _pick_hands(view.board, 3, 4)
    hs_list = _pick_hands(view.board, 4, 4)
    rng = np.random.default_rng(6)
    other = np.zeros(1326)
    other[hs_list] = rng.random(len(hs_list)) + 0.1
    chooser_reach = np.zeros((cont.k, 1326))
    chooser_reach[:, hc_list] = rng.random((cont.k, len(hc_list))) + 0.1
    # the seed of an agent that follows each branch (its node at the first river decision)
    st = _root_state(cfg, 2)
    for a in path:
        st.apply(a)
    st.deal_board([r for r in range(52) if r not in (*FLOP, TURN, *HOLES[0], *HOLES[1])][:1])
    seeds: dict[int, int] = {}
    other_agent = make_agent("blueprint", game="hunl", config=cfg)
    for seed in range(200):
        other_agent.reset(seed)
        node = other_agent.decision_node(st.view(st.actor))[1]
        seeds.setdefault(int(node), seed)
    want_c = np.zeros((cont.k, len(hc_list)))
    want_s = np.zeros(len(hs_list))
    for p, node in cont.branches:
        assert node in seeds, "no agent seed follows this branch"
        other_agent.reset(seeds[node])
        walks = _brute(other_agent, cfg, path, runs, 1, hc_list, hs_list)
        vc, vs = _brute_values(walks, cont.weight, cont.k, other, chooser_reach)
        want_c += p * np.stack([vc[h] for h in hc_list], axis=1)
        want_s += p * np.array([vs[h] for h in hs_list])
    _close(cont.chooser_values(other)[:, hc_list], want_c)
    _close(cont.other_values(chooser_reach)[hs_list], want_s)


# ----------------------------------------------------------------------------- runouts
def test_sample_runouts() -> None:
    turn_board = (*FLOP, TURN)
    assert len(all_runouts(turn_board)) == 48 and runout_counts(4) == (48, 44)
    flop_all = all_runouts(FLOP)
    assert len(flop_all) == 49 * 48 and runout_counts(3) == (49 * 48, 45 * 44)
    assert all(len(set(r)) == 2 and not set(r) & set(FLOP) for r in flop_all)
    s = sample_runouts(FLOP, 16, 3)
    assert len(s) == 16 == len(set(s)) and set(s) <= set(flop_all)
    assert s == sample_runouts(FLOP, 16, 3) and s != sample_runouts(FLOP, 16, 4)
    assert sample_runouts(turn_board, None, 0) == all_runouts(turn_board)
    assert sample_runouts(turn_board, 100, 0) == all_runouts(turn_board)
    # uniform: every river about as often over many draws
    counts = np.zeros(52)
    for seed in range(2000):
        for (c,) in sample_runouts(turn_board, 4, seed):
            counts[c] += 1
    live = counts[[c for c in range(52) if c not in turn_board]]
    assert live.sum() == 8000 and not counts[list(turn_board)].any()
    chi2 = float(((live - 8000 / 48) ** 2 / (8000 / 48)).sum())
    assert chi2 < 47 + 5 * np.sqrt(2 * 47)  # chi-square, 47 degrees of freedom
    with pytest.raises(ConfigError, match="count"):
        sample_runouts(FLOP, 0, 0)
    with pytest.raises(ConfigError, match="seed"):
        sample_runouts(FLOP, 3, -1)
    with pytest.raises(CardError, match="3 or 4"):
        sample_runouts((1, 2), 3, 0)


def test_selected_runouts_equal_a_continuation_over_them(agent: Any, cfg: HoldemConfig) -> None:
    """``sel`` (a subset of the runouts, as a refresh of ModicumLeaves picks) gives exactly
    the values of a continuation built over that subset, both players, both kernels; the
    sets of a partition average to the all-rivers values; bad indices are refused."""
    view = _view(cfg, 2)
    path = [CALL, CALL]
    every = all_runouts(view.board)
    cont = Continuation(agent, view, path, chooser=0, runouts=every)
    rng = np.random.default_rng(21)
    other = _reach(rng, view.board, zeros=0.0)
    chooser_reach = np.stack([_reach(rng, view.board, zeros=0.0) for _ in range(cont.k)])
    sel = [3, 17, 18, 40, 46]
    sub = Continuation(agent, view, path, chooser=0, runouts=[every[i] for i in sel])
    np.testing.assert_array_equal(cont.chooser_values(other, sel=sel), sub.chooser_values(other))
    np.testing.assert_array_equal(cont.other_values(chooser_reach, sel=np.array(sel)),
                                  sub.other_values(chooser_reach))
    np.testing.assert_array_equal(cont.chooser_values(other, sel=sel, parallel=True),
                                  sub.chooser_values(other))
    np.testing.assert_array_equal(cont.other_values(chooser_reach, sel=sel, parallel=True),
                                  sub.other_values(chooser_reach))
    parts = [cont.other_values(chooser_reach, sel=list(range(i, i + 12))) for i in range(0, 48, 12)]
    _close(np.mean(parts, axis=0), cont.other_values(chooser_reach), rel=1e-12)
    for bad in ([], [0, 0], [48], [-1], [[1, 2]], [1.5]):
        with pytest.raises(AgentError, match="sel"):
            cont.chooser_values(other, sel=bad)


def test_leaves_cycle_through_the_runouts(agent: Any, cfg: HoldemConfig) -> None:
    """ModicumLeaves(per_refresh=12) over the 48 rivers: each refresh 12 distinct rivers,
    four refreshes cover all 48 once, the values are those of the refresh's selection."""
    from pokerlab.agents.leaves import ModicumLeaves

    view = _view(cfg, 2)
    cont = Continuation(agent, view, [CALL, CALL], chooser=1, runouts=all_runouts(view.board))
    leaves = ModicumLeaves([cont], chooser=1, per_refresh=12, seed=5)
    other = _reach(np.random.default_rng(3), view.board, zeros=0.0)
    seen = []
    for _ in range(4):
        leaves.refresh()
        assert leaves.sel is not None and leaves.sel.size == 12 and np.unique(leaves.sel).size == 12
        seen.extend(leaves.sel.tolist())
        got = leaves.leaf_values(0, 1, "br", other, np.ones(1326))
        np.testing.assert_array_equal(got, cont.chooser_values(other, sel=leaves.sel).max(axis=0))
    assert sorted(seen) == list(range(48))
    assert ModicumLeaves([cont], chooser=1, per_refresh=48).per_refresh == 0  # all: no sampling
    with pytest.raises(AgentError, match="per_refresh"):
        ModicumLeaves([cont], chooser=1, per_refresh=-1)


def test_runout_weights_are_unbiased(agent: Any, cfg: HoldemConfig) -> None:
    """Exactly: the mean of the estimates over a partition of the rivers into sets of
    four is the all-rivers value.  Statistically: the mean over random sets of
    :func:`sample_runouts` approaches it."""
    view = _view(cfg, 2)
    path = [CALL, CALL]
    every = all_runouts(view.board)
    exact_c = Continuation(agent, view, path, chooser=0, runouts=every)
    other = _reach(np.random.default_rng(8), view.board, zeros=0.0)
    exact = exact_c.chooser_values(other)
    parts = [Continuation(agent, view, path, chooser=0, runouts=every[i:i + 4]).chooser_values(other)
             for i in range(0, 48, 4)]
    _close(np.mean(parts, axis=0), exact, rel=1e-12)
    hands = np.nonzero(exact[0])[0]
    stats = []
    for seed in range(60):
        est = Continuation(agent, view, path, chooser=0,
                           runouts=sample_runouts(view.board, 4, seed)).chooser_values(other)
        stats.append(est[:, hands].sum(axis=1))
    st = np.array(stats)
    mean, se = st.mean(axis=0), st.std(axis=0, ddof=1) / np.sqrt(len(st))
    target = exact[:, hands].sum(axis=1)
    assert np.all(np.abs(mean - target) < 4 * se + 1e-9 * np.abs(target))
    assert np.all(se < 0.2 * np.abs(target))  # the check has power


# ----------------------------------------------------------------------------- bad input
def test_bad_input_is_one_clear_error(agent: Any, cfg: HoldemConfig) -> None:
    from pokerlab.registry import make_agent

    view = _view(cfg, 2)
    runs = [(0,), (1,)]
    with pytest.raises(AgentError, match="does not end the turn betting"):
        Continuation(agent, view, [CALL], chooser=0, runouts=runs)
    with pytest.raises(AgentError, match="does not end the turn betting"):
        Continuation(agent, view, [], chooser=0, runouts=runs)
    with pytest.raises(AgentError, match="comes after the turn betting has ended"):
        Continuation(agent, view, [CALL, CALL, CALL], chooser=0, runouts=runs)
    with pytest.raises(AgentError, match="ends the hand with a fold"):
        Continuation(agent, view, [_bet(375), FOLD], chooser=0, runouts=runs)
    with pytest.raises(AgentError, match="all-in"):
        Continuation(agent, view, [_bet(9750), CALL], chooser=0, runouts=runs)
    with pytest.raises(AgentError, match="path action 0 .* not legal"):
        Continuation(agent, view, [_bet(50)], chooser=0, runouts=runs)
    with pytest.raises(AgentError, match="not an Action"):
        Continuation(agent, view, ["c", "c"], chooser=0, runouts=runs)  # type: ignore[list-item]
    with pytest.raises(CardError, match="clashes with the board"):
        Continuation(agent, view, [CALL, CALL], chooser=0, runouts=[(0,), (TURN,)])
    with pytest.raises(CardError, match="needs 1"):
        Continuation(agent, view, [CALL, CALL], chooser=0, runouts=[(0, 1)])
    with pytest.raises(CardError, match="twice"):
        Continuation(agent, view, [CALL, CALL], chooser=0, runouts=[(0,), (0,)])
    with pytest.raises(CardError, match="non-empty"):
        Continuation(agent, view, [CALL, CALL], chooser=0, runouts=[])
    with pytest.raises(AgentError, match="chooser"):
        Continuation(agent, view, [CALL, CALL], chooser=2, runouts=runs)
    with pytest.raises(AgentError, match="bias"):
        Continuation(agent, view, [CALL, CALL], chooser=0, runouts=runs, bias=0.0)
    with pytest.raises(AgentError, match="variants"):
        Continuation(agent, view, [CALL, CALL], chooser=0, runouts=runs, variants=("shove",))
    pre = HoldemState(config=cfg)
    pre.deal_hole(list(HOLES[0]))
    pre.deal_hole(list(HOLES[1]))
    with pytest.raises(AgentError, match="flop or turn decision"):
        Continuation(agent, pre.view(1), [CALL, CALL], chooser=0, runouts=runs)
    with pytest.raises(AgentError, match="compiled tree"):
        Continuation(make_agent("call"), view, [CALL, CALL], chooser=0, runouts=runs)
    cont = Continuation(agent, view, [CALL, CALL], chooser=0, runouts=runs,
                        variants=("blueprint", "raise"))
    with pytest.raises(AgentError, match=r"shape \(1326,\)"):
        cont.chooser_values(np.ones(1325))
    with pytest.raises(AgentError, match=r"shape \(2, 1326\)"):
        cont.other_values(np.ones((4, 1326)))
    with pytest.raises(AgentError, match="non-negative"):
        cont.chooser_values(np.full(1326, np.nan))
    # two variants: the rows of the four-variant leaf
    full = Continuation(agent, view, [CALL, CALL], chooser=0, runouts=runs)
    r = _reach(np.random.default_rng(1), view.board)
    np.testing.assert_array_equal(cont.chooser_values(r), full.chooser_values(r)[[0, 3]])


# ----------------------------------------------------------------------------- the tree cache
def test_leaf_trees_need_no_cards_and_are_reused(agent: Any, cfg: HoldemConfig) -> None:
    """The card-free part of a leaf (tree, rows, payoffs) is the same on another board with
    the same betting, so :class:`LeafTrees` reuses it: the reused leaf gives the same
    values as one built afresh, and other betting or another chooser is built anew."""
    from pokerlab.agents.continuation import LeafTrees

    path = [_bet(375), CALL]
    v1 = _view(cfg, 2)
    st2 = _root_state(cfg, 2, ((24, 29), (36, 41)), flop=(51, 46, 3), turn=17)  # As Qh 2s, 6d
    v2 = st2.view(st2.actor)
    r1 = sample_runouts(v1.board, 4, 5)
    r2 = sample_runouts(v2.board, 4, 5)
    a = Continuation(agent, v1, path, chooser=1, runouts=r1)
    b = Continuation(agent, v2, path, chooser=1, runouts=r2)
    for name in ("nodes", "pprob", "pay", "rows", "vrows", "node_anode", "node_chips"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert a.branches == b.branches and a.node_columns == b.node_columns

    trees = LeafTrees()
    c1 = Continuation(agent, v1, path, chooser=1, runouts=r1, trees=trees)
    c2 = Continuation(agent, v2, path, chooser=1, runouts=r2, trees=trees)
    assert (trees.misses, trees.hits, len(trees)) == (1, 1, 1) and c2.nodes is c1.nodes
    rng = np.random.default_rng(3)
    other = _reach(rng, v2.board)
    chooser_reach = np.stack([_reach(rng, v2.board) for _ in VARIANTS])
    np.testing.assert_array_equal(c2.chooser_values(other), b.chooser_values(other))
    np.testing.assert_array_equal(c2.other_values(chooser_reach), b.other_values(chooser_reach))
    Continuation(agent, v2, [CALL, CALL], chooser=1, runouts=r2, trees=trees)
    Continuation(agent, v2, path, chooser=0, runouts=r2, trees=trees)
    assert (trees.misses, trees.hits, len(trees)) == (3, 1, 3)
    assert trees.bytes > 0


def test_leaf_trees_forget_the_least_recently_used(agent: Any, cfg: HoldemConfig) -> None:
    from pokerlab.agents.continuation import LeafTrees

    view = _view(cfg, 2)
    runs = sample_runouts(view.board, 2, 1)
    probe = LeafTrees()
    Continuation(agent, view, [CALL, CALL], chooser=0, runouts=runs, trees=probe)
    one = probe.bytes
    trees = LeafTrees(max_bytes=2 * one + one // 2)
    paths = ([CALL, CALL], [_bet(375), CALL], [CALL, _bet(375), CALL])
    for p in paths:
        Continuation(agent, view, p, chooser=0, runouts=runs, trees=trees)
    assert len(trees) <= 2 and trees.bytes <= trees.max_bytes
    Continuation(agent, view, paths[-1], chooser=0, runouts=runs, trees=trees)  # the newest stays
    assert trees.hits == 1
