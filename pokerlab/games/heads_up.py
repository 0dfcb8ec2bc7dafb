"""What game a heads-up match, LBR run or agent spec is played in (:func:`game_kind`).

The one place that reads a game string as "hold'em or a small two-player game": the
registry (:mod:`pokerlab.registry`), matches, AIVAT, LBR and the leagues all ask it.
"""

from __future__ import annotations

from pokerlab.errors import AgentError, PokerlabError

__all__ = ["game_kind"]


def game_kind(game: str) -> str:
    """``"hunl"``, or the game string of a small two-player protocol game.

    Any game ``load_game`` knows whose static facts (``info()``) say two players is a
    small game here (Kuhn, Leduc, 8-card, ACPC definitions, ``universal_poker(...)``):
    chosen by capability, not by name."""
    name = game.split("(", 1)[0].strip().lower()
    if name in ("hunl", "holdem", "nlhe"):
        return "hunl"
    from pokerlab.games import load_game

    try:
        g = load_game(game.strip())
    except PokerlabError as exc:
        raise AgentError(f"matches are played in hunl or a small two-player game; "
                         f"cannot load game {game!r}: {exc}") from None
    info = getattr(g, "info", None)
    if info is None or int(info().num_players) != 2:
        raise AgentError(f"matches need a two-player game; {game!r} is not one")
    return game.strip()
