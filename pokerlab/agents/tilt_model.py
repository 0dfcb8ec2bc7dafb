"""An opponent model learned in the match: the base policy tilted toward what the opponent
is seen to do.

The searching agent models its opponent's range by Bayes through a model of its play; by
default the blueprint, which is wrong for an opponent that plays nothing like it (a
calling station keeps every hand, a maniac raises with all of them, a tight player bets
only its strong hands).  This model starts as the base policy and follows the opponent as
hands are seen, in the spirit of Ganzfried & Sandholm's deviation-based best response
(DBBR, *Game theory-based opponent modeling in large imperfect-information games*, AAMAS
2011): it stays as close to the equilibrium-like base as the observations allow.

* **Situations.** Twelve classes of decisions: the street (preflop .. river) times what the
  player faces (nothing to call; a bet or the first raise, preflop the blinds or an open;
  a re-raise).  Each decision is one of three kinds: fold, check/call, bet/raise.
* **The tilt.** Per class and kind, a log multiplier that depends on the hand's strength:
  ``theta[kind] + beta[kind] * s(h)`` (check/call the reference, 0), where ``s(h)`` is the
  hand's strength on the board less a half (its hand strength against a random hand on
  the current board; preflop, its all-in equity's quantile).  The model's probability of
  an action with hand ``h`` is the base's, smoothed toward uniform by a small share
  (:data:`SMOOTH`; none when nothing is tilted: the model *is* the base until it has seen a
  deviation), times the multiplier of its kind, renormalised.  ``theta`` moves the kind's
  frequency; ``beta`` lets the model say that the opponent bets (or folds) by hand
  strength more or less than the base does.
* **Observations.** At the end of every hand (``observe_hand(view)``, the observer's
  :func:`~pokerlab.holdem.view.final_view`) the opponent's decisions in it (class, kind
  taken) and, for what it could hold (its cards when the showdown showed them, else
  every combo the observer's cards and the final board leave, grouped by identical data),
  the base's kind probabilities and the hand's strength at each of them
  (:class:`HandObservation`).
* **The fit.** ``(theta, beta)`` of fold and raise of every class is the MAP estimate
  under Gaussian priors (``PRIOR_SD``, ``SLOPE_SD``) of the likelihood of whole hands
  (:func:`fit_hands`: a hand's is the sum over what it could hold of the product of the
  model's probabilities of its decisions, exact per hand).  Per decision it would be
  biased: whether a hand is shown depends on its later actions (a shown hand never
  folded), so a shown hand's decisions may only be counted together with the unshown
  hands' as whole hands.  The latest :data:`WINDOW` hands, L-BFGS, refitted every 5 hands
  at first and every :data:`REFIT_EVERY` hands at most.
* **Confidence.** A class is *confident* when it has at least ``min_obs`` observations
  and its largest log multiplier over the hands (``|theta| + |beta| / 2``) is at least
  ``lock_theta``: the searching agent locks the opponent's decisions of such classes to
  the model in its subgames, and leaves the others free to be solved.

Deviation from DBBR: DBBR fits the model in the L1/L2 distance to an equilibrium strategy
per public history with hand-level structure from the equilibrium; here one tilt per
situation class (shared by all its nodes) with a strength slope is fitted by likelihood,
which generalises from few hands."""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.errors import AgentError

FOLD, CALL, RAISE = 0, 1, 2
KIND_NAMES = ("fold", "call", "raise")
NUM_CLASSES = 12
"""Four streets times three levels (nothing to call; a bet or the first raise; more)."""

PRIOR_SD = 3.0
"""Prior standard deviation of every ``theta`` (log multiplier at the middle strength)."""

POOL_SD = 1.5
"""Prior standard deviation of a class's ``theta`` and ``beta`` around its level's pooled
tilt (see :meth:`TiltModel.refit`)."""

SLOPE_SD = 2.0
"""Prior standard deviation of every ``beta`` (change of the log multiplier from the
weakest to the strongest hand)."""

SMOOTH = 0.003
"""Share of uniform mixed into the base's row before a tilt (none without one), so that a
hand the base never calls with can still be called with by a model of a calling station
(its fold multiplier then near ``SMOOTH``); small, so that it puts no structure of its own
into the rows the fit would have to undo."""

REFIT_EVERY = 100
"""Most hands between two refits of the tilt (see :meth:`TiltModel.due`)."""

