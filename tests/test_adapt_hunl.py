"""The adaptive agent on HUNL (pokerlab/agents/adapt_hunl.py): the spec, one hand's
observation against the hand-history reader, the refit schedule and its seeds, the safety
budget's bookkeeping, play at the tables, and (slow) that it wins more than the blueprint
against a calling station."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents.adapt_hunl import (
    HUNLAdaptAgent,
    HUNLAdaptConfig,
    HUNLObservations,
    observe_hand,
    parse_hunl_spec,
)
from pokerlab.agents.rules import CallAgent, RaiseAgent, TagAgent
from pokerlab.errors import AgentError, ConfigError
from pokerlab.evaluation.matches import hand_cards, hand_seed, play_hunl_hand
from pokerlab.holdem.engine import HoldemConfig, HoldemState
from pokerlab.holdem.events import Shown, events_of
from pokerlab.holdem.view import final_view, learns
from pokerlab.registry import build_agent, check_spec_stack, spec_stack_bb

CFG = HoldemConfig.from_bb(100)
Z95 = 1.959963984540054


@pytest.fixture(scope="module")
def blueprint():
    return build_agent("blueprint", game="hunl", config=CFG)


class FakeRun:
    """A response 'trainer' that records its work and returns a fixed policy."""

    def __init__(self, policy, log, seed):
        self._policy, self.log, self.seed, self.iterations = policy, log, seed, 0

    def run(self, n: int) -> None:
        self.iterations += n
        self.log.append(("run", self.seed, n))

    def policy(self):
        return self._policy


def fake_responder(policy, log):
    def make(base, probs, *, p, seed):
        assert probs.shape == base.probs.shape and 0.0 <= p <= 1.0
        log.append(("start", seed, p))
        return FakeRun(policy, log, seed)
    return make


def play(agent, other, hands: int, seed: int = 0):
    """``hands`` hands of ``agent`` against ``other`` (seats alternating), with the end of
    every hand observed as matches do; returns the agent's chips per hand."""
    out = []
    for i in range(hands):
        seat = i % 2
        st = play_hunl_hand(agent, other, CFG, seat, hand_cards(seed, i),
                            hand_seed(seed, i, 1), hand_seed(seed, i, 2))
        if learns(agent):
            agent.end_hand(final_view(st, seat))
        out.append(st.payoffs()[seat])
    return np.array(out, dtype=float)


# ------------------------------------------------------------------------------ spec
def test_spec_forms_and_errors() -> None:
    assert parse_hunl_spec("adapt") == HUNLAdaptConfig()
    assert parse_hunl_spec("adapt:blueprint-100").base == "blueprint-100"
    c = parse_hunl_spec("adapt(base=policy:x.npz,strength=2,refit=50,p=1,iterations=2e5,"
                        "eps=inf,slice=1000)")
    assert (c.base, c.strength, c.refit, c.p, c.iterations, c.eps, c.slice, c.spread) == \
        ("policy:x.npz", 2.0, 50, 1.0, 200_000, float("inf"), 1000, "even")
    assert parse_hunl_spec("adapt(spread=Prior)").spread == "prior"
    for spec, words in [("adapt(grid=0/1)", "small-game option"),
                        ("adapt(foo=1)", "unknown key 'foo'"),
                        ("adapt(p=2)", "p must lie"), ("adapt(refit=0)", "refit must"),
                        ("adapt(iterations=2.5)", "iterations must"),
                        ("adapt(eps=-1)", "eps must"), ("adapt(p=x)", "not a number"),
                        ("adapt(spread=odd)", "spread must")]:
        with pytest.raises(AgentError, match=words):
            parse_hunl_spec(spec)
    with pytest.raises(AgentError, match="must be a fixed policy"):
        build_agent("adapt:adapt", game="hunl", config=CFG)
    with pytest.raises(AgentError, match="must be a blueprint policy"):
        build_agent("adapt:tag", game="hunl", config=CFG)
    # the base's stack is the agent's; blueprint at a stack none ships is refused
    assert spec_stack_bb("adapt") == spec_stack_bb("blueprint") == 100.0
    with pytest.raises(AgentError, match="no 50 bb blueprint.*name adapt:blueprint-100 "):
        check_spec_stack("adapt", 50.0)
    with pytest.raises(AgentError, match="no 50 bb blueprint.*name blueprint-100 "):
        check_spec_stack("blueprint", 50.0)


