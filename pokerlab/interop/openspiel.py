"""Conversion between pokerlab policies and OpenSpiel (``pyspiel``) policies.

Our Kuhn and Leduc games, and the ACPC games of :mod:`pokerlab.games.acpc_game` (as
``universal_poker``), use OpenSpiel's action ids and information-state strings, so a
policy converts by key.  ``pyspiel``/``open_spiel`` are imported lazily (optional peer).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.policy.base import Policy
from pokerlab.policy.tabular import TabularPolicy

OPENSPIEL_NAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}


def openspiel_game(game: Any) -> Any:
    """The ``pyspiel`` game equal to ``game`` (a pokerlab game, its name, or a pyspiel game)."""
    import pyspiel

    if isinstance(game, pyspiel.Game):
        return game
    gd = getattr(game, "gamedef", None)
    if gd is not None:  # an ACPC game (pokerlab.games.acpc_game): universal_poker
        if getattr(game, "bets", None) is not None:
            raise ConfigError(f"game {game.name!r} uses a bet set, which universal_poker "
                              "does not have")
        if not getattr(game, "openspiel_strings", False):
            raise ConfigError(f"game {game.name!r} deals board cards in several rounds: "
                              "universal_poker's information states forget their order "
                              "(imperfect recall), so its policies do not convert by key")
        return pyspiel.load_game(gd.to_universal_poker(game.betting_abstraction))
    name = game if isinstance(game, str) else getattr(game, "name", None)
    if isinstance(name, str) and name.startswith("universal_poker"):
        return pyspiel.load_game(name)
    os_name = OPENSPIEL_NAMES.get(str(name))
    if os_name is None:
        raise ConfigError(
            f"game {name!r} has no OpenSpiel counterpart; known: {sorted(OPENSPIEL_NAMES)}")
    return pyspiel.load_game(os_name)


def to_openspiel_policy(policy: Policy, game: Any) -> Any:
    """An ``open_spiel.python.policy.TabularPolicy`` equal to ``policy`` on ``game``.

    ``game`` is our game (``"kuhn"``/``"leduc"`` or their objects) or the pyspiel game.
    Every OpenSpiel information state is filled; a :class:`TabularPolicy` is read by key,
    any other :class:`Policy` is asked on the matching pokerlab state.
    """
    from open_spiel.python import policy as os_policy

    os_game = openspiel_game(game)
    out = os_policy.TabularPolicy(os_game)
    if isinstance(policy, TabularPolicy):
        missing = []
        for key, row in out.state_lookup.items():
            if key not in policy:
                missing.append(key)
                continue
            vec = np.zeros(out.action_probability_array.shape[1])
            for a, p in zip(policy.legal_actions(key), policy.probabilities(key), strict=True):
                vec[int(a)] = p
            out.action_probability_array[row] = vec
        if missing and policy.missing == "error":
            raise ConfigError(
                f"policy lacks {len(missing)} OpenSpiel information states, e.g. {missing[0]!r}")
        return out
    # generic policy: walk our game alongside and ask at each information state
    from pokerlab.games import load_game
    from pokerlab.games.compiled import compile_game

    ours = game if not isinstance(game, str) and hasattr(game, "new_initial_state") \
        and not _is_pyspiel(game) else load_game(_our_name(os_game))
    cg = compile_game(ours)
    for i, key in enumerate(cg.infoset_keys):
        row = out.state_lookup.get(key)
        if row is None:
            continue
        d = policy.action_probabilities(cg.representative[i])
        vec = np.zeros(out.action_probability_array.shape[1])
        for a, p in d.items():
            vec[int(a)] = p
        out.action_probability_array[row] = vec
    return out


def from_openspiel_policy(os_policy: Any, game: Any) -> TabularPolicy:
    """A :class:`TabularPolicy` from an OpenSpiel ``TabularPolicy`` (legal actions only)."""
    os_game = openspiel_game(game)
    rows = []
    for key, row in os_policy.state_lookup.items():
        legal = [int(a) for a in os_policy.legal_actions_mask[row].nonzero()[0]]
        probs = [float(os_policy.action_probability_array[row][a]) for a in legal]
        rows.append((key, legal, probs))
    return TabularPolicy.from_rows(rows, metadata={"source": "openspiel",
                                                   "game": os_game.get_type().short_name})


def _is_pyspiel(game: Any) -> bool:
    import pyspiel

    return isinstance(game, pyspiel.Game)


def _our_name(os_game: Any) -> str:
    short = os_game.get_type().short_name
    if short == "universal_poker":
        return str(os_game)  # pokerlab.games.acpc_game reads the same parameters
    for ours, theirs in OPENSPIEL_NAMES.items():
        if theirs == short:
            return ours
    raise ConfigError(f"OpenSpiel game {short!r} has no pokerlab counterpart")
