"""Heads-up no-limit hold'em (``"hunl"``): the one protocol game, for every abstraction.

``HUNLGame(config, abstraction, cards)`` wraps :class:`pokerlab.holdem.engine.HoldemState`
(whose docstring states the rules); the pot, stacks and payoffs are always the engine's.

* ``config`` -- a :class:`~pokerlab.holdem.engine.HoldemConfig` (stacks, blinds, ante).
* ``abstraction`` -- the action abstraction
  (:mod:`pokerlab.abstraction.action_map`): :class:`Identity` (default: every legal chip
  amount is an action) or :class:`BetSetAbstraction` (fold, check/call and a bet set's
  sizes).  All action ids come from its :class:`ActionMap` (``game.action_map``).
* ``cards`` -- optional card abstraction (:class:`~pokerlab.abstraction.buckets.CardAbstraction`,
  or a :class:`~pokerlab.abstraction.buckets.BucketConfig` loaded/built from the cache the
  first time it is needed).  It changes only the information-state strings.

Players: 0 = big blind, 1 = button/small blind (PHH ``p1``/``p2``).  Chance deals one
card per chance node, uniformly from the cards left: player 0's two hole cards, player
1's two, then the flop (three nodes), the turn and the river; an all-in run-out deals on
without betting.  The chance action id is the card (``rank*4 + suit``).

Player action ids: ``0`` fold, ``1`` check/call, and raises: ``2 + X`` = raise **to**
``X`` chips under :class:`Identity` (``num_distinct_actions() = 3 + max(stacks)``), or
``2 + k`` = the street's ``k``-th bet size under a bet set
(``num_distinct_actions() = 2 + max sizes per street``).  An illegal id raises
:class:`~pokerlab.holdem.engine.IllegalActionError`.

``returns()`` are chips won/lost (zero-sum).

Information-state format (defined once, in :func:`info_state_key`; the same for every
action abstraction, so a state reached by the same real betting has the same key)::

    [P<player>][<private>][<board>][<betting>]

* ``<private>``: the player's hole cards, higher card first (``AsKd``); with a card
  abstraction ``b`` + the player's bucket on every street dealt so far, joined by ``.``
  (``b12.40.7``: perfect recall of buckets); empty before the cards are dealt.
* ``<board>``: the flop high to low, then ``|turn``, ``|river`` (``QhJh2c|5d|8s``); empty
  under a card abstraction (the buckets stand for the board).
* ``<betting>``: :meth:`HoldemState.betting_string` -- ``f`` fold, ``c`` check/call,
  ``r<X>`` raise to ``X`` chips, streets separated by ``/`` (``r250c/cr900``).

Examples: ``[P0][AsAh][][]``, ``[P1][KdKc][9h7d2c][r300c/]``, ``[P0][b168.3][][r250c/c]``.
``public_state_string()`` is ``[<board>][<betting>]`` (always with the board cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pokerlab.abstraction.action_map import (
    CALL,
    FOLD,
    RAISE0,
    ActionAbstraction,
    ActionMap,
    BetSetAbstraction,
    Identity,
    check_translation,
    make_abstraction,
)
from pokerlab.cards.cards import BOARD_PREFIX, card_str
from pokerlab.errors import ConfigError
from pokerlab.games import register_game
from pokerlab.games.protocol import CHANCE, TERMINAL, CloneChild, GameInfo, TwoPlayerGame
from pokerlab.holdem.engine import (
    UNKNOWN,
    Action,
    HoldemConfig,
    HoldemState,
    IllegalActionError,
    Phase,
)

if TYPE_CHECKING:  # buckets imports numba kernels: loaded only when used
    from pokerlab.abstraction.buckets import BucketConfig, CardAbstraction

__all__ = ["CALL", "CHECK_CALL", "FOLD", "RAISE_BASE", "HUNLGame", "HUNLState", "board_string",
           "hunl_game", "info_state_key", "raise_action", "raise_amount"]

CHECK_CALL = CALL
RAISE_BASE = RAISE0


def raise_action(amount: int) -> int:
    """Identity abstraction: the action id of "bet/raise to ``amount`` chips"."""
    return RAISE0 + int(amount)


def raise_amount(action: int) -> int:
    """Identity abstraction: the raise-to amount of a raise action id."""
    return int(action) - RAISE0


def board_string(board: Sequence[int]) -> str:
    """The board field of the information-state format: sorted flop, ``|turn``, ``|river``."""
    b = list(board)
    flop = "".join(card_str(c) for c in sorted(b[:3], reverse=True))
    return "|".join([flop, *(card_str(c) for c in b[3:])])


def info_state_key(player: int, private: str, board: str, betting: str) -> str:
    """The one HUNL information-state string (see the module docstring)."""
    return f"[P{player}][{private}][{board}][{betting}]"


def hole_string(hole: Sequence[int]) -> str:
    """Hole cards of the format: higher card (``rank*4+suit``) first."""
    return "".join(card_str(c) for c in sorted(hole, reverse=True))


def bucket_string(cards: CardAbstraction, hole: Sequence[int], board: Sequence[int]) -> str:
    """``b`` + the bucket on every street dealt so far (streets the abstraction was built
    for), joined by ``.``."""
    nb = len(board)
    keys = [str(cards.bucket(s, hole, board[: BOARD_PREFIX[s]]))
            for s in range(4) if nb >= BOARD_PREFIX[s] and s < len(cards.tables)]
    return "b" + ".".join(keys)


class HUNLState(CloneChild):
    """Protocol state over a :class:`HoldemState` plus the chance cards not yet used."""

    __slots__ = ("game", "engine", "_pending")

    def __init__(self, game: HUNLGame, engine: HoldemState | None = None) -> None:
        self.game = game
        self.engine = engine if engine is not None else HoldemState(config=game.config)
        self._pending: list[int] = []

    # -- protocol ---------------------------------------------------------------------
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
        return {c for c in (*e.hole[0], *e.hole[1], *e.board, *self._pending) if c != UNKNOWN}

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        used = self._used()
        left = [c for c in range(52) if c not in used]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            used = self._used()
            return [c for c in range(52) if c not in used]
        return self.game.action_map.abstract_actions(self.engine)

    def to_real(self, action: int) -> Action:
        """The engine action of a player action id here (IllegalActionError if illegal)."""
        return self.game.action_map.to_real(self.engine, action)

    def raise_amount(self, action: int) -> int:
        """Raise-to chips of a raise action id legal here."""
        return self.game.action_map.raise_amount(self.engine, action)

    def translate(self, real: Action | int) -> list[tuple[int, float]]:
        """A real action (or raise-to amount) here as ``(action id, probability)`` pairs
        (:meth:`ActionMap.translate`)."""
        return self.game.action_map.translate(self.engine, real)

    def apply_action(self, action: int) -> None:
        a = int(action)
        e = self.engine
        if e.phase == Phase.TERMINAL:
            raise IllegalActionError(f"action {a} applied to a terminal hunl state")
        if self.is_chance_node():
            if not 0 <= a < 52 or a in self._used():
                raise IllegalActionError(f"illegal hunl deal {a} (card used or out of range)")
            self._pending.append(a)
            if len(self._pending) == e.cards_due():
                cards, self._pending = self._pending, []
                if e.phase == Phase.DEAL_HOLE:
                    e.deal_hole(cards)
                else:
                    e.deal_board(cards)
            return
        e.apply(self.game.action_map.to_real(e, a))

    def apply_real(self, action: Action) -> None:
        """Apply a real engine action (any legal chip amount) at a player node."""
        if self.current_player() not in (0, 1):
            raise IllegalActionError(f"no player to act for {action}")
        self.engine.apply(action)

    def clone(self) -> HUNLState:
        c = HUNLState.__new__(HUNLState)
        c.game = self.game
        c.engine = self.engine.clone()
        c._pending = list(self._pending)
        return c

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        p = self.engine.payoffs()
        return [float(p[0]), float(p[1])]

    def _board(self) -> list[int]:
        e = self.engine
        return [*e.board, *self._pending] if e.phase == Phase.DEAL_BOARD else list(e.board)

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        if p not in (0, 1):
            raise ConfigError(f"no information state for player {p!r}")
        e = self.engine
        hole = [c for c in e.hole[p] if c != UNKNOWN]
        if not e.hole[p] and e.phase == Phase.DEAL_HOLE and p == (0 if not e.hole[0] else 1):
            hole = list(self._pending)  # the first of this player's two cards
        cards = self.game.cards
        if cards is None:
            private, board = hole_string(hole), board_string(self._board())
        else:
            private = bucket_string(cards, hole, e.board) if len(hole) == 2 else ""
            board = ""
        return info_state_key(p, private, board, e.betting_string())

    def public_state_string(self) -> str:
        return f"[{board_string(self._board())}][{self.engine.betting_string()}]"

    def action_to_string(self, action: int) -> str:
        if self.is_chance_node():
            return f"deal {card_str(int(action))}"
        return self.game.action_map.action_name(self.engine, action)

    def __str__(self) -> str:
        return repr(self.engine)


class HUNLGame(TwoPlayerGame):
    """Heads-up no-limit hold'em over an action abstraction (see the module docstring)."""

    def __init__(self, config: HoldemConfig | None = None,
                 abstraction: ActionAbstraction | None = None,
                 cards: CardAbstraction | BucketConfig | None = None) -> None:
        cfg = config if config is not None else HoldemConfig()
        if not isinstance(cfg, HoldemConfig):
            raise ConfigError(f"config must be a HoldemConfig, got {cfg!r}")
        ab = abstraction if abstraction is not None else Identity()
        if not isinstance(ab, (Identity, BetSetAbstraction)):
            raise ConfigError(f"abstraction must be Identity or BetSetAbstraction, got {ab!r}")
        self.config = cfg
        self.abstraction: ActionAbstraction = ab
        self.action_map: ActionMap = ab.action_map()
        self._cards = cards

    @property
    def cards(self) -> CardAbstraction | None:
        """The card abstraction (loaded or built from the cache on first use), or None."""
        from pokerlab.abstraction.buckets import BucketConfig, load_or_build

        if isinstance(self._cards, BucketConfig):
            self._cards = load_or_build(self._cards)[0]
        return self._cards

    @property
    def bucket_config(self) -> BucketConfig | None:
        """The card abstraction's config without loading its tables."""
        from pokerlab.abstraction.buckets import BucketConfig

        c = self._cards
        if c is None or isinstance(c, BucketConfig):
            return c
        return c.config

    @property
    def name(self) -> str:
        return "hunl"

    def num_distinct_actions(self) -> int:
        return self.action_map.num_distinct_actions(self.config)

    def info(self) -> GameInfo:
        c = self.config
        eff = min(c.stacks)
        # Raises lift the top bet by >= 1 big blind (a short all-in ends the raising).
        raises = max(c.stacks) // c.big_blind + 1
        bets = self.action_map.bets
        if bets is not None and all(s.cap is not None for s in bets.streets):
            raises = min(raises, sum(int(s.cap or 0) for s in bets.streets))
        return GameInfo(num_players=2, num_distinct_actions=self.num_distinct_actions(),
                        zero_sum=True, min_utility=-float(eff), max_utility=float(eff),
                        private_cards_first=True, max_game_length=8 + raises,
                        big_blind=float(c.big_blind))

    def new_initial_state(self) -> HUNLState:
        return HUNLState(self)

    def state_from_engine(self, engine: HoldemState) -> HUNLState:
        """Wrap an engine state (between deals) of this game's config."""
        if engine.config != self.config:
            raise ConfigError(f"engine config {engine.config} differs from game config "
                              f"{self.config}")
        return HUNLState(self, engine)

    def game_string(self) -> str:
        """The ``load_game`` string of this game (``hunl(stacks=20000,bets=thesis,...)``)."""
        c = self.config
        st = (str(c.stacks[0]) if c.stacks[0] == c.stacks[1]
              else f"{c.stacks[0]}-{c.stacks[1]}")
        parts = [f"stacks={st}"]
        if (c.small_blind, c.big_blind) != (50, 100):
            parts += [f"small_blind={c.small_blind}", f"big_blind={c.big_blind}"]
        if c.ante:
            parts.append(f"ante={c.ante}")
        if self.abstraction.spec():
            parts.append(self.abstraction.spec())
        bc = self.bucket_config
        if bc is not None:
            from pokerlab.abstraction.buckets import PRESETS

            if bc.name in PRESETS and PRESETS[bc.name] == bc:
                parts.append(f"buckets={bc.name}")
            else:
                parts.append("buckets=" + "-".join(str(k) for k in bc.buckets))
                parts.append("methods=" + "-".join(bc.methods))
        return f"hunl({','.join(parts)})"

    def __repr__(self) -> str:
        return f"HUNLGame({self.game_string()})"