WINDOW = 1000
"""Hands kept: the latest with a decision of the opponent (so the fit's cost is bounded
and the model follows an opponent that changes)."""

FREE = (FOLD, RAISE)
"""The kinds with parameters (check/call is the reference)."""


def situation(street: int, to_call: float, raises: int) -> int:
    """The class of a decision: ``3 * street + level``, level 0 with nothing to call, 1
    facing a bet or the first raise (preflop: the blinds or an open), 2 facing more."""
    level = 0 if to_call <= 0 else (1 if raises <= 1 else 2)
    return 3 * int(street) + level


def view_situation(view: Any) -> int:
    """:func:`situation` of a :class:`~pokerlab.holdem.view.PlayerView`."""
    from pokerlab.holdem.events import RaisedTo

    raises = sum(1 for e in view.street_action_events()[view.street] if isinstance(e, RaisedTo))
    to_call = max(view.bets) - view.bets[view.player]
    return situation(view.street, to_call, raises)


def action_kinds(actions: list[Any]) -> np.ndarray:
    """The kind (:data:`FOLD`, :data:`CALL`, :data:`RAISE`) of each real action."""
    from pokerlab.holdem.actions import ActionKind

    return np.array([FOLD if a.kind == ActionKind.FOLD else CALL if a.kind == ActionKind.CHECK_CALL
                     else RAISE for a in actions], dtype=np.int64)


_STRENGTH: OrderedDict[tuple[int, ...], np.ndarray] = OrderedDict()


def strength(board: Sequence[int]) -> np.ndarray:
    """Every combo's strength less a half (1326; 0 for combos the board blocks): preflop
    the quantile of its all-in equity against a random hand, after the flop its hand
    strength against a random hand on the board (wins and half the ties)."""
    key = tuple(int(c) for c in board)
    got = _STRENGTH.get(key)
    if got is not None:
        return got
    if not key:
        from pokerlab.agents.rules import preflop_quantiles

        out = preflop_quantiles() - 0.5
    else:
        from pokerlab.cards.cards import COMBOS
        from pokerlab.cards.evaluator import eval_tables
        from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
        from pokerlab.cards.range_kernels import hand_strength_all

        combos = np.ascontiguousarray(COMBOS, dtype=np.int64)
        bd = np.asarray(key, dtype=np.int64)
        ranks = np.zeros(combos.shape[0], dtype=np.int32)
        combos_on_board_kernel(eval_tables(), combos, bd, bd.size, ranks)
        hs = np.zeros(combos.shape[0])
        hand_strength_all(ranks, combos, hs)
        out = np.where(hs >= 0, hs - 0.5, 0.0)
    out = np.asarray(out, dtype=np.float64)
    out.setflags(write=False)
    _STRENGTH[key] = out
    if len(_STRENGTH) > 256:
        _STRENGTH.popitem(last=False)
    return out


@dataclass
class HandObservation:
    """One hand's decisions of the opponent (``D`` of them, in order): their classes, the
    kinds taken and the number of actions of each kind there (``ncols``: D x 3), and, for
    each group ``g`` of the hands it could hold (its shown cards, else every combo the
    observer's cards and the final board leave, grouped by identical data), the prior
    weight (``weights``, summing to 1), the base's kind probabilities at every decision
    (``rows``: G x D x 3) and the hand's strength there (``strengths``: G x D)."""

    classes: np.ndarray
    kinds: np.ndarray
    ncols: np.ndarray
    weights: np.ndarray
    rows: np.ndarray
    strengths: np.ndarray


@dataclass
class TiltObservations:
    """The latest :data:`WINDOW` hands with a decision of the opponent; ``hands``: every
    hand seen."""

    obs: deque[HandObservation] = field(default_factory=lambda: deque(maxlen=WINDOW))
    hands: int = 0

    def count(self, c: int) -> int:
        """Decisions of class ``c`` in the window."""
        return int(sum(int(np.count_nonzero(h.classes == c)) for h in self.obs))

    def add(self, h: HandObservation) -> None:
        self.obs.append(h)


def tilt_size(params: np.ndarray) -> float:
    """The largest log multiplier over the hands of a class's ``(theta, beta)`` (2 x 3):
    ``|theta| + |beta| / 2`` of its most tilted kind."""
    p = np.asarray(params, dtype=np.float64).reshape(2, 3)
    return float(np.max(np.abs(p[0]) + 0.5 * np.abs(p[1])))


