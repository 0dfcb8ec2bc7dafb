"""Sequence-form linear program (Koller, Megiddo & von Stengel 1996) solved with HiGHS.

For a two-player zero-sum game with perfect recall, with realization plans ``x`` (player 0)
and ``y`` (player 1) constrained by ``E x = e``, ``F y = f``, ``x, y >= 0`` and the
sequence payoff matrix ``A`` (chance-weighted utility of player 0 per pair of terminal
sequences), player 0's equilibrium solves::

    max  f^T q    s.t.  F^T q - A^T x <= 0,  E x = e,  x >= 0,  q free

and player 1's the symmetric program.  ``f^T q`` is the game value.  Realization plans are
converted to behavioural strategies ``x[Ia] / x[parent(I)]`` (uniform where unreachable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from pokerlab.errors import ConfigError
from pokerlab.games.compiled import KIND_TERMINAL, CompiledGame, compile_game
from pokerlab.policy.tabular import TabularPolicy


@dataclass(frozen=True, kw_only=True)
class LPResult:
    """Exact equilibrium from the sequence-form LP."""

    game_value: float          # player 0's value
    policy: TabularPolicy      # both players' equilibrium strategies
    value_player1_lp: float    # the value from player 1's program (equals -(-value))


def player_sequences(cg: CompiledGame, p: int) -> tuple[np.ndarray, np.ndarray]:
    """slot -> sequence index for player p (0 = empty sequence) and its slots."""
    seq_of_slot = np.full(cg.num_slots, -1, dtype=np.int64)
    slots = []
    for i in range(cg.num_infosets):
        if cg.infoset_player[i] == p:
            for s in range(int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])):
                slots.append(s)
    seq_of_slot[np.asarray(slots, dtype=np.int64)] = np.arange(1, len(slots) + 1)
    return seq_of_slot, np.asarray(slots, dtype=np.int64)


def sequence_constraints(cg: CompiledGame, p: int, seq_of_slot: np.ndarray, n_seq: int
                 ) -> sp.csr_matrix:
    rows, cols, vals = [0], [0], [1.0]
    r = 1
    for i in range(cg.num_infosets):
        if cg.infoset_player[i] != p:
            continue
        par = int(cg.infoset_parent_seq[i])
        rows.append(r)
        cols.append(0 if par < 0 else int(seq_of_slot[par]))
        vals.append(-1.0)
        for s in range(int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])):
            rows.append(r)
            cols.append(int(seq_of_slot[s]))
            vals.append(1.0)
        r += 1
    return sp.csr_matrix((vals, (rows, cols)), shape=(r, n_seq))


def two_player_zero_sum(game: Any, what: str) -> CompiledGame:
    """``game`` compiled, refused (one :class:`ConfigError` naming ``what``) unless it has
    two players and is zero-sum."""
    cg = game if isinstance(game, CompiledGame) else compile_game(game)
    if cg.num_players != 2:
        raise ConfigError(f"{what} needs two players, got {cg.num_players}")
    term = np.nonzero(cg.kind == KIND_TERMINAL)[0]
    if np.max(np.abs(cg.utility[term].sum(axis=1)), initial=0.0) > 1e-9:
        raise ConfigError(f"game {cg.game_name!r} is not zero-sum")
    return cg


def sequence_form_lp(A: sp.csr_matrix, E: sp.csr_matrix, F: sp.csr_matrix
                     ) -> tuple[sp.csr_matrix, np.ndarray, sp.csr_matrix, np.ndarray,
                                list[tuple[float | None, float | None]]]:
    """The constraints of ``max over x of min over y of x^T A y`` in sequence form, on
    ``z = (x, q)``: ``(A_ub, b_ub, A_eq, b_eq, bounds)`` for ``F^T q - A^T x <= 0``,
    ``E x = e_0``, ``x >= 0``, ``q`` free (``E``/``F`` the two players' sequence
    constraints, :func:`sequence_constraints`)."""
    nx, nq = A.shape[0], F.shape[0]
    A_ub = sp.hstack([-A.T, F.T]).tocsr()
    b_ub = np.zeros(A_ub.shape[0])
    A_eq = sp.hstack([E, sp.csr_matrix((E.shape[0], nq))]).tocsr()
    b_eq = np.zeros(E.shape[0])
    b_eq[0] = 1.0
    bounds: list[tuple[float | None, float | None]] = [(0.0, None)] * nx + [(None, None)] * nq
    return A_ub, b_ub, A_eq, b_eq, bounds


def solve_lp(game: Any) -> LPResult:
    """Exact Nash equilibrium and game value of a two-player zero-sum game."""
    cg = two_player_zero_sum(game, "the sequence-form LP")
    s0, _ = player_sequences(cg, 0)
    s1, _ = player_sequences(cg, 1)
    n0 = int(s0.max(initial=0)) + 1
    n1 = int(s1.max(initial=0)) + 1
    A = payoff_matrix(cg, s0, n0, s1, n1)
    E = sequence_constraints(cg, 0, s0, n0)
    F = sequence_constraints(cg, 1, s1, n1)
    x, v0 = _solve_side(A, E, F)            # player 0 maximises x^T A y
    y, v1 = _solve_side(-A.T.tocsr(), F, E)  # player 1 maximises -(x^T A y)
    behaviour = [np.zeros(cg.infoset_offset[-1]), np.zeros(cg.infoset_offset[-1])]
    behaviour_from_plan(cg, x, 0, s0, behaviour[0])
    behaviour_from_plan(cg, y, 1, s1, behaviour[1])
    rows = []
    for i, key in enumerate(cg.infoset_keys):
        p = int(cg.infoset_player[i])
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        rows.append((key, cg.infoset_actions[lo:hi], behaviour[p][lo:hi]))
    pol = TabularPolicy.from_rows(rows, metadata={"game": cg.game_name, "algo": "lp",
                                                  "game_value": v0})
    return LPResult(game_value=v0, policy=pol, value_player1_lp=v1)


def payoff_matrix(cg: CompiledGame, s0: np.ndarray, n0: int, s1: np.ndarray, n1: int
                  ) -> sp.csr_matrix:
    """Player 0's sequence-form payoff matrix (chance reach folded in); ``s0``/``s1`` map
    each player's slots to its sequences (:func:`player_sequences`)."""
    term = np.nonzero(cg.kind == KIND_TERMINAL)[0]
    seq = cg.node_seq[term]
    r0 = np.where(seq[:, 0] < 0, 0, s0[np.maximum(seq[:, 0], 0)])
    r1 = np.where(seq[:, 1] < 0, 0, s1[np.maximum(seq[:, 1], 0)])
    return sp.csr_matrix((cg.chance_reach[term] * cg.utility[term, 0], (r0, r1)), shape=(n0, n1))


