"""Hand histories: import (PHH, PokerStars, ACPC logs) into DuckDB, statistics in SQL
(per player and per game), styles, reports.

See ``docs/hands.md`` for the schema and the exact statistic definitions.
"""

from __future__ import annotations

from pokerlab.hands.acpc_log import iter_acpc_text, write_acpc_log
from pokerlab.hands.db import HandDB, ImportReport, default_db_path
from pokerlab.hands.model import RawHand, Rejection
from pokerlab.hands.phh import iter_paths, iter_phh_text
from pokerlab.hands.replay import HandFacts, replay
from pokerlab.hands.stats import HandFilter, PlayerStats, game_stats, player_stats, winnings_curves
from pokerlab.hands.style import StyleThresholds, classify, classify_all

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
