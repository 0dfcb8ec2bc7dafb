"""The range-vs-range spot solver: Discounted CFR over a compiled spot, best response,
values, node locking, save / load / resume.

:class:`SpotSolver` owns the flat arrays (float32 regrets and strategy sums, one block of
``actions x hands`` per decision node and board) and drives the kernels of
:mod:`pokerlab.subgame.solver_kernels`.  Values are in chips and count each player's share
of the starting pot (``ev_oop + ev_ip = pot`` without rake).  Exploitability is the mean of
the two players' best-response gains over their value (``(BR_oop - EV_oop + BR_ip -
EV_ip) / 2``; without rake this is ``(BR_oop + BR_ip - pot) / 2``), as postflop-solver
reports it, and in % of the starting pot.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.subgame import solver_kernels as K
from pokerlab.subgame.deal import Deal, build_deal
from pokerlab.subgame.solve_config import (
    FIRST_CHECK,
    PRECISIONS,
    SolveConfig,
    estimate_size,
    layout,
    next_check,
)
from pokerlab.subgame.solver_files import SolverFiles
from pokerlab.subgame.solver_views import SolverViews
from pokerlab.subgame.spot import Spot, SpotError
from pokerlab.subgame.tree import (
    CHANCE,
    DECISION,
    FOLD,
    SHOWDOWN,
    BettingTree,
    build_betting_tree,
)


def fused_pairs(tree: BettingTree) -> np.ndarray:
    """Per node, ``fold << 6 | showdown`` (child positions) where a river decision has a fold
    child and a showdown child, evaluated together by the walk
    (:func:`pokerlab.subgame.solver_kernels.showdown_fold`); -1 elsewhere."""
    out = np.full(tree.num_nodes, -1, dtype=np.int64)
    for nd in range(tree.num_nodes):
        if int(tree.kind[nd]) != K.DECISION or int(tree.street[nd]) != 2:
            continue
        k = int(tree.num_children[nd])
        kinds = [int(tree.kind[tree.children[tree.child_start[nd] + a]]) for a in range(k)]
        if kinds.count(K.FOLD) == 1 and K.SHOWDOWN in kinds and k < 64:
            out[nd] = kinds.index(K.FOLD) << 6 | kinds.index(K.SHOWDOWN)
    return out


class SpotSolver(SolverViews, SolverFiles):
    """Solve one spot.  ``max_memory`` (bytes) refuses, before allocating, a spot whose
    estimate is larger."""

    def __init__(self, spot: Spot, config: SolveConfig | None = None, *, max_memory: float | None = None,
                 threads: int | None = None, depth_limited: bool = False) -> None:
        self.spot = spot
        self.config = config if config is not None else SolveConfig()
        if depth_limited and (spot.street >= 2 or self.config.isomorphism):
            raise SpotError("depth-limited solving is for a flop or turn spot, without suit isomorphism "
                            "(SolveConfig(isomorphism=False))")
        self.tree = build_betting_tree(spot, depth_limited=depth_limited)
        self.size = estimate_size(spot, isomorphism=self.config.isomorphism, tree=self.tree,
                                  compress=self.config.compress, predictive=self.config.predictive)
        if max_memory is not None and self.size.memory_bytes > max_memory:
            raise SpotError(f"the spot needs about {self.size.memory_bytes / 1e6:,.1f} MB "
                            f"({self.size.nodes:,} nodes), over --max-memory {max_memory / 1e6:,.1f} MB: "
                            "use fewer bet sizes, a raise cap or narrower ranges")
        self.deal: Deal = build_deal(spot.board, spot.ranges, isomorphism=self.config.isomorphism)
        n_hands = self.deal.num_hands
        self.node_base, self.entry_base, total, entries, _ = layout(self.tree, n_hands, self.deal.num_slots)
        # reach and value vectors (storage is float32, or 16 bits)
        self.vec_dtype = PRECISIONS[self.config.precision]
        if self.config.compress:
            self.regrets: np.ndarray = np.zeros(total, dtype=np.int16)
            self.ssum: np.ndarray = np.zeros(total, dtype=np.uint16)
            self.rscale = np.zeros(max(entries, 1), dtype=np.float32)
            self.sscale = np.zeros(max(entries, 1), dtype=np.float32)
        else:
            self.regrets = np.zeros(total, dtype=np.float32)
            self.ssum = np.zeros(total, dtype=np.float32)
            self.rscale = np.zeros(0, dtype=np.float32)  # empty: no compression
            self.sscale = np.zeros(0, dtype=np.float32)
        # PDCFR+'s predicted regrets (the current strategy is matched on them); else empty
        self.pred = np.zeros(total if self.config.predictive else 0, dtype=np.float32)
        self.lock_ptr = np.full(max(entries, 1), -1, dtype=np.int64)
        self.lock_data = np.zeros(1, dtype=np.float64)
        self.iteration = 0
        self.threads = threads
        self.history: list[tuple[int, float, float]] = []  # (iteration, cpu seconds, exploitability %)
        self.cpu_seconds = 0.0  # of solving (iterations and exploitability checks)
        self.wall_seconds = 0.0
        self.leaf_model: Any = None  # see set_leaf_model
        self._tasks()
        self.fused = fused_pairs(self.tree)
        depth = np.zeros(self.tree.num_nodes, dtype=np.int64)
        for i in range(1, self.tree.num_nodes):
            depth[i] = depth[self.tree.parent[i]] + 1
        kmax = int(self.tree.num_children.max())
        self.depth = int(depth.max()) + 2
        self.scratch_size = int((self.depth + 1) * (2 * kmax + 3) * max(n_hands))
        self.scratch = np.empty(self.scratch_size, dtype=self.vec_dtype)
        self.frames = np.empty((self.depth, 8), dtype=np.int64)
        self.work = np.empty(K.work_size(max(n_hands)))
        self._buffers: dict[int, tuple[np.ndarray, ...]] = {}  # per thread, _thread_buffers
        self._costs: np.ndarray | None = None  # static task costs, _task_costs
        self._task_weights: dict[tuple[int, int], np.ndarray] = {}  # learnt, per mode and player
        self._z = self._normaliser()
        # the walks' start vectors (read only by the kernels) and output buffers
        self._weights_vec = tuple(np.ascontiguousarray(self.deal.weights[q], dtype=self.vec_dtype)
                                  for q in (0, 1))
        self._out_vec = tuple(np.zeros(n_hands[q], dtype=self.vec_dtype) for q in (0, 1))
        self._compat_weights = tuple(self._compatible(q, self._weights_vec[1 - q]) for q in (0, 1))
        self._load_kernels()
        self.gadget_player = -1  # see set_gadget
        self.gadget_cbv = np.zeros(0)
        self.gadget_regret = np.zeros((2, 0))

    # ------------------------------------------------------------------ kernel plumbing
    def _tasks(self) -> None:
        tr = self.tree
        s0 = self.spot.street
        chance = [i for i in range(tr.num_nodes) if tr.kind[i] == CHANCE and tr.street[i] == s0]
        self.chance_index = np.full(tr.num_nodes, -1, dtype=np.int64)
        n0, n1 = self.deal.num_hands
        nmax = max(n0, n1)
        task_node: list[int] = []
        task_card: list[int] = []
        task_slot: list[int] = []
        task_chance: list[int] = []
        self.task_of = np.full((max(len(chance), 1), 52), -1, dtype=np.int64)
        self.leaf_of = np.full(max(len(chance), 1), -1, dtype=np.int64)
        self.leaf_nodes: list[int] = []
        leaf = tr.leaf
        if s0 < 2:
            nxt = self.deal.next_slot[s0]
            swp = self.deal.iso_swap[s0]
            for ci, node in enumerate(chance):
                self.chance_index[node] = ci
                if leaf is not None and leaf[node]:
                    self.leaf_of[ci] = len(self.leaf_nodes)
                    self.leaf_nodes.append(node)
                    continue  # no subtree below a leaf: its values come from the leaf model
                for c in range(52):
                    if nxt[0, c] >= 0 and swp[0, c] < 0:
                        self.task_of[ci, c] = len(task_node)
                        task_node.append(node)
                        task_card.append(c)
                        task_slot.append(int(nxt[0, c]))
                        task_chance.append(ci)
        self.task_node = np.array(task_node, dtype=np.int64)
        self.task_card = np.array(task_card, dtype=np.int64)
        self.task_slot = np.array(task_slot, dtype=np.int64)
        self.task_chance = np.array(task_chance, dtype=np.int64)
        self.chance_opp = np.zeros((max(len(chance), 1), nmax), dtype=self.vec_dtype)
        self.chance_own = np.zeros((max(len(chance), 1), nmax), dtype=self.vec_dtype)
        self.task_cfv = np.zeros((max(len(task_node), 1), nmax), dtype=self.vec_dtype)
        self.leaf_cfv = np.zeros((max(len(self.leaf_nodes), 1), nmax), dtype=self.vec_dtype)

    def _ctx(self) -> tuple[Any, ...]:
        tr, d = self.tree, self.deal
        return (tr.kind, tr.player, tr.street, tr.child_start, tr.num_children, tr.children, tr.contrib,
                self.fused,
                self.node_base, self.entry_base, self.regrets, self.ssum, self.rscale, self.sscale,
                self.pred, self.lock_data, self.lock_ptr,
                d.hand_cards, d.same, d.card_start, d.card_hands, d.swap,
                d.next_slot, d.iso_rep, d.iso_swap, d.sd_order, d.sd_count, d.sd_cards, d.sd_index)

    def _extra(self) -> tuple[Any, ...]:
        """The walk's last arguments: the starting street's chance nodes and tasks."""
        return (self.chance_index, self.chance_opp, self.chance_own, self.task_of, self.task_cfv,
                int(self.spot.street), self.leaf_of, self.leaf_cfv)

    def _params(self, t: int) -> tuple[Any, ...]:
        pos_d, neg_d, strat_d, plus = self.config.discounts(t)
        sp = self.spot
        return (float(sp.pot), float(sp.rake), float(sp.rake_cap), pos_d, neg_d, strat_d, plus,
                self.config.prediction_discount(t))

    def _run(self, mode: int, p: int, t: int, node: int = 0, slot: int = 0,
             opp_reach: np.ndarray | None = None, own_reach: np.ndarray | None = None,
             values: bool = True) -> np.ndarray:
        """One walk; returns ``p``'s counterfactual values at ``node`` (``values=False``: a
        CFR update whose values nobody reads returns the kernel's raw buffer)."""
        o = 1 - p
        vt = self.vec_dtype
        opp = self._weights_vec[o] if opp_reach is None else np.ascontiguousarray(opp_reach, dtype=vt)
        own = self._weights_vec[p] if own_reach is None else np.ascontiguousarray(own_reach, dtype=vt)
        out = self._out_vec[p]
        ctx = self._ctx()
        prm = self._params(t)
        extra = self._extra()
        if node == 0 and (self.task_node.shape[0] > 0 or self.leaf_nodes):
            self.chance_opp[:] = 0.0
            self.chance_own[:] = 0.0
            K.walk(mode, K.TOP_COLLECT, 0, p, 0, opp, own, out, self.scratch, self.frames,  # type: ignore[call-arg]
                   self.work, *ctx, *prm, *extra)
            if self.leaf_nodes:
                self._leaf_values(mode, p)
            self._run_tasks(mode, p, ctx, prm, extra)
            K.walk(mode, K.TOP_COMBINE, 0, p, 0, opp, own, out, self.scratch, self.frames,  # type: ignore[call-arg]
                   self.work, *ctx, *prm, *extra)
        else:
            if self.leaf_nodes:
                self._leaves_for(mode, p, ctx, prm, extra)
            K.walk(mode, K.TOP_FULL, node, p, slot, opp, own, out, self.scratch,  # type: ignore[call-arg]
                   self.frames, self.work, *ctx, *prm, *extra)
        if not values:
            return out
        # the kernels' payoffs are relative to a tie (every terminal less half the starting
        # pot: the same for every action, so regrets and best responses do not change); the
        # constant comes back here: half the pot times the compatible opponent reach
        comp = self._compat_weights[p] if opp_reach is None else self._compatible(p, opp)
        return out.astype(np.float64) + 0.5 * float(self.spot.pot) * comp

    def _leaves_for(self, mode: int, p: int, ctx: tuple[Any, ...], prm: tuple[Any, ...],
                    extra: tuple[Any, ...]) -> None:
        """The leaves' values for ``p`` in ``mode`` from a walk of the whole tree (the ranges at
        the root, as :meth:`cursor` starts from them): a walk from a node below the root reads
        the leaves' values the last walk left, which may be the other player's or another
        mode's."""
        opp, own = self._weights_vec[1 - p], self._weights_vec[p]
        self.chance_opp[:] = 0.0
        self.chance_own[:] = 0.0
        K.walk(mode, K.TOP_COLLECT, 0, p, 0, opp, own, self._out_vec[p], self.scratch,  # type: ignore[call-arg]
               self.frames, self.work, *ctx, *prm, *extra)
        self._leaf_values(mode, p)

    # ------------------------------------------------------------ depth-limited solving
    def leaf_paths(self) -> list[tuple[str, ...]]:
        """The action names from the root to each leaf of a depth-limited spot, in leaf
        order (what :meth:`set_leaf_model`'s model is asked about by index)."""
        tr = self.tree
        out: list[tuple[str, ...]] = []
        for node in self.leaf_nodes:
            path: list[str] = []
            v = node
            while tr.parent[v] >= 0:
                par = int(tr.parent[v])
                path.append(tr.action_names[par][int(tr.parent_action[v])])
                v = par
            out.append(tuple(reversed(path)))
        return out

    def leaf_contrib(self, leaf: int) -> tuple[int, int]:
        """Chips each player has put in since the spot began, at leaf ``leaf``."""
        c = self.tree.contrib[self.leaf_nodes[leaf]]
        return int(c[0]), int(c[1])

    def set_leaf_model(self, model: Any) -> None:
        """The values at the leaves of a depth-limited spot: ``model.leaf_values(leaf,
        player, mode, opp_reach, own_reach)`` gets the leaf's index (:meth:`leaf_paths`),
        the player whose values a walk computes, the walk's mode (``"cfr"``: the current
        strategies, an update of ``player``; ``"br"``: ``player`` best-responds; ``"ev"``:
        the average strategies) and both reaches at the leaf over the 1326 combos (0 off
        the ranges), and returns ``player``'s counterfactual values there over the 1326
        combos: for each hand, the sum over the opponent's hands that share no card with
        it of their reach times the expected chips ``player`` receives from the pot at the
        end of the hand less what it puts in after the leaf."""
        if not self.leaf_nodes:
            raise SpotError("this spot has no leaves: build the solver with depth_limited=True")
        self.leaf_model = model

    def _leaf_values(self, mode: int, p: int) -> None:
        """Each leaf's values for ``p`` from the reaches the collecting walk stored, in the
        kernels' units (relative to a tie: less ``p``'s chips in the spot and half the
        starting pot, per compatible opponent reach)."""
        if self.leaf_model is None:
            raise SpotError("a depth-limited spot needs its leaf values: set_leaf_model(model)")
        d = self.deal
        o = 1 - p
        n_p, n_o = d.num_hands[p], d.num_hands[o]
        name = {K.MODE_CFR: "cfr", K.MODE_BR: "br", K.MODE_EV: "ev"}[mode]
        half = 0.5 * float(self.spot.pot)
        for li, node in enumerate(self.leaf_nodes):
            ci = int(self.chance_index[node])
            opp = np.zeros(1326)
            own = np.zeros(1326)
            opp[d.combos[o]] = self.chance_opp[ci, :n_o]
            own[d.combos[p]] = self.chance_own[ci, :n_p]
            vals = np.asarray(self.leaf_model.leaf_values(li, p, name, opp, own), dtype=np.float64)
            if vals.shape != (1326,) or not np.all(np.isfinite(vals[d.combos[p]])):
                raise SpotError(f"leaf model: values of leaf {li} must be 1326 finite numbers")
            comp = np.zeros(n_p)
            K.fold_values(np.ascontiguousarray(self.chance_opp[ci, :n_o], dtype=np.float64),
                          d.hand_cards[p], d.hand_cards[o], d.same[p], 1.0, comp)
            cp = float(self.tree.contrib[node, p])
            self.leaf_cfv[li, :n_p] = vals[d.combos[p]] - (cp + half) * comp

    def _compatible(self, p: int, opp_reach: np.ndarray) -> np.ndarray:
        """Per hand of ``p``, the opponent reach it can meet (no shared card)."""
        d = self.deal
        comp = np.zeros(d.num_hands[p])
        K.fold_values(opp_reach, d.hand_cards[p], d.hand_cards[1 - p], d.same[p], 1.0, comp)
        return comp

    def _run_tasks(self, mode: int, p: int, ctx: tuple[Any, ...], prm: tuple[Any, ...],
                   extra: tuple[Any, ...]) -> None:
        """The subtrees below the starting street's chance nodes, split over the threads
        (the kernels release the GIL; each task writes its own rows and storage; each
        thread has its own work areas, :meth:`_thread_buffers`)."""
        n = int(self.task_node.shape[0])
        threads = self.num_threads()
        head = (mode, p, self.task_node, self.task_card, self.task_slot, self.task_chance)
        tail = (*ctx, *prm, *extra)
        if threads <= 1 or n < 2:
            K.run_tasks(0, n, *head, *self._thread_buffers(), *tail)  # type: ignore[call-arg]
            return
        # one contiguous chunk per thread, of equal cost (the subtrees differ by up to 45x:
        # compare an all-in's showdown with a whole river): first by the static estimate, then
        # by the seconds each chunk took the last time for this mode and player; the calling
        # thread runs the first chunk, so no thread waits for another to be woken, and
        # neighbouring tasks (which write neighbouring blocks of the tables) stay on one thread.
        # The split never changes a result: each task writes only its own rows.
        key = (mode, p)
        chunks = self._task_chunks(threads, key)
        seconds = [0.0] * len(chunks)

        def run(i: int) -> None:
            a, b = chunks[i]
            t0 = time.perf_counter()
            K.run_tasks(a, b, *head, *self._thread_buffers(), *tail)  # type: ignore[call-arg]
            seconds[i] = time.perf_counter() - t0

        pool = self._pool(threads - 1)
        pending = [pool.submit(run, i) for i in range(1, len(chunks))]
        run(0)
        for f in pending:
            f.result()
        self._learn_task_weights(key, chunks, seconds)

    def _task_chunks(self, threads: int, key: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """``threads`` contiguous ranges of the tasks with about equal weight: the static
        estimate (:meth:`_task_costs`), or what was learnt for ``key`` (mode, player)."""
        n = int(self.task_node.shape[0])
        if n < 2 or threads < 2:
            return [(0, n)]
        w = self._task_weights.get(key) if key is not None else None
        if w is None:
            w = self._static_costs()
        cum = np.concatenate([[0.0], np.cumsum(w)])
        bounds = np.searchsorted(cum, np.linspace(0.0, cum[-1], threads + 1)[1:-1], side="left")
        edges = [0, *sorted({int(min(max(b, 1), n - 1)) for b in bounds}), n]
        return [(a, b) for a, b in zip(edges[:-1], edges[1:], strict=True) if b > a]

    def _static_costs(self) -> np.ndarray:
        if self._costs is None:
            self._costs = self._task_costs()
        return self._costs

    def _learn_task_weights(self, key: tuple[int, int], chunks: list[tuple[int, int]],
                            seconds: list[float]) -> None:
        """Rescale each chunk's task weights toward the seconds it took (square root steps:
        one slow scheduling slice moves the boundary only part of the way)."""
        w = self._task_weights.get(key)
        if w is None:
            w = self._static_costs().copy()
            self._task_weights[key] = w
        total_w = float(w.sum())
        total_s = float(sum(seconds))
        if total_s <= 0.0 or total_w <= 0.0:
            return
        for (a, b), sec in zip(chunks, seconds, strict=True):
            cw = float(w[a:b].sum())
            if cw > 0.0 and sec > 0.0:
                w[a:b] *= math.sqrt((sec / total_s) / (cw / total_w))
        w *= total_w / float(w.sum())

    def _task_costs(self) -> np.ndarray:
        """Estimated work of each task's subtree: a unit per action at a decision node, one
        per fold, two per showdown, a chance node's subtree once per card it deals."""
        tr = self.tree
        cost = np.zeros(tr.num_nodes)
        for v in range(tr.num_nodes - 1, -1, -1):  # preorder tree: children after parents
            a, k = int(tr.child_start[v]), int(tr.num_children[v])
            below = float(cost[tr.children[a:a + k]].sum()) if k else 0.0
            kind = int(tr.kind[v])
            if kind == DECISION:
                cost[v] = k + below
            elif kind == CHANCE:
                cost[v] = 1.0 + 45.0 * below
            else:
                cost[v] = 2.0 if kind == SHOWDOWN else 1.0
        return cost[tr.children[tr.child_start[self.task_node]]]

    def _thread_buffers(self) -> tuple[np.ndarray, ...]:
        """The calling thread's work areas for :func:`solver_kernels.run_tasks` (scratch,
        frames, float64 work, two reach vectors and an output vector), made on its first
        task and kept: the pool's threads live as long as the solver."""
        key = threading.get_ident()
        bufs = self._buffers.get(key)
        if bufs is None:
            nmax = max(self.deal.num_hands)
            bufs = (np.empty(self.scratch_size, dtype=self.vec_dtype),
                    np.empty((self.depth, 8), dtype=np.int64), np.empty(K.work_size(nmax)),
                    np.empty(nmax, dtype=self.vec_dtype), np.empty(nmax, dtype=self.vec_dtype),
                    np.empty(nmax, dtype=self.vec_dtype))
            self._buffers[key] = bufs  # one key per thread: no other thread writes it
        return bufs

    def _load_kernels(self) -> None:
        """Load the compiled kernels now (numba's first call of a kernel in a process reads
        its cache and links it, about 15 ms for the walk), so that the timed solve does not
        include it: one walk over a fold terminal of the starting street and an empty task
        run."""
        tr = self.tree
        folds = np.flatnonzero((tr.kind == FOLD) & (tr.street == self.spot.street))
        if folds.shape[0] == 0:
            return
        p, o = 0, 1
        opp = np.ascontiguousarray(self.deal.weights[o], dtype=self.vec_dtype)
        own = np.ascontiguousarray(self.deal.weights[p], dtype=self.vec_dtype)
        out = np.zeros(self.deal.num_hands[p], dtype=self.vec_dtype)
        ctx = self._ctx()
        prm = self._params(1)
        extra = self._extra()
        K.walk(K.MODE_EV, K.TOP_FULL, int(folds[0]), p, 0, opp, own, out, self.scratch,  # type: ignore[call-arg]
               self.frames, self.work, *ctx, *prm, *extra)
        self._compatible(p, opp)  # the fold pass in the vector dtype too
        if self.task_node.shape[0] == 0:
            self._cfr_iterations(np.empty((0, 4)), False)  # steps' kernel: loaded, no iteration run
        else:
            K.run_tasks(0, 0, K.MODE_EV, p, self.task_node, self.task_card, self.task_slot,  # type: ignore[call-arg]
                        self.task_chance, *self._thread_buffers(), *ctx, *prm, *extra)

    def num_threads(self) -> int:
        if self.threads is not None:
            return max(1, int(self.threads))
        if hasattr(os, "sched_getaffinity"):
            return max(1, len(os.sched_getaffinity(0)))
        return max(1, os.cpu_count() or 1)

    def _pool(self, threads: int) -> Any:
        from concurrent.futures import ThreadPoolExecutor
        pool = getattr(self, "_executor", None)
        if pool is None or getattr(self, "_executor_threads", 0) != threads:
            if pool is not None:
                pool.shutdown()
            pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="spot")
            self._executor = pool
            self._executor_threads = threads
        return pool

    def _normaliser(self) -> float:
        d = self.deal
        z = float(np.dot(d.weights[0], self._compatible(0, d.weights[1])))
        if z <= 0:
            raise SpotError("the two ranges share a card in every pair of hands: no deal is possible")
        return z

    # ---------------------------------------------------------------------- solving
    def step(self) -> None:
        """One iteration: an update of out of position, then of in position (alternating)."""
        t = self.iteration + 1
        c0, w0 = time.process_time(), time.perf_counter()
        g = self.gadget_player
        if g < 0:
            self._run(K.MODE_CFR, 0, t, values=False)
            self._run(K.MODE_CFR, 1, t, values=False)
        else:
            for p in (0, 1):
                enter = self.deal.weights[g] * self._gadget_enter()
                if p == g:
                    v_enter = self._run(K.MODE_CFR, p, t, own_reach=enter)
                    self._gadget_update(v_enter)
                else:
                    self._run(K.MODE_CFR, p, t, opp_reach=enter)
        self.cpu_seconds += time.process_time() - c0
        self.wall_seconds += time.perf_counter() - w0
        self.iteration = t

    def steps(self, count: int) -> None:
        """``count`` iterations (:meth:`step` each).  Without a gadget and without chance
        nodes on the starting street (a river spot) they run in one kernel call
        (:func:`solver_kernels.cfr_iterations`): the same walks in the same order, so the
        same regrets and strategy sums as ``count`` calls of :meth:`step`."""
        if count <= 0:
            return
        if self.gadget_player >= 0 or self.task_node.shape[0] > 0 or self.leaf_nodes:
            for _ in range(count):
                self.step()
            return
        c0, w0 = time.process_time(), time.perf_counter()
        t0 = self.iteration + 1
        disc = np.empty((count, 4))
        plus = False
        for i in range(count):
            pos_d, neg_d, strat_d, plus = self.config.discounts(t0 + i)
            disc[i] = (pos_d, neg_d, strat_d, self.config.prediction_discount(t0 + i))
        self._cfr_iterations(disc, bool(plus))
        self.cpu_seconds += time.process_time() - c0
        self.wall_seconds += time.perf_counter() - w0
        self.iteration = t0 + count - 1

    def _cfr_iterations(self, disc: np.ndarray, plus: bool) -> None:
        sp = self.spot
        K.cfr_iterations(disc, plus, self._weights_vec[1], self._weights_vec[0],  # type: ignore[call-arg]
                         self._weights_vec[0], self._weights_vec[1], self._out_vec[0], self._out_vec[1],
                         self.scratch, self.frames, self.work, *self._ctx(),
                         float(sp.pot), float(sp.rake), float(sp.rake_cap), *self._extra())

    # ------------------------------------------------------------ safe re-solving
    def set_gadget(self, player: int, cbv: np.ndarray) -> None:
        """Re-solve safely (the resolve gadget of Burch, Johanson & Bowling 2014, as in
        DeepStack and Libratus): at the root, ``player`` (the searcher's opponent) chooses per
        hand between entering the spot and taking ``cbv[combo]`` (1326 counterfactual
        values in the engine's units: chips with the pot share, times the searcher's reach
        mass the hand can meet; values at the root of another solve with the same searcher
        range are in these units).  With ``cbv`` the opponent's best-response values against
        the searcher's previous strategy, the re-solved strategy gives no hand of the
        opponent more than before: it is no more exploitable.  The opponent's range in the
        spot is then its prior (the weights where ``cbv`` was computed, not its reach at
        the node): its reach is that times the gadget's enter probability.  Regrets of the
        gadget are CFR+ (floored at zero)."""
        if player not in (0, 1):
            raise SpotError(f"the gadget's player must be 0 or 1, got {player!r}")
        v = np.asarray(cbv, dtype=np.float64)
        if v.shape != (1326,) or not np.all(np.isfinite(v[self.deal.combos[player]])):
            raise SpotError(f"gadget values must be 1326 finite numbers, got shape {v.shape}")
        self.gadget_player = int(player)
        self.gadget_cbv = v[self.deal.combos[player]].copy()
        n = self.deal.num_hands[player]
        self.gadget_regret = np.zeros((2, n))  # (enter, terminate)

    def _gadget_enter(self) -> np.ndarray:
        r = self.gadget_regret
        pos = np.maximum(r, 0.0)
        tot = pos[0] + pos[1]
        return np.where(tot > 0, pos[0] / np.where(tot > 0, tot, 1.0), 0.5)

    def _gadget_update(self, v_enter: np.ndarray) -> None:
        e = self._gadget_enter()
        u = e * v_enter + (1 - e) * self.gadget_cbv
        self.gadget_regret[0] = np.maximum(self.gadget_regret[0] + v_enter - u, 0.0)
        self.gadget_regret[1] = np.maximum(self.gadget_regret[1] + self.gadget_cbv - u, 0.0)

    def solve(self, *, iterations: int = 1000, target_pct: float | None = 0.3,
              check_every: int | str = 10,
              callback: Callable[[int, float | None], None] | None = None) -> float:
        """Iterate until ``iterations`` in all or exploitability <= ``target_pct`` % of the pot
        (checked every ``check_every`` iterations, or with ``"auto"`` where the convergence so
        far predicts the target: :func:`~pokerlab.subgame.solve_config.next_check`); returns
        the last exploitability in %."""
        if iterations < 0:
            raise ConfigError(f"--iterations must be >= 0, got {iterations}")
        auto = check_every == "auto"
        if not auto and (not isinstance(check_every, int) or check_every < 1):
            raise ConfigError(f"check_every must be >= 1 or 'auto', got {check_every!r}")
        pct = math.inf
        start = self.iteration
        checks: list[tuple[int, float]] = []
        while self.iteration < iterations:
            # up to the next check (or the end) in one go: the progress callback hears of
            # the last iteration of each run
            if auto and target_pct is not None:
                last = checks[-1][0] if checks else start
                due = next_check(checks, target_pct, start, self.config.average_restart(start, last))
            else:
                every = FIRST_CHECK if auto else int(check_every)
                due = (self.iteration // every + 1) * every
            nxt = min(iterations, due)
            self.steps(nxt - self.iteration)
            if target_pct is not None and (self.iteration == due or self.iteration == iterations):
                pct = self.exploitability()[1]
                checks.append((self.iteration, pct))
                self.history.append((self.iteration, self.cpu_seconds, pct))
                if callback is not None:
                    callback(self.iteration, pct)
                if pct <= target_pct:
                    break
            elif callback is not None:
                callback(self.iteration, None)
        if not math.isfinite(pct):
            pct = self.exploitability()[1]
        return pct

    # --------------------------------------------------------------------- measures
    def values(self) -> tuple[float, float]:
        """Each player's expected value (chips, with its share of the pot) under the average
        strategies."""
        d = self.deal
        return (float(np.dot(d.weights[0], self._run(K.MODE_EV, 0, self.iteration + 1))) / self._z,
                float(np.dot(d.weights[1], self._run(K.MODE_EV, 1, self.iteration + 1))) / self._z)

    def best_response_values(self) -> tuple[float, float]:
        """Each player's value when it best-responds to the other's average strategy."""
        d = self.deal
        return (float(np.dot(d.weights[0], self._run(K.MODE_BR, 0, self.iteration + 1))) / self._z,
                float(np.dot(d.weights[1], self._run(K.MODE_BR, 1, self.iteration + 1))) / self._z)

    def exploitability(self) -> tuple[float, float]:
        """(chips, % of the starting pot)."""
        c0, w0 = time.process_time(), time.perf_counter()
        br = self.best_response_values()
        # without rake the game is constant-sum (EV_oop + EV_ip = pot): no value pass needed
        ev = self.values() if self.spot.rake > 0 else (0.0, float(self.spot.pot))
        self.cpu_seconds += time.process_time() - c0
        self.wall_seconds += time.perf_counter() - w0
        chips = 0.5 * ((br[0] - ev[0]) + (br[1] - ev[1]))
        return chips, 100.0 * chips / self.spot.pot

    def equity(self) -> float:
        """Out of position's equity against in position's range over every runout."""
        d = self.deal
        eq, w = self._equity(0, self.spot.street, 0, d.weights[1])
        return float(np.dot(d.weights[0], eq) / np.dot(d.weights[0], w))

    def _equity(self, p: int, street: int, slot: int, opp_reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d = self.deal
        eq = np.zeros(d.num_hands[p])
        w = np.zeros(d.num_hands[p])
        K.equity_values(street, slot, np.ascontiguousarray(opp_reach, dtype=np.float64), p, d.hand_cards,
                        d.same, d.card_start, d.card_hands, d.swap, d.next_slot, d.iso_rep, d.iso_swap,
                        d.sd_order, d.sd_strength, d.sd_count, d.sd_cards, eq, w)
        return eq, w
