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
        from pokerlab.pushfold import demo_summary  # type: ignore[attr-defined]

        console.print(demo_summary(stack=10.0))

    steps: list[tuple[str, Callable[[], None]]] = [
        ("4. Exact Nash of Kuhn poker (LP)", kuhn),
        ("5. Leduc hold'em by Discounted CFR", leduc),
    ]
    try:
        import pokerlab.pushfold as pf

        if hasattr(pf, "demo_summary"):
            steps.append(("6. Heads-up push/fold Nash at 10 big blinds", pushfold))
    except ImportError:
        pass
    return steps
