"""The play session engine: one person against one agent, independent of the transport.

A :class:`Session` deals hands of one game (``hunl``, ``pushfold``, ``leduc``, ``kuhn``, or
any small two-player protocol game string such as ``gamedef:leduc5`` or
``universal_poker(...)``, played through the generic path of :mod:`pokerlab.play.generic`)
between the person ("you") and an agent, rotates the blinds every hand, resets or carries
the stacks, keeps every hand (typed events, per-step snapshots for replays, the person's
decisions for the coach), writes every hold'em hand to PHH in the session folder and keeps
the running result with a 95% confidence interval.

The session is a small state machine driven from outside (the web server, the terminal):

* :meth:`Session.new_hand` deals; then :attr:`Session.waiting` is ``"you"``, ``"agent"`` or
  ``None`` (hand over);
* ``"you"``: :meth:`Session.act` with the person's action (validated; an illegal one raises
  :class:`PlayError` and changes nothing);
* ``"agent"``: :meth:`Session.agent_decision` computes the agent's move (pure; the server
  runs it in a worker thread with a time limit) and :meth:`Session.apply_agent` applies it;
  :meth:`Session.abort_hand` ends the hand with an error when the agent crashes or is slow.

Everything the person may see comes from :meth:`Session.snapshot`: the agent's hole cards
appear only once they are shown at a showdown, and the deck never leaves the session.
"""

from __future__ import annotations

import math
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerlab.cards.cards import card_str, preflop_class
from pokerlab.play.errors import PlayError, StaleDecision  # noqa: F401 - re-exported

GAMES = ("hunl", "pushfold", "leduc", "kuhn")
"""Games with their own table code; every other game string goes the generic way."""
YOU, AGENT = "you", "agent"
STREETS = ("preflop", "flop", "turn", "river")


# ---------------------------------------------------------------- typed events
@dataclass(frozen=True)
class PlayEvent:
    """Base of the session's typed events; ``to_json`` is what clients receive."""

    def to_json(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items()}
        d["event"] = type(self).__name__
        return d


@dataclass(frozen=True)
class HandStarted(PlayEvent):
    hand: int
    button: str  # "you" or "agent"
    stacks: dict[str, int | None]  # None: a generic game without (finite) stacks
    cards: list[str]  # the person's own hole cards


@dataclass(frozen=True)
class BoardDealt(PlayEvent):
    street: str
    cards: list[str]


@dataclass(frozen=True)
class ActionTaken(PlayEvent):
    who: str
    kind: str  # fold | check | call | bet | raise (| action: a generic game without money)
    amount: int  # chips put in (call) or raise-to total (bet/raise)
    pot: int
    label: str = ""  # generic games: the game's own action_to_string


@dataclass(frozen=True)
class CardsShown(PlayEvent):
    who: str
    cards: list[str]


@dataclass(frozen=True)
class HandEnded(PlayEvent):
    hand: int
    result: float  # the person's result in big blinds (chips for kuhn/leduc)
    chips: int
    showdown: bool
    aborted: bool = False
    error: str = ""


# ---------------------------------------------------------------- configuration
@dataclass(frozen=True, kw_only=True)
class SessionConfig:
    """One play session.  ``stack`` in big blinds (hunl/pushfold); ``seed`` None = random.

    ``agent``: an agent spec; ``""`` is the game's default (``tag`` in hunl, the exact
    equilibrium in the other games).  Generic games take ``equilibrium``, ``random`` or
    ``policy:PATH``.
    """

    game: str = "hunl"
    agent: str = ""
    stack: float = 100.0
    carry_stacks: bool = False
    seed: int | None = None
    max_hands: int = 100_000
    keep_replays: int = 500

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            from pokerlab.play.generic import load_play_game

            try:
                load_play_game(self.game)
            except PlayError as exc:
                raise PlayError(f"{exc} (tables: {', '.join(GAMES)} or a small two-player "
                                "game string such as gamedef:leduc5)") from None
        if not isinstance(self.stack, (int, float)) or not math.isfinite(self.stack):
            raise PlayError(f"stack must be a number of big blinds, got {self.stack!r}")
        if self.game == "hunl" and not 2 <= self.stack <= 1000:
            raise PlayError(f"stack {self.stack} bb is outside 2..1000 for hunl")
        if self.game == "pushfold" and not 1 <= self.stack <= 50:
            raise PlayError(f"stack {self.stack} bb is outside 1..50 for the push/fold trainer")
        if self.max_hands < 1:
            raise PlayError(f"max_hands must be >= 1, got {self.max_hands}")


# ---------------------------------------------------------------- stats
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
        if n >= 2:
            var = sum((x - mean) ** 2 for x in self.results) / (n - 1)
            sd = math.sqrt(var)
            ci = 1.96 * sd / math.sqrt(n)
        else:
            sd, ci = 0.0, 0.0
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


# ---------------------------------------------------------------- card text
LEDUC_SUITS = "sh"
KUHN_RANKS = "JQK"