def test_registry_builds_it_over_the_blueprint(blueprint) -> None:
    ag = build_agent("adapt(refit=70)", game="hunl", config=CFG)
    assert isinstance(ag, HUNLAdaptAgent) and ag.config.refit == 70
    assert ag.budget == 1.0 * CFG.big_blind and ag.kernel_side() is None
    assert ag.base.policy.probs.shape == blueprint.policy.probs.shape
    # before any response it plays exactly the blueprint (same seeds, same actions)
    a = play(ag, CallAgent(), 30, seed=4)
    b = play(blueprint, CallAgent(), 30, seed=4)
    assert np.array_equal(a, b) and ag.hands == 30 and ag.refits == 0


# ------------------------------------------------------------------------- observation
def test_one_hand_is_observed_as_its_hand_history(tmp_path, blueprint) -> None:
    """observe_hand on each finished hand (the player's hole cards known, as a match log
    has them) equals observe_histories on the same hands written as PHH."""
    from pokerlab.holdem.phh import to_hand_history
    from pokerlab.opponents.hunl_model import observe_histories

    opp = RaiseAgent()
    mine = HUNLObservations.empty("V", blueprint)
    sections = []
    for i in range(120):
        other = opp if i % 3 else TagAgent()
        seat = i % 2  # the observed player V sits in seat 1 - seat
        st = play_hunl_hand(blueprint, other, CFG, seat, hand_cards(9, i), hand_seed(9, i, 1),
                            hand_seed(9, i, 2))
        v = 1 - seat
        observe_hand(mine, blueprint, events_of(st), st.config, v, tuple(st.hole[v]))
        names = ["H", "V"] if v == 1 else ["V", "H"]
        hh = to_hand_history(st, hand=i + 1, players=names)
        sections.append(f"[{i + 1}]\n{hh.dumps().strip()}\n")
    path = tmp_path / "log.phhs"
    path.write_text("\n".join(sections))
    theirs = observe_histories([path], "V", blueprint)
    assert (theirs.hands, theirs.decisions, theirs.off_tree) == \
        (mine.hands, mine.decisions, mine.off_tree)
    assert mine.hands == 120
    assert mine.decisions > 200 and mine.off_tree > 0  # raise leaves the tree sometimes
    assert np.array_equal(theirs.known, mine.known) and np.array_equal(theirs.public,
                                                                       mine.public)
    assert mine.known.sum() > 0 and mine.public.sum() == 0  # every hole card known


def test_the_agent_counts_shown_cards_only(blueprint) -> None:
    ag = HUNLAdaptAgent(blueprint, HUNLAdaptConfig(refit=10_000), name="adapt")
    shown = hidden = 0
    expect = HUNLObservations.empty("x", blueprint)
    for i in range(30):
        seat = i % 2
        st = play_hunl_hand(ag, TagAgent(), CFG, seat, hand_cards(2, i), hand_seed(2, i, 1),
                            hand_seed(2, i, 2))
        ag.end_hand(final_view(st, seat))
        opp = 1 - seat
        cards = next((ev.cards for ev in events_of(st)
                      if isinstance(ev, Shown) and ev.player == opp), None)
        shown += cards is not None
        hidden += cards is None
        observe_hand(expect, blueprint, events_of(st), st.config, opp, cards)
    assert shown > 0 and hidden > 0
    assert np.array_equal(ag.obs.known, expect.known)
    assert np.array_equal(ag.obs.public, expect.public)
    assert ag.obs.public.sum() > 0 and ag.obs.known.sum() > 0
    model = ag.model()  # the model moves toward what was seen
    assert not np.array_equal(model, blueprint.policy.probs.astype(np.float64))


