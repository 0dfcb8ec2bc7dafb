"""The FastAPI routes of the play server (imported only with the ``[web]`` extra).

Kept apart from :mod:`pokerlab.play.server` so that the protocol logic imports without
FastAPI; FastAPI resolves the route annotations from this module's globals.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from pokerlab.errors import PokerlabError
from pokerlab.play.page_http import STATIC, page_html
from pokerlab.play.service import Bucket, Conn, PlayServer, ServerConfig, validate
from pokerlab.play.session import PlayError


def build_app(cfg: ServerConfig) -> FastAPI:
    """The FastAPI application of :mod:`pokerlab.play.server`."""
    server = PlayServer(cfg)

    @asynccontextmanager
    async def lifespan(app: Any) -> Any:
        async def sweeper() -> None:
            while True:
                await asyncio.sleep(min(30.0, max(0.05, min(cfg.idle_seconds,
                                                            cfg.grace_seconds) / 4)))
                server.manager.expire()

        def warm() -> None:
            """Solve the configured small game's equilibrium and list the shipped games now,
            so that the first page does not wait for them."""
            from pokerlab.play.registry import is_equilibrium, table_spec

            try:
                cfg.allowed_games()
                spec = table_spec(cfg.game)
                if spec.solves_equilibrium and (
                        not spec.checked or is_equilibrium(cfg.small_agent)):
                    from pokerlab.play.opponents import small_game_equilibrium

                    small_game_equilibrium(cfg.game)
            except Exception:  # the page reports any error when it starts the game
                pass

        task = asyncio.create_task(sweeper())
        asyncio.get_running_loop().run_in_executor(server.pool, warm)
        try:
            yield
        finally:
            task.cancel()
            server.pool.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="pokerlab play", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.play = server

    @app.get("/api/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/api/config")
    async def api_config() -> dict[str, Any]:
        from pokerlab.play.agent_pool import strengths

        agents = cfg.allowed_agents()
        return {"game": cfg.game, "agent": cfg.agent, "stack": cfg.stack,
                "carry": cfg.carry_stacks, "games": cfg.allowed_games(), "agents": agents,
                "strengths": strengths(agents), "grace_seconds": cfg.grace_seconds,
                "max_sessions_per_client": cfg.max_sessions_per_client}

    @app.get("/api/session/{sid}/hands.phhs")
    async def download(sid: str) -> Any:
        entry = server.manager.sessions.get(sid)
        if entry is None:
            return JSONResponse({"error": "unknown or expired session"}, status_code=404)
        try:
            async with entry.lock:  # a long session's PHH is CPU work: off the event loop
                text = await server.work(partial(entry.session.phh_text, mask_hidden=True))
        except PlayError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return PlainTextResponse(text, headers={
            "Content-Disposition": 'attachment; filename="pokerlab-session.phhs"'})

    @app.get("/")
    async def index() -> Any:
        return HTMLResponse(page_html("index.html"))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        bucket = Bucket(cfg.rate_per_second, cfg.rate_burst)
        strikes = 0

        async def send(obj: dict[str, Any]) -> None:
            await websocket.send_text(json.dumps(obj, separators=(",", ":")))

        client = websocket.client.host if websocket.client is not None else ""
        conn = Conn(send=send, client=str(client))

        try:
            while True:
                raw = await websocket.receive_text()
                server.messages_in += 1
                if not bucket.take():
                    strikes += 1
                    await send({"type": "error", "message": "rate limit: too many messages; "
                                "slow down"})
                    if strikes > 100:
                        await websocket.close(code=1008)
                        return
                    continue
                req = None
                try:
                    msg = validate(raw, cfg.max_message_bytes)
                    req = msg.get("id")
                    await server.handle(msg, conn)
                except PokerlabError as exc:
                    err: dict[str, Any] = {"type": "error", "message": str(exc)}
                    if isinstance(req, (int, str)):
                        err["id"] = req
                    code = getattr(exc, "code", "")
                    if code:
                        err["code"] = code
                    await send(err)
        except WebSocketDisconnect:
            return
        finally:
            server.disconnect(conn)

    from pokerlab.play.drill_library import add_drill_routes
    add_drill_routes(app)  # the drill page (/drill) and its API
    from pokerlab.play.review_page import add_review_routes
    add_review_routes(app)  # the hand review page (/review) and its API
    return app


