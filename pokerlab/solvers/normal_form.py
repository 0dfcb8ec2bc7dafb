"""The normal form of a small two-player zero-sum game, solved by LP, next to the sequence form.

A *pure strategy* of a player picks one action at every one of its information sets, so a
player with information sets ``I_1..I_k`` of ``n_1..n_k`` actions has ``n_1 * ... * n_k``
of them (Kuhn: 2^6 = 64 each); the *normal form* is the matrix of player 0's expected
payoff for every pair of pure strategies.  Its size is the sequence form's reason to exist
(Koller, Megiddo & von Stengel 1996; Oliehoek 2005, ch. 2): the sequence form has one
variable per *sequence* (``1 + sum n_i`` per player: Kuhn 13), linear in the tree, while
the normal form is exponential in it.

* :func:`normal_form` builds the matrix through the sequence form: the realisation plan of
  a pure strategy is a 0/1 vector ``X_i`` over sequences, so ``M = X A Y^T`` with ``A`` the
  sequence payoff matrix of :mod:`pokerlab.solvers.lp`.
* :func:`solve_matrix_game` solves ``max_p min_j (p^T M)_j`` by LP (HiGHS, as
  :func:`pokerlab.solvers.lp.solve_lp`).
* :func:`compare_with_sequence_form` turns the mixed equilibrium into its
  realisation-equivalent behaviour strategy (Kuhn's theorem: realisation plan
  ``x = sum_i p_i X_i``, behaviour ``x[Ia] / x[parent(I)]``), checks that the behaviour
  strategy has the same realisation plan, and compares it with the sequence-form LP's
  equilibrium: game values, best-response values of each strategy in the other form, and
  the largest difference of the behaviour probabilities at reachable information sets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from pokerlab.errors import ConfigError
from pokerlab.games.compiled import CompiledGame, compile_game
from pokerlab.solvers.lp import payoff_matrix, player_sequences, solve_lp, two_player_zero_sum

DEFAULT_MAX_STRATEGIES = 4096
"""Largest number of pure strategies per player :func:`normal_form` builds."""


@dataclass(frozen=True, kw_only=True)
class NormalForm:
    """The normal form of a two-player zero-sum game (see the module docs)."""

    game_name: str
    infosets: tuple[list[str], list[str]]
    """Each player's information-set keys, in the order of a pure strategy's choices."""
    actions: tuple[list[list[int]], list[list[int]]]
    strategies: tuple[np.ndarray, np.ndarray]
    """``strategies[p][i, k]``: the action index pure strategy ``i`` takes at infoset ``k``."""
    plans: tuple[np.ndarray, np.ndarray]
    """``plans[p][i]``: the 0/1 realisation plan (over sequences) of pure strategy ``i``."""
    payoff: np.ndarray
    """``payoff[i, j]``: player 0's expected payoff (chance averaged)."""
    seq_payoff: sp.csr_matrix
    num_sequences: tuple[int, int]
    slot_seq: tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
    """Per player: ``(slot -> sequence index, the player's slots)``."""

    @property
    def num_strategies(self) -> tuple[int, int]:
        return int(self.strategies[0].shape[0]), int(self.strategies[1].shape[0])

    def label(self, p: int, i: int) -> str:
        """Pure strategy ``i`` of player ``p`` as ``infoset:action`` choices."""
        return " ".join(f"{k}:{self.actions[p][n][int(c)]}" for n, (k, c) in
                        enumerate(zip(self.infosets[p], self.strategies[p][i], strict=True)))


def _seq_payoff(cg: CompiledGame) -> tuple[sp.csr_matrix, tuple[np.ndarray, np.ndarray],
                                           tuple[np.ndarray, np.ndarray]]:
    s0, sl0 = player_sequences(cg, 0)
    s1, sl1 = player_sequences(cg, 1)
    n0 = int(s0.max(initial=0)) + 1
    n1 = int(s1.max(initial=0)) + 1
    return payoff_matrix(cg, s0, n0, s1, n1), (s0, s1), (sl0, sl1)


def _player_infosets(cg: CompiledGame, p: int) -> list[int]:
    return [i for i in range(cg.num_infosets) if int(cg.infoset_player[i]) == p]


def pure_strategy_count(game: Any) -> tuple[int, int]:
    """Pure strategies per player (exact integers; may be astronomically large)."""
    cg = game if isinstance(game, CompiledGame) else compile_game(game)
    out = []
    for p in (0, 1):
        n = 1
        for i in _player_infosets(cg, p):
            n *= int(cg.infoset_offset[i + 1] - cg.infoset_offset[i])
        out.append(n)
    return out[0], out[1]


