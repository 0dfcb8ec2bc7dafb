"""Depth-limited search (``search(depth=1)``): Modicum's leaves in the searching agent
(pokerlab/agents/leaves.py; the flop's leaves, and the turn's with ``leaves=modicum``) and the
agent playing from the flop and the turn (the turn's default leaves, the river in step, are
tests/test_river_leaves.py's)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pokerlab.agents.leaves import ModicumLeaves, compatible_mass
from pokerlab.agents.search import parse_search_spec
from pokerlab.cards.cards import COMBOS
from pokerlab.errors import AgentError
from pokerlab.evaluation.matches import hand_cards, hand_seed, play_hunl_hand
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, HoldemState
from pokerlab.holdem.view import final_view
from pokerlab.registry import make_agent

CFG = HoldemConfig.from_bb(100)


class PerUnit:
    """A stand-in continuation whose values are exactly ``a[j, h]`` per unit of compatible
    opponent reach (so the lazy values must equal the exact ones)."""

    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        self.a, self.b, self.k = a, b, a.shape[0]
        self.calls = 0
        self.runouts = [(0,)]

    def chooser_values(self, other_reach: np.ndarray, sel: Any = None) -> np.ndarray:
        self.calls += 1
        return self.a * compatible_mass(other_reach)[None, :]

    def other_values(self, chooser_reach: np.ndarray, sel: Any = None) -> np.ndarray:
        self.calls += 1
        return sum(self.b[j] * compatible_mass(chooser_reach[j]) for j in range(self.k))


def test_compatible_mass_against_brute_force() -> None:
    rng = np.random.default_rng(1)
    r = rng.random(1326) * (rng.random(1326) < 0.3)
    got = compatible_mass(r)
    for h in (0, 17, 500, 1325):
        a, b = COMBOS[h]
        mine = {int(a), int(b)}
        want = sum(r[x] for x in range(1326) if not ({int(COMBOS[x, 0]), int(COMBOS[x, 1])} & mine))
        assert got[h] == pytest.approx(want, rel=1e-12)


def test_lazy_leaf_values_and_the_choice() -> None:
    rng = np.random.default_rng(2)
    a = np.stack([np.full(1326, 2.0), np.full(1326, 1.0)])  # variant 0 is better for every hand
    b = np.stack([np.full(1326, -1.0), np.full(1326, 0.5)])
    cont = PerUnit(a, b)
    leaves = ModicumLeaves([cont], chooser=1)
    r1, r2 = rng.random(1326), rng.random(1326)
    own = rng.random(1326)
    leaves.refresh()
    v = leaves.leaf_values(0, 1, "cfr", r1, own)
    assert cont.calls == 1 and leaves.evaluations == 1
    # a second call with other reaches: no evaluation, values scaled by the new masses
    v2 = leaves.leaf_values(0, 1, "cfr", r2, own)
    assert cont.calls == 1
    sigma = leaves._current(0)
    np.testing.assert_allclose(v2, (sigma * a).sum(axis=0) * compatible_mass(r2), rtol=1e-12)
    assert np.all(v > 0)
    for _ in range(50):
        leaves.leaf_values(0, 1, "cfr", r1, own)
    choice = leaves.choice(0)
    assert np.all(choice[0] > 0.9)  # the better variant is chosen
    # best response at the leaf: the better variant's values
    np.testing.assert_allclose(leaves.leaf_values(0, 1, "br", r1, own), 2.0 * compatible_mass(r1), rtol=1e-12)
    # the searcher's values use the chooser's split by its choice
    leaves.refresh()
    s = leaves.leaf_values(0, 0, "ev", r1, own)
    want = sum(b[j] * compatible_mass(choice[j] * r1) for j in range(2))
    np.testing.assert_allclose(s, want, rtol=1e-12)


def test_depth_spec_options() -> None:
    cfg, _ = parse_search_spec("search(street=flop,depth=1,runouts=4,bias=3)")
    assert (cfg.street, cfg.depth, cfg.runouts, cfg.bias) == (1, 1, 4, 3.0)
    for bad, msg in (("search(depth=2)", "depth must be 0"),
                     ("search(runouts=-1)", "runouts"), ("search(bias=0.5)", "bias")):
        with pytest.raises(AgentError, match=msg):
            parse_search_spec(bad)


def _flop_state(hole: tuple[int, int], opp: tuple[int, int], board: list[int]) -> HoldemState:
    st = HoldemState(config=CFG)
    st.deal_hole(list(hole))
    st.deal_hole(list(opp))
    st.apply(Action(kind=ActionKind.RAISE, amount=250))
    st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board(board)
    return st


def _turn_state() -> HoldemState:
    """The flop of :func:`_flop_state` checked through, the turn dealt."""
    st = _flop_state((0, 5), (12, 13), [10, 20, 30])
    while st.phase.name == "BETTING" and st.street == 1:
        st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([40])
    return st


def test_depth_limited_search_from_the_flop_plays_and_keeps_its_own_range() -> None:
    """A depth-limited flop search acts from its solve, and its range on the turn is its
    prior times the probability its solve gave the action it took (not the blueprint's)."""
    agent: Any = make_agent("search(street=flop,depth=1,iters=6,tilt=0)", game="hunl", config=CFG)
    st = _flop_state((0, 5), (12, 13), [10, 20, 30])
    agent.reset(3)
    view = st.view(st.actor)
    before = agent.beliefs.update(view)[view.player].copy()
    act = agent.act(view)
    assert agent.stats.depth_limited == 1 and agent.stats.searches == 1 and agent.stats.fallbacks == 0
    solver = agent.prev.solver
    assert solver.leaf_nodes and solver.leaf_model.evaluations > 0
    # round-robin runouts: 8 of a pool of 32 sampled (turn, river) pairs per evaluation;
    # iterations 1, 2, 4 refreshed (iters=6), so three blocks of the pool's order were used
    leaves = solver.leaf_model
    assert (leaves.pool, leaves.per_refresh, leaves.refreshes) == (32, 8, 3)
    assert all(len(c.runouts) == 32 and len(set(c.runouts)) == 32 for c in leaves.conts)
    np.testing.assert_array_equal(leaves.sel, np.sort(leaves.order[16:24]))
    me = view.player
    lik = agent.beliefs.recorded(view.events, act)
    st.apply(act)
    while st.phase.name == "BETTING" and st.street == 1:  # the opponent calls or checks behind
        assert st.actor != me
        st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([40])
    if st.actor != me:
        st.apply(Action(kind=ActionKind.CHECK_CALL))
    after = agent.beliefs.update(st.view(me))[me]
    live = after > 0
    assert live.sum() > 100
    np.testing.assert_allclose(after[live], (before * lik)[live], rtol=1e-9)


def test_depth_limited_search_plays_legal_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    import pokerlab.agents.leaves as leaves_module

    pools = set()
    build = leaves_module.build_leaves

    def recording(*args: Any, **kwargs: Any) -> Any:
        m = build(*args, **kwargs)
        pools.add((m.pool, m.per_refresh))
        return m

    monkeypatch.setattr(leaves_module, "build_leaves", recording)
    agent: Any = make_agent("search(street=turn,depth=1,iters=5,leaves=modicum)", game="hunl", config=CFG)
    opp = make_agent("blueprint", game="hunl", config=CFG)
    for i in range(12):
        st = play_hunl_hand(agent, opp, CFG, i % 2, hand_cards(4, i), hand_seed(4, i, 1), hand_seed(4, i, 2))
        agent.end_hand(final_view(st, i % 2))
    c = agent.counters()
    assert c["depth_limited"] > 0 and c["searches"] > c["depth_limited"] - 1
    assert agent.stats.fallbacks == 0
    # turn leaves: 12 of the 48 rivers per evaluation; the first (safe) search's gadget
    # values its leaves once over every river
    assert pools == {(48, 12), (48, 0)}
    assert c["blueprint_gadgets"] > 0


def test_turn_leaves_all_rivers_on_request() -> None:
    """``runouts=48`` at a turn leaf evaluates every river at every refresh (no sampling)."""
    agent: Any = make_agent("search(street=turn,depth=1,iters=3,tilt=0,runouts=48,leaves=modicum)",
                            game="hunl", config=CFG)
    st = _turn_state()
    agent.reset(3)
    agent.act(st.view(st.actor))
    leaves = agent.prev.solver.leaf_model
    assert agent.stats.depth_limited == 1 and leaves.per_refresh == 0 and leaves.sel is None
    assert leaves.pool == 48 and leaves.refreshes == 2


def test_depth_limited_search_facing_an_all_in_solves_the_rest_of_the_hand() -> None:
    """Facing an all-in on the flop no line of the street has chips behind (no leaf): the
    depth-limited searcher solves the whole rest of the hand (fold or call to the showdown)
    instead of falling back to the blueprint; the counters name fallbacks by street and
    reason."""
    agent: Any = make_agent("search(street=flop,depth=1,iters=6,tilt=0)", game="hunl", config=CFG)
    st = _flop_state((0, 5), (12, 13), [10, 20, 30])
    st.apply(Action(kind=ActionKind.RAISE, amount=st.max_raise_to))  # the first to act shoves
    agent.reset(3)
    view = st.view(st.actor)
    act = agent.act(view)
    assert act.kind in (ActionKind.FOLD, ActionKind.CHECK_CALL)
    c = agent.counters()
    assert (c["searches"], c["searches_flop"], c["fallbacks"], c["depth_limited"]) == (1, 1, 0, 0)
    assert (c["fallbacks_flop"], c["fallbacks_budget"], c["fallbacks_error"]) == (0, 0, 0)
    solver = agent.prev.solver
    assert not solver.leaf_nodes and solver.iteration == 6
    # the shove is the whole street: its subgame has only fold and call at the root
    assert sorted(solver.action_names(0)) == ["call", "fold"]


def test_depth_limited_search_reuses_leaf_trees_with_the_same_play() -> None:
    """A second flop decision with the same betting on another board reuses every leaf's
    card-free tree (``leaf_trees_reused``) and plays exactly as a searcher that builds them
    afresh (``iters=N``)."""
    spec = "search(street=flop,depth=1,iters=4,tilt=0)"
    warm: Any = make_agent(spec, game="hunl", config=CFG)
    fresh: Any = make_agent(spec, game="hunl", config=CFG)
    first = _flop_state((0, 5), (12, 13), [10, 20, 30])
    warm.reset(5)
    warm.act(first.view(first.actor))
    built = warm.counters()["leaf_trees_built"]
    assert built == len(warm.prev.solver.leaf_nodes) > 0 and warm.counters()["leaf_trees_reused"] == 0
    st = _flop_state((1, 6), (14, 19), [40, 44, 9])  # other cards, the same betting
    warm.reset(7)
    fresh.reset(7)
    a = warm.act(st.view(st.actor))
    b = fresh.act(st.view(st.actor))
    c = warm.counters()
    assert (c["leaf_trees_built"], c["leaf_trees_reused"]) == (built, built)
    assert a == b
    np.testing.assert_array_equal(warm.prev.solver.average_strategy(0),
                                  fresh.prev.solver.average_strategy(0))


def test_first_depth_limited_search_is_safe_with_the_continuation_gadget() -> None:
    """A safe depth-limited turn search (the default until the model is verified) carries
    the gadget from its first search: the opponent's best-response values against the
    blueprint's play of the turn, its leaves valued by the continuation with the opponent
    choosing its best variant; those values are the opponent's root values in a solve whose
    searcher decisions are locked to the blueprint, and each is at least what the
    opponent's hand gets there with the blueprint's own continuation (``gadget=bp``)."""
    from pokerlab.agents.leaves import build_leaves
    from pokerlab.agents.search.locking import blueprint_values

    agent: Any = make_agent("search(street=turn,depth=1,iters=4,safe=1,leaves=modicum)", game="hunl",
                            config=CFG)
    st = _turn_state()
    agent.reset(3)
    view = st.view(st.actor)
    act = agent.act(view)
    assert act is not None
    c = agent.counters()
    assert (c["depth_limited"], c["safe_solves"], c["blueprint_gadgets"], c["fallbacks"]) == (1, 1, 1, 0)
    solver = agent.prev.solver
    assert solver.gadget_player == 1 - view.player and solver.leaf_nodes
    spot = solver.spot
    me = view.player

    def leaves(s: Any) -> Any:
        return build_leaves(s, agent.base, view, chooser=1 - me, runouts=48, seed=1)

    br = blueprint_values(agent.base, view, spot, gadget="br", threads=1, deadline=None, leaves=leaves)
    bp = blueprint_values(agent.base, view, spot, gadget="bp", threads=1, deadline=None, leaves=leaves)
    assert br is not None and bp is not None
    live = np.asarray(spot.ranges[1 - me]) > 0
    assert live.sum() > 100 and np.all(np.isfinite(br[live]))
    # the opponent best-responding (turn and continuation variant) gets at least what it
    # gets playing the blueprint with the blueprint's own continuation, hand by hand
    assert np.all(br[live] >= bp[live] - 1e-6 * np.abs(bp[live]).max())
    assert (br[live] - bp[live]).sum() > 0


def test_turn_bet_first_is_read_in_a_street_solve_and_the_river_in_its_own() -> None:
    """Facing a turn bet made before it acted, the turn searcher reads the bet in a
    depth-limited solve of the turn from its start and nests its decision there, safely
    (the gadget's values from that solve).  On the river, facing a bet again, its
    depth-limited turn solve cannot be followed past the turn's leaves, so it solves the
    river from its start (a second street solve) and nests there."""
    agent: Any = make_agent("search(street=turn,depth=1,iters=4,safe=1)", game="hunl", config=CFG)
    st = _turn_state()
    st.apply(Action(kind=ActionKind.RAISE, amount=550))  # the first actor bets 60% pot
    agent.reset(3)
    view = st.view(st.actor)
    me = view.player
    assert agent.act(view) is not None
    c = agent.counters()
    assert (c["street_solves"], c["nested_solves"], c["safe_solves"], c["blueprint_gadgets"],
            c["depth_limited"], c["fallbacks"]) == (1, 1, 1, 0, 2, 0)
    street = next(s for s in agent.solves.values() if s.n_events < len(view.events))
    assert street.solver.leaf_nodes and street.solver.gadget_player == -1
    assert agent.prev.solver.gadget_player == 1 - me
    st.apply(Action(kind=ActionKind.CHECK_CALL))  # whatever it played, the hand goes on
    st.deal_board([50])
    st.apply(Action(kind=ActionKind.RAISE, amount=1200))
    rv = st.view(st.actor)
    assert agent.act(rv) is not None
    c = agent.counters()
    assert (c["street_solves"], c["nested_solves"], c["safe_solves"], c["searches_river"],
            c["fallbacks"]) == (2, 2, 2, 1, 0)
    river = next(s for s in agent.solves.values() if s.street == 3 and s.n_events < len(rv.events))
    assert not river.solver.leaf_nodes
    assert agent.prev.solver.gadget_player == 1 - me

def test_range_queries_record_the_searched_strategy_for_its_own_range() -> None:
    """Answering range queries only (as LBR asks; the agent never acts), the turn
    searcher's range on the river follows the strategy its turn query returned, column
    of the action it is then seen to take, also after a query at another line of the hand
    in between (the record is kept by the public state); the blueprint's strategy there
    would give another range.  A new hand forgets the records."""
    agent: Any = make_agent("search(street=turn,depth=1,iters=4,tilt=0)", game="hunl", config=CFG)
    st = _turn_state()
    agent.reset(3)
    view = st.view(st.actor)
    me = view.player
    before = agent.beliefs.update(view)[me].copy()
    acts, probs = agent.action_probabilities_all_hands(view)
    bet = next(k for k, a in enumerate(acts) if a.kind == ActionKind.RAISE)
    check = acts.index(Action(kind=ActionKind.CHECK_CALL))
    assert probs[:, bet].sum() > 1 and probs[:, check].sum() > 1
    # a query at the other line (after its bet, the opponent to act) in between
    other = st.clone()
    other.apply(acts[bet])
    agent.beliefs.update(other.view(me))
    st.apply(acts[check])
    st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([50])
    after = agent.beliefs.update(st.view(me))[me]
    live = before > 0
    want = before * probs[:, check] * (after > 0)
    np.testing.assert_allclose(after[live], want[live], rtol=1e-9)
    assert agent.beliefs.recorded(view.events, acts[check]) is not None
    # the blueprint's own check at the turn would have given a different range
    from pokerlab.policy.range_query import all_hands_probabilities

    bacts, bprobs = all_hands_probabilities(agent.base, view, live)
    bp = before * bprobs[:, bacts.index(Action(kind=ActionKind.CHECK_CALL))] * (after > 0)
    assert np.abs(bp / bp.sum() - after / after.sum()).sum() > 0.05
    agent.reset(4)
    assert agent.beliefs.recorded(view.events, acts[check]) is None
