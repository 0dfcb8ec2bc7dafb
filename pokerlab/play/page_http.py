"""What the play server's JSON pages (the solver, hand review and drill pages) share: their
error type (:class:`PageError`, with its HTTP status), an error as one line, a request
body read under a cap and parsed as one JSON object, the visitor's address, a hub shut
down with the application, and the pages themselves with their shared head
(:func:`page_html`).  Imports without FastAPI (the request and the application are
FastAPI's, used by duck typing)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError

STATIC = Path(__file__).parent / "static"
"""The play server's static files (the pages, their scripts and stylesheets), served under
``/static``."""

_HEAD_LINE = re.compile(r'<!--#head title="([^"<>]*)" css="([\w. -]*)"-->\n')


class PageError(PokerlabError):
    """A request a page refuses; ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def one_line(exc: BaseException) -> str:
    """``exc``'s message on one line (at most 500 characters; its type's name when empty)."""
    text = " ".join(str(exc).split())
    return text[:500] or type(exc).__name__


def json_object(raw: bytes, error: Callable[[str], PokerlabError], *, empty: bool = False
                ) -> dict[str, Any]:
    """The JSON object of a request body (``empty``: an empty body is ``{}``); anything else
    is one ``error(message)``."""
    if empty and not raw:
        return {}
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise error("the request body is not valid JSON: it must be a JSON object") from None
    if not isinstance(obj, dict):
        raise error("the request body must be a JSON object")
    return obj


async def read_capped(request: Any, cap: int, *, what: str = "the request body", status: int = 413,
                      error: Callable[[str, int], PokerlabError] = PageError) -> bytes:
    """The body of ``request`` (a FastAPI request), refused as soon as it is over ``cap``
    bytes (its ``Content-Length`` first): one ``error("WHAT is too large: ...", status)``."""
    n = request.headers.get("content-length")
    if n is not None and n.isdigit() and int(n) > cap:
        raise error(f"{what} is too large: {int(n):,} bytes, at most {cap:,}", status)
    parts: list[bytes] = []
    got = 0
    async for chunk in request.stream():
        got += len(chunk)
        if got > cap:
            raise error(f"{what} is too large: at most {cap:,} bytes", status)
        parts.append(chunk)
    return b"".join(parts)


def client_of(request: Any) -> str:
    """The visitor of a request: its client address (``""`` when unknown)."""
    return str(request.client.host) if request.client is not None else ""


def shut_down_with(app: Any, shutdown: Callable[[], Any]) -> None:
    """Call ``shutdown`` (in a worker thread) when the application ``app`` stops, after
    whatever its lifespan did already."""
    import asyncio
    from contextlib import asynccontextmanager

    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> Any:
        async with inner(a) as state:
            try:
                yield state
            finally:
                await asyncio.to_thread(shutdown)

    app.router.lifespan_context = lifespan


def page_html(name: str) -> str:
    """The page ``static/NAME`` as served: a first line ``<!--#head title="T" css="a.css
    b.css"-->`` becomes the pages' shared head (``static/head.html``: the doctype, the
    viewport, the icon, the shared script) with the title ``T`` and those stylesheets."""
    text = (STATIC / name).read_text(encoding="utf-8")
    m = _HEAD_LINE.match(text)
    if m is None:
        return text
    styles = "\n".join(f'<link rel="stylesheet" href="/static/{css}">' for css in m.group(2).split())
    head = (STATIC / "head.html").read_text(encoding="utf-8")
    return head.replace("{title}", html.escape(m.group(1))).replace("{styles}", styles) + text[m.end():]


__all__ = ("STATIC", "PageError", "client_of", "json_object", "one_line", "page_html", "read_capped",
           "shut_down_with")
