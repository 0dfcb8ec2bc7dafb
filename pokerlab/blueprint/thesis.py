"""The seed thesis's agent: Monte Carlo CFR on betting trees keyed by the starting hand.

What the thesis describes and how it is built here (choices where the thesis is unclear are
marked *choice*; docs/thesis.md explains them):

* **Information sets**: the seat and the 169 starting-hand classes, plus the betting
  history -- no board information on any street.  The trained policy is an
  :class:`~pokerlab.policy.indexed.IndexedPolicy` over the compiled betting tree with
  bucket = the preflop class on *every* street (metadata ``card_key: preflop_class``); the
  :class:`ThesisAgent` plays it through the :class:`~pokerlab.abstraction.action_map.ActionMap`.
* **Betting tree**: at most 6 actions per node (fold, check/call, raise sizes, all-in), at
  most 13 actions deep.  *Choice*: the thesis's fixed big-blind raises, three per street
  plus all-in (:data:`THESIS_BETS`: preflop raise by 2 / 5 / 20 bb, postflop bet or raise
  5 / 20 / 50 bb), preflop cap 2 and postflop cap 1 raises, which makes the longest hand
  exactly 13 actions (limp, raise, re-raise, call; then check, bet, call on three streets).
  200 bb stacks, blinds 50/100 (the ACPC game the other agents play).  Both limits are
  checked when the tree is built.
* **Regrets** start at 20 (big blinds) for every action of a row when the row is first
  used, and follow regret matching (no flooring, no discounting).
* **Fold rule**: no negative regret at fold decisions.  *Choice*: the fold action's
  *cumulative* regret is floored at 0 and the amount that would have taken it below 0 is
  added, split equally, to the node's other actions (so the total regret update is
  unchanged).  ``fold_rule=False`` is the plain update, which reproduces the thesis's
  "eternal all-in" (:func:`eternal_allin_experiment`).
* **Training**: a *pair* is one deal of hole cards to both seats; for it a batch of
  self-play games is played, 10 games per pair for the first ``early_pairs`` pairs, then
  100 (*choice*: early = the first 1,000 pairs).  One game = a fresh board, then one
  external-sampling MCCFR traversal per seat (the traverser explores all its actions, the
  other copy samples from its current strategy), then one sampled self-play game (its
  all-in / fold outcome is recorded).
* **Subtrees on disk, two root children in memory**: the tree of one seat holding one
  class is a *subtree* (2 x 169 of them); a pair needs exactly two (seat 0's class, seat
  1's class), which are loaded into memory for the batch and written back after it
  (``storage="disk"``: one sparse ``.npz`` per subtree; ``"memory"`` keeps the same
  sparse arrays in a dict).  Only rows that were used are stored.
* **Pruning of settled subtrees**: after a batch, a node of a loaded subtree that its seat
  visited at least ``prune_min_visits`` times and whose current strategy puts at least
  ``prune_threshold`` on one action is settled: the best child is kept, and the seat's rows
  in the other children's subtrees are deleted (and never recreated: the seat never takes
  those actions again).
* **Space complexity**: the bytes of all stored rows (and of the two loaded subtrees) are
  recorded over training and drawn as a PNG
  (:func:`~pokerlab.blueprint.thesis_run.plot_memory`), the thesis's graph.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

# the agent that plays a thesis policy lives with the other agents (the registry builds it
# from ``policy:PATH``); its names are re-exported here
from pokerlab.agents.thesis import (  # noqa: F401
    CARD_KEY,
    ThesisAgent,
    hand_class,
    is_thesis_policy,
    load_thesis_agent,
)
from pokerlab.checks import check_counts
from pokerlab.errors import ConfigError, PokerlabError
from pokerlab.io import PACKAGE_DATA

THESIS_BETS = "preflop: 2bb, 5bb, 20bb, a, cap 2; postflop: 5bb, 20bb, 50bb, a, cap 1"
"""The thesis's fixed big-blind raises, three per street plus all-in (see the module doc)."""
CONFIG_VERSION = 1
NUM_CLASSES = 169
SHIPPED_POLICY = PACKAGE_DATA / "thesis_policy.npz"


class ThesisError(PokerlabError):
    """Bad thesis-trainer input (names the bad value)."""


