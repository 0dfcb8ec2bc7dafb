"""Local best response on the small protocol games (Kuhn, 8-card, Leduc): exact and sampled.

Both use LBR's decision rule of :mod:`pokerlab.evaluation.lbr` through the game protocol
only.  The opponent's possible private hands are the deals that agree with what LBR holds
(one protocol state per opponent hand, stepped in lock-step with the public actions), so
every per-hand quantity is read off real states:

* fold: the return after folding;
* check/call: the "check-down" value -- both players check/call to the end, chance
  averaged exactly (in Leduc: the board card, when LBR calls in round 1);
* raise: the opponent's fold probability at the state after the raise (its policy), else
  a call and the check-down.

:func:`exact_lbr` enumerates every deal, chance event and opponent action (LBR's own play
is deterministic given its information), so it returns LBR's exact expected winnings per
seat.  :func:`sampled_lbr` plays hands through the same hand loop as hold'em
(:func:`pokerlab.evaluation.lbr.play_lbr_hand`); with ``estimator="expected"`` through
:func:`~pokerlab.evaluation.lbr_core.play_expected_hand` (:class:`ExpectedSmallSession`:
the opponent's hand and its action draws integrated out given LBR's information and the
deal's later chance outcomes, :func:`expected_lbr_deal`).  A deal is the list of a
hand's chance outcomes when both players check/call to the end (:func:`full_deals`,
:func:`draw_deal`); this assumes, as in every poker game here, that which public cards
come does not depend on the betting that led to them.

Action-set mapping: ``fc`` allows fold and check/call, ``c`` check/call only; any other
set allows every legal action (the small games have one raise size).  One set per betting
round (``fc,fcpa`` in Leduc, :func:`~pokerlab.evaluation.lbr_core.split_rounds`) must name
exactly the game's rounds (:func:`game_rounds`); :func:`round_rules` turns the set and
``from_round`` into LBR's play per round.  Kuhn's ``Pass`` is a check or a fold and
``Bet`` a bet or a call, depending on whether a bet is pending.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pokerlab.evaluation.lbr_core import (
    LBRConfig,
    LBRError,
    LBRResult,
    check_estimator,
    check_from_round,
    check_rounds,
    lbr_choose,
    parse_action_set,
    play_expected_hand,
    run_sessions,
    summarize,
)
from pokerlab.games.protocol import State
from pokerlab.policy.base import Policy

ProbFn = Callable[[State], dict[int, float]]


# ----------------------------------------------------------------------------- adapters
def policy_fn(opponent: Any) -> ProbFn:
    """Action probabilities of a :class:`~pokerlab.policy.Policy` or a small-game agent."""
    if isinstance(opponent, Policy):
        return opponent.action_probabilities
    fn = getattr(opponent, "action_probabilities_state", None)
    if fn is not None:
        return lambda st: dict(fn(st, st.current_player()))
    pol = getattr(opponent, "policy", None)
    if isinstance(pol, Policy):
        return pol.action_probabilities
    raise LBRError(f"opponent {getattr(opponent, 'name', opponent)!r} exposes no action "
                   f"probabilities (need a Policy or a small-game agent)")


def classify(state: State) -> tuple[int | None, int, list[int]]:
    """``(fold, check/call, raises)`` action ids at a decision state."""
    from pokerlab.games.kuhn import BET, PASS, KuhnLikeState

    legal = [int(a) for a in state.legal_actions()]
    if isinstance(state, KuhnLikeState):
        facing = bool(state.history) and state.history[-1] == BET
        return (PASS, BET, []) if facing else (None, PASS, [BET])
    names = {a: state.action_to_string(a).lower() for a in legal}
    fold = next((a for a in legal if names[a] in ("fold",)), None)
    call = next((a for a in legal if names[a] in ("call", "check")), None)
    if call is None:
        raise LBRError(f"cannot find a check/call action among {names} in {state}")
    raises = [a for a in legal if a not in (fold, call)]
    return fold, call, raises


def round_of(state: State) -> int:
    """Betting round, 1-based (games without rounds: 1).

    A state that offers ``betting_round()`` (the ACPC games, whose ``round`` counts from 0)
    says so itself; otherwise a 1-based ``round`` attribute (Leduc) is used."""
    fn = getattr(state, "betting_round", None)
    if callable(fn):
        return int(fn())
    return int(getattr(state, "round", 1))


def game_rounds(game: Any) -> int:
    """The number of betting rounds of ``game``: the last :func:`round_of` on the hand in
    which both players check/call to the end (Kuhn 1, Leduc 2)."""
    st = game.new_initial_state()
    n = 1
    while not st.is_terminal():
        if st.is_chance_node():
            st = st.child(next(a for a, q in st.chance_outcomes() if q > 0))
        else:
            n = max(n, round_of(st))
            st = st.child(classify(st)[1])
    return n


CALL_ONLY, FOLD_CALL, ALL_ACTIONS = 0, 1, 2
"""LBR's play in a round of a small game (:func:`round_rules`)."""


