"""Drawing the extensive form of a small game (``pokerlab game tree GAME --png/--svg``).

Oliehoek's Fig. 2.1 for any protocol game: chance nodes (grey circles, the outcome's
probability on the edge), decision nodes (a circle per player colour, labelled with the
player), terminal nodes (squares with player 0's payoff), edges labelled with the action,
and the nodes of one information set joined by a dashed line.  ``depth`` (levels below
the root) and ``limit`` (most nodes drawn) cut larger games such as Leduc: a node whose
children are not drawn is marked with a small triangle.

The layout is computed without matplotlib (:func:`layout_tree`, tested); only
:func:`draw_tree` imports it, so the module sits in the front-end layer with the
commands (drawing belongs above the games).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerlab.errors import ConfigError
from pokerlab.io import atomic_path

KIND_CHANCE = "chance"
KIND_DECISION = "decision"
KIND_TERMINAL = "terminal"
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


@dataclass(kw_only=True)
class DrawNode:
    index: int
    kind: str
    depth: int
    parent: int
    edge_label: str
    player: int = -1
    infoset: str | None = None
    payoff: float | None = None
    cut: bool = False
    """Not expanded (past ``depth`` or ``limit``)."""
    children: list[int] = field(default_factory=list)
    x: float = 0.0


@dataclass(kw_only=True)
class TreeLayout:
    game: str
    nodes: list[DrawNode]
    infosets: dict[tuple[int, str], list[int]]
    """(player, key) -> the drawn decision nodes of that information set (x order)."""

    def label(self, key: str) -> str:
        """The key as drawn: itself when short, else ``I<k>`` (numbered in x order;
        :meth:`summary` lists the long keys)."""
        if len(key) <= 12:
            return key
        longs = [k for (_p, k) in self.infosets if len(k) > 12]
        return f"I{longs.index(key)}"

    def counts(self) -> dict[str, int]:
        out = {k: 0 for k in (KIND_CHANCE, KIND_DECISION, KIND_TERMINAL)}
        for n in self.nodes:
            out[n.kind] += 1
        out["cut"] = sum(1 for n in self.nodes if n.cut)
        return out

    def summary(self) -> dict[str, Any]:
        c = self.counts()
        return {"game": self.game, "nodes": len(self.nodes), "chance_nodes": c[KIND_CHANCE],
                "decision_nodes": c[KIND_DECISION], "terminal_nodes": c[KIND_TERMINAL],
                "cut_nodes": c["cut"],
                "information_sets": len(self.infosets),
                "joined_information_sets": sum(1 for v in self.infosets.values() if len(v) > 1),
                "depth": max((n.depth for n in self.nodes), default=0),
                "infoset_labels": {self.label(k): k for (_p, k) in self.infosets
                                   if len(k) > 12}}


def _fmt(x: float) -> str:
    return f"{x:g}" if abs(x - round(x)) < 1e-9 else f"{x:.3g}"


def layout_tree(game: Any, *, depth: int | None = None, limit: int = 400,
                chance: int | None = None) -> TreeLayout:
    """Walk ``game`` from the root (breadth first) and lay it out: leaves left to right in
    depth-first order, a parent centred over its children.  At most ``limit`` nodes; nodes
    at ``depth`` levels below the root (or past the limit) are drawn as cuts; ``chance``
    keeps only the first that many outcomes of every chance node (the node is then marked
    cut as well: not all of its children are drawn)."""
    from pokerlab.games.protocol import CHANCE

    if limit < 2:
        raise ConfigError(f"--limit must be >= 2, got {limit!r}")
    if depth is not None and depth < 1:
        raise ConfigError(f"--depth must be >= 1, got {depth!r}")
    if chance is not None and chance < 1:
        raise ConfigError(f"--chance must be >= 1, got {chance!r}")
    nodes: list[DrawNode] = []
    states: list[Any] = []

    def add(state: Any, d: int, parent: int, label: str) -> int:
        n = DrawNode(index=len(nodes), kind="", depth=d, parent=parent, edge_label=label)
        if state.is_terminal():
            n.kind = KIND_TERMINAL
            n.payoff = float(state.returns()[0])
        elif state.is_chance_node() or state.current_player() == CHANCE:
            n.kind = KIND_CHANCE
        else:
            n.kind = KIND_DECISION
            n.player = int(state.current_player())
            n.infoset = str(state.information_state_string(n.player))
        nodes.append(n)
        states.append(state)
        return n.index

    add(game.new_initial_state(), 0, -1, "")
    frontier = [0]
    while frontier:
        nxt = []
        for i in frontier:
            n, st = nodes[i], states[i]
            if n.kind == KIND_TERMINAL:
                continue
            if st.is_chance_node():
                kids = [(a, f"{st.action_to_string(a)} ({_fmt(p)})")
                        for a, p in st.chance_outcomes()]
                if chance is not None and len(kids) > chance:
                    kids = kids[:chance]
                    n.cut = True
            else:
                kids = [(a, st.action_to_string(a)) for a in st.legal_actions()]
            if (depth is not None and n.depth >= depth) or len(nodes) + len(kids) > limit:
                n.cut = True
                continue
            for a, label in kids:
                c = add(st.child(a), n.depth + 1, i, label)
                n.children.append(c)
                nxt.append(c)
        frontier = nxt
    # x positions: leaves in depth-first order, parents centred
    counter = [0.0]

    def place(i: int) -> float:
        n = nodes[i]
        if not n.children:
            n.x = counter[0]
            counter[0] += 1.0
        else:
            xs = [place(c) for c in n.children]
            n.x = (xs[0] + xs[-1]) / 2
        return n.x

    place(0)
    info: dict[tuple[int, str], list[int]] = {}
    for n in nodes:
        if n.kind == KIND_DECISION and n.infoset is not None:
            info.setdefault((n.player, n.infoset), []).append(n.index)
    for v in info.values():
        v.sort(key=lambda j: nodes[j].x)
    return TreeLayout(game=str(getattr(game, "name", type(game).__name__)), nodes=nodes,
                      infosets=info)


def draw_tree(layout: TreeLayout, path: str | os.PathLike[str], *,
              title: str | None = None) -> dict[str, Any]:
    """Draw ``layout`` into ``path`` (``.png`` or ``.svg`` by suffix), atomically; returns
    the layout's summary plus ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    nodes = layout.nodes
    width = max(n.x for n in nodes) + 1
    levels = max(n.depth for n in nodes) + 1
    fig_w = min(60.0, max(6.0, 0.45 * width))
    fig_h = min(30.0, max(3.0, 1.3 * levels))
    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    small = 7 if width < 60 else 5

    def y(n: DrawNode) -> float:
        return -float(n.depth)

    for n in nodes:
        for c in n.children:
            ch = nodes[c]
            ax.plot([n.x, ch.x], [y(n), y(ch)], color="#888888", lw=0.7, zorder=1)
            ax.text((n.x + ch.x) / 2, (y(n) + y(ch)) / 2, ch.edge_label, fontsize=small - 1,
                    ha="center", va="center", color="#444444", zorder=3,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none",
                          "alpha": 0.8})
    # an information set: a dashed line under its members, one height per set of a level
    # (sets of one level interleave), with a dotted tick up to each member
    per_level: dict[int, int] = {}
    for (pl, key), members in sorted(layout.infosets.items(),
                                     key=lambda kv: nodes[kv[1][0]].x):
        if len(members) < 2:
            continue
        lvl = nodes[members[0]].depth
        k = per_level.get(lvl, 0)
        per_level[lvl] = k + 1
        off = 0.14 + 0.05 * (k % 6)
        col = PLAYER_COLOURS[pl % len(PLAYER_COLOURS)]
        xs = [nodes[j].x for j in members]
        yl = -float(lvl) - off
        ax.plot([min(xs), max(xs)], [yl, yl], ls="--", lw=0.9, color=col, alpha=0.75,
                zorder=2)
        for xx in xs:
            ax.plot([xx, xx], [-float(lvl), yl], ls=":", lw=0.6, color=col, alpha=0.6,
                    zorder=2)
        ax.text(min(xs) - 0.15, yl, layout.label(key), fontsize=small - 2, ha="right", va="center",
                color=col, zorder=3)
    for n in nodes:
        if n.kind == KIND_CHANCE:
            ax.scatter([n.x], [y(n)], s=60, marker="o", color="#bbbbbb",
                       edgecolors="black", linewidths=0.5, zorder=4)
        elif n.kind == KIND_DECISION:
            col = PLAYER_COLOURS[n.player % len(PLAYER_COLOURS)]
            ax.scatter([n.x], [y(n)], s=110, marker="o", color=col, edgecolors="black",
                       linewidths=0.5, zorder=4)
            ax.text(n.x, y(n), str(n.player), fontsize=small, ha="center", va="center",
                    color="white", zorder=5)
        elif n.kind == KIND_TERMINAL:
            ax.scatter([n.x], [y(n)], s=45, marker="s", color="white", edgecolors="black",
                       linewidths=0.6, zorder=4)
            ax.text(n.x + 0.12, y(n), _fmt(float(n.payoff or 0.0)), fontsize=small,
                    ha="left", va="center", zorder=5)
        if n.cut:
            ax.scatter([n.x], [y(n) - 0.3], s=25, marker="v", color="#555555", zorder=4)
    handles = [Line2D([], [], marker="o", ls="", color="#bbbbbb", mec="black",
                      label="chance"),
               *[Line2D([], [], marker="o", ls="", color=PLAYER_COLOURS[p], mec="black",
                        label=f"player {p}") for p in sorted({n.player for n in nodes
                                                              if n.player >= 0})],
               Line2D([], [], marker="s", ls="", color="white", mec="black",
                      label="terminal (player 0's payoff)"),
               Line2D([], [], ls="--", color="grey", label="information set")]
    if any(n.cut for n in nodes):
        handles.append(Line2D([], [], marker="v", ls="", color="#555555",
                              label="cut (not drawn further)"))
    ax.legend(handles=handles, loc="lower left", fontsize=7, frameon=False,
              bbox_to_anchor=(0.0, -0.02), ncol=len(handles))
    s = layout.summary()
    ax.set_title(title or f"{layout.game}: extensive form ({s['nodes']} nodes, "
                 f"{s['information_sets']} information sets drawn)", fontsize=10)
    ax.set_xlim(-0.8, width - 0.2)
    ax.set_ylim(-levels - 0.2, 0.5)
    ax.axis("off")
    fig.tight_layout()
    p = Path(path)
    with atomic_path(p) as tmp:
        fig.savefig(tmp, format=p.suffix.lstrip(".").lower() or "png", dpi=110)
    plt.close(fig)
    return {**s, "path": str(p)}