@dataclass(frozen=True, kw_only=True)
class ThesisConfig:
    """Everything that defines a thesis run (the budget is not part of it)."""

    stack_bb: float = 200.0
    small_blind: int = 50
    big_blind: int = 100
    bets: str = THESIS_BETS
    max_actions: int = 6
    max_depth: int = 13
    regret_init: float = 20.0
    fold_rule: bool = True
    fold_rule_mode: str = "move"
    """``move``: the negative amount goes to the other actions as it is (the thesis's
    words); ``credit``: with its sign flipped (the other reading, see docs/thesis.md)."""
    update: str = "mccfr"
    """``mccfr``: external-sampling MCCFR traversals (the default, issue 12's choice);
    ``thesis``: the thesis's own update (simultaneous self-play of the two instances, every
    action valued by one game's outcome; ``thesis_kernels.selfplay_batch_kernel``)."""
    early_batch: int = 10
    batch: int = 100
    early_pairs: int = 1000
    prune: bool = True
    prune_min_visits: int = 3000
    prune_threshold: float = 0.99
    storage: str = "disk"
    record_every: int = 50
    seed: int = 0
    version: int = CONFIG_VERSION

    def __post_init__(self) -> None:
        if self.fold_rule_mode not in ("move", "credit"):
            raise ConfigError(f"fold_rule_mode must be 'move' or 'credit', got "
                              f"{self.fold_rule_mode!r}")
        if self.update not in ("mccfr", "thesis"):
            raise ConfigError(f"update must be 'mccfr' or 'thesis', got {self.update!r}")
        if self.storage not in ("disk", "memory"):
            raise ConfigError(f"storage must be 'disk' or 'memory', got {self.storage!r}")
        check_counts(self, ("early_batch", "batch", "record_every", "max_actions", "max_depth",
                            "small_blind", "big_blind"))
        if self.early_pairs < 0 or self.prune_min_visits < 1:
            raise ConfigError(f"early_pairs >= 0 and prune_min_visits >= 1 needed, got "
                              f"{self.early_pairs!r} / {self.prune_min_visits!r}")
        if not 0.5 < self.prune_threshold <= 1.0:
            raise ConfigError(f"prune_threshold must be in (0.5, 1], got {self.prune_threshold!r}")
        if not self.stack_bb > 0:
            raise ConfigError(f"stack_bb must be positive, got {self.stack_bb!r}")

    @property
    def stack_chips(self) -> int:
        return int(round(self.stack_bb * self.big_blind))

    def game_kwargs(self) -> dict[str, Any]:
        return {"stacks": self.stack_chips, "small_blind": self.small_blind,
                "big_blind": self.big_blind, "bets": self.bets}

    def game_string(self) -> str:
        from pokerlab.games import load_game

        return str(load_game("hunl", **self.game_kwargs()).game_string())

    def to_json(self) -> dict[str, Any]:
        return {"preset": "thesis", **asdict(self)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> ThesisConfig:
        d = {k: v for k, v in obj.items() if k != "preset"}
        if d.get("version", CONFIG_VERSION) != CONFIG_VERSION:
            raise ConfigError(f"thesis config version {d.get('version')!r}; this pokerlab "
                              f"reads {CONFIG_VERSION}")
        try:
            return cls(**d)
        except TypeError as exc:
            raise ConfigError(f"bad thesis config: {exc}") from None


# ----------------------------------------------------------------------------- tree
@dataclass(kw_only=True)
class ThesisTree:
    """The compiled betting tree plus the arrays the kernels need."""

    tree: Any
    arrays: dict[str, np.ndarray]
    seat_nodes: tuple[np.ndarray, np.ndarray]
    dec_nodes: np.ndarray
    dec_row: np.ndarray
    dec_k: np.ndarray
    num_values: int
    max_depth: int

    @property
    def num_dec(self) -> int:
        return int(self.dec_nodes.shape[0])


def build_tree(cfg: ThesisConfig) -> ThesisTree:
    """Compile the betting tree of ``cfg`` and check the thesis's limits (6 actions, 13
    deep)."""
    from pokerlab.abstraction.action_tree import DECISION, FOLD_TERMINAL, compile_tree
    from pokerlab.abstraction.bets import parse_bet_set
    from pokerlab.holdem.engine import HoldemConfig

    hc = HoldemConfig(stacks=(cfg.stack_chips, cfg.stack_chips), small_blind=cfg.small_blind,
                      big_blind=cfg.big_blind)
    bets = parse_bet_set(cfg.bets)
    # the limits first, from the bet set alone (an uncapped tree is far too large to build)
    if 2 + bets.max_sizes > cfg.max_actions:
        raise ConfigError(f"bet set {cfg.bets!r} gives {2 + bets.max_sizes} actions at a "
                          f"node; the thesis allows at most {cfg.max_actions}")
    caps = [bets.street(s).cap for s in range(4)]
    if any(c is None for c in caps):
        raise ConfigError(f"bet set {cfg.bets!r} has a street without a raise cap: hands "
                          f"could exceed the thesis's {cfg.max_depth} actions")
    bound = sum(int(c) + 2 for c in caps if c is not None)
    if bound > cfg.max_depth:
        raise ConfigError(f"bet set {cfg.bets!r} allows hands of up to {bound} actions; the "
                          f"thesis allows at most {cfg.max_depth}")
    tree = compile_tree(bets, hc, max_nodes=2_000_000)
    n = tree.num_nodes
    kind = tree.kind.astype(np.int8)
    dec = kind == DECISION
    k = tree.num_children.astype(np.int64)
    if int(k.max()) > cfg.max_actions:
        raise ConfigError(f"bet set {cfg.bets!r} gives {int(k.max())} actions at a node; the "
                          f"thesis allows at most {cfg.max_actions}")
    depth = np.zeros(n, dtype=np.int64)
    end = np.arange(1, n + 1, dtype=np.int64)
    cs = tree.child_start.astype(np.int64)
    cn = tree.child_node.astype(np.int64)
    for node in range(n):
        for e in range(cs[node], cs[node] + k[node]):
            depth[cn[e]] = depth[node] + 1
    for node in range(n - 1, -1, -1):
        for e in range(cs[node], cs[node] + k[node]):
            end[node] = max(end[node], end[cn[e]])
    max_depth = int(depth.max())
    if max_depth > cfg.max_depth:
        raise ConfigError(f"bet set {cfg.bets!r} allows hands of {max_depth} actions; the "
                          f"thesis allows at most {cfg.max_depth}")
    dec_nodes = np.flatnonzero(dec).astype(np.int64)
    dec_of = np.full(n, -1, dtype=np.int64)
    dec_of[dec_nodes] = np.arange(dec_nodes.size)
    dec_k = k[dec_nodes]
    dec_row = np.zeros(dec_nodes.size, dtype=np.int64)
    if dec_nodes.size > 1:
        np.cumsum(dec_k[:-1], out=dec_row[1:])
    row_of = np.full(n, -1, dtype=np.int64)
    row_of[dec_nodes] = dec_row
    c0 = tree.committed0.astype(np.int64)
    c1 = tree.committed1.astype(np.int64)
    fold_win0 = np.zeros(n, dtype=np.float64)
    fold = kind == FOLD_TERMINAL
    fold_win0[fold] = np.where(c0[fold] > c1[fold], c1[fold], -c0[fold])
    sd_amount = np.minimum(c0, c1).astype(np.float64)
    allin = (np.maximum(c0, c1) >= cfg.stack_chips) & ~dec
    actor = tree.actor.astype(np.int64)
    arrays = {"kind": kind, "actor": actor, "child_start": cs, "num_children": k,
              "child_node": cn, "child_action": tree.child_action.astype(np.int64),
              "row_of": row_of, "dec_of": dec_of, "fold_win0": fold_win0,
              "sd_amount": sd_amount, "allin_node": allin, "subtree_end": end}
    seats = (dec_nodes[actor[dec_nodes] == 0], dec_nodes[actor[dec_nodes] == 1])
    return ThesisTree(tree=tree, arrays=arrays, seat_nodes=seats, dec_nodes=dec_nodes,
                      dec_row=dec_row, dec_k=dec_k, num_values=int(dec_k.sum()),
                      max_depth=max_depth)


# ----------------------------------------------------------------------------- working set
@dataclass(kw_only=True)
class Working:
    """The two loaded subtrees (slot p = seat p) as dense working arrays."""

    reg: np.ndarray
    ssum: np.ndarray
    kept: np.ndarray
    visits: np.ndarray
    touched: np.ndarray

    @classmethod
    def empty(cls, t: ThesisTree, init: float) -> Working:
        w = cls(reg=np.full((2, t.num_values), np.float32(init), dtype=np.float32),
                ssum=np.zeros((2, t.num_values), dtype=np.float32),
                kept=np.full((2, t.num_dec), -1, dtype=np.int8),
                visits=np.zeros((2, t.num_dec), dtype=np.int32),
                touched=np.zeros((2, t.num_dec), dtype=np.int8))
        return w


def _row_index(t: ThesisTree, decs: np.ndarray) -> np.ndarray:
    """Flat value indices of the rows of decision indices ``decs`` (in order)."""
    if decs.size == 0:
        return np.zeros(0, dtype=np.int64)
    ks = t.dec_k[decs]
    starts = t.dec_row[decs]
    first = np.zeros(decs.size, dtype=np.int64)
    np.cumsum(ks[:-1], out=first[1:])
    return np.repeat(starts - first, ks) + np.arange(int(ks.sum()), dtype=np.int64)


ROW_NODE_BYTES = 4 + 1 + 4
"""Per stored row: decision index (int32), kept (int8), visits (int32); plus 8 bytes per
action (regret and strategy sum, float32)."""


class SubtreeStore:
    """The 2 x 169 subtrees, sparse (only used rows), on disk or in memory."""

    def __init__(self, t: ThesisTree, storage: str, folder: Path | None, init: float) -> None:
        self.t = t
        self.storage = storage
        self.init = np.float32(init)
        self.mem: dict[tuple[int, int], dict[str, np.ndarray]] = {}
        self.bytes = np.zeros((2, NUM_CLASSES), dtype=np.int64)
        self.rows = np.zeros((2, NUM_CLASSES), dtype=np.int64)
        self.folder = folder
        if storage == "disk":
            if folder is None:
                raise ConfigError("storage 'disk' needs a folder")
            folder.mkdir(parents=True, exist_ok=True)

    def _file(self, p: int, c: int) -> Path:
        assert self.folder is not None
        return self.folder / f"seat{p}_class{c:03d}.npz"

    def get(self, p: int, c: int) -> dict[str, np.ndarray] | None:
        if self.storage == "memory":
            return self.mem.get((p, c))
        f = self._file(p, c)
        if not f.is_file():
            return None
        with np.load(f, allow_pickle=False) as z:
            return {name: np.array(z[name]) for name in z.files}

    def load(self, p: int, c: int, w: Working) -> None:
        w.reg[p].fill(self.init)
        w.ssum[p].fill(0)
        w.kept[p].fill(-1)
        w.visits[p].fill(0)
        w.touched[p].fill(0)
        d = self.get(p, c)
        if d is None:
            return
        decs = d["dec"].astype(np.int64)
        idx = _row_index(self.t, decs)
        w.reg[p, idx] = d["reg"]
        w.ssum[p, idx] = d["ssum"]
        w.kept[p, decs] = d["kept"]
        w.visits[p, decs] = d["visits"]
        w.touched[p, decs] = 1

    def save(self, p: int, c: int, w: Working) -> None:
        decs = np.flatnonzero(w.touched[p]).astype(np.int64)
        idx = _row_index(self.t, decs)
        d = {"dec": decs.astype(np.int32), "kept": w.kept[p, decs].copy(),
             "visits": w.visits[p, decs].copy(), "reg": w.reg[p, idx].copy(),
             "ssum": w.ssum[p, idx].copy()}
        self.rows[p, c] = decs.size
        self.bytes[p, c] = decs.size * ROW_NODE_BYTES + idx.size * 8
        if self.storage == "memory":
            self.mem[(p, c)] = d
            return
        f = self._file(p, c)
        tmp = f.with_name(f.name + ".tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, **d)  # type: ignore[arg-type]
        os.replace(tmp, f)


# ----------------------------------------------------------------------------- training
@dataclass(kw_only=True)
class ThesisResult:
    config: ThesisConfig
    pairs: int
    games: int
    seconds: float
    records: list[dict[str, Any]] = field(default_factory=list)
    settled: int = 0
    selfplay: dict[str, int] = field(default_factory=dict)
    policy: Any = None
    strategy: np.ndarray | None = None
    """With ``keep_strategy``: the played (average) strategy, dense ``[class, value]``
    (:func:`dense_strategy`)."""
    current_strategy: np.ndarray | None = None
    """With ``keep_strategy``: the current strategy at the end, dense."""
    tree_nodes: int = 0
    decision_nodes: int = 0
    max_depth: int = 0

    def summary(self) -> dict[str, Any]:
        last = self.records[-1] if self.records else {}
        sp = self.selfplay
        n = max(1, sp.get("games", 0))
        return {"preset": "thesis", "iterations": self.pairs, "games": self.games,
                "seconds": round(self.seconds, 3),
                "iterations_per_s": round(self.pairs / self.seconds, 3) if self.seconds else None,
                "games_per_s": round(self.games / self.seconds, 1) if self.seconds else None,
                "infosets": int(last.get("rows", 0)), "bytes": int(last.get("bytes", 0)),
                "peak_bytes": max((int(r["bytes"]) for r in self.records), default=0),
                "loaded_bytes": int(last.get("loaded_bytes", 0)),
                "settled_nodes": self.settled, "tree_nodes": self.tree_nodes,
                "decision_nodes": self.decision_nodes, "max_depth": self.max_depth,
                "selfplay_games": sp.get("games", 0),
                "selfplay_allin_share": round(sp.get("allin", 0) / n, 4),
                "selfplay_fold_share": round(sp.get("fold", 0) / n, 4),
                "fold_rule": self.config.fold_rule,
                "fold_rule_mode": self.config.fold_rule_mode, "update": self.config.update}


def train_thesis(cfg: ThesisConfig, *, pairs: int | None = None, minutes: float | None = None,
                 folder: str | os.PathLike[str] | None = None, use_kernel: bool = True,
                 progress: Callable[[int, dict[str, Any]], None] | None = None,
                 window: int = 0, keep_strategy: bool = False) -> ThesisResult:
    """Train for ``pairs`` hole-card pairs or ``minutes`` (whichever is given; both: the
    first reached).  ``folder`` holds the subtrees with ``storage="disk"``.  ``window`` > 0
    counts the sampled self-play games of the last ``window`` pairs only (else all)."""
    from pokerlab.cards.evaluator import eval_tables

    from . import thesis_kernels as K

    if pairs is None and minutes is None:
        raise ThesisError("give pairs (iterations) or minutes")
    if pairs is not None and pairs < 1:
        raise ThesisError(f"iterations must be positive, got {pairs}")
    if minutes is not None and not minutes > 0:
        raise ThesisError(f"minutes must be positive, got {minutes}")
    t = build_tree(cfg)
    A = t.arrays
    store = SubtreeStore(t, cfg.storage, Path(folder) if folder is not None else None,
                         cfg.regret_init)
    w = Working.empty(t, cfg.regret_init)
    rng = np.random.default_rng(cfg.seed)
    tables = eval_tables()
    inv_bb = 1.0 / cfg.big_blind
    stats = np.zeros(3, dtype=np.int64)
    hist: list[np.ndarray] = []
    res = ThesisResult(config=cfg, pairs=0, games=0, seconds=0.0, tree_nodes=t.tree.num_nodes,
                       decision_nodes=t.num_dec, max_depth=t.max_depth)
    thesis_update = cfg.update == "thesis"
    batch_kernel = K.selfplay_batch_kernel if thesis_update else K.train_batch_kernel
    batch_py = K.selfplay_batch_py if thesis_update else K.train_batch_py
    if use_kernel:  # compile (train_batch_kernel is not cached) outside the timed loop
        batch_kernel(0, np.arange(4, dtype=np.int64), A["kind"], A["actor"],
                             A["child_start"], A["num_children"], A["child_node"],
                             A["child_action"], A["row_of"], A["dec_of"], A["fold_win0"],
                             A["sd_amount"], A["allin_node"], inv_bb, w.reg, w.ssum, w.kept,
                             w.visits, w.touched, np.uint64(0),
                             0 if not cfg.fold_rule else 1, tables,
                             np.zeros(3, dtype=np.int64))
    cls = (0, 0)
    rule = 0 if not cfg.fold_rule else (1 if cfg.fold_rule_mode == "move" else 2)
    t0 = time.perf_counter()
    deadline = None if minutes is None else t0 + 60.0 * minutes
    i = 0
    while True:
        if pairs is not None and i >= pairs:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        cards = rng.choice(52, size=4, replace=False).astype(np.int64)
        games = cfg.early_batch if i < cfg.early_pairs else cfg.batch
        bseed = int(rng.integers(0, 2**63))
        cls = (hand_class(cards[0], cards[1]), hand_class(cards[2], cards[3]))
        for p in (0, 1):
            store.load(p, cls[p], w)
        before = stats.copy()
        if use_kernel:
            batch_kernel(games, cards, A["kind"], A["actor"], A["child_start"],
                                 A["num_children"], A["child_node"], A["child_action"],
                                 A["row_of"], A["dec_of"], A["fold_win0"], A["sd_amount"],
                                 A["allin_node"], inv_bb, w.reg, w.ssum, w.kept, w.visits,
                                 w.touched, np.uint64(bseed), rule, tables, stats)
        else:
            batch_py(games, cards, A, inv_bb, w.reg, w.ssum, w.kept, w.visits,
                             w.touched, bseed, rule, stats)
        if window:
            hist.append(stats - before)
            if len(hist) > window:
                hist.pop(0)
        if cfg.prune:
            for p in (0, 1):
                if use_kernel:
                    res.settled += int(K.prune_kernel(
                        p, t.seat_nodes[p], A["child_start"], A["num_children"],
                        A["child_node"], A["row_of"], A["dec_of"], A["subtree_end"], w.reg,
                        w.kept, w.visits, w.touched, cfg.prune_min_visits,
                        cfg.prune_threshold))
                else:
                    res.settled += K.prune_py(p, t.seat_nodes[p], A, w.reg, w.kept, w.visits,
                                              w.touched, cfg.prune_min_visits,
                                              cfg.prune_threshold)
        for p in (0, 1):
            store.save(p, cls[p], w)
        i += 1
        res.games += games
        if i % cfg.record_every == 0 or i == 1:
            rec = _record(i, res.games, time.perf_counter() - t0, store, cls, res.settled)
            res.records.append(rec)
            if progress is not None:
                progress(i, rec)
    res.pairs = i
    res.seconds = time.perf_counter() - t0
    if not res.records or res.records[-1]["pairs"] != i:
        res.records.append(_record(i, res.games, res.seconds, store, cls, res.settled))
    tot = np.sum(hist, axis=0) if (window and hist) else stats
    res.selfplay = {"games": int(tot[0]), "allin": int(tot[1]), "fold": int(tot[2])}
    res.policy = export_policy(t, store, cfg, res)
    if keep_strategy:
        res.strategy = dense_strategy(t, store)
        res.current_strategy = dense_strategy(t, store, current=True)
    return res


def _record(i: int, games: int, seconds: float, store: SubtreeStore, cls: tuple[int, int],
            settled: int) -> dict[str, Any]:
    return {"pairs": i, "games": games, "seconds": round(seconds, 3),
            "rows": int(store.rows.sum()), "bytes": int(store.bytes.sum()),
            "loaded_bytes": int(store.bytes[0, cls[0]] + store.bytes[1, cls[1]]),
            "settled": settled}


def _stored_rows(t: ThesisTree, d: dict[str, np.ndarray], *, current: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(decision indices, their action counts, the flat rows played) of one stored subtree:
    the average strategy; a settled node plays its kept action; a row without strategy
    sums (every row with ``current``) plays its current regret-matching strategy."""
    decs = d["dec"].astype(np.int64)
    ks = t.dec_k[decs]
    starts = np.zeros(decs.size, dtype=np.int64)
    np.cumsum(ks[:-1], out=starts[1:])
    owner = np.repeat(np.arange(decs.size), ks)
    local = np.arange(int(ks.sum())) - starts[owner]
    ss = d["ssum"].astype(np.float64) * (0.0 if current else 1.0)
    pos_r = np.maximum(d["reg"].astype(np.float64), 0.0)
    ss_tot = np.add.reduceat(ss, starts)
    r_tot = np.add.reduceat(pos_r, starts)
    kept = d["kept"].astype(np.int64)
    row = np.where(ss_tot[owner] > 0, ss / np.where(ss_tot > 0, ss_tot, 1.0)[owner],
                   np.where(r_tot[owner] > 0,
                            pos_r / np.where(r_tot > 0, r_tot, 1.0)[owner],
                            1.0 / ks[owner]))
    row = np.where(kept[owner] >= 0, (local == kept[owner]).astype(np.float64), row)
    return decs, ks, row


def export_policy(t: ThesisTree, store: SubtreeStore, cfg: ThesisConfig,
                  res: ThesisResult) -> Any:
    """The trained policy: a CSR :class:`IndexedPolicy`, rows (node, class) of the stored
    rows (average strategy; a settled node plays its kept action; a row without strategy
    sums plays its current regret-matching strategy)."""
    from pokerlab.abstraction.action_tree import DECISION
    from pokerlab.policy.indexed import IndexedPolicy

    tree = t.tree
    nodes_l: list[np.ndarray] = []
    cls_l: list[np.ndarray] = []
    rows_l: list[np.ndarray] = []
    ks_l: list[np.ndarray] = []
    for p in (0, 1):
        for c in range(NUM_CLASSES):
            d = store.get(p, c)
            if d is None or d["dec"].size == 0:
                continue
            decs, ks, row = _stored_rows(t, d)
            nodes_l.append(t.dec_nodes[decs])
            cls_l.append(np.full(decs.size, c, dtype=np.int64))
            rows_l.append(row.astype(np.float32))
            ks_l.append(ks)
    n = tree.num_nodes
    if nodes_l:
        nodes = np.concatenate(nodes_l)
        classes = np.concatenate(cls_l)
        ks_all = np.concatenate(ks_l)
        vals_all = np.concatenate(rows_l)
        first = np.zeros(nodes.size, dtype=np.int64)
        np.cumsum(ks_all[:-1], out=first[1:])
        order = np.lexsort((classes, nodes))
        idx = (np.repeat(first[order], ks_all[order])
               + np.arange(int(ks_all.sum())) - np.repeat(
                   np.concatenate(([0], np.cumsum(ks_all[order])[:-1])), ks_all[order]))
        probs = vals_all[idx]
        buckets = classes[order].astype(np.int32)
        counts = np.bincount(nodes, minlength=n)
    else:
        probs = np.zeros(0, np.float32)
        buckets = np.zeros(0, np.int32)
        counts = np.zeros(n, dtype=np.int64)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    nb = np.where(tree.kind == DECISION, NUM_CLASSES, 0).astype(np.int32)
    meta = {"game": cfg.game_string(), "card_key": CARD_KEY, "agent": "thesis",
            "config": cfg.to_json(), "iterations": res.pairs, "games": res.games}
    return IndexedPolicy(num_children=tree.num_children, child_action=tree.child_action,
                         num_buckets=nb,
                         probs=probs, row_ptr=ptr, row_bucket=buckets, metadata=meta)


# ----------------------------------------------------------------------------- play statistics
def dense_strategy(t: ThesisTree, store: SubtreeStore, *, current: bool = False
                   ) -> np.ndarray:
    """The strategy the exported policy plays (``current``: the current regret-matching
    strategy at the end of training instead of the average), dense: float32
    ``[169 classes, values]`` (a node's row sits at ``row_of[node]``; rows never stored are
    uniform, what regrets all at their initial value give)."""
    strat = np.repeat(1.0 / t.dec_k, t.dec_k).astype(np.float32)[None, :].repeat(
        NUM_CLASSES, axis=0)
    for p in (0, 1):
        for c in range(NUM_CLASSES):
            d = store.get(p, c)
            if d is None or d["dec"].size == 0:
                continue
            decs, _ks, row = _stored_rows(t, d, current=current)
            strat[c, _row_index(t, decs)] = row
    return strat


