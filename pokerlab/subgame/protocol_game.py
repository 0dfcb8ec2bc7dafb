"""A postflop :class:`~pokerlab.subgame.spot.Spot` as a plain protocol game (the
independent full-tree check of the spot solver).

:class:`SpotGame` implements :class:`pokerlab.games.protocol.Game` /
:class:`~pokerlab.games.protocol.State` for a spot, state by state, so that pokerlab's own
tabular machinery (:mod:`pokerlab.evaluation` values and best responses,
:mod:`pokerlab.solvers` full-tree CFR) can solve and evaluate it.  It reads only the spot,
the betting tree's arrays (:func:`pokerlab.subgame.tree.build_betting_tree`) and the hand
evaluator (:func:`pokerlab.cards.evaluator.strength`) -- never the solver's kernels or its
deal structures -- so agreement with :class:`~pokerlab.subgame.solver.SpotSolver` is an
independent check.

The game:

* the root is a chance node dealing the (out of position, in position) pair of hole-card
  combos: outcome id ``1326 * oop_combo + ip_combo`` over the pairs that share no card,
  with probability proportional to ``w_oop[oop_combo] * w_ip[ip_combo]``;
* then play follows the betting tree: at a decision node the action ids are the node's
  child indices ``0..k-1`` (names as in the tree, e.g. ``check``, ``bet 50``, ``call``);
  at a tree CHANCE node chance deals the next board card uniformly from the cards not on
  the board and in neither hand (outcome id = card id);
* player 0 is out of position, player 1 in position.

Returns are *net*: each player's payoff minus half the starting pot.  A player's payoff
with contributions ``c_p`` (chips put in since the spot began), final pot
``F = pot + c_0 + c_1`` and rake ``R = min(rake * F, rake_cap)`` (cap 0: no cap) is
``F - R - c_p`` for the winner (of a fold or a showdown), ``-c_p`` for the loser and
``(F - R) / 2 - c_p`` on a tie; so ``returns()[p] + pot / 2`` is the solver's convention
(values counting each player's share of the pot) and the returns sum to ``-R``: zero-sum
exactly when the spot has no rake (``GameInfo.zero_sum``).

Keys: ``public_state_string()`` is ``"deal"`` at the root, then the starting board and
the public history (actions by name and dealt cards, comma separated), e.g.
``"Ks8s5s2h|check,bet 50,call,Qd"``; ``information_state_string(p)`` prefixes the
player's hole cards: ``"AcAd|Ks8s5s2h|check,bet 50,call,Qd"``.  The public history tokens
(:attr:`SpotState.path`) are exactly what :meth:`SpotSolver.cursor` takes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pokerlab.cards.cards import COMBOS, NUM_COMBOS, card_str, cards_str
from pokerlab.cards.evaluator import strength
from pokerlab.errors import ConfigError
from pokerlab.games.protocol import CHANCE, TERMINAL, ChanceThenMoves, GameInfo, TwoPlayerGame
from pokerlab.games.two_player import TwoPlayerState, copy_slots, uniform_outcomes
from pokerlab.policy.tabular import TabularPolicy
from pokerlab.subgame.spot import Spot
from pokerlab.subgame.tree import CHANCE as T_CHANCE
from pokerlab.subgame.tree import DECISION as T_DECISION
from pokerlab.subgame.tree import FOLD as T_FOLD
from pokerlab.subgame.tree import BettingTree, build_betting_tree


class SpotState(TwoPlayerState, ChanceThenMoves):
    """A state of :class:`SpotGame`: the dealt hands (combo ids, None before the deal), the
    betting-tree node, the board so far and the public history tokens."""

    __slots__ = ("_game", "hands", "node", "board", "path")

    def __init__(self, game: SpotGame) -> None:
        self._game = game
        self.hands: tuple[int, int] | None = None
        self.node = 0
        self.board: tuple[int, ...] = tuple(game.spot.board)
        self.path: tuple[str, ...] = ()

    # -- protocol -------------------------------------------------------------------
    def _kind(self) -> int:
        return int(self._game.tree.kind[self.node])

    def current_player(self) -> int:
        if self.hands is None:
            return CHANCE
        k = self._kind()
        if k == T_DECISION:
            return int(self._game.tree.player[self.node])
        if k == T_CHANCE:
            return CHANCE
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def player_actions(self) -> list[int]:
        return list(range(int(self._game.tree.num_children[self.node])))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.hands is None:
            return list(self._game.deal_outcomes)
        if self._kind() != T_CHANCE:
            return []
        dead = set(self.board) | set(COMBOS[self.hands[0]].tolist()) | set(COMBOS[self.hands[1]].tolist())
        return uniform_outcomes([c for c in range(52) if c not in dead])

    def apply_action(self, action: int) -> None:
        a = int(action)
        tr = self._game.tree
        if self.hands is None:
            if a not in self._game.deal_prob:
                raise ConfigError(f"illegal deal {a!r} in {self._game.name}")
            self.hands = (a // NUM_COMBOS, a % NUM_COMBOS)
            return
        k = self._kind()
        if k == T_CHANCE:
            if a not in dict(self.chance_outcomes()):
                raise ConfigError(f"illegal card {a!r} at {self.public_state_string()!r}")
            self.board = self.board + (a,)
            self.path = self.path + (card_str(a),)
            self.node = tr.child(self.node, 0)
            return
        if k != T_DECISION or not 0 <= a < int(tr.num_children[self.node]):
            raise ConfigError(f"illegal action {a!r} at {self.public_state_string()!r}")
        self.path = self.path + (tr.action_names[self.node][a],)
        self.node = tr.child(self.node, a)

    def clone(self) -> SpotState:
        c: SpotState = copy_slots(self)  # hands, board and path are tuples: shared
        return c

    def payoffs(self) -> list[float]:
        """Each player's payoff counting its share of the pot (sum = pot - rake) at a
        terminal; zeros elsewhere."""
        if not self.is_terminal():
            return [0.0, 0.0]
        g = self._game
        sp = g.spot
        c = [float(x) for x in g.tree.contrib[self.node]]
        final = sp.pot + c[0] + c[1]
        rake = sp.rake * final
        if sp.rake_cap > 0:
            rake = min(rake, sp.rake_cap)
        won = final - rake
        if self._kind() == T_FOLD:
            folder = int(g.tree.player[self.node])
            out = [won - c[0], won - c[1]]
            out[folder] = -c[folder]
            return out
        assert self.hands is not None
        s0 = g.strength(self.hands[0], self.board)
        s1 = g.strength(self.hands[1], self.board)
        if s0 > s1:
            return [won - c[0], -c[1]]
        if s1 > s0:
            return [-c[0], won - c[1]]
        return [won / 2 - c[0], won / 2 - c[1]]

    def terminal_returns(self) -> list[float]:
        """Net returns: :meth:`payoffs` minus half the starting pot (zero-sum without rake)."""
        half = self._game.spot.pot / 2.0
        return [x - half for x in self.payoffs()]

    def public_state_string(self) -> str:
        if self.hands is None:
            return "deal"
        return self._game.board_text + "|" + ",".join(self.path)

    def information_state(self, player: int) -> str:
        hole = "" if self.hands is None else cards_str(COMBOS[self.hands[player]].tolist())
        return hole + "|" + self.public_state_string()

    def action_to_string(self, action: int) -> str:
        if self.hands is None:
            a = int(action)
            return "Deal:" + cards_str(COMBOS[a // NUM_COMBOS].tolist()) + "/" + \
                cards_str(COMBOS[a % NUM_COMBOS].tolist())
        if self.is_chance_node():
            return "Deal:" + card_str(int(action))
        return self._game.tree.action_names[self.node][int(action)]

    def __str__(self) -> str:
        return self.information_state_string(0) if self.hands is not None else "deal"


class SpotGame(TwoPlayerGame):
    """A :class:`Spot` as a two-player protocol game (see the module docstring)."""

    def __init__(self, spot: Spot, tree: BettingTree | None = None) -> None:
        self.spot = spot
        self.tree = tree if tree is not None else build_betting_tree(spot)
        self.board_text = cards_str(spot.board)
        w0, w1 = spot.ranges[0], spot.ranges[1]
        h0 = np.nonzero(w0 > 0)[0]
        h1 = np.nonzero(w1 > 0)[0]
        pairs: list[tuple[int, float]] = []
        for i in h0.tolist():
            ci = set(COMBOS[i].tolist())
            for j in h1.tolist():
                if ci.isdisjoint(COMBOS[j].tolist()):
                    pairs.append((i * NUM_COMBOS + j, float(w0[i] * w1[j])))
        total = sum(w for _, w in pairs)
        if total <= 0:
            raise ConfigError("the two ranges share a card in every pair of hands: no deal is possible")
        self.deal_outcomes: list[tuple[int, float]] = sorted((a, w / total) for a, w in pairs)
        self.deal_prob = dict(self.deal_outcomes)
        self._strength: dict[tuple[int, tuple[int, ...]], int] = {}

    def strength(self, combo: int, board: tuple[int, ...]) -> int:
        key = (combo, board)
        s = self._strength.get(key)
        if s is None:
            s = self._strength[key] = strength(list(COMBOS[combo].tolist()) + list(board))
        return s

    @property
    def name(self) -> str:
        return f"spot[{self.board_text}]"

    def num_distinct_actions(self) -> int:
        dec = self.tree.kind == T_DECISION
        return int(self.tree.num_children[dec].max())

    def max_game_length(self) -> int:
        tr = self.tree
        depth = np.zeros(tr.num_nodes, dtype=np.int64)
        for i in range(1, tr.num_nodes):
            par = int(tr.parent[i])
            depth[i] = depth[par] + (1 if tr.kind[par] == T_DECISION else 0)
        return int(depth.max())

    def info(self) -> GameInfo:
        sp = self.spot
        bound = sp.stack + sp.pot / 2.0
        return GameInfo(num_players=2, num_distinct_actions=self.num_distinct_actions(),
                        zero_sum=sp.rake == 0, min_utility=-bound, max_utility=bound,
                        private_cards_first=True, max_game_length=self.max_game_length(),
                        big_blind=sp.big_blind)

    def new_initial_state(self) -> SpotState:
        return SpotState(self)

    def __repr__(self) -> str:
        return f"SpotGame(board={self.board_text!r}, pot={self.spot.pot}, stack={self.spot.stack})"


def tabular_policy(game: SpotGame, strategy_at: Callable[[Sequence[str]], np.ndarray]) -> TabularPolicy:
    """A :class:`TabularPolicy` over every information set of ``game`` from a per-combo
    strategy source: ``strategy_at(path)`` gives, at the public node reached by ``path``
    (:attr:`SpotState.path`), the acting player's (actions, 1326) probabilities (for
    example a solver's per-combo average strategy).  Called once per public node."""
    from pokerlab.games.compiled import compile_game

    cg = compile_game(game)
    cache: dict[tuple[str, ...], np.ndarray] = {}
    rows = []
    for i, key in enumerate(cg.infoset_keys):
        st = cg.representative[i]
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        s = cache.get(st.path)
        if s is None:
            s = cache[st.path] = np.asarray(strategy_at(st.path), dtype=np.float64)
        p = st.current_player()
        probs = s[:, st.hands[p]]
        rows.append((key, cg.infoset_actions[lo:hi], probs))
    return TabularPolicy.from_rows(rows)
