"""One decision's solve (:func:`solve`), step by step, each mode its own function:

1. :func:`plan`: depth-limited or not, safe or not (``safe``, or ``verify`` until the
   model is trusted on this street);
2. :func:`start_ranges`: nested in an earlier solve of the hand (its reach, and when safe
   the gadget's values) or modelled by Bayes (:class:`~pokerlab.agents.beliefs.HoldemBeliefs`),
   pruned and floored, and widened where they admit no deal (:func:`dealable`);
3. :func:`build_spot`: the spot rooted at this decision, fitted to the budget
   (:func:`fit_full`, :func:`fit_limited`), with the river's blueprint gadget
   (:func:`first_gadget`) at the hand's first safe search (river, or depth-limited);
4. :func:`attach_leaves` (depth-limited), the gadget, :func:`attach_locks` (``lock=1``, or
   the learned model's confident situations);
5. :func:`iterate`: Discounted CFR until the budget, the iteration count or the target.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.agents.leaves import compatible_mass
from pokerlab.agents.search.locking import blueprint_values, lock_player
from pokerlab.agents.search.nesting import anchor, leaf_pairs, nested_ranges, street_start
from pokerlab.agents.search.state import (
    BUILD_SHARE,
    LIMITED_ITERATIONS,
    LOCKED_ITERATIONS,
    MIN_DEAL_SHARE,
    MIN_ITERATIONS,
    PRUNE,
    RATE_S_PER_BYTE,
    REFRESH_EVERY,
    WIDEN,
    Searcher,
    Solve,
)
from pokerlab.errors import AgentError
from pokerlab.holdem.events import CheckedOrCalled, RaisedTo
from pokerlab.holdem.view import PlayerView


@dataclass(frozen=True)
class Plan:
    """How a decision is solved."""

    limited: bool  # depth-limited (depth=1 before the river)
    safe: bool  # safe re-solving (the gadget where a solve to nest in has one)


@dataclass
class Ranges:
    r0: np.ndarray
    r1: np.ndarray
    cbv: np.ndarray | None  # the gadget's values (safe nested)
    prior: np.ndarray | None  # the opponent's range where they were computed
    nested: bool
    source: Solve | None = None  # the solve nested in


def pruned(r: np.ndarray, keep: int) -> np.ndarray:
    """``r`` without the combos below :data:`PRUNE` of its largest weight (``keep``: a combo
    kept whatever its weight; -1: none)."""
    out = np.where(r >= PRUNE * float(r.max()), r, 0.0)
    if keep >= 0:
        out[keep] = r[keep]
    return out


def floored(r: np.ndarray, floor: float, board: Any) -> np.ndarray:
    """``r`` with every combo that misses the board raised to ``floor`` times its largest
    weight (the opponent's modelled range: see the ``floor`` key)."""
    from pokerlab.cards.cards import combos_blocked_by

    top = float(r.max())
    if top <= 0:
        return r
    return np.where(combos_blocked_by(board), 0.0, np.maximum(r, floor * top))


def subgame_root(view: PlayerView, to_act: int | None = None) -> Any:
    """The :class:`~pokerlab.subgame.spot.Root` of a spot starting at ``view``'s state
    (the street's bets, aggressions and actions so far)."""
    from pokerlab.subgame.spot import Root

    per = view.street_action_events()
    bets = [0, 0]
    prev = 0
    aggr = 0
    acted = 0
    for e in per[view.street]:
        if isinstance(e, RaisedTo):
            prev = bets[1 - e.player]
            bets[e.player] = int(e.raise_to)
            aggr += 1
        elif isinstance(e, CheckedOrCalled):
            bets[e.player] = max(bets)
        acted += 1
    last = per[view.street - 1][-1] if per[view.street - 1] else None
    donk = bool(isinstance(last, CheckedOrCalled) and last.player == 0 and last.amount > 0)
    if tuple(bets) != tuple(view.bets):
        raise AgentError(f"search: street bets {bets} do not match the view's {view.bets}")
    return Root(to_act=view.player if to_act is None else int(to_act), bets=(bets[0], bets[1]),
                prev_level=prev, aggressions=aggr, acted=acted, donk_ok=donk)


def plan(agent: Searcher, view: PlayerView) -> Plan:
    """Safe: always with ``safe=1``; with ``verify``, until the learned model has seen
    enough of the opponent on this street (then its ranges are trusted, its deviations
    locked); a ``lock=1`` search is never safe by ``verify``.  A depth-limited search is
    safe as a whole-hand one is (its first gadget values its leaves by the continuation)."""
    cfg = agent.config
    limited = cfg.limited and len(view.board) < 5
    safe = bool(cfg.safety.safe) or (not agent.opponent.trusted(view.street) and not cfg.opponent.lock)
    return Plan(limited=limited, safe=safe)


def start_ranges(agent: Searcher, view: PlayerView, deadline: float, mine: int | None, how: Plan,
                 nest: bool) -> Ranges:
    """Both ranges at ``view``: nested in the solve :func:`anchor` finds, else by Bayes;
    pruned (the searcher's own combo kept) and, where modelled, floored."""
    cfg = agent.config
    me = view.player
    source = anchor(agent, view, deadline, mine, at_street_start=how.safe) if nest else None
    nested = nested_ranges(view, source, how.safe) if nest else None
    cbv = prior = None
    if nested is not None:
        r0, r1, cbv, prior = nested
        agent.stats.nested += 1
    else:
        r = agent.beliefs.update(view)
        r0, r1 = r[0], r[1]
    keep = -1 if mine is None else mine
    r0, r1 = pruned(r0, keep if me == 0 else -1), pruned(r1, keep if me == 1 else -1)
    floor = cfg.safety.floor
    if floor > 0 and (nested is None or not how.safe):
        if me == 1:
            r0 = floored(r0, floor, view.board)
        else:
            r1 = floored(r1, floor, view.board)
    ours = r0 if me == 0 else r1
    if mine is not None and ours[mine] <= 0:
        raise AgentError("search: its own hand is outside its range")
    return dealable(agent, Ranges(r0=r0, r1=r1, cbv=cbv, prior=prior, nested=nested is not None,
                                  source=source if nested is not None else None), me, view.board)


def dealable(agent: Searcher, rg: Ranges, me: int, board: Any) -> Ranges:
    """``rg``, or where the searcher's range and the opponent's (its reach, and its
    ``prior`` too when the solve is safe: the spot is built on the reach, the gadget on the
    prior) hold no pair of hands without a common card, the ranges widened so
    that they do: a safe solve becomes unsafe (the opponent's reach, no gadget) and, if
    that is not enough, every combo the board allows keeps :data:`WIDEN` of the
    opponent's largest weight.  Two narrowed ranges can block each other entirely (every
    combo the searcher holds shares a card with every combo it credits the opponent
    with); the spot would have no deal to solve.  Combos that hold a board card do not
    count (ranges carried from an earlier street's solve still weigh the card since dealt),
    nor do pairs worth less than :data:`MIN_DEAL_SHARE` of the two masses together (a
    prior with a trace of weight off the searcher's cards)."""
    from pokerlab.cards.cards import combos_blocked_by

    live = ~combos_blocked_by(board)
    ours = rg.r0 if me == 0 else rg.r1
    theirs = rg.r1 if me == 0 else rg.r0
    ours_live = ours * live
    reach_deals = can_deal(ours_live, theirs * live)
    if reach_deals and (rg.prior is None or can_deal(ours_live, rg.prior * live)):
        return rg
    agent.stats.widened += 1
    if not reach_deals:
        theirs = floored(theirs, WIDEN, board)
    r0, r1 = (ours, theirs) if me == 0 else (theirs, ours)
    return Ranges(r0=r0, r1=r1, cbv=None, prior=None, nested=rg.nested, source=rg.source)


def can_deal(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ranges ``a`` and ``b`` hold pairs of hands without a common card worth at
    least :data:`MIN_DEAL_SHARE` of ``a.sum() * b.sum()``."""
    from pokerlab.cards.cards import deal_possible

    if not deal_possible(a, b):
        return False
    pairs = float(np.dot(np.asarray(a, dtype=np.float64), compatible_mass(np.asarray(b, dtype=np.float64))))
    return pairs >= MIN_DEAL_SHARE * float(np.sum(a)) * float(np.sum(b))


def build_spot(agent: Searcher, view: PlayerView, rg: Ranges, root_actor: int | None) -> tuple[Any, Any, int]:
    """(spot, root, street-start stack): ranges scaled to a largest weight of 1 (a safe
    nested spot: the opponent's prior, its values scaled alike)."""
    from pokerlab.subgame.resolve import subgame_spot
    from pokerlab.subgame.spot import make_spot

    me = view.player
    r0, r1 = rg.r0, rg.r1
    scale = [float(r0.max()), float(r1.max())]
    if min(scale) <= 0:
        raise AgentError("search: a range is empty")
    pot, stack = street_start(view)
    root = subgame_root(view, root_actor)
    base = make_spot(board=tuple(view.board), pot=pot, stack=stack, oop=np.clip(r0 / scale[0], 0, 1),
                     ip=np.clip(r1 / scale[1], 0, 1), tree=agent.tree, big_blind=view.big_blind,
                     root=root)
    if rg.cbv is not None and rg.prior is not None:
        # the searcher's range is scaled by 1/scale: so are the opponent's values
        rg.cbv = rg.cbv / scale[me]
        reach = (r0 / scale[0], r1 / scale[1])
        return subgame_spot(base, root, me, reach, safe=True, prior=rg.prior), root, stack
    return base, root, stack


def fit_full(agent: Searcher, spot: Any, budget: float) -> Any:
    """``spot`` with the richest tree of the ladder whose iteration is predicted to take
    at most 1/:data:`MIN_ITERATIONS` of the ``budget`` (seconds) and whose memory fits;
    ``None`` when none does."""
    from pokerlab.subgame.solve_config import estimate_size

    for tree in agent.ladder:
        cand = dataclasses.replace(spot, tree=tree)
        size = estimate_size(cand, isomorphism=False)
        if size.memory_bytes <= agent.config.budget.max_memory and \
                agent.rate * size.memory_bytes * MIN_ITERATIONS <= budget:
            if tree is not agent.ladder[0]:
                agent.stats.coarser += 1
            return cand
    return None


def street_has_leaves(spot: Any) -> bool:
    """Whether ``spot``'s street can end with chips behind (a leaf of a depth-limited
    subgame); ``False`` when every line ends the hand (a fold or an all-in)."""
    from pokerlab.subgame.tree import build_betting_tree

    leaves = build_betting_tree(spot, depth_limited=True).leaf
    return leaves is not None and bool(leaves.any())


def fit_limited(agent: Searcher, spot: Any, budget: float) -> Any:
    """A depth-limited ``spot`` with the richest tree of the ladder whose leaves are
    predicted to be built and evaluated twice within 70% of the ``budget`` (seconds;
    per leaf costs of the street, refined by each search); ``None`` when none is."""
    from pokerlab.subgame.tree import build_betting_tree

    build, evaluate = agent.leaf_cost[int(spot.street)]
    for tree in agent.ladder:
        cand = dataclasses.replace(spot, tree=tree)
        leaves = build_betting_tree(cand, depth_limited=True).leaf
        n = int(leaves.sum()) if leaves is not None else 0
        if n * (build + 2.0 * evaluate) <= 0.7 * budget:
            if tree is not agent.ladder[0]:
                agent.stats.coarser += 1
            return cand
    return None


def clock(agent: Searcher, deadline: float) -> float | None:
    """The deadline the solve's steps check (``None`` with ``iters=N``: no time checks)."""
    return None if agent.config.budget.iterations else deadline


def first_gadget(agent: Searcher, view: PlayerView, spot: Any, root: Any, rg: Ranges,
                 deadline: float, limited: bool) -> Any:
    """The first search of the hand, safe: the opponent may take its best-response value
    against the blueprint's play of this subgame (``gadget``); the spot with the
    opponent's whole range (``rg`` gets the values and the prior).  On the river the
    subgame is the rest of the hand; a depth-limited flop or turn subgame values its
    leaves by the base's continuation with the opponent choosing the best of Modicum's
    variants (:func:`~pokerlab.agents.search.locking.blueprint_values`; every river of a
    turn leaf, one refresh's runouts of a flop leaf)."""
    from pokerlab.agents.leaves import EVERY_RIVER, build_leaves
    from pokerlab.agents.river_leaves import GADGET_WARM, build_step_leaves
    from pokerlab.subgame.resolve import subgame_spot

    me = view.player
    d = agent.config.depth_limit

    def leaves(solver: Any) -> Any:
        if d.leaves == "river" and len(view.board) == 4:
            # the same leaf values as the re-solve's (a gadget valued otherwise is not the
            # bound the re-solve keeps): the opponent best-responds on the turn, every river
            # solved on the blueprint's reaches
            return build_step_leaves(solver, spot, warm=GADGET_WARM)
        return build_leaves(solver, agent.base, view, chooser=1 - me,
                            runouts=EVERY_RIVER if len(view.board) == 4 else d.runouts,
                            seed=int(agent.rng.next() >> 1), bias=d.bias, trees=agent.leaf_trees)

    bp = blueprint_values(agent.base, view, spot, gadget=agent.config.safety.gadget,
                          threads=agent.config.budget.threads, deadline=clock(agent, deadline),
                          leaves=leaves if limited else None)
    if bp is None:
        return spot
    rg.cbv = bp
    rg.prior = np.asarray(spot.ranges[1 - me], dtype=np.float64).copy()
    agent.stats.blueprint_gadgets += 1
    return subgame_spot(spot, root, me, (spot.ranges[0], spot.ranges[1]), safe=True, prior=rg.prior)


def attach_leaves(agent: Searcher, solver: Any, view: PlayerView, spot: Any, deadline: float,
                  source: Solve | None = None) -> Any:
    """Leaves at the street's end: Modicum's (the base policy's continuation with the
    opponent choosing among its biased versions) or, with ``leaves=river`` on the turn, the
    rivers iterated in step with the turn solve
    (:class:`~pokerlab.agents.river_leaves.RiverStepLeaves`, ``runouts`` rivers per
    iteration, default :data:`~pokerlab.agents.river_leaves.SEARCH_RIVERS`); ``None`` when
    evaluating them once would pass the deadline."""
    from pokerlab.agents.leaves import build_leaves
    from pokerlab.agents.river_leaves import SEARCH_RIVERS, RiverStepLeaves, build_step_leaves

    d = agent.config.depth_limit
    t_build = time.perf_counter()
    seed = int(agent.rng.next() >> 1)
    if d.leaves == "river" and len(spot.board) == 4:
        leaves: Any = build_step_leaves(solver, spot, rivers=d.runouts or SEARCH_RIVERS, seed=seed)
        before = source.solver.leaf_model if source is not None else None
        if source is not None and isinstance(before, RiverStepLeaves):
            # nested in a solve of this street: its rivers continue from there
            agent.stats.warm_leaves += leaves.warm_from(before, leaf_pairs(source, view, solver))
    else:
        leaves = build_leaves(solver, agent.base, view, chooser=1 - view.player, runouts=d.runouts,
                              seed=seed, bias=d.bias, trees=agent.leaf_trees)
    solver.set_leaf_model(leaves)
    agent.stats.depth_limited += 1
    n_leaves = len(solver.leaf_nodes)
    b_old, e_old = agent.leaf_cost[int(spot.street)]
    per_build = (time.perf_counter() - t_build) / max(n_leaves, 1)
    agent.leaf_cost[int(spot.street)] = (0.8 * b_old + 0.2 * per_build, e_old)
    if not agent.config.budget.iterations and time.perf_counter() + n_leaves * e_old >= deadline:
        return None
    return leaves


def attach_locks(agent: Searcher, solver: Any, view: PlayerView, safe: bool, deadline: float) -> int | None:
    """``lock=1``: every opponent decision fixed to the model; else (``tilt_lock``, not
    safe) the decisions of the situations the learned model is confident of.  The number of
    nodes locked; ``None`` past the deadline."""
    cfg = agent.config
    opp = 1 - view.player
    if cfg.opponent.lock:
        return lock_player(solver, view, opp, agent.opponent.lock_model(), clock(agent, deadline))
    if cfg.auto_lock and not safe:
        sure = agent.opponent.confident()
        if sure:
            return lock_player(solver, view, opp, agent.opponent.lock_model(), clock(agent, deadline), sure)
    return 0


def iterate(agent: Searcher, solver: Any, spot: Any, leaves: Any, *, capped: int, stoppable: bool,
            deadline: float) -> bool:
    """Discounted CFR iterations: ``iters=N`` of them, else until the deadline (keeping
    the slowest recent iteration's time in hand), ``capped`` (a locked, safe or
    depth-limited solve) or, every 50 (``stoppable``), the target exploitability.  A
    depth-limited solve refreshes its leaves' values before iterations 1, 2, 4, 8 and every
    :data:`REFRESH_EVERY` after.
    ``False`` when not one iteration ran before the deadline."""
    iterations = agent.config.budget.iterations
    per_iter = 0.0  # the slowest recent iteration (seconds), what the deadline is kept by
    steady = 0.0  # seconds of the iterations after the first (the first may load kernels)
    next_refresh = 1
    refresh_cost = 0.0
    while True:
        now = time.perf_counter()
        if iterations:
            if solver.iteration >= iterations:
                break
        elif solver.iteration > 0 and now + per_iter > deadline:
            break
        elif solver.iteration == 0 and now >= deadline:
            return False
        fresh = leaves is not None and solver.iteration + 1 >= next_refresh and (
            iterations or solver.iteration == 0 or now + refresh_cost + per_iter <= deadline)
        if fresh:
            leaves.refresh()
            it = solver.iteration + 1
            next_refresh = min(2 * it, it + REFRESH_EVERY)
        solver.step()
        took = time.perf_counter() - now
        if fresh:
            refresh_cost = took
            if solver.leaf_nodes:
                b_old, e_old = agent.leaf_cost[int(spot.street)]
                per_eval = took / len(solver.leaf_nodes)
                agent.leaf_cost[int(spot.street)] = (b_old, 0.8 * e_old + 0.2 * per_eval)
        else:
            per_iter = max(per_iter * 0.5, took)
        if solver.iteration > 1:
            steady += took
        if not iterations and capped and solver.iteration >= capped:
            break  # no exploitability to stop by: a locked, safe or depth-limited solve stops here
        if solver.iteration % 50 == 0 and stoppable:
            if solver.exploitability()[1] <= agent.config.budget.target_pct:
                break
    mem = float(solver.size.memory_bytes)
    if solver.iteration > 2 and mem > 0 and leaves is None:
        obs = steady / (solver.iteration - 1) / mem
        obs = min(max(obs, 0.25 * RATE_S_PER_BYTE), 8 * RATE_S_PER_BYTE)
        agent.rate = 0.8 * agent.rate + 0.2 * obs
    return True


def solve(agent: Searcher, view: PlayerView, deadline: float, mine: int | None, *,
          root_actor: int | None = None, nest: bool = True) -> tuple[Any, int] | None:
    """The solved subgame at ``view`` (for the searcher ``view.player``; rooted at a
    decision of ``root_actor``, default the searcher) and the street-start stack, or
    ``None`` when no subgame fits the budget.  ``mine``: the searcher's combo (kept in
    its range); ``nest``: ranges from the solve :func:`anchor` finds, when one does."""
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    cfg = agent.config
    how = plan(agent, view)
    rg = start_ranges(agent, view, deadline, mine, how, nest)
    spot, root, stack = build_spot(agent, view, rg, root_actor)
    if how.limited and not street_has_leaves(spot):
        # every line of the street ends the hand (a fold or an all-in, stacks too short for
        # another street): the subgame is the whole rest of the hand, no leaf to value
        how = dataclasses.replace(how, limited=False)
    if not cfg.budget.iterations:
        left = BUILD_SHARE * (deadline - time.perf_counter())
        spot = fit_limited(agent, spot, left) if how.limited else fit_full(agent, spot, left)
        if spot is None:
            return None
    if rg.cbv is None and how.safe and root_actor is None and (len(view.board) == 5 or how.limited):
        spot = first_gadget(agent, view, spot, root, rg, deadline, how.limited)
    solver = SpotSolver(spot, SolveConfig(isomorphism=False), max_memory=cfg.budget.max_memory,
                        threads=cfg.budget.threads, depth_limited=how.limited)
    leaves: Any = None
    if how.limited:
        leaves = attach_leaves(agent, solver, view, spot, deadline, rg.source)
        if leaves is None:
            return None
    if rg.cbv is not None:
        solver.set_gadget(1 - view.player, rg.cbv)
        agent.stats.safe_solves += 1
    locked = attach_locks(agent, solver, view, how.safe, deadline)
    if locked is None:
        return None
    agent.stats.locked_nodes += locked
    gadget = rg.cbv is not None
    capped = LIMITED_ITERATIONS if how.limited else LOCKED_ITERATIONS if locked or gadget else 0
    stoppable = not gadget and not cfg.budget.iterations and not locked and not how.limited
    if not iterate(agent, solver, spot, leaves, capped=capped, stoppable=stoppable, deadline=deadline):
        return None
    if root_actor is None:  # a decision's solve (a street's start is counted apart)
        agent.stats.searches += 1
        agent.stats.searches_by_street[view.street] += 1
        agent.stats.iterations += solver.iteration
    return solver, stack


_WARM = False


def warm_up() -> None:
    """Load the solver's kernels once per process (a tiny river solve), so the first
    decision's think time is spent thinking."""
    global _WARM
    if _WARM:
        return
    from pokerlab.subgame.resolve import counterfactual_values
    from pokerlab.subgame.solve_config import SolveConfig, estimate_size
    from pokerlab.subgame.solver import SpotSolver
    from pokerlab.subgame.spot import Root, make_spot, tree_config

    spot = make_spot(board="AhKd7c4s2h", pot=10, stack=20, oop="AA,KK,QQ", ip="AK,JJ", tree=tree_config(),
                     root=Root(to_act=1, acted=1))
    estimate_size(spot, isomorphism=False)
    s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    s.set_gadget(0, np.ones(1326))
    s.step()
    counterfactual_values(s, (), 0)
    spot = make_spot(board="AhKd7c4s", pot=10, stack=20, oop="AA", ip="KK", tree=tree_config())
    SpotSolver(spot, SolveConfig(isomorphism=False), threads=1).step()
    _WARM = True
