"""Fast LBR (issue 26): range queries and the vectorised hand loop against the per-combo
reference, bit for bit (same choices, same values)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards.cards import COMBO_MASKS, COMBOS, cards_mask
from pokerlab.cards.evaluator import eval_tables
from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
from pokerlab.cards.range_kernels import (
    equity_vs_random_each,
    equity_vs_random_each_py,
    hand_strength_all,
    hand_strength_all_py,
)
from pokerlab.evaluation.lbr import (
    HoldemSession,
    LBRConfig,
    deal_cards,
    parse_action_set,
    per_deal_holdem,
)
from pokerlab.evaluation.lbr_core import agent_seed, draws, play_lbr_hand
from pokerlab.holdem.engine import HoldemConfig, HoldemState
from pokerlab.holdem.events import BoardDealt
from pokerlab.policy.range_query import all_hands as _all_hands
from pokerlab.policy.range_query import bucket_vector
from pokerlab.policy.range_query import bucket_vector_py as _bucket_vector_py
from pokerlab.policy.range_query import with_hole as _with_hole

C64 = np.ascontiguousarray(COMBOS, dtype=np.int64)


def _blueprint(stack_bb: float = 100.0):  # type: ignore[no-untyped-def]
    from pokerlab.registry import BLUEPRINT_FILES, make_agent, shipped_policy

    if shipped_policy(BLUEPRINT_FILES) is None:
        pytest.skip("no blueprint shipped")
    return make_agent("blueprint", config=HoldemConfig.from_bb(stack_bb))


@pytest.mark.parametrize("board", [[0, 5, 22], [0, 1, 2, 3], [0, 4, 8, 12, 16],
                                   [12, 25, 38, 51, 50]])
def test_hand_strength_sweep_matches_twin(board: list[int]) -> None:
    st = np.zeros(1326, dtype=np.int32)
    combos_on_board_kernel(eval_tables(), C64, np.array(board, dtype=np.int64), len(board), st)
    fast = np.zeros(1326)
    slow = np.zeros(1326)
    hand_strength_all(st, C64, fast)
    hand_strength_all_py(st, C64, slow)
    np.testing.assert_array_equal(fast, slow)
    assert (fast[st == 0] == -1.0).all() and 0.0 <= fast[st > 0].min() <= fast.max() <= 1.0


def test_blueprint_bucket_vector_equals_per_combo_buckets() -> None:
    agent = _blueprint()
    for street, board in ((0, ()), (1, (3, 17, 40)), (2, (3, 17, 40, 41)),
                          (3, (3, 17, 40, 41, 9))):
        fast = bucket_vector(agent, street, board)
        slow = _bucket_vector_py(agent, street, board)
        np.testing.assert_array_equal(fast, slow)
        assert (fast >= 0).sum() == (1326 if street == 0 else
                                     int((~((COMBO_MASKS & np.uint64(cards_mask(list(board))))
                                            != 0)).sum()))


def test_tag_equities_kernel_matches_twin() -> None:
    import zlib

    board = [12, 22, 32, 40]
    blocked = (COMBO_MASKS & np.uint64(cards_mask(board))) != 0
    idx = np.nonzero(~blocked)[0][::97].astype(np.int64)
    seeds = np.array([zlib.crc32(bytes([int(COMBOS[j, 1]), int(COMBOS[j, 0]), 99, *board]))
                      for j in idx], dtype=np.int64)
    fast = np.full(1326, np.nan)
    slow = np.full(1326, np.nan)
    equity_vs_random_each(eval_tables(), C64, np.array(board, dtype=np.int64), 4,
                          cards_mask(board), idx, seeds, 2000, fast)
    equity_vs_random_each_py(board, idx, seeds, 2000, slow)
    np.testing.assert_array_equal(fast[idx], slow[idx])
    assert np.isnan(fast[~np.isin(np.arange(1326), idx)]).all()


def _tag_views() -> list:  # type: ignore[type-arg]
    cfg = HoldemConfig.from_bb(200)
    views = []
    st = HoldemState(config=cfg)
    st.deal_hole([0, 1])
    st.deal_hole([2, 3])
    views.append(st.view(1))  # unopened button
    st.raise_to(250)
    views.append(st.view(0))  # facing an open
    st.raise_to(900)
    views.append(st.view(1))  # facing a 3-bet
    st.check_or_call()
    st.deal_board([10, 20, 30])
    views.append(st.view(0))  # flop, first to act
    st.raise_to(st.bets[0] + 600)
    views.append(st.view(1))  # flop, facing a bet
    return views


def test_tag_range_query_equals_single_queries() -> None:
    from pokerlab.registry import make_agent

    tag = make_agent("tag")
    for view in _tag_views():
        blocked = (COMBO_MASKS & np.uint64(cards_mask(list(view.board) + list(view.hole)))) != 0
        live = ~blocked
        live[np.nonzero(live)[0][1::3]] = False  # a range with holes
        acts, probs = _all_hands(tag, view, live, vectorised=True)
        ref_acts, ref = _all_hands(tag, view, live, vectorised=False)
        assert not probs[~live].any()
        np.testing.assert_array_equal(probs[live].sum(axis=1), 1.0)
        for j in np.nonzero(live)[0][::41 if view.board else 7]:
            single = dict(tag.action_probabilities(_with_hole(view, (int(COMBOS[j, 1]),
                                                                      int(COMBOS[j, 0])))))
            got = {a: probs[j, k] for k, a in enumerate(acts) if probs[j, k] > 0}
            want = {a: ref[j, k] for k, a in enumerate(ref_acts) if ref[j, k] > 0}
            assert got == single == want


def _histories(agent, cfg, actions: str, deals: int, vectorised: bool):  # type: ignore[no-untyped-def]
    aset = parse_action_set(actions)
    out = []
    for d in range(deals):
        for seat in (0, 1):
            agent.reset(agent_seed(5, d, seat))
            sess = HoldemSession(agent, cfg, seat, deal_cards(5, d), aset, 1,
                                 vectorised=vectorised)
            v = play_lbr_hand(sess, draws(5, d, seat))
            out.append((v, tuple(sess.state.history), sess.range.copy()))
    return out


@pytest.mark.parametrize("actions", ["fc", "fcpa"])
def test_vectorised_lbr_equals_reference_hand_by_hand_blueprint(actions: str) -> None:
    agent = _blueprint()
    cfg = HoldemConfig.from_bb(100)
    fast = _histories(agent, cfg, actions, 8, True)
    slow = _histories(agent, cfg, actions, 8, False)
    for (v1, h1, r1), (v2, h2, r2) in zip(fast, slow, strict=True):
        assert h1 == h2 and v1 == v2
        np.testing.assert_array_equal(r1, r2)
    assert any(len([e for e in h if isinstance(e, BoardDealt)]) >= 1 for _, h, _ in fast)
    per = per_deal_holdem(agent, cfg, LBRConfig(actions=actions, hands=8, seed=5), range(8))
    np.testing.assert_array_equal(per.ravel(), [v for v, _, _ in fast])


def test_vectorised_lbr_equals_reference_hand_by_hand_tag() -> None:
    from pokerlab.registry import make_agent

    tag = make_agent("tag")
    cfg = HoldemConfig.from_bb(200)
    fast = _histories(tag, cfg, "fcpa", 2, True)
    slow = _histories(tag, cfg, "fcpa", 2, False)
    for (v1, h1, r1), (v2, h2, r2) in zip(fast, slow, strict=True):
        assert h1 == h2 and v1 == v2
        np.testing.assert_array_equal(r1, r2)


def test_pushfold_range_query_equals_single_queries() -> None:
    from pokerlab.registry import make_agent

    pf = make_agent("pushfold")
    cfg = HoldemConfig.from_bb(10)
    st = HoldemState(config=cfg)
    st.deal_hole([0, 1])
    st.deal_hole([2, 3])
    views = [st.view(1)]  # the button: shove or fold
    st.raise_to(cfg.stacks[1])
    views.append(st.view(0))  # the big blind facing a shove
    live = np.ones(1326, dtype=bool)
    for view in views:
        acts, probs = _all_hands(pf, view, live, vectorised=True)
        for j in range(0, 1326, 13):
            single = dict(pf.action_probabilities(_with_hole(view, (int(COMBOS[j, 1]),
                                                                     int(COMBOS[j, 0])))))
            got = {a: probs[j, k] for k, a in enumerate(acts) if probs[j, k] > 0}
            assert got.keys() == single.keys()
            for a in got:
                assert got[a] == pytest.approx(single[a], abs=1e-12)


@pytest.mark.parametrize("from_round", [1, 3])
def test_fc_kernel_equals_python_lbr_deal_by_deal(from_round: int) -> None:
    """Fold/call LBR in one kernel against the blueprint equals the Python hand loop deal
    by deal (same choices, same chips), from round 1 and from the turn."""
    from pokerlab.evaluation.lbr import fc_kernel_deals, fc_kernel_side

    agent = _blueprint()
    cfg = HoldemConfig.from_bb(100)
    assert fc_kernel_side(agent, cfg) is not None
    assert fc_kernel_side(agent, HoldemConfig.from_bb(150)) is None  # translation: Python
    lbr = LBRConfig(actions="fc", hands=300, seed=11, from_round=from_round)
    fast = fc_kernel_deals(agent, cfg, lbr, range(300))
    slow = per_deal_holdem(agent, cfg, lbr, range(300), kernel=False)
    assert fast is not None
    np.testing.assert_array_equal(fast, slow)
    assert np.abs(fast).sum() > 0 and (fast != 0).mean() > 0.5


def test_fc_kernel_with_table_buckets_equals_python_lbr() -> None:
    """The same with card tables (the potential-aware buckets' path), on fake tables."""
    from pokerlab.abstraction.buckets import BucketConfig, CardAbstraction
    from pokerlab.abstraction.hs_cards import TableBucketer
    from pokerlab.abstraction.indexer import street_indexer
    from pokerlab.agents.policy_agent import HUNLPolicyAgent
    from pokerlab.evaluation.lbr import fc_kernel_deals
    from pokerlab.games.hunl import HUNLGame

    base = _blueprint()
    counts = (169, 50, 50, 50)
    tables = [np.arange(169, dtype=np.uint16)]
    for s in (1, 2, 3):
        n = street_indexer(s).size
        idx = np.arange(n, dtype=np.uint64)
        tables.append((((idx * np.uint64(2654435761)) >> np.uint64(7)).astype(np.int64)
                       % counts[s]).astype(np.uint16))
    cards = CardAbstraction(config=BucketConfig(buckets=counts), tables=tables)
    game = HUNLGame(base.game.config, base.game.abstraction, cards)
    agent = HUNLPolicyAgent(base.policy, game, name="tables", bucketer=TableBucketer(cards))
    agent.card_spec = None  # the kernel side reads the tables, as for a pa policy
    assert agent.kernel_side().arrays[6] == 0  # table mode
    cfg = HoldemConfig.from_bb(100)
    lbr = LBRConfig(actions="fc", hands=120, seed=3)
    fast = fc_kernel_deals(agent, cfg, lbr, range(120))
    slow = per_deal_holdem(agent, cfg, lbr, range(120), kernel=False)
    assert fast is not None
    np.testing.assert_array_equal(fast, slow)


@pytest.mark.parametrize("stack_bb,actions,from_round,deals", [
    (100.0, "fcpa", 1, 30), (200.0, "56", 3, 12), (100.0, "56", 1, 6)])
def test_fold_vectors_after_raises_equal_the_child_range_queries(
        stack_bb: float, actions: str, from_round: int, deals: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """LBR's raise options read the agent's fold probabilities after each size from one
    ``nodes_after`` call (lbr.indexed_fold_vectors): the same hands, values and ranges as
    the range query at each child view, hand by hand."""
    import pokerlab.evaluation.lbr as lbr_mod

    agent = (_blueprint(stack_bb) if stack_bb == 100.0 else _blueprint_200())
    cfg = HoldemConfig.from_bb(stack_bb)
    calls = {"fast": 0}
    real_fn = lbr_mod.indexed_fold_vectors

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        out = real_fn(*a, **k)
        calls["fast"] += out is not None
        return out

    monkeypatch.setattr(lbr_mod, "indexed_fold_vectors", counted)
    aset = parse_action_set(actions)

    def run() -> list:  # type: ignore[type-arg]
        out = []
        for d in range(deals):
            for seat in (0, 1):
                agent.reset(agent_seed(7, d, seat))
                sess = HoldemSession(agent, cfg, seat, deal_cards(7, d), aset, from_round)
                v = play_lbr_hand(sess, draws(7, d, seat))
                out.append((v, tuple(sess.state.history), sess.range.copy()))
        return out

    fast = run()
    assert calls["fast"] > deals  # the fold vectors answered most raise evaluations
    monkeypatch.setattr(lbr_mod, "indexed_fold_vectors", lambda *a, **k: None)
    slow = run()
    for (v1, h1, r1), (v2, h2, r2) in zip(fast, slow, strict=True):
        assert h1 == h2 and v1 == v2
        np.testing.assert_array_equal(r1, r2)
    assert any(v != 0 for v, _, _ in fast)


def test_fold_vectors_equal_the_fold_column_at_each_child() -> None:
    from pokerlab.holdem.engine import Action, ActionKind
    from pokerlab.policy.range_query import indexed_fold_vectors

    agent = _blueprint_200()
    cfg = HoldemConfig.from_bb(200)
    st = HoldemState(config=cfg)
    cards = deal_cards(3, 0)
    st.deal_hole(cards[0:2])
    st.deal_hole(cards[2:4])
    st.apply(Action(kind=ActionKind.RAISE, amount=250))  # the button opens
    st.apply(Action(kind=ActionKind.CHECK_CALL))
    st.deal_board(cards[4:7])
    assert st.actor == 0  # the agent (seat 1) answers seat 0's raises
    live = ((COMBO_MASKS & np.uint64(cards_mask(cards[0:2] + cards[4:7]))) == 0)
    agent.reset(1)
    _all_hands(agent, st.view(1), live, vectorised=True)  # the first-use check
    lg = st.legal()
    sizes = sorted({lg.min_raise_to, 300, 412, 500, 777, 1000, 2400, lg.max_raise_to})
    acts = [Action(kind=ActionKind.RAISE, amount=int(x)) for x in sizes]
    got = indexed_fold_vectors(agent, st.view(1), acts, live)
    assert got is not None and len(got) == len(acts)
    for act, fold in zip(acts, got, strict=True):
        child = st.clone()
        child.apply(act)
        cols, probs = _all_hands(agent, child.view(1), live, vectorised=True)
        want = np.zeros(len(live))
        for k, a in enumerate(cols):
            if a.kind == ActionKind.FOLD:
                want = want + probs[:, k]
        np.testing.assert_array_equal(fold, want)
    assert max(float(f.max()) for f in got) > 0.5 and min(float(f[live].min()) for f in got) < 0.5


def _blueprint_200():  # type: ignore[no-untyped-def]
    from pokerlab.registry import BLUEPRINT_FILES, make_agent, shipped_policy

    if shipped_policy(BLUEPRINT_FILES) is None:
        pytest.skip("no blueprint shipped")
    return make_agent("blueprint-200", config=HoldemConfig.from_bb(200))
