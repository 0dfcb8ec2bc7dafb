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

from pokerlab.agents.random_agent import (
    DEFAULT_WEIGHTS,
    SplitMix64,
    check_weights,
    choose,
    deal_cards,
)
from pokerlab.cards.cards import cards_str
from pokerlab.holdem.engine import (
    Action,
    ActionKind,
    HoldemConfig,
    HoldemState,
    LegalActions,
    Phase,
)
from pokerlab.holdem.events import CheckedOrCalled


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


def _compare_hand(config: HoldemConfig, seed: int, weights: Sequence[int],
                  cards: Sequence[int] | None,
                  features: dict[str, int] | None) -> tuple[list[str], HoldemState]:
    w = check_weights(weights)
    rng = SplitMix64(seed)
    cs = list(cards) if cards is not None else deal_cards(rng)
    ours = HoldemState(config=config)
    pk = pokerkit_state(config)
    bad: list[str] = []
    feats = features if features is not None else {}
    ours.deal_hole(cs[0:2])
    ours.deal_hole(cs[2:4])
    pk.deal_hole(cards_str(cs[0:2]))
    pk.deal_hole(cards_str(cs[2:4]))
    pos = 4
    step = 0
    while not ours.is_terminal:
        if ours.phase == Phase.DEAL_BOARD:
            n = ours.cards_due()
            ours.deal_board(cs[pos:pos + n])
            if not pk.can_deal_board():
                bad.append(f"step {step}: we deal the board, PokerKit does not "
                           f"(actor {pk.actor_index})")
                return bad, ours
            pk.deal_board(cards_str(cs[pos:pos + n]))
            pos += n
            continue
        a = _snapshot_ours(ours)
        b = _snapshot_pk(pk)
        if a != b:
            diffs = [f"{f}: ours {x!r} pokerkit {y!r}"
                     for f, x, y in zip(FIELDS, a, b, strict=True) if x != y]
            bad.append(f"step {step} ({ours.betting_string()}): " + "; ".join(diffs))
            return bad, ours
        lg = ours.legal()
        act = choose(lg, rng, w)
        _count_features(ours, lg, act, feats)
        ours.apply(act)
        if act.kind == 0:
            pk.fold()
        elif act.kind == 1:
            pk.check_or_call()
        else:
            pk.complete_bet_or_raise_to(act.amount)
        step += 1
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
    from pokerlab.holdem.phh import phh_actions

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

    out: list[str] = []
    for op in pk.operations:
        if isinstance(op, HoleDealing):
            out.append(f"d dh p{op.player_index + 1} " + "".join(map(repr, op.cards)))
        elif isinstance(op, BoardDealing):
            out.append("d db " + "".join(map(repr, op.cards)))
        elif isinstance(op, Folding):
            out.append(f"p{op.player_index + 1} f")
        elif isinstance(op, CheckingOrCalling):
            out.append(f"p{op.player_index + 1} cc")
        elif isinstance(op, CompletionBettingOrRaisingTo):
            out.append(f"p{op.player_index + 1} cbr {op.amount}")
        elif isinstance(op, HoleCardsShowingOrMucking):
            out.append(f"p{op.player_index + 1} sm")
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
