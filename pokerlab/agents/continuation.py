"""Leaf values of depth-limited subgame solving (Modicum: Brown, Sandholm & Amos 2018).

A searcher that re-solves only to the end of the current street needs, at every leaf
(the street's betting closed with chips behind, the next board card not dealt yet), the
value of the rest of the hand.  As in Modicum it comes from *continuation strategies*:
the searcher plays the base blueprint to the end of the hand, the other player (the
**chooser**) picks, per hand, one of ``k`` variants of the blueprint: the blueprint
itself and versions biased toward folding, calling and raising (at every chooser
decision the probability of fold, resp. check/call, resp. every bet/raise is multiplied
by ``bias`` = 5 and the row renormalised).  :class:`Continuation` is one leaf:

* **Betting.**  The path from the subgame's root (``view``) to the leaf is followed on
  the blueprint's own tree with the agent's cursor
  (:meth:`~pokerlab.agents.policy_agent.HUNLPolicyAgent.cursor`, :meth:`~pokerlab.
  abstraction.cursor.Cursor.branches`); a randomised translation gives several ``(probability, cursor)``
  branches and the continuation is their probability-weighted mixture (both seats on
  the same branch, as one agent reading the public betting: see **Exactness**).  From
  each branch the rest of the hand is built once, without cards, as in
  :class:`~pokerlab.evaluation.lbr_tree.RealTree`: at every real decision the blueprint
  node (the cursor's re-sync rule where the tree lost the hand), the
  abstract actions legal at the real state and the real action each plays
  (``ActionMap.abstract_actions`` / ``to_real``, equal real actions merged), each
  followed with ``Cursor.branches``; fold and showdown terminals with their real chips.
* **Cards.**  Per runout only the card buckets (:func:`pokerlab.policy.range_query.
  bucket_vector`, the street of each decision) and the showdown order change; they are
  computed in the constructor (``continuation_runouts.runout_cards``; the leaves of one subgame, same
  board and runouts, share them).  A decision's rows are the policy's rows at (node, bucket)
  restricted to the legal actions and renormalised exactly as the agent does (all-zero
  or missing rows uniform, nothing legal left: check/call), shared with LBR
  (:func:`pokerlab.policy.range_query.node_rows`).
* **Chance.**  ``runouts`` are the board cards still to come (one river card after a
  turn leaf, ordered (turn, river) pairs after a flop leaf).  With all ``M`` of them a
  hand pair gets the average over the runouts disjoint from the board and both hands,
  as the real deal: each runout weighs ``1 / N`` with ``N = 52 - |board| - 4`` (one
  card) or ``(48 - |board|)(47 - |board|)`` (two cards); a sample of ``R`` distinct
  runouts (``continuation_runouts.sample_runouts``) weighs ``M / (R N)`` each, an unbiased estimate.

**Values** (chips, the table's units; rake 0).  For player ``i`` holding hand ``h``::

    v_i(h) = sum over runouts r (weight w_r) of
             sum over combos h' disjoint from h and the board + r of
                 reach_other(h') * E[chips i receives from the final pot
                                     - chips i puts in after the leaf]

so a fold by the other player pays ``i`` the whole pot at that moment minus what ``i``
added after the leaf, a fold by ``i`` pays minus what ``i`` added after the leaf, a
showdown pays the pot (a tie half of it) minus what ``i`` added after the leaf.  On
every runout the two players' payoffs of a hand pair add up to the pot at the leaf (the
chips both had put in before it, :attr:`Continuation.leaf_pot`; with every runout and
reaches 1, ``chooser_values[j, h] + other_values[h'] == leaf_pot``): a counterfactual
value that includes the leaf's pot, not the net win of the hand (subtract
``reach x leaf_committed[i] x runout weight`` for that).  Combos blocked by the board
get 0.

* :meth:`Continuation.chooser_values` ``(other_reach) -> (k, 1326)``: row ``j`` the
  chooser's values when it plays variant ``j`` to the end and the searcher plays the
  blueprint (the ``k`` rows in one walk per runout);
* :meth:`Continuation.other_values` ``(chooser_reach) -> (1326,)``: the searcher's
  values when chooser hand ``h`` plays variant ``j`` with weight ``chooser_reach[j, h]``.

**Exactness.**  At a real decision ``agent.action_probabilities(view)`` equals this
tree's row for the view's hand whenever the agent's translation of the hand so far is
on the branch followed (every action after the leaf is the blueprint's own, and an
action the agent itself plays translates back to itself, never randomised).  A
randomised translation on the path is drawn by the agent from its seed and the event's
number, the same for both seats' views; over the agent's seeds the branches come with
the translation's probabilities, which is the mixture computed here
(tests/test_continuation.py checks both, the mixture against agents re-seeded onto
each branch).

The numba kernels are :mod:`pokerlab.agents.continuation_kernels`; their plain-Python
twin is :func:`pokerlab.agents.continuation_reference.continuation_reference`.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.agents.continuation_kernels import (
    ACTOR,
    DEPTH,
    END,
    HASCH,
    KIND,
    LOSE,
    NB,
    NCOLS,
    NUM_FIELDS,
    PARENT,
    PCOL,
    ROFF,
    SLOT,
    TIE,
    VOFF,
    WIN,
    chooser_values_parallel,
    chooser_values_serial,
    other_values_parallel,
    other_values_serial,
)
from pokerlab.agents.continuation_runouts import (
    check_board,
    check_runouts,
    runout_cards,
    runout_counts,
)
from pokerlab.cards.cards import COMBO_MASKS, NUM_COMBOS, cards_mask
from pokerlab.errors import AgentError
from pokerlab.holdem.actions import Action, ActionKind, IllegalActionError, Phase
from pokerlab.holdem.view import PlayerView
from pokerlab.kinds import CHANCE, DECISION, FOLD, SHOWDOWN

VARIANTS = ("blueprint", "fold", "call", "raise")
"""The chooser's continuation strategies (Modicum's four)."""

BIAS = 5.0
"""Modicum's bias: the favoured action kind's probability is multiplied by it."""

MAX_NODES = 200_000
"""Nodes of one leaf's continuation tree before the constructor gives up."""

