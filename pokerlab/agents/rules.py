"""Rule-based HUNL agents: ``call``, ``raise``, ``tag`` and ``pushfold``.

* ``call`` -- a calling station: always checks or calls.
* ``raise`` -- always bets or raises the pot (raise to ``current bet + pot after
  calling``), at least the minimum raise, all-in when the pot raise is not below the stack
  (or no smaller raise is legal); calls when it may not raise.
* ``tag`` -- a tight-aggressive baseline (deterministic given the view):

  - preflop, hands are ranked by their all-in equity against a random hand (the exact
    1326 x 1326 matrix of :func:`pokerlab.cards.equity.preflop_equity_matrix`); ``q`` is
    the share of combos whose equity is not above the hand's (1 = aces).  Unopened
    (button): raise to 2.5 bb with ``q >= 0.55``, else fold.  Facing a limp (big blind):
    raise to 4 bb with ``q >= 0.70``, else check.  Facing one raise: re-raise to 3x with
    ``q >= 0.92``, call with ``q >= 0.60`` when the call is at most 10% of the effective
    stack, else fold.  Facing two or more raises: all-in with ``q >= 0.97``, call with
    ``q >= 0.90`` when the call is at most 25% of the effective stack, else fold.
  - postflop, ``e`` is the equity against a random hand on this board (Monte Carlo,
    2,000 samples, seeded by the cards, so the same view gives the same number).  Not
    facing a bet: bet 75% of the pot with ``e >= 0.68``, else check.  Facing a bet with
    pot odds ``r = to_call / (pot + to_call)``: raise the pot with ``e >= 0.85``, call with
    ``e >= 0.45 + r / 2``, else fold.
  - Any raise that would leave less than a third of the stack behind is made all-in.
* ``pushfold`` -- when the effective stack is at most ``PUSHFOLD_MAX_BB`` big blinds, the
  exact push/fold Nash equilibrium of :mod:`pokerlab.pushfold` (solved per effective stack,
  rounded to 0.1 bb, cached): the button shoves or folds; the big blind facing any raise
  calls (or re-shoves) with its calling range, facing a limp shoves its calling range.
  Deeper, and in every spot the push/fold game does not have (postflop), it plays ``tag``.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

import numpy as np

from pokerlab.agents.base import PlayerView, RaisedTo
from pokerlab.holdem.engine import PREFLOP, Action, ActionKind
from pokerlab.rng import SplitMix64, pick

CHECK_CALL = Action(kind=ActionKind.CHECK_CALL)
FOLD = Action(kind=ActionKind.FOLD)

PUSHFOLD_MAX_BB = 15.0
"""Largest effective stack (big blinds) at which ``pushfold`` plays push/fold."""


def _raise(view: PlayerView, amount: int, *, commit_fraction: float = 1 / 3) -> Action:
    """A raise to about ``amount`` chips: clamped to the legal range, and all-in when it
    would leave less than ``commit_fraction`` of the stack behind.  Calls if no raise is
    legal."""
    if not view.can_raise:
        return CHECK_CALL
    lo, hi = view.min_raise_to, view.max_raise_to
    x = max(lo, min(int(amount), hi))
    p = view.player
    behind = view.stacks[p] + view.bets[p] - x
    total = view.stacks[p] + view.bets[p]
    if behind < commit_fraction * total:
        x = hi
    return Action(kind=ActionKind.RAISE, amount=x)


def pot_raise_to(view: PlayerView) -> int:
    """Raise-to chips of a pot-size bet/raise: call, then raise by the pot."""
    top = max(view.bets)
    return top + view.pot + view.to_call


class _CardBlind:
    """A deterministic agent whose play never looks at its cards (``call``, ``raise``)."""

    hand_independent = True
    """Its play never looks at its cards (LBR evaluates all hands at once)."""

    def __init__(self, *, name: str) -> None:
        self.name = name

    def reset(self, seed: int) -> None:
        pass

    def act(self, view: PlayerView) -> Action:
        raise NotImplementedError

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]:
        return [(self.act(view), 1.0)]


class CallAgent(_CardBlind):
    """``call``: always check or call."""

    def __init__(self, *, name: str = "call") -> None:
        super().__init__(name=name)

    def act(self, view: PlayerView) -> Action:
        return CHECK_CALL


class RaiseAgent(_CardBlind):
    """``raise``: always bet/raise the pot; all-in when short; call when no raise is legal."""

    def __init__(self, *, name: str = "raise") -> None:
        super().__init__(name=name)

    def act(self, view: PlayerView) -> Action:
        if not view.can_raise:
            return CHECK_CALL
        x = pot_raise_to(view)
        if x >= view.max_raise_to:
            return Action(kind=ActionKind.RAISE, amount=view.max_raise_to)
        return Action(kind=ActionKind.RAISE, amount=max(x, view.min_raise_to))


# ------------------------------------------------------------------------- tag
@lru_cache(maxsize=1)
def preflop_quantiles() -> np.ndarray:
    """Per combo (1326): share of combos whose all-in equity vs a random hand is not higher
    (suit-isomorphic combos tie; aces get 1.0)."""
    from pokerlab.cards.equity import preflop_equity_matrix

    m = preflop_equity_matrix()
    eq = np.round(np.nanmean(m, axis=1), 9)
    sorted_eq = np.sort(eq)
    return np.asarray(np.searchsorted(sorted_eq, eq, side="right"), dtype=np.float64) / eq.size


def combo_of(hole: tuple[int, ...]) -> int:
    from pokerlab.cards.cards import COMBO_INDEX

    return int(COMBO_INDEX[hole[0], hole[1]])


def board_equity(hole: tuple[int, ...], board: tuple[int, ...], *, samples: int = 2000) -> float:
    """Equity of ``hole`` against a uniformly random hand on ``board`` (Monte Carlo, seeded by
    the cards so the same cards give the same number)."""
    from pokerlab.cards.equity import monte_carlo_equity, one_hot

    seed = zlib.crc32(bytes([*hole, 99, *board]))
    res = monte_carlo_equity([one_hot(list(hole)), np.ones(1326)], list(board),
                             samples=samples, seed=seed)
    return float(res.equity[0])


def _effective(view: PlayerView) -> int:
    """Effective stack of the hand in chips (smaller starting stack)."""
    return min(view.config.stacks)


def _raises_this_street(view: PlayerView) -> int:
    return sum(isinstance(e, RaisedTo) for e in view.street_action_events()[view.street])


class TagAgent:
    """``tag``: the tight-aggressive rule set of the module docstring."""

    def __init__(self, *, name: str = "tag") -> None:
        self.name = name

    def reset(self, seed: int) -> None:
        pass

    def act(self, view: PlayerView) -> Action:
        if view.street == PREFLOP:
            return self._preflop(view)
        return self._postflop(view)

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]:
        return [(self.act(view), 1.0)]

    all_hands_live = True
    """:meth:`action_probabilities_all_hands` takes the combos to answer for (LBR)."""

    def action_probabilities_all_hands(self, view: PlayerView, live: np.ndarray | None = None
                                       ) -> tuple[list[Action], np.ndarray]:
        """The range query: ``(actions, probs[combo, k])`` for every combo as the hole
        cards (the hole of combo ``j`` is ``(COMBOS[j, 1], COMBOS[j, 0])``, which seeds
        the postflop equity as a per-combo :meth:`action_probabilities` with that hole
        does), for the combos in ``live`` (default: all the board does not block)."""
        return tag_range_query(view, live)

    def _preflop(self, view: PlayerView) -> Action:
        q = float(preflop_quantiles()[combo_of(view.hole)])
        bb = view.big_blind
        eff = _effective(view)
        raises = _raises_this_street(view)
        fold_or_check = FOLD if view.can_fold else CHECK_CALL
        if raises == 0:
            if view.to_call > 0:  # unopened button
                return _raise(view, int(2.5 * bb)) if q >= 0.55 else FOLD
            return _raise(view, 4 * bb) if q >= 0.70 else CHECK_CALL  # limped to the bb
        if raises == 1:
            if q >= 0.92:
                return _raise(view, 3 * max(view.bets))
            if q >= 0.60 and view.to_call <= 0.10 * eff:
                return CHECK_CALL
            return fold_or_check
        if q >= 0.97:
            return _raise(view, view.max_raise_to) if view.can_raise else CHECK_CALL
        if q >= 0.90 and view.to_call <= 0.25 * eff:
            return CHECK_CALL
        return fold_or_check

    def _postflop(self, view: PlayerView) -> Action:
        e = board_equity(view.hole, view.board)
        if view.to_call == 0:
            if e >= 0.68:
                top = max(view.bets)
                return _raise(view, top + int(0.75 * view.pot))
            return CHECK_CALL
        r = view.to_call / (view.pot + view.to_call)
        if e >= 0.85 and view.can_raise:
            return _raise(view, pot_raise_to(view))
        if e >= 0.45 + r / 2:
            return CHECK_CALL
        return FOLD


def _one_action_per_combo(rules: list[tuple[np.ndarray, Action]], default: Action,
                          live: np.ndarray) -> tuple[list[Action], np.ndarray]:
    """One-hot probabilities: the first rule whose mask holds, else ``default``."""
    cols: list[Action] = []
    choice = np.full(live.shape[0], -1, dtype=np.int64)
    for mask, act in [*rules, (np.ones(live.shape[0], dtype=bool), default)]:
        if act not in cols:
            cols.append(act)
        choice = np.where((choice < 0) & mask, cols.index(act), choice)
    probs = np.zeros((live.shape[0], len(cols)))
    idx = np.nonzero(live)[0]
    probs[idx, choice[idx]] = 1.0
    return cols, probs


_EQ_CACHE: dict[tuple[int, ...], np.ndarray] = {}


def board_equities(board: tuple[int, ...], live: np.ndarray, *, samples: int = 2000
                   ) -> np.ndarray:
    """:func:`board_equity` of every live combo (hole ``(COMBOS[j, 1], COMBOS[j, 0])``) on
    ``board`` in one kernel call (:func:`pokerlab.cards.range_kernels.
    equity_vs_random_each`), the same numbers; cached per board (NaN: not asked yet)."""
    from pokerlab.cards.cards import COMBOS, cards_mask
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.cards.range_kernels import equity_vs_random_each

    key = (samples, *board)
    eq = _EQ_CACHE.get(key)
    if eq is None:
        if len(_EQ_CACHE) > 16:
            _EQ_CACHE.clear()
        eq = _EQ_CACHE[key] = np.full(COMBOS.shape[0], np.nan)
    todo = np.nonzero(live & np.isnan(eq))[0].astype(np.int64)
    if todo.size:
        seeds = np.array([zlib.crc32(bytes([int(COMBOS[j, 1]), int(COMBOS[j, 0]), 99, *board]))
                          for j in todo.tolist()], dtype=np.int64)
        equity_vs_random_each(eval_tables(), _combos64(), np.array(list(board), dtype=np.int64),
                              len(board), cards_mask(list(board)), todo, seeds, samples, eq)
    return eq


@lru_cache(maxsize=1)
def _combos64() -> np.ndarray:
    from pokerlab.cards.cards import COMBOS

    return np.ascontiguousarray(COMBOS, dtype=np.int64)


def tag_range_query(view: PlayerView, live: np.ndarray | None = None
                    ) -> tuple[list[Action], np.ndarray]:
    """``tag``'s decision rule of the module docstring for every live combo at once (see
    :meth:`TagAgent.action_probabilities_all_hands`)."""
    from pokerlab.cards.cards import COMBO_MASKS, cards_mask

    blocked = (COMBO_MASKS & np.uint64(cards_mask(list(view.board)))) != 0
    lv = ~blocked if live is None else (np.asarray(live, dtype=bool) & ~blocked)
    if view.street == PREFLOP:
        q = preflop_quantiles()
        bb = view.big_blind
        eff = _effective(view)
        raises = _raises_this_street(view)
        fold_or_check = FOLD if view.can_fold else CHECK_CALL
        if raises == 0:
            if view.to_call > 0:
                return _one_action_per_combo([(q >= 0.55, _raise(view, int(2.5 * bb)))], FOLD,
                                             lv)
            return _one_action_per_combo([(q >= 0.70, _raise(view, 4 * bb))], CHECK_CALL, lv)
        if raises == 1:
            return _one_action_per_combo(
                [(q >= 0.92, _raise(view, 3 * max(view.bets))),
                 (q >= 0.60 if view.to_call <= 0.10 * eff else q > 2.0, CHECK_CALL)],
                fold_or_check, lv)
        shove = _raise(view, view.max_raise_to) if view.can_raise else CHECK_CALL
        return _one_action_per_combo(
            [(q >= 0.97, shove),
             (q >= 0.90 if view.to_call <= 0.25 * eff else q > 2.0, CHECK_CALL)],
            fold_or_check, lv)
    e = board_equities(tuple(view.board), lv)
    if view.to_call == 0:
        top = max(view.bets)
        return _one_action_per_combo([(e >= 0.68, _raise(view, top + int(0.75 * view.pot)))],
                                     CHECK_CALL, lv)
    r = view.to_call / (view.pot + view.to_call)
    rules: list[tuple[np.ndarray, Action]] = []
    if view.can_raise:
        rules.append((e >= 0.85, _raise(view, pot_raise_to(view))))
    rules.append((e >= 0.45 + r / 2, CHECK_CALL))
    return _one_action_per_combo(rules, FOLD, lv)


# ------------------------------------------------------------------------- pushfold
@lru_cache(maxsize=64)
def pushfold_strategies(stack_bb: float, ante_bb: float) -> tuple[np.ndarray, np.ndarray]:
    """Exact push/fold equilibrium (SB shove, BB call probabilities per combo)."""
    from pokerlab.pushfold.game import PushFoldConfig
    from pokerlab.pushfold.solver import solve

    sol = solve(PushFoldConfig(stack=stack_bb, ante=ante_bb))
    return sol.sb_shove, sol.bb_call


class PushFoldAgent:
    """``pushfold``: Nash push/fold at effective stacks up to ``max_bb``, ``tag`` above and
    outside the push/fold spots."""

    def __init__(self, *, name: str = "pushfold", max_bb: float = PUSHFOLD_MAX_BB,
                 seed: int = 0) -> None:
        self.name = name
        self.max_bb = float(max_bb)
        self.fallback = TagAgent(name=name)
        self.rng = SplitMix64(seed)

    def reset(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def _spot(self, view: PlayerView) -> tuple[str, float] | None:
        """("sb", shove prob) / ("bb", call prob) when this is a push/fold decision."""
        cfg = view.config
        bb = view.big_blind
        eff_bb = min(cfg.stacks) / bb
        if view.street != PREFLOP or eff_bb > self.max_bb:
            return None
        raises = _raises_this_street(view)
        stack_bb = round(eff_bb, 1)
        sb_shove, bb_call = pushfold_strategies(stack_bb, round(cfg.ante / bb, 3))
        c = combo_of(view.hole)
        if view.player == 1 and raises == 0 and view.to_call > 0:
            return ("sb", float(sb_shove[c]))
        if view.player == 0 and raises <= 1:
            return ("bb", float(bb_call[c]))
        return None

    def _spot_actions(self, view: PlayerView, side: str, p: float) -> list[tuple[Action, float]]:
        allin = (Action(kind=ActionKind.RAISE, amount=view.max_raise_to) if view.can_raise
                 else CHECK_CALL)
        if side == "sb":
            pairs = [(allin, p), (FOLD, 1.0 - p)]
        elif view.to_call == 0:  # limped to the big blind: shove the calling range
            pairs = [(allin, p), (CHECK_CALL, 1.0 - p)]
        else:
            # facing a raise: call an all-in (or a raise we cannot re-raise), else re-shove
            opp_all_in = view.stacks[view.opponent] == 0 or not view.can_raise
            pairs = [(CHECK_CALL if opp_all_in else allin, p), (FOLD, 1.0 - p)]
        return [(a, q) for a, q in pairs if q > 0]

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]:
        spot = self._spot(view)
        if spot is None:
            return self.fallback.action_probabilities(view)
        return self._spot_actions(view, *spot)

    all_hands_live = True
    """:meth:`action_probabilities_all_hands` takes the combos to answer for (LBR)."""

    def action_probabilities_all_hands(self, view: PlayerView, live: np.ndarray | None = None
                                       ) -> tuple[list[Action], np.ndarray]:
        """The range query (see :meth:`TagAgent.action_probabilities_all_hands`): the
        push/fold spot's per-combo probabilities, else ``tag``'s."""
        spot = self._spot(view)
        if spot is None:
            return tag_range_query(view, live)
        from pokerlab.cards.cards import COMBO_MASKS, cards_mask

        side = spot[0]
        cfg = view.config
        sb_shove, bb_call = pushfold_strategies(round(min(cfg.stacks) / view.big_blind, 1),
                                                round(cfg.ante / view.big_blind, 3))
        p = np.asarray(sb_shove if side == "sb" else bb_call, dtype=np.float64)
        (a1, _), (a2, _) = self._spot_actions(view, side, 0.5)
        cols = [a1] if a1 == a2 else [a1, a2]
        probs = np.zeros((p.shape[0], len(cols)))
        probs[:, 0] += p
        probs[:, cols.index(a2)] += 1.0 - p
        blocked = (COMBO_MASKS & np.uint64(cards_mask(list(view.board)))) != 0
        lv = ~blocked if live is None else (np.asarray(live, dtype=bool) & ~blocked)
        return cols, probs * lv[:, None]

    def act(self, view: PlayerView) -> Action:
        spot = self._spot(view)
        if spot is None:
            return self.fallback.act(view)
        return pick(self._spot_actions(view, *spot), self.rng.uniform())
