"""The play web server: FastAPI + one WebSocket per browser tab (the ``[web]`` extra).

The server is the only authority: the page sends intentions ("call", "raise to 450"),
the :class:`~pokerlab.play.session.Session` checks and applies them and the server sends
back the table as the person may see it.  The message protocol is in docs/play.md.

Limits (all in :class:`ServerConfig`): a cap on concurrent sessions, idle sessions
expire, each connection has a message-rate limit (token bucket) and a message-size
limit, every message is validated against a small schema, and the agent runs in a
worker thread with a time limit -- a crashed or slow agent ends the hand with an error
and the server carries on.
"""

from __future__ import annotations

import time
from typing import Any

from pokerlab.play.service import (  # noqa: F401 - the server's names, as before
    DEFAULT_AGENTS,
    SCHEMA,
    STATIC,
    Bucket,
    Conn,
    Entry,
    PlayServer,
    ServerConfig,
    SessionManager,
    default_root,
    validate,
)
from pokerlab.play.session import PlayError


def create_app(config: ServerConfig | None = None) -> Any:
    """The FastAPI application (needs the ``[web]`` extra: fastapi, uvicorn)."""
    try:
        from pokerlab.play.web import build_app
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the install
        raise PlayError("the play server needs the web extra: pip install 'pokerlab[web]' "
                        f"({exc.name} is missing)") from None
    from pokerlab.play.solver_routes import add_solver_routes
    return add_solver_routes(build_app(config or ServerConfig()), config)


def serve(config: ServerConfig, *, host: str = "127.0.0.1", port: int = 8000,
          open_browser: bool = False, quiet: bool = False) -> None:
    """Run the server until Ctrl-C (prints the URL)."""
    import threading
    import webbrowser

    import uvicorn

    app = create_app(config)
    url = f"http://{host}:{port}/"
    print(f"pokerlab play: {config.game} against {config.agent!r} at {url}  (Ctrl-C to stop)",
          flush=True)
    if open_browser:
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning" if quiet else "info",
                ws_max_size=max(config.max_message_bytes * 2, 16384))


class BackgroundServer:
    """Run the play server in a background thread on a free loopback port (tests, bench).

    ``with BackgroundServer(config) as url: ...`` -- ``url`` is ``http://127.0.0.1:PORT``.
    """

    def __init__(self, config: ServerConfig, *, host: str = "127.0.0.1") -> None:
        self.config = config
        self.host = host
        self.app: Any = None
        self._server: Any = None
        self._thread: Any = None
        self.url = ""

    def __enter__(self) -> str:
        import socket
        import threading

        import uvicorn

        self.app = create_app(self.config)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        port = sock.getsockname()[1]
        cfg = uvicorn.Config(self.app, log_level="warning", lifespan="on",
                             ws_max_size=max(self.config.max_message_bytes * 2, 16384))
        self._server = uvicorn.Server(cfg)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]},
                                        daemon=True)
        self._thread.start()
        for _ in range(2000):
            if self._server.started:
                break
            time.sleep(0.01)
        if not self._server.started:
            raise PlayError("the play server did not start")
        self.url = f"http://{self.host}:{port}"
        return self.url

    def __exit__(self, *exc: Any) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