def behaviour_from_plan(cg: CompiledGame, plan: np.ndarray, p: int, seq_of_slot: np.ndarray,
                        out: np.ndarray, fallback: np.ndarray | None = None) -> None:
    """Write the behaviour strategy of realization plan ``plan`` into ``out`` (player ``p``'s
    slots; unreached information sets: ``fallback`` or uniform)."""
    for i in range(cg.num_infosets):
        if cg.infoset_player[i] != p:
            continue
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        par = int(cg.infoset_parent_seq[i])
        denom = plan[0] if par < 0 else plan[seq_of_slot[par]]
        vals = np.maximum(plan[seq_of_slot[lo:hi]], 0.0)
        tot = vals.sum()
        if denom <= 1e-12 or tot <= 0:
            out[lo:hi] = fallback[lo:hi] if fallback is not None else 1.0 / (hi - lo)
        else:
            out[lo:hi] = vals / tot


def _solve_side(A: sp.csr_matrix, E: sp.csr_matrix, F: sp.csr_matrix
                ) -> tuple[np.ndarray, float]:
    """max f^T q s.t. F^T q - A^T x <= 0, E x = e, x >= 0 (q free).  Returns (x, value)."""
    nx = A.shape[0]
    nq = F.shape[0]
    c = np.zeros(nx + nq)
    c[nx] = -1.0  # f = e_0: maximise q[0]
    A_ub, b_ub, A_eq, b_eq, bounds = sequence_form_lp(A, E, F)
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds,
                  method="highs-ds",
                  options={"primal_feasibility_tolerance": 1e-10,
                           "dual_feasibility_tolerance": 1e-10})
    if res.status != 0:
        raise ConfigError(f"sequence-form LP failed: {res.message}")
    return np.asarray(res.x[:nx]), float(-res.fun)
