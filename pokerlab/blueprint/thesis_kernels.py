"""Numba kernels of the thesis trainer (:mod:`pokerlab.blueprint.thesis`), with plain-Python
twins (``*_py``) that follow them operation for operation (parity test:
``tests/test_thesis.py``).

Layout shared by kernel and twin.  The compiled betting tree's flat arrays (``kind``,
``actor``, ``child_start``, ``num_children``, ``child_node``, ``child_action``), plus

* ``row_of[node]``: offset of the node's row (``num_children`` values) in a flat per-seat
  value array (``-1`` at terminals); ``dec_of[node]``: its decision index (``-1`` at
  terminals);
* ``fold_win0[node]``: chips player 0 wins at a fold terminal; ``sd_amount[node]``: what the
  loser of a showdown pays at a showdown terminal;
* the two *loaded subtrees* (the thesis's "two root children in memory"): ``reg[p]`` and
  ``ssum[p]`` (float32, regrets and average-strategy sums of seat ``p`` holding the current
  class), ``kept[p, d]`` (-1: open; ``j >= 0``: settled on child ``j``, the others pruned),
  ``visits[p, d]`` (traverser visits) and ``touched[p, d]`` (1 once the row was used).

One *game* of a batch: a fresh board for the batch's fixed hole cards (five partial
Fisher-Yates draws from the batch's SplitMix64 stream ``rng``), then one external-sampling
traversal per seat (traverser 0, then 1): the traverser explores every open action, the
other seat samples one from its current strategy and adds that strategy to its sums.
Regrets are stored as float32 after adding in float64.  ``fold_rule`` (0 off, 1
"move", 2 "credit"): the fold action's cumulative regret never goes below 0; the part that
would is added, split equally, to the node's other actions (1: as it is, negative; 2: with
its sign flipped, i.e. the other actions are credited with what folding lost).  Utilities are in big blinds.

Caching: ``_traverse`` is recursive and numba 0.6x segfaults when it loads a cached
recursive kernel (reproduced here: the second process crashes), so ``_traverse`` and
``train_batch_kernel`` are compiled in every process (``cache=False``, about 15 s); the
other kernels are cached as usual.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from pokerlab.abstraction.action_tree import FOLD_TERMINAL, SHOWDOWN_TERMINAL
from pokerlab.cards.evaluator_kernels import strength_nb
from pokerlab.kinds import DECISION
from pokerlab.rng import (
    MASK64,
    sample_categorical,
    sample_categorical_py,
    splitmix64_next,
    to_unit,
    uniform01_nb,
)
from pokerlab.solvers.regret import regret_match_row, regret_match_row_py

_uniform = uniform01_nb
"""SplitMix64 step on ``state[0]`` (uint64): a float in [0, 1) (:mod:`pokerlab.rng`)."""


def uniform_py(state: list[int]) -> float:
    """Plain-Python twin of :func:`_uniform` (``state`` a one-element list)."""
    state[0], value = splitmix64_next(state[0])
    return to_unit(value)


# ----------------------------------------------------------------------------- numba
@njit(cache=True, inline="always")
def _strategy(reg, p, off, k, out):  # type: ignore[no-untyped-def]
    """Regret matching of player ``p``'s row ``reg[p, off:off + k]`` into ``out[:k]``."""
    regret_match_row(reg[p], off, k, out, 0)


@njit(cache=True, inline="always")
def _fold_rule(reg, p, off, k, fold_rule):  # type: ignore[no-untyped-def]
    """The fold rule on row ``reg[p, off:off + k]`` whose first action is fold (see the
    module docstring; ``fold_rule`` > 0, ``k`` > 1)."""
    r0 = np.float64(reg[p, off])
    if r0 < 0.0:
        share = r0 / (k - 1) if fold_rule == 1 else -r0 / (k - 1)
        reg[p, off] = np.float32(0.0)
        for a in range(1, k):
            reg[p, off + a] = np.float32(np.float64(reg[p, off + a]) + share)


