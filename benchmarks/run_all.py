"""Run every benchmark (``make bench``) and rewrite the figures in docs/benchmarks.md.

Each script in ``BENCHES`` runs in its own process with ``--json`` (and the arguments
listed, sized to finish in minutes); its JSON object is kept verbatim.  The figures go to
the generated section of docs/benchmarks.md between the markers

    <!-- run_all:start -->  ...  <!-- run_all:end -->

(one table per benchmark: every number of its JSON, the exact command, the date and the
machine load when it ran); the raw results are kept in docs/benchmarks_run_all.json, so
``--only NAME`` reruns one benchmark and keeps the others' last figures.  The
hand-written text around the markers is left alone; the section is appended when the
markers are missing.  A benchmark that fails (a peer not
installed, a timeout) is reported as such and does not stop the others.

Usage: python benchmarks/run_all.py [--only NAME ...] [--no-write] [--timeout S] [--json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
RAW = ROOT / "docs" / "benchmarks_run_all.json"
"""Every benchmark's last JSON result (``--only`` reruns some and keeps the others)."""
START = "<!-- run_all:start -->"
END = "<!-- run_all:end -->"

# name -> (script, extra arguments): each compares against its named peer in the same run
BENCHES: dict[str, tuple[str, list[str]]] = {
    "evaluator": ("bench_evaluator.py", ["--hands", "1000000", "--peer-hands", "200000"]),
    "solvers": ("bench_solvers.py", ["--target", "1e-3"]),
    "pushfold": ("bench_pushfold.py", []),
    "ttt": ("bench_ttt.py", ["--games", "5000"]),
    "holdem": ("bench_holdem.py", ["--hands", "100000", "--py-hands", "2000",
                                   "--pk-hands", "1000"]),
    "abstraction": ("bench_abstraction.py", ["--hands", "100000", "--boards", "2000"]),
    "hands": ("bench_hands.py", ["--no-million"]),
    "matches": ("bench_matches.py", ["--hands", "100000", "--pk-hands", "200"]),
    "deepcfr": ("bench_deepcfr.py", ["--seeds", "1", "--budget", "20", "--checkpoints", "3"]),
    "continuation": ("bench_continuation.py", ["--calls", "20"]),
    "spot_startup": ("bench_spot_startup.py", ["--runs", "10"]),
    "deal": ("bench_deal.py", []),
    "spot_report": ("bench_spot_report.py", ["--flops", "5"]),
    "spot_report_ray": ("bench_spot_report.py", ["--flops", "8", "--ray-nodes", "2",
                                                 "--raises", "none"]),
}


def machine_load() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load unknown"
    return f"load average {one:.1f} (1 min) / {five:.1f} (5 min) on {os.cpu_count()} cores"


def run_one(name: str, timeout: float) -> dict[str, Any]:
    script, extra = BENCHES[name]
    cmd = [sys.executable, str(ROOT / "benchmarks" / script), *extra, "--json"]
    shown = " ".join(["python", f"benchmarks/{script}", *extra, "--json"])
    load = machine_load()
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"name": name, "command": shown, "ok": False, "load": load,
                "error": f"timed out after {timeout:g} s"}
    seconds = time.perf_counter() - t0
    out: dict[str, Any] = {"name": name, "command": shown, "seconds": round(seconds, 1),
                           "load": load}
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip().startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        out.update(ok=False, error=f"exit {proc.returncode}: {tail[:200]}")
        return out
    try:
        out.update(ok=True, result=json.loads(lines[-1]))
    except json.JSONDecodeError as exc:
        out.update(ok=False, error=f"bad JSON: {exc}")
    return out


def _flatten(obj: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(obj, dict):
        rows: list[tuple[str, Any]] = []
        for k, v in obj.items():
            rows.extend(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return rows
    if isinstance(obj, list):
        if len(obj) > 8 or any(isinstance(v, dict | list) for v in obj):
            return [(prefix, f"({len(obj)} values)")]
        return [(prefix, ", ".join(_fmt(v) for v in obj))]
    return [(prefix, obj)]


def _fmt(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:,.4g}" if abs(v) < 1e6 else f"{v:,.0f}"
    return str(v)


def merge(previous: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``new`` results replace ``previous`` ones of the same name; order of ``BENCHES``."""
    by_name = {r["name"]: r for r in previous}
    by_name.update({r["name"]: r for r in new})
    order = list(BENCHES) + sorted(set(by_name) - set(BENCHES))
    return [by_name[n] for n in order if n in by_name]


def render(results: list[dict[str, Any]], when: str) -> str:
    parts = [START, "",
             f"## Generated by `make bench` (last run {when})",
             "",
             "Every figure below comes from one run of `benchmarks/run_all.py`; each "
             "benchmark compares pokerlab with its named peer in the same process, so the "
             "ratios carry more meaning than the absolute rates. The load average at the "
             "start of each benchmark is given: figures measured under load from parallel "
             "work are slower than on an idle machine.", ""]
    for r in results:
        parts.append(f"### {r['name']}")
        parts.append("")
        parts.append(f"`{r['command']}` ({r.get('when', when)}; {r['load']}"
                     + (f"; {r['seconds']} s" if "seconds" in r else "") + ")")
        parts.append("")
        if not r.get("ok"):
            parts.append(f"not measured: {r.get('error', 'failed')}")
            parts.append("")
            continue
        parts.append("| figure | value |")
        parts.append("|---|---|")
        for k, v in _flatten(r["result"]):
            parts.append(f"| {k} | {_fmt(v)} |")
        parts.append("")
    parts.append(END)
    return "\n".join(parts) + "\n"


def write_doc(section: str, doc: Path = DOC) -> None:
    from pokerlab.io import atomic_write_text

    text = doc.read_text() if doc.exists() else "# Benchmarks\n"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        new = head + section.rstrip("\n") + tail
    else:
        new = text.rstrip("\n") + "\n\n" + section
    atomic_write_text(doc, new)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, choices=sorted(BENCHES),
                    help="run only these benchmarks")
    ap.add_argument("--no-write", action="store_true", help="do not touch docs/benchmarks.md")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per benchmark")
    ap.add_argument("--json", action="store_true", help="print all results as one JSON object")
    a = ap.parse_args(argv)
    names = a.only if a.only else list(BENCHES)
    results = []
    for name in names:
        if not a.json:
            print(f"running {name} ...", file=sys.stderr, flush=True)
        r = run_one(name, a.timeout)
        results.append(r)
        if not a.json:
            status = "ok" if r.get("ok") else f"FAILED ({r.get('error')})"
            print(f"  {name}: {status}", file=sys.stderr, flush=True)
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    for r in results:
        r["when"] = when
    if not a.no_write:
        from pokerlab.io import atomic_write_json

        previous: list[dict[str, Any]] = []
        if RAW.exists():
            try:
                previous = list(json.loads(RAW.read_text()).get("results", []))
            except (OSError, ValueError, AttributeError):
                previous = []
        merged = merge(previous, results)
        atomic_write_json(RAW, {"results": merged})
        write_doc(render(merged, when))
    if a.json:
        print(json.dumps({"when": when, "results": results}))
    return 0 if all(r.get("ok") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
