"""The play server's core, without the web framework: :class:`ServerConfig`, the session
hub :class:`PlayServer`, message validation and rate limits.  The FastAPI application
(:mod:`pokerlab.play.web`) and the runners (:mod:`pokerlab.play.server`) build on it.

Sessions and connections: a connection (:class:`Conn`, one browser tab) is bound to at
most one session; a session may have several connections (a reloaded page, a second tab)
and every change of its table is sent to all of them.  A session with no connection is
released after :attr:`ServerConfig.grace_seconds` (a reload comes back well within it), and
one client address holds at most :attr:`ServerConfig.max_sessions_per_client` sessions: a
new one first releases that address's oldest session without a connection, so that
opening, starting and closing pages in a loop never fills the server.
"""

from __future__ import annotations

import asyncio
import json
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.play.errors import ServerFull, StaleDecision
from pokerlab.play.page_http import STATIC  # noqa: F401 - the static folder, as before
from pokerlab.play.registry import GAMES, is_equilibrium, table_spec
from pokerlab.play.session import (
    AGENT,
    PlayError,
    Session,
    SessionConfig,
)

DEFAULT_AGENTS = ("tag", "call", "random", "raise")
"""The rule agents (every server offers at least these when they are in the registry)."""
HISTORY_HANDS = 100
"""Finished hands sent to a page that (re)joins a session (its hand history)."""

# message type -> {field: (types, required)}
SCHEMA: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "start": {"game": ((str,), False), "agent": ((str,), False),
              "stack": ((int, float), False), "carry": ((bool,), False)},
    "resume": {"session": ((str,), True)},
    "deal": {"session": ((str,), True)},
    "action": {"session": ((str,), True), "hand": ((int,), True), "kind": ((str,), True),
               "amount": ((int,), False), "action": ((int,), False),
               "decision": ((int,), False)},
    "coach": {"session": ((str,), True), "on": ((bool,), True)},
    "coach_report": {"session": ((str,), True), "hand": ((int,), True)},
    "replay": {"session": ((str,), True), "hand": ((int,), True)},
    "summary": {"session": ((str,), True)},
    "ping": {},
}


