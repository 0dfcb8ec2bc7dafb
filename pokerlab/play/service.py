"""The play server's core, without the web framework: :class:`ServerConfig`, the session
hub :class:`PlayServer`, message validation and rate limits.  The FastAPI application
(:mod:`pokerlab.play.web`) and the runners (:mod:`pokerlab.play.server`) build on it."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.play.session import (
    AGENT,
    GAMES,
    PlayError,
    Session,
    SessionConfig,
    new_session_id,
)

STATIC = Path(__file__).parent / "static"
DEFAULT_AGENTS = ("tag", "call", "random", "raise")

# message type -> {field: (types, required)}
_SCHEMA: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "start": {"game": ((str,), False), "agent": ((str,), False),
              "stack": ((int, float), False), "carry": ((bool,), False)},
    "resume": {"session": ((str,), True)},
    "deal": {"session": ((str,), True)},
    "action": {"session": ((str,), True), "hand": ((int,), True), "kind": ((str,), True),
               "amount": ((int,), False), "action": ((int,), False)},
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
    """The agent of the configured generic game (``equilibrium``, ``random``,
    ``policy:PATH``); other generic games offered by the page play the exact equilibrium."""
    stack: float = 100.0
    carry_stacks: bool = False
    agents: tuple[str, ...] = DEFAULT_AGENTS
    """Agent specs a page may ask for (the configured ``agent`` is always allowed)."""
    out_dir: str | None = None
    max_sessions: int = 200
    max_hands: int = 10_000
    idle_seconds: float = 1800.0
    max_message_bytes: int = 4096
    rate_per_second: float = 20.0
    rate_burst: int = 40
    agent_timeout: float = 5.0
    worker_threads: int = 8
    seed: int | None = None

    def allowed_agents(self) -> list[str]:
        out = [self.agent]
        out += [a for a in self.agents if a != self.agent]
        return out

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


@dataclass
class Entry:
    session: Session
    sid: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_seen: float = field(default_factory=time.monotonic)


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
        self.root = Path(config.out_dir) if config.out_dir else _default_root()
        self.created = 0
        self.expired = 0

    def expire(self) -> int:
        now = time.monotonic()
        old = [sid for sid, e in self.sessions.items()
               if now - e.last_seen > self.config.idle_seconds and not e.lock.locked()]
        for sid in old:
            del self.sessions[sid]
        self.expired += len(old)
        return len(old)

    def get(self, sid: str) -> Entry:
        e = self.sessions.get(sid)
        if e is None:
            raise PlayError("unknown or expired session")
        e.last_seen = time.monotonic()
        return e

    def prepare(self, msg: dict[str, Any]) -> tuple[SessionConfig, Path]:
        """Check a ``start`` request (event-loop thread): the cap, the game, the agent."""
        c = self.config
        self.expire()
        if len(self.sessions) >= c.max_sessions:
            raise PlayError(f"the server is full ({c.max_sessions} sessions); try again later")
        game = msg.get("game", c.game)
        games = c.allowed_games()
        if game not in games:
            raise PlayError(f"unknown game {game!r}; choose one of {', '.join(games)}")
        agent = msg.get("agent", c.agent)
        if game == "hunl" and agent not in c.allowed_agents():
            raise PlayError(f"agent {agent!r} is not offered here; choose one of "
                            f"{', '.join(c.allowed_agents())}")
        if game not in GAMES:  # a generic game: its own agent, never a HUNL spec
            agent = c.small_agent if game == c.game else "equilibrium"
        elif game != "hunl":
            agent = ""
        default_stack = c.stack if game == c.game else (10.0 if game == "pushfold" else 100.0)
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

    def register(self, session: Session) -> Entry:
        """Add a built session (event-loop thread; the cap is checked again)."""
        if len(self.sessions) >= self.config.max_sessions:
            raise PlayError(f"the server is full ({self.config.max_sessions} sessions); "
                            "try again later")
        entry = Entry(session=session, sid=new_session_id())
        self.sessions[entry.sid] = entry
        return entry

    def drop(self, sid: str) -> None:
        self.sessions.pop(sid, None)


def _default_root() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("pokerlab")) / "play"


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
    if not isinstance(kind, str) or kind not in _SCHEMA:
        raise PlayError(f"unknown message type {str(kind)[:40]!r}; known: {', '.join(_SCHEMA)}")
    schema = _SCHEMA[kind]
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
    def table(self, entry: Entry, events: list[Any] | None = None) -> dict[str, Any]:
        s = entry.session
        summary = s.summary()
        if not s.hand_over and events:  # the chart's series only when it can have changed
            del summary["running"]
        return {"type": "table", "session": entry.sid, "state": s.snapshot(),
                "events": [e.to_json() for e in (events or [])], "summary": summary,
                "coach_on": s.coach_on}

    async def run_agent(self, entry: Entry) -> list[Any]:
        """Let the agent act (worker thread, time limit) until the person must act."""
        s = entry.session
        out: list[Any] = []
        loop = asyncio.get_running_loop()
        def timed() -> tuple[Any, float]:
            t0 = time.perf_counter()
            move = s.agent_decision()
            return move, time.perf_counter() - t0  # the agent's own time, in its thread

        while s.waiting == AGENT:
            try:
                fut = loop.run_in_executor(self.pool, timed)
                move, secs = await asyncio.wait_for(fut, timeout=self.config.agent_timeout)
                out += s.apply_agent(move, secs)
            except TimeoutError:
                out += s.abort_hand(f"agent {s.agent_name!r} took longer than "
                                    f"{self.config.agent_timeout:g} s; hand cancelled")
            except Exception as exc:  # crashed agent or illegal move: end the hand cleanly
                out += s.abort_hand(f"agent {s.agent_name!r} failed: {str(exc)[:200]}; "
                                    f"hand cancelled")
        return out

    async def handle(self, msg: dict[str, Any], bound: Entry | None,
                     send: Any) -> Entry | None:
        kind = msg["type"]
        if kind == "ping":
            await send({"type": "pong"})
            return bound
        if kind == "start":
            loop = asyncio.get_running_loop()
            cfg, folder = self.manager.prepare(msg)
            session = await loop.run_in_executor(self.pool, self.manager.build, cfg, folder)
            if bound is not None:  # one live session per connection: a new one replaces it
                self.manager.drop(bound.sid)
            entry = self.manager.register(session)
            s = entry.session
            await send({"type": "session", "session": entry.sid, "game": s.game,
                        "agent": s.agent_name, "stack": s.config.stack,
                        "games": self.config.allowed_games(),
                        "agents": self.config.allowed_agents(),
                        "phh": s.game in ("hunl", "pushfold")})
            async with entry.lock:
                events = s.new_hand()
                events += await self.run_agent(entry)
                await send(self.table(entry, events))
            return entry
        if kind == "resume":
            entry = self.manager.get(msg["session"])
            s = entry.session
            await send({"type": "session", "session": entry.sid, "game": s.game,
                        "agent": s.agent_name, "stack": s.config.stack,
                        "games": self.config.allowed_games(),
                        "agents": self.config.allowed_agents(),
                        "phh": s.game in ("hunl", "pushfold")})
            await send(self.table(entry))
            return entry
        # everything else acts in the connection's own session
        if bound is None:
            raise PlayError("no session on this connection; send 'start' or 'resume' first")
        if not secrets.compare_digest(msg["session"], bound.sid):
            raise PlayError("wrong session: this connection plays another session")
        entry = self.manager.get(bound.sid)
        s = entry.session
        async with entry.lock:
            if kind == "deal":
                events = s.new_hand()
                events += await self.run_agent(entry)
                await send(self.table(entry, events))
                await self._coach_after(entry, send)
            elif kind == "action":
                h = s.current
                if h is None or msg["hand"] != h.number:
                    raise PlayError(f"hand {msg['hand']!r} is not the hand in play")
                amount = msg.get("amount")
                events = s.act(msg["kind"], amount, action=msg.get("action"))
                events += await self.run_agent(entry)
                await send(self.table(entry, events))
                await self._coach_after(entry, send)
            elif kind == "coach":
                s.coach_on = bool(msg["on"])
                await send({"type": "coach_state", "on": s.coach_on})
                await self._coach_after(entry, send)
            elif kind == "coach_report":
                rep = await asyncio.get_running_loop().run_in_executor(
                    self.pool, s.coach_report, msg["hand"])
                await send({"type": "coach", **rep})
            elif kind == "replay":
                await send({"type": "replay", **s.replay(msg["hand"])})
            elif kind == "summary":
                await send({"type": "summary", "summary": s.summary()})
        return bound

    async def _coach_after(self, entry: Entry, send: Any) -> None:
        s = entry.session
        h = s.current
        if s.coach_on and h is not None and h.over and h.decisions:
            rep = await asyncio.get_running_loop().run_in_executor(self.pool, s.coach_report,
                                                                   None)
            await send({"type": "coach", **rep})
