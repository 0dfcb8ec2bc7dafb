"""LBR with any action set against an indexed policy agent, whole hands in one kernel.

Fold/call LBR on the agent's own tree never leaves that tree, so it runs on the tree
itself (:func:`pokerlab.evaluation.lbr.fc_kernel_deals`).  With raises (``fcpa``, ``56``,
a bet-set text) or at a table the policy was not trained for, the hand leaves it: LBR's
sizes are translated into the agent's tree (randomised between the two nearest sizes
where the action map says so), the agent's answers are played back at the real pot, and
the agent re-synchronises when its tree cannot follow.  All of that depends on the
betting only, never on the cards, so it is compiled once into a **real betting tree**
(:class:`RealTree`): every node a real betting state with the agent's position on its
own tree; an LBR node holds LBR's options (call, fold, its raises) and their chips, an
agent node the layout of the agent's row at that position (the abstract actions legal
at the real state and the real action each one plays), an edge the real action with the
translation's branches and the event number that seeds their draw.

The tree is built lazily: the kernel (:func:`pokerlab.evaluation.lbr_kernels.
lbr_tree_kernel`) plays hands until one reaches a node whose children do not exist yet,
Python builds them with the agent's own translation code (its tree cursor,
:meth:`pokerlab.abstraction.cursor.Cursor.branches`) and the kernel plays that hand again
from its start.
After the first few hundred hands almost every hand runs through.

Its plain-Python twin is the general LBR hand loop
(:func:`pokerlab.evaluation.lbr.per_deal_holdem` with ``kernel=False``): the same deals,
the same draws, the same ranges, choices and chips (tests/test_lbr_tree.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pokerlab.cards.range_kernels import combos64
from pokerlab.evaluation.lbr_core import (
    ActionSet,
    LBRConfig,
    parse_action_set,
)
from pokerlab.policy.range_query import policy_columns

# node fields
KIND, STREET, READY, ANODE, NROW, KEEP0, NKEEP, COL0, NCOL, CALLCOL, FOLDPOS, OPT0, NOPT, \
    PAY_WIN, PAY_TIE, PAY_LOSE = range(16)
NUM_FIELDS = 16
LBR_NODE, AGENT_NODE, FOLD_END, SHOWDOWN_END = 1, 2, 3, 4
OPT_CALL, OPT_FOLD, OPT_RAISE = 0, 1, 2
MAX_NODES = 4_000_000
"""Nodes of the real betting tree before the kernel gives up (the Python path goes on)."""

_DUMMY = [0, 1, 2, 3, 4, 5, 6, 7, 8]  # cards of the builder's states: betting only


class _Grow:
    """A growing numpy array (rows of ``shape``), capacity doubled when full."""

    def __init__(self, shape: tuple[int, ...], dtype: Any, fill: Any = 0) -> None:
        self.a = np.full((64, *shape), fill, dtype=dtype)
        self.n = 0
        self.fill = fill

    def add(self, k: int = 1) -> int:
        lo = self.n
        if lo + k > self.a.shape[0]:
            cap = max(2 * self.a.shape[0], lo + k)
            b = np.full((cap, *self.a.shape[1:]), self.fill, dtype=self.a.dtype)
            b[:lo] = self.a[:lo]
            self.a = b
        self.n = lo + k
        return lo


class RealTree:
    """The real betting tree of LBR (``action_set`` from ``from_round``) against
    ``agent`` at the table ``config``, both LBR seats (roots ``roots[seat]``)."""

    def __init__(self, agent: Any, config: Any, action_set: ActionSet,
                 from_round: int) -> None:
        from pokerlab.holdem.engine import HoldemState

        self.agent = agent
        self.config = config
        self.aset = action_set
        self.from_round = from_round
        self.active = action_set.active_rounds(from_round)  # per street: LBR decides
        self.nodes = _Grow((NUM_FIELDS,), np.int64)
        self.keep = _Grow((2,), np.int64)  # row position, column
        self.cols = _Grow((), np.int64)  # edge of each column
        self.opts = _Grow((2,), np.int64)  # kind, edge
        self.optf = _Grow((2,), np.float64)  # chips c, opponent's chips (raises)
        self.edges = _Grow((3,), np.int64)  # event index, branches, first branch
        self.bprob = _Grow((), np.float64)
        self.bnode = _Grow((), np.int64)
        self.tracks: dict[int, tuple[int, Any]] = {}
        self.roots = np.zeros(2, dtype=np.int64)
        for seat in (0, 1):
            st = HoldemState(config=config)
            st.deal_hole(_DUMMY[0:2])
            st.deal_hole(_DUMMY[2:4])
            t = agent.cursor(st.view(1 - seat))
            self.roots[seat] = self._create(seat, t)

    # ------------------------------------------------------------------ building
    @property
    def num_nodes(self) -> int:
        return self.nodes.n

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.nodes.a, self.keep.a, self.cols.a, self.opts.a, self.optf.a,
                self.edges.a, self.bprob.a, self.bnode.a, self.roots)

    def _create(self, seat: int, t: Any) -> int:
        """A node for the agent's track ``t`` (LBR in ``seat``); children come later."""
        from pokerlab.abstraction.action_map import FOLD
        from pokerlab.abstraction.bets import StreetBets, resolve_raises
        from pokerlab.holdem.engine import Action, ActionKind, Phase

        real = t.real
        r = self.nodes.add()
        row = self.nodes.a[r]
        if real.phase == Phase.TERMINAL:
            row[STREET] = real.street
            row[READY] = 1
            if real.folded >= 0:
                row[KIND] = FOLD_END
                p = int(real.payoffs()[0])
                row[PAY_WIN] = row[PAY_TIE] = row[PAY_LOSE] = p
            else:
                row[KIND] = SHOWDOWN_END
                row[PAY_WIN] = real.showdown_payoffs(1)[0]
                row[PAY_TIE] = real.showdown_payoffs(0)[0]
                row[PAY_LOSE] = real.showdown_payoffs(-1)[0]
            return r
        row[STREET] = real.street
        call = Action(kind=ActionKind.CHECK_CALL)
        if real.actor == seat:
            row[KIND] = LBR_NODE
            opts: list[tuple[int, Action, float, float]] = [(OPT_CALL, call, 0.0, 0.0)]
            if self.active[real.street]:
                lg = real.legal()
                c_me, c_opp = real.committed
                if seat == 1:
                    c_me, c_opp = c_opp, c_me
                tot_me = self.config.stacks[seat]
                tot_opp = self.config.stacks[1 - seat]
                opts[0] = (OPT_CALL, call, float(min(tot_me, c_opp)), 0.0)
                if lg.can_fold:
                    opts.append((OPT_FOLD, Action(kind=ActionKind.FOLD), float(c_me), 0.0))
                sizes = self.aset.sizes[real.street]
                if lg.can_raise and sizes:
                    raises = resolve_raises(
                        StreetBets(sizes=tuple(sizes)), pot=real.pot,
                        current_bet=max(real.bets), to_call=real.to_call,
                        min_raise_to=lg.min_raise_to, all_in_to=lg.max_raise_to,
                        big_blind=self.config.big_blind, raises_so_far=0)
                    for _, amount in raises:
                        new_me = c_me + (int(amount) - real.bets[seat])
                        opts.append((OPT_RAISE, Action(kind=ActionKind.RAISE, amount=int(amount)),
                                     float(min(new_me, tot_opp)), float(c_opp)))
            o0 = self.opts.add(len(opts))
            f0 = self.optf.add(len(opts))
            for q, (kd, _, c, co) in enumerate(opts):
                self.opts.a[o0 + q] = (kd, -1)
                self.optf.a[f0 + q] = (c, co)
            row[OPT0], row[NOPT] = o0, len(opts)
            self.tracks[r] = (seat, (t, [a for _, a, _, _ in opts]))
            return r
        row[KIND] = AGENT_NODE
        ag = self.agent
        node = t.decision()
        columns: list[Any] = []
        keep_rows: list[tuple[int, int]] = []
        fold_pos = -1
        if node >= 0:
            acts, keep, columns, col_of = policy_columns(ag, node, real)
            keep_rows = list(zip(keep, col_of, strict=True))
            fold_pos = next((k for k in keep if acts[k] == FOLD), -1)
            row[ANODE], row[NROW] = node, len(acts)
        else:
            row[ANODE], row[NROW] = -1, 0
        if call not in columns:
            columns.append(call)
        k0 = self.keep.add(len(keep_rows))
        for q, kc in enumerate(keep_rows):
            self.keep.a[k0 + q] = kc
        row[KEEP0], row[NKEEP] = k0, len(keep_rows)
        row[NCOL], row[CALLCOL] = len(columns), columns.index(call)
        row[FOLDPOS] = fold_pos
        row[COL0] = self.cols.add(len(columns))
        self.tracks[r] = (seat, (t, columns))
        return r

    def expand(self, r: int) -> None:
        """Build the children of node ``r`` (its options or columns, each an edge with the
        translation's branches)."""
        seat, (t, actions) = self.tracks.pop(r)
        row = self.nodes.a[r]
        if int(row[KIND]) == LBR_NODE:
            o0 = int(row[OPT0])
            for q, act in enumerate(actions):
                e = self._edge(seat, t, act)
                self.opts.a[o0 + q, 1] = e
        else:
            c0 = int(row[COL0])
            for q, act in enumerate(actions):
                e = self._edge(seat, t, act)
                self.cols.a[c0 + q] = e
        self.nodes.a[r, READY] = 1

    def _edge(self, seat: int, t: Any, act: Any) -> int:
        idx = len(t.real.view(1 - seat).events)
        branches = t.branches(act, _DUMMY[4:9])
        e = self.edges.add()
        b0 = self.bprob.add(len(branches))
        self.bnode.add(len(branches))
        seen: dict[tuple[int, bool], int] = {}
        for q, (p, c) in enumerate(branches):
            key = (int(c.node), bool(c.lost))
            child = seen.get(key)
            if child is None:
                child = seen[key] = self._create(seat, c)
            self.bprob.a[b0 + q] = p
            self.bnode.a[b0 + q] = child
        self.edges.a[e] = (idx, len(branches), b0)
        return e


