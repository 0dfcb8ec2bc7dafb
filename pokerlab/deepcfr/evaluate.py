"""Exact exploitability of a Deep CFR policy, the method chosen by what the game can do.

* a game with the public-betting capability
  (:class:`pokerlab.games.protocol.PublicBettingGame`, e.g. Flop Hold'em): the
  range-vectorised best response of :mod:`pokerlab.evaluation.fhp_br`;
* an OpenSpiel game object (it has ``get_type``, as ``kuhn_poker`` / ``leduc_poker`` used to
  compare with OpenSpiel): OpenSpiel's exact exploitability;
* any other protocol game: :func:`pokerlab.evaluation.exploitability` (the solver core).

Returned in the game's chips per hand (mean of both players' best-response gains).
"""

from __future__ import annotations

from typing import Any

from pokerlab.games.protocol import PublicBettingGame, big_blind_of


def is_spiel_game(game: Any) -> bool:
    return callable(getattr(game, "get_type", None))


def has_public_betting(game: Any) -> bool:
    """The game offers the public-tree capability the range best response needs."""
    return isinstance(game, PublicBettingGame)


def exploitability(game: Any, policy: Any) -> float:
    if is_spiel_game(game):
        from open_spiel.python import policy as osp
        from open_spiel.python.algorithms import exploitability as osx

        class _Wrap(osp.Policy):  # type: ignore[misc]
            def __init__(self) -> None:
                super().__init__(game, [0, 1])

            def action_probabilities(self, state: Any, player_id: Any = None) -> Any:
                return policy.action_probabilities(state)

        return float(osx.exploitability(game, _Wrap()))
    if has_public_betting(game):
        from pokerlab.evaluation.fhp_br import exploitability as range_exploitability

        return float(range_exploitability(game, policy))
    from pokerlab.evaluation import exploitability as core  # type: ignore[attr-defined]

    return float(core(game, policy))


def big_blind(game: Any) -> float:
    """Chips per big blind for mbb/hand (``GameInfo.big_blind``: Flop Hold'em 2; Kuhn,
    Leduc and OpenSpiel games 1, their ante being the unit)."""
    return big_blind_of(game)


def to_mbb(game: Any, chips: float) -> float:
    return 1000.0 * chips / big_blind(game)
