"""Readable text of a hold'em hand (used by ``pokerlab holdem deal``)."""

from __future__ import annotations

from typing import Any

from pokerlab.cards.cards import card_str
from pokerlab.holdem.engine import (
    STREET_NAMES,
    UNKNOWN,
    HoldemState,
    Phase,
)

SEAT_NAMES = ("p1 (big blind)", "p2 (button, small blind)")


def _cards(cards: Any) -> str:
    return " ".join("??" if c == UNKNOWN else card_str(int(c)) for c in cards)


def describe_hand(state: HoldemState) -> list[str]:
    """Lines describing the hand so far: setup, each street's actions, the result."""
    c = state.config
    lines = [str(c)]
    replay = HoldemState(config=c)
    street_line: list[str] = []
    header = "preflop"

    def flush() -> None:
        if street_line:
            lines.append(f"{header}: " + ", ".join(street_line))
            street_line.clear()

    for ev in state.history:
        kind = ev[0]
        if kind == "hole":
            p = ev[1]
            lines.append(f"{SEAT_NAMES[p]}: {_cards(ev[2])}, stack {c.stacks[p]}")
            replay.deal_hole(None if UNKNOWN in ev[2] else list(ev[2]))
            continue
        if kind == "board":
            flush()
            replay.deal_board(None if UNKNOWN in ev[1] else list(ev[1]))
            header = f"{STREET_NAMES[replay.street]} [{_cards(replay.board)}]"
            if replay.phase != Phase.BETTING and replay.showdown_order:
                lines.append(f"{header}: (all-in, no betting)")
            continue
        if kind == "show":
            continue
        p = ev[1]
        who = f"p{p + 1}"
        if kind == "fold":
            street_line.append(f"{who} folds")
            replay.fold()
        elif kind == "cc":
            amt = replay.legal().call_amount
            if amt == 0:
                street_line.append(f"{who} checks")
            else:
                allin = amt == replay.stacks[p]
                street_line.append(f"{who} calls {amt}" + (" (all-in)" if allin else ""))
            replay.check_or_call()
        else:
            to = ev[2]
            verb = "bets" if max(replay.bets) == 0 else "raises to"
            allin = to == replay.stacks[p] + replay.bets[p]
            street_line.append(f"{who} {verb} {to}" + (" (all-in)" if allin else ""))
            replay.raise_to(int(to))
    flush()
    if state.is_terminal:
        known = UNKNOWN not in (*state.hole[0], *state.hole[1], *state.board)
        if state.folded >= 0 or known:
            pay = state.payoffs()
            if state.folded >= 0:
                how = f"p{state.folded + 1} folded"
            else:
                o = state.showdown_outcome()
                how = "showdown, split pot" if o == 0 else f"showdown, p{1 if o > 0 else 2} wins"
            lines.append(f"result: {how}; p1 {pay[0]:+d}, p2 {pay[1]:+d} "
                         f"(pot {state.pot})")
    return lines
