"""Differential test of the hold'em engine against PokerKit (the oracle).

Every hand: random setup (blinds, antes, equal or unequal and often short stacks), the
same cards in both engines, a seeded random agent that favours all-ins and min-raises;
at every decision the player to act, fold legality, call amount, raise legality, min and
max raise-to, pot, stacks and bets are compared, then the final stacks and the PHH
action list (showdown order included).  Zero mismatches allowed.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pokerkit")

from pokerlab.agents.oracle import run_differential  # noqa: E402
from pokerlab.agents.random_agent import SHOWDOWN_WEIGHTS  # noqa: E402


def _check(n: int, seed: int, weights: tuple[int, ...] | None = None) -> dict[str, int]:
    if weights is None:
        bad, feats = run_differential(n, seed)
    else:
        bad, feats = run_differential(n, seed, weights)
    assert bad == [], f"{len(bad)} mismatches, first: {bad[:3]}"
    return feats


def test_differential_vs_pokerkit_2000_hands() -> None:
    feats = _check(2000, 2026)
    # The agents really produce the situations the rules are about.
    assert feats["hands"] == 2000
    for key in ("short_all_in_raise", "short_call", "min_raise", "all_in", "fold", "split"):
        assert feats.get(key, 0) >= 10, (key, feats)


def test_differential_vs_pokerkit_showdown_agents() -> None:
    feats = _check(300, 77, SHOWDOWN_WEIGHTS)
    assert feats.get("showdown", 0) == 300


@pytest.mark.slow
def test_differential_vs_pokerkit_100k_hands() -> None:
    feats = _check(100_000, 1)
    assert feats["hands"] == 100_000