def round_rules(game: Any, actions: str, from_round: int) -> tuple[int, ...]:
    """LBR's play per betting round of ``game`` (index: round - 1): :data:`CALL_ONLY`
    before ``from_round`` and in a round whose set is ``c``, :data:`FOLD_CALL` for ``fc``,
    else :data:`ALL_ACTIONS`.  A per-round set whose count is not the game's rounds is
    :class:`LBRError`."""
    check_from_round(from_round)
    aset = parse_action_set(actions)
    n = game_rounds(game)
    check_rounds(aset, n, str(getattr(game, "name", "the game")))
    modes = {"c": CALL_ONLY, "fc": FOLD_CALL}
    return tuple(CALL_ONLY if r + 1 < from_round else modes.get(aset.round_name(r).lower(),
                                                                  ALL_ACTIONS)
                 for r in range(n))


def actions_name(actions: str) -> str:
    """How a result names ``actions``: a per-round set by its parsed name
    (``fc,fcpa``), one set as given, lower case (as before)."""
    aset = parse_action_set(actions)
    return aset.name if aset.rounds else actions.strip().lower()


def _deals(game: Any) -> list[tuple[State, float]]:
    out: list[tuple[State, float]] = []

    def walk(st: State, p: float) -> None:
        if st.is_chance_node():
            for a, q in st.chance_outcomes():
                if q > 0:
                    walk(st.child(a), p * q)
        else:
            out.append((st, p))

    walk(game.new_initial_state(), 1.0)
    return out


