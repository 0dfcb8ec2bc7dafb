"""Bet sets (action abstraction) as data and as a short text form.

A :class:`BetSet` gives, for each of the four streets, the bet/raise sizes the abstract
game allows (on top of fold and check/call) and a raise cap.  Sizes are:

* ``"33%"`` -- a fraction of the pot: a bet of ``f * pot``; facing a bet, a raise *to*
  ``current_bet + f * (pot + to_call)`` (the usual "pot-sized raise" rule: the raise
  increment is ``f`` times the pot after calling).
* ``"2.5x"`` -- a multiple of the bet faced: raise *to* ``2.5 * current_bet``.  With no bet
  on the street yet (postflop), the multiple is of the big blind.  Preflop the big blind
  is the bet faced, so ``"2.5x"`` is the common open to 2.5 BB.
* ``"5bb"`` -- a fixed increment in big blinds: bet, or raise *by*, 5 BB (the thesis's
  "raise 1, 2, 5, 10, 20, 50 big blinds").
* ``"a"`` (or ``"allin"``) -- all-in.

Text form: one part per street, separated by ``;`` (``|`` works too), each a comma list of
sizes with an optional ``cap N`` item (at most N bets/raises on that street in the
abstract game; the big blind post does not count).  A part may start with a street name
(``preflop:``, ``flop:``, ``turn:``, ``river:`` or ``postflop:``).  With fewer than four
unnamed parts the last one repeats, so ``"2.5x, 4x, a; 33%, 75%, 150%, a"`` is preflop
plus all postflop streets.

Resolving sizes to chip amounts (:func:`resolve_raises`): every size becomes a raise-to
amount, rounded to whole chips, clamped up to the minimum legal raise and down to
all-in; duplicates are merged (the first size in the list keeps its action id).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from pokerlab.errors import BetSizeError

STREETS = ("preflop", "flop", "turn", "river")
KINDS = ("pot", "mult", "bb", "allin")


@dataclass(frozen=True, kw_only=True)
class BetSize:
    """One abstract size: ``kind`` in :data:`KINDS` and its ``value`` (0 for all-in)."""

    kind: str
    value: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise BetSizeError(f"unknown bet size kind {self.kind!r}; expected one of {KINDS}")
        if self.kind != "allin" and not (math.isfinite(self.value) and self.value > 0):
            raise BetSizeError(f"bet size value must be positive, got {self.value!r}")

    def text(self) -> str:
        if self.kind == "allin":
            return "a"
        v = _fmt(self.value * 100 if self.kind == "pot" else self.value)
        return v + {"pot": "%", "mult": "x", "bb": "bb"}[self.kind]

    def raise_to(self, *, pot: int, current_bet: int, to_call: int, big_blind: int,
                 all_in_to: int) -> float:
        """Unclamped raise-to amount (street commitment) this size asks for."""
        if self.kind == "allin":
            return float(all_in_to)
        if self.kind == "pot":
            return current_bet + self.value * (pot + to_call)
        if self.kind == "mult":
            return self.value * (current_bet if current_bet > 0 else big_blind)
        return current_bet + self.value * big_blind


def _fmt(x: float) -> str:
    r = round(x, 6)
    return str(int(r)) if r == int(r) else f"{r:g}"


@dataclass(frozen=True, kw_only=True)
class StreetBets:
    """The sizes of one street and its raise cap (``None``: no cap)."""

    sizes: tuple[BetSize, ...]
    cap: int | None = None

    def __post_init__(self) -> None:
        if self.cap is not None and self.cap < 0:
            raise BetSizeError(f"raise cap must be >= 0, got {self.cap}")

    def text(self) -> str:
        items = [s.text() for s in self.sizes]
        if self.cap is not None:
            items.append(f"cap {self.cap}")
        return ", ".join(items)


@dataclass(frozen=True, kw_only=True)
class BetSet:
    """Sizes per street (preflop, flop, turn, river)."""

    streets: tuple[StreetBets, StreetBets, StreetBets, StreetBets]
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        if len(self.streets) != 4:
            raise BetSizeError(f"a bet set has 4 streets, got {len(self.streets)}")

    def street(self, s: int) -> StreetBets:
        return self.streets[s]

    @property
    def max_sizes(self) -> int:
        return max(len(s.sizes) for s in self.streets)

    def text(self) -> str:
        parts = [f"{STREETS[i]}: {st.text()}" for i, st in enumerate(self.streets)]
        return "; ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "text": self.text(),
                "streets": [{"sizes": [s.text() for s in st.sizes], "cap": st.cap}
                            for st in self.streets]}

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> BetSet:
        text = obj.get("text")
        if not isinstance(text, str):
            raise BetSizeError(f"bet set JSON needs a 'text' string, got {text!r}")
        return parse_bet_set(text, name=str(obj.get("name", "custom")))


_SIZE_RE = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)\s*(%|x|bb|p)$", re.IGNORECASE)
_CAP_RE = re.compile(r"^cap\s*[= ]?\s*(\S+)$", re.IGNORECASE)


def parse_size(text: str) -> BetSize:
    """Parse one size: ``"33%"``, ``"0.5p"`` (pot fraction), ``"2.5x"``, ``"5bb"``, ``"a"``."""
    t = text.strip().lower()
    if t in ("a", "allin", "all-in", "all"):
        return BetSize(kind="allin")
    m = _SIZE_RE.match(t)
    if not m:
        raise BetSizeError(
            f"bad bet size {text!r}: expected N% (pot fraction), Np, Nx (multiple of the bet "
            "faced), Nbb (big blinds) or a (all-in)")
    v = float(m.group(1))
    unit = m.group(2)
    if v <= 0:
        raise BetSizeError(f"bad bet size {text!r}: must be positive")
    if unit == "%":
        return BetSize(kind="pot", value=v / 100.0)
    if unit == "p":
        return BetSize(kind="pot", value=v)
    if unit == "x":
        if v <= 1.0:
            raise BetSizeError(f"bad bet size {text!r}: a multiple of the bet must exceed 1x")
        return BetSize(kind="mult", value=v)
    return BetSize(kind="bb", value=v)


def parse_street(text: str) -> StreetBets:
    """Parse one street's comma list of sizes with an optional ``cap N`` item."""
    sizes: list[BetSize] = []
    cap: int | None = None
    items = [] if not text.strip() else [x.strip() for x in text.split(",")]
    for item in items:
        if not item:
            raise BetSizeError(f"empty bet size in {text!r}")
        m = _CAP_RE.match(item)
        if m:
            try:
                cap = int(m.group(1))
            except ValueError:
                raise BetSizeError(f"bad raise cap {item!r} in {text!r}") from None
            if cap < 0:
                raise BetSizeError(f"bad raise cap {item!r}: must be >= 0")
            continue
        try:
            sizes.append(parse_size(item))
        except BetSizeError as exc:
            raise BetSizeError(f"{exc} (in {text!r})") from None
    seen: set[BetSize] = set()
    for s in sizes:
        if s in seen:
            raise BetSizeError(f"bet size {s.text()!r} given twice in {text!r}")
        seen.add(s)
    return StreetBets(sizes=tuple(sizes), cap=cap)


