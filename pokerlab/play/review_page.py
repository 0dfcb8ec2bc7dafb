"""The hand review page of the play server: ``/review`` and the JSON API under ``/api/review``.

A visitor uploads a hand-history file (PHH / PHHS or PokerStars text, at most
``max_upload_bytes`` and ``max_hands`` hands), picks the hero among the players found, and
the server runs :func:`pokerlab.hands.review.review_hands` on it as the visitor's one
background job (a thread; ``max_running`` jobs at once in all).  The page polls the
progress (hands done of the hands to review) and, once done, shows the decisions (hand,
street, action, best action, EV loss in bb and % of the pot, the solution's mix for the
hand), sortable, with the totals per street and per situation.  A job nobody polls for
``unwatched_seconds`` (its page was closed) is stopped after the hand being solved.

Routes (every error is ``{"error": "one line"}``: 400 bad input, 404 unknown upload or
job, 409 a job already running for this visitor, 413 a file too large, 503 the server
is at its limit):

* ``GET /review``: the page (``static/review.html``, ``review.js``, ``review.css``);
* ``GET /api/review/config``: the limits and defaults;
* ``POST /api/review/upload`` (the file as the body, its name in ``X-File-Name``): the
  upload's token, the hands read, the hands refused and the players with their hand counts;
* ``POST /api/review/start`` ``{"upload", "hero", "iterations", "replace"}``: starts the
  review (``replace``: stop this visitor's running job first), returns its status;
* ``GET /api/review/{job}/status``: state, hands done and to do, and when finished the
  ``report`` (:func:`page_report`);
* ``POST /api/review/{job}/stop``.

The logic (:class:`ReviewHub`) imports without FastAPI; :func:`add_review_routes` adds the
routes to the play application.
"""

from __future__ import annotations

import math
import re
import secrets
import shutil
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.play.page_http import (
    PageError,
    client_of,
    json_object,
    one_line,
    page_html,
    read_capped,
    shut_down_with,
)

try:  # FastAPI resolves the route annotations from this module's globals
    from fastapi import Request
except ModuleNotFoundError:  # pragma: no cover - the web extra is missing
    Request = Any  # type: ignore[misc,assignment]

TOKEN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class ReviewPageError(PageError):
    """A request the review page refuses (``status``: the HTTP status)."""


@dataclass(frozen=True, kw_only=True)
class ReviewPageConfig:
    """The review page's limits."""

    max_upload_bytes: int = 512 * 1024
    max_hands: int = 200
    max_iterations: int = 200
    default_iterations: int = 35
    unwatched_seconds: float = 30.0
    max_running: int = 2
    max_uploads_per_client: int = 4
    max_body_bytes: int = 4096


@dataclass
class Upload:
    token: str
    owner: str
    folder: Path
    path: Path
    name: str
    hands: int
    rejected: int
    players: list[tuple[str, int]]


@dataclass
class ReviewJob:
    jid: str
    owner: str
    upload: str
    hero: str
    iterations: int
    state: str = "starting"  # starting, running, done, stopped, failed
    done: int = 0
    total: int = 0
    message: str = ""
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    last_access: float = field(default_factory=time.monotonic)
    report: dict[str, Any] | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    @property
    def active(self) -> bool:
        return self.state in ("starting", "running")

    def status(self) -> dict[str, Any]:
        end = self.finished if self.finished is not None else time.monotonic()
        out: dict[str, Any] = {"job": self.jid, "state": self.state, "hero": self.hero,
                               "iterations": self.iterations, "done": self.done, "total": self.total,
                               "elapsed": round(end - self.started, 2), "message": self.message}
        if self.report is not None:
            out["report"] = self.report
        return out


def _num(x: Any) -> float | None:
    v = float(x)
    return v if math.isfinite(v) else None


