"""Heads-up push/fold: exact Nash equilibria, best responses, charts and RL learners.

* :mod:`pokerlab.pushfold.game` -- the game, its payoff matrices and the protocol game.
* :mod:`pokerlab.pushfold.solver` -- :func:`solve`, :func:`evaluate`, sweeps, the chart.
* :mod:`pokerlab.pushfold.learn` -- the tutorial's linear Monte Carlo learner and a tabular one.
* :mod:`pokerlab.pushfold.policy` -- :class:`PushFoldPolicy` (a ``pokerlab.policy.Policy``).
"""

from pokerlab.pushfold.game import PushFoldConfig, PushFoldGame, PushFoldState
from pokerlab.pushfold.learn import LearnConfig, LearnResult, learn
from pokerlab.pushfold.policy import PushFoldPolicy, policy_exploitability
from pokerlab.pushfold.solver import (
    Evaluation,
    PushFoldChart,
    PushFoldSolution,
    best_responses,
    evaluate,
    pushfold_chart,
    solve,
    sweep,
)

__all__ = [
    "Evaluation",
    "LearnConfig",
    "LearnResult",
    "PushFoldChart",
    "PushFoldConfig",
    "PushFoldGame",
    "PushFoldPolicy",
    "PushFoldSolution",
    "PushFoldState",
    "best_responses",
    "evaluate",
    "learn",
    "policy_exploitability",
    "pushfold_chart",
    "solve",
    "sweep",
]
