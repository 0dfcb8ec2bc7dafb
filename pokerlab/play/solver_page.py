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
from typing import Any

import numpy as np

from pokerlab.cards.cards import CLASS_NAMES, NUM_COMBOS
from pokerlab.errors import PokerlabError
from pokerlab.play.solver_fields import (
    LOCK_FIELDS,
    SOLVE_FIELDS,
    SPOT_FIELDS,
    SolverPageConfig,
    SolverPageError,
    check_fields,
    check_iterations,
    check_target,
    spot_from_fields,
)
from pokerlab.play.solver_jobs import (
    Job,
    ReportJob,
    after_deal,
    end_job,
    failure_message,
    hands_mask,
    lock_mix,
    lock_public,
    merged_locks,
    over_limits,
    run_in_thread,
)
from pokerlab.play.solver_page_files import SpotFiles
from pokerlab.play.solver_page_reports import ReportRuns
from pokerlab.play.solver_report import (
    CLASS_OF,
    charts_page_json,
    classes_json,
    node_json,
    num,
    nums,
    runouts_json,
)
from pokerlab.subgame.flops import SET_SIZES

log = logging.getLogger(__name__)

_SESSION = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_CLASS_SIZE = np.bincount(CLASS_OF, minlength=169).astype(np.float64)


class SolverHub(ReportRuns, SpotFiles):
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
        target = check_target(f, c)
        iters = check_iterations(f, c)
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

        return self._launch(job, SolveConfig(algo="rdcfr", compress=compress))

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
        run_in_thread(job, self._loop, f"solve-{job.session[:6]}")
        return job.status()

    def _lookup(self, table: dict[str, Any], key: str, what: str) -> Any:
        """``table[key]`` (a solve or a report) seen now; one 404 naming ``what`` when it is
        unknown or has expired."""
        with self.mu:
            self._expire()
            job = table.get(key) if isinstance(key, str) else None
            if job is None:
                raise SolverPageError(f"unknown or expired {what}", 404)
            job.last_access = time.monotonic()
            return job

    def get(self, sid: str) -> Job:
        job: Job = self._lookup(self.jobs, sid, "solve session: solve the spot again")
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
        target = check_target(f, c)
        old = self._solved(sid)
        iters = check_iterations(f, c, old.max_iterations if old.source != "loaded" else None)
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
        dealt = any(len(lk["path"]) and after_deal(s, lk["path"]) for lk in locks)
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
                limit = over_limits(job, cfg.max_seconds, cfg.unwatched_seconds, "solve")
                if limit:
                    reason = limit
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
            job.message = failure_message(exc)
        finally:
            end_job(job, state, reason)

    def shutdown(self, timeout: float = 5.0) -> None:
        self.closed = True
        with self.mu:
            jobs: list[Job | ReportJob] = [*self.jobs.values(), *self.reports.values()]
        for j in jobs:
            j.stop.set()
        for j in jobs:
            if j.thread is not None:
                j.thread.join(timeout=timeout)


__all__: Sequence[str] = ("SolverHub", "SolverPageConfig", "SolverPageError", "node_json")
