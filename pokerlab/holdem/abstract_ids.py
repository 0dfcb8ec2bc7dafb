"""The abstract action ids of bet-set abstractions, shared by the action map that makes
them (:mod:`pokerlab.abstraction.action_map`) and the policies and range queries that read
them (:mod:`pokerlab.policy.range_query`), so neither imports the other."""

from __future__ import annotations

FOLD = 0
CALL = 1
RAISE0 = 2
"""Abstract id of the first raise (bet sets: size 0; identity: raise to 0 chips)."""
