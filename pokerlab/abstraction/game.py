"""The abstract heads-up no-limit game: the exact engine with a fixed bet set.

:class:`AbstractGame` is a :class:`pokerlab.games.protocol.Game` over
:class:`pokerlab.holdem.engine.HoldemState`: the rules, pot, stacks and payoffs are the
engine's; only the action set is restricted to the bet set (plus fold and check/call).

* Action ids: ``0`` fold, ``1`` check/call, ``2 + k`` the ``k``-th size of the street's bet
  list (:func:`pokerlab.abstraction.bets.resolve_raises`: clamped to the legal range,
  duplicates merged, so a size that lands on the same chip amount as an earlier one is
  not offered).  ``num_distinct_actions() = 2 + max sizes per street``.
* Chance deals one card at a time, uniformly from the cards left: player 0's two hole
  cards, player 1's two, then the board (3, 1, 1); an all-in run-out deals on without
  betting.  Player 0 is the big blind, player 1 the button (the engine's seats).
* ``returns()`` are chips won (zero-sum).
* ``information_state_string(p)``: the player's cards (or, with a card abstraction, the
  bucket of every street seen so far) plus the public betting; ``public_state_string()``
  the board and the betting.

:func:`tree_size` counts the abstract betting tree (no cards): decision nodes and
actions per street, terminal nodes, information sets for given bucket counts (perfect
and imperfect recall of buckets) and the memory of regret + average-strategy tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.abstraction.bets import BetSet, preset, resolve_raises
from pokerlab.abstraction.buckets import CardAbstraction
from pokerlab.abstraction.translation import pot_fraction, translation_probs
from pokerlab.cards.cards import card_str
from pokerlab.errors import BetSizeError, ConfigError
from pokerlab.games.protocol import CHANCE, TERMINAL
from pokerlab.holdem.engine import (
    UNKNOWN,
    HoldemConfig,
    HoldemState,
    Phase,
)

FOLD = 0
CALL = 1
RAISE0 = 2


def _raise_options(st: HoldemState, bets: BetSet) -> list[tuple[int, int]]:
    """``(action id, raise-to)`` of the abstract raises legal in ``st`` (sorted by amount)."""
    if st.phase != Phase.BETTING or not st.can_raise:
        return []
    p = st.actor
    street = bets.street(st.street)
    top = max(st.bets)
    opts = resolve_raises(street, pot=st.pot, current_bet=top, to_call=top - st.bets[p],
                          min_raise_to=st.min_raise_to, all_in_to=st.max_raise_to,
                          big_blind=st.config.big_blind, raises_so_far=st.num_raises)
    return [(RAISE0 + k, amt) for k, amt in opts]


def abstract_actions(st: HoldemState, bets: BetSet) -> list[int]:
    """Legal abstract action ids at a betting state (ascending)."""
    acts = [FOLD] if st.can_fold else []
    acts.append(CALL)
    acts.extend(sorted(a for a, _ in _raise_options(st, bets)))
    return acts


@dataclass(frozen=True, kw_only=True)
class AbstractGameConfig:
    holdem: HoldemConfig = field(default_factory=HoldemConfig)
    bets: BetSet = field(default_factory=lambda: preset("default"))

    def to_json(self) -> dict[str, Any]:
        return {"holdem": self.holdem.to_json(), "bets": self.bets.to_json()}


class AbstractGame:
    """Heads-up no-limit hold'em restricted to a bet set (a ``Game``)."""

    def __init__(self, *, config: AbstractGameConfig | None = None,
                 cards: CardAbstraction | None = None) -> None:
        self.config = config or AbstractGameConfig()
        self.cards = cards

    @property
    def name(self) -> str:
        return "abstract_holdem"

    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return RAISE0 + self.config.bets.max_sizes

    def new_initial_state(self) -> AbstractState:
        return AbstractState(game=self, engine=HoldemState(config=self.config.holdem))


