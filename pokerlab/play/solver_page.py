"""The spot solver page of the play server: ``/solver`` and the JSON API under ``/api/solver``.

A person enters a postflop spot (board, pot, stack, two ranges, bet and raise sizes per
street), the server solves it with :class:`pokerlab.subgame.SpotSolver` in a background
thread (one solve at a time per solve session, a cap on the solves running at once, a
memory limit per spot and in all) and the page polls the progress and the exploitability,
then walks the tree node by node.

Routes (every error is ``{"error": "one line"}``: 400 bad input, 404 unknown session,
409 a solve already running in this session, 503 the server is at its limits):

* ``GET /solver``: the page (``static/solver.html``, ``solver.js``, ``solver.css``);
* ``GET /api/solver/config``: limits, defaults and the 169 class names in grid order;
* ``POST /api/solver/range`` ``{"range": TEXT}``: the class weights (169) and the compact text;
* ``POST /api/solver/tree`` (the spot fields): node count and memory estimate, no solving;
* ``POST /api/solver/solve`` (the spot fields, ``target_pct``, ``iterations``, optional
  ``session``): starts a solve, returns its status with the ``session`` token;
* ``GET /api/solver/{session}/status``: state, iteration, exploitability history;
* ``POST /api/solver/{session}/stop``;
* ``POST /api/solver/{session}/node`` ``{"path": [...]}``: the node's actions and
  frequencies, the 13x13 grid (action mix, reach, EV, equity per class) and every combo.

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
    SOLVE_FIELDS,
    SPOT_FIELDS,
    SolverPageConfig,
    SolverPageError,
    check_fields,
    one_line,
    parse_body,
    spot_from_fields,
)
from pokerlab.play.solver_report import CLASS_OF, node_json, num, nums

try:  # FastAPI resolves the route annotations from this module's globals
    from fastapi import Request
except ModuleNotFoundError:  # pragma: no cover - the web extra is missing
    Request = Any  # type: ignore[misc,assignment]

log = logging.getLogger(__name__)

_SESSION = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_CLASS_SIZE = np.bincount(CLASS_OF, minlength=169).astype(np.float64)


# ------------------------------------------------------------------------------ jobs


@dataclass(eq=False)
class Job:
    """One solve session: the solver, its state and its exploitability history."""

    session: str
    spot: Any
    size: Any
    target_pct: float
    max_iterations: int
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
            "nodes": int(self.size.nodes), "memory_bytes": int(self.size.memory_bytes),
            "board": self.spot.board_str(), "pot": self.spot.pot, "stack": self.spot.stack,
            "exploitability": None, "exploitability_pct": None,
        }
        if self.exploitability is not None:
            out["exploitability"] = num(self.exploitability[0])
            out["exploitability_pct"] = num(self.exploitability[1])
        if self.values is not None:
            out["ev_oop"], out["ev_ip"] = num(self.values[0]), num(self.values[1])
        if self.equity is not None:
            out["equity_oop"] = num(self.equity)
        return out


class SolverHub:
    """The solves of one play server (thread-safe)."""

    def __init__(self, cfg: SolverPageConfig | None = None) -> None:
        self.cfg = cfg or SolverPageConfig()
        self.jobs: dict[str, Job] = {}
        self.mu = threading.Lock()
        self.closed = False

    # ----------------------------------------------------------------- requests
    def config(self) -> dict[str, Any]:
        c = self.cfg
        return {"max_memory": c.max_memory, "max_iterations": c.max_iterations, "max_running": c.max_running,
                "max_seconds": c.max_seconds, "target_pct": c.default_target_pct,
                "iterations": c.default_iterations, "classes": list(CLASS_NAMES)}

    def range_grid(self, obj: dict[str, Any]) -> dict[str, Any]:
        from pokerlab.cards.ranges import parse_range, range_to_string

        f = check_fields(obj, {"range": ((str,), True, 0)}, max_chars=self.cfg.max_range_chars)
        w = parse_range(f["range"])
        grid = np.bincount(CLASS_OF, weights=w, minlength=169) / _CLASS_SIZE
        return {"weights": nums(grid), "text": range_to_string(w),
                "combos": num(float(w.sum())), "percent": num(100.0 * float(w.sum()) / NUM_COMBOS, 3)}

    def parse_spot(self, obj: dict[str, Any], schema: dict[str, Any] | None = None
                   ) -> tuple[Any, Any, dict[str, Any]]:
        """(spot, size estimate, validated fields); refuses a spot over the memory limit."""
        from pokerlab.subgame import estimate_size

        f = check_fields(obj, schema or SPOT_FIELDS, max_chars=self.cfg.max_range_chars)
        spot = spot_from_fields(f)
        size = estimate_size(spot)
        if size.memory_bytes > self.cfg.max_memory:
            raise SolverPageError(
                f"the spot needs about {size.memory_bytes / 1e6:,.1f} MB ({size.nodes:,} nodes), over the "
                f"server's limit of {self.cfg.max_memory / 1e6:,.1f} MB: use fewer bet sizes, a raise cap "
                "or narrower ranges")
        return spot, size, f

    def tree(self, obj: dict[str, Any]) -> dict[str, Any]:
        from pokerlab.subgame import estimate_size

        f = check_fields(obj, SPOT_FIELDS, max_chars=self.cfg.max_range_chars)
        spot = spot_from_fields(f)
        size = estimate_size(spot)
        return {**size.to_json(), "max_memory": self.cfg.max_memory,
                "over_limit": size.memory_bytes > self.cfg.max_memory,
                "board": spot.board_str(), "pot": spot.pot, "stack": spot.stack}

    def start(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Validate, reserve a slot, build the solver (in the caller's thread: call it off the
        event loop) and start the solving thread."""
        if self.closed:
            raise SolverPageError("the server is shutting down", 503)
        spot, size, f = self.parse_spot(obj, SOLVE_FIELDS)
        target = float(f.get("target_pct", self.cfg.default_target_pct))
        if not 0 < target <= 100:
            raise SolverPageError(f"target_pct must be above 0 and at most 100 (% of the pot), "
                                  f"got {target:g}")
        iters = int(f.get("iterations", self.cfg.default_iterations))
        if not 1 <= iters <= self.cfg.max_iterations:
            raise SolverPageError(f"iterations must be between 1 and {self.cfg.max_iterations:,}, "
                                  f"got {iters}")
        sid = f.get("session")
        if sid is not None and not _SESSION.match(sid):
            raise SolverPageError("bad session token")
        with self.mu:
            self._expire()
            if sid is not None and sid in self.jobs:
                if self.jobs[sid].active:
                    raise SolverPageError("a solve is already running in this session: stop it first", 409)
                del self.jobs[sid]
            if sid is None:
                sid = secrets.token_urlsafe(24)
            running = sum(1 for j in self.jobs.values() if j.active)
            if running >= self.cfg.max_running:
                raise SolverPageError(f"the server is busy: {running} solve(s) running, at most "
                                      f"{self.cfg.max_running}; try again when one ends", 503)
            self._make_room(int(size.memory_bytes))
            job = Job(session=sid, spot=spot, size=size, target_pct=target, max_iterations=iters)
            self.jobs[sid] = job
        try:
            from pokerlab.subgame import SpotSolver

            job.solver = SpotSolver(spot, max_memory=self.cfg.max_memory, threads=self.cfg.threads)
        except BaseException as exc:
            with self.mu:
                self.jobs.pop(sid, None)
            if isinstance(exc, PokerlabError):
                raise
            if isinstance(exc, MemoryError):
                raise SolverPageError("not enough memory for this spot on the server", 503) from None
            raise
        job.state = "running"
        job.thread = threading.Thread(target=self._loop, args=(job,), name=f"solve-{sid[:6]}", daemon=True)
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

    def node(self, sid: str, obj: dict[str, Any]) -> dict[str, Any]:
        """The report of the node at ``obj["path"]`` (run it off the event loop)."""
        unknown = sorted(k for k in obj if k != "path")
        if unknown:
            raise SolverPageError(f"unknown field {unknown[0]!r}")
        path = obj.get("path", [])
        if not isinstance(path, list) or len(path) > self.cfg.max_path:
            raise SolverPageError(f"'path' must be a list of at most {self.cfg.max_path} actions and cards")
        if any(not isinstance(t, str) or not t.strip() or len(t) > 32 for t in path):
            raise SolverPageError("every step of 'path' must be an action or a card (a short string)")
        job = self.get(sid)
        if job.solver is None:
            raise SolverPageError("the solve is still starting: try again in a moment", 409)
        with job.lock:
            view = job.solver.cursor(path)
            rep = job.solver.node_report(view)
        return node_json(rep)

    # ----------------------------------------------------------------- internals
    def _expire(self) -> None:
        now = time.monotonic()
        for sid, job in list(self.jobs.items()):
            if not job.active and now - job.last_access > self.cfg.idle_seconds:
                del self.jobs[sid]
            elif job.active and now - job.last_access > self.cfg.idle_seconds:
                job.stop.set()  # nobody is watching

    def _make_room(self, need: int) -> None:
        def held() -> int:
            return sum(int(j.size.memory_bytes) for j in self.jobs.values())

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
            jobs = list(self.jobs.values())
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

    from fastapi.responses import FileResponse, JSONResponse

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

    async def call_with_body(request: Request, fn: Any, *args: Any) -> Any:
        """``fn(*args, body)`` in a worker thread, the request's JSON body checked first."""
        try:
            obj = await body(request)
        except Exception as exc:
            return error(exc)
        return await call(fn, *args, obj, thread=True)

    @app.get("/solver")
    async def solver_page() -> Any:
        return FileResponse(STATIC / "solver.html")

    @app.get("/api/solver/config")
    async def solver_config() -> Any:
        return hub.config()

    @app.post("/api/solver/range")
    async def solver_range(request: Request) -> Any:
        return await call_with_body(request, hub.range_grid)

    @app.post("/api/solver/tree")
    async def solver_tree(request: Request) -> Any:
        return await call_with_body(request, hub.tree)

    @app.post("/api/solver/solve")
    async def solver_solve(request: Request) -> Any:
        return await call_with_body(request, hub.start)

    @app.get("/api/solver/{session}/status")
    async def solver_status(session: str) -> Any:
        return await call(hub.status, session)

    @app.post("/api/solver/{session}/stop")
    async def solver_stop(session: str) -> Any:
        return await call(hub.stop, session)

    @app.post("/api/solver/{session}/node")
    async def solver_node(session: str, request: Request) -> Any:
        return await call_with_body(request, hub.node, session)

    return app


__all__: Sequence[str] = ("SolverHub", "SolverPageConfig", "SolverPageError", "add_solver_routes",
                          "node_json")
