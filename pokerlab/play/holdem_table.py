"""The hold'em table of the play session: a HUNL engine game against an agent
(:class:`HoldemSession`; see :mod:`pokerlab.play.session` for the interface; the push/fold
trainer, :mod:`pokerlab.play.pushfold_table`, is this table with its own agent and a
grader).  The hand's events are the engine's own records (:mod:`pokerlab.holdem.events`),
each handed to the agent's seat once and logged as an
:class:`~pokerlab.play.session.EngineRecord`.  Every finished hand is written to PHH."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pokerlab.cards.cards import preflop_class
from pokerlab.errors import PokerlabError
from pokerlab.play.errors import PlayError
from pokerlab.play.session import (
    AGENT,
    CARD_NAMES,
    STREETS,
    YOU,
    Decision,
    EngineRecord,
    HandRecord,
    HandStarted,
    Session,
    TableEvent,
)


class HoldemSession(Session, table="holdem"):
    """A HUNL engine game against an agent spec (``tag`` by default)."""

    shows_at_end = False

    def _setup(self, agent: Any) -> None:
        from pokerlab.holdem.engine import HoldemConfig

        config = self.config
        self.base_config = HoldemConfig.from_bb(config.stack)
        self.big_blind = self.base_config.big_blind
        spec = config.agent or "tag"
        try:
            self.agent = agent if agent is not None else self._make_agent(spec)
            self.agent_name = str(getattr(self.agent, "name", spec))
            self._warm_up()
        except PokerlabError as exc:
            raise PlayError(f"cannot start agent {spec!r}: {exc}") from None
        except Exception as exc:  # a broken agent: one clear error, never a traceback
            raise PlayError(f"cannot start agent {spec!r}: {type(exc).__name__}: "
                            f"{exc}") from None

    def _make_agent(self, spec: str) -> Any:
        """The session's agent for ``spec`` (a policy agent shares its loaded policy
        across sessions, :func:`pokerlab.play.agent_pool.session_agent`)."""
        from pokerlab.play.agent_pool import session_agent

        return session_agent(spec, config=self.base_config, seed=self._seed % (2**31))

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

    def _actor(self, h: HandRecord) -> int:
        from pokerlab.holdem.engine import Phase

        st = h.state
        return int(st.actor) if st.phase == Phase.BETTING else -1

    def _deal(self, number: int) -> list[TableEvent]:
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
                         cards=[CARD_NAMES[x] for x in cards[2 * human:2 * human + 2]])
        h.events.append(ev)
        out: list[TableEvent] = [ev]
        out += self._holdem_progress(h, 0)
        return out

    def _holdem_progress(self, h: HandRecord, since: int) -> list[TableEvent]:
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

    def _holdem_events(self, h: HandRecord, since: int) -> list[TableEvent]:
        """The engine's records from position ``since`` on, each once: handed to the agent
        (those its seat may see, :func:`~pokerlab.holdem.view.feed_events`) and logged as
        they are (:class:`~pokerlab.play.session.EngineRecord`: the seat's name, the agent's
        think time; the pot and bets come with the records)."""
        from pokerlab.holdem import events as hev
        from pokerlab.holdem.view import feed_events

        st = h.state
        if self.agent is not None:
            seats: list[Any] = [None, None]
            seats[1 - h.human_player] = self.agent
            feed_events(seats, st, since)
        out: list[TableEvent] = []
        for item in st.history[since:]:
            if isinstance(item, hev.HoleDealt):  # the person's cards are in HandStarted
                continue
            player = getattr(item, "player", -1)
            if isinstance(item, hev.Shown) and player != h.human_player:
                h.revealed = True
            ms, searched = self._agent_think(h, player) if isinstance(
                item, hev.ACTION_TYPES) else (None, None)
            ev = EngineRecord(item, who=self._who(h, player) if player >= 0 else "",
                              think_ms=ms, searched=searched)
            h.events.append(ev)
            out.append(ev)
            self._frame(h)
        return out

    def _end_hand(self, h: HandRecord, showdown: bool) -> None:
        from pokerlab.holdem.view import end_hand

        seats: list[Any] = [None, None]
        seats[1 - h.human_player] = self.agent
        end_hand(seats, h.state)

    def _settle(self, h: HandRecord) -> bool:
        st = h.state
        pay = st.payoffs()
        chips = int(pay[h.human_player])
        h.chips = chips
        h.result = chips / self.big_blind
        if self.config.carry_stacks:
            fin = st.final_stacks()
            self._stacks_carried = [int(fin[h.human_player]), int(fin[1 - h.human_player])]
        self._write_phh(h)
        return bool(st.is_showdown)

    def _legal(self, h: HandRecord) -> dict[str, Any]:
        st = h.state
        lg = st.legal()
        d: dict[str, Any] = {"fold": lg.can_fold, "check": lg.call_amount == 0,
                             "call": lg.call_amount, "raise": lg.can_raise,
                             "min": lg.min_raise_to, "max": lg.max_raise_to,
                             "quick": {}, "verb": "raise" if max(st.bets) > 0 else "bet"}
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

    def _human(self, h: HandRecord, kind: str, amount: int | None,
               action: int | None) -> list[TableEvent]:
        kind, amount = self._checked(kind, amount, action)
        return self._holdem_human(h, kind, amount)

    def _holdem_human(self, h: HandRecord, kind: str, amount: int | None) -> list[TableEvent]:
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
        if self.grader is not None:  # the push/fold trainer scores the decision
            self.grader.grade(dec, aggressive=kind != "fold", stats=self.stats)
        h.decisions.append(dec)
        mark = len(st.history)
        st.apply(action)
        return self._holdem_progress(h, mark)

    @staticmethod
    def _describe(kind: str, amount: int | None, to_call: int) -> str:
        if kind == "raise":
            return f"raise to {amount}"
        if kind in ("check", "call"):
            return f"call {to_call}" if to_call else "check"
        return kind

    def _agent_move(self, h: HandRecord, p: int) -> Any:
        return self.agent.act(h.state.view(p))

    def _apply_move(self, h: HandRecord, p: int, move: Any) -> list[TableEvent]:
        from pokerlab.holdem.engine import Action

        st = h.state
        if not isinstance(move, Action) or not st.is_legal(move):
            raise PlayError(f"agent {self.agent_name!r} chose an illegal action {move!r}")
        mark = len(st.history)
        st.apply(move)
        return self._holdem_progress(h, mark)

    def _coach(self, d: Decision, out: dict[str, Any]) -> dict[str, Any]:
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

    def _table(self, h: HandRecord, base: dict[str, Any]) -> dict[str, Any]:
        you, ag = h.human_player, 1 - h.human_player
        st = h.state
        stacks = list(st.stacks)
        bets = list(st.bets)
        if h.over and not h.aborted:
            fin = st.final_stacks() if st.is_terminal else stacks
            stacks = [int(fin[0]), int(fin[1])]
            bets = [0, 0]
        return self._standard_table(
            h, base, street=STREETS[min(st.street, 3)], board=[CARD_NAMES[c] for c in st.board],
            pot=0 if (h.over and not h.aborted) else st.pot,
            to_call=st.to_call if self.waiting == YOU and h is self.current else 0,
            stacks=stacks, bets=bets, your_cards=[CARD_NAMES[c] for c in st.hole[you]],
            agent_cards=[CARD_NAMES[c] for c in st.hole[ag]] if h.revealed else None)

    def _showdown_facts(self, h: HandRecord) -> tuple[list[str | None], list[int], bool]:
        st = h.state
        names: list[str | None] = [None, None]
        fin = st.final_stacks()
        collected = [max(0, int(fin[p]) - int(st.stacks[p])) for p in (0, 1)]
        showdown = bool(st.is_showdown)
        if showdown and len(st.board) == 5:
            from pokerlab.cards.evaluator import evaluate

            for p in (0, 1):
                names[p] = evaluate(list(st.hole[p]) + list(st.board))[2].lower()
        return names, collected, showdown

    def blinds(self) -> tuple[int | None, int | None]:
        return int(self.base_config.small_blind), int(self.base_config.big_blind)

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

    def phh_text(self, *, mask_hidden: bool = True) -> str:
        """The session's finished hold'em hands as ``.phhs`` text.

        With ``mask_hidden`` the agent's cards of hands it did not show are written as
        ``????`` (the person's download never holds mucked cards).
        """
        from pokerkit import HandHistory

        from pokerlab.holdem import phh

        hhs = []
        for h in self.hands:
            if not h.over or h.aborted:
                continue
            st = h.state
            if mask_hidden and not h.revealed:
                st = masked_state(st, 1 - h.human_player)
            hhs.append(phh.to_hand_history(st, hand=h.number, players=self._names(h)))
        if not hhs:
            return ""
        return str(HandHistory.dumps_all(hhs)) + "\n"


def masked_state(state: Any, hide: int) -> Any:
    """A copy of a finished hand with player ``hide``'s hole cards unknown."""
    from pokerlab.holdem import events as hev
    from pokerlab.holdem.engine import HoldemState
    from pokerlab.holdem.events import event_to_action

    st = HoldemState(config=state.config)
    for item in state.history:
        if isinstance(item, hev.HoleDealt):
            st.deal_hole(None if item.player == hide else list(item.cards))
        elif isinstance(item, hev.BoardDealt):
            st.deal_board(list(item.cards))
        elif isinstance(item, hev.ACTION_TYPES):
            st.apply(event_to_action(item))
    return st
