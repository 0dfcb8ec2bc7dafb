"""The plain-Python twin of a :class:`~pokerlab.agents.continuation.Continuation`'s values:
the same walk as the kernels of :mod:`pokerlab.agents.continuation_kernels`, one node and
one runout at a time, for the parity tests and the benchmark."""

from __future__ import annotations

import numpy as np

from pokerlab.agents.continuation import Continuation
from pokerlab.agents.continuation_kernels import (
    ACTOR,
    KIND,
    LOSE,
    NB,
    NCOLS,
    PARENT,
    PCOL,
    ROFF,
    SLOT,
    TIE,
    VOFF,
    WIN,
)
from pokerlab.cards.cards import COMBO_MASKS, COMBOS, NUM_COMBOS, cards_mask
from pokerlab.errors import AgentError
from pokerlab.kinds import CHANCE, FOLD, SHOWDOWN


# ----------------------------------------------------------------------------- the twin
def continuation_reference(cont: Continuation, *, other_reach: np.ndarray | None = None,
                           chooser_reach: np.ndarray | None = None) -> np.ndarray:
    """Plain-Python twin of :meth:`Continuation.chooser_values` (``other_reach``) or
    :meth:`Continuation.other_values` (``chooser_reach``): a recursive walk of the same
    tree per runout over full 1326-vectors, terminals as pairwise sums over 0/1 matrices
    of the disjoint live pairs (no sweep, no card-removal algebra), strengths by the
    scalar evaluator and buckets recomputed per runout."""
    from pokerlab.cards.evaluator import strength
    from pokerlab.policy.range_query import bucket_vector

    if (other_reach is None) == (chooser_reach is None):
        raise AgentError("give exactly one of other_reach, chooser_reach")
    chooser_side = other_reach is not None
    live_b = cont.live_combos()
    if other_reach is not None:
        reach0 = np.where(live_b, np.asarray(other_reach, dtype=np.float64), 0.0)[None, :]
    else:
        reach0 = np.where(live_b[None, :], np.asarray(chooser_reach, dtype=np.float64), 0.0)
    walker = _RefWalk(cont, chooser_side)
    disjoint = (COMBO_MASKS[:, None] & COMBO_MASKS[None, :]) == 0
    total = np.zeros(walker.shape)
    for run in cont.runouts:
        full = list(cont.board) + list(run)
        live = (COMBO_MASKS & np.uint64(cards_mask(full))) == 0
        s = np.zeros(NUM_COMBOS, dtype=np.int64)
        for h in np.nonzero(live)[0]:
            s[h] = strength([int(COMBOS[h, 0]), int(COMBOS[h, 1]), *full])
        idx = np.nonzero(live)[0]
        comp = disjoint[np.ix_(idx, idx)]
        diff = s[idx][:, None] - s[idx][None, :]
        walker.live = idx
        walker.mats = tuple((comp & m).astype(np.float64) for m in (comp, diff > 0, diff == 0,
                                                                     diff < 0))
        walker.bks = [bucket_vector(cont.agent, cont.leaf_street + 1 + q,
                                    tuple(full[:len(cont.board) + q + 1]))
                      for q in range(cont.buckets.shape[1])]
        total += cont.weight * walker.walk(0, reach0 * live[None, :])
    return total


class _RefWalk:
    """The recursion of :func:`continuation_reference` on one runout (``live``: the
    combos the five board cards leave; ``mats``: 0/1 matrices over them of the disjoint
    pairs, all of them and those where the row's hand is stronger, as strong, weaker;
    ``bks``: the bucket vector of each slot)."""

    def __init__(self, cont: Continuation, chooser_side: bool) -> None:
        self.cont = cont
        self.chooser_side = chooser_side
        self.valued = cont.chooser if chooser_side else cont.searcher
        self.k = cont.k
        self.shape: tuple[int, ...] = (cont.k, NUM_COMBOS) if chooser_side else (NUM_COMBOS,)
        nodes = cont.nodes
        self.kids: list[list[int]] = [[] for _ in range(nodes.shape[0])]
        for v in range(1, nodes.shape[0]):
            self.kids[int(nodes[v, PARENT])].append(v)
        self.mats: tuple[np.ndarray, ...] = ()
        self.live = np.zeros(0, dtype=np.int64)
        self.bks: list[np.ndarray] = []

    def probs(self, v: int, j: int | None) -> np.ndarray:
        """(1326, columns) action probabilities at decision ``v``: the blueprint's
        (``j=None``) or variant ``j``'s."""
        cont = self.cont
        nodes = cont.nodes
        nc, nb = int(nodes[v, NCOLS]), int(nodes[v, NB])
        bk = self.bks[int(nodes[v, SLOT])]
        b = np.zeros(NUM_COMBOS, dtype=np.int64) if nb == 1 else np.where(bk < 0, 0, bk)
        if j is None or nodes[v, VOFF] < 0:
            o = int(nodes[v, ROFF])
            tab = cont.rows[o:o + nb * nc].reshape(nb, nc)
        else:
            o = int(nodes[v, VOFF]) + j * nb * nc
            tab = cont.vrows[o:o + nb * nc].reshape(nb, nc)
        return np.asarray(tab[b])

    def walk(self, v: int, reach: np.ndarray) -> np.ndarray:
        """The valued player's values below node ``v``; ``reach`` the propagated
        player's (rows: 1 for the searcher, ``k`` for the chooser's variants)."""
        cont = self.cont
        nodes = cont.nodes
        k = self.k
        kind = int(nodes[v, KIND])
        if kind in (FOLD, SHOWDOWN):
            opp = reach.sum(axis=0)[self.live]
            pay = cont.pay[v, self.valued]
            every, weaker, same, stronger = self.mats
            tv = np.zeros(NUM_COMBOS)

            def mv(m: np.ndarray) -> np.ndarray:  # einsum: no BLAS threads (shared cores)
                return np.asarray(np.einsum("ij,j->i", m, opp))

            if kind == FOLD:
                tv[self.live] = pay[WIN] * mv(every)
            else:
                tv[self.live] = (pay[WIN] * mv(weaker) + pay[TIE] * mv(same)
                                 + pay[LOSE] * mv(stronger))
            return np.repeat(tv[None, :], k, axis=0) if self.chooser_side else tv
        out = np.zeros(self.shape)
        if kind == CHANCE:
            for c in self.kids[v]:
                out += self.walk(c, reach * cont.pprob[c])
            return out
        actor = int(nodes[v, ACTOR])
        if actor == self.valued:
            if self.chooser_side:
                pj = [self.probs(v, j) for j in range(k)]
                for c in self.kids[v]:
                    col = int(nodes[c, PCOL])
                    val = self.walk(c, reach)
                    for j in range(k):
                        out[j] += pj[j][:, col] * val[j]
            else:
                p0 = self.probs(v, None)
                for c in self.kids[v]:
                    out += p0[:, int(nodes[c, PCOL])] * self.walk(c, reach)
            return out
        if self.chooser_side:
            p0 = self.probs(v, None)
            for c in self.kids[v]:
                out += self.walk(c, reach * p0[None, :, int(nodes[c, PCOL])])
        else:
            pj = [self.probs(v, j) for j in range(k)]
            for c in self.kids[v]:
                col = int(nodes[c, PCOL])
                out += self.walk(c, np.stack([reach[j] * pj[j][:, col] for j in range(k)]))
        return out
