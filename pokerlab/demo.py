"""The guided tour behind ``pokerlab demo`` / ``make run``.

Each step prints what it does and the numbers it gets, so a newcomer sees the pipeline:
cards -> evaluator -> equity -> ranges -> exact game solving -> push/fold Nash.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table


def _step(console: Console, title: str, fn: Callable[[], None]) -> None:
    console.rule(f"[bold]{title}")
    t = time.perf_counter()
    fn()
    console.print(f"[dim]({time.perf_counter() - t:.1f} s)[/dim]")


def run_demo(console: Console, *, quick: bool = False) -> None:
    from pokerlab.cards import parse_cards
    from pokerlab.cards.equity import hand_equity
    from pokerlab.cards.evaluator import NUM_STRENGTHS, evaluate
    from pokerlab.cards.ranges import parse_range, range_grid_text, range_to_string

    def hands() -> None:
        for text in ("AsKsQsJsTs", "KsKd7h7c9d2s3c", "5c4d3h2sAc9h9d"):
            s, cat, desc = evaluate(text)
            console.print(f"{text:>16}  ->  {desc}  [dim](strength {s}/{NUM_STRENGTHS}, {cat})[/dim]")

    def equity() -> None:
        t = Table(title="Exact preflop all-in equity (all 1,712,304 boards)")
        for col in ("hand", "vs", "win", "tie", "equity"):
            t.add_column(col, justify="right")
        for a, b in (("AsKs", "QhQd"), ("AdAc", "KhKs"), ("7h6h", "AcKd")):
            r = hand_equity([parse_cards(a), parse_cards(b)])
            t.add_row(a, b, f"{r.win[0]:.3%}", f"{r.tie[0]:.3%}", f"{r.equity[0]:.3%}")
        console.print(t)

    def ranges() -> None:
        w = parse_range("TT+, AQs+, AKo, KQs:0.5")
        console.print(range_grid_text(w, compact=True), highlight=False)
        console.print(f"{range_to_string(w)}  ->  {w.sum():g} combos")

    _step(console, "1. Hand evaluator", hands)
    _step(console, "2. Equity by full enumeration", equity)
    _step(console, "3. A range on the 13x13 grid", ranges)
    for title, fn in _solver_steps(console, quick=quick):
        _step(console, title, fn)
    console.rule("[bold]Next")
    console.print("pokerlab --help lists every command: solve, game, pushfold, equity, range, "
                  "hands, holdem, abstraction, blueprint, match, lbr, league, exploit, opponent, "
                  "play, policy, ttt, deepcfr, bench, spot (the postflop spot solver and the study "
                  "tool), review (your hands against solved spots), train-spot (drills).")


def _solver_steps(console: Console, *, quick: bool) -> list[tuple[str, Callable[[], None]]]:
    from pokerlab.demo_solvers import solver_steps

    return solver_steps(console, quick=quick)
