"""LBR's shared core: action sets, the decision rule, the hand loops over an
:class:`LBRSession` (sampled: :func:`play_lbr_hand`; expected, with the agent's hand and
action draws integrated out: :func:`play_expected_hand`), results and the run
configuration (re-exported by
:mod:`pokerlab.evaluation.lbr`; used by it and by :mod:`pokerlab.evaluation.lbr_small`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pokerlab.errors import ConfigError

NUM_COMBOS = 1326
ROUND_NAMES = ("preflop", "flop", "turn", "river")
Z95 = 1.959963984540054


class LBRError(ConfigError):
    """Bad LBR input (action set, round, agent without action probabilities, ...)."""


# ----------------------------------------------------------------------------- action sets
ROUND_SETS = ("c", "fc", "fcp", "fcpa", "56")
"""The named action sets: ``c`` (check/call only: LBR does not decide), ``fc``, ``fcp``,
``fcpa``, ``56``.  A per-round spec may list them separated by commas (``c,56,fc,fc``)."""


@dataclass(frozen=True, kw_only=True)
class ActionSet:
    """LBR's bet sizes per street (fold and check/call are always available).

    ``sizes[street]`` is a tuple of :class:`pokerlab.abstraction.bets.BetSize`; an empty
    tuple means fold/call only.  ``name`` is the text it was parsed from (per round: the
    rounds' names joined by ``,``, or by `` / `` when one is a bet-set text).
    ``rounds`` holds the per-round sets' names (preflop first) of a per-round spec, empty
    for one set used in every round; a round whose set is ``c`` (or the single set ``c``)
    is a round where LBR only checks/calls (:meth:`active`).
    """

    name: str
    sizes: tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]
    rounds: tuple[str, ...] = ()

    @property
    def raises(self) -> bool:
        return any(len(s) > 0 for s in self.sizes)

    def round_name(self, street: int) -> str:
        """The name of the set LBR plays in round ``street`` (0-based; the last per-round
        set past the spec's end)."""
        if not self.rounds:
            return self.name
        return self.rounds[min(street, len(self.rounds) - 1)]

    def active(self, street: int) -> bool:
        """Whether LBR decides in round ``street`` (0 = preflop): False where its set
        is ``c`` (check/call only)."""
        return self.round_name(street) != "c"

    def active_rounds(self, from_round: int, rounds: int = 4) -> tuple[bool, ...]:
        """Per round (0-based), whether LBR decides there: its set is not ``c`` and the
        round is ``from_round`` (1-based) or later."""
        return tuple(r + 1 >= from_round and self.active(r) for r in range(rounds))


def _one_set(text: str) -> ActionSet:
    from pokerlab.abstraction.bets import BetSize, parse_bet_set
    from pokerlab.errors import BetSizeError

    key = text.strip().lower()
    pot = BetSize(kind="pot", value=1.0)
    allin = BetSize(kind="allin")
    one: tuple[Any, ...]
    if key in ("c", "fc"):
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
            raise LBRError(f"bad LBR action set {text!r}: {exc} (one set: c, fc, fcp, fcpa, "
                           f"56 or a bet-set text; per round: four of c, fc, fcp, fcpa, 56 "
                           f"separated by commas, or any sets separated by '/')") from None
        return ActionSet(name=text.strip(), sizes=(
            bs.streets[0].sizes, bs.streets[1].sizes, bs.streets[2].sizes, bs.streets[3].sizes))
    return ActionSet(name=key, sizes=(one, one, one, one))


def split_rounds(text: str) -> list[str] | None:
    """The per-round sets of an action-set text, or ``None`` for one set.

    The rule (bet-set texts hold commas and ``;`` themselves, never ``/``): a text with
    ``/`` is per round, split at ``/`` (each part a named set or a bet-set text; an empty
    part is :class:`LBRError`); a text that splits at commas into two or more parts that
    are all named sets (:data:`ROUND_SETS`, e.g. ``c,56,fc,fc``) is per round; anything
    else is one set."""
    if "/" in text:
        parts = [p.strip() for p in text.split("/")]
        if any(not p for p in parts):
            raise LBRError(f"LBR action set {text!r} has an empty per-round set (per-round "
                           f"sets are separated by '/', e.g. c/56/fc/fc)")
        return parts
    parts = [p.strip().lower() for p in text.split(",")]
    if len(parts) > 1 and all(p in ROUND_SETS for p in parts):
        return parts
    if len(parts) > 1 and any(p in ROUND_SETS for p in parts):
        # named sets beside something else: meant per round (no bet-set text holds a named
        # set), so name the part that is not one
        r, bad = next((r, p) for r, p in enumerate(parts, start=1) if p not in ROUND_SETS)
        raise LBRError(f"LBR action set {text!r}: round {r}'s set {bad!r} is not one of "
                       f"{', '.join(ROUND_SETS)} (per-round sets separated by commas; give a "
                       f"bet-set text for a round with '/', e.g. c/c/50%,100%/fc)")
    return None


def parse_action_set(text: str) -> ActionSet:
    """One set (``c``, ``fc``, ``fcp``, ``fcpa``, ``56`` or a bet-set text, every round)
    or one set per round (:func:`split_rounds`: ``c,56,fc,fc``, ``c/c/fcpa/fcpa``, at
    most four, preflop first; a bet-set text in round ``r`` gives its street ``r``'s
    sizes).  Whether the number of rounds fits the game: :func:`check_rounds`."""
    if not isinstance(text, str) or not text.strip():
        raise LBRError(f"LBR action set must be fc, fcp, fcpa, 56, a bet-set text or one "
                       f"set per round (c,56,fc,fc), got {text!r}")
    parts = split_rounds(text)
    if parts is None:
        return _one_set(text)
    if len(parts) > 4:
        raise LBRError(f"LBR action set {text!r} gives {len(parts)} per-round sets; at most "
                       f"4 (preflop, flop, turn, river)")
    sets = [_one_set(p) for p in parts]
    names = tuple(a.name for a in sets)
    sizes = tuple(sets[r].sizes[r] if r < len(sets) else () for r in range(4))
    sep = "," if all(n in ROUND_SETS for n in names) else " / "
    return ActionSet(name=sep.join(names), sizes=sizes, rounds=names)  # type: ignore[arg-type]


def check_rounds(aset: ActionSet, rounds: int, game: str) -> ActionSet:
    """``aset`` if it is one set, or one set for each of the game's ``rounds`` betting
    rounds; else :class:`LBRError` naming both counts."""
    if aset.rounds and len(aset.rounds) != rounds:
        raise LBRError(f"LBR action set {aset.name!r} gives {len(aset.rounds)} per-round "
                       f"sets; {game} has {rounds} betting round{'s' if rounds != 1 else ''}"
                       f" (give one set, or one per round)")
    return aset


def check_from_round(from_round: int) -> int:
    if isinstance(from_round, bool) or not isinstance(from_round, int) or not 1 <= from_round <= 4:
        raise LBRError(f"from-round must be 1 (preflop) .. 4 (river), got {from_round!r}")
    return from_round


# ----------------------------------------------------------------------------- decision
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


def _lbr_act(session: LBRSession) -> None:
    """LBR's move at its own decision: :func:`lbr_choose` on its range from
    ``from_round`` on, check/call before."""
    if session.lbr_active():
        opts = session.lbr_options()
        w = session.range
        k = lbr_choose(w / max(float(w.sum()), 1e-300), [v for _, v in opts])
        session.apply(opts[k][0])
    else:
        session.apply(session.call_action())


def _to_agent(session: LBRSession) -> bool:
    """Play on, LBR taking its own turns (:func:`_lbr_act`): True at the agent's next
    decision, False at the end of the hand."""
    while True:
        actor = session.advance()
        if actor < 0:
            return False
        if actor != session.seat:
            return True
        _lbr_act(session)


def play_lbr_hand(session: LBRSession, rng: Any) -> float:
    """Play one hand: LBR decides by :func:`lbr_choose`, the agent's action is drawn from
    its probabilities for its real hand (``rng.random()``, one draw per agent decision)
    and the range is updated by Bayes' rule."""
    while _to_agent(session):
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
    return session.payoff()


# ----------------------------------------------------------------------------- expected
ESTIMATORS = ("sampled", "expected", "active")
"""LBR's per-deal estimators: ``sampled`` (the agent's hand from the deal, one action
drawn per decision: :func:`play_lbr_hand`), ``expected`` (the agent's hand and its action
draws integrated out exactly: :func:`play_expected_hand`) and ``active`` (the agent's
hand integrated out, its actions expanded from LBR's first active round on and, before
it, one action drawn by its range-weighted probability: the same expectation with one
path to the rounds where LBR acts, so an expensive agent answers far fewer range queries
there than with ``expected``)."""


def check_estimator(estimator: object, *, option: str = "LBR estimator") -> str:
    """``estimator`` if it is one of :data:`ESTIMATORS`, else :class:`LBRError` (naming
    ``option`` and the value)."""
    if not isinstance(estimator, str) or estimator not in ESTIMATORS:
        raise LBRError(f"{option} must be one of {', '.join(ESTIMATORS)}, "
                       f"got {estimator!r}")
    return estimator


class ExpectedSession(LBRSession, Protocol):
    """A hand for :func:`play_expected_hand`: an :class:`LBRSession` that also keeps
    the integration ``weights`` over the agent's hands (blocked by the whole deal's
    public cards from the start), values a terminal against them and copies itself
    for a branch."""

    weights: np.ndarray

    def expected_payoff(self) -> float:
        """LBR's chips at a terminal, averaged over the agent's hands by ``weights``."""
        ...

    def branch(self) -> ExpectedSession:
        """An independent copy of this hand (state, range, weights) to play a branch."""
        ...


@runtime_checkable
class OutcomeSession(Protocol):
    """A hand that names how it ended (:func:`play_expected_hand`'s ``tally``)."""

    def outcome(self) -> str: ...


def play_expected_hand(session: ExpectedSession, rng: Any = None,
                       tally: dict[str, float] | None = None) -> float:
    """LBR's expected chips in one deal with the agent's hand and its action draws
    integrated out: the conditional expectation of :func:`play_lbr_hand`'s value
    given LBR's cards and the deal's public cards (Rao-Blackwellised).

    LBR decides as in :func:`play_lbr_hand` (on its Bayes range, which knows only the
    public cards dealt so far).  At an agent decision every action ``k`` of positive
    probability ``P_k = sum_h w(h) p(h, k) / sum_h w(h)`` (``p``: the agent's
    probabilities, each hand's row normalised as the sampled draw does) is a branch, with
    ``w' = w p(., k)`` and LBR's range multiplied by the same column; the value is
    ``sum_k P_k value(k)``.  Terminals are :meth:`ExpectedSession.expected_payoff`.

    Agents that keep state between range queries of a hand may offer ``snapshot()``
    (an opaque object) and ``restore(obj)``: the state is taken before an agent node's
    branches and put back before each of them.  Agents without them must answer range
    queries from the view alone.

    With ``rng`` (the ``active`` estimator), an agent decision in a round where LBR is
    not active yet is not expanded: one action is drawn with probability ``P_k``
    (``rng.random()``), which keeps the expectation.

    With ``tally``, the value is also split by how the hand ended: each terminal adds
    its probability times its payoff under the name its session gives
    (:class:`OutcomeSession`, ``"all"`` for a session without one), so the tally's values
    sum to the returned value.
    """
    agent = getattr(session, "agent", None)
    if isinstance(agent, SnapshotAgent):
        return _expected(session, agent.snapshot, agent.restore, rng, tally)
    return _expected(session, None, None, rng, tally)


@runtime_checkable
class SnapshotAgent(Protocol):
    """An agent that keeps state between the range queries of a hand and can put it back
    (:func:`expected_lbr_value`): ``snapshot()`` an opaque object, ``restore(obj)``."""

    def snapshot(self) -> Any: ...

    def restore(self, state: Any) -> None: ...


def _expected(session: ExpectedSession, snapshot: Callable[[], Any] | None,
              restore: Callable[[Any], None] | None, rng: Any = None,
              tally: dict[str, float] | None = None, weight: float = 1.0) -> float:
    while _to_agent(session):
        acts, raw = session.opponent_policy()
        probs = np.asarray(raw, dtype=np.float64)
        w = session.weights
        live = w > 0
        rows = probs.sum(axis=1)
        if not bool(live.any()) or not bool(np.all(rows[live] > 0)):
            raise LBRError("the agent gives one of its possible hands no action probability")
        norm = np.zeros_like(probs)
        norm[live] = probs[live] / rows[live, None]
        total = float(w.sum())
        mass = (w @ norm) / total
        ks = [k for k in range(len(acts)) if mass[k] > 0]
        if len(ks) > 1 and rng is not None and not session.lbr_active():
            # before LBR's rounds: one action drawn by its probability (unbiased)
            u = rng.random() * float(mass[ks].sum())
            cum = np.cumsum(mass[ks])
            ks = [ks[min(int(np.searchsorted(cum, u, side="right")), len(ks) - 1)]]
        if len(ks) == 1:  # one action: play on in place
            _agent_step(session, acts[ks[0]], norm[:, ks[0]], probs[:, ks[0]])
            continue
        saved = snapshot() if snapshot is not None else None
        # copies for all but the last branch first: ``session`` itself plays the last
        children = [session.branch() for _ in ks[:-1]] + [session]
        value = 0.0
        for child, k in zip(children, ks, strict=True):
            if restore is not None:
                restore(saved)
            _agent_step(child, acts[k], norm[:, k], probs[:, k])
            value += float(mass[k]) * _expected(child, snapshot, restore, rng, tally,
                                                weight * float(mass[k]))
        return value
    value = session.expected_payoff()
    if tally is not None:
        key = session.outcome() if isinstance(session, OutcomeSession) else "all"
        tally[key] = tally.get(key, 0.0) + weight * value
    return value


def _agent_step(session: ExpectedSession, action: Any, p_norm: np.ndarray,
                p_raw: np.ndarray) -> None:
    """The agent plays ``action``: the weights times its (row-normalised) column, LBR's
    range times its column as the agent gave it (as :func:`play_lbr_hand` does)."""
    nw = session.weights * p_norm
    session.weights = nw / float(nw.sum())
    r = session.range * p_raw
    session.range = r / float(r.sum())
    session.apply(action)


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
    estimator: str = "sampled"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = {k: v for k, v in dataclasses.asdict(self).items() if k != "extra"}
        d["seat_mbb"] = list(self.seat_mbb)
        d.update(self.extra)
        return d


def summarize(per_deal: np.ndarray, *, agent: str, game: str, actions: str, from_round: int,
              seconds: float, unit: str, big_blind: float, seed: int,
              estimator: str = "sampled") -> LBRResult:
    """Statistics of ``per_deal[i, seat]`` (LBR's chips in each seat of each deal; by
    ``estimator``, see :data:`ESTIMATORS`)."""
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
                     big_blind=big_blind, seed=seed, estimator=check_estimator(estimator))


LINE_GROUPS = ("line", "street", "opening")
"""How :func:`line_rows` groups LBR's value by line: the whole ``line``
(:meth:`~pokerlab.evaluation.lbr.HoldemSession.outcome`: ``"T Lx Ab Lc | R Lx Ax sd"``),
the first ``street`` with betting and the street it ended on (``"T Lx Ab Lc | R ..."``)
or the ``opening``: the first two actions (``"T Lx Ab"``)."""


NO_LINE = "(over before LBR's first round)"
"""The line of a hand that ended before LBR's first round (a preflop fold)."""


def line_group(line: str, by: str) -> str:
    """``line`` grouped ``by`` one of :data:`LINE_GROUPS` (an empty line: :data:`NO_LINE`)."""
    if by not in LINE_GROUPS:
        raise LBRError(f"--by-line must be one of {', '.join(LINE_GROUPS)}, got {by!r}")
    if not line:
        return NO_LINE
    if by == "line":
        return line
    head, sep, rest = line.partition(" | ")
    if by == "street":
        return head + (f" | {rest[0]} ..." if sep else "")
    return " ".join(head.split()[:3])  # the opening


def line_stats(x: np.ndarray, big_blind: float) -> dict[str, float]:
    """Mean and 95% CI (mbb/hand) of the per-deal means of ``x[i, seat]`` (chips)."""
    m = x.mean(axis=1) * 1000.0 / big_blind
    sd = float(m.std(ddof=1)) if m.size > 1 else math.inf
    return {"mbb": float(m.mean()), "ci95_mbb": Z95 * sd / math.sqrt(m.size)}


def grouped_lines(outcomes: dict[str, np.ndarray], n: int, by: str) -> dict[str, np.ndarray]:
    """``outcomes`` (line -> ``[i, seat]`` chips over ``n`` deals) summed by group."""
    out: dict[str, np.ndarray] = {}
    for k, x in outcomes.items():
        g = line_group(k, by)
        out[g] = out.get(g, np.zeros((n, 2))) + x
    return out


def line_rows(outcomes: dict[str, np.ndarray], n: int, big_blind: float, by: str = "line",
              top: int | None = None) -> list[dict[str, Any]]:
    """LBR's mbb/hand by line (:func:`line_group` ``by``) with 95% CIs over the deals,
    largest winnings (either sign) first; over every line the ``mbb`` sum to LBR's whole
    value."""
    rows: list[dict[str, Any]] = []
    for g, x in grouped_lines(outcomes, n, by).items():
        rows.append({"line": g, **line_stats(x, big_blind)})
    rows.sort(key=lambda r: (-abs(float(r["mbb"])), str(r["line"])))
    return rows if top is None else rows[:top]


def merge_lines(parts: Sequence[tuple[int, dict[str, np.ndarray]]], n: int) -> dict[str, np.ndarray]:
    """Chunks' outcomes (first deal row, line -> rows) as one ``[n, 2]`` array per line."""
    out: dict[str, np.ndarray] = {}
    for row, o in parts:
        for k, x in o.items():
            out.setdefault(k, np.zeros((n, 2)))[row:row + x.shape[0]] = x
    return out


def run_sessions(make: Callable[[int, int], tuple[Any, Any]],
                 deals: Sequence[int],
                 progress: Callable[[int], None] | None = None, *,
                 estimator: str = "sampled",
                 outcomes: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """``per_deal[i, seat]`` for the deals ``deals`` (``make(deal, seat)`` builds a hand
    and its draws: an :class:`LBRSession` and ``rng`` for :func:`play_lbr_hand`, or with
    ``estimator="expected"`` an :class:`ExpectedSession` for :func:`play_expected_hand`,
    the draws unused; ``"active"``: the same with the draws for the rounds before LBR's).

    ``outcomes`` (``expected``/``active`` only) is filled with the same chips split by
    how the hands ended: ``outcomes[name][i, seat]`` (the ``tally`` of
    :func:`play_expected_hand`; over the names they sum to ``per_deal``)."""
    est = check_estimator(estimator)
    if outcomes is not None and est == "sampled":
        raise LBRError("LBR's value by outcome needs the expected or active estimator")
    out = np.zeros((len(deals), 2))
    for i, d in enumerate(deals):
        for seat in (0, 1):
            sess, rng = make(d, seat)
            if est == "sampled":
                out[i, seat] = play_lbr_hand(sess, rng)
            else:
                tally: dict[str, float] | None = {} if outcomes is not None else None
                out[i, seat] = play_expected_hand(sess, rng if est == "active" else None,
                                                  tally)
                if outcomes is not None and tally is not None:
                    for key, v in tally.items():
                        outcomes.setdefault(key, np.zeros((len(deals), 2)))[i, seat] += v
        if progress is not None:
            progress(i + 1)
    return out


@dataclass(frozen=True, kw_only=True)
class LBRConfig:
    """An LBR run (saved next to results): ``estimator`` is ``sampled`` (the default)
    or ``expected`` (:data:`ESTIMATORS`)."""

    actions: str = "fc"
    from_round: int = 1
    hands: int = 1000
    seed: int = 0
    estimator: str = "sampled"

    def __post_init__(self) -> None:
        parse_action_set(self.actions)
        check_from_round(self.from_round)
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or self.hands < 1:
            raise LBRError(f"hands must be a positive integer, got {self.hands!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise LBRError(f"seed must be a non-negative integer, got {self.seed!r}")
        check_estimator(self.estimator)
