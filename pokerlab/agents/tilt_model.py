"""An opponent model learned in the match: the base policy tilted toward the opponent's
observed action frequencies.

The searching agent models its opponent's range by Bayes through a model of its play; by
default the blueprint, which is wrong for an opponent that plays nothing like it (a
calling station keeps every hand, a maniac raises with all of them).  This model starts as
the base policy and follows the opponent's **frequencies per situation** as hands are
seen, in the spirit of Ganzfried & Sandholm's deviation-based best response (DBBR, *Game
theory-based opponent modeling in large imperfect-information games*, AAMAS 2011): the
model stays as close to the equilibrium-like base as the observed frequencies allow.

* **Situations.** Twelve classes of decisions: the street (preflop .. river) times what the
  player faces (nothing to call; a bet or the first raise, preflop the blinds or an open;
  a re-raise).  Each decision is one of three kinds: fold, check/call, bet/raise.
* **Observations.** At the end of every hand (``observe_hand``) each of the opponent's
  decisions gives its class, the kind it took, and the base policy's kind distribution
  ``q`` there: the mean row over the opponent's range at that point (Bayes through the
  base along the hand, card removal by the board and the observer's own cards; shown
  cards are not used, see :meth:`TiltModel.observe_hand`).
* **The tilt.** Per class, a multiplier ``exp(theta[kind])`` per kind (check/call the
  reference, ``theta = 0``): the model's probability of an action with hand ``h`` is the
  base's, smoothed toward uniform by a share that grows with the tilt (0 when ``theta = 0``:
  the model *is* the base until it has seen a deviation), times the multiplier of its kind,
  renormalised.  ``theta`` is the MAP estimate under a Gaussian prior ``N(0, PRIOR_SD^2)``
  of the exact likelihood: each observed kind's probability is the range-weighted mean,
  over the opponent's possible hands, of the tilted model's probability of that kind (the
  hands grouped by the base's distinct rows, so an observation costs a few hundred
  numbers); a few hands move it little, a hundred decisions of a calling station drive its
  fold and raise multipliers to near zero.
* **Confidence.** A class is *confident* when it has at least ``min_obs`` observations and
  some kind's ``|theta|`` is at least ``lock_theta``: the searching agent locks the
  opponent's decisions of such classes to the model in its subgames (``lock=auto``), and
  leaves the others free to be solved.

Deviation from DBBR: DBBR fits the model in the L1/L2 distance to an equilibrium strategy
per public history with hand-level structure from the equilibrium; here one exponential
tilt per situation class (shared by all nodes of the class) is fitted, which generalises
from few hands, and the fit uses the base's aggregate distribution as offsets (exact when
the opponent's cards were shown)."""

from __future__ import annotations

import math
from collections import deque
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
"""Prior standard deviation of every ``theta`` (log multiplier)."""

SMOOTH = 0.05
"""Largest share of uniform mixed into the base's row before the tilt (reached when the
class's largest ``|theta|`` is 1), so that a hand the base never calls with can still be
called with by a model of a calling station."""



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


@dataclass
class Observation:
    """One decision of the opponent: the base's kind probabilities of each distinct row
    over its range there (``rows``: m x 3, summed over each kind's actions), the range's
    weight on each row (``weights``, summing to 1), the number of actions of each kind
    (``ncols``) and the kind taken."""

    rows: np.ndarray
    weights: np.ndarray
    ncols: np.ndarray
    kind: int


REFIT_EVERY = 50
"""Most hands between two refits of the tilt (see :meth:`TiltModel.due`)."""

WINDOW = 2000
"""Observations kept per class: the latest (so the fit's cost is bounded and the model
follows an opponent that changes)."""


@dataclass
class TiltObservations:
    """Per class, its latest :data:`WINDOW` observations; ``hands`` seen; ``seen`` per
    class, every observation ever added."""

    obs: list[deque[Observation]] = field(
        default_factory=lambda: [deque(maxlen=WINDOW) for _ in range(NUM_CLASSES)])
    seen: list[int] = field(default_factory=lambda: [0] * NUM_CLASSES)
    hands: int = 0

    def count(self, c: int) -> int:
        return len(self.obs[c])

    def add(self, c: int, o: Observation) -> None:
        self.obs[c].append(o)
        self.seen[c] += 1