# ------------------------------------------------------------------ load_game factory
def _stacks_arg(value: Any) -> tuple[int, int]:
    if isinstance(value, str):
        items = [x for x in value.replace("/", "-").split("-") if x.strip()]
        try:
            vals = [int(x) for x in items]
        except ValueError:
            raise ConfigError(f"bad hunl stacks {value!r}: expected N or N-M chips") from None
    elif isinstance(value, int):
        vals = [value]
    else:
        vals = [int(x) for x in value]
    if len(vals) == 1:
        vals = vals * 2
    if len(vals) != 2:
        raise ConfigError(f"hunl needs 2 stacks, got {value!r}")
    return vals[0], vals[1]


def _bucket_arg(buckets: Any, methods: Any) -> BucketConfig | None:
    from pokerlab.abstraction.buckets import PRESETS, BucketConfig

    if buckets is None or (isinstance(buckets, str) and buckets.lower() in ("", "none")):
        if methods is not None:
            raise ConfigError("hunl option methods needs buckets")
        return None
    if isinstance(buckets, str) and buckets.lower() in PRESETS:
        if methods is not None:
            raise ConfigError(f"methods cannot be combined with the bucket preset {buckets!r}")
        return PRESETS[buckets.lower()]
    try:
        counts = tuple(int(x) for x in str(buckets).split("-"))
    except ValueError:
        raise ConfigError(f"bad hunl buckets {buckets!r}: expected a preset "
                          f"({', '.join(PRESETS)}) or four counts like 169-200-200-200") from None
    if methods is None:
        for p in PRESETS.values():
            if p.buckets == counts and p.max_street == 3:
                return p
        return BucketConfig(buckets=counts)
    meths = tuple(str(methods).split("-"))
    return BucketConfig(buckets=counts, methods=meths)


