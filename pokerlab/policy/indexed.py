"""Policies addressed by integer information sets: (tree node, card bucket) -> float32 row.

An :class:`IndexedPolicy` belongs to a compiled betting tree
(the blueprint's ``ActionTree``): decision node ``n`` has
``num_children[n]`` actions (abstract ids ``child_action[...]`` of its run of edges) and
``num_buckets[n]`` card buckets.  Its rows are stored

* ``dense``: every (node, bucket) row, row ``(n, b)`` at ``node_offset[n] + b *
  num_children[n]`` of the flat float32 ``probs``;
* ``csr``: only some rows: node ``n`` owns rows ``row_ptr[n]:row_ptr[n + 1]`` whose buckets
  are ``row_bucket[...]`` (ascending); row ``r`` of node ``n`` starts at ``node_offset[n] +
  (r - row_ptr[n]) * num_children[n]``.  A bucket without a row plays uniformly (or raises,
  ``missing="error"``).

Files: the same ``.npz`` family as :class:`~pokerlab.policy.tabular.TabularPolicy`
(format ``pokerlab-policy``, header ``kind: "indexed"``, its own version, a SHA-256 over the
arrays and the metadata, no pickle, written atomically).  :func:`load_any_policy` reads
either kind.  ``metadata`` (JSON) holds at least the game string (``metadata["game"]``).

``action_probabilities(state)`` works on any state that can name its information set as
integers: ``state.infoset_index(player)`` -> ``(node, bucket)``; :meth:`probabilities`
and :meth:`action_probabilities_at` take the integers directly.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from pokerlab.errors import PolicyFileError
from pokerlab.games.protocol import State
from pokerlab.io import ARCHIVE_ERRORS, atomic_path, read_bytes, sha256_bytes
from pokerlab.policy.base import Policy
from pokerlab.policy.tabular import (
    FORMAT_NAME,
    PolicyLookupError,
    TabularPolicy,
    check_archive,
    check_missing,
    load_policy,
    parse_header,
)

INDEXED_KIND = "indexed"
INDEXED_VERSION = 1
_ARRAYS = ("num_children", "child_action", "num_buckets", "node_offset", "probs", "row_ptr",
           "row_bucket")


class IndexedPolicy(Policy):
    """Float32 rows addressed by (node, bucket); see the module docstring."""

    def __init__(self, *, num_children: np.ndarray, child_action: np.ndarray,
                 num_buckets: np.ndarray, probs: np.ndarray,
                 node_offset: np.ndarray | None = None,
                 row_ptr: np.ndarray | None = None, row_bucket: np.ndarray | None = None,
                 missing: Literal["error", "uniform"] = "uniform",
                 metadata: Mapping[str, Any] | None = None) -> None:
        self.num_children = np.ascontiguousarray(num_children, dtype=np.int16)
        self.child_action = np.ascontiguousarray(child_action, dtype=np.int8)
        self.num_buckets = np.ascontiguousarray(num_buckets, dtype=np.int32)
        self.probs = np.ascontiguousarray(probs, dtype=np.float32)
        self.missing: Literal["error", "uniform"] = check_missing(missing)
        self.metadata: dict[str, Any] = dict(metadata or {})
        n = self.num_children.shape[0]
        if self.num_buckets.shape != (n,):
            raise PolicyLookupError(f"num_buckets needs {n} entries, got "
                                    f"{self.num_buckets.shape}")
        if int(self.num_children.astype(np.int64).sum()) != self.child_action.shape[0]:
            raise PolicyLookupError("child_action length differs from the sum of num_children")
        self.child_start = np.zeros(n, dtype=np.int64)
        if n > 1:
            np.cumsum(self.num_children[:-1].astype(np.int64), out=self.child_start[1:])
        nc = self.num_children.astype(np.int64)
        if row_ptr is None or len(row_ptr) == 0:
            self.storage: Literal["dense", "csr"] = "dense"
            self.row_ptr = np.zeros(0, dtype=np.int64)
            self.row_bucket = np.zeros(0, dtype=np.int32)
            sizes = nc * self.num_buckets.astype(np.int64)
        else:
            self.storage = "csr"
            self.row_ptr = np.ascontiguousarray(row_ptr, dtype=np.int64)
            self.row_bucket = np.ascontiguousarray(row_bucket, dtype=np.int32)
            if self.row_ptr.shape != (n + 1,) or self.row_ptr[0] != 0:
                raise PolicyLookupError(f"row_ptr needs {n + 1} entries starting at 0")
            if np.any(np.diff(self.row_ptr) < 0) or self.row_bucket.shape != (int(
                    self.row_ptr[-1]),):
                raise PolicyLookupError("row_ptr / row_bucket are inconsistent")
            sizes = nc * np.diff(self.row_ptr)
        expect = np.zeros(n, dtype=np.int64)
        if n > 1:
            np.cumsum(sizes[:-1], out=expect[1:])
        if node_offset is None:
            self.node_offset = expect
        else:
            self.node_offset = np.ascontiguousarray(node_offset, dtype=np.int64)
            if not np.array_equal(self.node_offset, expect):
                raise PolicyLookupError("node_offset does not match the row sizes")
        if self.probs.shape != (int(sizes.sum()),):
            raise PolicyLookupError(f"probs needs {int(sizes.sum())} values, got "
                                    f"{self.probs.shape[0]}")

    # ------------------------------------------------------------------ building
    @classmethod
    def from_tree(cls, tree: Any, buckets: tuple[int, int, int, int], probs: np.ndarray, *,
                  metadata: Mapping[str, Any] | None = None,
                  missing: Literal["error", "uniform"] = "uniform") -> IndexedPolicy:
        """Dense policy over an ``ActionTree`` with ``buckets[street]`` buckets per node;
        ``probs`` laid out as ``tree.layout(buckets)``."""
        from pokerlab.kinds import DECISION

        dec = tree.kind == DECISION
        nb = np.where(dec, np.asarray(buckets, dtype=np.int32)[tree.street.astype(np.int64)], 0)
        return cls(num_children=tree.num_children, child_action=tree.child_action,
                   num_buckets=nb, probs=probs, missing=missing, metadata=metadata)

    # ------------------------------------------------------------------ access
    @property
    def num_nodes(self) -> int:
        return int(self.num_children.shape[0])

    def __len__(self) -> int:
        """Number of stored rows (information sets)."""
        if self.storage == "dense":
            return int(np.sum(self.num_buckets.astype(np.int64) * (self.num_children > 0)))
        return int(self.row_ptr[-1])

    @property
    def nbytes(self) -> int:
        return int(sum(getattr(self, a).nbytes for a in _ARRAYS))

    def actions(self, node: int) -> np.ndarray:
        self._check_node(node)
        lo = int(self.child_start[node])
        return self.child_action[lo:lo + int(self.num_children[node])]

    def _check_node(self, node: int) -> None:
        if not 0 <= node < self.num_nodes:
            raise PolicyLookupError(f"node {node} out of range 0..{self.num_nodes - 1}")
        if self.num_children[node] == 0:
            raise PolicyLookupError(f"node {node} is not a decision node")

    def row_start(self, node: int, bucket: int) -> int:
        """Offset of row (node, bucket) in :attr:`probs`, or -1 when a CSR row is absent."""
        self._check_node(node)
        if not 0 <= bucket < int(self.num_buckets[node]):
            raise PolicyLookupError(f"bucket {bucket} out of range 0.."
                                    f"{int(self.num_buckets[node]) - 1} at node {node}")
        k = int(self.num_children[node])
        if self.storage == "dense":
            return int(self.node_offset[node]) + bucket * k
        lo, hi = int(self.row_ptr[node]), int(self.row_ptr[node + 1])
        j = lo + int(np.searchsorted(self.row_bucket[lo:hi], bucket))
        if j < hi and int(self.row_bucket[j]) == bucket:
            return int(self.node_offset[node]) + (j - lo) * k
        return -1

    def probabilities(self, node: int, bucket: int) -> np.ndarray:
        """Probabilities (float64, aligned with :meth:`actions`) of row (node, bucket)."""
        s = self.row_start(node, bucket)
        k = int(self.num_children[node])
        if s < 0:
            if self.missing == "error":
                raise PolicyLookupError(f"no row for node {node}, bucket {bucket}")
            return np.full(k, 1.0 / k)
        row = self.probs[s:s + k].astype(np.float64)
        tot = row.sum()
        return row / tot if tot > 0 else np.full(k, 1.0 / k)

    def action_probabilities_at(self, node: int, bucket: int) -> dict[int, float]:
        p = self.probabilities(node, bucket)
        return {int(a): float(x) for a, x in zip(self.actions(node), p, strict=True)}

    def action_probabilities(self, state: State) -> dict[int, float]:
        fn = getattr(state, "infoset_index", None)
        if fn is None:
            raise PolicyLookupError(
                f"{type(state).__name__} cannot name its information set as (node, bucket); "
                "an IndexedPolicy needs state.infoset_index(player)")
        node, bucket = fn(state.current_player())
        return self.action_probabilities_at(int(node), int(bucket))

    def to_csr(self, *, keep: np.ndarray | None = None) -> IndexedPolicy:
        """CSR copy keeping the rows where ``keep`` (bool per dense row order) is true;
        default: rows that are not uniform."""
        if self.storage == "csr":
            return self
        ptr = [0]
        buckets: list[np.ndarray] = []
        vals: list[np.ndarray] = []
        r0 = 0
        for n in range(self.num_nodes):
            k = int(self.num_children[n])
            nb = int(self.num_buckets[n]) if k else 0
            if nb == 0:
                ptr.append(ptr[-1])
                continue
            block = self.probs[int(self.node_offset[n]):int(self.node_offset[n]) + nb * k]
            rows = block.reshape(nb, k)
            if keep is None:
                mask = np.any(np.abs(rows - 1.0 / k) > 1e-7, axis=1)
            else:
                mask = np.asarray(keep[r0:r0 + nb], dtype=bool)
            r0 += nb
            idx = np.flatnonzero(mask).astype(np.int32)
            buckets.append(idx)
            vals.append(rows[idx].ravel())
            ptr.append(ptr[-1] + idx.size)
        return IndexedPolicy(
            num_children=self.num_children, child_action=self.child_action,
            num_buckets=self.num_buckets,
            probs=np.concatenate(vals) if vals else np.zeros(0, np.float32),
            row_ptr=np.asarray(ptr, dtype=np.int64),
            row_bucket=np.concatenate(buckets) if buckets else np.zeros(0, np.int32),
            missing=self.missing, metadata=self.metadata)

    def allclose(self, other: IndexedPolicy, *, atol: float = 0.0) -> bool:
        return (self.storage == other.storage
                and all(np.array_equal(getattr(self, a), getattr(other, a))
                        for a in _ARRAYS if a != "probs")
                and np.allclose(self.probs, other.probs, atol=atol, rtol=0.0))


# ---------------------------------------------------------------------- file format
def _payload(policy: IndexedPolicy) -> dict[str, np.ndarray]:
    return {
        "num_children": policy.num_children.astype("<i2"),
        "child_action": policy.child_action.astype("i1"),
        "num_buckets": policy.num_buckets.astype("<i4"),
        "node_offset": policy.node_offset.astype("<i8"),
        "probs": policy.probs.astype("<f4"),
        "row_ptr": policy.row_ptr.astype("<i8"),
        "row_bucket": policy.row_bucket.astype("<i4"),
    }


def _checksum(arrays: Mapping[str, np.ndarray], metadata_json: str) -> str:
    parts = [np.ascontiguousarray(arrays[name]).tobytes() for name in _ARRAYS]
    lengths = ",".join(str(len(p)) for p in parts).encode()
    return sha256_bytes(b"indexed|" + lengths + b"|" + metadata_json.encode("utf-8") + b"|"
                        + b"".join(parts))


def save_indexed_policy(policy: IndexedPolicy, path: str | os.PathLike[str]) -> None:
    """Write ``policy`` (versioned, checksummed ``.npz``, no pickle, atomic)."""
    arrays = _payload(policy)
    metadata_json = json.dumps(policy.metadata, sort_keys=True)
    header = {"format": FORMAT_NAME, "kind": INDEXED_KIND, "version": INDEXED_VERSION,
              "storage": policy.storage, "num_nodes": policy.num_nodes,
              "num_infosets": len(policy), "missing": policy.missing,
              "metadata": metadata_json, "sha256": _checksum(arrays, metadata_json)}
    header_arr = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
    buf = io.BytesIO()
    np.savez_compressed(buf, header=header_arr, **arrays)  # type: ignore[arg-type]
    with atomic_path(path) as tmp:
        tmp.write_bytes(buf.getvalue())


def read_archive(path: str | os.PathLike[str]) -> tuple[str, dict[str, Any], Any]:
    p = os.fspath(path)
    raw = read_bytes(p, PolicyFileError, "policy file")
    try:
        check_archive(p, raw)
        z = np.load(io.BytesIO(raw), allow_pickle=False)
        if "header" not in z.files:
            raise PolicyFileError(f"policy file {p!r} has no header (not a pokerlab policy?)")
        header_raw = bytes(z["header"].astype(np.uint8).tobytes())
    except PolicyFileError:
        raise
    except ARCHIVE_ERRORS as exc:
        raise PolicyFileError(f"policy file {p!r} is corrupt or truncated: {exc}") from None
    header = parse_header(p, header_raw)
    return p, header, z


def load_indexed_policy(path: str | os.PathLike[str]) -> IndexedPolicy:
    """Read a file written by :func:`save_indexed_policy` (:class:`PolicyFileError` for a
    missing, corrupt, foreign, wrong-version or tampered file)."""
    p, header, z = read_archive(path)
    if header.get("kind") != INDEXED_KIND:
        raise PolicyFileError(f"policy file {p!r} is a tabular policy, not an indexed one")
    if header.get("version") != INDEXED_VERSION:
        raise PolicyFileError(f"policy file {p!r} has indexed version {header.get('version')!r};"
                              f" this pokerlab reads version {INDEXED_VERSION}")
    try:
        missing_arrays = set(_ARRAYS) - set(z.files)
        if missing_arrays:
            raise PolicyFileError(f"policy file {p!r} lacks arrays {sorted(missing_arrays)}")
        arrays = {name: np.array(z[name]) for name in _ARRAYS}
    except PolicyFileError:
        raise
    except ARCHIVE_ERRORS as exc:
        raise PolicyFileError(f"policy file {p!r} is corrupt or truncated: {exc}") from None
    metadata_json = header.get("metadata", "{}")
    if not isinstance(metadata_json, str):
        raise PolicyFileError(f"policy file {p!r} has malformed metadata")
    digest = _checksum(arrays, metadata_json)
    if digest != header.get("sha256"):
        raise PolicyFileError(f"policy file {p!r} fails its checksum (stored "
                              f"{header.get('sha256')!r}, computed {digest!r})")
    missing = header.get("missing", "uniform")
    if missing not in ("error", "uniform"):
        raise PolicyFileError(f"policy file {p!r} has bad 'missing' value {missing!r}")
    try:
        return IndexedPolicy(num_children=arrays["num_children"],
                             child_action=arrays["child_action"],
                             num_buckets=arrays["num_buckets"], probs=arrays["probs"],
                             node_offset=arrays["node_offset"],
                             row_ptr=arrays["row_ptr"], row_bucket=arrays["row_bucket"],
                             missing=missing, metadata=json.loads(metadata_json))
    except PolicyLookupError as exc:
        raise PolicyFileError(f"policy file {p!r} is inconsistent: {exc}") from None


def policy_file_kind(path: str | os.PathLike[str]) -> str:
    """``"tabular"`` or ``"indexed"`` (from the header only)."""
    _, header, _ = read_archive(path)
    return str(header.get("kind", "tabular"))


def load_any_policy(path: str | os.PathLike[str]) -> TabularPolicy | IndexedPolicy:
    """Read a policy file of either kind (dispatch on the header's ``kind``)."""
    if policy_file_kind(path) == INDEXED_KIND:
        return load_indexed_policy(path)
    return load_policy(path)
