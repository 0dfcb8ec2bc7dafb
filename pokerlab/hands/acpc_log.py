"""ACPC match logs (``STATE:`` lines) read and written.

The ACPC dealer (Annual Computer Poker Competition, ``project_acpc_server``) logs one
line per hand::

    STATE:<hand>:<betting>:<cards>:<scores>:<players>
    STATE:0:r250c/cr500c/cc/r1250f:9hQc|8dAs/8c6s5d/Th/Ks:500|-500:Alice|Bob

``betting`` holds the rounds separated by ``/``; ``f`` fold, ``c`` check/call, ``rN`` a
raise to ``N`` chips *in the whole hand* (no-limit).  ``cards`` is each seat's hole cards
separated by ``|`` (empty when unknown), then ``/``-separated board cards per round.
``scores`` is each seat's net result, ``players`` the names, both in seat order.

Seats are in PHH order: heads-up seat 0 posts the big blind and seat 1 (the button, the
small blind) acts first preflop -- the ACPC ``holdem.nolimit.2p.reverse_blinds`` game and
PHH's reverse-assigned heads-up blinds; with 3+ seats seat 0 is the small blind.  The
blinds and stacks are not part of a ``STATE`` line: the defaults are the ACPC no-limit
game (stacks 20,000, blinds 50/100), and :func:`write_acpc_log` writes a comment line
``# game: stacks=A,B,... blinds=x,y,...`` before the first hand and wherever the setup
changes, which :func:`iter_acpc_log` reads back.

**Hand input type.**  :func:`write_acpc_log` takes any iterable of

- :class:`pokerlab.hands.model.RawHand` (what the PHH/PokerStars readers produce),
- ``pokerkit.notation.HandHistory`` (what :mod:`pokerlab.holdem.phh` writes), or
- :class:`pokerlab.holdem.engine.HoldemState` (a finished engine hand; converted through
  :func:`pokerlab.holdem.phh.to_hand_history`),

of no-limit hold'em without antes or straddles.  Scores are ``finishing_stacks`` minus
``starting_stacks`` when the hand has them, else the result of
:func:`pokerlab.hands.replay.replay`.  Player names are written with ``:`` and ``|`` (the
field separators of a ``STATE`` line) replaced by ``_``.  :func:`iter_acpc_log` yields
:class:`~pokerlab.hands.model.RawHand` objects (PHH actions, finishing stacks from the
scores), so an imported log gives the same statistics as the same hands in PHH.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerlab.errors import HandHistoryError
from pokerlab.hands.model import RawHand, Rejection

ACPC_STACK = 20_000
ACPC_BLINDS = (50, 100)
_GAME = re.compile(r"^#\s*game:\s*stacks=([\d,]+)\s+blinds=([\d,]+)\s*$")
_RAISE = re.compile(r"r(\d+)")


@dataclass(frozen=True, slots=True)
class _Setup:
    stacks: tuple[int, ...]
    blinds: tuple[int, ...]


def _to_raw(obj: Any, position: int) -> RawHand:
    if isinstance(obj, RawHand):
        return obj
    if hasattr(obj, "history") and hasattr(obj, "config"):  # an engine HoldemState
        from pokerlab.holdem.phh import to_hand_history

        obj = to_hand_history(obj)
    if not hasattr(obj, "actions") or not hasattr(obj, "starting_stacks"):
        raise HandHistoryError(f"hand #{position + 1}: {type(obj).__name__} is not a hand history")
    n = len(obj.starting_stacks)
    antes = obj.antes if obj.antes is not None else [0] * n
    if isinstance(antes, int):
        antes = [antes] * n
    fin = getattr(obj, "finishing_stacks", None)
    players = getattr(obj, "players", None)
    return RawHand(
        variant=str(obj.variant),
        antes=[int(a) for a in antes],
        blinds_or_straddles=[int(b) for b in obj.blinds_or_straddles],
        min_bet=None if obj.min_bet is None else int(obj.min_bet),
        starting_stacks=[int(s) for s in obj.starting_stacks],
        actions=[str(a) for a in obj.actions],
        players=None if players is None else [str(p) for p in players],
        finishing_stacks=None if fin is None else [float(x) for x in fin],
        position=position,
    )


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def acpc_line(h: RawHand, hand_number: int) -> str:
    """The ``STATE:`` line of one hand (raises :class:`HandHistoryError` if it has none)."""
    n = len(h.starting_stacks)
    if h.variant != "NT":
        raise HandHistoryError(f"{h.where()}: variant {h.variant!r} has no ACPC no-limit form")
    if any(h.antes):
        raise HandHistoryError(f"{h.where()}: antes {h.antes} cannot be written to an ACPC log")
    if sum(1 for b in h.blinds_or_straddles if b) > 2:
        raise HandHistoryError(f"{h.where()}: straddles cannot be written to an ACPC log")
    blinds = list(h.blinds_or_straddles)
    if n == 2:
        blinds = blinds[::-1]
    street_bet = [min(blinds[j], h.starting_stacks[j]) for j in range(n)]
    total = list(street_bet)
    rounds: list[list[str]] = [[]]
    hole = [""] * n
    board: list[str] = []
    for a in h.actions:
        w = a.split("#", 1)[0].split()
        if not w:
            continue
        if w[0] == "d":
            if w[1] == "dh":
                hole[int(w[2][1:]) - 1] = "" if "?" in w[3] else w[3]
            elif w[1] == "db":
                board.append(w[2])
                rounds.append([])
                street_bet = [0] * n
            continue
        i = int(w[0][1:]) - 1
        op = w[1]
        if op == "f":
            rounds[-1].append("f")
        elif op == "cc":
            rounds[-1].append("c")
            to = min(max(street_bet), h.starting_stacks[i] - total[i] + street_bet[i])
            total[i] += to - street_bet[i]
            street_bet[i] = to
        elif op == "cbr":
            x = int(w[2])
            total[i] += x - street_bet[i]
            street_bet[i] = x
            rounds[-1].append(f"r{total[i]}")
        elif op == "sm" and len(w) == 3 and "?" not in w[2] and w[2] != "-":
            hole[i] = w[2]
    if h.finishing_stacks is not None:
        scores = [h.finishing_stacks[j] - h.starting_stacks[j] for j in range(n)]
    else:
        from pokerlab.hands.replay import replay

        facts = replay(h)
        scores = [p[5] for p in facts.players]
        if any(s != s for s in scores):  # NaN: a showdown between unknown hands
            raise HandHistoryError(f"{h.where()}: the result is unknown, cannot write its scores")
    names = h.players if h.players is not None else [f"p{j + 1}" for j in range(n)]
    # ':' and '|' separate the fields of a STATE line: written as '_' in names
    names = [name.replace(":", "_").replace("|", "_") for name in names]
    betting = "/".join("".join(r) for r in rounds)
    cards = "|".join(hole) + "".join("/" + b for b in board)
    return (
        f"STATE:{hand_number}:{betting}:{cards}:{'|'.join(_num(s) for s in scores)}:{'|'.join(names)}"
    )


def write_acpc_log(hands: Iterable[Any], path: str | Path) -> int:
    """Write hands as an ACPC match log (atomically); returns the number of hands.

    See the module docstring for the accepted hand types.
    """
    from pokerlab.io import atomic_write_text

    lines: list[str] = []
    setup: _Setup | None = None
    count = 0
    for k, obj in enumerate(hands):
        h = _to_raw(obj, k)
        s = _Setup(tuple(h.starting_stacks), tuple(h.blinds_or_straddles))
        if s != setup:
            lines.append(
                f"# game: stacks={','.join(map(str, s.stacks))} blinds={','.join(map(str, s.blinds))}"
            )
            setup = s
        lines.append(acpc_line(h, k))
        count += 1
    atomic_write_text(path, "\n".join(lines) + "\n")
    return count


def _parse_line(line: str, setup: _Setup | None, source: str, position: int) -> RawHand:
    parts = line.split(":")
    if len(parts) != 6 or parts[0] != "STATE":
        raise HandHistoryError(f"not an ACPC STATE line: {line[:80]!r}")
    _, number, betting, cards, scores_t, names_t = parts
    names = names_t.split("|")
    n = len(names)
    if not 2 <= n <= 9:
        raise HandHistoryError(f"{n} players in {line[:80]!r}: only 2 to 9 are supported")
    if setup is None:
        blinds = [ACPC_BLINDS[0], ACPC_BLINDS[1]] + [0] * (n - 2)
        setup = _Setup((ACPC_STACK,) * n, tuple(blinds))
    if len(setup.stacks) != n or len(setup.blinds) != n:
        raise HandHistoryError(f"{n} players, but the '# game:' line gives {len(setup.stacks)}")
    try:
        scores = [float(x) for x in scores_t.split("|")]
    except ValueError:
        raise HandHistoryError(f"bad scores {scores_t!r}") from None
    if len(scores) != n:
        raise HandHistoryError(f"{len(scores)} scores for {n} players: {scores_t!r}")
    card_parts = cards.split("/")
    holes = card_parts[0].split("|")
    if len(holes) != n:
        raise HandHistoryError(f"{len(holes)} hole-card fields for {n} players: {cards!r}")
    boards = card_parts[1:]
    rounds = betting.split("/")
    if len(boards) < len(rounds) - 1:
        raise HandHistoryError(f"betting {betting!r} has more rounds than the board {cards!r}")
    stacks = list(setup.stacks)
    blinds = list(setup.blinds)
    posted = blinds[::-1] if n == 2 else blinds
    street_bet = [min(posted[j], stacks[j]) for j in range(n)]
    total = list(street_bet)
    folded = [False] * n
    actions = [f"d dh p{j + 1} {holes[j] or '????'}" for j in range(n)]
    top = max(posted)
    last_top = max(j for j in range(n) if posted[j] == top)
    for r, rnd in enumerate(rounds):
        if r > 0:
            actions.append(f"d db {boards[r - 1]}")
            street_bet = [0] * n
            actor = n - 1  # next_actor starts after it: seat 0 first postflop
        else:
            actor = last_top
        k = 0
        while k < len(rnd):
            actor = _next_actor(actor, n, folded, total, stacks)
            if actor < 0:
                raise HandHistoryError(f"betting {betting!r}: action after the hand is decided")
            c = rnd[k]
            if c == "f":
                folded[actor] = True
                actions.append(f"p{actor + 1} f")
                k += 1
            elif c == "c":
                to = min(max(street_bet), stacks[actor] - total[actor] + street_bet[actor])
                total[actor] += to - street_bet[actor]
                street_bet[actor] = to
                actions.append(f"p{actor + 1} cc")
                k += 1
            elif c == "r":
                m = _RAISE.match(rnd, k)
                if m is None:
                    raise HandHistoryError(f"betting {betting!r}: raise without an amount")
                x = int(m[1])
                to = x - (total[actor] - street_bet[actor])
                total[actor] = x
                street_bet[actor] = to
                actions.append(f"p{actor + 1} cbr {to}")
                k = m.end()
            else:
                raise HandHistoryError(f"betting {betting!r}: unknown action {c!r}")
    for b in boards[len(rounds) - 1 :]:
        actions.append(f"d db {b}")
    if sum(not f for f in folded) >= 2:
        for j in range(n):
            if not folded[j] and holes[j]:
                actions.append(f"p{j + 1} sm {holes[j]}")
    fin = [stacks[j] + scores[j] for j in range(n)]
    return RawHand(
        variant="NT",
        antes=[0] * n,
        blinds_or_straddles=blinds,
        min_bet=max(blinds),
        starting_stacks=stacks,
        actions=actions,
        players=names,
        finishing_stacks=[int(x) if float(x).is_integer() else x for x in fin],
        hand=number,
        venue="ACPC",
        source=source,
        position=position,
    )


def _next_actor(prev: int, n: int, folded: list[bool], total: list[int], stacks: list[int]) -> int:
    for k in range(1, n + 1):
        j = (prev + k) % n
        if not folded[j] and total[j] < stacks[j]:
            return j
    return -1


def iter_acpc_text(text: str, *, source: str = "<text>") -> Iterator[RawHand | Rejection]:
    """The hands of ACPC log text (``STATE:`` lines; ``#`` comments and other lines skipped)."""
    setup: _Setup | None = None
    pos = 0
    for line in text.splitlines():
        line = line.strip()
        m = _GAME.match(line)
        if m:
            setup = _Setup(
                tuple(int(x) for x in m[1].split(",")), tuple(int(x) for x in m[2].split(","))
            )
            continue
        if not line.startswith("STATE:"):
            continue
        try:
            yield _parse_line(line, setup, source, pos)
        except (HandHistoryError, ValueError, IndexError) as exc:
            yield Rejection(source=source, position=pos, message=str(exc))
        pos += 1


def read_acpc_log(path: str | Path) -> list[RawHand | Rejection]:
    """Every hand of an ACPC log file (see :func:`iter_acpc_text`)."""
    from pokerlab.hands.textfile import read_text

    return list(iter_acpc_text(read_text(path), source=str(path)))