def test_posterior_spreads_hidden_counts_evenly_or_by_the_prior(blueprint) -> None:
    from pokerlab.agents.adapt_hunl import posterior

    pol, tree = blueprint.policy, blueprint.tree
    node = int(tree.child(0, 1))  # the big blind facing the button's limp
    k, nb = int(tree.num_children[node]), int(pol.num_buckets[node])
    lo, cs = int(pol.node_offset[node]), int(tree.child_start[node])
    obs = HUNLObservations.empty("x", blueprint)
    obs.public[cs:cs + k] = np.arange(1, k + 1) * 40.0
    prior = pol.probs[lo:lo + nb * k].reshape(nb, k).astype(np.float64)
    even = posterior(blueprint, obs, 2.0)[lo:lo + nb * k].reshape(nb, k)
    num = 2.0 * prior + obs.public[cs:cs + k] / nb
    assert np.allclose(even, num / num.sum(axis=1, keepdims=True))
    bayes = posterior(blueprint, obs, 2.0, "prior")[lo:lo + nb * k].reshape(nb, k)
    w = (prior + 1 / nb) / (prior.sum(axis=0) + 1)
    assert np.allclose(w.sum(axis=0), 1.0)  # every hidden count is shared out, once
    num = 2.0 * prior + obs.public[cs:cs + k] * w
    assert np.allclose(bayes, num / num.sum(axis=1, keepdims=True))
    assert not np.allclose(even, bayes)
    # an untouched node (the root) keeps the prior; a bad spread is refused
    k0, nb0 = int(tree.num_children[0]), int(pol.num_buckets[0])
    assert np.array_equal(posterior(blueprint, obs, 2.0, "prior")[:nb0 * k0],
                          pol.probs[:nb0 * k0].astype(np.float64))
    with pytest.raises(ConfigError, match="spread must be"):
        posterior(blueprint, obs, 2.0, "odd")


# ------------------------------------------------------------------------------ refits
def test_refit_schedule_slices_and_seeds(blueprint) -> None:
    log: list = []
    resp = blueprint.policy
    cfg = HUNLAdaptConfig(refit=3, iterations=10, slice=4)
    ag = HUNLAdaptAgent(blueprint, cfg, responder=fake_responder(resp, log))
    play(ag, CallAgent(), 150, seed=1)
    # due after 3, 6, 12, 24, 48 hands, then every 16 * 3 = 48
    assert ag.refit_hands == [3, 6, 12, 24, 48, 96, 144]
    starts = [e for e in log if e[0] == "start"]
    assert len(starts) == 7 and all(p == 0.5 for _, _, p in starts)
    runs = [(s, n) for k, s, n in log if k == "run"]
    per = {}
    for s, n in runs:
        per.setdefault(s, []).append(n)
    assert len(per) == 7 and all(v == [4, 4, 2] for v in per.values())  # 10 in slices of 4
    assert ag.refits == 7 and ag.response is not None
    # each run's seed: the seed of the hand that started it and the run's number
    seeds = [hand_seed(1, h - 1, 1) for h in ag.refit_hands]
    assert [s for _, s, _ in starts] == [(x * 1_000_003 + k + 1) % 2**62
                                        for k, x in enumerate(seeds)]
    # the same match again: the same seeds and chips (start_match forgets everything)
    again: list = []
    ag2 = HUNLAdaptAgent(blueprint, cfg, responder=fake_responder(resp, again))
    assert np.array_equal(play(ag2, CallAgent(), 150, seed=1), play_again(ag, 150, 1))
    assert [e for e in again if e[0] == "start"] == starts


