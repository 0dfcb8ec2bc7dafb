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
routes to the play application.
"""

from __future__ import annotations

import json
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

from pokerlab.cards.cards import CLASS_NAMES, CLASS_OF_COMBO, COMBO_MASKS, NUM_COMBOS, cards_mask, combo_str
from pokerlab.errors import PokerlabError

try:  # FastAPI resolves the route annotations from this module's globals
    from fastapi import Request
except ModuleNotFoundError:  # pragma: no cover - the web extra is missing
    Request = Any  # type: ignore[misc,assignment]

log = logging.getLogger(__name__)

_SESSION = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_CLASS_OF = np.asarray(CLASS_OF_COMBO, dtype=np.int64)
_CLASS_SIZE = np.bincount(_CLASS_OF, minlength=169).astype(np.float64)


class SolverPageError(PokerlabError):
    """A request the solver page cannot accept; ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, kw_only=True)
class SolverPageConfig:
    """The solver page's limits."""

    max_memory: int = 2_000_000_000
    """Bytes one spot may need (the solver's estimate), as ``pokerlab spot --max-memory``."""
    max_total_memory: int = 4_000_000_000
    """Bytes all the solves held in memory may need together (finished ones are dropped,
    least recently used first, to make room)."""
    max_running: int = 2
    """Solves running at once over all sessions."""
    max_sessions: int = 16
    """Solve sessions (running or finished, kept for walking the tree) held at once."""
    idle_seconds: float = 1800.0
    max_iterations: int = 100_000
    max_seconds: float = 900.0
    """Wall-clock limit of one solve."""
    max_body_bytes: int = 65_536
    max_range_chars: int = 4_000
    max_path: int = 64
    threads: int | None = None
    """Threads per solve (None: the solver's default)."""
    check_every: int = 10
    """Exploitability is measured every this many iterations (and at least every second or
    so when iterations are slow and the measure is cheap)."""
    default_target_pct: float = 0.3
    default_iterations: int = 1000

    @staticmethod
    def from_server(cfg: Any) -> SolverPageConfig:
        """The page's limits from the play server's config (``solver_max_memory`` ...,
        where it has them) and the defaults."""
        base = SolverPageConfig()
        kw = {}
        for name in ("max_memory", "max_total_memory", "max_running", "max_sessions", "max_seconds",
                     "threads"):
            v = getattr(cfg, "solver_" + name, None)
            if v is not None:
                kw[name] = v
        return SolverPageConfig(**{**base.__dict__, **kw})


# ------------------------------------------------------------------------ validation

_NUM = (int, float)
# field -> (types, required, max length of a string)
_SPOT_FIELDS: dict[str, tuple[tuple[type, ...], bool, int]] = {
    "board": ((str,), True, 40),
    "pot": (_NUM, True, 0),
    "stack": (_NUM, True, 0),
    "oop": ((str,), True, 0),
    "ip": ((str,), True, 0),
    "bets": ((str,), False, 200),
    "raises": ((str,), False, 200),
    "flop_bets": ((str,), False, 200),
    "turn_bets": ((str,), False, 200),
    "river_bets": ((str,), False, 200),
    "flop_raises": ((str,), False, 200),
    "turn_raises": ((str,), False, 200),
    "river_raises": ((str,), False, 200),
    "donk": ((str,), False, 200),
    "allin_threshold": (_NUM, False, 0),
    "force_allin": (_NUM, False, 0),
    "raise_cap": ((int,), False, 0),
}
_SOLVE_FIELDS: dict[str, tuple[tuple[type, ...], bool, int]] = {
    **_SPOT_FIELDS,
    "session": ((str,), False, 64),
    "target_pct": (_NUM, False, 0),
    "iterations": ((int,), False, 0),
}


def parse_body(raw: bytes, limit: int) -> dict[str, Any]:
    """A JSON object from a request body of at most ``limit`` bytes."""
    if len(raw) > limit:
        raise SolverPageError(f"request body too large: {len(raw):,} bytes, at most {limit:,}")
    try:
        obj = json.loads(raw.decode("utf-8")) if raw else {}
    except (UnicodeDecodeError, ValueError):
        raise SolverPageError("request body is not valid JSON") from None
    if not isinstance(obj, dict):
        raise SolverPageError("request body must be a JSON object")
    return obj


