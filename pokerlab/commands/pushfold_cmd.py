"""``pokerlab pushfold``: exact heads-up push/fold equilibria, charts and RL learners."""

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
    learning_rate_option,
    out_option,
    png_option,
    progress,
    seed_option,
    stack_option,
)

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


def _side_path(path: Path, tag: str) -> Path:
    return path.with_name(f"{path.stem}_{tag}{path.suffix}")


def _check_pngs(png: Path | None) -> None:
    """Check ``--png`` and the BB picture written beside it (``NAME_bb``)."""
    if png is not None:
        check_image_path(png)
        check_image_path(_side_path(png, "bb"))


@app.command("solve")
def solve_cmd(
    stack: float = stack_option(10.0, "Effective stack in bb (incl. blind, ante)."),
    ante: float = typer.Option(0.0, "--ante", help="Ante per player in bb."),
    algo: str = algo_option("lp", "lp (exact, default) or cfr+."),
    iterations: int | None = typer.Option(
        None, "--iterations", help="CFR+ iterations [20000] (not for lp)."),
    png: Path | None = png_option(
        "Write the SB range chart here and BB's to NAME_bb (.png/.svg)."),
    force: bool = force_option(),
    as_json: bool = json_option(),
) -> None:
    """Solve push/fold exactly at one stack: ranges, value and exploitability."""
    from pokerlab.errors import ConfigError
    from pokerlab.pushfold.game import PushFoldConfig
    from pokerlab.pushfold.solver import solve

    _check_pngs(png)
    if algo == "lp" and iterations is not None:
        raise ConfigError("--iterations does nothing for --algo lp (it solves exactly); drop it")
    cfg = PushFoldConfig(stack=stack, ante=ante)
    sol = solve(cfg, method=algo, iterations=20_000 if iterations is None else iterations)
    out = sol.to_json()
    if png is not None:
        _write_range_pngs(sol, png)
    if as_json:
        emit_json(out)
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
                      {"config": sol.config.to_json(), "algo": sol.method,
                       "iterations": sol.iterations, "summary": sol.to_json()})


def _print_solution(sol: Any, out: dict[str, Any]) -> None:
    from rich.console import Console

    from pokerlab.cards.ranges import range_grid_text

    con = Console()
    con.print(f"[bold]push/fold at {out['stack']:g} bb (ante {out['ante']:g})[/bold]  "
              f"algo {sol.method}, {out['seconds'] * 1000:.1f} ms")
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
    png: Path | None = png_option("Write the SB chart here and BB's to NAME_bb (.png/.svg)."),
    force: bool = force_option(),
    as_json: bool = json_option(),
) -> None:
    """The classic push/fold chart: the largest stack at which each hand shoves / calls."""
    from pokerlab.pushfold.solver import pushfold_chart

    _check_pngs(png)
    with progress("sweep", enabled=not as_json, total=1) as update:
        chart = pushfold_chart(max_stack=max_stack, min_stack=min_stack, step=step,
                               ante=ante, progress=update)
    if png is not None:
        _write_chart_pngs(chart, png, ante)
    if as_json:
        out = chart.to_json()
        out.update({"min_stack": min_stack, "ante": ante})
        emit_json(out)
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
    stack: float = stack_option(10.0, "Effective stack in bb."),
    hands: int = typer.Option(1_000_000, "--hands", help="Hands of self-play."),
    features: str = typer.Option("tutorial", "--features", help="tutorial (linear) or rich."),
    ante: float = typer.Option(0.0, "--ante", help="Ante per player in bb."),
    learning_rate: float = learning_rate_option(0.0005, "SGD step (tutorial)."),
    epsilon_start: float = typer.Option(0.5, "--epsilon-start", help="Initial exploration."),
    epsilon_end: float | None = typer.Option(
        None, "--epsilon-end", help="Final exploration, linear decay [0.02 tutorial, 0 rich]."),
    seed: int = seed_option(),
    out: Path | None = out_option("Write the learned policy (.npz) and its config (.json)."),
    png: Path | None = png_option(
        "Picture of the learned SB and BB ranges next to the Nash ranges (.png/.svg)."),
    force: bool = force_option(),
    as_json: bool = json_option(),
) -> None:
    """Monte Carlo RL (the tutorial's linear model, or a tabular one) vs the exact answer."""
    from pokerlab.pushfold.game import PushFoldConfig
    from pokerlab.pushfold.learn import LearnConfig, learn
    from pokerlab.pushfold.solver import solve

    check_seed(seed)
    if out is not None:
        check_output_path(out)
    if png is not None:
        check_image_path(png)
    cfg = LearnConfig(stack=stack, ante=ante, hands=hands, features=features,
                      learning_rate=learning_rate, epsilon_start=epsilon_start,
                      epsilon_end=(epsilon_end if epsilon_end is not None
                                   else (0.02 if features == "tutorial" else 0.0)),
                      seed=seed)
    with progress("self-play", enabled=not as_json, total=hands, unit="hands") as update:
        res = learn(cfg, progress=update)
    nash = solve(PushFoldConfig(stack=stack, ante=ante))
    result = res.to_json()
    result.update(_ranges(res.sb_shove, res.bb_call))
    result.update({f"nash_{k}": v for k, v in _ranges(nash.sb_shove, nash.bb_call).items()})
    result["same_range_both_seats"] = bool(_same_classes(res.sb_shove, res.bb_call))
    if out is not None:
        _save_learned(res, out, result)
    if png is not None:
        _write_learned_png(res, nash, png)
        result["png"] = str(png)
    if as_json:
        emit_json(result)
        return
    _print_learned(res, result)


