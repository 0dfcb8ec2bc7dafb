"""The drill library: a few solved turn spots from the shipped blueprints' preflop lines,
built deterministically on first use into the user's data folder.

Each spot's ranges are the ranges a preflop line of a shipped blueprint hands to the flop
(:func:`pokerlab.blueprint.charts.preflop_charts`: the big blind out of position, the
button in position), in the blueprint's chips (big blind 100), on a turn board, with one
bet size (75% of the pot) and one raise size (3x) per street and at most a bet and a raise
per street.  Each is solved single-threaded (so that every build gives the same file) by
Discounted CFR to :data:`TARGET_PCT` % of the pot (at most :data:`MAX_ITERATIONS`
iterations), its regrets and strategy sums stored in 16 bits (``--compress``: about 17 MB
a spot), and saved in the ``pokerlab spot solve --out`` format under
``data_dir()/drills/library/``.  A drill is a spot and a decision node (``check``,
``bet``: an action name or its first word, resolved on the solved tree); several drills
share a spot.

The drill page of ``pokerlab play`` (``/drill``) is served from here (:class:`DrillHub`,
:func:`add_drill_routes`): it offers the library's drills and the spots saved in the drill
folder (``data_dir()/drills/*.npz``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.play.drills import Drill, DrillError, DrillSession, DrillStore, drill_dir, load_drill
from pokerlab.play.page_http import json_object, one_line, page_html

LIBRARY_VERSION = 1
TARGET_PCT = 0.3
MAX_ITERATIONS = 400


@dataclass(frozen=True, kw_only=True)
class LibrarySpot:
    """A spot of the library: a blueprint's preflop line (its text in the charts) at a
    stack, a turn board, the bet and raise sizes."""

    key: str
    stack_bb: float
    line: str
    board: str
    bets: str = "75%"
    raises: str = "3x"
    raise_cap: int = 2

    @property
    def file_name(self) -> str:
        return f"{self.key}-v{LIBRARY_VERSION}.npz"


@dataclass(frozen=True, kw_only=True)
class LibraryDrill:
    """A drill of the library: a spot and the node where the player acts."""

    name: str
    spot: str
    node: tuple[str, ...]
    label: str


SRP = "SB raise 2.5bb, BB call"
THREE_BET = "SB raise 2.5bb, BB raise 10bb, SB call"

SPOTS: dict[str, LibrarySpot] = {s.key: s for s in (
    LibrarySpot(key="srp-K72-5", stack_bb=100.0, line=SRP, board="Kh7d2c5s"),
    LibrarySpot(key="srp-T98-3", stack_bb=100.0, line=SRP, board="Td9d8c3h"),
    LibrarySpot(key="3bp-A83-J", stack_bb=100.0, line=THREE_BET, board="As8h3dJc"),
    LibrarySpot(key="3bp-654-K", stack_bb=100.0, line=THREE_BET, board="6h5h4cKd"),
    LibrarySpot(key="srp200-Q84-2", stack_bb=200.0, line=SRP, board="Qs8d4c2h"),
)}

DRILLS: dict[str, LibraryDrill] = {d.name: d for d in (
    LibraryDrill(name="srp-K72-5-oop", spot="srp-K72-5", node=(),
                 label="single-raised pot, K72r5 turn: out of position, first to act"),
    LibraryDrill(name="srp-K72-5-ip", spot="srp-K72-5", node=("check",),
                 label="single-raised pot, K72r5 turn: in position after a check"),
    LibraryDrill(name="srp-T98-3-oop", spot="srp-T98-3", node=("check", "bet"),
                 label="single-raised pot, T98 two-tone turn: out of position facing a bet"),
    LibraryDrill(name="srp-T98-3-ip", spot="srp-T98-3", node=("check",),
                 label="single-raised pot, T98 two-tone turn: in position after a check"),
    LibraryDrill(name="3bp-A83-J-oop", spot="3bp-A83-J", node=(),
                 label="3-bet pot, A83r J turn: out of position (the 3-bettor), first to act"),
    LibraryDrill(name="3bp-A83-J-ip", spot="3bp-A83-J", node=("bet",),
                 label="3-bet pot, A83r J turn: in position facing a bet"),
    LibraryDrill(name="3bp-654-K-ip", spot="3bp-654-K", node=("check",),
                 label="3-bet pot, 654 two-tone K turn: in position after a check"),
    LibraryDrill(name="srp200-Q84-2-ip", spot="srp200-Q84-2", node=("bet",),
                 label="single-raised pot at 200 bb, Q84r 2 turn: in position facing a bet"),
)}


def library_dir() -> Path:
    p = drill_dir() / "library"
    p.mkdir(parents=True, exist_ok=True)
    return p


def spot_path(key: str) -> Path:
    return library_dir() / SPOTS[key].file_name


def is_built(key: str) -> bool:
    return spot_path(key).is_file()


def unknown(name: str) -> DrillError:
    return DrillError(f"unknown spot {name!r}: not a file, and not a library spot (the library: "
                      f"{', '.join(DRILLS)})")


def build_spot(key: str, *, progress: Callable[[int, float | None], None] | None = None) -> Path:
    """Solve and save the library spot ``key`` (module docstring); returns its file."""
    from pokerlab.blueprint.charts import preflop_charts
    from pokerlab.subgame import SolveConfig, SpotSolver, make_spot, tree_config

    s = SPOTS[key]
    charts = preflop_charts(s.stack_bb, depth=3)
    lines = [f for f in charts.flops if f.line == s.line]
    if not lines:
        raise DrillError(f"the {s.stack_bb:g} bb blueprint has no preflop line {s.line!r}")
    f = lines[0]
    spot = make_spot(board=s.board, pot=f.pot, stack=f.stack, oop=f.reach[0], ip=f.reach[1],
                     tree=tree_config(bets=s.bets, raises=s.raises, raise_cap=s.raise_cap),
                     big_blind=f.big_blind)
    solver = SpotSolver(spot, SolveConfig(compress=True), threads=1)
    solver.solve(iterations=MAX_ITERATIONS, target_pct=TARGET_PCT, callback=progress)
    out = spot_path(key)
    solver.save(out)
    return out


def ensure_built(keys: list[str] | None = None, *,
                 progress: Callable[[str, int, int], None] | None = None) -> list[Path]:
    """Build the library spots ``keys`` (default: all) that are not built yet;
    ``progress(key, done, total)`` after each."""
    todo = list(SPOTS) if keys is None else keys
    out = []
    for i, key in enumerate(todo):
        if not is_built(key):
            build_spot(key)
        out.append(spot_path(key))
        if progress is not None:
            progress(key, i + 1, len(todo))
    return out


def resolve_node(solver: Any, tokens: tuple[str, ...]) -> str:
    """The node path of ``tokens`` on the solved tree: each token an action's name or its
    first word (``bet``: the first bet there)."""
    names: list[str] = []
    node = 0
    tr = solver.tree
    for tok in tokens:
        acts = list(tr.action_names[node])
        hit = [i for i, a in enumerate(acts) if a == tok] or [i for i, a in enumerate(acts)
                                                              if a.split(" ")[0] == tok]
        if not hit:
            raise DrillError(f"library node {','.join(tokens)!r}: no action {tok!r} among {', '.join(acts)}")
        names.append(acts[hit[0]])
        node = int(tr.child(node, hit[0]))
    return ",".join(names)


def library_entries() -> list[dict[str, Any]]:
    """The library's drills with whether their spot is built."""
    return [{"name": d.name, "label": d.label, "spot": d.spot, "built": is_built(d.spot),
             "stack_bb": SPOTS[d.spot].stack_bb, "line": SPOTS[d.spot].line, "board": SPOTS[d.spot].board}
            for d in DRILLS.values()]


