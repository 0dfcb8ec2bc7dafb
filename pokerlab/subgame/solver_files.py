"""The spot file of a :class:`~pokerlab.subgame.solver.SpotSolver`: a versioned,
sha256-checksummed ``.npz`` (no pickle, written atomically) with the spot, the solve
configuration, the regrets and strategy sums and the node locks; :class:`SolverFiles` gives
the solver its ``save`` and ``load``."""

from __future__ import annotations

import io
import json
import os
import zipfile
from typing import Any, Self

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.io import atomic_path, sha256_bytes
from pokerlab.subgame.solve_config import SolveConfig
from pokerlab.subgame.spot import Root, Spot, SpotError, TreeConfig, make_spot

FORMAT_NAME = "pokerlab-spot"
FORMAT_VERSION = 1


class SpotFileError(PokerlabError):
    """A saved spot file is malformed, of an unknown version or fails its checksum."""


class SolverFiles:
    """``save`` / ``load`` of :class:`~pokerlab.subgame.solver.SpotSolver` (its base class):
    the arrays and counters named here are the solver's."""

    spot: Spot
    config: SolveConfig
    leaf_nodes: Any
    iteration: int
    cpu_seconds: float
    history: list[tuple[int, float, float]]
    regrets: np.ndarray
    ssum: np.ndarray
    rscale: np.ndarray
    sscale: np.ndarray
    pred: np.ndarray
    lock_ptr: np.ndarray
    lock_data: np.ndarray

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the solved spot (``.npz``: versioned, sha256-checksummed, no pickle, atomic)."""
        if self.leaf_nodes:
            raise SpotError("a depth-limited solve is not saved: its leaf values come from a "
                            "model outside the file")
        header_core = {"format": FORMAT_NAME, "version": FORMAT_VERSION,
                       "spot": self.spot.to_json(), "config": self.config.to_json(),
                       "iteration": self.iteration, "cpu_seconds": self.cpu_seconds,
                       "history": self.history}
        arrays = {"ranges": self.spot.ranges.astype("<f8"),
                  "regrets": self.regrets.astype("<i2" if self.config.compress else "<f4"),
                  "ssum": self.ssum.astype("<u2" if self.config.compress else "<f4"),
                  "rscale": self.rscale.astype("<f4"), "sscale": self.sscale.astype("<f4"),
                  "lock_ptr": self.lock_ptr.astype("<i8"), "lock_data": self.lock_data.astype("<f8")}
        if self.pred.shape[0]:  # PDCFR+'s predicted regrets: what the next iteration plays
            arrays["pred"] = self.pred.astype("<f4")
        core = json.dumps(header_core, sort_keys=True)
        header = {"core": core, "sha256": checksum(arrays, core)}
        buf = io.BytesIO()
        np.savez(buf, header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8), **arrays)  # type: ignore[arg-type]
        with atomic_path(path) as tmp:
            tmp.write_bytes(buf.getvalue())

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, threads: int | None = None) -> Self:
        """Read a file written by :meth:`save` (one clear :class:`SpotFileError` otherwise)."""
        p = os.fspath(path)
        try:
            with open(p, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise SpotFileError(f"cannot read spot file {p!r}: {exc.strerror}") from None
        if not raw.startswith(b"PK"):
            raise SpotFileError(f"{p!r} is not a pokerlab spot file (not an .npz archive)")
        names = ("ranges", "regrets", "ssum", "lock_ptr", "lock_data")
        try:
            with np.load(io.BytesIO(raw), allow_pickle=False) as z:
                if "header" not in z.files or any(n not in z.files for n in names):
                    raise SpotFileError(f"{p!r} is not a pokerlab spot file (arrays missing)")
                header = json.loads(bytes(z["header"].tobytes()).decode("utf-8"))
                # the scales of 16-bit storage (absent in files of uncompressed solves
                # written before compression existed)
                arrays = {n: z[n] for n in (*names, "rscale", "sscale", "pred") if n in z.files}
        except SpotFileError:
            raise
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError, UnicodeDecodeError) as exc:
            raise SpotFileError(f"spot file {p!r} is corrupt or truncated: {exc}") from None
        if not isinstance(header, dict) or not isinstance(header.get("core"), str):
            raise SpotFileError(f"{p!r} is not a pokerlab spot file (bad header)")
        if checksum(arrays, header["core"]) != header.get("sha256"):
            raise SpotFileError(f"spot file {p!r} fails its checksum (corrupt)")
        core = json.loads(header["core"])
        if core.get("format") != FORMAT_NAME:
            raise SpotFileError(f"{p!r} is not a pokerlab spot file")
        if core.get("version") != FORMAT_VERSION:
            raise SpotFileError(f"spot file {p!r} has version {core.get('version')!r}; this pokerlab reads "
                                f"version {FORMAT_VERSION}")
        sj = core["spot"]
        spot = make_spot(board=sj["board"], pot=sj["pot"], stack=sj["stack"], oop=arrays["ranges"][0],
                         ip=arrays["ranges"][1], tree=TreeConfig.from_json(sj["tree"]), rake=sj["rake"],
                         rake_cap=sj["rake_cap"], big_blind=sj["big_blind"],
                         root=Root.from_json(sj.get("root")))
        cfg = SolveConfig(**core["config"])
        if (cfg.compress and ("rscale" not in arrays or "sscale" not in arrays)) or (
                cfg.predictive and "pred" not in arrays):
            raise SpotFileError(f"{p!r} is not a pokerlab spot file (arrays missing)")
        make: Any = cls  # the solver class: SpotSolver(spot, config, threads=...)
        solver = make(spot, cfg, threads=threads)
        if (solver.regrets.shape != arrays["regrets"].shape or solver.ssum.shape != arrays["ssum"].shape
                or solver.regrets.dtype != arrays["regrets"].dtype
                or solver.ssum.dtype != arrays["ssum"].dtype
                or solver.rscale.shape != arrays.get("rscale", solver.rscale).shape
                or solver.sscale.shape != arrays.get("sscale", solver.sscale).shape
                or solver.pred.shape != arrays.get("pred", solver.pred).shape
                or solver.lock_ptr.shape != arrays["lock_ptr"].shape):
            raise SpotFileError(f"spot file {p!r} does not fit its own spot (written by another version?)")
        solver.regrets[:] = arrays["regrets"]
        solver.ssum[:] = arrays["ssum"]
        if "rscale" in arrays and "sscale" in arrays:
            solver.rscale[:] = arrays["rscale"]
            solver.sscale[:] = arrays["sscale"]
        if "pred" in arrays:
            solver.pred[:] = arrays["pred"]
        solver.lock_ptr[:] = arrays["lock_ptr"]
        solver.lock_data = arrays["lock_data"].astype(np.float64)
        solver.iteration = int(core["iteration"])
        solver.cpu_seconds = float(core.get("cpu_seconds", 0.0))
        solver.history = [tuple(h) for h in core.get("history", [])]  # type: ignore[misc]
        return solver


def checksum(arrays: dict[str, np.ndarray], core: str) -> str:
    parts = [np.ascontiguousarray(arrays[n]).tobytes() for n in sorted(arrays)]
    lengths = ",".join(str(len(x)) for x in parts).encode()
    return sha256_bytes(b"spot|" + lengths + b"|" + core.encode("utf-8") + b"|" + b"".join(parts))
