"""Policies: the one exchange type between solvers, agents and evaluation.

* :class:`Policy` -- abstract; ``action_probabilities(state) -> {action: prob}``.
* :class:`TabularPolicy` -- information-state string -> probabilities over legal actions.
* :class:`IndexedPolicy` -- float32 rows addressed by (betting-tree node, card bucket).
* :func:`save_policy` / :func:`load_policy` -- versioned, checksummed ``.npz`` (no pickle);
  ``save_policy`` writes either kind, :func:`load_any_policy` reads either kind.
"""

from pokerlab.policy.base import FirstActionPolicy, Policy, UniformRandomPolicy
from pokerlab.policy.files import save_policy
from pokerlab.policy.indexed import IndexedPolicy, load_any_policy
from pokerlab.policy.tabular import (
    FORMAT_VERSION,
    PolicyLookupError,
    TabularPolicy,
    load_policy,
)

__all__ = [
    "FORMAT_VERSION",
    "FirstActionPolicy",
    "IndexedPolicy",
    "Policy",
    "PolicyLookupError",
    "TabularPolicy",
    "UniformRandomPolicy",
    "load_any_policy",
    "load_policy",
    "save_policy",
]
