"""Evaluator benchmark: pokerlab's batch path against the peers installed, same hands."""

from __future__ import annotations

import time

import numpy as np

from pokerlab.cards.evaluator import evaluate_batch

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"


def _rate(fn, n: int, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def run_evaluator_benchmark(*, hands: int = 2_000_000, peer_hands: int = 300_000,
                            seed: int = 0) -> dict[str, object]:
    """Rates in hands/s; peers evaluate the first ``peer_hands`` of the same hands from Python
    one call per hand (their normal use); ratios are against eval7."""
    from pokerlab.errors import ConfigError

    if hands <= 0:
        raise ConfigError(f"--hands must be positive, got {hands}")
    if not 0 < peer_hands <= hands:
        raise ConfigError(f"--peer-hands must be in 1..{hands} (--hands), got {peer_hands}")
    if seed < 0:
        raise ConfigError(f"--seed must be >= 0, got {seed}")
    rng = np.random.default_rng(seed)
    deck = np.argsort(rng.random((hands, 52)), axis=1)[:, :7].astype(np.int8)
    evaluate_batch(deck[:100])
    evaluate_batch(deck[:100], parallel=False)
    res: dict[str, object] = {"hands": hands, "peer_hands": peer_hands}
    res["pokerlab_per_s"] = _rate(lambda: evaluate_batch(deck), hands)
    res["pokerlab_serial_per_s"] = _rate(lambda: evaluate_batch(deck, parallel=False), hands)
    names = [r + s for r in _RANKS for s in _SUITS]
    sub = deck[:peer_hands]
    res["eval7_per_s"] = None
    res["phevaluator_per_s"] = None
    res["treys_per_s"] = None
    try:
        import eval7

        cards7 = [eval7.Card(n) for n in names]
        lists = [[cards7[c] for c in row] for row in sub.tolist()]
        ev = eval7.evaluate
        res["eval7_per_s"] = _rate(lambda: [ev(h) for h in lists], peer_hands)
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards

        # phevaluator's card id is rank*4+suit with suits c,d,h,s: the same as ours.
        rows = sub.astype(int).tolist()
        res["phevaluator_per_s"] = _rate(lambda: [evaluate_cards(*r) for r in rows], peer_hands, 1)
    except ImportError:
        pass
    try:
        from treys import Card, Evaluator

        tev = Evaluator()
        tc = [Card.new(n) for n in names]
        small = sub[: max(1, peer_hands // 10)].tolist()
        rows_t = [([tc[c] for c in r[:2]], [tc[c] for c in r[2:]]) for r in small]
        res["treys_per_s"] = _rate(lambda: [tev.evaluate(b, h) for h, b in rows_t], len(small), 1)
    except ImportError:
        pass
    e7 = res["eval7_per_s"]
    res["ratio_vs_eval7"] = (float(res["pokerlab_per_s"]) / e7) if isinstance(e7, float) else None  # type: ignore[arg-type]
    ph = res["phevaluator_per_s"]
    res["ratio_vs_phevaluator"] = (float(res["pokerlab_per_s"]) / ph) if isinstance(ph, float) else None  # type: ignore[arg-type]
    return res
