"""Agents: anything that plays heads-up no-limit hold'em (or a small game) from its own view.

* :mod:`pokerlab.agents.base` -- :class:`PlayerView`, typed events, the :class:`Agent`
  protocol.
* :mod:`pokerlab.agents.rules` -- ``random``, ``call``, ``raise``, ``tag``, ``pushfold``.
* :mod:`pokerlab.agents.policy_agent` -- ``policy:PATH`` / ``blueprint`` over an action
  abstraction, and the small-game agents.
* :mod:`pokerlab.agents.shipped` -- the shipped blueprint and thesis policies.
* :mod:`pokerlab.agents.thesis` -- the agent of a thesis policy.

Agent specs become agents in :mod:`pokerlab.registry` (:func:`~pokerlab.registry.make_agent`),
the composition root above the applications, which wires each agent with what it needs.

See docs/agents.md.
"""

from __future__ import annotations

from pokerlab.agents import base
from pokerlab.agents.base import *  # noqa: F403 - the package re-exports the agent layer's types

__all__ = [*base.__all__]
