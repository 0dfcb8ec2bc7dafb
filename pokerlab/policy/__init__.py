"""Policies: the one exchange type between solvers, agents and evaluation.

* :class:`Policy` -- abstract; ``action_probabilities(state) -> {action: prob}``.
* :class:`TabularPolicy` -- information-state string -> probabilities over legal actions.
* :func:`save_policy` / :func:`load_policy` -- versioned, checksummed ``.npz`` (no pickle).
"""

from pokerlab.policy.base import FirstActionPolicy, Policy, UniformRandomPolicy
from pokerlab.policy.tabular import (
    FORMAT_VERSION,
    PolicyLookupError,
    TabularPolicy,
    load_policy,
    save_policy,
)

__all__ = [
    "FORMAT_VERSION",
    "FirstActionPolicy",
    "Policy",
    "PolicyLookupError",
    "TabularPolicy",
    "UniformRandomPolicy",
    "load_policy",
    "save_policy",
]
