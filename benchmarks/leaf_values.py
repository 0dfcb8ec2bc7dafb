"""The value error of the depth-limited search's leaf values against exact solves (issue 49,
item 2: "value error against exact solves of held-out spots").

The searching agent ``search(street=turn,depth=1,iters=N,tilt=0,leaves=modicum)`` plays hands against
``blueprint`` (fixed seeds; the searcher's seat alternates).  After each of its decisions on
the chosen street (turn, or flop with ``--street flop``) that it solved depth-limited (the
subgame ends with the street; each end with chips behind is a leaf valued by Modicum's
continuations: the blueprint continues, the opponent chooses among the blueprint and its
fold-, call- and raise-biased versions), the solve it played from (``agent.prev.solver``)
is kept: its spot (board, pot, stacks, both ranges, tree, root), each player's value at
the root and the searcher's counterfactual value of each hand there.  Then the SAME spot is
solved as a whole tree to the end of the hand (``SpotSolver(spot,
SolveConfig(isomorphism=False))``, ``solve(iterations=--exact-iters, target_pct=0.3)``),
and the two are compared (:func:`compare`):

* **root value error**: |value of the depth-limited solve - value of the whole-tree solve|
  at the root, per player, in % of the spot's pot (without rake the two players' errors are
  equal up to the leaves' own inconsistency; the table gives the searcher's, and its signed
  mean: > 0 when the leaves flatter the searcher);
* **per-hand error**: the searcher's value of each hand at the root (its counterfactual
  value over the opponent's range it can meet, :func:`pokerlab.subgame.resolve.counterfactual_values`
  on its average strategy), the mean absolute difference weighted by each hand's
  probability in the spot (range weight times the opponent weight it can meet), in % of
  the pot.

The depth-limited solve is measured three ways: **as the agent left it** (its values come
from :class:`~pokerlab.agents.leaves.ModicumLeaves`' lazy per-unit-reach values, last
evaluated exactly before iteration 64 of 100), **the same solve with its leaves evaluated
afresh** for the final average strategies (the leaf model's error on the agent's strategy,
without the lazy values' staleness), and **a solve of N iterations whose Modicum leaves
(the agent's continuations) are evaluated exactly before every iteration** (what the lazy
values approximate; ``--no-every-iteration`` skips it).  On the turn, river leaves two ways:
refreshed on the agent's schedule (``river``, ``river_fresh``) and iterated in step with the
turn (``river_step``, :class:`~pokerlab.agents.river_leaves.RiverStepLeaves`).

A cheap baseline on the same spots: the same depth-limited tree and ``N`` iterations with
each leaf valued by **showdown equity** (both players check the rest of the hand down:
:class:`CheckDownLeaves`).  And what ``N`` iterations alone leave: **the whole tree solved
with the same N iterations** (exact values past the street, fewer iterations than the
reference).  The whole-tree solve is the reference: its own exploitability
(% of the pot, in the table) bounds how far it is from exact.  A flop spot's whole tree may
be large: spots whose estimate is over ``--max-memory`` bytes are refused and counted.

Usage: ``python benchmarks/leaf_values.py [--spots 30] [--iters 100] [--runouts 0]
[--seed 0] [--street turn|flop] [--max-memory 2e9] [--exact-iters 1000] [--target 0.3]
[--max-hands 2000] [--vs-runouts R,...] [--no-every-iteration] [--json]`` (one core; about 45 s
per turn spot with every kind of solve: 10 spots take about 10 minutes).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

STREETS = {"flop": 1, "turn": 2}
KINDS = ("modicum", "modicum_fresh", "modicum_exact", "river", "river_fresh", "river_step", "equity",
         "whole_n")
"""The leaf values compared (see :func:`main`); ``--vs-runouts R,...`` adds
``runouts_R`` and ``runouts_R_fresh`` for each R."""


def kinds(vs_runouts: tuple[int, ...]) -> tuple[str, ...]:
    extra = tuple(k for r in vs_runouts for k in (f"runouts_{r}", f"runouts_{r}_fresh"))
    return KINDS[:3] + extra + KINDS[3:]


def river_solve(spot: Any, iterations: int) -> tuple[Any, float]:
    """The depth-limited turn ``spot`` solved as the agent solves it with
    ``search(depth=1,leaves=river,iters=N)`` (the river solved at each refresh, 12 rivers a
    time, :mod:`pokerlab.agents.river_leaves`); (the solver, CPU seconds)."""
    from pokerlab.agents.river_leaves import build_river_leaves
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    c0 = time.process_time()
    probe = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    leaves = build_river_leaves(probe, spot, seed=12345)
    s = lazy_solve(spot, leaves, iterations)
    return s, time.process_time() - c0


def river_step_solve(spot: Any, iterations: int) -> tuple[Any, float]:
    """The depth-limited turn ``spot`` solved with its rivers iterated in step
    (:class:`~pokerlab.agents.river_leaves.RiverStepLeaves`, every river, one class iteration
    per turn iteration); (the solver, CPU seconds)."""
    from pokerlab.agents.river_leaves import build_step_leaves
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    c0 = time.process_time()
    s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    s.set_leaf_model(build_step_leaves(s, spot))
    s.steps(iterations)
    return s, time.process_time() - c0


def river_values_of(s: Any, searcher: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(:func:`solve_values`, the same with every river solved afresh) of a river-leaf solve."""
    m = s.leaf_model
    v = solve_values(s, searcher)
    m.per_refresh = 48
    m.refresh()
    return v, solve_values(s, searcher)