@njit(cache=True, inline="always")
def _batch_start(hole, seed):  # type: ignore[no-untyped-def]
    """A batch's deck (the 48 cards not in ``hole``, in order), two 7-card buffers and its
    SplitMix64 state seeded with ``seed``."""
    used = np.zeros(52, dtype=np.bool_)
    for i in range(4):
        used[hole[i]] = True
    deck = np.empty(48, dtype=np.int64)
    m = 0
    for c in range(52):
        if not used[c]:
            deck[m] = c
            m += 1
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = seed
    return deck, np.empty(7, dtype=np.int64), np.empty(7, dtype=np.int64), rng


@njit(cache=True, inline="always")
def _draw(deck, n, size, rng):  # type: ignore[no-untyped-def]
    """``n`` partial Fisher-Yates draws into ``deck[:n]`` from its ``size`` cards."""
    for j in range(n):
        r = j + int(_uniform(rng) * (size - j))
        if r > size - 1:
            r = size - 1
        t = deck[j]
        deck[j] = deck[r]
        deck[r] = t


@njit(cache=True, inline="always")
def _deal_outcome(hole, deck, cards0, cards1, tables, rng):  # type: ignore[no-untyped-def]
    """A fresh board (five partial Fisher-Yates draws on ``deck``) for the hole cards
    ``hole``: +1 when player 0's hand is better, -1 when player 1's, 0 for a split."""
    _draw(deck, 5, 48, rng)
    cards0[0] = hole[0]
    cards0[1] = hole[1]
    cards1[0] = hole[2]
    cards1[1] = hole[3]
    for j in range(5):
        cards0[2 + j] = deck[j]
        cards1[2 + j] = deck[j]
    s0 = strength_nb(tables, cards0, 7)
    s1 = strength_nb(tables, cards1, 7)
    return 1.0 if s0 > s1 else (-1.0 if s0 < s1 else 0.0)


@njit(cache=True, inline="always")
def _count_game(stats, term, kind, allin_node):  # type: ignore[no-untyped-def]
    """``stats`` += one game, ending all-in, ending in a fold (see the batch kernels)."""
    stats[0] += 1
    if allin_node[term]:
        stats[1] += 1
    if kind[term] == FOLD_TERMINAL:
        stats[2] += 1


@njit(cache=False)  # recursive: numba segfaults loading a cached recursive kernel
def _traverse(node, trav, kind, actor, child_start, num_children, child_node, child_action,
              row_of, dec_of, fold_win0, sd_amount, outcome, inv_bb, reg, ssum, kept, visits,
              touched, rng, fold_rule):  # type: ignore[no-untyped-def]
    kd = kind[node]
    if kd == FOLD_TERMINAL:
        v0 = fold_win0[node] * inv_bb
        return v0 if trav == 0 else -v0
    if kd == SHOWDOWN_TERMINAL:
        v0 = outcome * sd_amount[node] * inv_bb
        return v0 if trav == 0 else -v0
    p = actor[node]
    d = dec_of[node]
    cs = child_start[node]
    touched[p, d] = 1
    kp = kept[p, d]
    if kp >= 0:
        return _traverse(child_node[cs + kp], trav, kind, actor, child_start, num_children,
                         child_node, child_action, row_of, dec_of, fold_win0, sd_amount,
                         outcome, inv_bb, reg, ssum, kept, visits, touched, rng,
                         fold_rule)
    k = num_children[node]
    off = row_of[node]
    sigma = np.empty(k, dtype=np.float64)
    _strategy(reg, p, off, k, sigma)
    if p == trav:
        visits[p, d] += 1
        vals = np.empty(k, dtype=np.float64)
        v = 0.0
        for a in range(k):
            vals[a] = _traverse(child_node[cs + a], trav, kind, actor, child_start,
                                num_children, child_node, child_action, row_of, dec_of,
                                fold_win0, sd_amount, outcome, inv_bb, reg, ssum, kept,
                                visits, touched, rng, fold_rule)
            v += sigma[a] * vals[a]
        for a in range(k):
            reg[p, off + a] = np.float32(np.float64(reg[p, off + a]) + (vals[a] - v))
        if fold_rule > 0 and k > 1 and child_action[cs] == 0:
            _fold_rule(reg, p, off, k, fold_rule)
        return v
    for a in range(k):
        ssum[p, off + a] = np.float32(np.float64(ssum[p, off + a]) + sigma[a])
    a = sample_categorical(sigma, 0, k, _uniform(rng))
    return _traverse(child_node[cs + a], trav, kind, actor, child_start, num_children,
                     child_node, child_action, row_of, dec_of, fold_win0, sd_amount, outcome,
                     inv_bb, reg, ssum, kept, visits, touched, rng, fold_rule)


