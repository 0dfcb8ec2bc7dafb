"""Exploiting a modelled opponent on small games, exactly.

* :func:`best_response_to_model` -- the best response to a model (both seats), its gain
  against the model and the exploitability it gives up.
* :func:`restricted_response` -- the restricted Nash response (Johanson, Zinkevich &
  Bowling 2007, "Computing robust counter-strategies", NIPS): for ``p`` in [0, 1] the
  strategy that is best against "the model with probability ``p``, a worst-case opponent
  with probability ``1 - p``".  Two methods that agree: the sequence-form LP
  (``method="lp"``, exact) and CFR+ on the transformed game (``method="cfr"``).
* :func:`data_biased_response` -- Johanson & Bowling 2009 ("Data biased robust counter
  strategies", AISTATS): at each opponent information set the model is followed with a
  probability ``P_conf(I)`` that grows with the observations there.
* :func:`locked_response` -- node locking: the opponent is fixed to the model at chosen
  information sets and plays a worst case elsewhere.
* :func:`response_curve` / :func:`mixture_curve` -- the (exploitability, gain) trade-off
  of RNR over ``p``, and of the naive mixture of equilibrium and best response.

Units: ``gain`` is chips per hand against the model, averaged over the two seats (so the
game value cancels: an equilibrium has gain 0 against itself);  ``exploitability`` is
OpenSpiel's (mean over seats of the best-response gains), chips per hand.

LP endpoints are lexicographic: at ``p = 0`` the LP first maximises the worst case, then
(keeping it) the gain against the model -- the best equilibrium for this opponent; at
``p = 1`` it first maximises the gain, then the worst case -- the least exploitable best
response.  Between, one LP with the weighted objective.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.agents.adapt import combine_slots
from pokerlab.agents.adapt import realization_plan as _realization
from pokerlab.agents.adapt import rnr_slots as _rnr_lp
from pokerlab.agents.adapt import sequences as _sequences
from pokerlab.errors import ConfigError
from pokerlab.evaluation.exploit import (
    best_response,
    expected_values,
    exploitability,
    policy_slot_probs,
)
from pokerlab.games.compiled import KIND_TERMINAL, CompiledGame, compile_game
from pokerlab.policy.base import Policy
from pokerlab.policy.tabular import TabularPolicy
from pokerlab.solvers.lp import behaviour_from_plan as _behaviour

from . import response_kernels as rk


@dataclass(frozen=True, kw_only=True)
class Response:
    """A counter-strategy (both seats) and how it does."""

    method: str
    p: float
    gain: float                  # chips/hand vs the model, mean of the two seats
    exploitability: float        # chips/hand, OpenSpiel's convention
    seat_values: tuple[float, float]   # value as player 0 and as player 1 vs the model
    slot_probs: np.ndarray = field(repr=False)
    policy: TabularPolicy = field(repr=False)


def compiled_game(game: Any) -> CompiledGame:
    cg = game if isinstance(game, CompiledGame) else compile_game(game)
    if cg.num_players != 2:
        raise ConfigError(f"opponent exploitation needs a two-player game, got {cg.num_players}")
    return cg


def _check_zero_sum(cg: CompiledGame) -> None:
    term = np.nonzero(cg.kind == KIND_TERMINAL)[0]
    if np.max(np.abs(cg.utility[term].sum(axis=1)), initial=0.0) > 1e-9:
        raise ConfigError(f"game {cg.game_name!r} is not zero-sum")


def model_slots(game: Any, model: Policy | np.ndarray) -> np.ndarray:
    """The model's probability at every (information set, action) slot."""
    cg = compiled_game(game)
    return model if isinstance(model, np.ndarray) else policy_slot_probs(cg, model)


def _to_policy(cg: CompiledGame, slots: np.ndarray, meta: dict[str, Any]) -> TabularPolicy:
    rows = []
    for i, key in enumerate(cg.infoset_keys):
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        rows.append((key, cg.infoset_actions[lo:hi], slots[lo:hi]))
    return TabularPolicy.from_rows(rows, metadata=meta)


