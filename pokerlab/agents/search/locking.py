"""Fixing a player's decisions in a subgame to an agent's strategy (node locking:
:func:`lock_player`), and the safe gadget's values against the base policy's play
(:func:`blueprint_values`)."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from pokerlab.holdem.actions import Action, ActionKind
from pokerlab.holdem.view import PlayerView
from pokerlab.subgame.resolve import real_action


def subgame_column(names: list[str], amounts: list[int], action: Action) -> int:
    """The subgame action a real action of the base policy maps to (a raise: the nearest
    size in log scale; a fold where none is offered: check)."""
    kinds = [nm.split(" ")[0] for nm in names]
    if action.kind == ActionKind.FOLD and "fold" in kinds:
        return kinds.index("fold")
    raises = [k for k, kd in enumerate(kinds) if kd in ("bet", "raise", "allin")]
    if action.kind == ActionKind.RAISE and raises:
        x = math.log(max(int(action.amount), 1))
        return min(raises, key=lambda k: abs(math.log(max(amounts[k], 1)) - x))
    for want in ("check", "call"):
        if want in kinds:
            return kinds.index(want)
    return 0


def lock_player(solver: Any, view: PlayerView, q: int, agent: Any, deadline: float | None,
                situations: Any = None) -> int | None:
    """Fix every decision of player ``q`` in ``solver``'s subgame (rooted at ``view``) to
    ``agent``'s strategy: a range query at the real state each path of subgame actions
    leads to, each of the agent's actions read as the subgame's nearest
    (:func:`subgame_column`); with ``situations`` (a set of
    :func:`~pokerlab.agents.tilt_model.situation` classes) only the decisions of those
    classes.  Returns the number of nodes locked, ``None`` past ``deadline`` (``None``
    deadline: never, as with ``iters=N``: then play does not depend on the clock)."""
    from pokerlab.agents.beliefs import with_some_hole
    from pokerlab.agents.tilt_model import situation
    from pokerlab.holdem.view import make_view
    from pokerlab.policy.range_query import all_hands_probabilities
    from pokerlab.subgame.resolve import decision_paths

    tr = solver.tree
    live = np.asarray(solver.spot.ranges[q]) > 0
    n = 0
    for path in decision_paths(solver, q):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        st = view.replay_state()
        node = 0
        for name in path:
            a = tr.action_names[node].index(name)
            st.apply(real_action(make_view(st, int(st.actor)), name, tr.action_amounts[node][a]))
            node = tr.child(node, a)
        if situations is not None and situation(st.street, st.to_call, st.num_raises) not in situations:
            continue
        acts, probs = all_hands_probabilities(agent, with_some_hole(make_view(st, q)), live)
        names, amounts = tr.action_names[node], tr.action_amounts[node]
        strat = np.zeros((len(names), 1326))
        for c, act in enumerate(acts):
            strat[subgame_column(names, amounts, act)] += probs[:, c]
        tot = strat.sum(axis=0)
        mask = live & (tot > 0)
        strat[:, mask] /= tot[mask]
        strat[:, ~mask] = 1.0 / len(names)
        solver.lock(list(path), strat, mask)
        n += 1
    return n


def blueprint_values(base: Any, view: PlayerView, spot: Any, *, gadget: str, threads: int,
                     deadline: float | None, leaves: Any = None) -> np.ndarray | None:
    """The opponent's best-response counterfactual values at the root of ``spot`` (a
    subgame starting at ``view``) against the base policy's play of every searcher
    decision in it (range queries at the real states the subgame's actions lead to, each
    base action read as the subgame's nearest); with ``gadget=bp`` its values when the base
    policy plays both sides' decisions; ``None`` past ``deadline`` or when the base policy
    cannot be followed.  ``leaves``: for a depth-limited ``spot`` (a flop or turn subgame
    to the street's end), a function of the solver that returns its leaf model
    (:class:`~pokerlab.agents.leaves.ModicumLeaves`, the opponent the chooser): after the
    street the base policy continues and the opponent best-responds by choosing, per hand,
    the best of the continuation strategies (with ``gadget=bp`` it plays the base's own);
    or :class:`~pokerlab.agents.river_leaves.RiverStepLeaves`: every river solved."""
    from pokerlab.subgame.resolve import counterfactual_values
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    me = view.player
    estimate = gadget == "bp"
    solver = SpotSolver(spot, SolveConfig(isomorphism=False), threads=threads,
                        depth_limited=leaves is not None)
    if leaves is not None:
        model = leaves(solver)
        model.refresh()
        if estimate and hasattr(model, "avg"):
            # Modicum's chooser's average choice: the base's own continuation (river leaves
            # have no choice: the river is solved)
            model.avg[:, 0, :] = 1.0
        solver.set_leaf_model(model)
    for q in ((me, 1 - me) if estimate else (me,)):
        if lock_player(solver, view, q, base, deadline) is None:
            return None
    # gadget=br: the opponent's best response to the blueprint's play (safe); gadget=bp:
    # its value when both play the blueprint (Libratus' estimate: not a bound, but the
    # searcher must then do better than the blueprint against each opponent hand)
    return counterfactual_values(solver, (), 1 - me, best_response=not estimate)
