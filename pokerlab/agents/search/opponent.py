"""The search agent's model of its opponent: one :class:`OpponentModel` protocol, three
implementations chosen from the config (:func:`opponent_model`):

* :class:`FixedModel` (``tilt=0``): the base policy, or ``model=``; nothing is learned;
* :class:`TiltLearner` (``tilt=1``, the default): the frequency model
  :class:`~pokerlab.agents.tilt_model.TiltModel` learned from every finished hand (the
  opponent's decisions counted per situation, the tilt refitted when due); its confident
  situations are locked in the subgames and ``verify`` trusts it street by street;
* :class:`DirichletLearner` (``learn=N``): every ``N`` hands the model becomes the
  Dirichlet posterior mean around the prior (the ``model=`` policy, else the base;
  :func:`~pokerlab.agents.adapt_hunl.posterior`, strength :data:`LEARN_STRENGTH`).

A learner starts from its prior again with every match (``start_match``)."""

from __future__ import annotations

import copy
from typing import Any, Protocol

import numpy as np

from pokerlab.errors import AgentError
from pokerlab.holdem.view import PlayerView

LEARN_STRENGTH = 1.0
"""Prior strength (pseudo-observations per node and bucket) of the learned opponent model,
as ``pokerlab opponent model`` (docs/exploitation.md)."""


class OpponentModel(Protocol):
    """What the search agent asks of its opponent model."""

    learns: bool
    """Whether finished hands change it (the agent then has ``end_hand``)."""
    model: Any
    """The agent it starts from (``model=`` or the base; once learned, the posterior)."""

    def range_model(self) -> Any:
        """What the opponent's range is tracked through (``None``: the base policy)."""

    def lock_model(self) -> Any:
        """What ``lock=1`` fixes the opponent's subgame decisions to."""

    def confident(self) -> set[int]:
        """The situation classes locked to the model in every subgame (``tilt_lock``)."""

    def trusted(self, street: int) -> bool:
        """Whether the model has seen enough on ``street`` to be played against unsafely."""

    def start_match(self) -> None:
        """Forget the opponent."""

    def end_hand(self, view: PlayerView) -> bool:
        """Learn from a finished hand; ``True`` when the model was refitted."""


class _WholeModel:
    """Shared by the models that trust all of ``self.model``: the lock follows it, and
    no action is singled out as confidently learned."""

    model: Any

    def lock_model(self) -> Any:
        return self.model

    def confident(self) -> set[int]:
        return set()

    def trusted(self, street: int) -> bool:
        return True


class FixedModel(_WholeModel):
    """The base policy or ``model=``: nothing is learned (``tilt=0``)."""

    learns = False

    def __init__(self, model: Any, *, given: bool) -> None:
        self.model = model
        self.given = given

    def range_model(self) -> Any:
        return self.model if self.given else None

    def start_match(self) -> None:
        return None

    def end_hand(self, view: PlayerView) -> bool:
        return False


class TiltLearner:
    """The frequency model learned in the match (``tilt=1``)."""

    learns = True

    def __init__(self, model: Any, *, min_obs: int, tilt_lock: float, verify: bool) -> None:
        from pokerlab.agents.tilt_model import TiltModel

        self.model = model
        self.tilt = TiltModel(model, min_obs=min_obs, lock_theta=tilt_lock if tilt_lock > 0 else 50.0)
        self.verify = verify

    def range_model(self) -> Any:
        return self.tilt

    def lock_model(self) -> Any:
        return self.tilt

    def confident(self) -> set[int]:
        return {c for c in range(self.tilt.theta.shape[0]) if self.tilt.confident(c)}

    def trusted(self, street: int) -> bool:
        """At least ``tilt_obs`` of the opponent's decisions on ``street`` (0 preflop .. 3
        river) with nothing to call and as many facing a bet, or four times as many of each
        over all streets (the tilt of a street then leans on the others',
        :meth:`~pokerlab.agents.tilt_model.TiltModel.refit`); always without ``verify``."""
        tm = self.tilt
        if not self.verify:
            return True
        n, m = tm.counts, tm.min_obs
        own = n[3 * street] >= m and n[3 * street + 1] >= m
        pooled = tm.level_count(0) >= 4 * m and tm.level_count(1) >= 4 * m
        return bool(own or pooled)

    def start_match(self) -> None:
        self.tilt.start_match()

    def end_hand(self, view: PlayerView) -> bool:
        """Count the opponent's decisions; refit when due (every 5 hands at first, then less
        often: :meth:`~pokerlab.agents.tilt_model.TiltModel.due`)."""
        self.tilt.observe_hand(view)
        if self.tilt.due():
            self.tilt.refit()
            return True
        return False


class DirichletLearner(_WholeModel):
    """The Dirichlet posterior around the prior, refitted every ``every`` hands
    (``learn=N``): the opponent's actions of every finished hand are counted in the prior's
    tree (:func:`~pokerlab.agents.adapt_hunl.observe_opponent`, hole cards where shown)."""

    learns = True

    def __init__(self, prior: Any, *, given: bool, every: int) -> None:
        if not getattr(prior, "indexed", False) or \
                getattr(getattr(prior, "policy", None), "storage", "dense") != "dense":
            raise AgentError(f"search: learn={every} needs an opponent model over a "
                             "dense indexed (blueprint) policy to learn into; "
                             f"{getattr(prior, 'name', prior)!r} is not one")
        self.prior = prior
        self.given = given
        self.every = every
        self.start_match()

    def start_match(self) -> None:
        """The model is the prior again; no observations."""
        from pokerlab.agents.adapt_hunl import HUNLObservations

        self.obs = HUNLObservations.empty("opponent", self.prior)
        self.hands = 0
        self.model = self.prior
        self.learned = False

    def range_model(self) -> Any:
        return self.model if (self.learned or self.given) else None

    def end_hand(self, view: PlayerView) -> bool:
        from pokerlab.agents.adapt_hunl import observe_opponent

        observe_opponent(self.obs, self.prior, view)
        self.hands += 1
        if self.hands % self.every == 0:
            self.refit()
            return True
        return False

    def refit(self) -> None:
        """The model becomes the posterior of the counts so far (a copy of the prior's
        agent with its own policy; the prior is never changed)."""
        from pokerlab.agents.adapt_hunl import posterior, with_policy

        pol = copy.copy(self.prior.policy)
        pol.probs = np.ascontiguousarray(posterior(self.prior, self.obs, LEARN_STRENGTH), dtype=np.float32)
        self.model = with_policy(self.prior, pol, f"{getattr(self.prior, 'name', 'model')}-learned")
        self.learned = True


def opponent_model(config: Any, base: Any, model: Any) -> FixedModel | TiltLearner | DirichletLearner:
    """The opponent model ``config`` (a :class:`~pokerlab.agents.search.config.SearchConfig`)
    asks for: over ``model`` (an agent; ``None``: the base policy ``base``)."""
    o = config.opponent
    prior = base if model is None else model
    if o.learn:
        return DirichletLearner(prior, given=model is not None, every=o.learn)
    if o.tilt:
        return TiltLearner(prior, min_obs=o.tilt_obs, tilt_lock=o.tilt_lock, verify=config.safety.verify)
    return FixedModel(prior, given=model is not None)
