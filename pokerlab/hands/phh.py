"""A fast reader for PHH (``.phh``: one hand, ``.phhs``: many) hand histories.

PHH is TOML (https://github.com/uoftcprg/phh-std).  PokerKit's ``HandHistory.loads`` goes
through the general ``tomllib`` parser and builds a large dataclass per hand, which tops
out at a few thousand hands per second.  Almost every PHH file in the wild is written
one ``key = value`` per line with plain integers, plain single-quoted strings and flat
lists of those, so this module reads that layout directly and falls back to ``tomllib``
for a hand whenever any line is outside it (multi-line arrays, escapes, floats, dates,
trailing comments, ...).  The two paths give the same values; the test-suite checks
the fast path against PokerKit's parser on all 10,000 Pluribus hands.

Money: decimal amounts (``0.50``, ``200.30``) are parsed exactly as
:class:`~decimal.Decimal` (by the line reader, or ``tomllib`` with ``parse_float=Decimal``)
and :func:`~pokerlab.hands.phh_money.scale_money` stores every amount of a hand as an
integer in the smallest unit it needs (cents at least when the hand names a currency);
the unit and currency go into the :class:`~pokerlab.hands.model.RawHand`.

Files may be compressed (``.xz``, ``.gz``, ``.bz2``).  Every hand is returned either as a
:class:`~pokerlab.hands.model.RawHand` or as a :class:`~pokerlab.hands.model.Rejection`
naming its file and position, so one bad hand never stops the others.
"""

from __future__ import annotations

import datetime as dt
import math
import operator
import re
import tomllib
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from pokerlab.errors import HandHistoryError
from pokerlab.hands.model import RawHand, Rejection
from pokerlab.hands.phh_money import CENT_CURRENCIES, scale_money
from pokerlab.hands.textfile import read_text  # noqa: F401 - re-exported

__all__ = [
    "parse_phh_fields",
    "raw_hand_from_fields",
    "read_text",
    "iter_phh_text",
]


_HEADER = re.compile(r"^\[([^\]\n]+)\][ \t\r]*$", re.MULTILINE)


_INT_ONLY = frozenset({int})
_STR_ONLY = frozenset({str})


class _Slow(Exception):
    """The fast path met something outside its subset: use tomllib for this hand."""


def _fast_fields(text: str) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for line in text.split("\n"):
        if not line or line[0] == "#":
            continue
        k, sep, v = line.partition(" = ")
        if not sep:
            if line.strip():
                raise _Slow
            continue
        k = k.strip()
        v = v.rstrip()
        if not v or not k.isidentifier() or k in d:
            raise _Slow
        c = v[0]
        if c == "[":
            if v[-1] != "]":
                raise _Slow
            inner = v[1:-1].strip()
            if not inner:
                d[k] = []
            elif inner[0] == "'":
                if inner[-1] != "'":
                    raise _Slow
                items = inner[1:-1].split("', '")
                if inner.count("'") != 2 * len(items):
                    raise _Slow
                d[k] = items
            else:
                parts = inner.split(",")
                try:
                    d[k] = list(map(int, parts))
                except ValueError:
                    d[k] = [_decimal(x) for x in parts]
        elif c == "'":
            if len(v) < 2 or v[-1] != "'" or "'" in v[1:-1]:
                raise _Slow
            d[k] = v[1:-1]
        elif c == '"':
            if len(v) < 2 or v[-1] != '"' or '"' in v[1:-1] or "\\" in v:
                raise _Slow
            d[k] = v[1:-1]
        elif v == "true":
            d[k] = True
        elif v == "false":
            d[k] = False
        else:
            try:
                d[k] = int(v)
            except ValueError:
                d[k] = _decimal(v)
    return d


def _decimal(text: str) -> Decimal:
    """A TOML float as an exact decimal (``_Slow`` for anything else: inf, nan, ...)."""
    t = text.strip().replace("_", "")
    if not t or t[0] not in "+-0123456789" or t[-1] not in "0123456789":
        raise _Slow
    try:
        x = Decimal(t)
    except InvalidOperation:
        raise _Slow from None
    if not x.is_finite():
        raise _Slow
    return x


