"""``pokerlab pushfold``: exact heads-up push/fold equilibria, charts and RL learners."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from pokerlab.errors import PokerlabError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


def _fail(exc: PokerlabError) -> typer.Exit:
    typer.echo(f"error: {exc}", err=True)
    return typer.Exit(2)


@contextmanager
def _progress(label: str, enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    prog = Progress(TextColumn(f"[bold]{label}"), BarColumn(),
                    TextColumn("{task.completed:.0f}/{task.total:.0f}"), TimeElapsedColumn(),
                    console=Console(stderr=True), transient=False)
    task = prog.add_task(label, total=1)
    prog.start()

    def update(done: int, total: int) -> None:
        prog.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        prog.stop()


def _side_path(path: Path, tag: str) -> Path:
    return path.with_name(f"{path.stem}_{tag}{path.suffix}")


def _check_image(path: Path) -> None:
    from pokerlab.errors import ConfigError

    if path.suffix.lower() not in (".png", ".svg"):
        raise ConfigError(f"chart file must end in .png or .svg, got {path.name!r}")


@app.command("solve")
def solve_cmd(
    stack: float = typer.Option(10.0, "--stack", help="Effective stack in bb (incl. blind, ante)."),
    ante: float = typer.Option(0.0, "--ante", help="Ante per player in bb."),
    method: str = typer.Option("lp", "--method", help="lp (exact, default) or cfr+."),
    iterations: int = typer.Option(20_000, "--iterations", help="CFR+ iterations."),
    png: Path | None = typer.Option(
        None, "--png", help="Write the SB range chart here and BB's to NAME_bb (.png/.svg)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Solve push/fold exactly at one stack: ranges, value and exploitability."""
    try:
        from pokerlab.pushfold.game import PushFoldConfig
        from pokerlab.pushfold.solver import solve

        if png is not None:
            _check_image(png)
        cfg = PushFoldConfig(stack=stack, ante=ante)
        sol = solve(cfg, method=method, iterations=iterations)
        out = sol.to_json()
        if png is not None:
            _write_range_pngs(sol, png)
    except PokerlabError as exc:
        raise _fail(exc) from None
    if as_json:
        typer.echo(json.dumps(out))
        return
    _print_solution(sol, out)


def _write_range_pngs(sol: Any, png: Path) -> None:
    from pokerlab.cards.ranges import plot_range_grid
    from pokerlab.io import atomic_write_json

    st = f"{sol.config.stack:g} bb" + (f", ante {sol.config.ante:g}" if sol.config.ante else "")
    plot_range_grid(sol.sb_shove, png,
                    title=f"SB shoves {sol.sb_shove_fraction:.1%} at {st}")
    plot_range_grid(sol.bb_call, _side_path(png, "bb"),
                    title=f"BB calls {sol.bb_call_fraction:.1%} at {st}", cmap="Blues")
    atomic_write_json(png.with_name(png.name + ".json"),
                      {"config": sol.config.to_json(), "method": sol.method,
                       "iterations": sol.iterations, "summary": sol.to_json()})


def _print_solution(sol: Any, out: dict[str, Any]) -> None:
    from rich.console import Console

    from pokerlab.cards.ranges import range_grid_text

    con = Console()
    con.print(f"[bold]push/fold at {out['stack']:g} bb (ante {out['ante']:g})[/bold]  "
              f"method {sol.method}, {out['seconds'] * 1000:.1f} ms")
    con.print(f"SB shoves {out['sb_shove_fraction']:.2%} of combos, BB calls "
              f"{out['bb_call_fraction']:.2%}; SB value {out['sb_value_bb']:+.5f} bb/hand; "
              f"exploitability {out['exploitability_bb']:.2e} bb")
    mixed = sol.mixed_classes()
    for side in ("sb", "bb"):
        if mixed[side]:
            con.print(f"{side.upper()} mixes: " + ", ".join(f"{n} {p:.3f}" for n, p in mixed[side]))
    con.print("\n[bold]SB shove[/bold] (% of the class)")
    con.print(range_grid_text(sol.sb_shove), highlight=False, soft_wrap=True)
    con.print("\n[bold]BB call[/bold] (% of the class)")
    con.print(range_grid_text(sol.bb_call), highlight=False, soft_wrap=True)
    con.print(f"\nSB: {out['sb_range']}\nBB: {out['bb_range']}", highlight=False, soft_wrap=True)


