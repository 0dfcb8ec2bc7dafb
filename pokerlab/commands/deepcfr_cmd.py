"""``pokerlab deepcfr train|eval``: Deep CFR runs with checkpoints and exact evaluation."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer

from pokerlab.errors import PokerlabError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


@app.command()
def train(
    game: str = typer.Argument(..., help="kuhn, leduc, flop_holdem (or OpenSpiel's "
                               "kuhn_poker / leduc_poker)"),
    iterations: int = typer.Option(100, "--iterations", help="CFR iterations T."),
    traversals: int = typer.Option(1000, "--traversals", help="Traversals K per player."),
    memory: int = typer.Option(1_000_000, "--memory", help="Capacity of each memory."),
    sgd_steps: int = typer.Option(1000, "--sgd-steps", help="Advantage-net SGD steps."),
    policy_sgd_steps: int = typer.Option(4000, "--policy-sgd-steps",
                                         help="Average-strategy-net SGD steps."),
    batch: int = typer.Option(2048, "--batch", help="SGD batch size."),
    dim: int = typer.Option(64, "--dim", help="Network width."),
    sdcfr: bool = typer.Option(False, "--sdcfr", help="Keep all advantage nets (SD-CFR)."),
    seed: int = typer.Option(0, "--seed"),
    device: str = typer.Option("cpu", "--device", help="cpu, cuda or auto."),
    workers: int = typer.Option(1, "--workers", help="Ray worker processes (1: no Ray)."),
    ray_address: str | None = typer.Option(None, "--ray-address",
                                           help="Join this Ray cluster."),
    checkpoint: Path | None = typer.Option(None, "--checkpoint", help="Checkpoint folder."),
    resume: bool = typer.Option(False, "--resume", help="Continue from --checkpoint."),
    eval_every: int = typer.Option(0, "--eval-every",
                                   help="Exact exploitability every N iterations (0: never)."),
    no_eval: bool = typer.Option(False, "--no-eval", help="Skip the final evaluation."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Train Deep CFR on GAME (exact exploitability at the end)."""
    try:
        _train(locals())
    except PokerlabError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _train(a: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from pokerlab.deepcfr.config import DeepCFRConfig
    from pokerlab.deepcfr.evaluate import exploitability, to_mbb
    from pokerlab.deepcfr.solver import DeepCFRSolver, Executor, load_game
    from pokerlab.errors import ConfigError

    ck: Path | None = a["checkpoint"]
    if a["resume"]:
        if ck is None or not (ck / "state.json").exists():
            raise ConfigError(f"--resume needs an existing --checkpoint folder, got {ck}")
        solver = DeepCFRSolver.load(ck, config_changes={"iterations": a["iterations"]})
        game = solver.game
    else:
        cfg = DeepCFRConfig(
            game=a["game"], iterations=a["iterations"], traversals=a["traversals"],
            memory=a["memory"], sgd_steps=a["sgd_steps"], batch=a["batch"],
            policy_sgd_steps=a["policy_sgd_steps"], dim=a["dim"], sdcfr=a["sdcfr"],
            seed=a["seed"], device=a["device"])
        game = load_game(cfg.game)
        solver = DeepCFRSolver(game=game, config=cfg)
    executor: Executor
    if a["workers"] > 1 or a["ray_address"]:
        from pokerlab.deepcfr.distributed import RayExecutor

        executor = RayExecutor(workers=max(1, a["workers"]), address=a["ray_address"])
    else:
        executor = Executor()
    progress: Progress | None = None
    task: Any = None
    if not a["as_json"]:
        progress = Progress(TextColumn(f"[bold]deepcfr {solver.config.game}"), BarColumn(),
                            TextColumn("{task.completed:.0f}/{task.total:.0f} it"),
                            TextColumn("expl {task.fields[expl]}"), TimeElapsedColumn(),
                            console=Console(stderr=True))
        progress.start()
        task = progress.add_task("train", total=solver.config.iterations,
                                 completed=solver.iteration, expl="-")

    def on_iteration(s: DeepCFRSolver) -> None:
        expl_txt = "-"
        every = a["eval_every"]
        if every and s.iteration % every == 0:
            t0 = time.perf_counter()
            e = exploitability(game, s.policy())
            s.history.append({"iteration": s.iteration, "seconds": s.seconds,
                              "cpu_seconds": s.cpu_seconds,
                              "nodes": s.nodes, "exploitability": e,
                              "exploitability_mbb": to_mbb(game, e),
                              "eval_seconds": time.perf_counter() - t0})
            expl_txt = f"{to_mbb(game, e):.1f} mbb"
        if ck is not None:
            s.save(ck)
        if progress is not None:
            progress.update(task, completed=s.iteration, expl=expl_txt)

    try:
        solver.train(executor=executor, callback=on_iteration)
    finally:
        executor.close()
        if progress is not None:
            progress.stop()
    policy = solver.policy()
    expl = None
    eval_seconds = 0.0
    eval_cpu = 0.0
    if not a["no_eval"]:
        t0, c0 = time.perf_counter(), time.process_time()
        expl = exploitability(game, policy)
        eval_seconds = time.perf_counter() - t0
        eval_cpu = time.process_time() - c0
    if ck is not None:
        solver.save(ck)
    out = {
        "game": solver.config.game, "iterations": solver.iteration,
        "exploitability": expl, "exploitability_mbb": None if expl is None else
        to_mbb(game, expl), "seconds": solver.seconds, "cpu_seconds": solver.cpu_seconds,
        "eval_seconds": eval_seconds, "eval_cpu_seconds": eval_cpu,
        "nodes": solver.nodes, "checkpoint": None if ck is None else str(ck),
    }
    _emit(out, a["as_json"])


@app.command("eval")
def eval_cmd(
    checkpoint: Path = typer.Argument(..., help="A folder written by deepcfr train."),
    sdcfr: bool = typer.Option(False, "--sdcfr", help="Evaluate the SD-CFR average of all "
                               "stored advantage nets instead of the strategy net."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Exact exploitability of a Deep CFR checkpoint."""
    try:
        _eval(checkpoint, sdcfr, as_json)
    except PokerlabError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _eval(ck: Path, sdcfr: bool, as_json: bool) -> None:
    from pokerlab.deepcfr.evaluate import exploitability, to_mbb
    from pokerlab.deepcfr.solver import DeepCFRSolver
    from pokerlab.errors import ConfigError, PolicyFileError

    if not (ck / "state.json").exists():
        raise PolicyFileError(f"{str(ck)!r} is not a Deep CFR checkpoint (no state.json)")
    solver = DeepCFRSolver.load(ck)
    t0 = time.perf_counter()
    if sdcfr:
        if solver.config.game == "flop_holdem":
            raise ConfigError("--sdcfr evaluation tabulates the game tree: not for flop_holdem")
        pol = solver.sdcfr_policy()
        pol.tabulate(solver.game)
    else:
        pol = solver.policy()
    expl = exploitability(solver.game, pol)
    out = {"game": solver.config.game, "iterations": solver.iteration,
           "exploitability": expl, "exploitability_mbb": to_mbb(solver.game, expl),
           "seconds": time.perf_counter() - t0, "train_seconds": solver.seconds}
    _emit(out, as_json)


def _emit(out: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(out))
        return
    for k, v in out.items():
        typer.echo(f"{k}: {v}")


GROUPS = [("deepcfr", app, "Deep CFR: neural regret approximation (train, eval).")]
