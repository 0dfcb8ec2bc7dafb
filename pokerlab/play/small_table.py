"""The Kuhn and Leduc tables of the play session (:class:`SmallSession`, with
:class:`KuhnTable` and :class:`LeducTable` for what differs between the two games; see
:mod:`pokerlab.play.session` for the interface): the games' own card names, the exact LP
equilibrium as the default agent, hands written as JSON."""

from __future__ import annotations

from typing import Any

from pokerlab.play import session as ps
from pokerlab.play.errors import PlayError
from pokerlab.play.protocol_table import ProtocolTable
from pokerlab.play.registry import is_equilibrium
from pokerlab.play.session import AGENT, YOU, BoardDealt, HandStarted, TableEvent

RANKS = "JQK"
RANK_NAMES = {"J": "jack", "Q": "queen", "K": "king"}


class SmallSession(ProtocolTable):
    """A Kuhn-like card game against its exact equilibrium (or a given agent); the
    subclasses say what the game's deck, stacks, moves and cards are."""

    deck = 0
    """Cards in the deck."""
    dealt = 0
    """Cards dealt in a hand (the players' and the public one)."""
    stack = 0
    """Each player's chips (the ante included)."""

    def card(self, c: int) -> str:
        """The name of card ``c``."""
        raise NotImplementedError

    def _small_contrib(self, st: Any) -> list[int]:
        """The chips each player has put in."""
        raise NotImplementedError

    def _small_showdown(self, h: ps.HandRecord) -> bool:
        raise NotImplementedError

    def _small_facing(self, st: Any) -> bool:
        """The player to act faces a bet."""
        raise NotImplementedError

    def _small_kind(self, st: Any, a: int) -> str:
        """fold | check | call | bet | raise of action id ``a`` at ``st``."""
        raise NotImplementedError

    def _small_action(self, kind: str) -> int:
        """The action id of a checked move (fold | check | call | raise)."""
        raise NotImplementedError

    def _small_street(self, st: Any) -> str:
        return "round 1"

    def _small_board(self, h: ps.HandRecord) -> list[str]:
        """The public cards dealt so far."""
        return []

    def _small_hand_name(self, h: ps.HandRecord, p: int) -> str:
        return RANK_NAMES[self.card(h.cards[p])[0]]

    def _setup(self, agent: Any) -> None:
        from pokerlab.games import load_game
        from pokerlab.play.opponents import EquilibriumAgent

        self.small_game = load_game(self.game)
        self.big_blind = 1
        spec = self.config.agent.strip()
        if agent is None and not is_equilibrium(spec):
            from pokerlab.registry import make_agent  # adapt, random, policy:PATH

            agent = make_agent(spec, game=self.game, seed=self._seed % (2**31))
        self.agent = agent if agent is not None else EquilibriumAgent(self.game)
        self.agent_name = str(getattr(self.agent, "name", "equilibrium"))

    def _deal(self, number: int) -> list[TableEvent]:
        st = self.small_game.new_initial_state()
        human = 1 if number % 2 == 0 else 0  # player 0 acts first; alternate every hand
        if self.agent is not None and hasattr(self.agent, "reset"):
            self.agent.reset(self._agent_seed(number))
        cards = self._rng.sample(range(self.deck), self.dealt)
        h = ps.HandRecord(number=number, human_player=human, state=st, cards=cards)
        self.hands.append(h)
        st.apply_action(cards[0])
        st.apply_action(cards[1])
        ev = HandStarted(hand=number, button=self._who(h, 1),
                         stacks={YOU: self._small_stack(st, human),
                                 AGENT: self._small_stack(st, 1 - human)},
                         cards=[self.card(cards[human])])
        h.events.append(ev)
        out: list[TableEvent] = [ev]
        self._frame(h)
        out += self._small_progress(h)
        return out

    def _small_stack(self, st: Any, p: int) -> int:
        return self.stack - self._small_contrib(st)[p]

    def _small_apply(self, h: ps.HandRecord, player: int, a: int) -> list[TableEvent]:
        st = h.state
        kind = self._small_kind(st, a)
        before = self._small_contrib(st)[player]
        st.apply_action(int(a))
        after = self._small_contrib(st)[player]
        pot = sum(self._small_contrib(st))
        amount = after - before if kind in ("call", "check") else (0 if kind == "fold" else after)
        ev = self._taken(h, player, kind=kind, amount=amount, pot=pot)
        h.events.append(ev)
        self._frame(h)
        return [ev] + self._small_progress(h)

    def _small_progress(self, h: ps.HandRecord) -> list[TableEvent]:
        st = h.state
        out: list[TableEvent] = []
        if not st.is_terminal() and st.is_chance_node():  # leduc's public card
            st.apply_action(h.cards[2])
            ev = BoardDealt(street="flop", cards=[self.card(h.cards[2])])
            h.events.append(ev)
            self._frame(h)
            out.append(ev)
        if st.is_terminal():
            out += self._finish(h)
        return out

    def _showdown_of(self, h: ps.HandRecord) -> bool:
        return self._small_showdown(h)

    def _agent_shown(self, h: ps.HandRecord) -> list[str]:
        return [self.card(h.cards[1 - h.human_player])]

    def _human(self, h: ps.HandRecord, kind: str, amount: int | None,
               action: int | None) -> list[TableEvent]:
        kind, _ = self._checked(kind, amount, action)
        return self._small_human(h, kind)

    def _small_human(self, h: ps.HandRecord, kind: str) -> list[TableEvent]:
        st = h.state
        acts = st.legal_actions()
        a = self._small_action(kind)
        if a not in acts:
            raise PlayError(f"{kind} is not legal here")
        dec = ps.Decision(street=self._small_street(st),
                          to_call=0, pot=sum(self._small_contrib(st)),
                          chosen=self._small_kind(st, a), view=st.clone(),
                          human_player=h.human_player, action_id=int(a))
        h.decisions.append(dec)
        return self._small_apply(h, h.human_player, a)

    def _apply_move(self, h: ps.HandRecord, p: int, move: Any) -> list[TableEvent]:
        if move not in h.state.legal_actions():
            raise PlayError(f"agent {self.agent_name!r} chose an illegal action {move!r}")
        return self._small_apply(h, p, int(move))

    def _coach(self, d: ps.Decision, out: dict[str, Any]) -> dict[str, Any]:
        probs = self.agent.probabilities(d.view, d.human_player) if hasattr(
            self.agent, "probabilities") else None
        if probs:
            st = d.view
            out["frequencies"] = [[self._small_kind(st, a), round(p, 4)]
                                  for a, p in sorted(probs.items())]
        return out

    def _table(self, h: ps.HandRecord, base: dict[str, Any]) -> dict[str, Any]:
        you, ag = h.human_player, 1 - h.human_player
        st = h.state
        contrib = self._small_contrib(st)
        stacks = [self._small_stack(st, 0), self._small_stack(st, 1)]
        pot = sum(contrib)
        if h.over and not h.aborted:
            r = st.returns()
            stacks = [int(stacks[p] + contrib[p] + r[p]) for p in (0, 1)]
            pot = 0
        return self._standard_table(
            h, base, street=self._small_street(st), board=self._small_board(h),
            pot=pot, to_call=max(contrib) - contrib[you] if self.waiting == YOU else 0,
            stacks=stacks, bets=contrib, your_cards=[self.card(h.cards[you])],
            agent_cards=[self.card(h.cards[ag])] if h.revealed else None)

    def _showdown_facts(self, h: ps.HandRecord) -> tuple[list[str | None], list[int], bool]:
        st = h.state
        contrib = self._small_contrib(st)
        r = st.returns()
        collected = [max(0, int(round(contrib[p] + r[p]))) for p in (0, 1)]
        showdown = self._small_showdown(h)
        names: list[str | None] = [None, None]
        if showdown:
            for p in (0, 1):
                names[p] = self._small_hand_name(h, p)
        return names, collected, showdown

    def _hand_json(self, h: ps.HandRecord) -> dict[str, Any]:
        return {"game": self.game, "hand": h.number, "you": h.human_player,
                "cards": [self.card(c) for c in h.cards],
                "events": [e.to_json() for e in h.events], "result": h.result}


