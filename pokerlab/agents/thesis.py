"""The agent of a thesis policy (``pokerlab blueprint train --preset thesis``): a
:class:`~pokerlab.agents.policy_agent.HUNLPolicyAgent` whose card bucket is the
starting-hand class on every street.  Built by the registry for ``policy:PATH`` when the
file's metadata says ``card_key: preflop_class``; the trainer is :mod:`pokerlab.blueprint.thesis`.
"""

from __future__ import annotations

import json
import os
from typing import Any

from pokerlab.errors import PokerlabError

CARD_KEY = "preflop_class"
"""``card_key`` in a thesis policy's metadata."""


def hand_class(c1: int, c2: int) -> int:
    """The starting-hand class 0..168 (grid order of :data:`pokerlab.cards.cards.CLASS_NAMES`)."""
    from pokerlab.agents.policy_agent import PreflopClassBucketer

    return PreflopClassBucketer().bucket(0, (int(c1), int(c2)), ())


class ThesisAgent:
    """Plays a thesis policy: a :class:`~pokerlab.agents.policy_agent.HUNLPolicyAgent` with
    the starting-hand class on every street as its card bucket
    (:class:`~pokerlab.agents.policy_agent.PreflopClassBucketer`: no board information, no
    match-kernel form, so matches play it hand by hand)."""

    def __init__(self, policy: Any, game: Any, *, name: str = "thesis", seed: int = 0) -> None:
        from pokerlab.agents.policy_agent import HUNLPolicyAgent, PreflopClassBucketer

        self.inner = HUNLPolicyAgent(policy, game, name=name, seed=seed,
                                     bucketer=PreflopClassBucketer())
        self.name = name

    def reset(self, seed: int) -> None:
        self.inner.reset(seed)

    def act(self, view: Any) -> Any:
        return self.inner.act(view)

    def action_probabilities(self, view: Any) -> list[tuple[Any, float]]:
        return self.inner.action_probabilities(view)


def is_thesis_policy(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is an indexed policy whose metadata says ``card_key:
    preflop_class`` (reads the header only)."""
    from pokerlab.policy.indexed import read_archive

    try:
        _, header, _ = read_archive(path)
        meta = json.loads(header.get("metadata", "{}"))
    except (PokerlabError, json.JSONDecodeError, TypeError):
        return False
    return isinstance(meta, dict) and meta.get("card_key") == CARD_KEY


def load_thesis_agent(path: str | os.PathLike[str], *, name: str = "thesis",
                      seed: int = 0) -> ThesisAgent:
    from pokerlab.games import load_game
    from pokerlab.policy.indexed import load_indexed_policy

    pol = load_indexed_policy(path)
    return ThesisAgent(pol, load_game(str(pol.metadata["game"])), name=name, seed=seed)
