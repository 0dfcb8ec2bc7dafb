"""Speed of ``pokerlab spot solve`` against b-inary's postflop-solver on the same spots.

Both solvers get the same spot (board, starting pot, effective stack, ranges, bet sizes,
2.5x raises, all-in threshold 1.5, force-all-in 0.15) and solve until the exploitability
is at most ``--target`` percent (default 0.3) of the starting pot, on 1 and then 2 threads.
Per spot: CPU seconds of the solve (peer/pokerlab, > 1 means pokerlab is faster), memory
(the solvers' own figures: peer ``memory_usage()`` uncompressed, pokerlab ``memory_bytes``;
and each process's peak RSS), the 2-thread wall-clock speed-up of each, and the whole-process
wall time of ``pokerlab spot solve`` on the river spot (start-up included).

The peer is pokerlab's own Rust harness around postflop-solver (``benchmarks/peer_postflop``,
built with its ``build.sh``; the peer's source is not in this repository). Its binary comes
from ``--peer BIN``, else ``$POKERLAB_PEER_POSTFLOP``, else build.sh's default output.

Spots (``--spots river,turn,flop``; ``--quick``: smaller stacks and one bet size):

* river: Td9d6hQc2s, pot 100, stack 400, both ranges all 1326 hands, bets 50%,100%;
* turn:  Td9d6hQc, pot 100, stack 400, single-raised-pot-like ranges (postflop-solver's
  README example), bets 50%,100% on turn and river;
* flop:  Td9d6h, pot 100, stack 200, same ranges, bets 33%,75% flop, 50%,100% turn/river;
* flop1: Td9d6h, pot 100, stack 400, same ranges, one bet size (50% of the pot) on every
  street, no raises and no added or forced all-in (``--raises none --allin-threshold 0
  --force-allin 0``; the peer gets no raise sizes and thresholds 0): the smallest flop tree;
* srp, srp0: one flop (Td9d6h) of ``bench_spot_report.py``'s single-raised-pot template: pot
  10, stack 95, same ranges, 33% flop, 50%,100% turn and river; srp with 2.5x raises, srp0
  without raises and without the added all-in (``--allin-threshold 0``, so both solvers
  build the same tree).

Both solvers' betting trees are counted (decisions, folds, showdowns: pokerlab's
``build_betting_tree`` in this process, the peer's ``ActionTree`` in its harness) and
printed side by side, so a spot where the two trees differ shows it (``tree.same``).

Usage: ``python benchmarks/bench_spot.py [--spots LIST (river,turn,flop,flop1,srp,srp0)] [--quick]
[--peer BIN] [--peer-only] [--target PCT] [--threads 1,2] [--timeout S] [--algo A] [--compress]
[--repeat N] [--json]``.
Exit 2: the peer is not built; exit 1: ``pokerlab spot solve`` failed (the peer's figures are still printed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
PEER_ENV = "POKERLAB_PEER_POSTFLOP"
PEER_DEFAULT = Path.home() / ".cache" / "pokerlab-peer" / "target" / "release" / "peer-postflop"
BUILD_HELP = f"""\
The postflop-solver peer is not built. Build it (once) with:

  apt-get update && apt-get install -y librust-rayon-dev librust-once-cell-dev \\
      librust-regex-dev librust-serde-json-dev librust-libc-dev
  mkdir -p /tmp/peer/postflop-solver
  git clone https://github.com/b-inary/postflop-solver /tmp/peer/postflop-solver
      # or export a fetched tree: git --git-dir=DIR archive HEAD | tar -x -C /tmp/peer/postflop-solver
  benchmarks/peer_postflop/build.sh /tmp/peer/postflop-solver
  export {PEER_ENV}=~/.cache/pokerlab-peer/target/release/peer-postflop

