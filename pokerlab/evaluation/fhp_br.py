"""Exact best response and exploitability for Flop Hold'em Poker, range-vectorised.

The public tree of FHP (betting sequences and flops) is walked once per best-responding
player with a vector over the 1326 hole-card combos at every public node: the opponent's
reach (product of its action probabilities, per opponent hand) flows down, the best
responder's counterfactual values (per own hand) flow up and are maximised at its own
nodes.  Card removal is exact:

* fold terminals: ``v[h] = payoff * (R - S[c1] - S[c2] + r[h])`` with ``R`` the total
  opponent reach and ``S[c]`` the reach of opponent hands holding card ``c``
  (inclusion-exclusion, O(n));
* showdowns: hands sorted once per flop by strength; one ascending and one descending pass
  accumulate the reach of weaker / stronger hands, minus per-card sums for blockers
  (O(n log n) for the sort, O(n) per showdown node; a numba kernel with an O(n^2) twin).

Flops are enumerated up to suit isomorphism (1,755 classes instead of 22,100) when the
policy is suit-symmetric (``policy.suit_symmetric``; Deep CFR's FHP networks are, since
they see suit-canonical cards); each class's value vector is scattered back to every flop
of its orbit by permuting the combos.  Otherwise all flops are evaluated.

The policy is queried per public node for all hands at once through
``range_strategies(game, nodes, board) -> (len(nodes), 1326, 3)`` when it has that method
(:class:`pokerlab.deepcfr.policy.NeuralPolicy` computes it with one batched forward
pass); any other :class:`~pokerlab.policy.base.Policy` is asked state by state
(fine for reduced decks).

Values are exact in chips per hand; ``mbb`` = 1000 * chips / 2 (big blind 2).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from pokerlab.cards.cards import COMBO_INDEX, COMBOS
from pokerlab.errors import ConfigError
from pokerlab.games.flop_holdem import CALL, FOLD, RAISE, Betting, FlopHoldem, flop_action


# ---------------------------------------------------------------- public tree
@dataclass
class Node:
    id: int
    betting: Betting
    kind: str  # "decision", "fold", "showdown", "flop"
    player: int = -1
    children: dict[int, int] = field(default_factory=dict)
    line: int = -1  # for "flop" nodes: index of the preflop line; for flop-round nodes too


@dataclass
class PublicTree:
    nodes: list[Node]
    preflop_root: int
    flop_roots: list[int]  # root of the flop round of each preflop line (by line index)

    def round_nodes(self, rnd: int) -> list[Node]:
        return [n for n in self.nodes if n.kind == "decision" and n.betting.round == rnd]


def build_public_tree() -> PublicTree:
    nodes: list[Node] = []
    flop_roots: list[int] = []

    def add(b: Betting, line: int) -> int:
        nid = len(nodes)
        if b.done:
            node = Node(nid, b, "fold" if b.folder >= 0 else "showdown", line=line)
            nodes.append(node)
            return nid
        node = Node(nid, b, "decision", player=b.to_act, line=line)
        nodes.append(node)
        for a in b.legal():
            c = b.copy()
            ended = c.apply(a)
            if ended:
                cid = len(nodes)
                chance = Node(cid, c, "flop", line=len(flop_roots))
                nodes.append(chance)
                flop_roots.append(-1)
                li = chance.line
                root = add(c.copy(), li)
                chance.children[0] = root
                flop_roots[li] = root
                node.children[a] = cid
            else:
                node.children[a] = add(c, line)
        return nid

    root = add(Betting(), -1)
    return PublicTree(nodes, root, flop_roots)


# ---------------------------------------------------------------- card helpers
_CARD_OF_COMBO = COMBOS.astype(np.int64)


def _fold_values(reach: np.ndarray) -> np.ndarray:
    """sum of opponent reach over hands disjoint from each combo."""
    per_card = np.bincount(_CARD_OF_COMBO[:, 0], weights=reach, minlength=52) + np.bincount(
        _CARD_OF_COMBO[:, 1], weights=reach, minlength=52)
    total = reach.sum()
    return total - per_card[_CARD_OF_COMBO[:, 0]] - per_card[_CARD_OF_COMBO[:, 1]] + reach


@njit(cache=True)
def showdown_kernel(order, strength, c1, c2, reach, out):  # type: ignore[no-untyped-def]
    """out[h] = reach of disjoint weaker hands - reach of disjoint stronger hands, for the
    hands ``order`` (ascending strength; blocked hands must be left out of ``order``)."""
    n = order.shape[0]
    per_card = np.zeros(52)
    for i in range(out.shape[0]):
        out[i] = 0.0
    # ascending: weaker mass
    total = 0.0
    i = 0
    while i < n:
        j = i
        while j < n and strength[order[j]] == strength[order[i]]:
            j += 1
        for k in range(i, j):
            h = order[k]
            out[h] += total - per_card[c1[h]] - per_card[c2[h]]
        for k in range(i, j):
            h = order[k]
            total += reach[h]
            per_card[c1[h]] += reach[h]
            per_card[c2[h]] += reach[h]
        i = j
    for c in range(52):
        per_card[c] = 0.0
    total = 0.0
    i = n - 1
    while i >= 0:
        j = i
        while j >= 0 and strength[order[j]] == strength[order[i]]:
            j -= 1
        for k in range(j + 1, i + 1):
            h = order[k]
            out[h] -= total - per_card[c1[h]] - per_card[c2[h]]
        for k in range(j + 1, i + 1):
            h = order[k]
            total += reach[h]
            per_card[c1[h]] += reach[h]
            per_card[c2[h]] += reach[h]
        i = j


def showdown_reference(strength: np.ndarray, valid: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """O(n^2) twin of :func:`showdown_kernel` (parity tests)."""
    out = np.zeros(len(strength))
    idx = np.flatnonzero(valid)
    for h in idx:
        a, b = COMBOS[h]
        for g in idx:
            x, y = COMBOS[g]
            if len({int(a), int(b), int(x), int(y)}) < 4:
                continue
            if strength[h] > strength[g]:
                out[h] += reach[g]
            elif strength[h] < strength[g]:
                out[h] -= reach[g]
    return out


def showdown_values(strength: np.ndarray, valid: np.ndarray, reach: np.ndarray,
                    order: np.ndarray | None = None) -> np.ndarray:
    if order is None:
        idx = np.flatnonzero(valid)
        order = idx[np.argsort(strength[idx], kind="stable")]
    out = np.zeros(len(strength))
    showdown_kernel(order, strength.astype(np.int64), _CARD_OF_COMBO[:, 0].copy(),
                    _CARD_OF_COMBO[:, 1].copy(), reach.astype(np.float64), out)
    return out


# ---------------------------------------------------------------- flops and isomorphism
@dataclass
class FlopClass:
    board: tuple[int, ...]
    # combo permutations mapping the class representative onto each flop of its orbit
    combo_perms: list[np.ndarray]


def _combo_perm(perm: np.ndarray) -> np.ndarray:
    a = (_CARD_OF_COMBO[:, 0] >> 2) * 4 + perm[_CARD_OF_COMBO[:, 0] & 3]
    b = (_CARD_OF_COMBO[:, 1] >> 2) * 4 + perm[_CARD_OF_COMBO[:, 1] & 3]
    return COMBO_INDEX[a, b].astype(np.int64)


def flop_classes(deck: list[int], isomorphism: bool) -> list[FlopClass]:
    flops = list(itertools.combinations(sorted(deck), 3))
    ident = np.arange(len(COMBOS), dtype=np.int64)
    if not isomorphism:
        return [FlopClass(board=f, combo_perms=[ident]) for f in flops]
    perms = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
    cperms = [_combo_perm(p) for p in perms]
    seen: set[tuple[int, ...]] = set()
    out = []
    for f in flops:
        if f in seen:
            continue
        fa = np.array(f, dtype=np.int64)
        images: dict[tuple[int, ...], int] = {}
        for k, p in enumerate(perms):
            img = tuple(sorted(((fa >> 2) * 4 + p[fa & 3]).tolist()))
            images.setdefault(img, k)
        rep = min(images)
        if rep != f:
            # enumerate from the canonical representative so that f is in its orbit
            fa = np.array(rep, dtype=np.int64)
            images = {}
            for k, p in enumerate(perms):
                img = tuple(sorted(((fa >> 2) * 4 + p[fa & 3]).tolist()))
                images.setdefault(img, k)
        seen.update(images)
        out.append(FlopClass(board=rep, combo_perms=[cperms[k] for k in images.values()]))
    return out


# ---------------------------------------------------------------- policy access
class _StatePolicyAdapter:
    """Range strategies from a state-by-state Policy (slow; for reduced decks)."""

    def __init__(self, game: FlopHoldem, policy: Any) -> None:
        self.game = game
        self.policy = policy

    def range_strategies(self, nodes: list[Node], board: tuple[int, ...],
                         valid: np.ndarray) -> np.ndarray:
        from pokerlab.games.flop_holdem import FlopHoldemState

        out = np.zeros((len(nodes), len(COMBOS), 3))
        other = None
        for h in np.flatnonzero(valid):
            hole = (int(COMBOS[h, 0]), int(COMBOS[h, 1]))
            # an opponent hand that does not collide (its cards are never seen)
            if other is None or set(other) & (set(hole) | set(board)):
                free = [c for c in self.game.deck if c not in hole and c not in board]
                other = (free[0], free[1])
            for i, node in enumerate(nodes):
                st = FlopHoldemState(self.game)
                p = node.player
                st.hole = [hole, other] if p == 0 else [other, hole]
                st.board = board
                st.betting = node.betting.copy()
                probs = self.policy.action_probabilities(st)
                for a, q in probs.items():
                    out[i, h, a] = q
        return out


def _strategies(policy: Any, game: FlopHoldem, nodes: list[Node], board: tuple[int, ...],
                valid: np.ndarray) -> np.ndarray:
    if hasattr(policy, "range_strategies"):
        return np.asarray(policy.range_strategies(nodes, board, valid), dtype=np.float64)
    return _StatePolicyAdapter(game, policy).range_strategies(nodes, board, valid)


# ---------------------------------------------------------------- best response
@dataclass
class FHPBestResponse:
    values: tuple[float, float]  # best-response value of player 0 / 1 (chips per hand)
    exploitability: float  # mean of the two (chips per hand)
    mbb: float
    flops_evaluated: int


def best_response_values(game: FlopHoldem, policy: Any, *, isomorphism: bool | None = None,
                         progress: Any = None) -> FHPBestResponse:
    if not isinstance(game, FlopHoldem):
        raise ConfigError(f"fhp best response needs a FlopHoldem game, got {game!r}")
    iso = bool(getattr(policy, "suit_symmetric", False)) if isomorphism is None else isomorphism
    tree = build_public_tree()
    nodes = tree.nodes
    deck = sorted(game.deck)
    in_deck = np.zeros(52, dtype=bool)
    in_deck[deck] = True
    valid = in_deck[_CARD_OF_COMBO[:, 0]] & in_deck[_CARD_OF_COMBO[:, 1]]
    n = len(deck)
    norm = math.comb(n, 2) * math.comb(n - 2, 2) * math.comb(n - 4, 3)
    n_flops = math.comb(n - 4, 3)

    pre_nodes = tree.round_nodes(0)
    pre_index = {node.id: i for i, node in enumerate(pre_nodes)}
    pre_strat = _strategies(policy, game, pre_nodes, (), valid)
    flop_nodes = tree.round_nodes(1)
    flop_index = {node.id: i for i, node in enumerate(flop_nodes)}

    # opponent reach (per player p: reach of player 1-p's hands) at each flop chance node
    n_lines = len(tree.flop_roots)
    line_reach = np.zeros((n_lines, 2, len(COMBOS)))

    def reach_walk(nid: int, reach: list[np.ndarray]) -> None:
        node = nodes[nid]
        if node.kind == "flop":
            for p in range(2):
                line_reach[node.line, p] = reach[1 - p]
            return
        if node.kind != "decision":
            return
        q = node.player
        for a, cid in node.children.items():
            new = list(reach)
            new[q] = reach[q] * pre_strat[pre_index[nid], :, a]
            reach_walk(cid, new)

    base = valid.astype(np.float64)
    reach_walk(tree.preflop_root, [base, base])

    flop_vals = np.zeros((n_lines, 2, len(COMBOS)))
    classes = flop_classes(deck, iso)
    combo_c1 = _CARD_OF_COMBO[:, 0]
    combo_c2 = _CARD_OF_COMBO[:, 1]
    from pokerlab.cards.evaluator import strengths_on_board

    for ci, fc in enumerate(classes):
        board = fc.board
        on_board = np.zeros(52, dtype=bool)
        on_board[list(board)] = True
        live = valid & ~on_board[combo_c1] & ~on_board[combo_c2]
        strat = _strategies(policy, game, flop_nodes, board, live)
        strength = strengths_on_board(list(board)).astype(np.int64)
        idx = np.flatnonzero(live)
        order = idx[np.argsort(strength[idx], kind="stable")]
        livef = live.astype(np.float64)
        for li in range(n_lines):
            for p in range(2):
                r = line_reach[li, p] * livef
                v = _flop_br(tree.flop_roots[li], p, r, nodes, strat, flop_index, strength,
                             order) * livef
                for cp in fc.combo_perms:
                    flop_vals[li, p, cp] += v
        if progress is not None:
            progress(ci + 1, len(classes))

    results = []
    for p in range(2):
        v = _pre_br(tree.preflop_root, p, [base, base], nodes, pre_strat, pre_index,
                    flop_vals, n_flops) * base
        results.append(float(v.sum()) / norm)
    expl = 0.5 * (results[0] + results[1])
    return FHPBestResponse(values=(results[0], results[1]), exploitability=expl,
                           mbb=1000.0 * expl / game.big_blind, flops_evaluated=len(classes))


def _terminal_value(node: Node, p: int, reach: np.ndarray, strength: np.ndarray | None,
                    order: np.ndarray | None) -> np.ndarray:
    b = node.betting
    if node.kind == "fold":
        pay = float(b.contrib[b.folder]) * (1.0 if b.folder != p else -1.0)
        return pay * _fold_values(reach)
    assert strength is not None and order is not None
    pay = float(b.contrib[p])
    out = np.zeros(len(COMBOS))
    showdown_kernel(order, strength, _CARD_OF_COMBO[:, 0], _CARD_OF_COMBO[:, 1], reach, out)
    return pay * out


def _flop_br(nid: int, p: int, reach: np.ndarray, nodes: list[Node], strat: np.ndarray,
             index: dict[int, int], strength: np.ndarray, order: np.ndarray) -> np.ndarray:
    node = nodes[nid]
    if node.kind != "decision":
        return _terminal_value(node, p, reach, strength, order)
    if node.player == p:
        vals = [_flop_br(c, p, reach, nodes, strat, index, strength, order)
                for c in node.children.values()]
        return np.max(np.stack(vals), axis=0)
    s = strat[index[nid]]
    total = np.zeros(len(COMBOS))
    for a, c in node.children.items():
        total += _flop_br(c, p, reach * s[:, a], nodes, strat, index, strength, order)
    return total


def _pre_br(nid: int, p: int, reach: list[np.ndarray], nodes: list[Node], strat: np.ndarray,
            index: dict[int, int], flop_vals: np.ndarray, n_flops: int) -> np.ndarray:
    node = nodes[nid]
    if node.kind == "flop":
        return flop_vals[node.line, p]
    if node.kind == "fold":
        return n_flops * _terminal_value(node, p, reach[1 - p], None, None)
    if node.player == p:
        vals = [_pre_br(c, p, reach, nodes, strat, index, flop_vals, n_flops)
                for c in node.children.values()]
        return np.max(np.stack(vals), axis=0)
    s = strat[index[nid]]
    total = np.zeros(len(COMBOS))
    for a, c in node.children.items():
        new = list(reach)
        new[1 - p] = reach[1 - p] * s[:, a]
        total += _pre_br(c, p, new, nodes, strat, index, flop_vals, n_flops)
    return total


def exploitability(game: FlopHoldem, policy: Any, **kwargs: Any) -> float:
    """Exact exploitability (chips per hand, mean of both best-response gains)."""
    return best_response_values(game, policy, **kwargs).exploitability


__all__ = ["FHPBestResponse", "best_response_values", "build_public_tree", "exploitability",
           "flop_action", "showdown_reference", "showdown_values", "CALL", "FOLD", "RAISE"]
