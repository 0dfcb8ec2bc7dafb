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

The betting tree (:class:`BettingTree`) has no cards: chance nodes at street ends stand for
"deal the next card"; the solver expands them over the deck.  Amounts are integer chips.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from pokerlab import kinds
from pokerlab.cards.cards import COMBO_MASKS, NUM_COMBOS, cards_mask, cards_str, parse_cards
from pokerlab.cards.ranges import parse_range
from pokerlab.errors import BetSizeError, ConfigError, PokerlabError, RangeError

OOP, IP = 0, 1
STREETS = ("flop", "turn", "river")

# node kinds of the betting tree: the one vocabulary of pokerlab.kinds
DECISION = kinds.DECISION
CHANCE = kinds.CHANCE
FOLD = kinds.FOLD
SHOWDOWN = kinds.SHOWDOWN


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
    m0 = COMBO_MASKS[r0 > 0]
    m1 = COMBO_MASKS[r1 > 0]
    if len(m0) * len(m1) <= 4_000_000:
        ok = bool(np.any((m0[:, None] & m1[None, :]) == 0))
    else:
        ok = True
    if not ok:
        raise RangeError("the two ranges share a card in every pair of hands: no deal is possible")
    root = root if root is not None else Root()
    check_root(root, int(round(stack)))
    return Spot(board=tuple(cards), pot=int(round(pot)), stack=int(round(stack)),
                ranges=np.stack([r0, r1]), tree=tree if tree is not None else tree_config(),
                rake=float(rake), rake_cap=float(rake_cap), big_blind=float(big_blind), root=root)


# ------------------------------------------------------------------------ betting tree


@dataclass
class BettingTree:
    """The public betting tree without cards, as flat arrays.

    Per node: ``kind`` (DECISION, CHANCE, FOLD, SHOWDOWN), ``player`` (acting player at a
    decision, the folder at FOLD, -1 otherwise), ``street`` (0 flop .. 2 river),
    ``contrib`` (chips each player has put in since the spot began), ``child_start`` /
    ``num_children`` into ``children``; ``action_names`` per decision node's children;
    ``parent`` and ``parent_action``.  Node 0 is the root."""

    kind: np.ndarray
    player: np.ndarray
    street: np.ndarray
    contrib: np.ndarray
    child_start: np.ndarray
    num_children: np.ndarray
    children: np.ndarray
    parent: np.ndarray
    parent_action: np.ndarray
    action_names: list[list[str]]
    action_amounts: list[list[int]]
    leaf: np.ndarray | None = None
    """Depth-limited trees (``build_betting_tree(..., depth_limited=True)``): per node,
    whether it is a leaf, a chance node at the end of the starting street with betting
    still to come, whose values come from outside the tree (its only child is a stand-in
    run-out to a showdown, never walked); ``None`` for a whole tree."""

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    def child(self, node: int, a: int) -> int:
        return int(self.children[self.child_start[node] + a])


@dataclass
class _State:
    street: int
    to_act: int
    street_bets: list[int]
    contrib: list[int]  # before this street
    prev_level: int  # the bet level before the last raise on this street (for min raise)
    aggressions: int  # bets + raises this street
    acted: int  # decisions this street
    donk_ok: bool  # previous street ended with out of position calling


def _merge(amounts: list[int], labels: list[str], base: int, pot: float, param: float
           ) -> tuple[list[int], list[str]]:
    """postflop-solver's merging rule: walk from the largest size down; keep a size only when
    its pot ratio is below (kept_ratio - param) / (1 + param)."""
    if param <= 0 or not amounts:
        return amounts, labels
    order = sorted(range(len(amounts)), key=lambda i: -amounts[i])
    keep: list[int] = []
    cur = math.inf
    for i in order:
        ratio = (amounts[i] - base) / pot
        thr = (cur - param) / (1 + param)
        if not keep or ratio < thr * (1 - 1e-12):
            keep.append(i)
            cur = ratio
    keep.sort(key=lambda i: amounts[i])
    return [amounts[i] for i in keep], [labels[i] for i in keep]


def _chips(x: float) -> int:
    """Whole chips, halves rounded up (82.5 -> 83)."""
    return int(math.floor(x + 0.5 + 1e-9))


