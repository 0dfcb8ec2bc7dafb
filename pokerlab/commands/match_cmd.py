"""``pokerlab match AGENT_A AGENT_B``: a head-to-head match with a confidence interval."""

from __future__ import annotations

from pathlib import Path

import typer

from pokerlab.commands._common import (
    check_output_path,
    check_positive,
    check_seed,
    emit_json,
    force_option,
    hands_option,
    json_option,
    out_option,
    progress,
    seed_option,
    stack_option,
)


def match(
    agent_a: str = typer.Argument(..., help="Agent A: random, call, raise, tag, pushfold, "
                                  "policy:PATH, blueprint, blueprint-100, "
                                  "python:MODULE:FACTORY or a pokerlab.agents entry point."),
    agent_b: str = typer.Argument(..., help="Agent B (same specs)."),
    game: str = typer.Option("hunl", "--game", help="hunl, kuhn, leduc or eight_card."),
    stack: float | None = stack_option(None, "Starting stacks in big blinds (hunl; default: "  # type: ignore[arg-type]
                                       "the agents' own, 200 for rule agents)."),
    hands: int = hands_option(1000, "Number of hands (even with --duplicate)."),
    duplicate: bool = typer.Option(False, "--duplicate",
                                   help="Replay every deal with the seats swapped."),
    seed: int = seed_option(),
    out: Path | None = out_option("Write every hand here: .phhs (PHH) or .log (ACPC)."),
    force: bool = force_option(),
    workers: int | None = typer.Option(None, "--workers",
                                       help="Processes (default: the local cores)."),
    ray_address: str | None = typer.Option(
        None, "--ray-address", help="Run on a Ray cluster ('local' starts a local one)."),
    aivat: bool = typer.Option(False, "--aivat", help="Also report AIVAT (and all-in EV) "
                               "variance-reduced means of the same hands."),
    as_json: bool = json_option(),
) -> None:
    """Play AGENT_A against AGENT_B; report A's mean in mbb/hand with a 95% CI."""
    from pokerlab.arena.matches import play_match
    from pokerlab.executor import check_ray_address, check_workers

    check_seed(seed)
    check_workers(workers)
    check_ray_address(ray_address, reachable=True)
    check_positive(hands, "--hands")
    if out is not None:
        check_output_path(out, suffixes=(".phhs", ".phh", ".log"))
    with progress("match", enabled=not as_json, total=hands, unit="hands") as bar:
        res = play_match(agent_a, agent_b, game=game, hands=hands, duplicate=duplicate,
                         seed=seed, stack_bb=stack, out=out, workers=workers,
                         ray_address=ray_address, progress=lambda d, t: bar(d, total=t))
    d = res.to_json()
    if aivat:
        from pokerlab.arena.aivat import aivat_summary
        from pokerlab.evaluation.matches import default_workers

        aw = workers if workers is not None else (default_workers() if hands >= 2000 else 1)
        d.update(aivat_summary(agent_a, agent_b, game=game, hands=hands, duplicate=duplicate,
                               seed=seed, stack_bb=res.config.stack_bb,
                               warn=lambda _m: None, workers=aw, ray_address=ray_address))
    if as_json:
        emit_json(d)
        return
    ci = d["ci95_mbb"]
    ci_text = "n/a" if ci is None else f"{ci:.1f}"
    at = f" at {d['stack_bb']:g} bb" if "stack_bb" in d else ""
    typer.echo(f"{d['game']}: {agent_a} vs {agent_b}{at}, {d['hands']} hands"
               f"{' (duplicate)' if duplicate else ''}, {d['seconds']:.2f} s")
    typer.echo(f"A: {d['mean_mbb']:+.1f} +- {ci_text} mbb/hand ({d['bb_per_100']:+.2f} bb/100), "
               f"per-hand SD {d['sd_mbb']:.1f} mbb")
    for seat, v in d["per_seat"].items():
        typer.echo(f"  A as {seat}: {v['mean_mbb']:+.1f} mbb/hand over {int(v['hands'])} hands")
    if aivat:
        aci = d["aivat_ci95_mbb"]
        typer.echo(f"AIVAT: {d['aivat_mean_mbb']:+.1f} +- "
                   f"{'n/a' if aci is None else format(aci, '.1f')} mbb/hand, per-hand SD "
                   f"{d['aivat_sd_mbb']:.1f} mbb ({100 * d['aivat_sd_reduction']:.0f}% lower)")
    for label, cnt in d.get("counters", {}).items():
        if cnt:
            typer.echo(f"  {label} counters: " + ", ".join(f"{k} {v:g}" for k, v in cnt.items()))
    if d.get("exact_mbb") is not None:
        typer.echo(f"exact: {d['exact_mbb']:+.3f} mbb/hand")
    if out is not None:
        typer.echo(f"hands written to {out}")


COMMANDS = [match]