def smoothing(theta: np.ndarray) -> float:
    """Share of uniform mixed into the base's rows at tilt ``theta``: 0 at no tilt, growing
    to :data:`SMOOTH` as the largest ``|theta|`` reaches 1."""
    return SMOOTH * min(1.0, float(np.abs(theta).max()))


def kind_probs(rows: np.ndarray, ncols: np.ndarray, theta: np.ndarray, s: float) -> np.ndarray:
    """The tilted model's kind probabilities of base rows ``rows`` (..., 3): smoothed toward
    uniform over the ``ncols`` actions by ``s``, times ``exp(theta)``, normalised."""
    tot = max(float(ncols.sum()), 1.0)
    sm = (1.0 - s) * rows + s * (ncols / tot)
    x = sm * np.exp(theta)
    z = x.sum(axis=-1, keepdims=True)
    return np.divide(x, z, out=np.full_like(x, 1.0 / 3.0), where=z > 0)


def fit_theta(observations: Sequence[Observation], *, prior_sd: float = PRIOR_SD,
              rounds: int = 3, start: np.ndarray | None = None) -> np.ndarray:
    """MAP ``theta`` (3, check/call fixed at 0) of the tilt for one class: the likelihood of
    each observed kind is the range-weighted mean over the base's rows of the tilted
    model's probability of that kind (exact per hand), the prior ``N(0, prior_sd^2)`` on
    the fold and raise entries.  L-BFGS on the two free entries from ``start`` (default
    0); the smoothing share follows ``theta`` over a few ``rounds``."""
    from scipy.optimize import minimize

    theta = np.zeros(3)
    if not observations:
        return theta
    m = max(o.rows.shape[0] for o in observations)
    n = len(observations)
    rows = np.zeros((n, m, 3))
    w = np.zeros((n, m))
    nc = np.zeros((n, 1, 3))
    kinds = np.zeros(n, dtype=np.int64)
    for i, o in enumerate(observations):
        rows[i, :o.rows.shape[0]] = o.rows
        w[i, :o.rows.shape[0]] = o.weights
        nc[i, 0] = o.ncols
        kinds[i] = o.kind
    avail = nc[:, 0, :] > 0
    free = [k for k in (FOLD, RAISE) if avail[:, k].any()]
    if not free:
        return theta
    tot = np.maximum(nc.sum(axis=2, keepdims=True), 1.0)
    prec = 1.0 / (prior_sd * prior_sd)
    idx = np.arange(n)

    def negpost(x: np.ndarray, s: float) -> tuple[float, np.ndarray]:
        th = np.zeros(3)
        th[free] = x
        sm = (1.0 - s) * rows + s * (nc / tot)
        e = sm * np.exp(th)
        z = e.sum(axis=2, keepdims=True)
        pi = np.divide(e, z, out=np.zeros_like(e), where=z > 0)  # n, m, 3
        pa = pi[idx, :, kinds]  # n, m
        lik = np.maximum((w * pa).sum(axis=1), 1e-300)
        # d pi(a) / d theta_b = pi(a) (1[a = b] - pi(b))
        g = np.zeros(3)
        for b in free:
            d = w * pa * ((kinds == b)[:, None] - pi[:, :, b])
            g[b] = float((d.sum(axis=1) / lik).sum())
        val = float(np.log(lik).sum()) - 0.5 * prec * float(x @ x)
        grad = g[free] - prec * x
        return -val, -grad

    x = np.zeros(len(free)) if start is None else np.asarray(start, dtype=np.float64)[free].copy()
    for _ in range(rounds):
        th = np.zeros(3)
        th[free] = x
        s = smoothing(th) if np.any(x) else SMOOTH
        res = minimize(negpost, x, args=(s,), jac=True, method="L-BFGS-B",
                       bounds=[(-12.0, 12.0)] * len(free))
        x = np.asarray(res.x, dtype=np.float64)
    theta[free] = x
    return theta


