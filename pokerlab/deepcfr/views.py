"""Card/bet views of pokerlab's own games and their encoders (:data:`OWN_GAME_ENCODERS`),
looked up by :mod:`pokerlab.deepcfr.encoding`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerlab.deepcfr.features import PokerEncoder, View


def _kuhn_like_view(state: Any, player: int) -> View:
    n = state.num_cards
    cards = [[(13 - n + state.private[player]) * 4]] if len(state.private) > player else [[]]
    actions: list[tuple[int, float, float]] = []
    pot = 2.0
    for a in state.history:
        added = 1.0 if a == 1 else 0.0
        actions.append((0, added, pot))
        pot += added
    return cards, actions


def _leduc_card(c: int) -> int:
    return (9 + c // 2) * 4 + c % 2


def _leduc_view(state: Any, player: int) -> View:
    hole = [_leduc_card(state.private[player])] if len(state.private) > player else []
    board = [_leduc_card(state.public)] if state.public >= 0 else []
    actions: list[tuple[int, float, float]] = []
    contrib = [1.0, 1.0]
    for rnd, seq in enumerate(state.seqs):
        size = 2.0 if rnd == 0 else 4.0
        to_act = 0
        for a in seq:
            pot = contrib[0] + contrib[1]
            other = 1 - to_act
            if a == 1:
                added = contrib[other] - contrib[to_act]
            elif a == 2:
                added = contrib[other] - contrib[to_act] + size
            else:
                added = 0.0
            contrib[to_act] += added
            actions.append((rnd, added, pot))
            to_act = other
    return [hole, board], actions


def _flop_holdem_encoder(game: Any) -> PokerEncoder:
    from pokerlab.games.flop_holdem import deepcfr_view

    return PokerEncoder(card_groups=(2, 3), rounds=2, positions=game.max_actions_per_round,
                        num_actions=3, view=deepcfr_view, suit_symmetric=True)


def kuhn_encoder(view: Any) -> PokerEncoder:
    """The encoder shape of Kuhn-like games (one card, one round of at most 3 actions)."""
    return PokerEncoder(card_groups=(1,), rounds=1, positions=3, num_actions=2, view=view)


def leduc_encoder(view: Any) -> PokerEncoder:
    """The encoder shape of Leduc (a private and a public card, two rounds of 4 positions)."""
    return PokerEncoder(card_groups=(1, 1), rounds=2, positions=4, num_actions=3, view=view)


_KUHN = kuhn_encoder(_kuhn_like_view)
_LEDUC = leduc_encoder(_leduc_view)

#: The encoders of pokerlab's own games by game name (:func:`pokerlab.deepcfr.encoding.encoder_for`).
OWN_GAME_ENCODERS: dict[str, Callable[[Any], PokerEncoder]] = {
    "kuhn": lambda game: _KUHN,
    "eight_card": lambda game: _KUHN,
    "leduc": lambda game: _LEDUC,
    "flop_holdem": _flop_holdem_encoder,
}
