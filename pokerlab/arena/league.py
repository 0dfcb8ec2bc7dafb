"""A league of agent specs: :func:`run_league` (what ``pokerlab league`` runs).

The table (:class:`~pokerlab.evaluation.league.League`), its JSON, picture and page are
:mod:`pokerlab.evaluation.league`'s; here every pair of specs plays (duplicate, AIVAT
where an agent exposes its probabilities, exact on the small games) and, with ``lbr``,
every spec gets its LBR value.
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any

from pokerlab.evaluation.league import (  # noqa: F401 - the league names, as before
    League,
    LeagueConfig,
    Pairing,
    league_html,
    plot_league,
    write_league,
)
from pokerlab.evaluation.matches import game_kind

LBR_SETS = ("fc", "fcp", "fcpa", "56")


def lbr_action_sets(text: str) -> list[str]:
    """The LBR action sets of a league: ``"fc"``, ``"fc,fcpa"`` (several named sets, each
    optionally ``@R``, LBR from round R as in the LBR paper's columns: ``"fc,fcpa@3,56@3"``;
    a set per round joined by ``/``: ``"fc,c/56/fc/fc"``), or one bet-set text (which may
    hold commas itself)."""
    parts = [p.strip().lower().replace(" ", "") for p in text.split(",")]
    # a set per round joined by '/' (c/56/fc/fc) is one item too
    if all(split_lbr_set(p)[0] in LBR_SETS or "/" in p for p in parts) and (
            len(parts) > 1 or "@" in parts[0]):
        return list(dict.fromkeys(parts))
    return [text.strip()]


def split_lbr_set(item: str) -> tuple[str, int]:
    """``"fcpa@3"`` -> ``("fcpa", 3)``; no ``@``: from round 1 (a bad round is
    :class:`~pokerlab.evaluation.lbr_core.LBRError`)."""
    from pokerlab.evaluation.lbr_core import LBRError

    acts, at, rnd = item.partition("@")
    if not at:
        return item, 1
    try:
        fr = int(rnd)
    except ValueError:
        raise LBRError(f"LBR set {item!r}: the round after '@' must be 1-4") from None
    return acts, fr


def run_league(config: LeagueConfig, progress: Any = None,
               objects: dict[str, Any] | None = None, warn: Any = None, *,
               workers: int = 1, ray_address: str | None = None) -> League:
    """Play every pair (and LBR per agent); ``progress(done)`` as work is done, counted in
    hands of the pairs and deals of the LBR runs (total: :func:`league_work`).

    ``objects`` maps some of ``config.agents`` (their names) to agent objects given from
    Python; the other names are specs.  ``config.lbr_actions`` may name several sets
    (``"fc,fcpa"``): every agent's ``lbr`` entry is then the first set's value with all of
    them under ``by_actions``.  An agent trained for another stack than
    ``config.stack_bb`` gets one warning line (``warn``, default stderr).  ``workers``
    processes (or Ray at ``ray_address``) play each pair's hands and each LBR run in chunks
    on the one executor: the numbers do not depend on the split."""
    from pokerlab.arena.matches import resolve_stack

    kind = game_kind(config.game)
    objs = dict(objects or {})
    agents = [objs.get(n, n) for n in config.agents]
    resolve_stack(agents, config.stack_bb, kind=kind, warn=warn)  # one warning; blueprint
    quiet = _quiet
    t0 = time.perf_counter()
    names = list(config.agents)
    pairings: list[Pairing] = []
    done = 0
    total = [league_work(config)]  # grows by the hands of every pair played again

    def ticker(base: int) -> Any:
        if progress is None:
            return None
        return lambda d, _t=None: progress(base + int(d), total[0])

    def replay(need: int) -> Any:
        total[0] += need
        return ticker(done + config.hands)

    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            p = _pair(names[i], names[j], kind, config, objs, workers=workers,
                      ray_address=ray_address, progress=ticker(done), replay=replay)
            pairings.append(p)
            done += config.hands + (p.hands if p.hands not in (None, config.hands) else 0)
            if progress is not None:
                progress(done, total[0])
    lbr: dict[str, dict[str, Any]] = {}
    if config.lbr:
        from pokerlab.arena.lbr import run_lbr

        sets = lbr_action_sets(config.lbr_actions)
        for name in names:
            by: dict[str, dict[str, Any]] = {}
            for item in sets:
                acts, fr = split_lbr_set(item) if "@" in item else (item, 1)
                r = run_lbr(objs.get(name, name), game=kind, actions=acts, from_round=fr,
                            hands=config.lbr_hands, seed=config.seed,
                            stack_bb=config.stack_bb, exact=kind != "hunl", warn=quiet,
                            workers=workers, ray_address=ray_address,
                            progress=ticker(done) if kind == "hunl" else None)
                key = r.actions if fr == 1 else f"{r.actions}@{fr}"
                by[key] = {"mbb": r.mbb, "ci95_mbb": r.ci95_mbb, "hands": r.hands,
                           "actions": r.actions, "from_round": fr, "exact": r.exact,
                           "unit": r.unit, "seconds": r.seconds}
                done += config.lbr_hands
                if progress is not None:
                    progress(done, total[0])
            first = dict(next(iter(by.values())))
            if len(by) > 1:
                first["by_actions"] = by
            lbr[name] = first
    return League(config=config, pairings=pairings, lbr=lbr,
                  seconds=time.perf_counter() - t0)


def league_work(config: LeagueConfig) -> int:
    """The units :func:`run_league` counts its progress in: ``hands`` per pair, plus
    ``lbr_hands`` deals per agent and LBR action set."""
    n = len(config.agents)
    sets = len(lbr_action_sets(config.lbr_actions)) if config.lbr else 0
    return n * (n - 1) // 2 * config.hands + n * sets * config.lbr_hands


def _quiet(message: str) -> None:
    """No warning: :func:`run_league` gave it once."""


def _pair(a: str, b: str, kind: str, config: LeagueConfig,
          objs: dict[str, Any] | None = None, *, workers: int = 1,
          ray_address: str | None = None, progress: Any = None,
          replay: Any = None) -> Pairing:
    """One pair's match; with ``config.target_ci_mbb`` (hunl) played again with enough
    hands for that CI half-width (by the first run's SD, at most ``config.max_hands``);
    ``replay(hands)`` gives the progress callback of that second run."""
    p = _pair_once(a, b, kind, config, objs, workers=workers, ray_address=ray_address,
                   progress=progress)
    target = config.target_ci_mbb
    ci = p.value_ci95_mbb
    if kind != "hunl" or target is None or not math.isfinite(ci) or ci <= target:
        return p
    need = math.ceil(config.hands * (ci / target) ** 2 * 1.02)  # 2%: the SD is estimated
    need = min(config.max_hands, need + need % 2)
    if need <= config.hands:
        return p
    bigger = dataclasses.replace(config, hands=need)
    return _pair_once(a, b, kind, bigger, objs, workers=workers, ray_address=ray_address,
                      progress=None if replay is None else replay(need))


def _pair_once(a: str, b: str, kind: str, config: LeagueConfig,
               objs: dict[str, Any] | None = None, *, workers: int = 1,
               ray_address: str | None = None, progress: Any = None) -> Pairing:
    from pokerlab.arena.matches import play_match

    objs = objs or {}
    xa, xb = objs.get(a, a), objs.get(b, b)
    if kind != "hunl":
        m = play_match(xa, xb, game=kind, hands=config.hands, duplicate=True,
                       seed=config.seed, workers=1)
        if m.exact_mbb is None:  # an agent that learns (adapt): the sampled mean, its CI
            return Pairing(a=a, b=b, mean_mbb=m.mean_mbb, ci95_mbb=m.ci95_mbb,
                           value_mbb=m.mean_mbb, value_ci95_mbb=m.ci95_mbb, method="sampled",
                           exact_mbb=None)
        exact = float(m.exact_mbb)
        return Pairing(a=a, b=b, mean_mbb=m.mean_mbb, ci95_mbb=m.ci95_mbb, value_mbb=exact,
                       value_ci95_mbb=0.0, method="exact", exact_mbb=exact)
    from pokerlab.arena.aivat import aivat_match
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.holdem.view import RangeQuery
    from pokerlab.registry import make_agent

    hc = HoldemConfig.from_bb(config.stack_bb)
    ag_a = xa if not isinstance(xa, str) else make_agent(a, game="hunl", config=hc)
    ag_b = xb if not isinstance(xb, str) else make_agent(b, game="hunl", config=hc)
    if isinstance(ag_a, RangeQuery) or isinstance(ag_b, RangeQuery):
        spread = workers > 1 or ray_address is not None
        r = aivat_match(xa if spread else ag_a, xb if spread else ag_b, hands=config.hands,
                        duplicate=True, seed=config.seed, stack_bb=config.stack_bb,
                        names=(a, b), warn=_quiet, workers=workers, ray_address=ray_address,
                        progress=progress)
        d = r.to_json()
        ci = d["ci95_mbb"] if d["ci95_mbb"] is not None else math.inf
        aci = d["aivat_ci95_mbb"] if d["aivat_ci95_mbb"] is not None else math.inf
        return Pairing(a=a, b=b, mean_mbb=d["mean_mbb"], ci95_mbb=ci,
                       value_mbb=d["aivat_mean_mbb"], value_ci95_mbb=aci, method="aivat",
                       aivat={k: v for k, v in d.items() if k.startswith(("aivat_", "allin_"))},
                       hands=config.hands)
    m = play_match(xa if workers > 1 else ag_a, xb if workers > 1 else ag_b,
                   hands=config.hands, duplicate=True, seed=config.seed,
                   stack_bb=config.stack_bb, workers=workers, ray_address=ray_address,
                   warn=_quiet, progress=progress)
    return Pairing(a=a, b=b, mean_mbb=m.mean_mbb, ci95_mbb=m.ci95_mbb, value_mbb=m.mean_mbb,
                   value_ci95_mbb=m.ci95_mbb, method="duplicate", hands=config.hands)
