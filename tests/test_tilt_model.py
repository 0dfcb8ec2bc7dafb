"""The frequency-tilt opponent model (pokerlab/agents/tilt_model.py) and the searching
agent that learns it in the match (``search``, ``tilt=1``)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents.search import parse_search_spec
from pokerlab.agents.tilt_model import (
    CALL,
    FOLD,
    RAISE,
    HandObservation,
    TiltModel,
    fit_hands,
    kind_probs,
    situation,
    smoothing,
)
from pokerlab.errors import AgentError
from pokerlab.evaluation.matches import hand_cards, hand_seed, play_hunl_hand
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, HoldemState
from pokerlab.holdem.view import final_view
from pokerlab.policy.range_query import all_hands_probabilities
from pokerlab.registry import make_agent

CFG = HoldemConfig.from_bb(100)


def _observe(model: TiltModel, opp_spec: str, hands: int, seed: int = 5) -> None:
    bp = make_agent("blueprint", game="hunl", config=CFG)
    opp = make_agent(opp_spec, game="hunl", config=CFG)
    for i in range(hands):
        seat = i % 2
        st = play_hunl_hand(bp, opp, CFG, seat, hand_cards(seed, i), hand_seed(seed, i, 1),
                            hand_seed(seed, i, 2))
        model.observe_hand(final_view(st, seat))
    model.refit()


def _river_facing_bet() -> HoldemState:
    st = HoldemState(config=CFG)
    st.deal_hole([0, 1])
    st.deal_hole([2, 3])
    st.apply(Action(kind=ActionKind.RAISE, amount=250))
    st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([10, 20, 30])
    for _ in range(2):
        st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([40])
    for _ in range(2):
        st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board([50])
    st.apply(Action(kind=ActionKind.RAISE, amount=300))
    return st


def test_situations() -> None:
    assert situation(0, 50, 0) == 1  # preflop: the small blind facing the big blind
    assert situation(0, 150, 1) == 1 and situation(0, 500, 2) == 2
    assert situation(3, 0, 0) == 9 and situation(3, 300, 1) == 10 and situation(2, 900, 2) == 8


def test_fit_recovers_known_tilts_despite_showing() -> None:
    """Hands drawn from a tilted model (three kinds of hands, two decisions: a fold ends
    the hand; a hand that never folded shows its cards seven times in ten): the
    hand-level likelihood gives back the multipliers and strength slopes of both classes,
    although showing depends on the actions (per-decision counting of shown hands would
    never see a fold among them).  Over seeds 1-4 the estimates of the second class's
    fold entries scatter by about 0.15 (theta) and 0.4 (beta) around the truth; the
    tolerances are over twice that."""
    rng = np.random.default_rng(3)
    rows = np.array([[[0.6, 0.3, 0.1], [0.5, 0.4, 0.1]],
                     [[0.3, 0.5, 0.2], [0.2, 0.6, 0.2]],
                     [[0.05, 0.55, 0.4], [0.05, 0.45, 0.5]]])  # 3 hands x 2 decisions x 3
    sv = np.array([[-0.4, -0.35], [0.05, 0.1], [0.4, 0.45]])
    prior = np.array([0.4, 0.3, 0.3])
    ncols = np.array([[1.0, 1.0, 2.0], [1.0, 1.0, 1.0]])
    cls = (situation(1, 100, 1), situation(2, 100, 1))
    true = np.zeros((12, 2, 3))
    true[cls[0]] = [[np.log(2.0), 0.0, np.log(0.5)], [-3.0, 0.0, 4.0]]
    true[cls[1]] = [[np.log(0.5), 0.0, np.log(3.0)], [2.0, 0.0, -2.0]]
    s = smoothing(true)
    hands = []
    for _ in range(20000):
        g = int(rng.choice(3, p=prior))
        kinds = []
        for t in range(2):
            pi = kind_probs(rows[g, t:t + 1], sv[g, t:t + 1], ncols[t], true[cls[t]], s)[0]
            kinds.append(int(rng.choice(3, p=pi)))
            if kinds[-1] == FOLD:
                break
        d = len(kinds)
        shown = kinds[-1] != FOLD and rng.random() < 0.7
        pick = [g] if shown else [0, 1, 2]
        w = np.ones(1) if shown else prior
        hands.append(HandObservation(classes=np.array(cls[:d]), kinds=np.array(kinds), ncols=ncols[:d],
                                     weights=w, rows=rows[pick][:, :d], strengths=sv[pick][:, :d]))
    got = fit_hands(hands, prior_sd=100.0, slope_sd=100.0)  # flat priors: the likelihood's own answer
    for c in cls:
        np.testing.assert_allclose(got[c, 0, [FOLD, RAISE]], true[c, 0, [FOLD, RAISE]], atol=0.35)
        np.testing.assert_allclose(got[c, 1, [FOLD, RAISE]], true[c, 1, [FOLD, RAISE]], atol=1.0)
        assert got[c, 0, CALL] == 0.0 and got[c, 1, CALL] == 0.0
    assert np.all(fit_hands([]) == 0)


def test_no_observations_is_the_base_exactly() -> None:
    base = make_agent("blueprint", game="hunl", config=CFG)
    model = TiltModel(base)
    st = _river_facing_bet()
    from pokerlab.agents.beliefs import with_some_hole
    from pokerlab.subgame.resolve import all_hands

    live = all_hands(st.board) > 0
    view = with_some_hole(st.view(1))
    a0, p0 = all_hands_probabilities(base, view, live)
    a1, p1 = all_hands_probabilities(model, view, live)
    assert a0 == a1 and np.array_equal(p0, p1)


def test_a_calling_station_is_learnt_and_locked() -> None:
    base = make_agent("blueprint", game="hunl", config=CFG)
    model = TiltModel(base, min_obs=30)
    _observe(model, "call", 120)
    river_bet = situation(3, 1, 1)
    assert model.obs.count(river_bet) >= 30 and model.confident(river_bet)
    assert np.exp(model.theta[river_bet, FOLD]) < 0.05 and np.exp(model.theta[river_bet, RAISE]) < 0.05
    st = _river_facing_bet()
    from pokerlab.agents.beliefs import with_some_hole
    from pokerlab.agents.tilt_model import action_kinds
    from pokerlab.subgame.resolve import all_hands

    live = all_hands(st.board) > 0
    acts, probs = all_hands_probabilities(model, with_some_hole(st.view(1)), live)
    call = probs[:, action_kinds(acts) == CALL].sum(axis=1)
    base_acts, base_probs = all_hands_probabilities(base, with_some_hole(st.view(1)), live)
    base_call = base_probs[:, action_kinds(base_acts) == CALL].sum(axis=1)
    # the model calls with (nearly) every hand, where the blueprint folds many
    assert call[live].min() > 0.7 and call[live].mean() > 0.9
    assert base_call[live].mean() < 0.8
    np.testing.assert_allclose(probs[live].sum(axis=1), 1.0, atol=1e-9)


def test_the_blueprint_itself_is_not_locked() -> None:
    """Under the null (the opponent is the base), 400 hands leave every class below the
    lock threshold (observations condition on public information only; the largest
    log multiplier here is 0.93, in a class of 57 observations)."""
    base = make_agent("blueprint", game="hunl", config=CFG)
    model = TiltModel(base)
    _observe(model, "blueprint", 400, seed=9)
    assert not any(model.confident(c) for c in range(12))
    counted = [c for c in range(12) if model.obs.count(c) >= 50]
    assert len(counted) >= 5
    assert max(float(np.abs(model.theta[c]).max()) for c in counted) < 1.2


def test_search_spec_options() -> None:
    cfg, _ = parse_search_spec("search")
    assert cfg.tilt is True and cfg.auto_lock and cfg.tilt_obs == 50 and cfg.tilt_lock == 2.0
    cfg, _ = parse_search_spec("search(tilt=0)")
    assert cfg.tilt is False and not cfg.auto_lock
    cfg, _ = parse_search_spec("search(learn=100)")
    assert cfg.tilt is False
    cfg, _ = parse_search_spec("search(safe=1)")
    assert cfg.tilt is True and not cfg.auto_lock
    cfg, _ = parse_search_spec("search(tilt_obs=10,tilt_lock=0)")
    assert cfg.tilt_obs == 10 and not cfg.auto_lock
    for bad, msg in (("search(tilt=1,learn=5)", "choose one"), ("search(tilt_obs=0)", "tilt_obs"),
                     ("search(tilt_lock=-1)", "tilt_lock"), ("search(tilt=2)", "tilt must be 0 or 1"),
                     ("search(tilt_obs=x)", "not an integer")):
        with pytest.raises(AgentError, match=msg):
            parse_search_spec(bad)


def test_search_learns_and_locks_in_a_match() -> None:
    """The default searcher against ``call``: after the opponent's situations are learnt,
    its subgames lock them (at every river decision it meets with nothing to call or facing
    one bet it checks or calls with nearly every hand: the tilt model's smoothing leaves
    some fold with the hands the blueprint always folds), and a new match starts from the
    base again."""
    from pokerlab.subgame.resolve import decision_paths, strategy_at

    agent = make_agent("search(iters=6)", game="hunl", config=CFG)
    opp = make_agent("call", game="hunl", config=CFG)
    agent.start_match()
    checked = 0
    river = {situation(3, 0, 0), situation(3, 1, 1)}
    for i in range(120):
        seat = i % 2
        sure = river <= {c for c in range(12) if agent.opponent.tilt.confident(c)}
        st = play_hunl_hand(agent, opp, CFG, seat, hand_cards(7, i), hand_seed(7, i, 1),
                            hand_seed(7, i, 2))
        agent.end_hand(final_view(st, seat))
        prev = agent.prev
        if sure and prev is not None:
            s = prev.solver
            for path in decision_paths(s, 1 - prev.searcher):
                if sum(tok.split(" ")[0] in ("bet", "raise", "allin") for tok in path) > 1:
                    continue  # facing a re-raise: a situation the station never reaches
                names, strat = strategy_at(s, list(path))
                raise_cols = [k for k, nm in enumerate(names)
                              if nm.split(" ")[0] in ("bet", "raise", "allin")]
                fold_cols = [k for k, nm in enumerate(names) if nm == "fold"]
                live = ~np.isnan(strat[0])
                other = strat[raise_cols + fold_cols][:, live].sum(axis=0)
                assert other.mean() < 0.15 and other.max() < 0.4
                checked += 1
    assert agent.stats.locked_nodes > 0 and checked > 0
    assert agent.counters()["model_refits"] > 0
    agent.start_match()
    assert not agent.opponent.tilt.deviates() and agent.opponent.tilt.obs.hands == 0


def test_matches_keep_a_learner_in_one_chunk_per_worker() -> None:
    """With a progress callback a match splits into chunks; a learning agent (``end_hand``)
    must not be restarted every chunk."""
    from pokerlab.arena.matches import ObjectFactory
    from pokerlab.evaluation.matches import MatchConfig, run_match

    class Counting:
        name = "counting-call"

        def __init__(self) -> None:
            self.starts = 0
            self.seen = 0
            self.inner = make_agent("call", game="hunl", config=CFG)

        def reset(self, seed: int) -> None:
            self.inner.reset(seed)

        def act(self, view: object) -> object:
            return self.inner.act(view)

        def start_match(self) -> None:
            self.starts += 1

        def end_hand(self, view: object) -> None:
            self.seen += 1

    agent = Counting()
    cfg = MatchConfig(agents=("counting", "call"), game="hunl", hands=400, duplicate=True, seed=1,
                      stack_bb=100)
    calls: list[int] = []
    run_match(cfg, ObjectFactory({0: agent}), workers=1, progress=lambda d, t: calls.append(d))
    assert agent.starts == 1 and agent.seen == 400 and calls[-1] == 400


def test_hierarchical_fit_lends_a_sparse_street_the_others_tilt() -> None:
    """The same opponent tendency (folds four times less than the base facing a bet) seen
    3,000 times on the flop and a few times on the river: the model's river tilt, fitted
    around the pooled one, is near the truth, and the river situation can be locked on
    the strength of its level."""
    rng = np.random.default_rng(11)
    rows = np.array([[0.5, 0.4, 0.1], [0.2, 0.6, 0.2]])
    prior = np.array([0.5, 0.5])
    ncols = np.array([1.0, 1.0, 1.0])
    true = np.array([[np.log(0.25), 0.0, 0.0], [0.0, 0.0, 0.0]])
    flop, river = situation(1, 100, 1), situation(3, 100, 1)
    def hand(c: int, k: int) -> HandObservation:
        return HandObservation(classes=np.array([c]), kinds=np.array([k]), ncols=ncols[None, :],
                               weights=prior, rows=rows[:, None, :], strengths=np.zeros((2, 1)))

    hands = []
    for _ in range(3000):
        g = int(rng.choice(2, p=prior))
        pi = kind_probs(rows[g:g + 1], np.zeros(1), ncols, true, smoothing(true))[0]
        hands.append(hand(flop, int(rng.choice(3, p=pi))))
    # the river: 15 decisions at about the truth's frequencies (13% folds, 12% raises)
    hands += [hand(river, FOLD)] * 2 + [hand(river, CALL)] * 11 + [hand(river, RAISE)] * 2
    model = TiltModel(make_agent("call", game="hunl", config=CFG))
    model.obs.obs.extend(hands)
    model.refit()
    assert abs(model.params[flop, 0, FOLD] - np.log(0.25)) < 0.2
    assert abs(model.params[river, 0, FOLD] - np.log(0.25)) < 0.3
    # three river decisions only (all calls): the river's tilt stays near the flop's
    model.obs.obs.clear()
    model.obs.obs.extend(hands[:3000] + [hand(river, CALL)] * 3)
    model.refit()
    assert abs(model.params[river, 0, FOLD] - np.log(0.25)) < 0.7  # not near 0, the base
    model.obs.obs.clear()
    model.obs.obs.extend(hands)
    model.refit()
    # the river situation leans on its level: confident with 15 decisions of its own
    model.min_obs, model.lock_theta = 50, 1.0
    assert model.counts[river] == 15 and model.confident(river)