class AbstractState:
    """A state of :class:`AbstractGame` (wraps an engine state)."""

    __slots__ = ("game", "engine", "pending_cards")

    def __init__(self, *, game: AbstractGame, engine: HoldemState,
                 pending_cards: list[int] | None = None) -> None:
        self.game = game
        self.engine = engine
        self.pending_cards: list[int] = pending_cards or []

    # ------------------------------------------------------------ protocol
    def current_player(self) -> int:
        ph = self.engine.phase
        if ph == Phase.TERMINAL:
            return TERMINAL
        if ph == Phase.BETTING:
            return int(self.engine.actor)
        return CHANCE

    def is_terminal(self) -> bool:
        return self.engine.phase == Phase.TERMINAL

    def is_chance_node(self) -> bool:
        return self.engine.phase in (Phase.DEAL_HOLE, Phase.DEAL_BOARD)

    def _used(self) -> set[int]:
        e = self.engine
        return {c for c in (*e.hole[0], *e.hole[1], *e.board, *self.pending_cards)
                if c != UNKNOWN}

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            used = self._used()
            return [c for c in range(52) if c not in used]
        return abstract_actions(self.engine, self.game.config.bets)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        cards = self.legal_actions()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def raise_amount(self, action: int) -> int:
        """Chip raise-to amount of an abstract raise id legal here."""
        for a, amt in _raise_options(self.engine, self.game.config.bets):
            if a == action:
                return amt
        raise BetSizeError(f"action {action} is not a legal abstract raise here "
                           f"(legal: {self.legal_actions()})")

    def apply_action(self, action: int) -> None:
        e = self.engine
        if self.is_chance_node():
            if action in self._used() or not 0 <= action < 52:
                raise ConfigError(f"chance action {action} is not a card left in the deck")
            self.pending_cards.append(int(action))
            need = e.cards_due()
            if len(self.pending_cards) == need:
                cards, self.pending_cards = self.pending_cards, []
                if e.phase == Phase.DEAL_HOLE:
                    e.deal_hole(cards)
                else:
                    e.deal_board(cards)
            return
        if self.is_terminal():
            raise ConfigError("no action can be applied at a terminal state")
        if action == FOLD:
            if not e.can_fold:
                raise BetSizeError("fold is not legal here (not facing a bet)")
            e.fold()
        elif action == CALL:
            e.check_or_call()
        else:
            e.raise_to(self.raise_amount(action))

    def child(self, action: int) -> AbstractState:
        s = self.clone()
        s.apply_action(action)
        return s

    def clone(self) -> AbstractState:
        return AbstractState(game=self.game, engine=self.engine.clone(),
                             pending_cards=list(self.pending_cards))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        p = self.engine.payoffs()
        return [float(p[0]), float(p[1])]

    def _private_key(self, player: int) -> str:
        e = self.engine
        hole = e.hole[player]
        if len(hole) < 2:
            return "?"
        ab = self.game.cards
        if ab is None:
            return "".join(card_str(c) for c in hole)
        nb = len(e.board)
        streets = [s for s, need in ((0, 0), (1, 3), (2, 4), (3, 5)) if nb >= need]
        keys = [str(ab.bucket(s, hole, e.board[: (0, 3, 4, 5)[s]])) for s in streets
                if s < len(ab.tables)]
        return "b" + ".".join(keys)

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        if p < 0:
            raise ConfigError("information_state_string needs a player at a chance/terminal node")
        e = self.engine
        board = "" if self.game.cards is not None else "".join(card_str(c) for c in e.board)
        return f"[P{p}][{self._private_key(p)}][{board}][{e.betting_string()}]"

    def public_state_string(self) -> str:
        e = self.engine
        return f"[{''.join(card_str(c) for c in e.board)}][{e.betting_string()}]"

    def action_to_string(self, action: int) -> str:
        if self.is_chance_node():
            return card_str(action)
        if action == FOLD:
            return "fold"
        if action == CALL:
            return "check" if self.engine.to_call == 0 else "call"
        size = self.game.config.bets.street(self.engine.street).sizes[action - RAISE0]
        return f"raise {size.text()} to {self.raise_amount(action)}"

    # ------------------------------------------------------------ translation
    def translate(self, raise_to: int, *, method: str = "pseudo_harmonic",
                  rng: np.random.Generator | None = None) -> list[tuple[int, float]]:
        """Map a real raise-to amount (any legal size) onto this state's abstract raises:
        ``(action id, probability)`` pairs (see :mod:`pokerlab.abstraction.translation`)."""
        e = self.engine
        opts = _raise_options(e, self.game.config.bets)
        if not opts:
            raise BetSizeError("no abstract raise is legal here; nothing to translate into")
        top = max(e.bets)
        tc = top - e.bets[e.actor]
        fr = [pot_fraction(raise_to=a, pot=e.pot, current_bet=top, to_call=tc) for _, a in opts]
        x = pot_fraction(raise_to=raise_to, pot=e.pot, current_bet=top, to_call=tc)
        probs = translation_probs(x, fr, method=method)
        return [(opts[i][0], p) for i, p in probs]