@njit(cache=False)  # calls the recursive _traverse (see there)
def train_batch_kernel(games, hole, kind, actor, child_start, num_children, child_node,
                       child_action, row_of, dec_of, fold_win0, sd_amount, allin_node,
                       inv_bb, reg, ssum, kept, visits, touched, seed, fold_rule, tables,
                       stats):  # type: ignore[no-untyped-def]
    """``games`` games for the hole cards ``hole`` (p0 two cards, p1 two cards); random
    numbers from SplitMix64 seeded with ``seed`` (uint64).

    ``stats`` (int64[3]) gets += self-play games played, of them ending with a player
    all-in, and of them ending in a fold."""
    deck, cards0, cards1, rng = _batch_start(hole, seed)
    sigma = np.empty(MAX_K, dtype=np.float64)
    no_path = np.empty(0, dtype=np.int64)
    no_sig = np.empty((0, MAX_K), dtype=np.float64)
    for _g in range(games):
        outcome = _deal_outcome(hole, deck, cards0, cards1, tables, rng)
        for trav in range(2):
            _traverse(0, trav, kind, actor, child_start, num_children, child_node,
                      child_action, row_of, dec_of, fold_win0, sd_amount, outcome, inv_bb,
                      reg, ssum, kept, visits, touched, rng, fold_rule)
        term, _ = _play_from(0, kind, actor, child_start, num_children, child_node, row_of,
                             dec_of, reg, kept, rng, sigma, no_path, no_path, no_sig)
        _count_game(stats, term, kind, allin_node)


@njit(cache=True)
def prune_kernel(p, seat_nodes, child_start, num_children, child_node, row_of, dec_of,
                 subtree_end, reg, kept, visits, touched, min_visits,
                 threshold):  # type: ignore[no-untyped-def]
    """Settle seat ``p``'s open nodes (visited ``>= min_visits`` times as traverser) whose
    current strategy puts ``>= threshold`` on one action: keep that child, free the seat's
    rows below the other children (``touched = 0``, ``kept = -1``, ``visits = 0``).
    ``seat_nodes`` lists the seat's decision nodes in tree (pre-)order.  Returns the number
    of nodes settled."""
    settled = 0
    sigma = np.empty(16, dtype=np.float64)
    for i in range(seat_nodes.shape[0]):
        node = seat_nodes[i]
        d = dec_of[node]
        if kept[p, d] != -1 or touched[p, d] == 0 or visits[p, d] < min_visits:
            continue
        k = num_children[node]
        _strategy(reg, p, row_of[node], k, sigma)
        best = 0
        for a in range(1, k):
            if sigma[a] > sigma[best]:
                best = a
        if sigma[best] < threshold:
            continue
        kept[p, d] = best
        settled += 1
        # free the seat's rows in the subtrees of the other children (pre-order ranges)
        c = child_node[child_start[node] + best]
        keep_lo = c
        keep_hi = subtree_end[c]
        hi = subtree_end[node]
        for j in range(i + 1, seat_nodes.shape[0]):
            n2 = seat_nodes[j]
            if n2 >= hi:
                break
            if keep_lo <= n2 < keep_hi:
                continue
            d2 = dec_of[n2]
            touched[p, d2] = 0
            kept[p, d2] = -1
            visits[p, d2] = 0
    return settled


