"""Money in PHH hands: every amount of a hand as an integer in the smallest unit it needs
(:func:`scale_money`; cents at least when the hand names a currency), exactly, from the
:class:`~decimal.Decimal` values the PHH reader (:mod:`pokerlab.hands.phh`) parses."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from pokerlab.errors import HandHistoryError

CENT_CURRENCIES = frozenset({"$", "\u20ac", "\u00a3", "USD", "EUR", "GBP", "CAD", "AUD", "CHF"})
"""Currencies whose amounts are stored in cents (hundredths) at least."""


_MONEY_FIELDS = ("antes", "blinds_or_straddles", "min_bet", "starting_stacks", "rake", "_rake")


_RESULT_FIELDS = ("finishing_stacks", "winnings")


def _places(x: Any) -> int:
    if isinstance(x, Decimal):
        e = x.normalize().as_tuple().exponent
        return -e if isinstance(e, int) and e < 0 else 0
    if isinstance(x, float) and not x.is_integer():
        return _places(Decimal(repr(x)))
    return 0


def _cbr_amount(a: str) -> str | None:
    """The amount text of a ``pN cbr X`` action (``None`` for other actions)."""
    w = a.split("#", 1)[0].split()
    if len(w) == 3 and w[1] == "cbr" and w[0][:1] == "p":
        return w[2]
    return None


def scale_money(d: dict[str, Any]) -> tuple[dict[str, Any], str, str | None]:
    """Amounts of a PHH table in the smallest unit they need: ``(table, unit, currency)``.

    The unit is the smallest power of ten that makes every ante, blind, ``min_bet``,
    starting stack, ``rake`` and bet amount whole, and at least a cent (0.01) when the
    table names a currency (``currency = 'USD'`` or ``currency_symbol = '$'``...).
    Finishing stacks and winnings are scaled by the same factor (they may keep a
    fraction: a split pot's odd unit).  Decimals are exact (the reader parses them as
    :class:`~decimal.Decimal`, never as binary floats).
    """
    cur_v = d.get("currency") or d.get("currency_symbol")
    currency = None if cur_v is None else str(cur_v)
    places = 2 if currency is not None and currency.upper() in CENT_CURRENCIES else 0
    for k in _MONEY_FIELDS:
        v = d.get(k)
        for x in v if isinstance(v, list) else [v]:
            places = max(places, _places(x))
    actions = d.get("actions")
    amounts: list[str | None] = []
    if isinstance(actions, list):
        amounts = [_cbr_amount(a) if isinstance(a, str) else None for a in actions]
        for t in amounts:
            if t is not None and "." in t:
                try:
                    places = max(places, _places(Decimal(t)))
                except InvalidOperation:
                    raise HandHistoryError(f"bad amount {t!r} in the actions") from None
    if places == 0:
        return d, "1", currency
    if places > 9:
        raise HandHistoryError(f"amounts with {places} decimal places (at most 9 are supported)")
    f = Decimal(10) ** places

    def sc(x: Any, name: str) -> Any:
        if isinstance(x, bool) or not isinstance(x, (int, float, Decimal)):
            return x  # left for the field checks to report
        y = (x if isinstance(x, (int, Decimal)) else Decimal(repr(x))) * f
        return int(y) if y == int(y) else float(y)

    out = dict(d)
    for k in (*_MONEY_FIELDS, *_RESULT_FIELDS):
        v = d.get(k)
        if v is not None:
            out[k] = [sc(x, k) for x in v] if isinstance(v, list) else sc(v, k)
    if isinstance(actions, list):
        new_actions = []
        for a, t in zip(actions, amounts, strict=True):
            if t is None:
                new_actions.append(a)
                continue
            try:
                y = Decimal(t) * f
            except InvalidOperation:
                raise HandHistoryError(f"bad amount {t!r} in action {a!r}") from None
            head = a.split("#", 1)[0].split()
            new_actions.append(f"{head[0]} cbr {int(y) if y == int(y) else y}")
        out["actions"] = new_actions
    unit = format(Decimal(1) / f, "f")
    return out, unit, currency