def hunl_game(*, stacks: Any = None, stacks_bb: float | None = None, stack: float | None = None,
              small_blind: int = 50, big_blind: int = 100, ante: int = 0,
              config: HoldemConfig | None = None, bets: Any = None,
              translation: str = "pseudo_harmonic", seed: int = 0, buckets: Any = None,
              methods: Any = None, cards: Any = None, **extra: Any) -> HUNLGame:
    """Factory for ``load_game("hunl", ...)`` and ``load_game("hunl(k=v,...)")``.

    Table: ``stack`` (= ``stacks_bb``, big blinds, both players) or ``stacks`` (chips: one
    value, a pair, or ``"N-M"``), ``small_blind``, ``big_blind``, ``ante`` (chips), or a
    whole ``config``.  Actions: ``bets`` (a preset name such as ``thesis``/``default``, a
    bet-set text, or a ``BetSet``; absent or ``identity``: every chip amount),
    ``translation`` (``pseudo_harmonic`` or ``nearest``), ``seed``.  Cards: ``buckets`` (a
    bucket preset such as ``default``/``small``/``test``, or counts ``169-200-200-200``)
    with optional ``methods`` (``lossless-pa-pa-ehs``), or a built ``cards`` abstraction.
    """
    if extra:
        raise ConfigError(f"unknown hunl option(s) {', '.join(sorted(extra))}; known: "
                          "stack, stacks, stacks_bb, small_blind, big_blind, ante, bets, "
                          "translation, seed, buckets, methods")
    if stack is not None and stacks_bb is not None:
        raise ConfigError("give stack or stacks_bb (the same option), not both")
    bb_stack = stack if stack is not None else stacks_bb
    if config is not None:
        if stacks is not None or bb_stack is not None:
            raise ConfigError("give config or stacks, not both")
        cfg = config
    elif stacks is not None and bb_stack is not None:
        raise ConfigError("give stacks (chips) or stack (big blinds), not both")
    elif bb_stack is not None:
        try:
            bbv = float(bb_stack)
        except (TypeError, ValueError):
            raise ConfigError(f"bad hunl stack {bb_stack!r}: expected big blinds") from None
        cfg = HoldemConfig.from_bb(bbv, small_blind=small_blind, big_blind=big_blind, ante=ante)
    else:
        pair = _stacks_arg(200 * int(big_blind) if stacks is None else stacks)
        cfg = HoldemConfig(stacks=pair, small_blind=small_blind, big_blind=big_blind, ante=ante)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"hunl seed must be an integer, got {seed!r}")
    if not isinstance(translation, str):
        raise ConfigError(f"hunl translation must be a name, got {translation!r}")
    check_translation(translation)
    bet_arg = None if bets is None else (bets if not isinstance(bets, (int, float))
                                         else str(bets))
    abstraction = make_abstraction(bet_arg, translation=translation, seed=seed)
    if cards is not None and buckets is not None:
        raise ConfigError("give cards or buckets, not both")
    card_arg = cards if cards is not None else _bucket_arg(buckets, methods)
    return HUNLGame(cfg, abstraction, card_arg)


register_game("hunl", hunl_game)
