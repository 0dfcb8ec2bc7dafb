"""Tabular policies (information-state string -> probabilities) and their file format."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

import numpy as np

from pokerlab.errors import PokerlabError, PolicyFileError
from pokerlab.games.protocol import State
from pokerlab.io import ARCHIVE_ERRORS, atomic_path, read_bytes, sha256_bytes
from pokerlab.policy.base import Policy

FORMAT_NAME = "pokerlab-policy"
FORMAT_VERSION = 1


class PolicyLookupError(PokerlabError, KeyError):
    """A tabular policy has no entry for an information state (or its actions differ)."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


def check_missing(missing: str) -> Literal["error", "uniform"]:
    """``missing`` (what a policy does for a key it lacks) checked: ``"error"`` or
    ``"uniform"``; anything else raises :class:`PolicyLookupError`."""
    if missing == "error":
        return "error"
    if missing == "uniform":
        return "uniform"
    raise PolicyLookupError(f"missing must be 'error' or 'uniform', got {missing!r}")


class TabularPolicy(Policy):
    """A policy given by a table ``information-state string -> distribution``.

    Stored flat: ``keys[i]`` owns ``actions[offsets[i]:offsets[i+1]]`` (legal action ids,
    ascending) and ``probs[...]`` of the same slice.  ``missing`` says what
    :meth:`action_probabilities` does for a key not in the table: ``"error"`` raises
    :class:`PolicyLookupError`, ``"uniform"`` plays uniformly over the legal actions.
    ``metadata`` (JSON-able) travels with the policy into its file.
    """

    def __init__(
        self,
        *,
        keys: Sequence[str],
        offsets: np.ndarray | Sequence[int],
        actions: np.ndarray | Sequence[int],
        probs: np.ndarray | Sequence[float],
        missing: Literal["error", "uniform"] = "error",
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        self._keys = list(keys)
        self._offsets = np.ascontiguousarray(offsets, dtype=np.int64)
        self._actions = np.ascontiguousarray(actions, dtype=np.int64)
        self._probs = np.ascontiguousarray(probs, dtype=np.float64)
        self.missing: Literal["error", "uniform"] = check_missing(missing)
        self.metadata: dict[str, Any] = dict(metadata or {})
        n = len(self._keys)
        if self._offsets.shape != (n + 1,) or (n + 1 > 0 and self._offsets[0] != 0):
            raise PolicyLookupError(f"offsets must have length {n + 1} and start at 0")
        if np.any(np.diff(self._offsets) < 1):
            raise PolicyLookupError("every information state needs at least one action")
        n_slots = int(self._offsets[-1])
        if self._actions.shape != (n_slots,) or self._probs.shape != self._actions.shape:
            raise PolicyLookupError("actions/probs length does not match offsets")
        self._index = {k: i for i, k in enumerate(self._keys)}
        if len(self._index) != n:
            raise PolicyLookupError("duplicate information-state keys")

    # ------------------------------------------------------------------ building
    @classmethod
    def from_dict(
        cls,
        table: Mapping[str, Mapping[int, float]],
        *,
        missing: Literal["error", "uniform"] = "error",
        metadata: Mapping[str, Any] | None = None,
    ) -> TabularPolicy:
        """Build from ``{key: {action: probability}}`` (actions are sorted)."""
        keys = list(table)
        offsets = [0]
        actions: list[int] = []
        probs: list[float] = []
        for k in keys:
            row = table[k]
            for a in sorted(row):
                actions.append(int(a))
                probs.append(float(row[a]))
            offsets.append(len(actions))
        return cls(keys=keys, offsets=offsets, actions=actions, probs=probs,
                   missing=missing, metadata=metadata)

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[tuple[str, Sequence[int] | np.ndarray, Sequence[float] | np.ndarray]],
        *,
        missing: Literal["error", "uniform"] = "error",
        metadata: Mapping[str, Any] | None = None,
    ) -> TabularPolicy:
        """Build from ``(key, legal_actions, probabilities)`` rows."""
        keys: list[str] = []
        offsets = [0]
        acts: list[np.ndarray] = []
        prs: list[np.ndarray] = []
        for key, a, p in rows:
            keys.append(key)
            acts.append(np.asarray(a, dtype=np.int64))
            prs.append(np.asarray(p, dtype=np.float64))
            offsets.append(offsets[-1] + len(acts[-1]))
        actions = np.concatenate(acts) if acts else np.zeros(0, np.int64)
        probs = np.concatenate(prs) if prs else np.zeros(0, np.float64)
        return cls(keys=keys, offsets=offsets, actions=actions, probs=probs,
                   missing=missing, metadata=metadata)

    # ------------------------------------------------------------------ access
    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def keys(self) -> list[str]:
        return list(self._keys)

    @property
    def offsets(self) -> np.ndarray:
        return self._offsets

    @property
    def actions(self) -> np.ndarray:
        return self._actions

    @property
    def probs(self) -> np.ndarray:
        return self._probs

    def legal_actions(self, key: str) -> np.ndarray:
        i = self._lookup(key)
        return self._actions[self._offsets[i]:self._offsets[i + 1]]

    def probabilities(self, key: str) -> np.ndarray:
        """Probability vector aligned with :meth:`legal_actions` of ``key``."""
        i = self._lookup(key)
        return self._probs[self._offsets[i]:self._offsets[i + 1]]

    def policy_for_key(self, key: str) -> dict[int, float]:
        i = self._lookup(key)
        lo, hi = int(self._offsets[i]), int(self._offsets[i + 1])
        return {int(a): float(p) for a, p in zip(self._actions[lo:hi], self._probs[lo:hi],
                                                 strict=True)}

    def to_dict(self) -> dict[str, dict[int, float]]:
        return {k: self.policy_for_key(k) for k in self._keys}

    def _lookup(self, key: str) -> int:
        try:
            return self._index[key]
        except KeyError:
            raise PolicyLookupError(f"no policy entry for information state {key!r}") from None

    def action_probabilities(self, state: State) -> dict[int, float]:
        key = state.information_state_string(state.current_player())
        i = self._index.get(key)
        legal = state.legal_actions()
        if i is None:
            if self.missing == "uniform":
                return {a: 1.0 / len(legal) for a in legal}
            raise PolicyLookupError(f"no policy entry for information state {key!r}")
        lo, hi = int(self._offsets[i]), int(self._offsets[i + 1])
        acts = self._actions[lo:hi]
        if len(acts) != len(legal) or any(int(x) != y for x, y in zip(acts, legal, strict=True)):
            raise PolicyLookupError(
                f"policy actions {acts.tolist()} differ from legal actions {legal} at {key!r}")
        return {int(a): float(p) for a, p in zip(acts, self._probs[lo:hi], strict=True)}

    def allclose(self, other: TabularPolicy, *, atol: float = 1e-12) -> bool:
        """Same keys, same actions and probabilities within ``atol``."""
        if self._keys != other._keys:
            return False
        return (np.array_equal(self._offsets, other._offsets)
                and np.array_equal(self._actions, other._actions)
                and np.allclose(self._probs, other._probs, atol=atol, rtol=0.0))