def parse_phh_fields(text: str) -> dict[str, Any]:
    """The TOML table of one PHH hand, through the fast path or ``tomllib``.

    Raises :class:`HandHistoryError` on text that is not valid TOML.
    """
    try:
        return _fast_fields(text)
    except _Slow:
        pass
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise HandHistoryError(f"not valid PHH/TOML: {exc}") from None


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool):
        raise HandHistoryError(f"field {name!r}: expected a number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, (float, Decimal)) and not _finite(value):
        raise HandHistoryError(f"field {name!r}: {value} is not a finite number of chips")
    if isinstance(value, (float, Decimal)) and value == int(value):
        return int(value)
    raise HandHistoryError(f"field {name!r}: {value!r} is not a number of chips")


def _finite(value: float | Decimal) -> bool:
    if isinstance(value, Decimal):
        return value.is_finite()
    return isinstance(value, int) or math.isfinite(value)


def _int_list(value: Any, name: str, n: int | None) -> list[int]:
    if type(value) is list and set(map(type, value)) <= _INT_ONLY:
        if n is not None and len(value) != n:
            raise HandHistoryError(f"field {name!r} has {len(value)} entries for {n} players: {value!r}")
        return value
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool) and n is not None:
        return [_int(value, name)] * n
    if not isinstance(value, list):
        raise HandHistoryError(f"field {name!r}: expected a list of numbers, got {value!r}")
    out = [_int(x, name) for x in value]
    if n is not None and len(out) != n:
        raise HandHistoryError(f"field {name!r} has {len(out)} entries for {n} players: {value!r}")
    return out


def _num_list(value: Any, name: str, n: int) -> list[float]:
    """A list of chip counts that may hold fractions (split pots with an odd chip)."""
    if type(value) is list and len(value) == n and set(map(type, value)) <= _INT_ONLY:
        return value
    if not isinstance(value, list) or len(value) != n:
        raise HandHistoryError(f"field {name!r}: expected {n} numbers, got {value!r}")
    out: list[float] = []
    for x in value:
        if isinstance(x, bool) or not isinstance(x, (int, float, Decimal)):
            raise HandHistoryError(f"field {name!r}: {x!r} is not a number")
        if not _finite(x):
            raise HandHistoryError(f"field {name!r}: {x} is not a finite number of chips")
        out.append(int(x) if x == int(x) else float(x))
    return out


def _str_or_none(value: Any) -> str | None:
    if value is None:
        return None
    return str(value)


def _fast_played_at(d: dict[str, Any]) -> dt.datetime | None:
    """:func:`_played_at` of the fast readers' raw fields (text numbers taken as ints; a
    non-number is left to the slow reader)."""
    if not ("year" in d or "month" in d or "day" in d or "time" in d):
        return None
    try:
        dd: dict[str, Any] = {k: int(d[k]) for k in ("year", "month", "day") if k in d}
    except ValueError:
        raise _Slow from None
    if "time" in d:
        dd["time"] = d["time"]
    return _played_at(dd)


def _played_at(d: dict[str, Any]) -> dt.datetime | None:
    year, month, day = d.get("year"), d.get("month"), d.get("day")
    if not (isinstance(year, int) and isinstance(month, int) and isinstance(day, int)):
        return None
    t = d.get("time")
    try:
        if isinstance(t, dt.time):
            return dt.datetime(year, month, day, t.hour, t.minute, t.second)
        if isinstance(t, str) and re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", t):
            parts = [int(x) for x in t.split(":")] + [0]
            return dt.datetime(year, month, day, parts[0], parts[1], parts[2])
        return dt.datetime(year, month, day)
    except ValueError as exc:
        raise HandHistoryError(f"bad date {year}-{month}-{day} {t!r}: {exc}") from None


