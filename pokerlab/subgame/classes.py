"""A node of a solved spot read the way players read it: both ranges split into hand
classes on the node's board, per class the combos, share, action mix, EV, equity and EQR,
and the range-versus-range comparison (equity distribution curves, nut advantage).

Hand classes partition the combos a board leaves alive (:data:`CLASS_NAMES`, strongest
first; each combo gets the first that applies):

* made hands of category straight or better, by the hand's category (board cards
  included): ``straight flush``, ``quads``, ``full house``, ``flush``, ``straight``;
* hands whose hole cards pair the board: ``set`` (a pocket pair with a third on the board),
  ``trips`` (one hole card with a board pair), ``two pair`` (both hole cards pair two board
  ranks), ``top pair top kicker`` / ``top pair good kicker`` (the kicker is the second to
  fourth highest rank not on the board) / ``top pair weak kicker``, ``second pair``,
  ``third pair`` (the third highest board rank or lower); pocket pairs that pair nothing
  are ``overpair`` (above every board rank), ``second pair`` (below the top rank only),
  ``third pair`` (below two or more, above the lowest) or ``underpair`` (below every board
  rank); a board pair belongs to everyone: 55 on KK7 is an underpair, A7 second pair;
* hands whose hole cards pair nothing, by their draws (none on the river):
  ``combo draw`` (a flush draw with a straight draw), ``flush draw`` (four to a flush
  with a hole card), ``open-ended`` (two or more ranks complete a straight the board alone
  would not: open-ended or double gutshot), ``gutshot`` (one such rank), ``backdoor flush
  draw`` (flop only: three to a flush with a hole card); then ``board pair`` (the board is
  paired) and ``air``.

Draw flags (:func:`draw_masks`) overlap the classes: they mark every combo with the draw,
made hands included (top pair with a flush draw has a flush draw).

Numbers at a node (:func:`class_table`): ``combos`` is the node's range (the reach: the
starting weights times the strategy's action probabilities on the path, card removal
applied), ``share`` its fraction of the player's range, ``actions`` the acting player's
reach-weighted action mix, ``ev`` (chips, counting the player's share of the starting pot,
as ``spot show``) and ``equity`` weighted by reach times the opponent mass each combo can
meet, so that the classes' figures combine (by those weights) to the range's; ``eqr`` is
the equity realisation: the chips the player ends with from this node on, over its equity
share of the pot at the node: ``(ev + chips put in since the spot began) / (equity x pot)``
(at the root, ``ev / (equity x pot)``).

Functions for the solver page: :func:`node_classes` (classes, draws, curves, nut
advantage of a node), :func:`combo_class_rows` (per-hand rows with their class) and
:func:`plot_equity_curves`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.cards.cards import COMBO_MASKS, COMBOS, NUM_COMBOS, cards_mask, combo_str
from pokerlab.cards.evaluator import strengths_on_board
from pokerlab.cards.hand_classes import CATEGORY_OF_STRENGTH, FLUSH, STRAIGHT
from pokerlab.errors import CardError

CLASS_NAMES: tuple[str, ...] = (
    "straight flush", "quads", "full house", "flush", "straight", "set", "trips", "two pair",
    "overpair", "top pair top kicker", "top pair good kicker", "top pair weak kicker", "second pair",
    "third pair", "underpair", "combo draw", "flush draw", "open-ended", "gutshot",
    "backdoor flush draw", "board pair", "air",
)
CLASS_INDEX = {n: i for i, n in enumerate(CLASS_NAMES)}
DRAW_NAMES: tuple[str, ...] = ("combo draw", "flush draw", "open-ended", "gutshot", "backdoor flush draw")
NUT_EQUITY = 0.8
"""A hand with at least this equity counts toward a player's nut share."""

_C1 = COMBOS[:, 0].astype(np.int64)
_C2 = COMBOS[:, 1].astype(np.int64)
_R1, _R2 = _C1 >> 2, _C2 >> 2
_S1, _S2 = _C1 & 3, _C2 & 3


def _straight_table() -> np.ndarray:
    """(8192,) bool: whether a set of ranks (bit r = rank r) holds a straight."""
    masks = np.arange(1 << 13, dtype=np.int64)
    out = np.zeros(1 << 13, dtype=bool)
    for top in range(4, 13):
        pat = sum(1 << (top - k) for k in range(5))
        out |= (masks & pat) == pat
    wheel = (1 << 12) | 0b1111
    out |= (masks & wheel) == wheel
    return out


_STRAIGHT = _straight_table()


def _board(board: Sequence[int]) -> list[int]:
    b = [int(c) for c in board]
    if len(b) not in (3, 4, 5) or len(set(b)) != len(b) or any(not 0 <= c < 52 for c in b):
        raise CardError(f"hand classes need a board of 3, 4 or 5 distinct cards, got {b!r}")
    return b


