"""The searching agent (pokerlab.agents.search): specs, legal play with and without a
subgame, nested safe re-solving along a hand, and the fallback to the blueprint."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pokerlab.agents.search import SearchConfig, parse_search_spec
from pokerlab.errors import AgentError
from pokerlab.holdem.engine import HoldemConfig
from pokerlab.registry import build_agent

CFG = HoldemConfig.from_bb(100)


def test_specs() -> None:
    cfg, base = parse_search_spec("search")
    assert base == "blueprint" and cfg == SearchConfig()
    cfg, base = parse_search_spec("search(ms=250,street=turn,safe=0,bets=33%+75%,iters=20):tag")
    got = (cfg.ms, cfg.street, cfg.safe, cfg.bets, cfg.iterations, base)
    assert got == (250, 2, False, "33%,75%", 20, "tag")
    for bad, msg in (("search(ms=0)", "ms"), ("search(street=preflop)", "street"),
                     ("search(bogus=1)", "unknown"), ("search(bets=abc)", "sizes"),
                     ("search(ms=abc)", "number"), ("search(safe=2)", "safe"), ("search(ms)", "key=value")):
        with pytest.raises(AgentError, match=msg):
            parse_search_spec(bad)
    with pytest.raises(AgentError, match="cannot itself search"):
        build_agent("search:search", config=CFG)
    with pytest.raises(AgentError, match="hold'em only"):
        build_agent("search", game="kuhn")


def _play(agent, other, hands: int, seed: int = 0) -> list[float]:
    from pokerlab.evaluation.matches import hand_cards, play_hunl_hand

    out = []
    for h in range(hands):
        seat = h % 2
        st = play_hunl_hand(agent, other, CFG, seat, hand_cards(seed, h), h, h + 1000)  # illegal: raises
        out.append(float(st.payoffs()[seat]))
    return out


def test_search_plays_legal_hands_with_nested_safe_solves() -> None:
    agent = build_agent("search(street=river,safe=1,iters=30)", config=CFG, seed=3)
    blueprint = build_agent("blueprint", config=CFG, seed=4)
    res = _play(agent, blueprint, 80)
    st = agent.stats
    assert len(res) == 80
    assert st.searches >= 10 and st.fallbacks == 0
    assert st.nested >= 1 and st.blueprint_gadgets >= 1
    assert st.safe_solves == st.nested + st.blueprint_gadgets
    assert st.iterations == 30 * st.searches
    c = agent.counters()
    assert c["search_decisions"] == st.searches and c["think_ms_count"] == st.searches
    # river-only search: every search is a river search, and the river's think times are all of them
    assert c["searches_river"] == st.searches and c["searches_flop"] == c["searches_turn"] == 0
    assert c["think_ms_river_count"] == st.searches and "think_ms_flop_count" not in c
    assert c["think_ms_river_sum"] == pytest.approx(c["think_ms_sum"])
    from pokerlab.think import summarize

    s = summarize(c)
    assert s["think_ms_river_p50"] == pytest.approx(s["think_ms_p50"])
    assert s["think_ms_river_p99"] == pytest.approx(s["think_ms_p99"])
    assert not any("_bin_" in k for k in s)


def test_think_summary_per_street() -> None:
    from pokerlab.think import histogram, street_prefix, summarize

    flop = [10.0] * 9 + [1000.0]
    turn = [50.0, 50.0]
    c = {"think_ms_count": 12, "think_ms_sum": sum(flop) + sum(turn),
         "think_ms_flop_count": 10, "think_ms_flop_sum": sum(flop),
         "think_ms_turn_count": 2, "think_ms_turn_sum": sum(turn)}
    c.update(histogram(flop + turn))
    c.update(histogram(flop, prefix=street_prefix(1)))
    c.update(histogram(turn, prefix=street_prefix(2)))
    s = summarize(c)
    assert s["think_ms_flop_p50"] == pytest.approx(10.0, rel=0.02)
    assert s["think_ms_flop_p99"] == pytest.approx(1000.0, rel=0.02)
    assert s["think_ms_flop_mean"] == pytest.approx(109.0)
    assert s["think_ms_turn_p50"] == pytest.approx(50.0, rel=0.02)
    assert s["think_ms_p50"] == pytest.approx(10.0, rel=0.02)
    assert "think_ms_river_p50" not in s and not any("_bin_" in k for k in s)


def test_fixed_iterations_are_reproducible() -> None:
    runs = []
    for _ in range(2):
        agent = build_agent("search(street=river,iters=20)", config=CFG, seed=9)
        runs.append(_play(agent, build_agent("tag", config=CFG), 30, seed=5))
    assert runs[0] == runs[1]


def test_unsafe_search_and_tiny_budgets_still_act() -> None:
    unsafe = build_agent("search(street=river,safe=0,verify=0,iters=25)", config=CFG, seed=1)
    _play(unsafe, build_agent("blueprint", config=CFG, seed=2), 40)
    assert unsafe.stats.searches > 0 and unsafe.stats.safe_solves == 0
    tiny = build_agent("search(ms=1,street=flop)", config=CFG, seed=1)
    _play(tiny, build_agent("call", config=CFG), 20)  # no subgame fits 1 ms: the blueprint acts
    assert tiny.stats.fallbacks > 0 and tiny.stats.fallbacks + tiny.stats.searches == len(tiny.stats.think_ms)
    c = tiny.counters()
    assert c["fallbacks_budget"] == tiny.stats.fallbacks and c["fallbacks_error"] == 0
    assert not any(k.startswith("fallback_error: ") for k in c)


def test_fallbacks_on_an_error_are_counted_by_their_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that cannot run plays the base policy, and the counters say why: one
    numeric counter per error line (what a match sums over its chunks)."""
    from pokerlab.errors import PokerlabError

    agent = build_agent("search(street=river,iters=10)", config=CFG, seed=1)
    calls = {"n": 0}

    def failing(view, deadline):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        raise PokerlabError("odd spot" if calls["n"] % 3 else "other spot")

    monkeypatch.setattr(agent, "search", failing)
    _play(agent, build_agent("call", config=CFG, seed=2), 30)
    c = agent.counters()
    n = calls["n"]
    assert n > 3 and c["searches"] == 0 and c["fallbacks"] == c["fallbacks_error"] == n
    assert c["fallback_error: odd spot"] == n - n // 3
    assert c["fallback_error: other spot"] == n // 3
    assert c["fallbacks_budget"] == 0


