"""The shared pieces of the small two-player games (pokerlab.games.two_player): the helpers
and the bases Kuhn, 8-card poker, von Neumann poker, Leduc, Flop Hold'em, push/fold and the
spot game build on."""

from __future__ import annotations

from typing import Any

import pytest

from pokerlab.errors import ConfigError
from pokerlab.games import load_game
from pokerlab.games.flop_holdem import FlopHoldem
from pokerlab.games.protocol import CHANCE, TERMINAL
from pokerlab.games.two_player import (
    CALL,
    FOLD,
    RAISE,
    DealThenBetState,
    OneHandEachState,
    TwoPlayerState,
    info_state_player,
    limit_actions,
    uniform_outcomes,
)
from pokerlab.pushfold.game import PushFoldConfig, PushFoldGame, synthetic_equity_matrix


def _play(game: str, actions: list[int]) -> Any:
    st = load_game(game).new_initial_state()
    for a in actions:
        st.apply_action(a)
    return st


def test_helpers() -> None:
    assert uniform_outcomes([4, 7, 9, 11]) == [(4, 0.25), (7, 0.25), (9, 0.25), (11, 0.25)]
    assert limit_actions(facing=True, can_raise=True) == [FOLD, CALL, RAISE] == [0, 1, 2]
    assert limit_actions(facing=False, can_raise=True) == [1, 2]
    assert limit_actions(facing=True, can_raise=False) == [0, 1]
    assert limit_actions(facing=False, can_raise=False) == [1]
    st = _play("kuhn", [2, 0])
    assert info_state_player(st, None) == 0
    assert info_state_player(st, 1) == 1
    with pytest.raises(ConfigError, match="no information state for player 2"):
        info_state_player(st, 2)
    with pytest.raises(ConfigError, match="no information state for player -1"):
        _play("kuhn", [2]).information_state_string()  # chance to act


@pytest.mark.parametrize("game", ["kuhn", "eight_card", "vonneumann(num_hands=4)", "leduc",
                                  "flop_holdem", "pushfold"])
def test_every_small_game_uses_the_bases(game: str) -> None:
    if game == "flop_holdem":
        g: Any = FlopHoldem(ranks=(0, 1, 2))
    elif game == "pushfold":
        g = PushFoldGame(config=PushFoldConfig(stack=10.0), equity=synthetic_equity_matrix(0))
    else:
        g = load_game(game)
    st = g.new_initial_state()
    assert issubclass(type(st), TwoPlayerState)
    assert st.current_player() == CHANCE and st.returns() == [0.0, 0.0]
    # the deal is uniform and sums to one
    out = st.chance_outcomes()
    assert sum(p for _, p in out) == pytest.approx(1.0)
    assert len({p for _, p in out}) == 1


def test_kuhn_and_von_neumann_share_one_hand_each() -> None:
    for game, hands in (("kuhn", 3), ("eight_card", 8), ("vonneumann(num_hands=5)", 5)):
        st = _play(game, [])
        assert issubclass(type(st), OneHandEachState) and issubclass(type(st), DealThenBetState)
        assert [a for a, _ in st.chance_outcomes()] == list(range(hands))
    # Kuhn deals without replacement, von Neumann with
    assert [a for a, _ in _play("kuhn", [1]).chance_outcomes()] == [0, 2]
    assert [a for a, _ in _play("vonneumann(num_hands=3)", [1]).chance_outcomes()] == [0, 1, 2]
    st = _play("kuhn", [2, 0, 0, 1])  # pass, bet: player 0 to act
    assert st.current_player() == 0
    assert st.information_state_string() == "2pb" and st.information_state_string(1) == "0pb"
    assert st.public_state_string() == "pb|xx"
    assert str(st) == "2 0 pb"
    assert st.action_to_string(0) == "Pass" and _play("kuhn", []).action_to_string(1) == "Deal:1"
    c = st.clone()
    c.apply_action(1)
    assert st.history == [0, 1] and c.history == [0, 1, 1]
    assert c.current_player() == TERMINAL
    with pytest.raises(ConfigError, match="illegal deal 3 in vonneumann"):
        _play("vonneumann(num_hands=3)", [3])
    with pytest.raises(ConfigError, match="illegal action 2 in kuhn"):
        _play("kuhn", [0, 1, 2])


@pytest.mark.parametrize(("game", "actions", "returns"), [
    ("kuhn", [2, 0, 0, 0], [1.0, -1.0]),         # check, check: K wins the antes
    ("kuhn", [0, 2, 1, 1], [-2.0, 2.0]),         # bet, call: the higher card wins 2
    ("kuhn", [2, 0, 1, 0], [1.0, -1.0]),         # bet, fold
    ("kuhn", [0, 2, 0, 1, 0], [-1.0, 1.0]),      # check, bet, fold
    ("kuhn", [2, 1, 0, 1, 1], [2.0, -2.0]),      # check, bet, call
    ("vonneumann(num_hands=4,bet=2)", [3, 1, 0], [1.0, -1.0]),        # check: antes
    ("vonneumann(num_hands=4,bet=2)", [1, 3, 1, 1], [-3.0, 3.0]),     # bet, call: ante + bet
    ("vonneumann(num_hands=4,bet=2)", [1, 3, 1, 0], [1.0, -1.0]),     # bet, fold: the antes
    ("vonneumann(num_hands=4,bet=2)", [2, 2, 1, 1], [0.0, 0.0]),      # equal hands split
    ("vonneumann(num_hands=4,ante=0.5,bet=1.5)", [2, 1, 1, 1], [2.0, -2.0]),
])
def test_returns(game: str, actions: list[int], returns: list[float]) -> None:
    st = _play(game, actions[:-1])
    assert st.returns() == [0.0, 0.0]
    st.apply_action(actions[-1])
    assert st.is_terminal()
    assert st.returns() == returns
