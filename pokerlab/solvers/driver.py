"""One entry point for every solver: :func:`solve` (used by ``pokerlab solve``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from pokerlab.errors import ConfigError
from pokerlab.policy.tabular import TabularPolicy

ALGOS = ("cfr", "cfr-sim", "cfr+", "lcfr", "dcfr", "es-mccfr", "os-mccfr", "lp")
FULL_WIDTH = ("cfr", "cfr-sim", "cfr+", "lcfr", "dcfr")
DEFAULT_ITERATIONS = {"es-mccfr": 10_000, "os-mccfr": 10_000}
MAX_ITERATIONS_WITH_TARGET = 10_000_000


@dataclass(frozen=True, kw_only=True)
class SolveConfig:
    """Everything that determines a solve (saved as JSON next to the policy)."""

    game: str
    algo: str
    iterations: int | None = None
    target_exploitability: float | None = None
    seed: int = 0


@dataclass(frozen=True, kw_only=True)
class SolveResult:
    config: SolveConfig
    iterations: int
    seconds: float
    exploitability: float | None  # None: game too large to evaluate exactly (MCCFR only)
    game_value: float | None
    policy: TabularPolicy
    # (iterations, seconds since start, exploitability) at every check
    history: list[tuple[int, float, float]] = field(default_factory=list)
    big_blind: float = 1.0  # chip unit of the mbb figures (the game's GameInfo.big_blind)

    @property
    def target_reached(self) -> bool | None:
        """None without a target; False when the iteration cap came first."""
        target = self.config.target_exploitability
        if target is None:
            return None
        return self.exploitability is not None and self.exploitability <= target

    def summary(self) -> dict[str, Any]:
        mbb = (None if self.exploitability is None
               else 1000.0 * self.exploitability / self.big_blind)
        return {"game": self.config.game, "algo": self.config.algo,
                "iterations": self.iterations, "seconds": self.seconds,
                "exploitability": self.exploitability, "exploitability_mbb": mbb,
                "big_blind": self.big_blind, "game_value": self.game_value,
                "game_value_mbb": (None if self.game_value is None
                                   else 1000.0 * self.game_value / self.big_blind),
                "target_exploitability": self.config.target_exploitability,
                "target_reached": self.target_reached}

    def config_json(self) -> dict[str, Any]:
        return {"config": asdict(self.config), "result": self.summary(),
                "history": [list(h) for h in self.history]}


def _check_points(limit: int, fine: bool) -> list[int]:
    """Iteration counts at which exploitability is measured (roughly 20 per decade)."""
    pts: set[int] = {limit}
    x = 1.0
    step = 1.1220184543019633 if fine else 1.4125375446227544  # 10**(1/20), 10**(1/6.67)
    while x < limit:
        pts.add(int(round(x)))
        x *= step
    return sorted(p for p in pts if 1 <= p <= limit)


def check_solve_args(*, algo: str, iterations: int | None = None,
                     target_exploitability: float | None = None, seed: int = 0) -> None:
    """Raise :class:`ConfigError` for arguments :func:`solve` cannot use (before any work)."""
    if algo not in ALGOS:
        raise ConfigError(f"unknown algorithm {algo!r}; choose from {', '.join(ALGOS)}")
    if iterations is not None and iterations < 0:
        raise ConfigError(f"iterations must be >= 0, got {iterations!r}")
    if target_exploitability is not None and not target_exploitability > 0:
        raise ConfigError(f"target exploitability must be > 0, got {target_exploitability!r}")
    if seed < 0:
        raise ConfigError(f"seed must be >= 0, got {seed}")
    if algo == "lp" and iterations is not None:
        raise ConfigError("--iterations does nothing for the LP (it solves exactly); drop it")
    if algo == "lp" and target_exploitability is not None:
        raise ConfigError("--target-exploitability does nothing for the LP (it solves exactly)")


def solve(
    game: Any,
    *,
    algo: str,
    iterations: int | None = None,
    target_exploitability: float | None = None,
    seed: int = 0,
    on_check: Callable[[int, int, float | None], None] | None = None,
) -> SolveResult:
    """Solve ``game`` with ``algo`` until ``iterations`` or ``target_exploitability``.

    With only a target, iterations are capped at 10 million.  Exploitability is measured at
    about 20 log-spaced checkpoints per decade of iterations (full-width variants; every
    check costs about one iteration) or 7 per decade (MCCFR); ``on_check(done, limit,
    exploitability)`` is called at each.  ``seconds`` covers all of it.  MCCFR on a game too
    large to compile exactly reports exploitability and game value ``None``.
    """
    from pokerlab.evaluation import expected_values
    from pokerlab.evaluation import exploitability as full_exploitability
    from pokerlab.games.protocol import game_info

    check_solve_args(algo=algo, iterations=iterations,
                     target_exploitability=target_exploitability, seed=seed)
    info = game_info(game)
    big_blind = 1.0 if info is None else float(info.big_blind)
    if info is not None and not info.perfect_recall:
        raise ConfigError(
            f"game {game.name!r} lacks perfect recall (its information-state key forgets the "
            "move order), so CFR, MCCFR and the LP cannot solve it"
            + ("; learn it with `pokerlab ttt train`" if game.name == "tictactoe" else ""))
    cfg = SolveConfig(game=str(game.name), algo=algo, iterations=iterations,
                      target_exploitability=target_exploitability, seed=seed)
    t0 = time.perf_counter()
    history: list[tuple[int, float, float]] = []
    expl: float | None
    if algo == "lp":
        from pokerlab.solvers.lp import solve_lp

        res = solve_lp(game)
        expl = full_exploitability(game, res.policy)
        history.append((0, time.perf_counter() - t0, expl))
        if on_check:
            on_check(0, 0, expl)
        return SolveResult(config=cfg, iterations=0, seconds=time.perf_counter() - t0,
                           exploitability=expl, game_value=res.game_value, policy=res.policy,
                           history=history, big_blind=big_blind)
    if iterations is None:
        limit = (MAX_ITERATIONS_WITH_TARGET if target_exploitability is not None
                 else DEFAULT_ITERATIONS.get(algo, 1000))
    else:
        limit = iterations
    done = 0
    expl = float("nan")
    value: float | None
    if algo in FULL_WIDTH:
        from pokerlab.solvers.cfr import CFRSolver

        solver = CFRSolver(game=game, config=algo)
        for cp in _check_points(limit, fine=True) if limit > 0 else []:
            solver.run(cp - done)
            done = cp
            expl = solver.exploitability()
            history.append((done, time.perf_counter() - t0, expl))
            if on_check:
                on_check(done, limit, expl)
            if target_exploitability is not None and expl <= target_exploitability:
                break
        if limit == 0:
            expl = solver.exploitability()
        policy = solver.average_policy()
        value = solver.game_value()
    else:
        from pokerlab.games.compiled import GameTooLargeError, compile_game
        from pokerlab.solvers.mccfr import MCCFRConfig, MCCFRSolver

        try:
            compile_game(game)
            exact = True
        except GameTooLargeError:
            if target_exploitability is not None:
                raise
            exact = False
        msolver = MCCFRSolver(game=game, config=MCCFRConfig(
            sampling="external" if algo == "es-mccfr" else "outcome", seed=seed))
        for cp in _check_points(limit, fine=False) if limit > 0 else []:
            msolver.run(cp - done)
            done = cp
            expl = full_exploitability(game, msolver.average_policy()) if exact else None
            if expl is not None:
                history.append((done, time.perf_counter() - t0, expl))
            if on_check:
                on_check(done, limit, expl)
            if (target_exploitability is not None and expl is not None
                    and expl <= target_exploitability):
                break
        policy = msolver.average_policy()
        if exact:
            expl = full_exploitability(game, policy)
            value = float(expected_values(game, policy)[0])
        else:
            expl = value = None
    seconds = time.perf_counter() - t0
    return SolveResult(config=cfg, iterations=done, seconds=seconds, exploitability=expl,
                       game_value=value, policy=policy, history=history, big_blind=big_blind)