def _features(board: Sequence[int]) -> dict[str, np.ndarray]:
    b = _board(board)
    alive = (COMBO_MASKS & np.uint64(cards_mask(b))) == 0
    strength = strengths_on_board(b)
    cat = np.where(alive, CATEGORY_OF_STRENGTH[strength], -1).astype(np.int64)
    ranks = np.array([c >> 2 for c in b], dtype=np.int64)
    bcount = np.bincount(ranks, minlength=13)
    present = bcount > 0
    # distinct board ranks above each rank; ranks off the board above each rank
    above = np.array([int(present[r + 1:].sum()) for r in range(13)], dtype=np.int64)
    off_above = np.array([int((~present[r + 1:]).sum()) for r in range(13)], dtype=np.int64)
    # draws (no cards to come on the river)
    fd = np.zeros(NUM_COMBOS, dtype=bool)
    bdfd = np.zeros(NUM_COMBOS, dtype=bool)
    outs = np.zeros(NUM_COMBOS, dtype=np.int64)
    if len(b) < 5:
        bsuit = np.bincount(np.array([c & 3 for c in b]), minlength=4)
        for s in range(4):
            has = (_S1 == s) | (_S2 == s)
            cnt = bsuit[s] + (_S1 == s) + (_S2 == s)
            fd |= has & (cnt == 4)
            if len(b) == 3:
                bdfd |= has & (cnt == 3)
        bmask = 0
        for r in ranks:
            bmask |= 1 << int(r)
        hm = bmask | (1 << _R1) | (1 << _R2)
        for r in range(13):
            if not _STRAIGHT[bmask | (1 << r)]:  # a rank that completes the board alone helps nobody
                outs += _STRAIGHT[hm | (1 << r)].astype(np.int64)
        outs[_STRAIGHT[hm]] = 0
        fd &= cat < FLUSH
        outs[cat >= STRAIGHT] = 0
    return {"alive": alive, "cat": cat, "bcount": bcount, "above": above, "off_above": off_above,
            "fd": fd & alive, "bdfd": bdfd & ~fd & alive & (cat < FLUSH), "outs": outs * alive,
            "min_rank": np.int64(ranks.min()), "paired": np.bool_(bcount.max() >= 2)}


def hand_classes(board: Sequence[int]) -> np.ndarray:
    """(1326,) index into :data:`CLASS_NAMES` of each combo on ``board`` (card ints); -1
    for combos the board blocks."""
    f = _features(board)
    cat, bc, above = f["cat"], f["bcount"], f["above"]
    out = np.full(NUM_COMBOS, -1, dtype=np.int64)
    todo = f["alive"].copy()

    def put(mask: np.ndarray, name: str) -> None:
        nonlocal todo
        m = todo & mask
        out[m] = CLASS_INDEX[name]
        todo = todo & ~m

    for c, name in ((8, "straight flush"), (7, "quads"), (6, "full house"), (FLUSH, "flush"),
                    (STRAIGHT, "straight")):
        put(cat == c, name)
    pocket = _R1 == _R2
    hit1, hit2 = bc[_R1] > 0, bc[_R2] > 0
    put(pocket & hit1, "set")
    put(~pocket & ((hit1 & (bc[_R1] >= 2)) | (hit2 & (bc[_R2] >= 2))), "trips")
    put(~pocket & hit1 & hit2, "two pair")
    one = ~pocket & (hit1 ^ hit2)
    pr = np.where(hit1, _R1, _R2)
    kick = np.where(hit1, _R2, _R1)
    k = above[pr]
    kidx = f["off_above"][kick]
    put(one & (k == 0) & (kidx == 0), "top pair top kicker")
    put(one & (k == 0) & (kidx <= 3), "top pair good kicker")
    put(one & (k == 0), "top pair weak kicker")
    put(one & (k == 1), "second pair")
    put(one, "third pair")
    kp = above[_R1]
    put(pocket & (kp == 0), "overpair")
    put(pocket & (_R1 < f["min_rank"]), "underpair")
    put(pocket & (kp == 1), "second pair")
    put(pocket, "third pair")
    straight_draw = f["outs"] > 0
    put(f["fd"] & straight_draw, "combo draw")
    put(f["fd"], "flush draw")
    put(f["outs"] >= 2, "open-ended")
    put(f["outs"] == 1, "gutshot")
    put(f["bdfd"], "backdoor flush draw")
    if bool(f["paired"]):
        put(todo, "board pair")
    put(todo, "air")
    return out