class KuhnTable(SmallSession, table="kuhn"):
    """Kuhn poker: three cards (J, Q, K), an ante of 1 and one bet of 1; the state keeps
    the moves (0 pass, 1 bet)."""

    deck, dealt, stack = 3, 2, 2

    def card(self, c: int) -> str:
        return RANKS[c]

    def _small_contrib(self, st: Any) -> list[int]:
        pot = [1, 1]
        for i, a in enumerate(st.history):
            if a == 1:
                pot[i % 2] += 1
        return pot

    def _small_showdown(self, h: ps.HandRecord) -> bool:
        hist = h.state.history
        return not (hist[-1] == 0 and len(hist) >= 2 and hist[-2] == 1)

    def _small_facing(self, st: Any) -> bool:
        return bool(st.history) and st.history[-1] == 1

    def _small_kind(self, st: Any, a: int) -> str:
        facing = self._small_facing(st)
        if a == 0:
            return "fold" if facing else "check"
        return "call" if facing else "bet"

    def _small_action(self, kind: str) -> int:
        return {"fold": 0, "check": 0, "call": 1, "raise": 1}[kind]

    def _legal(self, h: ps.HandRecord) -> dict[str, Any]:
        facing = self._small_facing(h.state)
        return {"fold": facing, "check": not facing, "call": 1 if facing else 0,
                "raise": not facing, "min": 2 if not facing else 0,
                "max": 2 if not facing else 0, "quick": {}, "verb": "bet"}


