"""Public-tree compilation of two-player zero-sum card games (Kuhn, 8-card, Leduc).

The game must deal every private card first (the leading chance nodes); after that all
chance events are public and every state is identified by ``public_state_string()``.
Each player's *hand* is what ``information_state_string(p)`` says right after the deal.
The public tree has one node per public state; a decision node of player ``p`` holds one
information set per hand of ``p`` (``keys[node][hand]``).

Chance is folded into the terminals: terminal ``t`` carries the matrix
``U[t, h0, h1] = sum over deals/boards reaching t of P(chance path) * u_0`` (player 0's
utility; player 1 gets the negative), so a counterfactual value vector is ``U @ reach1``
for player 0 and ``-(reach0 @ U)`` for player 1, and public chance nodes simply add their
children's values.  This reproduces tabular CFR exactly while every node works on whole
range vectors.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.games.compiled import (
    DEFAULT_MAX_NODES,
    KIND_CHANCE,
    KIND_DECISION,
    KIND_TERMINAL,
    GameCache,
    check_tree_size,
)
from pokerlab.games.protocol import Game, State


@dataclass(frozen=True, kw_only=True, eq=False)
class PublicTree:
    game_name: str
    num_hands: tuple[int, int]   # hands per player
    hand_keys: tuple[list[str], list[str]]  # information-state string after the deal
    kind: np.ndarray          # int64 [N]
    player: np.ndarray        # int64 [N] (-1 unless decision)
    child_start: np.ndarray   # int64 [N]
    child_count: np.ndarray   # int64 [N]
    children: np.ndarray      # int64 [E]
    edge_action: np.ndarray   # int64 [E]
    slot_base: np.ndarray     # int64 [N] first action slot of a decision node (-1 otherwise)
    term_index: np.ndarray    # int64 [N] row of ``U`` for terminals (-1 otherwise)
    utility: np.ndarray       # float64 [T, H, H] chance-weighted utility of player 0
    valid: np.ndarray         # bool [N, H] hand of the acting player can be at the node
    keys: list[list[str]]     # per node: infoset key per hand of the acting player ("" if none)
    public_keys: list[str]    # public_state_string per node
    num_slots: int

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def max_hands(self) -> int:
        return int(self.utility.shape[1])

    @property
    def num_infosets(self) -> int:
        return int(self.valid[self.kind == KIND_DECISION].sum())


class _Node:
    __slots__ = ("kind", "player", "actions", "children", "keys", "util", "pkey")

    def __init__(self, kind: int, player: int, pkey: str) -> None:
        self.kind = kind
        self.player = player
        self.actions: list[int] = []
        self.children: dict[int, _Node] = {}
        self.keys: dict[int, str] = {}
        self.util: dict[tuple[int, int], float] = {}
        self.pkey = pkey


_CACHE = GameCache(by_id=False)


def build_public_tree(game: Game, *, max_nodes: int = DEFAULT_MAX_NODES) -> PublicTree:
    """Build (or fetch from the per-game cache) the public tree of ``game``.

    Building walks every history once, so a game whose estimated full tree exceeds
    ``4 * max_nodes`` nodes raises :class:`GameTooLargeError` at once.
    """
    hit = _CACHE.get(game)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    check_tree_size(game, max_nodes, "a full-width public tree")
    tree = _build(game)
    _CACHE.put(game, tree)
    return tree


def _deals(state: State, prob: float, out: list[tuple[State, float]]) -> None:
    if state.is_chance_node():
        for a, p in state.chance_outcomes():
            if p > 0:
                _deals(state.child(a), prob * p, out)
    else:
        out.append((state, prob))


def _build(game: Game) -> PublicTree:
    if game.num_players != 2:
        raise ConfigError(f"public tree needs a two-player game, {game.name!r} has "
                          f"{game.num_players}")
    deals: list[tuple[State, float]] = []
    _deals(game.new_initial_state(), 1.0, deals)
    hand_keys: tuple[list[str], list[str]] = ([], [])
    hand_index: tuple[dict[str, int], dict[str, int]] = ({}, {})
    deal_hands: list[tuple[int, int]] = []
    for st, _ in deals:
        if st.is_terminal():
            raise ConfigError(f"{game.name!r} ends during the deal")
        hs = []
        for p in (0, 1):
            k = st.information_state_string(p)
            if k not in hand_index[p]:
                hand_index[p][k] = len(hand_keys[p])
                hand_keys[p].append(k)
            hs.append(hand_index[p][k])
        deal_hands.append((hs[0], hs[1]))

    root = _Node(-1, -1, "")
    for (st0, prob), (h0, h1) in zip(deals, deal_hands, strict=True):
        # iterative walk of this deal's subtree
        stack: list[tuple[State, float, _Node]] = [(st0, prob, root)]
        while stack:
            st, pr, node = stack.pop()
            if node.kind == -1:
                pkey = node.pkey = st.public_state_string()
                if st.is_terminal():
                    node.kind = KIND_TERMINAL
                elif st.is_chance_node():
                    node.kind = KIND_CHANCE
                else:
                    node.kind = KIND_DECISION
                    node.player = st.current_player()
                    node.actions = [int(a) for a in st.legal_actions()]
            else:
                pkey = node.pkey
            if node.kind == KIND_TERMINAL:
                if not st.is_terminal():
                    raise ConfigError(f"public state {pkey!r} is terminal only for some deals")
                r = st.returns()
                if abs(r[0] + r[1]) > 1e-12:
                    raise ConfigError(f"{game.name!r} is not zero-sum at {pkey!r}")
                node.util[(h0, h1)] = node.util.get((h0, h1), 0.0) + pr * float(r[0])
                continue
            if node.kind == KIND_CHANCE:
                if not st.is_chance_node():
                    raise ConfigError(f"public state {pkey!r} mixes chance and decisions")
                for a, cp in st.chance_outcomes():
                    if cp <= 0:
                        continue
                    ch = node.children.get(int(a))
                    if ch is None:
                        ch = node.children[int(a)] = _Node(-1, -1, "")
                    stack.append((st.child(a), pr * cp, ch))
                continue
            pl = st.current_player()
            legal = [int(a) for a in st.legal_actions()]
            if pl != node.player or legal != node.actions:
                raise ConfigError(f"public state {pkey!r} has deal-dependent actions or player")
            hand = (h0, h1)[pl]
            key = st.information_state_string(pl)
            old = node.keys.get(hand)
            if old is None:
                node.keys[hand] = key
            elif old != key:
                raise ConfigError(
                    f"{game.name!r} has private information beyond the deal ({old!r} vs {key!r})")
            for a in legal:
                ch = node.children.get(a)
                if ch is None:
                    ch = node.children[a] = _Node(-1, -1, "")
                stack.append((st.child(a), pr, ch))

    # flatten: breadth-first numbering, so every node's children get consecutive ids after
    # their parent's (children of node v are children[child_start[v]:...+child_count[v]])
    nodes: list[_Node] = [root]
    order_children: list[list[int]] = []
    i = 0
    while i < len(nodes):
        nd = nodes[i]
        acts = nd.actions if nd.kind == KIND_DECISION else sorted(nd.children)
        ids = []
        for a in acts:
            ids.append(len(nodes))
            nodes.append(nd.children[a])
        order_children.append(ids)
        i += 1
    n = len(nodes)
    H = max(len(hand_keys[0]), len(hand_keys[1]))
    kind = np.array([nd.kind for nd in nodes], dtype=np.int64)
    player = np.array([nd.player if nd.kind == KIND_DECISION else -1 for nd in nodes],
                      dtype=np.int64)
    child_start = np.zeros(n, dtype=np.int64)
    child_count = np.zeros(n, dtype=np.int64)
    children: list[int] = []
    edge_action: list[int] = []
    slot_base = np.full(n, -1, dtype=np.int64)
    term_index = np.full(n, -1, dtype=np.int64)
    valid = np.zeros((n, H), dtype=bool)
    keys: list[list[str]] = []
    utils: list[np.ndarray] = []
    slots = 0
    for idx, nd in enumerate(nodes):
        ids = order_children[idx]
        child_start[idx] = len(children)
        child_count[idx] = len(ids)
        acts = nd.actions if nd.kind == KIND_DECISION else sorted(nd.children)
        children.extend(ids)
        edge_action.extend(acts)
        row = [""] * H
        if nd.kind == KIND_DECISION:
            slot_base[idx] = slots
            slots += len(nd.actions)
            for h, k in nd.keys.items():
                row[h] = k
                valid[idx, h] = True
        elif nd.kind == KIND_TERMINAL:
            term_index[idx] = len(utils)
            m = np.zeros((H, H))
            for (a, b), u in nd.util.items():
                m[a, b] += u
            utils.append(m)
        keys.append(row)
    return PublicTree(
        game_name=str(game.name),
        num_hands=(len(hand_keys[0]), len(hand_keys[1])),
        hand_keys=hand_keys,
        kind=kind, player=player, child_start=child_start, child_count=child_count,
        children=np.asarray(children, dtype=np.int64),
        edge_action=np.asarray(edge_action, dtype=np.int64),
        slot_base=slot_base, term_index=term_index,
        utility=np.asarray(utils, dtype=np.float64).reshape(len(utils), H, H),
        valid=valid, keys=keys, public_keys=[nd.pkey for nd in nodes], num_slots=slots,
    )