def page_report(rep: dict[str, Any], source: tuple[str, str] | None = None) -> dict[str, Any]:
    """What the page shows of a :func:`~pokerlab.hands.review.review_hands` report: the
    decisions (numbered in file order), the totals per street (flop, turn, river) and per
    situation, the mean with its 95% interval, the skipped hands.  ``source``: (the file's
    path on the server, the uploaded name), the name shown instead of the path."""
    rows = []
    for i, d in enumerate(rep["decisions"]):
        hand = str(d["hand"])
        if source is not None:
            hand = hand.replace(source[0], source[1])
        rows.append({"n": i + 1, "hand": hand, "player": d["player"], "street": d["street"],
                     "situation": d["situation"], "board": d["board"], "cards": d["cards"],
                     "action": d["action"], "best_action": d["best_action"],
                     "ev_loss_bb": _num(d["ev_loss_bb"]), "ev_loss_pct_pot": _num(d["ev_loss_pct_pot"]),
                     "pot_bb": _num(d["pot_bb"]),
                     "mix": {k: _num(v) for k, v in d["mix"].items()}})

    def clean(g: dict[str, Any]) -> dict[str, Any]:
        return {"decisions": g["decisions"], "total": _num(g["total"]), "mean": _num(g["mean"]),
                "ci95": [_num(x) for x in g["ci95"]]}

    return {"hands": rep["hands"], "hands_reviewed": rep["hands_reviewed"], "reviewed": rep["reviewed"],
            "skipped": rep["skipped"], "ev_loss_bb": clean(rep["ev_loss_bb"]),
            "by_street": {k: clean(rep["by_street"][k]) for k in ("flop", "turn", "river")
                          if k in rep["by_street"]},
            "by_situation": {k: clean(v) for k, v in rep["by_situation"].items()},
            "decisions": rows, "tree": rep["tree"], "stopped": bool(rep.get("stopped", False))}


