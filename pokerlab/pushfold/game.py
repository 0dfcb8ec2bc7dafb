"""Heads-up push/fold: the configuration, the payoff matrices and the protocol game.

The game (all amounts in big blinds, from the small blind's point of view):

* both players start the hand with the effective stack ``S`` (this *includes* the blind
  and the ante each posts); SB posts 0.5, BB posts ``min(1, S - ante)``, both post ``ante``;
* SB shoves all-in or folds.  Fold: SB loses ``f = 0.5 + ante``;
* facing the shove BB calls or folds.  Fold: SB wins ``g = bb_blind + ante``;
* call: the whole stacks go in, the pot ``2 S`` is split by the all-in equity, so SB's net
  result is ``S * (2 * eq[i, j] - 1)`` in expectation.

Deals use exact card removal: SB's combo ``i`` is uniform over the 1326 combos and BB's
combo ``j`` uniform over the 1225 combos sharing no card with ``i``.  With ``V`` the
non-conflict mask, ``D = V * (2 E - 1)`` and ``A = (S D - g V) / 1225``, SB's expected
result for shove probabilities ``s`` and call probabilities ``c`` (both over the 1326
combos) is::

    u(s, c) = -f + (s . (f + g) + s^T A c) / 1326

Suit symmetry makes the equilibrium computable per preflop class (169 x 169), exactly:
``P = M^T D M`` and ``N = M^T V M`` with ``M`` the combo->class membership matrix.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np

from pokerlab.cards.cards import (
    CLASS_NAMES,
    CLASS_OF_COMBO,
    COMBO_MASKS,
    NUM_CLASSES,
    NUM_COMBOS,
    combo_str,
)
from pokerlab.errors import CardError, ConfigError
from pokerlab.games.protocol import CHANCE, TERMINAL, GameInfo, NamedTwoPlayerGame
from pokerlab.games.two_player import DealThenBetState, uniform_outcomes

SB_BLIND = 0.5
BB_BLIND = 1.0
OPPONENT_COMBOS = 1225  # combos sharing no card with a given combo
FOLD = 0
GII = 1  # "get it in": shove (SB) or call (BB)


@dataclass(frozen=True, kw_only=True)
class PushFoldConfig:
    """Stack (effective, in bb, including the posted blind and ante) and ante per player."""

    stack: float
    ante: float = 0.0

    def __post_init__(self) -> None:
        if not (isinstance(self.stack, (int, float)) and math.isfinite(self.stack)):
            raise ConfigError(f"stack must be a finite number of big blinds, got {self.stack!r}")
        if not (isinstance(self.ante, (int, float)) and math.isfinite(self.ante)) or self.ante < 0:
            raise ConfigError(f"ante must be a finite number >= 0, got {self.ante!r}")
        if self.stack <= SB_BLIND + self.ante:
            raise ConfigError(
                f"stack {self.stack} bb must exceed the small blind plus ante "
                f"({SB_BLIND + self.ante} bb)"
            )

    @property
    def bb_blind(self) -> float:
        """What BB posts: 1 bb, or the rest of a shorter stack after the ante."""
        return min(BB_BLIND, self.stack - self.ante)

    @property
    def fold_loss(self) -> float:
        """``f``: what SB loses by folding."""
        return SB_BLIND + self.ante

    @property
    def steal_gain(self) -> float:
        """``g``: what SB wins when BB folds to the shove."""
        return self.bb_blind + self.ante

    def to_json(self) -> dict[str, float]:
        return {k: float(v) for k, v in asdict(self).items()}


# ---------------------------------------------------------------- equity matrix
def check_equity_matrix(eq: np.ndarray) -> np.ndarray:
    """Validate a (1326, 1326) equity matrix (NaN exactly where combos conflict)."""
    m = np.asarray(eq, dtype=np.float64)
    if m.shape != (NUM_COMBOS, NUM_COMBOS):
        raise CardError(f"equity matrix must have shape (1326, 1326), got {m.shape}")
    return m


def equity_matrix() -> np.ndarray:
    """The exact preflop all-in equity matrix of :mod:`pokerlab.cards.equity`."""
    from pokerlab.cards.equity import preflop_equity_matrix

    return preflop_equity_matrix()


def conflict_mask() -> np.ndarray:
    """``V[i, j]``: True when combos ``i`` and ``j`` share no card."""
    return (COMBO_MASKS[:, None] & COMBO_MASKS[None, :]) == 0


@dataclass(frozen=True, kw_only=True)
class Matrices:
    """Stack-independent pieces of the payoff, at combo and class level."""

    D: np.ndarray  # (1326, 1326) V * (2E - 1), 0 where conflicting
    V: np.ndarray  # (1326, 1326) float 0/1 non-conflict
    P: np.ndarray  # (169, 169) class sums of D
    N: np.ndarray  # (169, 169) class sums of V (pair counts)
    sizes: np.ndarray  # (169,) combos per class
    eq: np.ndarray  # the equity matrix itself (NaN on conflicts)


def build_matrices(eq: np.ndarray) -> Matrices:
    e = check_equity_matrix(eq)
    valid = conflict_mask()
    bad = np.isnan(e) & valid
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise CardError(
            f"equity matrix has NaN for the non-conflicting pair {combo_str(int(i))} vs "
            f"{combo_str(int(j))}"
        )
    V = valid.astype(np.float64)
    D = np.where(valid, 2.0 * np.nan_to_num(e) - 1.0, 0.0)
    M = np.zeros((NUM_COMBOS, NUM_CLASSES))
    M[np.arange(NUM_COMBOS), CLASS_OF_COMBO] = 1.0
    P = M.T @ D @ M
    N = M.T @ V @ M
    sizes = M.sum(axis=0)
    return Matrices(D=D, V=V, P=P, N=N, sizes=sizes, eq=e)


_CACHE: dict[int, tuple[np.ndarray, Matrices]] = {}


def matrices_for(eq: np.ndarray | None = None) -> Matrices:
    """Cached :class:`Matrices` of ``eq`` (default: the exact preflop matrix)."""
    e = equity_matrix() if eq is None else eq
    key = id(e)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is e:
        return hit[1]
    mats = build_matrices(e)
    if len(_CACHE) > 4:
        _CACHE.clear()
    _CACHE[key] = (e, mats)
    return mats


def combo_payoff(cfg: PushFoldConfig, mats: Matrices) -> np.ndarray:
    """``A = (S D - g V) / 1225`` (1326 x 1326)."""
    return (cfg.stack * mats.D - cfg.steal_gain * mats.V) / OPPONENT_COMBOS


def class_payoff(cfg: PushFoldConfig, mats: Matrices) -> tuple[np.ndarray, np.ndarray]:
    """Class-level game ``u = -f + b . s + s^T G c`` over the 169 classes: ``(b, G)``."""
    b = mats.sizes * (cfg.fold_loss + cfg.steal_gain) / NUM_COMBOS
    G = (cfg.stack * mats.P - cfg.steal_gain * mats.N) / (NUM_COMBOS * OPPONENT_COMBOS)
    return b, G


# ---------------------------------------------------------------- synthetic equities
@lru_cache(maxsize=4)
def synthetic_equity_matrix(seed: int = 0) -> np.ndarray:
    """A cheap stand-in equity matrix (antisymmetric, NaN on conflicts) for unit tests of
    the algorithms: each class gets a strength and ``eq = 0.5 + 0.35 tanh(3 (h_i - h_j))``
    plus a small seeded per-class-pair perturbation (suit-symmetric, like the real one)."""
    rng = np.random.default_rng(seed)
    hi = np.array([max("23456789TJQKA".index(n[0]), "23456789TJQKA".index(n[1]))
                   for n in CLASS_NAMES], dtype=np.float64)
    lo = np.array([min("23456789TJQKA".index(n[0]), "23456789TJQKA".index(n[1]))
                   for n in CLASS_NAMES], dtype=np.float64)
    pair = np.array([len(n) == 2 for n in CLASS_NAMES], dtype=np.float64)
    suited = np.array([n.endswith("s") for n in CLASS_NAMES], dtype=np.float64)
    strength = (hi * 1.0 + lo * 0.45 + pair * 6.0 + suited * 0.8) / 24.0
    h = strength[CLASS_OF_COMBO]
    cls_noise = rng.normal(0.0, 0.01, size=(NUM_CLASSES, NUM_CLASSES))
    noise = cls_noise[CLASS_OF_COMBO][:, CLASS_OF_COMBO]  # suit-symmetric
    noise = (noise - noise.T) / 2.0
    e = 0.5 + 0.35 * np.tanh(3.0 * (h[:, None] - h[None, :])) + noise
    e = np.clip(e, 0.01, 0.99)
    e = (e + (1.0 - e.T)) / 2.0
    e[~conflict_mask()] = np.nan
    e.setflags(write=False)
    return e


# ---------------------------------------------------------------- protocol game
def _nonconflicting(i: int) -> np.ndarray:
    return np.flatnonzero((COMBO_MASKS & COMBO_MASKS[i]) == 0)


class PushFoldState(DealThenBetState):
    """A state of :class:`PushFoldGame` (OpenSpiel-style protocol).

    Chance deals SB's combo (1326 outcomes) then BB's (1225); SB (player 0) acts, then BB
    (player 1).  Actions: 0 = fold, 1 = shove / call.  Terminal returns are in bb and use
    the expected showdown result (the board is integrated out through the equity)."""

    def __init__(self, *, game: PushFoldGame) -> None:
        self._game = game
        self.sb_combo: int = -1
        self.bb_combo: int = -1
        self.history: list[int] = []

    # -- protocol
    def dealing(self) -> bool:
        return self.sb_combo < 0 or self.bb_combo < 0

    def is_terminal(self) -> bool:
        h = self.history
        return (len(h) == 1 and h[0] == FOLD) or len(h) == 2

    def player_actions(self) -> list[int]:
        return [FOLD, GII]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.sb_combo < 0:
            return uniform_outcomes(range(NUM_COMBOS))
        if self.bb_combo < 0:
            return uniform_outcomes(_nonconflicting(self.sb_combo).tolist())
        return []

    def apply_action(self, action: int) -> None:
        a = int(action)
        p = self.current_player()
        if p == CHANCE:
            if not 0 <= a < NUM_COMBOS:
                raise ConfigError(f"deal {action} is not a combo index 0..1325")
            if self.sb_combo < 0:
                self.sb_combo = a
            else:
                if (COMBO_MASKS[a] & COMBO_MASKS[self.sb_combo]) != 0:
                    raise CardError(
                        f"BB combo {combo_str(a)} shares a card with SB's "
                        f"{combo_str(self.sb_combo)}"
                    )
                self.bb_combo = a
            return
        if p == TERMINAL:
            raise ConfigError(f"action {action} applied to a terminal state")
        if a not in (FOLD, GII):
            raise ConfigError(f"illegal action {action}: 0 = fold, 1 = shove/call")
        self.history.append(a)

    def clone(self) -> PushFoldState:
        c = PushFoldState(game=self._game)
        c.sb_combo, c.bb_combo, c.history = self.sb_combo, self.bb_combo, list(self.history)
        return c

    def terminal_returns(self) -> list[float]:
        cfg = self._game.config
        h = self.history
        if h[0] == FOLD:
            u = -cfg.fold_loss
        elif h[1] == FOLD:
            u = cfg.steal_gain
        else:
            e = float(self._game.equity[self.sb_combo, self.bb_combo])
            u = cfg.stack * (2.0 * e - 1.0)
        return [u, -u]

    def information_state(self, player: int) -> str:
        combo = self.sb_combo if player == 0 else self.bb_combo
        hand = combo_str(combo) if combo >= 0 else "??"
        return ("SB " if player == 0 else "BB ") + hand + self.public_state_string()

    def public_state_string(self) -> str:
        names = {FOLD: " fold", GII: " allin"}
        return "".join(names[a] for a in self.history)

    def action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE:
            return combo_str(int(action))
        if self.current_player() == 1:
            return "call" if action == GII else "fold"
        return "shove" if action == GII else "fold"

    def acting_combo(self) -> int:
        """The combo of the player to act (SB's or BB's)."""
        p = self.current_player()
        if p not in (0, 1):
            raise ConfigError("no player to act in this state")
        return self.sb_combo if p == 0 else self.bb_combo


class PushFoldGame(NamedTwoPlayerGame, name="pushfold", actions=2):
    """Heads-up push/fold as a :class:`pokerlab.games.protocol.Game`."""

    def __init__(self, *, config: PushFoldConfig, equity: np.ndarray | None = None) -> None:
        self.config = config
        self.equity = check_equity_matrix(equity_matrix() if equity is None else equity)

    def info(self) -> GameInfo:
        """Returns are in big blinds (the whole stack is the most either side can win)."""
        st = float(self.config.stack)
        return GameInfo(num_players=2, num_distinct_actions=2, zero_sum=True, min_utility=-st,
                        max_utility=st, private_cards_first=True, max_game_length=2,
                        big_blind=BB_BLIND)

    def new_initial_state(self) -> PushFoldState:
        return PushFoldState(game=self)
