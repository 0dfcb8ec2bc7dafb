"""Push/fold strategies as :class:`pokerlab.policy.Policy` objects, and back.

* :class:`PushFoldPolicy` wraps per-combo shove / call probabilities; it answers any
  :class:`~pokerlab.pushfold.game.PushFoldState` (or any state whose information-state
  string has the push/fold form ``"SB AsKd"`` / ``"BB AsKd allin"``).
* :func:`policy_strategies` reads any ``Policy`` on the push/fold game back into the two
  1326-vectors, so :func:`policy_exploitability` measures it exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.cards.cards import COMBO_MASKS, NUM_COMBOS, combo_index, parse_hole
from pokerlab.errors import CardError, ConfigError
from pokerlab.games.protocol import State
from pokerlab.policy.base import Policy
from pokerlab.policy.tabular import TabularPolicy
from pokerlab.pushfold.game import FOLD, GII, PushFoldConfig, PushFoldGame, PushFoldState
from pokerlab.pushfold.solver import Evaluation, PushFoldSolution, evaluate


class PushFoldPolicy(Policy):
    """Per-combo shove (SB) and call (BB) probabilities as a ``Policy``."""

    def __init__(self, *, sb_shove: np.ndarray, bb_call: np.ndarray) -> None:
        s = np.asarray(sb_shove, dtype=np.float64)
        c = np.asarray(bb_call, dtype=np.float64)
        for name, a in (("sb_shove", s), ("bb_call", c)):
            if a.shape != (NUM_COMBOS,):
                raise ConfigError(f"{name} must have 1326 entries, got shape {a.shape}")
            if not np.all((a >= 0) & (a <= 1)):
                raise ConfigError(f"{name} has entries outside [0, 1]")
        self.sb_shove = s
        self.bb_call = c

    @classmethod
    def from_solution(cls, sol: PushFoldSolution) -> PushFoldPolicy:
        return cls(sb_shove=sol.sb_shove, bb_call=sol.bb_call)

    def _probs(self, player: int, combo: int) -> dict[int, float]:
        p = float(self.sb_shove[combo] if player == 0 else self.bb_call[combo])
        return {FOLD: 1.0 - p, GII: p}

    def action_probabilities(self, state: State) -> dict[int, float]:
        if isinstance(state, PushFoldState):
            player = state.current_player()
            if player not in (0, 1):
                raise ConfigError("push/fold policy queried at a chance or terminal state")
            return self._probs(player, state.acting_combo())
        key = state.information_state_string()
        parts = key.split()
        if len(parts) < 2 or parts[0] not in ("SB", "BB"):
            raise ConfigError(f"not a push/fold information state: {key!r}")
        try:
            c1, c2 = parse_hole(parts[1])
        except CardError as exc:
            raise ConfigError(f"not a push/fold information state: {key!r} ({exc})") from None
        return self._probs(0 if parts[0] == "SB" else 1, combo_index(c1, c2))

    def to_tabular(self, *, metadata: dict[str, Any] | None = None) -> TabularPolicy:
        """The same policy as a :class:`TabularPolicy` keyed by information-state strings."""
        game_states = _representative_states(None)
        table: dict[str, dict[int, float]] = {}
        for st in game_states:
            table[st.information_state_string()] = self.action_probabilities(st)
        return TabularPolicy.from_dict(table, metadata=metadata)


def _representative_states(game: PushFoldGame | None) -> list[PushFoldState]:
    """One state per information set: SB to act with each combo, BB facing a shove with
    each combo."""
    g = game if game is not None else PushFoldGame(config=PushFoldConfig(stack=10.0),
                                                   equity=np.full((NUM_COMBOS, NUM_COMBOS), 0.5))
    out: list[PushFoldState] = []
    for player in (0, 1):
        for i in range(NUM_COMBOS):
            other = int(np.flatnonzero((COMBO_MASKS & COMBO_MASKS[i]) == 0)[0])
            st = g.new_initial_state()
            if player == 0:
                st.apply_action(i)
                st.apply_action(other)
            else:
                st.apply_action(other)
                st.apply_action(i)
                st.apply_action(GII)
            out.append(st)
    return out


def policy_strategies(policy: Policy, game: PushFoldGame | None = None) -> tuple[np.ndarray,
                                                                              np.ndarray]:
    """(shove probabilities, call probabilities) per combo of any ``Policy`` on push/fold."""
    s = np.zeros(NUM_COMBOS)
    c = np.zeros(NUM_COMBOS)
    for st in _representative_states(game):
        probs = policy.action_probabilities(st)
        p = float(probs.get(GII, 0.0))
        if st.current_player() == 0:
            s[st.sb_combo] = p
        else:
            c[st.bb_combo] = p
    return s, c


def policy_exploitability(policy: Policy, cfg: PushFoldConfig,
                          equity: np.ndarray | None = None) -> Evaluation:
    """Exact value and exploitability of any ``Policy`` in push/fold at ``cfg``."""
    s, c = policy_strategies(policy)
    return evaluate(s, c, cfg, equity)
