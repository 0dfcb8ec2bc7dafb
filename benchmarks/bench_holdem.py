"""Hold'em engine speed: random playouts to the showdown, ours vs PokerKit, same run.

Every playout is one heads-up no-limit hand (blinds 50/100, 200 big blinds each): deal
hole cards and board, random agent for both players that never folds (check/call 60,
min-raise 15, all-in 5, uniform raise 20), showdown with hand evaluation and payoffs.

* ours (kernel): :func:`pokerlab.holdem.engine_kernels.random_playouts` -- the whole
  loop in one numba kernel on a flat int64 state, one thread (compiled before timing).
* ours (Python): the object engine :class:`pokerlab.holdem.engine.HoldemState` with the
  same agent (for reference).
* PokerKit: ``NoLimitTexasHoldem.create_state`` per hand with dealing, showdown and chip
  pushing automated; the same agent reads PokerKit's own legal-action queries
  (``can_complete_bet_or_raise_to``, min/max raise-to) and acts through its ``State``.

Both use the same agent and the same kind of hands (ours and PokerKit agree on every
legal set: see tests/test_holdem_diff.py), so hands per second compare directly.

Usage: python benchmarks/bench_holdem.py [--hands 300000] [--pk-hands 2000] [--json]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from typing import Any  # noqa: E402

from pokerlab.agents.random_agent import (  # noqa: E402
    SHOWDOWN_WEIGHTS,
    SplitMix64,
    kernel_playouts,
    python_playouts,
)
from pokerlab.holdem.engine import HoldemConfig  # noqa: E402

CONFIG = HoldemConfig()  # 50/100, 20000 chips each


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(t: tuple[float, float]) -> tuple[float, float]:
    return time.perf_counter() - t[0], time.process_time() - t[1]


def bench_kernel(n: int) -> tuple[tuple[float, float], int]:
    kernel_playouts(CONFIG, 1000, 0, SHOWDOWN_WEIGHTS)  # compile / load cache
    t0 = _clock()
    pay, nact = kernel_playouts(CONFIG, n, 1, SHOWDOWN_WEIGHTS)
    dt = _since(t0)
    assert (pay.sum(axis=1) == 0).all()
    return dt, nact


def bench_python(n: int) -> tuple[float, float]:
    t0 = _clock()
    python_playouts(CONFIG, n, 1, SHOWDOWN_WEIGHTS)
    return _since(t0)


def bench_pokerkit(n: int) -> tuple[tuple[float, float], int]:
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    autos = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    rng = SplitMix64(1)
    w = SHOWDOWN_WEIGHTS
    nact = 0
    t0 = _clock()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(n):
            st = NoLimitTexasHoldem.create_state(
                autos, False, 0, (CONFIG.small_blind, CONFIG.big_blind), CONFIG.big_blind,
                CONFIG.stacks, 2, mode=Mode.TOURNAMENT)
            while st.status:
                can_fold = st.can_fold()
                can_raise = st.can_complete_bet_or_raise_to()
                ws = [w[0] if can_fold else 0, w[1], *(w[2:] if can_raise else (0, 0, 0))]
                r = rng.below(sum(ws))
                k = 0
                while r >= ws[k]:
                    r -= ws[k]
                    k += 1
                if k == 0:
                    st.fold()
                elif k == 1:
                    st.check_or_call()
                else:
                    lo = st.min_completion_betting_or_raising_to_amount
                    hi = st.max_completion_betting_or_raising_to_amount
                    assert lo is not None and hi is not None
                    amt = lo if k == 2 else hi if k == 3 else lo + rng.below(hi - lo + 1)
                    st.complete_bet_or_raise_to(amt)
                nact += 1
            assert sum(st.stacks) == sum(CONFIG.stacks)
    return _since(t0), nact


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=300_000, help="kernel playouts")
    ap.add_argument("--py-hands", type=int, default=5_000, help="Python-engine playouts")
    ap.add_argument("--pk-hands", type=int, default=2_000, help="PokerKit playouts")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()
    (tk, ck), nk = bench_kernel(a.hands)
    tp, cp = bench_python(a.py_hands)
    (tpk, cpk), npk = bench_pokerkit(a.pk_hands)
    # Rates from wall time (what a user sees) and from process CPU time (robust to the
    # other jobs sharing the machine: every path here runs on one thread).
    rk, rp, rpk = a.hands / tk, a.py_hands / tp, a.pk_hands / tpk
    ck_r, cp_r, cpk_r = a.hands / ck, a.py_hands / cp, a.pk_hands / cpk
    res: dict[str, Any] = {
        "config": CONFIG.to_json(),
        "weights": list(SHOWDOWN_WEIGHTS),
        "kernel": {"hands": a.hands, "wall_s": tk, "cpu_s": ck, "hands_per_s": rk,
                   "hands_per_cpu_s": ck_r, "actions_per_hand": nk / a.hands},
        "python_engine": {"hands": a.py_hands, "wall_s": tp, "cpu_s": cp, "hands_per_s": rp,
                          "hands_per_cpu_s": cp_r},
        "pokerkit": {"hands": a.pk_hands, "wall_s": tpk, "cpu_s": cpk, "hands_per_s": rpk,
                     "hands_per_cpu_s": cpk_r, "actions_per_hand": npk / a.pk_hands},
        "ratio_kernel_vs_pokerkit": rk / rpk,
        "ratio_kernel_vs_pokerkit_cpu": ck_r / cpk_r,
        "ratio_python_vs_pokerkit": rp / rpk,
        "ratio_python_vs_pokerkit_cpu": cp_r / cpk_r,
    }
    if a.json:
        print(json.dumps(res))
        return
    print(f"random playouts to showdown, HUNL 50/100, 200 bb, agent {list(SHOWDOWN_WEIGHTS)}")
    print("                       hands/s (wall)   hands/CPU-s")
    print(f"  ours, numba kernel : {rk:14,.0f} {ck_r:14,.0f}   ({nk / a.hands:.2f} actions/hand)")
    print(f"  ours, Python engine: {rp:14,.0f} {cp_r:14,.0f}")
    print(f"  PokerKit State     : {rpk:14,.0f} {cpk_r:14,.0f}   "
          f"({npk / a.pk_hands:.2f} actions/hand)")
    print(f"  ratio kernel / PokerKit: {rk / rpk:,.0f}x wall, {ck_r / cpk_r:,.0f}x CPU")
    print(f"  ratio Python engine / PokerKit: {rp / rpk:.1f}x wall, {cp_r / cpk_r:.1f}x CPU")


if __name__ == "__main__":
    main()