# ----------------------------------------------------------------------------- lock-step
class Lockstep:
    """LBR's information set: one state per possible opponent hand (``None`` = impossible)
    and the range weights (prior x opponent reach)."""

    def __init__(self, seat: int, states: list[State | None], weights: np.ndarray,
                 probs: ProbFn, rules: tuple[int, ...]) -> None:
        self.seat = seat
        self.states = states
        self.range = weights
        self.probs = probs
        self.rules = rules  # per round: CALL_ONLY, FOLD_CALL or ALL_ACTIONS

    def rule(self) -> int:
        """LBR's play in the current round (:func:`round_rules`)."""
        r = round_of(self.any_state())
        return self.rules[max(0, min(r, len(self.rules)) - 1)]

    def any_state(self) -> State:
        for s in self.states:
            if s is not None:
                return s
        raise LBRError("no opponent hand is consistent with the play")

    def checkdown(self, st: State) -> float:
        """LBR's value when both check/call to the end (chance averaged exactly)."""
        if st.is_terminal():
            return float(st.returns()[self.seat])
        if st.is_chance_node():
            return sum(q * self.checkdown(st.child(a)) for a, q in st.chance_outcomes() if q > 0)
        return self.checkdown(st.child(classify(st)[1]))

    def options(self) -> list[tuple[int, np.ndarray]]:
        """LBR's actions (tie order: call, fold, raises) with their value per hand."""
        fold, call, raises = classify(self.any_state())
        n = len(self.states)
        acts = ([call] + ([fold] if fold is not None else [])
                + (raises if self.rule() == ALL_ACTIONS else []))
        out = []
        for a in acts:
            v = np.zeros(n)
            for j, s in enumerate(self.states):
                if s is None:
                    continue
                c = s.child(a)
                if a == call:
                    v[j] = self.checkdown(c)
                elif a == fold:
                    v[j] = float(c.returns()[self.seat])
                elif c.is_terminal() or c.is_chance_node():
                    v[j] = self.checkdown(c)
                else:
                    of, oc, _ = classify(c)
                    pf = float(self.probs(c).get(of, 0.0)) if of is not None else 0.0
                    vf = float(c.child(of).returns()[self.seat]) if of is not None else 0.0
                    v[j] = pf * vf + (1.0 - pf) * self.checkdown(c.child(oc))
            out.append((a, v))
        return out

    def opponent_matrix(self) -> tuple[list[int], np.ndarray]:
        legal = [int(a) for a in self.any_state().legal_actions()]
        m = np.zeros((len(self.states), len(legal)))
        for j, s in enumerate(self.states):
            if s is None:
                continue
            d = self.probs(s)
            for k, a in enumerate(legal):
                m[j, k] = float(d.get(a, 0.0))
        return legal, m

    def lbr_active(self) -> bool:
        return self.rule() != CALL_ONLY

    def call_action(self) -> int:
        return classify(self.any_state())[1]

    def choose(self) -> int:
        """LBR's action here (check/call before ``from_round`` and in ``c`` rounds)."""
        if not self.lbr_active():
            return self.call_action()
        opts = self.options()
        w = self.range
        return opts[lbr_choose(w / max(float(w.sum()), 1e-300), [v for _, v in opts])][0]

    def stepped(self, action: int, weights: np.ndarray | None = None) -> Lockstep:
        sts = [None if s is None else s.child(action) for s in self.states]
        return Lockstep(self.seat, sts, self.range if weights is None else weights, self.probs,
                        self.rules)

    def chance_children(self) -> dict[int, Lockstep]:
        outs: dict[int, tuple[list[State | None], np.ndarray]] = {}
        n = len(self.states)
        for j, s in enumerate(self.states):
            if s is None:
                continue
            for a, q in s.chance_outcomes():
                if q <= 0:
                    continue
                if a not in outs:
                    outs[a] = ([None] * n, np.zeros(n))
                outs[a][0][j] = s.child(a)
                outs[a][1][j] = self.range[j] * q
        return {a: Lockstep(self.seat, sts, w, self.probs, self.rules)
                for a, (sts, w) in sorted(outs.items())}


def _groups(game: Any, seat: int) -> list[tuple[str, list[State], list[str], np.ndarray]]:
    """Per LBR hand: its key, the deal states (one per opponent hand), their opponent keys,
    and the deal probabilities."""
    by: dict[str, tuple[list[State], list[str], list[float]]] = {}
    for st, p in _deals(game):
        k = st.information_state_string(seat)
        g = by.setdefault(k, ([], [], []))
        g[0].append(st)
        g[1].append(st.information_state_string(1 - seat))
        g[2].append(p)
    return [(k, sts, ok, np.array(ps)) for k, (sts, ok, ps) in by.items()]


# ----------------------------------------------------------------------------- exact
def exact_lbr_seats(game: Any, opponent: Any, *, actions: str = "fcpa",
                    from_round: int = 1) -> tuple[float, float]:
    """LBR's exact expected winnings (chips) in seat 0 and in seat 1 against ``opponent``
    (a Policy -- only the opponent seat's part is used -- or a small-game agent)."""
    probs = policy_fn(opponent)
    rules = round_rules(game, actions, from_round)
    vals = []
    for seat in (0, 1):
        total = 0.0
        for _, sts, _, ps in _groups(game, seat):
            ls = Lockstep(seat, list(sts), ps.copy(), probs, rules)
            total += _walk(ls)
        vals.append(total)
    return vals[0], vals[1]


