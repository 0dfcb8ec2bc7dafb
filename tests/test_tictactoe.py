"""Tic-tac-toe rules, protocol conformance, the exact solver's facts, OpenSpiel parity."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.games.protocol import TERMINAL, Game, State
from pokerlab.games.tictactoe import IllegalMoveError, TicTacToeGame, parse_cell
from pokerlab.selfplay.minimax import MinimaxSolver, count_positions


def test_protocol_conformance() -> None:
    g = TicTacToeGame()
    s = g.new_initial_state()
    assert isinstance(g, Game)
    assert isinstance(s, State)
    assert g.name == "tictactoe"
    assert g.num_players == 2
    assert g.num_distinct_actions() == 9
    assert s.current_player() == 0
    assert s.legal_actions() == list(range(9))
    assert not s.is_chance_node()
    assert s.chance_outcomes() == []
    assert s.returns() == [0.0, 0.0]


def test_x_wins_row_and_returns() -> None:
    s = TicTacToeGame().state_from_moves([0, 3, 1, 4, 2])
    assert s.is_terminal()
    assert s.current_player() == TERMINAL
    assert s.winner() == 0
    assert s.returns() == [1.0, -1.0]
    assert s.legal_actions() == []
    assert str(s) == "xxx\noo.\n..."


def test_o_wins_diagonal() -> None:
    s = TicTacToeGame().state_from_moves([1, 2, 3, 4, 8, 6])
    assert s.winner() == 1
    assert s.returns() == [-1.0, 1.0]


def test_draw() -> None:
    s = TicTacToeGame().state_from_moves([0, 4, 8, 1, 7, 6, 2, 5, 3])
    assert s.is_terminal()
    assert s.winner() is None
    assert s.returns() == [0.0, 0.0]


def test_illegal_moves_raise_naming_value() -> None:
    s = TicTacToeGame().new_initial_state()
    s.apply_action(4)
    with pytest.raises(IllegalMoveError, match="action 4"):
        s.apply_action(4)
    with pytest.raises(IllegalMoveError, match="9"):
        s.apply_action(9)
    with pytest.raises(PokerlabError):
        s.apply_action(-1)
    done = TicTacToeGame().state_from_moves([0, 3, 1, 4, 2])
    with pytest.raises(IllegalMoveError, match="over"):
        done.apply_action(8)


def test_child_clone_independent() -> None:
    s = TicTacToeGame().new_initial_state()
    c = s.child(4)
    assert s.legal_actions() == list(range(9))
    assert c.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8]
    d = c.clone()
    d.apply_action(0)
    assert c.board()[0] == -1 and d.board()[0] == 1
    assert d.history() == [4, 0]


def test_strings() -> None:
    s = TicTacToeGame().state_from_moves([4])
    assert s.action_to_string(0) == "o(0,0)"
    assert TicTacToeGame().new_initial_state().action_to_string(4) == "x(1,1)"
    assert s.information_state_string(0) == s.information_state_string(1) == "...\n.x.\n..."
    assert s.public_state_string() == "...\n.x.\n..."


def test_tensor_shape_and_perspective() -> None:
    s = TicTacToeGame().state_from_moves([0, 8, 4])
    t = s.to_tensor()
    assert t.shape == (2, 3, 3) and t.dtype == np.float32
    assert t[0].sum() == 2 and t[1].sum() == 1
    assert t[0, 0, 0] == 1 and t[0, 1, 1] == 1 and t[1, 2, 2] == 1
    np.testing.assert_array_equal(s.to_tensor(0), t)
    np.testing.assert_array_equal(s.to_tensor(1), t[::-1])
    with pytest.raises(IllegalMoveError):
        s.to_tensor(2)


def test_parse_cell() -> None:
    assert parse_cell("1") == 0
    assert parse_cell("9") == 8
    assert parse_cell("1,2") == 5
    assert parse_cell(" 2 0 ") == 6
    for bad in ("0", "10", "3,3", "a", ""):
        with pytest.raises(IllegalMoveError):
            parse_cell(bad)


def test_exact_solver_facts() -> None:
    g = TicTacToeGame()
    assert count_positions(g) == 5478
    solver = MinimaxSolver(game=g)
    assert solver.solve() == 0.0
    assert solver.num_positions == 5478
    root = g.new_initial_state()
    # every opening draws with best play; o must answer a corner opening in the centre
    assert solver.action_values(root) == {a: 0.0 for a in range(9)}
    assert solver.optimal_actions(root.child(0)) == [4]
    # x to move with a double threat wins
    s = g.state_from_moves([0, 3, 4, 8])
    assert solver.value(s) == 1.0
    assert solver.optimal_actions(s) == [1, 2]  # both make a double threat


def test_random_games_match_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    ref_game = pyspiel.load_game("tic_tac_toe")
    rng = np.random.default_rng(7)
    for _ in range(200):
        s = TicTacToeGame().new_initial_state()
        r = ref_game.new_initial_state()
        while not r.is_terminal():
            assert s.legal_actions() == list(r.legal_actions())
            assert s.current_player() == r.current_player()
            assert s.public_state_string() == str(r)
            a = int(rng.choice(s.legal_actions()))
            assert s.action_to_string(a) == r.action_to_string(r.current_player(), a)
            s.apply_action(a)
            r.apply_action(a)
        assert s.is_terminal()
        assert s.returns() == list(r.returns())
        assert s.public_state_string() == str(r)
