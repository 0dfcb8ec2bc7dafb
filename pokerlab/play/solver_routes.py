"""The HTTP routes of the solver page (``/solver`` and its ``/api/solver/...`` API) on the
play application: each request checked and rate limited, then answered by the
:class:`~pokerlab.play.solver_page.SolverHub` (long calls on a worker thread)."""

from __future__ import annotations

import logging
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.play.page_http import client_of, json_object, one_line, page_html, read_capped, shut_down_with
from pokerlab.play.solver_fields import SolverPageConfig, SolverPageError
from pokerlab.play.solver_page import SolverHub

try:  # FastAPI resolves the route annotations from this module's globals
    from fastapi import Request
except ModuleNotFoundError:  # pragma: no cover - the web extra is missing
    Request = Any  # type: ignore[misc,assignment]

log = logging.getLogger(__name__)


def add_solver_routes(app: Any, server_config: Any = None, *, config: SolverPageConfig | None = None) -> Any:
    """Add the solver page and its API to the play application ``app`` (returns it)."""
    import asyncio

    from fastapi.responses import HTMLResponse, JSONResponse, Response

    cfg = config or SolverPageConfig.from_server(server_config)
    hub = SolverHub(cfg)
    app.state.solver = hub
    shut_down_with(app, hub.shutdown)

    def error(exc: BaseException) -> Any:
        if isinstance(exc, SolverPageError):
            return JSONResponse({"error": one_line(exc)}, status_code=exc.status)
        if isinstance(exc, PokerlabError):
            return JSONResponse({"error": one_line(exc)}, status_code=400)
        log.exception("solver page request failed")
        return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    async def body(request: Request) -> dict[str, Any]:
        raw = await read_capped(request, cfg.max_body_bytes, status=400, error=SolverPageError)
        return json_object(raw, SolverPageError, empty=True)

    async def call(fn: Any, *args: Any, thread: bool = False) -> Any:
        try:
            if thread:
                return await asyncio.to_thread(fn, *args)
            return fn(*args)
        except Exception as exc:
            return error(exc)

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
        return HTMLResponse(page_html("solver.html"))

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
        try:
            raw = await read_capped(request, min(cfg.max_upload_bytes, cfg.max_memory),
                                    what="the uploaded file", error=SolverPageError)
        except SolverPageError as exc:
            return error(exc)
        return await call(hub.load_bytes, raw, client_of(request), thread=True)

    return app
