"""Exact evaluation of policies on small games: expected values, best responses,
NashConv and exploitability (see :mod:`pokerlab.evaluation.exploit`)."""

from pokerlab.evaluation.exploit import (
    BestResponse,
    best_response,
    best_response_values,
    expected_values,
    exploitability,
    mbb_per_hand,
    nash_conv,
    policy_slot_probs,
    tabulate_policy,
)

__all__ = [
    "BestResponse",
    "best_response",
    "best_response_values",
    "expected_values",
    "exploitability",
    "mbb_per_hand",
    "nash_conv",
    "policy_slot_probs",
    "tabulate_policy",
]
