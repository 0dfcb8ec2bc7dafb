"""Heads-up no-limit Texas hold'em: an exact rules engine, its numba array twin and PHH I/O.

* :mod:`pokerlab.holdem.engine` -- the Python object API (:class:`HoldemConfig`,
  :class:`HoldemState`); read its module docstring for the stable API and the seat
  convention (player 0 = big blind, player 1 = button = small blind, as in PHH/PokerKit).
* :mod:`pokerlab.holdem.engine_kernels` -- the same rules on a flat ``int64`` array,
  stepped by numba kernels (random playouts without Python objects).
* :mod:`pokerlab.holdem.actions` -- the value types (:class:`Action`, :class:`HoldemConfig`, ...).
* :mod:`pokerlab.holdem.events` -- the typed events of a hand.
* :mod:`pokerlab.holdem.view` -- :class:`~pokerlab.holdem.view.PlayerView`, what one player
  may know (``HoldemState.view``), and :func:`~pokerlab.holdem.view.checked_act`.
* :mod:`pokerlab.holdem.phh` -- hands to and from PHH through ``pokerkit.HandHistory``.

The seeded random agents are :mod:`pokerlab.agents.random_agent`.
"""

from __future__ import annotations

from pokerlab.holdem import actions
from pokerlab.holdem.actions import *  # noqa: F403 - the value types, re-exported
from pokerlab.holdem.engine import HoldemState

__all__ = [*actions.__all__, "HoldemState"]