def _bet_options(spot: Spot, st: _State) -> list[tuple[str, int]]:
    """(name, street total after the action) of every bet/raise for the player to act."""
    cfg = spot.tree
    q = st.to_act
    o = 1 - q
    mine, theirs = st.street_bets[q], st.street_bets[o]
    behind = spot.stack - st.contrib[q]  # street total the player can reach (all-in)
    allin_to = behind
    opp_allin_to = spot.stack - st.contrib[o]
    if theirs >= opp_allin_to or allin_to <= theirs:
        return []  # opponent all-in, or we cannot raise
    pot_now = spot.pot + st.contrib[0] + st.contrib[1] + st.street_bets[0] + st.street_bets[1]
    to_call = theirs - mine
    ss = cfg.sizes[st.street][q]
    facing = theirs > 0
    if facing:
        if cfg.raise_cap and st.aggressions >= cfg.raise_cap:
            return []
        sizes = ss.raises
    else:
        sizes = ss.bets
        if q == OOP and st.street > 0 and st.donk_ok and ss.donk is not None:
            sizes = ss.donk
    cap_to = min(allin_to, opp_allin_to)  # chips beyond the opponent's stack are never called
    min_to = theirs + max(theirs - st.prev_level, 1) if facing else 1
    amounts: list[int] = []
    has_allin = False
    for sz in sizes:
        if sz.kind == "allin":
            has_allin = True
            continue
        if sz.kind == "mult":
            to = _chips(sz.value * theirs)
        elif facing:
            to = theirs + _chips(sz.value * (pot_now + to_call))
        else:
            to = _chips(sz.value * pot_now)
        to = max(to, min_to)
        if to >= cap_to:
            has_allin = True
            continue
        # force all-in: stack-to-pot ratio after a call at most force_allin
        pot_after = spot.pot + 2 * (st.contrib[q] + to)
        if (spot.stack - st.contrib[q] - to) / pot_after <= cfg.force_allin:
            has_allin = True
            continue
        amounts.append(to)
    if not has_allin and sizes and cfg.allin_threshold > 0:
        ratio = (cap_to - theirs) / (pot_now + to_call)
        if ratio <= cfg.allin_threshold + 1e-12:
            has_allin = True
    amounts = sorted(set(amounts))
    labels = [("raise " if facing else "bet ") + str(a) for a in amounts]
    amounts, labels = _merge(amounts, labels, theirs, pot_now + to_call, cfg.merge)
    out = list(zip(labels, amounts, strict=True))
    if has_allin:
        out.append((f"allin {cap_to}", cap_to))
    return out