def open_library_drill(name: str, *, node: str | None = None,
                       progress: Callable[[int, float | None], None] | None = None) -> Any:
    """The :class:`~pokerlab.play.drills.Drill` of library drill ``name`` (its spot built
    first when needed), at its node or at ``node``."""
    from pokerlab.subgame import SpotSolver

    d = DRILLS.get(name)
    if d is None:
        raise unknown(name)
    if not is_built(d.spot):
        build_spot(d.spot, progress=progress)
    solver = SpotSolver.load(spot_path(d.spot))
    path = resolve_node(solver, d.node) if node is None else node
    return Drill(solver, name=name, node=path)


# ---------------------------------------------------------------------------- the drill page
class DrillHub:
    """The drill page's state: the drills loaded (by spot and node), the sessions of the
    page's visitors (at most ``max_sessions``; the idlest goes first), one store."""

    def __init__(self, *, db: str | os.PathLike[str] | None = None, max_sessions: int = 64,
                 max_drills: int = 8) -> None:
        self.db = db
        self._store: DrillStore | None = None
        self.max_sessions = max_sessions
        self.max_drills = max_drills
        self.sessions: dict[str, DrillSession] = {}
        self.drills: dict[tuple[str, str | None], Drill] = {}
        self.lock = threading.Lock()
        self.build_lock = threading.Lock()

    @property
    def store(self) -> DrillStore:
        if self._store is None:
            self._store = DrillStore(self.db)
        return self._store

    def spots(self) -> dict[str, Any]:
        files = sorted(p.stem for p in drill_dir().glob("*.npz") if p.is_file())
        return {"library": library_entries(), "files": files, "folder": os.fspath(drill_dir())}

    def _drill(self, spot: str, node: str | None) -> Drill:
        key = (spot, node)
        with self.lock:
            if key in self.drills:
                return self.drills[key]
        if spot in DRILLS:
            with self.build_lock:  # one library build at a time
                drill = open_library_drill(spot, node=node)
        else:
            ok = bool(spot) and len(spot) <= 100 and all(ch.isalnum() or ch in "._-" for ch in spot)
            path = drill_dir() / f"{spot}.npz"
            if not ok or spot.startswith(".") or not path.is_file():
                raise unknown(spot)
            drill = load_drill(path, node=node or "", name=spot)
        with self.lock:
            while len(self.drills) >= self.max_drills:
                self.drills.pop(next(iter(self.drills)))
            self.drills[key] = drill
        return drill

    def start(self, obj: dict[str, Any]) -> dict[str, Any]:
        spot = obj.get("spot")
        node = obj.get("node")
        seed = obj.get("seed", 0)
        if not isinstance(spot, str) or not spot.strip():
            raise DrillError("missing field 'spot': a library drill or a spot of the drill folder")
        if node is not None and (not isinstance(node, str) or len(node) > 400):
            raise DrillError("field 'node' must be a path of actions such as 'check,bet 375'")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise DrillError(f"field 'seed' must be a whole number >= 0, got {seed!r}")
        node = node.strip() if isinstance(node, str) and node.strip() else None
        drill = self._drill(spot.strip(), node)
        session = DrillSession(drill, self.store, seed=seed, source=spot.strip())
        with self.lock:
            while len(self.sessions) >= self.max_sessions:
                idlest = min(self.sessions, key=lambda k: self.sessions[k].last_used)
                self.sessions.pop(idlest)
            self.sessions[session.id] = session
        hand = session.deal()
        return {"session": session.id, "info": drill.info(), "hand": hand.to_json(),
                "score": session.score(), "all_sessions": self.store.score(spot=drill.name)}

    def answer(self, sid: str, obj: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            session = self.sessions.get(sid)
        if session is None:
            raise DrillError(f"unknown or expired drill session {sid[:40]!r}")
        action = obj.get("action")
        deal = obj.get("deal")
        if not isinstance(action, str) or len(action) > 100:
            raise DrillError("field 'action' must be one of the node's actions")
        if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int)):
            raise DrillError(f"field 'deal' must be the dealt hand's number, got {deal!r}")
        with session.lock:
            session.last_used = time.monotonic()
            grade = session.answer(action, deal)
            hand = session.deal()
        return {"grade": grade, "hand": hand.to_json(), "score": session.score(),
                "all_sessions": self.store.score(spot=session.drill.name)}

    def score(self, spot: str | None = None) -> dict[str, Any]:
        return self.store.score(spot=spot)