# ------------------------------------------------------------------------------ comparing
def hand_values(solver: Any, player: int) -> tuple[np.ndarray, np.ndarray]:
    """(value, weight) of each of ``player``'s 1326 combos at ``solver``'s root: its
    counterfactual value on its average strategy divided by the opponent weight it can meet
    (chips, with its share of the pot; 0 off the range), and the hand's probability weight
    in the spot (range weight times that opponent weight)."""
    from pokerlab.agents.leaves import compatible_mass
    from pokerlab.subgame.resolve import counterfactual_values, full_vector

    cfv = counterfactual_values(solver, (), player, best_response=False)
    own = full_vector(solver, player, solver.deal.weights[player])
    opp = full_vector(solver, 1 - player, solver.deal.weights[1 - player])
    mass = compatible_mass(opp)
    value = np.divide(cfv, mass, out=np.zeros(1326), where=mass > 0)
    return value, np.where(mass > 0, own * mass, 0.0)


def solve_values(solver: Any, searcher: int) -> dict[str, Any]:
    """What :func:`compare` needs of one solve: both players' root values (chips) and the
    searcher's per-hand values and weights (1326 each)."""
    v, w = hand_values(solver, searcher)
    return {"values": [float(x) for x in solver.values()], "hand_values": v, "hand_weights": w,
            "pot": float(solver.spot.pot), "searcher": int(searcher)}


def compare(approx: Any, exact: Any, searcher: int) -> dict[str, Any]:
    """The error of ``approx`` (a solve or its :func:`solve_values`) against ``exact`` (the
    same spot solved as a whole tree, or its :func:`solve_values`), in % of the spot's pot:
    ``root_error`` per player (|value difference| at the root), ``searcher_error`` and
    ``searcher_signed`` (the searcher's, signed: > 0 when ``approx`` values the searcher
    higher) and ``hand_error`` (the searcher's per-hand values: mean absolute difference,
    weighted by the hands' probabilities in the spot)."""
    a = approx if isinstance(approx, dict) else solve_values(approx, searcher)
    e = exact if isinstance(exact, dict) else solve_values(exact, searcher)
    pot = e["pot"]
    if abs(a["pot"] - pot) > 1e-9:
        raise ValueError(f"not the same spot: pots {a['pot']} and {pot}")
    root = [100.0 * abs(a["values"][p] - e["values"][p]) / pot for p in (0, 1)]
    signed = 100.0 * (a["values"][searcher] - e["values"][searcher]) / pot
    w = e["hand_weights"]
    tot = float(w.sum())
    hand = 100.0 * float(np.dot(w, np.abs(a["hand_values"] - e["hand_values"]))) / tot / pot if tot > 0 \
        else math.nan
    return {"root_error": root, "searcher_error": root[searcher], "searcher_signed": signed,
            "hand_error": hand}


