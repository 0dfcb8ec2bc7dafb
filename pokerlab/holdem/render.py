"""Readable text of a hold'em hand (used by ``pokerlab holdem deal``)."""

from __future__ import annotations

from typing import Any

from pokerlab.cards.cards import card_str
from pokerlab.holdem.engine import (
    STREET_NAMES,
    UNKNOWN,
    HoldemState,
)
from pokerlab.holdem.events import BoardDealt, CheckedOrCalled, Folded, HoleDealt, RaisedTo, Shown

SEAT_NAMES = ("p1 (big blind)", "p2 (button, small blind)")


def _cards(cards: Any) -> str:
    return " ".join("??" if c == UNKNOWN else card_str(int(c)) for c in cards)


def describe_hand(state: HoldemState) -> list[str]:
    """Lines describing the hand so far: setup, each street's actions, the result."""
    c = state.config
    lines = [str(c)]
    street_line: list[str] = []
    header = "preflop"
    board: list[int] = []
    bets = (c.big_blind, c.small_blind)  # this street's bets before the event
    put = [c.ante + c.big_blind, c.ante + c.small_blind]  # chips in, per player
    shown = False

    def flush() -> None:
        if street_line:
            lines.append(f"{header}: " + ", ".join(street_line))
            street_line.clear()

    for ev in state.history:
        if isinstance(ev, HoleDealt):
            lines.append(f"{SEAT_NAMES[ev.player]}: {_cards(ev.cards)}, stack "
                         f"{c.stacks[ev.player]}")
        elif isinstance(ev, BoardDealt):
            flush()
            board.extend(ev.cards)
            bets = ev.bets
            header = f"{STREET_NAMES[ev.street]} [{_cards(board)}]"
            if shown:
                lines.append(f"{header}: (all-in, no betting)")
        elif isinstance(ev, Shown):
            shown = True
        elif isinstance(ev, Folded):
            street_line.append(f"p{ev.player + 1} folds")
        elif isinstance(ev, CheckedOrCalled):
            p = ev.player
            put[p] += ev.amount
            if ev.amount == 0:
                street_line.append(f"p{p + 1} checks")
            else:
                allin = put[p] == c.stacks[p]
                street_line.append(f"p{p + 1} calls {ev.amount}" + (" (all-in)" if allin else ""))
            bets = ev.bets
        elif isinstance(ev, RaisedTo):
            p = ev.player
            verb = "bets" if max(bets) == 0 else "raises to"
            put[p] += ev.raise_to - bets[p]
            allin = put[p] == c.stacks[p]
            street_line.append(f"p{p + 1} {verb} {ev.raise_to}" + (" (all-in)" if allin else ""))
            bets = ev.bets
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