def draw_masks(board: Sequence[int]) -> dict[str, np.ndarray]:
    """Per draw of :data:`DRAW_NAMES`, the (1326,) combos on ``board`` that hold it,
    made hands included (a combo may hold several; ``combo draw`` is a flush draw with a
    straight draw, ``open-ended`` includes double gutshots)."""
    f = _features(board)
    sd = f["outs"] > 0
    return {"combo draw": f["fd"] & sd, "flush draw": f["fd"], "open-ended": f["outs"] >= 2,
            "gutshot": f["outs"] == 1, "backdoor flush draw": f["bdfd"]}


def class_counts(board: Sequence[int], weights: np.ndarray) -> dict[str, float]:
    """Weighted combos of ``weights`` (1326) per class on ``board`` (classes of no combo
    left out); they sum to the range's weight on the combos the board leaves alive."""
    cls = hand_classes(board)
    w = np.asarray(weights, dtype=np.float64)
    live = cls >= 0
    sums = np.bincount(cls[live], weights=w[live], minlength=len(CLASS_NAMES))
    return {CLASS_NAMES[i]: float(sums[i]) for i in range(len(CLASS_NAMES)) if sums[i] > 0}


# ------------------------------------------------------------------------ at a node


def compatible_mass(opp_reach: np.ndarray) -> np.ndarray:
    """(1326,) per combo, the opponent's reach on the combos that share no card with it."""
    r = np.asarray(opp_reach, dtype=np.float64)
    per_card = np.bincount(_C1, weights=r, minlength=52) + np.bincount(_C2, weights=r, minlength=52)
    return r.sum() - per_card[_C1] - per_card[_C2] + r


def _board_of(report: dict[str, Any]) -> list[int]:
    from pokerlab.cards.cards import parse_cards
    return parse_cards(report["board"])


