"""Exact evaluation of policies on small games: expected values, best responses,
NashConv and exploitability (see :mod:`pokerlab.evaluation.exploit`); matches of agent
objects (:func:`run_match`; spec strings: :func:`pokerlab.arena.play_match`)."""

from pokerlab.evaluation.exploit import (
    BestResponse,
    best_response,
    best_response_values,
    exact_exploitability,
    expected_values,
    exploitability,
    mbb_per_hand,
    nash_conv,
    policy_slot_probs,
    tabulate_policy,
)
from pokerlab.evaluation.matches import MatchConfig, MatchResult, run_match

__all__ = [
    "BestResponse",
    "MatchConfig",
    "MatchResult",
    "best_response",
    "best_response_values",
    "exact_exploitability",
    "expected_values",
    "exploitability",
    "mbb_per_hand",
    "nash_conv",
    "policy_slot_probs",
    "run_match",
    "tabulate_policy",
]