def _same_classes(a: Any, b: Any) -> bool:
    import numpy as np

    from pokerlab.cards.ranges import class_frequencies

    return bool(np.allclose(class_frequencies(a), class_frequencies(b), atol=1e-9))


def _print_learned(res: Any, out: dict[str, Any]) -> None:
    from rich.console import Console

    from pokerlab.cards.ranges import range_grid_text

    cfg = res.config
    con = Console()
    con.print(f"[bold]{cfg.features} learner, {cfg.hands} hands at {cfg.stack:g} bb[/bold] "
              f"({res.seconds:.1f} s, seed {cfg.seed})")
    for line in res.theta_reading():
        con.print("  " + line, highlight=False, soft_wrap=True)
    con.print(f"learned ranges: SB shoves {out['sb_shove_fraction']:.1%}, "
              f"BB calls {out['bb_call_fraction']:.1%} (Nash: "
              f"{out['nash_sb_shove_fraction']:.1%} / {out['nash_bb_call_fraction']:.1%})")
    if "greedy_exploitability_bb" in out:
        con.print(f"current greedy policy: exploitability {out['greedy_exploitability_bb']:.4f}")
    con.print(f"SB value {out['sb_value_bb']:+.4f} bb/hand (Nash {out['nash_sb_value_bb']:+.4f}); "
              f"exact exploitability {out['exploitability_bb']:.4f} bb/hand "
              f"({out['exploitability_mbb']:.0f} mbb/hand)")
    con.print("\n[bold]SB (small blind) shoves[/bold] -- learned")
    con.print(range_grid_text(res.sb_shove), highlight=False, soft_wrap=True)
    con.print("\n[bold]BB (big blind) calls a shove[/bold] -- learned")
    con.print(range_grid_text(res.bb_call), highlight=False, soft_wrap=True)
    for seat, key in (("SB shoves", "sb_range"), ("BB calls", "bb_range")):
        con.print(f"\n{seat}: learned {out[key] or '(nothing)'}\n{' ' * len(seat)}  Nash    "
                  f"{out['nash_' + key] or '(nothing)'}", highlight=False, soft_wrap=True)
    if out["same_range_both_seats"]:
        con.print("\nnote: both seats learned the same range. The tutorial's linear model "
                  "ranks hands by one score shared by both seats; the seats differ only by "
                  "the isSB*isGII weight, which shifts SB's threshold. When that weight is "
                  "small the two thresholds select the same classes (see docs/pushfold.md).",
                  highlight=False, soft_wrap=True)


def _write_learned_png(res: Any, nash: Any, png: Path) -> None:
    from pokerlab.cards.ranges import plot_range_grids

    cfg = res.config
    plot_range_grids(
        [(res.sb_shove, f"SB shove, learned ({res.sb_shove_fraction:.1%})", "Reds"),
         (nash.sb_shove, f"SB shove, Nash ({nash.sb_shove_fraction:.1%})", "Reds"),
         (res.bb_call, f"BB call, learned ({res.bb_call_fraction:.1%})", "Blues"),
         (nash.bb_call, f"BB call, Nash ({nash.bb_call_fraction:.1%})", "Blues")],
        png, ncols=2,
        suptitle=f"{cfg.features} learner, {cfg.hands:,} hands at {cfg.stack:g} bb "
                 f"(seed {cfg.seed}): exploitability {res.exploitability:.3f} bb/hand")


def _ranges(sb_shove: Any, bb_call: Any) -> dict[str, str]:
    import numpy as np

    from pokerlab.cards.ranges import range_to_string

    def rng(w: Any) -> str:
        r = np.round(w, 6)
        return range_to_string(r) if r.any() else ""

    return {"sb_range": rng(sb_shove), "bb_range": rng(bb_call)}


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