def smoothing(params: np.ndarray) -> float:
    """Share of uniform mixed into the base's rows at tilt ``params``: 0 at no tilt, else
    :data:`SMOOTH`."""
    return SMOOTH if np.any(np.asarray(params) != 0.0) else 0.0


def kind_probs(rows: np.ndarray, strengths: np.ndarray, ncols: np.ndarray, params: np.ndarray,
               s: float) -> np.ndarray:
    """The tilted model's kind probabilities of base rows ``rows`` (m x 3) at hand
    strengths ``strengths`` (m): smoothed toward uniform over the ``ncols`` actions by
    ``s``, times ``exp(theta + beta * strength)`` per kind, normalised."""
    p = np.asarray(params, dtype=np.float64).reshape(2, 3)
    tot = max(float(ncols.sum()), 1.0)
    sm = (1.0 - s) * rows + s * (ncols / tot)
    x = sm * np.exp(p[0][None, :] + strengths[:, None] * p[1][None, :])
    z = x.sum(axis=-1, keepdims=True)
    return np.divide(x, z, out=np.full_like(x, 1.0 / 3.0), where=z > 0)


def fit_hands(hands: Sequence[HandObservation], *, prior_sd: float = PRIOR_SD,
              slope_sd: float = SLOPE_SD, start: np.ndarray | None = None,
              mean: np.ndarray | None = None, pooled: bool = False) -> np.ndarray:
    """MAP tilt of every class (12 x 2 x 3: ``theta`` and ``beta``, check/call fixed at 0)
    from whole hands: each hand's likelihood is the prior-weighted sum over what it could
    hold of the product over its decisions of the tilted model's probability of the kind
    taken (exact: a shown hand's decisions given its cards, an unshown one's given nothing
    but the public actions, so that showing, which depends on later actions, biases
    nothing); priors ``N(mean, prior_sd^2)`` on ``theta``, ``N(mean, slope_sd^2)`` on
    ``beta`` of fold and raise of every class (``mean``: 12 x 2 x 3, default 0).  L-BFGS
    from ``start`` (default 0).  ``pooled``: one tilt per level, every street's classes of
    a level counted as one (the answer repeated over the streets)."""
    from scipy.optimize import minimize

    params = np.zeros((NUM_CLASSES, 2, 3))
    hands = [h for h in hands if h.classes.size]
    if not hands:
        return params
    # one entry per (hand, group, decision)
    rows_l, sv_l, cls_l, kind_l, nc_l, logw_l = [], [], [], [], [], []
    for h in hands:
        g, d = h.rows.shape[0], h.rows.shape[1]
        rows_l.append(h.rows.reshape(g * d, 3))
        sv_l.append(h.strengths.reshape(g * d))
        cls_l.append(np.tile(h.classes, g))
        kind_l.append(np.tile(h.kinds, g))
        nc_l.append(np.tile(h.ncols, (g, 1)))
        logw_l.append(np.log(np.maximum(h.weights, 1e-300)))
    rows = np.concatenate(rows_l).astype(np.float64)
    sv = np.concatenate(sv_l).astype(np.float64)
    cls = np.concatenate(cls_l)
    if pooled:
        cls = cls % 3
    kinds = np.concatenate(kind_l)
    nc = np.concatenate(nc_l)
    logw = np.concatenate(logw_l)
    group_len = np.concatenate([np.full(h.rows.shape[0], h.rows.shape[1]) for h in hands])
    group_start = np.concatenate([[0], np.cumsum(group_len)[:-1]])
    hand_len = np.array([h.rows.shape[0] for h in hands])
    hand_start = np.concatenate([[0], np.cumsum(hand_len)[:-1]])
    tot = np.maximum(nc.sum(axis=1, keepdims=True), 1.0)
    sm = (1.0 - SMOOTH) * rows + SMOOTH * nc / tot
    logsm = np.log(np.maximum(sm, 1e-300))
    avail = nc > 0
    used = np.zeros((NUM_CLASSES, 3), dtype=bool)
    for k in FREE:
        used[np.unique(cls[avail[:, k]]), k] = True
    slots = [(c, k) for c in range(NUM_CLASSES) for k in FREE if used[c, k]]
    if not slots:
        return params
    nf = len(slots)
    prec = np.array([1.0 / prior_sd ** 2] * nf + [1.0 / slope_sd ** 2] * nf)
    mu = np.zeros(2 * nf) if mean is None else np.array(
        [float(mean[c, 0, k]) for c, k in slots] + [float(mean[c, 1, k]) for c, k in slots])
    idx = np.arange(rows.shape[0])
    onehot = np.zeros_like(rows)
    onehot[idx, kinds] = 1.0

    def unpack(x: np.ndarray) -> np.ndarray:
        p = np.zeros((NUM_CLASSES, 2, 3))
        for i, (c, k) in enumerate(slots):
            p[c, 0, k] = x[i]
            p[c, 1, k] = x[nf + i]
        return p

    def negpost(x: np.ndarray) -> tuple[float, np.ndarray]:
        p = unpack(x)
        logit = np.where(avail, logsm + p[cls, 0, :] + sv[:, None] * p[cls, 1, :], -np.inf)
        mx = logit.max(axis=1, keepdims=True)
        e = np.exp(logit - mx)
        z = e.sum(axis=1, keepdims=True)
        pi = e / z
        logpa = logit[idx, kinds] - mx[:, 0] - np.log(z[:, 0])
        glog = np.add.reduceat(logpa, group_start) + logw  # log w_g prod pi, per group
        hmax = np.maximum.reduceat(glog, hand_start)
        ge = np.exp(glog - np.repeat(hmax, hand_len))
        hs = np.add.reduceat(ge, hand_start)
        ll = float((np.log(hs) + hmax).sum())
        resp = np.repeat(ge / np.repeat(hs, hand_len), group_len)  # each entry's group share
        d = (onehot - pi) * resp[:, None]  # d log L / d logit, per entry and kind
        g_theta = np.stack([np.bincount(cls, weights=d[:, k], minlength=NUM_CLASSES)
                            for k in range(3)], axis=1)
        g_beta = np.stack([np.bincount(cls, weights=d[:, k] * sv, minlength=NUM_CLASSES)
                           for k in range(3)], axis=1)
        grad = np.array([g_theta[c, k] for c, k in slots] + [g_beta[c, k] for c, k in slots])
        dev = x - mu
        val = ll - 0.5 * float((prec * dev * dev).sum())
        return -val, -(grad - prec * dev)

    if start is None:
        x0 = np.zeros(2 * nf)
    else:
        st0 = np.asarray(start, dtype=np.float64)
        x0 = np.array([st0[c, 0, k] for c, k in slots] + [st0[c, 1, k] for c, k in slots])
    res = minimize(negpost, x0, jac=True, method="L-BFGS-B",
                   bounds=[(-12.0, 12.0)] * nf + [(-24.0, 24.0)] * nf)
    out = unpack(np.asarray(res.x, dtype=np.float64))
    if pooled:
        out = np.stack([out[c % 3] for c in range(NUM_CLASSES)])
    return out


