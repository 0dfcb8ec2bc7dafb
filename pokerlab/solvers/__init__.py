"""Solvers: the CFR family on the public tree, Monte Carlo CFR on the protocol and the
sequence-form LP.  :func:`solve` is the one entry point used by ``pokerlab solve``."""

from pokerlab.solvers.cfr import PRESETS, CFRConfig, CFRSolver, cfr_config
from pokerlab.solvers.driver import ALGOS, SolveConfig, SolveResult, solve
from pokerlab.solvers.lp import LPResult, solve_lp
from pokerlab.solvers.mccfr import MCCFRConfig, MCCFRSolver

__all__ = [
    "ALGOS",
    "PRESETS",
    "CFRConfig",
    "CFRSolver",
    "LPResult",
    "MCCFRConfig",
    "MCCFRSolver",
    "SolveConfig",
    "SolveResult",
    "cfr_config",
    "solve",
    "solve_lp",
]
