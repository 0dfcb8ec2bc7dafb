"""Matches, LBR, AIVAT and leagues of agent *specs* (``"tag"``, ``"policy:PATH"``): what
the ``pokerlab match``/``lbr``/``league`` commands, the demo and the benchmarks call.

:mod:`pokerlab.evaluation` measures agent objects (or agents built by a factory passed in)
and knows no specs; this package, above :mod:`pokerlab.agents`, resolves specs through the
registry (:func:`pokerlab.registry.make_agent`), hands the evaluation a picklable factory
for its worker processes, and writes hand histories (PHH, or ACPC logs through
:mod:`pokerlab.hands.acpc_log`).

* :mod:`pokerlab.arena.matches` -- :func:`play_match`, :func:`exact_small_mbb`.
* :mod:`pokerlab.arena.lbr` -- :func:`run_lbr`.
* :mod:`pokerlab.arena.aivat` -- :func:`aivat_match`, :func:`aivat_summary`.
* :mod:`pokerlab.arena.league` -- :func:`run_league`.
"""

from __future__ import annotations

from pokerlab.arena.aivat import aivat_match, aivat_summary
from pokerlab.arena.lbr import run_lbr
from pokerlab.arena.league import run_league
from pokerlab.arena.matches import exact_small_mbb, play_match

__all__ = ["aivat_match", "aivat_summary", "exact_small_mbb", "play_match", "run_lbr",
           "run_league"]