def _realisation(cg: CompiledGame, p: int, smap: np.ndarray, n_seq: int,
                 behaviour: np.ndarray) -> np.ndarray:
    """Realisation plans of behaviour strategies ``behaviour[s, slot]`` (rows: strategies;
    only player ``p``'s slots read): ``x[seq(I, a)] = beh(I, a) * x[parent(I)]``."""
    infosets = _player_infosets(cg, p)
    owner = np.searchsorted(cg.infoset_offset, np.arange(cg.num_slots), side="right") - 1
    x = np.zeros((behaviour.shape[0], n_seq))
    x[:, 0] = 1.0
    done: set[int] = set()
    pending = list(infosets)
    while pending:  # parents first (a parent sequence belongs to an earlier infoset)
        nxt = []
        for i in pending:
            par = int(cg.infoset_parent_seq[i])
            if par >= 0 and int(owner[par]) not in done:
                nxt.append(i)
                continue
            base = x[:, 0] if par < 0 else x[:, smap[par]]
            for s in range(int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])):
                x[:, smap[s]] = base * behaviour[:, s]
            done.add(i)
        if len(nxt) == len(pending):
            raise ConfigError("information sets without a resolvable parent sequence")
        pending = nxt
    return x


def normal_form(game: Any, *, max_strategies: int = DEFAULT_MAX_STRATEGIES) -> NormalForm:
    """The normal form of ``game`` (two players, zero-sum, perfect recall); refuses (one
    :class:`ConfigError`) when a player has more than ``max_strategies`` pure strategies."""
    cg = two_player_zero_sum(game, "the normal form here")
    counts = pure_strategy_count(cg)
    for p, n in enumerate(counts):
        if n > max_strategies:
            raise ConfigError(f"player {p} of {cg.game_name} has {_big(n)} pure strategies "
                              f"(more than --max-strategies {max_strategies}); the normal "
                              f"form is for small games (the sequence form has "
                              f"{_seq_count(cg, p)} sequences)")
    A, smaps, slots = _seq_payoff(cg)
    keys: list[list[str]] = [[], []]
    acts: list[list[list[int]]] = [[], []]
    strats = []
    plans = []
    for p in (0, 1):
        infosets = _player_infosets(cg, p)
        sizes = [int(cg.infoset_offset[i + 1] - cg.infoset_offset[i]) for i in infosets]
        keys[p] = [str(cg.infoset_keys[i]) for i in infosets]
        acts[p] = [[int(a) for a in cg.infoset_actions[int(cg.infoset_offset[i]):
                                                       int(cg.infoset_offset[i + 1])]]
                   for i in infosets]
        grid = np.indices(sizes).reshape(len(sizes), -1).T if sizes else np.zeros((1, 0))
        grid = grid.astype(np.int64)
        beh = np.zeros((grid.shape[0], cg.num_slots))
        for k, i in enumerate(infosets):
            beh[np.arange(grid.shape[0]), int(cg.infoset_offset[i]) + grid[:, k]] = 1.0
        n_seq = int(smaps[p].max(initial=0)) + 1
        strats.append(grid)
        plans.append(_realisation(cg, p, smaps[p], n_seq, beh))
    M = plans[0] @ (A @ plans[1].T)
    return NormalForm(game_name=str(cg.game_name), infosets=(keys[0], keys[1]),
                      actions=(acts[0], acts[1]), strategies=(strats[0], strats[1]),
                      plans=(plans[0], plans[1]), payoff=np.asarray(M), seq_payoff=A,
                      num_sequences=(A.shape[0], A.shape[1]),
                      slot_seq=((smaps[0], slots[0]), (smaps[1], slots[1])))


def _seq_count(cg: CompiledGame, p: int) -> int:
    return 1 + sum(int(cg.infoset_offset[i + 1] - cg.infoset_offset[i])
                   for i in _player_infosets(cg, p))


def _big(n: int) -> str:
    return f"{n:,}" if n < 10**12 else f"about 10^{int(math.log10(n))}"