# ----------------------------------------------------------------------------- twins
def _strategy_py(reg: np.ndarray, p: int, off: int, k: int) -> list[float]:
    return regret_match_row_py(reg[p], off, k, [0.0] * k, 0)  # type: ignore[no-any-return]


def _sample_py(sigma: list[float], u: float) -> int:
    return sample_categorical_py(sigma, 0, len(sigma), u)


def _fold_rule_py(reg: np.ndarray, p: int, off: int, k: int, fold_rule: int) -> None:
    """Plain-Python twin of :func:`_fold_rule`."""
    r0 = float(reg[p, off])
    if r0 < 0.0:
        share = r0 / (k - 1) if int(fold_rule) == 1 else -r0 / (k - 1)
        reg[p, off] = np.float32(0.0)
        for a in range(1, k):
            reg[p, off + a] = np.float32(float(reg[p, off + a]) + share)


def _draw_py(deck: list[int], n: int, size: int, rng: list[int]) -> None:
    """Plain-Python twin of :func:`_draw`."""
    for j in range(n):
        r = min(j + int(uniform_py(rng) * (size - j)), size - 1)
        deck[j], deck[r] = deck[r], deck[j]


def _deal_outcome_py(hole: np.ndarray, deck: list[int], rng: list[int]) -> float:
    """Plain-Python twin of :func:`_deal_outcome` (``deck``: the cards not in ``hole``)."""
    from pokerlab.cards.evaluator import strength

    _draw_py(deck, 5, 48, rng)
    board = deck[:5]
    s0 = strength([int(hole[0]), int(hole[1]), *board])
    s1 = strength([int(hole[2]), int(hole[3]), *board])
    return 1.0 if s0 > s1 else (-1.0 if s0 < s1 else 0.0)


def _count_game_py(stats: np.ndarray, t: Any, term: int) -> None:
    stats[0] += 1
    stats[1] += int(bool(t.allin_node[term]))
    stats[2] += int(int(t.kind[term]) == FOLD_TERMINAL)


class _Tree:
    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self._arrays = arrays

    def __getattr__(self, name: str) -> np.ndarray:
        try:
            return self.__dict__["_arrays"][name]  # type: ignore[no-any-return]
        except KeyError:
            raise AttributeError(name) from None


def _batch_start_py(hole: np.ndarray, tree: dict[str, np.ndarray],
                    seed: int) -> tuple[_Tree, list[int], list[int]]:
    """Plain-Python twin of :func:`_batch_start`: the tree, the deck and the stream."""
    used = set(int(c) for c in hole)
    return _Tree(tree), [c for c in range(52) if c not in used], [int(seed) & MASK64]


def _traverse_py(t: _Tree, node: int, trav: int, outcome: float, inv_bb: float,
                 reg: np.ndarray, ssum: np.ndarray, kept: np.ndarray, visits: np.ndarray,
                 touched: np.ndarray, rng: list[int], fold_rule: int) -> float:
    kd = int(t.kind[node])
    if kd == FOLD_TERMINAL:
        v0 = float(t.fold_win0[node]) * inv_bb
        return v0 if trav == 0 else -v0
    if kd == SHOWDOWN_TERMINAL:
        v0 = outcome * float(t.sd_amount[node]) * inv_bb
        return v0 if trav == 0 else -v0
    p = int(t.actor[node])
    d = int(t.dec_of[node])
    cs = int(t.child_start[node])
    touched[p, d] = 1
    kp = int(kept[p, d])
    if kp >= 0:
        return _traverse_py(t, int(t.child_node[cs + kp]), trav, outcome, inv_bb, reg, ssum,
                            kept, visits, touched, rng, fold_rule)
    k = int(t.num_children[node])
    off = int(t.row_of[node])
    sigma = _strategy_py(reg, p, off, k)
    if p == trav:
        visits[p, d] += 1
        vals = []
        v = 0.0
        for a in range(k):
            x = _traverse_py(t, int(t.child_node[cs + a]), trav, outcome, inv_bb, reg, ssum,
                             kept, visits, touched, rng, fold_rule)
            vals.append(x)
            v += sigma[a] * x
        for a in range(k):
            reg[p, off + a] = np.float32(float(reg[p, off + a]) + (vals[a] - v))
        if int(fold_rule) > 0 and k > 1 and int(t.child_action[cs]) == 0:
            _fold_rule_py(reg, p, off, k, fold_rule)
        return v
    for a in range(k):
        ssum[p, off + a] = np.float32(float(ssum[p, off + a]) + sigma[a])
    a = _sample_py(sigma, uniform_py(rng))
    return _traverse_py(t, int(t.child_node[cs + a]), trav, outcome, inv_bb, reg, ssum, kept,
                        visits, touched, rng, fold_rule)


