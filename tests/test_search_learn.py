"""The searching agent that learns its opponent during a match (``search(learn=N)``): the
spec, counts of the opponent's actions turned into the model every ``N`` hands, the ranges
following the learned model, and play unchanged until the first refit."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction.action_map import CALL, FOLD
from pokerlab.abstraction.action_tree import DECISION
from pokerlab.agents.search import LearningSearchAgent, SearchAgent, SearchConfig, parse_search_spec
from pokerlab.arena.matches import play_match
from pokerlab.errors import AgentError
from pokerlab.holdem.engine import HoldemConfig
from pokerlab.holdem.view import learns
from pokerlab.registry import build_agent

CFG = HoldemConfig.from_bb(100)


def test_learn_spec() -> None:
    cfg, _ = parse_search_spec("search(iters=5,learn=200,lock=1)")
    assert (cfg.learn, cfg.lock) == (200, True) and cfg.to_json()["learn"] == 200
    assert SearchConfig().learn == 0
    for bad, msg in (("search(learn=-1)", "learn must be 0"),
                     ("search(learn=x)", "learn='x' is not an integer")):
        with pytest.raises(AgentError, match=msg):
            parse_search_spec(bad)
    plain = build_agent("search(iters=5,tilt=0)", config=CFG)
    learner = build_agent("search(iters=5,learn=10)", config=CFG)
    assert type(plain) is SearchAgent and not learns(plain)  # matches treat end_hand as learning
    assert learns(build_agent("search(iters=5)", config=CFG))  # the tilt model learns
    assert isinstance(learner, LearningSearchAgent) and learns(learner)
    with pytest.raises(AgentError, match="dense indexed"):
        build_agent("search(iters=5,learn=10,model=tag)", config=CFG)


def _rows(agent: object, node: int) -> np.ndarray:
    pol = agent.policy  # type: ignore[attr-defined]
    k = int(agent.tree.num_children[node])  # type: ignore[attr-defined]
    lo = int(pol.node_offset[node])
    return np.asarray(pol.probs[lo:lo + int(pol.num_buckets[node]) * k], dtype=np.float64).reshape(-1, k)


def test_learning_against_call_moves_the_model_away_from_folding() -> None:
    """``call`` never folds: after two refits every row of every node where it acted folds
    no more often than the blueprint says and calls no less often, strictly so somewhere;
    the prior is untouched, the ranges read the learned model, and a new match starts from
    the prior again."""
    agent = build_agent("search(iters=5,learn=10)", config=CFG, seed=4)
    assert isinstance(agent, LearningSearchAgent)
    before = agent.opponent.prior.policy.probs.copy()
    play_match(agent, "call", hands=20, duplicate=True, seed=7, stack_bb=100.0, workers=1)
    assert agent.stats.model_refits == 2 and agent.opponent.hands == 20
    assert agent.counters()["model_refits"] == 2
    learned = agent.model
    assert learned is not agent.opponent.prior and agent.beliefs.opponent_model is learned
    assert np.array_equal(agent.opponent.prior.policy.probs, before)  # the blueprint is not changed
    tree = agent.opponent.prior.tree
    cs, k = tree.child_start, tree.num_children
    seen = 0
    drop = 0.0
    for node in np.flatnonzero(tree.kind == DECISION).tolist():
        lo = int(agent.opponent.prior.policy.node_offset[node])
        nb = int(agent.opponent.prior.policy.num_buckets[node])
        kk = int(k[node])
        obs = agent.opponent.obs
        counted = obs.known[lo:lo + nb * kk].sum() + obs.public[cs[node]:cs[node] + kk].sum()
        if counted == 0:
            continue
        acts = [int(a) for a in tree.child_action[cs[node]:cs[node] + kk]]
        if FOLD not in acts or CALL not in acts:
            continue
        seen += 1
        f, c = acts.index(FOLD), acts.index(CALL)
        old, new = _rows(agent.opponent.prior, node), _rows(learned, node)
        assert np.all(new[:, f] <= old[:, f] + 1e-6)
        assert np.all(new[:, c] >= old[:, c] - 1e-6)
        drop += float((old[:, f] - new[:, f]).sum())
    assert seen >= 3 and drop > 0.5
    agent.start_match()
    assert agent.model is agent.base and agent.beliefs.opponent_model is None and agent.opponent.hands == 0
    assert agent.opponent.obs.total == 0


def test_play_is_plain_search_until_the_first_refit() -> None:
    """With ``learn`` longer than the match the learner is the plain searcher that trusts
    the base as its model from the first hand (``tilt=0``: unsafe, as ``learn`` is), hand
    for hand."""
    got = [play_match(spec, "tag", hands=8, duplicate=True, seed=5, stack_bb=100.0, workers=1).chips
           for spec in ("search(iters=8,tilt=0)", "search(iters=8,learn=1000)")]
    assert np.array_equal(got[0], got[1])
