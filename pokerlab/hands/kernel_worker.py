"""The hand importer's numba kernels in a second process.

Loading numba and the cached replay kernels costs about a second of start-up in a fresh
process, about as long as reading and parsing 10,000 hands.  ``pokerlab hands import``
therefore starts this worker first (:meth:`KernelWorker.start`, which imports nothing
but the standard library): while it loads the kernels, the command imports DuckDB,
opens the database and parses the files; each batch's kernel inputs then go to the
worker, and its outputs come back, as flat arrays over two pipes.  The command's own
process never imports numba (unless the worker fails: then that batch and every later
one runs in-process, with the same result).

Messages are raw array bytes after a small JSON header (dtype, shape of each array): no
pickle.  Strings travel as UTF-8 bytes joined by newlines (an action string holding a
newline, which only a TOML escape can produce, makes that batch run in-process).

The worker hides SciPy from numba: numba's CPU target imports ``scipy.linalg`` at
start-up only to check that BLAS is there for ``np.dot``/``np.convolve``; the replay
kernels use no linear algebra, and the check costs 0.2-0.3 s (``-X importtime``).
"""

from __future__ import annotations

import json
import os
import queue
import select
import struct
import subprocess
import sys
import threading
from collections import deque
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = ["KernelWorker", "main"]

_LEN = struct.Struct("<Q")

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_WORKER_CODE = (
    f"import sys; sys.path.insert(0, {_ROOT!r}); "
    "from pokerlab.hands.kernel_worker import main; main()"
)
"""The child's program: this very ``pokerlab`` (not one the working folder may hold)."""


def _read_exact(fh: IO[bytes], n: int) -> bytearray | None:
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = fh.readinto(view[got:])  # type: ignore[attr-defined]
        if not k:
            return None
        got += k
    return buf


def _write_all(fh: IO[bytes], data: Any) -> None:
    view = memoryview(data).cast("B")
    while len(view):
        k = fh.write(view)
        if k is None:  # a non-blocking stream that is full: not used here
            raise OSError("stream not ready")
        view = view[k:]


def write_arrays(fh: IO[bytes], arrays: list[np.ndarray]) -> None:
    """One message: header length, JSON header ``[[dtype, shape], ...]``, raw bytes."""
    import numpy as np

    arrays = [np.ascontiguousarray(a) for a in arrays]
    header = json.dumps([[a.dtype.str, list(a.shape)] for a in arrays]).encode()
    _write_all(fh, _LEN.pack(len(header)) + header)
    for a in arrays:
        if a.nbytes:
            _write_all(fh, a.reshape(-1).view(np.uint8))
    fh.flush()


def read_arrays(fh: IO[bytes]) -> list[np.ndarray] | None:
    """The arrays of one message (writable), or ``None`` at the end of the stream."""
    import numpy as np

    head = _read_exact(fh, _LEN.size)
    if head is None:
        return None
    (n,) = _LEN.unpack(head)
    raw = _read_exact(fh, n)
    if raw is None:
        raise EOFError("truncated message header")
    out: list[np.ndarray] = []
    for dt, shape in json.loads(raw.decode()):
        dtype = np.dtype(dt)
        if dtype.hasobject:
            raise ValueError("object arrays are not sent")
        count = 1
        for s in shape:
            count *= int(s)
        data = _read_exact(fh, count * dtype.itemsize) if count else bytearray()
        if data is None:
            raise EOFError("truncated message")
        out.append(np.frombuffer(data, dtype=dtype).reshape(shape))
    return out


def _encode_request(
    action_lists: list[list[str]], arrays: dict[str, np.ndarray]
) -> list[np.ndarray] | None:
    """The message for one batch, or ``None`` when it cannot travel (a newline inside an
    action string)."""
    import numpy as np

    from pokerlab.hands.fastimport import KERNEL_ARRAYS

    counts = np.fromiter(map(len, action_lists), dtype=np.int64, count=len(action_lists))
    flat = [a for lst in action_lists for a in lst]
    text = "\n".join(flat)
    if text.count("\n") != max(len(flat) - 1, 0):
        return None
    blob = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    return [blob, counts, *(arrays[k] for k in KERNEL_ARRAYS)]


