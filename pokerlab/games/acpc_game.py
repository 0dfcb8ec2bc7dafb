"""A protocol game for any two-player ACPC game definition (:class:`~pokerlab.games.gamedef.GameDef`).

Rules are those of the ACPC dealer (``project_acpc_server/game.c``) as OpenSpiel's
``universal_poker`` plays them, and the action ids, chance outcomes and
information-state strings are ``universal_poker``'s, so policies convert to OpenSpiel by key:

* **Deck and showdown**: :mod:`pokerlab.games.acpc_cards` (card ids, hand ranking).
* **Chance.** One card per chance node, uniformly from the cards left: player 0's hole
  cards, then player 1's, then each round's board cards when that round starts (all the
  remaining board cards once betting ends with a player all-in).
* **Betting** (ACPC): blinds posted, ``firstPlayer`` opens each round, players who folded
  or are all-in are skipped, at most ``maxRaises`` raises and 64 actions per round.
  Limit: ``raiseSize`` per round (capped by the stack).  No-limit: a raise is to at least
  the last raise-to plus the last raise increment (``2 * blind`` at the start; the big
  blind on later rounds), at most the stack; a short stack may raise all-in.
* **Action ids.** 0 fold, 1 check/call; limit: 2 raise; no-limit ``fullgame``: the
  raise-to amount in chips (every legal size, ids ``2..stack``); ``fcpa``: 2 pot-sized
  raise, 3 all-in (OpenSpiel's default abstraction); ``fc``: no raises.
* **Information states** are ``universal_poker``'s strings verbatim (``[Round 1][Player:
  0][Pot: 6][Money: 97 97][Private: 3d][Public: 4c][Sequences: cr|]``) when board cards
  come in at most one round.  Otherwise ``universal_poker``'s string lists the board as one
  sorted set and so forgets in which round each card came (imperfect recall); pokerlab
  then separates the rounds' cards with ``|`` (``[Public: 3c|3d]``) and the policies of
  such games do not convert to OpenSpiel by key.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.games.acpc_cards import card_groups, card_string, cardset_string, hand_value
from pokerlab.games.gamedef import (
    BETTING_ABSTRACTIONS,
    INT32_MAX,
    MAX_NUM_ACTIONS,
    GameDef,
    GameDefError,
)
from pokerlab.games.protocol import CHANCE, TERMINAL, CloneChild, GameInfo, TwoPlayerGame

FOLD = 0
CALL = 1
RAISE = 2   # limit raise / fcpa pot-sized raise
ALL_IN = 3  # fcpa
_A_FOLD, _A_CALL, _A_RAISE = 0, 1, 2


class AcpcState(CloneChild):
    __slots__ = ("_game", "hole", "board", "used", "round", "actions", "spent", "max_spent",
                 "min_raise_to", "folded", "finished", "_node", "log", "street_base")

    def __init__(self, game: AcpcGame) -> None:
        gd = game.gamedef
        self._game = game
        self.hole: list[list[int]] = [[] for _ in range(gd.num_players)]
        self.board: list[int] = []
        self.used = 0  # bit mask of dealt cards
        self.round = 0
        # per round: (type, raise-to size or 0, player)
        self.actions: list[list[tuple[int, int, int]]] = [[] for _ in range(gd.num_rounds)]
        self.spent = list(gd.blind)
        self.max_spent = max(gd.blind)
        if gd.is_limit:
            self.min_raise_to = 0
        else:
            self.min_raise_to = 2 * self.max_spent if self.max_spent else 1
        self.folded = [False] * gd.num_players
        self.finished = False
        self._node = CHANCE
        self.log: list[tuple[int, float, float]] = []  # (round, chips added, pot before)
        self.street_base = 0  # each player's spending when this round began (0 in round 1)

    # ------------------------------------------------------------------ ACPC rules
    def _next_player(self, cur: int) -> int:
        gd = self._game.gamedef
        n = gd.num_players
        p = cur
        for _ in range(n):
            p = (p + 1) % n
            if not self.folded[p] and self.spent[p] < gd.stack[p]:
                return p
        raise ConfigError("no player can act")  # unreachable in a live state

    def _acting_player(self) -> int:
        gd = self._game.gamedef
        acts = self.actions[self.round]
        if acts:
            return self._next_player(acts[-1][2])
        return self._next_player(gd.first_player[self.round] - 1 + gd.num_players - 1)

    def _num_acting(self) -> int:
        gd = self._game.gamedef
        return sum(1 for p in range(gd.num_players)
                   if not self.folded[p] and self.spent[p] < gd.stack[p])

    def _num_called(self) -> int:
        gd = self._game.gamedef
        ret = 0
        for typ, _size, p in reversed(self.actions[self.round]):
            if typ == _A_RAISE:
                if self.spent[p] < gd.stack[p]:
                    ret += 1
                return ret
            if typ == _A_CALL and self.spent[p] < gd.stack[p]:
                ret += 1
        return ret

    def _board_needed(self) -> int:
        return sum(self._game.gamedef.num_board_cards[: self.round + 1])

    def _update_node(self) -> None:
        gd = self._game.gamedef
        if self.finished:
            if sum(self.folded) >= gd.num_players - 1:
                self._node = TERMINAL
            elif len(self.board) < self._board_needed():
                self._node = CHANCE
            else:
                self._node = TERMINAL
            return
        if sum(len(h) for h in self.hole) < gd.num_players * gd.num_hole_cards:
            self._node = CHANCE
        elif len(self.board) < self._board_needed():
            self._node = CHANCE
        else:
            self._node = self._acting_player()

    def raise_range(self) -> tuple[int, int] | None:
        """``(min, max)`` raise-to of the player to act (``(0, 0)`` in limit), or None."""
        gd = self._game.gamedef
        acts = self.actions[self.round]
        if sum(1 for a in acts if a[0] == _A_RAISE) >= gd.max_raises[self.round]:
            return None
        if len(acts) + gd.num_players > MAX_NUM_ACTIONS:
            return None
        if self._num_acting() <= 1:
            return None
        if gd.is_limit:
            return (0, 0)
        p = self._node
        lo, hi = self.min_raise_to, gd.stack[p]
        if lo > hi:
            if self.max_spent >= hi:
                return None
            lo = hi
        return (lo, hi)

    def bet_options(self, rr: tuple[int, int]) -> list[tuple[int, int]]:
        """Bet-set abstraction: ``(action id, raise-to)`` of this round's sizes (ids ``2 + k``
        for the ``k``-th size; sizes landing on the same amount are merged)."""
        from pokerlab.abstraction.bets import resolve_raises

        gd = self._game.gamedef
        bets = self._game.bets
        assert bets is not None
        p = self._node
        base = self.street_base
        raises = sum(1 for a in self.actions[self.round] if a[0] == _A_RAISE)
        opts = resolve_raises(bets.street(self.round), pot=sum(self.spent),
                              current_bet=self.max_spent - base,
                              to_call=self.max_spent - self.spent[p],
                              min_raise_to=rr[0] - base, all_in_to=rr[1] - base,
                              big_blind=max(gd.blind), raises_so_far=raises)
        return [(RAISE + k, amt + base) for k, amt in opts]

    def _fold_legal(self) -> bool:
        p = self._node
        return self.spent[p] != self.max_spent and self.spent[p] != self._game.gamedef.stack[p]

    def _pot_raise_to(self) -> int:
        p = self._node
        return sum(self.spent) + 2 * self.max_spent - self.spent[p]

    def _do(self, typ: int, size: int) -> None:
        gd = self._game.gamedef
        p = self._node
        self.actions[self.round].append((typ, size, p))
        before, pot = self.spent[p], sum(self.spent)
        if typ == _A_FOLD:
            self.folded[p] = True
        elif typ == _A_CALL:
            self.spent[p] = min(self.max_spent, gd.stack[p])
        else:
            if gd.is_limit:
                self.max_spent = min(self.max_spent + gd.raise_size[self.round], gd.stack[p])
            else:
                if 2 * size - self.max_spent > self.min_raise_to:
                    self.min_raise_to = 2 * size - self.max_spent
                self.max_spent = size
            self.spent[p] = self.max_spent
        self.log.append((self.round, float(self.spent[p] - before), float(pot)))
        if sum(self.folded) + 1 >= gd.num_players:
            self.finished = True
        elif self._num_called() >= self._num_acting():
            if self._num_acting() > 1:
                if self.round + 1 < gd.num_rounds:
                    self.round += 1
                    self.street_base = self.max_spent
                    self.min_raise_to = max(1, max(gd.blind)) + self.max_spent
                else:
                    self.finished = True
            else:
                self.finished = True
                self.round = gd.num_rounds - 1
        self._update_node()

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        return self._node

    def is_terminal(self) -> bool:
        return self._node == TERMINAL

    def is_chance_node(self) -> bool:
        return self._node == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._node != CHANCE:
            return []
        used = self.used
        left = [c for c in range(self._game.gamedef.deck_size) if not used >> c & 1]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def betting_round(self) -> int:
        """The betting round, counted from 1 (``round`` counts from 0 as in the ACPC code)."""
        return self.round + 1

    def legal_actions(self) -> list[int]:
        node = self._node
        if node == TERMINAL:
            return []
        if node == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        acts = [FOLD, CALL] if self._fold_legal() else [CALL]
        rr = self.raise_range()
        ab = self._game.betting_abstraction
        if rr is None or ab == "fc":
            return acts
        if self._game.gamedef.is_limit:
            acts.append(RAISE)
        elif ab == "bets":
            acts.extend(sorted(a for a, _ in self.bet_options(rr)))
        elif ab == "fullgame":
            acts.extend(range(rr[0], rr[1] + 1))
        else:  # fcpa, as universal_poker
            pot = self._pot_raise_to()
            if rr[0] <= pot <= rr[1]:
                acts.append(RAISE)
            if pot != rr[1]:
                acts.append(ALL_IN)
        return acts

    def apply_action(self, action: int) -> None:
        node = self._node
        gd = self._game.gamedef
        if not isinstance(action, (int, np.integer)):
            raise ConfigError(f"action must be an integer id, got {action!r}")
        a = int(action)
        if node == TERMINAL:
            raise ConfigError(f"action {action!r} applied to a terminal state of "
                              f"{self._game.name}")
        if node == CHANCE:
            if not 0 <= a < gd.deck_size or self.used >> a & 1:
                raise ConfigError(f"illegal deal {action!r} in {self._game.name}")
            self.used |= 1 << a
            for h in self.hole:
                if len(h) < gd.num_hole_cards:
                    h.append(a)
                    break
            else:
                self.board.append(a)
            self._update_node()
            return
        size = self._raise_size(a) if a >= RAISE else 0
        if size is None or a < 0 or (a == FOLD and not self._fold_legal()):
            raise ConfigError(f"illegal action {action!r} in {self._game.name}; legal: "
                              f"{_short(self.legal_actions())}")
        self._do(_A_FOLD if a == FOLD else _A_CALL if a == CALL else _A_RAISE, size)

    def _raise_size(self, a: int) -> int | None:
        """The raise-to of raise id ``a`` here (0 in limit games), None when illegal."""
        rr = self.raise_range()
        ab = self._game.betting_abstraction
        if rr is None or ab == "fc":
            return None
        if self._game.gamedef.is_limit:
            return 0 if a == RAISE else None
        if ab == "fullgame":
            return a if rr[0] <= a <= rr[1] else None
        if ab == "bets":
            return dict(self.bet_options(rr)).get(a)
        pot = self._pot_raise_to()
        if a == RAISE and rr[0] <= pot <= rr[1]:
            return pot
        if a == ALL_IN and pot != rr[1]:
            return rr[1]
        return None

    def clone(self) -> AcpcState:
        c = AcpcState.__new__(AcpcState)
        c._game = self._game
        c.hole = [list(h) for h in self.hole]
        c.board = list(self.board)
        c.used = self.used
        c.round = self.round
        c.actions = [list(a) for a in self.actions]
        c.spent = list(self.spent)
        c.max_spent = self.max_spent
        c.min_raise_to = self.min_raise_to
        c.folded = list(self.folded)
        c.finished = self.finished
        c._node = self._node
        c.log = list(self.log)
        c.street_base = self.street_base
        return c

    def hand_value(self, player: int) -> tuple[int, ...]:
        """The showdown value of ``player``'s hole cards with the board dealt so far."""
        cards = tuple(sorted(self.hole[player] + self.board))
        return hand_value(cards, self._game.gamedef.num_suits)

    def returns(self) -> list[float]:
        if self._node != TERMINAL:
            return [0.0, 0.0]
        s0, s1 = self.spent
        if self.folded[0]:
            return [-float(s0), float(s0)]
        if self.folded[1]:
            return [float(s1), -float(s1)]
        v0, v1 = self.hand_value(0), self.hand_value(1)
        m = float(min(s0, s1))
        if v0 == v1:
            return [0.0, 0.0]
        return [m, -m] if v0 > v1 else [-m, m]

    def betting_string(self, round_sep: str = "|") -> str:
        limit = self._game.gamedef.is_limit
        out = []
        for r in range(self.round + 1):
            out.append("".join("fcr"[t] + ("" if t != _A_RAISE or limit else str(size))
                               for t, size, _p in self.actions[r]))
        return round_sep.join(out)

    def information_state_string(self, player: int | None = None) -> str:
        p = self._node if player is None else player
        gd = self._game.gamedef
        if not 0 <= p < gd.num_players:
            raise ConfigError(f"no information state for player {p!r}")
        pot = self.max_spent * (gd.num_players - sum(self.folded))
        money = " ".join(str(gd.stack[q] - self.spent[q]) for q in range(gd.num_players))
        ns = gd.num_suits
        return (f"[Round {self.round}][Player: {self._node}][Pot: {pot}][Money: {money}]"
                f"[Private: {cardset_string(self.hole[p], ns)}]"
                f"[Public: {self._public_cards()}]"
                f"[Sequences: {self.betting_string()}]")

    def _public_cards(self) -> str:
        gd = self._game.gamedef
        if self._game.openspiel_strings:
            return cardset_string(self.board, gd.num_suits)
        parts, start = [], 0
        for n in gd.num_board_cards:
            if n and start < len(self.board):
                parts.append(cardset_string(self.board[start:start + n], gd.num_suits))
            start += n
        return "|".join(parts)

    def public_state_string(self) -> str:
        ns = self._game.gamedef.num_suits
        dealt = sum(len(h) for h in self.hole)
        board = "".join(card_string(c, ns) for c in self.board)
        return f"{dealt}|{board}|{self.betting_string('/')}"

    def action_to_string(self, action: int) -> str:
        if self._node == CHANCE:
            return "Deal " + card_string(int(action), self._game.gamedef.num_suits)
        if action == FOLD:
            return "Fold"
        if action == CALL:
            return "Call"
        if self._game.gamedef.is_limit:
            return "Raise"
        if self._game.betting_abstraction == "fcpa":
            return "Pot" if action == RAISE else "AllIn"
        if self._game.betting_abstraction == "bets":
            rr = self.raise_range()
            amt = dict(self.bet_options(rr)).get(int(action)) if rr is not None else None
            return f"Raise to {amt}" if amt is not None else f"Raise #{int(action) - RAISE}"
        return f"Raise to {int(action)}"

    def __str__(self) -> str:
        ns = self._game.gamedef.num_suits
        holes = "|".join("".join(card_string(c, ns) for c in h) for h in self.hole)
        board = "".join(card_string(c, ns) for c in self.board)
        return f"STATE:{self.betting_string('/')}:{holes}/{board}"


