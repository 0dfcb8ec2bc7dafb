"""AIVAT (Burch, Schmid, Moravčík, Morrill & Bowling 2018): variance-reduced match results.

A match's raw result for agent A in one hand is its winnings ``u``.  AIVAT subtracts
control variates that have expectation zero whatever the agents do:

``aivat = u - sum_chance [v(h.c) - sum_c' P(c') v(h.c')]
           - sum_known decisions [v(h.a) - sum_a' sigma(a'|I) v(h.a')]``

* **chance terms** at every chance event (hole cards, flop, turn, river; Leduc's cards);
* **action terms** at every decision of an agent that exposes its action probabilities
  (``action_probabilities(view)`` for HUNL agents, ``action_probabilities_state`` or a
  policy for small-game agents).  Agents that do not are left uncorrected.

Each term is zero-mean because the event really is drawn from the distribution used in
its expectation, so the estimate is unbiased for *any* value function ``v``; a good ``v``
only cuts the variance.  pokerlab evaluates the match after the fact with all cards known
(both hands are dealt by the match itself), and uses this ``v`` (A's view, chips):

* at a terminal: the real outcome;
* elsewhere: the **check-down value** -- a pending bet is called and nobody bets again:
  ``(2 * equity - 1) * matched chips``, the equity of A's hand against B's exact over every
  runout (hold'em: the numba enumeration of :mod:`pokerlab.evaluation.lbr_kernels`, the
  exact all-in matrix preflop; small games: the protocol averaged over chance);
* right after a bet or raise: a **one-step look-ahead with the responding agent's own
  policy** -- the responder folds with the probability its own ``action_probabilities``
  gives (its real cards), else calls and checks down.  When the responder exposes no
  probabilities (or the acting agent spreads over more than 16 raise sizes, e.g.
  ``random``'s uniform raise), the check-down value is used for raises at that node.

This is the "value estimate from the agent's own policy" of the issue in its cheapest
form: the paper used DeepStack's own counterfactual values; no pokerlab agent has a value
network, so the agents' policies enter through the action terms and the look-ahead.  On
the small games ``value="selfplay"`` uses the full form: the exact expected result when
every seat plays its own policy (an unknown one modelled by the known agent's policy).

The **all-in EV adjustment** (:attr:`AIVATResult.allin`) is the simpler, older variance
reducer: when the betting ends with a player all-in before the river, the hand's result
is replaced by A's equity share of the pot at that moment.  It is unbiased for the same
reason (the board is dealt from the same distribution the equity averages over).

Statistics: per-hand means in mbb; with duplicate dealing the 95% CI uses pair means.
``sd_reduction`` = 1 - SD(AIVAT)/SD(raw) per hand; ``sd_reduction_vs_duplicate`` compares
the per-hand-equivalent SDs of the pair means (``sqrt 2 x SD(pair means)``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.evaluation.matches import sample_chance
from pokerlab.games.hand_end import SmallRangeQuery
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, HoldemState, Phase
from pokerlab.holdem.hand_loop import HandHooks, play_hand
from pokerlab.holdem.view import RangeQuery
from pokerlab.policy.range_query import compact_distribution, fold_probability

Z95 = 1.959963984540054
MAX_LOOKAHEAD_RAISES = 16


# ----------------------------------------------------------------------------- results
def _stats(x: np.ndarray, duplicate: bool) -> tuple[float, float, float, float]:
    """(mean, ci95, per-hand sd, per-hand-equivalent sd of pair means) of ``x``."""
    n = x.size
    mean = float(x.mean()) if n else 0.0
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    unit = x.reshape(-1, 2).mean(axis=1) if duplicate and n % 2 == 0 and n >= 2 else x
    m = unit.size
    usd = float(unit.std(ddof=1)) if m > 1 else 0.0
    ci = Z95 * usd / math.sqrt(m) if m > 1 else math.inf
    pair_sd = usd * math.sqrt(2.0) if duplicate else sd
    return mean, ci, sd, pair_sd


@dataclass(frozen=True, kw_only=True)
class AIVATResult:
    """Per-hand results of agent A (chips): raw, AIVAT and all-in adjusted."""

    agents: tuple[str, str]
    game: str
    duplicate: bool
    seed: int
    big_blind: float
    raw: np.ndarray = field(repr=False)
    aivat: np.ndarray = field(repr=False)
    allin: np.ndarray = field(repr=False)
    known: tuple[bool, bool] = (False, False)
    seconds: float = 0.0

    @property
    def hands(self) -> int:
        return int(self.raw.size)

    def _mbb(self, x: np.ndarray) -> np.ndarray:
        return x * 1000.0 / self.big_blind

    def to_json(self) -> dict[str, Any]:
        def num(v: float) -> float | None:
            return v if math.isfinite(v) else None

        out: dict[str, Any] = {"agents": list(self.agents), "game": self.game,
                               "hands": self.hands, "duplicate": self.duplicate,
                               "seed": self.seed, "big_blind": self.big_blind,
                               "aivat_known": list(self.known), "seconds": self.seconds}
        raw = _stats(self._mbb(self.raw), self.duplicate)
        out.update(mean_mbb=raw[0], ci95_mbb=num(raw[1]), sd_mbb=raw[2])
        for key, arr in (("aivat", self.aivat), ("allin", self.allin)):
            st = _stats(self._mbb(arr), self.duplicate)
            out[f"{key}_mean_mbb"] = st[0]
            out[f"{key}_ci95_mbb"] = num(st[1])
            out[f"{key}_sd_mbb"] = st[2]
            out[f"{key}_sd_reduction"] = 1.0 - st[2] / raw[2] if raw[2] > 0 else 0.0
            if self.duplicate:
                out[f"{key}_duplicate_sd_mbb"] = st[3]
                out[f"{key}_sd_reduction_vs_duplicate"] = (1.0 - st[3] / raw[3]
                                                           if raw[3] > 0 else 0.0)
        if self.duplicate:
            out["duplicate_sd_mbb"] = raw[3]
        return out


# ----------------------------------------------------------------------------- HUNL
class _HoldemValue:
    """The value function ``v`` of the module docs for one hand (A in seat ``a``)."""

    def __init__(self, config: HoldemConfig, a: int, holes: Sequence[Sequence[int]],
                 agents: Sequence[Any], known: Sequence[bool]) -> None:
        from pokerlab.cards.cards import COMBO_INDEX

        self.config = config
        self.a = a
        self.holes = [tuple(int(c) for c in h) for h in holes]
        self.b_combo = int(COMBO_INDEX[self.holes[1 - a][0], self.holes[1 - a][1]])
        self.agents = agents
        self.known = known
        self._eq: dict[tuple[int, ...], float] = {}

    def equity(self, board: Sequence[int]) -> float:
        key = tuple(board)
        e = self._eq.get(key)
        if e is None:
            from pokerlab.evaluation.lbr import checkdown_equities

            e = float(checkdown_equities(self.holes[self.a], key)[self.b_combo])
            self._eq[key] = e
        return e

    def checkdown(self, st: HoldemState) -> float:
        if st.phase == Phase.TERMINAL:
            return float(st.payoffs()[self.a])
        c = st.committed
        t = self.config.stacks
        matched = min(max(c), min(t))
        return (2.0 * self.equity(st.board) - 1.0) * matched

    def fold_value(self, st: HoldemState) -> float:
        """A's result when the player *not* acting at ``st`` folds to a raise there."""
        y = 1 - st.actor
        c = st.committed
        return -float(c[self.a]) if y == self.a else float(c[1 - self.a])

    def fold_curve(self, st: HoldemState, amounts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The responder's own fold probability after raises to a few representative sizes
        (all of them up to :data:`MAX_LOOKAHEAD_RAISES`, else that many spread evenly over
        the sorted sizes); empty when the responder exposes no probabilities."""
        y = 1 - st.actor
        if amounts.size == 0 or not self.known[y]:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        uniq = np.unique(amounts)
        if uniq.size > MAX_LOOKAHEAD_RAISES:
            pick = np.round(np.linspace(0, uniq.size - 1, MAX_LOOKAHEAD_RAISES)).astype(int)
            uniq = uniq[pick]
        f = np.zeros(uniq.size)
        for k, x in enumerate(uniq.tolist()):
            child = st.clone()
            child.apply(Action(kind=ActionKind.RAISE, amount=int(x)))
            if child.phase == Phase.BETTING and child.can_fold:
                f[k] = fold_probability(self.agents[y], child.view(y))
        return uniq, f

    def raise_values(self, st: HoldemState, amounts: np.ndarray,
                     curve: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """``v`` after raises to ``amounts``: the responder folds with the curve's probability
        at the nearest representative size, else calls and checks down."""
        p = st.actor
        new_c = st.committed[p] + amounts.astype(np.float64) - st.bets[p]
        cd = (2.0 * self.equity(st.board) - 1.0) * np.minimum(new_c, min(self.config.stacks))
        reps, f = curve
        if reps.size == 0:
            return cd
        i = np.clip(np.searchsorted(reps, amounts), 1, max(reps.size - 1, 1))
        if reps.size == 1:
            near = np.zeros(amounts.size, dtype=np.int64)
        else:
            near = np.where(np.abs(reps[i - 1] - amounts) <= np.abs(reps[i] - amounts), i - 1, i)
        ff = f[near]
        return ff * self.fold_value(st) + (1.0 - ff) * cd

    def simple_after(self, st: HoldemState, action: Action) -> float:
        """``v`` after a fold or a check/call at ``st``."""
        p = st.actor
        c = st.committed
        if action.kind == ActionKind.FOLD:
            return -float(c[self.a]) if p == self.a else float(c[1 - self.a])
        return self.checkdown(st)  # the pending bet is called: same check-down value

    def action_term(self, st: HoldemState, action: Action,
                    dist: tuple[list[tuple[Action, float]], np.ndarray, np.ndarray]) -> float:
        """``v(h.a) - sum_a' sigma(a') v(h.a')`` for the acting agent's distribution."""
        pairs, amounts, probs = dist
        total = sum(q for _, q in pairs) + float(probs.sum())
        curve = self.fold_curve(st, amounts)
        exp = sum(q * self.simple_after(st, a) for a, q in pairs if q > 0)
        if amounts.size:
            exp += float(np.dot(probs, self.raise_values(st, amounts, curve)))
        if action.kind == ActionKind.RAISE:
            got = float(self.raise_values(st, np.array([action.amount]), curve)[0])
        else:
            got = self.simple_after(st, action)
        return got - exp / total


class _AivatHooks(HandHooks):
    """AIVAT's terms along one hand of :func:`pokerlab.holdem.hand_loop.play_hand`."""

    def __init__(self, v: _HoldemValue, seats: Sequence[Any], kseat: tuple[bool, bool]) -> None:
        self.v = v
        self.seats = seats
        self.kseat = kseat
        self.corr = 0.0
        self.allin_value: float | None = None
        self._before = 0.0

    def dealt(self, st: HoldemState) -> None:
        # hole cards: E over all deals of the check-down value is 0 (symmetry), so the term
        # is the value itself
        self.corr = self.v.checkdown(st)

    def before_board(self, st: HoldemState) -> None:
        if self.allin_value is None and st.showdown_order:
            self.allin_value = self.v.checkdown(st)
        self._before = self.v.checkdown(st)

    def after_board(self, st: HoldemState) -> None:
        # exact equity is a martingale: E over the new cards of v equals v before
        self.corr += self.v.checkdown(st) - self._before

    def before_action(self, st: HoldemState, act: Action) -> None:
        p = st.actor
        if self.kseat[p]:
            dist = compact_distribution(self.seats[p], st.view(p))
            if dist is not None:
                self.corr += self.v.action_term(st, act, dist)


def aivat_holdem_hand(agent_a: Any, agent_b: Any, config: HoldemConfig, a_seat: int,
                      cards: Sequence[int], seed_a: int, seed_b: int,
                      known: tuple[bool, bool] | None = None) -> tuple[float, float, float]:
    """Play one hand with :func:`pokerlab.holdem.hand_loop.play_hand`, as a match does
    (the agents fed their visible events as the hand goes, learning agents handed the end
    of the hand as their seat saw it), and return A's (raw, AIVAT, all-in adjusted)
    chips; the value terms are taken by :class:`_AivatHooks`."""
    agent_a.reset(seed_a)
    agent_b.reset(seed_b)
    seats = (agent_a, agent_b) if a_seat == 0 else (agent_b, agent_a)
    if known is None:
        known = (isinstance(agent_a, RangeQuery), isinstance(agent_b, RangeQuery))
    kseat = (known[0], known[1]) if a_seat == 0 else (known[1], known[0])
    hooks = _AivatHooks(_HoldemValue(config, a_seat, (cards[0:2], cards[2:4]), seats, kseat),
                        seats, kseat)
    st = play_hand(seats, config, cards, hooks=hooks)
    corr, allin_value = hooks.corr, hooks.allin_value
    raw = float(st.payoffs()[a_seat])
    return raw, raw - corr, raw if allin_value is None else allin_value


# ----------------------------------------------------------------------------- small games
class _SmallValue:
    """``v`` for the small games; values are cached by both players' information states
    (which together identify a state of Kuhn/Leduc exactly)."""

    def __init__(self, a: int, fns: Sequence[Any], selfplay: Any = None) -> None:
        self.a = a
        self.fns = fns  # per seat: state -> dict probs, or None
        self.selfplay = selfplay  # per seat: state -> dict probs (value="selfplay")
        self._cd: dict[tuple[str, str], float] = {}
        self._v: dict[tuple[str, str], float] = {}

    def selfplay_value(self, st: Any) -> float:
        """A's exact expected result from ``st`` when each seat plays its ``selfplay``
        policy."""
        def step(st: Any) -> float:
            if st.is_chance_node():
                return sum(q * self.selfplay_value(st.child(c))
                           for c, q in st.chance_outcomes() if q > 0)
            probs = self.selfplay[st.current_player()](st)
            return sum(q * self.selfplay_value(st.child(a)) for a, q in probs.items() if q > 0)

        return self._cached(self._v, st, step)

    def _cached(self, table: dict[tuple[str, str], float], st: Any,
                step: Callable[[Any], float]) -> float:
        """A's result at a terminal ``st``, else ``step(st)`` memoised in ``table`` by both
        seats' information states."""
        if st.is_terminal():
            return float(st.returns()[self.a])
        key = self._key(st)
        hit = table.get(key)
        if hit is None:
            hit = table[key] = step(st)
        return hit

    @staticmethod
    def _key(st: Any) -> tuple[str, str]:
        return (st.information_state_string(0), st.information_state_string(1))

    def checkdown(self, st: Any) -> float:
        from pokerlab.evaluation.lbr_small import classify

        def step(st: Any) -> float:
            if st.is_chance_node():
                return sum(q * self.checkdown(st.child(c)) for c, q in st.chance_outcomes()
                           if q > 0)
            return self.checkdown(st.child(classify(st)[1]))

        return self._cached(self._cd, st, step)

    def value(self, st: Any) -> float:
        """Check-down, or the one-step look-ahead when a known responder faces a bet (or the
        self-play value when one is set)."""
        from pokerlab.evaluation.lbr_small import classify

        if self.selfplay is not None:
            return self.selfplay_value(st)
        if st.is_terminal() or st.is_chance_node():
            return self.checkdown(st)
        key = self._key(st)
        hit = self._v.get(key)
        if hit is not None:
            return hit
        fold, call, _ = classify(st)
        fn = self.fns[st.current_player()]
        if fold is None or fn is None:
            val = self.checkdown(st)
        else:
            f = float(fn(st).get(fold, 0.0))
            val = f * float(st.child(fold).returns()[self.a]) + (1 - f) * self.checkdown(
                st.child(call))
        self._v[key] = val
        return val


def _small_fn(agent: Any) -> Any:
    """How a small-game seat plays, ``state -> {action: probability}``: a
    :class:`~pokerlab.games.hand_end.SmallRangeQuery` agent's own answer, else the
    probabilities of the policy it carries (an outside bot's), else ``None``."""
    if isinstance(agent, SmallRangeQuery):
        return lambda st: dict(agent.action_probabilities_state(st, st.current_player()))
    pol = getattr(agent, "policy", None)
    if pol is not None and hasattr(pol, "action_probabilities"):
        return pol.action_probabilities
    return None


def small_term(v: _SmallValue, st: Any, taken: int, probs: dict[int, float]) -> float:
    """One control variate: ``v(h.taken) - sum_a probs[a] v(h.a)`` (chance or a known
    agent's decision)."""
    exp = sum(q * v.value(st.child(a)) for a, q in probs.items() if q > 0)
    return v.value(st.child(taken)) - exp


def aivat_small_hand(game: Any, agent_a: Any, agent_b: Any, a_seat: int, chance_seed: int,
                     seed_a: int, seed_b: int,
                     values: dict[int, _SmallValue] | None = None,
                     value: str = "checkdown") -> tuple[float, float, float]:
    """One small-game hand exactly as :func:`pokerlab.evaluation.matches.play_small_hand`
    plays it; returns A's (raw, AIVAT, raw) (no all-ins in the small games).  ``values``
    caches the value functions per seat of A across the hands of a match; ``value`` is
    ``"checkdown"`` or ``"selfplay"`` (see :func:`aivat_match`)."""
    agent_a.reset(seed_a)
    agent_b.reset(seed_b)
    seats = (agent_a, agent_b) if a_seat == 0 else (agent_b, agent_a)
    fns = [_small_fn(seats[0]), _small_fn(seats[1])]
    cache = values if values is not None else {}
    v = cache.get(a_seat)
    if v is None:
        sp = None
        if value == "selfplay":
            sp = [fns[0] if fns[0] is not None else fns[1],
                  fns[1] if fns[1] is not None else fns[0]]
        v = cache[a_seat] = _SmallValue(a_seat, fns, sp)
    rng = np.random.default_rng(chance_seed)
    st = game.new_initial_state()
    corr = 0.0
    while not st.is_terminal():
        if st.is_chance_node():
            outs = st.chance_outcomes()
            pick = sample_chance(outs, rng)
            corr += small_term(v, st, pick, dict(outs))
            st.apply_action(pick)
            continue
        p = st.current_player()
        ag = seats[p]
        act = ag.act_state(st, p)
        fn = fns[p]
        if fn is not None:
            corr += small_term(v, st, act, fn(st))
        st.apply_action(act)
    raw = float(st.returns()[a_seat])
    return raw, raw - corr, raw


# ----------------------------------------------------------------------------- matches
def check_value(value: str, kind: str) -> None:
    """Refuse an AIVAT value function other than ``checkdown`` (or ``selfplay`` on the
    small games) for game kind ``kind``."""
    if value not in ("checkdown", "selfplay") or (value == "selfplay" and kind == "hunl"):
        raise ConfigError(f"AIVAT value must be 'checkdown' (or 'selfplay' on the small "
                          f"games), got {value!r} for {kind}")


def aivat_match(agent_a: Any, agent_b: Any, *, game: str = "hunl", hands: int = 1000,
                duplicate: bool = True, seed: int = 0, stack_bb: float = 200.0,
                names: tuple[str, str] | None = None, value: str = "checkdown",
                start: int = 0, progress: Any = None) -> AIVATResult:
    """Play ``hands`` hands of agent A vs agent B (objects; specs:
    :func:`pokerlab.arena.aivat_match`) with the deals and seeds of
    :func:`pokerlab.evaluation.matches.run_match` (so ``raw`` equals its per-hand chips)
    and return raw, AIVAT and all-in adjusted results.

    ``value``: ``"checkdown"`` (the module's value function) or, on the small games only,
    ``"selfplay"`` -- A's exact expected result from the state on when every seat plays its
    own policy, an agent without known probabilities being modelled by the other agent's
    policy (with both known this is the true value: the AIVAT estimate is then constant).

    ``start``: play the match's hands ``start .. start + hands - 1`` (a chunk of a longer
    match, :func:`aivat_chunked`; even, so duplicate pairs stay together).
    ``progress(done, total)`` is called every 100 hands and at the end."""
    from pokerlab.evaluation.matches import (
        MatchConfig,
        deal_index,
        game_kind,
        hand_cards,
        hand_seed,
    )

    kind = game_kind(game)
    check_value(value, kind)
    nm = names or (str(agent_a.name), str(agent_b.name))
    cfg = MatchConfig(agents=nm, game=kind, hands=hands, duplicate=duplicate, seed=seed,
                      stack_bb=stack_bb)
    hc = cfg.holdem_config() if kind == "hunl" else None
    a, b = agent_a, agent_b
    if kind == "hunl":
        known = (isinstance(a, RangeQuery), isinstance(b, RangeQuery))
        bb = float(cfg.big_blind)
    else:
        known = (_small_fn(a) is not None, _small_fn(b) is not None)
        bb = 1.0
    if not any(known):
        raise ConfigError(f"AIVAT needs at least one agent that exposes its action "
                          f"probabilities; neither {nm[0]!r} nor {nm[1]!r} does")
    t0 = time.perf_counter()
    out = np.zeros((hands, 3))
    small_game = None
    values: dict[int, _SmallValue] = {}
    if kind != "hunl":
        from pokerlab.games import load_game

        small_game = load_game(kind)
    from pokerlab.holdem.view import start_match

    start_match((a, b))  # learning agents start afresh, as in matches
    if start < 0 or (duplicate and start % 2):
        raise ConfigError(f"AIVAT chunk start {start}: must be >= 0 (and even when duplicate)")
    for j in range(hands):
        i = start + j
        k = deal_index(i, duplicate)
        a_seat = i % 2
        if hc is not None:
            out[j] = aivat_holdem_hand(a, b, hc, a_seat, hand_cards(seed, k),
                                       hand_seed(seed, k, 1), hand_seed(seed, k, 2))
        else:
            out[j] = aivat_small_hand(small_game, a, b, a_seat, hand_seed(seed, k, 0),
                                      hand_seed(seed, k, 1), hand_seed(seed, k, 2), values,
                                      value)
        if progress is not None and ((j + 1) % 100 == 0 or j + 1 == hands):
            progress(j + 1, hands)
    return AIVATResult(agents=nm, game=kind, duplicate=duplicate, seed=seed, big_blind=bb,
                       raw=out[:, 0], aivat=out[:, 1], allin=out[:, 2], known=known,
                       seconds=time.perf_counter() - t0)


@dataclass(frozen=True)
class AIVATChunk:
    """Hands ``start .. stop - 1`` of an AIVAT match, for a worker: the agents are built
    there by ``make`` (an :data:`~pokerlab.evaluation.matches.AgentFactory`)."""

    make: Any
    names: tuple[str, str]
    game: str
    start: int
    stop: int
    duplicate: bool
    seed: int
    stack_bb: float
    value: str = "checkdown"


def aivat_chunk(c: AIVATChunk) -> AIVATResult:
    """One chunk's :class:`AIVATResult` (module-level, so worker processes can run it)."""
    hc = HoldemConfig.from_bb(c.stack_bb) if c.game == "hunl" else None
    a = c.make(c.names[0], c.game, hc, 0)
    b = c.make(c.names[1], c.game, hc, 1)
    return aivat_match(a, b, game=c.game, hands=c.stop - c.start, duplicate=c.duplicate,
                       seed=c.seed, stack_bb=c.stack_bb, names=c.names, value=c.value,
                       start=c.start)


def aivat_chunked(make: Any, names: tuple[str, str], *, game: str = "hunl",
                  hands: int = 1000, duplicate: bool = True, seed: int = 0,
                  stack_bb: float = 200.0, value: str = "checkdown", workers: int = 1,
                  ray_address: str | None = None,
                  progress: Any = None) -> AIVATResult:
    """:func:`aivat_match` of the agents ``make`` builds, in chunks of hands on the one
    executor (``workers`` processes, or Ray with ``ray_address``): the same deals and seeds
    hand by hand, so the result equals the one-process match whatever the split (agents
    are reset before every hand; an agent that learns starts afresh in every chunk, as in
    :func:`pokerlab.evaluation.matches.run_match`, so with one there is one chunk per
    worker)."""
    from pokerlab.evaluation.matches import hand_ranges
    from pokerlab.executor import check_workers, default_backend, map_chunks

    check_workers(workers, option="workers")
    spread = workers > 1 or ray_address is not None
    parts = 4 * max(2, workers) if spread else 1
    if spread:
        # an agent that learns starts afresh in every chunk: then one chunk per worker
        hc = HoldemConfig.from_bb(stack_bb) if game == "hunl" else None
        from pokerlab.holdem.view import learns

        if any(learns(make(names[k], game, hc, k)) for k in (0, 1)):
            parts = max(2, workers)
    chunks = [AIVATChunk(make=make, names=names, game=game, start=lo, stop=hi,
                         duplicate=duplicate, seed=seed, stack_bb=stack_bb, value=value)
              for lo, hi in hand_ranges(hands, parts)]
    t0 = time.perf_counter()
    res = map_chunks(aivat_chunk, chunks, backend=default_backend(workers, ray_address),
                     workers=workers, ray_address=ray_address, progress=progress,
                     size=lambda c: c.stop - c.start)
    first = res[0]
    return AIVATResult(agents=names, game=first.game, duplicate=duplicate, seed=seed,
                       big_blind=first.big_blind,
                       raw=np.concatenate([r.raw for r in res]),
                       aivat=np.concatenate([r.aivat for r in res]),
                       allin=np.concatenate([r.allin for r in res]), known=first.known,
                       seconds=time.perf_counter() - t0)
