"""Outside agents: any bot against pokerlab's without patching the registry.

Two ways to name one in an agent spec (``pokerlab match``, ``lbr``, ``league``, ``play``
and their Python functions, which also take agent objects directly):

* ``python:MODULE:FACTORY`` -- ``FACTORY`` (a function or class) of the importable module
  ``MODULE`` (``python:mybots.simple:make_bot``);
* the name of an entry point of the ``pokerlab.agents`` group (``importlib.metadata``), as
  a package declares it in its ``pyproject.toml``::

      [project.entry-points."pokerlab.agents"]
      mybot = "mybots.simple:make_bot"

The factory is called with the keywords it accepts among ``game`` (the game kind:
``"hunl"``, ``"leduc"``, ...), ``config`` (the HUNL table,
:class:`pokerlab.holdem.engine.HoldemConfig`, or ``None``) and ``seed``.  It returns an
agent: ``act(view) -> Action`` is required (:class:`pokerlab.agents.base.Agent`);
``reset(seed)`` is called before every hand when present; ``action_probabilities(view)``
(or ``action_probabilities_all_hands``) makes LBR and AIVAT possible; an optional
``counters()`` returning a dict of numbers (the bot's own status counts) is read after every
chunk of a match and summed over the worker processes into the result's ``counters``.

Worker processes rebuild an outside agent from its spec, so ``MODULE`` must be importable
there too (installed, or on ``sys.path``: spawned workers inherit the parent's path).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from pokerlab.errors import AgentError

ENTRY_POINT_GROUP = "pokerlab.agents"


def entry_point(name: str) -> Any:
    """The ``pokerlab.agents`` entry point called ``name``, or ``None``."""
    from importlib.metadata import entry_points

    try:
        eps = entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # noqa: BLE001 - broken metadata of some package: no entry points
        return None
    for ep in eps:
        if ep.name == name:
            return ep
    return None


def entry_point_names() -> list[str]:
    """Names of the installed ``pokerlab.agents`` entry points."""
    from importlib.metadata import entry_points

    try:
        return sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    except Exception:  # noqa: BLE001
        return []


def load_factory(spec: str) -> Callable[..., Any]:
    """The factory a ``python:MODULE:FACTORY`` spec or an entry-point name names."""
    s = spec.strip()
    if s.lower().startswith("python:"):
        parts = s.split(":")
        if len(parts) != 3 or not parts[1] or not parts[2]:
            raise AgentError(f"agent spec {spec!r}: write python:MODULE:FACTORY "
                             "(e.g. python:mybots.simple:make_bot)")
        module, attr = parts[1], parts[2]
        try:
            mod = importlib.import_module(module)
        except ImportError as exc:
            raise AgentError(f"agent {spec!r}: cannot import module {module!r} ({exc})") from None
        except Exception as exc:  # noqa: BLE001 - the outside module's own error, one line
            raise AgentError(f"agent {spec!r}: importing {module!r} failed: "
                             f"{type(exc).__name__}: {exc}") from None
        fn = mod
        for part in attr.split("."):
            fn = getattr(fn, part, None)  # type: ignore[assignment]
            if fn is None:
                raise AgentError(f"agent {spec!r}: module {module!r} has no {attr!r}")
    else:
        ep = entry_point(s)
        if ep is None:
            raise AgentError(f"unknown agent {spec!r}: no {ENTRY_POINT_GROUP!r} entry point "
                             f"of that name")
        try:
            fn = ep.load()
        except Exception as exc:  # noqa: BLE001
            raise AgentError(f"agent {spec!r}: loading entry point {ep.value!r} failed: "
                             f"{type(exc).__name__}: {exc}") from None
    if not callable(fn):
        raise AgentError(f"agent {spec!r}: {fn!r} is not callable")
    return fn  # type: ignore[return-value]


def _call_factory(fn: Callable[..., Any], spec: str, **kw: Any) -> Any:
    try:
        sig = inspect.signature(fn)
        if any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
            args = kw
        else:
            args = {k: v for k, v in kw.items() if k in sig.parameters}
    except (TypeError, ValueError):  # a builtin without a signature
        args = {}
    try:
        return fn(**args)
    except Exception as exc:  # noqa: BLE001 - the outside factory's own error, one line
        raise AgentError(f"agent {spec!r}: the factory failed: {type(exc).__name__}: "
                         f"{exc}") from None


class _Resettable:
    """An outside agent without ``reset``: everything forwarded, ``reset`` does nothing."""

    def __init__(self, agent: Any) -> None:
        self._agent = agent

    def reset(self, seed: int) -> None:
        pass

    def counters(self) -> dict[str, Any]:
        """The bot's own ``counters()`` when it has one, else none."""
        fn = getattr(self._agent, "counters", None)
        return dict(fn()) if callable(fn) else {}

    def __getattr__(self, name: str) -> Any:
        if name == "_agent":
            raise AttributeError(name)
        return getattr(self._agent, name)


def check_agent(agent: Any, name: str) -> Any:
    """``agent`` if it can play (``act``), with a no-op ``reset`` added when it has none."""
    if not callable(getattr(agent, "act", None)):
        raise AgentError(f"agent {name!r}: {type(agent).__name__} has no act(view) method")
    if not callable(getattr(agent, "reset", None)):
        agent = _Resettable(agent)
    return agent


def build_outside(spec: str, *, game: str = "hunl", config: Any = None, seed: int = 0) -> Any:
    """The agent of an outside spec (see the module docstring), named by the spec unless
    it has a ``name``."""
    fn = load_factory(spec)
    agent = check_agent(_call_factory(fn, spec, game=game, config=config, seed=seed), spec)
    if not isinstance(getattr(agent, "name", None), str):
        try:
            agent.name = spec.strip()
        except AttributeError:
            pass
    return agent
