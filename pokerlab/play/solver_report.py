"""The node report of the solver page (:mod:`pokerlab.play.solver_page`): a solved spot's
node as the JSON the page draws, and the number rounding of the page's answers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from pokerlab.cards.cards import CLASS_OF_COMBO, COMBO_MASKS, cards_mask, combo_str

CLASS_OF = np.asarray(CLASS_OF_COMBO, dtype=np.int64)
"""Each combo's starting-hand class (169 classes in grid order)."""


def num(x: Any, digits: int = 5) -> float | None:
    """A float rounded to ``digits`` significant digits (None for NaN / inf)."""
    if x is None:
        return None
    x = float(x)
    if not math.isfinite(x):
        return None
    if x == 0:
        return 0.0
    return float(f"{x:.{digits}g}")


def nums(a: np.ndarray, decimals: int = 4) -> list[float | None]:
    a = np.asarray(a, dtype=np.float64)
    r = np.round(a, decimals)
    return [None if not math.isfinite(v) else float(v) for v in r.tolist()]


def _board_mask(board: str) -> np.ndarray:
    from pokerlab.cards.cards import parse_cards

    m = np.uint64(cards_mask(parse_cards(board)))
    return (COMBO_MASKS & m) != 0


def node_json(rep: dict[str, Any]) -> dict[str, Any]:
    """The JSON the page draws from a :meth:`SpotSolver.node_report`: per player the 169
    classes (mean reach over the live combos of the class, the reach-weighted action mix of
    the acting player, EV and equity) and the combos in range with their numbers."""
    kind = rep["kind"]
    blocked = _board_mask(rep["board"])
    live = np.bincount(CLASS_OF, weights=(~blocked).astype(np.float64), minlength=169)
    out: dict[str, Any] = {"kind": kind, "path": list(rep["path"]), "board": rep["board"],
                           "street": rep["street"], "pot": num(rep["pot"]),
                           "player": rep.get("player"), "actions": list(rep.get("actions", [])),
                           "frequencies": [num(rep["frequencies"][a], 4) for a in rep.get("actions", [])],
                           "cards": list(rep.get("cards", []))}
    acting = rep.get("player") if kind == "decision" else None
    for who in ("oop", "ip"):
        side = rep[who]
        reach = np.nan_to_num(np.asarray(side["reach"], dtype=np.float64))
        ev = np.asarray(side["ev"], dtype=np.float64)
        eq = np.asarray(side["equity"], dtype=np.float64)
        wsum = np.bincount(CLASS_OF, weights=reach, minlength=169)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_reach = np.where(live > 0, wsum / np.where(live > 0, live, 1), 0.0)
            ok_ev = np.isfinite(ev) & (reach > 0)
            ev_w = np.bincount(CLASS_OF, weights=np.where(ok_ev, ev * reach, 0.0), minlength=169)
            ev_n = np.bincount(CLASS_OF, weights=np.where(ok_ev, reach, 0.0), minlength=169)
            cls_ev = np.where(ev_n > 0, ev_w / np.where(ev_n > 0, ev_n, 1), np.nan)
            ok_eq = np.isfinite(eq) & (reach > 0)
            eq_w = np.bincount(CLASS_OF, weights=np.where(ok_eq, eq * reach, 0.0), minlength=169)
            eq_n = np.bincount(CLASS_OF, weights=np.where(ok_eq, reach, 0.0), minlength=169)
            cls_eq = np.where(eq_n > 0, eq_w / np.where(eq_n > 0, eq_n, 1), np.nan)
        strat = None
        mix: list[Any] | None = None
        if who == acting:
            strat = np.nan_to_num(np.asarray(rep["strategy"], dtype=np.float64))
            k = strat.shape[0]
            m = np.full((169, k), np.nan)
            for a in range(k):
                sa = np.bincount(CLASS_OF, weights=reach * strat[a], minlength=169)
                with np.errstate(invalid="ignore", divide="ignore"):
                    m[:, a] = np.where(wsum > 0, sa / np.where(wsum > 0, wsum, 1), np.nan)
            mix = [None if not np.isfinite(row).all() else nums(row) for row in m]
        combos = []
        for c in np.flatnonzero(reach > 1e-9).tolist():
            row: list[Any] = [combo_str(c), int(CLASS_OF[c]), num(reach[c], 4), num(ev[c]), num(eq[c], 4)]
            if strat is not None:
                row.append(nums(strat[:, c]))
            combos.append(row)
        out[who] = {"range_ev": num(side.get("range_ev")), "range_equity": num(side.get("range_equity")),
                    "reach": nums(mean_reach), "ev": [num(v) for v in cls_ev.tolist()],
                    "equity": nums(cls_eq), "mix": mix, "combos": combos,
                    "combo_count": num(float(reach.sum()), 5)}
    return out


