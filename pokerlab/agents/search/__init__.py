"""``search``: an agent that re-solves the hand it is in, over both ranges, at every
decision from a start street on (Libratus / Pluribus style real-time search on the
range-vectorised engine of :mod:`pokerlab.subgame`).

At a decision on the start street or later the agent

1. takes both players' ranges at the current public state: by Bayes through its model of
   each player at every observed action (:class:`~pokerlab.agents.beliefs.HoldemBeliefs`:
   its own actions through what it played, the opponent's through the opponent model
   learned in the match, :class:`~pokerlab.agents.tilt_model.TiltModel`, which is the base
   policy until the opponent is seen); or, **nested**, from a solve of this hand it kept
   (the one at its last decision on this street, whoever asked for it, or one whose tree
   covers this street): the real actions since that solve's root are followed in its
   tree, an opponent's raise the tree lacks as the nearest size;
2. builds a spot that starts *at this decision* (:class:`~pokerlab.subgame.spot.Root`):
   the real pot, stacks and street bets, so an off-tree bet of the opponent is part of the
   subgame exactly, never translated; later actions use the search's own bet sizes; with
   ``depth=1`` the spot ends with the street (on the turn, the rivers iterated in step at
   its leaves, :mod:`pokerlab.agents.river_leaves`; on the flop, and on the turn with
   ``leaves=modicum``, Modicum's, :mod:`pokerlab.agents.leaves`);
3. solves it with Discounted CFR until the think budget is spent (or 0.5% of the pot),
   and plays its actual hand by sampling its strategy;
4. **safety**: until the learned model has seen enough of the opponent on this street
   (``verify``, the default), or always with ``safe=1``, it re-solves safely: when the
   opponent acted first on the street, the street is solved from its start and the
   opponent's actions are read there (``anchor``); the opponent may take, per hand, its
   best-response counterfactual value in the solve it nests in (the resolve gadget,
   :meth:`~pokerlab.subgame.solver.SpotSolver.set_gadget`), so the new strategy gives no
   opponent hand more than that one did; at the first river search of a hand, its
   best-response value against the blueprint's play of the subgame.  Once the model is
   verified it re-solves on the model's ranges (unsafe), the situations where the model
   deviates confidently locked to it (an exploitative search).

Before the start street, and whenever a search cannot run (no iteration fits the budget,
the spot is over the memory bound, its own hand is outside its range), it plays the base
policy: a legal action always.  ``think_ms`` keeps the time of every search decision.

The package, by responsibility: :mod:`~pokerlab.agents.search.config` (the grouped
:class:`SearchConfig` and the one table of spec keys, :data:`~pokerlab.agents.search.config.KEYS`),
:mod:`~pokerlab.agents.search.opponent` (the :class:`OpponentModel` protocol: fixed, tilt,
Dirichlet), :mod:`~pokerlab.agents.search.solve` (one decision's solve, a function per
mode), :mod:`~pokerlab.agents.search.nesting` (nested re-solving),
:mod:`~pokerlab.agents.search.locking` (node locking, the river gadget),
:mod:`~pokerlab.agents.search.state` (stats, kept solves, constants) and
:mod:`~pokerlab.agents.search.agent` (:class:`SearchAgent`, :func:`make_search_agent`).

"""

from __future__ import annotations

from pokerlab.agents.search.agent import (
    LearningSearchAgent,
    SearchAgent,
    TiltSearchAgent,
    make_search_agent,
)
from pokerlab.agents.search.config import (
    KEYS,
    STREET_NAMES,
    Budget,
    DepthLimit,
    Opponent,
    Safety,
    SearchConfig,
    Tree,
    keys_markdown,
    parse_search_spec,
)
from pokerlab.agents.search.opponent import (
    LEARN_STRENGTH,
    DirichletLearner,
    FixedModel,
    OpponentModel,
    TiltLearner,
    opponent_model,
)
from pokerlab.agents.search.solve import floored, pruned
from pokerlab.agents.search.state import SearchStats

__all__ = ["KEYS", "LEARN_STRENGTH", "STREET_NAMES", "Budget", "DepthLimit", "DirichletLearner", "FixedModel",
           "LearningSearchAgent", "Opponent", "OpponentModel", "Safety", "SearchAgent", "SearchConfig",
           "SearchStats", "TiltLearner", "TiltSearchAgent", "Tree", "floored", "keys_markdown",
           "make_search_agent", "opponent_model", "parse_search_spec", "pruned"]