@app.command("chart")
def chart_cmd(
    max_stack: float = typer.Option(20.0, "--max-stack", help="Largest stack of the sweep (bb)."),
    min_stack: float = typer.Option(1.0, "--min-stack", help="Smallest stack of the sweep (bb)."),
    step: float = typer.Option(0.1, "--step", help="Stack step of the sweep (bb)."),
    ante: float = typer.Option(0.0, "--ante", help="Ante per player in bb."),
    png: Path | None = typer.Option(
        None, "--png", help="Write the SB chart here and BB's to NAME_bb (.png/.svg)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """The classic push/fold chart: the largest stack at which each hand shoves / calls."""
    try:
        from pokerlab.pushfold.solver import pushfold_chart

        if png is not None:
            _check_image(png)
        with _progress("sweep", not as_json) as prog:
            chart = pushfold_chart(max_stack=max_stack, min_stack=min_stack, step=step,
                                   ante=ante, progress=prog)
        if png is not None:
            _write_chart_pngs(chart, png, ante)
    except PokerlabError as exc:
        raise _fail(exc) from None
    if as_json:
        out = chart.to_json()
        out.update({"min_stack": min_stack, "ante": ante})
        typer.echo(json.dumps(out))
        return
    from rich.console import Console

    con = Console()
    con.print(f"[bold]SB: largest stack (bb) at which the hand is shoved[/bold] "
              f"(sweep {min_stack:g}..{max_stack:g} step {step:g}, ante {ante:g})")
    con.print(chart.text("sb"), highlight=False, soft_wrap=True)
    con.print("\n[bold]BB: largest stack (bb) at which the hand calls a shove[/bold]")
    con.print(chart.text("bb"), highlight=False, soft_wrap=True)


def _write_chart_pngs(chart: Any, png: Path, ante: float) -> None:
    from pokerlab.cards.ranges import plot_range_grid
    from pokerlab.io import atomic_write_json

    for side, path, cmap in (("sb", png, "Reds"), ("bb", _side_path(png, "bb"), "Blues")):
        vals = chart.sb_max_stack if side == "sb" else chart.bb_max_stack
        what = "shove" if side == "sb" else "call"
        plot_range_grid(None, path, values=vals, labels=chart.labels(side),
                        vmax=chart.max_stack, cmap=cmap,
                        title=f"{side.upper()} {what}: largest stack (bb), ante {ante:g}")
    atomic_write_json(png.with_name(png.name + ".json"), {**chart.to_json(), "ante": ante})


@app.command("learn")
def learn_cmd(
    stack: float = typer.Option(10.0, "--stack", help="Effective stack in bb."),
    hands: int = typer.Option(1_000_000, "--hands", help="Hands of self-play."),
    features: str = typer.Option("tutorial", "--features", help="tutorial (linear) or rich."),
    ante: float = typer.Option(0.0, "--ante", help="Ante per player in bb."),
    learning_rate: float = typer.Option(0.0005, "--learning-rate", help="SGD step (tutorial)."),
    epsilon_start: float = typer.Option(0.5, "--epsilon-start", help="Initial exploration."),
    epsilon_end: float | None = typer.Option(
        None, "--epsilon-end", help="Final exploration, linear decay [0.02 tutorial, 0 rich]."),
    seed: int = typer.Option(0, "--seed", help="Random seed."),
    save: Path | None = typer.Option(
        None, "--save", help="Write the learned policy (.npz) and its config (.json)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Monte Carlo RL (the tutorial's linear model, or a tabular one) vs the exact answer."""
    try:
        from pokerlab.pushfold.learn import LearnConfig, learn

        cfg = LearnConfig(stack=stack, ante=ante, hands=hands, features=features,
                          learning_rate=learning_rate, epsilon_start=epsilon_start,
                          epsilon_end=(epsilon_end if epsilon_end is not None
                                       else (0.02 if features == "tutorial" else 0.0)),
                          seed=seed)
        with _progress("self-play", not as_json) as prog:
            res = learn(cfg, progress=prog)
        out = res.to_json()
        out.update(_ranges(res))
        if save is not None:
            _save_learned(res, save, out)
    except PokerlabError as exc:
        raise _fail(exc) from None
    if as_json:
        typer.echo(json.dumps(out))
        return
    from rich.console import Console

    from pokerlab.cards.ranges import range_grid_text

    con = Console()
    con.print(f"[bold]{features} learner, {hands} hands at {stack:g} bb[/bold] "
              f"({res.seconds:.1f} s, seed {seed})")
    for line in res.theta_reading():
        con.print("  " + line, highlight=False, soft_wrap=True)
    con.print(f"learned ranges: SB shoves {out['sb_shove_fraction']:.1%}, "
              f"BB calls {out['bb_call_fraction']:.1%} (Nash: "
              f"{out['nash_sb_shove_fraction']:.1%} / {out['nash_bb_call_fraction']:.1%})")
    if "greedy_exploitability_bb" in out:
        con.print(f"current greedy policy: exploitability {out['greedy_exploitability_bb']:.4f}")
    con.print(f"SB value {out['sb_value_bb']:+.4f} bb/hand (Nash {out['nash_sb_value_bb']:+.4f}); "
              f"exact exploitability {out['exploitability_bb']:.4f} bb/hand")
    con.print("\n[bold]SB shove[/bold]")
    con.print(range_grid_text(res.sb_shove), highlight=False, soft_wrap=True)
    con.print("\n[bold]BB call[/bold]")
    con.print(range_grid_text(res.bb_call), highlight=False, soft_wrap=True)


def _ranges(res: Any) -> dict[str, str]:
    import numpy as np

    from pokerlab.cards.ranges import range_to_string

    def rng(w: Any) -> str:
        r = np.round(w, 6)
        return range_to_string(r) if r.any() else ""

    return {"sb_range": rng(res.sb_shove), "bb_range": rng(res.bb_call)}


def _save_learned(res: Any, save: Path, out: dict[str, Any]) -> None:
    from pokerlab.io import atomic_write_json
    from pokerlab.policy import save_policy
    from pokerlab.pushfold.policy import PushFoldPolicy

    pol = PushFoldPolicy(sb_shove=res.sb_shove, bb_call=res.bb_call)
    save_policy(pol.to_tabular(metadata={"game": "pushfold", "stack": res.config.stack,
                                         "ante": res.config.ante,
                                         "exploitability": res.exploitability}), save)
    atomic_write_json(save.with_name(save.name + ".json"),
                      {"config": res.config.to_json(), "summary": out})


GROUPS = [("pushfold", app, "Heads-up push/fold: exact Nash, charts, RL learners.")]