_SPLIT_PARTS = re.compile(r"[;|]")


def parse_bet_set(text: str, *, name: str = "custom") -> BetSet:
    """Parse the text form (see the module docstring) or a preset name."""
    if text.strip().lower() in PRESETS:
        return preset(text.strip().lower())
    parts = [p for p in _SPLIT_PARTS.split(text)]
    if not text.strip():
        raise BetSizeError("empty bet set text")
    named: dict[int, StreetBets] = {}
    unnamed: list[StreetBets] = []
    for part in parts:
        p = part.strip()
        if not p:
            raise BetSizeError(f"empty street part in bet set {text!r}")
        label = None
        if ":" in p:
            label, p = (x.strip() for x in p.split(":", 1))
            label = label.lower()
        st = parse_street(p)
        if label is None:
            if named:
                raise BetSizeError(f"unnamed part {part.strip()!r} after named parts in {text!r}")
            unnamed.append(st)
        elif label == "postflop":
            for i in (1, 2, 3):
                named[i] = st
        elif label in STREETS:
            named[STREETS.index(label)] = st
        else:
            raise BetSizeError(f"unknown street {label!r} in bet set {text!r}")
    if unnamed:
        if len(unnamed) > 4:
            raise BetSizeError(f"bet set {text!r} has {len(unnamed)} street parts; at most 4")
        while len(unnamed) < 4:
            unnamed.append(unnamed[-1])
        streets = tuple(unnamed)
    else:
        missing = [STREETS[i] for i in range(4) if i not in named]
        if missing:
            raise BetSizeError(f"bet set {text!r} does not give street(s) {', '.join(missing)}")
        streets = tuple(named[i] for i in range(4))
    return BetSet(streets=streets, name=name)  # type: ignore[arg-type]


PRESETS: dict[str, str] = {
    # The thesis: fold, check, call, raise 1, 2, 5, 10, 20, 50 big blinds, all-in.
    "thesis": "1bb, 2bb, 5bb, 10bb, 20bb, 50bb, a",
    "default": "preflop: 2.5x, 4x, a, cap 3; postflop: 33%, 75%, 150%, a, cap 3",
    "small": "preflop: 3x, a, cap 2; postflop: 50%, a, cap 2",
    "tiny": "preflop: a; postflop: 100%, a, cap 1",
}
"""Named bet sets; ``"thesis"`` is the thesis's fixed big-blind raises."""


def preset(name: str) -> BetSet:
    key = name.strip().lower()
    if key not in PRESETS:
        raise BetSizeError(f"unknown bet set preset {name!r}; known: {', '.join(PRESETS)}")
    return parse_bet_set(PRESETS[key], name=key)


def resolve_raises(street: StreetBets, *, pot: int, current_bet: int, to_call: int,
                   min_raise_to: int, all_in_to: int, big_blind: int,
                   raises_so_far: int) -> list[tuple[int, int]]:
    """Legal abstract raises as ``(size index, raise-to amount)``, sorted by amount.

    ``pot`` is every chip committed so far (all streets, both players), ``current_bet`` the
    highest street commitment, ``to_call`` what the acting player needs to call,
    ``min_raise_to`` the smallest legal raise-to and ``all_in_to`` the acting player's
    all-in raise-to (street commitment + stack).  When ``all_in_to <= current_bet`` the
    player cannot raise; an all-in below ``min_raise_to`` is still a legal (short) raise.
    """
    if all_in_to <= current_bet:
        return []
    if street.cap is not None and raises_so_far >= street.cap:
        return []
    lo = min(min_raise_to, all_in_to)
    out: dict[int, int] = {}
    for k, size in enumerate(street.sizes):
        want = size.raise_to(pot=pot, current_bet=current_bet, to_call=to_call,
                             big_blind=big_blind, all_in_to=all_in_to)
        amt = int(math.floor(want + 0.5))
        amt = max(lo, min(all_in_to, amt))
        if amt not in out:
            out[amt] = k
    return sorted(((k, a) for a, k in out.items()), key=lambda t: t[1])

