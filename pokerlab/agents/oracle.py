"""PokerKit as the oracle: play the same hand in both engines and compare step by step.

:func:`compare_hand` deals the same cards into a :class:`HoldemState` and a PokerKit
``NoLimitTexasHoldem`` state (tournament mode, so folding is legal only when facing a
bet), lets the seeded random agent choose from *our* legal set, and at every decision
checks that both engines agree on: the player to act, whether fold is legal, the
check/call amount, whether a raise is legal, the min and max raise-to, the pot, both
stacks and both current bets.  At the end it checks the final stacks.  It returns the
list of mismatches (empty when the engines agree).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from typing import Any

from pokerlab.agents.random_agent import DEFAULT_WEIGHTS, SplitMix64, check_weights, play_hand
from pokerlab.cards.cards import cards_str
from pokerlab.holdem.actions import Action, ActionKind, HoldemConfig, LegalActions
from pokerlab.holdem.engine import HoldemState
from pokerlab.holdem.events import CheckedOrCalled
from pokerlab.holdem.hand_loop import HandHooks
from pokerlab.holdem.phh import phh_actions, phh_line


def pokerkit_state(config: HoldemConfig, *, tournament: bool = True) -> Any:
    """A PokerKit heads-up NLHE state with the same setup (card dealing left manual)."""
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    return NoLimitTexasHoldem.create_state(
        (
            Automation.ANTE_POSTING,
            Automation.BET_COLLECTION,
            Automation.BLIND_OR_STRADDLE_POSTING,
            Automation.CARD_BURNING,
            Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
            Automation.HAND_KILLING,
            Automation.CHIPS_PUSHING,
            Automation.CHIPS_PULLING,
        ),
        False,
        config.ante,
        (config.small_blind, config.big_blind),
        config.big_blind,
        config.stacks,
        2,
        mode=Mode.TOURNAMENT if tournament else Mode.CASH_GAME,
    )


def _snapshot_ours(s: HoldemState) -> tuple[Any, ...]:
    lg = s.legal()
    return (lg.player, lg.can_fold, lg.call_amount, lg.can_raise,
            lg.min_raise_to if lg.can_raise else None,
            lg.max_raise_to if lg.can_raise else None,
            s.pot, tuple(s.stacks), tuple(s.bets))


def _snapshot_pk(pk: Any) -> tuple[Any, ...]:
    can_raise = pk.can_complete_bet_or_raise_to()
    return (pk.actor_index, pk.can_fold(), pk.checking_or_calling_amount, can_raise,
            pk.min_completion_betting_or_raising_to_amount if can_raise else None,
            pk.max_completion_betting_or_raising_to_amount if can_raise else None,
            pk.total_pot_amount, tuple(pk.stacks), tuple(pk.bets))


FIELDS = ("actor", "can_fold", "call_amount", "can_raise", "min_raise_to", "max_raise_to",
          "pot", "stacks", "bets")


def compare_hand(config: HoldemConfig, seed: int, weights: Sequence[int],
                 cards: Sequence[int] | None = None,
                 features: dict[str, int] | None = None) -> tuple[list[str], HoldemState]:
    """Play one seeded random hand in both engines; return (mismatches, our final state).

    ``features`` (if given) counts the situations met: ``min_raise``, ``all_in``,
    ``short_all_in_raise`` (all-in for less than a full raise), ``short_call`` (call
    all-in for less), ``fold``, ``showdown``, ``split``.
    """
    with warnings.catch_warnings():
        # PokerKit burns random cards and then warns when we deal one of them.
        warnings.filterwarnings("ignore", message="A card being dealt", category=UserWarning)
        return _compare_hand(config, seed, weights, cards, features)


def _bump(feats: dict[str, int], key: str) -> None:
    feats[key] = feats.get(key, 0) + 1


def _count_features(s: HoldemState, lg: LegalActions, act: Action,
                    feats: dict[str, int]) -> None:
    if act.kind == ActionKind.FOLD:
        _bump(feats, "fold")
    elif act.kind == ActionKind.CHECK_CALL:
        if lg.call_amount < s.to_call:
            _bump(feats, "short_call")
    else:
        full = max(s.bets) + max(s.last_raise, s.config.big_blind)
        if act.amount == lg.max_raise_to:
            _bump(feats, "all_in")
            if act.amount < full:
                _bump(feats, "short_all_in_raise")
        if act.amount == lg.min_raise_to and act.amount == full:
            _bump(feats, "min_raise")


class _Stop(Exception):
    """The engines disagree: the hand stops here (the mismatch is in ``_Compare.bad``)."""


class _Compare(HandHooks):
    """The oracle's comparison along one hand of the hand loop: PokerKit gets the same
    cards and moves, and both engines are compared before every move."""

    def __init__(self, config: HoldemConfig, feats: dict[str, int]) -> None:
        self.pk = pokerkit_state(config)
        self.feats = feats
        self.bad: list[str] = []
        self.step = 0
        self._board = 0

    def dealt(self, state: HoldemState) -> None:
        self.pk.deal_hole(cards_str(state.hole[0]))
        self.pk.deal_hole(cards_str(state.hole[1]))

    def before_board(self, state: HoldemState) -> None:
        self._board = len(state.board)

    def after_board(self, state: HoldemState) -> None:
        if not self.pk.can_deal_board():
            self.bad.append(f"step {self.step}: we deal the board, PokerKit does not "
                            f"(actor {self.pk.actor_index})")
            raise _Stop
        self.pk.deal_board(cards_str(state.board[self._board:]))

    def before_action(self, state: HoldemState, action: Action) -> None:
        a = _snapshot_ours(state)
        b = _snapshot_pk(self.pk)
        if a != b:
            diffs = [f"{f}: ours {x!r} pokerkit {y!r}"
                     for f, x, y in zip(FIELDS, a, b, strict=True) if x != y]
            self.bad.append(f"step {self.step} ({state.betting_string()}): " + "; ".join(diffs))
            raise _Stop
        _count_features(state, state.legal(), action, self.feats)
        if action.kind == ActionKind.FOLD:
            self.pk.fold()
        elif action.kind == ActionKind.CHECK_CALL:
            self.pk.check_or_call()
        else:
            self.pk.complete_bet_or_raise_to(action.amount)
        self.step += 1


def _compare_hand(config: HoldemConfig, seed: int, weights: Sequence[int],
                  cards: Sequence[int] | None,
                  features: dict[str, int] | None) -> tuple[list[str], HoldemState]:
    w = check_weights(weights)
    feats = features if features is not None else {}
    hooks = _Compare(config, feats)
    ours = HoldemState(config=config)
    try:  # the seeded random agents on the one hand loop, PokerKit beside (the hooks)
        play_hand(ours, SplitMix64(seed), w, cards, hooks=hooks)
    except _Stop:
        return hooks.bad, ours
    pk, bad = hooks.pk, hooks.bad
    if pk.status:
        bad.append(f"hand over for us ({ours.betting_string()}) but PokerKit still running "
                   f"(actor {pk.actor_index}, can deal board {pk.can_deal_board()})")
        return bad, ours
    fin = ours.final_stacks()
    if ours.is_showdown:
        _bump(feats, "showdown")
        if ours.showdown_outcome() == 0:
            _bump(feats, "split")
    if any(isinstance(ev, CheckedOrCalled) and ev.amount < 0
           for ev in ours.history):  # pragma: no cover
        bad.append("negative call")
    if tuple(pk.stacks) != fin:
        bad.append(f"final stacks: ours {fin} pokerkit {tuple(pk.stacks)} "
                   f"({ours.betting_string()})")
    mine = [_strip_show(a) for a in phh_actions(ours)]
    theirs = pokerkit_actions(pk)
    if mine != theirs:
        bad.append(f"PHH action lists differ: ours {mine} pokerkit {theirs}")
    return bad, ours


def _strip_show(action: str) -> str:
    toks = action.split()
    return " ".join(toks[:2]) if len(toks) > 1 and toks[1] == "sm" else action


def pokerkit_actions(pk: Any) -> list[str]:
    """PHH-style action list of a PokerKit state's operations (showdowns as ``pN sm``)."""
    from pokerkit import (
        BoardDealing,
        CheckingOrCalling,
        CompletionBettingOrRaisingTo,
        Folding,
        HoleCardsShowingOrMucking,
        HoleDealing,
    )

    codes = ((HoleDealing, "dh"), (BoardDealing, "db"), (Folding, "f"),
             (CheckingOrCalling, "cc"), (CompletionBettingOrRaisingTo, "cbr"),
             (HoleCardsShowingOrMucking, "sm"))
    out: list[str] = []
    for op in pk.operations:
        code = next((c for t, c in codes if isinstance(op, t)), None)
        if code is None:  # blinds, antes, burns, chips moved: not PHH actions
            continue
        cards = "".join(map(repr, op.cards)) if code in ("dh", "db") else ""
        out.append(phh_line(code, getattr(op, "player_index", -1), cards,
                            getattr(op, "amount", 0)))
    return out


