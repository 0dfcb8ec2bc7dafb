"""Exact Nash equilibria of heads-up push/fold, best responses and exploitability.

* :func:`solve` -- equilibrium for one stack: the class-level LP (HiGHS, default) or
  alternating CFR+ (:func:`pokerlab.pushfold.pushfold_kernels.cfr_plus_kernel`).  Suit
  symmetry makes the 169-class game an exact reduction of the 1326-combo game; the result
  is always checked against best responses computed over the full 1326 x 1326 matrix.
* :func:`evaluate` -- value, both best-response values and exploitability of *any* pair
  of combo strategies (shove probabilities of SB, call probabilities of BB).
* :func:`sweep` / :func:`pushfold_chart` -- equilibria over a grid of stacks and the
  classic chart (largest stack at which each class is shoved / called).

Exploitability here is ``NashConv / 2`` = the mean of the two players' best-response gains
(OpenSpiel's ``exploitability``), in bb per hand of the fixed-seat game (SB's view).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linprog

from pokerlab.cards.cards import (
    CLASS_NAMES,
    CLASS_OF_COMBO,
    COMBO_MASKS,
    NUM_CLASSES,
    NUM_COMBOS,
)
from pokerlab.errors import ConfigError
from pokerlab.pushfold.game import (
    OPPONENT_COMBOS,
    Matrices,
    PushFoldConfig,
    class_payoff,
    matrices_for,
)
from pokerlab.pushfold.pushfold_kernels import cfr_plus_kernel, payoff_products_kernel

METHODS = ("lp", "cfr+")


def _as_strategy(x: np.ndarray | Sequence[float], name: str) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.shape != (NUM_COMBOS,):
        raise ConfigError(f"{name} must be 1326 probabilities (one per combo), got shape {a.shape}")
    if not np.all(np.isfinite(a)) or a.min() < -1e-12 or a.max() > 1 + 1e-12:
        bad = int(np.flatnonzero(~np.isfinite(a) | (a < -1e-12) | (a > 1 + 1e-12))[0])
        raise ConfigError(f"{name}[{bad}] = {a[bad]!r} is not a probability")
    return np.clip(a, 0.0, 1.0)


# ---------------------------------------------------------------- evaluation
@dataclass(frozen=True, kw_only=True)
class Evaluation:
    """SB's value of a strategy pair and the best-response values against each side."""

    sb_value: float
    sb_best_response_value: float  # max over SB strategies against BB's c
    bb_best_response_value: float  # min over BB strategies against SB's s (SB's view)

    @property
    def sb_gain(self) -> float:
        return self.sb_best_response_value - self.sb_value

    @property
    def bb_gain(self) -> float:
        return self.sb_value - self.bb_best_response_value

    @property
    def nash_conv(self) -> float:
        return self.sb_best_response_value - self.bb_best_response_value

    @property
    def exploitability(self) -> float:
        """``NashConv / 2`` in bb per hand."""
        return self.nash_conv / 2.0


def _products(s: np.ndarray, c: np.ndarray, cfg: PushFoldConfig,
              mats: Matrices) -> tuple[np.ndarray, np.ndarray]:
    """``(A @ c, A.T @ s)`` for ``A = (S D - g V) / 1225`` (numba, one pass, one thread)."""
    Ac = np.empty(NUM_COMBOS)
    sA = np.empty(NUM_COMBOS)
    payoff_products_kernel(mats.D, COMBO_MASKS, np.ascontiguousarray(s, dtype=np.float64),
                           np.ascontiguousarray(c, dtype=np.float64), float(cfg.stack),
                           float(cfg.steal_gain), Ac, sA)
    return Ac, sA


def _Ac(c: np.ndarray, cfg: PushFoldConfig, mats: Matrices) -> np.ndarray:
    return _products(np.zeros(NUM_COMBOS), c, cfg, mats)[0]


def _sA(s: np.ndarray, cfg: PushFoldConfig, mats: Matrices) -> np.ndarray:
    return _products(s, np.zeros(NUM_COMBOS), cfg, mats)[1]