then rerun, or pass --peer BIN (see benchmarks/peer_postflop/README.md)."""

FULL_RANGE = ("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
              "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")
SRP_OOP = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"
SRP_IP = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"


@dataclass(frozen=True)
class Spot:
    board: str
    pot: int
    stack: int
    oop: str
    ip: str
    flop_bets: str = "33%,75%"
    turn_bets: str = "50%,100%"
    river_bets: str = "50%,100%"
    raises: str = "2.5x"
    allin_threshold: float = 1.5
    force_allin: float = 0.15


SPOTS: dict[str, Spot] = {
    "river": Spot("Td9d6hQc2s", 100, 400, FULL_RANGE, FULL_RANGE),
    "turn": Spot("Td9d6hQc", 100, 400, SRP_OOP, SRP_IP),
    "flop": Spot("Td9d6h", 100, 200, SRP_OOP, SRP_IP),
    "flop1": Spot("Td9d6h", 100, 400, SRP_OOP, SRP_IP, flop_bets="50%", turn_bets="50%",
                  river_bets="50%", raises="none", allin_threshold=0.0, force_allin=0.0),
    # the single-raised-pot template of bench_spot_report.py (one flop size, two turn and
    # river sizes, pot 10, stack 95) on one flop: with 2.5x raises, and without raises
    "srp": Spot("Td9d6h", 10, 95, SRP_OOP, SRP_IP, flop_bets="33%"),
    "srp0": Spot("Td9d6h", 10, 95, SRP_OOP, SRP_IP, flop_bets="33%", raises="none",
                 allin_threshold=0.0),
}
QUICK_SPOTS: dict[str, Spot] = {
    "river": SPOTS["river"],
    "turn": replace(SPOTS["turn"], stack=200, turn_bets="75%", river_bets="75%"),
    "flop": replace(SPOTS["flop"], stack=100, flop_bets="50%", turn_bets="75%", river_bets="75%"),
    "flop1": SPOTS["flop1"],
}


class RunError(RuntimeError):
    """A solver process failed or printed no JSON."""


@dataclass
class Proc:
    returncode: int
    stdout: str
    stderr: str
    wall_seconds: float
    cpu_seconds: float
    max_rss_bytes: int
    load_average: float
    """1-minute load average when it started (2-thread scaling means little on a busy machine)."""


def run_process(cmd: list[str], stdin_text: str | None, timeout: float,
                env: dict[str, str] | None = None) -> Proc:
    """Run ``cmd``; its own wall time, CPU time (user + system) and peak RSS (``wait4``)."""
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    chunks: dict[str, list[str]] = {"out": [], "err": []}

    def pump(stream: IO[str], key: str) -> None:
        chunks[key].append(stream.read())

    assert p.stdout is not None and p.stderr is not None and p.stdin is not None
    readers = [threading.Thread(target=pump, args=(p.stdout, "out"), daemon=True),
               threading.Thread(target=pump, args=(p.stderr, "err"), daemon=True)]
    for r in readers:
        r.start()
    try:
        if stdin_text:
            p.stdin.write(stdin_text)
        p.stdin.close()
    except BrokenPipeError:
        pass
    deadline = t0 + timeout
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            break
        if time.perf_counter() > deadline:
            p.kill()
            pid, status, ru = os.wait4(p.pid, 0)
            p.returncode = -9
            for r in readers:
                r.join(5)
            raise RunError(f"timed out after {timeout:g} s: {' '.join(cmd[:3])} ...")
        time.sleep(0.005)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    for r in readers:
        r.join()
    return Proc(p.returncode, "".join(chunks["out"]), "".join(chunks["err"]), wall,
                ru.ru_utime + ru.ru_stime, ru.ru_maxrss * 1024, load)


_BOX = str.maketrans({c: " " for c in "╭╮╰╯│─┌┐└┘├┤"})
"""Box-drawing characters of rich's error panels, dropped from quoted error output."""


def last_json(proc: Proc, what: str) -> dict[str, Any]:
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip().startswith("{")]
    if proc.returncode != 0 or not lines:
        text = (proc.stderr.strip() or proc.stdout.strip() or "no output").translate(_BOX)
        tail = [" ".join(ln.split()) for ln in text.splitlines() if ln.strip()][-3:]
        raise RunError(f"{what} exited {proc.returncode}: " + " | ".join(tail))
    try:
        obj = json.loads(lines[-1])
    except json.JSONDecodeError as exc:
        raise RunError(f"{what} printed bad JSON: {exc}") from exc
    if not isinstance(obj, dict) or "error" in obj:
        raise RunError(f"{what} failed: {obj}")
    return obj