def solve_matrix_game(M: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Mixed equilibrium ``(p, q, value)`` of the zero-sum matrix game ``M`` (row player
    maximises ``p^T M q``), by two LPs (HiGHS)."""
    M = np.asarray(M, dtype=np.float64)
    p, v = _maximin(M)
    q, w = _maximin(-M.T)
    if abs(v + w) > 1e-7 * max(1.0, abs(v)):
        raise ConfigError(f"matrix game LPs disagree: {v} vs {-w}")
    return p, q, v


def _maximin(M: np.ndarray) -> tuple[np.ndarray, float]:
    m, n = M.shape
    c = np.zeros(m + 1)
    c[m] = -1.0
    A_ub = np.hstack([-M.T, np.ones((n, 1))])
    A_eq = np.zeros((1, m + 1))
    A_eq[0, :m] = 1.0
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(n), A_eq=A_eq, b_eq=[1.0],
                  bounds=[(0.0, None)] * m + [(None, None)], method="highs-ds",
                  options={"primal_feasibility_tolerance": 1e-10,
                           "dual_feasibility_tolerance": 1e-10})
    if res.status != 0:
        raise ConfigError(f"matrix-game LP failed: {res.message}")
    p = np.maximum(np.asarray(res.x[:m]), 0.0)
    return p / p.sum(), float(-res.fun)


def compare_with_sequence_form(game: Any, *, max_strategies: int = DEFAULT_MAX_STRATEGIES,
                               top: int = 5) -> dict[str, Any]:
    """Solve ``game`` in the normal form and in the sequence form and compare (module docs).
    Returns a JSON-ready dict (values in the game's chips for player 0)."""
    cg = game if isinstance(game, CompiledGame) else compile_game(game)
    nf = normal_form(cg, max_strategies=max_strategies)
    p, q, v_nf = solve_matrix_game(nf.payoff)
    lp = solve_lp(cg)
    A = nf.seq_payoff
    mixed = (p, q)
    out_players = []
    plans_nf = []
    plans_sf = []
    max_diff = []
    for pl in (0, 1):
        smap, slots = nf.slot_seq[pl]
        x = mixed[pl] @ nf.plans[pl]                      # realisation plan of the mixture
        beh = np.zeros(cg.num_slots)
        beh_sf = np.zeros(cg.num_slots)
        reach = np.zeros(cg.num_slots)
        for i in _player_infosets(cg, pl):
            lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
            par = int(cg.infoset_parent_seq[i])
            den = x[0] if par < 0 else x[smap[par]]
            vals = x[smap[lo:hi]]
            beh[lo:hi] = vals / den if den > 1e-12 else 1.0 / (hi - lo)
            reach[lo:hi] = den
            row = lp.policy.policy_for_key(str(cg.infoset_keys[i]))
            beh_sf[lo:hi] = [float(row.get(int(a), 0.0)) for a in cg.infoset_actions[lo:hi]]
        n_seq = nf.num_sequences[pl]
        x_back = _realisation(cg, pl, smap, n_seq, beh[None, :])[0]
        x_sf = _realisation(cg, pl, smap, n_seq, beh_sf[None, :])[0]
        plans_nf.append(x)
        plans_sf.append(x_sf)
        live = reach > 1e-9
        max_diff.append(float(np.max(np.abs(beh - beh_sf)[live], initial=0.0)))
        order = np.argsort(-mixed[pl])[:top]
        out_players.append({
            "pure_strategies": nf.num_strategies[pl], "sequences": n_seq,
            "information_sets": len(nf.infosets[pl]),
            "support": int((mixed[pl] > 1e-9).sum()),
            "top_mixed": [{"probability": round(float(mixed[pl][i]), 6),
                           "strategy": nf.label(pl, int(i))} for i in order
                          if mixed[pl][i] > 1e-9],
            "realisation_equivalent": bool(np.allclose(x_back, x, atol=1e-9)),
            "behaviour": {str(cg.infoset_keys[i]): [round(float(b), 6) for b in beh[
                int(cg.infoset_offset[i]):int(cg.infoset_offset[i + 1])]]
                for i in _player_infosets(cg, pl)},
        })
    x_nf, y_nf = plans_nf
    x_sf, y_sf = plans_sf
    X, Y = nf.plans
    # each form's equilibrium, evaluated against the other form's: the best responses
    br0_vs_sf = float(np.max(X @ (A @ y_sf)))       # player 0's best pure reply to SF's y
    br1_vs_sf = float(np.min((x_sf @ A) @ Y.T))     # player 1's best pure reply to SF's x
    br0_vs_nf = float(np.max(X @ (A @ y_nf)))
    br1_vs_nf = float(np.min((x_nf @ A) @ Y.T))
    return {
        "game": nf.game_name,
        "normal_form": {"pure_strategies": list(nf.num_strategies),
                        "matrix_entries": int(nf.payoff.size), "value": v_nf},
        "sequence_form": {"sequences": list(nf.num_sequences),
                          "payoff_nonzeros": int(A.nnz), "value": lp.game_value},
        "value_difference": abs(v_nf - lp.game_value),
        "nf_behaviour_vs_sf": float(x_nf @ (A @ y_sf)),
        "exploitability": {
            "normal_form_solution": (br0_vs_nf - br1_vs_nf) / 2,
            "sequence_form_solution": (br0_vs_sf - br1_vs_sf) / 2},
        "max_behaviour_difference": max_diff,
        "players": out_players,
        "units": {"value": "chips (player 0)", "exploitability": "chips per game"},
    }