_KIND_OF_VARIANT = {"fold": ActionKind.FOLD, "call": ActionKind.CHECK_CALL,
                    "raise": ActionKind.RAISE}


# ----------------------------------------------------------------------------- the tree
class _Builder:
    """The continuation tree of one leaf (module docstring, **Betting**): nodes in
    depth-first pre-order, the rows of every decision."""

    def __init__(self, agent: Any, board5: list[int], leaf_street: int, committed: tuple[int, int],
                 chooser: int, mults: np.ndarray) -> None:
        self.agent = agent
        self.board5 = board5
        self.leaf_street = leaf_street
        self.committed = committed
        self.chooser = chooser
        self.mults = mults  # (k, 3): variant x action kind
        self.nodes: list[list[int]] = []
        self.pprob: list[float] = []
        self.pay: list[np.ndarray] = []
        self.rows: list[np.ndarray] = []
        self.nrows = 0
        self.vrows: list[np.ndarray] = []
        self.nvrows = 0
        self.anode: list[int] = []
        self.columns: list[list[Action]] = []
        self.chips: list[tuple[int, int]] = []

    def _new(self, kind: int, parent: int, col: int, prob: float, depth: int,
             chips: tuple[int, int] | None = None) -> int:
        if len(self.nodes) >= MAX_NODES:
            raise AgentError(f"the continuation tree of this leaf has more than {MAX_NODES} "
                             "nodes")
        row = [0] * NUM_FIELDS
        row[KIND], row[PARENT], row[PCOL], row[DEPTH] = kind, parent, col, depth
        row[ROFF] = row[VOFF] = -1
        row[ACTOR] = -1
        row[NB] = 1
        self.nodes.append(row)
        self.pprob.append(prob)
        self.pay.append(np.zeros((2, 3)))
        self.anode.append(-1)
        self.columns.append([])
        self.chips.append(chips if chips is not None else
                          (self.chips[parent] if parent >= 0 else self.committed))
        return len(self.nodes) - 1

    def root(self, branches: list[tuple[float, Any]]) -> None:
        r = self._new(CHANCE, -1, 0, 1.0, 0)
        for q, (p, t) in enumerate(branches):
            self.track(t, r, q, p, 1)
        self.nodes[r][END] = len(self.nodes)

    def track(self, t: Any, parent: int, col: int, prob: float, depth: int) -> int:
        from pokerlab.policy.range_query import node_rows, policy_columns

        real = t.real
        ag = self.agent
        if real.phase == Phase.TERMINAL:
            kind = FOLD if real.folded >= 0 else SHOWDOWN
            v = self._new(kind, parent, col, prob, depth, real.committed)
            pay = self.pay[v]
            for i in (0, 1):
                if kind == FOLD:
                    pay[i, :] = real.payoffs()[i] + self.committed[i]
                else:
                    o = 1 if i == 0 else -1
                    pay[i, WIN] = real.showdown_payoffs(o)[i] + self.committed[i]
                    pay[i, TIE] = real.showdown_payoffs(0)[i] + self.committed[i]
                    pay[i, LOSE] = real.showdown_payoffs(-o)[i] + self.committed[i]
            self.nodes[v][END] = v + 1
            return v
        if real.phase != Phase.BETTING:  # pragma: no cover - Cursor.branches deals every board
            raise AgentError(f"continuation tree: unexpected state {real!r}")
        v = self._new(DECISION, parent, col, prob, depth, real.committed)
        row = self.nodes[v]
        row[ACTOR] = int(real.actor)
        row[SLOT] = int(real.street) - self.leaf_street - 1
        node = int(t.synced_node())
        call = Action(kind=ActionKind.CHECK_CALL)
        columns: list[Action] = []
        if node >= 0:
            acts, keep, columns, col_of = policy_columns(ag, node, real)
            nb = int(ag.policy.num_buckets[node])
            _, _, tab = node_rows(ag.policy, node, len(acts), keep, col_of, len(columns),
                                   columns.index(call), np.arange(nb, dtype=np.int64))
        else:  # no blueprint node fits: the agent checks or calls
            columns = [call]
            nb = 1
            tab = np.ones((1, 1))
        nc = len(columns)
        row[NCOLS], row[NB] = nc, nb
        self.anode[v] = node
        self.columns[v] = columns
        row[ROFF] = self.nrows
        self.rows.append(np.ascontiguousarray(tab, dtype=np.float64).ravel())
        self.nrows += nb * nc
        if int(real.actor) == self.chooser:
            kinds = np.array([int(a.kind) for a in columns])
            m = self.mults[:, kinds]  # (k, nc)
            k = m.shape[0]
            vt = np.empty((k, nb, nc))
            for j in range(k):
                if np.all(m[j] == 1.0):
                    vt[j] = tab
                    continue
                w = tab * m[j][None, :]
                tot = np.zeros(nb)
                for c in range(nc):
                    tot = tot + w[:, c]
                vt[j] = w / tot[:, None]
            row[VOFF] = self.nvrows
            self.vrows.append(vt.ravel())
            self.nvrows += k * nb * nc
        for c, act in enumerate(columns):
            merged = _merge(t.branches(act, self.board5))
            if len(merged) == 1:
                self.track(merged[0][1], v, c, 1.0, depth + 1)
            else:
                ch = self._new(CHANCE, v, c, 1.0, depth + 1)
                for q, (p, tt) in enumerate(merged):
                    self.track(tt, ch, q, p, depth + 2)
                self.nodes[ch][END] = len(self.nodes)
        row[END] = len(self.nodes)
        return v


