"""Agents: anything that plays heads-up no-limit hold'em (or a small game) from its own view.

* :mod:`pokerlab.agents.base` -- :class:`PlayerView`, typed events, the :class:`Agent`
  protocol.
* :mod:`pokerlab.agents.rules` -- ``random``, ``call``, ``raise``, ``tag``, ``pushfold``.
* :mod:`pokerlab.agents.policy_agent` -- ``policy:PATH`` / ``blueprint`` over an action
  abstraction, and the small-game agents.
* :mod:`pokerlab.agents.registry` -- agent specs to agents (:func:`make_agent`).
* :mod:`pokerlab.agents.thesis` -- the agent of a thesis policy.

See docs/agents.md.
"""

from __future__ import annotations

from pokerlab.agents import base
from pokerlab.agents.base import *  # noqa: F403 - the package re-exports the agent layer's types
from pokerlab.agents.registry import make_agent

__all__ = [*base.__all__, "make_agent"]
