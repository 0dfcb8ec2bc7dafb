"""Matches of agent specs: :func:`play_match` (what ``pokerlab match`` runs).

The match itself is :func:`pokerlab.evaluation.matches.run_match` (seats, seeds,
duplicate, the kernel fast path, worker chunks: see there); here the specs become agents
(:func:`spec_agent`, the factory every worker process calls), the small games get their
exact value, and hand histories are written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pokerlab.evaluation import matches as _core
from pokerlab.evaluation.matches import (  # noqa: F401 - the match names, as before
    MatchConfig,
    MatchResult,
    deal_index,
    game_kind,
    hand_cards,
    hand_seed,
    play_hunl_hand,
    play_small_hand,
    player_name,
)
from pokerlab.holdem.engine import HoldemConfig

_AGENTS: dict[tuple[str, str, str, int], Any] = {}


def spec_agent(spec: str, game: str, config: HoldemConfig | None, slot: int) -> Any:
    """The agent of ``spec`` for seat-label ``slot`` (0 = A, 1 = B), built once per process
    (agents are reset before every hand, so reuse does not change play); a policy file is
    rebuilt when it changes.  The :data:`~pokerlab.evaluation.matches.AgentFactory` of
    spec matches."""
    from pokerlab.registry import build_agent

    stamp = ""
    if spec.lower().startswith("policy:"):
        with contextlib.suppress(OSError):
            stamp = str(os.stat(spec.split(":", 1)[1]).st_mtime_ns)
    key = (spec + "@" + stamp, game, "" if config is None else repr(config), slot)
    ag = _AGENTS.get(key)
    if ag is None:
        if len(_AGENTS) > 16:
            _AGENTS.clear()
        ag = build_agent(spec, game=game, config=config)
        _AGENTS[key] = ag
    return ag


class ObjectFactory:
    """The :data:`~pokerlab.evaluation.matches.AgentFactory` of a match where A and/or B
    are agent objects given from Python (``objects[slot]``); the other seat's spec goes to
    :func:`spec_agent`.  Pickles with its objects for worker processes."""

    def __init__(self, objects: dict[int, Any]) -> None:
        self.objects = dict(objects)

    def __call__(self, spec: str, game: str, config: HoldemConfig | None, slot: int) -> Any:
        obj = self.objects.get(slot)
        if obj is not None:
            return obj
        return spec_agent(spec, game, config, slot)


def agent_label(agent: Any, fallback: str) -> str:
    """The name a spec or an agent object goes by in results (its ``name``, else
    ``fallback``)."""
    if isinstance(agent, str):
        return agent
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) and name.strip() else fallback


def as_agent(agent: Any, label: str) -> Any:
    """An agent object given from Python, checked (``act``; a no-op ``reset`` added when it
    has none)."""
    from pokerlab.agents.outside import check_agent

    return check_agent(agent, label)


def _stderr_warning(message: str) -> None:
    import sys

    print(message, file=sys.stderr)


def resolve_stack(agents: list[Any] | tuple[Any, ...], stack_bb: float | None, *,
                  kind: str = "hunl", warn: Callable[[str], None] | None = None) -> float:
    """The stack (big blinds) a HUNL match, LBR or league of ``agents`` (specs or objects)
    plays at: ``stack_bb`` when given, else the agents' own (the first policy's game; 200
    when no agent has one).  An agent trained for another stack plays by action
    translation and gets one warning line (``warn``, default: stderr); ``blueprint`` at a
    stack no shipped blueprint was trained for is an error
    (:func:`pokerlab.registry.check_spec_stack`)."""
    from pokerlab.registry import agent_stack_bb, check_spec_stack, spec_stack_bb

    if kind != "hunl":
        return 200.0 if stack_bb is None else float(stack_bb)
    say = warn or _stderr_warning
    known: list[tuple[str, float]] = []
    for k, x in enumerate(agents):
        n = spec_stack_bb(x, stack_bb) if isinstance(x, str) else agent_stack_bb(x)
        if n is not None:
            known.append((agent_label(x, f"agent {k + 1}"), n))
    if stack_bb is None:
        stack = known[0][1] if known else 200.0
    else:
        stack = float(stack_bb)
    for x in agents:
        if isinstance(x, str):
            check_spec_stack(x, stack)
    off = [(nm, n) for nm, n in known if n != stack]
    if off:
        who = ", ".join(f"{nm} ({n:g} bb)" for nm, n in off)
        why = "--stack" if stack_bb is not None else f"the stack of {known[0][0]}"
        say(f"warning: playing at {stack:g} bb ({why}), not the stack its policy was trained "
            f"for: {who}; it plays by action translation")
    return stack


_Chunk = partial(_core._Chunk, make=spec_agent)
"""A chunk of a spec match (:class:`pokerlab.evaluation.matches._Chunk` with
:func:`spec_agent`)."""
_play_chunk = _core._play_chunk


def exact_small_mbb(game_name: str, spec_a: str, spec_b: str) -> float | None:
    """Exact mean of A against B over both seatings (mbb/hand, big blind = 1 chip);
    ``None`` when an agent learns during the match (``end_hand``: no fixed policy)."""
    from pokerlab.agents.base import learns
    from pokerlab.agents.small import agent_policy
    from pokerlab.registry import build_agent

    if any(learns(spec_agent(s, game_name, None, k)) for k, s in enumerate((spec_a, spec_b))):
        return None
    pa = agent_policy(build_agent(spec_a, game=game_name))
    pb = agent_policy(build_agent(spec_b, game=game_name))
    return _core.exact_policy_mbb(game_name, pa, pb)


def write_histories(out: str | Path, texts: list[str] | tuple[str, ...],
                    cfg: MatchConfig) -> None:
    """The PHH sections of a match to ``out``: ``.log`` as ACPC ``STATE:`` lines, else
    PHH; the match config next to it (``out.json``)."""
    from pokerlab.io import atomic_write_json, atomic_write_text

    p = Path(out)
    if p.suffix.lower() == ".log":
        from pokerkit import HandHistory

        from pokerlab.hands.acpc_log import write_acpc_log

        hhs = [HandHistory.loads(t.split("\n", 1)[1]) for t in texts]
        write_acpc_log(hhs, p)
    else:
        atomic_write_text(p, "\n".join(texts))
    atomic_write_json(p.with_name(p.name + ".json"), cfg.to_json())


def play_match(agent_a: Any, agent_b: Any, *, game: str = "hunl", hands: int = 1000,
               duplicate: bool = False, seed: int = 0, stack_bb: float | None = None,
               out: str | Path | None = None, workers: int | None = None,
               ray_address: str | None = None, fast: bool = True,
               progress: Callable[[int, int], None] | None = None,
               warn: Callable[[str], None] | None = None) -> MatchResult:
    """Play a match of A vs B (see :mod:`pokerlab.evaluation.matches`): agent specs
    (``"tag"``, ``"policy:PATH"``, ``"python:MODULE:FACTORY"``, ...) or agent objects
    (anything with ``act(view)``; they must pickle for worker processes, so a match with
    an object plays in this process unless ``workers`` says otherwise).

    ``stack_bb`` (HUNL): default the agents' own stack (:func:`resolve_stack`; ``stack_bb``
    in the result).  ``out=FILE.phhs`` writes every HUNL hand as PHH (readable by
    ``pokerlab hands import`` and PokerKit), ``FILE.log`` as ACPC ``STATE:`` lines.
    ``workers`` processes (default: the local cores; 1 = in this process; 0 or less is
    refused); ``ray_address`` (``"local"`` starts a local Ray of ``max(2, workers)`` CPUs)
    runs the same chunks as Ray tasks (:mod:`pokerlab.executor`).  ``fast=False`` disables
    the kernel fast path.  ``progress(done, total)`` is called as hands finish.  Small
    games also report ``exact_mbb``.  The agents' own counters (``counters()``) come back
    in ``counters``.
    """
    kind = game_kind(game)
    objects = {slot: as_agent(x, "AB"[slot]) for slot, x in enumerate((agent_a, agent_b))
               if not isinstance(x, str)}
    if objects and 0 in objects and 1 in objects and objects[0] is objects[1]:
        import copy

        objects[1] = copy.deepcopy(objects[1])
    names = (agent_label(agent_a, "A"), agent_label(agent_b, "B"))
    if names[0] == names[1] and objects:
        names = (names[0] + "-A", names[1]) if 0 in objects else (names[0], names[1] + "-B")
    stack = resolve_stack([agent_a, agent_b], stack_bb, kind=kind, warn=warn)
    cfg = MatchConfig(agents=names, game=kind, hands=hands, duplicate=duplicate,
                      seed=seed, stack_bb=stack)
    make: Any = ObjectFactory(objects) if objects else spec_agent
    if objects and workers is None and ray_address is None:
        workers = 1
    res = _core.run_match(cfg, make, histories=out is not None, workers=workers,
                          ray_address=ray_address, fast=fast, progress=progress)
    if res.fast_path:
        return res
    t0 = time.perf_counter()
    if out is not None:
        write_histories(out, res.histories, cfg)
    exact = None
    if kind != "hunl":
        if objects:
            from pokerlab.agents.small import agent_policy

            hc = None
            pa = agent_policy(make(names[0], kind, hc, 0))
            pb = agent_policy(make(names[1], kind, hc, 1))
            exact = _core.exact_policy_mbb(kind, pa, pb)
        else:
            exact = exact_small_mbb(kind, agent_a, agent_b)
    return dataclasses.replace(res, exact_mbb=exact,
                               seconds=res.seconds + time.perf_counter() - t0)
