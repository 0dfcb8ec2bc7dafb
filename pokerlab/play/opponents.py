"""The exact opponents of the small play tables and the push/fold trainer's grading.

* Kuhn, Leduc and every generic small game (ACPC definitions, ``universal_poker(...)``):
  the sequence-form LP equilibrium (:func:`pokerlab.solvers.lp.solve_lp`; a fraction of a
  second for Kuhn/Leduc, seconds for ``gamedef:leduc5``), solved once per game string per
  process and cached.
* Push/fold: the exact Nash equilibrium of :func:`pokerlab.pushfold.solve` at the chosen
  stack (class LP, cached per stack); the trainer grades each decision by its EV loss in
  big blinds against that equilibrium opponent (``shove_gain`` / ``call_gain``).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from pokerlab.cards.cards import CLASS_NAMES, CLASS_OF_COMBO, NUM_CLASSES, combo_index
from pokerlab.errors import ConfigError
from pokerlab.rng import pick

_LOCK = threading.Lock()


@lru_cache(maxsize=16)
def _small_game_policy(game: str) -> Any:
    from pokerlab.play.registry import table_spec
    from pokerlab.solvers.lp import solve_lp

    if not table_spec(game).checked:  # a table of its own (kuhn, leduc)
        from pokerlab.games import load_game

        return solve_lp(load_game(game))
    from pokerlab.play.generic import load_play_game

    return solve_lp(load_play_game(game))


_SOLVED: set[str] = set()


def equilibrium_ready(game: str) -> bool:
    """True when :func:`small_game_equilibrium` of ``game`` is solved and cached (asking for
    it returns at once); a page is told to wait otherwise."""
    return isinstance(game, str) and game.strip() in _SOLVED


def small_game_equilibrium(game: str) -> Any:
    """The exact equilibrium ``TabularPolicy`` of ``kuhn``, ``leduc`` or any game string the
    play table accepts (:func:`pokerlab.play.generic.load_play_game`), solved once per game
    string by the sequence-form LP and cached."""
    if not isinstance(game, str) or not game.strip():
        raise ConfigError(f"no exact equilibrium table for game {game!r}")
    with _LOCK:
        pol = _small_game_policy(game.strip()).policy
        _SOLVED.add(game.strip())
        return pol


class EquilibriumAgent:
    """Plays a small game's exact equilibrium (a ``SmallGameAgent``)."""

    def __init__(self, game: str) -> None:
        self.game = game
        from pokerlab.play.registry import table_spec

        self.name = table_spec(game).equilibrium_name
        self.policy = small_game_equilibrium(game)
        self._rng = random.Random(0)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def probabilities(self, state: Any, player: int) -> dict[int, float]:
        if state.current_player() != player:
            raise ConfigError(f"player {player} is not the player to act")
        probs = self.policy.action_probabilities(state)
        return {int(a): float(p) for a, p in probs.items()}

    def act_state(self, state: Any, player: int) -> int:
        probs = self.probabilities(state, player)
        return pick(sorted(probs.items()), self._rng.random())


# ---------------------------------------------------------------- push/fold
@dataclass(frozen=True)
class PushFoldNash:
    """The exact push/fold equilibrium at one stack and the per-combo EV gains."""

    stack: float
    sb_shove: np.ndarray  # (1326,)
    bb_call: np.ndarray  # (1326,)
    shove_gain: np.ndarray  # EV(shove) - EV(fold) for SB, bb, against Nash BB
    call_gain: np.ndarray  # EV(call) - EV(fold) for BB facing a shove, bb, against Nash SB
    sb_value: float

    def shove_prob(self, c1: int, c2: int) -> float:
        return float(self.sb_shove[combo_index(c1, c2)])

    def call_prob(self, c1: int, c2: int) -> float:
        return float(self.bb_call[combo_index(c1, c2)])

    def grade(self, sb: bool, c1: int, c2: int, aggressive: bool) -> tuple[float, float]:
        """(gain of getting it in over folding, EV loss of the chosen action), both in bb."""
        i = combo_index(c1, c2)
        g = float(self.shove_gain[i] if sb else self.call_gain[i])
        if not np.isfinite(g):
            g = 0.0
        loss = max(0.0, g) if not aggressive else max(0.0, -g)
        return g, loss

    def grid(self, sb: bool) -> list[list[float]]:
        """Per class (grid order) ``[shove, call]`` frequency: SB's mean shove probability
        or BB's mean call probability."""
        strat = self.sb_shove if sb else self.bb_call
        sums = np.bincount(CLASS_OF_COMBO, weights=strat, minlength=NUM_CLASSES)
        sizes = np.bincount(CLASS_OF_COMBO, minlength=NUM_CLASSES)
        return [[round(float(x), 4), 0.0] if sb else [0.0, round(float(x), 4)]
                for x in sums / sizes]


@lru_cache(maxsize=16)
def _pushfold_nash(stack: float) -> PushFoldNash:
    from pokerlab.pushfold.game import PushFoldConfig, matrices_for
    from pokerlab.pushfold.solver import call_gain, shove_gain, solve

    cfg = PushFoldConfig(stack=float(stack))
    sol = solve(cfg)
    mats = matrices_for(None)
    sg = shove_gain(sol.bb_call, cfg, mats)
    cg = call_gain(sol.sb_shove, cfg, mats)
    return PushFoldNash(stack=float(stack), sb_shove=np.asarray(sol.sb_shove),
                        bb_call=np.asarray(sol.bb_call), shove_gain=np.asarray(sg),
                        call_gain=np.asarray(cg), sb_value=float(sol.sb_value))


def pushfold_nash(stack: float) -> PushFoldNash:
    """The cached equilibrium of push/fold at ``stack`` big blinds."""
    with _LOCK:
        return _pushfold_nash(float(stack))


GRID_LABELS = list(CLASS_NAMES)
"""The 169 class names in 13x13 grid order (row-major, A first, suited above the diagonal)."""