def small_card(game: str, c: int) -> str:
    if game == "kuhn":
        return KUHN_RANKS[c]
    return KUHN_RANKS[c // 2] + LEDUC_SUITS[c % 2]


# ---------------------------------------------------------------- hand records
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


@dataclass
class HandRecord:
    number: int
    human_player: int
    state: Any
    cards: list[int]
    events: list[PlayEvent] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    result: float = 0.0
    chips: int = 0
    over: bool = False
    aborted: bool = False
    error: str = ""
    revealed: bool = False
    phh_path: str = ""
    moves: list[tuple[int, int, str]] = field(default_factory=list)  # generic: (player, id, label)


# ---------------------------------------------------------------- the session
class Session:
    """A person against an agent (see the module docstring)."""

    def __init__(self, config: SessionConfig, *, folder: str | Path | None = None,
                 agent: Any = None) -> None:
        self.config = config
        self.game = config.game
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
        self._pf: Any = None
        self._stacks_carried: list[int] | None = None
        self._generic = self.game not in GAMES
        if self._generic:
            self._init_generic(agent)
        elif self.game in ("hunl", "pushfold"):
            from pokerlab.holdem.engine import HoldemConfig

            self.base_config = HoldemConfig.from_bb(config.stack)
            self.big_blind = self.base_config.big_blind
            if self.game == "pushfold":
                from pokerlab.play.opponents import pushfold_nash

                self._pf = pushfold_nash(config.stack)
                self.agent: Any = agent if agent is not None else None
                self.agent_name = "push/fold Nash"
            else:
                if agent is None:  # a policy agent shares its loaded policy across sessions
                    from pokerlab.play.agent_pool import session_agent

                    agent = session_agent(config.agent or "tag", config=self.base_config,
                                          seed=self._seed % (2**31))
                self.agent = agent
                self.agent_name = str(getattr(agent, "name", config.agent or "tag"))
                self._warm_up()
        else:
            from pokerlab.games import load_game
            from pokerlab.play.opponents import EquilibriumAgent

            self.small_game = load_game(self.game)
            self.big_blind = 1
            self.agent = agent if agent is not None else EquilibriumAgent(self.game)
            self.agent_name = str(getattr(self.agent, "name", "equilibrium"))

    def _warm_up(self) -> None:
        """One throw-away decision, so that lazy loading (tables, compiled kernels) happens
        now and not inside the first hand's time limit."""
        from pokerlab.holdem.engine import HoldemState, Phase

        st = HoldemState(config=self.base_config)
        st.deal_hole([0, 5])
        st.deal_hole([10, 15])
        if hasattr(self.agent, "reset"):
            self.agent.reset(0)
        board = [20, 25, 30, 35, 40]
        while not st.is_terminal:  # the agent decides each street once, everybody calls
            if st.phase == Phase.DEAL_BOARD:
                st.deal_board(board[len(st.board):len(st.board) + st.cards_due()])
                continue
            self.agent.act(st.view(st.actor))
            st.check_or_call()

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

    def _actor(self, h: HandRecord) -> int:
        if self.game in ("hunl", "pushfold"):
            from pokerlab.holdem.engine import Phase

            st = h.state
            return int(st.actor) if st.phase == Phase.BETTING else -1
        st = h.state
        if st.is_terminal() or st.is_chance_node():
            return -1
        return int(st.current_player())

    # ------------------------------------------------------------ dealing
    def new_hand(self) -> list[PlayEvent]:
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
        if self._generic:
            return self._new_generic_hand(number)
        if self.game in ("hunl", "pushfold"):
            return self._new_holdem_hand(number)
        return self._new_small_hand(number)

    def _agent_seed(self, number: int) -> int:
        return (self._seed * 1_000_003 + number) % (2**31 - 1)

    def _new_holdem_hand(self, number: int) -> list[PlayEvent]:
        from pokerlab.holdem.engine import HoldemConfig, HoldemState

        human = 1 if number % 2 == 1 else 0  # the person has the button in odd hands
        c = self.base_config
        if self.config.carry_stacks and self._stacks_carried is not None:
            you, ag = self._stacks_carried
            if min(you, ag) <= c.big_blind + c.ante:  # somebody is (nearly) broke: rebuy
                you, ag = c.stacks
            stacks = (you, ag) if human == 0 else (ag, you)
            cfg = HoldemConfig(stacks=stacks, small_blind=c.small_blind, big_blind=c.big_blind,
                               ante=c.ante)
        else:
            cfg = c
        state = HoldemState(config=cfg)
        cards = self._rng.sample(range(52), 9)
        h = HandRecord(number=number, human_player=human, state=state, cards=cards)
        self.hands.append(h)
        if self.agent is not None and hasattr(self.agent, "reset"):
            self.agent.reset(self._agent_seed(number))
        state.deal_hole(cards[0:2])
        state.deal_hole(cards[2:4])
        ev = HandStarted(hand=number, button=self._who(h, 1),
                         stacks={YOU: cfg.stacks[human], AGENT: cfg.stacks[1 - human]},
                         cards=[card_str(x) for x in cards[2 * human:2 * human + 2]])
        h.events.append(ev)
        out: list[PlayEvent] = [ev]
        out += self._holdem_progress(h, len(state.history))
        return out

    def _new_small_hand(self, number: int) -> list[PlayEvent]:
        st = self.small_game.new_initial_state()
        human = 1 if number % 2 == 0 else 0  # player 0 acts first; alternate every hand
        if self.agent is not None and hasattr(self.agent, "reset"):
            self.agent.reset(self._agent_seed(number))
        n = 6 if self.game == "leduc" else 3
        cards = self._rng.sample(range(n), 3 if self.game == "leduc" else 2)
        h = HandRecord(number=number, human_player=human, state=st, cards=cards)
        self.hands.append(h)
        st.apply_action(cards[0])
        st.apply_action(cards[1])
        ev = HandStarted(hand=number, button=self._who(h, 1),
                         stacks={YOU: self._small_stack(st, human),
                                 AGENT: self._small_stack(st, 1 - human)},
                         cards=[small_card(self.game, cards[human])])
        h.events.append(ev)
        out: list[PlayEvent] = [ev]
        self._frame(h)
        out += self._small_progress(h)
        return out

    # ------------------------------------------------------------ hold'em flow
    def _holdem_progress(self, h: HandRecord, since: int) -> list[PlayEvent]:
        """Deal boards until somebody must act or the hand ends; events since ``since``."""
        from pokerlab.holdem.engine import Phase

        st = h.state
        out = self._holdem_events(h, since)
        while st.phase == Phase.DEAL_BOARD:
            pos = 4 + len(st.board)
            n = st.cards_due()
            mark = len(st.history)
            st.deal_board(h.cards[pos:pos + n])
            out += self._holdem_events(h, mark)
        if st.is_terminal:
            out += self._finish(h)
        return out

    def _holdem_events(self, h: HandRecord, since: int) -> list[PlayEvent]:
        st = h.state
        out: list[PlayEvent] = []
        for i in range(since, len(st.history)):
            item = st.history[i]
            tag = item[0]
            if tag == "hole":
                continue
            pot, bets = self._replay_money(st, i + 1)
            if tag == "board":
                nb = sum(len(ev[1]) for ev in st.history[:i + 1] if ev[0] == "board")
                street = {3: "flop", 4: "turn", 5: "river"}.get(nb, "board")
                ev: PlayEvent = BoardDealt(street=street, cards=[card_str(c) for c in item[1]])
            elif tag == "fold":
                ev = ActionTaken(who=self._who(h, item[1]), kind="fold", amount=0, pot=pot)
            elif tag == "cc":
                ev = ActionTaken(who=self._who(h, item[1]), kind="call" if item[2] else "check",
                                 amount=int(item[2]), pot=pot)
            elif tag == "cbr":
                facing = max(self._replay_money(st, i)[1]) > 0
                ev = ActionTaken(who=self._who(h, item[1]), kind="raise" if facing else "bet",
                                 amount=int(item[2]), pot=pot)
            elif tag == "show":
                if item[1] != h.human_player:
                    h.revealed = True
                ev = CardsShown(who=self._who(h, item[1]), cards=[card_str(c) for c in item[2]])
            else:  # pragma: no cover - the engine writes only these
                continue
            h.events.append(ev)
            out.append(ev)
            self._frame(h)
        return out

    @staticmethod
    def _replay_money(st: Any, upto: int) -> tuple[int, list[int]]:
        """(pot, this street's bets) after the first ``upto`` history events."""
        c = st.config
        bets = [c.big_blind, c.small_blind]
        pot = 2 * c.ante + c.big_blind + c.small_blind
        for item in st.history[:upto]:
            if item[0] == "board":
                bets = [0, 0]
            elif item[0] == "cc":
                bets[item[1]] += int(item[2])
                pot += int(item[2])
            elif item[0] == "cbr":
                pot += int(item[2]) - bets[item[1]]
                bets[item[1]] = int(item[2])
        return pot, bets

    def _finish(self, h: HandRecord) -> list[PlayEvent]:
        h.over = True
        if self.game in ("hunl", "pushfold"):
            st = h.state
            pay = st.payoffs()
            chips = int(pay[h.human_player])
            h.chips = chips
            h.result = chips / self.big_blind
            showdown = bool(st.is_showdown)
            if self.config.carry_stacks:
                fin = st.final_stacks()
                self._stacks_carried = [int(fin[h.human_player]), int(fin[1 - h.human_player])]
            self._write_phh(h)
        elif self._generic:
            showdown = self._generic_finish(h)
        else:
            st = h.state
            r = st.returns()
            h.chips = int(round(r[h.human_player]))
            h.result = float(r[h.human_player])
            showdown = self._small_showdown(h)
            if showdown:
                h.revealed = True
                ev0 = CardsShown(who=AGENT, cards=[small_card(self.game, h.cards[1 - h.human_player])])
                h.events.append(ev0)
            self._write_small(h)
        self.stats.add(h.result)
        ev = HandEnded(hand=h.number, result=round(h.result, 4), chips=h.chips, showdown=showdown)
        h.events.append(ev)
        self._frame(h)
        out: list[PlayEvent] = [ev]
        if showdown and self.game not in ("hunl", "pushfold"):
            out.insert(0, h.events[-2])
        return out

    # ------------------------------------------------------------ small-game flow
    def _small_stack(self, st: Any, p: int) -> int:
        return (100 if self.game == "leduc" else 2) - self._small_contrib(st)[p]

    def _small_contrib(self, st: Any) -> list[int]:
        if self.game == "leduc":
            return [int(x) for x in st.contrib]
        pot = [1, 1]
        for i, a in enumerate(st.history):
            if a == 1:
                pot[i % 2] += 1
        return pot

    def _small_showdown(self, h: HandRecord) -> bool:
        st = h.state
        if self.game == "leduc":
            return bool(st.folder < 0)
        hist = st.history
        return not (hist[-1] == 0 and len(hist) >= 2 and hist[-2] == 1)

    def _small_facing(self, st: Any) -> bool:
        if self.game == "leduc":
            return 0 in st.legal_actions()
        return bool(st.history) and st.history[-1] == 1

    def _small_kind(self, st: Any, a: int) -> str:
        """fold | check | call | bet | raise of action id ``a`` at ``st``."""
        facing = self._small_facing(st)
        if self.game == "kuhn":
            if a == 0:
                return "fold" if facing else "check"
            return "call" if facing else "bet"
        if a == 0:
            return "fold"
        if a == 1:
            return "call" if facing else "check"
        return "raise" if facing else "bet"

    def _small_raise_size(self, st: Any) -> int:
        if self.game == "kuhn":
            return 1
        return 2 if st.round == 1 else 4

    def _small_apply(self, h: HandRecord, player: int, a: int) -> list[PlayEvent]:
        st = h.state
        kind = self._small_kind(st, a)
        before = self._small_contrib(st)[player]
        st.apply_action(int(a))
        after = self._small_contrib(st)[player]
        pot = sum(self._small_contrib(st))
        amount = after - before if kind in ("call", "check") else (0 if kind == "fold" else after)
        ev = ActionTaken(who=self._who(h, player), kind=kind, amount=amount, pot=pot)
        h.events.append(ev)
        self._frame(h)
        return [ev] + self._small_progress(h)

    def _small_progress(self, h: HandRecord) -> list[PlayEvent]:
        st = h.state
        out: list[PlayEvent] = []
        if not st.is_terminal() and st.is_chance_node():  # leduc's public card
            st.apply_action(h.cards[2])
            ev = BoardDealt(street="flop", cards=[small_card(self.game, h.cards[2])])
            h.events.append(ev)
            self._frame(h)
            out.append(ev)
        if st.is_terminal():
            out += self._finish(h)
        return out

    # ------------------------------------------------------------ generic-game flow
    def _init_generic(self, agent: Any) -> None:
        """Any small two-player protocol game (see :mod:`pokerlab.play.generic`)."""
        from pokerlab.play.generic import capabilities, load_play_game

        self.small_game = load_play_game(self.game)
        self.caps = capabilities(self.small_game)
        self.big_blind = 1
        spec = (self.config.agent or "equilibrium").strip()
        if agent is None:
            if spec.lower() in ("equilibrium", "nash", "lp"):
                from pokerlab.play.opponents import EquilibriumAgent

                agent = EquilibriumAgent(self.game)
            else:
                from pokerlab.agents.registry import make_agent

                agent = make_agent(spec, game=self.game, seed=self._seed % (2**31))
        self.agent = agent
        self.agent_name = str(getattr(agent, "name", spec))

    def _g_contrib(self, st: Any) -> list[int] | None:
        if not self.caps.money:
            return None
        return [int(x) for x in st.spent]

    def _g_stack(self, st: Any, p: int) -> int | None:
        from pokerlab.play.generic import INFINITE_STACK

        sk = self.caps.stacks
        if sk is None or sk[p] >= INFINITE_STACK:
            return None
        contrib = self._g_contrib(st)
        return int(sk[p] - (contrib[p] if contrib else 0))

    def _g_cards(self, h: HandRecord, p: int) -> list[str]:
        """Player ``p``'s private cards as names (games exposing cards), else ``[]``."""
        card = self.caps.card
        if card is None:
            return []
        return [card(c) for c in h.state.hole[p]]

    def _g_street(self, st: Any) -> str:
        r = getattr(st, "round", None)
        return f"round {int(r) + 1}" if isinstance(r, int) else ""

    def _g_deal(self, h: HandRecord) -> list[int]:
        """Sample chance nodes (the session's generator) until a decision or the end;
        returns the board cards this dealt (games exposing cards)."""
        st = h.state
        nb = len(st.board) if self.caps.card is not None else 0
        while not st.is_terminal() and st.is_chance_node():
            outcomes = st.chance_outcomes()
            acts = [int(a) for a, _ in outcomes]
            a = self._rng.choices(acts, weights=[float(p) for _, p in outcomes])[0]
            st.apply_action(a)
            h.cards.append(a)
        return [int(c) for c in st.board[nb:]] if self.caps.card is not None else []

    def _g_board_events(self, h: HandRecord, new: list[int]) -> list[PlayEvent]:
        card = self.caps.card
        if not new or card is None:
            return []
        ev = BoardDealt(street=self._g_street(h.state) or "board", cards=[card(c) for c in new])
        h.events.append(ev)
        self._frame(h)
        return [ev]

    def _new_generic_hand(self, number: int) -> list[PlayEvent]:
        st = self.small_game.new_initial_state()
        human = 0 if number % 2 == 1 else 1  # seats alternate every hand
        if self.agent is not None and hasattr(self.agent, "reset"):
            self.agent.reset(self._agent_seed(number))
        h = HandRecord(number=number, human_player=human, state=st, cards=[])
        self.hands.append(h)
        new = self._g_deal(h)
        ev = HandStarted(hand=number, button=self._who(h, 1),
                         stacks={YOU: self._g_stack(st, human), AGENT: self._g_stack(st, 1 - human)},
                         cards=self._g_cards(h, human))
        h.events.append(ev)
        out: list[PlayEvent] = [ev]
        self._frame(h)
        out += self._g_board_events(h, new)
        if st.is_terminal():
            out += self._finish(h)
        return out

    def _g_kind(self, st: Any, player: int, label: str) -> str:
        low = label.strip().lower()
        contrib = self._g_contrib(st)
        to_call = max(contrib) - contrib[player] if contrib else 0
        if low.startswith("fold"):
            return "fold"
        if low.startswith(("call", "check")):
            if contrib is None:
                return "check" if low.startswith("check") else "call"
            return "call" if to_call > 0 else "check"
        if contrib is None:
            return "action"
        return "raise" if to_call > 0 else "bet"

    def _generic_apply(self, h: HandRecord, player: int, a: int) -> list[PlayEvent]:
        from pokerlab.play.generic import safe_string

        st = h.state
        label = safe_string(st.action_to_string, a) or str(a)
        kind = self._g_kind(st, player, label)
        before = self._g_contrib(st)
        st.apply_action(int(a))
        h.moves.append((player, int(a), label))
        after = self._g_contrib(st)
        amount, pot = 0, 0
        if before is not None and after is not None:
            pot = sum(after)
            if kind == "call":
                amount = after[player] - before[player]
            elif kind in ("bet", "raise"):
                amount = after[player]
        ev = ActionTaken(who=self._who(h, player), kind=kind, amount=amount, pot=pot,
                         label=label)
        h.events.append(ev)
        self._frame(h)
        out: list[PlayEvent] = [ev]
        out += self._g_board_events(h, self._g_deal(h))
        if st.is_terminal():
            out += self._finish(h)
        return out

    def _generic_finish(self, h: HandRecord) -> bool:
        """Result and showdown of a finished generic hand (called by :meth:`_finish`)."""
        from pokerlab.play.generic import safe_string

        st = h.state
        r = st.returns()
        h.result = float(r[h.human_player])
        h.chips = int(round(h.result))
        ag = 1 - h.human_player
        showdown = (not any(st.folded)) if self.caps.showdown_flag else True
        if showdown:
            h.revealed = True
            shown = (self._g_cards(h, ag) if self.caps.card is not None
                     else [safe_string(st.information_state_string, ag)])
            h.events.append(CardsShown(who=AGENT, cards=shown))
        self._write_generic(h)
        return showdown

    def _write_generic(self, h: HandRecord) -> None:
        if self.folder is None:
            return
        from pokerlab.io import atomic_write_json

        st = h.state
        doc: dict[str, Any] = {"game": self.game, "hand": h.number, "you": h.human_player,
                               "agent": self.agent_name, "deal": list(h.cards),
                               "moves": [list(m) for m in h.moves],
                               "events": [e.to_json() for e in h.events],
                               "result": h.result,
                               "returns": [float(x) for x in st.returns()]}
        if self.caps.card is not None:
            doc["cards"] = {"hole": [self._g_cards(h, 0), self._g_cards(h, 1)],
                            "board": [self.caps.card(c) for c in st.board]}
        path = self.folder / f"hand_{h.number:05d}.json"
        atomic_write_json(path, doc)
        h.phh_path = str(path)

    def _generic_legal(self, h: HandRecord) -> dict[str, Any]:
        from pokerlab.play.generic import safe_string

        st = h.state
        you = h.human_player
        items = []
        contrib = self._g_contrib(st)
        to_call = max(contrib) - contrib[you] if contrib else 0
        for a in st.legal_actions():
            label = safe_string(st.action_to_string, a) or str(a)
            kind = self._g_kind(st, you, label)
            items.append({"id": int(a), "label": label, "kind": kind,
                          "text": _verb_text(kind, label, to_call)})
        kinds = {it["kind"] for it in items}
        return {"fold": "fold" in kinds, "check": "check" in kinds,
                "call": to_call if "call" in kinds or "check" in kinds else -1,
                "raise": False, "min": 0, "max": 0, "quick": {}, "actions": items}

    def _match_action(self, h: HandRecord, kind: str, amount: int | None) -> int:
        """A typed move (fold / check / call / raise AMOUNT / allin) -> a legal action id."""
        lg = self._generic_legal(h)
        items = lg["actions"]
        if kind in ("check", "call"):
            hits = [it for it in items if it["kind"] in ("check", "call")]
        elif kind == "fold":
            hits = [it for it in items if it["kind"] == "fold"]
        elif kind in ("raise", "bet", "allin"):
            hits = [it for it in items if it["kind"] in ("raise", "bet")]
            if kind == "allin":
                allin = [it for it in hits if it["label"].lower().replace("-", "") == "allin"]
                hits = allin or hits[-1:]
            elif amount is not None:
                hits = [it for it in hits if it["label"].split()[-1] == str(amount)]
        else:
            hits = []
        if len(hits) != 1:
            names = ", ".join(f"{it['id']} ({it['label']})" for it in items)
            raise PlayError(f"{kind}{'' if amount is None else ' ' + str(amount)} does not name "
                            f"one legal action here; choose an action id: {names}")
        return int(hits[0]["id"])

    def _generic_human(self, h: HandRecord, kind: str, amount: int | None,
                       action: int | None) -> list[PlayEvent]:
        from pokerlab.play.generic import safe_string

        st = h.state
        if kind == "action":
            a = action if action is not None else amount
            if isinstance(a, bool) or not isinstance(a, int):
                raise PlayError(f"an 'action' move needs the action id (an integer), got {a!r}")
            legal = st.legal_actions()
            if a not in legal:
                names = ", ".join(f"{x} ({safe_string(st.action_to_string, x)})" for x in legal)
                raise PlayError(f"action {a} is not legal here; legal: {names}")
        elif kind in ("fold", "check", "call", "raise", "bet", "allin"):
            if action is not None:
                raise PlayError("give either a kind or an action id, not both")
            a = self._match_action(h, kind, amount)
        else:
            raise PlayError(f"unknown action {kind!r}; use action (with an id), fold, check, "
                            "call, raise or allin")
        contrib = self._g_contrib(st)
        you = h.human_player
        dec = Decision(street=self._g_street(st),
                       to_call=(max(contrib) - contrib[you]) if contrib else 0,
                       pot=sum(contrib) if contrib else 0,
                       chosen=safe_string(st.action_to_string, a) or str(a), view=st.clone(),
                       human_player=you, action_id=int(a))
        h.decisions.append(dec)
        return self._generic_apply(h, you, int(a))

    def _generic_coach(self, d: Decision, out: dict[str, Any]) -> dict[str, Any]:
        from pokerlab.play.generic import safe_string

        fn = (getattr(self.agent, "probabilities", None)
              or getattr(self.agent, "action_probabilities_state", None))
        if fn is None or d.view is None:
            out["note"] = f"agent {self.agent_name!r} does not expose its action frequencies"
            return out
        try:
            probs = dict(fn(d.view, d.human_player))
        except Exception as exc:
            out["note"] = f"agent could not answer: {exc}"
            return out
        out["frequencies"] = [[safe_string(d.view.action_to_string, a) or str(a),
                               round(float(p), 4)] for a, p in sorted(probs.items())]
        out["info_state"] = safe_string(d.view.information_state_string, d.human_player)
        return out

    def _generic_snapshot(self, h: HandRecord, base: dict[str, Any]) -> dict[str, Any]:
        from pokerlab.play.generic import safe_string

        st = h.state
        you, ag = h.human_player, 1 - h.human_player
        card = self.caps.card
        contrib = self._g_contrib(st)
        stacks = [self._g_stack(st, 0), self._g_stack(st, 1)]
        bets: list[int | None] = [None, None]
        pot: int | None = None
        if contrib is not None:
            base_spent = int(getattr(st, "street_base", 0))
            bets = [max(0, c - base_spent) for c in contrib]
            pot = sum(contrib)
        if h.over and not h.aborted:
            r = st.returns()
            sk = self.caps.stacks
            stacks = [None if stacks[p] is None or sk is None else int(round(sk[p] + r[p]))
                      for p in (0, 1)]
            if contrib is not None:
                bets, pot = [0, 0], 0
        current = h is self.current
        to_call = (max(contrib) - contrib[you]
                   if contrib is not None and current and self.waiting == YOU else 0)
        base.update(self._table_facts(h))
        base.update(
            hand=h.number, street=self._g_street(st),
            board=[card(c) for c in st.board] if card is not None else [],
            pot=pot, to_call=to_call, over=h.over, aborted=h.aborted, error=h.error,
            you={"stack": stacks[you], "bet": bets[you], "button": you == 1,
                 "cards": self._g_cards(h, you), "seat": you},
            opponent={"stack": stacks[ag], "bet": bets[ag], "button": ag == 1,
                      "cards": self._g_cards(h, ag) if h.revealed and card is not None else None,
                      "hidden": len(st.hole[ag]) if card is not None else 0,
                      "info_state": (safe_string(st.information_state_string, ag)
                                     if h.revealed else None),
                      "seat": ag},
            to_act=(self.waiting if current else None),
            legal=(self.legal() if current else None),
            log=[e.to_json() for e in h.events],
            result=round(h.result, 4) if h.over else None,
            info_state=safe_string(st.information_state_string, you),
            public_state=safe_string(st.public_state_string),
        )
        return base

    # ------------------------------------------------------------ the person's moves
    def legal(self) -> dict[str, Any] | None:
        """The person's legal actions now (None when it is not the person's turn)."""
        h = self.current
        if h is None or self.waiting != YOU:
            return None
        if self._generic:
            return self._generic_legal(h)
        if self.game in ("hunl", "pushfold"):
            st = h.state
            lg = st.legal()
            d: dict[str, Any] = {"fold": lg.can_fold, "check": lg.call_amount == 0,
                                 "call": lg.call_amount, "raise": lg.can_raise,
                                 "min": lg.min_raise_to, "max": lg.max_raise_to,
                                 "quick": {}, "verb": "raise" if max(st.bets) > 0 else "bet"}
            if self.game == "pushfold":
                # SB: fold or all-in; BB facing the shove: fold or call.
                if lg.can_raise:
                    d.update(min=lg.max_raise_to, check=False, verb="all-in")
                    d["call"] = -1  # no limping in the trainer
                d["quick"] = {}
                return d
            if lg.can_raise:
                top = max(st.bets)
                pot_after_call = st.pot + lg.call_amount
                quick = {}
                for name, frac in (("half", 0.5), ("pot", 1.0), ("2pot", 2.0)):
                    amt = int(round(top + frac * pot_after_call))
                    quick[name] = max(lg.min_raise_to, min(lg.max_raise_to, amt))
                quick["allin"] = lg.max_raise_to
                d["quick"] = quick
            return d
        st = h.state
        acts = st.legal_actions()
        facing = self._small_facing(st)
        if self.game == "kuhn":
            return {"fold": facing, "check": not facing, "call": 1 if facing else 0,
                    "raise": not facing, "min": 2 if not facing else 0,
                    "max": 2 if not facing else 0, "quick": {}, "verb": "bet"}
        contrib = self._small_contrib(st)
        to_call = contrib[1 - h.human_player] - contrib[h.human_player]
        can_raise = 2 in acts
        top = max(contrib) + self._small_raise_size(st) if can_raise else 0
        return {"fold": 0 in acts, "check": to_call == 0, "call": to_call, "raise": can_raise,
                "min": top, "max": top, "quick": {}, "verb": "raise" if facing else "bet"}

    def decision_id(self, h: HandRecord | None = None) -> int | None:
        """The id of the person's current decision (``None`` when it is not the person's
        turn): hand number and the number of moves made so far, so that a move sent for a
        decision the person saw earlier (a double click) never lands on a later one."""
        h = h if h is not None else self.current
        if h is None or h is not self.current or self.waiting != YOU:
            return None
        moves = sum(1 for e in h.events if isinstance(e, ActionTaken))
        return h.number * 100_000 + moves

    def act(self, kind: str, amount: int | None = None, *,
            action: int | None = None, decision: int | None = None) -> list[PlayEvent]:
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
        if self._generic:
            return self._generic_human(h, kind, amount, action)
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
            if amount is None and (self.game in ("leduc", "kuhn") or lg["min"] == lg["max"]):
                amount = int(lg["min"])
            if amount is None:
                raise PlayError("a raise needs an amount (the raise-to total)")
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise PlayError(f"raise amount must be an integer number of chips, got {amount!r}")
            if not lg["min"] <= amount <= lg["max"]:
                raise PlayError(f"raise to {amount} is outside the legal range "
                                f"{lg['min']}..{lg['max']}")
        if self.game in ("hunl", "pushfold"):
            return self._holdem_human(h, kind, amount)
        return self._small_human(h, kind)

    def _holdem_human(self, h: HandRecord, kind: str, amount: int | None) -> list[PlayEvent]:
        from pokerlab.holdem.engine import Action, ActionKind

        st = h.state
        if kind == "fold":
            action = Action(kind=ActionKind.FOLD)
        elif kind in ("check", "call"):
            action = Action(kind=ActionKind.CHECK_CALL)
        else:
            action = Action(kind=ActionKind.RAISE, amount=int(amount or 0))
        dec = Decision(street=STREETS[min(st.street, 3)], to_call=st.to_call, pot=st.pot,
                       chosen=self._describe(kind, amount, st.to_call), view=st.view(h.human_player),
                       human_player=h.human_player)
        if self.game == "pushfold":
            self._grade_pushfold(h, dec, aggressive=kind != "fold")
        h.decisions.append(dec)
        mark = len(st.history)
        st.apply(action)
        return self._holdem_progress(h, mark)

    def _small_human(self, h: HandRecord, kind: str) -> list[PlayEvent]:
        st = h.state
        acts = st.legal_actions()
        if self.game == "kuhn":
            a = 0 if kind in ("fold", "check") else 1
        else:
            a = {"fold": 0, "check": 1, "call": 1, "raise": 2}[kind]
        if a not in acts:
            raise PlayError(f"{kind} is not legal here")
        dec = Decision(street="round 1" if getattr(st, "round", 1) == 1 else "round 2",
                       to_call=0, pot=sum(self._small_contrib(st)),
                       chosen=self._small_kind(st, a), view=st.clone(),
                       human_player=h.human_player, action_id=int(a))
        h.decisions.append(dec)
        return self._small_apply(h, h.human_player, a)

    @staticmethod
    def _describe(kind: str, amount: int | None, to_call: int) -> str:
        if kind == "raise":
            return f"raise to {amount}"
        if kind in ("check", "call"):
            return f"call {to_call}" if to_call else "check"
        return kind

    # ------------------------------------------------------------ the agent's moves
    def agent_decision(self) -> Any:
        """The agent's move at the current decision (an engine ``Action`` or an action id).

        Pure with respect to the session: the server runs it in a worker thread.
        """
        h = self.current
        if h is None or self.waiting != AGENT:
            raise PlayError("the agent is not to act")
        p = 1 - h.human_player
        if self.game == "pushfold":
            return self._pushfold_agent(h, p)
        if self.game == "hunl":
            return self.agent.act(h.state.view(p))
        return int(self.agent.act_state(h.state.clone(), p))

    def apply_agent(self, move: Any, seconds: float = 0.0) -> list[PlayEvent]:
        """Apply the agent's move (checked; an illegal move raises :class:`PlayError`)."""
        h = self.current
        if h is None or self.waiting != AGENT:
            raise PlayError("the agent is not to act")
        self.agent_times.append(float(seconds))
        if len(self.agent_times) > 10_000:
            del self.agent_times[:5_000]
        p = 1 - h.human_player
        if self.game in ("hunl", "pushfold"):
            from pokerlab.holdem.engine import Action

            st = h.state
            if not isinstance(move, Action) or not st.legal().is_legal(move):
                raise PlayError(f"agent {self.agent_name!r} chose an illegal action {move!r}")
            mark = len(st.history)
            st.apply(move)
            return self._holdem_progress(h, mark)
        if move not in h.state.legal_actions():
            raise PlayError(f"agent {self.agent_name!r} chose an illegal action {move!r}")
        if self._generic:
            return self._generic_apply(h, p, int(move))
        return self._small_apply(h, p, int(move))

    def run_agent(self) -> list[PlayEvent]:
        """Let the agent act (in this thread) until the person must act or the hand ends."""
        out: list[PlayEvent] = []
        while self.waiting == AGENT:
            t0 = time.perf_counter()
            try:
                move = self.agent_decision()
            except Exception as exc:  # a crashing agent ends the hand, never the session
                return out + self.abort_hand(f"agent {self.agent_name!r} failed: {exc}")
            out += self.apply_agent(move, time.perf_counter() - t0)
        return out

    def abort_hand(self, error: str) -> list[PlayEvent]:
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

    def _pushfold_agent(self, h: HandRecord, p: int) -> Any:
        from pokerlab.holdem.engine import Action, ActionKind

        st = h.state
        c1, c2 = st.hole[p]
        lg = st.legal()
        if p == 1:  # the button (SB): shove or fold
            prob = self._pf.shove_prob(c1, c2)
            go = Action(kind=ActionKind.RAISE, amount=lg.max_raise_to)
        else:
            prob = self._pf.call_prob(c1, c2)
            go = Action(kind=ActionKind.CHECK_CALL)
        r = random.Random(self._agent_seed(h.number) * 7 + len(st.history)).random()
        if r < prob or not lg.can_fold:
            return go
        return Action(kind=ActionKind.FOLD)

    # ------------------------------------------------------------ coach
    def _grade_pushfold(self, h: HandRecord, dec: Decision, aggressive: bool) -> None:
        st = h.state
        c1, c2 = st.hole[h.human_player]
        sb = h.human_player == 1
        gain, loss = self._pf.grade(sb, c1, c2, aggressive)
        nash = self._pf.shove_prob(c1, c2) if sb else self._pf.call_prob(c1, c2)
        act = "shove" if sb else "call"
        dec.coach = {
            "street": dec.street, "chosen": dec.chosen,
            "frequencies": [[act, round(nash, 4)], ["fold", round(1 - nash, 4)]],
            "gain_bb": round(gain, 4), "ev_loss_bb": round(loss, 4),
            "grid": self._pf.grid(sb), "grid_title": f"Nash {act} frequency, {'SB' if sb else 'BB'}",
            "class": preflop_class(c1, c2),
        }
        self.stats.ev_loss += loss
        self.stats.decisions_graded += 1

    def coach_report(self, number: int | None = None) -> dict[str, Any]:
        """The coach's notes on the person's decisions of a finished hand."""
        h = self._finished(number)
        notes = []
        reach = 1.0  # the probability of the person's own earlier choices under the policy
        for d in h.decisions:
            if d.coach is None:
                d.coach = self._coach_decision(d)
                if d.action_id is not None and d.coach.get("frequencies") is not None:
                    d.coach["reached"] = reach > 1e-12
                    if reach <= 1e-12:
                        d.coach["note"] = (
                            "the agent's policy never reaches this point (an earlier choice "
                            "of yours has probability 0 under it): these frequencies are "
                            "arbitrary, not advice")
                    p = self._own_probability(d)
                    reach *= 1.0 if p is None else p
            notes.append(d.coach)
        return {"hand": h.number, "decisions": notes}

    def _own_probability(self, d: Decision) -> float | None:
        """The policy's probability of the action the person chose at ``d`` (small and
        generic games), or ``None`` when the agent does not say."""
        fn = (getattr(self.agent, "probabilities", None)
              or getattr(self.agent, "action_probabilities_state", None))
        if fn is None or d.view is None or d.action_id is None:
            return None
        try:
            probs = dict(fn(d.view, d.human_player))
        except Exception:
            return None
        return float(probs.get(d.action_id, 0.0))

    def _coach_decision(self, d: Decision) -> dict[str, Any]:
        out: dict[str, Any] = {"street": d.street, "chosen": d.chosen, "frequencies": None,
                               "grid": None}
        if self._generic:
            return self._generic_coach(d, out)
        if self.game in ("leduc", "kuhn"):
            probs = self.agent.probabilities(d.view, d.human_player) if hasattr(
                self.agent, "probabilities") else None
            if probs:
                st = d.view
                out["frequencies"] = [[self._small_kind(st, a), round(p, 4)]
                                      for a, p in sorted(probs.items())]
            return out
        fn = getattr(self.agent, "action_probabilities", None)
        if fn is None or d.view is None:
            out["note"] = f"agent {self.agent_name!r} does not expose its action frequencies"
            return out
        try:
            probs = list(fn(d.view))
        except Exception as exc:
            out["note"] = f"agent could not answer: {exc}"
            return out
        out["frequencies"] = [[self._action_label(a, d.to_call), round(float(p), 4)]
                              for a, p in probs]
        if d.street == "preflop":
            out["class"] = preflop_class(d.view.hole[0], d.view.hole[1])
            out["grid"] = self._hunl_grid(fn, d.view)
            out["grid_title"] = "agent's raise / call frequency by hand class"
        return out

    @staticmethod
    def _action_label(a: Any, to_call: int) -> str:
        from pokerlab.holdem.engine import ActionKind

        if a.kind == ActionKind.FOLD:
            return "fold"
        if a.kind == ActionKind.CHECK_CALL:
            return f"call {to_call}" if to_call else "check"
        return f"raise to {a.amount}"

    def _hunl_grid(self, fn: Callable[[Any], Any], view: Any) -> list[list[float]] | None:
        """Per class [raise, call] frequency of the agent at the person's preflop node."""
        import dataclasses

        from pokerlab.agents.base import HoleDealt
        from pokerlab.cards.cards import CLASS_NAMES, class_combos
        from pokerlab.cards.cards import COMBOS as _COMBOS
        from pokerlab.holdem.engine import ActionKind

        grid: list[list[float]] = []
        t0 = time.perf_counter()
        for name in CLASS_NAMES:
            k = int(class_combos(name)[0])
            hole = (int(_COMBOS[k, 0]), int(_COMBOS[k, 1]))
            evs = tuple(HoleDealt(e.player, hole) if isinstance(e, HoleDealt) else e
                        for e in view.events)
            v2 = dataclasses.replace(view, hole=hole, events=evs)
            try:
                probs = list(fn(v2))
            except Exception:
                return None
            r = sum(float(p) for a, p in probs if a.kind == ActionKind.RAISE)
            c = sum(float(p) for a, p in probs if a.kind == ActionKind.CHECK_CALL)
            grid.append([round(r, 3), round(c, 3)])
            if time.perf_counter() - t0 > 5.0:  # a slow agent: no grid rather than a hang
                return None
        return grid

    # ------------------------------------------------------------ snapshots
    def _finished(self, number: int | None) -> HandRecord:
        if number is None:
            h = self.current
            if h is None:
                raise PlayError("no hand has been played yet")
        else:
            if isinstance(number, bool) or not isinstance(number, int) or not (
                    1 <= number <= len(self.hands)):
                raise PlayError(f"no hand {number!r} in this session")
            h = self.hands[number - 1]
        if not h.over:
            raise PlayError(f"hand {h.number} is not over yet")
        return h

    def replay(self, number: int) -> dict[str, Any]:
        """The step-by-step frames of a finished hand (the person's view at each step)."""
        h = self._finished(number)
        if not h.frames:
            raise PlayError(f"hand {number} is too old; its replay was not kept")
        return {"hand": h.number, "frames": h.frames}

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
        you, ag = h.human_player, 1 - h.human_player
        if self.game in ("hunl", "pushfold"):
            st = h.state
            board = [card_str(c) for c in st.board]
            stacks = list(st.stacks)
            bets = list(st.bets)
            if h.over and not h.aborted:
                fin = st.final_stacks() if st.is_terminal else stacks
                stacks = [int(fin[0]), int(fin[1])]
                bets = [0, 0]
            pot = 0 if (h.over and not h.aborted) else st.pot
            street = STREETS[min(st.street, 3)]
            your_cards = [card_str(c) for c in st.hole[you]]
            agent_cards = [card_str(c) for c in st.hole[ag]] if h.revealed else None
            to_call = st.to_call if self.waiting == YOU and h is self.current else 0
        elif self._generic:
            return self._generic_snapshot(h, base)
        else:
            st = h.state
            contrib = self._small_contrib(st)
            board = [small_card(self.game, h.cards[2])] if (
                self.game == "leduc" and st.public >= 0) else []
            stacks = [self._small_stack(st, 0), self._small_stack(st, 1)]
            bets = contrib
            pot = sum(contrib)
            if h.over and not h.aborted:
                r = st.returns()
                stacks = [int(stacks[p] + contrib[p] + r[p]) for p in (0, 1)]
                pot = 0
            street = "round 2" if self.game == "leduc" and st.round == 2 else "round 1"
            your_cards = [small_card(self.game, h.cards[you])]
            agent_cards = [small_card(self.game, h.cards[ag])] if h.revealed else None
            to_call = max(contrib) - contrib[you] if self.waiting == YOU else 0
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
        if self.game in ("hunl", "pushfold"):
            return int(self.base_config.small_blind), int(self.base_config.big_blind)
        return None, None

    def _showdown(self, h: HandRecord) -> dict[str, Any] | None:
        """At the end of a hand: the pot each player collects (chips) and, at a showdown,
        both hands named ("two pair, kings and sevens"); ``None`` while the hand runs."""
        if not h.over or h.aborted:
            return None
        you, ag = h.human_player, 1 - h.human_player
        names: list[str | None] = [None, None]
        collected = [0, 0]
        showdown = False
        if self.game in ("hunl", "pushfold"):
            st = h.state
            fin = st.final_stacks()
            collected = [max(0, int(fin[p]) - int(st.stacks[p])) for p in (0, 1)]
            showdown = bool(st.is_showdown)
            if showdown and len(st.board) == 5:
                from pokerlab.cards.evaluator import evaluate

                for p in (0, 1):
                    desc = evaluate(list(st.hole[p]) + list(st.board))[2]
                    names[p] = desc.lower()
        elif self._generic:
            st = h.state
            contrib = self._g_contrib(st)
            r = st.returns()
            if contrib is not None:
                collected = [max(0, int(round(contrib[p] + r[p]))) for p in (0, 1)]
            showdown = (not any(st.folded)) if self.caps.showdown_flag else h.revealed
        else:
            st = h.state
            contrib = self._small_contrib(st)
            r = st.returns()
            collected = [max(0, int(round(contrib[p] + r[p]))) for p in (0, 1)]
            showdown = self._small_showdown(h)
            if showdown:
                for p in (0, 1):
                    names[p] = self._small_hand_name(h, p)
        winner = ("split" if collected[you] == collected[ag] else
                  YOU if collected[you] > collected[ag] else AGENT)
        return {"showdown": showdown, "winner": winner,
                "you": {"hand": names[you], "collected": collected[you]},
                "opponent": {"hand": names[ag] if h.revealed else None,
                             "collected": collected[ag]}}

    def _small_hand_name(self, h: HandRecord, p: int) -> str:
        names = {"J": "jack", "Q": "queen", "K": "king"}
        rank = small_card(self.game, h.cards[p])[0]
        if self.game == "leduc":
            board = small_card(self.game, h.cards[2])[0]
            if board == rank:
                return f"pair of {names[rank]}s"
            return f"{names[rank]} high"
        return names[rank]

    def history(self, limit: int = 100) -> list[dict[str, Any]]:
        """The last ``limit`` finished hands as the person saw them (their logs), for a page
        that reloads or a second tab."""
        out = []
        for h in self.hands[-limit:]:
            if not h.over:
                continue
            out.append({"hand": h.number, "result": round(h.result, 4), "aborted": h.aborted,
                        "log": [e.to_json() for e in h.events]})
        return out

    def summary(self) -> dict[str, Any]:
        s = self.stats.summary()
        s["unit"] = "bb" if self.game in ("hunl", "pushfold") else "chips"
        return s

    # ------------------------------------------------------------ hand histories
    def _write_phh(self, h: HandRecord) -> None:
        if self.folder is None:
            return
        from pokerlab.holdem import phh
        from pokerlab.io import atomic_write_text

        path = self.folder / f"hand_{h.number:05d}.phh"
        atomic_write_text(path, phh.dumps(h.state, hand=h.number, players=self._names(h)))
        h.phh_path = str(path)

    def _names(self, h: HandRecord) -> list[str]:
        names = ["", ""]
        names[h.human_player] = "you"
        names[1 - h.human_player] = "agent"
        return names

    def _write_small(self, h: HandRecord) -> None:
        if self.folder is None:
            return
        from pokerlab.io import atomic_write_json

        path = self.folder / f"hand_{h.number:05d}.json"
        atomic_write_json(path, {"game": self.game, "hand": h.number,
                                 "you": h.human_player,
                                 "cards": [small_card(self.game, c) for c in h.cards],
                                 "events": [e.to_json() for e in h.events],
                                 "result": h.result})
        h.phh_path = str(path)

    def phh_text(self, *, mask_hidden: bool = True) -> str:
        """The session's finished hold'em hands as ``.phhs`` text.

        With ``mask_hidden`` the agent's cards of hands it did not show are written as
        ``????`` (the person's download never holds mucked cards).
        """
        if self.game not in ("hunl", "pushfold"):
            raise PlayError(f"PHH hand histories exist for hold'em only, not {self.game!r}")
        from pokerkit import HandHistory

        from pokerlab.holdem import phh

        hhs = []
        for h in self.hands:
            if not h.over or h.aborted:
                continue
            st = h.state
            if mask_hidden and not h.revealed:
                st = _masked(st, 1 - h.human_player)
            hhs.append(phh.to_hand_history(st, hand=h.number, players=self._names(h)))
        if not hhs:
            return ""
        return str(HandHistory.dumps_all(hhs)) + "\n"


def _verb_text(kind: str, label: str, to_call: int) -> str:
    """A generic game's button text with the verb the situation calls for (a game may name
    a check "Call" and a bet "Raise"): Fold, Check, Call 2, Bet 4, Raise to 8."""
    amount = label.split()[-1] if label.split() and label.split()[-1].isdigit() else ""
    if kind == "fold":
        return "Fold"
    if kind == "check":
        return "Check"
    if kind == "call":
        return f"Call {to_call}" if to_call else "Call"
    if kind == "bet":
        return f"Bet {amount}" if amount else "Bet"
    if kind == "raise":
        return f"Raise to {amount}" if amount else "Raise"
    return label


def _masked(state: Any, hide: int) -> Any:
    """A copy of a finished hand with player ``hide``'s hole cards unknown."""
    from pokerlab.holdem.engine import HoldemState

    st = HoldemState(config=state.config)
    for item in state.history:
        tag = item[0]
        if tag == "hole":
            st.deal_hole(None if item[1] == hide else list(item[2]))
        elif tag == "board":
            st.deal_board(list(item[1]))
        elif tag == "fold":
            st.fold()
        elif tag == "cc":
            st.check_or_call()
        elif tag == "cbr":
            st.raise_to(int(item[2]))
    return st


def new_session_id() -> str:
    """An unguessable session id (192 random bits)."""
    return secrets.token_urlsafe(24)
