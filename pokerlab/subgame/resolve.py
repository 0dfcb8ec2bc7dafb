"""Re-solving a part of a solved spot: the pieces real-time search is made of.

* :func:`node_reach` / :func:`counterfactual_values`: both players' reach at a node of a
  solved spot and one player's counterfactual values there (on-policy or best response),
  as 1326-combo vectors in the engine's units (what :meth:`SpotSolver.set_gadget` takes);
* :func:`root_after`: the :class:`~pokerlab.subgame.spot.Root` of a spot that starts at a
  node of another one (same street), so the subgame's tree is the node's subtree;
* :func:`subgame_spot`: that spot, with the searcher's reach as its range and the
  opponent's either its reach (unsafe re-solving) or every hand it can hold (safe
  re-solving with the gadget);
* :func:`decision_paths`, :func:`strategy_at`, :func:`lock_player`: a player's strategy
  as per-path (actions, 1326) arrays, and a solver with one player's strategy fixed
  everywhere, whose best response is the exact exploitability of that strategy.

The safety check of docs/search.md (safe re-solving never raises exploitability, measured
against the unsafe variant) runs on river spots, where best response is exact, through
these functions: the same code path the search agent uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerlab.cards.cards import COMBO_MASKS, cards_mask
from pokerlab.subgame.solve_config import SolveConfig
from pokerlab.subgame.solver import SpotSolver
from pokerlab.subgame.solver_views import NodeView
from pokerlab.subgame.spot import Root, Spot, SpotError, make_spot
from pokerlab.subgame.tree import CHANCE, DECISION


def full_vector(solver: SpotSolver, p: int, vec: np.ndarray) -> np.ndarray:
    """A vector over player ``p``'s hands of ``solver`` as 1326 combo weights."""
    out = np.zeros(1326)
    out[solver.deal.combos[p]] = vec
    return out


def node_reach(solver: SpotSolver, path: Sequence[str]) -> tuple[NodeView, np.ndarray, np.ndarray]:
    """The node of ``path`` and both players' reach there (1326 weights each: range times
    the average strategy's probability of the path's actions, card removal applied)."""
    view = solver.cursor(list(path))
    return view, full_vector(solver, 0, view.reach[0]), full_vector(solver, 1, view.reach[1])


def counterfactual_values(solver: SpotSolver, path: Sequence[str], player: int, *,
                          best_response: bool = True) -> np.ndarray:
    """``player``'s counterfactual value of each combo at the node of ``path`` (1326; 0 for
    hands it cannot hold): against the other player's average strategy, with ``player``
    best-responding below the node (``best_response``) or playing its own average."""
    view = solver.cursor(list(path))
    if view.street != solver.spot.street and tuple(view.suit_map) != (0, 1, 2, 3):
        raise SpotError("counterfactual values after a suit-swapped card need the solver without "
                        "suit isomorphism")
    cfv = solver.counterfactual_values(player, node=view.node, slot=view.slot,
                                       opp_reach=view.reach[1 - player], own_reach=view.reach[player],
                                       best_response=best_response)
    return full_vector(solver, player, cfv)


def root_after(spot: Spot, actions: Sequence[tuple[str, int]]) -> Root:
    """The root of a spot that starts after ``actions`` on ``spot``'s street: each is
    (``check`` | ``call`` | ``bet`` | ``raise``, street total after it; 0 for check)."""
    r = spot.root
    to_act, bets, prev, aggr, acted = r.to_act, list(r.bets), r.prev_level, r.aggressions, r.acted
    for kind, amount in actions:
        q, o = to_act, 1 - to_act
        if kind == "check":
            if bets[o] != bets[q]:
                raise SpotError("a check facing a bet")
        elif kind == "call":
            bets[q] = bets[o]
            raise SpotError("a call ends the street: the next spot starts on the next street")
        elif kind in ("bet", "raise", "allin"):
            prev = bets[o]
            bets[q] = int(amount)
            aggr += 1
        else:
            raise SpotError(f"unknown action {kind!r}")
        acted += 1
        to_act = o
        if kind == "check" and acted >= 2:
            raise SpotError("both players checked: the street is over")
    return Root(to_act=to_act, bets=(bets[0], bets[1]), prev_level=prev, aggressions=aggr, acted=acted,
                donk_ok=r.donk_ok)