@dataclass(frozen=True, kw_only=True)
class ServerConfig:
    """Server limits and the defaults of new sessions."""

    game: str = "hunl"
    """The default game: a table name (``hunl`` ...) or any small game string the play
    table accepts (``gamedef:PATH``, ``universal_poker(...)``); it is always offered."""
    agent: str = "tag"
    """The HUNL agent spec (and the default of the page's agent menu)."""
    small_agent: str = "equilibrium"
    """The agent of the configured small game (a generic game, kuhn or leduc:
    ``equilibrium``, ``random``, ``adapt``, ``policy:PATH``); other small games offered by
    the page play the exact equilibrium."""
    stack: float = 100.0
    carry_stacks: bool = False
    agents: tuple[str, ...] | None = None
    """Agent specs a page may ask for (the configured ``agent`` is always allowed);
    ``None``: every spec the agent registry offers without a file
    (:func:`pokerlab.play.agent_pool.offered_specs`)."""
    out_dir: str | None = None
    max_sessions: int = 200
    max_sessions_per_client: int = 4
    """Sessions one client address may hold; a new one first releases that address's
    oldest session without a connection."""
    grace_seconds: float = 60.0
    """A session with no connection (the page was closed) is released after this long."""
    max_hands: int = 10_000
    idle_seconds: float = 1800.0
    max_message_bytes: int = 4096
    rate_per_second: float = 20.0
    rate_burst: int = 40
    agent_timeout: float = 5.0
    worker_threads: int = 8
    seed: int | None = None

    def allowed_agents(self) -> list[str]:
        from pokerlab.play.agent_pool import offered_specs

        offered = offered_specs() if self.agents is None else self.agents
        out = [self.agent]
        out += [a for a in offered if a != self.agent]
        return out

    def __post_init__(self) -> None:
        for name in ("max_sessions", "max_sessions_per_client", "max_hands"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise PlayError(f"{name} must be an integer >= 1, got {v!r}")
        for name in ("grace_seconds", "idle_seconds", "agent_timeout"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or not v > 0:
                raise PlayError(f"{name} must be a number of seconds > 0, got {v!r}")

    def allowed_games(self) -> list[str]:
        """The games a page may ask for: the tables, the configured game and the shipped
        definitions small enough to play (never an arbitrary path: a page cannot make the
        server read files)."""
        from pokerlab.play.generic import shipped_games

        out = list(GAMES)
        if self.game not in out:
            out.append(self.game)
        out += [g for g in shipped_games() if g not in out]
        return out


@dataclass(eq=False)
class Conn:
    """One connection (a browser tab): how to send to it, its client address, its session."""

    send: Callable[[dict[str, Any]], Awaitable[None]]
    client: str = ""
    bound: Entry | None = None


@dataclass(eq=False)
class Entry:
    session: Session
    sid: str
    owner: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_seen: float = field(default_factory=time.monotonic)
    conns: set[Conn] = field(default_factory=set)
    detached_since: float | None = field(default_factory=time.monotonic)
    """When the last connection left (``None`` while one is connected)."""

    def attach(self, conn: Conn) -> None:
        self.conns.add(conn)
        conn.bound = self
        self.detached_since = None
        self.last_seen = time.monotonic()

    def detach(self, conn: Conn) -> None:
        self.conns.discard(conn)
        if conn.bound is self:
            conn.bound = None
        if not self.conns and self.detached_since is None:
            self.detached_since = time.monotonic()


class Bucket:
    """Token bucket: ``rate`` messages per second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.t = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class SessionManager:
    """All live sessions, by unguessable id."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.sessions: dict[str, Entry] = {}
        self.root = Path(config.out_dir) if config.out_dir else default_root()
        self.created = 0
        self.expired = 0
        self.released = 0
        """Sessions released because no page was connected (grace period or the cap of
        their client address)."""

    def _detached_for(self, e: Entry, now: float) -> float:
        return -1.0 if e.detached_since is None else now - e.detached_since

    def expire(self) -> int:
        """Drop idle sessions and sessions without a connection past the grace period."""
        now = time.monotonic()
        c = self.config
        old = []
        for sid, e in self.sessions.items():
            if e.lock.locked():
                continue
            if now - e.last_seen > c.idle_seconds:
                old.append(sid)
            elif self._detached_for(e, now) > c.grace_seconds:
                old.append(sid)
                self.released += 1
        for sid in old:
            del self.sessions[sid]
        self.expired += len(old)
        return len(old)

    def make_room_for(self, client: str, replacing: Entry | None = None) -> None:
        """Check the caps before a new session of ``client`` (releasing that address's oldest
        sessions without a connection first); raises :class:`ServerFull`."""
        c = self.config
        self.expire()
        mine = [e for e in self.sessions.values()
                if e.owner == client and e is not replacing]
        if len(mine) >= c.max_sessions_per_client:
            now = time.monotonic()
            idle = sorted((e for e in mine if not e.conns and not e.lock.locked()),
                          key=lambda e: -self._detached_for(e, now))
            for e in idle[:len(mine) - c.max_sessions_per_client + 1]:
                self.sessions.pop(e.sid, None)
                self.released += 1
                mine.remove(e)
            if len(mine) >= c.max_sessions_per_client:
                raise ServerFull(
                    f"you already have {len(mine)} sessions open in other tabs (the limit per "
                    f"visitor is {c.max_sessions_per_client}); close one, or wait: a closed "
                    f"page's session is released after {c.grace_seconds:g} s")
        n = len(self.sessions) - (1 if replacing is not None and replacing.sid in
                                  self.sessions and len(replacing.conns) <= 1 else 0)
        if n >= c.max_sessions:
            raise ServerFull(f"the server is full ({c.max_sessions} sessions); try again "
                             f"later (closed pages free their place within "
                             f"{c.grace_seconds:g} s)")

    def get(self, sid: str) -> Entry:
        e = self.sessions.get(sid)
        if e is None:
            raise PlayError("unknown or expired session")
        e.last_seen = time.monotonic()
        return e

    def prepare(self, msg: dict[str, Any], client: str = "",
                replacing: Entry | None = None) -> tuple[SessionConfig, Path]:
        """Check a ``start`` request (event-loop thread): the caps, the game, the agent."""
        c = self.config
        self.make_room_for(client, replacing)
        game = msg.get("game", c.game)
        games = c.allowed_games()
        if game not in games:
            raise PlayError(f"unknown game {game!r}; choose one of {', '.join(games)}")
        agent = msg.get("agent", c.agent)
        spec = table_spec(game)
        if spec.hunl_agents and agent not in c.allowed_agents():
            raise PlayError(f"agent {agent!r} is not offered here; choose one of "
                            f"{', '.join(c.allowed_agents())}")
        if spec.game_agents:  # the configured game's agent (--agent), else the
            # equilibrium; never a HUNL spec
            agent = c.small_agent if game == c.game else ("equilibrium" if spec.checked else "")
        elif spec.own_agent:
            agent = ""
        default_stack = c.stack if game == c.game else spec.default_stack
        stack = float(msg.get("stack", default_stack))
        seed = None if c.seed is None else c.seed + self.created
        self.created += 1
        cfg = SessionConfig(game=game, agent=agent, stack=stack,
                            carry_stacks=bool(msg.get("carry", c.carry_stacks)), seed=seed,
                            max_hands=c.max_hands)
        folder = self.root / f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(4)}"
        return cfg, folder

    @staticmethod
    def build(cfg: SessionConfig, folder: Path) -> Session:
        """Build the session and its agent (a worker thread: this may load files)."""
        try:
            return Session(cfg, folder=folder)
        except PokerlabError:
            raise
        except Exception as exc:  # an agent that cannot be built
            raise PlayError(f"cannot start agent {cfg.agent!r}: {exc}") from None

    def register(self, session: Session, client: str = "",
                 replacing: Entry | None = None) -> Entry:
        """Add a built session (event-loop thread; the caps are checked again)."""
        self.make_room_for(client, replacing)
        entry = Entry(session=session, sid=new_session_id(), owner=client)
        self.sessions[entry.sid] = entry
        return entry

    def drop(self, sid: str) -> None:
        self.sessions.pop(sid, None)


def new_session_id() -> str:
    """An unguessable session id (192 random bits)."""
    return secrets.token_urlsafe(24)


def default_root() -> Path:
    """``play/`` in the user data folder (``$POKERLAB_DATA``, as every command has it)."""
    from pokerlab.io import data_dir

    return data_dir() / "play"


#: the largest integer a client message may carry (exact in a float: stacks, amounts, ids)
MAX_MESSAGE_INT = 2**53


def validate(raw: str, limit: int) -> dict[str, Any]:
    """Parse and check one client message against the schema (raises :class:`PlayError`)."""
    if len(raw.encode("utf-8", "replace")) > limit:
        raise PlayError(f"message too large ({len(raw)} bytes; limit {limit})")
    try:
        msg = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise PlayError("message is not valid JSON") from None
    if not isinstance(msg, dict):
        raise PlayError("message must be a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in SCHEMA:
        raise PlayError(f"unknown message type {str(kind)[:40]!r}; known: {', '.join(SCHEMA)}")
    schema = SCHEMA[kind]
    for key, value in msg.items():
        if key in ("type", "id"):
            continue
        if key not in schema:
            raise PlayError(f"unexpected field {key[:40]!r} in a {kind!r} message")
        types, _ = schema[key]
        if isinstance(value, bool) and bool not in types:
            raise PlayError(f"field {key!r} of {kind!r} has the wrong type")
        if not isinstance(value, types):
            raise PlayError(f"field {key!r} of {kind!r} has the wrong type")
        if isinstance(value, str) and len(value) > 200:
            raise PlayError(f"field {key!r} is too long")
        if isinstance(value, float) and not math.isfinite(value):
            raise PlayError(f"field {key!r} of {kind!r} is not a finite number")
        if isinstance(value, int) and not isinstance(value, bool) \
                and abs(value) > MAX_MESSAGE_INT:
            raise PlayError(f"field {key!r} of {kind!r} is too large (at most "
                            f"{MAX_MESSAGE_INT:,})")
    for key, (_, required) in schema.items():
        if required and key not in msg:
            raise PlayError(f"a {kind!r} message needs the field {key!r}")
    return msg


class PlayServer:
    """The routes and the per-connection protocol."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.manager = SessionManager(config)
        self.pool = ThreadPoolExecutor(max_workers=config.worker_threads,
                                       thread_name_prefix="pokerlab-agent")
        self.messages_in = 0

    # ------------------------------------------------------------ helpers
    def table(self, entry: Entry, events: list[Any] | None = None,
              steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        s = entry.session
        summary = s.summary()
        if not s.hand_over and events:  # the chart's series only when it can have changed
            del summary["running"]
        return {"type": "table", "session": entry.sid, "state": s.snapshot(),
                "events": [e.to_json() for e in (events or [])], "summary": summary,
                "coach_on": s.coach_on, "steps": steps or []}

    def session_info(self, entry: Entry, *, history: bool) -> dict[str, Any]:
        """The ``session`` message: settings, the offered games and agents and (on a resume)
        the hand history, so that a reloaded page or a second tab shows the same session."""
        from pokerlab.play.agent_pool import strengths

        s = entry.session
        agents = self.config.allowed_agents()
        sb, bb = s.blinds()
        out: dict[str, Any] = {
            "type": "session", "session": entry.sid, "game": s.game, "agent": s.agent_name,
            "agent_spec": s.config.agent, "stack": s.config.stack,
            "carry": bool(s.config.carry_stacks), "small_blind": sb, "big_blind": bb,
            "games": self.config.allowed_games(), "agents": agents,
            "strengths": strengths(agents), "phh": s.spec.engine,
            "coach_on": s.coach_on, "tabs": len(entry.conns)}
        if history:
            out["history"] = s.history(HISTORY_HANDS)
        return out

    async def broadcast(self, entry: Entry, obj: dict[str, Any]) -> None:
        """Send ``obj`` to every connection of the session (a closed one is skipped)."""
        for conn in list(entry.conns):
            try:
                await conn.send(obj)
            except Exception:  # a tab that went away; its disconnect detaches it
                entry.detach(conn)

    def disconnect(self, conn: Conn) -> None:
        """The connection closed: the session stays for the grace period."""
        if conn.bound is not None:
            conn.bound.detach(conn)

    @staticmethod
    def _frames_mark(s: Session) -> tuple[int, int]:
        h = s.current
        return (0, 0) if h is None else (h.number, len(h.frames))

    @staticmethod
    def _steps_since(s: Session, mark: tuple[int, int]) -> list[dict[str, Any]]:
        """The table after each step since ``mark`` (the page paces the agent's moves and
        the streets with them), without the last one (the table itself)."""
        h = s.current
        if h is None:
            return []
        start = mark[1] if h.number == mark[0] else 0
        return h.frames[start:-1]

    def _needs_solve(self, msg: dict[str, Any]) -> str:
        """A line for the page when starting this game solves an equilibrium first."""
        from pokerlab.play.opponents import equilibrium_ready

        game = msg.get("game", self.config.game)
        if not isinstance(game, str) or not table_spec(game).solves_equilibrium:
            return ""
        if table_spec(game).checked and game == self.config.game and not is_equilibrium(
                self.config.small_agent):
            return ""
        if equilibrium_ready(game):
            return ""
        return (f"solving the exact equilibrium of {game} (once per server; a few seconds "
                "for the larger definitions)...")

    async def work(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` in a worker thread and wait for it.  Everything that changes a
        session (a deal, a move, the agent's decision, its end-of-hand ``end_hand``, where a
        learning agent refits, the hand-history file) goes through here under the
        session's lock: the event loop only routes messages, so one visitor's CPU work
        never stalls the other tables or ``/api/health``."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def run_agent(self, entry: Entry) -> list[Any]:
        """Let the agent act (worker thread, time limit) until the person must act."""
        s = entry.session
        out: list[Any] = []
        while s.waiting == AGENT:
            try:
                move, secs, searched = await asyncio.wait_for(
                    self.work(s.timed_decision), timeout=self.config.agent_timeout)
            except TimeoutError:
                out += await self.work(s.abort_hand, f"agent {s.agent_name!r} took longer "
                                       f"than {self.config.agent_timeout:g} s; hand cancelled")
                continue
            except Exception as exc:  # a crashed agent: end the hand cleanly
                out += await self.work(s.abort_hand, f"agent {s.agent_name!r} failed: "
                                       f"{str(exc)[:200]}; hand cancelled")
                continue
            try:  # the move, and at a hand's end the agent's end_hand (untimed)
                out += await self.work(s.apply_agent, move, secs, searched)
            except Exception as exc:  # an illegal move or a crash in end_hand
                out += await self.work(s.abort_hand, f"agent {s.agent_name!r} failed: "
                                       f"{str(exc)[:200]}; hand cancelled")
        return out

    async def handle(self, msg: dict[str, Any], conn: Conn) -> Entry | None:
        """Handle one validated message of ``conn``; returns the session it is bound to."""
        await self._handle(msg, conn)
        return conn.bound

    async def _handle(self, msg: dict[str, Any], conn: Conn) -> None:
        kind = msg["type"]
        send = conn.send
        if kind == "ping":
            await send({"type": "pong"})
            return
        if kind == "start":
            loop = asyncio.get_running_loop()
            old = conn.bound
            try:  # a start that fails leaves this tab in its session (the page says so)
                cfg, folder = self.manager.prepare(msg, conn.client, old)
                note = self._needs_solve(msg)
                if note:
                    await send({"type": "progress", "message": note})
                session = await loop.run_in_executor(self.pool, self.manager.build, cfg,
                                                     folder)
            except PlayError as exc:
                exc.code = exc.code or "start"
                raise
            entry = self.manager.register(session, conn.client, old)
            if old is not None:  # a new session replaces this tab's; others keep theirs
                old.detach(conn)
                if not old.conns:
                    self.manager.drop(old.sid)
            entry.attach(conn)
            await send(self.session_info(entry, history=False))
            s = entry.session
            async with entry.lock:
                mark = self._frames_mark(s)
                events = await self.work(s.new_hand)
                events += await self.run_agent(entry)
                await self.broadcast(entry, self.table(entry, events,
                                                       self._steps_since(s, mark)))
            return
        if kind == "resume":
            entry = self.manager.get(msg["session"])
            if conn.bound is not None and conn.bound is not entry:
                conn.bound.detach(conn)
            entry.attach(conn)
            async with entry.lock:  # not while a worker changes the session
                await send(self.session_info(entry, history=True))
                await send(self.table(entry))
            return
        # everything else acts in the connection's own session
        bound = conn.bound
        if bound is None:
            raise PlayError("no session on this connection; send 'start' or 'resume' first")
        if not secrets.compare_digest(msg["session"], bound.sid):
            raise PlayError("wrong session: this connection plays another session")
        entry = self.manager.get(bound.sid)
        s = entry.session
        async with entry.lock:
            if kind == "deal":
                mark = self._frames_mark(s)
                events = await self.work(s.new_hand)
                events += await self.run_agent(entry)
                await self.broadcast(entry, self.table(entry, events, self._steps_since(s, mark)))
                await self._coach_after(entry)
            elif kind == "action":
                h = s.current
                if h is None or msg["hand"] != h.number:
                    if "decision" in msg:
                        await send(self.table(entry))
                        raise StaleDecision(f"hand {msg['hand']!r} is not the hand in play; "
                                            "the move was not applied")
                    raise PlayError(f"hand {msg['hand']!r} is not the hand in play")
                mark = self._frames_mark(s)
                try:  # the person's move may end the hand: the agent's end_hand runs there
                    events = await self.work(partial(
                        s.act, msg["kind"], msg.get("amount"), action=msg.get("action"),
                        decision=msg.get("decision")))
                except StaleDecision:
                    await send(self.table(entry))  # the page resynchronises
                    raise
                events += await self.run_agent(entry)
                await self.broadcast(entry, self.table(entry, events, self._steps_since(s, mark)))
                await self._coach_after(entry)
            elif kind == "coach":
                s.coach_on = bool(msg["on"])
                await self.broadcast(entry, {"type": "coach_state", "on": s.coach_on})
                await self._coach_after(entry, only=conn)
            elif kind == "coach_report":
                rep = await asyncio.get_running_loop().run_in_executor(
                    self.pool, s.coach_report, msg["hand"])
                await send({"type": "coach", **rep})
            elif kind == "replay":
                await send({"type": "replay", **s.replay(msg["hand"])})
            elif kind == "summary":
                await send({"type": "summary", "summary": s.summary()})

    async def _coach_after(self, entry: Entry, only: Conn | None = None) -> None:
        s = entry.session
        h = s.current
        if s.coach_on and h is not None and h.over and h.decisions:
            rep = await asyncio.get_running_loop().run_in_executor(self.pool, s.coach_report,
                                                                   None)
            if only is not None:
                await only.send({"type": "coach", **rep})
            else:
                await self.broadcast(entry, {"type": "coach", **rep})