# ----------------------------------------------------------------------------- driver
@runtime_checkable
class CursorAgent(Protocol):
    """An agent that walks an abstract betting tree: ``cursor(view)`` is its
    :class:`~pokerlab.abstraction.cursor.Cursor` at ``view`` (the policy agent)."""

    def cursor(self, view: Any) -> Any: ...


def tree_kernel_ok(agent: Any) -> Any:
    """The agent's match-kernel side when LBR can run on :class:`RealTree`: an indexed
    policy agent (a tree cursor, a kernel bucketer) whose nodes offer fewer than 8
    actions and whose range query agreed with its own answers; else ``None``."""
    from pokerlab.policy.kernel_side import kernel_side

    if not isinstance(agent, CursorAgent):
        return None
    side = kernel_side(agent)
    if side is None:
        return None
    if int(side.tree.num_children.max()) >= 8:
        return None
    return side


def tree_kernel_deals(agent: Any, config: Any, lbr: LBRConfig, deals: Sequence[int],
                      progress: Callable[[int], None] | None = None,
                      tree: RealTree | None = None) -> np.ndarray | None:
    """``per_deal[i, seat]`` LBR chips by :func:`lbr_tree_kernel` (``None`` when the agent
    does not qualify, see :func:`tree_kernel_ok`, or a hand needs what the kernel does
    not do: then the caller takes the Python path for the whole run).  The caller has
    run the range query's first-use check (``lbr._range_query_checked``)."""
    side = tree_kernel_ok(agent)
    if side is None:
        return None
    from pokerlab.abstraction.indexer import street_indexer
    from pokerlab.cards.cards import CLASS_OF_COMBO, COMBO_INDEX
    from pokerlab.cards.equity import preflop_equity_matrix
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.evaluation.lbr_kernels import lbr_tree_kernel

    rt = tree if tree is not None else RealTree(agent, config, parse_action_set(lbr.actions),
                                                int(lbr.from_round))
    active = np.asarray(rt.active, dtype=np.int64)
    Ts = [street_indexer(s).tables for s in range(4)]
    pre = np.ascontiguousarray(preflop_equity_matrix(), dtype=np.float64)
    combos = combos64()
    cidx = np.ascontiguousarray(COMBO_INDEX, dtype=np.int64)
    cls = np.ascontiguousarray(CLASS_OF_COMBO, dtype=np.int64)
    ET = eval_tables()
    rowb = np.zeros((65536, 8))
    stamp = np.zeros(65536, dtype=np.int64)
    rowf = np.zeros(65536)
    fstamp = np.zeros(65536, dtype=np.int64)
    ctr = np.zeros(2, dtype=np.int64)
    status = np.zeros(3, dtype=np.int64)
    out = np.zeros((len(deals), 2))
    ds = np.asarray(list(deals), dtype=np.int64)
    for lo in range(0, len(ds), 256):
        block = ds[lo:lo + 256]
        res = np.zeros((len(block), 2))
        h = 0
        while h < 2 * len(block):
            N, K, C, O, OF, E, BP, BN, R = rt.arrays()
            lbr_tree_kernel(h, int(lbr.seed), block, active, N, K, C, O, OF,
                            E, BP, BN, R, *side.arrays, *Ts, ET, combos, cidx, cls, pre,
                            rowb, stamp, rowf, fstamp, ctr, status,
                            res)  # type: ignore[call-arg]
            if status[2] != 0:
                return None  # a hand the kernel does not play: the Python path does all
            h = int(status[0])
            if h < 2 * len(block):
                if rt.num_nodes > MAX_NODES:
                    return None
                rt.expand(int(status[1]))
        out[lo:lo + len(block)] = res
        if progress is not None:
            progress(lo + len(block))
    return out
