"""CFR for restricted responses over a :class:`~pokerlab.games.compiled.CompiledGame`.

One kernel covers the restricted Nash response (Johanson, Zinkevich & Bowling 2007), the
data-biased response (Johanson & Bowling 2009) and node locking:

* ``W`` worlds, chosen by chance at the root with probabilities ``world_w`` and seen by the
  opponent only (the exploiter's information sets are shared across worlds);
* in world ``w`` the opponent plays, at information set ``I``,
  ``c[w, I] * model(I) + (1 - c[w, I]) * free_w(I)``, where ``free_w`` is its own
  regret-minimising strategy (one per world).

RNR(p): ``W = 2``, weights ``(p, 1 - p)``, ``c = (1, 0)``.  DBR: ``W = 1``, ``c = P_conf(I)``.
Node locking: ``W = 1``, ``c`` = 1 at the locked sets, 0 elsewhere.  The opponent's regret
at ``I`` is scaled by ``1 - c`` (the derivative of its value with respect to ``free_w``).

CFR+ (regrets floored at 0), alternating updates (exploiter, then opponent), linearly
weighted average of the exploiter's strategy.  The plain-Python twin is
:func:`pokerlab.opponents.response_reference.restricted_cfr_py` (parity test).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.games.compiled import KIND_DECISION
from pokerlab.games.pass_kernels import forward_reach, tree_values
from pokerlab.solvers.regret import regret_match_row


@njit(cache=True)
def _match(regrets, infoset_offset, num_i, out):  # pragma: no cover - compiled
    """Regret matching of every information set's slots (the shared
    :func:`pokerlab.solvers.regret.regret_match_row`)."""
    for i in range(num_i):
        lo = infoset_offset[i]
        regret_match_row(regrets, lo, infoset_offset[i + 1] - lo, out, lo)


@njit(cache=True)
def restricted_cfr(kind, player, infoset, child_start, child_count, children, edge_prob,
                   edge_slot, utility, infoset_player, infoset_offset, exploiter, world_w,
                   conf, model_sp, iterations):  # pragma: no cover - compiled
    """Returns the exploiter's average strategy (slot probabilities; other slots 0)."""
    n = kind.shape[0]
    num_i = infoset_player.shape[0]
    num_s = infoset_offset[num_i]
    num_w = world_w.shape[0]
    r_ex = np.zeros(num_s)
    r_op = np.zeros((num_w, num_s))
    avg = np.zeros(num_s)
    sig_e = np.zeros(num_s)
    sig_o = np.zeros(num_s)
    sigma = np.zeros(num_s)
    opponent = 1 - exploiter
    reach = np.zeros((n, 3))  # own reach of players 0 and 1, chance's reach
    v = np.zeros((n, 1))  # the exploiter's values
    inc = np.zeros(num_s)
    own_reach = np.zeros(num_i)
    for t in range(1, iterations + 1):
        for phase in range(2):  # 0: exploiter update, 1: opponent update
            _match(r_ex, infoset_offset, num_i, sig_e)
            inc[:] = 0.0
            for w in range(num_w):
                _match(r_op[w], infoset_offset, num_i, sig_o)
                for i in range(num_i):
                    lo = infoset_offset[i]
                    hi = infoset_offset[i + 1]
                    if infoset_player[i] == exploiter:
                        for s in range(lo, hi):
                            sigma[s] = sig_e[s]
                    else:
                        c = conf[w, i]
                        for s in range(lo, hi):
                            sigma[s] = c * model_sp[s] + (1.0 - c) * sig_o[s]
                forward_reach(kind, player, child_start, child_count, children, edge_prob,
                              edge_slot, sigma, reach)
                tree_values(kind, child_start, child_count, children, edge_prob, edge_slot,
                            sigma, utility, exploiter, exploiter + 1, v)
                ww = world_w[w]
                for h in range(n):
                    if kind[h] != KIND_DECISION:
                        continue
                    i = infoset[h]
                    s0 = child_start[h]
                    if player[h] == exploiter:
                        if phase != 0:
                            continue
                        if w == 0:
                            own_reach[i] = reach[h, exploiter]
                        cf = ww * reach[h, opponent] * reach[h, 2]
                        if cf == 0.0:
                            continue
                        for e in range(s0, s0 + child_count[h]):
                            inc[edge_slot[e]] += cf * (v[children[e], 0] - v[h, 0])
                    else:
                        if phase != 1:
                            continue
                        cf = ww * (1.0 - conf[w, i]) * reach[h, exploiter] * reach[h, 2]
                        if cf == 0.0:
                            continue
                        for e in range(s0, s0 + child_count[h]):
                            r_op[w, edge_slot[e]] += cf * (v[h, 0] - v[children[e], 0])
            if phase == 0:
                for i in range(num_i):
                    if infoset_player[i] != exploiter:
                        continue
                    lo = infoset_offset[i]
                    hi = infoset_offset[i + 1]
                    for s in range(lo, hi):
                        x = r_ex[s] + inc[s]
                        r_ex[s] = x if x > 0.0 else 0.0
                        avg[s] += t * own_reach[i] * sig_e[s]
            else:
                for w in range(num_w):
                    for s in range(num_s):
                        if r_op[w, s] < 0.0:
                            r_op[w, s] = 0.0
    out = np.zeros(num_s)
    for i in range(num_i):
        if infoset_player[i] != exploiter:
            continue
        lo = infoset_offset[i]
        hi = infoset_offset[i + 1]
        tot = 0.0
        for s in range(lo, hi):
            tot += avg[s]
        for s in range(lo, hi):
            out[s] = avg[s] / tot if tot > 0.0 else 1.0 / (hi - lo)
    return out
