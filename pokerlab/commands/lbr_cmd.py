"""``pokerlab lbr AGENT`` (local best response) and ``pokerlab league AGENT...``."""

from __future__ import annotations

from pathlib import Path

import typer

from pokerlab.commands._common import (
    check_positive,
    check_seed,
    emit_json,
    hands_option,
    json_option,
    progress,
    seed_option,
    stack_option,
)


def lbr(
    agent: str = typer.Argument(..., help="Agent spec: random, call, raise, tag, pushfold, "
                                "policy:PATH, blueprint (small games: random, call, "
                                "policy:PATH)."),
    game: str = typer.Option("hunl", "--game", help="hunl, leduc, kuhn or eight_card."),
    actions: str = typer.Option("fc", "--actions",
                                help="LBR's actions: fc, fcp, fcpa, 56 or a bet-set text."),
    from_round: int = typer.Option(1, "--from-round",
                                   help="First round LBR plays (1 preflop .. 4 river); it "
                                   "only checks/calls before."),
    hands: int = hands_option(1000, "Deals; each is played with LBR in both seats."),
    seed: int = seed_option(),
    exact: bool = typer.Option(False, "--exact",
                               help="Exact LBR by enumeration (small games only)."),
    stack: float = stack_option(200.0, "Starting stacks in big blinds (hunl)."),
    workers: int = typer.Option(1, "--workers", help="Processes for the sampled run."),
    ray_address: str | None = typer.Option(
        None, "--ray-address", help="Run on a Ray cluster ('local' starts a local one)."),
    as_json: bool = json_option(),
) -> None:
    """Local best response (Lisý & Bowling 2017) against AGENT: a lower bound on its
    exploitability, in mbb/hand (milli-chips/hand on the small games) with a 95% CI."""
    from pokerlab.arena.lbr import check_lbr_args, run_lbr
    from pokerlab.executor import check_ray_address, check_workers

    check_seed(seed)
    check_positive(hands, "--hands")
    check_workers(workers)
    check_ray_address(ray_address, reachable=True)
    check_lbr_args(game=game, actions=actions, from_round=from_round, hands=hands, seed=seed,
                   exact=exact)
    with progress("LBR", enabled=not as_json and not exact, total=hands,
                  unit="deals") as bar:
        res = run_lbr(agent, game=game, actions=actions, from_round=from_round, hands=hands,
                      seed=seed, stack_bb=stack, exact=exact, workers=workers,
                      ray_address=ray_address, progress=bar)
    d = res.to_json()
    if as_json:
        emit_json(d)
        return
    rounds = (("preflop", "flop", "turn", "river")[res.from_round - 1] if res.game == "hunl"
              else f"round {res.from_round}")
    if res.exact:
        typer.echo(f"exact LBR ({res.actions}, from {rounds}) vs {agent} in {res.game}: "
                   f"{res.mbb:+.3f} {res.unit} (seats {res.seat_mbb[0]:+.3f} / "
                   f"{res.seat_mbb[1]:+.3f}), {res.seconds:.2f} s")
        return
    typer.echo(f"LBR ({res.actions}, from {rounds}) vs {agent} in {res.game}: "
               f"{res.mbb:+.1f} +- {res.ci95_mbb:.1f} {res.unit} over {res.hands} hands "
               f"({res.deals} duplicate deals), {res.seconds:.2f} s")


def league(
    agents: list[str] = typer.Argument(..., help="Two or more agent specs."),
    game: str = typer.Option("hunl", "--game", help="hunl, leduc, kuhn or eight_card."),
    hands: int = hands_option(200, "Duplicate hands per pair (even)."),
    with_lbr: bool = typer.Option(False, "--lbr", help="Add an LBR column (fc; exact on "
                                  "small games)."),
    lbr_hands: int = typer.Option(100, "--lbr-hands", help="LBR deals per agent (hunl)."),
    seed: int = seed_option(),
    stack: float = stack_option(200.0, "Starting stacks in big blinds (hunl)."),
    out: Path | None = typer.Option(None, "--out", help="Existing folder for league.json, "
                                    "league.png and league.html."),
    as_json: bool = json_option(),
) -> None:
    """Every pair of AGENTS head to head (duplicate, AIVAT where possible), optionally
    with an LBR column per agent."""
    from pokerlab.arena.league import LeagueConfig, run_league, write_league
    from pokerlab.errors import ConfigError

    check_seed(seed)
    check_positive(hands, "--hands")
    if out is not None and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} must be an existing folder")
    cfg = LeagueConfig(agents=tuple(agents), game=game, hands=hands, seed=seed,
                       stack_bb=stack, lbr=with_lbr, lbr_hands=lbr_hands)
    n = len(agents)
    total = n * (n - 1) // 2 + (n if with_lbr else 0)
    with progress("league", enabled=not as_json, total=total, unit="runs") as bar:
        res = run_league(cfg, progress=bar)
    files = write_league(res, out) if out is not None else []
    d = res.to_json()
    if files:
        d["files"] = [str(f) for f in files]
    if as_json:
        emit_json(d)
        return
    names = d["agents"]
    width = max(8, *(len(x) for x in names))
    head = "".join(f"{x[:width]:>{width + 2}}" for x in names)
    typer.echo(f"{'':{width}}{head}{'LBR':>{width + 2}}" if with_lbr else f"{'':{width}}{head}")
    for i, name in enumerate(names):
        cells = "".join(f"{'-' if v is None else format(v, '+.0f'):>{width + 2}}"
                        for v in d["matrix_mbb"][i])
        lb = f"{d['lbr'][name]['mbb']:>+{width + 2}.0f}" if with_lbr else ""
        typer.echo(f"{name:{width}}{cells}{lb}")
    typer.echo(f"{d['unit']}, row vs column; ranking: {', '.join(d['ranking'])}")
    for f in files:
        typer.echo(f"wrote {f}")


COMMANDS = [lbr, league]