def check_fields(obj: dict[str, Any], schema: dict[str, tuple[tuple[type, ...], bool, int]],
                 *, max_chars: int) -> dict[str, Any]:
    """Types, presence and lengths of ``obj``'s fields; unknown fields are refused;
    ``null`` and ``""`` count as not given for optional fields."""
    unknown = sorted(k for k in obj if k not in schema)
    if unknown:
        raise SolverPageError(f"unknown field {unknown[0]!r}")
    out: dict[str, Any] = {}
    for name, (types, required, maxlen) in schema.items():
        v = obj.get(name)
        if v is None or v == "":
            if required:
                raise SolverPageError(f"missing field {name!r}")
            continue
        if isinstance(v, bool) or not isinstance(v, types):
            want = "a number" if types == _NUM else "an integer" if types == (int,) else "a string"
            raise SolverPageError(f"field {name!r} must be {want}, got {type(v).__name__}")
        if isinstance(v, str):
            cap = maxlen or max_chars
            if len(v) > cap:
                raise SolverPageError(f"field {name!r} is too long: {len(v):,} characters, at most {cap:,}")
            if "\n" in v or "\r" in v:
                v = " ".join(v.split())
        if isinstance(v, float) and not math.isfinite(v):
            raise SolverPageError(f"field {name!r} must be a finite number")
        out[name] = v
    return out


def spot_from_fields(f: dict[str, Any]) -> Any:
    """The :class:`~pokerlab.subgame.Spot` of validated fields (the solver's own one-line
    errors for a bad board, range or size)."""
    from pokerlab.subgame import make_spot, tree_config

    if "raise_cap" in f and not 0 <= f["raise_cap"] <= 100:
        raise SolverPageError("field 'raise_cap' must be between 0 (no cap) and 100")
    names = ("bets", "raises", "flop_bets", "turn_bets", "river_bets", "flop_raises", "turn_raises",
             "river_raises", "donk")
    kw: dict[str, Any] = {k: f[k] for k in names if k in f}
    for k in ("allin_threshold", "force_allin"):
        if k in f:
            kw[k] = float(f[k])
    if "raise_cap" in f:
        kw["raise_cap"] = int(f["raise_cap"])
    tree = tree_config(**kw)
    return make_spot(board=f["board"], pot=f["pot"], stack=f["stack"], oop=f["oop"], ip=f["ip"], tree=tree)


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:500] or type(exc).__name__


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
            "history": [[i, _r(p)] for i, p in hist],
            "nodes": int(self.size.nodes), "memory_bytes": int(self.size.memory_bytes),
            "board": self.spot.board_str(), "pot": self.spot.pot, "stack": self.spot.stack,
            "exploitability": None, "exploitability_pct": None,
        }
        if self.exploitability is not None:
            out["exploitability"] = _r(self.exploitability[0])
            out["exploitability_pct"] = _r(self.exploitability[1])
        if self.values is not None:
            out["ev_oop"], out["ev_ip"] = _r(self.values[0]), _r(self.values[1])
        if self.equity is not None:
            out["equity_oop"] = _r(self.equity)
        return out


def _r(x: Any, digits: int = 5) -> float | None:
    """A float rounded to ``digits`` significant digits (None for NaN / inf)."""
    if x is None:
        return None
    x = float(x)
    if not math.isfinite(x):
        return None
    if x == 0:
        return 0.0
    return float(f"{x:.{digits}g}")


def _rounded(a: np.ndarray, decimals: int = 4) -> list[float | None]:
    a = np.asarray(a, dtype=np.float64)
    r = np.round(a, decimals)
    return [None if not math.isfinite(v) else float(v) for v in r.tolist()]


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
        grid = np.bincount(_CLASS_OF, weights=w, minlength=169) / _CLASS_SIZE
        return {"weights": _rounded(grid), "text": range_to_string(w),
                "combos": _r(float(w.sum())), "percent": _r(100.0 * float(w.sum()) / NUM_COMBOS, 3)}

    def parse_spot(self, obj: dict[str, Any], schema: dict[str, Any] | None = None
                   ) -> tuple[Any, Any, dict[str, Any]]:
        """(spot, size estimate, validated fields); refuses a spot over the memory limit."""
        from pokerlab.subgame import estimate_size

        f = check_fields(obj, schema or _SPOT_FIELDS, max_chars=self.cfg.max_range_chars)
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

        f = check_fields(obj, _SPOT_FIELDS, max_chars=self.cfg.max_range_chars)
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
        spot, size, f = self.parse_spot(obj, _SOLVE_FIELDS)
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


