"""Agents of the small protocol games (Kuhn, Leduc, 8-card): ``random`` and ``policy:FILE``.

They act on a protocol state using only ``state.information_state_string(player)`` (through
the policy) and ``state.legal_actions()``; draws come from a NumPy generator seeded by
:meth:`reset`, so a match is reproducible.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.agents.base import AgentError
from pokerlab.games.protocol import State
from pokerlab.policy.base import Policy, SeatPolicy

__all__ = ["SMALL_GAMES", "SeatPolicy", "SmallPolicyAgent", "SmallRandomAgent", "agent_policy"]

SMALL_GAMES = ("kuhn", "leduc", "eight_card")


class _Seeded:
    name: str

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def _draw(self, probs: dict[int, float]) -> int:
        acts = list(probs)
        p = np.array([max(0.0, float(probs[a])) for a in acts])
        total = p.sum()
        if total <= 0:
            raise AgentError(f"agent {self.name!r} has no positive action probability")
        u = self.rng.random() * total
        c = np.cumsum(p)
        k = int(np.searchsorted(c, u, side="right"))
        return int(acts[min(k, len(acts) - 1)])


class SmallRandomAgent(_Seeded):
    """``random``: uniform over the legal actions."""

    def __init__(self, *, name: str = "random", seed: int = 0) -> None:
        super().__init__(seed)
        self.name = name

    def action_probabilities_state(self, state: State, player: int) -> dict[int, float]:
        legal = state.legal_actions()
        return {a: 1.0 / len(legal) for a in legal}

    def act_state(self, state: State, player: int) -> int:
        return self._draw(self.action_probabilities_state(state, player))


class SmallPolicyAgent(_Seeded):
    """``policy:FILE``: samples from a saved :class:`~pokerlab.policy.Policy`."""

    def __init__(self, policy: Policy, *, name: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.policy = policy
        self.name = name

    def action_probabilities_state(self, state: State, player: int) -> dict[int, float]:
        if state.current_player() != player:
            raise AgentError(f"agent {self.name!r} asked to act for player {player}, but "
                             f"player {state.current_player()} is to act")
        return dict(self.policy.action_probabilities(state))

    def act_state(self, state: State, player: int) -> int:
        return self._draw(self.action_probabilities_state(state, player))


def agent_policy(agent: Any) -> Policy:
    """The policy a small-game agent samples from (uniform for ``random``)."""
    from pokerlab.policy.base import UniformRandomPolicy

    if isinstance(agent, SmallPolicyAgent):
        return agent.policy
    if isinstance(agent, SmallRandomAgent):
        return UniformRandomPolicy()
    raise AgentError(f"agent {getattr(agent, 'name', agent)!r} has no policy for exact values")
