"""LBR's shared core: action sets, the decision rule, the hand loop over an
:class:`LBRSession`, results and the run configuration (re-exported by
:mod:`pokerlab.evaluation.lbr`; used by it and by :mod:`pokerlab.evaluation.lbr_small`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from pokerlab.errors import ConfigError

NUM_COMBOS = 1326
ROUND_NAMES = ("preflop", "flop", "turn", "river")
Z95 = 1.959963984540054


class LBRError(ConfigError):
    """Bad LBR input (action set, round, agent without action probabilities, ...)."""


# ----------------------------------------------------------------------------- action sets
@dataclass(frozen=True, kw_only=True)
class ActionSet:
    """LBR's bet sizes per street (fold and check/call are always available).

    ``sizes[street]`` is a tuple of :class:`pokerlab.abstraction.bets.BetSize`; an empty
    tuple means fold/call only.  ``name`` is the text it was parsed from.
    """

    name: str
    sizes: tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]

    @property
    def raises(self) -> bool:
        return any(len(s) > 0 for s in self.sizes)


def parse_action_set(text: str) -> ActionSet:
    """``fc``, ``fcp``, ``fcpa``, ``56`` or a bet-set text (see the module docs)."""
    from pokerlab.abstraction.bets import BetSize, parse_bet_set
    from pokerlab.errors import BetSizeError

    if not isinstance(text, str) or not text.strip():
        raise LBRError(f"LBR action set must be fc, fcp, fcpa, 56 or a bet-set text, got {text!r}")
    key = text.strip().lower()
    pot = BetSize(kind="pot", value=1.0)
    allin = BetSize(kind="allin")
    one: tuple[Any, ...]
    if key == "fc":
        one = ()
    elif key == "fcp":
        one = (pot,)
    elif key == "fcpa":
        one = (pot, allin)
    elif key == "56":
        one = (allin,) + tuple(BetSize(kind="pot", value=0.05 * 1.15 ** k) for k in range(53))
    else:
        try:
            bs = parse_bet_set(text)
        except BetSizeError as exc:
            raise LBRError(f"bad LBR action set {text!r}: {exc}") from None
        return ActionSet(name=text.strip(), sizes=(
            bs.streets[0].sizes, bs.streets[1].sizes, bs.streets[2].sizes, bs.streets[3].sizes))
    return ActionSet(name=key, sizes=(one, one, one, one))


def check_from_round(from_round: int) -> int:
    if isinstance(from_round, bool) or not isinstance(from_round, int) or not 1 <= from_round <= 4:
        raise LBRError(f"from-round must be 1 (preflop) .. 4 (river), got {from_round!r}")
    return from_round


# ----------------------------------------------------------------------------- decision
_COMBOS64: list[np.ndarray] = []


def _combos64() -> np.ndarray:
    if not _COMBOS64:
        from pokerlab.cards.cards import COMBOS

        _COMBOS64.append(np.ascontiguousarray(COMBOS, dtype=np.int64))
    return _COMBOS64[0]


STREAM_DRAW, STREAM_AGENT, STREAM_DEAL = 1, 3, 9
"""The :func:`pokerlab.rng.stream_seed` streams of hold'em LBR: the agent's action draws
(per deal and seat), the agent's own seed (per deal and seat), the cards (per deal)."""


def deal_cards(seed: int, deal: int) -> list[int]:
    """The 9 cards of deal number ``deal`` of hold'em LBR (seeded; the same for both
    seats): hole of player 0, of player 1, flop, turn, river
    (:func:`pokerlab.holdem.deal.deal_cards` of the deal's stream; the kernels deal the
    same cards with its twin)."""
    from pokerlab.holdem.deal import deal_cards as deal_nine
    from pokerlab.rng import SplitMix64, stream_seed

    return deal_nine(SplitMix64(stream_seed(seed, deal, STREAM_DEAL)))


def agent_seed(seed: int, deal: int, seat: int) -> int:
    """The seed the agent is reset to for deal ``deal`` with LBR in ``seat``."""
    from pokerlab.rng import stream_seed

    return stream_seed(seed, 2 * deal + seat, STREAM_AGENT)


class Draws:
    """The uniform draws of the agent's actions in one hand (``random()``, a SplitMix64
    stream: :func:`pokerlab.rng.uniform01_nb` in the kernels)."""

    __slots__ = ("_rng",)

    def __init__(self, seed: int) -> None:
        from pokerlab.rng import SplitMix64

        self._rng = SplitMix64(seed)

    def random(self) -> float:
        return self._rng.uniform()


def draws(seed: int, deal: int, seat: int) -> Draws:
    """The agent's action draws for deal ``deal`` with LBR in ``seat``."""
    from pokerlab.rng import stream_seed

    return Draws(stream_seed(seed, 2 * deal + seat, STREAM_DRAW))


