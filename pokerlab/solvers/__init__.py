"""Solvers: the CFR family on the public tree, Monte Carlo CFR on the protocol and the
sequence-form LP.  :func:`solve` is the one entry point used by ``pokerlab solve``.

The names below are loaded on first use (PEP 562), so that importing one light module
of the package (``pokerlab.solvers.regret``, which every solver kernel uses) does not
import SciPy's LP solver with it (about 0.3 s of every command's start-up)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerlab.lazy import lazy_getattr

if TYPE_CHECKING:
    from pokerlab.solvers.cfr import PRESETS, CFRConfig, CFRSolver, cfr_config
    from pokerlab.solvers.driver import ALGOS, SolveConfig, SolveResult, solve
    from pokerlab.solvers.lp import LPResult, solve_lp
    from pokerlab.solvers.mccfr import MCCFRConfig, MCCFRSolver

_WHERE = {
    "PRESETS": "cfr", "CFRConfig": "cfr", "CFRSolver": "cfr", "cfr_config": "cfr",
    "ALGOS": "driver", "SolveConfig": "driver", "SolveResult": "driver", "solve": "driver",
    "LPResult": "lp", "solve_lp": "lp",
    "MCCFRConfig": "mccfr", "MCCFRSolver": "mccfr",
}


__getattr__ = lazy_getattr(__name__, _WHERE, globals())


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
