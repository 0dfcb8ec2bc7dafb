"""Agents: views never leak the opponent's cards, every agent acts legally, illegal actions
are clear errors, rule agents do what their docs say, policy agents map through the
ActionMap."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from policy_helpers import random_indexed_policy

from pokerlab.agents import (
    AgentError,
    BoardDealt,
    CheckedOrCalled,
    HoleDealt,
    PlayerView,
    RaisedTo,
    Shown,
    checked_act,
)
from pokerlab.agents.oracle import random_config
from pokerlab.agents.random_agent import DEFAULT_WEIGHTS, RandomAgent, SplitMix64, play_hand
from pokerlab.agents.rules import preflop_quantiles, pushfold_strategies
from pokerlab.cards.cards import COMBO_INDEX, parse_cards
from pokerlab.holdem.engine import (
    Action,
    ActionKind,
    HoldemConfig,
    HoldemState,
    Phase,
)
from pokerlab.registry import make_agent


def _view_cards(v: PlayerView) -> set[int]:
    cards = set(v.hole) | set(v.board)
    for e in v.events:
        if isinstance(e, (HoleDealt, Shown, BoardDealt)):
            cards |= set(e.cards)
    return cards


def _check_view(st: HoldemState, p: int) -> None:
    v = st.view(p)
    opp = {c for c in st.hole[1 - p] if c >= 0}
    assert not (_view_cards(v) & opp)
    assert v.hole == tuple(st.hole[p])
    assert all(e.player == p for e in v.events if isinstance(e, (HoleDealt, Shown)))
    assert v.pot == st.pot and v.stacks == tuple(st.stacks) and v.bets == tuple(st.bets)


def test_views_never_hold_the_opponents_cards() -> None:
    """Property test: random configs and random hands, every state, both players."""
    rng = random.Random(11)
    checked = 0
    for i in range(150):
        cfg = random_config(rng)
        st = HoldemState(config=cfg)
        r = SplitMix64(1000 + i)
        from pokerlab.agents.random_agent import choose, deal_cards

        cs = deal_cards(r)
        st.deal_hole(cs[0:2])
        st.deal_hole(cs[2:4])
        pos = 4
        while st.phase != Phase.TERMINAL:
            for p in (0, 1):
                _check_view(st, p)
                checked += 1
            if st.phase == Phase.DEAL_BOARD:
                n = st.cards_due()
                st.deal_board(cs[pos:pos + n])
                pos += n
            else:
                v = st.view(st.actor)
                assert v.is_acting and v.legal() == st.legal()
                # the view alone rebuilds the public state
                rs = v.replay_state()
                assert (rs.pot, rs.stacks, rs.bets, rs.to_call, rs.actor) == (
                    st.pot, st.stacks, st.bets, st.to_call, st.actor)
                assert rs.hole[1 - st.actor] == [-1, -1]
                st.apply(choose(st.legal(), r, DEFAULT_WEIGHTS))
        for p in (0, 1):  # terminal: showdown events of the opponent are left out
            _check_view(st, p)
    assert checked > 1000


def test_view_events_are_typed() -> None:
    st = HoldemState(config=HoldemConfig.from_bb(100))
    st.deal_hole(parse_cards("AsAh"))
    st.deal_hole(parse_cards("KdKc"))
    st.raise_to(300)
    st.check_or_call()
    st.deal_board(parse_cards("2c3d4h"))
    v = st.view(0)
    assert v.events == (HoleDealt(0, tuple(parse_cards("AsAh"))), RaisedTo(1, 300),
                        CheckedOrCalled(0, 200), BoardDealt(1, tuple(parse_cards("2c3d4h"))))
    assert v.street == 1 and v.to_call == 0 and v.can_raise and not v.can_fold


class _Bad:
    name = "bad"

    def reset(self, seed: int) -> None:
        pass

    def act(self, view: PlayerView) -> Action:
        return Action(kind=ActionKind.RAISE, amount=view.max_raise_to + 1)


def test_illegal_action_is_a_clear_error_and_state_unchanged() -> None:
    st = HoldemState(config=HoldemConfig.from_bb(100))
    st.deal_hole(parse_cards("AsAh"))
    st.deal_hole(parse_cards("KdKc"))
    before = repr(st), list(st.history)
    with pytest.raises(AgentError, match=r"agent 'bad' chose the illegal action cbr 10001"):
        checked_act(_Bad(), st)
    assert (repr(st), list(st.history)) == before


@pytest.mark.parametrize("stack", [10, 200])
def test_every_rule_agent_acts_legally(stack: int) -> None:
    cfg = HoldemConfig.from_bb(stack)
    specs = ["random", "call", "raise", "tag", "pushfold"]
    agents = [make_agent(s, config=cfg) for s in specs]
    rng = random.Random(stack)
    for i in range(25):
        a, b = rng.choice(agents), rng.choice(agents)
        a.reset(i)
        b.reset(i + 1)
        st = HoldemState(config=cfg)
        cs = rng.sample(range(52), 9)
        st.deal_hole(cs[0:2])
        st.deal_hole(cs[2:4])
        pos = 4
        while st.phase != Phase.TERMINAL:
            if st.phase == Phase.DEAL_BOARD:
                n = st.cards_due()
                st.deal_board(cs[pos:pos + n])
                pos += n
            else:
                ag = (a, b)[st.actor]
                act = checked_act(ag, st)  # raises if illegal
                probs = ag.action_probabilities(st.view(st.actor))
                assert abs(sum(p for _, p in probs) - 1.0) < 1e-9
                assert all(st.legal().is_legal(x) for x, _ in probs)
                st.apply(act)


def _preflop(cfg: HoldemConfig, hole0: str, hole1: str) -> HoldemState:
    st = HoldemState(config=cfg)
    st.deal_hole(parse_cards(hole0))
    st.deal_hole(parse_cards(hole1))
    return st


def test_raise_agent_bets_the_pot_and_shoves_when_short() -> None:
    cfg = HoldemConfig.from_bb(200)
    st = _preflop(cfg, "2c3d", "AsAh")
    ag = make_agent("raise")
    # button: call 50, then raise by the pot of 200 -> to 300
    assert ag.act(st.view(1)) == Action(kind=ActionKind.RAISE, amount=300)
    st.raise_to(300)
    # big blind: call 200, pot 600 after calling -> to 300 + 600 = 900
    assert ag.act(st.view(0)) == Action(kind=ActionKind.RAISE, amount=900)
    short = _preflop(HoldemConfig.from_bb(2.5), "2c3d", "AsAh")
    assert ag.act(short.view(1)) == Action(kind=ActionKind.RAISE, amount=250)
    assert make_agent("call").act(st.view(0)) == Action(kind=ActionKind.CHECK_CALL)


def test_tag_chart() -> None:
    cfg = HoldemConfig.from_bb(100)
    ag = make_agent("tag")
    q = preflop_quantiles()
    assert q[COMBO_INDEX[parse_cards("AsAh")[0], parse_cards("AsAh")[1]]] == 1.0
    aa = _preflop(cfg, "KdKc", "AsAh")
    assert ag.act(aa.view(1)) == Action(kind=ActionKind.RAISE, amount=250)
    junk = _preflop(cfg, "KdKc", "7c2d")
    assert ag.act(junk.view(1)) == Action(kind=ActionKind.FOLD)
    # postflop: the nuts bets 75% of the pot, air checks
    st = _preflop(cfg, "7c2d", "AsAh")
    st.check_or_call()
    st.check_or_call()
    st.deal_board(parse_cards("AdAcKh"))
    assert ag.act(st.view(0)) == Action(kind=ActionKind.CHECK_CALL)  # 72 on AAK: check
    st.check_or_call()
    assert ag.act(st.view(1)) == Action(kind=ActionKind.RAISE, amount=150)


def test_pushfold_plays_the_exact_equilibrium_when_short() -> None:
    cfg = HoldemConfig.from_bb(10)
    ag = make_agent("pushfold")
    shove, call = pushfold_strategies(10.0, 0.0)
    for hole in ("AsAh", "7c2d", "Ts9s", "Kd4c"):
        c = parse_cards(hole)
        st = _preflop(cfg, "3c3d" if "3" not in hole else "4c4d", hole)
        probs = dict(ag.action_probabilities(st.view(1)))
        p_shove = probs.get(Action(kind=ActionKind.RAISE, amount=1000), 0.0)
        assert p_shove == pytest.approx(shove[COMBO_INDEX[c[0], c[1]]])
    st = _preflop(cfg, "AsAh", "7c2d")
    st.raise_to(1000)
    probs = dict(ag.action_probabilities(st.view(0)))
    assert probs[Action(kind=ActionKind.CHECK_CALL)] == pytest.approx(
        call[COMBO_INDEX[parse_cards("AsAh")[0], parse_cards("AsAh")[1]]])
    # deep: falls back to tag
    deep = _preflop(HoldemConfig.from_bb(100), "KdKc", "AsAh")
    assert ag.act(deep.view(1)) == make_agent("tag").act(deep.view(1))


def test_random_agent_is_the_old_one() -> None:
    st_a = play_hand(HoldemState(config=HoldemConfig()), SplitMix64(5), DEFAULT_WEIGHTS)
    from pokerlab.agents.random_agent import play_hand as old_play_hand

    st_b = old_play_hand(HoldemState(config=HoldemConfig()), SplitMix64(5), DEFAULT_WEIGHTS)
    assert st_a.history == st_b.history
    ag = RandomAgent()
    st = _preflop(HoldemConfig(), "AsAh", "KdKc")
    probs = ag.action_probabilities(st.view(1))
    assert abs(sum(p for _, p in probs) - 1.0) < 1e-9


def test_agent_spec_errors(tmp_path: Path) -> None:
    with pytest.raises(AgentError, match="unknown agent 'nope'"):
        make_agent("nope")
    with pytest.raises(AgentError, match="does not exist"):
        make_agent(f"policy:{tmp_path / 'missing.npz'}")
    with pytest.raises(AgentError, match="needs a file"):
        make_agent("policy:")
    from pokerlab.registry import THESIS_FILES, shipped_policy

    if shipped_policy(THESIS_FILES) is None:
        with pytest.raises(AgentError, match="no thesis policy is installed"):
            make_agent("thesis")
    with pytest.raises(AgentError, match="unknown agent 'tag' for kuhn"):
        make_agent("tag", game="kuhn")


# --------------------------------------------------------------------- policy agents
GAME = "hunl(stack=20,bets=small,buckets=test)"


def _indexed_policy(path: Path, seed: int, game: str = GAME) -> str:
    return random_indexed_policy(path, seed, game)


def test_policy_agent_reads_the_row_of_its_node_and_bucket(tmp_path: Path) -> None:
    from pokerlab.abstraction.action_tree import compile_tree

    spec = _indexed_policy(tmp_path / "p.npz", 1)
    cfg = HoldemConfig.from_bb(20)
    ag = make_agent(spec, config=cfg)
    st = _preflop(cfg, "KdKc", "AsAh")
    tree = compile_tree(ag.map.bets, ag.game.config)
    bucket = ag.bucket(0, (parse_cards("AsAh")[0], parse_cards("AsAh")[1]), ())
    row = ag.policy.probabilities(0, bucket)
    probs = ag.action_probabilities(st.view(1))
    want = {ag.map.to_real(st, a): p for a, p in zip(tree.actions(0), row, strict=True)}
    assert len(probs) == len(want)
    for act, p in probs:
        assert p == pytest.approx(want[act], rel=1e-6)


def test_policy_agent_translates_off_tree_bets(tmp_path: Path) -> None:
    spec = _indexed_policy(tmp_path / "p.npz", 2)
    cfg = HoldemConfig.from_bb(20)
    ag = make_agent(spec, config=cfg)
    st = _preflop(cfg, "KdKc", "AsAh")
    st.raise_to(370)  # "small" preflop has 3x (300) and all-in (2000): 370 is off the tree
    real, ab, ids, ok = ag.track(st.view(0))
    assert ok and ids[0] in (2, 3) and ab.actor == 0
    probs = ag.action_probabilities(st.view(0))
    assert all(st.legal().is_legal(a) for a, _ in probs)
    # a different table size (stacks 50 bb): still legal real actions every decision
    deep = HoldemConfig.from_bb(50)
    ag2 = make_agent(spec, config=deep)
    for seed in range(20):
        rng = random.Random(seed)
        st = HoldemState(config=deep)
        cs = rng.sample(range(52), 9)
        st.deal_hole(cs[0:2])
        st.deal_hole(cs[2:4])
        pos = 4
        opp = RandomAgent(seed=seed)
        ag2.reset(seed)
        while st.phase != Phase.TERMINAL:
            if st.phase == Phase.DEAL_BOARD:
                n = st.cards_due()
                st.deal_board(cs[pos:pos + n])
                pos += n
            else:
                st.apply(checked_act(ag2 if st.actor == 0 else opp, st))


def test_policy_file_for_another_game_is_refused(tmp_path: Path) -> None:
    from pokerlab.games import load_game
    from pokerlab.policy import save_policy
    from pokerlab.solvers.driver import solve

    res = solve(load_game("kuhn"), algo="cfr", iterations=10)
    pol = res.policy
    pol.metadata["game"] = "kuhn"
    save_policy(pol, tmp_path / "k.npz")
    with pytest.raises(AgentError, match="is for 'kuhn', not hunl"):
        make_agent(f"policy:{tmp_path / 'k.npz'}")
    ag = make_agent(f"policy:{tmp_path / 'k.npz'}", game="kuhn")
    st = load_game("kuhn").new_initial_state()
    st.apply_action(0)
    st.apply_action(1)
    assert ag.act_state(st, 0) in st.legal_actions()
