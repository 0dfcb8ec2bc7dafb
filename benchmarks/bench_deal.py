"""``build_deal`` (pokerlab.subgame.deal) with the showdown-table kernel vs its plain twin.

    .venv/bin/python benchmarks/bench_deal.py [--repeats 7] [--json]

For each spot, milliseconds per ``build_deal`` (the best of ``--repeats`` after a warm-up
call that loads the numba caches) with the kernel (``deal_kernels.showdown_tables``: every
river board in one call, ``prange`` over boards) and with ``kernel=False`` (the plain twin
``showdown_tables_py``: a Python loop over the boards with ``strengths_on_board``, a stable
argsort and one ``showdown_index`` call per board and player, as ``build_deal`` did before),
their ratio, and the showdown tables alone (kernel vs twin on the same boards).  The rest
of ``build_deal`` (hand lists, card lists, chance slots) is the same code on both sides.
Spots: Td9d6h with every hand on both sides, with and without suit isomorphism (1,417 and
2,352 river boards), and the turn Td9d6h2c (48 river boards).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numba

from pokerlab.subgame import make_spot, tree_config
from pokerlab.subgame.deal import build_deal, river_boards
from pokerlab.subgame.deal_kernels import showdown_tables, showdown_tables_py

FULL_RANGE = ("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
              "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")
SPOTS = (("flop_full_noiso", "Td9d6h", False), ("flop_full_iso", "Td9d6h", True),
         ("turn_full_noiso", "Td9d6h2c", False))


def best_ms(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm-up: numba caches
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return 1000.0 * best


def measure(board: str, iso: bool, repeats: int) -> dict[str, Any]:
    sp = make_spot(board=board, pot=10, stack=100, oop=FULL_RANGE, ip=FULL_RANGE,
                   tree=tree_config(bets="none"))
    d = build_deal(sp.board, sp.ranges, isomorphism=iso)
    boards = river_boards(sp.board, d.slot_cards[2])
    kern = best_ms(partial(build_deal, sp.board, sp.ranges, isomorphism=iso), repeats)
    twin = best_ms(partial(build_deal, sp.board, sp.ranges, isomorphism=iso, kernel=False), repeats)
    t_kern = best_ms(partial(showdown_tables, boards, d.combos, d.hand_cards), repeats)
    t_twin = best_ms(partial(showdown_tables_py, boards, d.combos, d.hand_cards), repeats)
    return {"river_boards": int(boards.shape[0]), "hands": list(d.num_hands),
            "build_ms": kern, "build_twin_ms": twin, "build_speedup": twin / kern,
            "tables_ms": t_kern, "tables_twin_ms": t_twin, "tables_speedup": t_twin / t_kern}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res: dict[str, Any] = {"numba_threads": numba.get_num_threads(), "load_average": os.getloadavg()[0]}
    for name, board, iso in SPOTS:
        res[name] = measure(board, iso, args.repeats)
    if args.json:
        print(json.dumps(res))
        return
    print(f"numba threads {res['numba_threads']}, load average {res['load_average']:.2f}")
    for name, _, _ in SPOTS:
        r = res[name]
        print(f"{name:>16}: {r['river_boards']:5d} river boards  build_deal {r['build_ms']:7.1f} ms "
              f"(twin {r['build_twin_ms']:7.1f} ms, {r['build_speedup']:.1f}x)  "
              f"tables {r['tables_ms']:6.1f} ms (twin {r['tables_twin_ms']:7.1f} ms, "
              f"{r['tables_speedup']:.1f}x)")


if __name__ == "__main__":
    main()