def random_config(rng: random.Random) -> HoldemConfig:
    """A random heads-up setup: varied blinds, antes, equal or unequal, often short stacks
    (so that short all-ins, all-in blinds calls and uncalled returns are frequent)."""
    sb = rng.choice((1, 1, 2, 5, 25, 50))
    bb = 2 * sb if rng.random() < 0.8 else sb + rng.randint(1, 3 * sb)
    ante = rng.choice((0, 0, 0, 1, sb, bb // 4))
    depth = rng.choice((2, 5, 10, 25, 100, 200))

    def stack(blind: int) -> int:
        return rng.randint(ante + blind + 1, ante + bb + depth * bb)

    s0 = stack(bb)
    s1 = s0 if rng.random() < 0.25 else stack(sb)
    return HoldemConfig(stacks=(s0, s1), small_blind=sb, big_blind=bb, ante=ante)


def run_differential(n: int, seed: int, weights: Sequence[int] = DEFAULT_WEIGHTS,
                     *, progress: Any = None) -> tuple[list[str], dict[str, int]]:
    """``n`` seeded random hands (random setups) in both engines; returns (mismatches,
    feature counts).  Hand ``i`` uses setup ``random_config(Random(seed))`` draw ``i``
    and agent seed ``seed * 1_000_003 + i``."""
    rng = random.Random(seed)
    bad: list[str] = []
    feats: dict[str, int] = {}
    for i in range(n):
        cfg = random_config(rng)
        b, _ = compare_hand(cfg, seed * 1_000_003 + i, weights, features=feats)
        bad.extend(f"hand {i} [{cfg}]: {m}" for m in b)
        if progress is not None:
            progress(i)
    feats["hands"] = n
    return bad, feats