class TiltModel:
    """The base agent ``base`` tilted per situation class (see the module docstring).  It
    answers range queries (``action_probabilities_all_hands(view, live)``) as an agent does,
    so :class:`~pokerlab.agents.beliefs.HoldemBeliefs` tracks ranges through it and the
    searching agent locks subgame decisions to it."""

    all_hands_live = True

    def __init__(self, base: Any, *, min_obs: int = 50, lock_theta: float = 2.0,
                 prior_sd: float = PRIOR_SD) -> None:
        if min_obs < 1 or not (math.isfinite(lock_theta) and lock_theta > 0):
            raise AgentError(f"tilt model: min_obs must be >= 1 and lock_theta > 0, got "
                             f"{min_obs!r} and {lock_theta!r}")
        self.base = base
        self.name = f"{getattr(base, 'name', 'base')}-tilt"
        self.min_obs = int(min_obs)
        self.lock_theta = float(lock_theta)
        self.prior_sd = float(prior_sd)
        self.start_match()

    # ----------------------------------------------------------------- learning
    def start_match(self) -> None:
        """Forget every observation: the model is the base again."""
        self.obs = TiltObservations()
        self.theta = np.zeros((NUM_CLASSES, 3))
        self.fitted_hands = 0

    def reset(self, seed: int) -> None:
        self.base.reset(seed)

    def observe_hand(self, state: Any, opponent: int) -> int:
        """Count the decisions of player ``opponent`` in the finished hand ``state``;
        returns how many were counted.  Shown cards are not used: each decision's offsets
        condition on what was public before it (and the observer's own cards) only, so
        that under the base policy every observation is unbiased (a hand's showing depends
        on its later actions; using its cards would bias the earlier ones)."""
        from pokerlab.agents.beliefs import _blocked, _with_some_hole, action_column
        from pokerlab.cards.cards import COMBO_MASKS, cards_mask
        from pokerlab.evaluation.lbr import all_hands_probabilities
        from pokerlab.holdem.engine import HoldemState
        from pokerlab.holdem.events import (
            BoardDealt,
            CheckedOrCalled,
            Folded,
            RaisedTo,
            event_to_action,
            events_of,
        )
        from pokerlab.holdem.view import make_view

        events = events_of(state)
        opp = int(opponent)
        me = 1 - opp
        mine = tuple(state.hole[me])
        st = HoldemState(config=state.config)
        st.deal_hole(None)
        st.deal_hole(None)
        rng = np.where((COMBO_MASKS & np.uint64(cards_mask(list(mine)))) != 0, 0.0, 1.0)
        n = 0
        for e in events:
            if isinstance(e, BoardDealt):
                st.deal_board(list(e.cards))
                rng[_blocked(st.board)] = 0.0
                continue
            if not isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
                continue
            act = event_to_action(e)
            if int(st.actor) == opp:
                live = rng > 0
                if live.any():
                    view = _with_some_hole(make_view(st, opp))
                    acts, probs = all_hands_probabilities(self.base, view, live)
                    kinds = action_kinds(acts)
                    kind = int(action_kinds([act])[0])
                    if kind in kinds:
                        o = _observation(rng, probs, kinds, kind)
                        if o is not None:
                            self.obs.add(situation(st.street, st.to_call, st.num_raises), o)
                            n += 1
                    k = action_column(acts, act)
                    if k >= 0:
                        new = rng * probs[:, k]
                        if new.sum() > 1e-12 * max(float(rng.sum()), 1e-300):
                            rng = new
            st.apply(act)
        self.obs.hands += 1
        return n

    def refit(self, classes: Any = None) -> None:
        """``theta`` of every class (or of ``classes``) from its observations
        (:func:`fit_theta`, warm-started at the current ``theta``: one round when it is
        already tilted)."""
        for c in (range(NUM_CLASSES) if classes is None else classes):
            if not self.obs.count(c):
                self.theta[c] = 0.0
                continue
            warm = bool(np.any(self.theta[c]))
            self.theta[c] = fit_theta(self.obs.obs[c], prior_sd=self.prior_sd, rounds=1 if warm else 3,
                                      start=self.theta[c] if warm else None)
        self.fitted_hands = self.obs.hands

    def due(self) -> bool:
        """Whether a refit is due: every 5 hands up to 100 hands, then every tenth of the
        hands seen, at most every :data:`REFIT_EVERY` hands."""
        since = self.obs.hands - self.fitted_hands
        return since >= min(REFIT_EVERY, max(5, self.obs.hands // 10))

    def confident(self, c: int) -> bool:
        """Whether class ``c`` has enough observations and a large enough tilt to lock."""
        return self.obs.count(c) >= self.min_obs and float(np.abs(self.theta[c]).max()) >= self.lock_theta

    def deviates(self) -> bool:
        """Whether any class is tilted at all (else the model equals the base)."""
        return bool(np.any(self.theta != 0.0))

    def summary(self) -> dict[str, Any]:
        """Per class with observations: count, multipliers, confidence."""
        streets = ("preflop", "flop", "turn", "river")
        levels = ("open", "facing bet", "facing raise")
        out: dict[str, Any] = {}
        for c in range(NUM_CLASSES):
            if self.obs.count(c):
                out[f"{streets[c // 3]} {levels[c % 3]}"] = {
                    "observations": self.obs.count(c),
                    "multipliers": {k: round(float(math.exp(t)), 4)
                                    for k, t in zip(KIND_NAMES, self.theta[c], strict=True)},
                    "locked": self.confident(c)}
        return out

    # ------------------------------------------------------------- range queries
    def tilt(self, c: int, kinds: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """The base's rows ``probs`` (hands x actions of ``kinds``) tilted by class ``c``:
        smoothed toward uniform over the actions by :func:`smoothing`, each action times
        ``exp(theta[its kind])``, renormalised (rows of zeros stay zero)."""
        th = self.theta[c]
        if not np.any(th):
            return probs
        s = smoothing(th)
        k = probs.shape[1]
        tot = probs.sum(axis=1, keepdims=True)
        smooth = (1.0 - s) * probs + s * tot / k
        out = smooth * np.exp(th[kinds])[None, :]
        z = out.sum(axis=1, keepdims=True)
        return np.divide(out * tot, z, out=np.zeros_like(out), where=z > 0)

    def action_probabilities_all_hands(self, view: Any, live: np.ndarray | None = None
                                       ) -> tuple[list[Any], np.ndarray]:
        from pokerlab.evaluation.lbr import all_hands_probabilities

        acts, probs = all_hands_probabilities(self.base, view, live)
        return acts, self.tilt(view_situation(view), action_kinds(acts), np.asarray(probs, dtype=np.float64))

    def action_probabilities(self, view: Any) -> list[tuple[Any, float]]:
        from pokerlab.cards.cards import COMBO_INDEX

        live = np.zeros(1326, dtype=bool)
        h = int(COMBO_INDEX[view.hole[0], view.hole[1]])
        live[h] = True
        acts, probs = self.action_probabilities_all_hands(view, live)
        return [(a, float(p)) for a, p in zip(acts, probs[h], strict=True) if p > 0]


def _observation(rng: np.ndarray, probs: np.ndarray, kinds: np.ndarray, kind: int) -> Observation | None:
    """An :class:`Observation` from the range ``rng`` (1326) and the base's rows ``probs``
    (1326 x actions of ``kinds``): hands grouped by their (kind-summed) row."""
    live = rng > 0
    if not live.any():
        return None
    per = np.zeros((int(live.sum()), 3))
    p = probs[live]
    for k in range(3):
        cols = kinds == k
        if cols.any():
            per[:, k] = p[:, cols].sum(axis=1)
    tot = per.sum(axis=1)
    keep = tot > 0
    if not keep.any():
        return None
    per = per[keep] / tot[keep, None]
    w = rng[live][keep]
    uniq, inv = np.unique(np.round(per, 6), axis=0, return_inverse=True)
    counts = np.bincount(inv.reshape(-1), weights=w, minlength=uniq.shape[0]).astype(np.float64)
    weights = counts / float(counts.sum())
    ncols = np.bincount(kinds, minlength=3).astype(np.float64)
    return Observation(rows=uniq, weights=weights, ncols=ncols, kind=int(kind))