@pytest.mark.parametrize("spec", ["search(street=river,iters=10,anchor=0)",
                                  "search(street=river,iters=10,anchor=0,safe=1)"])
@pytest.mark.parametrize("board_combos", [False, True])
def test_ranges_that_admit_no_deal_are_widened_not_a_fallback(monkeypatch: pytest.MonkeyPatch,
                                                              spec: str, board_combos: bool) -> None:
    """Two modelled ranges where every combo of one shares a card with every combo of the
    other (the searcher's range its one hand, the opponent's only hands holding one of its
    cards) leave the spot no deal: the opponent's range is widened and the search runs
    (before, every such decision fell back on an error).  ``board_combos``: the opponent's
    range also weighs combos that hold a board card (as a range carried from the turn's
    solve weighs the river card), which make no deal either."""
    from pokerlab.cards.cards import COMBO_INDEX, combos_blocked_by, deal_possible

    agent = build_agent(spec, config=CFG, seed=1)
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def blocking(view):  # type: ignore[no-untyped-def]
        r = np.zeros((2, 1326))
        r[view.player, COMBO_INDEX[view.hole[0], view.hole[1]]] = 1.0
        on_board = combos_blocked_by(view.board)
        theirs = combos_blocked_by(view.hole) & ~on_board
        r[1 - view.player, theirs] = 1.0
        if board_combos:
            r[1 - view.player, on_board & ~combos_blocked_by(view.hole)] = 1.0
            assert deal_possible(r[0], r[1])
        assert not deal_possible(r[0] * ~on_board, r[1] * ~on_board)
        seen.append((r[0], r[1]))
        return r

    monkeypatch.setattr(agent.beliefs, "update", blocking)
    _play(agent, build_agent("call", config=CFG, seed=2), 12)
    c = agent.counters()
    assert seen and c["searches_river"] > 0 and c["fallbacks_error"] == 0
    assert c["widened_ranges"] >= c["searches_river"]