def find_peer(arg: str | None) -> Path | None:
    for cand in (arg, os.environ.get(PEER_ENV), str(PEER_DEFAULT)):
        if cand:
            path = Path(cand).expanduser()
            if path.is_file() and os.access(path, os.X_OK):
                return path
            if cand in (arg, os.environ.get(PEER_ENV)):
                return None  # named explicitly but missing: do not fall back silently
    return None


def run_peer(peer: Path, spot: Spot, threads: int, target: float, timeout: float,
             max_iterations: int) -> dict[str, Any]:
    # "none" is pokerlab's word for no raise sizes; the peer's is an empty list
    raises = "" if spot.raises.strip().lower() in ("", "none", "-") else spot.raises
    payload = {**asdict(spot), "raises": raises, "donk": None, "merge": 0.1, "target_pct": target,
               "max_iterations": max_iterations, "check_every": 10, "threads": threads}
    proc = run_process([str(peer)], json.dumps(payload), timeout)
    out = last_json(proc, "postflop-solver harness")
    # the harness's own getrusage peak: wait4's counts the forked Python before exec too
    out.update(process_wall_seconds=proc.wall_seconds, process_cpu_seconds=proc.cpu_seconds,
               process_max_rss_bytes=out.get("max_rss_bytes") or proc.max_rss_bytes,
               load_average=proc.load_average)
    return out


TREE_KEYS = ("decision_nodes", "fold_nodes", "showdown_nodes")


def pokerlab_tree(spot: Spot) -> dict[str, int] | None:
    """pokerlab's betting tree of ``spot`` counted as the peer harness counts its own
    (decisions, folds, other terminals; chance nodes left out), built in this process with
    the options ``spot solve`` gets; ``None`` when pokerlab cannot be imported."""
    try:
        from pokerlab.subgame import make_spot, tree_config
        from pokerlab.subgame.tree import DECISION, FOLD, SHOWDOWN, build_betting_tree
    except ImportError:
        return None
    tree = tree_config(bets=spot.flop_bets, raises=spot.raises, flop_bets=spot.flop_bets,
                       turn_bets=spot.turn_bets, river_bets=spot.river_bets, oop_bets=None,
                       ip_bets=None, donk=None, allin_threshold=spot.allin_threshold,
                       force_allin=spot.force_allin, merge=0.1, raise_cap=0)
    made = make_spot(board=spot.board, pot=spot.pot, stack=spot.stack, oop=spot.oop, ip=spot.ip,
                     tree=tree, rake=0.0, rake_cap=0.0, big_blind=1.0)
    kinds = build_betting_tree(made).kind
    return {key: int((kinds == k).sum()) for key, k in zip(TREE_KEYS, (DECISION, FOLD, SHOWDOWN),
                                                             strict=True)}


def tree_check(spot: Spot, peer_out: dict[str, Any] | None) -> dict[str, Any]:
    """Both solvers' betting-tree counts and whether they agree."""
    pk = pokerlab_tree(spot)
    peer = (peer_out or {}).get("tree")
    same = None if pk is None or not isinstance(peer, dict) else all(
        pk[k] == peer.get(k) for k in TREE_KEYS)
    return {"pokerlab": pk, "peer": peer, "same": same}


def pokerlab_cmd() -> list[str]:
    script = Path(sys.executable).parent / "pokerlab"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pokerlab.cli"]


def run_pokerlab(spot: Spot, threads: int, target: float, timeout: float,
                 compress: bool = False, algo: str = "rdcfr") -> dict[str, Any]:
    cmd = [*pokerlab_cmd(), "spot", "solve", "--board", spot.board, "--pot", str(spot.pot),
           "--stack", str(spot.stack), "--oop", spot.oop, "--ip", spot.ip,
           "--flop-bets", spot.flop_bets, "--turn-bets", spot.turn_bets,
           "--river-bets", spot.river_bets, "--raises", spot.raises,
           "--allin-threshold", str(spot.allin_threshold), "--force-allin", str(spot.force_allin),
           "--target", str(target), "--threads", str(threads), "--json",
           "--algo", algo, *(["--compress"] if compress else [])]
    env = dict(os.environ)
    env["NUMBA_NUM_THREADS"] = str(threads)
    try:
        proc = run_process(cmd, None, timeout, env=env)
    except FileNotFoundError as exc:
        raise RunError(f"cannot start pokerlab: {exc}") from exc
    out = last_json(proc, "pokerlab spot solve")
    out.update(process_wall_seconds=proc.wall_seconds, process_cpu_seconds=proc.cpu_seconds,
               process_max_rss_bytes=proc.max_rss_bytes, load_average=proc.load_average)
    return out