def deepcfr_view(state: AcpcState, player: int) -> tuple[list[list[int]],
                                                        list[tuple[int, float, float]]]:
    """Deep CFR's view (:mod:`pokerlab.deepcfr.encoding`): the player's hole cards and each
    board round's cards as 52-card ids (:func:`~pokerlab.games.acpc_cards.card_groups`),
    and the betting so far."""
    return card_groups(state._game.gamedef, state.hole[player], state.board), list(state.log)


def _short(values: list[int]) -> str:
    if len(values) <= 8:
        return str(values)
    return f"[{values[0]}, {values[1]}, ..., {values[-1]}] ({len(values)} actions)"


class AcpcGame(TwoPlayerGame):
    """A two-player poker game from a :class:`GameDef` (see the module docs).

    ``betting_abstraction``: ``"fullgame"`` (every legal raise-to; the default),
    ``"fcpa"`` (fold, call, pot, all-in) or ``"fc"`` (fold, call) as in ``universal_poker``;
    limit games always use ids 0/1/2 (``fc`` drops the raise).  ``bets`` (no-limit only):
    a bet-set abstraction of :mod:`pokerlab.abstraction.bets` (a preset name such as
    ``default`` or a text like ``"2.5x, a; 50%, 100%, a"``; round ``r`` uses street ``r``):
    ids ``2 + k`` raise to the ``k``-th size of the round's list.
    """

    def __init__(self, gamedef: GameDef, *, betting_abstraction: str = "fullgame",
                 bets: Any = None, name: str | None = None) -> None:
        if not isinstance(gamedef, GameDef):
            raise ConfigError(f"AcpcGame needs a GameDef, got {type(gamedef).__name__}")
        if gamedef.num_players != 2:
            raise GameDefError(f"AcpcGame plays two-player games; this definition has "
                               f"{gamedef.num_players} players")
        if betting_abstraction not in BETTING_ABSTRACTIONS:
            raise ConfigError(f"unknown betting abstraction {betting_abstraction!r}; choose "
                              f"from {', '.join(BETTING_ABSTRACTIONS)}")
        if not gamedef.is_limit and max(gamedef.blind) < 1:
            raise GameDefError("no-limit games need a blind of at least one chip (action "
                               "id 1 is call, raise-to ids start at 2)")
        self.bets: Any = None
        if bets is not None:
            from pokerlab.abstraction.bets import BetSet, parse_bet_set

            if gamedef.is_limit:
                raise GameDefError("a bet set applies to no-limit games only")
            if betting_abstraction != "fullgame":
                raise ConfigError("give either a bet set or a betting abstraction, not both")
            self.bets = bets if isinstance(bets, BetSet) else parse_bet_set(str(bets))
            betting_abstraction = "bets"
        self.gamedef = gamedef
        self.betting_abstraction = betting_abstraction
        # universal_poker prints the board as one sorted set, which forgets the round each
        # card came in: perfect recall only when board cards come in at most one round.
        self.openspiel_strings = sum(1 for n in gamedef.num_board_cards if n) <= 1
        if name is None:
            try:
                name = gamedef.to_universal_poker(betting_abstraction)
            except GameDefError:
                name = "gamedef"
            if self.bets is not None:
                name = f"{name}[bets={self.bets.text()}]"
        self._name = name  # Deep CFR's encoder: pokerlab.deepcfr.encoding.acpc_encoder

    @property
    def name(self) -> str:
        return self._name

    def num_distinct_actions(self) -> int:
        gd = self.gamedef
        if gd.is_limit:
            return 3
        if self.betting_abstraction == "fullgame":
            return max(gd.stack) + 1
        if self.bets is not None:
            return RAISE + int(self.bets.max_sizes)
        return 4

    def new_initial_state(self) -> AcpcState:
        st = AcpcState(self)
        st._update_node()
        return st

    def max_commitment(self) -> int:
        """The most chips one player can put in (bounded by the smaller stack)."""
        gd = self.gamedef
        cap = min(gd.stack)
        if gd.is_limit:
            most = max(gd.blind) + sum(
                gd.raise_size[r] * min(gd.max_raises[r], MAX_NUM_ACTIONS)
                for r in range(gd.num_rounds))
            return min(most, cap)
        return cap

    def round_lengths(self) -> list[int]:
        """Upper bounds on the player actions of each round."""
        gd = self.gamedef
        out = []
        for r in range(gd.num_rounds):
            raises = min(gd.max_raises[r], MAX_NUM_ACTIONS)
            if not gd.is_limit:
                step = max(1, max(gd.blind))
                raises = min(raises, max(gd.stack) // step + 1)
            out.append(min(MAX_NUM_ACTIONS, raises + 2))
        return out

    def max_game_length(self) -> int:
        """An upper bound on the player actions of one hand."""
        return sum(self.round_lengths())

    def estimated_histories(self) -> float:
        """Knuth's estimate of the number of histories (tree nodes, chance included)."""
        from pokerlab.games.compiled import estimate_tree_size

        return float(estimate_tree_size(self))

    def check_exact_size(self, max_nodes: int | None = None) -> float:
        """Raise :class:`~pokerlab.games.compiled.GameTooLargeError` (naming the estimated
        size and suggesting MCCFR) when the exact solvers' tree would be too large; else
        return the estimate.  The threshold is the one ``compile_game`` uses."""
        from pokerlab.games.compiled import DEFAULT_MAX_NODES, GameTooLargeError

        limit = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
        est = self.estimated_histories()
        if est > 4 * limit:
            hint = ("" if self.gamedef.is_limit or self.betting_abstraction != "fullgame"
                    else "; or fewer raise sizes (a universal_poker(...) string with "
                    "bettingAbstraction=fcpa)")
            raise GameTooLargeError(
                f"game {self.name!r} has about {est:.3g} histories (estimated), more than "
                f"the {limit} an exact solver handles: use a sampling solver "
                f"(--algo os-mccfr or es-mccfr){hint}")
        return est

    def info(self) -> GameInfo:
        m = float(self.max_commitment())
        return GameInfo(num_players=2, num_distinct_actions=self.num_distinct_actions(),
                        zero_sum=True, min_utility=-m, max_utility=m,
                        private_cards_first=True, max_game_length=self.max_game_length(),
                        big_blind=float(max(1, max(self.gamedef.blind))), perfect_recall=True)

    def __repr__(self) -> str:
        return f"AcpcGame({self._name!r})"


def gamedef_game(path: str | None = None, *, betting_abstraction: str = "fullgame",
                 bets: str | None = None) -> AcpcGame:
    """``load_game("gamedef:PATH")`` / ``load_game("gamedef(path=PATH,bets=...)")``: the
    game of an ACPC ``.game`` file (or a shipped name), optionally with a bet set."""
    from pokerlab.games.gamedef import load_gamedef

    if path is None or str(path) == "":
        raise GameDefError("gamedef needs a path: gamedef:PATH or gamedef(path=PATH,...)")
    path = str(path)
    if bets is None and betting_abstraction == "fullgame":
        name = f"gamedef:{path}"
    else:
        opts = ([f"bets={bets}"] if bets is not None else
                [f"betting_abstraction={betting_abstraction}"])
        name = f"gamedef(path={path},{','.join(opts)})"
    return AcpcGame(load_gamedef(path), betting_abstraction=betting_abstraction, bets=bets,
                    name=name)


def load_acpc_game(name: str, **kwargs: Any) -> AcpcGame:
    """``load_game`` for ``"gamedef:PATH"`` (option ``betting_abstraction``) and
    ``"universal_poker(...)"`` (no options: its parameters say everything)."""
    if name.startswith("gamedef:"):
        bad = sorted(set(kwargs) - {"betting_abstraction", "bets"})
        if bad:
            raise ConfigError(f"unknown option(s) {', '.join(bad)} for {name!r}; known: "
                              "betting_abstraction, bets")
        path = name[len("gamedef:"):]
        if not path:
            raise GameDefError("gamedef: needs a path, e.g. gamedef:leduc or gamedef:my.game")
        return gamedef_game(path, **kwargs)
    if kwargs:
        raise ConfigError(f"universal_poker games take their options in the string, got "
                          f"{', '.join(sorted(kwargs))}")
    return universal_poker_game(name)


def universal_poker_game(text: str) -> AcpcGame:
    """``load_game("universal_poker(...)")`` with OpenSpiel's parameters and defaults."""
    from pokerlab.games.gamedef import parse_universal_poker

    gd, abstraction = parse_universal_poker(text)
    return AcpcGame(gd, betting_abstraction=abstraction, name=text.strip())


def _register() -> None:
    from pokerlab.games import register_game

    register_game("gamedef", gamedef_game)


_register()

__all__ = ["INT32_MAX", "AcpcGame", "AcpcState", "gamedef_game",
           "load_acpc_game", "universal_poker_game"]
