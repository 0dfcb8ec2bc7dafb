"""``pokerlab ttt``: learn tic-tac-toe by self-play (train), measure it (eval), play it (play)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import (
    batch_size_option,
    check_output_path,
    check_seed,
    emit_json,
    json_option,
    learning_rate_option,
    seed_option,
)
from pokerlab.errors import ConfigError, PokerlabError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

GROUPS = [("ttt", app, "Self-play value network for tic-tac-toe: train, eval, play.")]

DEFAULT_MODEL = "ttt_model.safetensors"


def _parse_eps(text: str) -> tuple[float, ...]:
    try:
        vals = tuple(float(t) for t in text.split(",") if t.strip())
    except ValueError as exc:
        raise ConfigError(f"bad epsilons {text!r}: expected numbers like '0.5,0.1'") from exc
    if not vals:
        raise ConfigError(f"bad epsilons {text!r}: expected numbers like '0.5,0.1'")
    return vals


def _shipped_model() -> Path:
    from pokerlab.io import PACKAGE_DATA

    return PACKAGE_DATA / DEFAULT_MODEL


def _wdl(d: dict[str, int]) -> str:
    n = max(d["win"] + d["draw"] + d["loss"], 1)
    w, dr, lo = (100 * d[k] / n for k in ("win", "draw", "loss"))
    return f"{d['win']}/{d['draw']}/{d['loss']} ({w:.1f}% / {dr:.1f}% / {lo:.1f}%)"


@app.command()
def train(
    out: Path = typer.Option(Path("ttt-run"), "--out", help="Run folder (resumed if it exists)."),
    force: bool = typer.Option(False, "--force", help="Start a new run in --out, replacing "
                               "the one there instead of resuming it (and replace an "
                               "existing --export file)."),
    preset: str = typer.Option(
        "default", "--preset", help="default (pokerlab's settings) or tutorial (the tutorial "
        "script's); options given explicitly override the preset."),
    levels: int | None = typer.Option(None, help="Number of levels (level 0 = random games) [16]."),
    games: int | None = typer.Option(None, help="Self-play games per level [30000]."),
    epochs: int | None = typer.Option(None, help="Training epochs per level [8; tutorial 5]."),
    gamma: float | None = typer.Option(
        None, help="Discount per own move going back from the end [0.9; tutorial 0.95]."),
    learning_rate: float | None = learning_rate_option(
        None, "Adam learning rate [1e-3; tutorial 1e-4]."),
    batch_size: int | None = batch_size_option(
        None, "Minibatch size [256; tutorial 64]."),
    width: int | None = typer.Option(None, help="Hidden units per layer [128]."),
    depth: int | None = typer.Option(None, help="Hidden layers [2]."),
    dropout: float | None = typer.Option(
        None, help="Dropout after each hidden layer [0.1; tutorial 0.5]."),
    weight_decay: float | None = typer.Option(None, help="Adam weight decay [1e-5]."),
    val_fraction: float | None = typer.Option(
        None, help="Fraction of games held out for validation [0.1; tutorial 0.2]."),
    epsilons: str | None = typer.Option(
        None, help="Exploration per move index; last repeats [0.5,0.1 per ply; tutorial "
        "0.5,0.5,0.1 per player move]."),
    eval_games: int | None = typer.Option(None, help="Games per evaluation match [1000]."),
    augment: bool = typer.Option(True, help="Train on random board symmetries per batch."),
    win_head: bool = typer.Option(False, help="Add a win-probability head (stretch goal): "
                                  "among moves near the best value, take the likeliest win."),
    win_margin: float | None = typer.Option(
        None, help="With --win-head: value slack of 'safe' moves [0.1] (0: only the moves "
        "of the best value are safe)."),
    seed: int = seed_option("Seed of everything (>= 0)."),
    export: Path | None = typer.Option(None, help="Also save the final model (with the "
                                       "run's history) to this .safetensors file (an "
                                       "existing one is refused without --force)."),
    json_out: bool = json_option(),
) -> None:
    """Train level after level (resumable), evaluate each level, plot the run."""
    from pokerlab.selfplay.train import EpochLoss, Progress, TrainConfig, run_training

    check_seed(seed)
    if export is not None:
        check_output_path(export, option="--export")
    given = {"levels": levels, "games": games, "epochs": epochs, "gamma": gamma,
             "lr": learning_rate, "batch_size": batch_size, "width": width, "depth": depth,
             "dropout": dropout, "weight_decay": weight_decay, "val_fraction": val_fraction,
             "epsilons": None if epsilons is None else _parse_eps(epsilons),
             "eval_games": eval_games, "win_margin": win_margin}
    overrides: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    cfg = TrainConfig.preset(preset, augment=augment, heads=2 if win_head else 1, seed=seed,
                             **overrides)
    if json_out:
        metrics = run_training(cfg, out)
    else:
        metrics = _train_with_progress(cfg, out, Progress, EpochLoss, run_training)
    from pokerlab.selfplay.plots import plot_levels
    from pokerlab.selfplay.train import final_model_path

    plot_levels(metrics, out / "levels.png")
    final = final_model_path(out)
    if export is not None:
        _export(final, export, metrics)
    last = metrics[-1]
    summary = {
        "run": str(out), "model": str(final), "levels": len(metrics), "preset": preset,
        "vs_random": last["vs_random"]["total"], "vs_minimax": last["vs_minimax"]["total"],
        "never_loses": last["never_loses"], "exact_vs_random": last["exact_vs_random"],
        "vs_previous": [dict(level=m["level"], **m["vs_previous"]["total"]) for m in metrics],
        "val_loss": [m["final_val_loss"] for m in metrics],
    }
    if json_out:
        emit_json(summary)
        return
    typer.echo(f"run folder: {out}   final model: {final}   plot: {out / 'levels.png'}")
    typer.echo(f"vs random (greedy):  {_wdl(summary['vs_random'])}")
    typer.echo(f"vs minimax (all openings, all optimal replies): {_wdl(summary['vs_minimax'])}")
    typer.echo(f"never loses to any opponent: {summary['never_loses']}")


def _train_with_progress(cfg: Any, out: Path, Progress: Any, EpochLoss: Any, run: Any) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as RichProgress

    console = Console(stderr=True)
    with RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=console) as bar:
        lv = bar.add_task("levels", total=cfg.levels)
        gm = bar.add_task("games", total=cfg.games)
        ep = bar.add_task("epochs", total=cfg.epochs)

        def on_level(level: int, phase: str) -> None:
            if phase == "games":
                bar.reset(gm, total=cfg.games, description=f"level {level} games")
                bar.reset(ep, total=cfg.epochs, description=f"level {level} epochs")

        def on_epoch(level: int, e: Any) -> None:
            bar.update(ep, advance=1, description=(
                f"level {level} epochs (train {e.train_loss:.4f} val {e.val_loss:.4f})"))

        def on_done(level: int, m: dict[str, Any]) -> None:
            bar.update(lv, completed=level + 1)
            console.log(
                f"level {level}: val {m['final_val_loss']:.4f}  vs random "
                f"{_wdl(m['vs_random']['total'])}  vs previous {_wdl(m['vs_previous']['total'])}"
                f"  minimax losses {m['vs_minimax']['total']['loss']}"
            )

        pr = Progress(on_level=on_level, on_games=lambda n: bar.update(gm, advance=n),
                      on_epoch=on_epoch, on_done=on_done)
        return run(cfg, out, progress=pr)


def _export(src: Path, dst: Path, metrics: list[dict[str, Any]]) -> None:
    from pokerlab.selfplay.net import load_model, save_model

    net, meta = load_model(src)
    meta = dict(meta)
    meta["history"] = [
        {"level": m["level"], "final_val_loss": m["final_val_loss"],
         "vs_previous": m["vs_previous"]["total"], "vs_random": m["vs_random"]["total"],
         "vs_minimax": m["vs_minimax"]["total"], "never_loses": m["never_loses"]}
        for m in metrics
    ]
    save_model(net, dst, metadata=meta)


def _load_agent(model: Path) -> tuple[Any, dict[str, Any]]:
    from pokerlab.selfplay.net import load_model, make_value_fn
    from pokerlab.selfplay.players import ValueAgent

    net, meta = load_model(model)
    margin = float(meta.get("train_config", {}).get("win_margin", 0.1))
    return ValueAgent(value_fn=make_value_fn(net), win_margin=margin), meta


@app.command("eval")
def eval_(
    model: Path | None = typer.Option(None, help="Model .safetensors (default: shipped model)."),
    run: Path | None = typer.Option(None, help="A run folder: evaluate its last level and "
                                    "replay every level against the previous one."),
    games: int = typer.Option(1000, help="Games per match (half as x)."),
    seed: int = seed_option("Seed of the matches (>= 0)."),
    json_out: bool = json_option(),
) -> None:
    """Win/draw/loss vs random, vs minimax from every opening and vs the previous levels."""
    check_seed(seed)
    import torch

    torch.set_num_threads(1)
    from pokerlab.games.tictactoe import TicTacToeGame
    from pokerlab.selfplay.evaluate import play_match
    from pokerlab.selfplay.minimax import MinimaxSolver
    from pokerlab.selfplay.players import EpsilonGreedyPlayer, RandomPlayer
    from pokerlab.selfplay.train import completed_levels, evaluate_agent

    if model is not None and run is not None:
        raise ConfigError("give --model or --run, not both")
    game = TicTacToeGame()
    solver = MinimaxSolver(game=game)
    solver.solve()
    vs_previous: list[dict[str, Any]] = []
    if run is not None:
        n = completed_levels(run)
        if n == 0:
            raise ConfigError(f"run {str(run)!r} has no finished level")
        agents = [_load_agent(run / f"level_{k:02d}" / "model.safetensors")[0]
                  for k in range(n)]
        eps = (0.5, 0.1)
        for k in range(n):
            prev: Any = RandomPlayer() if k == 0 else agents[k - 1]
            res = play_match(game, EpsilonGreedyPlayer(inner=agents[k], epsilons=eps),
                             EpsilonGreedyPlayer(inner=prev, epsilons=eps),
                             num_games=games, seed=seed + 1000 + k)
            vs_previous.append({"level": k, **res["total"].to_dict()})
        agent = agents[-1]
        source = str(run / f"level_{n - 1:02d}" / "model.safetensors")
    else:
        path = model if model is not None else _shipped_model()
        agent, meta = _load_agent(path)
        source = str(path)
        vs_previous = [{"level": h["level"], **h["vs_previous"]}
                       for h in meta.get("history", [])]
    ev = evaluate_agent(game, agent, solver=solver, previous=None, games=games,
                        eval_epsilons=(0.5, 0.1), seed=seed)
    out = {
        "model": source,
        "vs_random": ev["vs_random"]["total"],
        "vs_minimax": ev["vs_minimax"]["total"],
        "vs_previous": vs_previous,
        "vs_random_by_seat": {"x": ev["vs_random"]["as_first"], "o": ev["vs_random"]["as_second"]},
        "vs_minimax_by_seat": {"x": ev["vs_minimax"]["as_first"],
                               "o": ev["vs_minimax"]["as_second"]},
        "exact_vs_random": {"x": ev["exact_vs_random"]["as_first"],
                            "o": ev["exact_vs_random"]["as_second"]},
        "never_loses": ev["never_loses"],
    }
    if json_out:
        emit_json(out)
        return
    typer.echo(f"model: {source}")
    typer.echo(f"vs random ({games} games, half as x): {_wdl(out['vs_random'])}")
    for seat in ("x", "o"):
        ex = out["exact_vs_random"][seat]
        typer.echo(f"  as {seat}: {_wdl(out['vs_random_by_seat'][seat])}; exact: win "
                   f"{100 * ex['win']:.2f}% draw {100 * ex['draw']:.2f}% "
                   f"loss {100 * ex['loss']:.2f}%")
    typer.echo(f"vs minimax (every opening, every optimal reply): {_wdl(out['vs_minimax'])}")
    typer.echo(f"never loses to any opponent: {out['never_loses']}")
    for r in vs_previous:
        typer.echo(f"  level {r['level']:2d} vs previous: {_wdl(r)}")


@app.command()
def play(
    model: Path | None = typer.Option(None, help="Model .safetensors (default: shipped model)."),
    first: bool = typer.Option(False, "--first", help="You play x and move first."),
) -> None:
    """Play against the agent; it shows its value estimate of every legal move first."""
    import torch

    torch.set_num_threads(1)
    import numpy as np

    from pokerlab.games.tictactoe import MARKS, TicTacToeGame, parse_cell

    agent, _ = _load_agent(model if model is not None else _shipped_model())
    human = 0 if first else 1
    s = TicTacToeGame().new_initial_state()
    rng = np.random.default_rng(0)
    typer.echo(f"You are {MARKS[human]}. Cells: 1-9 row by row from the top-left, or 'row,col'.")
    while not s.is_terminal():
        typer.echo(_board(s))
        if s.current_player() == human:
            text = typer.prompt(f"your move ({MARKS[human]})", default="", show_default=False)
            if text.strip().lower() in ("q", "quit", "exit"):
                typer.echo("bye")
                return
            try:
                cell = parse_cell(text)
            except PokerlabError as exc:
                typer.echo(f"  {exc}")
                continue
            if cell not in s.legal_actions():
                typer.echo(f"  cell {cell + 1} is taken")
                continue
            s.apply_action(cell)
            continue
        est = agent.action_estimates(s)
        typer.echo("agent's value estimates (its own view, -1 lose .. +1 win):")
        typer.echo("  " + "  ".join(f"{a + 1}:{v:+.3f}" for a, (v, _) in sorted(est.items())))
        if not any(w != w for _, w in est.values()):  # a win-probability head
            typer.echo("  win probability: " + "  ".join(
                f"{a + 1}:{w:.2f}" for a, (_, w) in sorted(est.items())))
        a = agent.choose(s, rng, ply=0)
        typer.echo(f"agent plays {a + 1} {s.action_to_string(a)}")
        s.apply_action(a)
    typer.echo(_board(s))
    r = s.returns()[human]
    typer.echo("You win!" if r > 0 else "You lose." if r < 0 else "Draw.")
    sys.stdout.flush()


def _board(s: Any) -> str:
    cells = [("x" if v == 0 else "o" if v == 1 else str(i + 1)) for i, v in enumerate(s.board())]
    rows = [" " + " | ".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]
    return "\n---+---+---\n".join(rows)
