"""The flop reports of the solver page (:class:`ReportRuns`, a base class of
:class:`~pokerlab.play.solver_page.SolverHub`): one spot template solved over a set of
flops in the background, its status (the table so far, filtered by texture) and stop."""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.play.solver_fields import (
    REPORT_FIELDS,
    SolverPageConfig,
    SolverPageError,
    check_fields,
    one_line,
    template_from_fields,
)
from pokerlab.play.solver_jobs import Job, ReportJob
from pokerlab.play.solver_report import clean
from pokerlab.subgame.flops import SET_SIZES

log = logging.getLogger(__name__)


class ReportRuns:
    """Reports of :class:`~pokerlab.play.solver_page.SolverHub`: the state and the helpers
    named here are the hub's."""

    cfg: SolverPageConfig
    jobs: dict[str, Job]
    reports: dict[str, ReportJob]
    mu: threading.Lock
    closed: bool
    estimate: Callable[..., Any]
    _expire: Callable[[], None]
    _check_running: Callable[[str], None]
    _make_room: Callable[[int], None]

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

        from pokerlab.subgame import aggregate as agg
        from pokerlab.subgame.spot import SpotError

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
