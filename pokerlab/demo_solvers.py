"""Solver steps of the guided demo (see :mod:`pokerlab.demo`)."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console


def solver_steps(console: Console, *, quick: bool) -> list[tuple[str, Callable[[], None]]]:
    def kuhn() -> None:
        from pokerlab.games import load_game
        from pokerlab.solvers import solve

        r = solve(load_game("kuhn"), algo="lp")
        console.print(f"Kuhn poker, sequence-form LP: game value {r.game_value:.9f} "
                      f"(known: -1/18 = {-1 / 18:.9f}), exploitability {r.exploitability:.1e}")

    def leduc() -> None:
        from pokerlab.games import load_game
        from pokerlab.solvers import solve

        r = solve(load_game("leduc"), algo="dcfr", target_exploitability=1e-3)
        console.print(f"Leduc hold'em, Discounted CFR: {r.iterations} iterations in "
                      f"{r.seconds:.2f} s -> exploitability {r.exploitability:.2e} chips/hand, "
                      f"game value {r.game_value:.6f} (known -0.085606)")

    def pushfold() -> None:
        from pokerlab.cards.ranges import range_grid_text
        from pokerlab.pushfold import PushFoldConfig
        from pokerlab.pushfold import solve as pf_solve

        sol = pf_solve(PushFoldConfig(stack=10.0))
        console.print(f"10 bb: SB shoves {sol.sb_shove_fraction:.1%} of hands, BB calls "
                      f"{sol.bb_call_fraction:.1%}; SB wins {sol.sb_value:+.4f} bb/hand; "
                      f"exploitability {max(sol.exploitability, 0.0):.1e} bb")
        console.print("SB shoving range:")
        console.print(range_grid_text(sol.sb_shove, compact=True), highlight=False)

    steps: list[tuple[str, Callable[[], None]]] = [
        ("4. Exact Nash of Kuhn poker (LP)", kuhn),
        ("5. Leduc hold'em by Discounted CFR", leduc),
    ]
    steps.append(("6. Heads-up push/fold Nash at 10 big blinds", pushfold))
    return steps
