"""The flop reports of the solver page (:class:`ReportRuns`, a base class of
:class:`~pokerlab.play.solver_page.SolverHub`): one spot template solved over a set of
flops in the background, its status (the table so far, filtered by texture) and stop."""

from __future__ import annotations

import logging
import os
import secrets
import threading
from collections.abc import Callable
from typing import Any

from pokerlab.play.page_http import one_line
from pokerlab.play.solver_fields import (
    REPORT_FIELDS,
    SolverPageConfig,
    SolverPageError,
    check_fields,
    check_iterations,
    check_target,
    template_from_fields,
)
from pokerlab.play.solver_jobs import Job, ReportJob, end_job, failure_message, over_limits, run_in_thread
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
    _lookup: Callable[..., Any]

    # ----------------------------------------------------------------- the flop report
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
        tpl = template_from_fields(f, target=check_target(f, c), iterations=check_iterations(f, c))
        flops, terms = self.report_flops(f.get("flops"), f.get("texture"))
        tpl.tree()  # a bad size: one line before the tree is counted
        # the betting tree is the same on every flop (pot and stack only): counted once under the caps
        self.estimate(tpl.spot(flops[0].board), tpl.compress)
        try:
            memory = agg.check_memory(tpl, flops, c.max_memory)
        except SpotError as exc:
            msg = one_line(exc).replace("over --max-memory", "over the server's limit of").replace(
                "; --cold needs less", "")
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
        run_in_thread(job, self._report_loop, f"report-{job.report[:6]}")
        return job.status()

    def get_report(self, rid: str) -> ReportJob:
        job: ReportJob = self._lookup(self.reports, rid, "flop report: run the report again")
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
        from pokerlab.subgame.warm import flop_chains

        c = self.cfg
        state, reason = "done", "done"
        try:
            # the chains of `spot report` (flops of one shape in turn, each warm-started
            # from the one before): the same rows as the command; shown in the set's order
            place = {f.board: i for i, f in enumerate(job.flops)}
            chains = flop_chains(job.flops) if job.template.warm else [[f] for f in job.flops]
            order = [(f, i == 0) for chain in chains for i, f in enumerate(chain)]
            source = None
            for flop, first in order:
                if job.stop.is_set() or self.closed:
                    state, reason = "stopped", "stopped"
                    break
                limit = over_limits(job, job.max_seconds, c.unwatched_seconds, "report")
                if limit:
                    state, reason = "stopped", limit
                    break
                job.current = flop.board
                row, source = agg.solve_flop_warm(agg.FlopTask(template=job.template, board=flop.board,
                                                               threads=job.threads),
                                                  None if first else source)
                job.rows.append(clean(agg.full_row(row, flop)))
                job.rows.sort(key=lambda r: place[r["board"]])
            if state == "stopped" and not job.message:
                job.message = f"stopped after {len(job.rows)} of {len(job.flops)} flops"
        except MemoryError:
            state, reason = "error", "error"
            job.message = "not enough memory for this spot on the server"
        except Exception as exc:  # the page gets one line; the log gets the traceback
            log.exception("flop report %s failed", job.report[:6])
            state, reason = "error", "error"
            job.message = failure_message(exc)
        finally:
            job.current = None
            end_job(job, state, reason)
