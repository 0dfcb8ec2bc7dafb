"""Self-play value-network learning for small perfect-information two-player zero-sum games.

* :mod:`pokerlab.selfplay.minimax` - exact memoised minimax solver (evaluation, opponent).
* :mod:`pokerlab.selfplay.exact` - exact outcome probabilities of a policy against a
  uniformly random opponent (the 96.78% / 99.48% anchors for tic-tac-toe).
* :mod:`pokerlab.selfplay.players` - random, minimax and epsilon-greedy value players.
* :mod:`pokerlab.selfplay.data` - self-play games and discounted value targets (CSV).
* :mod:`pokerlab.selfplay.evaluate` - matches, every-opening play against minimax.
* :mod:`pokerlab.selfplay.net` / :mod:`pokerlab.selfplay.train` - the PyTorch value
  network and the level-by-level trainer (torch is imported only there).
* :mod:`pokerlab.selfplay.plots` - level-vs-level and validation-loss plots.

Everything works over the :mod:`pokerlab.games.protocol` protocol plus a state method
``to_tensor(player)`` giving the position from ``player``'s point of view.
"""

from __future__ import annotations
