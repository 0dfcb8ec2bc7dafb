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
    from pokerlab.agents.registry import build_agent

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


_Chunk = partial(_core._Chunk, make=spec_agent)
"""A chunk of a spec match (:class:`pokerlab.evaluation.matches._Chunk` with
:func:`spec_agent`)."""
_play_chunk = _core._play_chunk


def exact_small_mbb(game_name: str, spec_a: str, spec_b: str) -> float:
    """Exact mean of A against B over both seatings (mbb/hand, big blind = 1 chip)."""
    from pokerlab.agents.registry import build_agent
    from pokerlab.agents.small import agent_policy

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


def play_match(agent_a: str, agent_b: str, *, game: str = "hunl", hands: int = 1000,
               duplicate: bool = False, seed: int = 0, stack_bb: float = 200.0,
               out: str | Path | None = None, workers: int | None = None,
               ray_address: str | None = None, fast: bool = True,
               progress: Callable[[int, int], None] | None = None) -> MatchResult:
    """Play a match of agent specs A vs B (see :mod:`pokerlab.evaluation.matches`).

    ``out=FILE.phhs`` writes every HUNL hand as PHH (readable by ``pokerlab hands import``
    and PokerKit), ``FILE.log`` as ACPC ``STATE:`` lines.  ``workers`` processes (default:
    the local cores; 1 = in this process; 0 or less is refused); ``ray_address``
    (``"local"`` starts a local Ray of ``max(2, workers)`` CPUs) runs the same chunks as
    Ray tasks (:mod:`pokerlab.executor`).  ``fast=False`` disables the kernel fast path.
    ``progress(done, total)`` is called as hands finish.  Small games also report
    ``exact_mbb``.
    """
    kind = game_kind(game)
    cfg = MatchConfig(agents=(agent_a, agent_b), game=kind, hands=hands, duplicate=duplicate,
                      seed=seed, stack_bb=stack_bb)
    res = _core.run_match(cfg, spec_agent, histories=out is not None, workers=workers,
                          ray_address=ray_address, fast=fast, progress=progress)
    if res.fast_path:
        return res
    t0 = time.perf_counter()
    if out is not None:
        write_histories(out, res.histories, cfg)
    exact = exact_small_mbb(kind, agent_a, agent_b) if kind != "hunl" else None
    return dataclasses.replace(res, exact_mbb=exact,
                               seconds=res.seconds + time.perf_counter() - t0)
