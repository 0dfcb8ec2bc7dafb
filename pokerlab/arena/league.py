"""A league of agent specs: :func:`run_league` (what ``pokerlab league`` runs).

The table (:class:`~pokerlab.evaluation.league.League`), its JSON, picture and page are
:mod:`pokerlab.evaluation.league`'s; here every pair of specs plays (duplicate, AIVAT
where an agent exposes its probabilities, exact on the small games) and, with ``lbr``,
every spec gets its LBR value.
"""

from __future__ import annotations

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


def run_league(config: LeagueConfig, progress: Any = None) -> League:
    """Play every pair (and LBR per agent); ``progress(done)`` after each piece of work."""
    kind = game_kind(config.game)
    t0 = time.perf_counter()
    names = list(config.agents)
    pairings: list[Pairing] = []
    done = 0
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            pairings.append(_pair(names[i], names[j], kind, config))
            done += 1
            if progress is not None:
                progress(done)
    lbr: dict[str, dict[str, Any]] = {}
    if config.lbr:
        from pokerlab.arena.lbr import run_lbr

        for name in names:
            r = run_lbr(name, game=kind, actions=config.lbr_actions, hands=config.lbr_hands,
                        seed=config.seed, stack_bb=config.stack_bb, exact=kind != "hunl")
            lbr[name] = {"mbb": r.mbb, "ci95_mbb": r.ci95_mbb, "hands": r.hands,
                         "actions": r.actions, "exact": r.exact, "unit": r.unit}
            done += 1
            if progress is not None:
                progress(done)
    return League(config=config, pairings=pairings, lbr=lbr,
                  seconds=time.perf_counter() - t0)


def _pair(a: str, b: str, kind: str, config: LeagueConfig) -> Pairing:
    from pokerlab.arena.matches import play_match

    if kind != "hunl":
        m = play_match(a, b, game=kind, hands=config.hands, duplicate=True, seed=config.seed,
                       workers=1)
        exact = float(m.exact_mbb) if m.exact_mbb is not None else m.mean_mbb
        return Pairing(a=a, b=b, mean_mbb=m.mean_mbb, ci95_mbb=m.ci95_mbb, value_mbb=exact,
                       value_ci95_mbb=0.0, method="exact", exact_mbb=exact)
    from pokerlab.agents import make_agent
    from pokerlab.evaluation.aivat import aivat_match
    from pokerlab.holdem.engine import HoldemConfig

    hc = HoldemConfig.from_bb(config.stack_bb)
    ag_a = make_agent(a, game="hunl", config=hc)
    ag_b = make_agent(b, game="hunl", config=hc)
    if hasattr(ag_a, "action_probabilities") or hasattr(ag_b, "action_probabilities"):
        r = aivat_match(ag_a, ag_b, hands=config.hands, duplicate=True, seed=config.seed,
                        stack_bb=config.stack_bb, names=(a, b))
        d = r.to_json()
        ci = d["ci95_mbb"] if d["ci95_mbb"] is not None else math.inf
        aci = d["aivat_ci95_mbb"] if d["aivat_ci95_mbb"] is not None else math.inf
        return Pairing(a=a, b=b, mean_mbb=d["mean_mbb"], ci95_mbb=ci,
                       value_mbb=d["aivat_mean_mbb"], value_ci95_mbb=aci, method="aivat",
                       aivat={k: v for k, v in d.items() if k.startswith(("aivat_", "allin_"))})
    m = play_match(a, b, hands=config.hands, duplicate=True, seed=config.seed,
                   stack_bb=config.stack_bb, workers=1)
    return Pairing(a=a, b=b, mean_mbb=m.mean_mbb, ci95_mbb=m.ci95_mbb, value_mbb=m.mean_mbb,
                   value_ci95_mbb=m.ci95_mbb, method="duplicate")