def lbr_choose(weights: np.ndarray, values: Sequence[np.ndarray | float]) -> int:
    """Index of the option with the largest range-weighted value ``sum_j w_j v_j``.

    ``values[k]`` is option ``k``'s value per opponent hand (or one number for all hands).
    Options are listed in LBR's tie order (call, fold, raises by size); a later option
    must beat the best so far by more than a relative 1e-9 to be chosen.
    """
    best_k = 0
    best = -math.inf
    for k, v in enumerate(values):
        ev = float(np.dot(weights, v)) if isinstance(v, np.ndarray) else float(v) * float(
            weights.sum())
        if ev > best + 1e-9 * (1.0 + abs(best) if math.isfinite(best) else 1.0):
            best = ev
            best_k = k
    return best_k


class LBRSession(Protocol):
    """One hand as LBR sees it (see :class:`HoldemSession`)."""

    seat: int
    range: np.ndarray

    def advance(self) -> int:
        """Deal pending chance events (zeroing blocked hands); return the actor or -1."""
        ...

    def lbr_active(self) -> bool: ...

    def call_action(self) -> Any: ...

    def lbr_options(self) -> list[tuple[Any, np.ndarray | float]]: ...

    def opponent_policy(self) -> tuple[list[Any], np.ndarray]: ...

    def opponent_hand(self) -> int: ...

    def apply(self, action: Any) -> None: ...

    def payoff(self) -> float: ...


def play_lbr_hand(session: LBRSession, rng: Any) -> float:
    """Play one hand: LBR decides by :func:`lbr_choose`, the agent's action is drawn from
    its probabilities for its real hand (``rng.random()``, one draw per agent decision)
    and the range is updated by Bayes' rule."""
    while True:
        actor = session.advance()
        if actor < 0:
            return session.payoff()
        if actor == session.seat:
            if session.lbr_active():
                opts = session.lbr_options()
                w = session.range
                k = lbr_choose(w / max(float(w.sum()), 1e-300), [v for _, v in opts])
                session.apply(opts[k][0])
            else:
                session.apply(session.call_action())
            continue
        acts, probs = session.opponent_policy()
        row = np.asarray(probs[session.opponent_hand()], dtype=np.float64)
        total = float(row.sum())
        if not total > 0:
            raise LBRError("the agent gives its own hand no action probability")
        u = rng.random() * total
        i = int(np.searchsorted(np.cumsum(row), u, side="right"))
        i = min(i, len(acts) - 1)
        while row[i] <= 0 and i > 0:  # never pick a zero-probability action at the edge
            i -= 1
        w = session.range * np.asarray(probs[:, i], dtype=np.float64)
        session.range = w / float(w.sum())  # normalised: no underflow in long hands
        session.apply(acts[i])


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True, kw_only=True)
class LBRResult:
    """LBR's winnings against ``agent`` (positive: the agent is exploitable)."""

    agent: str
    game: str
    actions: str
    from_round: int
    deals: int
    hands: int
    mbb: float
    ci95_mbb: float
    sd_mbb: float
    seat_mbb: tuple[float, float]
    seconds: float
    unit: str
    exact: bool = False
    seed: int = 0
    big_blind: float = 1.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = {k: v for k, v in dataclasses.asdict(self).items() if k != "extra"}
        d["seat_mbb"] = list(self.seat_mbb)
        d.update(self.extra)
        return d


def summarize(per_deal: np.ndarray, *, agent: str, game: str, actions: str, from_round: int,
              seconds: float, unit: str, big_blind: float, seed: int) -> LBRResult:
    """Statistics of ``per_deal[i, seat]`` (LBR's chips in each seat of each deal)."""
    n = int(per_deal.shape[0])
    if n == 0:
        raise LBRError("LBR needs at least one hand")
    pair = per_deal.mean(axis=1) * 1000.0 / big_blind
    mean = float(pair.mean())
    sd = float(pair.std(ddof=1)) if n > 1 else 0.0
    seat = per_deal.mean(axis=0) * 1000.0 / big_blind
    return LBRResult(agent=agent, game=game, actions=actions, from_round=from_round, deals=n,
                     hands=2 * n, mbb=mean, ci95_mbb=Z95 * sd / math.sqrt(n), sd_mbb=sd,
                     seat_mbb=(float(seat[0]), float(seat[1])), seconds=seconds, unit=unit,
                     big_blind=big_blind, seed=seed)


def run_sessions(make: Callable[[int, int], tuple[LBRSession, Any]],
                 deals: Sequence[int],
                 progress: Callable[[int], None] | None = None) -> np.ndarray:
    """``per_deal[i, seat]`` for the deals ``deals`` (``make(deal, seat)`` builds a hand)."""
    out = np.zeros((len(deals), 2))
    for i, d in enumerate(deals):
        for seat in (0, 1):
            sess, rng = make(d, seat)
            out[i, seat] = play_lbr_hand(sess, rng)
        if progress is not None:
            progress(i + 1)
    return out


@dataclass(frozen=True, kw_only=True)
class LBRConfig:
    """A sampled LBR run (saved next to results)."""

    actions: str = "fc"
    from_round: int = 1
    hands: int = 1000
    seed: int = 0

    def __post_init__(self) -> None:
        parse_action_set(self.actions)
        check_from_round(self.from_round)
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or self.hands < 1:
            raise LBRError(f"hands must be a positive integer, got {self.hands!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise LBRError(f"seed must be a non-negative integer, got {self.seed!r}")
