"""The generic table of the play session: any small two-player protocol game
(:class:`GenericSession`; see :mod:`pokerlab.play.session` for the interface and
:mod:`pokerlab.play.generic` for the checks and the capabilities it reads)."""

from __future__ import annotations

from typing import Any

from pokerlab.play import session as ps
from pokerlab.play.errors import PlayError
from pokerlab.play.protocol_table import ProtocolTable
from pokerlab.play.registry import is_equilibrium
from pokerlab.play.session import AGENT, YOU, BoardDealt, HandStarted, TableEvent


class GenericSession(ProtocolTable, table="generic"):
    """Any game string :func:`pokerlab.play.generic.load_play_game` accepts."""

    def _setup(self, agent: Any) -> None:
        """Any small two-player protocol game (see :mod:`pokerlab.play.generic`)."""
        from pokerlab.play.generic import capabilities, load_play_game

        self.small_game = load_play_game(self.game)
        self.caps = capabilities(self.small_game)
        self.big_blind = 1
        spec = (self.config.agent or "equilibrium").strip()
        if agent is None:
            if is_equilibrium(spec):
                from pokerlab.play.opponents import EquilibriumAgent

                agent = EquilibriumAgent(self.game)
            else:
                from pokerlab.registry import make_agent

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

    def _g_cards(self, h: ps.HandRecord, p: int) -> list[str]:
        """Player ``p``'s private cards as names (games exposing cards), else ``[]``."""
        card = self.caps.card
        if card is None:
            return []
        return [card(c) for c in h.state.hole[p]]

    def _g_street(self, st: Any) -> str:
        r = getattr(st, "round", None)
        return f"round {int(r) + 1}" if isinstance(r, int) else ""

    def _g_deal(self, h: ps.HandRecord) -> list[int]:
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

    def _g_board_events(self, h: ps.HandRecord, new: list[int]) -> list[TableEvent]:
        card = self.caps.card
        if not new or card is None:
            return []
        ev = BoardDealt(street=self._g_street(h.state) or "board", cards=[card(c) for c in new])
        h.events.append(ev)
        self._frame(h)
        return [ev]

    def _deal(self, number: int) -> list[TableEvent]:
        st = self.small_game.new_initial_state()
        human = 0 if number % 2 == 1 else 1  # seats alternate every hand
        if self.agent is not None and hasattr(self.agent, "reset"):
            self.agent.reset(self._agent_seed(number))
        h = ps.HandRecord(number=number, human_player=human, state=st, cards=[])
        self.hands.append(h)
        new = self._g_deal(h)
        ev = HandStarted(hand=number, button=self._who(h, 1),
                            stacks={YOU: self._g_stack(st, human), AGENT: self._g_stack(st, 1 - human)},
                            cards=self._g_cards(h, human))
        h.events.append(ev)
        out: list[TableEvent] = [ev]
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

    def _generic_apply(self, h: ps.HandRecord, player: int, a: int) -> list[TableEvent]:
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
        ev = self._taken(h, player, kind=kind, amount=amount, pot=pot, label=label)
        h.events.append(ev)
        self._frame(h)
        out: list[TableEvent] = [ev]
        out += self._g_board_events(h, self._g_deal(h))
        if st.is_terminal():
            out += self._finish(h)
        return out

    def _showdown_of(self, h: ps.HandRecord) -> bool:
        return (not any(h.state.folded)) if self.caps.showdown_flag else True

    def _agent_shown(self, h: ps.HandRecord) -> list[str]:
        from pokerlab.play.generic import safe_string

        ag = 1 - h.human_player
        return (self._g_cards(h, ag) if self.caps.card is not None
                else [safe_string(h.state.information_state_string, ag)])

    def _hand_json(self, h: ps.HandRecord) -> dict[str, Any]:
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
        return doc

    def _legal(self, h: ps.HandRecord) -> dict[str, Any]:
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

    def _match_action(self, h: ps.HandRecord, kind: str, amount: int | None) -> int:
        """A typed move (fold / check / call / raise AMOUNT / allin) -> a legal action id."""
        lg = self._legal(h)
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

    def _human(self, h: ps.HandRecord, kind: str, amount: int | None,
               action: int | None) -> list[TableEvent]:
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
        dec = ps.Decision(street=self._g_street(st),
                          to_call=(max(contrib) - contrib[you]) if contrib else 0,
                          pot=sum(contrib) if contrib else 0,
                          chosen=safe_string(st.action_to_string, a) or str(a), view=st.clone(),
                          human_player=you, action_id=int(a))
        h.decisions.append(dec)
        return self._generic_apply(h, you, int(a))

    def _apply_move(self, h: ps.HandRecord, p: int, move: Any) -> list[TableEvent]:
        if move not in h.state.legal_actions():
            raise PlayError(f"agent {self.agent_name!r} chose an illegal action {move!r}")
        return self._generic_apply(h, p, int(move))

    def _coach(self, d: ps.Decision, out: dict[str, Any]) -> dict[str, Any]:
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

    def _table(self, h: ps.HandRecord, base: dict[str, Any]) -> dict[str, Any]:
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

    def _showdown_facts(self, h: ps.HandRecord) -> tuple[list[str | None], list[int], bool]:
        st = h.state
        contrib = self._g_contrib(st)
        r = st.returns()
        collected = [0, 0]
        if contrib is not None:
            collected = [max(0, int(round(contrib[p] + r[p]))) for p in (0, 1)]
        showdown = (not any(st.folded)) if self.caps.showdown_flag else h.revealed
        return [None, None], collected, showdown


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
