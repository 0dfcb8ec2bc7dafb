"""The searching agent's safety until its learned model is verified (``verify=1``), the
street-start anchors (``anchor=1``) and nesting in the solves of range queries."""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.evaluation.matches import hand_cards, hand_seed, play_hunl_hand
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, HoldemState
from pokerlab.holdem.view import final_view
from pokerlab.registry import make_agent
from pokerlab.subgame.resolve import node_reach
from pokerlab.subgame.solve_config import SolveConfig
from pokerlab.subgame.solver import SpotSolver
from pokerlab.subgame.spot import make_spot, tree_config

CFG = HoldemConfig.from_bb(100)


def _river(bet_first: bool, hole: tuple[int, int] = (0, 5)) -> HoldemState:
    st = HoldemState(config=CFG)
    st.deal_hole(list(hole))
    st.deal_hole([12, 13])
    st.apply(Action(kind=ActionKind.RAISE, amount=250))
    st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([10, 20, 30])
    for _ in range(2):
        st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([40])
    for _ in range(2):
        st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([50])
    if bet_first:
        st.apply(Action(kind=ActionKind.RAISE, amount=400))  # the first actor bets 80% pot
    return st


def test_untrusted_model_plays_safe_and_reads_the_street_in_a_solve_from_its_start() -> None:
    """A fresh searcher (nothing seen: its model is not verified) facing a river bet solves
    the river from its start first, reads the bet there, and re-solves safely (the
    gadget) with the ranges that solve gives at the bet."""
    agent: Any = make_agent("search(iters=12)", game="hunl", config=CFG)
    agent.reset(1)
    st = _river(bet_first=True)
    view = st.view(st.actor)
    assert not agent.trusted(3)
    agent.act(view)
    s = agent.stats
    assert s.street_solves == 1 and s.nested == 1 and s.safe_solves == 1 and s.searches == 1
    anchor = agent.solves[next(k for k in agent.solves if len(k[1]) < len(view.events) - 1)]
    assert anchor.solver.tree.action_names[0][0] == "check"  # rooted at the street's first decision
    # the street's solve is not itself safe: with the blueprint's gadget there LBR (setting
    # 2, 600 deals) won 289 mbb/hand more against the river searcher (docs/evaluation.md)
    assert anchor.solver.gadget_player == -1 and s.blueprint_gadgets == 0
    me = view.player
    tokens = []
    tr = anchor.solver.tree
    names, amts = tr.action_names[0], tr.action_amounts[0]
    bets = [a for a, nm in enumerate(names) if nm.split(" ")[0] in ("bet", "allin")]
    near = min(bets, key=lambda a: abs(np.log(amts[a]) - np.log(400)))
    tokens.append(names[near])
    _, r0, r1 = node_reach(anchor.solver, tokens)
    got = agent.prev.solver
    ours = got.spot.ranges[me]
    want = (r0, r1)[me]
    live = ours > 0
    # safe re-solving (pokerlab.subgame.resolve.subgame_spot): the searcher's range is its
    # reach at the bet in the street's solve; every opponent hand of the street's start may
    # enter through the gadget
    assert got.gadget_player == 1 - me
    np.testing.assert_allclose(ours[live], np.clip(want[live] / want.max(), 0, 1), rtol=1e-6)
    prior = anchor.solver.spot.ranges[1 - me]
    np.testing.assert_allclose(got.spot.ranges[1 - me], prior / prior.max(), rtol=1e-6)


def test_verified_model_plays_unsafe_on_the_model_ranges() -> None:
    """Once the model has ``tilt_obs`` river decisions of each kind, river decisions are
    solved unsafely (no gadget, no street solve)."""
    agent: Any = make_agent("search(iters=6,tilt_obs=3)", game="hunl", config=CFG)
    opp = make_agent("blueprint", game="hunl", config=CFG)
    agent.start_match()
    i = 0
    while not agent.trusted(3):
        st = play_hunl_hand(agent, opp, CFG, i % 2, hand_cards(2, i), hand_seed(2, i, 1), hand_seed(2, i, 2))
        agent.end_hand(final_view(st, i % 2))
        i += 1
        assert i < 200
    if agent.opponent.tilt.due():
        agent.opponent.tilt.refit()
    before = (agent.stats.safe_solves, agent.stats.street_solves)
    agent.reset(5)
    st = _river(bet_first=True)
    agent.act(st.view(st.actor))
    assert (agent.stats.safe_solves, agent.stats.street_solves) == before
    assert agent.stats.searches > 0


def test_range_queries_leave_solves_to_nest_in() -> None:
    """A range query at the searcher's river decision (what LBR asks; the agent never
    acts) is kept: the query at its next decision of the street nests in it."""
    agent: Any = make_agent("search(iters=8,verify=0)", game="hunl", config=CFG)
    agent.reset(2)
    st = _river(bet_first=False)
    first = st.view(st.actor)
    acts, probs = agent.action_probabilities_all_hands(first)
    bet = next(a for a in acts if a.kind == ActionKind.RAISE)
    st.apply(bet)
    st.apply(Action(kind=ActionKind.RAISE, amount=min(st.legal().max_raise_to, 3 * bet.amount)))
    nested = agent.stats.nested
    agent.action_probabilities_all_hands(st.view(st.actor))
    assert agent.stats.nested == nested + 1


def test_one_public_state_one_strategy() -> None:
    """The searcher answers a range query at a public state from the solve it made there
    before, also after a query at another line of the hand in between (as LBR asks at the
    states its bets would lead to), and plays from that solve when it acts there: the
    strategy LBR is told is the one it meets."""
    agent: Any = make_agent("search(iters=8)", game="hunl", config=CFG)
    agent.reset(2)
    st = _river(bet_first=False)
    view = st.view(st.actor)
    acts, probs = agent.action_probabilities_all_hands(view)
    searched = agent.stats.searches
    other = st.clone()
    other.apply(next(a for a in acts if a.kind == ActionKind.RAISE))
    other.apply(Action(kind=ActionKind.RAISE, amount=min(other.legal().max_raise_to, 3 * other.to_call)))
    agent.action_probabilities_all_hands(other.view(other.actor))  # another line's query
    assert agent.stats.searches == searched + 1
    again_acts, again = agent.action_probabilities_all_hands(view)
    assert again_acts == acts and np.array_equal(again, probs)
    # acting there with a hand of the kept solve's range plays from that solve
    kept = agent.kept(view, None)
    assert kept is not None
    from pokerlab.cards.cards import COMBOS

    hand = next(int(c) for c in kept[0].deal.combos[view.player]
                if not {int(COMBOS[c, 0]), int(COMBOS[c, 1])} & {12, 13})
    mine = _river(bet_first=False, hole=(int(COMBOS[hand, 0]), int(COMBOS[hand, 1])))
    played = agent.act(mine.view(mine.actor))
    assert agent.stats.searches == searched + 1 and played in acts
    assert agent.prev.solver is kept[0]
    # a hand outside it (the blueprint would have folded it before) is solved again
    assert agent.kept(view, 4) is None
    agent.act(view)
    assert agent.stats.searches == searched + 2


def test_one_combo_ranges_solve() -> None:
    """A player holding one combo (its hand table is then both C and F ordered) solves on
    the turn and the river alike."""
    for board in ("Td9d6hQc", "Td9d6hQc2s"):
        s = SpotSolver(make_spot(board=board, pot=100, stack=300, oop="QhQs", ip="AhAs,KK",
                                 tree=tree_config()), SolveConfig(isomorphism=False), threads=1)
        s.solve(iterations=5, target_pct=None)
        assert np.isfinite(s.exploitability()[0])
