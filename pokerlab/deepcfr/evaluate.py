"""Exact exploitability of a Deep CFR policy, whatever the game's origin.

* pokerlab games: :func:`pokerlab.evaluation.exploitability` (the solver core), or the
  range-vectorised best response of :mod:`pokerlab.evaluation.fhp_br` for Flop Hold'em;
* OpenSpiel games (``kuhn_poker``, ``leduc_poker``): OpenSpiel's exact exploitability.

Returned in the game's chips per hand (mean of both players' best-response gains).
"""

from __future__ import annotations

from typing import Any

from pokerlab.deepcfr.encoding import game_name


def is_spiel_game(game: Any) -> bool:
    return hasattr(game, "get_type")


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
    if game_name(game) == "flop_holdem":
        from pokerlab.evaluation.fhp_br import exploitability as fhp_exploitability

        return float(fhp_exploitability(game, policy))
    from pokerlab.evaluation import exploitability as core  # type: ignore[attr-defined]

    return float(core(game, policy))


def big_blind(game: Any) -> float:
    """Chips per big blind for mbb/hand (Leduc and Kuhn: the 1-chip ante counts as 1)."""
    if game_name(game) == "flop_holdem":
        return float(getattr(game, "big_blind", 2))
    return 1.0


def to_mbb(game: Any, chips: float) -> float:
    return 1000.0 * chips / big_blind(game)
