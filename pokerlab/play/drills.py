"""Drills graded by EV loss: hands of a solved spot dealt at one decision node, each answer
graded against the solution, and the session score kept in DuckDB.

* :class:`Drill` reads a spot saved by ``pokerlab spot solve --out`` (or built by the drill
  library, :mod:`pokerlab.play.drill_library`) at one decision node (a path such as
  ``check,bet 66``, as ``pokerlab spot show --node``).  The acting player's hands are dealt
  by their weights at the node (the reach: starting weights times the strategy along the
  path, card removal applied) with a SplitMix64 stream of the drill's seed.
* The EV of an action for a combo is the solved counterfactual value of the action's child
  node for that combo, normalised per combo (the opponent reach the combo can meet): chips
  the player ends with from the pot less what it puts in from the start of the spot on
  (:meth:`pokerlab.subgame.SpotSolver.node_report`).  The best action is the one of
  highest EV; the EV loss of an answer is best minus chosen, in bb (``big_blind`` of the
  spot) and in % of the pot at the node.  An answer is *in the mix* when the solution plays
  it at least :data:`MIX_THRESHOLD` of the time with that hand.
* :class:`DrillStore` keeps every graded decision in a DuckDB file (default
  ``data_dir()/drills.duckdb``); :meth:`DrillStore.score` computes the mean EV loss per
  decision with its 95% confidence interval (normal approximation: mean +- 1.96 x sample
  standard deviation / sqrt(n)) and the accuracy (share of answers in the mix) by hand
  class (:data:`pokerlab.subgame.classes.CLASS_NAMES`), from the stored rows.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.cards.cards import combo_str
from pokerlab.errors import PokerlabError
from pokerlab.rng import SplitMix64

MIX_THRESHOLD = 0.01
"""An action the solution plays at least this often with a hand is part of its mix."""

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


class DrillError(PokerlabError):
    """Bad drill input: a node that is not a decision, a malformed answer, an unknown spot."""


def drill_dir() -> Path:
    """The drill folder in the user's data folder: the library's spots are built into
    ``library/``; spots saved directly in it (``*.npz``) are offered by the drill page."""
    from pokerlab.io import data_dir

    p = data_dir() / "drills"
    p.mkdir(parents=True, exist_ok=True)
    return p


def default_db_path() -> Path:
    from pokerlab.io import data_dir

    return data_dir() / "drills.duckdb"


def _norm(text: str) -> str:
    return text.strip().lower().replace(" ", "").replace("-", "").replace("_", "")


@dataclass(frozen=True, kw_only=True)
class Hand:
    """One dealt hand: its index in the session, the combo (0..1325) and its hand class."""

    deal: int
    combo: int
    cards: str
    hand_class: str

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "combo": self.combo, "cards": self.cards, "class": self.hand_class}


class Drill:
    """One decision node of a solved spot, ready to deal and grade (module docstring)."""

    def __init__(self, solver: Any, *, name: str, node: str = "") -> None:
        from pokerlab.subgame.classes import CLASS_NAMES, hand_classes
        from pokerlab.subgame.solver_views import NodeView
        from pokerlab.subgame.tree import CHANCE, DECISION, FOLD, SHOWDOWN

        self.name = name
        view = solver.cursor(node)
        tr = solver.tree
        where = " / ".join(view.path) or "the root"
        if int(tr.kind[view.node]) != DECISION:
            kind = {CHANCE: "a chance node: a card is dealt", FOLD: "a fold: the hand is over",
                    SHOWDOWN: "a showdown: the hand is over"}.get(int(tr.kind[view.node]), "a leaf")
            raise DrillError(f"node {where} of {name} is not a decision node (it is {kind}): drill a "
                             "node where a player acts")
        rep = solver.node_report(view)
        self.node = ",".join(view.path)
        self.path = list(view.path)
        self.player: str = rep["player"]
        q = 0 if self.player == "oop" else 1
        self.actions: list[str] = list(rep["actions"])
        self.board: str = rep["board"]
        self.street: str = rep["street"]
        self.pot = float(rep["pot"])  # chips in the pot at the node
        self.big_blind = float(solver.spot.big_blind)
        self.stack = float(solver.spot.stack)
        self.contrib = (float(tr.contrib[view.node, 0]), float(tr.contrib[view.node, 1]))
        self.reach = np.clip(np.asarray(rep[self.player]["reach"], dtype=np.float64), 0.0, None)
        if not self.reach.sum() > 0:
            raise DrillError(f"no hand of {self.player} reaches node {where} of {name}: nothing to deal")
        self.strategy = np.asarray(rep["strategy"], dtype=np.float64)  # (actions, 1326)
        self.node_ev = np.asarray(rep[self.player]["ev"], dtype=np.float64)
        evs = []
        for a, act in enumerate(self.actions):
            # the child with the acting player's reach of the node (every hand it deals)
            child = NodeView(node=int(tr.child(view.node, a)), street=view.street, slot=view.slot,
                             board=view.board, suit_map=view.suit_map, reach=view.reach,
                             path=(*view.path, act))
            evs.append(np.asarray(solver.node_report(child)[self.player]["ev"], dtype=np.float64))
        self.ev = np.vstack(evs)  # (actions, 1326) chips
        cls = hand_classes(view.board)
        self.classes = cls
        self.class_names = CLASS_NAMES
        self.live = np.flatnonzero(self.reach > 0)
        self.cum = np.cumsum(self.reach[self.live])
        self.iterations = int(solver.iteration)
        self.facing = _facing(self.contrib, q)

    # ------------------------------------------------------------------ dealing
    def probabilities(self) -> np.ndarray:
        """(1326,) the probability of dealing each combo (its weight at the node)."""
        return self.reach / self.reach.sum()

    def deal(self, rng: SplitMix64, index: int = 0) -> Hand:
        """One combo drawn by the weights at the node."""
        u = rng.uniform() * float(self.cum[-1])
        i = int(np.searchsorted(self.cum, u, side="right"))
        c = int(self.live[min(i, self.live.shape[0] - 1)])
        return Hand(deal=index, combo=c, cards=combo_str(c), hand_class=self.class_of(c))

    def class_of(self, combo: int) -> str:
        k = int(self.classes[combo])
        return self.class_names[k] if k >= 0 else "blocked"

    # ------------------------------------------------------------------ grading
    def parse_answer(self, text: str) -> int:
        """The action index of an answer: an action's name (``check``, ``bet 66``, ``call``,
        ``raise 300``, ``allin 970``), ``x``/``k``/``c``/``f``/``a`` for check, call, fold
        and all-in, a bet's size alone (``66``), or its number in the list (``1`` is the
        first); one :class:`DrillError` otherwise."""
        if not isinstance(text, str) or not text.strip():
            raise DrillError(f"an answer names one of the actions: {', '.join(self.actions)}")
        raw = text.strip()
        want = _norm(raw)
        names = [_norm(a) for a in self.actions]
        if want in names:
            return names.index(want)
        alias = {"x": "check", "k": "check", "c": "call", "f": "fold"}.get(want)
        if alias is not None and alias in self.actions:
            return self.actions.index(alias)
        if want in ("a", "allin", "shove", "jam"):
            hits = [i for i, a in enumerate(self.actions) if a.startswith("allin")]
            if hits:
                return hits[0]
        if want.isdigit() and 1 <= int(want) <= len(self.actions) and len(want) <= 2:
            sized = [i for i, a in enumerate(self.actions) if a.split(" ")[-1] == want]
            return sized[0] if sized else int(want) - 1
        sized = [i for i, a in enumerate(self.actions) if " " in a and _norm(a.split(" ")[-1]) == want]
        if len(sized) == 1:
            return sized[0]
        raise DrillError(f"unknown answer {raw[:40]!r}: the actions are "
                         + ", ".join(f"{i + 1}) {a}" for i, a in enumerate(self.actions)))

    def grade(self, combo: int, answer: str | int) -> dict[str, Any]:
        """Grade ``answer`` (an action index or text, :meth:`parse_answer`) for ``combo``:
        each action's EV (chips, bb, % of the pot at the node) and the solution's mix, the
        best action, the EV loss and whether the answer is in the mix."""
        ok = isinstance(combo, (int, np.integer)) and 0 <= int(combo) < 1326
        if not ok or self.reach[int(combo)] <= 0:
            raise DrillError(f"combo {combo!r} is not dealt at this node")
        c = int(combo)
        a = answer if isinstance(answer, int) else self.parse_answer(answer)
        if not 0 <= a < len(self.actions):
            raise DrillError(f"action {a} out of range: the actions are {', '.join(self.actions)}")
        ev = self.ev[:, c]
        mix = self.strategy[:, c]
        best = int(np.nanargmax(ev))
        loss = max(0.0, float(ev[best] - ev[a]))
        bb, pot = self.big_blind, self.pot
        rows = [{"action": nm, "ev": float(ev[i]), "ev_bb": float(ev[i] / bb),
                 "ev_pct": float(100.0 * ev[i] / pot), "frequency": float(mix[i]),
                 "loss_bb": float((ev[best] - ev[i]) / bb)}
                for i, nm in enumerate(self.actions)]
        return {"spot": self.name, "node": self.node, "board": self.board, "player": self.player,
                "combo": c, "cards": combo_str(c), "class": self.class_of(c),
                "chosen": self.actions[a], "best": self.actions[best],
                "ev_chosen": float(ev[a]), "ev_best": float(ev[best]),
                "ev_chosen_bb": float(ev[a] / bb), "ev_best_bb": float(ev[best] / bb),
                "ev_chosen_pct": float(100.0 * ev[a] / pot), "ev_best_pct": float(100.0 * ev[best] / pot),
                "ev_loss": loss, "ev_loss_bb": loss / bb, "ev_loss_pct": 100.0 * loss / pot,
                "frequency_chosen": float(mix[a]), "in_mix": bool(mix[a] >= MIX_THRESHOLD),
                "mix": {nm: float(mix[i]) for i, nm in enumerate(self.actions)}, "actions": rows,
                "pot": pot, "big_blind": bb}

    def info(self) -> dict[str, Any]:
        """What the page and the terminal show about the node."""
        return {"spot": self.name, "node": self.node, "path": self.path, "board": self.board,
                "street": self.street, "player": self.player, "actions": self.actions, "pot": self.pot,
                "pot_bb": self.pot / self.big_blind, "big_blind": self.big_blind,
                "stack_bb": (self.stack - max(self.contrib)) / self.big_blind,
                "facing_bb": self.facing / self.big_blind, "combos": float(self.reach.sum()),
                "iterations": self.iterations}


def _facing(contrib: tuple[float, float], q: int) -> float:
    return max(0.0, contrib[1 - q] - contrib[q])


def load_drill(source: str | os.PathLike[str], *, node: str = "", name: str | None = None) -> Drill:
    """A :class:`Drill` of the spot saved in ``source`` at ``node``."""
    from pokerlab.subgame import SpotSolver

    p = Path(source)
    solver = SpotSolver.load(p)
    return Drill(solver, name=name or p.stem, node=node)


# ---------------------------------------------------------------------------- the store
_SCHEMA = """
CREATE TABLE IF NOT EXISTS drill_sessions (
    session_id VARCHAR PRIMARY KEY, started DOUBLE, spot VARCHAR, node VARCHAR, seed BIGINT,
    source VARCHAR);
