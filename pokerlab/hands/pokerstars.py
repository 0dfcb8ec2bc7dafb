"""PokerStars text hand histories: pokerlab's own reader (no-limit hold'em).

One pass over the lines of each hand, with string methods (no per-line regular
expressions), gives a :class:`~pokerlab.hands.model.RawHand` in PHH form:

- cash games and tournaments, 2-9 players; amounts in cents (unit ``0.01``) when the
  hand shows a currency (``$``, ``€``, ``£``), else in chips (play money, tournaments);
- antes (``posts the ante``), blinds, a straddle posted by the player after the big
  blind (``posts straddle``); players sitting out are left out (only players who post or
  act are dealt in, as PokerKit's converter does);
- bets, calls, raises (``raises X to Y``), all-ins; uncalled bets are derived by the
  replay, so the ``Uncalled bet (X) returned`` lines are only checked against it;
- the board lines in both forms (``*** RIVER *** [7d 5h 9d 7c] [Qh]`` and
  ``[7d 5h 9d] [7c] [Qh]``); ``shows`` lines (at a showdown or after an uncontested
  win) become ``pN sm``; ``mucks`` and ``doesn't show`` are skipped;
- ``collected X from pot`` / ``side pot`` / ``main pot`` lines give each player's
  winnings (without an uncalled bet) and ``Total pot ... | Rake R`` the rake, so nets
  sum to minus the rake.

Hands of other games, run-it-twice boards, dead or out-of-position blinds and
straddles from other seats become :class:`~pokerlab.hands.model.Rejection` with the
reason.  ``tests/test_hands_pokerstars.py`` checks every hand against PokerKit's own
converter (``pokerkit.notation.PokerStarsParser``) where that converter is right (no
antes: it does not read them) and the results against PokerKit's replay.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from pokerlab.errors import HandHistoryError
from pokerlab.hands.model import RawHand, Rejection

_START = re.compile(r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #", re.MULTILINE)
_DATE = re.compile(r" - (\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})")
_CURRENCIES = {"$": "USD", "\u20ac": "EUR", "\u00a3": "GBP"}


class _Bad(Exception):
    """A hand this reader does not take: the message says why."""


_CARDS = {r + u for r in "23456789TJQKA" for u in "cdhs"}


def _card_text(inside: str) -> str:
    """``"As Kd"`` -> ``"AsKd"`` (checked card by card)."""
    parts = inside.split(" ")
    for c in parts:
        if c not in _CARDS:
            raise _Bad(f"bad cards [{inside}]")
    return "".join(parts)


def _cents(text: str) -> int:
    """``"$1,234.5"`` -> 123450 (exact; at most two decimals)."""
    t = text
    if not t[0].isdigit():
        t = t[1:]  # currency symbol
    if "," in t:
        t = t.replace(",", "")
    whole, dot, frac = t.partition(".")
    try:
        if not frac:
            return int(whole) * 100
        if len(frac) == 2:
            return int(whole) * 100 + int(frac)
        if len(frac) == 1:
            return int(whole) * 100 + int(frac) * 10
    except ValueError:
        pass
    raise _Bad(f"bad amount {text!r}")


def _chips(text: str) -> int:
    """``"1,500"`` -> 1500 (whole chips)."""
    t = text if text[0].isdigit() else text[1:]
    if "," in t:
        t = t.replace(",", "")
    try:
        return int(t)
    except ValueError:
        whole, _dot, frac = t.partition(".")
        if whole.isdigit() and frac and set(frac) == {"0"}:
            return int(whole)
    raise _Bad(f"bad amount {text!r} (chips must be whole)")


def _name_of(line: str, sep: str, names: dict[str, int]) -> tuple[str, str]:
    """Split ``NAME<sep>rest`` for a known player name (names may hold the separator)."""
    k = line.find(sep)
    while k >= 0:
        name = line[:k]
        if name in names:
            return name, line[k + len(sep) :]
        k = line.find(sep, k + 1)
    raise _Bad(f"line {line!r} names no seated player")


def _parse(block: str, source: str, position: int) -> RawHand:  # noqa: C901 - one pass, kept together
    lines = block.split("\n")
    header = lines[0]
    if "Hold'em No Limit" not in header:
        raise _Bad("only no-limit hold'em hands are supported")
    tournament = "Tournament #" in header
    symbol = next((c for c in _CURRENCIES if c in header), None)
    if tournament:
        symbol = None  # buy-in in money, chips in play
    amt = _cents if symbol is not None else _chips
    hash_k = header.find("#")
    colon = header.find(":", hash_k)
    hand_no = header[hash_k + 1 : colon].strip()
    played_at = None
    m = _DATE.search(header)
    if m:
        y, mo, d, hh, mi, se = (int(x) for x in m.groups())
        played_at = dt.datetime(y, mo, d, hh, mi, se)
    table_line = lines[1]
    table = None
    if table_line.startswith("Table '"):
        end = table_line.rfind("' ")
        table = table_line[7:end] if end > 7 else None
    k = table_line.find("Seat #")
    if k < 0:
        raise _Bad("no button seat in the table line")
    button = int(table_line[k + 6 : table_line.index(" ", k + 6)])

    # seats
    seat_of: dict[str, int] = {}
    stack_of: dict[str, int] = {}
    i = 2
    while i < len(lines) and lines[i].startswith("Seat "):
        line = lines[i]
        c = line.index(": ")
        seat = int(line[5:c])
        rest = line[c + 2 :]
        par = rest.rfind(" (")
        while par >= 0 and " in chips" not in rest[par:]:
            par = rest.rfind(" (", 0, par)
        if par < 0:
            raise _Bad(f"bad seat line {line!r}")
        name = rest[:par]
        inner = rest[par + 2 : rest.index(" in chips", par)]
        seat_of[name] = seat
        stack_of[name] = amt(inner)
        i += 1
    if len(seat_of) < 2:
        raise _Bad("fewer than two seated players")

    antes: dict[str, int] = {}
    posts: dict[str, int] = {}
    kinds: dict[str, str] = {}
    events: list[tuple[str, str, str]] = []  # (kind, name, detail) in order
    winnings: dict[str, int] = {}
    uncalled: dict[str, int] = {}
    rake: int | None = None
    dealt_names: set[str] = set()
    # -- postings (before *** HOLE CARDS ***) and the play
    phase = 0  # 0 postings, 1 play, 2 summary
    append = events.append
    for line in lines[i:]:
        if not line:
            continue
        c0 = line[0]
        if c0 == "*" and line.startswith("*** "):
            w = line[4:8]
            if w == "HOLE":
                phase = 1
            elif w == "SUMM":
                phase = 2
            elif w == "FLOP":
                append(("db", "", _card_text(line[line.index("[") + 1 : line.index("]")])))
            elif w == "TURN" or w == "RIVE":
                last = line.rindex("[")
                append(("db", "", _card_text(line[last + 1 : line.rindex("]")])))
            elif w != "SHOW":
                raise _Bad(f"unsupported section {line.strip()!r} (run it twice?)")
            continue
        if phase == 2:
            if c0 == "T" and line.startswith("Total pot"):
                r = line.find("| Rake ")
                if r >= 0:
                    rake = amt(line[r + 7 :].split(" ", 1)[0])
            continue
        k = line.find(": ")
        if k > 0 and line[:k] in seat_of:
            name = line[:k]
            rest = line[k + 2 :]
        elif c0 == "D" and line.startswith("Dealt to "):
            b = line.find(" [")
            if b < 0:
                continue
            name = line[9:b]
            if name not in seat_of:
                raise _Bad(f"cards dealt to {name!r}, who is not seated")
            append(("dh", name, _card_text(line[b + 2 : line.index("]", b)])))
            continue
        elif c0 == "U" and line.startswith("Uncalled bet ("):
            close = line.index(")")
            name = line[line.index(" returned to ") + 13 :]
            uncalled[name] = uncalled.get(name, 0) + amt(line[14:close])
            continue
        elif " collected " in line:
            name, rest = _name_of(line, " collected ", seat_of)
            if rest.endswith(" pot"):
                winnings[name] = winnings.get(name, 0) + amt(rest.split(" ", 1)[0])
            continue
        elif k > 0:
            try:
                name, rest = _name_of(line, ": ", seat_of)
            except _Bad:
                continue  # a table message, not a player's line
        else:
            continue  # chat, connection and table messages
        if rest[-1] == "n" and rest.endswith(" and is all-in"):
            rest = rest[:-14]
        r0 = rest[0]
        if phase == 0:
            if r0 != "p":
                continue
            if rest.startswith("posts the ante "):
                antes[name] = antes.get(name, 0) + amt(rest[15:])
            elif rest.startswith("posts small blind "):
                posts[name] = amt(rest[18:])
                kinds[name] = "sb"
            elif rest.startswith("posts big blind "):
                posts[name] = amt(rest[16:])
                kinds[name] = "bb"
            elif rest.startswith("posts straddle "):
                posts[name] = amt(rest[15:])
                kinds[name] = "straddle"
            elif rest.startswith("posts small & big blinds"):
                raise _Bad(f"{name!r} posts a dead blind (not supported)")
            else:
                continue
            dealt_names.add(name)
            continue
        if r0 == "f":
            if not rest.startswith("folds"):
                continue
            append(("f", name, ""))
        elif r0 == "c":
            if rest == "checks" or rest.startswith("calls "):
                append(("cc", name, ""))
            else:
                continue
        elif r0 == "b":
            if not rest.startswith("bets "):
                continue
            append(("b", name, rest[5:]))
        elif r0 == "r":
            t = rest.find(" to ")
            if not rest.startswith("raises ") or t < 0:
                continue
            append(("r", name, rest[t + 4 :]))
        elif r0 == "s":
            if rest.startswith("shows ["):
                append(("sm", name, _card_text(rest[7 : rest.index("]")])))
            continue
        else:
            continue  # mucks, doesn't show, sits out, said, ...
        dealt_names.add(name)

    # -- seat order: left of the button first, the button last
    players = sorted(dealt_names, key=seat_of.__getitem__)
    n = len(players)
    if not 2 <= n <= 9:
        raise _Bad(f"{n} players dealt in: only 2 to 9 are supported")
    after = [p for p in players if seat_of[p] > button]
    players = after + [p for p in players if seat_of[p] <= button]
    index = {p: j for j, p in enumerate(players)}
    no_sb = "sb" not in kinds.values()
    for p, kind in kinds.items():
        at = index[p]
        if kind == "sb" and at != 0 and not (n == 2 and at == 1):
            raise _Bad(f"{p!r} posts the small blind out of position")
        if kind == "bb" and at != (1 if n > 2 else 0) and not (n > 2 and no_sb and at == 0):
            raise _Bad(f"{p!r} posts a big blind out of position")
        if kind == "straddle" and (n < 4 or at != 2):
            raise _Bad(f"{p!r} straddles from a seat other than the one after the big blind")
    blinds = [posts.get(p, 0) for p in players]
    ante_list = [antes.get(p, 0) for p in players]
    if n == 2:
        blinds.reverse()
        ante_list.reverse()

    # -- actions, with raise-to amounts per street
    actions = [f"d dh p{index[name] + 1} {cards}" for kind, name, cards in events if kind == "dh"]
    for kind, name, detail in events:
        if kind == "dh":
            continue
        if kind == "db":
            actions.append(f"d db {detail}")
            continue
        if name not in index:
            raise _Bad(f"{name!r} acts but was not dealt in")
        j = index[name]
        if kind == "f":
            actions.append(f"p{j + 1} f")
        elif kind == "cc":
            actions.append(f"p{j + 1} cc")
        elif kind == "b" or kind == "r":
            actions.append(f"p{j + 1} cbr {amt(detail)}")
        else:  # sm
            actions.append(f"p{j + 1} sm {detail}")
    for name in (*winnings, *uncalled):
        if name not in index:
            raise _Bad(f"{name!r} collects chips but was not dealt in")
    currency = _CURRENCIES[symbol] if symbol is not None else None
    return RawHand(
        variant="NT",
        antes=ante_list,
        blinds_or_straddles=blinds,
        min_bet=max(blinds[:2]) if n > 2 else max(blinds),
        starting_stacks=[stack_of[p] for p in players],
        actions=actions,
        players=players,
        winnings=[winnings.get(p, 0) for p in players],
        hand=hand_no,
        table=table,
        venue="PokerStars",
        played_at=played_at,
        unit="0.01" if symbol is not None else "1",
        currency=currency,
        rake=rake,
        source=source,
        position=position,
    )


def iter_pokerstars_text(text: str, *, source: str = "<text>") -> Iterator[RawHand | Rejection]:
    """The hands of a PokerStars hand-history text, as :class:`RawHand` or :class:`Rejection`."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    starts = [m.start() for m in _START.finditer(text)]
    for pos, a in enumerate(starts):
        b = starts[pos + 1] if pos + 1 < len(starts) else len(text)
        block = text[a:b].strip("\n")
        try:
            yield _parse(block, source, pos)
        except (_Bad, HandHistoryError, ValueError, KeyError, IndexError) as exc:
            first = block.split("\n", 1)[0].strip()
            yield Rejection(
                source=source,
                position=pos,
                message=f"PokerStars hand {first[:60]!r}: {exc}",
            )
