"""ES-MCCFR benchmark: pokerlab's blueprint kernel vs OpenSpiel's C++ ExternalSamplingMCCFRSolver.

Same run, same machine, one thread each: 200 bb HUNL with fcpa betting (fold, call, pot,
all-in); pokerlab with 169/200/200/200 hand-strength buckets, OpenSpiel lossless.  Also the
effect of pruning (iterations/s) and of Linear CFR discounting (push/fold exploitability on
the same iteration budget).  See :mod:`pokerlab.blueprint.bench` for the method.

Usage: ``python benchmarks/bench_mccfr.py [--seconds 10] [--json]``
(the same as ``pokerlab bench mccfr``).
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--pushfold-iterations", type=int, default=1_000_000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from pokerlab.blueprint.bench import run_benchmark

    res = run_benchmark(seconds=args.seconds, pushfold_iterations=args.pushfold_iterations)
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:>36}: {v:,.4g}" if isinstance(v, float) else f"{k:>36}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
