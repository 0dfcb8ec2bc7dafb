"""Games implementing the :mod:`pokerlab.games.protocol` protocol, and the game registry.

``load_game(name)`` returns a fresh game object.  Built in: ``"kuhn"``, ``"leduc"``,
``"eight_card"``.  Other modules add games with :func:`register_game`; the known extra
modules are imported lazily the first time their name is asked for:

* ``"tictactoe"`` -> :mod:`pokerlab.games.tictactoe`
* ``"flop_holdem"`` -> :mod:`pokerlab.games.flop_holdem`
* ``"hunl"`` -> :mod:`pokerlab.games.holdem`

Each of those modules calls ``register_game(name, factory)`` when imported.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import CHANCE, TERMINAL, Game, State

_REGISTRY: dict[str, Callable[..., Any]] = {}

_LAZY_MODULES: dict[str, str] = {
    "tictactoe": "pokerlab.games.tictactoe",
    "flop_holdem": "pokerlab.games.flop_holdem",
    "hunl": "pokerlab.games.holdem",
}


class UnknownGameError(ConfigError):
    """``load_game`` was asked for a name no module registers."""


def register_game(name: str, factory: Callable[..., Any], *, replace: bool = False) -> None:
    """Make ``load_game(name, **kwargs)`` return ``factory(**kwargs)``.

    Registering a name twice with a different factory raises unless ``replace=True``.
    """
    if not name or not isinstance(name, str):
        raise ConfigError(f"game name must be a non-empty string, got {name!r}")
    old = _REGISTRY.get(name)
    if old is not None and old is not factory and not replace:
        raise ConfigError(f"game {name!r} is already registered")
    _REGISTRY[name] = factory


def registered_games() -> list[str]:
    """Names ``load_game`` accepts (built-ins, registered and lazily importable ones)."""
    return sorted(set(_REGISTRY) | set(_LAZY_MODULES))


def load_game(name: str, **kwargs: Any) -> Any:
    """Return a new game object for ``name`` (see module docs); kwargs go to the factory."""
    if name not in _REGISTRY and name in _LAZY_MODULES:
        modname = _LAZY_MODULES[name]
        try:
            importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname:
                raise UnknownGameError(
                    f"game {name!r} needs module {modname}, which is not available") from None
            raise
    factory = _REGISTRY.get(name)
    if factory is None:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(registered_games())}")
    return factory(**kwargs)


def _register_builtins() -> None:
    from pokerlab.games.kuhn import eight_card_poker, kuhn_poker
    from pokerlab.games.leduc import leduc_poker

    register_game("kuhn", kuhn_poker)
    register_game("eight_card", eight_card_poker)
    register_game("leduc", leduc_poker)


_register_builtins()

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "State",
    "UnknownGameError",
    "load_game",
    "register_game",
    "registered_games",
]
