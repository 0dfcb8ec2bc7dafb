"""The import's speed paths give the same database as the plain paths.

* the kernel worker process (``pokerlab hands import`` default) against the kernels run in
  this process, on the Pluribus hands, broken hands and PokerStars hands; its fallbacks
  (no child, a child that dies, a batch that cannot travel) give the same rows too;
* the message format (raw array bytes after a JSON header);
* the per-file fast path for folders of one-hand ``.phh`` files against the general
  reader, on odd files (comments, CRLF, a BOM, ``[section]`` headers, PokerStars text
  named ``.phh``, an empty file, a broken hand);
* the importer's modules load without numba (the worker loads it).
"""

from __future__ import annotations

import io
import json
import lzma
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pokerlab.hands import HandDB, RawHand, Rejection
from pokerlab.hands.hand_files import iter_file_text, iter_paths
from pokerlab.hands.kernel_worker import (
    KernelWorker,
    _decode_reply,
    _decode_request,
    _encode_reply,
    _encode_request,
    read_arrays,
    write_arrays,
)
from pokerlab.hands.phh import read_text

DATA = Path(__file__).parent / "data" / "hands"
PLURIBUS = DATA / "pluribus.phhs.xz"
BAD = DATA / "bad.phhs"
STARS = DATA / "pokerstars_sample.txt"


def _checksums(db: HandDB) -> dict[str, tuple[int, int]]:
    out = {}
    for t in ("hands", "hand_players", "actions"):
        cols = [r[0] for r in db.query(f"DESCRIBE {t}")]
        expr = " + ".join(f"hash({c})::HUGEINT" for c in cols)
        n, s = db.query(f"SELECT count(*), sum({expr}) FROM {t}")[0]
        out[t] = (int(n), int(s))
    return out