# ------------------------------------------------------------------ tree size
@dataclass(kw_only=True)
class TreeSize:
    """Size of the abstract betting tree (public nodes, no cards)."""

    decision_nodes: list[int]
    actions: list[int]
    terminal_folds: int
    terminal_showdowns: int
    infosets: int
    infosets_perfect_recall: int
    values: int
    buckets: tuple[int, ...]
    bytes_per_value: int

    @property
    def memory_bytes(self) -> int:
        """Regrets plus average-strategy sums: two values per (infoset, action)."""
        return 2 * self.values * self.bytes_per_value

    def to_json(self) -> dict[str, Any]:
        names = ("preflop", "flop", "turn", "river")
        return {
            "sequences": {names[s]: self.decision_nodes[s] for s in range(4)},
            "actions": {names[s]: self.actions[s] for s in range(4)},
            "decision_nodes": sum(self.decision_nodes),
            "terminal_folds": self.terminal_folds,
            "terminal_showdowns": self.terminal_showdowns,
            "buckets": list(self.buckets),
            "infosets": self.infosets,
            "infosets_perfect_recall": self.infosets_perfect_recall,
            "values_per_table": self.values,
            "bytes_per_value": self.bytes_per_value,
            "memory_bytes": self.memory_bytes,
        }


def _key(st: HoldemState) -> tuple[Any, ...]:
    return (st.street, st.phase, st.actor, tuple(st.bets), tuple(st.stacks), st.last_raise,
            st.num_raises, tuple(st.pending), bool(st.showdown_order), st.collected)


def tree_size(bets: BetSet, holdem: HoldemConfig | None = None, *,
              buckets: tuple[int, ...] = (169, 200, 200, 200),
              bytes_per_value: int = 4, max_nodes: int = 3_000_000) -> TreeSize:
    """Count the abstract betting tree of ``bets`` (memoised over identical betting states).

    Information sets: a decision node on street ``s`` holds ``buckets[s]`` of them with
    imperfect recall (the current bucket only) and ``prod(buckets[:s+1])`` with perfect
    recall.  ``values`` counts (infoset, action) pairs with imperfect recall.
    """
    if len(buckets) != 4 or any(b < 1 for b in buckets):
        raise ConfigError(f"buckets needs 4 positive counts, got {buckets!r}")
    cfg = holdem or HoldemConfig()
    pr = [int(np.prod(buckets[: s + 1], dtype=object)) for s in range(4)]
    memo: dict[tuple[Any, ...], tuple[int, ...]] = {}
    # result vector: nodes[4], actions[4], folds, showdowns, infosets, infosets_pr, values
    zero = (0,) * 13

    def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(x + y for x, y in zip(a, b, strict=True))

    def rec(st: HoldemState) -> tuple[int, ...]:
        while st.phase == Phase.DEAL_BOARD:
            st.deal_board(None)
        if st.phase == Phase.TERMINAL:
            r = [0] * 13
            if st.folded >= 0:
                r[8] = 1
            else:
                r[9] = 1
            return tuple(r)
        k = _key(st)
        hit = memo.get(k)
        if hit is not None:
            return hit
        if len(memo) > max_nodes:
            raise ConfigError(f"betting tree has more than {max_nodes} distinct states; "
                              "use a raise cap or fewer sizes")
        acts = abstract_actions(st, bets)
        s = st.street
        r = [0] * 13
        r[s] = 1
        r[4 + s] = len(acts)
        r[10] = buckets[s]
        r[11] = pr[s]
        r[12] = buckets[s] * len(acts)
        tot = tuple(r)
        opts = dict(_raise_options(st, bets))
        for a in acts:
            c = st.clone()
            if a == FOLD:
                c.fold()
            elif a == CALL:
                c.check_or_call()
            else:
                c.raise_to(opts[a])
            tot = add(tot, rec(c))
        memo[k] = tot
        return tot

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        root = HoldemState(config=cfg)
        root.deal_hole(None)
        root.deal_hole(None)
        res = rec(root) if root.phase != Phase.TERMINAL else zero
    finally:
        sys.setrecursionlimit(old)
    return TreeSize(decision_nodes=list(res[0:4]), actions=list(res[4:8]),
                    terminal_folds=res[8], terminal_showdowns=res[9], infosets=res[10],
                    infosets_perfect_recall=res[11], values=res[12],
                    buckets=tuple(buckets), bytes_per_value=bytes_per_value)