def _merge(branches: list[tuple[float, Any]]) -> list[tuple[float, Any]]:
    """Translation branches that reach the same blueprint position merged (probabilities
    added; the real states are the same)."""
    out: list[tuple[float, Any]] = []
    where: dict[tuple[int, bool], int] = {}
    for p, t in branches:
        key = (int(t.node), bool(t.lost))
        q = where.get(key)
        if q is None:
            where[key] = len(out)
            out.append((float(p), t))
        else:
            out[q] = (out[q][0] + float(p), out[q][1])
    return out


# ----------------------------------------------------------------------------- checks
def _check_agent(agent: Any) -> None:
    if not (getattr(agent, "indexed", False) and callable(getattr(agent, "cursor", None))
            and getattr(agent, "tree", None) is not None):
        raise AgentError(f"continuation strategies need a policy agent over a compiled tree "
                         f"(an indexed blueprint such as 'blueprint'), got {agent!r}")


def _check_path(real: Any, path: Sequence[Any]) -> Any:
    """The real state at the leaf after ``path`` from ``real`` (a copy); AgentError unless
    the path is legal and ends the street with both players holding chips."""
    from pokerlab.holdem.actions import STREET_NAMES

    st = real.clone()
    street = int(st.street)
    name = STREET_NAMES[street]
    if isinstance(path, (str, bytes)) or not isinstance(path, Sequence):
        raise AgentError(f"path must be a list of Actions, got {path!r}")
    for q, act in enumerate(path):
        if not isinstance(act, Action):
            raise AgentError(f"path action {q} is {act!r}, not an Action")
        if st.phase != Phase.BETTING or int(st.street) != street:
            raise AgentError(f"path action {q} ({act}) comes after the {name} betting has "
                             "ended: the path must end exactly at the leaf")
        try:
            st.verify(act)
        except IllegalActionError as e:
            raise AgentError(f"path action {q} ({act}) is not legal: {e}") from None
        st.apply(act)
    if st.phase == Phase.BETTING:
        raise AgentError(f"the path {[str(a) for a in path]} does not end the {name} betting "
                         f"(player {st.actor} still to act): not a leaf")
    if st.phase == Phase.TERMINAL and st.folded >= 0:
        raise AgentError(f"the path {[str(a) for a in path]} ends the hand with a fold: "
                         "not a leaf")
    if st.showdown_order or min(st.stacks) <= 0:
        raise AgentError(f"the path {[str(a) for a in path]} leaves a player all-in: no "
                         "betting follows, not a depth-limited leaf")
    return st