def evaluate_response(game: Any, response: np.ndarray, model: Policy | np.ndarray,
                      *, method: str = "given", p: float = float("nan"),
                      meta: dict[str, Any] | None = None) -> Response:
    """Gain against ``model`` and exploitability of a counter-strategy (slot probs)."""
    cg = compiled_game(game)
    msp = model_slots(cg, model)
    v0 = float(expected_values(cg, combine_slots(cg, response, msp, 0))[0])
    v1 = float(expected_values(cg, combine_slots(cg, response, msp, 1))[1])
    expl = float(exploitability(cg, response))
    pol = _to_policy(cg, response, {"game": cg.game_name, "algo": method, "p": p,
                                    **(meta or {})})
    return Response(method=method, p=p, gain=0.5 * (v0 + v1), exploitability=expl,
                    seat_values=(v0, v1), slot_probs=response, policy=pol)


def best_response_to_model(game: Any, model: Policy | np.ndarray) -> Response:
    """The exact best response to ``model`` in both seats (pokerlab.evaluation's)."""
    cg = compiled_game(game)
    msp = model_slots(cg, model)
    out = np.zeros(cg.num_slots)
    for player in (0, 1):
        br = best_response(cg, msp, player)
        idx = cg._index_map()
        for key in br.policy.keys():
            i = idx[key]
            lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
            out[lo:hi] = br.policy.probabilities(key)
    return evaluate_response(cg, out, msp, method="br", p=1.0)


# ----------------------------------------------------------------- CFR on the transformed game
def _restricted_cfr(cg: CompiledGame, msp: np.ndarray, world_w: np.ndarray, conf: np.ndarray,
                    iterations: int) -> np.ndarray:
    if iterations < 1:
        raise ConfigError(f"iterations must be >= 1, got {iterations}")
    out = np.zeros(cg.num_slots)
    for exploiter in (0, 1):
        sl = rk.restricted_cfr(cg.kind, cg.player, cg.infoset, cg.child_start, cg.child_count,
                               cg.children, cg.edge_prob, cg.edge_slot, cg.utility,
                               cg.infoset_player, cg.infoset_offset, exploiter,
                               np.ascontiguousarray(world_w, dtype=np.float64),
                               np.ascontiguousarray(conf, dtype=np.float64),
                               np.ascontiguousarray(msp, dtype=np.float64), int(iterations))
        out = combine_slots(cg, sl, out, exploiter)
    return out


def _check_p(p: float) -> float:
    if not (isinstance(p, int | float) and 0.0 <= float(p) <= 1.0):
        raise ConfigError(f"p must be a number in [0, 1], got {p!r}")
    return float(p)


def restricted_response(game: Any, model: Policy | np.ndarray, p: float, *,
                        method: str = "lp", iterations: int = 2000) -> Response:
    """Restricted Nash response to ``model`` with model weight ``p`` (see module docs)."""
    p = _check_p(p)
    cg = compiled_game(game)
    _check_zero_sum(cg)
    msp = model_slots(cg, model)
    if method == "lp":
        slots = _rnr_lp(cg, msp, p)
    elif method == "cfr":
        conf = np.zeros((2, cg.num_infosets))
        conf[0, :] = 1.0
        slots = _restricted_cfr(cg, msp, np.array([p, 1.0 - p]), conf, iterations)
    else:
        raise ConfigError(f"unknown method {method!r}; expected 'lp' or 'cfr'")
    return evaluate_response(cg, slots, msp, method=f"rnr-{method}", p=p)


def confidence(counts: np.ndarray, *, max_conf: float = 1.0, full_at: float = 10.0,
               min_obs: float = 0.0) -> np.ndarray:
    """``P_conf`` per information set from its observation count (the paper's linear family):
    0 below ``min_obs`` observations, then ``max_conf * min(1, n / full_at)``."""
    if not 0.0 <= max_conf <= 1.0:
        raise ConfigError(f"max_conf must be in [0, 1], got {max_conf!r}")
    if full_at <= 0:
        raise ConfigError(f"full_at must be > 0, got {full_at!r}")
    c = max_conf * np.minimum(1.0, np.asarray(counts, dtype=np.float64) / full_at)
    return np.where(np.asarray(counts) < min_obs, 0.0, c)


def infoset_counts(game: Any, counts_by_key: dict[str, float]) -> np.ndarray:
    """Observation counts aligned with the compiled game's information sets."""
    cg = compiled_game(game)
    return np.array([float(counts_by_key.get(k, 0.0)) for k in cg.infoset_keys])


