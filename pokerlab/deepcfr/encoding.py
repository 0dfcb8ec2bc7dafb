"""Information-set features for the Deep CFR network.

An :class:`PokerEncoder` turns a state, seen by one player, into the network's two
inputs: card ids per card group (``-1`` for a card not dealt yet) and one bet feature per
betting position (``-1`` when no action happened there, else the chips the action put in
as a fraction of the pot before it, so a check is 0 and a pot-sized bet is 1).

Games differ only in a *view* function ``view(state, player) -> (groups, actions)`` that
returns the visible cards of each group (as pokerlab card ids ``rank*4+suit``) and the
betting so far as ``(round, chips added, pot before)`` triples.  Views exist for
:mod:`pokerlab.games.flop_holdem`, for pokerlab's Kuhn and Leduc and for OpenSpiel's
``kuhn_poker`` and ``leduc_poker`` (used by the benchmark against OpenSpiel).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerlab.deepcfr.features import PokerEncoder, View, ViewFn
from pokerlab.deepcfr.views import OWN_GAME_ENCODERS, kuhn_encoder, leduc_encoder
from pokerlab.errors import ConfigError

__all__ = ["PokerEncoder", "View", "ViewFn", "acpc_encoder", "encoder_for", "game_name",
           "register_encoder"]

# ---------------------------------------------------------------- OpenSpiel views
def _spiel_kuhn_view(state: Any, player: int) -> View:
    hist = state.history()
    cards = [[(10 + hist[player]) * 4]] if len(hist) > player else [[]]
    actions: list[tuple[int, float, float]] = []
    pot = 2.0
    for a in hist[2:]:
        added = 1.0 if a == 1 else 0.0
        actions.append((0, added, pot))
        pot += added
    return cards, actions


def _spiel_leduc_view(state: Any, player: int) -> View:
    """OpenSpiel ``leduc_poker`` (2 players): cards 0..5 = J J Q Q K K, actions fold=0,
    call=1, raise=2, raises of 2 then 4, antes of 1."""
    hist = list(state.history())
    hole = [(9 + hist[player] // 2) * 4 + hist[player] % 2] if len(hist) > player else []
    board: list[int] = []
    actions: list[tuple[int, float, float]] = []
    contrib = [1.0, 1.0]
    rnd = 0
    to_act = 0
    i = 2
    n_in_round = 0
    while i < len(hist):
        a = hist[i]
        if rnd == 0 and n_in_round >= 2 and contrib[0] == contrib[1] and not board:
            # round 1 over: this entry is the public card
            board = [(9 + a // 2) * 4 + a % 2]
            rnd, to_act, n_in_round = 1, 0, 0
            i += 1
            continue
        pot = contrib[0] + contrib[1]
        other = 1 - to_act
        if a == 1:
            added = contrib[other] - contrib[to_act]
        elif a == 2:
            added = contrib[other] - contrib[to_act] + (2.0 if rnd == 0 else 4.0)
        else:
            added = 0.0
        contrib[to_act] += added
        actions.append((rnd, added, pot))
        n_in_round += 1
        to_act = other
        i += 1
    return [hole, board], actions


_SPIEL_KUHN = kuhn_encoder(_spiel_kuhn_view)
_SPIEL_LEDUC = leduc_encoder(_spiel_leduc_view)

_REGISTRY: dict[str, Callable[[Any], PokerEncoder]] = {
    "kuhn_poker": lambda game: _SPIEL_KUHN,
    "leduc_poker": lambda game: _SPIEL_LEDUC,
    **OWN_GAME_ENCODERS,
}


def register_encoder(game_name: str, factory: Callable[[Any], PokerEncoder]) -> None:
    """Make :func:`encoder_for` know the games called ``game_name``."""
    _REGISTRY[game_name] = factory


def game_name(game: Any) -> str:
    name = getattr(game, "name", None)
    if name is None:
        name = game.get_type().short_name  # pyspiel
    elif callable(name):
        name = name()
    return str(name)


def acpc_encoder(game: Any) -> PokerEncoder:
    """The encoder of an ACPC-definition game (:class:`pokerlab.games.acpc_game.AcpcGame`)."""
    from pokerlab.games.acpc_game import deepcfr_view

    gd = game.gamedef
    return PokerEncoder(
        card_groups=(gd.num_hole_cards, *[n for n in gd.num_board_cards if n]),
        rounds=gd.num_rounds, positions=max(game.round_lengths()),
        num_actions=game.num_distinct_actions(), view=deepcfr_view)


def encoder_for(game: Any) -> PokerEncoder:
    """The encoder of ``game`` (by its name; any ACPC-definition game by its kind)."""
    from pokerlab.games.acpc_game import AcpcGame

    if isinstance(game, AcpcGame):
        return acpc_encoder(game)
    name = game_name(game)
    if name not in _REGISTRY:
        raise ConfigError(
            f"Deep CFR has no card/bet encoder for game {name!r}; known: {sorted(_REGISTRY)}"
        )
    return _REGISTRY[name](game)

