"""Preflop charts of the shipped blueprints: 13x13 grids per line, and the flop ranges.

:func:`preflop_charts` walks the preflop betting tree of a blueprint (the indexed policy
read as the policy agent reads it: ``policy.row_start(node, bucket)`` at each hand's
preflop bucket) from the small blind's first decision down to ``depth`` actions (open,
3-bet, 4-bet, 5-bet / all-in).  Every decision node is one chart: the acting seat's
per-hand frequency of each action (fold, call / limp / check, raise to N bb, all-in), as
1,326 combo frequencies and the 13x13 class grid (each class the mean over its combos,
weighted by the combos' reach), with the action's overall frequency in the seat's range
at that node.  Every line that ends in a call moving to the flop gives each seat's range
there: the product, per combo, of that seat's frequencies along the line; the ranges are
printed in the notation ``pokerlab spot solve --oop/--ip`` reads (the big blind, player
0, is out of position postflop; the small blind, player 1, the button, in position), with
the pot and the stacks behind in the blueprint's chips (``--big-blind``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.cards.cards import CLASS_NAMES, CLASS_OF_COMBO, COMBOS, NUM_COMBOS
from pokerlab.errors import ConfigError

SEATS = ("BB", "SB")  # player 0 is the big blind (out of position postflop), player 1 the button
FOLD, CALL = 0, 1


@dataclass
class ChartNode:
    """One preflop decision: the line to it, the actor, each action's per-combo frequency."""

    node: int
    path: list[int]
    line: str
    player: int
    actions: list[str]
    strategy: np.ndarray  # (actions, 1326) frequencies of the acting seat's hands
    reach: np.ndarray  # (2, 1326) each seat's reach (product of its own frequencies)
    pot: int

    def frequencies(self) -> dict[str, float]:
        """Each action's frequency over the actor's range at the node (reach-weighted)."""
        r = self.reach[self.player]
        tot = float(r.sum())
        if tot <= 0:
            return {a: 0.0 for a in self.actions}
        return {a: float(np.dot(self.strategy[i], r) / tot) for i, a in enumerate(self.actions)}

    def grid(self, action: int) -> dict[str, float]:
        """Class name -> the action's frequency (mean over the class's combos, weighted by
        their reach; plain mean where none reaches)."""
        r = self.reach[self.player]
        s = self.strategy[action]
        num = np.bincount(CLASS_OF_COMBO, weights=s * r, minlength=169)
        den = np.bincount(CLASS_OF_COMBO, weights=r, minlength=169)
        plain = np.bincount(CLASS_OF_COMBO, weights=s, minlength=169) / np.bincount(CLASS_OF_COMBO,
                                                                                    minlength=169)
        g = np.where(den > 0, num / np.where(den > 0, den, 1.0), plain)
        return {CLASS_NAMES[k]: float(g[k]) for k in range(169)}


@dataclass
class FlopLine:
    """A preflop line that reaches the flop, and each seat's range there."""

    path: list[int]
    line: str
    reach: np.ndarray  # (2, 1326)
    pot: int
    stack: int
    big_blind: int

    def ranges(self) -> dict[str, str]:
        from pokerlab.cards.ranges import range_to_string

        return {"oop": range_to_string(self.reach[0]), "ip": range_to_string(self.reach[1])}


@dataclass
class Charts:
    stack_bb: float
    big_blind: int
    nodes: list[ChartNode] = field(default_factory=list)
    flops: list[FlopLine] = field(default_factory=list)


def _agent(stack_bb: float) -> Any:
    from pokerlab.agents.policy_agent import load_policy_agent
    from pokerlab.agents.shipped import shipped_blueprints

    ships = shipped_blueprints()
    if float(stack_bb) not in ships:
        have = ", ".join(f"{x:g}" for x in sorted(ships)) or "none"
        raise ConfigError(f"--stack {stack_bb:g}: no blueprint of that stack ships (shipped: {have} bb)")
    return load_policy_agent(str(ships[float(stack_bb)]), name=f"blueprint-{stack_bb:g}")


def combo_strategy(agent: Any, node: int) -> np.ndarray:
    """(actions, 1326): the blueprint's preflop policy at ``node`` for every combo (the
    row of the combo's preflop bucket, as the policy agent reads it; uniform where the
    policy has no row)."""
    tree, pol = agent.tree, agent.policy
    k = int(tree.num_children[node])
    out = np.empty((k, NUM_COMBOS))
    cache: dict[int, np.ndarray] = {}
    for i in range(NUM_COMBOS):
        hole = (int(COMBOS[i, 0]), int(COMBOS[i, 1]))
        b = int(agent.bucket(0, hole, ()))
        if b not in cache:
            s = pol.row_start(node, b)
            w = np.ones(k) if s < 0 else np.asarray(pol.probs[s:s + k], dtype=np.float64)
            tot = w.sum()
            cache[b] = w / tot if tot > 0 else np.full(k, 1.0 / k)
        out[:, i] = cache[b]
    return out