def shove_gain(bb_call: np.ndarray, cfg: PushFoldConfig, mats: Matrices) -> np.ndarray:
    """Per SB combo: expected result of shoving minus folding (bb), against ``bb_call``."""
    c = _as_strategy(bb_call, "bb_call")
    return cfg.fold_loss + cfg.steal_gain + _Ac(c, cfg, mats)


def call_gain(sb_shove: np.ndarray, cfg: PushFoldConfig, mats: Matrices) -> np.ndarray:
    """Per BB combo facing a shove: expected result (BB's view) of calling minus folding
    given SB's range ``sb_shove``; NaN where the combo never faces a shove."""
    s = _as_strategy(sb_shove, "sb_shove")
    reach = s @ mats.V
    with np.errstate(invalid="ignore", divide="ignore"):
        out = -_sA(s, cfg, mats) * OPPONENT_COMBOS / reach
    return np.where(reach > 0, out, np.nan)


def evaluate(sb_shove: np.ndarray, bb_call: np.ndarray, cfg: PushFoldConfig,
             equity: np.ndarray | None = None) -> Evaluation:
    """Exact value and best-response values over the full 1326 x 1326 matrix."""
    mats = matrices_for(equity)
    s = _as_strategy(sb_shove, "sb_shove")
    c = _as_strategy(bb_call, "bb_call")
    fg = cfg.fold_loss + cfg.steal_gain
    Ac, sA = _products(s, c, cfg, mats)
    value = -cfg.fold_loss + float(s @ (fg + Ac)) / NUM_COMBOS
    sb_br = -cfg.fold_loss + float(np.maximum(0.0, fg + Ac).sum()) / NUM_COMBOS
    bb_br = -cfg.fold_loss + (float(s.sum()) * fg + float(np.minimum(0.0, sA).sum())) / NUM_COMBOS
    return Evaluation(sb_value=value, sb_best_response_value=sb_br, bb_best_response_value=bb_br)


