"""``pokerlab solve GAME``: run an exact or sampling solver and report exploitability."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from pokerlab.errors import PokerlabError

ALGO_HELP = "cfr, cfr-sim, cfr+, lcfr, dcfr, es-mccfr, os-mccfr or lp"


def solve(
    game: str = typer.Argument(..., help="Game name: kuhn, leduc, eight_card, ..."),
    algo: str = typer.Option("cfr+", "--algo", help=ALGO_HELP),
    iterations: int | None = typer.Option(
        None, "--iterations", help="Iterations (cap when a target is given)."),
    target_exploitability: float | None = typer.Option(
        None, "--target-exploitability", help="Stop once exploitability (chips) is <= X."),
    seed: int = typer.Option(0, "--seed", help="Seed for the sampling solvers."),
    save: Path | None = typer.Option(
        None, "--save", help="Write the average policy (.npz) and a .json config next to it."),
    plot: Path | None = typer.Option(
        None, "--plot", help="Plot exploitability vs iterations and seconds (log-log PNG)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Solve GAME with one of the CFR family, MCCFR or the sequence-form LP."""
    try:
        _run(game, algo, iterations, target_exploitability, seed, save, plot, as_json)
    except PokerlabError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _run(game_name: str, algo: str, iterations: int | None, target: float | None, seed: int,
         save: Path | None, plot: Path | None, as_json: bool) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from pokerlab.evaluation import mbb_per_hand
    from pokerlab.games import load_game
    from pokerlab.io import atomic_write_json
    from pokerlab.policy import save_policy
    from pokerlab.solvers.driver import solve as run_solve

    game = load_game(game_name)
    err = Console(stderr=True)
    progress: Progress | None = None
    task: Any = None
    if not as_json:
        progress = Progress(TextColumn(f"[bold]{game_name} {algo}"), BarColumn(),
                            TextColumn("{task.completed:.0f} it"),
                            TextColumn("exploitability {task.fields[expl]}"),
                            TimeElapsedColumn(), console=err, transient=False)
        progress.start()
        # with only a target the length is unknown: an indeterminate bar
        task = progress.add_task("solve", total=iterations if iterations else None,
                                 expl="-")

    def on_check(done: int, limit: int, expl: float | None) -> None:
        if progress is not None:
            progress.update(task, completed=done, expl="-" if expl is None else f"{expl:.3g}")

    try:
        res = run_solve(game, algo=algo, iterations=iterations, target_exploitability=target,
                        seed=seed, on_check=on_check)
    finally:
        if progress is not None:
            progress.stop()
    policy_path = None
    if save is not None:
        res.policy.metadata.update({"game_value": res.game_value,
                                    "exploitability": res.exploitability})
        save_policy(res.policy, save)
        atomic_write_json(save.with_name(save.name + ".json"), res.config_json())
        policy_path = str(save)
    if plot is not None:
        _plot(res.history, plot, f"{game_name} {algo}")
    out = dict(res.summary())
    out["policy_path"] = policy_path
    if as_json:
        typer.echo(json.dumps(out))
        return
    if res.exploitability is None or res.game_value is None:
        measured = "exploitability not measured (game too large for exact evaluation)"
    else:
        measured = (f"exploitability {res.exploitability:.6g} chips "
                    f"({mbb_per_hand(res.exploitability):.4g} mbb/hand), "
                    f"game value {res.game_value:.9f}")
    Console().print(f"{game_name} {algo}: {res.iterations} iterations in {res.seconds:.3f} s, "
                    + measured + (f", policy saved to {policy_path}" if policy_path else ""))


def _plot(history: list[tuple[int, float, float]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pokerlab.io import atomic_path

    pts = [(i, s, e) for i, s, e in history if i > 0 and e > 0]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    if pts:
        its, secs, ex = zip(*pts, strict=True)
        axes[0].loglog(its, ex, marker=".")
        axes[1].loglog(secs, ex, marker=".")
    from matplotlib.ticker import NullFormatter

    axes[1].xaxis.set_minor_formatter(NullFormatter())  # a ~1 s decade: minor labels overlap
    axes[0].set_xlabel("iterations")
    axes[1].set_xlabel("seconds (wall, including tree building and checks)")
    for ax in axes:
        ax.set_ylabel("exploitability (chips)")
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, format="png", dpi=100)
    plt.close(fig)


COMMANDS = [solve]