def raw_hand_from_fields(d: dict[str, Any], *, source: str = "", position: int = 0) -> RawHand:
    """Build a :class:`RawHand` from a PHH table; raises :class:`HandHistoryError`.

    Amounts are scaled to the hand's smallest unit first (:func:`scale_money`).
    """
    d, unit, currency = scale_money(d)
    variant = d.get("variant")
    if not isinstance(variant, str):
        raise HandHistoryError(f"missing or bad field 'variant': {variant!r}")
    stacks_v = d.get("starting_stacks")
    if stacks_v is None:
        raise HandHistoryError("missing field 'starting_stacks'")
    starting = _int_list(stacks_v, "starting_stacks", None)
    n = len(starting)
    actions = d.get("actions")
    if type(actions) is not list or not set(map(type, actions)) <= _STR_ONLY:
        raise HandHistoryError(f"missing or bad field 'actions': {actions!r}")
    players_v = d.get("players")
    players: list[str] | None = None
    if players_v is not None:
        if not isinstance(players_v, list) or len(players_v) != n:
            raise HandHistoryError(f"field 'players' {players_v!r} does not list {n} players")
        players = [str(p) for p in players_v]
    fin_v = d.get("finishing_stacks")
    win_v = d.get("winnings")
    min_bet = d.get("min_bet")
    rake_v = d.get("rake", d.get("_rake"))
    return RawHand(
        variant=variant,
        antes=_int_list(d.get("antes", 0), "antes", n),
        blinds_or_straddles=_int_list(d.get("blinds_or_straddles", 0), "blinds_or_straddles", n),
        min_bet=None if min_bet is None else _int(min_bet, "min_bet"),
        starting_stacks=starting,
        actions=actions,
        players=players,
        finishing_stacks=None if fin_v is None else _num_list(fin_v, "finishing_stacks", n),
        winnings=None if win_v is None else _num_list(win_v, "winnings", n),
        hand=_str_or_none(d.get("hand")),
        table=_str_or_none(d.get("table")),
        venue=_str_or_none(d.get("venue")),
        played_at=_played_at(d),
        unit=unit,
        currency=currency,
        rake=None if rake_v is None else _int(rake_v, "rake"),
        source=source,
        position=position,
    )


def _q(v: str) -> str:
    if len(v) >= 2:
        c = v[0]
        if c == "'" and v[-1] == "'" and "'" not in v[1:-1]:
            return v[1:-1]
        if c == '"' and v[-1] == '"' and '"' not in v[1:-1] and "\\" not in v:
            return v[1:-1]
    raise _Slow


def _ilist(v: str, n: int) -> list[int]:
    if not v or v[0] != "[" or v[-1] != "]":
        raise _Slow
    try:
        out = list(map(int, v[1:-1].split(",")))
    except ValueError:
        raise _Slow from None
    if n >= 0 and len(out) != n:
        raise _Slow
    return out


def _nlist(v: str, n: int) -> list[float]:
    if not v or v[0] != "[" or v[-1] != "]":
        raise _Slow
    parts = v[1:-1].split(",")
    if len(parts) != n:
        raise _Slow
    try:
        return list(map(int, parts))  # type: ignore[arg-type]
    except ValueError:
        pass
    try:
        fl = list(map(float, parts))
    except ValueError:
        raise _Slow from None
    return [int(x) if x.is_integer() else x for x in fl]


def _slist(v: str) -> list[str]:
    if len(v) < 2 or v[0] != "[" or v[-1] != "]":
        raise _Slow
    inner = v[1:-1].strip()
    if not inner:
        return []
    if inner[0] != "'" or inner[-1] != "'":
        raise _Slow
    items = inner[1:-1].split("', '")
    if inner.count("'") != 2 * len(items):
        raise _Slow
    return items


def _opt_str(v: str | None) -> str | None:
    if v is None:
        return None
    if v and v[0] in "'\"":
        return _q(v)
    try:
        return str(int(v))
    except ValueError:
        raise _Slow from None


_SPLIT_EQ = operator.methodcaller("split", " = ", 1)


