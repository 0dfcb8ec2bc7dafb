"""Runout report of a solved spot: at a chance node, per turn (or river) card, both players'
EV and equity and the action mix of the next decision.

Each card's row comes from the node the card leads to (:meth:`SpotSolver.node_report`: EV
in chips counting each player's share of the starting pot, equity over the remaining
runouts).  A card's ``weight`` is its probability given both ranges at the chance node:
the reach mass of the (oop hand, ip hand) pairs that share no card with each other, the
board or the card, over the sum for every card.  With these weights the rows average to
the chance node's values exactly (both players' EV and equity), since the solver averages
a hand pair's values over the cards neither hand holds.

Suit-isomorphic cards (two suits the board and both ranges cannot tell apart: the solver
solves one of them) are grouped in one row: ``cards`` lists them, ``weight`` is their sum
and the values are their weight-averaged ones (the same up to rounding); ``card`` names the
group by its first card.  The solver page calls :func:`runout_report` with a loaded solve
and a node (:meth:`SpotSolver.cursor`); :func:`plot_runouts` draws the chart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.cards.cards import parse_card
from pokerlab.subgame.classes import compatible_mass
from pokerlab.subgame.spot import SpotError


def _pair_mass(rep: dict[str, Any]) -> float:
    """The reach mass of non-colliding (oop, ip) hand pairs at a node."""
    r0 = np.asarray(rep["oop"]["reach"], dtype=np.float64)
    return float(np.dot(r0, compatible_mass(rep["ip"]["reach"])))


def runout_report(solver: Any, view: Any, *, group: bool = True) -> dict[str, Any]:
    """At the chance node of ``view``: ``cards`` (rows ``card``, ``cards``, ``weight``,
    ``ev_oop``, ``ev_ip``, ``equity_oop``, ``equity_ip``, ``player`` (who acts next),
    ``actions`` (its action mix there, ``{}`` when nobody acts), highest rank first), and
    the chance node's own ``ev_oop``, ``ev_ip``, ``equity_oop``, ``equity_ip``.
    ``group=False`` gives one row per card."""
    rep = solver.node_report(view)
    where = " / ".join(view.path) or "the root"
    if rep["kind"] != "chance":
        raise SpotError(f"the node at {where} is a {rep['kind']} node, not a chance node: runouts are "
                        "read where a card is dealt (e.g. --node 'check,check')")
    d = solver.deal
    street = view.street
    smap = view.suit_map
    singles: list[dict[str, Any]] = []
    for name in rep["cards"]:
        c = parse_card(name)
        child = solver.cursor([*view.path, name])
        crep = solver.node_report(child)
        rc = (c & ~3) | smap[c & 3]
        key = int(d.iso_rep[street][view.slot, rc])
        acting = crep.get("player") if crep["kind"] == "decision" else None
        singles.append({"card": name, "rank": c >> 2, "key": key, "mass": _pair_mass(crep),
                        "ev_oop": crep["oop"]["range_ev"], "ev_ip": crep["ip"]["range_ev"],
                        "equity_oop": crep["oop"]["range_equity"], "equity_ip": crep["ip"]["range_equity"],
                        "player": acting,
                        "actor_reach": float(np.sum(crep[acting]["reach"])) if acting else 0.0,
                        "actions": dict(crep.get("frequencies") or {}) if acting else {}})
    total = sum(s["mass"] for s in singles)
    if total <= 0:
        raise SpotError(f"no hands of both players reach {where}: no runouts to report")
    groups: dict[Any, list[dict[str, Any]]] = {}
    for s in singles:
        groups.setdefault(s["key"] if group else s["card"], []).append(s)
    rows = []
    for members in groups.values():
        mass = sum(m["mass"] for m in members)
        row: dict[str, Any] = {"card": members[0]["card"], "cards": [m["card"] for m in members],
                               "weight": mass / total}
        for k in ("ev_oop", "ev_ip", "equity_oop", "equity_ip"):
            vals = [(m["mass"], m[k]) for m in members if m[k] is not None and m["mass"] > 0]
            z = sum(w for w, _ in vals)
            row[k] = sum(w * v for w, v in vals) / z if z > 0 else None
        row["player"] = members[0]["player"]
        acts: dict[str, float] = {}
        za = sum(m["actor_reach"] for m in members)
        if row["player"] is not None and za > 0:
            for nm in members[0]["actions"]:
                acts[nm] = sum(m["actor_reach"] * m["actions"].get(nm, 0.0) for m in members) / za
        row["actions"] = acts
        row["rank"] = members[0]["rank"]
        rows.append(row)
    rows.sort(key=lambda r: (-r["rank"], r["card"]))
    for r in rows:
        del r["rank"]
    return {"path": rep["path"], "board": rep["board"], "street": rep["street"], "pot": rep["pot"],
            "next_street": ("flop", "turn", "river")[min(street + 1, 2)],
            "ev_oop": rep["oop"]["range_ev"], "ev_ip": rep["ip"]["range_ev"],
            "equity_oop": rep["oop"]["range_equity"], "equity_ip": rep["ip"]["range_equity"],
            "cards": rows}


def plot_runouts(report: dict[str, Any], path: str | Path, *, title: str = "") -> Path:
    """Per card: both players' EV (bars) and out of position's equity (line), and the next
    decision's action mix (stacked bars) below (PNG or SVG by suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pokerlab.cards.ranges import check_picture_path, save_figure
    from pokerlab.subgame.report import action_colour

    p = check_picture_path(path)
    rows = report["cards"]
    n = len(rows)
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(max(6.4, 0.28 * n + 2), 6.4), sharex=True,
                                 gridspec_kw={"height_ratios": [3, 2]})
    xs = np.arange(n)
    ev0 = [r["ev_oop"] if r["ev_oop"] is not None else np.nan for r in rows]
    ev1 = [r["ev_ip"] if r["ev_ip"] is not None else np.nan for r in rows]
    ax.bar(xs - 0.2, ev0, width=0.4, color="#1565c0", label="EV oop")
    ax.bar(xs + 0.2, ev1, width=0.4, color="#c62828", label="EV ip")
    ax.set_ylabel("EV (chips)")
    ax.grid(alpha=0.3, axis="y")
    ex = ax.twinx()
    eq = [r["equity_oop"] * 100 if r["equity_oop"] is not None else np.nan for r in rows]
    ex.plot(xs, eq, color="black", marker=".", lw=1, label="equity oop")
    ex.axhline(50, color="grey", lw=0.5, ls=":")
    ex.set_ylim(0, 100)
    ex.set_ylabel("oop equity (%)")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ex.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper right")
    names: list[str] = []
    for r in rows:
        for a in r["actions"]:
            if a not in names:
                names.append(a)
    bets = [a for a in names if a.split()[0] in ("bet", "raise")]
    bottom = np.zeros(n)
    for a in names:
        vals = np.array([r["actions"].get(a, 0.0) for r in rows])
        colour = action_colour(a, bets.index(a) if a in bets else 0, len(names))
        bx.bar(xs, vals, bottom=bottom, color=colour, width=0.8, label=a)
        bottom += vals
    players = {r["player"] for r in rows if r["player"]}
    bx.set_ylabel(f"{'/'.join(sorted(players)) or 'nobody'} acts: mix")
    bx.set_ylim(0, 1)
    if names:
        bx.legend(fontsize=7, ncol=min(len(names), 5), loc="upper center", bbox_to_anchor=(0.5, -0.18))
    bx.set_xticks(xs)
    bx.set_xticklabels([r["card"] + (f"x{len(r['cards'])}" if len(r["cards"]) > 1 else "") for r in rows],
                       rotation=90, fontsize=7)
    ax.set_title(title or f"{report['board']} {' / '.join(report['path']) or 'root'}: "
                 f"{report['next_street']} cards")
    save_figure(fig, p)
    return p

