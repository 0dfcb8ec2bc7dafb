"""Tic-tac-toe on the :mod:`pokerlab.games.protocol` protocol.

A perfect-information, two-player, zero-sum game without chance nodes. Player 0 is ``x``
and moves first, player 1 is ``o``. Action ``a`` (0..8) marks cell ``a``, row-major from
the top-left corner: row ``a // 3``, column ``a % 3``; ``action_to_string`` follows
OpenSpiel (``"x(1,1)"`` is the centre for x).

The information-state key of either player is the position itself, written as three rows
of ``x``/``o``/``.`` separated by newlines (OpenSpiel's ``ToString``/observation string).
:meth:`TicTacToeState.to_tensor` gives the ``[2, 3, 3]`` float32 tensor networks use: one
channel per player, either absolute (channel 0 = x) or from a player's point of view
(channel 0 = that player's marks).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import pokerlab.games as _games
from pokerlab.errors import PokerlabError
from pokerlab.games.protocol import TERMINAL, CloneChild, GameInfo, NamedTwoPlayerGame

EMPTY = -1
MARKS = "xo"
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)
_CHAR = {EMPTY: ".", 0: "x", 1: "o"}
_LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if a in line) for a in range(9)
)


class IllegalMoveError(PokerlabError):
    """An action is out of range, marks an occupied cell or is played after the game ended."""


class TicTacToeState(CloneChild):
    """A tic-tac-toe position plus its move history. Mutable; ``child`` copies."""

    __slots__ = ("_board", "_history", "_next", "_winner")

    def __init__(self) -> None:
        self._board: list[int] = [EMPTY] * 9
        self._history: list[int] = []
        self._next = 0
        self._winner = EMPTY  # EMPTY while nobody has three in a row

    # -- protocol -----------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self._next

    def is_terminal(self) -> bool:
        return self._winner != EMPTY or len(self._history) == 9

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [i for i in range(9) if self._board[i] == EMPTY]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise IllegalMoveError(f"action {action!r}: the game is over")
        if type(action) is not int:
            if not isinstance(action, np.integer):
                raise IllegalMoveError(f"action {action!r} is not a cell 0..8")
            action = int(action)
        a = action
        if not 0 <= a < 9:
            raise IllegalMoveError(f"action {action!r} is not a cell 0..8")
        if self._board[a] != EMPTY:
            raise IllegalMoveError(
                f"action {a} ({self._cell_name(a)}) marks a cell already taken by "
                f"{MARKS[self._board[a]]}"
            )
        p = self._next
        self._board[a] = p
        self._history.append(a)
        b = self._board
        for i, j, k in _LINES_THROUGH[a]:
            if b[i] == p and b[j] == p and b[k] == p:
                self._winner = p
                break
        self._next = 1 - p

    def clone(self) -> TicTacToeState:
        c = TicTacToeState.__new__(TicTacToeState)
        c._board = list(self._board)
        c._history = list(self._history)
        c._next = self._next
        c._winner = self._winner
        return c

    def returns(self) -> list[float]:
        if self._winner == 0:
            return [1.0, -1.0]
        if self._winner == 1:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def information_state_string(self, player: int | None = None) -> str:
        if player is not None and player not in (0, 1):
            raise IllegalMoveError(f"player {player!r} is not 0 or 1")
        return str(self)

    def public_state_string(self) -> str:
        return str(self)

    def action_to_string(self, action: int) -> str:
        if not 0 <= int(action) < 9:
            raise IllegalMoveError(f"action {action!r} is not a cell 0..8")
        player = self._next if not self.is_terminal() else 1 - self._next
        return f"{MARKS[player]}{self._cell_name(int(action))}"

    # -- extras ---------------------------------------------------------------------------
    @staticmethod
    def _cell_name(a: int) -> str:
        return f"({a // 3},{a % 3})"

    def board(self) -> tuple[int, ...]:
        """The 9 cells, row-major: ``-1`` empty, ``0`` x, ``1`` o."""
        return tuple(self._board)

    def history(self) -> list[int]:
        return list(self._history)

    def winner(self) -> int | None:
        """The player with three in a row, or ``None`` (game running or drawn)."""
        return None if self._winner == EMPTY else self._winner

    def to_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """``[2, 3, 3]`` float32 planes of marks.

        With ``player=None`` channel 0 holds x's marks and channel 1 o's; with a player id
        channel 0 holds that player's marks and channel 1 the opponent's.
        """
        if player is not None and player not in (0, 1):
            raise IllegalMoveError(f"player {player!r} is not 0 or 1")
        me = 0 if player is None else player
        b = self._board
        planes = [1.0 if v == me else 0.0 for v in b] + [1.0 if v == 1 - me else 0.0 for v in b]
        return np.array(planes, dtype=np.float32).reshape(2, 3, 3)

    def __str__(self) -> str:
        c = "".join([_CHAR[v] for v in self._board])
        return f"{c[0:3]}\n{c[3:6]}\n{c[6:9]}"

    def __repr__(self) -> str:
        return f"TicTacToeState({''.join(str(self).splitlines())!r})"


class TicTacToeGame(NamedTwoPlayerGame, name="tictactoe", actions=9):
    """The game object: ``TicTacToeGame().new_initial_state()`` is the empty board."""

    def info(self) -> GameInfo:
        return GameInfo(num_players=2, num_distinct_actions=9, zero_sum=True, min_utility=-1.0,
                        max_utility=1.0, private_cards_first=False, max_game_length=9,
                        big_blind=1.0, perfect_recall=False)  # the key is the board only

    def new_initial_state(self) -> TicTacToeState:
        return TicTacToeState()

    def state_tensor_shape(self) -> tuple[int, int, int]:
        return (2, 3, 3)

    @property
    def board_symmetry(self) -> str:
        """The last two tensor dimensions are a square board whose 8 rotations and
        reflections preserve every value (learners may augment with them)."""
        return "dihedral"

    def state_from_moves(self, moves: list[int]) -> TicTacToeState:
        """Replay ``moves`` (cells 0..8) from the empty board."""
        s = TicTacToeState()
        for a in moves:
            s.apply_action(a)
        return s


def parse_cell(text: str) -> int:
    """Parse a cell typed by a person: ``"1".."9"`` (row-major from top-left) or ``"r,c"``."""
    t = text.strip().replace(" ", ",")
    if t.isdigit() and len(t) == 1 and t != "0":
        return int(t) - 1
    parts = [p for p in t.strip("()").split(",") if p]
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        r, c = int(parts[0]), int(parts[1])
        if 0 <= r < 3 and 0 <= c < 3:
            return r * 3 + c
    raise IllegalMoveError(
        f"bad cell {text!r}: type 1-9 (row-major from top-left) or 'row,col' (0-2)"
    )


_register = getattr(_games, "register_game", None)
if _register is not None:
    _register("tictactoe", TicTacToeGame)
