"""Hand histories: import speed against PokerKit's PHH parser, and statistics over 1M hands.

1. Import of the 10,000 Pluribus hands (the shipped ``tests/data/hands/pluribus.phhs.xz``)
   into a fresh DuckDB file: read + parse + check/replay + store, hands per second, against
   PokerKit's own parser (``pokerkit.HandHistory.loads``, parse only, no replay, no
   storage) on the same hands in the same run.  Also from the 10,000 one-hand ``.phh``
   files when the folder is there (``--pluribus-dir``), and PokerKit's full replay of the
   actions (``iterating HandHistory`` states) for reference.
   Both wall-clock and CPU (process) time are reported: the shared machine is loaded, and
   CPU time is what the code costs.  The first import in a process also loads the numba
   kernel from its cache; it is reported separately ("cold").
   **End to end** (what the user sees): ``pokerlab hands import FILE --db NEW.duckdb`` run as
   a fresh process, wall time from process start to exit (Python start-up, imports, the
   kernel worker, DuckDB, everything), best and median of ``--e2e-runs`` runs, by default
   (kernels in a second process) and with ``--one-process``; the same for the folder of
   ``.phh`` files.  ``ratio_e2e_*`` divide these hands/s by PokerKit's parse-only rate
   measured in the same run (``HandHistory.loads`` on the texts; ``HandHistory.load`` on
   each file of the folder).  The load average is recorded next to each figure.
2. Statistics over one million stored hands: the Pluribus hands replicated 100 times in
   SQL, then ``player_stats`` for every player (one SQL query) timed.
3. Online formats (issue 19), 10,000 generated hands each (500 distinct hands played by
   PokerKit, :mod:`pokerlab.hands.generate`, repeated with new hand numbers):
   PokerStars text imported end to end into DuckDB against PokerKit's own PokerStars
   converter (``PokerStarsParser``, parse only, on the first 1,000 hands: it is slow), and
   PHH with decimal dollar amounts against ``HandHistory.loads`` on the same hands.

DuckDB runs with ``--threads`` threads (default 2).

Usage: python benchmarks/bench_hands.py [--no-million] [--no-online] [--json] [--pluribus-dir DIR]
                                      [--e2e-runs N] [--only-import]
       python benchmarks/bench_hands.py --build-sample DIR   (rebuild the .phhs.xz)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import lzma
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "data" / "hands" / "pluribus.phhs.xz"
DEFAULT_DIR = Path("/work/shared/data/hands/pluribus")


def build_sample(src: Path, out: Path = SAMPLE) -> int:
    """Concatenate the one-hand .phh files (natural order) into one .phhs.xz."""

    def nk(p: Path) -> list[Any]:
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(p.relative_to(src)))]

    files = sorted(src.rglob("*.phh"), key=nk)
    parts = []
    for i, f in enumerate(files):
        txt = f.read_text().rstrip("\n")
        parts.append(f"[{i + 1}]\n{txt}\n_source = '{f.relative_to(src)}'\n")
    data = "\n".join(parts).encode()
    from pokerlab.io import atomic_write_bytes

    atomic_write_bytes(out, lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    return len(files)


def _timed(fn: Any) -> tuple[Any, float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def import_ours(paths: list[Path], threads: int) -> dict[str, Any]:
    from pokerlab.hands.db import HandDB

    with tempfile.TemporaryDirectory() as tmp:
        db = HandDB(path=Path(tmp) / "h.duckdb", threads=threads)
        rep, wall, cpu = _timed(lambda: db.import_paths(paths))
        db.close()
    assert rep.rejected == 0, rep.rejections[:3]
    return {"hands": rep.read, "wall_s": wall, "cpu_s": cpu,
            "hands_per_s_wall": rep.read / wall, "hands_per_s_cpu": rep.read / cpu}


def _pokerlab_command() -> list[str]:
    """The installed ``pokerlab`` script next to this Python, else ``python -m pokerlab.cli``."""
    script = Path(sys.executable).parent / "pokerlab"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pokerlab.cli"]


def import_e2e(path: Path, runs: int, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """``pokerlab hands import PATH --db NEW`` as a fresh process: wall time to exit."""
    walls: list[float] = []
    cpus: list[float] = []
    loads: list[float] = []
    rates: list[float] = []
    hands = 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [*_pokerlab_command(), "hands", "import", str(path), "--db",
                   str(Path(tmp) / "e2e.duckdb"), *extra]
            loads.append(os.getloadavg()[0])
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            r = subprocess.run(cmd, capture_output=True, text=True, check=False)
            walls.append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            if r.returncode != 0:
                raise RuntimeError(f"{cmd} failed: {r.stderr[-2000:]}")
            m = re.search(r"(\d+) hands read: (\d+) stored, 0 already present, 0 rejected",
                          r.stdout)
            assert m is not None and m.group(1) == m.group(2), r.stdout
            hands = int(m.group(1))
            rate = re.search(r"\(([\d.]+) hands/s\)", r.stdout)  # the command's own rate line
            assert rate is not None, r.stdout
            rates.append(float(rate.group(1)))
    best, med = min(walls), statistics.median(walls)
    return {"hands": hands, "runs": runs, "command": " ".join(["pokerlab", *cmd[cmd.index("hands"):]]),
            "wall_s_best": best, "wall_s_median": med, "cpu_s_best": min(cpus),
            "hands_per_s_wall": hands / best, "hands_per_s_wall_median": hands / med,
            "hands_per_s_cpu": hands / min(cpus),
            "command_rate_best": max(rates), "command_rate_median": statistics.median(rates),
            "loadavg_1min": loads}


def pokerkit_parse(texts: list[str]) -> dict[str, Any]:
    from pokerkit.notation import HandHistory

    _, wall, cpu = _timed(lambda: [HandHistory.loads(t) for t in texts])
    return {"hands": len(texts), "wall_s": wall, "cpu_s": cpu,
            "hands_per_s_wall": len(texts) / wall, "hands_per_s_cpu": len(texts) / cpu}


def pokerkit_parse_files(folder: Path) -> dict[str, Any]:
    from pokerkit.notation import HandHistory

    from pokerlab.hands.hand_files import expand_paths

    files = expand_paths([folder])

    def run() -> None:
        for f in files:
            with open(f, "rb") as fh:
                HandHistory.load(fh)

    _, wall, cpu = _timed(run)
    return {"hands": len(files), "wall_s": wall, "cpu_s": cpu,
            "hands_per_s_wall": len(files) / wall, "hands_per_s_cpu": len(files) / cpu}


def pokerkit_replay(texts: list[str]) -> dict[str, Any]:
    from pokerkit.notation import HandHistory

    def run() -> None:
        for t in texts:
            for _ in HandHistory.loads(t):
                pass

    _, wall, cpu = _timed(run)
    return {"hands": len(texts), "wall_s": wall, "cpu_s": cpu,
            "hands_per_s_wall": len(texts) / wall, "hands_per_s_cpu": len(texts) / cpu}


def _online_files(folder: Path, distinct: int = 500, copies: int = 20) -> tuple[Path, Path]:
    from pokerlab.hands.generate import random_hands, to_phh_decimal, to_pokerstars

    gens = random_hands(distinct, seed=2026, pokerstars=True)
    stars = "".join(
        to_pokerstars(gens, first_hand=1 + 100_000 * k, seed=k) for k in range(copies)
    )
    blocks = []
    for k in range(copies):
        text = to_phh_decimal(gens, seed=k)
        for j, part in enumerate(text.strip("\n").split("\n\n")):
            number = k * distinct + j + 1
            body = re.sub(r"(?m)^hand = \d+$", f"hand = {number}", part.split("\n", 1)[1])
            blocks.append(f"[{number}]\n{body}")
    ps = folder / "stars.txt"
    ps.write_text(stars)
    dec = folder / "decimal.phhs"
    dec.write_text("\n\n".join(blocks) + "\n")
    return ps, dec


def pokerkit_pokerstars(path: Path, limit: int) -> dict[str, Any]:
    import warnings
    from decimal import Decimal

    from pokerkit.notation import PokerStarsParser

    text = path.read_text()
    blocks = [b for b in text.split("\n\n\n") if b.strip()][:limit]

    def value(s: str) -> int:
        return int(Decimal(s.replace(",", "")) * 100)

    def run() -> int:
        n = 0
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")  # the converter prints a traceback per failure
            for _hh in PokerStarsParser()("\n\n\n".join(blocks), parse_value=value):
                n += 1
        return n

    n, wall, cpu = _timed(run)
    m = len(blocks)  # hands attempted: the converter fails on some (antes, split river line)
    return {"hands": m, "converted": n, "wall_s": wall, "cpu_s": cpu,
            "hands_per_s_wall": m / wall, "hands_per_s_cpu": m / cpu}


def pokerkit_phh_decimal(path: Path) -> dict[str, Any]:
    from pokerkit.notation import HandHistory

    text = path.read_text()
    texts = [p.split("\n", 1)[1] for p in text.split("\n\n") if p.strip()]
    _, wall, cpu = _timed(lambda: [HandHistory.loads(t) for t in texts])
    return {"hands": len(texts), "wall_s": wall, "cpu_s": cpu,
            "hands_per_s_wall": len(texts) / wall, "hands_per_s_cpu": len(texts) / cpu}


def online(threads: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        ps, dec = _online_files(Path(tmp))
        out["ours_pokerstars"] = import_ours([ps], threads)
        out["pokerkit_pokerstars_1000"] = pokerkit_pokerstars(ps, 1000)
        out["ours_phh_decimal"] = import_ours([dec], threads)
        out["pokerkit_phh_decimal_parse"] = pokerkit_phh_decimal(dec)
    for k, peer in (("ours_pokerstars", "pokerkit_pokerstars_1000"),
                    ("ours_phh_decimal", "pokerkit_phh_decimal_parse")):
        for unit in ("wall", "cpu"):
            out[f"ratio_{k}_vs_{peer}_{unit}"] = (
                out[k][f"hands_per_s_{unit}"] / out[peer][f"hands_per_s_{unit}"]
            )
    return out


def stats_million(threads: int, copies: int) -> dict[str, Any]:
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.stats import player_stats

    with tempfile.TemporaryDirectory() as tmp:
        db = HandDB(path=Path(tmp) / "m.duckdb", threads=threads)
        db.import_paths([SAMPLE])
        t0 = time.perf_counter()
        for table in ("hands", "hand_players", "actions"):
            cols = [r[0] for r in db.query(f"DESCRIBE {table}")]
            sel = ", ".join(
                "hand_id || '-' || k AS hand_id" if c == "hand_id"
                else "seq + k * 100000 AS seq" if c == "seq" else c
                for c in cols
            )
            db.query(f"INSERT INTO {table} SELECT {sel} FROM {table}, range(1, {copies}) t(k)")
        build = time.perf_counter() - t0
        n = db.count("hands")
        stats, wall, cpu = _timed(lambda: player_stats(db))
        stats2, wall2, _ = _timed(lambda: player_stats(db))
        db.close()
    plur = next(s for s in stats if s.player == "Pluribus")
    return {"hands": n, "players": len(stats), "build_s": build, "stats_wall_s": wall,
            "stats_cpu_s": cpu, "stats_wall_s_second_run": wall2,
            "pluribus_vpip": plur.vpip, "pluribus_hands": plur.hands}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--pluribus-dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--copies", type=int, default=100, help="replicas for the stats test")
    ap.add_argument("--no-million", action="store_true", help="skip the 1M-hand stats test")
    ap.add_argument("--no-online", action="store_true", help="skip PokerStars / PHH decimal")
    ap.add_argument("--e2e-runs", type=int, default=3, help="fresh-process runs per figure")
    ap.add_argument("--only-import", action="store_true",
                    help="only the Pluribus import figures (no replay, online, stats)")
    ap.add_argument("--build-sample", type=Path, default=None, metavar="DIR")
    args = ap.parse_args()
    if args.build_sample is not None:
        n = build_sample(args.build_sample)
        print(f"wrote {SAMPLE} from {n} hands")
        return

    text = lzma.decompress(SAMPLE.read_bytes()).decode()
    texts = [p.split("\n", 1)[1] for p in text.split("\n[")]
    res: dict[str, Any] = {"threads": args.threads, "loadavg_start": os.getloadavg()}
    runs = max(1, args.e2e_runs)
    res["e2e_phhs_xz"] = import_e2e(SAMPLE, runs)
    res["e2e_phhs_xz_one_process"] = import_e2e(SAMPLE, runs, ("--one-process",))
    res["ours_cold"] = import_ours([SAMPLE], args.threads)
    res["ours_phhs_xz"] = import_ours([SAMPLE], args.threads)
    res["pokerkit_parse"] = pokerkit_parse(texts)
    if not args.only_import:
        res["pokerkit_replay_2000"] = pokerkit_replay(texts[:2000])
    if args.pluribus_dir.is_dir():
        res["e2e_phh_files"] = import_e2e(args.pluribus_dir, runs)
        res["e2e_phh_files_one_process"] = import_e2e(args.pluribus_dir, runs, ("--one-process",))
        res["ours_phh_files"] = import_ours([args.pluribus_dir], args.threads)
        res["pokerkit_parse_files"] = pokerkit_parse_files(args.pluribus_dir)
    for k, peer in (("ours_phhs_xz", "pokerkit_parse"), ("ours_phh_files", "pokerkit_parse_files"),
                    ("e2e_phhs_xz", "pokerkit_parse"), ("e2e_phhs_xz_one_process", "pokerkit_parse"),
                    ("e2e_phh_files", "pokerkit_parse_files"),
                    ("e2e_phh_files_one_process", "pokerkit_parse_files")):
        if k in res:
            for unit in ("wall", "cpu"):
                res[f"ratio_{k}_vs_{peer}_{unit}"] = (
                    res[k][f"hands_per_s_{unit}"] / res[peer][f"hands_per_s_{unit}"]
                )
    res["loadavg_end"] = os.getloadavg()
    if args.only_import:
        args.no_online = args.no_million = True
    if not args.no_online:
        res.update(online(args.threads))
    if not args.no_million:
        res["stats_million"] = stats_million(args.threads, args.copies)
    if args.json:
        print(json.dumps(res))
        return
    for k, v in res.items():
        if isinstance(v, dict):
            print(f"{k}: " + ", ".join(
                f"{a}={b:.3f}" if isinstance(b, float) else f"{a}={b}" for a, b in v.items()))
        else:
            print(f"{k}: {v:.3f}" if isinstance(v, float) else f"{k}: {v}")


if __name__ == "__main__":
    main()
