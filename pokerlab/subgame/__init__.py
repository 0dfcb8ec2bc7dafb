"""Range-vectorised subgame solving for heads-up no-limit hold'em: the spot solver.

* :mod:`pokerlab.subgame.spot`: a :class:`Spot` (board, pot, stack, two ranges, the bet
  tree in the postflop solvers' conventions); :mod:`pokerlab.subgame.tree`: its public
  betting tree as flat arrays;
* :mod:`pokerlab.subgame.deal`: each player's hands, turn/river cards with suit isomorphism,
  the per-board strength orders;
* :mod:`pokerlab.subgame.solver_kernels`: the numba kernels (one recursive walk for CFR,
  best response and values; O(n) showdown and fold sweeps with card removal);
* :mod:`pokerlab.subgame.solver`: :class:`SpotSolver` (DCFR / CFR+ / Linear CFR, exact
  exploitability, per-hand strategy, EV and equity at every node, node locking, files);
* :mod:`pokerlab.subgame.protocol_game`: the same spot as a protocol game, for the
  independent full-tree check.
"""

from pokerlab.subgame.solve_config import SolveConfig, TreeSize, estimate_size
from pokerlab.subgame.solver import SpotSolver
from pokerlab.subgame.solver_files import SpotFileError
from pokerlab.subgame.spot import Spot, SpotError, TreeConfig, make_spot, parse_sizes, tree_config

__all__ = ["SolveConfig", "Spot", "SpotError", "SpotFileError", "SpotSolver", "TreeConfig", "TreeSize",
           "estimate_size", "make_spot", "parse_sizes", "tree_config"]
