"""Exact values of a policy on a small game compiled to flat arrays: the policy's
probability for every (information set, action) slot, every player's expected value, and
exact best responses (numba passes of :mod:`pokerlab.games.pass_kernels`).

This sits below the evaluators and the agents, which both use it:
:mod:`pokerlab.evaluation.exploit` builds NashConv and exploitability on it, the adaptive
agent (:mod:`pokerlab.agents.adapt`) its safety budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.games import pass_kernels as tk
from pokerlab.games.compiled import CompiledGame, compile_game
from pokerlab.policy.base import Policy
from pokerlab.policy.tabular import PolicyLookupError, TabularPolicy

_PROB_TOL = 1e-6


def compiled(game: Any) -> CompiledGame:
    """``game`` compiled to flat arrays (a compiled game as it is)."""
    return game if isinstance(game, CompiledGame) else compile_game(game)


def policy_slot_probs(game: Any, policy: Policy) -> np.ndarray:
    """The policy's probability for every (information set, legal action) slot."""
    cg = compiled(game)
    out = np.zeros(cg.num_slots)
    offs = cg.infoset_offset
    acts = cg.infoset_actions
    tab = policy if isinstance(policy, TabularPolicy) else None
    for i, key in enumerate(cg.infoset_keys):
        lo, hi = int(offs[i]), int(offs[i + 1])
        legal = acts[lo:hi]
        if tab is not None and key in tab:
            t_acts = tab.legal_actions(key)
            t_probs = tab.probabilities(key)
            if t_acts.shape == legal.shape and np.array_equal(t_acts, legal):
                out[lo:hi] = t_probs
            else:
                d = dict(zip(t_acts.tolist(), t_probs.tolist(), strict=True))
                _fill(out, lo, legal, d, key)
        else:
            d = policy.action_probabilities(cg.representative[i])
            _fill(out, lo, legal, d, key)
        total = out[lo:hi].sum()
        if not abs(total - 1.0) <= _PROB_TOL or np.any(out[lo:hi] < -1e-12):
            raise PolicyLookupError(
                f"policy probabilities at {key!r} are not a distribution: "
                f"{out[lo:hi].tolist()} (sum {total!r})")
    return out


def _fill(out: np.ndarray, lo: int, legal: np.ndarray, d: dict[int, float], key: str) -> None:
    legal_list = legal.tolist()
    extra = set(d) - set(legal_list)
    if any(d[a] > 0 for a in extra):
        raise PolicyLookupError(
            f"policy gives probability to illegal actions {sorted(extra)} at {key!r}")
    for k, a in enumerate(legal_list):
        out[lo + k] = float(d.get(a, 0.0))


def expected_values(game: Any, policy: Policy | np.ndarray) -> np.ndarray:
    """Expected return of every player when all play ``policy`` (chips)."""
    cg = compiled(game)
    sp = policy if isinstance(policy, np.ndarray) else policy_slot_probs(cg, policy)
    v = tk.values_kernel(cg.kind, cg.child_start, cg.child_count, cg.children, cg.edge_prob,
                         cg.edge_slot, sp, cg.utility)
    return np.asarray(v[0], dtype=np.float64)


@dataclass(frozen=True, kw_only=True)
class BestResponse:
    """A best response of ``player``: its value and a deterministic tabular policy."""

    player: int
    value: float
    policy: TabularPolicy


def best_response_choice(cg: CompiledGame, sp: np.ndarray, player: int) -> tuple[float, np.ndarray]:
    reach = tk.reach_kernel(cg.kind, cg.player, cg.child_start, cg.child_count, cg.children,
                            cg.edge_prob, cg.edge_slot, sp, cg.num_players)
    value, choice = tk.best_response_kernel(
        cg.kind, cg.player, cg.infoset, cg.child_start, cg.child_count, cg.children,
        cg.edge_prob, cg.edge_slot, sp, cg.utility, reach, cg.infoset_player,
        cg.infoset_offset, cg.infoset_depth, player)
    return float(value), choice


def best_response(game: Any, policy: Policy | np.ndarray, player: int) -> BestResponse:
    """Exact best response of ``player`` against the other players' part of ``policy``."""
    cg = compiled(game)
    if not 0 <= player < cg.num_players:
        raise PolicyLookupError(f"player {player!r} out of range for {cg.game_name!r}")
    sp = policy if isinstance(policy, np.ndarray) else policy_slot_probs(cg, policy)
    value, choice = best_response_choice(cg, sp, player)
    rows = []
    for i, key in enumerate(cg.infoset_keys):
        if cg.infoset_player[i] != player:
            continue
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        probs = np.zeros(hi - lo)
        if choice[i] >= 0:
            probs[int(choice[i]) - lo] = 1.0
        else:  # unreachable set, never decided: any action is a best response
            probs[0] = 1.0
        rows.append((key, cg.infoset_actions[lo:hi], probs))
    return BestResponse(player=player, value=value, policy=TabularPolicy.from_rows(rows))


def best_response_values(game: Any, policy: Policy | np.ndarray) -> np.ndarray:
    """Best-response value of every player against ``policy``."""
    cg = compiled(game)
    sp = policy if isinstance(policy, np.ndarray) else policy_slot_probs(cg, policy)
    return np.array([best_response_choice(cg, sp, p)[0] for p in range(cg.num_players)])