# ----------------------------------------------------------------------- node report


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
    live = np.bincount(_CLASS_OF, weights=(~blocked).astype(np.float64), minlength=169)
    out: dict[str, Any] = {"kind": kind, "path": list(rep["path"]), "board": rep["board"],
                           "street": rep["street"], "pot": _r(rep["pot"]),
                           "player": rep.get("player"), "actions": list(rep.get("actions", [])),
                           "frequencies": [_r(rep["frequencies"][a], 4) for a in rep.get("actions", [])],
                           "cards": list(rep.get("cards", []))}
    acting = rep.get("player") if kind == "decision" else None
    for who in ("oop", "ip"):
        side = rep[who]
        reach = np.nan_to_num(np.asarray(side["reach"], dtype=np.float64))
        ev = np.asarray(side["ev"], dtype=np.float64)
        eq = np.asarray(side["equity"], dtype=np.float64)
        wsum = np.bincount(_CLASS_OF, weights=reach, minlength=169)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_reach = np.where(live > 0, wsum / np.where(live > 0, live, 1), 0.0)
            ok_ev = np.isfinite(ev) & (reach > 0)
            ev_w = np.bincount(_CLASS_OF, weights=np.where(ok_ev, ev * reach, 0.0), minlength=169)
            ev_n = np.bincount(_CLASS_OF, weights=np.where(ok_ev, reach, 0.0), minlength=169)
            cls_ev = np.where(ev_n > 0, ev_w / np.where(ev_n > 0, ev_n, 1), np.nan)
            ok_eq = np.isfinite(eq) & (reach > 0)
            eq_w = np.bincount(_CLASS_OF, weights=np.where(ok_eq, eq * reach, 0.0), minlength=169)
            eq_n = np.bincount(_CLASS_OF, weights=np.where(ok_eq, reach, 0.0), minlength=169)
            cls_eq = np.where(eq_n > 0, eq_w / np.where(eq_n > 0, eq_n, 1), np.nan)
        strat = None
        mix: list[Any] | None = None
        if who == acting:
            strat = np.nan_to_num(np.asarray(rep["strategy"], dtype=np.float64))
            k = strat.shape[0]
            m = np.full((169, k), np.nan)
            for a in range(k):
                sa = np.bincount(_CLASS_OF, weights=reach * strat[a], minlength=169)
                with np.errstate(invalid="ignore", divide="ignore"):
                    m[:, a] = np.where(wsum > 0, sa / np.where(wsum > 0, wsum, 1), np.nan)
            mix = [None if not np.isfinite(row).all() else _rounded(row) for row in m]
        combos = []
        for c in np.flatnonzero(reach > 1e-9).tolist():
            row: list[Any] = [combo_str(c), int(_CLASS_OF[c]), _r(reach[c], 4), _r(ev[c]), _r(eq[c], 4)]
            if strat is not None:
                row.append(_rounded(strat[:, c]))
            combos.append(row)
        out[who] = {"range_ev": _r(side.get("range_ev")), "range_equity": _r(side.get("range_equity")),
                    "reach": _rounded(mean_reach), "ev": [_r(v) for v in cls_ev.tolist()],
                    "equity": _rounded(cls_eq), "mix": mix, "combos": combos,
                    "combo_count": _r(float(reach.sum()), 5)}
    return out


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

    @app.get("/solver")
    async def solver_page() -> Any:
        return FileResponse(STATIC / "solver.html")

    @app.get("/api/solver/config")
    async def solver_config() -> Any:
        return hub.config()

    @app.post("/api/solver/range")
    async def solver_range(request: Request) -> Any:
        try:
            obj = await body(request)
        except Exception as exc:
            return error(exc)
        return await call(hub.range_grid, obj, thread=True)

    @app.post("/api/solver/tree")
    async def solver_tree(request: Request) -> Any:
        try:
            obj = await body(request)
        except Exception as exc:
            return error(exc)
        return await call(hub.tree, obj, thread=True)

    @app.post("/api/solver/solve")
    async def solver_solve(request: Request) -> Any:
        try:
            obj = await body(request)
        except Exception as exc:
            return error(exc)
        return await call(hub.start, obj, thread=True)

    @app.get("/api/solver/{session}/status")
    async def solver_status(session: str) -> Any:
        return await call(hub.status, session)

    @app.post("/api/solver/{session}/stop")
    async def solver_stop(session: str) -> Any:
        return await call(hub.stop, session)

    @app.post("/api/solver/{session}/node")
    async def solver_node(session: str, request: Request) -> Any:
        try:
            obj = await body(request)
        except Exception as exc:
            return error(exc)
        return await call(hub.node, session, obj, thread=True)

    return app


__all__: Sequence[str] = ("SolverHub", "SolverPageConfig", "SolverPageError", "add_solver_routes",
                          "node_json")
