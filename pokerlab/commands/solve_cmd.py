"""``pokerlab solve GAME``: run an exact or sampling solver and report exploitability."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import (
    algo_option,
    check_image_path,
    check_output_path,
    check_seed,
    emit_json,
    force_option,
    json_option,
    out_option,
    png_option,
    progress,
    seed_option,
)

ALGO_HELP = "cfr, cfr-sim, cfr+, lcfr, dcfr, es-mccfr, os-mccfr or lp"


def solve(
    game: str = typer.Argument(..., help="Game name: kuhn, leduc, eight_card, ..."),
    algo: str = algo_option("cfr+", ALGO_HELP),
    iterations: int | None = typer.Option(
        None, "--iterations", help="Iterations (cap when a target is given; not for lp)."),
    target_exploitability: float | None = typer.Option(
        None, "--target-exploitability",
        help="Stop once exploitability (chips) is <= X; reports target_reached."),
    seed: int = seed_option("Seed for the sampling solvers (>= 0)."),
    out: Path | None = out_option(
        "Write the average policy (.npz) and a .json config next to it."),
    png: Path | None = png_option(
        "Plot exploitability vs iterations and seconds (log-log; .png or .svg)."),
    force: bool = force_option(),
    as_json: bool = json_option(),
) -> None:
    """Solve GAME with one of the CFR family, MCCFR or the sequence-form LP."""
    from rich.console import Console

    from pokerlab.games import load_game
    from pokerlab.io import atomic_write_json
    from pokerlab.policy import save_policy
    from pokerlab.solvers.driver import check_solve_args
    from pokerlab.solvers.driver import solve as run_solve

    check_seed(seed)
    check_solve_args(algo=algo, iterations=iterations,
                     target_exploitability=target_exploitability, seed=seed)
    if out is not None:
        check_output_path(out, option="--out")
    if png is not None:
        check_image_path(png, option="--png")
    the_game = load_game(game)
    if algo not in ("es-mccfr", "os-mccfr") and hasattr(the_game, "check_exact_size"):
        the_game.check_exact_size()  # too large: one clear error suggesting MCCFR
    with progress(f"{game} {algo}", enabled=not as_json, total=iterations, unit="it",
                  fields={"exploitability": "-"}) as update:
        def on_check(done: int, limit: int, expl: float | None) -> None:
            update(done, limit or None, exploitability="-" if expl is None else f"{expl:.3g}")

        res = run_solve(the_game, algo=algo, iterations=iterations,
                        target_exploitability=target_exploitability, seed=seed,
                        on_check=on_check)
    policy_path = None
    if out is not None:
        res.policy.metadata.update({"game_value": res.game_value,
                                    "exploitability": res.exploitability})
        save_policy(res.policy, out)
        atomic_write_json(out.with_name(out.name + ".json"), res.config_json())
        policy_path = str(out)
    if png is not None:
        _plot(res.history, png, f"{game} {algo}")
    summary = dict(res.summary())
    summary["policy_path"] = policy_path
    summary["png"] = None if png is None else str(png)
    if res.target_reached is False:
        typer.echo(f"warning: target exploitability {target_exploitability:g} not reached "
                   f"after {res.iterations} iterations (exploitability "
                   f"{res.exploitability if res.exploitability is not None else float('nan'):.4g})",
                   err=True)
    if as_json:
        emit_json(summary)
        return
    if res.exploitability is None or res.game_value is None:
        measured = "exploitability not measured (game too large for exact evaluation)"
    else:
        measured = (f"exploitability {res.exploitability:.6g} chips "
                    f"({summary['exploitability_mbb']:.4g} mbb/hand, big blind "
                    f"{res.big_blind:g} chips), game value {res.game_value:.9f}")
    Console().print(f"{game} {algo}: {res.iterations} iterations in {res.seconds:.3f} s, "
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
        _label_log_axis(axes[1], min(secs), max(secs))
    axes[0].set_xlabel("iterations")
    axes[1].set_xlabel("seconds (wall, including tree building and checks)")
    for ax in axes:
        ax.set_ylabel("exploitability (chips)")
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fmt = path.suffix.lower().lstrip(".")
    with atomic_path(path, suffix=path.suffix) as tmp:
        fig.savefig(tmp, format=fmt, dpi=100)
    plt.close(fig)


def seconds_ticks(lo: float, hi: float) -> list[float]:
    """Tick positions for a log seconds axis spanning ``lo..hi`` (at least two).

    1-2-5 steps per decade when they give at least three ticks; otherwise (a solve often
    spans far less than a decade, where matplotlib's log axis labels nothing) about four
    evenly spaced round values.
    """
    import math

    if not (lo > 0 and hi >= lo):
        return []
    ticks: list[float] = []
    for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
        for m in (1.0, 2.0, 5.0):
            t = m * 10.0 ** e
            if lo * 0.999 <= t <= hi * 1.001:
                ticks.append(float(f"{t:.12g}"))
    if len(ticks) >= 3:
        return ticks
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / 5
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1.0, 2.0, 5.0, 10.0) if m * mag >= raw)
    lin = [float(f"{k * step:.12g}") for k in range(math.ceil(lo / step - 1e-9),
                                                     math.floor(hi / step + 1e-9) + 1)]
    return lin if len(lin) >= 2 else sorted({lo, hi})


def _label_log_axis(ax: Any, lo: float, hi: float) -> None:
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    ticks = seconds_ticks(lo, hi)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: f"{x:.3g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


COMMANDS = [solve]
