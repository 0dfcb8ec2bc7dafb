"""A postflop spot and its public betting tree, compiled to flat arrays.

A :class:`Spot` is what a postflop solver is given: a board of 3, 4 or 5 cards, the pot
and the effective stack (chips, behind, at the start of the spot), two ranges (1,326
weights: out of position first) and a bet tree per street and per player, in the
conventions of the postflop solvers (PioSOLVER, GTO+, b-inary's postflop-solver):

* bet sizes in % of the pot (``"33%"``), raise sizes as a multiple of the bet faced
  (``"2.5x"``) or in % of the pot after calling (``"100%"``), ``"a"`` for all-in,
  ``"none"`` for no raises;
* separate donk-bet sizes on turn and river (out of position leading into the player who
  was the aggressor on the previous street, i.e. the previous street ended with out of
  position's call);
* an add-all-in threshold (all-in is offered too when it is at most X pots), a
  force-all-in threshold (a bet becomes all-in when, after a call, the stack-to-pot ratio
  would be at most Y), merging of near-equal sizes (postflop-solver's rule: of two sizes
  whose pot ratios differ by less than the threshold, the smaller goes), a raise cap per
  street (bets + raises), a bet larger than the stack is all-in.

Its betting tree is :mod:`pokerlab.subgame.tree`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.cards.cards import COMBO_MASKS, NUM_COMBOS, cards_mask, cards_str, deal_possible, parse_cards
from pokerlab.cards.ranges import parse_range
from pokerlab.errors import BetSizeError, ConfigError, PokerlabError, RangeError

OOP, IP = 0, 1
STREETS = ("flop", "turn", "river")


class SpotError(PokerlabError):
    """A spot (board, pot, stack, ranges, bet tree) is malformed or impossible."""


# ------------------------------------------------------------------------------- sizes


@dataclass(frozen=True)
class Size:
    """One bet or raise size: ``kind`` is ``"pot"`` (fraction of pot), ``"mult"``
    (multiple of the bet faced, raises only) or ``"allin"``."""

    kind: str
    value: float = 0.0

    def __str__(self) -> str:
        if self.kind == "allin":
            return "a"
        if self.kind == "mult":
            return f"{self.value:g}x"
        return f"{self.value * 100:g}%"


_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*(%|x)$")


def parse_sizes(text: str | Sequence[str] | None, *, raise_sizes: bool, what: str) -> tuple[Size, ...]:
    """Parse a size list such as ``"33%, 75%, a"`` or ``"2.5x"``; ``"none"`` or ``""``
    gives no sizes.  Bets may not be multiples (``2.5x`` is a raise size)."""
    if text is None:
        return ()
    if not isinstance(text, str):
        text = ",".join(str(t) for t in text)
    body = text.strip().lower()
    if body in ("", "none", "-"):
        return ()
    out: list[Size] = []
    for token in re.split(r"[\s,]+", body):
        if not token:
            continue
        if token in ("a", "allin", "all-in"):
            out.append(Size("allin"))
            continue
        m = _SIZE.match(token)
        if m is None:
            raise BetSizeError(
                f"bad {what} size {token!r} in {text!r}: expected e.g. 33%, 75%, 150%"
                + (", 2.5x" if raise_sizes else "") + " or a (all-in)")
        value = float(m.group(1))
        if m.group(2) == "%":
            if value <= 0 or not math.isfinite(value) or value > 100_000:
                raise BetSizeError(f"bad {what} size {token!r} in {text!r}: must be above 0% "
                                   "and at most 100000%")
            out.append(Size("pot", value / 100.0))
        else:
            if not raise_sizes:
                raise BetSizeError(f"bad {what} size {token!r} in {text!r}: a multiple of the bet "
                                   "faced (2.5x) is a raise size; bets are in % of the pot")
            if value <= 1.0 or value > 1000:
                raise BetSizeError(f"bad {what} size {token!r} in {text!r}: a raise multiple must "
                                   "be above 1x and at most 1000x")
            out.append(Size("mult", value))
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class StreetSizes:
    """The sizes of one player on one street."""

    bets: tuple[Size, ...] = ()
    raises: tuple[Size, ...] = ()
    donk: tuple[Size, ...] | None = None  # out of position on turn/river only

    def to_json(self) -> dict[str, Any]:
        return {"bets": ",".join(map(str, self.bets)) or "none",
                "raises": ",".join(map(str, self.raises)) or "none",
                "donk": None if self.donk is None else (",".join(map(str, self.donk)) or "none")}


@dataclass(frozen=True, kw_only=True)
class TreeConfig:
    """The bet tree: ``sizes[street][player]`` (street 0 flop, 1 turn, 2 river; player 0 out
    of position) and the thresholds.  ``raise_cap`` counts bets plus raises per street
    (0: no cap)."""

    sizes: tuple[tuple[StreetSizes, StreetSizes], ...]
    allin_threshold: float = 1.5
    force_allin: float = 0.15
    merge: float = 0.1
    raise_cap: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"sizes": {STREETS[s]: {"oop": self.sizes[s][0].to_json(), "ip": self.sizes[s][1].to_json()}
                          for s in range(3)},
                "allin_threshold": self.allin_threshold, "force_allin": self.force_allin,
                "merge": self.merge, "raise_cap": self.raise_cap}

    @staticmethod
    def from_json(obj: dict[str, Any]) -> TreeConfig:
        sizes = []
        for s in range(3):
            row = []
            for who in ("oop", "ip"):
                d = obj["sizes"][STREETS[s]][who]
                donk = d.get("donk")
                row.append(StreetSizes(
                    bets=parse_sizes(d["bets"], raise_sizes=False, what="bet"),
                    raises=parse_sizes(d["raises"], raise_sizes=True, what="raise"),
                    donk=None if donk is None else parse_sizes(donk, raise_sizes=False, what="donk")))
            sizes.append((row[0], row[1]))
        return TreeConfig(sizes=tuple(sizes), allin_threshold=float(obj["allin_threshold"]),
                          force_allin=float(obj["force_allin"]), merge=float(obj["merge"]),
                          raise_cap=int(obj["raise_cap"]))


def tree_config(*, bets: str | None = "75%", raises: str | None = "2.5x",
                flop_bets: str | None = None, turn_bets: str | None = None,
                river_bets: str | None = None, flop_raises: str | None = None,
                turn_raises: str | None = None, river_raises: str | None = None,
                oop_bets: str | None = None, ip_bets: str | None = None,
                donk: str | None = None, turn_donk: str | None = None, river_donk: str | None = None,
                allin_threshold: float = 1.5, force_allin: float = 0.15, merge: float = 0.1,
                raise_cap: int = 0) -> TreeConfig:
    """A :class:`TreeConfig` from the command line's strings: ``bets``/``raises`` for every
    street and player unless a street (``flop_bets``, ...) or a player (``oop_bets``,
    ``ip_bets``) is given; ``donk`` for turn and river unless ``turn_donk``/``river_donk``."""
    for name, v, lo in (("--allin-threshold", allin_threshold, 0.0), ("--force-allin", force_allin, 0.0),
                        ("--merge", merge, 0.0)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= lo):
            raise ConfigError(f"{name} must be a finite number >= {lo:g}, got {v!r}")
    if not isinstance(raise_cap, int) or raise_cap < 0:
        raise ConfigError(f"--raise-cap must be an integer >= 0 (0: no cap), got {raise_cap!r}")
    street_bets = (flop_bets, turn_bets, river_bets)
    street_raises = (flop_raises, turn_raises, river_raises)
    sizes = []
    for s in range(3):
        row = []
        for who, pbets in ((OOP, oop_bets), (IP, ip_bets)):
            b = street_bets[s] if street_bets[s] is not None else (pbets if pbets is not None else bets)
            r = street_raises[s] if street_raises[s] is not None else raises
            d = None
            if who == OOP and s > 0:
                d = (turn_donk, river_donk)[s - 1]
                if d is None:
                    d = donk
            row.append(StreetSizes(bets=parse_sizes(b, raise_sizes=False, what=f"{STREETS[s]} bet"),
                                   raises=parse_sizes(r, raise_sizes=True, what=f"{STREETS[s]} raise"),
                                   donk=None if d is None
                                   else parse_sizes(d, raise_sizes=False, what="donk")))
        sizes.append((row[0], row[1]))
    return TreeConfig(sizes=tuple(sizes), allin_threshold=float(allin_threshold),
                      force_allin=float(force_allin), merge=float(merge), raise_cap=raise_cap)


# -------------------------------------------------------------------------------- spot


@dataclass(frozen=True, kw_only=True)
class Root:
    """Where on its street a spot starts (default: the street's first decision).

    A spot that starts in the middle of a street (what real-time search re-solves at a
    decision) gives the player to act (``to_act``: 0 out of position, 1 in position), the
    chips each player has already put in on this street (``bets``, street totals, part of
    each player's contribution to the spot: they are not in ``Spot.pot``), the bet level
    before the last raise (``prev_level``, for the minimum raise), the bets and raises so
    far on the street (``aggressions``, for the raise cap), the decisions so far on the
    street (``acted``: a check by the second player to act ends the street), and whether
    the previous street ended with out of position calling (``donk_ok``: its donk sizes
    apply)."""

    to_act: int = 0
    bets: tuple[int, int] = (0, 0)
    prev_level: int = 0
    aggressions: int = 0
    acted: int = 0
    donk_ok: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"to_act": self.to_act, "bets": list(self.bets), "prev_level": self.prev_level,
                "aggressions": self.aggressions, "acted": self.acted, "donk_ok": self.donk_ok}

    @staticmethod
    def from_json(obj: dict[str, Any] | None) -> Root:
        if not obj:
            return Root()
        return Root(to_act=int(obj["to_act"]), bets=(int(obj["bets"][0]), int(obj["bets"][1])),
                    prev_level=int(obj["prev_level"]), aggressions=int(obj["aggressions"]),
                    acted=int(obj["acted"]), donk_ok=bool(obj["donk_ok"]))


def check_root(root: Root, stack: int) -> None:
    """One clear :class:`SpotError` for a root state that no betting could reach."""
    if root.to_act not in (0, 1):
        raise SpotError(f"the player to act must be 0 (out of position) or 1, got {root.to_act!r}")
    b = root.bets
    if min(b) < 0 or max(b) > stack:
        raise SpotError(f"street bets {b} must lie between 0 and the stack {stack}")
    if b[root.to_act] > b[1 - root.to_act]:
        raise SpotError(f"the player to act has bet more ({b}) than the opponent: nothing to decide")
    if root.acted < 0 or root.aggressions < 0 or not 0 <= root.prev_level <= max(b):
        raise SpotError("root counts (acted, aggressions, prev_level) must be >= 0")
    if b[root.to_act] == b[1 - root.to_act] and root.acted >= 2:
        raise SpotError("the street is over at this root (both players acted, bets equal)")
    if b[1 - root.to_act] >= stack and b[root.to_act] >= stack:
        raise SpotError("both players are all-in at this root: nothing to decide")


@dataclass(frozen=True, kw_only=True)
class Spot:
    """A postflop spot.  ``pot``: chips in the middle at the start of the street;
    ``stack``: each player's chips behind at the start of the street (effective);
    ``ranges``: (2, 1326) weights, out of position first, with the combos the board
    blocks removed; ``rake``: fraction of the final pot, capped at ``rake_cap`` chips (0:
    no cap); ``big_blind``: chips per big blind (for display); ``root``: where on the
    street the spot starts (:class:`Root`; default its first decision)."""

    board: tuple[int, ...]
    pot: int
    stack: int
    ranges: np.ndarray = field(repr=False)
    tree: TreeConfig
    rake: float = 0.0
    rake_cap: float = 0.0
    big_blind: float = 1.0
    root: Root = Root()

    @property
    def street(self) -> int:
        """0 flop, 1 turn, 2 river."""
        return len(self.board) - 3

    def board_str(self) -> str:
        return cards_str(self.board)

    def to_json(self) -> dict[str, Any]:
        from pokerlab.cards.ranges import range_to_string
        return {"board": self.board_str(), "pot": self.pot, "stack": self.stack,
                "oop": range_to_string(self.ranges[0]), "ip": range_to_string(self.ranges[1]),
                "tree": self.tree.to_json(), "rake": self.rake, "rake_cap": self.rake_cap,
                "big_blind": self.big_blind,
                **({"root": self.root.to_json()} if self.root != Root() else {})}

    def digest_text(self) -> str:
        return json.dumps({**self.to_json(), "ranges": self.ranges.round(9).tolist()}, sort_keys=True)


def _range_of(value: str | np.ndarray, board: Sequence[int], who: str) -> np.ndarray:
    if isinstance(value, str):
        try:
            w = parse_range(value, dead=board)
        except RangeError as exc:
            raise RangeError(f"{who} range: {exc}") from None
    else:
        w = np.asarray(value, dtype=np.float64).copy()
        if w.shape != (NUM_COMBOS,):
            raise RangeError(f"{who} range must have {NUM_COMBOS} weights, got shape {w.shape}")
        if not np.all(np.isfinite(w)) or np.any(w < 0) or np.any(w > 1):
            raise RangeError(f"{who} range weights must lie in [0, 1]")
        w[(COMBO_MASKS & np.uint64(cards_mask(board))) != 0] = 0.0
    if not np.any(w > 0):
        raise RangeError(f"{who} range is empty once the board's cards are removed (board "
                         f"{cards_str(board)})")
    return w


def make_spot(*, board: str | Sequence[int], pot: float, stack: float, oop: str | np.ndarray,
              ip: str | np.ndarray, tree: TreeConfig | None = None, rake: float = 0.0,
              rake_cap: float = 0.0, big_blind: float = 1.0, root: Root | None = None) -> Spot:
    """Validate and build a :class:`Spot` (one clear :class:`PokerlabError` for bad input)."""
    cards = parse_cards(board) if isinstance(board, str) else parse_cards([int(c) for c in board])
    if len(cards) not in (3, 4, 5):
        raise SpotError(f"a board has 3, 4 or 5 cards, got {len(cards)}: {board!r}")
    for name, v in (("--pot", pot), ("--stack", stack)):
        if not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0 or v > 1e9:
            raise SpotError(f"{name} must be a positive number of chips (at most 1e9), got {v!r}")
        if abs(v - round(v)) > 1e-9:
            raise SpotError(f"{name} must be a whole number of chips, got {v!r}")
    if not (math.isfinite(rake) and 0 <= rake < 1):
        raise SpotError(f"--rake must be a fraction of the pot in [0, 1), got {rake!r}")
    if not (math.isfinite(rake_cap) and rake_cap >= 0):
        raise SpotError(f"--rake-cap must be >= 0 chips (0: no cap), got {rake_cap!r}")
    if not (math.isfinite(big_blind) and big_blind > 0):
        raise SpotError(f"--big-blind must be > 0 chips, got {big_blind!r}")
    r0 = _range_of(oop, cards, "out-of-position (--oop)")
    r1 = _range_of(ip, cards, "in-position (--ip)")
    # some pair of hands must be possible together
    if not deal_possible(r0, r1):
        raise RangeError("the two ranges share a card in every pair of hands: no deal is possible")
    root = root if root is not None else Root()
    check_root(root, int(round(stack)))
    return Spot(board=tuple(cards), pot=int(round(pot)), stack=int(round(stack)),
                ranges=np.stack([r0, r1]), tree=tree if tree is not None else tree_config(),
                rake=float(rake), rake_cap=float(rake_cap), big_blind=float(big_blind), root=root)
