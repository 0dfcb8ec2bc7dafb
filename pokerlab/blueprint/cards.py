"""Moved to :mod:`pokerlab.abstraction.hs_cards` (the policy agents use it too); re-exported
here for old imports."""

from __future__ import annotations

from pokerlab.abstraction.hs_cards import (  # noqa: F401
    BOARD_PREFIX,
    CardSpec,
    bucket_of_hs,
    combos64,
    hand_strength,
    hs_thresholds,
    sample_hs,
)

__all__ = ["BOARD_PREFIX", "CardSpec", "bucket_of_hs", "hand_strength", "sample_hs"]