def build_betting_tree(spot: Spot, *, max_nodes: int = 5_000_000,
                       depth_limited: bool = False) -> BettingTree:
    """The public betting tree of ``spot`` (no cards); ``depth_limited``: it ends with the
    starting street, each end of the street with chips behind on both sides a leaf
    (:attr:`BettingTree.leaf`; Brown, Sandholm & Amos 2018)."""
    kind: list[int] = []
    player: list[int] = []
    street: list[int] = []
    contrib: list[tuple[int, int]] = []
    kids: list[list[int]] = []
    parent: list[int] = []
    parent_action: list[int] = []
    names: list[list[str]] = []
    amounts: list[list[int]] = []
    leaves: list[int] = []

    def new(k: int, pl: int, s: int, c: tuple[int, int], par: int, pa: int) -> int:
        if len(kind) >= max_nodes:
            raise SpotError(f"the betting tree has more than {max_nodes:,} nodes: use fewer sizes "
                            "or a raise cap (--raise-cap)")
        kind.append(k)
        player.append(pl)
        street.append(s)
        contrib.append(c)
        kids.append([])
        parent.append(par)
        parent_action.append(pa)
        names.append([])
        amounts.append([])
        return len(kind) - 1

    def street_end(st: _State, par: int, pa: int, ended_by_oop_call: bool) -> int:
        c = (st.contrib[0] + st.street_bets[0], st.contrib[1] + st.street_bets[1])
        if st.street == 2:
            return new(SHOWDOWN, -1, st.street, c, par, pa)
        node = new(CHANCE, -1, st.street, c, par, pa)
        allin = max(c) >= spot.stack
        nxt = _State(street=st.street + 1, to_act=OOP, street_bets=[0, 0], contrib=list(c),
                     prev_level=0, aggressions=0, acted=0, donk_ok=ended_by_oop_call)
        if depth_limited and not allin and st.street == spot.street:
            leaves.append(node)
            child = runout(nxt, node, 0)  # a stand-in: the leaf's values come from outside
        else:
            child = runout(nxt, node, 0) if allin else decision(nxt, node, 0)
        kids[node].append(child)
        return node

    def runout(st: _State, par: int, pa: int) -> int:
        c = (st.contrib[0], st.contrib[1])
        if st.street == 2:
            return new(SHOWDOWN, -1, st.street, c, par, pa)
        node = new(CHANCE, -1, st.street, c, par, pa)
        nxt = replace(st, street=st.street + 1)
        kids[node].append(runout(nxt, node, 0))
        return node

    def decision(st: _State, par: int, pa: int) -> int:
        q = st.to_act
        o = 1 - q
        c = (st.contrib[0] + st.street_bets[0], st.contrib[1] + st.street_bets[1])
        node = new(DECISION, q, st.street, c, par, pa)
        mine, theirs = st.street_bets[q], st.street_bets[o]
        acts: list[tuple[str, int]] = []
        if theirs > mine:
            acts.append(("fold", -1))
            acts.append(("call", theirs))
        else:
            acts.append(("check", mine))
        acts += _bet_options(spot, st)
        for a, (label, to) in enumerate(acts):
            names[node].append(label)
            amounts[node].append(to)
            if label == "fold":
                child = new(FOLD, q, st.street, c, node, a)
            elif label == "call":
                nb = list(st.street_bets)
                nb[q] = theirs
                done = _State(street=st.street, to_act=o, street_bets=nb, contrib=st.contrib,
                              prev_level=st.prev_level, aggressions=st.aggressions, acted=st.acted + 1,
                              donk_ok=st.donk_ok)
                child = street_end(done, node, a, ended_by_oop_call=(q == OOP))
            elif label == "check":
                if st.acted >= 1:  # check behind: street over
                    child = street_end(st, node, a, ended_by_oop_call=False)
                else:
                    nxt = replace(st, to_act=o, acted=st.acted + 1)
                    child = decision(nxt, node, a)
            else:
                nb = list(st.street_bets)
                nb[q] = to
                nxt = _State(street=st.street, to_act=o, street_bets=nb, contrib=st.contrib,
                             prev_level=theirs, aggressions=st.aggressions + 1, acted=st.acted + 1,
                             donk_ok=st.donk_ok)
                child = decision(nxt, node, a)
            kids[node].append(child)
        return node

    r = spot.root
    root_state = _State(street=spot.street, to_act=r.to_act, street_bets=list(r.bets), contrib=[0, 0],
                        prev_level=r.prev_level, aggressions=r.aggressions, acted=r.acted,
                        donk_ok=r.donk_ok)
    try:
        decision(root_state, -1, -1)
    except RecursionError:
        raise SpotError("the betting tree is too deep to build (tiny bet or raise sizes against a deep "
                        "stack): use larger sizes or a raise cap (--raise-cap)") from None
    n = len(kind)
    child_start = np.zeros(n, dtype=np.int64)
    num_children = np.zeros(n, dtype=np.int64)
    flat: list[int] = []
    for i in range(n):
        child_start[i] = len(flat)
        num_children[i] = len(kids[i])
        flat += kids[i]
    return BettingTree(kind=np.array(kind, dtype=np.int64), player=np.array(player, dtype=np.int64),
                       street=np.array(street, dtype=np.int64),
                       contrib=np.array(contrib, dtype=np.int64).reshape(n, 2),
                       child_start=child_start, num_children=num_children,
                       children=np.array(flat, dtype=np.int64), parent=np.array(parent, dtype=np.int64),
                       parent_action=np.array(parent_action, dtype=np.int64),
                       action_names=names, action_amounts=amounts,
                       leaf=np.isin(np.arange(n), leaves) if depth_limited else None)


# ---------------------------------------------------------------------- counting the tree


