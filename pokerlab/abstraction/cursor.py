"""One cursor over the blueprint's policy tree: where a real hold'em hand stands on the
compiled betting tree of an action abstraction.

A :class:`PolicyTree` is the tree (:class:`~pokerlab.abstraction.action_tree.ActionTree`)
with the action map that translates real chips into its abstract actions
(:class:`~pokerlab.abstraction.action_map.ActionMap`); a :class:`Cursor` is one position on
it: the real engine state of the hand (every real chip amount), the tree node and whether
the tree lost the hand.  Everything that walks a blueprint beside a real hand goes through
them -- the policy agent (its tracked hand, :meth:`HUNLPolicyAgent.nodes_after`), LBR (its
range queries and its compiled real betting tree), AIVAT and the belief tracker (through
the agent's range queries) and the depth-limited continuation's builder:

* :meth:`Cursor.play` -- a real betting action: translated at the real state
  (:meth:`ActionMap.translate`; a randomised translation draws from ``event_unit(seed,
  index of the event)``), made legal at the node (:meth:`PolicyTree.fit_node`: an absent
  size becomes the largest smaller raise, else the smallest; a real raise with no abstract
  raise left loses the hand) and followed; the real state applies it;
* :meth:`Cursor.deal` -- board cards;
* :meth:`Cursor.decision` -- the node when it is the real actor's decision on the real
  street, else ``-1``;
* :meth:`Cursor.branches` -- every way a real action can be followed (the translation's
  branches with their probabilities), then the next street's cards dealt;
* the **re-sync rule**, written once (:meth:`Cursor.synced_node`, :meth:`Cursor.resync`):
  when the node is not the real actor's decision on the real street (the abstract hand
  ended, or a real raise had no abstract raise left), the node becomes
  :meth:`PolicyTree.nearest_node` of the real state -- the decision node of the same
  street and actor, facing a bet exactly when the real actor is, whose chips committed by
  either player are nearest in log scale.

The cursor needs only the action tree, the action map and the engine: the policy's tables
(:mod:`pokerlab.policy`) are read at its node by the callers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.abstraction.action_map import CALL, RAISE0, fit_raise
from pokerlab.abstraction.action_tree import DECISION
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, HoldemState, Phase
from pokerlab.rng import event_value, pick, to_unit

ALLIN_BEHIND = 0.5
"""A real raise that leaves more than this share of the effective starting stack behind
the raiser is never translated to the abstract all-in."""


class PolicyTree:
    """A compiled betting ``tree`` read against real hold'em through ``action_map``
    (``allin_behind``: see :data:`ALLIN_BEHIND`).  ``resyncs`` counts the
    re-synchronisations of :meth:`Cursor.resync` (a diagnostic counter)."""

    def __init__(self, tree: Any, action_map: Any, *,
                 allin_behind: float | None = ALLIN_BEHIND) -> None:
        self.tree = tree
        self.map = action_map
        self.allin_behind = allin_behind
        self.resyncs = 0
        self._near: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def start(self, config: HoldemConfig, player: int, hole: tuple[int, ...] | None) -> Cursor:
        """A cursor at the root of a hand seen by ``player`` (its ``hole`` cards dealt, the
        opponent's unknown)."""
        real = HoldemState(config=config)
        for p in (0, 1):
            real.deal_hole(list(hole) if p == player and hole is not None else None)
        return Cursor(self, player, real)

    def decides(self, node: int, real: HoldemState) -> bool:
        """``node`` is a decision of the real actor on the real street."""
        t = self.tree
        return bool(real.phase == Phase.BETTING and int(t.kind[node]) == DECISION
                    and int(t.actor[node]) == real.actor and int(t.street[node]) == real.street)

    def nearest_node(self, real: HoldemState) -> int:
        """The tree decision node closest to a real betting state: same street and actor,
        facing a bet exactly when the real actor is (when the tree has such a node), and
        the smallest ``|ln(1 + actor's chips in)| + |ln(1 + opponent's chips in)|`` gap to
        the real commitments (ties: the lowest node id).  ``-1`` when none fits."""
        t = self.tree
        if self._near is None:
            dec = t.kind == DECISION
            self._near = (dec, np.log1p(t.committed0.astype(np.float64)),
                          np.log1p(t.committed1.astype(np.float64)))
        dec, l0, l1 = self._near
        p = int(real.actor)
        mask = dec & (t.street == real.street) & (t.actor == p)
        if not mask.any():
            return -1
        facing = mask & ((t.to_call > 0) == (real.to_call > 0))
        if facing.any():
            mask = facing
        c = real.committed
        mine, theirs = (l0, l1) if p == 0 else (l1, l0)
        d = (np.abs(mine - np.log1p(float(c[p]))) + np.abs(theirs - np.log1p(float(c[1 - p]))))
        d = np.where(mask, d, np.inf)
        return int(np.argmin(d))

    def fit_node(self, node: int, aid: int, act: Action) -> int:
        """``aid`` made legal at ``node``: an absent size becomes the largest smaller
        raise there, else the smallest; a real raise with no abstract raise at ``node``
        (or one the translation read as check/call) is ``-1`` (not representable)."""
        legal = self.tree.actions(node)
        if act.kind == ActionKind.RAISE and aid < RAISE0:
            return -1
        if aid >= RAISE0:
            fit = fit_raise(aid, legal)
            return -1 if fit is None else fit
        if aid in legal:
            return aid
        return CALL if CALL in legal else -1  # no call here (a push/fold tree's limp)

    def translate(self, real: HoldemState, act: Action, idx: int, seed: int) -> int:
        """The abstract id of the real action ``act`` at ``real``: a randomised translation
        draws with ``event_unit(seed, idx)`` (``idx``: the event's position in the hand)."""
        probs = self.map.translate(real, act, allin_behind=self.allin_behind)
        if len(probs) == 1:
            return int(probs[0][0])
        return int(pick(probs, to_unit(event_value(seed, idx))))


class Cursor:
    """One position of a hand seen by ``player`` on a :class:`PolicyTree`: the real engine
    state ``real``, the tree ``node`` and ``lost`` (a real raise the node could not
    follow).  See the module docstring."""

    __slots__ = ("lost", "node", "player", "real", "walk")

    def __init__(self, walk: PolicyTree, player: int, real: HoldemState, node: int = 0,
                 lost: bool = False) -> None:
        self.walk = walk
        self.player = player
        self.real = real
        self.node = node
        self.lost = lost

    def copy(self) -> Cursor:
        """An independent copy (the real state cloned)."""
        return Cursor(self.walk, self.player, self.real.clone(), self.node, self.lost)

    def decision(self) -> int:
        """The node when it is the real actor's decision on the real street, else ``-1``."""
        node = self.node
        return node if node >= 0 and self.walk.decides(node, self.real) else -1

    def synced_node(self) -> int:
        """The re-sync rule at a real betting state: the node when the tree still follows
        the hand and the node decides the real actor, else the nearest node of the real
        state (``-1`` when none fits).  The cursor is not changed."""
        node = self.node
        if self.lost or node < 0 or not self.walk.decides(node, self.real):
            return self.walk.nearest_node(self.real)
        return node

    def resync(self, *, own: bool = False) -> bool:
        """Apply the re-sync rule at a real betting state (``own``: only at ``player``'s own
        decisions); True (and one more :attr:`PolicyTree.resyncs`) when the node moved."""
        real = self.real
        if real.phase != Phase.BETTING or (own and real.actor != self.player):
            return False
        if not (self.lost or self.node < 0 or not self.walk.decides(self.node, real)):
            return False
        self.node = self.walk.nearest_node(real)
        self.lost = False
        self.walk.resyncs += 1
        return True

    def play(self, act: Action, idx: int, seed: int) -> None:
        """Follow the real betting action ``act`` (event number ``idx`` of the hand, which
        seeds a randomised translation with ``seed``): re-synchronised first when the node
        does not decide the real actor, translated, fitted and followed; a raise the node
        cannot represent loses the hand.  The real state applies ``act``."""
        real = self.real
        if real.phase == Phase.BETTING:
            self.resync()
            if self.node >= 0:
                w = self.walk
                aid = w.fit_node(self.node, w.translate(real, act, idx, seed), act)
                if aid < 0:
                    self.lost = True
                else:
                    self.node = int(w.tree.child(self.node, aid))
        real.apply(act)

    def deal(self, cards: list[int] | None) -> None:
        """Board cards (``None``: unknown cards)."""
        self.real.deal_board(cards)

    def deal_from(self, board: list[int]) -> None:
        """Deal every board card the real state is due, from the 5-card ``board``."""
        real = self.real
        while real.phase == Phase.DEAL_BOARD:
            k = real.cards_due()
            have = len(real.board)
            real.deal_board(list(board[have:have + k]))

    def branches(self, act: Action, board: list[int]) -> list[tuple[float, Cursor]]:
        """Every way this hand can follow the real betting action ``act``: ``(probability,
        new cursor)`` in the order of the randomised translation's draw (one branch of
        probability 1 when the translation is not randomised).  The same steps as
        :meth:`play` (the re-sync rule before it, translation, fit), then the board cards
        the next street needs are dealt from ``board`` (five cards) and the node is
        re-synchronised at ``player``'s own decision.  This cursor is not changed."""
        real = self.real
        w = self.walk
        node, lost = self.node, self.lost
        if real.phase == Phase.BETTING:
            node, lost = self.synced_node(), False
        outs: list[tuple[float, int, bool]] = []
        if real.phase == Phase.BETTING and node >= 0:
            probs = w.map.translate(real, act, allin_behind=w.allin_behind)
            if len(probs) == 1:
                probs = [(probs[0][0], 1.0)]
            for aid, p in probs:
                fit = w.fit_node(node, int(aid), act)
                outs.append((float(p), node, True) if fit < 0
                            else (float(p), int(w.tree.child(node, fit)), False))
        else:
            outs.append((1.0, node, lost))
        res: list[tuple[float, Cursor]] = []
        for p, n, lo in outs:
            c = Cursor(w, self.player, real.clone(), n, lo)
            c.real.apply(act)
            c.deal_from(board)
            c.resync(own=True)
            res.append((p, c))
        return res