def _check_reach(x: Any, shape: tuple[int, ...], what: str) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.shape != shape:
        raise AgentError(f"{what} must have shape {shape}, got {a.shape}")
    if not np.all(np.isfinite(a)) or (a < 0).any():
        raise AgentError(f"{what} must be finite and non-negative")
    return a


# ----------------------------------------------------------------------------- the cache
@dataclass(frozen=True)
class LeafTree:
    """The card-free part of a leaf's continuation (its betting tree and the blueprint's
    rows): the same for every board with the same betting, so it is built once."""

    branches: list[tuple[float, int]]
    nodes: np.ndarray
    pprob: np.ndarray
    pay: np.ndarray
    rows: np.ndarray
    vrows: np.ndarray
    node_anode: np.ndarray
    node_columns: list[list[Action]]
    node_chips: np.ndarray

    @property
    def nbytes(self) -> int:
        return int(sum(a.nbytes for a in (self.nodes, self.pprob, self.pay, self.rows, self.vrows,
                                          self.node_anode, self.node_chips)))


class LeafTrees:
    """Leaf trees of one base agent by the hand's betting, the leaf's path, the chooser and
    the variants (a :class:`LeafTree` needs no cards): least recently used first out past
    ``max_bytes``.  Hands of a match repeat their betting (the blueprint's preflop sizes,
    the search's pot-relative sizes), so most flop and turn leaves are found here; the
    arrays are shared, never written (the value kernels only read them)."""

    def __init__(self, max_bytes: int = 64 << 20) -> None:
        self.max_bytes = int(max_bytes)
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._trees: OrderedDict[Any, LeafTree] = OrderedDict()

    def __len__(self) -> int:
        return len(self._trees)

    def get(self, key: Any) -> LeafTree | None:
        tree = self._trees.get(key)
        if tree is None:
            self.misses += 1
            return None
        self._trees.move_to_end(key)
        self.hits += 1
        return tree

    def put(self, key: Any, tree: LeafTree) -> None:
        if key in self._trees or tree.nbytes > self.max_bytes:
            return
        self._trees[key] = tree
        self.bytes += tree.nbytes
        while self.bytes > self.max_bytes:
            _, old = self._trees.popitem(last=False)
            self.bytes -= old.nbytes