def all_hands(board: Sequence[int]) -> np.ndarray:
    """Weight 1 on every combo the board does not block."""
    w = np.ones(1326)
    w[(COMBO_MASKS & np.uint64(cards_mask(board))) != 0] = 0.0
    return w


def subgame_spot(spot: Spot, root: Root, searcher: int, reach: tuple[np.ndarray, np.ndarray], *,
                 safe: bool, prior: np.ndarray | None = None) -> Spot:
    """The spot that starts at ``root`` (on ``spot``'s street) with the searcher's reach as
    its range; the opponent's range is its reach (unsafe) or, for safe re-solving (pair
    the solver with :meth:`SpotSolver.set_gadget`), its ``prior``: the weights its hands
    had where the values of the gadget were computed (default ``spot``'s range), since
    every hand it could hold there may choose to enter.  Ranges are clipped to [0, 1]."""
    ranges = [np.asarray(reach[0], dtype=np.float64), np.asarray(reach[1], dtype=np.float64)]
    opp = 1 - searcher
    if safe:
        ranges[opp] = np.asarray(spot.ranges[opp] if prior is None else prior, dtype=np.float64)
    for p in (0, 1):
        if float(ranges[p].max()) <= 0:
            raise SpotError(f"player {p} cannot reach this node: nothing to re-solve")
    return make_spot(board=spot.board, pot=spot.pot, stack=spot.stack,
                     oop=np.clip(ranges[0], 0.0, 1.0), ip=np.clip(ranges[1], 0.0, 1.0), tree=spot.tree,
                     rake=spot.rake, rake_cap=spot.rake_cap, big_blind=spot.big_blind, root=root)


def decision_paths(solver: SpotSolver, player: int, *, prefix: Sequence[str] = ()) -> list[tuple[str, ...]]:
    """Paths (action names) of ``player``'s decision nodes on the spot's own street below
    ``prefix``."""
    tr = solver.tree
    start = solver.cursor(list(prefix)).node
    out: list[tuple[str, ...]] = []
    stack: list[tuple[int, tuple[str, ...]]] = [(start, tuple(prefix))]
    while stack:
        node, path = stack.pop()
        if tr.kind[node] == CHANCE:
            continue
        if tr.kind[node] == DECISION:
            if tr.player[node] == player:
                out.append(path)
            for a in range(int(tr.num_children[node]) - 1, -1, -1):
                stack.append((tr.child(node, a), path + (tr.action_names[node][a],)))
    out.sort(key=lambda p: (len(p), p))
    return out


def strategy_at(solver: SpotSolver, path: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Action names and the average strategy (actions, 1326; NaN off the range) at a decision."""
    rep = solver.node_report(solver.cursor(list(path)))
    if rep["kind"] != "decision":
        raise SpotError(f"node {' / '.join(path) or 'root'} is not a decision")
    return list(rep["actions"]), np.asarray(rep["strategy"], dtype=np.float64)


def lock_player(spot: Spot, player: int, strategies: dict[tuple[str, ...], np.ndarray],
                config: SolveConfig | None = None) -> SpotSolver:
    """A fresh solver on ``spot`` with ``player``'s strategy fixed at every path of
    ``strategies`` ((actions, 1326) arrays, NaN rows off the range are left free)."""
    s = SpotSolver(spot, config if config is not None else SolveConfig(isomorphism=False))
    for path, strat in strategies.items():
        mask = ~np.isnan(strat[0])
        filled = np.where(np.isnan(strat), 1.0 / strat.shape[0], strat)
        s.lock(list(path), filled, mask)
    return s


def real_action(view: Any, name: str, amount: int) -> Any:
    """The real action of subgame action ``name`` (``fold``, ``check``, ``call``, ``bet N``,
    ``raise N``, ``allin N``; ``amount``: its street total) at ``view``'s state (a
    :class:`~pokerlab.holdem.view.PlayerView`): a fold where none is legal checks, a raise
    where none is legal checks or calls, a raise is clipped to the legal amounts."""
    from pokerlab.holdem.actions import Action, ActionKind

    kind = name.split(" ")[0]
    if kind == "fold":
        return Action(kind=ActionKind.FOLD) if view.can_fold else Action(kind=ActionKind.CHECK_CALL)
    if kind in ("check", "call") or not view.can_raise:
        return Action(kind=ActionKind.CHECK_CALL)
    to = int(min(max(int(amount), view.min_raise_to), view.max_raise_to))
    return Action(kind=ActionKind.RAISE, amount=to)