class TiltModel:
    """The base agent ``base`` tilted per situation class (see the module docstring).  It
    answers range queries (``action_probabilities_all_hands(view, live)``) as an agent does,
    so :class:`~pokerlab.agents.beliefs.HoldemBeliefs` tracks ranges through it and the
    searching agent locks subgame decisions to it."""

    all_hands_live = True

    def __init__(self, base: Any, *, min_obs: int = 50, lock_theta: float = 2.0,
                 prior_sd: float = PRIOR_SD, slope_sd: float = SLOPE_SD) -> None:
        if min_obs < 1 or not (math.isfinite(lock_theta) and lock_theta > 0):
            raise AgentError(f"tilt model: min_obs must be >= 1 and lock_theta > 0, got "
                             f"{min_obs!r} and {lock_theta!r}")
        self.base = base
        self.name = f"{getattr(base, 'name', 'base')}-tilt"
        self.min_obs = int(min_obs)
        self.lock_theta = float(lock_theta)
        self.prior_sd = float(prior_sd)
        self.slope_sd = float(slope_sd)
        self.start_match()

    # ----------------------------------------------------------------- learning
    def start_match(self) -> None:
        """Forget every observation: the model is the base again."""
        self.obs = TiltObservations()
        self.params = np.zeros((NUM_CLASSES, 2, 3))
        self.pooled = np.zeros((NUM_CLASSES, 2, 3))
        self.counts = np.zeros(NUM_CLASSES, dtype=np.int64)
        self.fitted_hands = 0

    @property
    def theta(self) -> np.ndarray:
        """Per class, the log multipliers at the middle strength (12 x 3)."""
        return self.params[:, 0, :]

    def reset(self, seed: int) -> None:
        self.base.reset(seed)

    def observe_hand(self, view: Any) -> int:
        """Record the opponent's decisions in the finished hand ``view`` (a
        :func:`~pokerlab.holdem.view.final_view` of the learner's seat: its cards only
        where the showdown showed them, :class:`HandObservation`); returns how many."""
        from pokerlab.agents.beliefs import blocked_by_board, with_some_hole
        from pokerlab.cards.cards import COMBO_INDEX, COMBO_MASKS, cards_mask
        from pokerlab.holdem.engine import HoldemState
        from pokerlab.holdem.events import (
            BoardDealt,
            CheckedOrCalled,
            Folded,
            RaisedTo,
            event_to_action,
        )
        from pokerlab.holdem.view import make_view
        from pokerlab.policy.range_query import all_hands_probabilities

        events = view.events
        opp = int(view.opponent)
        mine = tuple(view.hole)
        shown = view.opponent_hole
        final = [c for e in events if isinstance(e, BoardDealt) for c in e.cards]
        prior = ~((COMBO_MASKS & np.uint64(cards_mask(list(mine) + final))) != 0)
        if shown is not None:
            prior = np.zeros(1326, dtype=bool)
            prior[int(COMBO_INDEX[shown[0], shown[1]])] = True
        st = HoldemState(config=view.config)
        st.deal_hole(None)
        st.deal_hole(None)
        classes: list[int] = []
        kinds_taken: list[int] = []
        ncols: list[np.ndarray] = []
        per_hand: list[np.ndarray] = []
        strengths: list[np.ndarray] = []
        for e in events:
            if isinstance(e, BoardDealt):
                st.deal_board(list(e.cards))
                continue
            if not isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
                continue
            act = event_to_action(e)
            if int(st.actor) == opp:
                live = prior & ~blocked_by_board(st.board)
                acts, probs = all_hands_probabilities(self.base, with_some_hole(make_view(st, opp)), live)
                kinds = action_kinds(acts)
                kind = int(action_kinds([act])[0])
                if kind in kinds:
                    per = np.zeros((1326, 3))
                    for k in range(3):
                        cols = kinds == k
                        if cols.any():
                            per[:, k] = np.asarray(probs, dtype=np.float64)[:, cols].sum(axis=1)
                    tot = per.sum(axis=1, keepdims=True)
                    per = np.divide(per, tot, out=np.zeros_like(per), where=tot > 0)
                    prior &= tot[:, 0] > 0
                    classes.append(situation(st.street, st.to_call, st.num_raises))
                    kinds_taken.append(kind)
                    ncols.append(np.bincount(kinds, minlength=3).astype(np.float64))
                    per_hand.append(per)
                    strengths.append(strength(st.board))
            st.apply(act)
        self.obs.hands += 1
        if not classes or not prior.any():
            return 0
        live = np.flatnonzero(prior)
        d = len(classes)
        data = np.concatenate([np.stack([p[live] for p in per_hand], axis=1).reshape(live.size, 3 * d),
                               np.stack([sv[live] for sv in strengths], axis=1)], axis=1)
        key = np.concatenate([np.round(data[:, :3 * d], 4), np.round(data[:, 3 * d:] * 32.0) / 32.0], axis=1)
        uniq, first, inv = np.unique(key, axis=0, return_index=True, return_inverse=True)
        w = np.bincount(inv.reshape(-1), minlength=uniq.shape[0]).astype(np.float64)
        rep = data[first]
        self.obs.add(HandObservation(
            classes=np.asarray(classes, dtype=np.int64), kinds=np.asarray(kinds_taken, dtype=np.int64),
            ncols=np.stack(ncols), weights=w / w.sum(),
            rows=rep[:, :3 * d].reshape(-1, d, 3).astype(np.float32),
            strengths=rep[:, 3 * d:].astype(np.float32)))
        return d

    def refit(self) -> None:
        """The tilt of every class from the hands in the window (:func:`fit_hands`): first
        one tilt per level over the streets, then every class's around it (its prior's
        mean), so that a street with few decisions (the river against a maniac) takes
        what the others show; warm-started at the current tilts."""
        self.pooled = fit_hands(self.obs.obs, prior_sd=self.prior_sd, slope_sd=self.slope_sd,
                                start=self.pooled, pooled=True)
        self.params = fit_hands(self.obs.obs, prior_sd=POOL_SD, slope_sd=POOL_SD,
                                start=self.params if np.any(self.params) else self.pooled,
                                mean=self.pooled)
        self.counts = np.array([self.obs.count(c) for c in range(NUM_CLASSES)])
        self.fitted_hands = self.obs.hands

    def due(self) -> bool:
        """Whether a refit is due: every 5 hands up to 100 hands, then every tenth of the
        hands seen, at most every :data:`REFIT_EVERY` hands."""
        since = self.obs.hands - self.fitted_hands
        return since >= min(REFIT_EVERY, max(5, self.obs.hands // 10))

    def level_count(self, level: int) -> int:
        """Decisions of level ``level`` (0 nothing to call, 1 facing a bet, 2 more) over the
        streets, in the window."""
        return int(self.counts[level::3].sum())

    def confident(self, c: int) -> bool:
        """Whether class ``c`` is known well enough and tilted enough to lock: a tilt of at
        least ``lock_theta`` resting on ``min_obs`` decisions of its own, or on four times
        as many of its level over the streets whose pooled tilt is as large."""
        if tilt_size(self.params[c]) < self.lock_theta:
            return False
        if int(self.counts[c]) >= self.min_obs:
            return True
        return self.level_count(c % 3) >= 4 * self.min_obs and tilt_size(self.pooled[c]) >= self.lock_theta

    def deviates(self) -> bool:
        """Whether any class is tilted at all (else the model equals the base)."""
        return bool(np.any(self.params != 0.0))

    def summary(self) -> dict[str, Any]:
        """Per class with observations: count, multipliers at the weakest, middle and
        strongest hands, confidence."""
        streets = ("preflop", "flop", "turn", "river")
        levels = ("open", "facing bet", "facing raise")
        out: dict[str, Any] = {}
        for c in range(NUM_CLASSES):
            if self.counts[c]:
                th, be = self.params[c]
                out[f"{streets[c // 3]} {levels[c % 3]}"] = {
                    "observations": int(self.counts[c]),
                    "multipliers": {k: [round(float(math.exp(t + b * x)), 4) for x in (-0.5, 0.0, 0.5)]
                                    for k, t, b in zip(KIND_NAMES, th, be, strict=True)},
                    "locked": self.confident(c)}
        return out

    # ------------------------------------------------------------- range queries
    def tilt(self, c: int, kinds: np.ndarray, probs: np.ndarray, strengths: np.ndarray) -> np.ndarray:
        """The base's rows ``probs`` (1326 hands x actions of ``kinds``) tilted by class
        ``c`` at the hands' ``strengths`` (1326): smoothed toward uniform over the actions
        by :func:`smoothing`, each action times ``exp(theta + beta * strength)`` of its
        kind, renormalised (rows of zeros stay zero)."""
        p = self.params[c]
        if not np.any(p):
            return probs
        s = smoothing(p)
        k = probs.shape[1]
        tot = probs.sum(axis=1, keepdims=True)
        smooth = (1.0 - s) * probs + s * tot / k
        logm = p[0][kinds][None, :] + strengths[:, None] * p[1][kinds][None, :]
        out = smooth * np.exp(logm)
        z = out.sum(axis=1, keepdims=True)
        return np.divide(out * tot, z, out=np.zeros_like(out), where=z > 0)

    def action_probabilities_all_hands(self, view: Any, live: np.ndarray | None = None
                                       ) -> tuple[list[Any], np.ndarray]:
        from pokerlab.policy.range_query import all_hands_probabilities

        acts, probs = all_hands_probabilities(self.base, view, live)
        return acts, self.tilt(view_situation(view), action_kinds(acts), np.asarray(probs, dtype=np.float64),
                               strength(view.board))

    def action_probabilities(self, view: Any) -> list[tuple[Any, float]]:
        from pokerlab.cards.cards import COMBO_INDEX

        live = np.zeros(1326, dtype=bool)
        h = int(COMBO_INDEX[view.hole[0], view.hole[1]])
        live[h] = True
        acts, probs = self.action_probabilities_all_hands(view, live)
        return [(a, float(p)) for a, p in zip(acts, probs[h], strict=True) if p > 0]
