"""PokerStars text hand histories, converted with PokerKit's PokerStars parser.

PokerKit (``pokerkit.notation.PokerStarsParser``) turns each hand into PHH fields; this
module adds what it leaves out for cash games: amounts become integers in hundredths
when the file shows a currency (``$0.25`` -> 25) and in chips otherwise, and the chips
each player collected are read from the ``... collected X from pot`` lines (PokerKit's
own winnings pattern misses them), so results include the rake.  Only no-limit hold'em
hands are converted; any other hand, or one PokerKit cannot parse, becomes a
:class:`~pokerlab.hands.model.Rejection` with its file and position.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
from collections.abc import Callable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from pokerlab.hands.model import RawHand, Rejection

_HAND = re.compile(r"^PokerStars .+?(?=^\n{2,}|^PokerStars |\Z)", re.DOTALL | re.MULTILINE)
_CURRENCY = re.compile(r"[$\u20ac\u00a3]\s?\d")
_COLLECTED = re.compile(
    r"^(?P<player>.+?) collected \D?(?P<amount>[0-9.,]+) from (?:side |main )?pot", re.MULTILINE
)
_DATE = re.compile(r" - (\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})")


def _value_parser(scale: int) -> Callable[[str], int]:
    def parse(s: str) -> int:
        try:
            v = Decimal(s.replace(",", "")) * scale
        except InvalidOperation:
            raise ValueError(f"bad amount {s!r}") from None
        if v != v.to_integral_value():
            raise ValueError(f"amount {s!r} is not a whole number of units")
        return int(v)

    return parse


def _convert(block: str, parse_value: Callable[[str], int]) -> Any:
    from pokerkit.notation import PokerStarsParser

    if "Hold'em No Limit" not in block.split("\n", 1)[0]:
        raise ValueError("only no-limit hold'em hands are supported")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return PokerStarsParser()._parse(block, parse_value)


def iter_pokerstars_text(text: str, *, source: str = "<text>") -> Iterator[RawHand | Rejection]:
    """The hands of a PokerStars hand-history text, as :class:`RawHand` or :class:`Rejection`."""
    text = text.replace("\r\n", "\n")
    scale = 100 if _CURRENCY.search(text) else 1
    parse_value = _value_parser(scale)
    for pos, block in enumerate(_HAND.findall(text)):
        try:
            hh = _convert(block, parse_value)
            players = [str(p) for p in hh.players]
            collected = dict.fromkeys(players, 0)
            for m in _COLLECTED.finditer(block):
                name = m["player"]
                if name not in collected:
                    raise ValueError(f"'{name}' collects chips but is not seated")
                collected[name] += parse_value(m["amount"])
            played_at = None
            if m2 := _DATE.search(block.split("\n", 1)[0]):
                y, mo, d, hh_, mi, se = (int(x) for x in m2.groups())
                played_at = dt.datetime(y, mo, d, hh_, mi, se)
            yield RawHand(
                variant=str(hh.variant),
                antes=[int(x) for x in hh.antes],
                blinds_or_straddles=[int(x) for x in hh.blinds_or_straddles],
                min_bet=None if hh.min_bet is None else int(hh.min_bet),
                starting_stacks=[int(x) for x in hh.starting_stacks],
                actions=[str(a) for a in hh.actions],
                players=players,
                winnings=[collected[p] for p in players],
                hand=None if hh.hand is None else str(hh.hand),
                table=None if hh.table is None else str(hh.table),
                venue="PokerStars",
                played_at=played_at,
                source=source,
                position=pos,
            )
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            first = block.split("\n", 1)[0].strip()
            yield Rejection(
                source=source,
                position=pos,
                message=f"cannot convert PokerStars hand {first!r}: {exc}",
            )