def _import(tmp_path: Path, name: str, paths: list[Path], **kw: object) -> dict[str, object]:
    with HandDB(path=tmp_path / f"{name}.duckdb") as db:
        rep = db.import_paths(paths, batch_size=1500, **kw)  # type: ignore[arg-type]
        return {"report": (rep.read, rep.stored, rep.duplicates, rep.rejected),
                "rejections": [str(r) for r in rep.rejections], "sums": _checksums(db)}


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 4,000 Pluribus hands as one .phhs file."""
    text = lzma.decompress(PLURIBUS.read_bytes()).decode()
    cut = text.index("\n[4001]\n")
    path = tmp_path_factory.mktemp("sample") / "p4000.phhs"
    path.write_text(text[:cut] + "\n")
    return path


def test_worker_gives_the_same_database(tmp_path: Path, sample: Path) -> None:
    paths = [sample, BAD, STARS]
    local = _import(tmp_path, "local", paths)
    with KernelWorker.start() as worker:
        remote = _import(tmp_path, "remote", paths, kernels=worker)
        assert worker.fallbacks == 0 and not worker.broken
    assert remote == local
    assert local["report"] == (4011, 4005, 0, 6)


def test_worker_failures_fall_back(tmp_path: Path, sample: Path) -> None:
    local = _import(tmp_path, "local", [sample])
    dead = KernelWorker(None)  # could not be started
    assert _import(tmp_path, "none", [sample], kernels=dead) == local
    assert dead.fallbacks == 3
    worker = KernelWorker.start()
    assert worker.proc is not None
    worker.proc.kill()  # dies before answering
    worker.proc.wait()
    try:
        assert _import(tmp_path, "killed", [sample], kernels=worker) == local
        assert worker.broken and worker.fallbacks == 3
    finally:
        worker.close()


def test_batch_that_cannot_travel_runs_here() -> None:
    arrays = {"n_players": np.array([2], np.int64)}
    assert _encode_request([["p1 f\np2 f"]], arrays) is None  # a newline inside an action


def test_message_round_trip() -> None:
    arrays = [
        np.arange(12, dtype=np.int64).reshape(3, 4),
        np.array([True, False, True]),
        np.array([0.5, np.nan, -2.0]),
        np.zeros(0, np.uint8),
        np.zeros((0, 5), np.int64),
    ]
    buf = io.BytesIO()
    write_arrays(buf, arrays)
    write_arrays(buf, arrays[:1])
    buf.seek(0)
    first = read_arrays(buf)
    assert first is not None and len(first) == len(arrays)
    for a, b in zip(arrays, first, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
        assert b.flags.writeable
    second = read_arrays(buf)
    assert second is not None and np.array_equal(second[0], arrays[0])
    assert read_arrays(buf) is None
    # request and reply encodings
    lists = [["d dh p1 AsKs", "p1 f"], [], ["p2 cc", "é"]]
    from pokerlab.hands.fastimport import KERNEL_ARRAYS

    arrs = {k: np.arange(3, dtype=np.int64) for k in KERNEL_ARRAYS}
    msg = _encode_request(lists, arrs)
    assert msg is not None
    back, back_arrays = _decode_request(msg)
    assert back == lists and list(back_arrays) == list(KERNEL_ARRAYS)
    boards = np.empty(2, dtype=object)
    boards[:] = ["AsKsQs", ""]
    out = (np.zeros((1, 4), np.int64), np.array([0, 1, 1], np.int64), boards, np.ones(2))
    dec = _decode_reply(_encode_reply(out))
    assert list(dec[2]) == ["AsKsQs", ""] and np.array_equal(dec[1], out[1])


def _odd_folder(root: Path) -> list[Path]:
    text = lzma.decompress(PLURIBUS.read_bytes()).decode()
    hands = [p.split("\n", 1)[1] for p in text.split("\n[")[:3]]
    base = hands[0]
    out = {
        "plain.phh": base,
        "crlf.phh": base.replace("\n", "\r\n"),
        "comment.phh": "# a comment\n" + base,
        "bom.phh": "\ufeff" + base,
        "two.phh": f"[1]\n{hands[1]}\n[2]\n{hands[2]}",
        "stars.phh": STARS.read_text(),
        "empty.phh": "",
        "broken.phh": base.replace("p3 f", "p1 f", 1),
        "spaces.phh": "\n\n" + base + "\n\n",
    }
    paths = []
    for name, body in out.items():
        p = root / name
        p.write_bytes(body.encode("utf-8"))
        paths.append(p)
    return paths


def test_folder_fast_path_equals_general_reader(tmp_path: Path) -> None:
    paths = _odd_folder(tmp_path)
    problems: list[str] = []
    got = list(iter_paths([tmp_path], problems=problems))
    want: list[RawHand | Rejection] = []
    want_problems = []
    for p in sorted(paths, key=lambda q: q.name):
        items = list(iter_file_text(read_text(p), "phh", str(p)))
        want.extend(items)
        if not items:
            want_problems.append(f"{str(p)!r}: no recognisable hand history in this file")
    assert got == want
    assert problems == want_problems
    kinds = [type(x).__name__ for x in got]
    assert kinds.count("RawHand") == 11 and kinds.count("Rejection") == 1  # the empty file
    assert problems == []


def test_importer_loads_without_numba() -> None:
    code = (
        "import sys\n"
        "import pokerlab.hands.kernel_worker\n"
        "assert 'numpy' not in sys.modules\n"
        "import pokerlab.hands.db, pokerlab.hands.phh, pokerlab.hands.fastimport\n"
        "from pokerlab.hands import replay, HandDB\n"
        "assert callable(replay)\n"
        "assert 'numba' not in sys.modules, 'numba'\n"
        "print('ok')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_cli_one_process_equals_default(tmp_path: Path, sample: Path) -> None:
    cmd = [sys.executable, "-m", "pokerlab.cli", "hands", "import", str(sample), str(BAD)]
    outs = []
    for name, extra in (("a", []), ("b", ["--one-process"])):
        db = tmp_path / f"{name}.duckdb"
        r = subprocess.run([*cmd, "--db", str(db), "--json", *extra],
                           capture_output=True, text=True, check=False)
        assert r.returncode == 3, r.stderr  # bad.phhs holds rejected hands
        out = json.loads(r.stdout)
        with HandDB(path=db, read_only=True) as h:
            outs.append(((out["read"], out["stored"], out["rejected"]), _checksums(h)))
    assert outs[0] == outs[1]
    assert outs[0][0] == (4008, 4002, 6)


def test_worker_closed_early_is_stopped() -> None:
    """An import that stops with batches still in the worker (an error, Ctrl-C) kills it."""
    from pokerlab.hands.fastimport import KERNEL_ARRAYS

    arrays = {k: np.zeros(1 if k in ("n_players", "min_bet", "has_fin", "has_win", "rake")
                          else 2, np.float64 if k in ("fin", "win") else
                          np.bool_ if k.startswith("has") else np.int64) for k in KERNEL_ARRAYS}
    arrays["n_players"][:] = 2
    worker = KernelWorker.start()
    worker.submit([["p1 f"]], arrays)
    worker.close()
    assert worker.proc is not None and worker.proc.returncode is not None
    assert worker.broken