def train_batch_py(games: int, hole: np.ndarray, tree: dict[str, np.ndarray], inv_bb: float,
                   reg: np.ndarray, ssum: np.ndarray, kept: np.ndarray, visits: np.ndarray,
                   touched: np.ndarray, seed: int, fold_rule: int,
                   stats: np.ndarray) -> None:
    """Plain-Python twin of :func:`train_batch_kernel` (``tree`` holds the named arrays)."""
    t, deck, rng = _batch_start_py(hole, tree, seed)
    for _g in range(games):
        outcome = _deal_outcome_py(hole, deck, rng)
        for trav in range(2):
            _traverse_py(t, 0, trav, outcome, inv_bb, reg, ssum, kept, visits, touched, rng,
                         fold_rule)
        _count_game_py(stats, t, _play_from_py(t, 0, reg, kept, rng))


def prune_py(p: int, seat_nodes: np.ndarray, tree: dict[str, np.ndarray], reg: np.ndarray,
             kept: np.ndarray, visits: np.ndarray, touched: np.ndarray, min_visits: int,
             threshold: float) -> int:
    """Plain-Python twin of :func:`prune_kernel`."""
    t = _Tree(tree)
    settled = 0
    for i, node in enumerate(int(x) for x in seat_nodes):
        d = int(t.dec_of[node])
        if int(kept[p, d]) != -1 or int(touched[p, d]) == 0 or int(visits[p, d]) < min_visits:
            continue
        k = int(t.num_children[node])
        sigma = _strategy_py(reg, p, int(t.row_of[node]), k)
        best = max(range(k), key=lambda a: (sigma[a], -a))
        if sigma[best] < threshold:
            continue
        kept[p, d] = best
        settled += 1
        c = int(t.child_node[int(t.child_start[node]) + best])
        keep_lo, keep_hi = c, int(t.subtree_end[c])
        for n2 in (int(x) for x in seat_nodes[i + 1:]):
            if n2 >= int(t.subtree_end[node]):
                break
            if keep_lo <= n2 < keep_hi:
                continue
            d2 = int(t.dec_of[n2])
            touched[p, d2] = 0
            kept[p, d2] = -1
            visits[p, d2] = 0
    return settled


# ----------------------------------------------------------------------------- the thesis's update
# ``update="thesis"`` (docs/thesis.md): the two instances play one game against each other
# from their current strategies; at every decision of that game the acting instance values
# each of its actions by one game's outcome (the played action: this game's; every other
# action: one more game played on from that child by both current strategies, same cards),
# and then both instances update at once (simultaneous, not alternating): regret
# ``r[a] += u[a] - v`` with ``v = sum sigma[a] u[a]`` (the thesis's worked example), the fold
# rule as in :func:`_traverse`, strategy sums += sigma.  The kernels below are iterative (no
# recursion), so they are cached.
MAX_PATH = 64
MAX_K = 16


@njit(cache=True)
def _value0(node, kind, fold_win0, sd_amount, outcome, inv_bb):  # type: ignore[no-untyped-def]
    """Player 0's payoff (big blinds) at terminal ``node``."""
    if kind[node] == FOLD_TERMINAL:
        return fold_win0[node] * inv_bb
    return outcome * sd_amount[node] * inv_bb