def test_search_range_contains_its_hand_and_the_opponent_range_follows_the_blueprint() -> None:
    """At a river decision facing a bet, the tracked ranges are the blueprint's Bayes
    ranges: the bettor's range is narrower than the checker's."""
    agent = build_agent("search(street=river,iters=10,verify=0)", config=CFG, seed=0)
    blueprint = build_agent("blueprint", config=CFG, seed=0)
    from pokerlab.evaluation.matches import hand_cards, play_hunl_hand

    seen = []
    orig = agent.search

    def spy(view, deadline):
        r = agent.beliefs.update(view)
        seen.append((view, r))
        return orig(view, deadline)

    agent.search = spy  # type: ignore[method-assign]
    for h in range(60):
        play_hunl_hand(agent, blueprint, CFG, h % 2, hand_cards(1, h), h, h + 7)
    assert seen
    from pokerlab.cards.cards import COMBO_INDEX

    for view, r in seen:
        assert r[view.player, COMBO_INDEX[view.hole[0], view.hole[1]]] > 0
        assert np.all(r >= 0) and np.all(r <= 1)
        assert np.all(r[:, [COMBO_INDEX[a, b] for a in view.board for b in range(52) if b != a]] == 0)


def test_opponent_range_floor() -> None:
    """``floor=F``: every combo the board allows keeps at least F of the largest weight in
    the opponent's modelled range; board combos stay out; bad values refused."""
    from pokerlab.agents.search import floored as _floored
    from pokerlab.cards.cards import COMBOS, combo_index, parse_cards

    cfg, _ = parse_search_spec("search(floor=0.05,iters=10)")
    assert cfg.floor == 0.05 and SearchConfig().floor == 0.0
    for bad in ("search(floor=-0.1)", "search(floor=2)", "search(floor=x)"):
        with pytest.raises(AgentError, match="floor"):
            parse_search_spec(bad)
    board = parse_cards("Ks9h5c2d7s")
    r = np.zeros(1326)
    aa = combo_index(*sorted(parse_cards("AcAd")))
    qq = combo_index(*sorted(parse_cards("QcQd")))
    r[aa], r[qq] = 0.8, 0.01
    f = _floored(r, 0.05, board)
    on_board = np.isin(COMBOS, board).any(axis=1)
    assert f[aa] == 0.8 and f[qq] == pytest.approx(0.04)
    assert np.all(f[on_board] == 0) and np.all(f[~on_board] >= 0.04 - 1e-12)
    assert int((f > 0).sum()) == 1326 - int(on_board.sum())  # 1,081 combos


def test_blueprint_value_gadget_plays_legal_hands() -> None:
    """``gadget=bp`` (the blueprint's own values at the first river search): legal play,
    the gadget built at every first river search, and bad names refused."""
    cfg, _ = parse_search_spec("search(gadget=bp,iters=8)")
    assert cfg.gadget == "bp" and SearchConfig().gadget == "br"
    with pytest.raises(AgentError, match="gadget"):
        parse_search_spec("search(gadget=xx)")
    agent = build_agent("search(gadget=bp,safe=1,anchor=0,iters=8)", config=CFG)
    other = build_agent("blueprint", config=CFG)
    pays = _play(agent, other, 12, seed=4)
    assert len(pays) == 12 and all(abs(x) <= 2 * CFG.stacks[0] for x in pays)
    c = agent.counters()
    assert c["searches"] > 0 and c["blueprint_gadgets"] > 0 and c["fallbacks"] == 0


def _checked_down_river() -> tuple[Any, Any, list[int], list[int], list[int]]:
    """A river searcher, the big blind's view of a hand checked down to the river
    (AhKh against QdJd on 2c7d9sTc3h), its hole cards, the other hand and the board."""
    from pokerlab.cards.cards import parse_cards
    from pokerlab.holdem.actions import Action, ActionKind
    from pokerlab.holdem.engine import HoldemState
    from pokerlab.holdem.view import make_view

    agent = build_agent("search(street=river,iters=10)", config=CFG, seed=1)
    hole, other = parse_cards("AhKh"), parse_cards("QdJd")
    board = parse_cards("2c7d9sTc3h")
    st = HoldemState(config=CFG)
    st.deal_hole(hole)
    st.deal_hole(other)
    check = Action(kind=ActionKind.CHECK_CALL)
    for cards in (board[:3], board[3:4], board[4:5]):
        st.apply(check)  # preflop limp / check, then check, check on flop and turn
        st.apply(check)
        st.deal_board(cards)
    return agent, make_view(st, 0), hole, other, board


