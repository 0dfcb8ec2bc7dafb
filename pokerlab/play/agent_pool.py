"""The agents of the play tables: which specs a page may choose, their league strength,
and HUNL agents whose policy is loaded once per process and shared read-only.

* :func:`offered_specs` -- the HUNL agent specs of :data:`pokerlab.registry.HUNL_SPECS`
  that a page may ask for: every spec without a placeholder argument (``policy:PATH`` is
  never offered: a page cannot make the server read a file), the shipped-policy specs
  (``blueprint``, ``thesis``) only when their file is installed, and ``blueprint-N`` for
  every further shipped blueprint (``blueprint-200``: the one whose stack the default
  ``blueprint`` file is not).  A spec added to the registry appears here without any
  change to the play package.
* :func:`strengths` -- what the league of docs/evaluation.md measured for each spec
  (``league.json`` next to this module), shown as a tooltip in the agent menu.
* :func:`session_agent` -- a session's own agent.  Agents that play a saved policy
  (:class:`~pokerlab.agents.policy_agent.HUNLPolicyAgent`, the thesis agent) are built once
  per (spec, table) and each session gets a shallow copy with its own random stream: the
  policy arrays, the betting tree and the card abstraction are shared (and marked
  read-only), so an extra session costs kilobytes, not the policy's megabytes.  Every
  other agent is built fresh for each session.
"""

from __future__ import annotations

import copy
import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

_LOCK = threading.Lock()
_PROTOTYPES: dict[tuple[Any, ...], Any] = {}
LEAGUE_FILE = Path(__file__).parent / "league.json"


def offered_specs() -> tuple[str, ...]:
    """The HUNL agent specs a page may choose (see the module docstring)."""
    from pokerlab.registry import (
        BLUEPRINT_FILES,
        HUNL_SPECS,
        THESIS_FILES,
        shipped_blueprints,
        shipped_policy,
    )

    out = []
    for spec in HUNL_SPECS:
        if any(ch.isupper() for ch in spec):  # a placeholder (policy:PATH): a file or a
            continue                            # choice a page cannot make
        if spec == "blueprint":  # the default file, then the other stacks' blueprints
            default = shipped_policy(BLUEPRINT_FILES)
            if default is not None:
                out.append(spec)
            out += [f"blueprint-{bb:g}" for bb, path in sorted(shipped_blueprints().items())
                    if path != default]
            continue
        if spec == "thesis" and shipped_policy(THESIS_FILES) is None:
            continue
        out.append(spec)
    return tuple(out)


@lru_cache(maxsize=1)
def _league() -> dict[str, Any]:
    try:
        doc = json.loads(LEAGUE_FILE.read_text())
    except (OSError, json.JSONDecodeError):
        return {}
    return doc if isinstance(doc, dict) else {}


def strengths(specs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """A one-line league summary for each spec the league measured (others are absent)."""
    doc = _league()
    agents = doc.get("agents", {})
    out = {}
    for spec in specs:
        a = agents.get(spec)
        if not isinstance(a, dict):
            continue
        text = (f"league ({doc.get('date', '')}, {doc.get('stack', 100)} bb): average "
                f"{a['average']:+,} mbb/hand against the other {len(agents) - 1}")
        if "lbr" in a:
            text += f"; LBR-fc {a['lbr'][0]:+,} \u00b1 {a['lbr'][1]:,} mbb/hand"
        if "rank" in a:
            text += f"; rank {a['rank']} of {len(agents)}"
        out[spec] = text
    return out


def _shareable(agent: Any) -> bool:
    from pokerlab.agents.policy_agent import HUNLPolicyAgent
    from pokerlab.agents.thesis import ThesisAgent

    return isinstance(agent, (HUNLPolicyAgent, ThesisAgent))


def _freeze(agent: Any) -> None:
    """Mark the shared policy's arrays read-only (a session that wrote to them would
    change every other session's agent; now it raises instead)."""
    import numpy as np

    inner = getattr(agent, "inner", agent)
    for obj in (getattr(inner, "policy", None), getattr(inner, "tree", None)):
        if obj is None:
            continue
        for value in vars(obj).values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)


def _copy(proto: Any, seed: int) -> Any:
    agent = copy.copy(proto)
    inner = getattr(proto, "inner", None)
    if inner is not None:  # the thesis agent wraps a policy agent (its own tracked hand;
        agent.inner = copy.copy(inner)  # the bucketer and the policy are shared)
    agent.reset(seed)
    return agent


def session_agent(spec: str, *, config: Any, seed: int) -> Any:
    """A session's HUNL agent for ``spec`` at the table ``config`` (see the module
    docstring: policy agents share one loaded policy)."""
    from pokerlab.registry import make_agent

    key = (spec.strip(), tuple(config.stacks), config.small_blind, config.big_blind,
           config.ante)
    with _LOCK:
        proto = _PROTOTYPES.get(key)
        if proto is None:
            agent = make_agent(spec, game="hunl", config=config, seed=seed)
            if not _shareable(agent) or not hasattr(agent, "reset"):
                return agent
            _freeze(agent)
            if len(_PROTOTYPES) >= 32:
                _PROTOTYPES.pop(next(iter(_PROTOTYPES)))
            _PROTOTYPES[key] = proto = agent
    return _copy(proto, seed)
