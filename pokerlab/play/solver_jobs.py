"""The solves of the solver page and what they are made of: node locks as the page sends
them (hands by class, board class or combo; action mixes; the locks merged per node), one
running or finished solve (:class:`Job`) and one flop report (:class:`ReportJob`) with
their status, and the progress estimate toward an exploitability target."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.cards.cards import NUM_COMBOS
from pokerlab.errors import PokerlabError
from pokerlab.play.page_http import one_line
from pokerlab.play.solver_fields import SolverPageError
from pokerlab.play.solver_report import CLASS_OF, clean, num


def hands_mask(text: str, board: Sequence[int]) -> tuple[str, np.ndarray]:
    """(name, 1326 bools) of the hands a lock names: a class of the 13x13 grid (``AKs``,
    ``QQ``), a hand class on ``board`` (``top pair top kicker``, ``flush draw``: the classes
    of :mod:`pokerlab.subgame.classes`) or one combo (``AhKh``)."""
    from pokerlab.cards.cards import CLASS_INDEX, combo_index, parse_cards
    from pokerlab.subgame.classes import CLASS_NAMES as BOARD_CLASSES
    from pokerlab.subgame.classes import hand_classes

    t = " ".join(text.split())
    low = t.lower()
    if low in BOARD_CLASSES:
        return low, hand_classes(list(board)) == BOARD_CLASSES.index(low)
    grid = t[:2].upper() + t[2:].lower()
    if grid in CLASS_INDEX:
        return grid, CLASS_OF == CLASS_INDEX[grid]
    try:
        cards = parse_cards(t.replace(" ", ""))
    except PokerlabError:
        cards = []
    if len(cards) == 2:
        if set(cards) & set(board):
            raise SolverPageError(f"combo {t} holds a card of the board")
        m = np.zeros(NUM_COMBOS, dtype=bool)
        m[combo_index(min(cards), max(cards))] = True
        return combo_str_of(m), m
    raise SolverPageError(f"bad hands {t!r} to lock: give a grid class (AKs), a hand class on the board "
                          "(top pair top kicker) or a combo (AhKh)")


def combo_str_of(mask: np.ndarray) -> str:
    from pokerlab.cards.cards import combo_str

    return combo_str(int(np.flatnonzero(mask)[0]))


def lock_mix(mix: dict[str, Any], actions: Sequence[str], where: str) -> list[float]:
    """The probabilities of a lock's ``mix`` (action -> probability, actions left out are 0)
    in the node's action order: finite, >= 0, summing to 1 (within 0.001; then made exact)."""
    bad = sorted(k for k in mix if k not in actions)
    if bad:
        raise SolverPageError(f"no action {bad[0]!r} at {where}: the actions are {', '.join(actions)}")
    out = []
    for a in actions:
        v = mix.get(a, 0.0)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise SolverPageError(f"the probability of {a!r} must be a number >= 0, got {v!r}")
        out.append(float(v))
    tot = sum(out)
    if abs(tot - 1.0) > 1e-3:
        raise SolverPageError(f"a locked mix must sum to 1 (100%), got {tot:g}")
    return [v / tot for v in out]


def merged_locks(locks: Sequence[dict[str, Any]]) -> list[tuple[list[str], np.ndarray, np.ndarray]]:
    """Per locked node, (path, strategy (actions, 1326), hands): the locks of one node
    merged in order (a later lock of a combo wins), as :meth:`SpotSolver.lock` takes them."""
    by: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]] = {}
    for lk in locks:
        key = tuple(lk["path"])
        k = len(lk["mix"])
        if key not in by:
            by[key] = (np.full((k, NUM_COMBOS), 1.0 / k), np.zeros(NUM_COMBOS, dtype=bool))
        strat, mask = by[key]
        ids = np.asarray(lk["ids"], dtype=np.int64)
        strat[:, ids] = np.asarray(list(lk["mix"].values()), dtype=np.float64)[:, None]
        mask[ids] = True
    return [(list(k), st, m) for k, (st, m) in by.items()]


def after_deal(solver: Any, path: Sequence[str]) -> bool:
    """Whether ``path`` deals a card (a lock there needs the solver without isomorphism)."""
    return bool(solver.cursor(list(path)).street > solver.spot.street)