class ReviewHub:
    """Uploads and review jobs (thread-safe)."""

    def __init__(self, cfg: ReviewPageConfig | None = None) -> None:
        self.cfg = cfg or ReviewPageConfig()
        self.lock = threading.Lock()
        self.uploads: dict[str, Upload] = {}
        self.jobs: dict[str, ReviewJob] = {}

    def config(self) -> dict[str, Any]:
        c = self.cfg
        return {"max_upload_bytes": c.max_upload_bytes, "max_hands": c.max_hands,
                "max_iterations": c.max_iterations, "default_iterations": c.default_iterations,
                "unwatched_seconds": c.unwatched_seconds}

    # ----------------------------------------------------------------------- uploads
    def upload(self, raw: bytes, name: str = "", client: str = "") -> dict[str, Any]:
        """Read an uploaded hand-history file; refused when empty, too large, of no hand,
        or of more than ``max_hands`` hands."""
        from pokerlab.hands.hand_files import iter_file_text
        from pokerlab.hands.model import RawHand

        c = self.cfg
        if len(raw) > c.max_upload_bytes:
            raise ReviewPageError(f"the file is too large: {len(raw):,} bytes, at most "
                                  f"{c.max_upload_bytes:,}", 413)
        if not raw.strip():
            raise ReviewPageError("the file is empty")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        stars = text.lstrip().startswith("PokerStars ")
        label = re.sub(r"[^A-Za-z0-9_. -]", "_", name)[:80] or "upload"
        hands = 0
        rejected = 0
        counts: Counter[str] = Counter()
        for item in iter_file_text(text, "pokerstars" if stars else "phh", label):
            if isinstance(item, RawHand):
                hands += 1
                counts.update(set(item.players or []))
                if hands > c.max_hands:
                    raise ReviewPageError(f"the file has more than {c.max_hands} hands: review a "
                                          "smaller file on the page, or all of it with `pokerlab review`")
            else:
                rejected += 1
        if hands == 0:
            raise ReviewPageError(f"no hand could be read from {label!r} ({rejected} refused): a PHH "
                                  "or PokerStars hand history is expected")
        if not counts:
            raise ReviewPageError(f"the hands of {label!r} name no players: the hero cannot be chosen")
        folder = Path(tempfile.mkdtemp(prefix="pokerlab-review-"))
        path = folder / ("hands.txt" if stars else "hands.phhs")
        path.write_text(text, encoding="utf-8")
        up = Upload(token=secrets.token_urlsafe(12), owner=client, folder=folder, path=path, name=label,
                    hands=hands, rejected=rejected,
                    players=sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        with self.lock:
            mine = [u for u in self.uploads.values() if u.owner == client]
            while len(mine) >= c.max_uploads_per_client:  # this visitor's oldest upload goes
                old = mine.pop(0)
                if any(j.upload == old.token and j.active for j in self.jobs.values()):
                    break
                self.uploads.pop(old.token, None)
                shutil.rmtree(old.folder, ignore_errors=True)
            self.uploads[up.token] = up
        return {"upload": up.token, "name": up.name, "hands": hands, "rejected": rejected,
                "players": [{"name": n, "hands": k} for n, k in up.players]}

    # -------------------------------------------------------------------------- jobs
    def start(self, obj: dict[str, Any], client: str = "") -> dict[str, Any]:
        c = self.cfg
        unknown = set(obj) - {"upload", "hero", "iterations", "replace"}
        if unknown:
            raise ReviewPageError(f"unknown field {sorted(unknown)[0]!r}")
        token = obj.get("upload")
        if not isinstance(token, str) or not TOKEN.match(token):
            raise ReviewPageError("missing or bad field 'upload'")
        hero = obj.get("hero")
        if not isinstance(hero, str) or not hero:
            raise ReviewPageError("missing field 'hero'")
        it = obj.get("iterations", c.default_iterations)
        if isinstance(it, bool) or not isinstance(it, int):
            raise ReviewPageError("'iterations' must be an integer")
        if not 1 <= it <= c.max_iterations:
            raise ReviewPageError(f"'iterations' must be in 1..{c.max_iterations}, got {it}")
        with self.lock:
            up = self.uploads.get(token)
            if up is None:
                raise ReviewPageError("unknown or expired upload: upload the file again", 404)
            if hero not in {n for n, _ in up.players}:
                raise ReviewPageError(f"{hero!r} is in none of the hands of {up.name!r}")
            mine = [j for j in self.jobs.values() if j.owner == client and j.active]
            if mine and not obj.get("replace"):
                raise ReviewPageError("a review is already running for you: stop it first", 409)
            for j in mine:
                j.stop.set()
                j.message = "stopped: replaced by a new review"
            running = sum(1 for j in self.jobs.values() if j.active and j not in mine)
            if running >= c.max_running:
                raise ReviewPageError(f"the server is reviewing {running} files: try again later", 503)
            for jid in [k for k, j in self.jobs.items() if j.owner == client and not j.active]:
                self.jobs.pop(jid)  # this visitor's finished job goes
            job = ReviewJob(jid=secrets.token_urlsafe(12), owner=client, upload=token, hero=hero,
                            iterations=it)
            self.jobs[job.jid] = job
            job.total = up.hands
            job.thread = threading.Thread(target=self._run, args=(job, up.path, up.name), daemon=True,
                                          name=f"review-{job.jid[:6]}")
            job.thread.start()
            return job.status()

    def _run(self, job: ReviewJob, path: Path, name: str) -> None:
        from pokerlab.hands.review import review_hands
        from pokerlab.hands.review_spot import ReviewConfig

        c = self.cfg

        def on_hand(done: int, total: int) -> None:
            job.done, job.total = done, total

        def stop() -> bool:
            if not job.stop.is_set() and time.monotonic() - job.last_access > c.unwatched_seconds:
                job.message = (f"stopped: nobody looked at this review for {c.unwatched_seconds:g} s "
                               "(its page was closed)")
                job.stop.set()
            return job.stop.is_set()

        job.state = "running"
        try:
            rep = review_hands([path], [job.hero], cfg=ReviewConfig(iterations=job.iterations),
                               on_hand=on_hand, stop=stop)
            job.report = page_report(rep, (str(path), name))
            job.state = "stopped" if rep.get("stopped") else "done"
            if job.state == "done":
                job.message = (f"{rep['reviewed']} decisions in {rep['hands_reviewed']} hands"
                               if rep["reviewed"] else "no decision could be reviewed: "
                               + (", ".join(f"{k} {v}" for k, v in rep["skipped"].items()) or "no hand"))
        except PokerlabError as exc:
            job.state = "failed"
            job.message = " ".join(str(exc).split())[:500]
        except Exception as exc:  # noqa: BLE001 - shown on the page as one line, never a traceback
            job.state = "failed"
            job.message = f"internal error: {type(exc).__name__}"
        finally:
            job.finished = time.monotonic()

    def get(self, jid: str) -> ReviewJob:
        if not TOKEN.match(jid):
            raise ReviewPageError("unknown review job", 404)
        with self.lock:
            job = self.jobs.get(jid)
        if job is None:
            raise ReviewPageError("unknown or expired review job", 404)
        return job

    def status(self, jid: str) -> dict[str, Any]:
        job = self.get(jid)
        job.last_access = time.monotonic()
        return job.status()

    def stop(self, jid: str) -> dict[str, Any]:
        job = self.get(jid)
        if job.active:
            job.message = "stopped: asked to stop (after the hand being solved)"
            job.stop.set()
        return job.status()

    def shutdown(self, timeout: float = 5.0) -> None:
        with self.lock:
            jobs = list(self.jobs.values())
            ups = list(self.uploads.values())
        for j in jobs:
            j.stop.set()
        for j in jobs:
            if j.thread is not None:
                j.thread.join(timeout)
        for u in ups:
            shutil.rmtree(u.folder, ignore_errors=True)


def add_review_routes(app: Any, *, hub: ReviewHub | None = None) -> Any:
    """Add the review page (``/review``) and its JSON API to the play application ``app``."""
    import asyncio

    from fastapi.responses import HTMLResponse, JSONResponse

    h = hub if hub is not None else ReviewHub()
    app.state.review = h
    shut_down_with(app, h.shutdown)

    def error(exc: BaseException) -> Any:
        status = exc.status if isinstance(exc, ReviewPageError) else 400
        return JSONResponse({"error": one_line(exc)}, status_code=status)

    async def run(fn: Any, *args: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args)
        except (PokerlabError, OSError) as exc:
            return error(exc)

    async def read(request: Request, cap: int) -> bytes:
        return await read_capped(request, cap, what="the request", error=ReviewPageError)

    @app.get("/review")
    async def review_page() -> Any:
        return HTMLResponse(page_html("review.html"))

    @app.get("/api/review/config")
    async def review_config() -> Any:
        return h.config()

    @app.post("/api/review/upload")
    async def review_upload(request: Request) -> Any:
        try:
            raw = await read(request, h.cfg.max_upload_bytes)
        except ReviewPageError as exc:
            return error(exc)
        return await run(h.upload, raw, request.headers.get("x-file-name", ""), client_of(request))

    @app.post("/api/review/start")
    async def review_start(request: Request) -> Any:
        try:
            obj = json_object(await read(request, h.cfg.max_body_bytes), ReviewPageError)
        except ReviewPageError as exc:
            return error(exc)
        return await run(h.start, obj, client_of(request))

    @app.get("/api/review/{job}/status")
    async def review_status(job: str) -> Any:
        return await run(h.status, job)

    @app.post("/api/review/{job}/stop")
    async def review_stop(job: str) -> Any:
        return await run(h.stop, job)

    return app


__all__ = ("ReviewHub", "ReviewJob", "ReviewPageConfig", "ReviewPageError", "add_review_routes",
           "page_report")