def play_again(ag, hands, seed):
    ag.start_match()
    assert ag.hands == 0 and ag.response is None and ag.obs.total == 0
    return play(ag, CallAgent(), hands, seed=seed)


def test_budget_is_realised_winnings_and_gates_the_response(blueprint) -> None:
    """The response plays a hand exactly when one exists and the budget (eps + chips won
    so far) is positive at the start of the hand."""
    log: list = []
    cfg = HUNLAdaptConfig(refit=2, iterations=1, slice=1, eps=0.5)
    ag = HUNLAdaptAgent(blueprint, cfg, responder=fake_responder(blueprint.policy, log))
    other = build_agent("blueprint", game="hunl", config=CFG)  # an even match: the budget
    chips = play(ag, other, 300, seed=10)                      # walks around zero
    budget = 0.5 * CFG.big_blind + np.concatenate([[0.0], np.cumsum(chips)])
    have = np.array([h > 2 for h in range(1, 301)])  # the first response after hand 2
    used = np.array([r.response for r in ag.records])
    assert np.array_equal(used, have & (budget[:-1] > 0))
    assert np.allclose([r.budget for r in ag.records], budget[1:])
    assert ag.budget == pytest.approx(budget[-1]) and ag.won == pytest.approx(chips.sum())
    # both cases happen: the test can fail either way
    assert used.sum() > 10 and (have & (budget[:-1] <= 0)).sum() > 10
    assert ag.response_hands == int(used.sum())


def test_the_response_agent_plays_the_response_policy(blueprint) -> None:
    pol = blueprint.policy
    other = type(pol)(num_children=pol.num_children, child_action=pol.child_action,
                      num_buckets=pol.num_buckets, probs=np.full_like(pol.probs, 1.0),
                      metadata=dict(pol.metadata))
    log: list = []
    ag = HUNLAdaptAgent(blueprint, HUNLAdaptConfig(refit=1, iterations=1, slice=1,
                                                   eps=float("inf")),
                        responder=fake_responder(other, log))
    play(ag, CallAgent(), 2)
    assert ag.response.policy is other and ag.response.tree is blueprint.tree
    ag.reset(11)
    assert ag.playing_response
    st = HoldemState(config=CFG)
    st.deal_hole([0, 1])
    st.deal_hole([2, 3])
    probs = dict(ag.action_probabilities(st.view(st.actor)))
    assert len(probs) >= 3 and max(probs.values()) - min(probs.values()) < 1e-9  # uniform


def test_adapt_trainer_falls_back_to_the_base_where_it_never_trained(blueprint) -> None:
    from pokerlab.opponents.hunl_model import adapt_trainer

    base = blueprint.policy
    run = adapt_trainer(base, base.probs.astype(np.float64), p=0.5, seed=3)
    run.run(2000)
    pol = run.policy()
    kept = pol.metadata["adapt"]["base_rows"]
    assert pol.probs.shape == base.probs.shape and run.iterations == 2000
    rows = int(sum(int(base.num_buckets[n]) for n in range(base.num_nodes)
                   if int(base.num_children[n]) > 0))
    assert 0 < kept < rows
    same = np.isclose(pol.probs, base.probs)
    assert same.sum() >= kept and not same.all()
    # warm: the run starts at the base (no iteration yet: the base's own strategy)
    warm = adapt_trainer(base, base.probs.astype(np.float64), p=0.5, seed=3, warm=50)
    assert np.allclose(warm.trainer.avg, 50 * base.probs, rtol=1e-6)
    assert np.allclose(warm.trainer.regret, 5000 * base.probs, rtol=1e-6)
    assert np.allclose(warm.policy().probs, base.probs, atol=1e-5)
    warm.run(2000)
    moved = np.abs(warm.policy().probs - base.probs).max()
    assert 0 < moved < np.abs(pol.probs - base.probs).max()  # it moves, less than cold


