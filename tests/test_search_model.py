"""The searching agent with an opponent model (``model=SPEC``) and node locking
(``lock=1``): specs, the opponent's range through the model, and every opponent decision of
the subgame fixed to the model's strategy."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents.beliefs import HoldemBeliefs
from pokerlab.agents.search import SearchConfig, parse_search_spec
from pokerlab.errors import AgentError
from pokerlab.holdem.actions import Action, ActionKind
from pokerlab.holdem.engine import HoldemConfig, HoldemState
from pokerlab.registry import build_agent

CFG = HoldemConfig.from_bb(100)


def test_model_and_lock_specs() -> None:
    cfg, base = parse_search_spec("search(iters=10,model=tag,lock=1):blueprint-100")
    assert (cfg.model, cfg.lock, cfg.iterations, base) == ("tag", True, 10, "blueprint-100")
    assert cfg.to_json()["model"] == "tag" and cfg.to_json()["lock"] is True
    assert SearchConfig().model == "" and SearchConfig().lock is False
    cfg, _ = parse_search_spec("search(model=policy:runs/tag_model.npz)")
    assert cfg.model == "policy:runs/tag_model.npz" and not cfg.lock
    for bad, msg in (("search(lock=1,safe=1)", "cannot be safe"), ("search(lock=2)", "lock must be 0 or 1"),
                     ("search(model=search)", "cannot itself search")):
        with pytest.raises(AgentError, match=msg):
            parse_search_spec(bad)
    with pytest.raises(AgentError, match="commas or parentheses"):
        SearchConfig.from_keys(model="adapt(refit=5)")
    with pytest.raises(AgentError, match="unknown agent|not a|bad|no such"):
        build_agent("search(model=nonsense-agent)", config=CFG)


def test_opponent_range_through_the_model_is_tags_rule() -> None:
    """``tag`` opens the button to 2.5 bb exactly with the hands whose preflop quantile is at
    least 0.55: through ``tag`` as the opponent model, that is the tracked range (weight 1 on
    them, 0 elsewhere); through the blueprint alone it is not."""
    from pokerlab.agents.rules import preflop_quantiles

    st = HoldemState(config=CFG)
    st.deal_hole([0, 5])
    st.deal_hole([12, 17])
    st.apply(Action(kind=ActionKind.RAISE, amount=250))  # the button (player 1) opens
    view = st.view(0)
    blueprint = build_agent("blueprint", config=CFG)
    tag = build_agent("tag", config=CFG)
    r = HoldemBeliefs(blueprint, opponent_model=tag).update(view)
    want = (preflop_quantiles() >= 0.55).astype(np.float64)
    assert np.array_equal(r[1], want)
    assert np.all(r[0] == 1.0)  # the big blind has not acted
    plain = HoldemBeliefs(blueprint).update(view)
    assert not np.array_equal(plain[1], want) and np.all(plain[0] == 1.0)
    assert 0.3 < want.mean() < 0.6  # a real opening range


def _play_and_check_locks(spec: str, opponent: str, hands: int, check) -> object:
    from pokerlab.evaluation.matches import hand_cards, play_hunl_hand
    from pokerlab.subgame.resolve import decision_paths, strategy_at

    agent = build_agent(spec, config=CFG, seed=2)
    other = build_agent(opponent, config=CFG, seed=3)
    seen = []
    orig = agent.solve_at

    def spy(view, deadline, mine, **kw):
        got = orig(view, deadline, mine, **kw)
        if got is not None:
            solver = got[0]
            opp = 1 - view.player
            for path in decision_paths(solver, opp):
                names, sigma = strategy_at(solver, path)
                hands_in = solver.deal.combos[opp]
                seen.append((names, sigma[:, hands_in]))
        return got

    agent.solve_at = spy  # type: ignore[method-assign]
    for h in range(hands):
        play_hunl_hand(agent, other, CFG, h % 2, hand_cards(7, h), h, h + 11)
    assert seen, "no subgame with an opponent decision was solved"
    for names, sigma in seen:
        check(names, sigma)
    return agent


def test_locked_opponent_nodes_play_the_model() -> None:
    """With ``model=call,lock=1`` every opponent decision of every subgame checks or calls
    with every hand of its range; without the lock the solved opponent also bets or folds."""

    def always_calls(names, sigma):
        col = [k for k, n in enumerate(names) if n in ("check", "call")]
        assert len(col) == 1
        assert np.allclose(sigma[col[0]], 1.0, atol=1e-9)

    agent = _play_and_check_locks("search(street=river,iters=8,model=call,lock=1)", "call", 24,
                                  always_calls)
    c = agent.counters()  # type: ignore[attr-defined]
    assert c["locked_nodes"] > 0 and c["fallbacks"] == 0

    free = []

    def record(names, sigma):
        col = [k for k, n in enumerate(names) if n in ("check", "call")][0]
        free.append(float(np.nanmin(sigma[col])))

    _play_and_check_locks("search(street=river,iters=8,model=call)", "call", 24, record)
    assert min(free) < 0.99  # the unlocked opponent does not always check or call