def _decode_request(msg: list[np.ndarray]) -> tuple[list[list[str]], dict[str, np.ndarray]]:
    from pokerlab.hands.fastimport import KERNEL_ARRAYS

    blob, counts, *arrs = msg
    total = int(counts.sum())
    flat = blob.tobytes().decode("utf-8").split("\n") if total else []
    action_lists: list[list[str]] = []
    i = 0
    for c in counts.tolist():
        action_lists.append(flat[i : i + c])
        i += c
    return action_lists, dict(zip(KERNEL_ARRAYS, arrs, strict=True))


def _encode_reply(out: tuple[np.ndarray, ...]) -> list[np.ndarray]:
    import numpy as np

    acts, a_off, boards, *rest = out
    text = "\n".join(boards.tolist()).encode("utf-8")
    return [acts, a_off, np.frombuffer(text, dtype=np.uint8), *rest]


def _decode_reply(msg: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    import numpy as np

    acts, a_off, blob, *rest = msg
    H = len(a_off) - 1
    boards = np.empty(H, dtype=object)
    if H:
        parts = blob.tobytes().decode("utf-8").split("\n")
        if len(parts) != H:
            raise ValueError("bad boards in the worker's reply")
        boards[:] = parts
    return (acts, a_off, boards, *rest)


class _NoScipy:
    """A meta-path finder that makes ``import scipy`` fail (inside the worker only)."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> None:
        if name == "scipy" or name.startswith("scipy."):
            raise ImportError(f"{name} is not used by the kernel worker")
        return None


def _warm_up() -> None:
    """Load both kernels from the numba cache (a tiny heads-up hand)."""
    import numpy as np

    from pokerlab.hands.fastimport import run_kernels

    arrays = {
        "n_players": np.array([2], np.int64),
        "starting": np.array([200, 200], np.int64),
        "antes": np.zeros(2, np.int64),
        "blinds": np.array([1, 2], np.int64),
        "min_bet": np.array([2], np.int64),
        "fin": np.zeros(2, np.float64),
        "has_fin": np.zeros(1, np.bool_),
        "win": np.zeros(2, np.float64),
        "has_win": np.zeros(1, np.bool_),
        "rake": np.array([-1], np.int64),
    }
    run_kernels([["d dh p1 AsKs", "d dh p2 QdQc", "p2 f"]], arrays)


def main() -> None:
    """Serve kernel requests on stdin/stdout until stdin closes, then exit at once.

    ``os._exit``: every reply is already flushed, and the interpreter's own shutdown
    (numba's exit handlers, freeing modules) would add a tenth of a second or more to
    the command, which waits for this process.
    """
    sys.meta_path.insert(0, _NoScipy())  # type: ignore[arg-type]
    from pokerlab.hands.fastimport import run_kernels

    _warm_up()
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        msg = read_arrays(inp)
        if msg is None:
            break
        action_lists, arrays = _decode_request(msg)
        write_arrays(out, _encode_reply(run_kernels(action_lists, arrays)))
    out.flush()
    os._exit(0)


class _Handle:
    """One batch submitted to the worker; :meth:`result` waits for it."""

    __slots__ = ("worker", "action_lists", "arrays", "out")

    def __init__(
        self, worker: KernelWorker, action_lists: list[list[str]], arrays: dict[str, np.ndarray]
    ) -> None:
        self.worker = worker
        self.action_lists = action_lists
        self.arrays = arrays
        self.out: tuple[np.ndarray, ...] | None = None

    def result(self) -> tuple[np.ndarray, ...]:
        return self.worker._result(self)

    def ready(self) -> bool:
        """Whether :meth:`result` can be had without waiting for the worker to compute."""
        return self.out is not None or self.worker._ready(self)


class KernelWorker:
    """The replay kernels in a child process (:func:`main`, with this ``pokerlab`` first on
    the child's path).

    ``submit`` returns at once (a thread writes the request); results are read in
    order.  If the child cannot be started or fails, the batches are replayed in this
    process instead (same rows); ``fallbacks`` counts them.  One worker serves one
    import: :meth:`HandDB.import_hands` calls :meth:`finish` after its last batch.
    """

    def __init__(self, proc: subprocess.Popen[bytes] | None) -> None:
        self.proc = proc
        self.broken = proc is None
        self.fallbacks = 0
        self._finished = False
        self._waiting: deque[_Handle] = deque()
        self._outbox: queue.Queue[list[np.ndarray] | None] = queue.Queue()
        self._sender: threading.Thread | None = None
        if proc is not None:
            self._sender = threading.Thread(
                target=self._send_loop, name="hands-kernel-send", daemon=True
            )
            self._sender.start()

    @classmethod
    def start(cls) -> KernelWorker:
        """Start the child now (it begins loading numba at once)."""
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", _WORKER_CODE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,  # unbuffered pipes: select() on stdout sees every unread byte
            )
        except OSError:
            proc = None
        return cls(proc)

    # -- parent side -----------------------------------------------------------------------

    def submit(self, action_lists: list[list[str]], arrays: dict[str, np.ndarray]) -> _Handle:
        h = _Handle(self, action_lists, arrays)
        msg = None if self.broken or self._finished else _encode_request(action_lists, arrays)
        if msg is None:
            h.out = self._local(h)
        else:
            self._waiting.append(h)
            self._outbox.put(msg)
        return h

    def _local(self, h: _Handle) -> tuple[np.ndarray, ...]:
        from pokerlab.hands.fastimport import run_kernels

        self.fallbacks += 1
        return run_kernels(h.action_lists, h.arrays)

    def _send_loop(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        stdin = self.proc.stdin
        while True:
            msg = self._outbox.get()
            if msg is None:
                break
            try:
                write_arrays(stdin, msg)
            except (OSError, ValueError):
                self.broken = True
                break
        try:
            stdin.close()
        except OSError:
            pass

    def _result(self, h: _Handle) -> tuple[np.ndarray, ...]:
        while h.out is None and self._waiting and not self.broken:
            first = self._waiting[0]
            assert self.proc is not None and self.proc.stdout is not None
            try:
                msg = read_arrays(self.proc.stdout)
                if msg is None:
                    raise EOFError("the kernel worker stopped")
                first.out = _decode_reply(msg)
            except (OSError, EOFError, ValueError):
                self._fail()
                break
            self._waiting.popleft()
        if h.out is None:  # the worker failed: this batch runs here
            h.out = self._local(h)
        return h.out

    def _ready(self, h: _Handle) -> bool:
        if self.broken or not self._waiting:
            return True  # result() answers here at once (or runs the batch here)
        if self._waiting[0] is not h:
            return False
        assert self.proc is not None and self.proc.stdout is not None
        try:
            readable, _, _ = select.select([self.proc.stdout], [], [], 0)
        except (OSError, ValueError):
            return True
        return bool(readable)

    def _fail(self) -> None:
        self.broken = True
        self._waiting.clear()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()

    def finish(self) -> None:
        """No more batches: close the child's input once the requests are written (it
        answers them, then exits).  Later batches run in this process."""
        if not self._finished:
            self._finished = True
            self._outbox.put(None)

    def close(self) -> None:
        """Stop the child (it exits when its input closes) and wait for it; a child
        with unread answers (the import stopped early: an error, Ctrl-C) is killed."""
        if self.proc is None:
            return
        if self._waiting:
            self._fail()
        self.finish()
        if self._sender is not None:
            self._sender.join(timeout=10)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def __enter__(self) -> KernelWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    main()