# --------------------------------------------------------------------------- matches
def test_matches_call_end_hand_and_start_fresh() -> None:
    from pokerlab.arena import play_match

    spec = "adapt(refit=10000)"
    r1 = play_match(spec, "call", hands=40, duplicate=True, seed=3, stack_bb=100, workers=1)
    r2 = play_match(spec, "call", hands=40, duplicate=True, seed=3, stack_bb=100, workers=1)
    base = play_match("blueprint", "call", hands=40, duplicate=True, seed=3, stack_bb=100,
                      workers=1)
    from pokerlab.arena.matches import spec_agent

    ag = spec_agent(spec, "hunl", CFG, 0)
    assert ag.hands == 40 and ag.obs.hands == 40 and ag.obs.total > 0  # observed, fresh
    assert np.array_equal(r1.chips, r2.chips) and np.array_equal(r1.chips, base.chips)
    assert not r1.fast_path


def test_the_hunl_league_feeds_the_agent_every_hand() -> None:
    """The HUNL league plays pairs with AIVAT (adapt exposes its probabilities): that loop
    calls end_hand too."""
    from pokerlab.arena.league import run_league
    from pokerlab.evaluation.league import LeagueConfig

    ag = build_agent("adapt(refit=10000)", game="hunl", config=CFG)
    lg = run_league(LeagueConfig(agents=("adapt", "call"), hands=20, stack_bb=100.0),
                    objects={"adapt": ag})
    (pair,) = lg.pairings
    assert pair.method == "aivat" and ag.hands == 20 and ag.obs.hands == 20
    assert ag.obs.total > 0 and ag.won == pytest.approx(pair.mean_mbb * 20 / 10.0)


# ------------------------------------------------------------------------ play tables
def test_play_sessions_feed_the_agent_every_hand() -> None:
    from pokerlab.play.session import Session, SessionConfig

    s = Session(SessionConfig(game="hunl", agent="adapt(refit=10000)", stack=100, seed=3))
    assert isinstance(s.agent, HUNLAdaptAgent)
    totals = []
    for _ in range(6):
        s.new_hand()
        s.run_agent()
        while s.waiting == "you":
            lg = s.legal()
            s.act("check" if lg["check"] else "call")
            s.run_agent()
        totals.append(s.agent.obs.total)
    assert s.agent.hands == 6 and s.agent.obs.hands == 6
    assert totals == sorted(totals) and totals[-1] > 0
    assert s.agent.won == pytest.approx(-sum(h.chips for h in s.hands))
    # the small games' tables too
    t = Session(SessionConfig(game="leduc", agent="adapt(refit=1000,grid=0)", seed=1))
    small = t.agent
    assert small.name == "adapt(refit=1000,grid=0)"
    seen = []
    for _ in range(5):
        t.new_hand()
        t.run_agent()
        while t.waiting == "you":
            lg = t.legal()
            t.act("check" if lg.get("check") else "call")
            t.run_agent()
        seen.append(float(small.public_counts.sum()))
    assert small.hands == 5 and seen == sorted(seen) and seen[-1] > 0


# ------------------------------------------------------------------------------ slow
@pytest.mark.slow
def test_adapt_wins_more_than_the_blueprint_against_call() -> None:
    """Duplicate, 2,000 hands, the default refits (about 5 of them, ~10 s each): the paired
    difference adapt - blueprint has its lower 95% bound above zero."""
    from pokerlab.arena import play_match

    ra = play_match("adapt", "call", hands=2000, duplicate=True, seed=11, stack_bb=100,
                    workers=1)
    rb = play_match("blueprint", "call", hands=2000, duplicate=True, seed=11, stack_bb=100,
                    workers=1)
    d = (ra.chips - rb.chips) / 100 * 1000.0
    pairs = d.reshape(-1, 2).mean(axis=1)
    ci = Z95 * pairs.std(ddof=1) / np.sqrt(pairs.size)
    assert ra.counters["A"]["refits"] >= 4
    assert d.mean() - ci > 0, (d.mean(), ci)
