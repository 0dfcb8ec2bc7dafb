from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction.action_map import CALL, FOLD, RAISE0, ActionMap, BetSetAbstraction
from pokerlab.abstraction.bets import parse_bet_set, preset
from pokerlab.abstraction.buckets import load_or_build
from pokerlab.abstraction.buckets import preset as bucket_preset
from pokerlab.abstraction.tree_count import tree_size
from pokerlab.games.hunl import HUNLGame
from pokerlab.games.protocol import CHANCE, TERMINAL, Game, State
from pokerlab.holdem.engine import HoldemConfig, HoldemState, IllegalActionError, Phase


def _game(bets: str = "default", stacks: float = 100, translation: str = "pseudo_harmonic"
          ) -> HUNLGame:
    return HUNLGame(HoldemConfig.from_bb(stacks),
                    BetSetAbstraction(bets=parse_bet_set(bets), translation=translation))


def test_protocol_and_random_hands() -> None:
    g = _game()
    assert isinstance(g, Game)
    assert g.num_distinct_actions() == RAISE0 + 4
    rng = np.random.default_rng(5)
    for _ in range(40):
        s = g.new_initial_state()
        assert isinstance(s, State)
        assert s.current_player() == CHANCE
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                s.apply_action(int(rng.choice([a for a, _ in outs])))
            else:
                acts = s.legal_actions()
                assert acts == sorted(acts) and CALL in acts
                assert (FOLD in acts) == (s.engine.to_call > 0)
                for a in acts:
                    assert s.action_to_string(a)
                key = s.information_state_string()
                assert key.startswith(f"[P{s.current_player()}]")
                c = s.child(int(rng.choice(acts)))
                assert c.engine.betting_string() != s.engine.betting_string()
                s = c
        r = s.returns()
        assert r[0] == -r[1] and s.current_player() == TERMINAL


def test_preflop_actions_and_amounts() -> None:
    g = _game("2.5x, 4x, a; 33%, 75%, a")
    s = g.new_initial_state()
    for c in (0, 1, 2, 3):
        s.apply_action(c)
    assert s.current_player() == 1  # the button acts first preflop
    assert s.legal_actions() == [FOLD, CALL, 2, 3, 4]
    assert [s.raise_amount(a) for a in (2, 3, 4)] == [250, 400, 10000]
    assert s.action_to_string(2) == "raise 2.5x to 250"
    s.apply_action(2)
    assert s.engine.bets == [100, 250]
    # big blind faces 250: 2.5x -> 625, 4x -> 1000
    assert [s.raise_amount(a) for a in (2, 3)] == [625, 1000]
    with pytest.raises(IllegalActionError, match="action 9"):
        s.raise_amount(9)
    with pytest.raises(IllegalActionError, match="action 9"):
        s.apply_action(9)


def test_translation_in_game() -> None:
    g = _game("2.5x, 4x, a; 33%, 75%, a")
    s = g.new_initial_state()
    for c in (0, 1, 2, 3):
        s.apply_action(c)
    # 250 is on the tree (2.5x): probability 1
    assert s.translate(250) == [(2, 1.0)]
    assert _game("2.5x, 4x, a; 33%, 75%, a", translation="nearest").action_map.translate(
        s.engine, 10000) == [(4, 1.0)]
    probs = s.translate(300)
    assert [a for a, _ in probs] == [2, 3] and abs(sum(p for _, p in probs) - 1) < 1e-12
    # pot 150, to call 50: x = (300-100)/200 = 1, A = 150/200, B = 300/200
    a, b, x = 0.75, 1.5, 1.0
    assert probs[0][1] == pytest.approx(((b - x) * (1 + a)) / ((b - a) * (1 + x)))


def _naive(st: HoldemState, bets, out: list[int]) -> None:  # type: ignore[no-untyped-def]
    while st.phase == Phase.DEAL_BOARD:
        st.deal_board(None)
    if st.phase == Phase.TERMINAL:
        out[8 if st.folded >= 0 else 9] += 1
        return
    amap = ActionMap(bets)
    acts = amap.abstract_actions(st)
    out[st.street] += 1
    out[4 + st.street] += len(acts)
    opts = dict(amap.raise_options(st))
    for a in acts:
        c = st.clone()
        if a == FOLD:
            c.fold()
        elif a == CALL:
            c.check_or_call()
        else:
            c.raise_to(opts[a])
        _naive(c, bets, out)


@pytest.mark.parametrize("bets, stacks", [("tiny", 100), ("small", 100), ("small", 20),
                                          ("preflop: 2x, 3x, a, cap 3; postflop: 50%, a, cap 2",
                                           30)])
def test_tree_size_matches_naive_count(bets: str, stacks: float) -> None:
    bs = parse_bet_set(bets)
    cfg = HoldemConfig.from_bb(stacks)
    ts = tree_size(bs, cfg, buckets=(169, 10, 10, 10))
    root = HoldemState(config=cfg)
    root.deal_hole(None)
    root.deal_hole(None)
    out = [0] * 10
    _naive(root, bs, out)
    assert ts.decision_nodes == out[0:4]
    assert ts.actions == out[4:8]
    assert (ts.terminal_folds, ts.terminal_showdowns) == (out[8], out[9])
    assert ts.infosets == out[0] * 169 + sum(out[1:4]) * 10
    assert ts.values == out[4] * 169 + sum(out[5:8]) * 10
    assert ts.memory_bytes == 2 * 4 * ts.values


def test_tree_size_tiny_by_hand() -> None:
    ts = tree_size(preset("tiny"), HoldemConfig.from_bb(100))
    # preflop: SB {f, c, a}; after c BB {k, a}; after a BB {f, c}; after c-a SB {f, c}
    assert ts.decision_nodes[0] == 4 and ts.actions[0] == 9
    assert ts.decision_nodes[1] == 6 and ts.actions[1] == 14


def test_information_state_with_buckets(tmp_path) -> None:  # type: ignore[no-untyped-def]
    ab, _ = load_or_build(bucket_preset("test"), root=tmp_path)
    g = HUNLGame(HoldemConfig.from_bb(50), BetSetAbstraction(bets=preset("tiny")), ab)
    s = g.new_initial_state()
    for c in (51, 50, 3, 7):  # AsAh for player 0, 2s3s for player 1
        s.apply_action(c)
    k1 = s.information_state_string(1)
    k0 = s.information_state_string(0)
    assert k0 != k1 and k0.startswith("[P0][b") and "As" not in k0
    # the preflop bucket of AsAh is its lossless class; the board is left out under buckets
    assert k0 == f"[P0][b{ab.bucket(0, [51, 50])}][][]"