# ---------------------------------------------------------------------- file format
def _payload(policy: TabularPolicy) -> dict[str, np.ndarray]:
    encoded = [k.encode("utf-8") for k in policy.keys()]
    key_bytes = np.frombuffer(b"".join(encoded), dtype=np.uint8).copy()
    key_lengths = np.array([len(b) for b in encoded], dtype="<i8")
    return {
        "key_bytes": key_bytes,
        "key_lengths": key_lengths,
        "offsets": policy.offsets.astype("<i8"),
        "actions": policy.actions.astype("<i8"),
        "probs": policy.probs.astype("<f8"),
    }


_ARRAY_ORDER = ("key_bytes", "key_lengths", "offsets", "actions", "probs")


def _checksum(arrays: Mapping[str, np.ndarray], metadata_json: str) -> str:
    parts = [np.ascontiguousarray(arrays[name]).tobytes() for name in _ARRAY_ORDER]
    lengths = ",".join(str(len(p)) for p in parts).encode()
    return sha256_bytes(lengths + b"|" + metadata_json.encode("utf-8") + b"|" + b"".join(parts))


def save_tabular_policy(policy: Policy, path: str | os.PathLike[str]) -> None:
    """Write a :class:`TabularPolicy` to ``path`` (``.npz``: versioned, sha256-checksummed,
    no pickle); :func:`pokerlab.policy.files.save_policy` writes either kind.

    The write is atomic: ``path`` is either the old file or the complete new one.
    """
    if not isinstance(policy, TabularPolicy):
        raise PolicyFileError(
            f"only TabularPolicy can be saved, got {type(policy).__name__}; tabulate it first "
            "(pokerlab.evaluation.tabulate_policy)")
    arrays = _payload(policy)
    metadata_json = json.dumps(policy.metadata, sort_keys=True)
    header = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "num_infosets": len(policy),
        "missing": policy.missing,
        "metadata": metadata_json,
        "sha256": _checksum(arrays, metadata_json),
    }
    header_arr = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
    buf = io.BytesIO()
    np.savez_compressed(buf, header=header_arr, key_bytes=arrays["key_bytes"],
                        key_lengths=arrays["key_lengths"], offsets=arrays["offsets"],
                        actions=arrays["actions"], probs=arrays["probs"])
    with atomic_path(path) as tmp:
        tmp.write_bytes(buf.getvalue())