def data_biased_response(game: Any, model: Policy | np.ndarray, counts: np.ndarray, *,
                         max_conf: float = 1.0, full_at: float = 10.0, min_obs: float = 0.0,
                         iterations: int = 2000) -> Response:
    """Data-biased response: CFR+ where the opponent follows ``model`` at each information
    set with probability ``P_conf(I)`` from the observation ``counts`` there."""
    cg = compiled_game(game)
    _check_zero_sum(cg)
    counts = np.asarray(counts, dtype=np.float64)
    if counts.shape != (cg.num_infosets,):
        raise ConfigError(f"counts must have one entry per information set ({cg.num_infosets})")
    msp = model_slots(cg, model)
    conf = confidence(counts, max_conf=max_conf, full_at=full_at, min_obs=min_obs)[None, :]
    slots = _restricted_cfr(cg, msp, np.array([1.0]), conf, iterations)
    return evaluate_response(cg, slots, msp, method="dbr", p=float(max_conf),
                             meta={"full_at": full_at, "min_obs": min_obs})


def locked_response(game: Any, model: Policy | np.ndarray, locked: Iterable[str], *,
                    p: float = 1.0, iterations: int = 2000) -> Response:
    """Node locking: the opponent plays ``model`` at the ``locked`` information-set keys
    (with probability ``p``; a free worst case otherwise, as in RNR) and best-responds
    everywhere else; returns the exploiting strategy."""
    p = _check_p(p)
    cg = compiled_game(game)
    _check_zero_sum(cg)
    msp = model_slots(cg, model)
    idx = cg._index_map()
    lock = np.zeros(cg.num_infosets)
    for key in locked:
        if key not in idx:
            raise ConfigError(f"no information set {key!r} to lock in {cg.game_name!r}")
        lock[idx[key]] = 1.0
    conf = np.stack([lock, np.zeros(cg.num_infosets)])
    slots = _restricted_cfr(cg, msp, np.array([p, 1.0 - p]), conf, iterations)
    return evaluate_response(cg, slots, msp, method="lock", p=p,
                             meta={"locked": sorted(locked)})


def response_curve(game: Any, model: Policy | np.ndarray, ps: Sequence[float], *,
                   method: str = "lp", iterations: int = 2000) -> list[Response]:
    cg = compiled_game(game)
    msp = model_slots(cg, model)
    return [restricted_response(cg, msp, p, method=method, iterations=iterations) for p in ps]


def mixture_curve(game: Any, model: Policy | np.ndarray, alphas: Sequence[float], *,
                  equilibrium_slots: np.ndarray | None = None) -> list[Response]:
    """The naive trade-off: with probability ``alpha`` play the best response to the model
    for the whole hand, else the equilibrium (a mixed strategy: realization plans mix)."""
    cg = compiled_game(game)
    msp = model_slots(cg, model)
    br = restricted_response(cg, msp, 1.0).slot_probs
    eq = equilibrium_slots if equilibrium_slots is not None else \
        restricted_response(cg, msp, 0.0).slot_probs
    out = []
    for a in alphas:
        a = _check_p(a)
        mixed = np.zeros(cg.num_slots)
        for pl in (0, 1):
            s, n = _sequences(cg, pl)
            plan = a * _realization(cg, br, pl, s, n) + (1 - a) * _realization(cg, eq, pl, s, n)
            _behaviour(cg, plan, pl, s, mixed, fallback=eq)
        out.append(evaluate_response(cg, mixed, msp, method="mixture", p=a))
    return out


def frontier_gain(rnr: Sequence[Response], exploitability_cap: float) -> float:
    """Best gain the RNR curve reaches with exploitability at most ``exploitability_cap``:
    linear interpolation between consecutive RNR points (a mixed strategy of two RNR
    strategies has the interpolated gain and at most the interpolated exploitability)."""
    pts = sorted((r.exploitability, r.gain) for r in rnr)
    xs = np.array([x for x, _ in pts])
    ys = np.maximum.accumulate(np.array([y for _, y in pts]))
    if exploitability_cap < xs[0]:
        return float("-inf")
    if exploitability_cap >= xs[-1]:
        return float(ys[-1])
    return float(np.interp(exploitability_cap, xs, ys))


def dominates(rnr: Sequence[Response], mix: Sequence[Response], *, tol: float = 1e-9) -> bool:
    """At every mixture point the RNR curve reaches at least its gain for at most its
    exploitability (the RNR curve is the efficient frontier; see :func:`frontier_gain`)."""
    return all(frontier_gain(rnr, m.exploitability + tol) >= m.gain - tol for m in mix)