def test_a_prior_with_a_trace_of_dealable_weight_is_widened() -> None:
    """A safe spot whose opponent prior puts all but a trace of its weight on combos that
    share a card with the searcher's range passes the plain no-deal check but leaves the
    solver's normaliser at zero ("no deal is possible", a fallback); :func:`dealable`
    widens it instead, and the widened spot solves."""
    from pokerlab.agents.search.solve import Ranges, build_spot, can_deal, dealable
    from pokerlab.cards.cards import COMBO_INDEX, combos_blocked_by, deal_possible
    from pokerlab.errors import PokerlabError
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    agent, view, hole, other, board = _checked_down_river()
    ours = np.zeros(1326)
    ours[COMBO_INDEX[hole[0], hole[1]]] = 1.0
    prior = np.where(combos_blocked_by(hole) & ~combos_blocked_by(board), 1.0, 0.0)
    prior[COMBO_INDEX[other[0], other[1]]] = 1e-30  # the only pair without a common card
    assert deal_possible(ours, prior) and not can_deal(ours, prior)
    # unwidened, the solver finds no deal
    spot, _, _ = build_spot(agent, view, Ranges(r0=ours, r1=prior.copy(), cbv=None, prior=None,
                                                nested=True), None)
    with pytest.raises(PokerlabError, match="no deal is possible"):
        SpotSolver(spot, SolveConfig(isomorphism=False), threads=1).step()
    rg = Ranges(r0=ours, r1=prior.copy(), cbv=np.zeros(1326), prior=prior, nested=True)
    wide = dealable(agent, rg, 0, board)
    assert agent.stats.widened == 1 and wide.cbv is None and wide.prior is None
    assert can_deal(wide.r0, wide.r1)
    spot, _, _ = build_spot(agent, view, wide, None)
    solver = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    solver.step()
    assert solver.iteration == 1


def test_a_reach_that_blocks_the_searcher_is_widened_even_under_a_dealable_prior() -> None:
    """A safe solve builds its spot on the opponent's reach and its gadget on the prior.
    A nested reach is narrower than its prior and can block the searcher's range where the
    prior does not: the spot then has no deal ("no deal is possible").  :func:`dealable`
    checks both and widens; the widened spot solves."""
    from pokerlab.agents.search.solve import Ranges, build_spot, can_deal, dealable
    from pokerlab.cards.cards import COMBO_INDEX, combos_blocked_by
    from pokerlab.errors import PokerlabError
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    agent, view, hole, other, board = _checked_down_river()
    ours = np.zeros(1326)
    ours[COMBO_INDEX[hole[0], hole[1]]] = 1.0
    live = ~combos_blocked_by(board)
    prior = np.where(live, 1.0, 0.0)  # the whole live range: deals with ours
    reach = np.where(combos_blocked_by(hole) & live, 1.0, 0.0)  # only hands sharing a card
    assert can_deal(ours, prior) and not can_deal(ours, reach)
    rg = Ranges(r0=ours, r1=reach.copy(), cbv=np.zeros(1326), prior=prior, nested=True)
    # unwidened, the safe spot on this reach has no deal
    with pytest.raises(PokerlabError, match="no deal is possible"):
        build_spot(agent, view, Ranges(r0=ours, r1=reach.copy(), cbv=np.zeros(1326), prior=prior,
                                       nested=True), None)
    wide = dealable(agent, rg, 0, board)
    assert agent.stats.widened == 1 and wide.cbv is None and wide.prior is None
    assert can_deal(wide.r0 * live, wide.r1 * live)
    spot, _, _ = build_spot(agent, view, wide, None)
    solver = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    solver.step()
    assert solver.iteration == 1