def _walk(ls: Lockstep) -> float:
    st = ls.any_state()
    if st.is_terminal():
        return sum(float(w) * float(s.returns()[ls.seat])
                   for s, w in zip(ls.states, ls.range, strict=True) if s is not None)
    if st.is_chance_node():
        return sum(_walk(ch) for ch in ls.chance_children().values())
    if st.current_player() == ls.seat:
        return _walk(ls.stepped(ls.choose()))
    legal, m = ls.opponent_matrix()
    total = 0.0
    for k, a in enumerate(legal):
        w = ls.range * m[:, k]
        if w.sum() <= 0:
            continue
        sts = [s if w[j] > 0 else None for j, s in enumerate(ls.states)]
        child = Lockstep(ls.seat, sts, w, ls.probs, ls.rules)
        total += _walk(child.stepped(a))
    return total


def exact_lbr(game: Any, opponent: Any, *, actions: str = "fcpa", from_round: int = 1,
              name: str = "policy") -> LBRResult:
    """Exact LBR value (mean of both seats) as an :class:`LBRResult` (``ci95_mbb`` 0)."""
    t0 = time.perf_counter()
    v0, v1 = exact_lbr_seats(game, opponent, actions=actions, from_round=from_round)
    v0, v1 = (0.0 if abs(v0) < 1e-12 else v0), (0.0 if abs(v1) < 1e-12 else v1)
    mean = 0.5 * (v0 + v1)
    bb = _big_blind(game)
    return LBRResult(agent=name, game=str(game.name), actions=actions_name(actions),
                     from_round=from_round, deals=0, hands=0, mbb=1000.0 * mean / bb,
                     ci95_mbb=0.0, sd_mbb=0.0, seat_mbb=(1000.0 * v0 / bb, 1000.0 * v1 / bb),
                     seconds=time.perf_counter() - t0, unit="mchips/hand", exact=True,
                     big_blind=bb, estimator="exact")


def _big_blind(game: Any) -> float:
    info = getattr(game, "info", None)
    if info is not None:
        return float(info().big_blind)
    return 1.0


# ----------------------------------------------------------------------------- sampled
class SmallSession:
    """One sampled hand on a protocol game, for :func:`~pokerlab.evaluation.lbr.play_lbr_hand`."""

    def __init__(self, game: Any, groups: list[tuple[str, list[State], list[str], np.ndarray]],
                 seat: int, chance: np.random.Generator, probs: ProbFn,
                 rules: tuple[int, ...]) -> None:
        st = game.new_initial_state()
        while st.is_chance_node():
            st.apply_action(_draw(st, chance))
        self.real = st
        self.chance = chance
        self.seat = seat
        key = st.information_state_string(seat)
        okey = st.information_state_string(1 - seat)
        g = next(g for g in groups if g[0] == key)
        self.ls = Lockstep(seat, [s.clone() for s in g[1]], g[3].copy(), probs, rules)
        self._opp = g[2].index(okey)

    @property
    def range(self) -> np.ndarray:
        return self.ls.range

    @range.setter
    def range(self, w: np.ndarray) -> None:
        self.ls.range = w

    def advance(self) -> int:
        while self.real.is_chance_node():
            a = _draw(self.real, self.chance)
            self.real.apply_action(a)
            kids = self.ls.chance_children()
            self.ls = kids[a]
        if self.real.is_terminal():
            return -1
        return int(self.real.current_player())

    def lbr_active(self) -> bool:
        return self.ls.lbr_active()

    def call_action(self) -> int:
        return self.ls.call_action()

    def lbr_options(self) -> list[tuple[Any, np.ndarray | float]]:
        return list(self.ls.options())

    def opponent_policy(self) -> tuple[list[Any], np.ndarray]:
        legal, m = self.ls.opponent_matrix()
        return list(legal), m

    def opponent_hand(self) -> int:
        return self._opp

    def apply(self, action: Any) -> None:
        self.real.apply_action(int(action))
        self.ls = self.ls.stepped(int(action))

    def payoff(self) -> float:
        return float(self.real.returns()[self.seat])