def action_name(tree: Any, node: int, aid: int, big_blind: int) -> str:
    e = tree.edge(node, aid)
    if aid == FOLD:
        return "fold"
    if aid == CALL:
        if int(tree.to_call[node]) == 0:
            return "check"
        first = node == 0
        return "limp" if first else "call"
    amount = int(tree.child_amount[e])
    stack = int(min(tree.config.stacks))
    if amount >= stack:
        return "all-in"
    return f"raise {amount / big_blind:g}bb"


def preflop_charts(stack_bb: float = 100.0, *, depth: int = 4) -> Charts:
    """The preflop charts of the shipped blueprint of ``stack_bb`` (module docstring)."""
    if depth < 1:
        raise ConfigError(f"--depth must be >= 1, got {depth}")
    agent = _agent(stack_bb)
    tree = agent.tree
    bb = int(agent.game.config.big_blind)
    stack = int(min(agent.game.config.stacks))
    out = Charts(stack_bb=float(stack_bb), big_blind=bb)
    ones = np.ones((2, NUM_COMBOS))

    def walk(node: int, path: list[int], names: list[str], reach: np.ndarray) -> None:
        if int(tree.kind[node]) != 0 or int(tree.street[node]) != 0 or len(path) >= depth + 1:
            return
        p = int(tree.actor[node])
        acts = tree.actions(node)
        strat = combo_strategy(agent, node)
        labels = [action_name(tree, node, a, bb) for a in acts]
        line = ", ".join(names) or "SB first"
        out.nodes.append(ChartNode(node=node, path=list(path), line=line, player=p, actions=labels,
                                   strategy=strat, reach=reach.copy(), pot=int(tree.pot[node])))
        if len(path) >= depth:
            return
        for i, a in enumerate(acts):
            if a == FOLD:
                continue
            child = tree.child(node, a)
            r = reach.copy()
            r[p] = r[p] * strat[i]
            step = names + [f"{SEATS[p]} {labels[i]}"]
            if int(tree.kind[child]) == 0 and int(tree.street[child]) == 1:
                pot = int(tree.pot[child])
                out.flops.append(FlopLine(path=[*path, a], line=", ".join(step), reach=r, pot=pot,
                                          stack=stack - pot // 2, big_blind=bb))
                continue
            walk(child, [*path, a], step, r)

    walk(0, [], [], ones)
    return out


def charts_json(ch: Charts, *, grids: bool = True) -> dict[str, Any]:
    nodes = []
    for n in ch.nodes:
        obj: dict[str, Any] = {"line": n.line, "path": n.path, "node": n.node, "player": SEATS[n.player],
                               "pot": n.pot, "pot_bb": n.pot / ch.big_blind, "actions": n.actions,
                               "frequencies": n.frequencies()}
        if grids:
            obj["grid"] = {a: n.grid(i) for i, a in enumerate(n.actions)}
        nodes.append(obj)
    flops = []
    for f in ch.flops:
        r = f.ranges()
        flops.append({"line": f.line, "path": f.path, "pot": f.pot, "stack": f.stack,
                      "big_blind": f.big_blind, "pot_bb": f.pot / f.big_blind,
                      "oop": r["oop"], "ip": r["ip"],
                      "oop_combos": float(f.reach[0].sum()), "ip_combos": float(f.reach[1].sum()),
                      "spot_args": f"--pot {f.pot} --stack {f.stack} --big-blind {f.big_blind} "
                                   f"--oop '{r['oop']}' --ip '{r['ip']}'"})
    return {"stack_bb": ch.stack_bb, "big_blind": ch.big_blind, "charts": nodes, "flop_lines": flops}


def plot_charts(ch: Charts, path: str | Path, *, line: str | None = None) -> Path:
    """The chart of ``line`` (default: the small blind's first decision) as 13x13 grids,
    one panel per action."""
    from pokerlab.cards.ranges import plot_range_grids

    panels: list[tuple[np.ndarray, str, str]] = []
    for n in ch.nodes:
        if n.line != (line or "SB first"):
            continue
        for i, a in enumerate(n.actions):
            g = n.grid(i)
            w = np.array([g[CLASS_NAMES[k]] for k in CLASS_OF_COMBO])
            panels.append((w, f"{n.line}: {SEATS[n.player]} {a}", "Blues"))
    if not panels:
        raise ConfigError(f"no chart of the line {line!r}")
    return plot_range_grids(panels, path, suptitle=f"blueprint {ch.stack_bb:g} bb preflop")
