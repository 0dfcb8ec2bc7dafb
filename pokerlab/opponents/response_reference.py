"""Plain-Python twin of :func:`pokerlab.opponents.response_kernels.restricted_cfr`
(same algorithm, same arithmetic order; used by the parity test only).  Its forward and
value passes are the plain twins of :mod:`pokerlab.games.pass_kernels`."""

from __future__ import annotations

import numpy as np

from pokerlab.games.compiled import KIND_DECISION
from pokerlab.games.pass_kernels import forward_reach_py, tree_values_py
from pokerlab.solvers.regret import regret_match_row_py


def _match(regrets: list[float], offs: list[int], num_i: int) -> list[float]:
    out = [0.0] * len(regrets)
    for i in range(num_i):
        lo = offs[i]
        regret_match_row_py(regrets, lo, offs[i + 1] - lo, out, lo)
    return out


def restricted_cfr_py(kind, player, infoset, child_start, child_count, children, edge_prob,
                      edge_slot, utility, infoset_player, infoset_offset, exploiter, world_w,
                      conf, model_sp, iterations) -> np.ndarray:
    n = len(kind)
    num_i = len(infoset_player)
    offs = [int(x) for x in infoset_offset]
    num_s = offs[num_i]
    num_w = len(world_w)
    r_ex = [0.0] * num_s
    r_op = [[0.0] * num_s for _ in range(num_w)]
    avg = [0.0] * num_s
    own_reach = [0.0] * num_i
    for t in range(1, iterations + 1):
        for phase in range(2):
            sig_e = _match(r_ex, offs, num_i)
            inc = [0.0] * num_s
            for w in range(num_w):
                sig_o = _match(r_op[w], offs, num_i)
                sigma = [0.0] * num_s
                for i in range(num_i):
                    for s in range(offs[i], offs[i + 1]):
                        if infoset_player[i] == exploiter:
                            sigma[s] = sig_e[s]
                        else:
                            c = float(conf[w][i])
                            sigma[s] = c * float(model_sp[s]) + (1.0 - c) * sig_o[s]
                reach = np.zeros((n, 3))
                vals = np.zeros((n, 1))
                sig = np.asarray(sigma)
                forward_reach_py(kind, player, child_start, child_count, children, edge_prob,
                                 edge_slot, sig, reach)
                tree_values_py(kind, child_start, child_count, children, edge_prob, edge_slot,
                               sig, utility, exploiter, exploiter + 1, vals)
                r_e, r_o, r_c = reach[:, exploiter], reach[:, 1 - exploiter], reach[:, 2]
                v = vals[:, 0]
                ww = float(world_w[w])
                for h in range(n):
                    if kind[h] != KIND_DECISION:
                        continue
                    i = infoset[h]
                    edges = range(child_start[h], child_start[h] + child_count[h])
                    if player[h] == exploiter:
                        if phase != 0:
                            continue
                        if w == 0:
                            own_reach[i] = r_e[h]
                        cf = ww * r_o[h] * r_c[h]
                        if cf == 0.0:
                            continue
                        for e in edges:
                            inc[edge_slot[e]] += cf * (v[children[e]] - v[h])
                    else:
                        if phase != 1:
                            continue
                        cf = ww * (1.0 - float(conf[w][i])) * r_e[h] * r_c[h]
                        if cf == 0.0:
                            continue
                        for e in edges:
                            r_op[w][edge_slot[e]] += cf * (v[h] - v[children[e]])
            if phase == 0:
                for i in range(num_i):
                    if infoset_player[i] != exploiter:
                        continue
                    for s in range(offs[i], offs[i + 1]):
                        x = r_ex[s] + inc[s]
                        r_ex[s] = x if x > 0.0 else 0.0
                        avg[s] += t * own_reach[i] * sig_e[s]
            else:
                for w in range(num_w):
                    r_op[w] = [x if x > 0.0 else 0.0 for x in r_op[w]]
    out = np.zeros(num_s)
    for i in range(num_i):
        if infoset_player[i] != exploiter:
            continue
        lo, hi = offs[i], offs[i + 1]
        tot = sum(avg[lo:hi])
        for s in range(lo, hi):
            out[s] = avg[s] / tot if tot > 0.0 else 1.0 / (hi - lo)
    return out
