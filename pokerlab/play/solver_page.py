"""The spot solver page of the play server: ``/solver`` and the JSON API under ``/api/solver``.

A person enters a postflop spot (board, pot, stack, two ranges, bet and raise sizes per
street), the server solves it with :class:`pokerlab.subgame.SpotSolver` in a background
thread (one solve at a time per solve session and per visitor, a cap on the solves
running at once, a memory limit per spot and in all, limits on iterations, target and
time) and the page polls the progress and the exploitability, then walks the tree node
by node.  A solve nobody polls for ``unwatched_seconds`` (its page was closed) is stopped.
The tree is counted, never built, to estimate a spot
(:func:`pokerlab.subgame.tree.count_betting_tree`), off the event loop.  A visitor is a
client address, as for the play socket; each has a token bucket over the API.

Routes (every error is ``{"error": "one line"}``: 400 bad input, 404 unknown session,
409 a solve already running in this session or for this visitor, 429 too many requests,
503 the server is at its limits):

* ``GET /solver``: the page (``static/solver.html``, ``solver.js``, ``solver.css``);
* ``GET /api/solver/config``: limits, defaults and the 169 class names in grid order;
* ``POST /api/solver/range`` ``{"range": TEXT}``: the class weights (169) and the compact text;
* ``POST /api/solver/tree`` (the spot fields): node count and memory estimate, no solving;
* ``POST /api/solver/solve`` (the spot fields, ``compress`` for 16-bit storage,
  ``target_pct``, ``iterations``, optional ``session`` and ``replace``: stop that
  session's running solve first): starts a solve, returns its status with the ``session``
  token;
* ``GET /api/solver/{session}/status``: state, iteration, exploitability history, the
  progress toward the target and the expected seconds left;
* ``POST /api/solver/{session}/stop``;
* ``POST /api/solver/{session}/node`` ``{"path": [...]}``: the node's actions and
  frequencies, the 13x13 grid (action mix, reach, EV, equity per class) and every combo.
* ``POST /api/solver/{session}/classes`` / ``runouts`` ``{"path": [...]}``: the hand-class
  view of a node and the runout view of a chance node (the plain functions' numbers);
* ``GET /api/solver/charts?stack=100``: the shipped blueprint's preflop charts and flop ranges;
* ``GET /api/solver/{session}/save``: the finished solve as ``spot solve --out`` writes it;
  ``POST /api/solver/load`` (the file as the body): a saved solve as a new finished session;
* ``POST /api/solver/{session}/lock`` ``{"path", "hands", "mix"}``: lock a class's or a
  combo's mix at a decision and re-solve with every lock as a new session.
* ``POST /api/solver/report`` (the spot fields without the board, ``flops``: 25, 49 or a
  list of boards, optional ``texture``, ``target_pct``, ``iterations``): a flop report
  (``pokerlab spot report`` of the form's template, :mod:`pokerlab.subgame.aggregate`) as
  the visitor's one running solve; ``GET /api/solver/report/{report}/status?texture=...``:
  flops done, the ETA, the rows (filtered by texture) and their weighted averages;
  ``POST /api/solver/report/{report}/stop`` (after the flop being solved).

The logic (:class:`SolverHub`) imports without FastAPI; :func:`add_solver_routes` adds the
routes to the play application.  The limits and request checks are in
:mod:`pokerlab.play.solver_fields`, the node report in :mod:`pokerlab.play.solver_report`
(their public names are re-exported here).
"""

from __future__ import annotations

import logging
import math
import re
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.cards.cards import CLASS_NAMES, NUM_COMBOS
from pokerlab.errors import PokerlabError
from pokerlab.play.solver_fields import (
    LOCK_FIELDS,
    REPORT_FIELDS,
    SOLVE_FIELDS,
    SPOT_FIELDS,
    SolverPageConfig,
    SolverPageError,
    check_fields,
    one_line,
    parse_body,
    spot_from_fields,
    template_from_fields,
)
from pokerlab.play.solver_report import (
    CLASS_OF,
    charts_page_json,
    classes_json,
    clean,
    node_json,
    num,
    nums,
    runouts_json,
)
from pokerlab.subgame.flops import SET_SIZES

try:  # FastAPI resolves the route annotations from this module's globals
    from fastapi import Request
except ModuleNotFoundError:  # pragma: no cover - the web extra is missing
    Request = Any  # type: ignore[misc,assignment]

log = logging.getLogger(__name__)

_SESSION = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_CLASS_SIZE = np.bincount(CLASS_OF, minlength=169).astype(np.float64)


# ------------------------------------------------------------------------------ locks


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


def _after_deal(solver: Any, path: Sequence[str]) -> bool:
    """Whether ``path`` deals a card (a lock there needs the solver without isomorphism)."""
    return bool(solver.cursor(list(path)).street > solver.spot.street)


# ------------------------------------------------------------------------------ jobs


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
    solved on each flop of a set in turn, each flop's row (``aggregate.solve_flop`` and
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


