"""Saving a policy of either kind: :func:`save_policy` (tabular or indexed ``.npz``).

Above both :mod:`pokerlab.policy.tabular` and :mod:`pokerlab.policy.indexed` (the indexed
format builds on the tabular one's archive checks), so neither imports the other back.
"""

from __future__ import annotations

import os

from pokerlab.policy.base import Policy
from pokerlab.policy.indexed import IndexedPolicy, save_indexed_policy
from pokerlab.policy.tabular import save_tabular_policy


def save_policy(policy: Policy, path: str | os.PathLike[str]) -> None:
    """Write ``policy`` to ``path`` (``.npz``: versioned, sha256-checksummed, no pickle).

    The write is atomic: ``path`` is either the old file or the complete new one.
    """
    if isinstance(policy, IndexedPolicy):
        save_indexed_policy(policy, path)
        return
    save_tabular_policy(policy, path)