CREATE TABLE IF NOT EXISTS drill_decisions (
    session_id VARCHAR, seq INTEGER, created DOUBLE, spot VARCHAR, node VARCHAR, board VARCHAR,
    player VARCHAR, combo VARCHAR, hand_class VARCHAR, chosen VARCHAR, best VARCHAR,
    ev_chosen_bb DOUBLE, ev_best_bb DOUBLE, ev_loss_bb DOUBLE, ev_loss_pct DOUBLE,
    frequency_chosen DOUBLE, in_mix BOOLEAN, mix VARCHAR);
"""


class DrillStore:
    """The graded decisions of every drill session in one DuckDB file (opened per call, so
    that a terminal drill and the drill page can share it one after another)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self._lock = threading.Lock()
        if self.path.is_dir():
            raise DrillError(f"--db {str(self.path)!r} is a folder, not a database file")
        if not self.path.parent.is_dir():
            raise DrillError(f"--db {str(self.path)!r}: its folder does not exist")
        self._run(lambda con: None)

    def _run(self, fn: Any) -> Any:
        import duckdb

        with self._lock:
            try:
                con = duckdb.connect(str(self.path))
            except duckdb.Error as exc:
                msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise DrillError(f"cannot open the drill database {str(self.path)!r}: {msg}") from None
            try:
                con.execute(_SCHEMA)
                return fn(con)
            finally:
                con.close()

    def start_session(self, *, spot: str, node: str, seed: int, source: str) -> str:
        sid = uuid.uuid4().hex[:16]
        self._run(lambda con: con.execute("INSERT INTO drill_sessions VALUES (?, ?, ?, ?, ?, ?)",
                                          [sid, time.time(), spot, node, int(seed), source]))
        return sid

    def record(self, session_id: str, seq: int, grade: dict[str, Any]) -> None:
        row = [session_id, int(seq), time.time(), grade["spot"], grade["node"], grade["board"],
               grade["player"], grade["cards"], grade["class"], grade["chosen"], grade["best"],
               grade["ev_chosen_bb"], grade["ev_best_bb"], grade["ev_loss_bb"], grade["ev_loss_pct"],
               grade["frequency_chosen"], grade["in_mix"], json.dumps(grade["mix"])]
        self._run(lambda con: con.execute(
            "INSERT INTO drill_decisions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row))

    def decisions(self, session_id: str | None = None) -> list[dict[str, Any]]:
        where, args = ("WHERE session_id = ?", [session_id]) if session_id else ("", [])

        def q(con: Any) -> list[dict[str, Any]]:
            cur = con.execute(f"SELECT * FROM drill_decisions {where} ORDER BY created, seq", args)
            cols = [d[0] for d in cur.description]
            return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]

        return list(self._run(q))

    def score(self, session_id: str | None = None, *, spot: str | None = None) -> dict[str, Any]:
        """Mean EV loss per decision (bb and % of the pot) with its 95% CI and the accuracy,
        overall and by hand class, over one session (``session_id``) or every stored one
        (optionally of one ``spot``), computed from the stored rows."""
        conds, args = [], []
        if session_id:
            conds.append("session_id = ?")
            args.append(session_id)
        if spot:
            conds.append("spot = ?")
            args.append(spot)
        where = ("WHERE " + " AND ".join(conds)) if conds else ""

        def q(con: Any) -> tuple[Any, list[Any]]:
            tot = con.execute(
                "SELECT count(*), avg(ev_loss_bb), stddev_samp(ev_loss_bb), avg(ev_loss_pct), "
                "stddev_samp(ev_loss_pct), avg(CAST(in_mix AS DOUBLE)), count(DISTINCT session_id) "
                f"FROM drill_decisions {where}", args).fetchone()
            by = con.execute(
                "SELECT hand_class, count(*), avg(CAST(in_mix AS DOUBLE)), avg(ev_loss_bb) "
                f"FROM drill_decisions {where} GROUP BY hand_class ORDER BY count(*) DESC, hand_class",
                args).fetchall()
            return tot, by

        tot, by = self._run(q)
        n = int(tot[0])
        out: dict[str, Any] = {"decisions": n, "sessions": int(tot[6]),
                               "mean_ev_loss_bb": None, "ci95_bb": None, "ci95_low_bb": None,
                               "ci95_high_bb": None, "mean_ev_loss_pct": None, "ci95_pct": None,
                               "accuracy": None, "by_class": {}}
        if n == 0:
            return out
        mean, mean_pct = float(tot[1]), float(tot[3])
        half = Z95 * float(tot[2]) / math.sqrt(n) if n >= 2 and tot[2] is not None else None
        half_pct = Z95 * float(tot[4]) / math.sqrt(n) if n >= 2 and tot[4] is not None else None
        out.update(mean_ev_loss_bb=mean, ci95_bb=half, mean_ev_loss_pct=mean_pct, ci95_pct=half_pct,
                   ci95_low_bb=None if half is None else mean - half,
                   ci95_high_bb=None if half is None else mean + half, accuracy=float(tot[5]))
        out["by_class"] = {str(r[0]): {"decisions": int(r[1]), "accuracy": float(r[2]),
                                       "mean_ev_loss_bb": float(r[3])} for r in by}
        return out


class DrillSession:
    """A run of dealt hands at one drill node: deal, answer (graded and stored), score."""

    def __init__(self, drill: Drill, store: DrillStore, *, seed: int = 0, source: str = "") -> None:
        self.drill = drill
        self.store = store
        self.seed = int(seed)
        self.rng = SplitMix64(self.seed)
        self.id = store.start_session(spot=drill.name, node=drill.node, seed=self.seed, source=source)
        self.count = 0
        self.hand: Hand | None = None
        self.lock = threading.Lock()
        self.last_used = time.monotonic()

    def deal(self) -> Hand:
        self.hand = self.drill.deal(self.rng, self.count)
        return self.hand

    def answer(self, text: str | int, deal: int | None = None) -> dict[str, Any]:
        """Grade the answer for the hand dealt last (``deal``: its index, checked when given),
        store it, and return the grade."""
        if self.hand is None:
            raise DrillError("no hand is dealt: deal one first")
        if deal is not None and deal != self.hand.deal:
            raise DrillError(f"hand {deal} is not the hand dealt now ({self.hand.deal})")
        g = self.drill.grade(self.hand.combo, text)
        self.store.record(self.id, self.hand.deal, g)
        g["deal"] = self.hand.deal
        self.count += 1
        self.hand = None
        return g

    def score(self) -> dict[str, Any]:
        return self.store.score(self.id)

