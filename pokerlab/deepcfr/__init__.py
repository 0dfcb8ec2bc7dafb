"""Deep CFR: neural regret approximation with external-sampling traversals.

torch is imported only inside this package (the ``torch`` extra); Ray only when
distributed traversals are asked for (the ``ray`` extra).
"""

from __future__ import annotations

from pokerlab.deepcfr.config import DeepCFRConfig
from pokerlab.deepcfr.solver import DeepCFRSolver, resolve_game

__all__ = ["DeepCFRConfig", "DeepCFRSolver", "resolve_game"]