def check_archive(p: str, raw: bytes) -> None:
    """A policy file is a zip (npz) archive; anything else is named as not a policy file
    (before NumPy, whose message for other files talks about pickles)."""
    if not raw.startswith(b"PK"):
        raise PolicyFileError(f"policy file {p!r} is not a pokerlab policy (not an .npz archive)")


def parse_header(p: str, header_raw: bytes) -> dict[str, Any]:
    """The JSON header of a policy file (both policy kinds), or a clear PolicyFileError."""
    try:
        header = json.loads(header_raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise PolicyFileError(f"policy file {p!r} has an unreadable header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        raise PolicyFileError(f"policy file {p!r} is not a {FORMAT_NAME} file")
    return header


def load_policy(path: str | os.PathLike[str]) -> TabularPolicy:
    """Read a policy written by :func:`save_policy`.

    Raises :class:`PolicyFileError` naming the problem for a missing, truncated or corrupt
    file, a foreign format, an unknown version or a checksum mismatch.
    """
    p = os.fspath(path)
    raw = read_bytes(p, PolicyFileError, "policy file")
    try:
        check_archive(p, raw)
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            names = set(z.files)
            if "header" in names and b'"kind": "indexed"' in z["header"].tobytes():
                raise PolicyFileError(f"policy file {p!r} is an indexed policy; read it with "
                                      "pokerlab.policy.load_any_policy")
            missing_arrays = {"header", *_ARRAY_ORDER} - names
            if missing_arrays:
                raise PolicyFileError(
                    f"policy file {p!r} lacks arrays {sorted(missing_arrays)} (not a pokerlab "
                    "policy?)")
            header_raw = bytes(z["header"].astype(np.uint8).tobytes())
            arrays = {name: z[name] for name in _ARRAY_ORDER}
    except PolicyFileError:
        raise
    except ARCHIVE_ERRORS as exc:
        raise PolicyFileError(f"policy file {p!r} is corrupt or truncated: {exc}") from None
    header = parse_header(p, header_raw)
    if header.get("version") != FORMAT_VERSION:
        raise PolicyFileError(
            f"policy file {p!r} has version {header.get('version')!r}; this pokerlab reads "
            f"version {FORMAT_VERSION}")
    metadata_json = header.get("metadata", "{}")
    if not isinstance(metadata_json, str):
        raise PolicyFileError(f"policy file {p!r} has malformed metadata")
    digest = _checksum(arrays, metadata_json)
    if digest != header.get("sha256"):
        raise PolicyFileError(
            f"policy file {p!r} fails its checksum (stored {header.get('sha256')!r}, "
            f"computed {digest!r})")
    lengths = arrays["key_lengths"].astype(np.int64)
    kb = arrays["key_bytes"].astype(np.uint8).tobytes()
    if int(lengths.sum()) != len(kb) or np.any(lengths < 0):
        raise PolicyFileError(f"policy file {p!r} has inconsistent key lengths")
    keys: list[str] = []
    pos = 0
    for n in lengths.tolist():
        keys.append(kb[pos:pos + n].decode("utf-8"))
        pos += n
    missing = header.get("missing", "error")
    if missing not in ("error", "uniform"):
        raise PolicyFileError(f"policy file {p!r} has bad 'missing' value {missing!r}")
    try:
        return TabularPolicy(keys=keys, offsets=arrays["offsets"], actions=arrays["actions"],
                             probs=arrays["probs"], missing=missing,
                             metadata=json.loads(metadata_json))
    except PolicyLookupError as exc:
        raise PolicyFileError(f"policy file {p!r} is inconsistent: {exc}") from None