def _fast_raw(text: str, source: str, position: int) -> RawHand:
    """The fields pokerlab uses, read directly (``_Slow`` unless the layout is plain).

    Plain layout: every line is ``key = value`` with a bare key, no blank or comment lines
    inside the hand, no multi-line values, no key twice.  Values of fields pokerlab does
    not use are not interpreted.
    """
    lines = text.strip().split("\n")
    try:
        d: dict[str, str] = dict(map(_SPLIT_EQ, lines))
    except ValueError:
        raise _Slow from None
    if len(d) != len(lines) or not all(map(str.isidentifier, d)):
        raise _Slow
    get = d.get
    if "." in text and (
        "." in get("starting_stacks", "")
        or "." in get("antes", "")
        or "." in get("blinds_or_straddles", "")
        or "." in get("min_bet", "")
        or "." in get("actions", "")
        or "." in get("finishing_stacks", "")
        or "." in get("winnings", "")
    ):
        return _fast_money(d, source, position)
    if "currency" in d or "currency_symbol" in d or "rake" in d or "_rake" in d:
        return _fast_money(d, source, position)
    try:
        stacks_t = d["starting_stacks"]
        variant_t = d["variant"]
        antes_t = d["antes"]
        blinds_t = d["blinds_or_straddles"]
        actions_t = d["actions"]
    except KeyError:
        raise _Slow from None
    # inline _ilist / _q / _slist for the common case (same checks)
    if stacks_t[:1] != "[" or stacks_t[-1:] != "]":
        raise _Slow
    try:
        stacks = list(map(int, stacks_t[1:-1].split(",")))
    except ValueError:
        raise _Slow from None
    n = len(stacks)
    variant = _q(variant_t)
    antes = _ilist(antes_t, n)
    blinds = _ilist(blinds_t, n)
    actions = _slist(actions_t)
    players = get("players")
    fin = get("finishing_stacks")
    win = get("winnings")
    min_bet = get("min_bet")
    played_at = _fast_played_at(d)
    plist = None if players is None else _slist(players)
    if plist is not None and len(plist) != n:
        raise _Slow
    try:
        mb = None if min_bet is None else int(min_bet)
    except ValueError:
        raise _Slow from None
    hand_t = get("hand")
    table_t = get("table")
    venue_t = get("venue")
    return RawHand(
        variant=variant,
        antes=antes,
        blinds_or_straddles=blinds,
        min_bet=mb,
        starting_stacks=stacks,
        actions=actions,
        players=plist,
        finishing_stacks=None if fin is None else _nlist(fin, n),
        winnings=None if win is None else _nlist(win, n),
        hand=None if hand_t is None else _opt_str(hand_t),
        table=None if table_t is None else _opt_str(table_t),
        venue=None if venue_t is None else _opt_str(venue_t),
        played_at=played_at,
        source=source,
        position=position,
    )


_UNITS = {p: format(Decimal(1) / Decimal(10) ** p, "f") for p in range(10)}


def _num_text(t: str) -> tuple[str, str]:
    """``" 12.50"`` -> ("12", "50"); ``_Slow`` unless plain digits with an optional fraction."""
    t = t.strip()
    whole, _dot, frac = t.partition(".")
    if not whole.isdigit() or not whole.isascii() or (_dot and not (frac.isdigit() and frac.isascii())):
        raise _Slow
    return whole, frac


def _places_text(frac: str) -> int:
    return len(frac.rstrip("0"))


