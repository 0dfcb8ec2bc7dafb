"""``pokerlab deepcfr train|eval``: Deep CFR runs with checkpoints and exact evaluation."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import (
    batch_size_option,
    emit_json,
    exploitability_fields,
    friendly,
    iterations_option,
    json_option,
    learning_rate_option,
    seed_option,
)

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


@app.command()
@friendly
def train(
    game: str = typer.Argument(..., help="kuhn, leduc, flop_holdem (or OpenSpiel's "
                               "kuhn_poker / leduc_poker)"),
    iterations: int = iterations_option(100, "CFR iterations T."),
    traversals: int = typer.Option(1000, "--traversals", help="Traversals K per player."),
    memory: int = typer.Option(1_000_000, "--memory", help="Capacity of each memory."),
    sgd_steps: int = typer.Option(1000, "--sgd-steps", help="Advantage-net SGD steps."),
    policy_sgd_steps: int = typer.Option(4000, "--policy-sgd-steps",
                                         help="Average-strategy-net SGD steps."),
    batch: int = batch_size_option(2048, "SGD batch size (rows of one information set "
                                   "are merged first, see docs/deepcfr.md)."),
    learning_rate: float = learning_rate_option(1e-3, "Adam learning rate (annealed to 0 "
                                                "along a cosine unless --constant-lr)."),
    dim: int = typer.Option(64, "--dim", help="Network width."),
    sdcfr: bool = typer.Option(False, "--sdcfr", help="Keep all advantage nets (SD-CFR)."),
    warm_start: bool = typer.Option(False, "--warm-start", help="Continue each advantage "
                                    "net from the previous iteration's (the paper's "
                                    "ablation) instead of training it from scratch."),
    constant_lr: bool = typer.Option(False, "--constant-lr", help="The original recipe: "
                                     "constant learning rate, uniform batches, no row "
                                     "merging."),
    seed: int = seed_option(),
    device: str = typer.Option("cpu", "--device", help="cpu, cuda or auto."),
    workers: int = typer.Option(1, "--workers", help="Ray worker processes (1: no Ray)."),
    ray_address: str | None = typer.Option(None, "--ray-address",
                                           help="Join this Ray cluster."),
    checkpoint: Path | None = typer.Option(None, "--checkpoint", help="Checkpoint folder."),
    resume: bool = typer.Option(False, "--resume", help="Continue from --checkpoint."),
    force: bool = typer.Option(False, "--force", help="Replace the run in --checkpoint (its "
                               "files are removed once the new run writes)."),
    eval_every: int = typer.Option(0, "--eval-every",
                                   help="Exact exploitability every N iterations (0: never)."),
    no_eval: bool = typer.Option(False, "--no-eval", help="Skip the final evaluation."),
    as_json: bool = json_option(),
) -> None:
    """Train Deep CFR on GAME (exact exploitability at the end)."""
    _train(locals())


def _train(a: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from pokerlab.commands._common import check_seed
    from pokerlab.deepcfr.config import DeepCFRConfig
    from pokerlab.deepcfr.evaluate import big_blind, exploitability, to_mbb
    from pokerlab.deepcfr.solver import DeepCFRSolver, Executor, resolve_game
    from pokerlab.errors import ConfigError
    from pokerlab.executor import check_ray_address, check_workers

    check_seed(a["seed"])
    check_workers(a["workers"])
    check_ray_address(a["ray_address"], reachable=True)
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
            lr=a["learning_rate"], warm_start=a["warm_start"],
            merge_rows=not a["constant_lr"], lr_decay=not a["constant_lr"],
            seed=a["seed"], device=a["device"])
        game = resolve_game(cfg.game)
        solver = DeepCFRSolver(game=game, config=cfg)
    executor: Executor
    if a["workers"] > 1 or a["ray_address"]:
        from pokerlab.deepcfr.distributed import RayExecutor

        executor = RayExecutor(workers=a["workers"], address=a["ray_address"])
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
        **exploitability_fields(expl, big_blind(game)), "seconds": solver.seconds,
        "cpu_seconds": solver.cpu_seconds,
        "cpu_seconds_by_phase": dict(solver.cpu_split),
        "eval_seconds": eval_seconds, "eval_cpu_seconds": eval_cpu,
        "nodes": solver.nodes, "checkpoint": None if ck is None else str(ck),
    }
    _emit(out, a["as_json"])


@app.command("eval")
@friendly
def eval_cmd(
    checkpoint: Path = typer.Argument(..., help="A folder written by deepcfr train."),
    sdcfr: bool = typer.Option(False, "--sdcfr", help="Evaluate the SD-CFR average of all "
                               "stored advantage nets instead of the strategy net."),
    as_json: bool = json_option(),
) -> None:
    """Exact exploitability of a Deep CFR checkpoint (checksums verified first)."""
    _eval(checkpoint, sdcfr, as_json)


def _eval(ck: Path, sdcfr: bool, as_json: bool) -> None:
    from pokerlab.deepcfr.evaluate import big_blind, exploitability, has_public_betting
    from pokerlab.deepcfr.solver import DeepCFRSolver
    from pokerlab.errors import ConfigError

    solver = DeepCFRSolver.load(ck)
    t0 = time.perf_counter()
    if sdcfr:
        if has_public_betting(solver.game):
            raise ConfigError(f"--sdcfr evaluation tabulates the whole game tree; "
                              f"{solver.config.game!r} is evaluated on its public tree, "
                              "which SD-CFR does not support")
        pol = solver.sdcfr_policy()
        pol.tabulate(solver.game)
    else:
        pol = solver.policy()
    expl = exploitability(solver.game, pol)
    out = {"game": solver.config.game, "iterations": solver.iteration,
           **exploitability_fields(expl, big_blind(solver.game)),
           "seconds": time.perf_counter() - t0, "train_seconds": solver.seconds}
    _emit(out, as_json)


def _emit(out: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit_json(out)
        return
    for k, v in out.items():
        typer.echo(f"{k}: {v}")


GROUPS = [("deepcfr", app, "Deep CFR: neural regret approximation (train, eval).")]