@njit(cache=True)
def _play_from(node, kind, actor, child_start, num_children, child_node, row_of, dec_of, reg,
               kept, rng, sigma, path_node, path_a, sig):  # type: ignore[no-untyped-def]
    """A game played on from ``node`` by both loaded subtrees' current strategies:
    (its terminal, decisions recorded).  ``sigma`` is a scratch buffer; when ``path_node``
    is not empty the sampled decisions are recorded (``path_node[m]``, ``path_a[m]``, the
    strategy in ``sig[m]``), else nothing is and the count is 0."""
    m = 0
    record = path_node.shape[0] > 0
    while kind[node] == DECISION:
        p = actor[node]
        d = dec_of[node]
        cs = child_start[node]
        kp = kept[p, d]
        if kp >= 0:
            node = child_node[cs + kp]
            continue
        k = num_children[node]
        _strategy(reg, p, row_of[node], k, sigma)
        a = sample_categorical(sigma, 0, k, _uniform(rng))
        if record:
            for b in range(k):
                sig[m, b] = sigma[b]
            path_node[m] = node
            path_a[m] = a
            m += 1
        node = child_node[cs + a]
    return node, m


@njit(cache=True)
def apply_thesis_update(reg, ssum, p, off, k, sigma, u, fold_first,
                        fold_rule):  # type: ignore[no-untyped-def]
    """The thesis's regret update of one row: ``v = sigma . u``, ``r[a] += u[a] - v`` (float64
    sums stored as float32), then the fold rule when ``fold_first`` (the row's first action
    is fold), then ``ssum += sigma``.  Returns ``v``."""
    v = 0.0
    for a in range(k):
        v += sigma[a] * u[a]
    for a in range(k):
        reg[p, off + a] = np.float32(np.float64(reg[p, off + a]) + (u[a] - v))
    if fold_rule > 0 and k > 1 and fold_first:
        _fold_rule(reg, p, off, k, fold_rule)
    for a in range(k):
        ssum[p, off + a] = np.float32(np.float64(ssum[p, off + a]) + sigma[a])
    return v


@njit(cache=True)
def selfplay_batch_kernel(games, hole, kind, actor, child_start, num_children, child_node,
                          child_action, row_of, dec_of, fold_win0, sd_amount, allin_node,
                          inv_bb, reg, ssum, kept, visits, touched, seed, fold_rule, tables,
                          stats):  # type: ignore[no-untyped-def]
    """The thesis's own update (see above): ``games`` self-play games for the hole cards
    ``hole``; same arguments, board draws and ``stats`` as :func:`train_batch_kernel`."""
    deck, cards0, cards1, rng = _batch_start(hole, seed)
    path_node = np.empty(MAX_PATH, dtype=np.int64)
    path_a = np.empty(MAX_PATH, dtype=np.int64)
    sig = np.empty((MAX_PATH, MAX_K), dtype=np.float64)
    u = np.empty((MAX_PATH, MAX_K), dtype=np.float64)
    tmp = np.empty(MAX_K, dtype=np.float64)
    no_path = np.empty(0, dtype=np.int64)
    no_sig = np.empty((0, MAX_K), dtype=np.float64)
    for _g in range(games):
        outcome = _deal_outcome(hole, deck, cards0, cards1, tables, rng)
        # 1. the game
        term, m = _play_from(0, kind, actor, child_start, num_children, child_node, row_of,
                             dec_of, reg, kept, rng, tmp, path_node, path_a, sig)
        v0 = _value0(term, kind, fold_win0, sd_amount, outcome, inv_bb)
        # 2. every action's value: one game's outcome
        for i in range(m):
            node = path_node[i]
            p = actor[node]
            cs = child_start[node]
            for a in range(num_children[node]):
                if a == path_a[i]:
                    x = v0
                else:
                    t2, _ = _play_from(child_node[cs + a], kind, actor, child_start,
                                       num_children, child_node, row_of, dec_of, reg, kept,
                                       rng, tmp, no_path, no_path, no_sig)
                    x = _value0(t2, kind, fold_win0, sd_amount, outcome, inv_bb)
                u[i, a] = x if p == 0 else -x
        # 3. both instances update at once
        for i in range(m):
            node = path_node[i]
            p = actor[node]
            d = dec_of[node]
            touched[p, d] = 1
            visits[p, d] += 1
            apply_thesis_update(reg, ssum, p, row_of[node], num_children[node], sig[i], u[i],
                                child_action[child_start[node]] == 0, fold_rule)
        _count_game(stats, term, kind, allin_node)