def add_drill_routes(app: Any, *, hub: DrillHub | None = None) -> Any:
    """Add the drill page (``/drill``) and its JSON API to the play application ``app``."""
    import asyncio

    from fastapi import Request
    from fastapi.responses import HTMLResponse, JSONResponse

    h = hub if hub is not None else DrillHub()
    app.state.drill = h

    async def run(fn: Any, *args: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args)
        except PokerlabError as exc:
            status = 404 if "unknown or expired drill session" in str(exc) else 400
            return JSONResponse({"error": one_line(exc)}, status_code=status)
        except OSError as exc:
            return JSONResponse({"error": one_line(exc)}, status_code=400)

    async def body(request: Request) -> Any:
        raw = await request.body()
        if len(raw) > 16_384:
            raise DrillError("request body too large")
        return json_object(raw, DrillError)

    @app.get("/drill")
    async def drill_page() -> Any:
        return HTMLResponse(page_html("drill.html"))

    @app.get("/api/drill/spots")
    async def drill_spots() -> Any:
        return await run(h.spots)

    @app.get("/api/drill/score")
    async def drill_score(spot: str | None = None) -> Any:
        return await run(h.score, spot)

    async def drill_start(request: Request) -> Any:
        try:
            obj = await body(request)
        except DrillError as exc:
            return JSONResponse({"error": one_line(exc)}, status_code=400)
        return await run(h.start, obj)

    async def drill_answer(sid: str, request: Request) -> Any:
        try:
            obj = await body(request)
        except DrillError as exc:
            return JSONResponse({"error": one_line(exc)}, status_code=400)
        return await run(h.answer, sid, obj)

    # FastAPI reads the annotations from this module's globals, where the web extra's
    # Request is not imported: give the routes the class itself
    for fn in (drill_start, drill_answer):
        fn.__annotations__["request"] = Request
    drill_answer.__annotations__["sid"] = str
    app.post("/api/drill/start")(drill_start)
    app.post("/api/drill/{sid}/answer")(drill_answer)
    return app