# ---------------------------------------------------------------------- the equity leaves
class CheckDownLeaves:
    """A depth-limited solver's leaf model (``set_leaf_model``): both players check the rest
    of the hand down, so each hand's value at a leaf is the pot there times its showdown
    equity against the other's reach, over every runout (the cheap baseline)."""

    def __init__(self, solver: Any) -> None:
        self.solver = solver
        self.pots = [float(solver.spot.pot) + sum(solver.leaf_contrib(i))
                     for i in range(len(solver.leaf_nodes))]

    def leaf_values(self, leaf: int, player: int, mode: str, opp_reach: np.ndarray,
                    own_reach: np.ndarray) -> np.ndarray:
        s = self.solver
        d = s.deal
        opp = np.ascontiguousarray(opp_reach[d.combos[1 - player]], dtype=np.float64)
        eq, _ = s._equity(player, s.spot.street, 0, opp)  # win + tie/2 weights, every runout
        out = np.zeros(1326)
        out[d.combos[player]] = self.pots[leaf] * eq
        return out


def equity_solve(spot: Any, iterations: int) -> tuple[Any, float]:
    """The depth-limited ``spot`` solved ``iterations`` times with :class:`CheckDownLeaves`;
    (solver, CPU seconds)."""
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    c0 = time.process_time()
    s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    s.set_leaf_model(CheckDownLeaves(s))
    s.steps(iterations)
    return s, time.process_time() - c0


def whole_solve(spot: Any, iterations: int) -> tuple[Any, float]:
    """``spot`` solved as a whole tree with ``iterations`` iterations (no target): the
    floor of what ``iterations`` iterations leave; (solver, CPU seconds)."""
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    c0 = time.process_time()
    s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    s.steps(iterations)
    return s, time.process_time() - c0


def exact_solve(spot: Any, *, iterations: int, target_pct: float,
                max_memory: float) -> tuple[Any, float, float]:
    """``spot`` solved as a whole tree to the end of the hand; (solver, exploitability in %
    of the pot, CPU seconds).  A :class:`~pokerlab.subgame.spot.SpotError` when its estimate
    is over ``max_memory`` bytes."""
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    c0 = time.process_time()
    s = SpotSolver(spot, SolveConfig(isomorphism=False), max_memory=max_memory, threads=1)
    pct = s.solve(iterations=iterations, target_pct=target_pct)
    return s, float(pct), time.process_time() - c0


# -------------------------------------------------------------------- collecting the spots
@dataclass
class Held:
    """One depth-limited decision of the searcher: the spot and what its solve said."""

    hand: int
    spot: Any
    searcher: int
    leaves: int
    iterations: int
    cpu_s: float  # the decision's CPU seconds (building the leaves included)
    conts: list[Any]  # the leaves' continuations (ModicumLeaves.conts)
    chooser: int
    dl: dict[str, Any] = field(default_factory=dict)  # the solve as the agent left it
    dl_fresh: dict[str, Any] = field(default_factory=dict)  # its leaves evaluated afresh
    dl_r: dict[int, dict[str, Any]] = field(default_factory=dict)  # solved again, --vs-runouts R leaves
    dl_r_fresh: dict[int, dict[str, Any]] = field(default_factory=dict)  # that, all runouts afresh
    cpu_r: dict[int, float] = field(default_factory=dict)


def fresh_values(solver: Any, searcher: int) -> dict[str, Any]:
    """:func:`solve_values` of a solve with Modicum leaves evaluated afresh over every
    runout for its final average strategies (``ModicumLeaves.refresh``); the leaves' lazy
    caches and runout schedule are put back afterwards, so the agent's later decisions see
    the solve as it left it."""
    m = solver.leaf_model
    saved = (list(m.unit_chooser), list(m.unit_searcher), m.evaluations, m.calls, m.per_refresh,
             m.sel, m.refreshes)
    m.per_refresh = 0
    m.refresh()
    m.sel = None
    try:
        return solve_values(solver, searcher)
    finally:
        (m.unit_chooser, m.unit_searcher, m.evaluations, m.calls, m.per_refresh, m.sel,
         m.refreshes) = saved