def _draw(st: State, rng: np.random.Generator) -> int:
    outs = st.chance_outcomes()
    p = np.array([q for _, q in outs])
    k = int(np.searchsorted(np.cumsum(p), rng.random() * p.sum(), side="right"))
    return int(outs[min(k, len(outs) - 1)][0])


# ----------------------------------------------------------------------------- expected
def full_deals(game: Any) -> list[tuple[tuple[int, ...], float]]:
    """Every deal of ``game`` with its probability: the chance outcomes, in order, of a
    hand in which both players check/call to the end."""
    out: list[tuple[tuple[int, ...], float]] = []

    def walk(st: State, p: float, seq: tuple[int, ...]) -> None:
        if st.is_terminal():
            out.append((seq, p))
        elif st.is_chance_node():
            for a, q in st.chance_outcomes():
                if q > 0:
                    walk(st.child(a), p * q, (*seq, int(a)))
        else:
            walk(st.child(classify(st)[1]), p, seq)

    walk(game.new_initial_state(), 1.0, ())
    return out


def draw_deal(game: Any, rng: np.random.Generator) -> tuple[int, ...]:
    """One deal of ``game`` (see :func:`full_deals`), drawn with ``rng`` as
    :class:`SmallSession` draws its cards (the same cards for the same stream)."""
    st = game.new_initial_state()
    seq: list[int] = []
    while not st.is_terminal():
        if st.is_chance_node():
            a = _draw(st, rng)
            seq.append(a)
            st.apply_action(a)
        else:
            st.apply_action(classify(st)[1])
    return tuple(seq)


def _later_chance(state: State, outcomes: Sequence[int]) -> float:
    """The probability that the chance events after ``state`` (on the check/call path)
    come out as ``outcomes``."""
    st = state.clone()
    p = 1.0
    i = 0
    while not st.is_terminal():
        if st.is_chance_node():
            if i >= len(outcomes):
                raise LBRError(f"the deal {tuple(outcomes)} has too few chance outcomes")
            q = dict(st.chance_outcomes()).get(outcomes[i], 0.0)
            if q <= 0:
                return 0.0
            p *= float(q)
            st.apply_action(outcomes[i])
            i += 1
        else:
            st.apply_action(classify(st)[1])
    return p


class ExpectedSmallSession(SmallSession):
    """A small-game hand for :func:`~pokerlab.evaluation.lbr_core.play_expected_hand`:
    the deal ``deal`` (:func:`full_deals`) gives LBR's private information and the later
    chance outcomes; the opponent's hand is integrated over the deals that agree with
    them (``weights``: deal probability x the probability of the deal's later chance
    outcomes, from the start), LBR's ``range`` is as in :class:`SmallSession`."""

    def __init__(self, game: Any, groups: list[tuple[str, list[State], list[str], np.ndarray]],
                 seat: int, deal: Sequence[int], probs: ProbFn,
                 rules: tuple[int, ...]) -> None:
        st = game.new_initial_state()
        i = 0
        while st.is_chance_node():
            if i >= len(deal):
                raise LBRError(f"the deal {tuple(deal)} has too few chance outcomes")
            st.apply_action(int(deal[i]))
            i += 1
        self.real = st
        self.seat = seat
        self.deal = tuple(int(a) for a in deal)
        self._next = i
        key = st.information_state_string(seat)
        g = next(g for g in groups if g[0] == key)
        self.ls = Lockstep(seat, [s.clone() for s in g[1]], g[3].copy(), probs, rules)
        rest = self.deal[i:]
        w = g[3] * np.array([_later_chance(s, rest) for s in g[1]])
        if not float(w.sum()) > 0:
            raise LBRError(f"no opponent hand agrees with the deal {self.deal}")
        self.weights = w / float(w.sum())
        self._opp = 0

    def advance(self) -> int:
        while self.real.is_chance_node():
            if self._next >= len(self.deal):
                raise LBRError(f"the deal {self.deal} has too few chance outcomes")
            a = self.deal[self._next]
            self._next += 1
            self.real.apply_action(a)
            self.ls = self.ls.chance_children()[a]
        if self.real.is_terminal():
            return -1
        return int(self.real.current_player())

    def branch(self) -> ExpectedSmallSession:
        b = copy.copy(self)
        b.real = self.real.clone()
        ls = self.ls
        b.ls = Lockstep(ls.seat, list(ls.states), ls.range.copy(), ls.probs, ls.rules)
        return b

    def expected_payoff(self) -> float:
        """LBR's return averaged over the opponent's hands by ``weights``."""
        w = self.weights
        total = 0.0
        for j, st in enumerate(self.ls.states):
            if w[j] > 0:
                if st is None:
                    raise LBRError("an opponent hand of positive weight left the play")
                total += float(w[j]) * float(st.returns()[self.seat])
        return total / float(w.sum())


