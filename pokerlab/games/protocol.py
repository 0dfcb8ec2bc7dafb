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

Algorithms in :mod:`pokerlab.solvers` and :mod:`pokerlab.evaluation` see only this
protocol (or an array compilation of it), never a concrete game module.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

CHANCE = -1
TERMINAL = -4


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
