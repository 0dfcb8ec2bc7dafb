"""Engine hands to and from PHH (``.phh`` one hand, ``.phhs`` many) via ``pokerkit.HandHistory``.

Seat order follows the PHH standard: heads-up the blinds are "reverse-assigned", so
with ``blinds_or_straddles = [sb, bb]`` player ``p1`` posts the big blind and ``p2``
(the button) the small blind.  Our player 0 (big blind) is therefore ``p1`` and player 1
(button) is ``p2`` -- PokerKit's own heads-up convention (player index 0 posts
``blinds[1]``).

Written fields: ``variant = 'NT'``, ``antes``, ``blinds_or_straddles``, ``min_bet`` (the
big blind), ``starting_stacks``, ``actions`` (``d dh``, ``d db``, ``pN f/cc/cbr X`` and the
showdown's ``pN sm cards`` in PokerKit's showing order), plus ``hand``, ``players`` and
``finishing_stacks`` when the hand is over (and the cards are known).  Reading goes back
through our engine (:func:`state_from_history`), and :func:`pokerkit_finishing_stacks`
replays a history in PokerKit itself (the round-trip tests compare the two).
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pokerlab.cards.cards import cards_str, parse_cards
from pokerlab.errors import CardError, ConfigError, HandHistoryError
from pokerlab.holdem.engine import (
    UNKNOWN,
    HoldemConfig,
    HoldemState,
    IllegalActionError,
    Phase,
)
from pokerlab.holdem.events import BoardDealt, CheckedOrCalled, Folded, HoleDealt, RaisedTo, Shown
from pokerlab.io import atomic_write_text


def _cards(cards: Sequence[int]) -> str:
    return "".join("??" if c == UNKNOWN else cards_str([c]) for c in cards)


def phh_line(code: str, player: int = -1, cards: str = "", amount: int = 0) -> str:
    """One PHH action line by its code: ``d dh p1 AsKd`` (``dh``: hole cards of ``player``,
    0-based), ``d db 2c3d4h`` (``db``: board), ``p2 f``, ``p1 cc``, ``p2 cbr 300``
    (``amount``: the raise-to), ``p1 sm AhAd`` (``sm``: shown ``cards``; ``p1 sm`` without
    them).  The one writer of action lines: :func:`phh_actions` (our events) and the oracle
    (:func:`pokerlab.agents.oracle.pokerkit_actions`, PokerKit's operations)."""
    if code == "db":
        return f"d db {cards}"
    if code == "dh":
        return f"d dh p{player + 1} {cards}"
    if code == "cbr":
        return f"p{player + 1} cbr {amount}"
    return f"p{player + 1} {code} {cards}" if cards else f"p{player + 1} {code}"


def phh_actions(state: HoldemState) -> list[str]:
    """The PHH ``actions`` list of a hand (complete or in progress)."""
    out: list[str] = []
    for ev in state.history:
        if isinstance(ev, HoleDealt):
            out.append(phh_line("dh", ev.player, _cards(ev.cards)))
        elif isinstance(ev, BoardDealt):
            out.append(phh_line("db", cards=_cards(ev.cards)))
        elif isinstance(ev, RaisedTo):
            out.append(phh_line("cbr", ev.player, amount=ev.raise_to))
        elif isinstance(ev, Shown):
            if UNKNOWN not in ev.cards:
                out.append(phh_line("sm", ev.player, _cards(ev.cards)))
        elif isinstance(ev, (Folded, CheckedOrCalled)):
            out.append(phh_line("f" if isinstance(ev, Folded) else "cc", ev.player))
        else:  # pragma: no cover - engine writes only these
            raise HandHistoryError(f"unknown history event {ev!r}")
    return out


def to_hand_history(state: HoldemState, *, hand: int | str | None = None,
                    players: Sequence[str] | None = None, **extra: Any) -> Any:
    """A ``pokerkit.HandHistory`` of the hand.  ``extra`` fields must start with ``_``."""
    from pokerkit import HandHistory

    c = state.config
    fields: dict[str, Any] = dict(
        variant="NT",
        ante_trimming_status=False,
        antes=[c.ante, c.ante],
        blinds_or_straddles=[c.small_blind, c.big_blind],
        min_bet=c.big_blind,
        starting_stacks=list(c.stacks),
        actions=phh_actions(state),
    )
    if hand is not None:
        fields["hand"] = hand
    if players is not None:
        if len(players) != 2:
            raise ConfigError(f"need 2 player names, got {list(players)!r}")
        fields["players"] = list(players)
    known = UNKNOWN not in (*state.hole[0], *state.hole[1], *state.board)
    if state.is_terminal and known:
        fields["finishing_stacks"] = list(state.final_stacks())
    for k in extra:
        if not k.startswith("_"):
            raise ConfigError(f"user-defined PHH field {k!r} must start with '_'")
    fields.update(extra)
    return HandHistory(**fields)


def dumps(state: HoldemState, **kwargs: Any) -> str:
    """One hand as PHH text."""
    return str(to_hand_history(state, **kwargs).dumps()) + "\n"


def dumps_all(states: Iterable[HoldemState], *, first_hand: int = 1,
              players: Sequence[str] | None = None) -> str:
    """Many hands as ``.phhs`` text (sections ``[1]``, ``[2]``, ...)."""
    from pokerkit import HandHistory

    hhs = [to_hand_history(s, hand=first_hand + i, players=players)
           for i, s in enumerate(states)]
    return str(HandHistory.dumps_all(hhs)) + "\n"


def write_phhs(path: str | Path, states: Iterable[HoldemState], *,
               players: Sequence[str] | None = None) -> int:
    """Write hands to a ``.phhs`` file atomically; returns the number of hands."""
    lst = list(states)
    atomic_write_text(path, dumps_all(lst, players=players))
    return len(lst)


# ---------------------------------------------------------------- reading
def load_all(text: str) -> list[Any]:
    from pokerkit import HandHistory

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            if any(line.strip().startswith("[") for line in text.splitlines()):
                return list(HandHistory.loads_all(text))
            return [HandHistory.loads(text)]
    except Exception as exc:  # tomllib / dataclass errors of every kind
        raise HandHistoryError(f"cannot parse PHH text: {exc}") from None


def config_from_history(hh: Any) -> HoldemConfig:
    """The :class:`HoldemConfig` of a heads-up NT hand history (raises if it is not one)."""
    if hh.variant != "NT":
        raise HandHistoryError(f"variant {hh.variant!r} is not no-limit hold'em ('NT')")
    st = list(hh.starting_stacks)
    if len(st) != 2:
        raise HandHistoryError(f"not heads-up: starting_stacks {st!r}")
    antes = list(hh.antes) if not isinstance(hh.antes, int) else [hh.antes, hh.antes]
    bl = list(hh.blinds_or_straddles or [])
    if len(antes) != 2 or antes[0] != antes[1]:
        raise HandHistoryError(f"antes {hh.antes!r} are not two equal antes")
    if len(bl) != 2:
        raise HandHistoryError(f"blinds_or_straddles {bl!r} are not [sb, bb]")
    if hh.min_bet != bl[1]:
        raise HandHistoryError(f"min_bet {hh.min_bet!r} differs from the big blind {bl[1]!r}")
    try:
        return HoldemConfig(stacks=(int(st[0]), int(st[1])), small_blind=int(bl[0]),
                            big_blind=int(bl[1]), ante=int(antes[0]))
    except (ConfigError, TypeError, ValueError) as exc:
        raise HandHistoryError(f"unsupported setup in hand {hh.hand!r}: {exc}") from None


def state_from_history(hh: Any) -> HoldemState:
    """Replay a hand history in our engine (every action checked against the rules)."""
    state = HoldemState(config=config_from_history(hh))
    for i, raw in enumerate(hh.actions):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        toks = text.split()
        try:
            _apply_token(state, toks)
        except (IllegalActionError, CardError, IndexError, ValueError) as exc:
            raise HandHistoryError(
                f"hand {hh.hand!r}: action {i + 1} {raw!r} is not legal here: {exc}") from None
    return state


def _apply_token(state: HoldemState, toks: list[str]) -> None:
    actor = toks[0]
    if actor == "d":
        if toks[1] == "dh":
            p = int(toks[2][1:]) - 1
            want = 0 if not state.hole[0] else 1
            if p != want:
                raise IllegalActionError(f"hole cards dealt to p{p + 1}, expected p{want + 1}")
            state.deal_hole(_parse_maybe_unknown(toks[3], 2))
        elif toks[1] == "db":
            state.deal_board(_parse_maybe_unknown(toks[2], state.cards_due()))
        else:
            raise IllegalActionError(f"unknown dealer action {toks[1]!r}")
        return
    if not (actor.startswith("p") and actor[1:].isdigit()):
        raise IllegalActionError(f"unknown actor {actor!r}")
    p = int(actor[1:]) - 1
    op = toks[1]
    if op == "sm":
        return  # showdown: our engine judges from the dealt cards
    if state.phase != Phase.BETTING or state.actor != p:
        raise IllegalActionError(f"p{p + 1} is not the player to act")
    if op == "f":
        state.fold()
    elif op == "cc":
        state.check_or_call()
    elif op == "cbr":
        state.raise_to(int(toks[2]))
    else:
        raise IllegalActionError(f"unsupported action {op!r}")


def _parse_maybe_unknown(text: str, n: int) -> list[int] | None:
    if "?" in text:
        if len(text) != 2 * n or set(text) != {"?"}:
            raise CardError(f"partly unknown cards {text!r} are not supported")
        return None
    return parse_cards(text)


def loads_all(text: str) -> list[HoldemState]:
    """Every hand of PHH/PHHS text as an engine state."""
    return [state_from_history(hh) for hh in load_all(text)]


def read_phhs(path: str | Path) -> list[HoldemState]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise HandHistoryError(f"cannot read {str(p)!r}: {exc}") from None
    return loads_all(text)


def pokerkit_finishing_stacks(hh: Any) -> tuple[int, ...]:
    """Replay a ``HandHistory`` in PokerKit itself and return its final stacks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        last = deque(hh, maxlen=1)  # iterate the replay to its final state
    state = last[0] if last else None
    if state is None or state.status:
        raise HandHistoryError(f"PokerKit could not finish hand {hh.hand!r}")
    return tuple(int(x) for x in state.stacks)


def pokerkit_replay_file(path: str | Path) -> list[tuple[int, ...]]:
    """Final stacks of every hand of a PHH/PHHS file as PokerKit replays it."""
    text = Path(path).read_text(encoding="utf-8")
    return [pokerkit_finishing_stacks(hh) for hh in load_all(text)]


__all__ = [
    "config_from_history",
    "dumps",
    "dumps_all",
    "loads_all",
    "phh_actions",
    "phh_line",
    "pokerkit_finishing_stacks",
    "pokerkit_replay_file",
    "read_phhs",
    "state_from_history",
    "to_hand_history",
    "write_phhs",
]