# ----------------------------------------------------------------------------- play statistics
# the per-game statistics of the thesis (docs/hands.md, thesis definitions) of a trained
# policy in self-play, in its own betting tree: ``out`` (float64[15]) += hands, entered
# player-hands (called, raised or, in the big blind, checked preflop), hands with a player
# all-in, hands at a showdown, hands ended by a fold, bets and raises, the sum of their
# ratios (chips the action adds / pot before it), chips put in per street (blinds count
# preflop; 4 values), hands that reached each street (4 values; a showdown reaches the river)
N_PLAY_STATS = 15


@njit(cache=True)
def play_stats_kernel(games, seed, kind, actor, child_start, num_children, child_node,
                      child_action, row_of, street, committed, allin_node, class_of, strat,
                      out):  # type: ignore[no-untyped-def]
    """``games`` self-play hands of the average strategy ``strat[class, value]`` (float32;
    the acting seat's starting-hand class ``class_of[c1, c2]``) with random deals
    (SplitMix64 from ``seed``); ``committed[node]`` = both seats' chips in."""
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = seed
    deck = np.arange(52, dtype=np.int64)
    cls = np.empty(2, dtype=np.int64)
    entered = np.zeros(2, dtype=np.int64)
    for _g in range(games):
        _draw(deck, 4, 52, rng)
        cls[0] = class_of[deck[0], deck[1]]
        cls[1] = class_of[deck[2], deck[3]]
        entered[0] = 0
        entered[1] = 0
        node = 0
        out[7] += committed[0]
        while kind[node] == DECISION:
            p = actor[node]
            k = num_children[node]
            off = row_of[node]
            cs = child_start[node]
            a = sample_categorical(strat[cls[p]], off, k, _uniform(rng))
            act = child_action[cs + a]
            c = child_node[cs + a]
            added = committed[c] - committed[node]
            s = street[node]
            if s == 0 and act >= 1:
                entered[p] = 1
            if act >= 2:
                out[5] += 1.0
                out[6] += added / committed[node]
            out[7 + s] += added
            node = c
        out[0] += 1.0
        out[1] += entered[0] + entered[1]
        if allin_node[node]:
            out[2] += 1.0
        last = street[node]
        if kind[node] == FOLD_TERMINAL:
            out[4] += 1.0
        else:
            out[3] += 1.0
            last = 3
        for s in range(last + 1):
            out[11 + s] += 1.0


# ----------------------------------------------------------------------------- twins
def _value0_py(t: _Tree, node: int, outcome: float, inv_bb: float) -> float:
    if int(t.kind[node]) == FOLD_TERMINAL:
        return float(t.fold_win0[node]) * inv_bb
    return outcome * float(t.sd_amount[node]) * inv_bb


def _play_from_py(t: _Tree, node: int, reg: np.ndarray, kept: np.ndarray,
                  rng: list[int], path: list[tuple[int, int, list[float]]] | None = None
                  ) -> int:
    """Plain-Python twin of :func:`_play_from`: the terminal; the decisions (node,
    action, strategy) are appended to ``path`` when given."""
    while int(t.kind[node]) == 0:
        p, d, cs = int(t.actor[node]), int(t.dec_of[node]), int(t.child_start[node])
        if int(kept[p, d]) >= 0:
            node = int(t.child_node[cs + int(kept[p, d])])
            continue
        sigma = _strategy_py(reg, p, int(t.row_of[node]), int(t.num_children[node]))
        a = _sample_py(sigma, uniform_py(rng))
        if path is not None:
            path.append((node, a, sigma))
        node = int(t.child_node[cs + a])
    return node


