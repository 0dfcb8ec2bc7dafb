"""Opponent modelling and safe exploitation (see docs/exploitation.md).

* :mod:`~pokerlab.opponents.models` -- built-in models and specs (an opponent model is a
  :class:`~pokerlab.policy.Policy`);
* :mod:`~pokerlab.opponents.estimate` -- models estimated from observations (Dirichlet prior);
* :mod:`~pokerlab.opponents.response` -- best response to a model, restricted Nash response
  (LP and CFR), data-biased response, node locking, the trade-off curves;
* :mod:`~pokerlab.opponents.safe` -- safe exploitation in repeated play (RWYWE);
* :mod:`~pokerlab.opponents.pushfold_exploit` -- the same for heads-up push/fold.
"""

from pokerlab.opponents.estimate import Observation, ObservedModel, sample_observations
from pokerlab.opponents.models import action_kinds, load_model
from pokerlab.opponents.response import (
    Response,
    best_response_to_model,
    data_biased_response,
    locked_response,
    mixture_curve,
    response_curve,
    restricted_response,
)

__all__ = [
    "ObservedModel",
    "Observation",
    "Response",
    "action_kinds",
    "best_response_to_model",
    "data_biased_response",
    "load_model",
    "locked_response",
    "mixture_curve",
    "response_curve",
    "restricted_response",
    "sample_observations",
]