def best_responses(sb_shove: np.ndarray, bb_call: np.ndarray, cfg: PushFoldConfig,
                   equity: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(SB's pure best response to ``bb_call``, BB's pure best response to ``sb_shove``)."""
    mats = matrices_for(equity)
    s = _as_strategy(sb_shove, "sb_shove")
    c = _as_strategy(bb_call, "bb_call")
    Ac, sA = _products(s, c, cfg, mats)
    br_s = (cfg.fold_loss + cfg.steal_gain + Ac > 0).astype(np.float64)
    br_c = (sA < 0).astype(np.float64)
    return br_s, br_c


# ---------------------------------------------------------------- solving
class StrategyPair:
    """Figures of a push/fold strategy pair (``sb_shove``, ``bb_call`` per combo) with its
    ``evaluation``: shared by solved and learned strategies."""

    sb_shove: np.ndarray
    bb_call: np.ndarray
    evaluation: Evaluation

    @property
    def exploitability(self) -> float:
        return self.evaluation.exploitability

    @property
    def sb_shove_fraction(self) -> float:
        return float(self.sb_shove.mean())

    @property
    def bb_call_fraction(self) -> float:
        return float(self.bb_call.mean())


@dataclass(frozen=True, kw_only=True)
class PushFoldSolution(StrategyPair):
    """An equilibrium (or approximation) for one stack."""

    config: PushFoldConfig
    sb_shove: np.ndarray  # (1326,) shove probability per combo
    bb_call: np.ndarray  # (1326,) call probability per combo
    evaluation: Evaluation
    method: str
    iterations: int
    seconds: float
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def sb_value(self) -> float:
        return self.evaluation.sb_value

    def class_strategies(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean shove / call probability per class (169, grid order)."""
        sizes = np.bincount(CLASS_OF_COMBO, minlength=NUM_CLASSES)
        s = np.bincount(CLASS_OF_COMBO, weights=self.sb_shove, minlength=NUM_CLASSES) / sizes
        c = np.bincount(CLASS_OF_COMBO, weights=self.bb_call, minlength=NUM_CLASSES) / sizes
        return s, c

    def mixed_classes(self, tol: float = 1e-6) -> dict[str, list[tuple[str, float]]]:
        """Classes played with a probability strictly between 0 and 1."""
        s, c = self.class_strategies()
        def mixed(x: np.ndarray) -> list[tuple[str, float]]:
            return [(CLASS_NAMES[k], float(x[k])) for k in range(NUM_CLASSES)
                    if tol < x[k] < 1 - tol]

        return {"sb": mixed(s), "bb": mixed(c)}

    def to_json(self) -> dict[str, object]:
        from pokerlab.cards.ranges import range_to_string

        def rng(w: np.ndarray) -> str:
            r = np.round(w, 6)
            return range_to_string(r) if r.any() else ""

        return {
            "stack": float(self.config.stack),
            "ante": float(self.config.ante),
            "sb_shove_fraction": self.sb_shove_fraction,
            "bb_call_fraction": self.bb_call_fraction,
            "sb_value_bb": self.sb_value,
            "exploitability_bb": self.exploitability,
            **unit_fields(self.exploitability, self.sb_value),
            "seconds": self.seconds,
            "sb_range": rng(self.sb_shove),
            "bb_range": rng(self.bb_call),
        }


def unit_fields(exploitability: float, sb_value: float) -> dict[str, float]:
    """The JSON units of docs/conventions.md: push/fold's chips are big blinds."""
    return {"exploitability": float(exploitability),
            "exploitability_mbb": 1000.0 * float(exploitability),
            "sb_value": float(sb_value), "sb_value_mbb": 1000.0 * float(sb_value),
            "big_blind": 1.0}


def _clean(x: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    y = np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)
    y[y < tol] = 0.0
    y[y > 1.0 - tol] = 1.0
    return y


def solve_classes_lp(b: np.ndarray, G: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both players' optimal class strategies of ``max_s min_c b.s + s^T G c``.

    One LP (HiGHS dual simplex) for SB: ``max b.s + sum t`` s.t. ``t_l <= (G^T s)_l``,
    ``t_l <= 0``, ``0 <= s <= 1``; BB's call probabilities are the duals of the first
    constraint set.  Should the duals fail a sanity check, BB's own LP is solved."""
    K = b.shape[0]
    eye = np.eye(K)
    res_s = linprog(
        c=np.concatenate([-b, -np.ones(K)]),
        A_ub=np.hstack([-G.T, eye]),
        b_ub=np.zeros(K),
        bounds=[(0.0, 1.0)] * K + [(None, 0.0)] * K,
        method="highs-ds",
    )
    if res_s.status != 0:  # pragma: no cover - HiGHS failure
        raise ConfigError(f"push/fold LP failed: {res_s.message}")
    s = _clean(res_s.x[:K])
    c = -np.asarray(res_s.ineqlin.marginals, dtype=np.float64)
    if c.min() >= -1e-9 and c.max() <= 1 + 1e-9:
        return s, _clean(c)
    # pragma: no cover - fallback: BB's LP, min sum r s.t. r_k >= b_k + (G c)_k, r >= 0
    res_c = linprog(  # pragma: no cover
        c=np.concatenate([np.zeros(K), np.ones(K)]),
        A_ub=np.hstack([G, -eye]),
        b_ub=-b,
        bounds=[(0.0, 1.0)] * K + [(0.0, None)] * K,
        method="highs",
    )
    if res_c.status != 0:  # pragma: no cover - HiGHS failure
        raise ConfigError(f"push/fold LP failed: {res_c.message}")
    return s, _clean(res_c.x[:K])  # pragma: no cover


def solve_classes_cfr(b: np.ndarray, G: np.ndarray, iterations: int) -> tuple[np.ndarray,
                                                                            np.ndarray]:
    """Average strategies of ``iterations`` alternating CFR+ iterations (linear averaging)."""
    K = b.shape[0]
    reg_sb = np.zeros((K, 2))
    reg_bb = np.zeros((K, 2))
    avg_sb = np.zeros(K)
    avg_bb = np.zeros(K)
    wsum = cfr_plus_kernel(b, G, int(iterations), 1, reg_sb, reg_bb, avg_sb, avg_bb)
    return avg_sb / wsum, avg_bb / wsum


def solve(cfg: PushFoldConfig, *, method: str = "lp", iterations: int = 20_000,
          equity: np.ndarray | None = None) -> PushFoldSolution:
    """Nash equilibrium of push/fold at ``cfg`` (stack, ante); see the module docstring."""
    if method not in METHODS:
        raise ConfigError(
            f"unknown push/fold method {method!r}; choose one of {', '.join(METHODS)}")
    if iterations <= 0:
        raise ConfigError(f"iterations must be positive, got {iterations}")
    mats = matrices_for(equity)
    t0 = time.perf_counter()
    b, G = class_payoff(cfg, mats)
    if method == "lp":
        s_cls, c_cls = solve_classes_lp(b, G)
        its = 0
    else:
        s_cls, c_cls = solve_classes_cfr(b, G, iterations)
        its = iterations
    s = s_cls[CLASS_OF_COMBO]
    c = c_cls[CLASS_OF_COMBO]
    ev = evaluate(s, c, cfg, mats.eq)
    seconds = time.perf_counter() - t0
    return PushFoldSolution(config=cfg, sb_shove=s, bb_call=c, evaluation=ev, method=method,
                            iterations=its, seconds=seconds)


# ---------------------------------------------------------------- sweeps and the chart
@dataclass(frozen=True, kw_only=True)
class Sweep:
    """Class strategies (stacks x 169) of equilibria over a grid of stacks."""

    stacks: np.ndarray
    ante: float
    sb_class: np.ndarray
    bb_class: np.ndarray
    sb_value: np.ndarray
    exploitability: np.ndarray
    seconds: float

    def sb_shove_fraction(self) -> np.ndarray:
        sizes = np.bincount(CLASS_OF_COMBO, minlength=NUM_CLASSES)
        return (self.sb_class @ sizes) / NUM_COMBOS

    def bb_call_fraction(self) -> np.ndarray:
        sizes = np.bincount(CLASS_OF_COMBO, minlength=NUM_CLASSES)
        return (self.bb_class @ sizes) / NUM_COMBOS


def stack_grid(lo: float, hi: float, step: float) -> np.ndarray:
    if step <= 0 or hi < lo:
        raise ConfigError(f"bad stack grid {lo}..{hi} step {step}")
    n = int(np.floor((hi - lo) / step + 1e-9)) + 1
    return np.round(lo + step * np.arange(n), 10)


def sweep(stacks: Sequence[float] | np.ndarray, *, ante: float = 0.0,
          equity: np.ndarray | None = None,
          progress: Callable[[int, int], None] | None = None) -> Sweep:
    """Solve every stack in ``stacks`` by the class LP (exploitability checked on combos)."""
    st = np.asarray(stacks, dtype=np.float64)
    if st.ndim != 1 or st.size == 0:
        raise ConfigError("a sweep needs a non-empty list of stacks")
    mats = matrices_for(equity)
    t0 = time.perf_counter()
    sbc = np.zeros((st.size, NUM_CLASSES))
    bbc = np.zeros((st.size, NUM_CLASSES))
    val = np.zeros(st.size)
    expl = np.zeros(st.size)
    for n, S in enumerate(st):
        cfg = PushFoldConfig(stack=float(S), ante=ante)
        b, G = class_payoff(cfg, mats)
        s_cls, c_cls = solve_classes_lp(b, G)
        ev = evaluate(s_cls[CLASS_OF_COMBO], c_cls[CLASS_OF_COMBO], cfg, mats.eq)
        sbc[n], bbc[n], val[n], expl[n] = s_cls, c_cls, ev.sb_value, ev.exploitability
        if progress is not None:
            progress(n + 1, st.size)
    return Sweep(stacks=st, ante=ante, sb_class=sbc, bb_class=bbc, sb_value=val,
                 exploitability=expl, seconds=time.perf_counter() - t0)


@dataclass(frozen=True, kw_only=True)
class PushFoldChart:
    """Largest stack (in the sweep) at which each class is shoved / called with probability
    >= 1/2; 0 where never.  ``max_stack`` marks hands played at every stack of the sweep."""

    sb_max_stack: np.ndarray  # (169,)
    bb_max_stack: np.ndarray  # (169,)
    max_stack: float
    step: float

    def labels(self, side: str) -> list[str]:
        vals = self.sb_max_stack if side == "sb" else self.bb_max_stack
        out = []
        for v in vals:
            if v <= 0:
                out.append("")
            elif v >= self.max_stack - 1e-9:
                out.append(f"{self.max_stack:g}+")
            else:
                out.append(f"{v:g}")
        return out

    def text(self, side: str) -> str:
        labels = self.labels(side)
        lines = []
        for i in range(13):
            cells = []
            for j in range(13):
                k = i * 13 + j
                cells.append(f"{CLASS_NAMES[k]:>3} {labels[k]:>5}")
            lines.append(" ".join(cells))
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        return {
            "max_stack": self.max_stack,
            "step": self.step,
            "sb": {CLASS_NAMES[k]: float(self.sb_max_stack[k]) for k in range(NUM_CLASSES)},
            "bb": {CLASS_NAMES[k]: float(self.bb_max_stack[k]) for k in range(NUM_CLASSES)},
        }


def chart_from_sweep(sw: Sweep, step: float) -> PushFoldChart:
    def largest(strat: np.ndarray) -> np.ndarray:
        played = strat >= 0.5
        out = np.zeros(NUM_CLASSES)
        for k in range(NUM_CLASSES):
            idx = np.flatnonzero(played[:, k])
            out[k] = sw.stacks[idx[-1]] if idx.size else 0.0
        return out

    return PushFoldChart(sb_max_stack=largest(sw.sb_class), bb_max_stack=largest(sw.bb_class),
                         max_stack=float(sw.stacks[-1]), step=step)


def pushfold_chart(*, max_stack: float = 20.0, step: float = 0.1, min_stack: float = 1.0,
                   ante: float = 0.0, equity: np.ndarray | None = None,
                   progress: Callable[[int, int], None] | None = None) -> PushFoldChart:
    """The classic push/fold chart from a sweep ``min_stack..max_stack`` in ``step``."""
    if max_stack < min_stack:
        raise ConfigError(f"max stack {max_stack} is below the minimum stack {min_stack}")
    sw = sweep(stack_grid(min_stack, max_stack, step), ante=ante, equity=equity,
               progress=progress)
    return chart_from_sweep(sw, step)


def near_indifference(sol: PushFoldSolution, *, top: int = 10,
                      equity: np.ndarray | None = None) -> dict[str, list[tuple[str, float,
                                                                                   float]]]:
    """The ``top`` classes closest to indifference for each side at the solution:
    ``(class, probability, EV gain of GII over fold in bb)``, smallest ``|gain|`` first."""
    mats = matrices_for(equity)
    sizes = np.bincount(CLASS_OF_COMBO, minlength=NUM_CLASSES)
    s_cls, c_cls = sol.class_strategies()
    out: dict[str, list[tuple[str, float, float]]] = {}
    for side, gain, strat in (
        ("sb", shove_gain(sol.bb_call, sol.config, mats), s_cls),
        ("bb", call_gain(sol.sb_shove, sol.config, mats), c_cls),
    ):
        g = np.bincount(CLASS_OF_COMBO, weights=np.nan_to_num(gain),
                        minlength=NUM_CLASSES).astype(np.float64) / sizes
        never = np.bincount(CLASS_OF_COMBO, weights=np.isnan(gain), minlength=NUM_CLASSES)
        g[never == sizes] = np.inf  # never faces the decision
        order = np.argsort(np.abs(g))[:top]
        out[side] = [(CLASS_NAMES[k], float(strat[k]), float(g[k])) for k in order]
    return out