class SolverHub:
    """The solves of one play server (thread-safe)."""

    def __init__(self, cfg: SolverPageConfig | None = None) -> None:
        self.cfg = cfg or SolverPageConfig()
        self.jobs: dict[str, Job] = {}
        self.reports: dict[str, ReportJob] = {}
        self.mu = threading.Lock()
        self.closed = False
        self.buckets: dict[str, Any] = {}
        self.charts_mu = threading.Lock()
        self.chart_cache: dict[float, dict[str, Any]] = {}

    def allow(self, client: str) -> bool:
        """Take a token from ``client``'s bucket (False: over the rate limit)."""
        from pokerlab.play.service import Bucket

        c = self.cfg
        with self.mu:
            b = self.buckets.get(client)
            if b is None:
                if len(self.buckets) >= 4096:  # forget the visitors whose buckets are full again
                    now = time.monotonic()
                    for k, old in list(self.buckets.items()):
                        if old.tokens + (now - old.t) * old.rate >= old.burst:
                            del self.buckets[k]
                    if len(self.buckets) >= 4096:
                        self.buckets.clear()
                b = self.buckets[client] = Bucket(c.rate_per_second, c.rate_burst)
            return bool(b.take())

    # ----------------------------------------------------------------- requests
    def config(self) -> dict[str, Any]:
        c = self.cfg
        return {"max_memory": c.max_memory, "max_iterations": c.max_iterations, "max_running": c.max_running,
                "max_running_per_client": c.max_running_per_client, "min_target_pct": c.min_target_pct,
                "unwatched_seconds": c.unwatched_seconds, "max_tree_nodes": c.max_tree_nodes,
                "max_seconds": c.max_seconds, "target_pct": c.default_target_pct,
                "iterations": c.default_iterations, "classes": list(CLASS_NAMES),
                "max_report_flops": c.max_report_flops, "max_report_seconds": c.max_report_seconds,
                "report_sets": [n for n in SET_SIZES if n <= c.max_report_flops]}

    def range_grid(self, obj: dict[str, Any]) -> dict[str, Any]:
        from pokerlab.cards.ranges import parse_range, range_to_string

        f = check_fields(obj, {"range": ((str,), True, 0)}, max_chars=self.cfg.max_range_chars)
        w = parse_range(f["range"])
        grid = np.bincount(CLASS_OF, weights=w, minlength=169) / _CLASS_SIZE
        return {"weights": nums(grid), "text": range_to_string(w),
                "combos": num(float(w.sum())), "percent": num(100.0 * float(w.sum()) / NUM_COMBOS, 3)}

    def estimate(self, spot: Any, compress: bool) -> Any:
        """The spot's size, its tree counted (never built) in milliseconds: one 400 past the
        node cap, the depth limit or :attr:`SolverPageConfig.max_estimate_memory`."""
        from pokerlab.subgame import estimate_size
        from pokerlab.subgame.tree import TreeLimitError

        c = self.cfg
        bound = max(c.max_estimate_memory, c.max_memory)
        try:
            return estimate_size(spot, compress=compress, max_nodes=c.max_tree_nodes, max_memory=bound)
        except TreeLimitError as exc:
            if exc.limit != "weight":
                raise
            raise SolverPageError(
                f"the spot needs more than {bound / 1e6:,.1f} MB, over the server's limit of "
                f"{c.max_memory / 1e6:,.1f} MB: use fewer bet sizes, a raise cap"
                f"{'' if compress else ', 16-bit storage'} or narrower ranges") from None

    def parse_spot(self, obj: dict[str, Any], schema: dict[str, Any] | None = None
                   ) -> tuple[Any, Any, dict[str, Any]]:
        """(spot, size estimate, validated fields); refuses a spot over the memory limit."""
        f = check_fields(obj, schema or SPOT_FIELDS, max_chars=self.cfg.max_range_chars)
        spot = spot_from_fields(f)
        size = self.estimate(spot, bool(f.get("compress", False)))
        if size.memory_bytes > self.cfg.max_memory:
            hint = "" if f.get("compress") else ", 16-bit storage"
            raise SolverPageError(
                f"the spot needs about {size.memory_bytes / 1e6:,.1f} MB ({size.nodes:,} nodes), over the "
                f"server's limit of {self.cfg.max_memory / 1e6:,.1f} MB: use fewer bet sizes, a raise cap"
                f"{hint} or narrower ranges")
        return spot, size, f

    def tree(self, obj: dict[str, Any]) -> dict[str, Any]:
        f = check_fields(obj, SPOT_FIELDS, max_chars=self.cfg.max_range_chars)
        spot = spot_from_fields(f)
        compress = bool(f.get("compress", False))
        size = self.estimate(spot, compress)
        return {**size.to_json(), "max_memory": self.cfg.max_memory, "compress": compress,
                "over_limit": size.memory_bytes > self.cfg.max_memory,
                "board": spot.board_str(), "pot": spot.pot, "stack": spot.stack}

    def start(self, obj: dict[str, Any], client: str = "") -> dict[str, Any]:
        """Validate, reserve a slot, build the solver (in the caller's thread: call it off the
        event loop) and start the solving thread.  ``client``: the visitor (client address),
        who may run :attr:`SolverPageConfig.max_running_per_client` solves at once."""
        c = self.cfg
        if self.closed:
            raise SolverPageError("the server is shutting down", 503)
        spot, size, f = self.parse_spot(obj, SOLVE_FIELDS)
        target = float(f.get("target_pct", c.default_target_pct))
        if not c.min_target_pct <= target <= 100:
            raise SolverPageError(f"target_pct must be at least {c.min_target_pct:g} and at most 100 "
                                  f"(% of the pot), got {target:g}")
        iters = int(f.get("iterations", c.default_iterations))
        if not 1 <= iters <= c.max_iterations:
            raise SolverPageError(f"iterations must be between 1 and {c.max_iterations:,}, got {iters}")
        sid = f.get("session")
        if sid is not None and not _SESSION.match(sid):
            raise SolverPageError("bad session token")
        if sid is not None and f.get("replace"):  # stop this session's solve first (off the lock)
            with self.mu:
                old = self.jobs.get(sid)
            if old is not None and old.active:
                old.stop.set()
                if old.thread is not None:
                    old.thread.join(timeout=30.0)
        with self.mu:
            self._expire()
            if sid is not None and sid in self.jobs:
                if self.jobs[sid].active:
                    raise SolverPageError("a solve is already running in this session: stop it first", 409)
                del self.jobs[sid]
            if sid is None:
                sid = secrets.token_urlsafe(24)
            compress = bool(f.get("compress", False))
            job = Job(session=sid, spot=spot, size=size, target_pct=target, max_iterations=iters,
                      owner=client, compress=compress, max_seconds=c.max_seconds)
            self._admit(job, running=True)
        from pokerlab.subgame import SolveConfig

        return self._launch(job, SolveConfig(compress=compress))

    def _admit(self, job: Job, *, running: bool) -> None:
        """Add ``job`` (hold :attr:`mu`): at most :attr:`SolverPageConfig.max_running_per_client`
        running solves per visitor, the visitor's oldest finished session dropped past
        ``max_sessions_per_client``, the server's caps on running solves and memory."""
        c = self.cfg
        mine = [j for j in self.jobs.values() if j.owner == job.owner]
        if running:
            self._check_running(job.owner)
        done = sorted((j for j in mine if not j.active), key=lambda j: j.last_access)
        while done and len(mine) >= c.max_sessions_per_client:  # this visitor's oldest first
            old = done.pop(0)
            mine.remove(old)
            self.jobs.pop(old.session, None)
        self._make_room(int(job.size.memory_bytes))
        self.jobs[job.session] = job

    def _check_running(self, owner: str) -> None:
        """(hold :attr:`mu`) One more running solve or flop report for ``owner``: at most
        ``max_running_per_client`` per visitor and ``max_running`` in all (a running flop
        report counts as a running solve)."""
        c = self.cfg
        running = [j for j in self.jobs.values() if j.active] + [r for r in self.reports.values() if r.active]
        if sum(1 for j in running if j.owner == owner) >= c.max_running_per_client:
            kinds = sorted({"a flop report" if isinstance(j, ReportJob) else "a solve"
                            for j in running if j.owner == owner})
            raise SolverPageError(
                f"you already have {c.max_running_per_client} solve(s) running, at most "
                f"{c.max_running_per_client} per visitor ({' and '.join(kinds)} running; a flop report "
                "counts as a solve): stop it or wait for it to end", 409)
        if len(running) >= c.max_running:
            raise SolverPageError(f"the server is busy: {len(running)} solve(s) running, at most "
                                  f"{c.max_running}; try again when one ends", 503)

    def _launch(self, job: Job, config: Any, locks: Sequence[dict[str, Any]] = (),
                base: Any = None) -> dict[str, Any]:
        """Build ``job``'s solver (in the caller's thread: off the event loop), set its node
        locks (``base``: a solver whose lock arrays to start from) and start solving."""
        c = self.cfg
        try:
            from pokerlab.subgame import SpotSolver

            solver = SpotSolver(job.spot, config, max_memory=c.max_memory, threads=c.threads)
            if base is not None:
                solver.lock_ptr[:] = base.lock_ptr
                solver.lock_data = base.lock_data.copy()
            for path, strategy, mask in merged_locks(locks):
                solver.lock(path, strategy, mask)
        except BaseException as exc:
            with self.mu:
                self.jobs.pop(job.session, None)
            if isinstance(exc, PokerlabError):
                raise
            if isinstance(exc, MemoryError):
                raise SolverPageError("not enough memory for this spot on the server", 503) from None
            raise
        job.config = config
        job.solver = solver
        job.state = "running"
        job.last_access = time.monotonic()
        job.thread = threading.Thread(target=self._loop, args=(job,), name=f"solve-{job.session[:6]}",
                                      daemon=True)
        job.thread.start()
        return job.status()

    def get(self, sid: str) -> Job:
        with self.mu:
            self._expire()
            job = self.jobs.get(sid) if isinstance(sid, str) else None
            if job is None:
                raise SolverPageError("unknown or expired solve session: solve the spot again", 404)
            job.last_access = time.monotonic()
            return job

    def status(self, sid: str) -> dict[str, Any]:
        return self.get(sid).status()

    def stop(self, sid: str) -> dict[str, Any]:
        job = self.get(sid)
        job.stop.set()
        return job.status()

    def _path(self, obj: dict[str, Any]) -> list[str]:
        """The checked ``path`` of a request body that has only that field."""
        unknown = sorted(k for k in obj if k != "path")
        if unknown:
            raise SolverPageError(f"unknown field {unknown[0]!r}")
        return self._steps(obj.get("path", []))

    def _steps(self, path: Any) -> list[str]:
        if path is None:
            return []
        if not isinstance(path, list) or len(path) > self.cfg.max_path:
            raise SolverPageError(f"'path' must be a list of at most {self.cfg.max_path} actions and cards")
        if any(not isinstance(t, str) or not t.strip() or len(t) > 32 for t in path):
            raise SolverPageError("every step of 'path' must be an action or a card (a short string)")
        return path

    def _solved(self, sid: str) -> Job:
        job = self.get(sid)
        if job.solver is None:
            raise SolverPageError("the solve is still starting: try again in a moment", 409)
        return job

    def node(self, sid: str, obj: dict[str, Any]) -> dict[str, Any]:
        """The report of the node at ``obj["path"]`` (run it off the event loop), with
        ``locked`` (the node's strategy is locked) and the page's locks there."""
        path = self._path(obj)
        job = self._solved(sid)
        with job.lock:
            s = job.solver
            view = s.cursor(path)
            rep = s.node_report(view)
            locked = bool(rep["kind"] == "decision"
                          and s.lock_ptr[int(s.entry_base[view.node]) + view.slot] >= 0)
        out = node_json(rep)
        out["locked"] = locked
        out["locks"] = [lock_public(lk) for lk in job.locks if lk["path"] == list(view.path)]
        return out

    # ----------------------------------------------------------------- the study views
    def classes(self, sid: str, obj: dict[str, Any]) -> dict[str, Any]:
        """The hand-class view of the node at ``obj["path"]`` (off the event loop)."""
        path = self._path(obj)
        job = self._solved(sid)
        with job.lock:
            return classes_json(job.solver, job.solver.cursor(path))

    def runouts(self, sid: str, obj: dict[str, Any]) -> dict[str, Any]:
        """The runout view of the chance node at ``obj["path"]`` (off the event loop)."""
        path = self._path(obj)
        job = self._solved(sid)
        with job.lock:
            return runouts_json(job.solver, job.solver.cursor(path))

    def charts(self, stack: str | None) -> dict[str, Any]:
        """The preflop charts of the shipped blueprint of ``stack`` bb (computed once per
        stack, off the event loop)."""
        try:
            bb = float(stack) if stack not in (None, "") else self.cfg.chart_stacks[0]
        except ValueError:
            bb = math.nan
        if bb not in self.cfg.chart_stacks:
            have = ", ".join(f"{x:g}" for x in self.cfg.chart_stacks)
            raise SolverPageError(f"no preflop charts for a stack of {stack!r} bb: the charts are of "
                                  f"{have} bb")
        with self.charts_mu:
            if bb not in self.chart_cache:
                self.chart_cache[bb] = charts_page_json(bb)
            return self.chart_cache[bb]

    # ----------------------------------------------------------------- files
    def save_bytes(self, sid: str) -> tuple[bytes, str]:
        """The finished solve of ``sid`` as the file ``pokerlab spot solve --out`` writes
        (versioned, checksummed ``.npz``, no pickle) and a file name for it."""
        import tempfile
        from pathlib import Path

        job = self._solved(sid)
        if job.active:
            raise SolverPageError("the solve is still running: stop it or wait for it to end, then save", 409)
        if job.solver.iteration <= 0:
            raise SolverPageError("nothing solved to save: the solve stopped before its first iteration", 409)
        with tempfile.TemporaryDirectory(prefix="pokerlab-save-") as d:
            p = Path(d) / "spot.npz"
            with job.lock:
                job.solver.save(p)
            data = p.read_bytes()
        board = job.spot.board_str().replace(" ", "")
        return data, f"pokerlab-spot-{board}-{job.solver.iteration}.npz"

    def load_bytes(self, raw: bytes, client: str = "") -> dict[str, Any]:
        """A solve saved by :meth:`save_bytes` (or ``pokerlab spot solve --out``) as a new
        finished session of ``client`` (off the event loop).  A damaged or foreign file is
        one 400 line; a file over the size cap or a spot over the memory limit is refused
        before the solver is built."""
        import tempfile
        from pathlib import Path

        from pokerlab.subgame import SpotSolver

        c = self.cfg
        cap = min(c.max_upload_bytes, c.max_memory)
        if self.closed:
            raise SolverPageError("the server is shutting down", 503)
        if not raw:
            raise SolverPageError("the uploaded file is empty: choose a spot file saved by this page "
                                  "or by 'pokerlab spot solve --out'")
        if len(raw) > cap:
            raise SolverPageError(f"the uploaded file is too large: {len(raw):,} bytes, at most {cap:,}", 413)
        with tempfile.TemporaryDirectory(prefix="pokerlab-load-") as d:
            p = Path(d) / "upload.npz"
            p.write_bytes(raw)
            size = self._file_size(p)
            try:
                solver = SpotSolver.load(p, threads=c.threads)
            except PokerlabError as exc:
                msg = one_line(exc).replace(repr(str(p)), "the uploaded file")
                msg = msg.replace(str(p), "the uploaded file")
                raise SolverPageError(f"cannot load the file: {msg}") from None
            except MemoryError:
                raise SolverPageError("not enough memory for this spot on the server", 503) from None
            except Exception:
                raise SolverPageError("cannot load the file: it is not a pokerlab spot file "
                                      "(corrupt or another kind of file)") from None
        job = Job(session=secrets.token_urlsafe(24), spot=solver.spot, size=size,
                  target_pct=c.default_target_pct, max_iterations=max(1, int(solver.iteration)),
                  owner=client, compress=solver.config.compress,
                  max_seconds=c.max_seconds, solver=solver, config=solver.config, source="loaded",
                  iteration=int(solver.iteration), reason="loaded",
                  history=[(int(h[0]), float(h[2])) for h in solver.history if len(h) >= 3])
        job.message = f"loaded from a file: {solver.iteration:,} iterations"
        job.file_locks = bool(np.any(solver.lock_ptr >= 0))
        if solver.iteration > 0:
            chips, pct = solver.exploitability()
            job.exploitability = (float(chips), float(pct))
            if not job.history or job.history[-1][0] != solver.iteration:
                job.history.append((int(solver.iteration), float(pct)))
            job.values = tuple(float(v) for v in solver.values())  # type: ignore[assignment]
            job.equity = float(solver.equity())
        job.state = "done"
        job.finished = job.last_access = time.monotonic()
        with self.mu:
            self._expire()
            self._admit(job, running=False)
        return job.status()

    def _file_size(self, path: Any) -> Any:
        """The size of a saved spot read from its header, counted (never built) under the
        page's limits before the solver is built (one 400 line for a file that is no spot
        file or a spot over the limits)."""
        import json

        from pokerlab.subgame import SolveConfig, make_spot
        from pokerlab.subgame.tree import Root, TreeConfig

        try:
            with np.load(path, allow_pickle=False) as z:
                header = json.loads(bytes(z["header"].tobytes()).decode("utf-8"))
                core = json.loads(header["core"])
                ranges = np.asarray(z["ranges"], dtype=np.float64)
            sj = core["spot"]
            spot = make_spot(board=sj["board"], pot=sj["pot"], stack=sj["stack"], oop=ranges[0], ip=ranges[1],
                             tree=TreeConfig.from_json(sj["tree"]), rake=sj["rake"], rake_cap=sj["rake_cap"],
                             big_blind=sj["big_blind"], root=Root.from_json(sj.get("root")))
            cfg = SolveConfig(**core["config"])
        except Exception:
            raise SolverPageError("cannot load the file: it is not a pokerlab spot file "
                                  "(corrupt or another kind of file)") from None
        from pokerlab.subgame import estimate_size
        from pokerlab.subgame.tree import TreeLimitError

        c = self.cfg
        try:
            size = estimate_size(spot, isomorphism=cfg.isomorphism, compress=cfg.compress,
                                 max_nodes=c.max_tree_nodes,
                                 max_memory=max(c.max_estimate_memory, c.max_memory))
        except TreeLimitError:
            raise SolverPageError("cannot load the file: its spot is over the server's limits") from None
        if size.memory_bytes > c.max_memory:
            raise SolverPageError(f"cannot load the file: its spot needs about "
                                  f"{size.memory_bytes / 1e6:,.1f} MB, "
                                  f"over the server's limit of {c.max_memory / 1e6:,.1f} MB")
        return size

    # ----------------------------------------------------------------- node locking
    def relock(self, sid: str, obj: dict[str, Any], client: str = "") -> dict[str, Any]:
        """Lock a hand class's or a combo's action mix at a decision of the finished solve
        ``sid`` (``path``, ``hands``: a class of the 13x13 grid such as ``AKs``, a hand class
        on the node's board such as ``top pair top kicker``, or a combo such as ``AhKh``;
        ``mix``: action -> probability) and re-solve the spot from scratch with every lock
        of that solve and this one, as a new session of ``client`` (one running solve per
        visitor, as a solve); off the event loop."""
        from dataclasses import replace

        from pokerlab.subgame import SolveConfig, estimate_size

        c = self.cfg
        if self.closed:
            raise SolverPageError("the server is shutting down", 503)
        f = check_fields(obj, LOCK_FIELDS, max_chars=c.max_range_chars)
        path = self._steps(f.get("path", []))
        target = float(f.get("target_pct", c.default_target_pct))
        if not c.min_target_pct <= target <= 100:
            raise SolverPageError(f"target_pct must be at least {c.min_target_pct:g} and at most 100 "
                                  f"(% of the pot), got {target:g}")
        old = self._solved(sid)
        iters = int(f.get("iterations", old.max_iterations if old.source != "loaded"
                          else c.default_iterations))
        if not 1 <= iters <= c.max_iterations:
            raise SolverPageError(f"iterations must be between 1 and {c.max_iterations:,}, got {iters}")
        if old.active:
            raise SolverPageError("the solve is still running: stop it or wait for it to end before "
                                  "locking a node", 409)
        with old.lock:
            s = old.solver
            view = s.cursor(path)
            rep = s.node_report(view)
            file_locks = bool(np.any(s.lock_ptr >= 0))
        where = " / ".join(view.path) or "the root"
        if rep["kind"] != "decision":
            raise SolverPageError(f"the node at {where} is a {rep['kind']} node: only a decision can be "
                                  "locked")
        actions = list(rep["actions"])
        mix = lock_mix(f["mix"], actions, where)
        who = rep["player"]
        name, mask = hands_mask(f["hands"], view.board)
        mask &= np.asarray(rep[who]["reach"], dtype=np.float64) > 0
        if not mask.any():
            raise SolverPageError(f"no combo of {name} is in {who.upper()}'s range at {where}")
        lock = {"path": list(view.path), "hands": name, "player": who,
                "mix": dict(zip(actions, mix, strict=True)), "combos": int(mask.sum()),
                "ids": np.flatnonzero(mask).tolist()}
        locks = [*old.locks, lock]
        base_cfg = old.config if old.config is not None else SolveConfig(compress=old.compress)
        dealt = any(len(lk["path"]) and _after_deal(s, lk["path"]) for lk in locks)
        cfg = replace(base_cfg, isomorphism=False) if dealt and base_cfg.isomorphism else base_cfg
        if cfg != base_cfg and old.file_locks:
            raise SolverPageError("this loaded solve has node locks of its own: a lock after a dealt card "
                                  "needs a re-solve without suit isomorphism, which cannot carry them")
        base = s if file_locks and cfg == base_cfg else None  # the file's locks go on
        size = estimate_size(old.spot, isomorphism=cfg.isomorphism, compress=cfg.compress,
                             max_nodes=c.max_tree_nodes, max_memory=max(c.max_estimate_memory, c.max_memory))
        if size.memory_bytes > c.max_memory:
            raise SolverPageError(
                f"a lock after a dealt card re-solves without suit isomorphism: the spot then needs about "
                f"{size.memory_bytes / 1e6:,.1f} MB, over the server's limit of {c.max_memory / 1e6:,.1f} MB")
        job = Job(session=secrets.token_urlsafe(24), spot=old.spot, size=size, target_pct=target,
                  max_iterations=iters, owner=client, compress=cfg.compress, max_seconds=c.max_seconds,
                  source="locked", parent=old.session, locks=locks, file_locks=old.file_locks)
        with self.mu:
            self._expire()
            self._admit(job, running=True)
        return self._launch(job, cfg, locks, base)

    # ----------------------------------------------------------------- the flop report
    def _target_iterations(self, f: dict[str, Any]) -> tuple[float, int]:
        c = self.cfg
        target = float(f.get("target_pct", c.default_target_pct))
        if not c.min_target_pct <= target <= 100:
            raise SolverPageError(f"target_pct must be at least {c.min_target_pct:g} and at most 100 "
                                  f"(% of the pot), got {target:g}")
        iters = int(f.get("iterations", c.default_iterations))
        if not 1 <= iters <= c.max_iterations:
            raise SolverPageError(f"iterations must be between 1 and {c.max_iterations:,}, got {iters}")
        return target, iters

    def report_flops(self, text: str | None, texture: str | None) -> tuple[list[Any], list[str]]:
        """The flops of a report request (``flops``: a set size or a comma-separated list of
        boards, :func:`pokerlab.subgame.flops.parse_flop_set`; ``texture``: the terms of
        :func:`pokerlab.subgame.flops.parse_filter`), at most
        :attr:`SolverPageConfig.max_report_flops`, and the texture terms."""
        from pokerlab.subgame.flops import FlopSetError, matches, parse_filter, parse_flop_set

        cap = self.cfg.max_report_flops
        s = (text or "").strip()
        if not s.replace(",", "").strip():
            raise SolverPageError("the flop set is empty: choose 25 or 49 flops or give a list of boards "
                                  "(e.g. AsKd2c, 7h6h5c)")
        if s.isdigit() and int(s) in SET_SIZES and int(s) > cap:
            raise SolverPageError(f"the {int(s):,}-flop set is over the server's limit of {cap} flops per "
                                  "report: choose a smaller set or a list of boards")
        if not s.isdigit() and s.count(",") + 1 > cap:
            raise SolverPageError(f"the list has {s.count(',') + 1} boards, over the server's limit of {cap} "
                                  "flops per report")
        try:
            flops = parse_flop_set(s)
            terms = parse_filter(texture)
        except FlopSetError as exc:
            raise SolverPageError(one_line(exc).replace("--flops", "flops").replace("--texture", "texture")
                                  ) from None
        if terms:
            flops = [f for f in flops if matches(f.texture, terms)]
            if not flops:
                raise SolverPageError(f"no flop of the set has the texture {', '.join(terms)!r}")
        if len(flops) > cap:
            raise SolverPageError(f"the set has {len(flops):,} flops, over the server's limit of {cap} flops "
                                  "per report: choose a smaller set, a texture or a list of boards")
        return flops, terms

    def start_report(self, obj: dict[str, Any], client: str = "") -> dict[str, Any]:
        """Start a flop report (off the event loop): the form's spot without its board as the
        template (:class:`pokerlab.subgame.aggregate.ReportTemplate`), solved on each flop of
        ``flops`` (filtered by ``texture``) in a background thread, as the visitor's one
        running solve.  Every flop's memory is checked before anything is solved
        (:func:`pokerlab.subgame.aggregate.check_memory`, as ``pokerlab spot report``)."""
        import os

        from pokerlab.subgame import aggregate as agg
        from pokerlab.subgame.tree import SpotError

        c = self.cfg
        if self.closed:
            raise SolverPageError("the server is shutting down", 503)
        f = check_fields(obj, REPORT_FIELDS, max_chars=c.max_range_chars)
        for name in ("pot", "stack", "oop", "ip"):
            if name not in f:
                raise SolverPageError(f"missing field {name!r}")
        target, iters = self._target_iterations(f)
        tpl = template_from_fields(f, target=target, iterations=iters)
        flops, terms = self.report_flops(f.get("flops"), f.get("texture"))
        tpl.tree()  # a bad size: one line before the tree is counted
        # the betting tree is the same on every flop (pot and stack only): counted once under the caps
        self.estimate(tpl.spot(flops[0].board), tpl.compress)
        try:
            memory = agg.check_memory(tpl, flops, c.max_memory)
        except SpotError as exc:
            msg = one_line(exc).replace("over --max-memory", "over the server's limit of")
            raise SolverPageError(msg) from None
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        job = ReportJob(report=secrets.token_urlsafe(24), template=tpl, flops=flops,
                        flop_set=str(f.get("flops")).strip(), texture=terms, memory_bytes=max(memory),
                        owner=client, max_seconds=c.max_report_seconds, threads=c.threads or cores)
        with self.mu:
            self._expire()
            self._check_running(client)
            for rid, old in list(self.reports.items()):  # the visitor's finished report goes
                if old.owner == client and not old.active:
                    del self.reports[rid]
            self._make_room(job.memory_bytes)
            self.reports[job.report] = job
        job.thread = threading.Thread(target=self._report_loop, args=(job,), name=f"report-{job.report[:6]}",
                                      daemon=True)
        job.thread.start()
        return job.status()

    def get_report(self, rid: str) -> ReportJob:
        with self.mu:
            self._expire()
            job = self.reports.get(rid) if isinstance(rid, str) else None
            if job is None:
                raise SolverPageError("unknown or expired flop report: run the report again", 404)
            job.last_access = time.monotonic()
            return job

    def report_status(self, rid: str, texture: str | None = None) -> dict[str, Any]:
        """The report's status with the rows whose texture passes ``texture`` (off the event loop)."""
        from pokerlab.subgame.flops import FlopSetError, parse_filter

        job = self.get_report(rid)
        try:
            terms = parse_filter(texture)
        except FlopSetError as exc:
            raise SolverPageError(one_line(exc).replace("--texture", "texture")) from None
        return job.status(terms)

    def stop_report(self, rid: str) -> dict[str, Any]:
        """Stop the report after the flop being solved (its rows so far stay)."""
        job = self.get_report(rid)
        job.stop.set()
        return job.status()

    def _report_loop(self, job: ReportJob) -> None:
        from pokerlab.subgame import aggregate as agg

        c = self.cfg
        state, reason = "done", "done"
        try:
            for flop in job.flops:
                if job.stop.is_set() or self.closed:
                    state, reason = "stopped", "stopped"
                    break
                if time.monotonic() - job.started > job.max_seconds:
                    state, reason = "stopped", "time limit"
                    job.message = f"stopped at the server's time limit of {job.max_seconds:g} s per report"
                    break
                if time.monotonic() - job.last_access > c.unwatched_seconds:
                    state, reason = "stopped", "unwatched"
                    job.message = (f"stopped: nobody looked at this report for {c.unwatched_seconds:g} s "
                                   "(its page was closed)")
                    break
                job.current = flop.board
                row = agg.solve_flop(agg.FlopTask(template=job.template, board=flop.board,
                                                  threads=job.threads))
                job.rows.append(clean(agg.full_row(row, flop)))
            if state == "stopped" and not job.message:
                job.message = f"stopped after {len(job.rows)} of {len(job.flops)} flops"
        except MemoryError:
            state, reason = "error", "error"
            job.message = "not enough memory for this spot on the server"
        except Exception as exc:  # the page gets one line; the log gets the traceback
            log.exception("flop report %s failed", job.report[:6])
            state, reason = "error", "error"
            job.message = (one_line(exc) if isinstance(exc, PokerlabError)
                           else f"internal error: {type(exc).__name__}")
        finally:
            job.current = None
            job.finished = time.monotonic()
            job.last_access = job.finished
            job.reason = reason
            job.state = state  # last: a poll that sees the end sees every row

    # ----------------------------------------------------------------- internals
    def _expire(self) -> None:
        now = time.monotonic()
        for sid, job in list(self.jobs.items()):
            if not job.active and now - job.last_access > self.cfg.idle_seconds:
                del self.jobs[sid]
            elif job.active and now - job.last_access > self.cfg.idle_seconds:
                job.stop.set()  # nobody is watching
        for rid, rj in list(self.reports.items()):
            if not rj.active and now - rj.last_access > self.cfg.idle_seconds:
                del self.reports[rid]

    def _make_room(self, need: int) -> None:
        def held() -> int:
            return (sum(int(j.size.memory_bytes) for j in self.jobs.values())
                    + sum(r.memory_bytes for r in self.reports.values() if r.active))

        idle = sorted((j for j in self.jobs.values() if not j.active), key=lambda j: j.last_access)
        while idle and (len(self.jobs) >= self.cfg.max_sessions or held() + need > self.cfg.max_total_memory):
            self.jobs.pop(idle.pop(0).session, None)
        if len(self.jobs) >= self.cfg.max_sessions:
            raise SolverPageError("the server is busy: too many solve sessions; try again later", 503)
        if held() + need > self.cfg.max_total_memory:
            raise SolverPageError(
                f"the server is busy: this spot needs about {need / 1e6:,.1f} MB and the solves running "
                f"hold {held() / 1e6:,.1f} MB of {self.cfg.max_total_memory / 1e6:,.1f} MB; try again later",
                503)

    def _loop(self, job: Job) -> None:
        s = job.solver
        cfg = self.cfg
        last_it, last_t, cost = 0, time.monotonic(), 0.0

        def measure() -> float:
            nonlocal last_it, last_t, cost
            t0 = time.monotonic()
            with job.lock:
                chips, pct = s.exploitability()
            now = time.monotonic()
            cost = now - t0
            job.exploitability = (float(chips), float(pct))
            job.history.append((int(s.iteration), float(pct)))
            last_it, last_t = s.iteration, now
            return float(pct)

        state, reason = "stopped", "stopped"
        try:
            while True:
                if job.stop.is_set() or self.closed:
                    break
                if s.iteration >= job.max_iterations:
                    state, reason = "done", "iterations"
                    break
                if time.monotonic() - job.started > cfg.max_seconds:
                    reason = "time limit"
                    job.message = f"stopped at the server's time limit of {cfg.max_seconds:g} s"
                    break
                if time.monotonic() - job.last_access > cfg.unwatched_seconds:
                    reason = "unwatched"
                    job.message = (f"stopped: nobody looked at this solve for {cfg.unwatched_seconds:g} s "
                                   "(its page was closed)")
                    break
                with job.lock:
                    s.step()
                job.iteration = int(s.iteration)
                now = time.monotonic()
                due = (s.iteration == 1 or s.iteration - last_it >= cfg.check_every
                       or s.iteration >= job.max_iterations
                       or (now - last_t >= 1.0 and cost <= 0.25 * (now - last_t)))
                if due and measure() <= job.target_pct:
                    state, reason = "done", "target"
                    break
            if last_it != s.iteration and s.iteration > 0 and not self.closed:
                measure()
            if not self.closed and s.iteration > 0:
                with job.lock:
                    job.values = tuple(float(v) for v in s.values())  # type: ignore[assignment]
                    job.equity = float(s.equity())
        except Exception as exc:  # the page gets one line; the log gets the traceback
            log.exception("spot solve %s failed", job.session[:6])
            state, reason = "error", "error"
            job.message = (one_line(exc) if isinstance(exc, PokerlabError)
                           else f"internal error: {type(exc).__name__}")
        finally:
            job.finished = time.monotonic()
            job.last_access = job.finished
            job.reason = reason
            job.state = state  # last: a poll that sees the end sees every number

    def shutdown(self, timeout: float = 5.0) -> None:
        self.closed = True
        with self.mu:
            jobs: list[Job | ReportJob] = [*self.jobs.values(), *self.reports.values()]
        for j in jobs:
            j.stop.set()
        for j in jobs:
            if j.thread is not None:
                j.thread.join(timeout=timeout)


