"""Warm starts across flops: the regrets of a solved flop mapped onto a similar flop.

An aggregate report solves one spot template on many flops, and the betting tree is the
same on every flop (it depends on the pot and stacks only).  Two flops of the same shape
(the same suits on the cards sorted by rank, and the same pairs) differ only in their
ranks, so a rank map that keeps the order of the ranks (:func:`card_map`: the flop's ranks
to the other flop's, the other ranks in order) takes every hand, turn card and river card
of one to a hand or card of the other, and suit isomorphism classes to suit isomorphism
classes.  A flop then starts from the regrets of a solved neighbour under that map
(:func:`warm_start`), as warm starting in Brown & Sandholm, "Strategy-Based Warm Starting
for Regret Minimization in Games" (AAAI 2016) starts from a related game's solution:
measured on the report template, it reaches the target in about 30% fewer iterations
than a cold start (docs/subgame.md).  The strategy sums start empty (the average is of
this flop's own iterations) and the discount schedule continues from iteration
:data:`WARM_ITERATION` (:data:`WARM_ITERATION_RDCFR` with ``rdcfr``), so the copied
regrets weigh as that many iterations' worth.

:func:`flop_chains` orders a report's flops into chains of neighbours of one shape; each
chain is solved in order, the first flop cold.  A warm-started flop reaches the same
target as a cold one, so its row is as good, but not bit for bit the row of ``pokerlab
spot solve`` (``--cold`` gives those).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pokerlab.cards.cards import COMBO_INDEX, NUM_COMBOS
from pokerlab.subgame.tree import DECISION

if TYPE_CHECKING:
    from pokerlab.subgame.flops import Flop
    from pokerlab.subgame.solver import SpotSolver

#: the iteration a warm-started solve continues the discount schedule from
WARM_ITERATION = 10
#: the same for ``rdcfr`` (the report's default): its regrets are discounted as after 60
#: iterations, so the copied ones last longer, and its average restarts at iteration 65 (4^3
#: + 1), forgetting the warm start's first iterations.  Measured on the report's template
#: (23 flops of the 184 set, 19 warm-started: ``bench_spot_report.py --flops 20 --raises
#: none``): 63.7 iterations a flop against 68.6 from iteration 10 (docs/benchmarks.md); with
#: ``dcfr``, whose average weighs every iteration since the start by (t/T)^2, 10 stays
WARM_ITERATION_RDCFR = 60


def warm_iteration(algo: str) -> int:
    """The iteration a warm start of a solve by ``algo`` continues from."""
    return WARM_ITERATION_RDCFR if algo == "rdcfr" else WARM_ITERATION


#: the most flops in one chain (a chain is one executor chunk; its first flop starts cold):
#: the 184-flop set's 10 shapes make 20 chains (6 made 35: 15 more cold flops at about 28
#: more iterations each on the report's template, benchmarks/check_schedule.py)
CHAIN_LENGTH = 12


def shape_key(cards: Sequence[int]) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The suits of the cards sorted by rank (high first) and which neighbours pair."""
    cs = sorted((int(c) for c in cards), reverse=True)
    return (tuple(c & 3 for c in cs),
            tuple((cs[i] >> 2) == (cs[i + 1] >> 2) for i in range(len(cs) - 1)))


def card_map(src: Sequence[int], dst: Sequence[int]) -> np.ndarray | None:
    """``pi[c]``: the card of ``dst``'s deal that card ``c`` of ``src``'s stands for (the
    ranks of ``src`` to those of ``dst`` in order, the other ranks in order, suits kept);
    ``None`` when the two boards are not of one shape."""
    if len(src) != len(dst) or shape_key(src) != shape_key(dst):
        return None
    s_ranks = sorted({int(c) >> 2 for c in src}, reverse=True)
    d_ranks = sorted({int(c) >> 2 for c in dst}, reverse=True)
    rmap = dict(zip(s_ranks, d_ranks, strict=True))
    rest_s = [r for r in range(13) if r not in rmap]
    rest_d = [r for r in range(13) if r not in set(d_ranks)]
    rmap.update(zip(rest_s, rest_d, strict=True))
    return np.array([rmap[c >> 2] * 4 + (c & 3) for c in range(52)], dtype=np.int64)


def rank_distance(a: Sequence[int], b: Sequence[int]) -> int:
    """How far apart two boards of one shape are: the sum of their sorted ranks' gaps."""
    ra = sorted((int(c) >> 2 for c in a), reverse=True)
    rb = sorted((int(c) >> 2 for c in b), reverse=True)
    return sum(abs(x - y) for x, y in zip(ra, rb, strict=True))


