"""Games implementing the :mod:`pokerlab.games.protocol` protocol, and the game registry.

``load_game(name)`` returns a fresh game object.  Built in: ``"kuhn"``, ``"leduc"``,
``"eight_card"``.  Other modules add games with :func:`register_game`; the known extra
modules are imported lazily the first time their name is asked for:

* ``"tictactoe"`` -> :mod:`pokerlab.games.tictactoe`
* ``"flop_holdem"`` -> :mod:`pokerlab.games.flop_holdem`
* ``"hunl"`` -> :mod:`pokerlab.games.hunl`
* ``"vonneumann"`` (von Neumann's [0, 1] poker in N hands) -> :mod:`pokerlab.games.vonneumann`
* ``"gamedef:PATH"`` (an ACPC ``.game`` file or a shipped name such as ``gamedef:leduc``),
  ``"gamedef(path=PATH,bets=...)"`` and ``"universal_poker(...)"`` (OpenSpiel's parameters)
  -> :mod:`pokerlab.games.acpc_game`

Each of those modules calls ``register_game(name, factory)`` when imported.

Game strings (OpenSpiel style): ``load_game("name(key=value,...)")`` is
``load_game("name", key=value, ...)`` with each value parsed by :func:`parse_game_string`
(integers, floats, ``true``/``false``, else the text), e.g.
``load_game("hunl(stack=200,bets=thesis,buckets=169-200-200-200)")``.  A value may itself
contain commas (a bet-set text such as ``bets=2.5x,4x,a;50%,a``): a comma splits parameters
only when a ``key=`` follows it; parentheses and quotes (``'...'``, ``"..."``) nest.  An
option the game does not take is a :class:`ConfigError` naming it.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from typing import Any

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import CHANCE, TERMINAL, Game, State
from pokerlab.games.spec import split_params

_REGISTRY: dict[str, Callable[..., Any]] = {}

_LAZY_MODULES: dict[str, str] = {
    "tictactoe": "pokerlab.games.tictactoe",
    "flop_holdem": "pokerlab.games.flop_holdem",
    "hunl": "pokerlab.games.hunl",
    "gamedef": "pokerlab.games.acpc_game",
    "vonneumann": "pokerlab.games.vonneumann",
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


_KEY_RE = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_.]*\s*=")


def _parse_value(text: str) -> Any:
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return t


def parse_game_string(text: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name(k=v,...)"`` into ``(name, {k: value})`` (see the module docstring).

    ``"name"`` alone gives an empty dict.  Values: int, float, bool or str.
    """
    s = text.strip()
    if "(" not in s:
        if not s or ")" in s or "=" in s or "," in s:
            raise ConfigError(f"bad game string {text!r}: expected name or name(key=value,...)")
        return s, {}
    name, rest = s.split("(", 1)
    name = name.strip()
    if not name or not rest.endswith(")"):
        raise ConfigError(f"bad game string {text!r}: expected name(key=value,...)")
    try:  # the one name(k=v,...) tokeniser: a comma splits only before the next key=
        parts = split_params(rest[:-1], keyed_commas=True)
    except ValueError as exc:
        raise ConfigError(f"bad game string {text!r}: {exc}") from None
    params: dict[str, Any] = {}
    for part in parts:
        if not part.strip():
            if len(parts) == 1:
                break
            raise ConfigError(f"bad game string {text!r}: empty parameter")
        if "=" not in part:
            raise ConfigError(f"bad game string {text!r}: parameter {part.strip()!r} has no "
                              "'=' (expected key=value)")
        key, value = part.split("=", 1)
        key = key.strip()
        if not _KEY_RE.fullmatch(key + "="):
            raise ConfigError(f"bad game string {text!r}: bad parameter name {key!r}")
        if key in params:
            raise ConfigError(f"bad game string {text!r}: parameter {key!r} given twice")
        params[key] = _parse_value(value)
    return name, params


def load_game(name: str, **kwargs: Any) -> Any:
    """Return a new game object for ``name`` (see module docs); kwargs go to the factory.

    ``name`` may be a game string ``"name(key=value,...)"`` (:func:`parse_game_string`);
    its parameters and ``kwargs`` must not name the same option.
    """
    if isinstance(name, str) and name.startswith(("gamedef:", "universal_poker")):
        # ACPC definitions (pokerlab.games.acpc_game): the whole text is the game's name
        from pokerlab.games.acpc_game import load_acpc_game

        return load_acpc_game(name, **kwargs)
    if "(" in name:
        name, params = parse_game_string(name)
        both = sorted(set(params) & set(kwargs))
        if both:
            raise ConfigError(f"game option(s) {', '.join(both)} given in the game string "
                              "and as keyword arguments")
        kwargs = {**params, **kwargs}
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
    _check_options(name, factory, kwargs)
    return factory(**kwargs)


def _check_options(name: str, factory: Callable[..., Any], kwargs: dict[str, Any]) -> None:
    """Unknown options are a ConfigError naming them (not a TypeError from the factory)."""
    if not kwargs:
        return
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return
    try:
        sig.bind(**kwargs)
    except TypeError:
        params = sig.parameters.values()
        if any(p.kind == p.VAR_KEYWORD for p in params):
            return  # the factory checks its own extra options
        known = [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
        bad = sorted(k for k in kwargs if k not in known)
        raise ConfigError(f"unknown option(s) {', '.join(bad) or '?'} for game {name!r}; "
                          f"known: {', '.join(known) or 'none'}") from None


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
    "parse_game_string",
    "register_game",
    "registered_games",
]