def _side(report: dict[str, Any], who: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(reach, ev, equity, weight: reach x compatible opponent mass) over the 1326 combos."""
    other = "ip" if who == "oop" else "oop"
    reach = np.asarray(report[who]["reach"], dtype=np.float64)
    wt = reach * compatible_mass(report[other]["reach"])
    ev = np.asarray(report[who]["ev"], dtype=np.float64)
    eq = np.asarray(report[who]["equity"], dtype=np.float64)
    ok = (reach > 0) & np.isfinite(ev) & np.isfinite(eq) & (wt > 0)
    return reach, np.where(ok, ev, 0.0), np.where(ok, eq, 0.0), np.where(ok, wt, 0.0)


def _group_row(report: dict[str, Any], who: str, name: str, mask: np.ndarray, total: float,
               contrib: float) -> dict[str, Any] | None:
    reach, ev, eq, wt = _side(report, who)
    r = reach[mask]
    combos = float(r.sum())
    if combos <= 0:
        return None
    w = wt[mask]
    z = float(w.sum())
    ev_c = float(np.dot(w, ev[mask]) / z) if z > 0 else None
    eq_c = float(np.dot(w, eq[mask]) / z) if z > 0 else None
    eqr = None
    if ev_c is not None and eq_c is not None and eq_c > 0:
        eqr = (ev_c + contrib) / (eq_c * float(report["pot"]))
    actions: dict[str, float] = {}
    if report.get("kind") == "decision" and report.get("player") == who:
        strat = np.nan_to_num(np.asarray(report["strategy"], dtype=np.float64)[:, mask])
        for a, nm in enumerate(report["actions"]):
            actions[nm] = float(np.dot(strat[a], r) / combos)
    return {"player": who, "name": name, "combos": combos, "share": combos / total if total > 0 else 0.0,
            "actions": actions, "ev": ev_c, "equity": eq_c, "eqr": eqr}


def class_table(report: dict[str, Any], *, contrib: tuple[float, float] = (0.0, 0.0),
                board: Sequence[int] | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(classes, draws): rows of both players (oop first) for a node report of
    :meth:`SpotSolver.node_report`; ``contrib`` is each player's chips put in since the spot
    began (for EQR).  Classes of no combo are left out."""
    b = list(board) if board is not None else _board_of(report)
    cls = hand_classes(b)
    draws = draw_masks(b)
    rows: list[dict[str, Any]] = []
    drows: list[dict[str, Any]] = []
    for p, who in enumerate(("oop", "ip")):
        total = float(np.asarray(report[who]["reach"], dtype=np.float64).sum())
        for i, name in enumerate(CLASS_NAMES):
            row = _group_row(report, who, name, cls == i, total, contrib[p])
            if row is not None:
                rows.append(row)
        for name in DRAW_NAMES:
            row = _group_row(report, who, name, draws[name], total, contrib[p])
            if row is not None:
                drows.append(row)
    return rows, drows


def equity_curves(report: dict[str, Any], *, points: int = 101,
                  nut_equity: float = NUT_EQUITY) -> dict[str, Any]:
    """Both players' equity distributions: ``curves[who]`` is the equity at each of
    ``points`` percentiles of the range (0 % = its best hand, 100 % its worst; each combo
    weighted by reach times the opponent mass it meets, whose mean is the range equity);
    ``nut_share[who]`` the weighted share of the range with equity >= ``nut_equity``;
    ``nut_advantage`` oop's nut share less ip's; ``range_equity`` per player."""
    curves: dict[str, list[float] | None] = {}
    nut: dict[str, float | None] = {}
    means: dict[str, float | None] = {}
    xs = np.linspace(0.0, 1.0, points)
    for who in ("oop", "ip"):
        _, _, eq, wt = _side(report, who)
        live = wt > 0
        if not live.any():
            curves[who], nut[who], means[who] = None, None, None
            continue
        e, w = eq[live], wt[live]
        order = np.argsort(-e, kind="stable")
        e, w = e[order], w[order]
        cum = np.cumsum(w) / w.sum()
        mid = cum - 0.5 * w / w.sum()  # each combo at the middle of its slice
        curves[who] = [float(v) for v in np.interp(xs, mid, e)]
        nut[who] = float(w[e >= nut_equity].sum() / w.sum())
        means[who] = float(np.dot(w, e) / w.sum())
    adv = nut["oop"] - nut["ip"] if nut["oop"] is not None and nut["ip"] is not None else None
    return {"percentiles": [float(x * 100) for x in xs], "curves": curves, "nut_equity": nut_equity,
            "nut_share": nut, "nut_advantage": adv, "range_equity": means}


def node_classes(solver: Any, view: Any, report: dict[str, Any] | None = None) -> dict[str, Any]:
    """The node of ``view`` (:meth:`SpotSolver.cursor`) by hand class: ``classes`` and
    ``draws`` (:func:`class_table`), ``comparison`` (:func:`equity_curves`) and the node's
    path, board, pot and kind.  (The solver page calls this with a loaded solve.)"""
    rep = report if report is not None else solver.node_report(view)
    c = solver.tree.contrib[view.node]
    contrib = (float(c[0]), float(c[1]))
    classes, draws = class_table(rep, contrib=contrib, board=view.board)
    return {"path": rep["path"], "board": rep["board"], "street": rep["street"], "pot": rep["pot"],
            "kind": rep["kind"], "player": rep.get("player"), "contrib": list(contrib),
            "classes": classes, "draws": draws, "comparison": equity_curves(rep)}


def combo_class_rows(report: dict[str, Any], who: str, *, board: Sequence[int] | None = None
                     ) -> list[dict[str, Any]]:
    """Per combo of ``who`` in range at the node: combo, class, reach, EV, equity and, for
    the acting player, the strategy (action -> probability); the values of ``spot show``."""
    b = list(board) if board is not None else _board_of(report)
    cls = hand_classes(b)
    side = report[who]
    acting = report.get("kind") == "decision" and report.get("player") == who
    rows = []
    for c in np.flatnonzero(np.asarray(side["reach"]) > 0):
        ev, eq = float(side["ev"][c]), float(side["equity"][c])
        row: dict[str, Any] = {"player": who, "combo": combo_str(int(c)),
                               "class": CLASS_NAMES[int(cls[c])] if cls[c] >= 0 else None,
                               "reach": float(side["reach"][c]),
                               "ev": ev if np.isfinite(ev) else None,
                               "equity": eq if np.isfinite(eq) else None}
        if acting:
            row["strategy"] = {a: float(report["strategy"][i, c]) for i, a in enumerate(report["actions"])}
        rows.append(row)
    return rows


def plot_equity_curves(comparison: dict[str, Any], path: str | Path, *, title: str = "") -> Path:
    """Both players' equity distribution curves (PNG or SVG by suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pokerlab.cards.ranges import check_picture_path, save_figure

    p = check_picture_path(path)
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    xs = comparison["percentiles"]
    for who, colour in (("oop", "#1565c0"), ("ip", "#c62828")):
        ys = comparison["curves"].get(who)
        if ys is None:
            continue
        eq = comparison["range_equity"][who]
        nut = comparison["nut_share"][who]
        cut = comparison["nut_equity"] * 100
        ax.plot(xs, [y * 100 for y in ys], color=colour,
                label=f"{who.upper()}  equity {eq * 100:.1f}%, nuts (>= {cut:.0f}%) {nut * 100:.1f}%")
    ax.axhline(comparison["nut_equity"] * 100, color="grey", lw=0.6, ls="--")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_xlabel("percentile of the range (best hands first)")
    ax.set_ylabel("equity (%)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    if title:
        ax.set_title(title)
    save_figure(fig, p)
    return p
