"""What each legal action means (fold/check/call/bet/raise) in a small protocol game; the
vocabulary of the opponent models (re-exported by :mod:`pokerlab.opponents.models`)."""

from __future__ import annotations

from typing import Any

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import State

FOLD = "fold"
CHECK = "check"
CALL = "call"
BET = "bet"
RAISE = "raise"


def facing_bet(state: Any) -> bool:
    """Kuhn-like games: the last action in the history was a bet."""
    hist: Any = getattr(state, "history", None)
    return bool(hist) and int(hist[-1]) == 1


def action_kinds(state: State) -> dict[int, str]:
    """Meaning of each legal action at a decision state: fold/check/call/bet/raise."""
    legal = state.legal_actions()
    out: dict[int, str] = {}
    names = {a: state.action_to_string(a).strip().lower() for a in legal}
    can_fold = any(n.startswith("fold") for n in names.values())
    for a, n in names.items():
        if n.startswith("fold"):
            out[a] = FOLD
        elif n.startswith("pass"):  # Kuhn-like: a pass after a bet is a fold
            out[a] = FOLD if facing_bet(state) else CHECK
        elif n.startswith("bet") and n != "bet" or n.startswith(("raise", "shove", "push", "all")):
            out[a] = RAISE
        elif n == "bet":  # Kuhn-like: a bet after a bet is a call
            out[a] = CALL if facing_bet(state) else BET
        elif n.startswith("call"):
            out[a] = CALL if can_fold else CHECK
        elif n.startswith("check"):
            out[a] = CHECK
        else:
            raise ConfigError(
                f"cannot tell what action {a} ({names[a]!r}) means in {type(state).__name__}; "
                "built-in opponent models need fold/check/call/bet/raise actions")
    return out