def progress_toward(history: Sequence[tuple[int, float]], iteration: int, elapsed: float, target: float,
                    max_iterations: int, max_seconds: float = math.inf
                    ) -> tuple[float, float | None, str | None]:
    """(progress, seconds left, how it is expected to end) of a solve toward its target.

    ``progress`` is how far the exploitability has come down from its first measure toward
    the target on a log scale: ``log(first / now) / log(first / target)`` in [0, 1].  The
    seconds left: a line fitted to log(exploitability) against log(iteration) over the later
    half of the measures (CFR's power law) gives the iteration that reaches the target; at
    the iteration rate so far that is the time left, unless the iteration limit or the time
    limit comes first (``"target"``, ``"iterations"`` or ``"time limit"``; None before two
    measures)."""
    pts = [(int(i), float(p)) for i, p in history if i > 0 and p is not None and math.isfinite(p) and p > 0]
    if not pts:
        return 0.0, None, None
    first, now = pts[0][1], pts[-1][1]
    if now <= target:
        prog = 1.0
    elif first <= target or first <= now:
        prog = 0.0
    else:
        prog = min(1.0, max(0.0, math.log(first / now) / math.log(first / target)))
    if iteration <= 0 or elapsed <= 0:
        return prog, None, None
    rate = iteration / elapsed
    ends: list[tuple[float, str]] = [(max(0, max_iterations - iteration) / rate, "iterations")]
    if math.isfinite(max_seconds):
        ends.append((max(0.0, max_seconds - elapsed), "time limit"))
    tail = pts[len(pts) // 2:] if len(pts) >= 4 else pts
    xs = np.log([i for i, _ in tail])
    ys = np.log([p for _, p in tail])
    if now > target and len(set(xs.tolist())) >= 2:
        slope, icpt = np.polyfit(xs, ys, 1)
        if slope < 0:
            it_target = math.exp(min(700.0, (math.log(target) - icpt) / slope))
            ends.append((max(0.0, it_target - iteration) / rate, "target"))
    elif now <= target:
        ends.append((0.0, "target"))
    if len(pts) < 2 and now > target:
        return prog, None, None
    eta, why = min(ends)
    return prog, float(eta), why


@dataclass(eq=False)
class Job:
    """One solve session: the solver, its state and its exploitability history."""

    session: str
    spot: Any
    size: Any
    target_pct: float
    max_iterations: int
    owner: str = ""
    compress: bool = False
    max_seconds: float = math.inf
    solver: Any = None
    state: str = "starting"  # starting, running, done, stopped, error
    reason: str = ""
    message: str = ""
    iteration: int = 0
    history: list[tuple[int, float]] = field(default_factory=list)
    exploitability: tuple[float, float] | None = None
    values: tuple[float, float] | None = None
    equity: float | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    last_access: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    config: Any = None
    """The solver's :class:`~pokerlab.subgame.SolveConfig` (None: the page's default)."""
    source: str = "solve"  # solve, loaded (from a file), locked (a re-solve with node locks)
    parent: str | None = None
    """The session a locked re-solve or a loaded file came from."""
    locks: list[dict[str, Any]] = field(default_factory=list)
    """The node locks set from the page (path, hands, mix, player, combo ids), in order."""
    file_locks: bool = False
    """The solve was loaded from a file with node locks of its own (kept by re-solves)."""

    @property
    def active(self) -> bool:
        return self.state in ("starting", "running")

    def status(self) -> dict[str, Any]:
        hist = self.history
        if len(hist) > 400:  # thin a long history for the chart, keeping the last point
            step = math.ceil(len(hist) / 400)
            hist = hist[::step] + ([hist[-1]] if (len(hist) - 1) % step else [])
        end = self.finished if self.finished is not None else time.monotonic()
        out: dict[str, Any] = {
            "session": self.session, "state": self.state, "reason": self.reason, "message": self.message,
            "iteration": self.iteration, "max_iterations": self.max_iterations,
            "target_pct": self.target_pct, "seconds": round(end - self.started, 3),
            "history": [[i, num(p)] for i, p in hist],
            "nodes": int(self.size.nodes), "betting_nodes": int(self.size.betting_nodes),
            "memory_bytes": int(self.size.memory_bytes), "compress": self.compress,
            "board": self.spot.board_str(), "pot": self.spot.pot, "stack": self.spot.stack,
            "exploitability": None, "exploitability_pct": None,
        }
        if self.exploitability is not None:
            out["exploitability"] = num(self.exploitability[0])
            out["exploitability_pct"] = num(self.exploitability[1])
        done = self.state == "done" and self.reason == "target"
        prog, eta, ends = progress_toward(self.history, self.iteration, end - self.started, self.target_pct,
                                          self.max_iterations, self.max_seconds)
        out["progress"] = 1.0 if done else num(prog, 4)
        out["eta_seconds"] = num(eta, 3) if self.active else None
        out["expected_end"] = ends if self.active else None
        if self.values is not None:
            out["ev_oop"], out["ev_ip"] = num(self.values[0]), num(self.values[1])
        if self.equity is not None:
            out["equity_oop"] = num(self.equity)
        out["source"], out["parent"] = self.source, self.parent
        out["locks"] = [lock_public(lk) for lk in self.locks]
        return out


def lock_public(lock: dict[str, Any]) -> dict[str, Any]:
    """A node lock as the page shows it (without its combo ids)."""
    return {k: v for k, v in lock.items() if k != "ids"}


@dataclass(eq=False)
class ReportJob:
    """One flop report: a spot template (:class:`pokerlab.subgame.aggregate.ReportTemplate`)
    solved on each flop of a set in turn, each flop's row (``aggregate.solve_flop_warm`` and
    ``full_row``) appended as it finishes."""

    report: str
    template: Any
    flops: list[Any]
    flop_set: str
    texture: list[str]
    memory_bytes: int
    """The largest flop's memory estimate (one flop is held at a time)."""
    owner: str = ""
    max_seconds: float = math.inf
    threads: int = 1
    state: str = "running"  # running, done, stopped, error
    reason: str = ""
    message: str = ""
    rows: list[dict[str, Any]] = field(default_factory=list)
    current: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    last_access: float = field(default_factory=time.monotonic)
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    @property
    def active(self) -> bool:
        return self.state in ("starting", "running")

    def status(self, terms: Sequence[str] = ()) -> dict[str, Any]:
        """The report's progress, its rows so far (those whose texture passes ``terms``,
        :func:`pokerlab.subgame.aggregate.filter_rows`) and their weighted averages
        (:func:`pokerlab.subgame.aggregate.summary`)."""
        from pokerlab.subgame.aggregate import filter_rows, summary

        rows = list(self.rows)
        done, total = len(rows), len(self.flops)
        end = self.finished if self.finished is not None else time.monotonic()
        elapsed = end - self.started
        eta = elapsed / done * (total - done) if self.active and done > 0 else None
        shown = filter_rows(rows, list(terms)) if terms else rows
        actions: list[str] = []
        for r in rows:
            actions += [a for a in r["root_actions"] if a not in actions]
        return {"report": self.report, "state": self.state, "reason": self.reason, "message": self.message,
                "done": done, "total": total, "progress": done / total if total else 1.0,
                "seconds": round(elapsed, 3), "eta_seconds": num(eta, 3),
                "current": self.current if self.active else None,
                "stopping": self.active and self.stop.is_set(),
                "flop_set": self.flop_set, "texture": list(self.texture),
                "boards": [f.board for f in self.flops], "template": self.template.to_json(),
                "memory_bytes": self.memory_bytes, "actions": actions, "filter": list(terms),
                "rows": shown, "shown": len(shown), "summary": clean(summary(shown)) if shown else None}


def run_in_thread(job: Job | ReportJob, loop: Any, name: str) -> None:
    """Start ``loop(job)`` in ``job``'s own daemon thread, named ``name``."""
    job.thread = threading.Thread(target=loop, args=(job,), name=name, daemon=True)
    job.thread.start()


def over_limits(job: Job | ReportJob, max_seconds: float, unwatched_seconds: float, what: str) -> str:
    """Why ``job`` (a ``what``: "solve" or "report") must stop now: ``"time limit"`` (it has
    run ``max_seconds``) or ``"unwatched"`` (nobody polled it for ``unwatched_seconds``: its
    page was closed), with its message set; ``""`` when it may go on."""
    now = time.monotonic()
    if now - job.started > max_seconds:
        job.message = f"stopped at the server's time limit of {max_seconds:g} s per {what}"
        return "time limit"
    if now - job.last_access > unwatched_seconds:
        job.message = (f"stopped: nobody looked at this {what} for {unwatched_seconds:g} s "
                       "(its page was closed)")
        return "unwatched"
    return ""


def failure_message(exc: BaseException) -> str:
    """What the page shows for a solve or report that failed with ``exc``: a pokerlab error's
    own line, else the type of the internal error (its traceback goes to the log)."""
    return one_line(exc) if isinstance(exc, PokerlabError) else f"internal error: {type(exc).__name__}"


def end_job(job: Job | ReportJob, state: str, reason: str) -> None:
    """Mark ``job`` ended (``state`` last: a poll that sees the end sees every number)."""
    job.finished = time.monotonic()
    job.last_access = job.finished
    job.reason = reason
    job.state = state