def median_run(tries: list[dict[str, Any]], keys: tuple[str, ...]) -> dict[str, Any]:
    """Of repeated runs, the one with the median CPU seconds (the lower middle of an even
    count), with every run's CPU seconds beside it."""
    cpu = [_num(r, *keys) or 0.0 for r in tries]
    order = sorted(range(len(tries)), key=lambda i: cpu[i])
    out = dict(tries[order[(len(order) - 1) // 2]])
    out["cpu_seconds_all"] = cpu
    return out


def _num(d: dict[str, Any] | None, *keys: str) -> float | None:
    if not d:
        return None
    for k in keys:
        v = d.get(k)
        if isinstance(v, int | float) and not isinstance(v, bool):
            return float(v)
    return None


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def summarize(spot: Spot, runs: dict[str, dict[int, dict[str, Any]]],
              threads: list[int]) -> dict[str, Any]:
    peer, pk = runs.get("peer", {}), runs.get("pokerlab", {})
    t1, t2 = threads[0], threads[-1]
    res: dict[str, Any] = {"spot": {**asdict(spot), "merge": 0.1, "donk": None}}
    for label, side, cpu_keys, wall_keys in (
            ("peer", peer, ("solve_cpu_seconds", "cpu_seconds"), ("solve_wall_seconds",)),
            ("pokerlab", pk, ("solve_cpu_seconds", "cpu_seconds"), ("solve_seconds", "seconds"))):
        per_t: dict[str, Any] = {}
        for t, r in side.items():
            per_t[f"threads_{t}"] = {
                "iterations": r.get("iterations"),
                "exploitability": r.get("exploitability"),
                "exploitability_pct": r.get("exploitability_pct"),
                "reached_target": r.get("reached_target", r.get("target_reached")),
                "cpu_seconds": _num(r, *cpu_keys),
                "wall_seconds": _num(r, *wall_keys),
                "memory_bytes": r.get("memory_bytes"),
                "process_wall_seconds": r.get("process_wall_seconds"),
                "process_cpu_seconds": r.get("process_cpu_seconds"),
                "process_max_rss_bytes": r.get("process_max_rss_bytes"),
                "ev_oop": r.get("ev_oop"),
                "ev_ip": r.get("ev_ip"),
                "load_average": r.get("load_average"),
            }
        if t1 != t2 and t1 in side and t2 in side:
            per_t[f"scaling_{t2}_threads"] = _ratio(_num(side[t1], *wall_keys), _num(side[t2], *wall_keys))
        res[label] = per_t
    if t1 in peer and t1 in pk:
        res["cpu_ratio_peer_over_pokerlab"] = _ratio(_num(peer[t1], "solve_cpu_seconds"),
                                                     _num(pk[t1], "solve_cpu_seconds", "cpu_seconds"))
        res["memory_ratio_peer_over_pokerlab"] = _ratio(_num(peer[t1], "memory_bytes"),
                                                        _num(pk[t1], "memory_bytes"))
        res["rss_ratio_peer_over_pokerlab"] = _ratio(_num(peer[t1], "process_max_rss_bytes"),
                                                     _num(pk[t1], "process_max_rss_bytes"))
    return res


def _f(v: Any, spec: str = ".3g") -> str:
    if v is None:
        return "-"
    if isinstance(v, int | float) and not isinstance(v, bool):
        return format(v, spec)
    return str(v)


def print_table(results: dict[str, Any], out: dict[str, Any]) -> None:
    hdr = (f"{'spot':6} {'solver':9} {'thr':>3} {'iters':>6} {'expl %':>7} {'cpu s':>8} "
           f"{'wall s':>8} {'mem MB':>8} {'rss MB':>8} {'proc s':>7} {'load':>5}")
    print(hdr)
    print("-" * len(hdr))
    for name, res in results.items():
        for label in ("peer", "pokerlab"):
            for key, r in res.get(label, {}).items():
                if not key.startswith("threads_"):
                    continue
                mem = r["memory_bytes"] / 1e6 if isinstance(r["memory_bytes"], int | float) else None
                rss = r["process_max_rss_bytes"] / 1e6 if r["process_max_rss_bytes"] else None
                print(f"{name:6} {label:9} {key[8:]:>3} {_f(r['iterations'], 'd'):>6} "
                      f"{_f(r['exploitability_pct'], '.3f'):>7} {_f(r['cpu_seconds'], '.3f'):>8} "
                      f"{_f(r['wall_seconds'], '.3f'):>8} {_f(mem, '.1f'):>8} {_f(rss, '.1f'):>8} "
                      f"{_f(r['process_wall_seconds'], '.2f'):>7} {_f(r['load_average'], '.1f'):>5}")
    print()
    print(f"{'spot':6} {'cpu peer/pk':>11} {'mem peer/pk':>11} {'rss peer/pk':>11} "
          f"{'peer 2t':>8} {'pk 2t':>8}")
    for name, res in results.items():
        sc = [v for k, v in res.get("peer", {}).items() if k.startswith("scaling_")]
        sk = [v for k, v in res.get("pokerlab", {}).items() if k.startswith("scaling_")]
        print(f"{name:6} {_f(res.get('cpu_ratio_peer_over_pokerlab'), '.2f'):>11} "
              f"{_f(res.get('memory_ratio_peer_over_pokerlab'), '.2f'):>11} "
              f"{_f(res.get('rss_ratio_peer_over_pokerlab'), '.2f'):>11} "
              f"{_f(sc[0] if sc else None, '.2f'):>8} {_f(sk[0] if sk else None, '.2f'):>8}")
    for name, res in results.items():
        tree = res.get("tree") or {}
        pk, pe = tree.get("pokerlab") or {}, tree.get("peer") or {}
        print(f"{name}: betting tree decisions / folds / showdowns: pokerlab "
              + " / ".join(_f(pk.get(k), "d") for k in TREE_KEYS) + ", peer "
              + " / ".join(_f(pe.get(k), "d") for k in TREE_KEYS)
              + {True: " (same)", False: " (DIFFERENT)", None: ""}[tree.get("same")])
    for name, res in results.items():
        if res.get("cpu_ratio_per_pair"):
            rs = ", ".join(_f(v, ".2f") for v in res["cpu_ratio_per_pair"])
            print(f"{name}: median of {res['repeat']} alternate runs each; cpu peer/pk per pair: {rs}")
    if out.get("pokerlab_river_process_wall_seconds") is not None:
        print(f"\npokerlab spot solve, river spot, whole process (start-up included): "
              f"{out['pokerlab_river_process_wall_seconds']:.2f} s wall "
              f"(first run {_f(out.get('pokerlab_first_process_wall_seconds'), '.2f')} s)")
    if out.get("pokerlab_error"):
        print(f"\npokerlab side not measured: {out['pokerlab_error']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spots", default="river,turn,flop",
                    help="comma list of river,turn,flop,flop1,srp,srp0 (flop1: one bet size, no raises; "
                         "srp/srp0: the report template's flop with/without raises)")
    ap.add_argument("--quick", action="store_true", help="smaller stacks, one bet size")
    ap.add_argument("--peer", default=None, help=f"peer harness binary (else ${PEER_ENV})")
    ap.add_argument("--peer-only", action="store_true", help="do not run pokerlab")
    ap.add_argument("--target", type=float, default=0.3, help="exploitability, %% of the pot")
    ap.add_argument("--threads", default="1,2", help="thread counts, first is the reference")
    ap.add_argument("--max-iterations", type=int, default=2000, help="peer's iteration cap")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per solver run")
    ap.add_argument("--algo", default="rdcfr",
                    help="pokerlab's --algo (rdcfr, the default: the peer's schedule; dcfr)")
    ap.add_argument("--compress", action="store_true",
                    help="pokerlab stores regrets and strategy sums in 16 bits (--compress)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run both solvers this many times, alternately, per spot and thread count; "
                         "report each one's median run (a river solve takes tens of milliseconds)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be >= 1")

    table = QUICK_SPOTS if a.quick else SPOTS
    names = [s.strip() for s in a.spots.split(",") if s.strip()]
    unknown = [n for n in names if n not in table]
    if unknown or not names:
        ap.error(f"unknown spots {unknown}; choose from {','.join(table)}")
    threads = [int(t) for t in a.threads.split(",") if t.strip()]
    if not threads or min(threads) < 1:
        ap.error("--threads needs positive integers")
    peer = find_peer(a.peer)
    if peer is None:
        print(BUILD_HELP, file=sys.stderr)
        return 2

    out: dict[str, Any] = {"target_pct": a.target, "quick": a.quick, "threads": threads,
                           "peer": str(peer), "cpu_count": os.cpu_count(),
                           "load_average": os.getloadavg()[0]}
    pk_error: str | None = "skipped (--peer-only)" if a.peer_only else None
    if pk_error is None:
        # first (possibly cold-cache) start of the command, on the river spot
        try:
            first = run_pokerlab(table["river"], threads[0], a.target, a.timeout, a.compress, a.algo)
            out["pokerlab_first_process_wall_seconds"] = first["process_wall_seconds"]
        except RunError as exc:
            pk_error = str(exc)
            print(f"error: pokerlab spot solve is not available or failed: {exc}\n"
                  "  (peer figures only below)", file=sys.stderr)
    results: dict[str, Any] = {}
    for name in names:
        spot = table[name]
        runs: dict[str, dict[int, dict[str, Any]]] = {"peer": {}, "pokerlab": {}}
        pairs: dict[int, list[float | None]] = {}
        for t in threads:
            tries: dict[str, list[dict[str, Any]]] = {"peer": [], "pokerlab": []}
            for _ in range(a.repeat):
                # the two solvers alternately, so that both see the machine of the same minutes
                try:
                    tries["peer"].append(run_peer(peer, spot, t, a.target, a.timeout, a.max_iterations))
                except RunError as exc:
                    print(f"error: peer on {name} ({t} threads): {exc}", file=sys.stderr)
                    return 1
                if pk_error is None:
                    try:
                        tries["pokerlab"].append(run_pokerlab(spot, t, a.target, a.timeout, a.compress,
                                                                a.algo))
                    except RunError as exc:
                        pk_error = str(exc)
                        print(f"error: pokerlab spot solve on {name} ({t} threads): {exc}",
                              file=sys.stderr)
            for label, keys in (("peer", ("solve_cpu_seconds",)),
                                ("pokerlab", ("solve_cpu_seconds", "cpu_seconds"))):
                if tries[label]:
                    runs[label][t] = median_run(tries[label], keys)
            if len(tries["pokerlab"]) == len(tries["peer"]):
                pairs[t] = [_ratio(_num(x, "solve_cpu_seconds"), _num(y, "solve_cpu_seconds", "cpu_seconds"))
                            for x, y in zip(tries["peer"], tries["pokerlab"], strict=True)]
            if not a.json:
                print(f"[{name} {t} thread(s) done]", file=sys.stderr, flush=True)
        results[name] = summarize(spot, runs, threads)
        results[name]["tree"] = tree_check(spot, runs["peer"].get(threads[0]))
        if a.repeat > 1 and threads[0] in pairs:
            results[name]["repeat"] = a.repeat
            results[name]["cpu_ratio_per_pair"] = pairs[threads[0]]
        out.setdefault("peer_rev", runs["peer"][threads[0]].get("peer_rev"))
    if pk_error is None:
        if "river" in names:
            r = results["river"]["pokerlab"].get(f"threads_{threads[0]}", {})
            out["pokerlab_river_process_wall_seconds"] = r.get("process_wall_seconds")
        else:
            try:
                r2 = run_pokerlab(table["river"], threads[0], a.target, a.timeout, a.compress, a.algo)
                out["pokerlab_river_process_wall_seconds"] = r2["process_wall_seconds"]
            except RunError as exc:
                pk_error = str(exc)
    peer_river = results.get("river", {}).get("peer", {}).get(f"threads_{threads[0]}")
    if peer_river:
        out["peer_river_process_wall_seconds"] = peer_river["process_wall_seconds"]
    out["spots"] = results
    if pk_error is not None:
        out["pokerlab_error"] = pk_error
    if a.json:
        print(json.dumps(out))
    else:
        print_table(results, out)
    return 1 if pk_error is not None and not a.peer_only else 0


if __name__ == "__main__":
    sys.exit(main())