def expected_lbr_deal(game: Any, opponent: Any, deal: Sequence[int], *,
                      actions: str = "fcpa", from_round: int = 1) -> tuple[float, float]:
    """The ``expected`` estimator's chips in seat 0 and seat 1 on one ``deal``
    (:func:`full_deals`): averaged over all deals with their probabilities, exact LBR."""
    probs = policy_fn(opponent)
    rules = round_rules(game, actions, from_round)
    vals = []
    for seat in (0, 1):
        sess = ExpectedSmallSession(game, _groups(game, seat), seat, deal, probs, rules)
        vals.append(play_expected_hand(sess))
    return vals[0], vals[1]


class CheckCallPolicy(Policy):
    """Always check or call (never fold or raise): the ``call`` opponent of the small games."""

    def action_probabilities(self, state: State) -> dict[int, float]:
        return {classify(state)[1]: 1.0}


def per_deal_small(game: Any, opponent: Any, lbr: Any, deals: Sequence[int],
                   progress: Callable[[int], None] | None = None) -> np.ndarray:
    """``per_deal[i, seat]``: LBR's chips on the given deal numbers (config ``lbr``:
    an :class:`~pokerlab.evaluation.lbr.LBRConfig`; its ``estimator``)."""
    probs = policy_fn(opponent)
    rules = round_rules(game, lbr.actions, lbr.from_round)
    groups = [_groups(game, 0), _groups(game, 1)]
    seed = lbr.seed
    est = check_estimator(getattr(lbr, "estimator", "sampled"))
    if est in ("expected", "active"):
        def make_expected(d: int, seat: int) -> tuple[ExpectedSmallSession, np.random.Generator]:
            deal = draw_deal(game, np.random.default_rng([seed, d, 7]))
            return (ExpectedSmallSession(game, groups[seat], seat, deal, probs, rules),
                    np.random.default_rng([seed, d, seat, 8]))

        return run_sessions(make_expected, list(deals), progress, estimator=est)

    def make(d: int, seat: int) -> tuple[SmallSession, np.random.Generator]:
        chance = np.random.default_rng([seed, d, 7])
        sess = SmallSession(game, groups[seat], seat, chance, probs, rules)
        return sess, np.random.default_rng([seed, d, seat, 1])

    return run_sessions(make, list(deals), progress)  # type: ignore[arg-type]


def sampled_lbr(game: Any, opponent: Any, *, actions: str = "fcpa", from_round: int = 1,
                hands: int = 1000, seed: int = 0, name: str = "policy",
                deals: Sequence[int] | None = None,
                progress: Callable[[int], None] | None = None,
                estimator: str = "sampled") -> LBRResult:
    """LBR on sampled deals through the shared hand loop (each deal played in both
    seats), by ``estimator`` (``sampled`` or ``expected``)."""
    cfg = LBRConfig(actions=actions, from_round=from_round, hands=hands, seed=seed,
                    estimator=estimator)
    t0 = time.perf_counter()
    ids = list(range(hands)) if deals is None else list(deals)
    per = per_deal_small(game, opponent, cfg, ids, progress)
    return summarize(per, agent=name, game=str(game.name), actions=actions_name(actions),
                     from_round=from_round, seconds=time.perf_counter() - t0,
                     unit="mchips/hand", big_blind=_big_blind(game), seed=seed,
                     estimator=estimator)
