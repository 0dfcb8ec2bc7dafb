"""The options that ``pokerlab spot tree``, ``solve`` and ``report`` share (one text for
each flag; the spot template as one option group), and the ``--max-memory`` check."""

from __future__ import annotations

import math
from typing import Any

import typer

from pokerlab.commands._common import algo_option


def _opt(default: Any, name: str, help: str) -> Any:
    return typer.Option(default, name, help=help)


BOARD = _opt(None, "--board", "Board of 3, 4 or 5 cards, e.g. Td9d6h.")


POT = _opt(None, "--pot", "Chips in the pot at the start of the spot.")


STACK = _opt(None, "--stack", "Effective stack behind, in chips.")


OOP = _opt(None, "--oop", "Out-of-position range, e.g. '66+,AJo+,KQs' (weights as AKo:0.5, AhKh:0.25), "
           "or @FILE: a range file (that text, or .json).")


IP = _opt(None, "--ip", "In-position range (text or @FILE).")


BETS = _opt("75%", "--bets", "Bet sizes on every street (% of pot, a = all-in), e.g. '33%,75%'.")


RAISES = _opt("2.5x", "--raises", "Raise sizes: multiples of the bet faced (2.5x), % of pot, a, or none.")


FLOP_BETS = _opt(None, "--flop-bets", "Flop bet sizes (default: --bets).")


TURN_BETS = _opt(None, "--turn-bets", "Turn bet sizes (default: --bets).")


RIVER_BETS = _opt(None, "--river-bets", "River bet sizes (default: --bets).")


OOP_BETS = _opt(None, "--oop-bets", "Out of position's bet sizes (default: --bets; 'none': never bets).")


IP_BETS = _opt(None, "--ip-bets", "In position's bet sizes (default: --bets).")


DONK = _opt(None, "--donk", "Donk-bet sizes on turn and river (default: the ordinary bet sizes).")


ALLIN = _opt(1.5, "--allin-threshold", "Also offer all-in when it is at most X pots (0: never add it).")


FORCE = _opt(0.15, "--force-allin", "A bet becomes all-in when the stack-to-pot ratio after a call is <= Y "
             "(0: never).")


MERGE = _opt(0.1, "--merge", "Merge sizes whose pot ratios are closer than this (0: never).")


CAP = _opt(0, "--raise-cap", "Most bets + raises per street (0: no cap).")


RAKE = _opt(0.0, "--rake", "Rake as a fraction of the final pot (e.g. 0.05).")


RAKE_CAP = _opt(0.0, "--rake-cap", "Rake cap in chips (0: no cap).")


BB = _opt(1.0, "--big-blind", "Chips per big blind (for figures in bb).")


MAX_MEM = _opt(8e9, "--max-memory", "Refuse a spot whose memory estimate (bytes) is larger.")


NO_ISO = _opt(False, "--no-isomorphism", "Solve every turn/river card (no suit isomorphism).")


COMPRESS = _opt(False, "--compress", "Store regrets and strategy sums in 16 bits (about half the memory).")


PRECISION = _opt("single", "--precision", "Reach and value vectors in single (float32, faster) or double "
                 "(float64) precision.")


def spot_template(pot: float | None = POT, stack: float | None = STACK, oop: str | None = OOP,
                  ip: str | None = IP, bets: str = BETS, raises: str = RAISES,
                  flop_bets: str | None = FLOP_BETS, turn_bets: str | None = TURN_BETS,
                  river_bets: str | None = RIVER_BETS, oop_bets: str | None = OOP_BETS,
                  ip_bets: str | None = IP_BETS, donk: str | None = DONK,
                  allin_threshold: float = ALLIN, force_allin: float = FORCE, merge: float = MERGE,
                  raise_cap: int = CAP, rake: float = RAKE, rake_cap: float = RAKE_CAP,
                  big_blind: float = BB) -> dict[str, Any]:
    """The option group of a spot but its board (``option_groups``; ``spot tree``, ``solve``
    and ``report``): pot, stack, ranges, bet tree and rake, by parameter name."""
    return dict(locals())


TARGET = _opt(0.3, "--target", "Stop at this exploitability, % of the pot (0: no target, run all "
              "--iterations); a report: for each flop.")
ITERATIONS = _opt(1000, "--iterations", "Most iterations (0: none; report the starting strategy); a "
                  "report: per flop.")


CHECK_EVERY = _opt(None, "--check-every", "Check the exploitability every N iterations, or 'auto': where the "
                   "convergence so far predicts the target (default: 10 for spot solve, auto for a report).")


def parse_check_every(text: str | None, default: int | str) -> int | str:
    """``--check-every``: ``auto`` or a whole number of iterations >= 1 (``None``: the
    command's ``default``); one clear error otherwise."""
    from pokerlab.errors import ConfigError

    if text is None:
        return default
    t = text.strip().lower()
    if t == "auto":
        return "auto"
    if not t.isdigit() or int(t) < 1:
        raise ConfigError(f"--check-every must be 'auto' or a whole number of iterations >= 1, got {text!r}")
    return int(t)


def solver_settings(target: float = TARGET, iterations: int = ITERATIONS,
                    algo: str = algo_option("rdcfr", "rdcfr (Discounted CFR with the average restarted at "
                                                  "iterations 4^k, as postflop-solver), dcfr (alpha 1.5, "
                                                  "beta 0, gamma 2), pdcfr+ (predictive DCFR+, alpha 2.3, "
                                                  "gamma 5; not with --compress), dcfr+, cfr+, lcfr or cfr"),
                    max_memory: float = MAX_MEM, no_isomorphism: bool = NO_ISO,
                    compress: bool = COMPRESS, precision: str = PRECISION,
                    check_every: str | None = CHECK_EVERY) -> dict[str, Any]:
    """The option group of a solve's budget and storage (``spot solve`` and ``report``): the
    target and iteration cap, the algorithm, the memory cap, suit isomorphism, 16-bit
    storage, the precision and how often the exploitability is checked."""
    return dict(locals())


TREE_OPTIONS = ("bets", "raises", "flop_bets", "turn_bets", "river_bets", "oop_bets", "ip_bets", "donk",
                "allin_threshold", "force_allin", "merge", "raise_cap")
"""The keys of :func:`spot_template` that are ``pokerlab.subgame.tree_config``'s arguments."""


def check_memory(max_memory: float) -> None:
    from pokerlab.errors import ConfigError

    if not (math.isfinite(max_memory) and max_memory > 0):
        raise ConfigError(f"--max-memory must be a positive number of bytes, got {max_memory!r}")
