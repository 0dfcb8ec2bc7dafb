"""Where a searching agent's think time goes (issue 49, "fast enough to measure").

Plays ``--hands`` duplicate deals of ``--search`` against ``--base`` with AIVAT (the match
mode of the strength benchmarks: :func:`search_opponents.run_chunk`, one process) under
``cProfile`` after two warm-up hands (kernels loaded, the blueprint read), and splits the
time of the searcher's solves into named parts, each the cumulative time of one function
(parts nest: the leaf values include the continuation kernels):

* ``solves``: every subgame solve (``agents.search.solve.solve``), of which
* ``iterations``: the solver's iterations (``SpotSolver.step``) and in them
* ``leaf values``: a depth-limited solve's leaves (``SpotSolver._leaf_values``), of which
* ``continuation kernels``: the blueprint's rest of the hand for every hand
  (``chooser_values_serial`` and ``other_values_serial``, with their call counts);
* ``leaf set-up``: building the leaves' continuation trees (``build_leaves``);
* ``street solve``: the solve from the street's start a decision nests in
  (``nesting.street_solve``);
* ``safe-solve values``: the blueprint's values for the first safe solve
  (``locking.blueprint_values``).

Prints the parts in seconds and as shares of the whole run, the searches per street and
the seconds per search; ``--json`` one object (seconds; ``calls`` per part).

Usage: ``python benchmarks/search_profile.py [--search "search(street=turn,depth=1,leaves=modicum)"]
[--base blueprint-100] [--stack 100] [--hands 20] [--seed 131] [--json]``
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_opponents import Chunk, fail, run_chunk  # noqa: E402

#: part name -> (file suffix, function name) of the function whose cumulative time it is
PARTS: dict[str, tuple[str, str]] = {
    "solves": ("agents/search/solve.py", "solve"),
    "iterations": ("subgame/solver.py", "step"),
    "leaf values": ("subgame/solver.py", "_leaf_values"),
    "continuation kernels (chooser)": ("agents/continuation.py", "chooser_values"),
    "continuation kernels (searcher)": ("agents/continuation.py", "other_values"),
    "leaf set-up": ("agents/leaves.py", "build_leaves"),
    "street solve": ("agents/search/nesting.py", "street_solve"),
    "safe-solve values": ("agents/search/locking.py", "blueprint_values"),
}


def parts(stats: pstats.Stats) -> dict[str, dict[str, float]]:
    """Cumulative seconds and primitive calls of each of :data:`PARTS`."""
    out = {name: {"seconds": 0.0, "calls": 0.0} for name in PARTS}
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (path, _line, func), (prim, _total, _tt, cum, _callers) in table.items():
        for name, (suffix, fn) in PARTS.items():
            if func == fn and path.replace("\\", "/").endswith(suffix):
                out[name]["seconds"] += cum
                out[name]["calls"] += prim
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--search", default="search(street=turn,depth=1,leaves=modicum)")
    ap.add_argument("--base", default="blueprint-100")
    ap.add_argument("--stack", type=float, default=100.0)
    ap.add_argument("--hands", type=int, default=20, help="duplicate deals (each played twice)")
    ap.add_argument("--seed", type=int, default=131)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.hands < 1:
        raise fail(f"--hands must be >= 1, got {a.hands}")
    from pokerlab.errors import PokerlabError

    try:
        run_chunk(Chunk(a.search, a.base, a.stack, a.seed, 0, 2))  # warm-up: load and compile
    except PokerlabError as exc:
        raise fail(str(exc)) from None
    prof = cProfile.Profile()
    t = time.perf_counter()
    prof.enable()
    res = run_chunk(Chunk(a.search, a.base, a.stack, a.seed, 2, 2 + a.hands))
    prof.disable()
    wall = time.perf_counter() - t
    split = parts(pstats.Stats(prof))
    c = res["counters"]
    searches = float(c.get("searches", 0.0))
    out = {"search": a.search, "base": a.base, "stack_bb": a.stack, "hands": 2 * a.hands,
           "seed": a.seed, "seconds": wall, "hands_per_second": 2 * a.hands / wall,
           "searches": {k: c.get(k, 0.0) for k in ("searches", "searches_flop", "searches_turn",
                                                    "searches_river")},
           "seconds_per_search": split["solves"]["seconds"] / searches if searches else None,
           "parts": split, "units": "seconds (cumulative; parts nest)",
           "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    s = out["searches"]
    print(f"{a.search} against {a.base} at {a.stack:g} bb, {2 * a.hands} hands (seed {a.seed}), "
          f"{wall:.1f} s ({out['hands_per_second']:.2f} hands/s); {s['searches']:.0f} searches "
          f"(flop {s['searches_flop']:.0f}, turn {s['searches_turn']:.0f}, river "
          f"{s['searches_river']:.0f})" + (f", {out['seconds_per_search']:.3f} s each" if searches else ""))
    print("\n| part | seconds | share of the run | calls |\n|---|---:|---:|---:|")
    for name, d in split.items():
        print(f"| {name} | {d['seconds']:.2f} | {d['seconds'] / wall:.0%} | {d['calls']:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