def flop_chains(flops: Sequence[Flop], max_len: int = CHAIN_LENGTH) -> list[list[Flop]]:
    """The flops in chains of at most ``max_len``, each of one shape and ordered so that
    each flop follows a near neighbour (greedy nearest neighbour from the highest flop of
    each shape); deterministic, every flop once."""
    groups: dict[tuple[tuple[int, ...], tuple[bool, ...]], list[Flop]] = {}
    for f in flops:
        groups.setdefault(shape_key(f.cards), []).append(f)
    chains: list[list[Flop]] = []
    for key in sorted(groups):
        rest = sorted(groups[key], key=lambda f: sorted(f.cards, reverse=True), reverse=True)
        order = [rest.pop(0)]
        while rest:
            last = order[-1].cards
            j = min(range(len(rest)), key=lambda i: (rank_distance(last, rest[i].cards), i))
            order.append(rest.pop(j))
        n = -(-len(order) // max_len)  # chains of near-equal length
        size = -(-len(order) // n)
        chains.extend(order[i:i + size] for i in range(0, len(order), size))
    return chains


@dataclass
class WarmSource:
    """What :func:`warm_start` reads of a solved flop (its regrets and the card structures
    that index them), small enough to keep while the next flop solves."""

    board: tuple[int, ...]
    regrets: np.ndarray
    rscale: np.ndarray  # 16-bit storage: one scale per (node, board) entry; empty otherwise
    pred: np.ndarray  # PDCFR+'s predicted regrets (same layout as regrets); empty otherwise
    node_base: np.ndarray
    entry_base: np.ndarray
    num_hands: tuple[int, int]
    combos: tuple[np.ndarray, np.ndarray]
    next_slot: tuple[np.ndarray, np.ndarray]
    iso_swap: tuple[np.ndarray, np.ndarray]
    tree_key: bytes

    @staticmethod
    def of(solver: SpotSolver) -> WarmSource:
        d = solver.deal
        return WarmSource(board=tuple(int(c) for c in solver.spot.board), regrets=solver.regrets,
                          rscale=solver.rscale, pred=solver.pred, node_base=solver.node_base,
                          entry_base=solver.entry_base, num_hands=d.num_hands, combos=d.combos,
                          next_slot=d.next_slot, iso_swap=d.iso_swap, tree_key=tree_key(solver))


def tree_key(solver: SpotSolver) -> bytes:
    """The betting tree and storage a warm start needs to be the same on both flops."""
    t = solver.tree
    return b"|".join(np.ascontiguousarray(a).tobytes() for a in (
        t.kind, t.player, t.street, t.num_children, t.children, t.contrib)) + (
        f"|{solver.config.compress}|{solver.config.predictive}|{solver.spot.street}".encode())


def slot_maps(dst: SpotSolver, src: WarmSource, pi_inv: np.ndarray) -> list[np.ndarray] | None:
    """Per street, the source slot of each of ``dst``'s slots (``None`` when some
    representative card of ``dst`` maps to a card ``src`` did not solve)."""
    d = dst.deal
    turn = d.slot_cards[1][:, 0]
    t_src = pi_inv[turn]
    t_slot = src.next_slot[0][0, t_src]
    rv = d.slot_cards[2]
    rt_slot = src.next_slot[0][0, pi_inv[rv[:, 0]]]
    r_src = pi_inv[rv[:, 1]]
    if (t_slot < 0).any() or (src.iso_swap[0][0, t_src] >= 0).any() or (rt_slot < 0).any():
        return None
    r_slot = src.next_slot[1][rt_slot, r_src]
    if (r_slot < 0).any() or (src.iso_swap[1][rt_slot, r_src] >= 0).any():
        return None
    return [np.zeros(1, dtype=np.int64), t_slot.astype(np.int64), r_slot.astype(np.int64)]


def hand_maps(dst: SpotSolver, src: WarmSource, pi_inv: np.ndarray) -> list[np.ndarray]:
    """Per player, the source hand of each of ``dst``'s hands (-1: not in the source's
    range; its regrets start at 0)."""
    out = []
    for q in (0, 1):
        where = np.full(NUM_COMBOS, -1, dtype=np.int64)
        where[src.combos[q]] = np.arange(src.combos[q].shape[0])
        hc = pi_inv[dst.deal.hand_cards[q]]
        out.append(where[COMBO_INDEX[hc[:, 0], hc[:, 1]].astype(np.int64)])
    return out


def warm_start(dst: SpotSolver, src: WarmSource, *, iteration: int | None = None) -> bool:
    """Start the fresh ``dst`` from ``src``'s regrets under :func:`card_map` and continue
    the discount schedule from ``iteration`` (default :func:`warm_iteration` of its
    algorithm); returns False (``dst`` untouched) when the
    two flops are not of one shape, their trees or storage differ, or ``dst`` has already
    iterated."""
    if dst.iteration != 0 or dst.spot.street != 0 or tree_key(dst) != src.tree_key:
        return False
    pi = card_map(src.board, tuple(int(c) for c in dst.spot.board))
    if pi is None:
        return False
    pi_inv = np.empty(52, dtype=np.int64)
    pi_inv[pi] = np.arange(52)
    slots = slot_maps(dst, src, pi_inv)
    if slots is None:
        return False
    hands = hand_maps(dst, src, pi_inv)
    tr = dst.tree
    for i in range(tr.num_nodes):
        if tr.kind[i] != DECISION:
            continue
        q = int(tr.player[i])
        k = int(tr.num_children[i])
        nd, ns = dst.deal.num_hands[q], src.num_hands[q]
        hm = hands[q]
        ok = hm >= 0
        s = slots[int(tr.street[i])]
        idx = (int(src.node_base[i]) + s[:, None, None] * (k * ns) + np.arange(k)[None, :, None] * ns
               + np.where(ok, hm, 0)[None, None, :])
        vals = src.regrets[idx]
        vals[:, :, ~ok] = 0
        lo = int(dst.node_base[i])
        dst.regrets[lo:lo + s.shape[0] * k * nd] = vals.reshape(-1)
        if dst.pred.shape[0]:  # PDCFR+: the predicted regrets the next iteration plays
            pv = src.pred[idx]
            pv[:, :, ~ok] = 0
            dst.pred[lo:lo + s.shape[0] * k * nd] = pv.reshape(-1)
        if dst.rscale.shape[0]:  # 16-bit regrets: each entry's scale with it
            e = int(dst.entry_base[i])
            dst.rscale[e:e + s.shape[0]] = src.rscale[int(src.entry_base[i]) + s]
    dst.iteration = int(warm_iteration(dst.config.algo) if iteration is None else iteration)
    return True