class LeducTable(SmallSession, table="leduc"):
    """Leduc hold'em: six cards (J, Q, K in two suits), an ante of 1, raises of 2 then 4
    and a public card after the first round; the state keeps the chips put in."""

    deck, dealt, stack = 6, 3, 100
    suits = "sh"

    def card(self, c: int) -> str:
        return RANKS[c // 2] + self.suits[c % 2]

    def _small_contrib(self, st: Any) -> list[int]:
        return [int(x) for x in st.contrib]

    def _small_showdown(self, h: ps.HandRecord) -> bool:
        return bool(h.state.folder < 0)

    def _small_facing(self, st: Any) -> bool:
        return 0 in st.legal_actions()

    def _small_kind(self, st: Any, a: int) -> str:
        facing = self._small_facing(st)
        if a == 0:
            return "fold"
        if a == 1:
            return "call" if facing else "check"
        return "raise" if facing else "bet"

    def _small_action(self, kind: str) -> int:
        return {"fold": 0, "check": 1, "call": 1, "raise": 2}[kind]

    def _small_street(self, st: Any) -> str:
        return "round 2" if st.round == 2 else "round 1"

    def _small_board(self, h: ps.HandRecord) -> list[str]:
        return [self.card(h.cards[2])] if h.state.public >= 0 else []

    def _small_hand_name(self, h: ps.HandRecord, p: int) -> str:
        rank = self.card(h.cards[p])[0]
        if self.card(h.cards[2])[0] == rank:
            return f"pair of {RANK_NAMES[rank]}s"
        return f"{RANK_NAMES[rank]} high"

    def _legal(self, h: ps.HandRecord) -> dict[str, Any]:
        st = h.state
        acts = st.legal_actions()
        facing = self._small_facing(st)
        contrib = self._small_contrib(st)
        to_call = contrib[1 - h.human_player] - contrib[h.human_player]
        can_raise = 2 in acts
        top = max(contrib) + (2 if st.round == 1 else 4) if can_raise else 0
        return {"fold": 0 in acts, "check": to_call == 0, "call": to_call, "raise": can_raise,
                "min": top, "max": top, "quick": {}, "verb": "raise" if facing else "bet"}
