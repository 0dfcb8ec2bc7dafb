"""Monte Carlo reinforcement learning for push/fold, measured against the exact answer.

Two learners share one environment (:mod:`pokerlab.pushfold.pushfold_kernels`):

* ``features="tutorial"`` -- the linear action-value model of the "RL for heads-up no-limit
  hold'em" tutorial.  State = (position, hand), actions GII (shove / call) or fold, reward =
  the player's chips at the end of the hand (both start with ``S``; so SB's fold is worth
  ``S - 0.5`` = 9.5 at S = 10).  Features ``x(s, a)``: 1; for GII only: rank of the higher
  card / 13, rank of the lower card / 13 (ranks 1..13 for 2..A), suitedness,
  ``|rank1 - rank2| ** 0.25``; isSB; isSB * isGII.  Both seats choose epsilon-greedily
  from the current ``theta``, epsilon decays linearly, an all-in is resolved by drawing
  the winner with probability equal to the equity, and every decision takes one SGD step
  ``theta += lr * (G - theta . x) x``.
* ``features="rich"`` -- a table of average returns per (position, class, action), hand
  ``t`` weighted ``(t + 1) ** averaging`` (0: plain sample averages; default 1: linear,
  as in CFR+'s averaging).  Greedy play on averages over the history is stochastic
  fictitious play; its *average* policy (the weighted share of visits at which the greedy
  action was GII) approaches the equilibrium, and its exact exploitability falls toward
  zero with more hands.

Every learned policy is evaluated exactly (:func:`pokerlab.pushfold.solver.evaluate`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import numpy as np

from pokerlab.cards.cards import CLASS_NAMES, CLASS_OF_COMBO, COMBO_MASKS, COMBOS, NUM_COMBOS
from pokerlab.errors import ConfigError
from pokerlab.pushfold.game import OPPONENT_COMBOS, PushFoldConfig, matrices_for
from pokerlab.pushfold.pushfold_kernels import mc_linear_kernel, mc_tabular_kernel
from pokerlab.pushfold.solver import Evaluation, StrategyPair, evaluate, unit_fields

FEATURE_SETS = ("tutorial", "rich")
THETA_NAMES = ("const", "high/13", "low/13", "suited", "gap^0.25", "isSB", "isSB*isGII")


@dataclass(frozen=True, kw_only=True)
class LearnConfig:
    """Options of a learning run (saved next to every artifact)."""

    stack: float = 10.0
    ante: float = 0.0
    hands: int = 1_000_000
    features: str = "tutorial"
    learning_rate: float = 0.0005
    epsilon_start: float = 0.5
    epsilon_end: float = 0.02
    seed: int = 0
    chunk: int = 1 << 16
    checkpoints: int = 8
    averaging: float = 1.0  # rich learner: hand t weighs (t + 1) ** averaging

    def __post_init__(self) -> None:
        PushFoldConfig(stack=self.stack, ante=self.ante)  # validates stack and ante
        if self.features not in FEATURE_SETS:
            raise ConfigError(
                f"unknown feature set {self.features!r}; choose one of {', '.join(FEATURE_SETS)}"
            )
        if self.hands <= 0:
            raise ConfigError(f"hands must be positive, got {self.hands}")
        if self.seed < 0:
            raise ConfigError(f"seed must be >= 0, got {self.seed}")
        if not 0 < self.learning_rate < 1:
            raise ConfigError(f"learning rate must be in (0, 1), got {self.learning_rate}")
        for name in ("epsilon_start", "epsilon_end"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"{name.replace('_', ' ')} must be in [0, 1], got {v}")
        if self.chunk <= 0:
            raise ConfigError(f"chunk must be positive, got {self.chunk}")
        if self.checkpoints < 1:
            raise ConfigError(f"checkpoints must be >= 1, got {self.checkpoints}")
        if not 0.0 <= self.averaging <= 4.0:
            raise ConfigError(f"averaging exponent must be in [0, 4], got {self.averaging}")

    @property
    def game(self) -> PushFoldConfig:
        return PushFoldConfig(stack=self.stack, ante=self.ante)

    def to_json(self) -> dict[str, object]:
        return dict(asdict(self))


@lru_cache(maxsize=1)
def combo_features() -> np.ndarray:
    """(1326, 4): high rank / 13, low rank / 13, suited, |r1 - r2| ** 0.25 (ranks 1..13)."""
    r = (COMBOS.astype(np.int64) >> 2) + 1
    s = COMBOS.astype(np.int64) & 3
    hi = r.max(axis=1).astype(np.float64)
    lo = r.min(axis=1).astype(np.float64)
    f = np.stack([hi / 13.0, lo / 13.0, (s[:, 0] == s[:, 1]).astype(np.float64),
                  np.abs(hi - lo) ** 0.25], axis=1)
    f.setflags(write=False)
    return f


@lru_cache(maxsize=1)
def nonconflicting_table() -> np.ndarray:
    """(1326, 1225): the combos sharing no card with each combo, ascending."""
    out = np.zeros((NUM_COMBOS, OPPONENT_COMBOS), dtype=np.int64)
    for i in range(NUM_COMBOS):
        out[i] = np.flatnonzero((COMBO_MASKS & COMBO_MASKS[i]) == 0)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, kw_only=True)
class RandomChunk:
    """Pre-drawn randomness of ``n`` hands (deals, exploration, actions, showdowns)."""

    sb: np.ndarray
    bbk: np.ndarray
    u_eps_sb: np.ndarray
    u_act_sb: np.ndarray
    u_eps_bb: np.ndarray
    u_act_bb: np.ndarray
    u_win: np.ndarray
    eps: np.ndarray
    wts: np.ndarray


def draw_chunk(rng: np.random.Generator, start: int, n: int, cfg: LearnConfig) -> RandomChunk:
    t = (start + np.arange(n)) / max(cfg.hands - 1, 1)
    eps = cfg.epsilon_start + (cfg.epsilon_end - cfg.epsilon_start) * np.minimum(t, 1.0)
    return RandomChunk(
        sb=rng.integers(0, NUM_COMBOS, n),
        bbk=rng.integers(0, OPPONENT_COMBOS, n),
        u_eps_sb=rng.random(n), u_act_sb=rng.random(n),
        u_eps_bb=rng.random(n), u_act_bb=rng.random(n),
        u_win=rng.random(n), eps=eps,
        wts=(start + 1.0 + np.arange(n)) ** cfg.averaging,
    )


# ---------------------------------------------------------------- policies from models
def linear_greedy(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Greedy (shove, call) per combo of a tutorial ``theta`` (ties fold)."""
    th = np.asarray(theta, dtype=np.float64)
    gain = combo_features() @ th[1:5]
    return (gain + th[6] > 0).astype(np.float64), (gain > 0).astype(np.float64)


