"""The play session engine: one person against one agent, independent of the transport.

A :class:`Session` deals hands of one game between the person ("you") and an agent,
rotates the blinds, resets or carries the stacks, keeps every hand (its events, per-step
snapshots for replays, the person's decisions for the coach; :mod:`~pokerlab.play.review`
looks back at them), writes every hold'em hand to PHH and keeps the running result with a
95% confidence interval.  It is a small state machine driven from outside (the web
server, the terminal): :meth:`~Session.new_hand` deals; :attr:`~Session.waiting` is then
``"you"`` (:meth:`~Session.act`, checked: an illegal move raises :class:`PlayError` and
changes nothing), ``"agent"`` (:meth:`~Session.agent_decision`, pure, run by the server in
a worker thread with a time limit, then :meth:`~Session.apply_agent`;
:meth:`~Session.abort_hand` when the agent crashes or is slow) or ``None``.  Everything the
person may see comes from :meth:`~Session.snapshot`: the agent's cards only once shown.

``Session(config)`` builds the table class of what the game is (issue 52): the registry
(:mod:`pokerlab.play.registry`, the one place that names games) gives the table's key, the
table classes register under theirs -- :mod:`~pokerlab.play.holdem_table` (a HUNL engine
game), :mod:`~pokerlab.play.pushfold_table` (the ``pushfold`` agent plus a grader),
:mod:`~pokerlab.play.small_table` (Kuhn, Leduc), :mod:`~pokerlab.play.generic_table` (any
other small protocol game).  Each implements the hooks: ``_setup``, ``_deal``, ``_actor``,
``_legal``, ``_human``, ``_agent_move``, ``_apply_move``, ``_settle`` (True at a showdown),
``_table`` (the snapshot's game part), ``_coach``, ``_showdown_facts`` and ``_end_hand``.

The events of a hand are one family (:class:`TableEvent`, each with one ``to_json``, the
form the page, the terminal and the hand files read): :class:`HandStarted` and
:class:`HandEnded` around every hand; on the hold'em engine the engine's own records
(:mod:`pokerlab.holdem.events`), each logged as it is (:class:`EngineRecord`: its seat's
name and the agent's think time; no copy is built); in the protocol games the
protocol-level :class:`ActionTaken`, :class:`BoardDealt` and :class:`CardsShown`.
"""

from __future__ import annotations

import math
import random
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerlab.cards.cards import card_str
from pokerlab.holdem import events as hev
from pokerlab.play.errors import PlayError, StaleDecision  # noqa: F401 - re-exported
from pokerlab.play.records import HandRecord, SessionConfig
from pokerlab.play.registry import GAMES, TableSpec, table_spec  # noqa: F401 - re-exported
from pokerlab.play.review import HandReview

YOU, AGENT = "you", "agent"
STREETS = ("preflop", "flop", "turn", "river")
CARD_NAMES = tuple(card_str(c) for c in range(52))  # the hold'em cards' names by id ("As")