# ------------------------------------------------------------------ the study views


def clean(obj: Any) -> Any:
    """``obj`` with numpy scalars and arrays made plain and NaN / inf made None (the study
    views keep the plain functions' numbers unrounded, so that the page shows exactly them)."""
    if isinstance(obj, dict):
        return {str(k): clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return clean(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        x = float(obj)
        return x if math.isfinite(x) else None
    return obj


def classes_json(solver: Any, view: Any) -> dict[str, Any]:
    """The hand-class view of a node (:func:`pokerlab.subgame.classes.node_classes`): per
    player the board's hand classes (combos, share, action mix, EV, equity, EQR), the draws,
    and both equity distribution curves with the nut advantage."""
    from pokerlab.subgame.classes import node_classes

    out = clean(node_classes(solver, view))
    rep_actions = [r for r in out["classes"] if r["actions"]]
    out["actions"] = list(rep_actions[0]["actions"]) if rep_actions else []
    return out  # type: ignore[no-any-return]


def runouts_json(solver: Any, view: Any) -> dict[str, Any]:
    """The runout view of a chance node (:func:`pokerlab.subgame.runouts.runout_report`):
    per card (suit-isomorphic cards grouped) the weight, both players' EV and equity and the
    next decision's action mix; ``unseen`` is the number of cards that can come and each
    row's ``relative`` its weight times ``unseen`` (1: as likely as an average card; the
    rows' ``relative`` sum to ``unseen``)."""
    from pokerlab.subgame.runouts import runout_report

    out = clean(runout_report(solver, view))
    unseen = sum(len(r["cards"]) for r in out["cards"])
    out["unseen"] = unseen
    for r in out["cards"]:
        r["relative"] = r["weight"] * unseen
    return out  # type: ignore[no-any-return]


def charts_page_json(stack_bb: float) -> dict[str, Any]:
    """The shipped blueprint's preflop charts of ``stack_bb`` for the page
    (:func:`pokerlab.blueprint.charts.preflop_charts`): per line the acting seat, the
    actions with their frequencies and per action the 169 class frequencies (grid order,
    3 decimals); the lines that reach the flop with both ranges (the spot form's notation),
    the pot and the stacks behind in the blueprint's chips."""
    from pokerlab.blueprint.charts import SEATS, preflop_charts

    ch = preflop_charts(stack_bb)
    charts = []
    for n in ch.nodes:
        grids = [[round(v, 3) for v in n.grid(i).values()] for i in range(len(n.actions))]
        freqs = n.frequencies()
        charts.append({"line": n.line, "player": SEATS[n.player], "pot": n.pot,
                       "pot_bb": n.pot / ch.big_blind,
                       "actions": list(n.actions), "frequencies": [num(freqs[a], 4) for a in n.actions],
                       "grid": grids})
    flops = []
    for f in ch.flops:
        r = f.ranges()
        flops.append({"line": f.line, "pot": f.pot, "stack": f.stack, "big_blind": f.big_blind,
                      "pot_bb": f.pot / f.big_blind, "stack_bb": f.stack / f.big_blind,
                      "oop": r["oop"], "ip": r["ip"],
                      "oop_combos": num(float(f.reach[0].sum()), 5),
                      "ip_combos": num(float(f.reach[1].sum()), 5)})
    return {"stack_bb": ch.stack_bb, "big_blind": ch.big_blind, "charts": charts, "flop_lines": flops}
