"""The one extensive-form game protocol every pokerlab game implements.

Names follow OpenSpiel so that its users feel at home and conversion is direct:

* ``state.current_player()`` is a player id ``0..n-1``, :data:`CHANCE` (-1) or
  :data:`TERMINAL` (-4).
* ``state.legal_actions()`` lists integer action ids (ascending) for the player to act.
* ``state.chance_outcomes()`` lists ``(action, probability)`` at chance nodes.
* ``state.apply_action(a)`` mutates the state in place; ``state.child(a)`` returns a new
  state and leaves ``state`` unchanged; ``state.clone()`` copies.
* ``state.returns()`` gives each player's utility at a terminal state (zeros elsewhere).
* ``state.information_state_string(player)`` is the key of the acting player's information
  set (a string that is equal for states the player cannot tell apart);
  ``state.public_state_string()`` is the key of the public state.
* ``state.action_to_string(action)`` is a short readable action name.

Games expose their static facts as one :class:`GameInfo` (``game.info()``).  Unlike
OpenSpiel, ``game.num_players`` is a *property* (an int) in every pokerlab game, never a
method; ``game.num_distinct_actions()`` is a method as in OpenSpiel.

Algorithms in :mod:`pokerlab.solvers` and :mod:`pokerlab.evaluation` see only this
protocol (or an array compilation of it), never a concrete game module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

CHANCE = -1
TERMINAL = -4


@dataclass(frozen=True, kw_only=True)
class GameInfo:
    """Static facts of a game (OpenSpiel's ``GameType``/``Game`` getters in one record).

    * ``num_players``: players, chance excluded.
    * ``num_distinct_actions``: player action ids are ``0..num_distinct_actions-1``.
    * ``zero_sum``: returns sum to zero at every terminal.
    * ``min_utility`` / ``max_utility``: bounds of any player's return, in chips.
    * ``private_cards_first``: every chance event that deals private information happens
      before the first player action (card games dealing hole cards first; False for
      games without private information such as tic-tac-toe).
    * ``max_game_length``: the most player actions (decisions, chance excluded) any play
      of the game takes, as OpenSpiel's ``max_game_length``.
    * ``big_blind``: the chip unit of ``mbb`` figures (1000 mbb = one big blind); 1 for
      games without blinds (Kuhn, Leduc, 8-card poker: their ante), so mbb = milli-chips.
    * ``perfect_recall``: ``information_state_string`` tells apart any two histories in
      which the player saw or did different things (False for tic-tac-toe, whose key is the
      board only); tabular CFR, MCCFR and the LP need it.
    """

    num_players: int
    num_distinct_actions: int
    zero_sum: bool
    min_utility: float
    max_utility: float
    private_cards_first: bool
    max_game_length: int
    big_blind: float = 1.0
    perfect_recall: bool = True

    def to_json(self) -> dict[str, int | float | bool]:
        return {
            "num_players": self.num_players,
            "num_distinct_actions": self.num_distinct_actions,
            "zero_sum": self.zero_sum,
            "min_utility": self.min_utility,
            "max_utility": self.max_utility,
            "private_cards_first": self.private_cards_first,
            "max_game_length": self.max_game_length,
            "big_blind": self.big_blind,
            "perfect_recall": self.perfect_recall,
        }


def game_info(game: object) -> GameInfo | None:
    """``game.info()`` when the game offers it, else None (games from outside pokerlab)."""
    fn = getattr(game, "info", None)
    if fn is None or not callable(fn):
        return None
    info = fn()
    return info if isinstance(info, GameInfo) else None


def big_blind_of(game: object) -> float:
    """The chip unit of mbb figures for ``game`` (``info().big_blind``, else 1)."""
    info = game_info(game)
    return 1.0 if info is None else float(info.big_blind)


_C = TypeVar("_C", bound="_Clonable")


class _Clonable(Protocol):
    def clone(self: _C) -> _C: ...

    def apply_action(self, action: int) -> None: ...


class CloneChild:
    """The protocol's ``child(action)`` for a state class with ``clone`` and
    ``apply_action``: a clone with ``action`` applied."""

    __slots__ = ()

    def child(self: _C, action: int) -> _C:
        c = self.clone()
        c.apply_action(action)
        return c


class ChanceThenMoves:
    """The protocol's ``is_chance_node`` and ``legal_actions`` for a state class whose
    ``current_player`` says ``CHANCE``/``TERMINAL``: the chance outcomes' actions at
    chance, nothing at the end, the class's :meth:`player_actions` elsewhere."""

    __slots__ = ()

    def current_player(self) -> int:
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def player_actions(self) -> list[int]:
        """The legal actions of the player to act (not at chance, not at the end)."""
        raise NotImplementedError

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions(self) -> list[int]:
        p = self.current_player()
        if p == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if p == TERMINAL:
            return []
        return self.player_actions()


class TwoPlayerGame:
    """The protocol's ``num_players`` (a property) of a two-player game class: 2."""

    __slots__ = ()

    @property
    def num_players(self) -> int:
        return 2


class NamedTwoPlayerGame(TwoPlayerGame):
    """A two-player game class whose ``name`` and ``num_distinct_actions()`` are fixed,
    given in its class line: ``class LeducGame(NamedTwoPlayerGame, name="leduc",
    actions=3)`` (the class constants ``game_name`` and ``distinct_actions``)."""

    __slots__ = ()
    game_name: ClassVar[str]
    distinct_actions: ClassVar[int]

    def __init_subclass__(cls, *, name: str | None = None, actions: int | None = None,
                          **kwargs: Any) -> None:
        """A subclass of a named game keeps its parent's name and actions unless it gives
        its own (a game class must have both, from its class line or a parent's)."""
        super().__init_subclass__(**kwargs)
        if name is not None:
            cls.game_name = name
        if actions is not None:
            cls.distinct_actions = actions
        if not hasattr(cls, "game_name") or not hasattr(cls, "distinct_actions"):
            raise TypeError(f"{cls.__name__}: a NamedTwoPlayerGame needs name= and actions= in "
                            "its class line (or a parent that has them)")

    @property
    def name(self) -> str:
        return self.game_name

    def num_distinct_actions(self) -> int:
        return self.distinct_actions


@runtime_checkable
class State(Protocol):
    def current_player(self) -> int: ...

    def is_terminal(self) -> bool: ...

    def is_chance_node(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...

    def chance_outcomes(self) -> list[tuple[int, float]]: ...

    def apply_action(self, action: int) -> None: ...

    def child(self, action: int) -> State: ...

    def clone(self) -> State: ...

    def returns(self) -> list[float]: ...

    def information_state_string(self, player: int | None = None) -> str: ...

    def public_state_string(self) -> str: ...

    def action_to_string(self, action: int) -> str: ...


@runtime_checkable
class Game(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def num_players(self) -> int: ...

    def num_distinct_actions(self) -> int: ...

    def new_initial_state(self) -> State: ...

    def info(self) -> GameInfo: ...


@runtime_checkable
class PublicBettingGame(Protocol):
    """Capability of two-player hold'em-like games that range-vectorised evaluation uses.

    Private information is one two-card hole combo per player, dealt before any action;
    public information is a betting state plus a board that chance deals between betting
    rounds (Flop Hold'em: two rounds, a three-card flop).  A game offering this lets
    :mod:`pokerlab.evaluation.fhp_br` walk its public tree with vectors over the 1326
    combos instead of enumerating deals; evaluation checks for the capability, never for
    a game name or class.

    * ``deck``: the card ids in play; ``big_blind``: chips per big blind;
    * ``initial_betting()``: the public betting state at the start (``legal()``,
      ``apply(action) -> bool`` (True when the round ended), ``copy()``, ``done``,
      ``folder`` (-1 unless someone folded), ``contrib`` per player, ``to_act``,
      ``round``);
    * ``state_at(holes, board, betting)``: a protocol state with those hole cards, board
      and betting (to ask a state-by-state policy).
    """

    deck: Sequence[int]
    big_blind: float

    def initial_betting(self) -> Any: ...

    def state_at(self, holes: Sequence[tuple[int, int]], board: tuple[int, ...],
                 betting: Any) -> State: ...


def decision_states(state: Any) -> Iterator[Any]:
    """Every decision state at and below ``state`` (this protocol's or OpenSpiel's), depth
    first, a state before its children, in the order of ``chance_outcomes()`` /
    ``legal_actions()``; terminal and chance states are passed through, not yielded."""
    if state.is_terminal():
        return
    if state.is_chance_node():
        for a, _ in state.chance_outcomes():
            yield from decision_states(state.child(a))
        return
    yield state
    for a in state.legal_actions():
        yield from decision_states(state.child(a))


def fold_or_showdown_returns(contrib: Sequence[float], folder: int,
                             strength: Callable[[int], float]) -> list[float]:
    """Both players' returns at the end of a two-player hand where each has put
    ``contrib[p]`` in: the folder (``folder >= 0``) loses its chips to the other; else the
    higher ``strength(p)`` wins the other's chips (a tie: no chips change hands)."""
    if folder >= 0:
        r = [0.0, 0.0]
        r[folder] = -float(contrib[folder])
        r[1 - folder] = float(contrib[folder])
        return r
    s0, s1 = strength(0), strength(1)
    if s0 == s1:
        return [0.0, 0.0]
    w = 0 if s0 > s1 else 1
    r = [0.0, 0.0]
    r[w] = float(contrib[1 - w])
    r[1 - w] = -float(contrib[1 - w])
    return r
