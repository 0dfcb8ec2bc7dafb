"""Solver steps of the guided demo (see :mod:`pokerlab.demo`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

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

    steps: list[tuple[str, Callable[[], None]]] = [("4. Exact Nash of Kuhn poker (LP)", kuhn)]
    if not quick:
        steps.append(("5. Leduc hold'em by Discounted CFR", leduc))
    steps.append(("6. Heads-up push/fold Nash at 10 big blinds", pushfold))
    sample = Path(__file__).resolve().parent.parent / "tests" / "data" / "hands" / "pluribus.phhs.xz"
    if sample.exists() and not quick:  # a source checkout ships the 10,000 Pluribus hands

        def pluribus() -> None:
            import tempfile

            from rich.table import Table

            from pokerlab.hands import HandDB, classify_all, player_stats

            with tempfile.TemporaryDirectory() as tmp:
                with HandDB(path=Path(tmp) / "demo.duckdb") as db:
                    rep = db.import_paths([sample])
                    stats = classify_all(player_stats(db, min_hands=2000))
            t = Table(title=f"{rep.stored:,} hands of Pluribus vs professionals (6-max, 50/100)")
            for col in ("player", "hands", "VPIP", "PFR", "3-bet", "AF", "bb/100"):
                t.add_column(col, justify="right")
            t.add_column("style", no_wrap=True)
            for ps in stats[:8]:
                t.add_row(ps.player, f"{ps.hands:,}", f"{ps.vpip or 0:.1f}", f"{ps.pfr or 0:.1f}",
                          f"{ps.three_bet or 0:.1f}", f"{ps.af or 0:.2f}",
                          f"{ps.bb_per_100 or 0:+.1f}", ps.style)
            console.print(t)

        steps.append(("7. How Pluribus plays next to humans (hand-history analysis)", pluribus))

    def blueprint() -> None:
        from rich.table import Table

        from pokerlab.arena.matches import play_match

        hands = 2000 if quick else 10000
        t = Table(title=f"The shipped HUNL agent (MCCFR blueprint, 100 bb), {hands:,} duplicate "
                        "hands per opponent")
        for col in ("opponent", "mbb/hand", "95% CI", "hands/s"):
            t.add_column(col, justify="right")
        for opp in ("random", "call", "raise", "tag"):
            r = play_match("blueprint", opp, hands=hands, duplicate=True, seed=0, stack_bb=100.0)
            t.add_row(opp, f"{r.mean_mbb:+,.0f}", f"+-{r.ci95_mbb:,.0f}",
                      f"{r.hands / max(r.seconds, 1e-9):,.0f}")
        console.print(t)
        console.print("Play it yourself: pokerlab play (browser) or pokerlab play --tty.")

    steps.append(("8. A heads-up no-limit agent trained by self-play, measured", blueprint))
    return steps