@dataclass(frozen=True)
class TreeCount:
    """The shape of a spot's betting tree without building it (:func:`count_betting_tree`):
    per street (0 flop .. 2 river) the nodes, the decision nodes and, per street and acting
    player, the children of its decision nodes: what the solver's memory layout needs."""

    nodes_by_street: tuple[int, int, int]
    decisions_by_street: tuple[int, int, int]
    children_by_street_player: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
    states: int
    """Distinct betting states counted (the work done)."""

    @property
    def num_nodes(self) -> int:
        return sum(self.nodes_by_street)

    @property
    def decisions(self) -> int:
        return sum(self.decisions_by_street)

    def layout(self, n_hands: tuple[int, int], slots: tuple[int, int, int]) -> tuple[int, int, int]:
        """(storage values, storage entries, nodes over every board) of the solver's layout
        for these hand counts and boards per street (as ``solver._layout`` of the built tree)."""
        total = sum(slots[s] * self.children_by_street_player[s][p] * n_hands[p]
                    for s in range(3) for p in range(2))
        entries = sum(slots[s] * self.decisions_by_street[s] for s in range(3))
        nodes = sum(slots[s] * self.nodes_by_street[s] for s in range(3))
        return total, entries, nodes


MAX_TREE_DEPTH = 400
"""Decisions along one line of a betting tree at most (the builder recurses once per
decision): deeper trees, such as tiny bets with tiny raises against a deep stack, are
refused with one clear error."""


class TreeLimitError(SpotError):
    """A betting tree past a limit of :func:`count_betting_tree`: ``limit`` is ``"nodes"``,
    ``"depth"`` or ``"weight"`` (the caller's weighted bound, e.g. memory)."""

    def __init__(self, message: str, limit: str) -> None:
        super().__init__(message)
        self.limit = limit


def _too_many(max_nodes: int) -> SpotError:
    return TreeLimitError(f"the betting tree has more than {max_nodes:,} nodes: use fewer sizes "
                          "or a raise cap (--raise-cap)", "nodes")


