"""What the states of the small two-player games share (Kuhn and 8-card poker, von Neumann
poker, Leduc, Flop Hold'em, push/fold, the subgame spot game).

* :func:`info_state_player`: the player an ``information_state_string(player)`` call asks
  about (the player to act when ``None``; 0 or 1, else a :class:`ConfigError`);
* :func:`uniform_outcomes`: a uniform deal over the given chance actions;
* :func:`limit_actions`: the legal actions of a limit betting decision (0 fold, only facing a
  bet; 1 check/call; 2 bet/raise while raises are left);
* :func:`copy_slots`: a copy of a state with ``__slots__`` (its lists copied, not shared);
* :class:`TwoPlayerState`: ``returns`` (zeros before the end, :meth:`terminal_returns` at
  it), ``information_state_string`` (:meth:`information_state` of the player asked about)
  and ``child``;
* :class:`DealThenBetState`: a state in which chance deals first (while :meth:`dealing`),
  then the players act in turn, player 0 first, along ``history``;
* :class:`OneHandEachState`: one hand (an action id) dealt to each player, then two
  actions per decision written ``p`` and ``b`` (Kuhn, 8-card and von Neumann poker).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import CHANCE, TERMINAL, ChanceThenMoves, CloneChild

FOLD, CALL, RAISE = 0, 1, 2
"""Action ids of a limit betting decision (:func:`limit_actions`)."""


_SLOTS: dict[type, tuple[str, ...]] = {}


def copy_slots(obj: Any, *, lists: Sequence[str] = (), nested: Sequence[str] = ()) -> Any:
    """A copy of ``obj`` (an object whose classes declare ``__slots__``) without calling its
    ``__init__``: every slot's value as it is (immutable or shared on purpose), the slots
    named in ``lists`` as new lists, those in ``nested`` (lists of lists) copied two deep."""
    cls = type(obj)
    names = _SLOTS.get(cls)
    if names is None:
        found: list[str] = []
        for k in reversed(cls.__mro__):
            sl = k.__dict__.get("__slots__", ())
            found.extend([sl] if isinstance(sl, str) else sl)
        names = _SLOTS[cls] = tuple(dict.fromkeys(found))
    c = object.__new__(cls)
    for n in names:
        if hasattr(obj, n):
            setattr(c, n, getattr(obj, n))
    for n in lists:
        setattr(c, n, list(getattr(obj, n)))
    for n in nested:
        setattr(c, n, [list(x) for x in getattr(obj, n)])
    return c


def info_state_player(state: Any, player: int | None) -> int:
    """The player ``state.information_state_string(player)`` is about: ``player``, or the
    player to act when it is ``None``; a :class:`ConfigError` unless that is 0 or 1."""
    p: int = state.current_player() if player is None else player
    if p not in (0, 1):
        raise ConfigError(f"no information state for player {p!r}")
    return p


def uniform_outcomes(actions: Sequence[int]) -> list[tuple[int, float]]:
    """Each of the chance ``actions`` with probability ``1 / len(actions)``."""
    p = 1.0 / len(actions)
    return [(a, p) for a in actions]


def limit_actions(*, facing: bool, can_raise: bool) -> list[int]:
    """The legal actions of a limit betting decision: :data:`FOLD` when ``facing`` a bet,
    :data:`CALL` always, :data:`RAISE` while ``can_raise``."""
    acts = [FOLD] if facing else []
    acts.append(CALL)
    if can_raise:
        acts.append(RAISE)
    return acts


class TwoPlayerState(CloneChild):
    """The protocol's ``returns``, ``information_state_string`` and ``child`` of a
    two-player state class that gives :meth:`terminal_returns` and
    :meth:`information_state` (and ``clone``/``apply_action`` for ``child``)."""

    __slots__ = ()

    def current_player(self) -> int:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def terminal_returns(self) -> list[float]:
        """Both players' returns at a terminal state."""
        raise NotImplementedError

    def information_state(self, player: int) -> str:
        """The information-state key of ``player`` (0 or 1, already checked)."""
        raise NotImplementedError

    def returns(self) -> list[float]:
        return self.terminal_returns() if self.is_terminal() else [0.0, 0.0]

    def information_state_string(self, player: int | None = None) -> str:
        return self.information_state(info_state_player(self, player))


class DealThenBetState(TwoPlayerState, ChanceThenMoves):
    """A two-player state in which chance deals while :meth:`dealing`, then the players act
    in turn along ``history`` (the actions so far, player 0 first) until
    :meth:`is_terminal`: ``current_player``, ``is_chance_node`` and ``legal_actions`` (from
    ``chance_outcomes`` and ``player_actions``)."""

    __slots__ = ()
    history: list[int]

    def dealing(self) -> bool:
        """Whether chance still has private cards to deal."""
        raise NotImplementedError

    def current_player(self) -> int:
        if self.dealing():
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return len(self.history) % 2

    def is_chance_node(self) -> bool:
        return self.dealing()


class OneHandEachState(DealThenBetState):
    """Chance deals player 0 a hand, then player 1 (hand = action id, in ``private``); then
    every decision has two actions, 0 and 1, written ``p`` and ``b`` in the keys:
    information states ``"<own hand><history>"`` (OpenSpiel's ``kuhn_poker`` strings),
    public states ``"<history>|<an x per hand dealt>"``, deals named ``Deal:<hand>``.

    A game's state class gives :meth:`deal_outcomes`, :meth:`is_terminal`,
    :meth:`terminal_returns` and :meth:`move_name`; ``game.name`` names the game in errors."""

    __slots__ = ("_game", "private", "history")

    def __init__(self, game: Any) -> None:
        self._game = game
        self.private: list[int] = []
        self.history: list[int] = []

    def deal_outcomes(self) -> list[int]:
        """The hands chance may deal next (each equally likely)."""
        raise NotImplementedError

    def move_name(self, action: int) -> str:
        """The name of player action ``action`` (0 or 1) here."""
        raise NotImplementedError

    def history_text(self) -> str:
        return "".join("pb"[a] for a in self.history)

    def dealing(self) -> bool:
        return len(self.private) < 2

    def player_actions(self) -> list[int]:
        return [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return uniform_outcomes(self.deal_outcomes()) if self.dealing() else []

    def apply_action(self, action: int) -> None:
        a = int(action)
        if self.dealing():
            if a not in self.deal_outcomes():
                raise ConfigError(f"illegal deal {action!r} in {self._game.name}")
            self.private.append(a)
            return
        if self.is_terminal() or a not in (0, 1):
            raise ConfigError(f"illegal action {action!r} in {self._game.name} at {self}")
        self.history.append(a)

    def clone(self) -> Self:
        c = type(self)(self._game)
        c.private = list(self.private)
        c.history = list(self.history)
        return c

    def information_state(self, player: int) -> str:
        hand = str(self.private[player]) if player < len(self.private) else ""
        return hand + self.history_text()

    def public_state_string(self) -> str:
        return self.history_text() + "|" + "x" * len(self.private)

    def action_to_string(self, action: int) -> str:
        if self.dealing():
            return f"Deal:{action}"
        return self.move_name(action)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.private) + " " + self.history_text()
