"""The ranges a reviewed hand's two players bring to the flop.

* Heads-up games (two seats dealt in): the shipped blueprint's preflop strategy followed
  by Bayes along the hand's real preflop actions, exactly as the searching agent's belief
  tracker reads them (:class:`pokerlab.agents.beliefs.HoldemBeliefs`; an off-tree raise
  size is read as the blueprint's nearest raise in log scale).
* Ring games: a preset per position and preflop line (:data:`PRESETS`), which a user can
  replace key by key (``pokerlab review --ranges FILE.json``).  The line is read from the
  number of raises before the flop and who made the last one: the last raiser takes
  ``open:POS`` (one raise), ``3bet`` (two) or ``4bet`` (more); the other player
  ``call:BB:POS`` (the big blind against the opener's position: UTG, HJ, CO; ``call:BB``
  against the button and small blind) / ``call:SB`` / ``call:IP`` (against one raise), ``call3bet`` or
  ``call4bet``; in a limped pot ``limp`` and, for the big blind, ``check:BB``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import ConfigError, PokerlabError

ANY = ("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,J2o+,"
       "T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")

PRESETS: dict[str, str] = {
    # first-in raises by position (6-max, 100 bb: UTG tight ... BTN wide)
    "open:UTG": "22+,A2s+,KTs+,QTs+,J9s+,T9s,98s,87s,AJo+,KQo",
    "open:HJ": "22+,A2s+,K8s+,Q9s+,J9s+,T8s+,97s+,87s,76s,65s,A9o+,KTo+,QTo+,JTo",
    "open:CO": "22+,A2s+,K5s+,Q8s+,J8s+,T8s+,97s+,86s+,75s+,65s,54s,A8o+,A5o,KTo+,QTo+,JTo",
    "open:BTN": "22+,A2s+,K2s+,Q5s+,J7s+,T7s+,96s+,86s+,75s+,64s+,54s,A2o+,K8o+,Q9o+,J9o+,T9o,98o",
    "open:SB": "22+,A2s+,K4s+,Q6s+,J7s+,T7s+,96s+,85s+,75s+,64s+,54s,A4o+,K9o+,Q9o+,J9o+,T9o",
    "open:BB": "22+,A2s+,K4s+,Q6s+,J7s+,T7s+,96s+,85s+,75s+,64s+,54s,A4o+,K9o+,Q9o+,J9o+,T9o",
    # the big blind's flat against an open, by the opener's position (its 3-bets taken out)
    "call:BB:UTG": "22-JJ,A2s-AQs,K9s-KQs,Q9s+,J9s+,T8s+,98s,87s,76s,65s,AJo-AQo,KQo",
    "call:BB:HJ": "22-JJ,A2s-AQs,K7s-KQs,Q8s+,J8s+,T8s+,97s+,86s+,76s,65s,54s,ATo-AQo,KJo+,QJo",
    "call:BB:CO": "22-TT,A2s-AJs,K5s-KQs,Q7s+,J7s+,T7s+,96s+,86s+,75s+,64s+,54s,A8o-AJo,KTo+,QTo+,JTo",
    "call:BB": ("22-TT,A2s-AJs,K2s-KQs,Q5s+,J7s+,T7s+,96s+,85s+,75s+,64s+,53s+,43s,A7o-AJo,A5o,K9o+,"
                "Q9o+,J9o+,T9o,98o"),
    "call:SB": "22-JJ,A4s-AQs,KTs+,QTs+,JTs,T9s,98s,AJo-AQo,KQo",
    "call:IP": "22-TT,A9s-AQs,KTs+,QTs+,JTs,T9s,98s,87s,AQo,KQo",
    "3bet": "99+,AJs+,KQs,A5s-A3s,AQo+",
    "call3bet": "77-QQ,ATs-AQs,KJs+,QJs,JTs,T9s,AQo",
    "4bet": "QQ+,AKs,AKo,A5s",
    "call4bet": "QQ+,AKs,AKo",
    "limp": ("22+,A2s+,K2s+,Q2s+,J2s+,T5s+,95s+,85s+,74s+,64s+,53s+,43s,A2o+,K5o+,Q7o+,J8o+,T8o+,98o,"
             "87o,76o"),
    # the big blind checking a limp: everything it would not raise
    "check:BB": ("22-99,A2s-ATs,K2s-KJs,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o-AJo,K2o-KQo,"
                 "Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o"),
}


def load_presets(path: str | Path | None) -> dict[str, str]:
    """:data:`PRESETS` with the keys of the JSON object in ``path`` replaced (each value a
    range in ``spot solve --oop`` notation); one :class:`ConfigError` naming a bad key or
    range."""
    out = dict(PRESETS)
    if path is None:
        return out
    try:
        obj = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"--ranges {str(path)!r}: not a JSON object of ranges ({exc})") from None
    if not isinstance(obj, dict):
        raise ConfigError(f"--ranges {str(path)!r}: expected a JSON object key -> range")
    from pokerlab.cards.ranges import parse_range

    for k, v in obj.items():
        if k not in PRESETS:
            raise ConfigError(f"--ranges {str(path)!r}: unknown key {k!r} (keys: {', '.join(PRESETS)})")
        if not isinstance(v, str):
            raise ConfigError(f"--ranges {str(path)!r}: {k!r} must be a range string")
        try:
            parse_range(v)
        except PokerlabError as exc:
            raise ConfigError(f"--ranges {str(path)!r}: {k!r}: {exc}") from None
        out[k] = v
    return out


def preset_keys(preflop: Sequence[tuple[int, str]], seats: tuple[int, int], positions: Sequence[str]
                ) -> tuple[str, str]:
    """The preset keys of the two ``seats`` reaching the flop, from the preflop betting
    actions ``(seat, kind)`` (kind ``f``/``x``/``c``/``b``/``r``) and the seats' position
    names."""
    raises = [s for s, k in preflop if k in ("b", "r")]
    keys = []
    for seat in seats:
        pos = positions[seat]
        if not raises:
            keys.append("check:BB" if pos == "BB" else "limp")
        elif raises[-1] == seat:
            n = len(raises)
            if n == 1:
                keys.append(f"open:{pos}" if f"open:{pos}" in PRESETS else "open:UTG")
            else:
                keys.append("3bet" if n == 2 else "4bet")
        else:
            n = len(raises)
            if n == 1:
                opener = f"call:BB:{positions[raises[0]]}"
                keys.append((opener if opener in PRESETS else "call:BB") if pos == "BB"
                            else "call:SB" if pos == "SB" else "call:IP")
            else:
                keys.append("call3bet" if n == 2 else "call4bet")
    return keys[0], keys[1]


def blueprint_ranges(preflop: Sequence[tuple[int, int]], *, big_blind: int, stack: int,
                     agent: Any = None) -> np.ndarray:
    """(2, 1326) ranges at the flop of a heads-up hand, engine players (0 the big blind,
    1 the button): the shipped blueprint nearest the effective ``stack`` (in the hand's
    chips) through :class:`~pokerlab.agents.beliefs.HoldemBeliefs` along ``preflop``:
    ``(engine player, raise-to or 0 for a check/call or -1 for a fold)`` in the hand's
    chips, scaled to the blueprint's big blind."""
    from pokerlab.agents.beliefs import HoldemBeliefs
    from pokerlab.holdem.actions import Action, ActionKind, HoldemConfig
    from pokerlab.holdem.engine import HoldemState
    from pokerlab.holdem.view import make_view

    if agent is None:
        agent = blueprint_agent(stack / big_blind)
    cfg = agent.game.config
    scale = cfg.big_blind / big_blind
    st = HoldemState(config=HoldemConfig(stacks=tuple(cfg.stacks), small_blind=cfg.small_blind,
                                         big_blind=cfg.big_blind))
    st.deal_hole(None)
    st.deal_hole(None)
    for player, to in preflop:
        if int(st.actor) != player:
            raise ConfigError(f"preflop action of player {player} out of turn")
        if to < 0:
            act = Action(kind=ActionKind.FOLD)
        elif to == 0:
            act = Action(kind=ActionKind.CHECK_CALL)
        else:
            act = _legal_raise(st, int(round(to * scale)))
        st.apply(act)
    return HoldemBeliefs(agent).update(make_view(st, 0))


def _legal_raise(st: Any, amount: int) -> Any:
    """The raise to ``amount`` moved into the engine's legal range (a scaled real size can
    fall a chip below the minimum or above the stack); a call when no raise is legal."""
    from pokerlab.holdem.actions import Action, ActionKind

    la = st.legal()
    if not la.can_raise:
        return Action(kind=ActionKind.CHECK_CALL)
    lo, hi = int(la.min_raise_to), int(la.max_raise_to)
    return Action(kind=ActionKind.RAISE, amount=min(max(amount, lo), hi))


_AGENTS: dict[float, Any] = {}


def blueprint_agent(stack_bb: float) -> Any:
    """The shipped blueprint agent nearest ``stack_bb`` (loaded once per process)."""
    from pokerlab.agents.policy_agent import load_policy_agent
    from pokerlab.agents.shipped import shipped_blueprints

    ships = shipped_blueprints()
    if not ships:
        raise ConfigError("no shipped blueprint: heads-up ranges need one")
    best = min(ships, key=lambda s: abs(s - stack_bb))
    if best not in _AGENTS:
        _AGENTS[best] = load_policy_agent(str(ships[best]), name=f"blueprint-{best:g}")
    return _AGENTS[best]