def count_betting_tree(spot: Spot, *, max_nodes: int = 5_000_000, depth_limited: bool = False,
                       max_depth: int = MAX_TREE_DEPTH, weights: Sequence[float] | None = None,
                       max_weight: float = math.inf, weight_error: str = "") -> TreeCount:
    """Count the nodes of :func:`build_betting_tree`'s tree of ``spot`` without building it:
    a memoised walk over the distinct betting states (one count per state, subtrees shared
    by many lines counted once) with an explicit stack, in milliseconds for the usual trees.
    Stops with one :class:`SpotError` as soon as the tree is known to have more than
    ``max_nodes`` nodes (a subtree's count, or the number of distinct states, passes it) or a
    line of more than ``max_depth`` decisions.

    ``weights`` (12 numbers: per node of each street, per decision node of each street, per
    child of a decision node of each street and acting player) with ``max_weight``: stop as
    well, with ``SpotError(weight_error)``, once the weighted count passes ``max_weight``
    (what :func:`pokerlab.subgame.estimate_size` uses to stop at a memory limit)."""
    cfg = spot.tree
    w = [float(x) for x in weights] if weights is not None else [0.0] * 12
    if len(w) != 12:
        raise ConfigError(f"weights needs 12 numbers, got {len(w)}")

    def cost(v: Sequence[int]) -> float:
        return sum(a * b for a, b in zip(w, v, strict=True)) if weights is not None else 0.0

    def heavy() -> SpotError:
        return TreeLimitError(weight_error or f"the betting tree weighs more than {max_weight:g}", "weight")

    cap = cfg.raise_cap

    def key(st: _State) -> tuple[int, ...]:
        return (st.street, st.to_act, st.street_bets[0], st.street_bets[1], st.contrib[0], st.contrib[1],
                st.prev_level, min(st.aggressions, cap) if cap else 0, min(st.acted, 1), int(st.donk_ok))

    # a count: nodes[3], decisions[3], children[(street, player)] as 6: 12 ints
    def own(street: int, player: int = -1, k: int = 0) -> list[int]:
        v = [0] * 12
        v[street] = 1
        if player >= 0:
            v[3 + street] = 1
            v[6 + 2 * street + player] = k
        return v

    memo: dict[tuple[Any, ...], tuple[int, ...]] = {}

    def runout_count(st: _State) -> list[int]:
        v = [0] * 12
        for s in range(st.street, 3):  # a chance node per street, then the showdown on the river
            v[s] += 1
        return v

    # explicit stack frames: [vector, children left (list of (tag, state, flag)), memo key, depth]
    Item = tuple[str, _State, bool]

    def expand(item: Item) -> tuple[list[int], list[Item], tuple[Any, ...] | None]:
        tag, st, flag = item
        if tag == "end":  # street_end(st, ended_by_oop_call=flag)
            c = (st.contrib[0] + st.street_bets[0], st.contrib[1] + st.street_bets[1])
            if st.street == 2:
                return own(2), [], None
            v = own(st.street)
            allin = max(c) >= spot.stack
            nxt = _State(street=st.street + 1, to_act=OOP, street_bets=[0, 0], contrib=list(c),
                         prev_level=0, aggressions=0, acted=0, donk_ok=flag)
            if allin or (depth_limited and st.street == spot.street):
                rv = runout_count(nxt)
                return [a + b for a, b in zip(v, rv, strict=True)], [], None
            return v, [("dec", nxt, False)], None
        # a decision
        q = st.to_act
        o = 1 - q
        mine, theirs = st.street_bets[q], st.street_bets[o]
        opts = _bet_options(spot, st)
        kids: list[Item] = []
        v = own(st.street, q, (2 if theirs > mine else 1) + len(opts))
        if theirs > mine:
            v[st.street] += 1  # the fold terminal
            nb = list(st.street_bets)
            nb[q] = theirs
            done = _State(street=st.street, to_act=o, street_bets=nb, contrib=st.contrib,
                          prev_level=st.prev_level, aggressions=st.aggressions, acted=st.acted + 1,
                          donk_ok=st.donk_ok)
            kids.append(("end", done, q == OOP))
        elif st.acted >= 1:
            kids.append(("end", st, False))
        else:
            kids.append(("dec", replace(st, to_act=o, acted=st.acted + 1), False))
        for _label, to in opts:
            nb = list(st.street_bets)
            nb[q] = to
            kids.append(("dec", _State(street=st.street, to_act=o, street_bets=nb, contrib=st.contrib,
                                       prev_level=theirs, aggressions=st.aggressions + 1,
                                       acted=st.acted + 1, donk_ok=st.donk_ok), False))
        return v, kids, key(st)

    r = spot.root
    root = _State(street=spot.street, to_act=r.to_act, street_bets=list(r.bets), contrib=[0, 0],
                  prev_level=r.prev_level, aggressions=r.aggressions, acted=r.acted, donk_ok=r.donk_ok)
    v0, k0, key0 = expand(("dec", root, False))
    stack: list[tuple[list[int], list[Item], tuple[Any, ...] | None, int]] = [(v0, k0[::-1], key0, 1)]
    result: list[int] = []
    running = sum(v0[:3])  # nodes counted so far, with multiplicity: a lower bound of the total
    weight = cost(v0)
    steps = 0
    while stack:
        steps += 1
        if not steps & 255:
            time.sleep(0)  # let other threads (a server's event loop) take the GIL often
        vec, todo, k, depth = stack[-1]
        if not todo:
            stack.pop()
            if k is not None:
                memo[k] = tuple(vec)
                if len(memo) > max_nodes:
                    raise _too_many(max_nodes)
            if stack:
                parent = stack[-1][0]
                for i in range(12):
                    parent[i] += vec[i]
            else:
                result = vec
            continue
        item = todo.pop()
        if item[0] == "dec":
            hit = memo.get(key(item[1]))
            if hit is not None:
                for i in range(12):
                    vec[i] += hit[i]
                running += hit[0] + hit[1] + hit[2]
                if running > max_nodes:
                    raise _too_many(max_nodes)
                weight += cost(hit)
                if weight > max_weight:
                    raise heavy()
                continue
        v, kids, kk = expand(item)
        d = depth + (1 if item[0] == "dec" else 0)
        if d > max_depth:
            raise TreeLimitError(f"the betting tree is more than {max_depth:,} decisions deep (tiny bet "
                                 "or raise sizes against a deep stack): use larger sizes or a raise cap "
                                 "(--raise-cap)", "depth")
        running += v[0] + v[1] + v[2]
        if running > max_nodes:
            raise _too_many(max_nodes)
        weight += cost(v)
        if weight > max_weight:
            raise heavy()
        if kids:
            stack.append((v, kids[::-1], kk, d))
        else:
            for i in range(12):
                vec[i] += v[i]
    res = result
    return TreeCount(nodes_by_street=(res[0], res[1], res[2]), decisions_by_street=(res[3], res[4], res[5]),
                     children_by_street_player=((res[6], res[7]), (res[8], res[9]), (res[10], res[11])),
                     states=len(memo))
