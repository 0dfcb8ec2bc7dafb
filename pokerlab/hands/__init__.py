"""Hand histories: import (PHH, PokerStars, ACPC logs) into DuckDB, statistics in SQL
(per player and per game), styles, reports.

See ``docs/hands.md`` for the schema and the exact statistic definitions.  The names
below are imported on first use (PEP 562), so that importing one submodule (the
importer, in a fresh ``pokerlab hands import`` process) does not load the others, numba
among them.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from pokerlab.lazy import lazy_getattr

if TYPE_CHECKING:
    from pokerlab.hands.acpc_log import iter_acpc_text, write_acpc_log
    from pokerlab.hands.db import HandDB, ImportReport, default_db_path
    from pokerlab.hands.hand_files import iter_paths
    from pokerlab.hands.model import RawHand, Rejection
    from pokerlab.hands.phh import iter_phh_text
    from pokerlab.hands.replay import HandFacts, replay
    from pokerlab.hands.stats import (
        HandFilter,
        PlayerStats,
        game_stats,
        player_stats,
        winnings_curves,
    )
    from pokerlab.hands.style import StyleThresholds, classify, classify_all

_WHERE = {
    "HandDB": "db",
    "ImportReport": "db",
    "default_db_path": "db",
    "RawHand": "model",
    "Rejection": "model",
    "iter_paths": "phh",
    "iter_phh_text": "phh",
    "HandFacts": "replay",
    "replay": "replay",
    "HandFilter": "stats",
    "PlayerStats": "stats",
    "player_stats": "stats",
    "game_stats": "stats",
    "write_acpc_log": "acpc_log",
    "iter_acpc_text": "acpc_log",
    "winnings_curves": "stats",
    "StyleThresholds": "style",
    "classify": "style",
    "classify_all": "style",
}

__all__ = [
    "HandDB",
    "ImportReport",
    "default_db_path",
    "RawHand",
    "Rejection",
    "iter_paths",
    "iter_phh_text",
    "HandFacts",
    "replay",
    "HandFilter",
    "PlayerStats",
    "player_stats",
    "game_stats",
    "write_acpc_log",
    "iter_acpc_text",
    "winnings_curves",
    "StyleThresholds",
    "classify",
    "classify_all",
]


__getattr__ = lazy_getattr(__name__, _WHERE, globals())


class _Package(types.ModuleType):
    """This package's module type: the attribute ``replay`` is the function
    :func:`pokerlab.hands.replay.replay`, even after the submodule of the same name is
    imported (Python then sets the package attribute to the submodule)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "replay" and isinstance(value, types.ModuleType):
            value = value.replay
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
