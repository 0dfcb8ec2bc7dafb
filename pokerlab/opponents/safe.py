"""Safe opponent exploitation in repeated play (Ganzfried & Sandholm 2015, "Safe opponent
exploitation", ACM TEAC 3(2)): exploit only as much as has been won beyond the game value.

The agent keeps a budget ``k`` (chips), starting at 0.  Before each hand it plays, in its
seat ``s``, the restricted Nash response ``RNR(p)`` to its opponent model with the largest
``p`` on a grid whose worst-case value in that seat is at least ``v*_s - k`` (``v*_s`` the
seat's game value); with ``k = 0`` this is the best *equilibrium* against the model, so
whatever the opponent gives away is banked first.  After the hand the budget moves by the
hand's value in the sense of the paper's "risk what you've won in expectation" (RWYWE):

    k <- k + u_s(sigma_t, tau_hat_t) - v*_s

where ``tau_hat_t`` is the opponent's *worst case for us among the pure strategies that
agree with every action it was seen to take this hand* (an exact constrained best
response).  Luck does not enter ``k`` (it is an expectation over chance and our own
randomisation), so ``k >= 0`` always, and the sum of the hands' expected values against the
opponent's actual pure strategies is at least the sum of the seats' game values: safe.

Observation model (documented deviation): the opponent's private cards are revealed after
every hand (a full-information log, as in the paper's Kuhn experiments).  With hidden
cards the consistent set is a union over the possible cards; not implemented here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.agents.adapt import combine_slots, player_mask
from pokerlab.agents.adapt_kernels import constrained_best_response_value
from pokerlab.errors import ConfigError
from pokerlab.evaluation.exploit import expected_values
from pokerlab.games.compiled import KIND_CHANCE, KIND_DECISION, KIND_TERMINAL, CompiledGame
from pokerlab.policy.base import Policy

from .response import compiled_game, model_slots, restricted_response

DEFAULT_GRID = tuple(np.round(np.linspace(0.0, 1.0, 21), 10).tolist())


@dataclass
class SafeExploiter:
    """The RWYWE safe exploiter for a two-player zero-sum small game (see module docs)."""

    game: Any
    model: Policy | np.ndarray
    grid: Sequence[float] = DEFAULT_GRID
    budget: float = 0.0
    _cg: CompiledGame = field(init=False, repr=False)
    _seat_slots: list[list[np.ndarray]] = field(init=False, repr=False)
    _seat_worst: np.ndarray = field(init=False, repr=False)
    game_values: tuple[float, float] = field(init=False)

    def __post_init__(self) -> None:
        self._cg = compiled_game(self.game)
        ps = sorted(float(p) for p in self.grid)
        if not ps or ps[0] != 0.0 or any(not 0.0 <= p <= 1.0 for p in ps):
            raise ConfigError("the p grid must lie in [0, 1] and start at 0")
        self.grid = ps
        msp = model_slots(self._cg, self.model)
        resp = [restricted_response(self._cg, msp, p) for p in ps]
        self._seat_slots = [[r.slot_probs for r in resp], [r.slot_probs for r in resp]]
        worst = np.zeros((2, len(ps)))
        for j, r in enumerate(resp):
            for seat in (0, 1):
                worst[seat, j] = -constrained_best_response_value(
                    self._cg, r.slot_probs, 1 - seat, {})
        self._seat_worst = worst
        v0 = float(worst[0, 0])
        self.game_values = (v0, -v0)

    def choose(self, seat: int) -> tuple[float, np.ndarray]:
        """``(p, slot probabilities)`` of the strategy to play now in ``seat``."""
        need = self.game_values[seat] - self.budget - 1e-12
        ok = [j for j in range(len(self.grid)) if self._seat_worst[seat, j] >= need]
        j = max(ok) if ok else 0
        return self.grid[j], self._seat_slots[seat][j]

    def update(self, seat: int, slots: np.ndarray, observed: dict[int, int]) -> float:
        """Move the budget after a hand; ``observed`` maps the opponent's information sets
        on the hand's path to the slot it chose.  Returns the increment."""
        worst = -constrained_best_response_value(self._cg, slots, 1 - seat, observed)
        inc = worst - self.game_values[seat]
        self.budget += inc
        return inc


def sample_pure(cg: CompiledGame, slots: np.ndarray, player: int,
                rng: np.random.Generator) -> np.ndarray:
    """A pure strategy of ``player`` drawn from the behaviour strategy ``slots``."""
    out = slots.copy()
    for i in range(cg.num_infosets):
        if cg.infoset_player[i] != player:
            continue
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        pr = np.maximum(slots[lo:hi], 0.0)
        k = int(rng.choice(hi - lo, p=pr / pr.sum()))
        out[lo:hi] = 0.0
        out[lo + k] = 1.0
    return out


