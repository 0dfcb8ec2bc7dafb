"""Compilation of a protocol game into flat arrays (full game tree + information sets).

:func:`compile_game` walks the whole tree once through the protocol and returns a
:class:`CompiledGame` (cached per game object).  Nodes are numbered so that a parent
always has a smaller index than its children; a node's children are contiguous in
``children[child_start[n] : child_start[n] + child_count[n]]``.  For a decision node the
children follow the legal actions of its information set, and ``edge_slot`` maps that edge
to the information set's action slot ``infoset_offset[i] + k``.

Suitable for small games (Kuhn, 8-card, Leduc: up to a few million nodes).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab import kinds
from pokerlab.errors import ConfigError
from pokerlab.games.protocol import Game, State

KIND_TERMINAL = kinds.TERMINAL
KIND_CHANCE = kinds.CHANCE
KIND_DECISION = kinds.DECISION
"""Node kinds of the flat game trees: the names of :mod:`pokerlab.kinds` (the one
definition) that the compiled game, the public tree and their kernels use."""


@dataclass(frozen=True, kw_only=True, eq=False)
class CompiledGame:
    """Flat arrays of a game tree.  See the module docs for the layout."""

    game_name: str
    num_players: int
    kind: np.ndarray            # int8 [N]
    player: np.ndarray          # int64 [N] (decision nodes; -1 otherwise)
    infoset: np.ndarray         # int64 [N] (decision nodes; -1 otherwise)
    child_start: np.ndarray     # int64 [N]
    child_count: np.ndarray     # int64 [N]
    children: np.ndarray        # int64 [E]
    edge_action: np.ndarray     # int64 [E] action id of each edge
    edge_prob: np.ndarray       # float64 [E] chance probability (chance edges; else 0)
    edge_slot: np.ndarray       # int64 [E] infoset action slot (decision edges; else -1)
    utility: np.ndarray         # float64 [N, P] (terminal nodes; 0 elsewhere)
    chance_reach: np.ndarray    # float64 [N]
    infoset_keys: list[str]
    infoset_player: np.ndarray  # int64 [I]
    infoset_offset: np.ndarray  # int64 [I+1]
    infoset_actions: np.ndarray  # int64 [S] legal action ids per slot
    infoset_depth: np.ndarray   # int64 [I] number of own earlier decisions
    infoset_parent_seq: np.ndarray  # int64 [I] own sequence leading here (-1 = empty)
    node_seq: np.ndarray        # int64 [N, P] each player's last slot above the node (-1)
    representative: list[Any]   # one State per infoset (for evaluating policies)

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_keys)

    @property
    def num_slots(self) -> int:
        return int(self.infoset_actions.shape[0])

    def infoset_index(self, key: str) -> int:
        idx = self._index_map().get(key)
        if idx is None:
            raise ConfigError(f"no information state {key!r} in game {self.game_name!r}")
        return idx

    def _index_map(self) -> dict[str, int]:
        m = self.__dict__.get("_imap")
        if m is None:
            m = {k: i for i, k in enumerate(self.infoset_keys)}
            object.__setattr__(self, "_imap", m)
        return m


class GameCache:
    """A cache of one value per game object: weakly keyed; a game that cannot be a weak
    key is kept by ``id`` (with the game, so the id stays its own) when ``by_id``, else not
    cached (the compiled game and the public tree, :mod:`pokerlab.games.public_tree`)."""

    def __init__(self, *, by_id: bool) -> None:
        self._weak: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        self._by_id: dict[int, tuple[Any, Any]] | None = {} if by_id else None

    def get(self, game: Any) -> Any:
        try:
            return self._weak.get(game)
        except TypeError:
            pair = None if self._by_id is None else self._by_id.get(id(game))
            return pair[1] if pair is not None and pair[0] is game else None

    def put(self, game: Any, value: Any) -> None:
        try:
            self._weak[game] = value
        except TypeError:
            if self._by_id is not None:
                self._by_id[id(game)] = (game, value)


_CACHE = GameCache(by_id=True)


DEFAULT_MAX_NODES = 5_000_000


class GameTooLargeError(ConfigError):
    """The game tree has more nodes than an exact array compilation allows."""


def compile_game(game: Game, *, max_nodes: int = DEFAULT_MAX_NODES) -> CompiledGame:
    """Compile ``game`` (cached per game object).

    Raises :class:`GameTooLargeError` once the walk passes ``max_nodes`` nodes.
    """
    hit = _CACHE.get(game)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    check_tree_size(game, max_nodes, "exact array compilation")
    cg = _compile(game, max_nodes)
    _CACHE.put(game, cg)
    return cg


def check_tree_size(game: Game, max_nodes: int, what: str) -> None:
    """Raise :class:`GameTooLargeError` when Knuth's estimate of ``game``'s tree passes
    ``4 * max_nodes`` nodes (``what``: the structure that would be too large)."""
    estimate = estimate_tree_size(game)
    if estimate > 4 * max_nodes:
        raise GameTooLargeError(
            f"game {game.name!r} has about {estimate:.3g} nodes (estimated), more than "
            f"{max_nodes}: too large for {what}")


def estimate_tree_size(game: Game, *, samples: int = 64, seed: int = 0,
                       max_depth: int = 10_000) -> float:
    """Knuth's unbiased estimate of the number of nodes: the mean over random root-to-leaf
    walks of ``sum over depths of the product of branching factors so far``."""
    rng = np.random.default_rng(seed)
    total = 0.0
    for _ in range(samples):
        st = game.new_initial_state()
        weight = 1.0
        count = 1.0
        for _depth in range(max_depth):
            if st.is_terminal():
                break
            acts = ([a for a, _ in st.chance_outcomes()] if st.is_chance_node()
                    else st.legal_actions())
            if not acts:
                break
            weight *= len(acts)
            count += weight
            st = st.child(acts[int(rng.integers(len(acts)))])
        total += count
    return total / samples


def _compile(game: Game, max_nodes: int) -> CompiledGame:
    n_players = int(game.num_players)
    kind: list[int] = []
    player: list[int] = []
    infoset: list[int] = []
    child_start: list[int] = []
    child_count: list[int] = []
    utility: list[list[float]] = []
    chance_reach: list[float] = []
    node_seq: list[list[int]] = []
    children: list[int] = []
    edge_action: list[int] = []
    edge_prob: list[float] = []
    edge_slot: list[int] = []

    keys: list[str] = []
    key_index: dict[str, int] = {}
    iset_player: list[int] = []
    iset_offset: list[int] = [0]
    iset_actions: list[int] = []
    iset_depth: list[int] = []
    iset_parent: list[int] = []
    reps: list[Any] = []

    zero_util = [0.0] * n_players
    # Depth-first walk with an explicit stack of (node index, state, chance reach, each
    # player's last sequence, each player's own-decision depth); a node's children get
    # their (consecutive) indices when the node is expanded.
    root = game.new_initial_state()

    def new_node() -> int:
        idx = len(kind)
        kind.append(-1)
        player.append(-1)
        infoset.append(-1)
        child_start.append(0)
        child_count.append(0)
        utility.append(zero_util)
        chance_reach.append(0.0)
        node_seq.append([-1] * n_players)
        return idx

    stack: list[tuple[int, State, float, list[int], list[int]]] = []
    stack.append((new_node(), root, 1.0, [-1] * n_players, [0] * n_players))
    while stack:
        if len(kind) > max_nodes:
            raise GameTooLargeError(
                f"game {game.name!r} has more than {max_nodes} nodes: too large for exact "
                "array compilation")
        idx, st, creach, seqs, depths = stack.pop()
        chance_reach[idx] = creach
        node_seq[idx] = list(seqs)
        if st.is_terminal():
            kind[idx] = KIND_TERMINAL
            r = [float(x) for x in st.returns()]
            if len(r) != n_players:
                raise ConfigError(f"returns() of {game.name} gave {len(r)} values")
            utility[idx] = r
            continue
        pending: list[tuple[int, State, float, list[int], list[int]]] = []
        if st.is_chance_node():
            kind[idx] = KIND_CHANCE
            outcomes = st.chance_outcomes()
            child_start[idx] = len(children)
            child_count[idx] = len(outcomes)
            for a, p in outcomes:
                c = new_node()
                children.append(c)
                edge_action.append(int(a))
                edge_prob.append(float(p))
                edge_slot.append(-1)
                pending.append((c, st.child(a), creach * float(p), seqs, depths))
        else:
            pl = st.current_player()
            if not 0 <= pl < n_players:
                raise ConfigError(f"bad current player {pl!r} in {game.name}")
            key = st.information_state_string(pl)
            legal = [int(a) for a in st.legal_actions()]
            ii = key_index.get(key)
            if ii is None:
                ii = len(keys)
                key_index[key] = ii
                keys.append(key)
                iset_player.append(pl)
                iset_actions.extend(legal)
                iset_offset.append(len(iset_actions))
                iset_depth.append(depths[pl])
                iset_parent.append(seqs[pl])
                reps.append(st.clone())
            else:
                lo, hi = iset_offset[ii], iset_offset[ii + 1]
                if iset_actions[lo:hi] != legal:
                    raise ConfigError(
                        f"information state {key!r} has differing legal actions "
                        f"{iset_actions[lo:hi]} and {legal}")
                if iset_depth[ii] != depths[pl] or iset_parent[ii] != seqs[pl]:
                    raise ConfigError(f"game {game.name} lacks perfect recall at {key!r}")
            kind[idx] = KIND_DECISION
            player[idx] = pl
            infoset[idx] = ii
            child_start[idx] = len(children)
            child_count[idx] = len(legal)
            base = iset_offset[ii]
            for k, a in enumerate(legal):
                c = new_node()
                children.append(c)
                edge_action.append(a)
                edge_prob.append(0.0)
                edge_slot.append(base + k)
                nseq = list(seqs)
                nseq[pl] = base + k
                ndep = list(depths)
                ndep[pl] += 1
                pending.append((c, st.child(a), creach, nseq, ndep))
        stack.extend(reversed(pending))

    # Children are numbered when their parent is expanded: contiguous, and always after
    # the parent (all the kernels need), though not in strict pre-order.
    i64 = np.int64
    return CompiledGame(
        game_name=str(game.name),
        num_players=n_players,
        kind=np.asarray(kind, dtype=np.int8),
        player=np.asarray(player, dtype=i64),
        infoset=np.asarray(infoset, dtype=i64),
        child_start=np.asarray(child_start, dtype=i64),
        child_count=np.asarray(child_count, dtype=i64),
        children=np.asarray(children, dtype=i64),
        edge_action=np.asarray(edge_action, dtype=i64),
        edge_prob=np.asarray(edge_prob, dtype=np.float64),
        edge_slot=np.asarray(edge_slot, dtype=i64),
        utility=np.asarray(utility, dtype=np.float64).reshape(len(kind), n_players),
        chance_reach=np.asarray(chance_reach, dtype=np.float64),
        infoset_keys=keys,
        infoset_player=np.asarray(iset_player, dtype=i64),
        infoset_offset=np.asarray(iset_offset, dtype=i64),
        infoset_actions=np.asarray(iset_actions, dtype=i64),
        infoset_depth=np.asarray(iset_depth, dtype=i64),
        infoset_parent_seq=np.asarray(iset_parent, dtype=i64),
        node_seq=np.asarray(node_seq, dtype=i64).reshape(len(kind), n_players),
        representative=reps,
    )