def modicum_exact_solve(spot: Any, conts: list[Any], chooser: int, iterations: int) -> tuple[Any, float]:
    """The depth-limited ``spot`` solved ``iterations`` times with the agent's Modicum
    leaves (its continuations ``conts``) evaluated exactly before every iteration (no lazy
    values); (solver, CPU seconds)."""
    from pokerlab.agents.leaves import ModicumLeaves
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    c0 = time.process_time()
    s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    m = ModicumLeaves(conts, chooser)
    s.set_leaf_model(m)
    for _ in range(iterations):
        m.refresh()
        s.step()
    m.refresh()
    return s, time.process_time() - c0


def lazy_solve(spot: Any, leaves: Any, iterations: int) -> Any:
    """The depth-limited ``spot`` solved as the agent solves it with ``iters=N``
    (:func:`pokerlab.agents.search.solve.iterate`): the leaves evaluated exactly before
    iterations 1, 2, 4, 8 and every ``REFRESH_EVERY`` after, their lazy values in between."""
    from pokerlab.agents.search.state import REFRESH_EVERY
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    s.set_leaf_model(leaves)
    nxt = 1
    for _ in range(iterations):
        if s.iteration + 1 >= nxt:
            leaves.refresh()
            it = s.iteration + 1
            nxt = min(2 * it, it + REFRESH_EVERY)
        s.step()
    return s


def runouts_solve(spot: Any, agent: Any, view: Any, runouts: int,
                  iterations: int) -> tuple[dict[str, Any], dict[str, Any], float]:
    """The agent's depth-limited solve of ``spot`` (at ``view``) again, its leaves built
    with ``runouts`` runouts per refresh (the same seed for every spot): (its
    :func:`solve_values`, its :func:`fresh_values`, CPU seconds of building the leaves and
    solving)."""
    from pokerlab.agents.leaves import build_leaves
    from pokerlab.subgame.solve_config import SolveConfig
    from pokerlab.subgame.solver import SpotSolver

    c0 = time.process_time()
    probe = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1, depth_limited=True)
    leaves = build_leaves(probe, agent.base, view, chooser=1 - view.player, runouts=runouts, seed=12345,
                          bias=agent.config.depth_limit.bias)
    s = lazy_solve(spot, leaves, iterations)
    cpu = time.process_time() - c0
    return solve_values(s, int(view.player)), fresh_values(s, int(view.player)), cpu


