"""Exact best response and exploitability for Flop Hold'em Poker, range-vectorised.

The public tree of FHP (betting sequences and flops) is walked once per best-responding
player with a vector over the 1326 hole-card combos at every public node: the opponent's
reach (product of its action probabilities, per opponent hand) flows down, the best
responder's counterfactual values (per own hand) flow up and are maximised at its own
nodes.  Card removal is exact:

* fold terminals: ``v[h] = payoff * (R - S[c1] - S[c2] + r[h])`` with ``R`` the total
  opponent reach and ``S[c]`` the reach of opponent hands holding card ``c``
  (inclusion-exclusion, O(n));
* showdowns: hands sorted once per flop by strength; the one blocker-aware sweep of
  :mod:`pokerlab.cards.equity_kernels` (``showdown_sweep``) accumulates the reach of
  weaker / tied / all disjoint hands with per-card sums for blockers (O(n log n) for the
  sort, O(n) per showdown node; an O(n^2) twin here for the parity test).
  Fold values use the same module's ``fold_sweep``.

The game is used only through its capability
(:class:`pokerlab.games.protocol.PublicBettingGame`), never by name or class.

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

from pokerlab.cards.cards import COMBO_INDEX, COMBOS
from pokerlab.cards.equity_kernels import fold_sweep, showdown_sweep
from pokerlab.errors import ConfigError
from pokerlab.games.protocol import PublicBettingGame


# ---------------------------------------------------------------- public tree
@dataclass
class Node:
    id: int
    betting: Any  # the game's public betting state (PublicBettingGame.initial_betting)
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


def build_public_tree(game: PublicBettingGame | None = None) -> PublicTree:
    """The public betting tree of ``game`` (default: ``load_game("flop_holdem")``)."""
    if game is None:
        from pokerlab.games import load_game

        game = load_game("flop_holdem")
    game = _check_capability(game)
    nodes: list[Node] = []
    flop_roots: list[int] = []

    def add(b: Any, line: int) -> int:
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

    root = add(game.initial_betting(), -1)
    return PublicTree(nodes, root, flop_roots)


def _check_capability(game: Any) -> PublicBettingGame:
    if not isinstance(game, PublicBettingGame):
        raise ConfigError(f"the range best response needs a game with the public-betting "
                          f"capability (deck, big_blind, initial_betting, state_at); "
                          f"{getattr(game, 'name', game)!r} has none")
    return game


# ---------------------------------------------------------------- card helpers
_CARD_OF_COMBO = COMBOS.astype(np.int64)


def _fold_values(reach: np.ndarray) -> np.ndarray:
    """sum of opponent reach over hands disjoint from each combo (the shared fold sweep)."""
    out = np.empty(len(reach))
    fold_sweep(_CARD_OF_COMBO, np.ascontiguousarray(reach, dtype=np.float64), out)
    return out


def showdown_kernel(order: np.ndarray, strength: np.ndarray, reach: np.ndarray,
                    out: np.ndarray) -> None:
    """out[h] = reach of disjoint weaker hands - reach of disjoint stronger hands, for the
    hands ``order`` (ascending strength; blocked hands must be left out of ``order``), from
    the one blocker-aware sweep :func:`pokerlab.cards.equity_kernels.showdown_sweep`:
    stronger = total - weaker - tied, so out = 2 weaker + tied - total."""
    n = len(out)
    win, tie, tot = np.zeros(n), np.zeros(n), np.zeros(n)
    showdown_sweep(order, order.shape[0], strength, _CARD_OF_COMBO, reach, win, tie, tot)
    out[:] = 0.0
    out[order] = 2.0 * win[order] + tie[order] - tot[order]


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
    showdown_kernel(order.astype(np.int64), strength.astype(np.int64),
                    reach.astype(np.float64), out)
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

    def __init__(self, game: PublicBettingGame, policy: Any) -> None:
        self.game = game
        self.policy = policy

    def range_strategies(self, nodes: list[Node], board: tuple[int, ...],
                         valid: np.ndarray) -> np.ndarray:
        out = np.zeros((len(nodes), len(COMBOS), 3))
        other = None
        for h in np.flatnonzero(valid):
            hole = (int(COMBOS[h, 0]), int(COMBOS[h, 1]))
            # an opponent hand that does not collide (its cards are never seen)
            if other is None or set(other) & (set(hole) | set(board)):
                free = [c for c in self.game.deck if c not in hole and c not in board]
                other = (free[0], free[1])
            for i, node in enumerate(nodes):
                p = node.player
                st = self.game.state_at([hole, other] if p == 0 else [other, hole], board,
                                        node.betting)
                probs = self.policy.action_probabilities(st)
                for a, q in probs.items():
                    out[i, h, a] = q
        return out


def _strategies(policy: Any, game: PublicBettingGame, nodes: list[Node], board: tuple[int, ...],
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


def best_response_values(game: PublicBettingGame, policy: Any, *,
                         isomorphism: bool | None = None,
                         progress: Any = None) -> FHPBestResponse:
    game = _check_capability(game)
    iso = bool(getattr(policy, "suit_symmetric", False)) if isomorphism is None else isomorphism
    tree = build_public_tree(game)
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
    showdown_kernel(order, strength, reach, out)
    return pay * out


def _flop_br(nid: int, p: int, reach: np.ndarray, nodes: list[Node], strat: np.ndarray,
             index: dict[int, int], strength: np.ndarray, order: np.ndarray) -> np.ndarray:
    node = nodes[nid]
    if node.kind != "decision":
        return _terminal_value(node, p, reach, strength, order)

    def child(c: int, w: np.ndarray | None) -> np.ndarray:
        return _flop_br(c, p, reach if w is None else reach * w, nodes, strat, index, strength,
                        order)

    return _br_step(nid, node, p, strat, index, child)


def _br_step(nid: int, node: Node, p: int, strat: np.ndarray, index: dict[int, int],
             child: Any) -> np.ndarray:
    """A decision node of the best-response recursions: the best child for ``p`` (per
    hand), else the sum of the children with the opponent's reach times its strategy's
    column (``child(c, column)``; ``child(c, None)``: reach unchanged)."""
    if node.player == p:
        return np.max(np.stack([child(c, None) for c in node.children.values()]), axis=0)
    s = strat[index[nid]]
    total = np.zeros(len(COMBOS))
    for a, c in node.children.items():
        total += child(c, s[:, a])
    return total


def _pre_br(nid: int, p: int, reach: list[np.ndarray], nodes: list[Node], strat: np.ndarray,
            index: dict[int, int], flop_vals: np.ndarray, n_flops: int) -> np.ndarray:
    node = nodes[nid]
    if node.kind == "flop":
        return flop_vals[node.line, p]
    if node.kind == "fold":
        return n_flops * _terminal_value(node, p, reach[1 - p], None, None)

    def child(c: int, w: np.ndarray | None) -> np.ndarray:
        new = list(reach)
        if w is not None:
            new[1 - p] = reach[1 - p] * w
        return _pre_br(c, p, new, nodes, strat, index, flop_vals, n_flops)

    return _br_step(nid, node, p, strat, index, child)


def exploitability(game: PublicBettingGame, policy: Any, **kwargs: Any) -> float:
    """Exact exploitability (chips per hand, mean of both best-response gains)."""
    return best_response_values(game, policy, **kwargs).exploitability


__all__ = ["FHPBestResponse", "best_response_values", "build_public_tree", "exploitability",
           "showdown_reference", "showdown_values"]