@dataclass(frozen=True)
class TableEvent:
    """Base of the table's events; ``to_json`` is what clients receive."""

    is_move = False  # a player's move (the decision ids count them)

    def to_json(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["event"] = type(self).__name__
        return d


@dataclass(frozen=True)
class HandStarted(TableEvent):
    hand: int
    button: str  # "you" or "agent"
    stacks: dict[str, int | None]  # None: a generic game without (finite) stacks
    cards: list[str]  # the person's own hole cards


@dataclass(frozen=True)
class HandEnded(TableEvent):
    hand: int
    result: float  # the person's result in big blinds (chips for the protocol games)
    chips: int
    showdown: bool
    aborted: bool = False
    error: str = ""


def _think(d: dict[str, Any], think_ms: float | None, searched: bool | None) -> None:
    """The agent's think time and whether it searched (absent for the person's moves)."""
    if think_ms is not None:
        d["think_ms"] = think_ms
    if searched is not None:
        d["searched"] = searched


@dataclass(frozen=True)
class BoardDealt(TableEvent):
    street: str
    cards: list[str]


@dataclass(frozen=True)
class ActionTaken(TableEvent):
    who: str
    kind: str  # fold | check | call | bet | raise (| action: a generic game without money)
    amount: int  # chips put in (call) or raise-to total (bet/raise)
    pot: int
    label: str = ""  # generic games: the game's own action_to_string
    think_ms: float | None = None  # the agent's: ms to decide (in the thread that ran it)
    searched: bool | None = None  # the agent's: it searched (``counters()["searches"]`` rose)
    is_move = True

    def to_json(self) -> dict[str, Any]:
        d = {"who": self.who, "kind": self.kind, "amount": self.amount, "pot": self.pot,
             "label": self.label}
        _think(d, self.think_ms, self.searched)
        d["event"] = "ActionTaken"
        return d


@dataclass(frozen=True)
class CardsShown(TableEvent):
    who: str
    cards: list[str]


@dataclass(frozen=True)
class EngineRecord(TableEvent):
    """One record of the hold'em engine's history as the table logged it: ``who`` names
    its seat (``you`` / ``agent``), the agent's moves carry their think time."""

    record: hev.Event
    who: str = ""
    think_ms: float | None = None
    searched: bool | None = None

    @property
    def is_move(self) -> bool:  # type: ignore[override]
        return isinstance(self.record, hev.ACTION_TYPES)

    @property
    def kind(self) -> str:  # the move's kind in the JSON form (fold, check, call, bet, raise)
        return str(self.to_json().get("kind", ""))

    def to_json(self) -> dict[str, Any]:
        """The record in the table's event form (:class:`BoardDealt`, :class:`CardsShown`,
        :class:`ActionTaken`)."""
        r = self.record
        if isinstance(r, hev.BoardDealt):
            street = STREETS[r.street] if 1 <= r.street <= 3 else "board"
            return BoardDealt(street=street, cards=[CARD_NAMES[c] for c in r.cards]).to_json()
        if isinstance(r, hev.Shown):
            return CardsShown(who=self.who, cards=[CARD_NAMES[c] for c in r.cards]).to_json()
        if isinstance(r, hev.Folded):
            kind, amount = "fold", 0
        elif isinstance(r, hev.CheckedOrCalled):
            kind, amount = ("call" if r.amount else "check"), int(r.amount)
        elif isinstance(r, hev.RaisedTo):
            # the raiser never had more in than the opponent: it faced a bet exactly when
            # the opponent's bet (unchanged by the raise) is not zero
            kind = "raise" if r.bets[1 - r.player] > 0 else "bet"
            amount = int(r.raise_to)
        else:  # hole cards are in HandStarted, never logged
            raise TypeError(f"no table form for {type(r).__name__}")
        return ActionTaken(who=self.who, kind=kind, amount=amount, pot=int(r.pot),
                           think_ms=self.think_ms, searched=self.searched).to_json()


@dataclass
class Stats:
    """Running result of the person (per-hand results in big blinds)."""

    results: list[float] = field(default_factory=list)
    ev_loss: float = 0.0
    decisions_graded: int = 0

    def add(self, r: float) -> None:
        self.results.append(float(r))

    def summary(self) -> dict[str, Any]:
        n = len(self.results)
        total = sum(self.results)
        mean = total / n if n else 0.0
        sd = math.sqrt(sum((x - mean) ** 2 for x in self.results) / (n - 1)) if n >= 2 else 0.0
        ci = 1.96 * sd / math.sqrt(n) if n >= 2 else 0.0
        running: list[float] = []
        acc = 0.0
        for x in self.results:
            acc += x
            running.append(round(acc, 4))
        return {"hands": n, "total": round(total, 4), "mean": round(mean, 4),
                "sd": round(sd, 4), "ci95": round(ci, 4),
                "per100": round(100 * mean, 2), "per100_ci95": round(100 * ci, 2),
                "running": running[-400:], "ev_loss": round(self.ev_loss, 4),
                "decisions_graded": self.decisions_graded}


@dataclass
class Decision:
    """One decision of the person: what was legal, what was chosen, the coach's notes."""

    street: str
    to_call: int
    pot: int
    chosen: str
    view: Any = None  # engine view (hunl) or protocol state clone (small games)
    human_player: int = 0
    coach: dict[str, Any] | None = None
    action_id: int | None = None  # small and generic games: the chosen action id


_TABLES: dict[str, type[Session]] = {}
"""The table classes by :attr:`~pokerlab.play.registry.TableSpec.table` (each registers
itself when its module is imported: pokerlab/play/__init__.py imports them all)."""


class Session(HandReview):
    """A person against an agent (see the module docstring)."""

    table = ""
    shows_at_end = True
    """The session shows the agent's cards at a showdown (the protocol games; in hold'em
    the engine's ``Shown`` records do)."""

    grader: Any = None
    """What grades the person's decisions (the push/fold trainer's), ``None``: nothing."""

    def __init_subclass__(cls, table: str = "", **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if table:
            cls.table = table
            _TABLES[table] = cls

    def __new__(cls, config: SessionConfig, *args: Any, **kw: Any) -> Session:
        if cls is Session:  # the table of what the game is (pokerlab.play.registry)
            cls = _TABLES[table_spec(config.game).table]
        return super().__new__(cls)

    def __init__(self, config: SessionConfig, *, folder: str | Path | None = None,
                 agent: Any = None) -> None:
        self.config = config
        self.game = config.game
        self.spec: TableSpec = table_spec(config.game)
        self.unit = self.spec.unit  # of the results: bb (engine games) or chips
        seed = config.seed if config.seed is not None else secrets.randbits(63)
        self._seed = int(seed)
        self._rng: random.Random = (random.Random(seed) if config.seed is not None
                                    else random.SystemRandom())
        self.folder = Path(folder) if folder is not None else None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
        self.hands: list[HandRecord] = []
        self.stats = Stats()
        self.coach_on = False
        self.created = time.time()
        self.agent_times: list[float] = []
        self._stacks_carried: list[int] | None = None
        self.agent: Any = None
        self.agent_name = ""
        self._think: tuple[float, bool] | None = None  # the agent's (ms, searched) while
        # its move is applied (apply_agent); its event takes them (_agent_think)
        self.big_blind = 1
        self._setup(agent)

    # ------------------------------------------------------------ the table's hooks
    def _setup(self, agent: Any) -> None:
        """Build the game's state and the agent (``agent``: a given one, else the spec's)."""
        raise NotImplementedError

    def _deal(self, number: int) -> list[TableEvent]:
        """Start hand ``number`` (appended to :attr:`hands`) and deal to the first decision."""
        raise NotImplementedError

    def _actor(self, h: HandRecord) -> int:
        """The player to act in ``h`` (``-1``: nobody)."""
        raise NotImplementedError

    def _legal(self, h: HandRecord) -> dict[str, Any]:
        """The person's legal actions in ``h`` (the person is to act)."""
        raise NotImplementedError

    def _human(self, h: HandRecord, kind: str, amount: int | None,
               action: int | None) -> list[TableEvent]:
        """Check and apply the person's move (the person is to act at this decision)."""
        raise NotImplementedError

    def _agent_move(self, h: HandRecord, p: int) -> Any:
        """The agent's move as player ``p`` (an engine ``Action``, an action id)."""
        raise NotImplementedError

    def _apply_move(self, h: HandRecord, p: int, move: Any) -> list[TableEvent]:
        """Check and apply the agent's move."""
        raise NotImplementedError

    def _settle(self, h: HandRecord) -> bool:
        """Set the result of the finished hand ``h``; True at a showdown."""
        raise NotImplementedError

    def _table(self, h: HandRecord, base: dict[str, Any]) -> dict[str, Any]:
        """The snapshot of ``h`` (``base`` holds the game, agent and big blind)."""
        raise NotImplementedError

    def _coach(self, d: Decision, out: dict[str, Any]) -> dict[str, Any]:
        """The coach's note on decision ``d`` (``out`` holds street, chosen, empty fields)."""
        raise NotImplementedError

    def _showdown_facts(self, h: HandRecord) -> tuple[list[str | None], list[int], bool]:
        """(hand names per player or None, chips each collects, showdown) of a finished hand."""
        raise NotImplementedError

    def _end_hand(self, h: HandRecord, showdown: bool) -> None:
        """Hand a learning agent (``end_hand``) what its seat saw of the finished hand."""
        raise NotImplementedError

    # ------------------------------------------------------------ basics
    @property
    def current(self) -> HandRecord | None:
        return self.hands[-1] if self.hands else None

    @property
    def hand_over(self) -> bool:
        h = self.current
        return h is None or h.over

    @property
    def waiting(self) -> str | None:
        """Who must act now: ``"you"``, ``"agent"`` or ``None`` (no hand in progress)."""
        h = self.current
        if h is None or h.over:
            return None
        actor = self._actor(h)
        if actor < 0:
            return None
        return YOU if actor == h.human_player else AGENT

    def _who(self, h: HandRecord, player: int) -> str:
        return YOU if player == h.human_player else AGENT

    def _taken(self, h: HandRecord, player: int, *, kind: str, amount: int, pot: int,
               label: str = "") -> ActionTaken:
        """The event of a move of ``player`` in a protocol game: the agent's move carries
        its think time and whether it searched (:meth:`_agent_think`)."""
        ms, searched = self._agent_think(h, player)
        return ActionTaken(who=self._who(h, player), kind=kind, amount=amount, pot=pot,
                           label=label, think_ms=ms, searched=searched)

    def _agent_think(self, h: HandRecord, player: int) -> tuple[float | None, bool | None]:
        """(think time in ms, searched) of the agent's move being applied, once; (None,
        None) for the person's moves."""
        if player == h.human_player or self._think is None:
            return None, None
        ms, searched = self._think
        self._think = None
        return ms, searched

    # ------------------------------------------------------------ dealing
    def new_hand(self) -> list[TableEvent]:
        """Deal the next hand (the previous one must be over)."""
        if not self.hand_over:
            raise PlayError("the current hand is not over yet")
        if len(self.hands) >= self.config.max_hands:
            raise PlayError(f"this session has reached its cap of {self.config.max_hands} hands")
        number = len(self.hands) + 1
        if len(self.hands) >= self.config.keep_replays:
            old = self.hands[-self.config.keep_replays]
            old.frames = []
            old.decisions = []
        return self._deal(number)

    def _agent_seed(self, number: int) -> int:
        return (self._seed * 1_000_003 + number) % (2**31 - 1)

    def _finish(self, h: HandRecord) -> list[TableEvent]:
        h.over = True
        showdown = self._settle(h)
        if self.agent is not None:  # learning agents (adapt) see what their seat saw
            self._end_hand(h, showdown)
        self.stats.add(h.result)
        ev = HandEnded(hand=h.number, result=round(h.result, 4), chips=h.chips, showdown=showdown)
        h.events.append(ev)
        self._frame(h)
        out: list[TableEvent] = [ev]
        if showdown and self.shows_at_end:
            out.insert(0, h.events[-2])
        return out

    # ------------------------------------------------------------ the person's moves
    def legal(self) -> dict[str, Any] | None:
        """The person's legal actions now (None when it is not the person's turn)."""
        h = self.current
        if h is None or self.waiting != YOU:
            return None
        return self._legal(h)

    def decision_id(self, h: HandRecord | None = None) -> int | None:
        """The id of the person's current decision (``None`` when it is not the person's
        turn): hand number and the number of moves made so far, so that a move sent for a
        decision the person saw earlier (a double click) never lands on a later one."""
        h = h if h is not None else self.current
        if h is None or h is not self.current or self.waiting != YOU:
            return None
        moves = sum(1 for e in h.events if e.is_move)
        return h.number * 100_000 + moves

    def act(self, kind: str, amount: int | None = None, *,
            action: int | None = None, decision: int | None = None) -> list[TableEvent]:
        """Apply the person's move: ``kind`` fold | check | call | raise | allin, or in a
        generic game ``"action"`` with the game's action id (``action``, or ``amount``).

        ``decision``: the :meth:`decision_id` the move answers; a move for any other
        decision raises :class:`StaleDecision` and changes nothing."""
        h = self.current
        if h is None or h.over:
            raise PlayError("no hand in progress; deal a new hand first")
        if self.waiting != YOU:
            raise StaleDecision("it is not your turn") if decision is not None else PlayError(
                "it is not your turn")
        if decision is not None and decision != self.decision_id(h):
            raise StaleDecision(f"decision {decision} is not the current decision "
                                f"({self.decision_id(h)}); the move was not applied")
        return self._human(h, kind, amount, action)

    def _checked(self, kind: str, amount: int | None,
                 action: int | None) -> tuple[str, int | None]:
        """A fold / check / call / raise / allin move checked against :meth:`legal` (the
        betting games): ``(kind, amount)`` with ``bet`` and ``allin`` resolved."""
        if action is not None:
            raise PlayError(f"action ids are for generic games, not {self.game!r}")
        lg = self.legal()
        assert lg is not None
        if kind not in ("fold", "check", "call", "raise", "bet", "allin"):
            raise PlayError(f"unknown action {kind!r}; use fold, check, call, raise or allin")
        if kind == "bet":
            kind = "raise"
        if kind == "fold" and not lg["fold"]:
            raise PlayError("you cannot fold: you are not facing a bet (check instead)")
        if kind == "check" and not lg["check"]:
            raise PlayError(f"you cannot check: {lg['call']} to call")
        if kind == "call" and lg["call"] < 0:
            raise PlayError("you cannot call here (push or fold)")
        if kind == "allin":
            if lg["raise"]:
                kind, amount = "raise", int(lg["max"])
            else:
                kind = "call"
        if kind == "raise":
            if not lg["raise"]:
                raise PlayError("you cannot bet or raise here")
            if amount is None and lg["min"] == lg["max"]:  # one raise size
                amount = int(lg["min"])
            if amount is None:
                raise PlayError("a raise needs an amount (the raise-to total)")
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise PlayError(f"raise amount must be an integer number of chips, got {amount!r}")
            if not lg["min"] <= amount <= lg["max"]:
                raise PlayError(f"raise to {amount} is outside the legal range "
                                f"{lg['min']}..{lg['max']}")
        return kind, amount

    # ------------------------------------------------------------ the agent's moves
    def agent_decision(self) -> Any:
        """The agent's move at the current decision (an engine ``Action`` or an action id).

        Pure with respect to the session: the server runs it in a worker thread.
        """
        h = self.current
        if h is None or self.waiting != AGENT:
            raise PlayError("the agent is not to act")
        return self._agent_move(h, 1 - h.human_player)

    def _searches(self) -> int | None:
        """The agent's count of searched decisions (``counters()["searches"]``), ``None``
        for an agent that does not count them."""
        fn = getattr(self.agent, "counters", None)
        if fn is None:
            return None
        try:
            return int(fn().get("searches", 0))
        except Exception:  # an agent's diagnostics never stop its play
            return None

    def timed_decision(self) -> tuple[Any, float, bool]:
        """:meth:`agent_decision` with its think time in seconds (measured in the calling
        thread: the server's worker) and whether the agent searched for it."""
        before = self._searches()
        t0 = time.perf_counter()
        move = self.agent_decision()
        secs = time.perf_counter() - t0
        after = self._searches() if before is not None else None
        return move, secs, before is not None and after is not None and after > before

    def apply_agent(self, move: Any, seconds: float = 0.0,
                    searched: bool = False) -> list[TableEvent]:
        """Apply the agent's move (checked; an illegal move raises :class:`PlayError`);
        its event carries ``seconds`` (as ``think_ms``) and ``searched``.  A move that ends
        the hand also runs the agent's end-of-hand call (``end_hand``: a learning agent
        refits there): the server calls this in a worker thread, never on its event loop."""
        h = self.current
        if h is None or self.waiting != AGENT:
            raise PlayError("the agent is not to act")
        self.agent_times.append(float(seconds))
        if len(self.agent_times) > 10_000:
            del self.agent_times[:5_000]
        self._think = (round(1000.0 * float(seconds), 1), bool(searched))
        try:
            return self._apply_move(h, 1 - h.human_player, move)
        finally:
            self._think = None

    def run_agent(self) -> list[TableEvent]:
        """Let the agent act (in this thread) until the person must act or the hand ends."""
        out: list[TableEvent] = []
        while self.waiting == AGENT:
            try:
                move, secs, searched = self.timed_decision()
            except Exception as exc:  # a crashing agent ends the hand, never the session
                return out + self.abort_hand(f"agent {self.agent_name!r} failed: {exc}")
            out += self.apply_agent(move, secs, searched)
        return out

    def abort_hand(self, error: str) -> list[TableEvent]:
        """End the current hand without a result (agent crash or time-out)."""
        h = self.current
        if h is None or h.over:
            return []
        h.over = True
        h.aborted = True
        h.error = error
        ev = HandEnded(hand=h.number, result=0.0, chips=0, showdown=False, aborted=True,
                       error=error)
        h.events.append(ev)
        self._frame(h)
        return [ev]

    # ------------------------------------------------------------ snapshots
    def _frame(self, h: HandRecord) -> None:
        h.frames.append(self.snapshot(h))

    def snapshot(self, h: HandRecord | None = None) -> dict[str, Any]:
        """The table as the person sees it now (nothing hidden is in here)."""
        h = h if h is not None else self.current
        base: dict[str, Any] = {"game": self.game, "agent": self.agent_name,
                                "big_blind": self.big_blind}
        if h is None:
            base.update(hand=0, over=True)
            return base
        return self._table(h, base)

    def _standard_table(self, h: HandRecord, base: dict[str, Any], *, street: str,
                        board: list[str], pot: int, to_call: int, stacks: list[int],
                        bets: list[int], your_cards: list[str],
                        agent_cards: list[str] | None) -> dict[str, Any]:
        """The snapshot of a betting game with its own card names (hold'em, Kuhn, Leduc)."""
        you, ag = h.human_player, 1 - h.human_player
        current = h is self.current
        base.update(self._table_facts(h))
        base.update(
            hand=h.number, street=street, board=board, pot=pot, to_call=to_call,
            over=h.over, aborted=h.aborted, error=h.error,
            you={"stack": stacks[you], "bet": bets[you], "button": you == 1,
                 "cards": your_cards},
            opponent={"stack": stacks[ag], "bet": bets[ag], "button": ag == 1,
                      "cards": agent_cards},
            to_act=(self.waiting if current else None),
            legal=(self.legal() if current else None),
            log=[e.to_json() for e in h.events],
            result=round(h.result, 4) if h.over else None,
        )
        return base

    def _table_facts(self, h: HandRecord) -> dict[str, Any]:
        """What every snapshot states besides the cards and chips: the blinds, the stack
        policy, the id of the person's decision and, once a hand is over, the showdown."""
        sb, bb = self.blinds()
        return {"small_blind": sb, "big_blind": bb, "carry": bool(self.config.carry_stacks),
                "decision": self.decision_id(h), "showdown": self._showdown(h)}

    def blinds(self) -> tuple[int | None, int | None]:
        """(small blind, big blind) in chips; ``None`` where the game has no blinds (the
        small games' antes, the generic games' own rules)."""
        return None, None

    def _showdown(self, h: HandRecord) -> dict[str, Any] | None:
        """At the end of a hand: the pot each player collects (chips) and, at a showdown,
        both hands named ("two pair, kings and sevens"); ``None`` while the hand runs."""
        if not h.over or h.aborted:
            return None
        you, ag = h.human_player, 1 - h.human_player
        names, collected, showdown = self._showdown_facts(h)
        winner = ("split" if collected[you] == collected[ag] else
                  YOU if collected[you] > collected[ag] else AGENT)
        return {"showdown": showdown, "winner": winner,
                "you": {"hand": names[you], "collected": collected[you]},
                "opponent": {"hand": names[ag] if h.revealed else None,
                             "collected": collected[ag]}}

    def summary(self) -> dict[str, Any]:
        s = self.stats.summary()
        s["unit"] = self.unit
        return s
