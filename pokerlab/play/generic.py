"""Any small two-player protocol game at the play table (ACPC definitions and others).

The play session handles ``hunl``/``pushfold`` with the hold'em engine and ``kuhn``/``leduc``
with their own card names; every other game string that :func:`pokerlab.games.load_game`
loads (``gamedef:PATH``, ``gamedef:leduc5``, ``universal_poker(...)``, ``eight_card``, ...)
goes through one generic code path chosen by what the game can do, never by its name:

* the game must be a two-player zero-sum protocol game (``game.info()``), offer at most
  :data:`MAX_ACTIONS` distinct actions (one button each) and be small enough for the exact
  sequence-form LP (Knuth's estimate of the histories at most :data:`MAX_HISTORIES`);
  otherwise :func:`load_play_game` raises a :class:`PlayError` naming the size;
* the table shows the person's ``information_state_string``, the
  ``public_state_string`` and one button per legal action (``action_to_string``);
* **cards** where the state exposes ``hole`` (per player) and ``board`` card lists and the
  game a ``gamedef`` with ``num_suits`` (the ACPC games): card ids become ``"Ks"``-style
  names; **money** where the state exposes ``spent`` (chips put in per player; optional
  ``street_base``) and the game ``gamedef.stack``: pot, bets, stacks and the amount to call;
  **showdown** where the state exposes ``folded`` (else the opponent's information state is
  shown at the end of every hand).

The capabilities are read with :func:`capabilities`; the session never sends the
opponent's private information before a hand is over.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pokerlab.errors import PokerlabError

MAX_HISTORIES = 200_000
"""Largest estimated number of histories a play table solves exactly (sequence-form LP:
seconds for ``gamedef:leduc5``, 47k histories; ``gamedef:limit3``, 680k, did not finish in 10
minutes under load, so it is not offered)."""
MAX_ACTIONS = 64
"""Most distinct actions a play table offers (one button each)."""
INFINITE_STACK = 2**31 - 2
"""Stacks at least this large (ACPC limit games without ``stack``) are shown as unlimited."""

_LOCK = threading.Lock()


def _error(text: str) -> PokerlabError:
    from pokerlab.play.errors import PlayError

    return PlayError(text)


@lru_cache(maxsize=32)
def _load(name: str) -> Any:
    from pokerlab.games import load_game
    from pokerlab.games.compiled import estimate_tree_size

    try:
        game = load_game(name)
    except PokerlabError as exc:
        raise _error(f"cannot play game {name!r}: {exc}") from None
    info_fn = getattr(game, "info", None)
    if info_fn is None or not hasattr(game, "new_initial_state"):
        raise _error(f"game {name!r} is not a protocol game with info(); it cannot be played")
    info = info_fn()
    if int(info.num_players) != 2 or not bool(info.zero_sum):
        raise _error(f"game {name!r} is not a two-player zero-sum game; the play table "
                     "plays one person against one agent")
    if int(info.num_distinct_actions) > MAX_ACTIONS:
        raise _error(f"game {name!r} has {info.num_distinct_actions} distinct actions, more "
                     f"than the {MAX_ACTIONS} buttons a play table offers (use a bet-set "
                     "abstraction, e.g. bettingAbstraction=fcpa or gamedef(path=...,bets=...))")
    est = float(estimate_tree_size(game))
    if est > MAX_HISTORIES:
        raise _error(f"game {name!r} has about {est:.3g} histories (estimated), more than the "
                     f"{MAX_HISTORIES} the play table solves exactly")
    return game


def load_play_game(name: str) -> Any:
    """The protocol game ``name`` after the play table's checks (cached per game string).

    Raises :class:`~pokerlab.play.session.PlayError` naming the game and what is wrong.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise _error(f"game must be a game string of at most 200 characters, got {name!r}")
    with _LOCK:
        return _load(name.strip())


@lru_cache(maxsize=1)
def shipped_games() -> tuple[str, ...]:
    """``gamedef:NAME`` of every shipped definition the play table can play (the others,
    such as the 200 bb HUNL definition, are too large or have too many actions)."""
    from pokerlab.games.gamedef import shipped_gamedefs

    out = []
    for stem in shipped_gamedefs():
        try:
            load_play_game(f"gamedef:{stem}")
        except PokerlabError:
            continue
        out.append(f"gamedef:{stem}")
    return tuple(out)


@dataclass(frozen=True)
class Capabilities:
    """What a generic game's states expose (see the module docstring)."""

    card: Callable[[int], str] | None
    money: bool
    stacks: tuple[int, int] | None
    showdown_flag: bool


def capabilities(game: Any) -> Capabilities:
    st = game.new_initial_state()
    gd = getattr(game, "gamedef", None)
    card: Callable[[int], str] | None = None
    if (gd is not None and hasattr(gd, "num_suits") and isinstance(getattr(st, "hole", None),
                                                                    list)
            and isinstance(getattr(st, "board", None), list)):
        from pokerlab.games.acpc_cards import card_string

        ns = int(gd.num_suits)

        def card(c: int) -> str:
            return str(card_string(int(c), ns))

    money = isinstance(getattr(st, "spent", None), list)
    stacks = None
    if money and gd is not None and hasattr(gd, "stack"):
        stacks = (int(gd.stack[0]), int(gd.stack[1]))
    return Capabilities(card=card, money=money, stacks=stacks,
                        showdown_flag=isinstance(getattr(st, "folded", None), list))


def safe_string(fn: Callable[..., Any], *args: Any) -> str:
    """``fn(*args)`` as text, or ``""`` where the game has no such string at this state."""
    try:
        return str(fn(*args))
    except Exception:
        return ""