def apply_thesis_update_py(reg: np.ndarray, ssum: np.ndarray, p: int, off: int, k: int,
                           sigma: list[float], u: list[float], fold_first: bool,
                           fold_rule: int) -> float:
    """Plain-Python twin of :func:`apply_thesis_update`."""
    v = 0.0
    for a in range(k):
        v += sigma[a] * u[a]
    for a in range(k):
        reg[p, off + a] = np.float32(float(reg[p, off + a]) + (u[a] - v))
    if int(fold_rule) > 0 and k > 1 and fold_first:
        _fold_rule_py(reg, p, off, k, fold_rule)
    for a in range(k):
        ssum[p, off + a] = np.float32(float(ssum[p, off + a]) + sigma[a])
    return v


def selfplay_batch_py(games: int, hole: np.ndarray, tree: dict[str, np.ndarray],
                      inv_bb: float, reg: np.ndarray, ssum: np.ndarray, kept: np.ndarray,
                      visits: np.ndarray, touched: np.ndarray, seed: int, fold_rule: int,
                      stats: np.ndarray) -> None:
    """Plain-Python twin of :func:`selfplay_batch_kernel`."""
    t, deck, rng = _batch_start_py(hole, tree, seed)
    for _g in range(games):
        outcome = _deal_outcome_py(hole, deck, rng)
        path: list[tuple[int, int, list[float]]] = []
        term = _play_from_py(t, 0, reg, kept, rng, path)
        v0 = _value0_py(t, term, outcome, inv_bb)
        us: list[list[float]] = []
        for node, played, _sigma in path:
            p, cs = int(t.actor[node]), int(t.child_start[node])
            row = []
            for a in range(int(t.num_children[node])):
                if a == played:
                    x = v0
                else:
                    x = _value0_py(t, _play_from_py(t, int(t.child_node[cs + a]), reg, kept,
                                                    rng), outcome, inv_bb)
                row.append(x if p == 0 else -x)
            us.append(row)
        for (node, _a, sigma), row in zip(path, us, strict=True):
            p, d, cs = int(t.actor[node]), int(t.dec_of[node]), int(t.child_start[node])
            touched[p, d] = 1
            visits[p, d] += 1
            apply_thesis_update_py(reg, ssum, p, int(t.row_of[node]), int(t.num_children[node]),
                                   sigma, row, int(t.child_action[cs]) == 0, fold_rule)
        _count_game_py(stats, t, term)


def play_stats_py(games: int, seed: int, tree: dict[str, np.ndarray], class_of: np.ndarray,
                  strat: np.ndarray, out: np.ndarray) -> None:
    """Plain-Python twin of :func:`play_stats_kernel` (``tree`` holds the named arrays,
    ``street`` and ``committed`` included)."""
    t = _Tree(tree)
    rng = [int(seed) & MASK64]
    deck = list(range(52))
    for _g in range(games):
        _draw_py(deck, 4, 52, rng)
        cls = (int(class_of[deck[0], deck[1]]), int(class_of[deck[2], deck[3]]))
        entered = [False, False]
        node = 0
        out[7] += float(t.committed[0])
        while int(t.kind[node]) == 0:
            p, k = int(t.actor[node]), int(t.num_children[node])
            off, cs = int(t.row_of[node]), int(t.child_start[node])
            a = sample_categorical_py(strat[cls[p]], off, k, uniform_py(rng))
            act = int(t.child_action[cs + a])
            c = int(t.child_node[cs + a])
            added = float(t.committed[c] - t.committed[node])
            s = int(t.street[node])
            if s == 0 and act >= 1:
                entered[p] = True
            if act >= 2:
                out[5] += 1.0
                out[6] += added / float(t.committed[node])
            out[7 + s] += added
            node = c
        out[0] += 1.0
        out[1] += float(entered[0]) + float(entered[1])
        out[2] += float(bool(t.allin_node[node]))
        fold = int(t.kind[node]) == FOLD_TERMINAL
        out[4 if fold else 3] += 1.0  # a fold, else a showdown (which reaches the river)
        for s in range(int(t.street[node]) + 1 if fold else 4):
            out[11 + s] += 1.0
