"""A fast reader for PHH (``.phh``: one hand, ``.phhs``: many) hand histories.

PHH is TOML (https://github.com/uoftcprg/phh-std).  PokerKit's ``HandHistory.loads`` goes
through the general ``tomllib`` parser and builds a large dataclass per hand, which tops
out at a few thousand hands per second.  Almost every PHH file in the wild is written
one ``key = value`` per line with plain integers, plain single-quoted strings and flat
lists of those, so this module reads that layout directly and falls back to ``tomllib``
for a hand whenever any line is outside it (multi-line arrays, escapes, floats, dates,
trailing comments, ...).  The two paths give the same values; the test-suite checks
the fast path against PokerKit's parser on all 10,000 Pluribus hands.

Files may be compressed (``.xz``, ``.gz``, ``.bz2``).  Every hand is returned either as a
:class:`~pokerlab.hands.model.RawHand` or as a :class:`~pokerlab.hands.model.Rejection`
naming its file and position, so one bad hand never stops the others.
"""

from __future__ import annotations

import bz2
import datetime as dt
import gzip
import lzma
import operator
import os
import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pokerlab.errors import HandHistoryError
from pokerlab.hands.model import RawHand, Rejection

__all__ = [
    "PHH_SUFFIXES",
    "parse_phh_fields",
    "raw_hand_from_fields",
    "read_text",
    "iter_phh_text",
    "iter_paths",
    "expand_paths",
]

PHH_SUFFIXES = (".phh", ".phhs")
POKERSTARS_SUFFIXES = (".txt",)
_COMPRESSIONS = (".xz", ".gz", ".bz2")

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
                    try:
                        d[k] = list(map(float, parts))
                    except ValueError:
                        raise _Slow from None
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
                raise _Slow from None
    return d


def parse_phh_fields(text: str) -> dict[str, Any]:
    """The TOML table of one PHH hand, through the fast path or ``tomllib``.

    Raises :class:`HandHistoryError` on text that is not valid TOML.
    """
    try:
        return _fast_fields(text)
    except _Slow:
        pass
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HandHistoryError(f"not valid PHH/TOML: {exc}") from None


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool):
        raise HandHistoryError(f"field {name!r}: expected a number, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise HandHistoryError(
        f"field {name!r}: {value!r} is not a whole number of chips (scale the amounts to integers)"
    )


def _int_list(value: Any, name: str, n: int | None) -> list[int]:
    if type(value) is list and set(map(type, value)) <= _INT_ONLY:
        if n is not None and len(value) != n:
            raise HandHistoryError(f"field {name!r} has {len(value)} entries for {n} players: {value!r}")
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and n is not None:
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
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise HandHistoryError(f"field {name!r}: {x!r} is not a number")
        out.append(int(x) if isinstance(x, int) or x.is_integer() else float(x))
    return out


def _str_or_none(value: Any) -> str | None:
    if value is None:
        return None
    return str(value)


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
    """Build a :class:`RawHand` from a PHH table; raises :class:`HandHistoryError`."""
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
    try:
        stacks = _ilist(d["starting_stacks"], -1)
        variant = _q(d["variant"])
        antes = _ilist(d["antes"], len(stacks))
        blinds = _ilist(d["blinds_or_straddles"], len(stacks))
        actions = _slist(d["actions"])
    except KeyError:
        raise _Slow from None
    n = len(stacks)
    players = d.get("players")
    fin = d.get("finishing_stacks")
    win = d.get("winnings")
    min_bet = d.get("min_bet")
    played_at = None
    if "year" in d or "month" in d or "day" in d or "time" in d:
        try:
            dd: dict[str, Any] = {k: int(d[k]) for k in ("year", "month", "day") if k in d}
        except ValueError:
            raise _Slow from None
        if "time" in d:
            dd["time"] = d["time"]
        played_at = _played_at(dd)
    plist = None if players is None else _slist(players)
    if plist is not None and len(plist) != n:
        raise _Slow
    try:
        mb = None if min_bet is None else int(min_bet)
    except ValueError:
        raise _Slow from None
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
        hand=_opt_str(d.get("hand")),
        table=_opt_str(d.get("table")),
        venue=_opt_str(d.get("venue")),
        played_at=played_at,
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


def _split_name(name: str) -> tuple[str, str]:
    """(format suffix, compression suffix) of a file name: ``x.phhs.xz`` -> (".phhs", ".xz")."""
    low = name.lower()
    comp = ""
    for c in _COMPRESSIONS:
        if low.endswith(c):
            comp = c
            low = low[: -len(c)]
            break
    dot = low.rfind(".")
    return (low[dot:] if dot > 0 else ""), comp


def _format_of_name(name: str) -> tuple[str | None, str]:
    fmt, comp = _split_name(name)
    if fmt in PHH_SUFFIXES:
        return "phh", comp
    if fmt in POKERSTARS_SUFFIXES:
        return "pokerstars", comp
    return None, comp


def _read(path: str, comp: str) -> str:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        if comp == ".xz":
            data = lzma.decompress(data)
        elif comp == ".gz":
            data = gzip.decompress(data)
        elif comp == ".bz2":
            data = bz2.decompress(data)
    except (OSError, lzma.LZMAError, EOFError) as exc:
        raise HandHistoryError(f"cannot read {path!r}: {exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_text(path: str | Path) -> str:
    """A (possibly compressed) hand-history file as text; raises :class:`HandHistoryError`."""
    p = str(path)
    return _read(p, _split_name(os.path.basename(p))[1])


def file_format(path: str | Path) -> str | None:
    """``"phh"``, ``"pokerstars"`` or ``None`` (not a hand-history file) from the name."""
    return _format_of_name(os.path.basename(str(path)))[0]


_DIGITS = re.compile(r"(\d+)")


def _natural_key(p: str) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in _DIGITS.split(p)]


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files to import: files as given, folders searched recursively (natural order).

    Raises :class:`HandHistoryError` for a path that does not exist or a file of an
    unknown kind given explicitly.
    """
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found: list[str] = []
            for dirpath, _dirs, files in os.walk(p):
                for name in files:
                    if _format_of_name(name)[0] is not None:
                        found.append(os.path.join(dirpath, name))
            out.extend(Path(f) for f in sorted(found, key=_natural_key))
        elif p.is_file():
            if file_format(p) is None:
                raise HandHistoryError(
                    f"{str(p)!r}: unknown hand-history file type (expected .phh, .phhs or "
                    ".txt for PokerStars, optionally .xz/.gz/.bz2 compressed)"
                )
            out.append(p)
        else:
            raise HandHistoryError(f"{str(p)!r}: no such file or folder")
    return out


def iter_paths(paths: Iterable[str | Path]) -> Iterator[RawHand | Rejection]:
    """Every hand of every file under ``paths`` (PHH and PokerStars text)."""
    for p in expand_paths(paths):
        src = str(p)
        fmt, comp = _format_of_name(p.name)
        try:
            text = _read(src, comp)
        except HandHistoryError as exc:
            yield Rejection(source=src, position=0, message=str(exc))
            continue
        if fmt == "phh":
            yield from iter_phh_text(text, source=src)
        else:
            from pokerlab.hands.pokerstars import iter_pokerstars_text

            yield from iter_pokerstars_text(text, source=src)