# ------------------------------------------------------------------------------ routes


def add_solver_routes(app: Any, server_config: Any = None, *, config: SolverPageConfig | None = None) -> Any:
    """Add the solver page and its API to the play application ``app`` (returns it)."""
    import asyncio
    from contextlib import asynccontextmanager

    from fastapi.responses import FileResponse, JSONResponse, Response

    from pokerlab.play.service import STATIC

    cfg = config or SolverPageConfig.from_server(server_config)
    hub = SolverHub(cfg)
    app.state.solver = hub

    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> Any:
        async with inner(a) as state:
            try:
                yield state
            finally:
                await asyncio.to_thread(hub.shutdown)

    app.router.lifespan_context = lifespan

    def error(exc: BaseException) -> Any:
        if isinstance(exc, SolverPageError):
            return JSONResponse({"error": one_line(exc)}, status_code=exc.status)
        if isinstance(exc, PokerlabError):
            return JSONResponse({"error": one_line(exc)}, status_code=400)
        log.exception("solver page request failed")
        return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    async def body(request: Request) -> dict[str, Any]:
        n = request.headers.get("content-length")
        if n is not None and n.isdigit() and int(n) > cfg.max_body_bytes:
            raise SolverPageError(f"request body too large: {int(n):,} bytes, at most {cfg.max_body_bytes:,}")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > cfg.max_body_bytes:
                raise SolverPageError(f"request body too large: at most {cfg.max_body_bytes:,} bytes")
        return parse_body(raw, cfg.max_body_bytes)

    async def call(fn: Any, *args: Any, thread: bool = False) -> Any:
        try:
            if thread:
                return await asyncio.to_thread(fn, *args)
            return fn(*args)
        except Exception as exc:
            return error(exc)

    def client_of(request: Any) -> str:
        return str(request.client.host) if request.client is not None else ""

    def limited(request: Any) -> Any:
        """The 429 answer when the visitor is over the rate limit, else None."""
        if hub.allow(client_of(request)):
            return None
        return JSONResponse({"error": "rate limit: too many requests to the solver; slow down"},
                            status_code=429)

    async def call_with_body(request: Request, fn: Any, *args: Any) -> Any:
        """``fn(*args, body)`` in a worker thread, the request's JSON body checked first."""
        busy = limited(request)
        if busy is not None:
            return busy
        try:
            obj = await body(request)
        except Exception as exc:
            return error(exc)
        return await call(fn, *args, obj, thread=True)

    @app.get("/solver")
    async def solver_page() -> Any:
        return FileResponse(STATIC / "solver.html")

    @app.get("/api/solver/config")
    async def solver_config(request: Request) -> Any:
        return limited(request) or hub.config()

    @app.post("/api/solver/range")
    async def solver_range(request: Request) -> Any:
        return await call_with_body(request, hub.range_grid)

    @app.post("/api/solver/tree")
    async def solver_tree(request: Request) -> Any:
        return await call_with_body(request, hub.tree)

    @app.post("/api/solver/solve")
    async def solver_solve(request: Request) -> Any:
        client = client_of(request)
        return await call_with_body(request, lambda obj: hub.start(obj, client))

    @app.get("/api/solver/{session}/status")
    async def solver_status(session: str, request: Request) -> Any:
        return limited(request) or await call(hub.status, session)

    @app.post("/api/solver/{session}/stop")
    async def solver_stop(session: str, request: Request) -> Any:
        return limited(request) or await call(hub.stop, session)

    @app.post("/api/solver/{session}/node")
    async def solver_node(session: str, request: Request) -> Any:
        return await call_with_body(request, hub.node, session)

    @app.post("/api/solver/{session}/classes")
    async def solver_classes(session: str, request: Request) -> Any:
        return await call_with_body(request, hub.classes, session)

    @app.post("/api/solver/{session}/runouts")
    async def solver_runouts(session: str, request: Request) -> Any:
        return await call_with_body(request, hub.runouts, session)

    @app.post("/api/solver/{session}/lock")
    async def solver_lock(session: str, request: Request) -> Any:
        client = client_of(request)
        return await call_with_body(request, lambda obj: hub.relock(session, obj, client))

    @app.post("/api/solver/report")
    async def solver_report(request: Request) -> Any:
        client = client_of(request)
        return await call_with_body(request, lambda obj: hub.start_report(obj, client))

    @app.get("/api/solver/report/{report}/status")
    async def solver_report_status(report: str, request: Request, texture: str | None = None) -> Any:
        return limited(request) or await call(hub.report_status, report, texture, thread=True)

    @app.post("/api/solver/report/{report}/stop")
    async def solver_report_stop(report: str, request: Request) -> Any:
        return limited(request) or await call(hub.stop_report, report)

    @app.get("/api/solver/charts")
    async def solver_charts(request: Request, stack: str | None = None) -> Any:
        return limited(request) or await call(hub.charts, stack, thread=True)

    @app.get("/api/solver/{session}/save")
    async def solver_save(session: str, request: Request) -> Any:
        busy = limited(request)
        if busy is not None:
            return busy
        got = await call(hub.save_bytes, session, thread=True)
        if not isinstance(got, tuple):
            return got
        data, name = got
        return Response(data, media_type="application/octet-stream",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.post("/api/solver/load")
    async def solver_load(request: Request) -> Any:
        busy = limited(request)
        if busy is not None:
            return busy
        cap = min(cfg.max_upload_bytes, cfg.max_memory)
        n = request.headers.get("content-length")
        if n is not None and n.isdigit() and int(n) > cap:
            return error(SolverPageError(f"the uploaded file is too large: {int(n):,} bytes, at most "
                                         f"{cap:,}", 413))
        parts: list[bytes] = []
        got = 0
        async for chunk in request.stream():
            got += len(chunk)
            if got > cap:
                return error(SolverPageError(f"the uploaded file is too large: at most {cap:,} bytes", 413))
            parts.append(chunk)
        client = client_of(request)
        return await call(hub.load_bytes, b"".join(parts), client, thread=True)

    return app


__all__: Sequence[str] = ("ReportJob", "SolverHub", "SolverPageConfig", "SolverPageError",
                          "add_solver_routes", "node_json", "progress_toward")
