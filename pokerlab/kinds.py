"""The node kinds of every flat tree kernel: one vocabulary (docs/solvers.md; a base module:
the games and abstraction packages both use it).

The compiled full game (:mod:`pokerlab.games.compiled`), the public tree
(:mod:`pokerlab.games.public_tree`), the abstract betting tree of the blueprint
(:mod:`pokerlab.abstraction.action_tree`), the subgame solver's betting tree
(:mod:`pokerlab.subgame.tree`) and every kernel that walks them compare a node's kind
against these module-level ints (numba freezes them as compile-time constants).

A tree uses the kinds it has: the compiled and public trees ``DECISION``, ``CHANCE`` and
``TERMINAL`` (a payoff read from the utility table); the betting trees ``DECISION``,
``CHANCE`` and the two ends of a betting round, ``FOLD`` and ``SHOWDOWN``.  The values of
``DECISION``/``FOLD``/``SHOWDOWN`` are the ones the blueprint's action trees always stored.
"""

from __future__ import annotations

from enum import IntEnum

DECISION = 0
"""A player acts (its children follow its legal actions)."""
FOLD = 1
"""A betting tree's end: a player folded."""
SHOWDOWN = 2
"""A betting tree's end: the hands are compared (or the next street is dealt by the caller)."""
CHANCE = 3
"""Chance deals (its children carry the chance probabilities)."""
TERMINAL = 4
"""A full game's end whose payoffs are in the tree's utility table."""


NAMES = ("decision", "fold", "showdown", "chance", "terminal")
"""The name of each kind, indexed by its value (reports, JSON, messages)."""


class NodeKind(IntEnum):
    """The same kinds as an enum (for messages and plain-Python code)."""

    DECISION = DECISION
    FOLD = FOLD
    SHOWDOWN = SHOWDOWN
    CHANCE = CHANCE
    TERMINAL = TERMINAL