# ----------------------------------------------------------------------------- the leaf
class Continuation:
    """The continuation values of one depth-limited leaf (see the module docstring).

    ``agent``: an indexed policy agent (the base blueprint); ``view``: a
    :class:`~pokerlab.holdem.view.PlayerView` at a flop or turn decision (the subgame's
    root); ``path``: the real actions from there that end the street with chips behind
    (the leaf); ``chooser``: the seat that picks among the ``variants`` (the other seat,
    the searcher, plays the blueprint); ``runouts``: the board cards to come (tuples,
    ``continuation_runouts.sample_runouts``).  Every card-dependent quantity is computed here; the two
    value calls run the kernels only (on numba's threads, or one thread: the same numbers).

    What it holds: ``branches`` (the path's translation branches: probability, blueprint
    node at the first decision after the leaf), ``leaf_state`` / ``leaf_pot`` /
    ``leaf_committed`` (the real leaf), ``weight`` (of each runout), the tree
    (``nodes[v, field]`` of :mod:`~pokerlab.agents.continuation_kernels`, ``pay``,
    ``node_anode``: the blueprint node of each decision, ``node_columns``: its real
    actions, ``node_chips``: both players' chips in at each node) and the per-runout
    arrays (``hands``, ``buckets``, ``gend``, ``clist``, ``hidx``; :attr:`nbytes`)."""

    def __init__(self, agent: Any, view: PlayerView, path: Sequence[Action], *, chooser: int,
                 runouts: Sequence[tuple[int, ...]], bias: float = BIAS,
                 variants: tuple[str, ...] = VARIANTS, trees: LeafTrees | None = None) -> None:
        _check_agent(agent)
        if not isinstance(view, PlayerView):
            raise AgentError(f"view must be a PlayerView, got {view!r}")
        if view.actor not in (0, 1) or view.street not in (1, 2):
            raise AgentError("the subgame's root must be a flop or turn decision (a view with "
                             f"a player to act); got street {view.street}, actor {view.actor}")
        if isinstance(chooser, bool) or chooser not in (0, 1):
            raise AgentError(f"chooser must be seat 0 or 1, got {chooser!r}")
        if isinstance(bias, bool) or not isinstance(bias, (int, float)) or not (
                math.isfinite(bias) and bias > 0):
            raise AgentError(f"bias must be a finite number > 0, got {bias!r}")
        variants = tuple(variants)
        bad = [v for v in variants if v not in VARIANTS]
        if not variants or bad or len(set(variants)) != len(variants):
            raise AgentError(f"variants must be distinct names among {', '.join(VARIANTS)}; "
                             f"got {variants!r}")
        self.agent = agent
        self.chooser = int(chooser)
        self.searcher = 1 - self.chooser
        self.bias = float(bias)
        self.variants = variants
        self.k = len(variants)
        board = check_board(view.board)
        self.board = board
        root = agent.cursor(view)
        leaf = _check_path(root.real, path)
        self.leaf_state = leaf
        """The real state at the leaf (cards: the view's own hole cards only)."""
        self.leaf_street = int(leaf.street)
        committed = leaf.committed
        self.leaf_committed = (int(committed[0]), int(committed[1]))
        self.leaf_pot = int(leaf.pot)
        self.runouts = check_runouts(board, runouts)
        self.num_runouts_total, self.pair_runouts = runout_counts(len(board))
        self.weight = self.num_runouts_total / (len(self.runouts) * self.pair_runouts)
        """Each runout's weight ``M / (R N)`` (module docstring, **Chance**)."""

        # the betting (no cards: the same for every board): from the cache, or built
        key = (int(view.street), tuple(tuple(street) for street in view.street_action_events()),
               tuple(path), self.chooser, self.bias, variants, self.leaf_committed)
        tree = trees.get(key) if trees is not None else None
        if tree is None:
            tree = self._build_tree(agent, view, root, path, board)
            if trees is not None:
                trees.put(key, tree)
        self.branches = tree.branches
        """``(probability, blueprint node at the first decision after the leaf)`` of each
        translation branch of the path."""
        self.nodes = tree.nodes
        self.pprob = tree.pprob
        self.pay = tree.pay
        self.rows = tree.rows
        self.vrows = tree.vrows
        self.node_anode = tree.node_anode
        """The blueprint node each decision reads its rows at (-1: none, check/call)."""
        self.node_columns = tree.node_columns
        """The real actions of each decision (its columns, in row order)."""
        self.node_chips = tree.node_chips
        """``(N, 2)``: the chips each player has put in this hand at each node (real)."""
        self.depth = int(self.nodes[:, DEPTH].max()) + 1
        self._runout_arrays()

    def _build_tree(self, agent: Any, view: PlayerView, root: Any, path: Sequence[Action],
                    board: tuple[int, ...]) -> LeafTree:
        """The path's translation branches, then the blueprint's tree from each."""
        used = set(board) | set(view.hole)
        fill = [c for c in range(52) if c not in used][: 5 - len(board)]
        board5 = list(board) + fill
        branches: list[tuple[float, Any]] = [(1.0, root)]
        for act in path:
            branches = _merge([(p * q, c) for p, t in branches
                               for q, c in t.branches(act, board5)])
        mults = np.ones((self.k, 3))
        for j, name in enumerate(self.variants):
            if name in _KIND_OF_VARIANT:
                mults[j, int(_KIND_OF_VARIANT[name])] = self.bias
        b = _Builder(agent, board5, self.leaf_street, self.leaf_committed, self.chooser, mults)
        b.root(branches)
        nodes = np.ascontiguousarray(np.array(b.nodes, dtype=np.int64))
        for v in range(nodes.shape[0] - 1, -1, -1):  # children come after their parent
            if nodes[v, KIND] == DECISION and nodes[v, ACTOR] == self.chooser:
                nodes[v, HASCH] = 1
            if nodes[v, HASCH] and v > 0:
                nodes[nodes[v, PARENT], HASCH] = 1
        return LeafTree(
            branches=[(p, int(b.anode[c])) for c, (p, _) in
                      zip(self._children(b.nodes, 0), branches, strict=True)],
            nodes=nodes, pprob=np.asarray(b.pprob, dtype=np.float64),
            pay=np.ascontiguousarray(np.stack(b.pay).astype(np.float64)),
            rows=(np.concatenate(b.rows) if b.rows else np.zeros(1)).astype(np.float64),
            vrows=(np.concatenate(b.vrows) if b.vrows else np.zeros(1)).astype(np.float64),
            node_anode=np.asarray(b.anode, dtype=np.int64), node_columns=b.columns,
            node_chips=np.asarray(b.chips, dtype=np.int64))

    @staticmethod
    def _children(nodes: Any, v: int) -> list[int]:
        out = []
        c = v + 1
        end = int(nodes[v][END])
        while c < end:
            out.append(c)
            c = int(nodes[c][END])
        return out

    # ------------------------------------------------------------------ cards
    def _runout_arrays(self) -> None:
        """The per-runout arrays (``continuation_runouts.runout_cards``, shared between the leaves of one
        board and runout sample), checked against the policy's bucket counts."""
        self.hands, self.clist, self.hidx, self.gend, self.buckets = runout_cards(
            self.agent, self.board, self.runouts)
        buckets = self.buckets
        R = len(self.runouts)
        dec = self.nodes[:, KIND] == DECISION
        for q in range(buckets.shape[1]):
            nb = self.nodes[dec & (self.nodes[:, SLOT] == q) & (self.nodes[:, NB] > 1), NB]
            if nb.size and R and int(buckets[:, q].max()) >= int(nb.min()):
                raise AgentError(f"the agent's card buckets reach {int(buckets[:, q].max())}, "
                                 f"its policy has {int(nb.min())} buckets on that street")

    @property
    def num_nodes(self) -> int:
        return int(self.nodes.shape[0])

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays the value calls read."""
        return int(sum(a.nbytes for a in (self.nodes, self.pprob, self.pay, self.rows,
                                          self.vrows, self.hands, self.clist, self.hidx, self.gend,
                                          self.buckets)))

    def live_combos(self) -> np.ndarray:
        """The combos the board leaves (1326 booleans)."""
        live = getattr(self, "_live_mask", None)
        if live is None:
            live = self._live_mask = (COMBO_MASKS & np.uint64(cards_mask(list(self.board)))) == 0
        return live

    # ------------------------------------------------------------------ values
    def _select(self, sel: Sequence[int] | np.ndarray | None) -> tuple[np.ndarray, float]:
        """The runout indices of a value call and the weight of each: every runout, or
        the subset ``sel`` (distinct indices into :attr:`runouts`) weighing ``M / (|sel|
        N)`` each, so that a subset is an unbiased estimate of the same values."""
        R = len(self.runouts)
        if sel is None:
            return np.arange(R, dtype=np.int64), self.weight
        idx = np.asarray(sel)
        if (idx.ndim != 1 or idx.size == 0 or not np.issubdtype(idx.dtype, np.integer)
                or int(idx.min()) < 0 or int(idx.max()) >= R or np.unique(idx).size != idx.size):
            raise AgentError(f"sel must be distinct runout indices in 0..{R - 1}, got {sel!r}")
        return (np.ascontiguousarray(idx, dtype=np.int64),
                self.num_runouts_total / (idx.size * self.pair_runouts))

    def chooser_values(self, other_reach: np.ndarray, *, parallel: bool = False,
                       sel: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
        """``(k, 1326)``: row ``j`` the chooser's values playing variant ``j`` against the
        searcher's blueprint, the searcher's reach ``other_reach`` (1326; entries the board
        blocks are ignored).  ``parallel``: the runouts on numba's threads (the same
        numbers; on the shared 2-core machine one thread was faster, see
        benchmarks/bench_continuation.py).  ``sel``: only these runouts (indices into
        :attr:`runouts`), each weighted as one of ``len(sel)`` drawn from all: an unbiased
        estimate (:meth:`_select`)."""
        r = _check_reach(other_reach, (NUM_COMBOS,), "other_reach (the searcher's reach)")
        r = np.where(self.live_combos(), r, 0.0)[None, :]
        idx, w = self._select(sel)
        out = np.zeros((self.k, NUM_COMBOS))
        fn = chooser_values_parallel if parallel else chooser_values_serial
        fn(self.nodes, self.pprob, self.pay, self.rows, self.vrows, self.k, self.chooser,
           self.depth, self.hands, self.buckets, self.clist, self.hidx, self.gend, idx, w,
           np.ascontiguousarray(r[0]), out)
        return out

    def other_values(self, chooser_reach: np.ndarray, *, parallel: bool = False,
                     sel: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
        """``(1326,)``: the searcher's values when chooser hand ``h`` plays variant ``j``
        with weight ``chooser_reach[j, h]`` (shape ``(k, 1326)``); ``parallel`` and
        ``sel`` as in :meth:`chooser_values`."""
        r = _check_reach(chooser_reach, (self.k, NUM_COMBOS),
                         "chooser_reach (the chooser's reach per variant)")
        r = np.ascontiguousarray(np.where(self.live_combos()[None, :], r, 0.0))
        idx, w = self._select(sel)
        out = np.zeros(NUM_COMBOS)
        fn = other_values_parallel if parallel else other_values_serial
        fn(self.nodes, self.pprob, self.pay, self.rows, self.vrows, self.k, self.chooser,
           self.depth, self.hands, self.buckets, self.clist, self.hidx, self.gend, idx, w, r, out)
        return out


