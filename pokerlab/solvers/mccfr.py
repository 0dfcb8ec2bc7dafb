"""Monte Carlo CFR on the protocol: external sampling and outcome sampling (Lanctot et al.
2009), seeded.

Both walk :class:`~pokerlab.games.protocol.State` objects (no compilation), so they apply
to games too large to traverse fully.  Update rules follow OpenSpiel's
``ExternalSamplingSolver`` (simple averaging: the average strategy is accumulated at the
nodes of the player after the updating one) and ``OutcomeSamplingSolver`` (epsilon-greedy
exploration for the updating player, ``epsilon = 0.6`` by default, no baseline).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import State
from pokerlab.policy.tabular import TabularPolicy
from pokerlab.rng import sample_positive
from pokerlab.solvers.regret import regret_matching_py


@dataclass(frozen=True, kw_only=True)
class MCCFRConfig:
    sampling: str = "external"   # "external" or "outcome"
    epsilon: float = 0.6         # outcome sampling exploration
    seed: int = 0

    def __post_init__(self) -> None:
        if self.sampling not in ("external", "outcome"):
            raise ConfigError(f"sampling must be 'external' or 'outcome', got {self.sampling!r}")
        if not 0.0 < self.epsilon <= 1.0:
            raise ConfigError(f"epsilon must be in (0, 1], got {self.epsilon!r}")
        if self.seed < 0:
            raise ConfigError(f"seed must be >= 0, got {self.seed}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class _Info:
    __slots__ = ("actions", "regret", "avg")

    def __init__(self, actions: list[int]) -> None:
        self.actions = actions
        self.regret = [0.0] * len(actions)
        self.avg = [0.0] * len(actions)


def _rm(regret: list[float]) -> list[float]:
    """Regret matching on plain lists (games here have 2-3 actions per node)."""
    return regret_matching_py(regret, [0.0] * len(regret))  # type: ignore[no-any-return]


class MCCFRSolver:
    """External- or outcome-sampling MCCFR for n-player games given by the protocol."""

    _BATCH = 8192

    def __init__(self, *, game: Any, config: MCCFRConfig | None = None) -> None:
        self.game = game
        self.config = config or MCCFRConfig()
        if self.config.sampling not in ("external", "outcome"):
            raise ConfigError(
                f"sampling must be 'external' or 'outcome', got {self.config.sampling!r}")
        if not 0.0 < self.config.epsilon <= 1.0:
            raise ConfigError(f"epsilon must be in (0, 1], got {self.config.epsilon!r}")
        self.rng = np.random.default_rng(self.config.seed)
        self._uniforms: list[float] = []
        self._pos = 0
        self.num_players = int(game.num_players)
        self.infos: dict[str, _Info] = {}
        self.iteration = 0

    def _uniform(self) -> float:
        if self._pos >= len(self._uniforms):
            self._uniforms = self.rng.random(self._BATCH).tolist()
            self._pos = 0
        u = self._uniforms[self._pos]
        self._pos += 1
        return u

    def _sample(self, probs: list[float]) -> int:
        return sample_positive(probs, self._uniform() * sum(probs))

    def _info(self, key: str, state: State) -> _Info:
        info = self.infos.get(key)
        if info is None:
            info = self.infos[key] = _Info([int(a) for a in state.legal_actions()])
        return info

    def _chance(self, state: State) -> State:
        outcomes = state.chance_outcomes()
        idx = self._sample([p for _, p in outcomes])
        return state.child(outcomes[idx][0])

    def run(self, iterations: int) -> None:
        if iterations < 0:
            raise ConfigError(f"iterations must be >= 0, got {iterations!r}")
        for _ in range(iterations):
            for p in range(self.num_players):
                root = self.game.new_initial_state()
                if self.config.sampling == "external":
                    self._external(root, p)
                else:
                    self._outcome(root, p, 1.0, 1.0, 1.0)
            self.iteration += 1

    # -- external sampling -----------------------------------------------------------
    def _external(self, state: State, player: int) -> float:
        if state.is_terminal():
            return float(state.returns()[player])
        if state.is_chance_node():
            return self._external(self._chance(state), player)
        cur = state.current_player()
        info = self._info(state.information_state_string(cur), state)
        sigma = _rm(info.regret)
        n = len(info.actions)
        if cur != player:
            idx = self._sample(sigma)
            value = self._external(state.child(info.actions[idx]), player)
        else:
            child = [self._external(state.child(a), player) for a in info.actions]
            value = 0.0
            for k in range(n):
                value += sigma[k] * child[k]
            reg = info.regret
            for k in range(n):
                reg[k] += child[k] - value
        if cur == (player + 1) % self.num_players:
            avg = info.avg
            for k in range(n):
                avg[k] += sigma[k]
        return value

    # -- outcome sampling ------------------------------------------------------------
    def _outcome(self, state: State, player: int, my_reach: float, opp_reach: float,
                 sample_reach: float) -> float:
        if state.is_terminal():
            return float(state.returns()[player])
        if state.is_chance_node():
            return self._outcome(self._chance(state), player, my_reach, opp_reach, sample_reach)
        cur = state.current_player()
        info = self._info(state.information_state_string(cur), state)
        sigma = _rm(info.regret)
        n = len(info.actions)
        if cur == player:
            eps = self.config.epsilon
            sample = [eps / n + (1.0 - eps) * x for x in sigma]
        else:
            sample = sigma
        idx = self._sample(sample)
        if cur == player:
            nm, no = my_reach * sigma[idx], opp_reach
        else:
            nm, no = my_reach, opp_reach * sigma[idx]
        cv = self._outcome(state.child(info.actions[idx]), player, nm, no,
                           sample_reach * sample[idx])
        # importance-weighted child values: only the sampled one is non-zero
        sampled_value = cv / sample[idx]
        value = sigma[idx] * sampled_value
        if cur == player:
            w = opp_reach / sample_reach
            reg = info.regret
            avg = info.avg
            for k in range(n):
                ck = sampled_value if k == idx else 0.0
                reg[k] += (ck - value) * w
                avg[k] += my_reach * sigma[k] / sample_reach
        return value

    # -- results ---------------------------------------------------------------------
    def average_policy(self) -> TabularPolicy:
        """Average strategy; information sets never visited play uniformly."""
        rows = []
        for key, info in self.infos.items():
            tot = sum(info.avg)
            n = len(info.actions)
            probs = [x / tot for x in info.avg] if tot > 0 else [1.0 / n] * n
            rows.append((key, info.actions, probs))
        return TabularPolicy.from_rows(rows, missing="uniform", metadata=self._meta())

    def current_policy(self) -> TabularPolicy:
        rows = [(k, i.actions, _rm(i.regret)) for k, i in self.infos.items()]
        return TabularPolicy.from_rows(rows, missing="uniform", metadata=self._meta())

    def _meta(self) -> dict[str, Any]:
        return {"game": str(self.game.name), "algo": f"{self.config.sampling[:2]}-mccfr",
                "iterations": self.iteration, "config": self.config.to_json()}