def collect(*, spots: int, iters: int, runouts: int, seed: int, street: int, max_hands: int,
            vs_runouts: tuple[int, ...] = (), say: Any = None) -> tuple[list[Held], int, str]:
    """Play ``search(street=...,depth=1,iters=N,tilt=0[,runouts=R])`` against ``blueprint``
    (100 bb, seats alternating, the deals and seeds of :func:`hand_cards` / :func:`hand_seed`
    from ``seed``) until ``spots`` depth-limited decisions on ``street`` were kept or
    ``max_hands`` hands played: (the kept decisions, hands played, the spec)."""
    from pokerlab.evaluation.matches import hand_cards, hand_seed, play_hunl_hand
    from pokerlab.holdem.actions import HoldemConfig
    from pokerlab.registry import make_agent

    name = {1: "flop", 2: "turn"}[street]
    spec = (f"search(street={name},depth=1,iters={iters},tilt=0,leaves=modicum"
            + (f",runouts={runouts})" if runouts else ")"))
    cfg = HoldemConfig.from_bb(100)
    agent = make_agent(spec, game="hunl", config=cfg, seed=1)
    opp = make_agent("blueprint", game="hunl", config=cfg, seed=2)
    held: list[Held] = []
    hand = [0]
    act = agent.act

    def watched(view: Any) -> Any:
        st = agent.stats
        before = (st.searches_by_street[view.street], st.depth_limited)
        c0 = time.process_time()
        action = act(view)
        cpu = time.process_time() - c0
        prev = agent.prev
        if (view.street == street and len(held) < spots and prev is not None
                and st.searches_by_street[view.street] == before[0] + 1 and st.depth_limited > before[1]
                and prev.street == street and prev.solver.leaf_nodes):
            s = prev.solver
            h = Held(hand=hand[0], spot=s.spot, searcher=int(view.player), leaves=len(s.leaf_nodes),
                     iterations=int(s.iteration), cpu_s=cpu, conts=list(s.leaf_model.conts),
                     chooser=int(s.leaf_model.chooser))
            h.dl = solve_values(s, h.searcher)
            h.dl_fresh = fresh_values(s, h.searcher)
            for r in vs_runouts:
                h.dl_r[r], h.dl_r_fresh[r], h.cpu_r[r] = runouts_solve(s.spot, agent, view, r, iters)
            held.append(h)
            if say is not None:
                say(f"spot {len(held)}/{spots}: hand {hand[0]}, board {''.join(_cards(s.spot.board))}, "
                    f"pot {s.spot.pot}, {h.leaves} leaves, {cpu:.2f} s")
        return action

    agent.act = watched
    k = 0
    while len(held) < spots and k < max_hands:
        hand[0] = k
        play_hunl_hand(agent, opp, cfg, k % 2, hand_cards(seed, k), hand_seed(seed, k, 1),
                       hand_seed(seed, k, 2))
        k += 1
    return held, k, spec


def _cards(board: Any) -> list[str]:
    from pokerlab.cards.cards import card_str

    return [card_str(int(c)) for c in board]


