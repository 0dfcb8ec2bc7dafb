"""The compiled betting tree of a bet-set abstraction: flat arrays, integer nodes.

:func:`compile_tree` walks the abstract betting game of a :class:`BetSet` at a
:class:`HoldemConfig` (the exact engine, no cards) once and stores it as flat numpy arrays
(an :class:`ActionTree`), in depth-first pre-order (the root is node 0, a node's children
are one contiguous run of edges, and edges follow node order):

* per node: ``street`` (0..3; a terminal keeps the street its betting ended on: a
  preflop all-in showdown has street 0), ``actor`` (0/1,
  ``-1`` at a terminal), ``kind`` (:data:`DECISION`, :data:`FOLD_TERMINAL`,
  :data:`SHOWDOWN_TERMINAL`), ``pot`` (every chip in the middle), ``to_call`` (what the
  actor must add), ``committed0`` / ``committed1`` (chips each player has put in; the
  payoff at a fold is the folder's commitment, at a showdown the loser's),
  ``child_start`` / ``num_children`` (its run of edges);
* per edge: ``child_action`` (the abstract action id: 0 fold, 1 check/call, ``2 + k``
  the ``k``-th size of the street's bet list), ``child_node`` and ``child_amount`` (the
  raise-to chips of a raise, the chips added by a call, 0 for fold/check).

Abstract action ids and amounts are those of
:func:`pokerlab.abstraction.bets.resolve_raises` at the same engine state (the
:class:`~pokerlab.abstraction.action_map.ActionMap` uses the same rule; a test checks they
agree).  An all-in run-out (no betting left) goes straight to a showdown terminal.

An information set of the abstract game is the integer pair (decision node, card bucket):
:meth:`ActionTree.layout` gives every decision node its row offset in a flat
(node, bucket, action) table for given bucket counts.

:func:`estimate_tree` counts the tree first (memoised over identical betting states, no
arrays) and reports the bytes the arrays will take; :func:`compile_tree` refuses above
``max_bytes`` / ``max_nodes`` with a :class:`~pokerlab.errors.ConfigError` before anything
is allocated.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab import kinds
from pokerlab.abstraction.action_map import CALL, FOLD, RAISE0, ActionMap
from pokerlab.abstraction.bets import BetSet
from pokerlab.errors import ConfigError
from pokerlab.holdem.engine import ActionKind, HoldemConfig, HoldemState, Phase

DECISION = kinds.DECISION
FOLD_TERMINAL = kinds.FOLD
SHOWDOWN_TERMINAL = kinds.SHOWDOWN
KIND_NAMES = kinds.NAMES[:3]

# bytes per node: street, actor, kind (int8) + num_children (int16) + pot, to_call,
# committed0, committed1 (int64) + child_start (int64)
NODE_BYTES = 3 + 2 + 4 * 8 + 8
# bytes per edge: child_action (int8) + child_node (int64) + child_amount (int64)
EDGE_BYTES = 1 + 8 + 8
DEFAULT_MAX_BYTES = 4 << 30
DEFAULT_MAX_NODES = 50_000_000


def raise_options(st: HoldemState, bets: BetSet) -> list[tuple[int, int]]:
    """``(abstract action id, raise-to)`` of the abstract raises legal at ``st`` (the
    :class:`~pokerlab.abstraction.action_map.ActionMap`'s, i.e. ``resolve_raises``)."""
    if st.phase != Phase.BETTING:
        return []
    return ActionMap(bets).raise_options(st)


def _children(st: HoldemState, bets: BetSet,
              no_limp: bool = False) -> list[tuple[int, int, HoldemState]]:
    """``(action id, amount, child state)`` of a betting state, ascending action id.
    ``no_limp`` drops check/call at the first decision of the hand (push/fold games)."""
    out: list[tuple[int, int, HoldemState]] = []
    if st.can_fold:
        c = st.clone()
        c.fold()
        out.append((FOLD, 0, c))
    limp = st.street == 0 and not st.street_actions[0]
    if not (no_limp and limp and st.can_raise):
        c = st.clone()
        call_amt = min(st.stacks[st.actor], max(st.bets) - st.bets[st.actor])
        c.check_or_call()
        out.append((CALL, call_amt, c))
    for a, amt in sorted(raise_options(st, bets)):
        c = st.clone()
        c.raise_to(amt)
        out.append((a, amt, c))
    return out


def _settle(st: HoldemState) -> HoldemState:
    """Deal unknown board cards until someone must act or the hand is over."""
    while st.phase == Phase.DEAL_BOARD:
        st.deal_board(None)
    return st


def _key(st: HoldemState) -> tuple[Any, ...]:
    return (st.street, st.phase, st.actor, tuple(st.bets), tuple(st.stacks), st.last_raise,
            st.num_raises, tuple(st.pending), bool(st.showdown_order), st.collected)


def _root(config: HoldemConfig) -> HoldemState:
    st = HoldemState(config=config)
    st.deal_hole(None)
    st.deal_hole(None)
    return _settle(st)


@dataclass(frozen=True, kw_only=True)
class TreeEstimate:
    """Counts of a betting tree and the bytes its arrays take (before building it)."""

    nodes: int
    decision_nodes: int
    edges: int
    decision_nodes_per_street: tuple[int, int, int, int]
    bytes: int

    def infosets(self, buckets: Sequence[int]) -> int:
        """Information sets (imperfect recall of buckets: one bucket per street)."""
        return int(sum(n * int(b) for n, b in zip(self.decision_nodes_per_street, buckets,
                                                  strict=True)))

    def to_json(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "decision_nodes": self.decision_nodes,
                "edges": self.edges,
                "decision_nodes_per_street": list(self.decision_nodes_per_street),
                "bytes": self.bytes}


def _with_recursion(fn: Any, *args: Any) -> Any:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        return fn(*args)
    finally:
        sys.setrecursionlimit(old)


def estimate_tree(bets: BetSet, config: HoldemConfig | None = None, *,
                  max_states: int = 5_000_000, no_limp: bool = False) -> TreeEstimate:
    """Count the tree of ``bets`` at ``config`` without building it (memoised walk)."""
    cfg = config or HoldemConfig()
    memo: dict[tuple[Any, ...], tuple[int, ...]] = {}

    def rec(st: HoldemState) -> tuple[int, ...]:
        # (nodes, edges, d0, d1, d2, d3)
        _settle(st)
        if st.phase == Phase.TERMINAL:
            return (1, 0, 0, 0, 0, 0)
        k = _key(st)
        hit = memo.get(k)
        if hit is not None:
            return hit
        if len(memo) >= max_states:
            raise ConfigError(f"betting tree of {bets.text()!r} has more than {max_states} "
                              "distinct betting states; use a raise cap or fewer sizes")
        kids = _children(st, bets, no_limp)
        tot = [1, len(kids), 0, 0, 0, 0]
        tot[2 + st.street] = 1
        for _, _, c in kids:
            r = rec(c)
            for i in range(6):
                tot[i] += r[i]
        res = tuple(tot)
        memo[k] = res
        return res

    res = _with_recursion(rec, _root(cfg))
    nodes, edges = int(res[0]), int(res[1])
    return TreeEstimate(nodes=nodes, decision_nodes=int(sum(res[2:6])), edges=edges,
                        decision_nodes_per_street=(res[2], res[3], res[4], res[5]),
                        bytes=nodes * NODE_BYTES + edges * EDGE_BYTES)


@dataclass(frozen=True, kw_only=True)
class TreeLayout:
    """Row offsets of a (node, bucket, action) table for given bucket counts."""

    buckets: tuple[int, int, int, int]
    node_offset: np.ndarray  # int64 per node: first value of the node's block; -1 terminal
    num_values: int
    num_infosets: int


class ActionTree:
    """A compiled betting tree (see the module docstring)."""

    def __init__(self, *, bets: BetSet, config: HoldemConfig, street: np.ndarray,
                 actor: np.ndarray, kind: np.ndarray, pot: np.ndarray, to_call: np.ndarray,
                 committed0: np.ndarray, committed1: np.ndarray, child_start: np.ndarray,
                 num_children: np.ndarray, child_action: np.ndarray, child_node: np.ndarray,
                 child_amount: np.ndarray, no_limp: bool = False) -> None:
        self.bets = bets
        self.no_limp = no_limp
        self.config = config
        self.street = street
        self.actor = actor
        self.kind = kind
        self.pot = pot
        self.to_call = to_call
        self.committed0 = committed0
        self.committed1 = committed1
        self.child_start = child_start
        self.num_children = num_children
        self.child_action = child_action
        self.child_node = child_node
        self.child_amount = child_amount

    # ------------------------------------------------------------------ sizes
    @property
    def num_nodes(self) -> int:
        return int(self.street.shape[0])

    @property
    def num_edges(self) -> int:
        return int(self.child_node.shape[0])

    @property
    def nbytes(self) -> int:
        return int(sum(a.nbytes for a in self.arrays().values()))

    def decision_nodes_per_street(self) -> tuple[int, int, int, int]:
        dec = self.kind == DECISION
        c = [int(np.count_nonzero(dec & (self.street == s))) for s in range(4)]
        return (c[0], c[1], c[2], c[3])

    @property
    def num_decision_nodes(self) -> int:
        return int(np.count_nonzero(self.kind == DECISION))

    def num_infosets(self, buckets: Sequence[int]) -> int:
        return int(sum(n * int(b) for n, b in zip(self.decision_nodes_per_street(), buckets,
                                                  strict=True)))

    def arrays(self) -> dict[str, np.ndarray]:
        return {"street": self.street, "actor": self.actor, "kind": self.kind, "pot": self.pot,
                "to_call": self.to_call, "committed0": self.committed0,
                "committed1": self.committed1, "child_start": self.child_start,
                "num_children": self.num_children, "child_action": self.child_action,
                "child_node": self.child_node, "child_amount": self.child_amount}

    def fingerprint(self) -> str:
        """SHA-256 (16 hex digits) of the arrays: equal trees, equal fingerprints."""
        h = hashlib.sha256()
        for name, a in self.arrays().items():
            h.update(name.encode())
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()[:16]

    # ------------------------------------------------------------------ navigation
    def actions(self, node: int) -> list[int]:
        lo = int(self.child_start[node])
        return [int(x) for x in self.child_action[lo:lo + int(self.num_children[node])]]

    def edge(self, node: int, abstract_id: int) -> int:
        """Edge index of ``abstract_id`` at ``node``."""
        if not 0 <= node < self.num_nodes:
            raise ConfigError(f"node {node} out of range 0..{self.num_nodes - 1}")
        lo = int(self.child_start[node])
        for e in range(lo, lo + int(self.num_children[node])):
            if int(self.child_action[e]) == abstract_id:
                return e
        raise ConfigError(f"abstract action {abstract_id} is not legal at node {node} "
                          f"(legal: {self.actions(node)})")

    def child(self, node: int, abstract_id: int) -> int:
        """The node reached from ``node`` by abstract action ``abstract_id``."""
        return int(self.child_node[self.edge(node, abstract_id)])

    def node_of(self, actions: Sequence[int]) -> int:
        """The node reached from the root by a sequence of abstract action ids."""
        n = 0
        for a in actions:
            n = self.child(n, int(a))
        return n

    def node_of_state(self, st: HoldemState) -> int:
        """The node of an engine state whose betting is on the tree (raises matched by
        amount); :class:`ConfigError` for an off-tree raise."""
        n = 0
        for s in range(4):
            for act in st.street_actions[s]:
                if self.kind[n] != DECISION:
                    raise ConfigError(f"betting continues past terminal node {n}")
                if act.kind == ActionKind.FOLD:
                    n = self.child(n, FOLD)
                elif act.kind == ActionKind.CHECK_CALL:
                    n = self.child(n, CALL)
                else:
                    lo = int(self.child_start[n])
                    hit = -1
                    for e in range(lo, lo + int(self.num_children[n])):
                        if (int(self.child_action[e]) >= RAISE0
                                and int(self.child_amount[e]) == int(act.amount)):
                            hit = int(self.child_node[e])
                    if hit < 0:
                        raise ConfigError(f"raise to {act.amount} is not on the tree at "
                                          f"node {n}")
                    n = hit
        return n

    def path(self, node: int) -> list[int]:
        """Abstract action ids from the root to ``node``."""
        pe, pn = self.parents()
        out: list[int] = []
        while node != 0:
            out.append(int(self.child_action[pe[node]]))
            node = int(pn[node])
        return out[::-1]

    def parents(self) -> tuple[np.ndarray, np.ndarray]:
        """Per node: the edge leading into it and its parent node (-1 for the root)."""
        if not hasattr(self, "_parents"):
            owner = np.repeat(np.arange(self.num_nodes, dtype=np.int64),
                              self.num_children.astype(np.int64))
            pe = np.full(self.num_nodes, -1, dtype=np.int64)
            pn = np.full(self.num_nodes, -1, dtype=np.int64)
            pe[self.child_node] = np.arange(self.num_edges, dtype=np.int64)
            pn[self.child_node] = owner
            self._parents = (pe, pn)
        return self._parents

    def payoff0(self, node: int, outcome: int = 0) -> int:
        """Chips won by player 0 at a terminal node (``outcome`` > 0: player 0 has the
        better hand at a showdown, < 0 player 1, 0 split)."""
        k = int(self.kind[node])
        c0, c1 = int(self.committed0[node]), int(self.committed1[node])
        if k == FOLD_TERMINAL:
            # the folder is the player who acted into this node: the one with fewer chips in
            return c1 if c0 > c1 else -c0
        if k == SHOWDOWN_TERMINAL:
            return (min(c0, c1) if outcome > 0 else -min(c0, c1)) if outcome else 0
        raise ConfigError(f"node {node} is not terminal")

    def layout(self, buckets: Sequence[int]) -> TreeLayout:
        """Offsets of a flat (node, bucket, action) table: node ``n`` on street ``s`` owns
        ``buckets[s] * num_children[n]`` values from ``node_offset[n]``, bucket-major."""
        if len(buckets) != 4 or any(int(b) < 1 for b in buckets):
            raise ConfigError(f"buckets needs 4 positive counts, got {tuple(buckets)!r}")
        b = np.asarray([int(x) for x in buckets], dtype=np.int64)
        sizes = np.where(self.kind == DECISION,
                         b[self.street.astype(np.int64)] * self.num_children.astype(np.int64), 0)
        off = np.zeros(self.num_nodes, dtype=np.int64)
        np.cumsum(sizes[:-1], out=off[1:])
        off = np.where(self.kind == DECISION, off, -1)
        return TreeLayout(buckets=(int(b[0]), int(b[1]), int(b[2]), int(b[3])),
                          node_offset=off, num_values=int(sizes.sum()),
                          num_infosets=self.num_infosets(buckets))

    def describe(self, node: int) -> str:
        k = int(self.kind[node])
        return (f"node {node}: {KIND_NAMES[k]}, street {int(self.street[node])}, actor "
                f"{int(self.actor[node])}, pot {int(self.pot[node])}, to call "
                f"{int(self.to_call[node])}, actions {self.actions(node)}")


def compile_tree(bets: BetSet, config: HoldemConfig | None = None, *,
                 max_nodes: int = DEFAULT_MAX_NODES,
                 max_bytes: int = DEFAULT_MAX_BYTES, no_limp: bool = False) -> ActionTree:
    """Compile the betting tree of ``bets`` at ``config`` into an :class:`ActionTree`.

    The tree is counted first (:func:`estimate_tree`); above ``max_nodes`` nodes or
    ``max_bytes`` bytes a :class:`ConfigError` names the numbers and nothing is allocated.
    ``no_limp`` removes the small blind's limp (check/call at the first decision): with a
    preflop bet set of only all-in this is the push/fold game.
    """
    cfg = config or HoldemConfig()
    est = estimate_tree(bets, cfg, no_limp=no_limp)
    if est.nodes > max_nodes:
        raise ConfigError(f"betting tree of {bets.text()!r} at {cfg} has {est.nodes} nodes, "
                          f"above the limit of {max_nodes}; use a raise cap or fewer sizes")
    if est.bytes > max_bytes:
        raise ConfigError(f"betting tree of {bets.text()!r} at {cfg} needs {est.bytes} bytes, "
                          f"above the limit of {max_bytes}")
    n, m = est.nodes, est.edges
    street = np.zeros(n, np.int8)
    actor = np.full(n, -1, np.int8)
    kind = np.zeros(n, np.int8)
    pot = np.zeros(n, np.int64)
    to_call = np.zeros(n, np.int64)
    com0 = np.zeros(n, np.int64)
    com1 = np.zeros(n, np.int64)
    child_start = np.zeros(n, np.int64)
    num_children = np.zeros(n, np.int16)
    child_action = np.zeros(m, np.int8)
    child_node = np.zeros(m, np.int64)
    child_amount = np.zeros(m, np.int64)

    next_node = 0
    next_edge = 0
    # stack of (state, parent edge or -1); children pushed in reverse for pre-order
    stack: list[tuple[HoldemState, int]] = [(_root(cfg), -1)]
    while stack:
        st, pe = stack.pop()
        street_before = min(st.street, 3)
        _settle(st)
        i = next_node
        next_node += 1
        if pe >= 0:
            child_node[pe] = i
        street[i] = street_before if st.phase == Phase.TERMINAL else st.street
        c = st.committed
        com0[i], com1[i] = c[0], c[1]
        pot[i] = st.pot
        if st.phase == Phase.TERMINAL:
            kind[i] = FOLD_TERMINAL if st.folded >= 0 else SHOWDOWN_TERMINAL
            child_start[i] = next_edge
            continue
        kind[i] = DECISION
        actor[i] = st.actor
        to_call[i] = st.to_call
        kids = _children(st, bets, no_limp)
        child_start[i] = next_edge
        num_children[i] = len(kids)
        base = next_edge
        next_edge += len(kids)
        for j, (a, amt, _) in enumerate(kids):
            child_action[base + j] = a
            child_amount[base + j] = amt
        for j in range(len(kids) - 1, -1, -1):
            stack.append((kids[j][2], base + j))
    if next_node != n or next_edge != m:  # pragma: no cover - estimate and build disagree
        raise ConfigError(f"tree build mismatch: {next_node}/{n} nodes, {next_edge}/{m} edges")
    return ActionTree(bets=bets, config=cfg, street=street, actor=actor, kind=kind, pot=pot,
                      to_call=to_call, committed0=com0, committed1=com1,
                      child_start=child_start, num_children=num_children,
                      child_action=child_action, child_node=child_node,
                      child_amount=child_amount, no_limp=no_limp)