def _fast_money(d: dict[str, str], source: str, position: int) -> RawHand:
    """:func:`_fast_raw` for hands with decimal amounts or money fields: the same values as
    :func:`scale_money` + :func:`raw_hand_from_fields`, with string arithmetic instead of
    ``Decimal`` (``_Slow`` for anything unusual: the general reader then decides)."""
    try:
        variant = _q(d["variant"])
        actions = _slist(d["actions"])
        stacks_t = d["starting_stacks"]
        antes_t = d["antes"]
        blinds_t = d["blinds_or_straddles"]
    except KeyError:
        raise _Slow from None

    def items(v: str) -> list[tuple[str, str]]:
        if not v or v[0] != "[" or v[-1] != "]":
            raise _Slow
        return [_num_text(x) for x in v[1:-1].split(",")]

    stacks = items(stacks_t)
    n = len(stacks)
    antes = items(antes_t)
    blinds = items(blinds_t)
    if len(antes) != n or len(blinds) != n:
        raise _Slow
    min_bet = None if "min_bet" not in d else _num_text(d["min_bet"])
    rake_t = d["rake"] if "rake" in d else d.get("_rake")
    rake = None if rake_t is None else _num_text(rake_t)
    cbr: list[tuple[int, tuple[str, str], str]] = []
    for k, a in enumerate(actions):
        w = a.split("#", 1)[0].split()
        if len(w) == 3 and w[1] == "cbr" and w[0][:1] == "p":
            cbr.append((k, _num_text(w[2]), w[0]))
    # as scale_money: ``currency or currency_symbol`` (an empty currency falls through)
    cur = (_q(d["currency"]) if "currency" in d else None) or (
        _q(d["currency_symbol"]) if "currency_symbol" in d else None
    )
    places = 2 if cur is not None and cur.upper() in CENT_CURRENCIES else 0
    for group in (stacks, antes, blinds):
        for _w, f in group:
            places = max(places, _places_text(f))
    for x in (min_bet, rake):
        if x is not None:
            places = max(places, _places_text(x[1]))
    for _k, x, _p in cbr:
        places = max(places, _places_text(x[1]))
    if places > 9:
        raise _Slow
    scale = 10**places

    def whole(x: tuple[str, str]) -> int:
        w, f = x
        f = f.rstrip("0")
        return int(w) * scale + (int(f.ljust(places, "0")) if f else 0)

    def result(v: str) -> list[float]:
        out: list[float] = []
        for w, f in items(v):
            f = f.rstrip("0")
            if len(f) <= places:
                out.append(int(w) * scale + (int(f.ljust(places, "0")) if f else 0))
            else:
                y = Decimal(f"{w}.{f}") * scale
                out.append(int(y) if y == int(y) else float(y))
        if len(out) != n:
            raise _Slow
        return out

    if places:
        actions = list(actions)
        for k, x, who in cbr:
            actions[k] = f"{who} cbr {whole(x)}"
    players = d.get("players")
    plist = None if players is None else _slist(players)
    if plist is not None and len(plist) != n:
        raise _Slow
    played_at = _fast_played_at(d)
    fin = d.get("finishing_stacks")
    win = d.get("winnings")
    return RawHand(
        variant=variant,
        antes=[whole(x) for x in antes],
        blinds_or_straddles=[whole(x) for x in blinds],
        min_bet=None if min_bet is None else whole(min_bet),
        starting_stacks=[whole(x) for x in stacks],
        actions=actions,
        players=plist,
        finishing_stacks=None if fin is None else result(fin),
        winnings=None if win is None else result(win),
        hand=_opt_str(d.get("hand")),
        table=_opt_str(d.get("table")),
        venue=_opt_str(d.get("venue")),
        played_at=played_at,
        unit=_UNITS[places],
        currency=cur,
        rake=None if rake is None else whole(rake),
        source=source,
        position=position,
    )


def iter_phh_text(text: str, *, source: str = "<text>") -> Iterator[RawHand | Rejection]:
    """The hands of one ``.phh`` (no ``[section]`` headers) or ``.phhs`` text.

    A hand in the plain one-``key = value``-per-line layout is read directly
    (:func:`_fast_raw`); any other goes through :func:`parse_phh_fields`
    (the line reader, then ``tomllib``), which also gives the error messages.
    """
    headers = list(_HEADER.finditer(text))
    if not headers:
        blocks = [text]
    else:
        blocks = [
            text[m.end() : (headers[i + 1].start() if i + 1 < len(headers) else len(text))]
            for i, m in enumerate(headers)
        ]
    for pos, block in enumerate(blocks):
        try:
            yield _fast_raw(block, source, pos)
            continue
        except _Slow:
            pass
        except HandHistoryError as exc:
            yield Rejection(source=source, position=pos, message=str(exc))
            continue
        try:
            yield raw_hand_from_fields(parse_phh_fields(block), source=source, position=pos)
        except HandHistoryError as exc:
            yield Rejection(source=source, position=pos, message=str(exc))


def fast_one_hand(text: str, source: str) -> RawHand | Rejection | None:
    """A one-hand PHH text in the plain layout read directly (:func:`_fast_raw`): the hand,
    or a :class:`Rejection` naming its problem; ``None`` when the text needs the general
    reader (:func:`iter_phh_text`)."""
    try:
        return _fast_raw(text, source, 0)
    except _Slow:
        return None
    except HandHistoryError as exc:
        return Rejection(source=source, position=0, message=str(exc))


def iter_phh_text_reference(text: str, *, source: str = "<text>") -> Iterator[RawHand | Rejection]:
    """:func:`iter_phh_text` without the direct-search path (for checking it)."""
    headers = list(_HEADER.finditer(text))
    blocks = (
        [text]
        if not headers
        else [
            text[m.end() : (headers[i + 1].start() if i + 1 < len(headers) else len(text))]
            for i, m in enumerate(headers)
        ]
    )
    for pos, block in enumerate(blocks):
        try:
            yield raw_hand_from_fields(parse_phh_fields(block), source=source, position=pos)
        except HandHistoryError as exc:
            yield Rejection(source=source, position=pos, message=str(exc))