def play_hand(cg: CompiledGame, slots: np.ndarray, rng: np.random.Generator
              ) -> tuple[np.ndarray, dict[int, int]]:
    """Sample one hand; returns the utilities and every decision made (infoset -> slot)."""
    h = 0
    seen: dict[int, int] = {}
    while cg.kind[h] != KIND_TERMINAL:
        s, cnt = int(cg.child_start[h]), int(cg.child_count[h])
        if cg.kind[h] == KIND_CHANCE:
            pr = cg.edge_prob[s:s + cnt]
        else:
            pr = np.array([slots[cg.edge_slot[e]] for e in range(s, s + cnt)])
        e = s + int(rng.choice(cnt, p=pr / pr.sum()))
        if cg.kind[h] == KIND_DECISION:
            seen[int(cg.infoset[h])] = int(cg.edge_slot[e])
        h = int(cg.children[e])
    return cg.utility[h].copy(), seen


Opponent = Callable[[int, int, list[np.ndarray]], np.ndarray]


@dataclass(frozen=True, kw_only=True)
class SessionResult:
    hands: int
    expected: np.ndarray        # per hand: our expected value vs the opponent's pure strategy
    realised: np.ndarray        # per hand: the chips actually won
    game_value: np.ndarray      # per hand: v*_seat
    budget: np.ndarray          # budget before each hand
    p: np.ndarray               # p played each hand

    @property
    def expected_total(self) -> float:
        return float(self.expected.sum())

    @property
    def game_value_total(self) -> float:
        return float(self.game_value.sum())


def fixed_opponent(cg: CompiledGame, slots: np.ndarray) -> Opponent:
    """An opponent that plays a fixed behaviour strategy (both seats' slots)."""
    def opp(t: int, seat: int, history: list[np.ndarray]) -> np.ndarray:
        return slots
    return opp


def adaptive_opponent(cg: CompiledGame, start: np.ndarray) -> Opponent:
    """An opponent that best-responds to our strategy of the previous hand (``start`` before)."""
    from pokerlab.evaluation.exploit import best_response

    def opp(t: int, seat: int, history: list[np.ndarray]) -> np.ndarray:
        if not history:
            return start
        br = best_response(cg, history[-1], 1 - seat)
        out = start.copy()
        idx = cg._index_map()
        for key in br.policy.keys():
            i = idx[key]
            lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
            out[lo:hi] = br.policy.probabilities(key)
        return out
    return opp


def run_session(game: Any, agent: SafeExploiter | np.ndarray, opponent: Opponent, hands: int,
                *, seed: int = 0) -> SessionResult:
    """Play ``hands`` hands, seats alternating (hand t: our seat t % 2).  ``agent`` is a
    :class:`SafeExploiter` or a fixed strategy (slot probabilities, e.g. an equilibrium)."""
    if hands < 1:
        raise ConfigError(f"hands must be >= 1, got {hands}")
    cg = compiled_game(game)
    rng = np.random.default_rng(seed)
    exp = np.zeros(hands)
    real = np.zeros(hands)
    gv = np.zeros(hands)
    bud = np.zeros(hands)
    ps = np.zeros(hands)
    played: list[np.ndarray] = []
    v0 = agent.game_values[0] if isinstance(agent, SafeExploiter) else \
        -constrained_best_response_value(cg, agent, 1, {})
    for t in range(hands):
        seat = t % 2
        if isinstance(agent, SafeExploiter):
            bud[t] = agent.budget
            p, mine = agent.choose(seat)
        else:
            p, mine = float("nan"), agent
        ps[t] = p
        opp_slots = sample_pure(cg, opponent(t, seat, played), 1 - seat, rng)
        joint = combine_slots(cg, mine, opp_slots, seat)
        exp[t] = float(expected_values(cg, joint)[seat])
        gv[t] = v0 if seat == 0 else -v0
        u, seen = play_hand(cg, joint, rng)
        real[t] = float(u[seat])
        if isinstance(agent, SafeExploiter):
            mask = player_mask(cg, 1 - seat)
            observed = {i: sl for i, sl in seen.items() if mask[sl]}
            agent.update(seat, mine, observed)
        played.append(mine)
    return SessionResult(hands=hands, expected=exp, realised=real, game_value=gv, budget=bud,
                         p=ps)