# ------------------------------------------------------------------------------ the table
def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and 95% confidence half-width (normal, sample standard deviation)."""
    a = np.asarray([x for x in xs if math.isfinite(x)], dtype=np.float64)
    if a.size == 0:
        return math.nan, math.nan
    if a.size == 1:
        return float(a[0]), math.nan
    return float(a.mean()), float(1.96 * a.std(ddof=1) / math.sqrt(a.size))


def summarize(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    got = [r[key] for r in rows if key in r]
    root, root_ci = mean_ci([g["searcher_error"] for g in got])
    signed, signed_ci = mean_ci([g["searcher_signed"] for g in got])
    hand, hand_ci = mean_ci([g["hand_error"] for g in got])
    return {"spots": len(got), "root_error": root, "root_error_ci": root_ci, "signed": signed,
            "signed_ci": signed_ci, "hand_error": hand, "hand_error_ci": hand_ci,
            "max_root_error": max((g["searcher_error"] for g in got), default=math.nan)}


def table(out: dict[str, Any]) -> str:
    def f(x: float, ci: float | None = None) -> str:
        if x is None or not math.isfinite(x):
            return "-"
        return f"{x:.2f}" + (f" ± {ci:.2f}" if ci is not None and math.isfinite(ci) else "")

    lines = [f"`{out['command']}`: {out['spots']} held-out {out['street']} spots from {out['hands']} "
             f"hands of `{out['spec']}` against `blueprint` (seed {out['seed']}; {out['refused']} "
             f"refused over --max-memory); reference: the whole tree, {out['exact_iters']} iterations or "
             f"{out['target_pct']}% (reached: mean {f(out['exact_pct'])}%, worst {f(out['exact_pct_max'])}% "
             "of the pot). Errors in % of the pot, mean ± 95% CI over the spots:", "",
             "| leaves | spots | root value error | signed (searcher) | worst root error | per-hand error | "
             "CPU s per spot |", "|---|---:|---:|---:|---:|---:|---:|"]
    n = out["iters"]
    labels = {"modicum": (f"Modicum, the agent's solve ({n} iterations, lazy leaf values)", "cpu_dl"),
              "modicum_fresh": ("the same solve, its leaves evaluated afresh at the end", ""),
              "modicum_exact": (f"Modicum, leaves evaluated before every iteration ({n})",
                                "cpu_modicum_exact"),
              "river": (f"river leaves (the river solved, 12 rivers a refresh; {n} iterations)", "cpu_river"),
              "river_fresh": ("the same solve, every river solved afresh at the end", ""),
              "river_step": (f"river leaves iterated in step with the turn (every river; {n} iterations)",
                             "cpu_river_step"),
              "equity": (f"showdown equity (check down, {n} iterations)", "cpu_equity"),
              "whole_n": (f"the whole tree, {n} iterations (exact values past the street)",
                          "cpu_whole_n")}
    for r in out["vs_runouts"]:
        labels[f"runouts_{r}"] = (f"Modicum, the agent's solve again with runouts={r} per refresh",
                                  f"cpu_runouts_{r}")
        labels[f"runouts_{r}_fresh"] = ("the same solve, its leaves evaluated afresh (every runout) at "
                                        "the end", "")
    for key in kinds(tuple(out["vs_runouts"])):
        label, cpu = labels[key]
        s = out[key]
        if not s["spots"]:
            continue
        lines.append(f"| {label} | {s['spots']} | {f(s['root_error'], s['root_error_ci'])} | "
                     f"{f(s['signed'], s['signed_ci'])} | {f(s['max_root_error'])} | "
                     f"{f(s['hand_error'], s['hand_error_ci'])} | {f(out.get(cpu, math.nan))} |")
    lines.append(f"| whole tree (the reference) | {out['spots']} | 0 | 0 | 0 | 0 | {f(out['cpu_exact'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spots", type=int, default=30, help="held-out spots to compare")
    ap.add_argument("--iters", type=int, default=100, help="the searcher's iterations per decision")
    ap.add_argument("--runouts", type=int, default=0,
                    help="the spec's runouts= (runouts per leaf; 0: all rivers / 8 flop runouts)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--street", choices=sorted(STREETS), default="turn")
    ap.add_argument("--max-memory", type=float, default=2e9,
                    help="bytes: a whole-tree solve estimated over this is refused (counted)")
    ap.add_argument("--exact-iters", type=int, default=1000, help="the whole-tree solve's iteration cap")
    ap.add_argument("--target", type=float, default=0.3, help="the whole-tree solve's target (% of the pot)")
    ap.add_argument("--max-hands", type=int, default=2000, help="stop playing after this many hands")
    ap.add_argument("--vs-runouts", default="",
                    help="comma-separated runout counts: also solve each spot again as the agent "
                         "does with leaves evaluating this many runouts per refresh")
    ap.add_argument("--no-every-iteration", dest="every_iteration", action="store_false",
                    help="skip the solve whose Modicum leaves are evaluated before every iteration")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    a = ap.parse_args(argv)
    for name in ("spots", "iters", "exact_iters", "max_hands"):
        if getattr(a, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be >= 1")
    try:
        vs = tuple(int(x) for x in a.vs_runouts.split(",") if x.strip())
    except ValueError:
        ap.error(f"--vs-runouts must be comma-separated integers, got {a.vs_runouts!r}")
    if a.runouts < 0 or a.seed < 0 or any(r < 1 for r in vs):
        ap.error("--runouts and --seed must be >= 0, --vs-runouts counts >= 1")
    if not (math.isfinite(a.max_memory) and a.max_memory > 0) or \
            not (math.isfinite(a.target) and a.target >= 0):
        ap.error("--max-memory must be > 0 and --target >= 0 (finite)")
    from pokerlab.subgame.spot import SpotError

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    held, hands, spec = collect(spots=a.spots, iters=a.iters, runouts=a.runouts, seed=a.seed,
                                street=STREETS[a.street], max_hands=a.max_hands, vs_runouts=vs,
                                say=say)
    rows: list[dict[str, Any]] = []
    refused = 0
    for i, h in enumerate(held):
        row: dict[str, Any] = {"hand": h.hand, "board": "".join(_cards(h.spot.board)), "pot": int(h.spot.pot),
                               "stack": int(h.spot.stack), "searcher": h.searcher, "leaves": h.leaves,
                               "cpu_dl": h.cpu_s}
        try:
            ex, pct, cpu = exact_solve(h.spot, iterations=a.exact_iters, target_pct=a.target,
                                       max_memory=a.max_memory)
        except SpotError as exc:
            refused += 1
            say(f"spot {i + 1}: refused ({exc})")
            continue
        e = solve_values(ex, h.searcher)
        row.update(exact_iterations=int(ex.iteration), exact_pct=pct, cpu_exact=cpu,
                   exact_mb=float(ex.size.memory_bytes) / 1e6)
        row["modicum"] = compare(h.dl, e, h.searcher)
        row["modicum_fresh"] = compare(h.dl_fresh, e, h.searcher)
        for r in vs:
            row[f"runouts_{r}"] = compare(h.dl_r[r], e, h.searcher)
            row[f"runouts_{r}_fresh"] = compare(h.dl_r_fresh[r], e, h.searcher)
            row[f"cpu_runouts_{r}"] = h.cpu_r[r]
        if a.every_iteration:
            ms, row["cpu_modicum_exact"] = modicum_exact_solve(h.spot, h.conts, h.chooser, a.iters)
            row["modicum_exact"] = compare(ms, e, h.searcher)
            del ms
        if a.street == "turn":
            rs, row["cpu_river"] = river_solve(h.spot, a.iters)
            rv, rf = river_values_of(rs, h.searcher)
            row["river"] = compare(rv, e, h.searcher)
            row["river_fresh"] = compare(rf, e, h.searcher)
            del rs
            st, row["cpu_river_step"] = river_step_solve(h.spot, a.iters)
            row["river_step"] = compare(st, e, h.searcher)
            del st
        eqs, row["cpu_equity"] = equity_solve(h.spot, a.iters)
        row["equity"] = compare(eqs, e, h.searcher)
        wn, row["cpu_whole_n"] = whole_solve(h.spot, a.iters)
        row["whole_n"] = compare(wn, e, h.searcher)
        del ex, eqs, wn
        h.conts = []
        rows.append(row)
        say(f"spot {i + 1}: exact {pct:.2f}% in {row['exact_iterations']} its, {cpu:.1f} s; root error "
            + ", ".join(f"{k} {row[k]['searcher_error']:.2f}%" for k in kinds(vs) if k in row)
            + " of the pot")

    def mean(k: str) -> float:
        return float(np.mean([r[k] for r in rows])) if rows else math.nan

    out: dict[str, Any] = {
        "command": "python benchmarks/leaf_values.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "spec": spec, "street": a.street, "seed": a.seed, "iters": a.iters, "runouts": a.runouts,
        "vs_runouts": list(vs), **{f"cpu_runouts_{r}": mean(f"cpu_runouts_{r}") for r in vs},
        "hands": hands, "kept": len(held), "spots": len(rows), "refused": refused,
        "exact_iters": a.exact_iters, "target_pct": a.target,
        "exact_pct": mean("exact_pct"),
        "exact_pct_max": max((r["exact_pct"] for r in rows), default=math.nan),
        "cpu_dl": mean("cpu_dl"), "cpu_equity": mean("cpu_equity"), "cpu_exact": mean("cpu_exact"),
        "cpu_whole_n": mean("cpu_whole_n"),
        "cpu_river": mean("cpu_river") if a.street == "turn" else math.nan,
        "cpu_river_step": mean("cpu_river_step") if a.street == "turn" else math.nan,
        "cpu_modicum_exact": mean("cpu_modicum_exact") if a.every_iteration else math.nan,
        "rows": rows}
    for k in kinds(vs):
        out[k] = summarize(rows, k)
    if a.json:
        print(json.dumps(_clean(out)))
    else:
        print(table(out))
    return 0


def _clean(x: Any) -> Any:
    """``x`` with NaN / inf as ``None`` (one JSON object, no NaN tokens)."""
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(float(x)) else None
    if isinstance(x, np.integer):
        return int(x)
    return x


if __name__ == "__main__":
    raise SystemExit(main())
