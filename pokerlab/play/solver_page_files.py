"""Saving and loading the solves of the solver page (:class:`SpotFiles`, a base class of
:class:`~pokerlab.play.solver_page.SolverHub`): a finished solve as the bytes of a spot
file, and an uploaded spot file (size-checked before it is read) as a new session."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.play.page_http import one_line
from pokerlab.play.solver_fields import SolverPageConfig, SolverPageError
from pokerlab.play.solver_jobs import Job


class SpotFiles:
    """Spot files of :class:`~pokerlab.play.solver_page.SolverHub`: the state and the
    helpers named here are the hub's."""

    cfg: SolverPageConfig
    mu: threading.Lock
    closed: bool
    _expire: Callable[[], None]
    _solved: Callable[[str], Job]
    _admit: Callable[..., None]

    # ----------------------------------------------------------------- files
    def save_bytes(self, sid: str) -> tuple[bytes, str]:
        """The finished solve of ``sid`` as the file ``pokerlab spot solve --out`` writes
        (versioned, checksummed ``.npz``, no pickle) and a file name for it."""
        import tempfile
        from pathlib import Path

        job = self._solved(sid)
        if job.active:
            raise SolverPageError("the solve is still running: stop it or wait for it to end, then save", 409)
        if job.solver.iteration <= 0:
            raise SolverPageError("nothing solved to save: the solve stopped before its first iteration", 409)
        with tempfile.TemporaryDirectory(prefix="pokerlab-save-") as d:
            p = Path(d) / "spot.npz"
            with job.lock:
                job.solver.save(p)
            data = p.read_bytes()
        board = job.spot.board_str().replace(" ", "")
        return data, f"pokerlab-spot-{board}-{job.solver.iteration}.npz"

    def load_bytes(self, raw: bytes, client: str = "") -> dict[str, Any]:
        """A solve saved by :meth:`save_bytes` (or ``pokerlab spot solve --out``) as a new
        finished session of ``client`` (off the event loop).  A damaged or foreign file is
        one 400 line; a file over the size cap or a spot over the memory limit is refused
        before the solver is built."""
        import tempfile
        from pathlib import Path

        from pokerlab.subgame import SpotSolver

        c = self.cfg
        cap = min(c.max_upload_bytes, c.max_memory)
        if self.closed:
            raise SolverPageError("the server is shutting down", 503)
        if not raw:
            raise SolverPageError("the uploaded file is empty: choose a spot file saved by this page "
                                  "or by 'pokerlab spot solve --out'")
        if len(raw) > cap:
            raise SolverPageError(f"the uploaded file is too large: {len(raw):,} bytes, at most {cap:,}", 413)
        with tempfile.TemporaryDirectory(prefix="pokerlab-load-") as d:
            p = Path(d) / "upload.npz"
            p.write_bytes(raw)
            size = self._file_size(p)
            try:
                solver = SpotSolver.load(p, threads=c.threads)
            except PokerlabError as exc:
                msg = one_line(exc).replace(repr(str(p)), "the uploaded file")
                msg = msg.replace(str(p), "the uploaded file")
                raise SolverPageError(f"cannot load the file: {msg}") from None
            except MemoryError:
                raise SolverPageError("not enough memory for this spot on the server", 503) from None
            except Exception:
                raise SolverPageError("cannot load the file: it is not a pokerlab spot file "
                                      "(corrupt or another kind of file)") from None
        job = Job(session=secrets.token_urlsafe(24), spot=solver.spot, size=size,
                  target_pct=c.default_target_pct, max_iterations=max(1, int(solver.iteration)),
                  owner=client, compress=solver.config.compress,
                  max_seconds=c.max_seconds, solver=solver, config=solver.config, source="loaded",
                  iteration=int(solver.iteration), reason="loaded",
                  history=[(int(h[0]), float(h[2])) for h in solver.history if len(h) >= 3])
        job.message = f"loaded from a file: {solver.iteration:,} iterations"
        job.file_locks = bool(np.any(solver.lock_ptr >= 0))
        if solver.iteration > 0:
            chips, pct = solver.exploitability()
            job.exploitability = (float(chips), float(pct))
            if not job.history or job.history[-1][0] != solver.iteration:
                job.history.append((int(solver.iteration), float(pct)))
            job.values = tuple(float(v) for v in solver.values())  # type: ignore[assignment]
            job.equity = float(solver.equity())
        job.state = "done"
        job.finished = job.last_access = time.monotonic()
        with self.mu:
            self._expire()
            self._admit(job, running=False)
        return job.status()

    def _file_size(self, path: Any) -> Any:
        """The size of a saved spot read from its header, counted (never built) under the
        page's limits before the solver is built (one 400 line for a file that is no spot
        file or a spot over the limits)."""
        import json

        from pokerlab.subgame import SolveConfig, make_spot
        from pokerlab.subgame.spot import Root, TreeConfig

        try:
            with np.load(path, allow_pickle=False) as z:
                header = json.loads(bytes(z["header"].tobytes()).decode("utf-8"))
                core = json.loads(header["core"])
                ranges = np.asarray(z["ranges"], dtype=np.float64)
            sj = core["spot"]
            spot = make_spot(board=sj["board"], pot=sj["pot"], stack=sj["stack"], oop=ranges[0], ip=ranges[1],
                             tree=TreeConfig.from_json(sj["tree"]), rake=sj["rake"], rake_cap=sj["rake_cap"],
                             big_blind=sj["big_blind"], root=Root.from_json(sj.get("root")))
            cfg = SolveConfig(**core["config"])
        except Exception:
            raise SolverPageError("cannot load the file: it is not a pokerlab spot file "
                                  "(corrupt or another kind of file)") from None
        from pokerlab.subgame import estimate_size
        from pokerlab.subgame.tree import TreeLimitError

        c = self.cfg
        try:
            size = estimate_size(spot, isomorphism=cfg.isomorphism, compress=cfg.compress,
                                 max_nodes=c.max_tree_nodes,
                                 max_memory=max(c.max_estimate_memory, c.max_memory))
        except TreeLimitError:
            raise SolverPageError("cannot load the file: its spot is over the server's limits") from None
        if size.memory_bytes > c.max_memory:
            raise SolverPageError(f"cannot load the file: its spot needs about "
                                  f"{size.memory_bytes / 1e6:,.1f} MB, "
                                  f"over the server's limit of {c.max_memory / 1e6:,.1f} MB")
        return size
