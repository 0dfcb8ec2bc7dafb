"""The blueprint trainer: tables, the iteration loop, checkpoints, the trained policy.

``BlueprintTrainer(config)`` compiles the betting tree, computes the card abstraction's
thresholds, estimates the memory of its tables (regrets, average-strategy sums,
snapshot sums) and refuses above ``config.max_memory`` before allocating anything.
``run(n)`` runs ``n`` more iterations of :func:`pokerlab.blueprint.mccfr_kernels.run_iterations`
in chunks (the chunking never changes the result: every schedule is a function of the
global iteration number and the RNG state is part of the checkpoint).  ``save(folder)``
writes ``checkpoint.npz`` (tables + RNG state + counters), ``config.json``, ``policy.npz``
(an :class:`~pokerlab.policy.indexed.IndexedPolicy`) and ``train.json``, each atomically;
``BlueprintTrainer.resume(folder)`` continues bit for bit.  ``storage="disk"`` keeps the
regret / average / snapshot tables in memory-mapped ``.npy`` files in the run folder, so a
blueprint larger than RAM trains from disk (the checkpoint still holds a copy of them).
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.abstraction.action_tree import DECISION, ActionTree, compile_tree
from pokerlab.blueprint import mccfr_kernels as K
from pokerlab.blueprint.cards import CardSpec, combos64
from pokerlab.blueprint.config import BlueprintConfig
from pokerlab.blueprint.seeds import seed_state
from pokerlab.cards.cards import CLASS_OF_COMBO, COMBO_INDEX
from pokerlab.cards.evaluator import eval_tables
from pokerlab.errors import ConfigError
from pokerlab.io import atomic_path, atomic_write_json, sha256_bytes
from pokerlab.policy.indexed import IndexedPolicy, save_indexed_policy
from pokerlab.solvers.regret import regret_matching_np

CHECKPOINT_FORMAT = "pokerlab-blueprint-checkpoint"
CHECKPOINT_VERSION = 1
# in-memory tables up to this size (and within max_memory twice over) run through
# bucket-major work copies (mccfr_kernels.run_iterations_bucket_major)
BUCKET_MAJOR_MAX_BYTES = 512 << 20
Progress = Callable[[int, int, dict[str, Any]], None]


def allin_matrix() -> np.ndarray:
    """``2 * equity - 1`` of every preflop combo pair (0 where the combos conflict)."""
    from pokerlab.pushfold.game import matrices_for

    return np.ascontiguousarray(matrices_for().D, dtype=np.float64)


def tree_depth(tree: ActionTree) -> int:
    """Number of decisions on the longest path."""
    depth = np.zeros(tree.num_nodes, dtype=np.int64)
    owner = np.repeat(np.arange(tree.num_nodes), tree.num_children.astype(np.int64))
    # pre-order: a parent's id is below its children's, so one ordered pass suffices
    order = np.argsort(tree.child_node, kind="stable")
    cn = tree.child_node[order]
    ow = owner[order]
    for c, o in zip(cn.tolist(), ow.tolist(), strict=True):
        depth[c] = depth[o] + 1
    return int(depth.max())


def card_tables(config: Any, *, given: Any = None,
                progress: Callable[[str, int, int], None] | None = None
                ) -> tuple[Any, tuple[Any, ...]]:
    """The card abstraction of ``config`` (a :class:`~pokerlab.abstraction.buckets.
    BucketConfig`; ``given``, or loaded from the cache or built) and the kernel's
    ``ctab``: the flop, turn and river hand-indexer tables and bucket tables."""
    from pokerlab.abstraction.buckets import load_or_build
    from pokerlab.abstraction.indexer import street_indexer

    if given is not None:
        if tuple(given.config.buckets) != tuple(config.buckets) or len(given.tables) < 4:
            raise ConfigError(f"the given card abstraction has buckets "
                              f"{tuple(given.config.buckets)!r}, the config "
                              f"{tuple(config.buckets)!r}")
        abs_ = given
    else:
        abs_ = load_or_build(config, progress=progress)[0]
    tabs = [np.ascontiguousarray(abs_.tables[s], dtype=np.uint16) for s in (1, 2, 3)]
    ixs = [street_indexer(s).tables for s in (1, 2, 3)]
    return abs_, (ixs[0], ixs[1], ixs[2], tabs[0], tabs[1], tabs[2])


def table_bytes(config: BlueprintConfig, num_values: int) -> int:
    """Bytes of the regret, average-strategy and snapshot tables."""
    n = 4 * num_values
    if any(config.avg_streets):
        n += 4 * num_values
    if config.snapshot_every > 0:
        n += 4 * num_values
    return n


class BlueprintTrainer:
    """External-sampling MCCFR on a compiled tree (see the module docstring)."""

    def __init__(self, config: BlueprintConfig, *, storage: str = "memory",
                 folder: str | Path | None = None, cards: Any = None) -> None:
        if storage not in ("memory", "disk"):
            raise ConfigError(f"storage must be memory or disk, got {storage!r}")
        if storage == "disk" and folder is None:
            raise ConfigError("storage 'disk' needs a folder for the table files")
        self.config = config
        self.storage = storage
        self.folder = None if folder is None else Path(folder)
        self.tree = compile_tree(config.bet_set(), config.holdem(), no_limp=config.no_limp,
                                 max_bytes=config.max_memory)
        self.cards = CardSpec(buckets=config.buckets, sample=config.card_sample,
                              seed=config.card_seed)
        self.card_tables: Any = None
        self._ctab: tuple[Any, ...] | None = None
        bcfg = config.bucket_config()
        if bcfg is None:
            self.cards = self.cards.with_thresholds()
        else:  # potential-aware: the abstraction's tables (built once, then cached)
            self.card_tables, self._ctab = card_tables(bcfg, given=cards)
        self.layout = self.tree.layout(config.buckets)
        need = table_bytes(config, self.layout.num_values) + self.tree.nbytes
        if need > config.max_memory:
            raise ConfigError(f"blueprint tables need {need} bytes ({self.layout.num_infosets} "
                              f"information sets), above max_memory {config.max_memory}")
        self.estimated_bytes = table_bytes(config, self.layout.num_values)
        nv = self.layout.num_values
        rdt = np.int32 if config.regret_dtype == "int32" else np.float32
        self.regret = self._table("regret", nv, rdt)
        self.avg = self._table("avg", nv if any(config.avg_streets) else 0, np.float32)
        self.snap = self._table("snap", nv if config.snapshot_every > 0 else 0, np.float32)
        self.state = seed_state(config.seed)
        self.deck = np.arange(52, dtype=np.int64)
        self.iterations = 0
        self.seconds = 0.0
        self.visits = 0
        self.history: list[dict[str, Any]] = []
        self.max_depth = tree_depth(self.tree)
        self.max_actions = int(self.tree.num_children.max())
        bb = float(config.big_blind)
        self.params_i = np.array([-1, config.lcfr_until, config.lcfr_every, config.prune_after,
                                  config.snapshot_every, config.snapshot_after,
                                  config.board_reuse], dtype=np.int64)
        self.params_f = np.array([config.prune_prob, config.prune_threshold_bb * bb,
                                  config.regret_floor_bb * bb], dtype=np.float64)
        self._thresholds = (self.cards.threshold_array() if self._ctab is None
                            else np.full((4, max(config.buckets) + 1), 2.0))
        self._nbuckets = np.asarray(config.buckets, dtype=np.int64)
        self._avg_mask = np.asarray(config.avg_streets, dtype=np.bool_)
        self._combo_index = np.ascontiguousarray(COMBO_INDEX, dtype=np.int64)
        self._class_of = np.ascontiguousarray(CLASS_OF_COMBO, dtype=np.int64)
        self._allin_d = allin_matrix() if config.allin_ev else np.zeros((0, 0))
        # node locking (set_lock): fixed opponent probabilities at flagged rows
        self.lock_sig = np.zeros(0)
        self.lock_row = np.zeros(0, dtype=np.bool_)
        self.lock_p = 1.0
        # work copies of the tables for the bucket-major kernel (allocated on first use)
        self._work: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def _table(self, name: str, n: int, dtype: Any) -> np.ndarray:
        """A zeroed table: in memory, or (``storage="disk"``) a memory-mapped ``.npy`` file
        ``tables_NAME.npy`` in the run folder, paged in and out by the operating system."""
        if self.storage == "memory" or n == 0:
            return np.zeros(n, dtype=dtype)
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        arr = np.lib.format.open_memmap(self.folder / f"tables_{name}.npy", mode="w+",
                                        dtype=dtype, shape=(n,))
        arr[:] = 0
        return arr

    # ------------------------------------------------------------------ sizes
    @property
    def infosets(self) -> int:
        return self.layout.num_infosets

    @property
    def table_nbytes(self) -> int:
        return int(self.regret.nbytes + self.avg.nbytes + self.snap.nbytes)

    # ------------------------------------------------------------------ training
    def set_lock(self, probs: np.ndarray, rows: np.ndarray, p: float = 1.0) -> None:
        """Lock rows: ``probs`` (tree layout, ``layout.num_values``) is played instead of
        regret matching wherever the row's actor is the traverser's opponent and
        ``rows[row_start]`` is set, in each iteration with probability ``p`` (see
        :func:`pokerlab.blueprint.mccfr_kernels.run_iterations_locked`).  Locking is not part
        of the checkpoint: set it again after :meth:`resume`."""
        nv = self.layout.num_values
        if probs.shape != (nv,) or rows.shape != (nv,):
            raise ConfigError(f"lock arrays need {nv} values (this tree's layout), got "
                              f"{probs.shape} and {rows.shape}")
        if not 0.0 <= p <= 1.0:
            raise ConfigError(f"lock weight p must be in [0, 1], got {p}")
        self.lock_sig = np.ascontiguousarray(probs, dtype=np.float64)
        self.lock_row = np.ascontiguousarray(rows, dtype=np.bool_)
        self.lock_p = float(p)

    def _kernel(self, n: int) -> None:
        t = self.tree
        if self.lock_row.size:
            K.run_iterations_locked(
                self.iterations, n, t.kind, t.actor, t.street, t.child_start, t.num_children,
                t.child_node, t.committed0, t.committed1, self.layout.node_offset, self.regret,
                self.regret.dtype.kind == "i", self.avg, self._avg_mask, self.snap,
                self._nbuckets, self._thresholds, self._class_of, self._combo_index,
                eval_tables(), combos64(), self.state, self.deck, self.params_i,
                self.params_f, self.max_depth, self.max_actions, self._allin_d, self.lock_sig,
                self.lock_row, self.lock_p, self._ctab)
            return
        # bucket-major copies of the tables for the call: the same results bit for bit,
        # ~1.3x faster (see mccfr_kernels.run_iterations_bucket_major); in memory only
        args = (self.iterations, n, t.kind, t.actor, t.street, t.child_start,
                t.num_children, t.child_node, t.committed0, t.committed1,
                self.layout.node_offset, self.regret, self.regret.dtype.kind == "i", self.avg,
                self._avg_mask, self.snap, self._nbuckets, self._thresholds, self._class_of,
                self._combo_index, eval_tables(), combos64(), self.state, self.deck,
                self.params_i, self.params_f, self.max_depth, self.max_actions, self._allin_d)
        nb = self.table_nbytes
        if (self.storage == "memory" and nb <= BUCKET_MAJOR_MAX_BYTES
                and 2 * nb + self.tree.nbytes <= self.config.max_memory):
            if self._work is None:
                self._work = (np.empty_like(self.regret), np.empty_like(self.avg),
                              np.empty_like(self.snap))
            K.run_iterations_bucket_major(*args, *self._work, self._ctab)
        else:
            K.run_iterations(*args, self._ctab)

    def run(self, iterations: int, *, chunk: int = 100_000, seconds: float | None = None,
            progress: Progress | None = None, eval_every: int = 0, threads: int = 1) -> None:
        """Run ``iterations`` more iterations (or until ``seconds`` of wall time pass);
        ``threads > 1``: lock-free workers (:mod:`pokerlab.blueprint.parallel`, not
        bit-reproducible)."""
        if iterations < 0:
            raise ConfigError(f"iterations must be >= 0, got {iterations}")
        if threads < 1:
            raise ConfigError(f"threads must be >= 1, got {threads}")
        if threads > 1 and self.lock_row.size:
            raise ConfigError(f"node locking (set_lock) runs on one thread, got {threads}")
        chunk = max(1, int(chunk))
        done = 0
        start = time.perf_counter()
        while done < iterations:
            if seconds is not None and time.perf_counter() - start >= seconds:
                break
            n = min(chunk, iterations - done)
            if eval_every > 0:
                to_eval = eval_every - self.iterations % eval_every
                n = min(n, to_eval)
            t0 = time.perf_counter()
            if threads == 1:
                self._kernel(n)
            else:
                from pokerlab.blueprint.parallel import run_threaded

                run_threaded(self, n, threads)
            self.seconds += time.perf_counter() - t0
            self.iterations += n
            done += n
            if eval_every > 0 and self.iterations % eval_every == 0:
                self.evaluate()
            if progress is not None:
                progress(done, iterations, self.status())

    def status(self) -> dict[str, Any]:
        last = self.history[-1] if self.history else {}
        return {"iterations": self.iterations,
                "iterations_per_s": self.iterations / self.seconds if self.seconds else 0.0,
                "bytes": self.table_nbytes, "last_eval": last}

    # ------------------------------------------------------------------ strategy
    def strategy(self) -> np.ndarray:
        """Float32 probabilities in the tree layout: the average strategy on streets that
        keep one, else the snapshot average, else the current strategy."""
        out = np.zeros(self.layout.num_values, dtype=np.float32)
        t = self.tree
        for node in np.flatnonzero(t.kind == DECISION).tolist():
            s = int(t.street[node])
            k = int(t.num_children[node])
            nb = int(self.config.buckets[s])
            lo = int(self.layout.node_offset[node])
            hi = lo + nb * k
            rows = regret_matching_np(self.regret[lo:hi].reshape(nb, k).astype(np.float64))
            for src, use in ((self.snap, self.snap.size > 0),
                             (self.avg, self.avg.size > 0 and self.config.avg_streets[s])):
                if not use:
                    continue
                a = src[lo:hi].reshape(nb, k).astype(np.float64)
                tot = a.sum(axis=1, keepdims=True)
                rows = np.where(tot > 0, a / np.where(tot > 0, tot, 1.0), rows)
            out[lo:hi] = rows.ravel()
        return out

    def metadata(self) -> dict[str, Any]:
        return {"game": self.config.game_string(), "trainer": "blueprint",
                "preset": self.config.preset, "config": self.config.to_json(),
                "cards": self._cards_json(), "iterations": self.iterations,
                "tree_fingerprint": self.tree.fingerprint(),
                "buckets": self.config.cards_text()}

    def _cards_json(self) -> dict[str, Any]:
        """The policy's card abstraction: the hand-strength spec (with its thresholds), or
        the potential-aware tables' config and cache key (the game string names them)."""
        if self.card_tables is None:
            return self.cards.to_json()  # type: ignore[no-any-return]
        bc = self.card_tables.config
        return {"method": "pa", "buckets": list(bc.buckets), "methods": list(bc.methods),
                "key": bc.key()}

    def policy(self) -> IndexedPolicy:
        return IndexedPolicy.from_tree(self.tree, self.config.buckets, self.strategy(),
                                       metadata=self.metadata())

    # ------------------------------------------------------------------ evaluation
    def pushfold_strategies(self) -> tuple[np.ndarray, np.ndarray]:
        """SB shove and BB call probability per combo (1326) of a push/fold tree."""
        from pokerlab.abstraction.action_tree import RAISE0

        t = self.tree
        if t.actions(0) != [0, RAISE0] or self.config.buckets[0] != 169:
            raise ConfigError("push/fold strategies need the pushfold preset's tree")
        pol = self.strategy()
        k0 = int(t.num_children[0])
        lo = int(self.layout.node_offset[0])
        shove = pol[lo:lo + 169 * k0].reshape(169, k0)[:, 1].astype(np.float64)
        node = t.child(0, RAISE0)
        k1 = int(t.num_children[node])
        lo = int(self.layout.node_offset[node])
        call = pol[lo:lo + 169 * k1].reshape(169, k1)[:, 1].astype(np.float64)
        cls = np.asarray(CLASS_OF_COMBO, dtype=np.int64)
        return shove[cls], call[cls]

    def exploitability_bb(self) -> float:
        """Exact exploitability (bb/hand) of the push/fold preset's policy."""
        from pokerlab.pushfold.game import PushFoldConfig
        from pokerlab.pushfold.solver import evaluate

        s, c = self.pushfold_strategies()
        return float(evaluate(s, c, PushFoldConfig(stack=self.config.stack_bb)).exploitability)

    def evaluate(self) -> dict[str, Any]:
        rec: dict[str, Any] = {"iterations": self.iterations, "seconds": round(self.seconds, 3)}
        if self.config.preset == "pushfold" or (self.config.no_limp
                                               and self.tree.num_nodes <= 8):
            rec["exploitability_bb"] = self.exploitability_bb()
        self.history.append(rec)
        return rec

    # ------------------------------------------------------------------ files
    def _checkpoint_arrays(self) -> dict[str, np.ndarray]:
        return {"regret": self.regret, "avg": self.avg, "snap": self.snap,
                "state": self.state, "deck": self.deck}

    def save(self, folder: str | Path, *, policy: bool = True) -> dict[str, Path]:
        """Write checkpoint, config, policy and summary into ``folder`` (atomic each)."""
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        arrays = self._checkpoint_arrays()
        meta = {"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION,
                "config": self.config.to_json(), "iterations": self.iterations,
                "seconds": self.seconds, "history": self.history,
                "tree_fingerprint": self.tree.fingerprint()}
        meta_json = json.dumps(meta, sort_keys=True)
        digest = sha256_bytes(meta_json.encode() + b"".join(
            np.ascontiguousarray(arrays[k]).tobytes() for k in sorted(arrays)))
        header = np.frombuffer(json.dumps({"meta": meta_json, "sha256": digest}).encode(),
                               dtype=np.uint8)
        buf = io.BytesIO()
        np.savez(buf, header=header, **arrays)  # type: ignore[arg-type]
        paths = {"checkpoint": out / "checkpoint.npz", "config": out / "config.json",
                 "summary": out / "train.json"}
        with atomic_path(paths["checkpoint"]) as tmp:
            tmp.write_bytes(buf.getvalue())
        atomic_write_json(paths["config"], self.config.to_json())
        if policy:
            paths["policy"] = out / "policy.npz"
            save_indexed_policy(self.policy(), paths["policy"])
        atomic_write_json(paths["summary"], self.summary())
        return paths

    def summary(self) -> dict[str, Any]:
        return {"preset": self.config.preset, "game": self.config.game_string(),
                "iterations": self.iterations, "seconds": round(self.seconds, 3),
                "iterations_per_s": (self.iterations / self.seconds) if self.seconds else 0.0,
                "infosets": self.infosets, "bytes": self.table_nbytes,
                "nodes": self.tree.num_nodes, "history": self.history,
                "cards": self.cards.text if self.card_tables is None else self.config.cards_text()}

    @classmethod
    def resume(cls, folder: str | Path, *, storage: str = "memory") -> BlueprintTrainer:
        """Rebuild a trainer from ``folder/checkpoint.npz`` (checksum verified)."""
        path = Path(folder) / "checkpoint.npz"
        try:
            with np.load(path, allow_pickle=False) as z:
                head = json.loads(bytes(z["header"].astype(np.uint8)).decode())
                arrays = {k: np.array(z[k]) for k in ("regret", "avg", "snap", "state", "deck")}
        except FileNotFoundError:
            raise ConfigError(f"no checkpoint at {path}") from None
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            raise ConfigError(f"checkpoint {path} is corrupt: {exc}") from None
        meta_json = head["meta"]
        digest = sha256_bytes(meta_json.encode() + b"".join(
            np.ascontiguousarray(arrays[k]).tobytes() for k in sorted(arrays)))
        if digest != head.get("sha256"):
            raise ConfigError(f"checkpoint {path} fails its checksum")
        meta = json.loads(meta_json)
        if meta.get("format") != CHECKPOINT_FORMAT or meta.get("version") != CHECKPOINT_VERSION:
            raise ConfigError(f"checkpoint {path} has an unknown format/version")
        tr = cls(BlueprintConfig.from_json(meta["config"]), storage=storage, folder=folder)
        if tr.tree.fingerprint() != meta["tree_fingerprint"]:
            raise ConfigError(f"checkpoint {path} was made with a different betting tree")
        for k in ("regret", "avg", "snap", "state", "deck"):
            cur = getattr(tr, k)
            if arrays[k].shape != cur.shape or arrays[k].dtype != cur.dtype:
                raise ConfigError(f"checkpoint {path}: table {k} has the wrong shape/type")
            if isinstance(cur, np.memmap):
                cur[:] = arrays[k]
            else:
                setattr(tr, k, arrays[k])
        tr.iterations = int(meta["iterations"])
        tr.seconds = float(meta["seconds"])
        tr.history = list(meta["history"])
        return tr
