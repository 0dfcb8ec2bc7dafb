"""``pokerlab lbr AGENT`` (local best response) and ``pokerlab league AGENT...``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import (
    check_positive,
    check_seed,
    emit_json,
    force_option,
    hands_option,
    json_option,
    progress,
    seed_option,
    stack_option,
)


def lbr(
    agent: str = typer.Argument(..., help="Agent spec: random, call, raise, tag, pushfold, "
                                "policy:PATH, blueprint, blueprint-100, "
                                "python:MODULE:FACTORY (small games: random, call, "
                                "policy:PATH)."),
    game: str = typer.Option("hunl", "--game", help="hunl, leduc, kuhn or eight_card."),
    actions: str = typer.Option(
        "fc", "--actions",
        help="LBR's actions: one set for every round (fc, fcp, fcpa, 56, c = check/call "
        "only, or a bet-set text), or one set per round, preflop first: four of c, fc, "
        "fcp, fcpa, 56 separated by commas (c,56,fc,fc: the LBR paper's setting 4; "
        "c,c,fcpa,fcpa: setting 2) or any sets separated by '/' (c/c/50%, 100%/fc); "
        "leduc takes two per-round sets, kuhn one set."),
    from_round: int = typer.Option(1, "--from-round",
                                   help="First round LBR plays (1 preflop .. 4 river); it "
                                   "only checks/calls before (and in a per-round c)."),
    hands: int = hands_option(1000, "Deals; each is played with LBR in both seats."),
    seed: int = seed_option(),
    exact: bool = typer.Option(False, "--exact",
                               help="Exact LBR by enumeration (small games only)."),
    estimator: str = typer.Option(
        "sampled", "--estimator",
        help="Per-deal estimator: sampled (the deal's hands, the agent's actions drawn), "
        "expected (the agent's hand and action draws integrated out: same mean, lower "
        "variance, more range queries per deal) or active (the hand integrated out, the "
        "actions expanded only from --from-round on: fewer queries where LBR acts)."),
    stack: float | None = stack_option(None, "Starting stacks in big blinds (hunl; default: "  # type: ignore[arg-type]
                                       "the agent's own, 200 for rule agents)."),
    by_line: str | None = typer.Option(
        None, "--by-line",
        help="Split LBR's winnings by how the hands went from its first round on (hunl, "
        "--estimator expected or active): line (every action), street (the first street "
        "with betting and where it ended) or opening (the first two actions)."),
    workers: int = typer.Option(1, "--workers", help="Processes for the sampled run."),
    ray_address: str | None = typer.Option(
        None, "--ray-address", help="Run on a Ray cluster ('local' starts a local one)."),
    as_json: bool = json_option(),
) -> None:
    """Local best response (Lisý & Bowling 2017) against AGENT: a lower bound on its
    exploitability, in mbb/hand (milli-chips/hand on the small games) with a 95% CI."""
    from pokerlab.arena.lbr import check_lbr_args, run_lbr
    from pokerlab.evaluation.lbr_core import check_estimator
    from pokerlab.executor import check_ray_address, check_workers

    check_seed(seed)
    check_positive(hands, "--hands")
    check_workers(workers)
    check_ray_address(ray_address, reachable=True)
    check_estimator(estimator, option="--estimator")
    check_lbr_args(game=game, actions=actions, from_round=from_round, hands=hands, seed=seed,
                   exact=exact, estimator=estimator)
    if by_line is not None:
        from pokerlab.evaluation.lbr_core import LBRError, line_group

        line_group("", by_line)
        if game != "hunl" or estimator == "sampled" or exact:
            raise LBRError("--by-line splits LBR's value by line in hunl with --estimator "
                           "expected or active")
    with progress("LBR", enabled=not as_json and not exact, total=hands,
                  unit="deals") as bar:
        if estimator == "sampled":
            res = run_lbr(agent, game=game, actions=actions, from_round=from_round,
                          hands=hands, seed=seed, stack_bb=stack, exact=exact,
                          workers=workers, ray_address=ray_address, progress=bar)
        else:
            res = _run_lbr_estimator(agent, game=game, actions=actions,
                                     from_round=from_round, hands=hands, seed=seed,
                                     stack_bb=stack, workers=workers,
                                     ray_address=ray_address, progress=bar,
                                     estimator=estimator, by_line=by_line)
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
    at = f" at {d['stack_bb']:g} bb" if "stack_bb" in d else ""
    how = "" if res.estimator == "sampled" else f", {res.estimator} estimator"
    typer.echo(f"LBR ({res.actions}, from {rounds}{how}) vs {agent} in {res.game}{at}: "
               f"{res.mbb:+.1f} +- {res.ci95_mbb:.1f} {res.unit} over {res.hands} hands "
               f"({res.deals} duplicate deals), {res.seconds:.2f} s")
    if "by_line" in d:
        typer.echo(line_text(d["by_line"]))


LINE_LEGEND = ("L: LBR, A: the agent; x check, c call, f fold, b bet or raise, a all-in; "
               "sd showdown; P F T R the streets")


def line_text(by_line: dict[str, Any], top: int = 15) -> str:
    """The text table of ``--by-line``: the lines that move the most chips first."""
    rows = by_line["rows"]
    out = [f"\nLBR's winnings by {by_line['group']} ({by_line['unit']}, 95% CI; {LINE_LEGEND}):"]
    width = max([len(r["line"]) for r in rows[:top]] + [4])
    for r in rows[:top]:
        out.append(f"  {r['line']:<{width}}  {r['mbb']:+9.1f} +- {r['ci95_mbb']:.1f}")
    if len(rows) > top:
        rest = sum(r["mbb"] for r in rows[top:])
        out.append(f"  {'(' + str(len(rows) - top) + ' more)':<{width}}  {rest:+9.1f}")
    return "\n".join(out)


def _run_lbr_estimator(agent: str, *, game: str, actions: str, from_round: int, hands: int,
                       seed: int, stack_bb: float | None, workers: int,
                       ray_address: str | None, progress: Any, estimator: str,
                       by_line: str | None = None) -> Any:
    """LBR on sampled deals by ``estimator`` (``expected``): what
    :func:`pokerlab.arena.lbr.run_lbr` does for a spec, with the estimator passed on
    (``run_lbr`` itself plays the ``sampled`` estimator only)."""
    import dataclasses
    from functools import partial

    from pokerlab.arena.lbr import hunl_opponent, small_opponent
    from pokerlab.arena.matches import resolve_stack
    from pokerlab.evaluation.lbr import run_sampled_lbr
    from pokerlab.evaluation.matches import game_kind

    kind = game_kind(game)
    stack = resolve_stack([agent], stack_bb, kind=kind)
    make = (partial(hunl_opponent, agent, stack) if kind == "hunl"
            else partial(small_opponent, agent, kind))
    make()  # fail early
    r = run_sampled_lbr(make, name=agent, game=kind, actions=actions, from_round=from_round,
                        hands=hands, seed=seed, stack_bb=stack, workers=workers,
                        ray_address=ray_address, progress=progress, estimator=estimator,
                        by_line=by_line)
    if kind == "hunl":
        r = dataclasses.replace(r, extra={**r.extra, "stack_bb": stack})
    return r


def league(
    agents: list[str] = typer.Argument(..., help="Two or more agent specs."),
    game: str = typer.Option("hunl", "--game", help="hunl, leduc, kuhn or eight_card."),
    hands: int = hands_option(200, "Duplicate hands per pair (even)."),
    with_lbr: bool = typer.Option(False, "--lbr", help="Add LBR columns (exact on small "
                                  "games)."),
    lbr_actions: str = typer.Option("fc", "--lbr-actions", help="LBR action sets, comma "
                                    "separated: fc, fcp, fcpa, 56 or per-round sets joined by "
                                    "'/' (c/56/fc/fc), each optionally @R (LBR from round R, "
                                    "e.g. fc,fcpa@3,56@3,c/56/fc/fc)."),
    lbr_hands: int = typer.Option(100, "--lbr-hands", help="LBR deals per agent and action "
                                  "set (hunl)."),
    seed: int = seed_option(),
    stack: float | None = stack_option(None, "Starting stacks in big blinds (hunl; default: "  # type: ignore[arg-type]
                                       "the agents' own, 200 for rule agents)."),
    target_ci: float | None = typer.Option(
        None, "--target-ci", help="hunl: a pair whose 95% CI (mbb/hand) is wider after "
        "--hands plays again with enough hands for this half-width (at most --max-hands)."),
    max_hands: int = typer.Option(2_000_000, "--max-hands", help="Most duplicate hands "
                                  "per pair with --target-ci (even)."),
    out: Path | None = typer.Option(None, "--out", help="Existing folder for league.json, "
                                    "league.png and league.html."),
    force: bool = force_option("Replace league.json, league.png and league.html in --out "
                               "(without --force existing ones are refused)."),
    workers: int = typer.Option(1, "--workers", help="Processes for each pair's hands and "
                                "each LBR run."),
    ray_address: str | None = typer.Option(
        None, "--ray-address", help="Run on a Ray cluster ('local' starts a local one)."),
    as_json: bool = json_option(),
) -> None:
    """Every pair of AGENTS head to head (duplicate, AIVAT where possible), optionally
    with an LBR column per agent."""
    from pokerlab.arena.lbr import check_lbr_args
    from pokerlab.arena.league import (
        LeagueConfig,
        lbr_action_sets,
        league_work,
        run_league,
        split_lbr_set,
        write_league,
    )
    from pokerlab.arena.matches import resolve_stack
    from pokerlab.errors import ConfigError
    from pokerlab.evaluation.matches import game_kind
    from pokerlab.executor import check_ray_address, check_workers

    check_seed(seed)
    check_positive(hands, "--hands")
    check_positive(lbr_hands, "--lbr-hands")
    check_positive(max_hands, "--max-hands")
    if target_ci is not None:
        check_positive(target_ci, "--target-ci")
    check_workers(workers)
    check_ray_address(ray_address, reachable=True)
    if out is not None and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} must be an existing folder")
    sets = lbr_action_sets(lbr_actions)
    kind = game_kind(game)
    for item in sets:
        acts, fr = split_lbr_set(item) if "@" in item else (item, 1)
        check_lbr_args(game=game, actions=acts, from_round=fr, hands=lbr_hands, seed=seed,
                       exact=kind != "hunl")
    stack_bb = resolve_stack(list(agents), stack, kind=kind)
    if target_ci is not None and kind != "hunl":
        raise ConfigError("--target-ci is for hunl (the small games' values are exact)")
    cfg = LeagueConfig(agents=tuple(agents), game=game, hands=hands, seed=seed,
                       stack_bb=stack_bb, lbr=with_lbr, lbr_hands=lbr_hands,
                       lbr_actions=",".join(sets), target_ci_mbb=target_ci,
                       max_hands=max_hands)
    with progress("league", enabled=not as_json, total=league_work(cfg),
                  unit="hands and LBR deals" if with_lbr else "hands") as bar:
        res = run_league(cfg, progress=bar, warn=lambda _m: None, workers=workers,
                         ray_address=ray_address)
    files = write_league(res, out) if out is not None else []
    d = res.to_json()
    if files:
        d["files"] = [str(f) for f in files]
    if as_json:
        emit_json(d)
        return
    for line in league_text(d, sets if with_lbr else []):
        typer.echo(line)
    for f in files:
        typer.echo(f"wrote {f}")


def league_text(d: dict, lbr_sets: list[str]) -> list[str]:  # type: ignore[type-arg]
    """The league table as text: every cell ``value +- CI95`` (mbb/hand, row vs column;
    AIVAT where the pair has it), the LBR columns with their CIs, the ranking."""
    names = d["agents"]
    cells = [[("-" if v is None else f"{v:+.0f}" + ("" if c is None else f" +-{c:.0f}"))
              for v, c in zip(row, crow, strict=True)]
             for row, crow in zip(d["matrix_mbb"], d["ci95_mbb"], strict=True)]
    lbr_cols: list[list[str]] = []
    for acts in lbr_sets:
        col = []
        for name in names:
            e = d["lbr"].get(name, {})
            e = e.get("by_actions", {}).get(acts, e) if isinstance(e, dict) else {}
            ci = e.get("ci95_mbb")
            col.append(f"{e['mbb']:+.0f}" + ("" if not ci else f" +-{ci:.0f}")
                       if "mbb" in e else "-")
        lbr_cols.append(col)
    width = max(8, *(len(x) for x in names))
    cw = max(8, *(len(c) for row in cells for c in row), *(len(c) for col in lbr_cols
                                                            for c in col)) + 2
    head = "".join(f"{x[:cw - 2]:>{cw}}" for x in names)
    head += "".join(f"{'LBR ' + a:>{cw}}" for a in lbr_sets)
    out = [f"{'':{width}}{head}"]
    for i, name in enumerate(names):
        row = "".join(f"{c:>{cw}}" for c in cells[i])
        row += "".join(f"{col[i]:>{cw}}" for col in lbr_cols)
        out.append(f"{name:{width}}{row}")
    hands = {(p["a"], p["b"]): p.get("hands") for p in d.get("pairings", [])}
    if any(h not in (None, d.get("config", {}).get("hands")) for h in hands.values()):
        out.append("hands per pair: " + "; ".join(
            f"{a} v {b} {h:,}" for (a, b), h in hands.items() if h is not None))
    methods = sorted({p.get("method", "") for p in d.get("pairings", [])} - {""})
    out.append(f"{d['unit']}, row vs column, +- 95% CI"
               + (f" ({', '.join(methods)})" if methods else "")
               + f"; ranking: {', '.join(d['ranking'])}")
    return out


COMMANDS = [lbr, league]