def tabular_policies(q_sum: np.ndarray, q_wt: np.ndarray, greedy_gii: np.ndarray,
                     visits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(avg shove, avg call, greedy shove, greedy call) per combo of a tabular learner."""
    with np.errstate(invalid="ignore", divide="ignore"):
        q = q_sum / q_wt
    greedy = np.where(q_wt[:, :, 1] == 0, 1.0,
                      np.where(q_wt[:, :, 0] == 0, 0.0, (q[:, :, 1] > q[:, :, 0]) * 1.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        avg = np.where(visits > 0, greedy_gii / np.where(visits > 0, visits, 1.0), greedy)
    return (avg[0][CLASS_OF_COMBO], avg[1][CLASS_OF_COMBO],
            greedy[0][CLASS_OF_COMBO], greedy[1][CLASS_OF_COMBO])


# ---------------------------------------------------------------- results
@dataclass(frozen=True, kw_only=True)
class LearnResult(StrategyPair):
    config: LearnConfig
    sb_shove: np.ndarray  # (1326,) the learned policy (greedy / average policy)
    bb_call: np.ndarray
    evaluation: Evaluation
    nash_value: float
    seconds: float
    nash_shove_fraction: float = float("nan")
    nash_call_fraction: float = float("nan")
    theta: np.ndarray | None = None  # tutorial model
    q_table: np.ndarray | None = None  # rich model: (2, 169, 2) mean returns
    greedy_evaluation: Evaluation | None = None  # rich model: the current greedy policy
    history: list[dict[str, float]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def theta_reading(self) -> list[str]:
        """``theta`` in plain language (tutorial model)."""
        if self.theta is None:
            return []
        th = [float(x) for x in self.theta]
        S = self.config.stack
        return [
            f"SB fold is worth {th[0] + th[5]:.3f} chips (exact: {S - 0.5 - self.config.ante:g})",
            f"BB fold (to a shove) is valued {th[0]:.3f} chips "
            f"(exact: {S - min(1.0, S - self.config.ante) - self.config.ante:g}; the constant "
            "is shared with BB's GII value, which has no intercept of its own)",
            f"GII adds {th[1]:+.3f} x high/13 {th[2]:+.3f} x low/13 {th[3]:+.3f} if suited "
            f"{th[4]:+.3f} x gap^0.25, and {th[6]:+.3f} more for SB",
            "SB shoves when that sum (with the SB term) is > 0; BB calls when the sum without "
            "it is > 0",
        ]

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "stack": float(self.config.stack),
            "ante": float(self.config.ante),
            "hands": int(self.config.hands),
            "features": self.config.features,
            "seed": int(self.config.seed),
            "sb_shove_fraction": self.sb_shove_fraction,
            "bb_call_fraction": self.bb_call_fraction,
            "sb_value_bb": self.evaluation.sb_value,
            "exploitability_bb": self.exploitability,
            **unit_fields(self.exploitability, self.evaluation.sb_value),
            "nash_sb_value_bb": self.nash_value,
            "nash_sb_shove_fraction": self.nash_shove_fraction,
            "nash_bb_call_fraction": self.nash_call_fraction,
            "seconds": self.seconds,
            "history": self.history,
        }
        if self.theta is not None:
            out["theta"] = [float(x) for x in self.theta]
            out["theta_names"] = list(THETA_NAMES)
            out["theta_reading"] = self.theta_reading()
        if self.q_table is not None:
            q = self.q_table
            def val(x: float) -> float | None:
                return None if not np.isfinite(x) else float(x)

            # mean return (chips) of [fold, GII] per class; null where never tried
            out["theta"] = {
                pos: {CLASS_NAMES[k]: [val(q[p, k, 0]), val(q[p, k, 1])] for k in range(169)}
                for p, pos in enumerate(("sb", "bb"))
            }
        if self.greedy_evaluation is not None:
            out["greedy_exploitability_bb"] = self.greedy_evaluation.exploitability
        return out


# ---------------------------------------------------------------- training
def learn(cfg: LearnConfig, *, equity: np.ndarray | None = None,
          progress: Callable[[int, int], None] | None = None) -> LearnResult:
    """Run the learner of ``cfg.features`` for ``cfg.hands`` hands of self-play."""
    from pokerlab.pushfold.solver import solve

    mats = matrices_for(equity)
    eq = np.ascontiguousarray(np.nan_to_num(mats.eq, nan=0.5))
    game = cfg.game
    feats = np.ascontiguousarray(combo_features())
    nonconf = nonconflicting_table()
    cls = CLASS_OF_COMBO.astype(np.int64)
    rng = np.random.default_rng(cfg.seed)
    marks = sorted({int(round(cfg.hands * (k + 1) / cfg.checkpoints))
                    for k in range(cfg.checkpoints)})
    theta = np.zeros(7)
    counts = np.zeros(4, dtype=np.int64)
    q_sum = np.zeros((2, 169, 2))
    q_wt = np.zeros((2, 169, 2))
    greedy_gii = np.zeros((2, 169))
    visits = np.zeros((2, 169))
    history: list[dict[str, float]] = []
    t0 = time.perf_counter()
    done = 0
    for mark in marks:
        while done < mark:
            n = min(cfg.chunk, mark - done)
            ch = draw_chunk(rng, done, n, cfg)
            if cfg.features == "tutorial":
                mc_linear_kernel(theta, feats, eq, nonconf, ch.sb, ch.bbk, ch.u_eps_sb,
                                 ch.u_act_sb, ch.u_eps_bb, ch.u_act_bb, ch.u_win, ch.eps,
                                 cfg.learning_rate, game.stack, game.fold_loss,
                                 game.steal_gain, counts)
            else:
                mc_tabular_kernel(q_sum, q_wt, greedy_gii, visits, cls, eq, nonconf, ch.sb,
                                  ch.bbk, ch.u_eps_sb, ch.u_act_sb, ch.u_eps_bb, ch.u_act_bb,
                                  ch.u_win, ch.eps, ch.wts, game.stack, game.fold_loss,
                                  game.steal_gain)
            done += n
            if progress is not None:
                progress(done, cfg.hands)
        if cfg.features == "tutorial":
            s, c = linear_greedy(theta)
            ev = evaluate(s, c, game, mats.eq)
            history.append({"hands": float(done), "exploitability_bb": ev.exploitability})
        else:
            s, c, gs, gc = tabular_policies(q_sum, q_wt, greedy_gii, visits)
            ev = evaluate(s, c, game, mats.eq)
            gev = evaluate(gs, gc, game, mats.eq)
            history.append({"hands": float(done), "exploitability_bb": ev.exploitability,
                            "greedy_exploitability_bb": gev.exploitability})
    seconds = time.perf_counter() - t0
    nash = solve(game, equity=mats.eq)
    if cfg.features == "tutorial":
        s, c = linear_greedy(theta)
        return LearnResult(
            config=cfg, sb_shove=s, bb_call=c, evaluation=evaluate(s, c, game, mats.eq),
            nash_value=nash.sb_value, seconds=seconds, theta=theta.copy(), history=history,
            nash_shove_fraction=nash.sb_shove_fraction, nash_call_fraction=nash.bb_call_fraction,
            counts={"sb_shoves": int(counts[0]), "bb_decisions": int(counts[1]),
                    "bb_calls": int(counts[2]), "explored": int(counts[3])},
        )
    s, c, gs, gc = tabular_policies(q_sum, q_wt, greedy_gii, visits)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(q_wt > 0, q_sum / np.where(q_wt > 0, q_wt, 1.0), np.nan)
    return LearnResult(
        config=cfg, sb_shove=s, bb_call=c, evaluation=evaluate(s, c, game, mats.eq),
        nash_value=nash.sb_value, seconds=seconds, q_table=q,
        nash_shove_fraction=nash.sb_shove_fraction, nash_call_fraction=nash.bb_call_fraction,
        greedy_evaluation=evaluate(gs, gc, game, mats.eq), history=history,
    )
