"""The public betting tree of a postflop :class:`~pokerlab.subgame.spot.Spot`, compiled to
flat arrays, and its count (:func:`count_betting_tree`: the size of a tree without building
it).

The betting tree (:class:`BettingTree`) has no cards: chance nodes at street ends stand for
"deal the next card"; the solver expands them over the deck.  Amounts are integer chips.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from pokerlab import kinds
from pokerlab.errors import ConfigError
from pokerlab.subgame.spot import OOP, Spot, SpotError

# node kinds of the betting tree: the one vocabulary of pokerlab.kinds
DECISION = kinds.DECISION
CHANCE = kinds.CHANCE
FOLD = kinds.FOLD
SHOWDOWN = kinds.SHOWDOWN


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
        for these hand counts and boards per street (as ``solve_config.layout`` of the built tree)."""
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

    def charge(v: Sequence[int]) -> None:
        """Count a subtree's nodes (with multiplicity) and weight: stop past either limit."""
        nonlocal running, weight
        running += v[0] + v[1] + v[2]
        if running > max_nodes:
            raise _too_many(max_nodes)
        weight += cost(v)
        if weight > max_weight:
            raise heavy()

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
                charge(hit)
                continue
        v, kids, kk = expand(item)
        d = depth + (1 if item[0] == "dec" else 0)
        if d > max_depth:
            raise TreeLimitError(f"the betting tree is more than {max_depth:,} decisions deep (tiny bet "
                                 "or raise sizes against a deep stack): use larger sizes or a raise cap "
                                 "(--raise-cap)", "depth")
        charge(v)
        if kids:
            stack.append((v, kids[::-1], kk, d))
        else:
            for i in range(12):
                vec[i] += v[i]
    res = result
    return TreeCount(nodes_by_street=(res[0], res[1], res[2]), decisions_by_street=(res[3], res[4], res[5]),
                     children_by_street_player=((res[6], res[7]), (res[8], res[9]), (res[10], res[11])),
                     states=len(memo))
