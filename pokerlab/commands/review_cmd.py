"""``pokerlab review``: a player's (or an agent's) postflop decisions scored against solved
spots (docs/review.md)."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from pokerlab.commands._common import (
    emit_json,
    force_option,
    json_option,
    out_option,
    png_option,
    progress,
)


def review(
    paths: list[Path] = typer.Argument(..., help="Hand history files or folders (PHH, PHHS, "
                                       "PokerStars text; an agent's match from `pokerlab match --out`)."),
    hero: str = typer.Option(..., "--hero", help="The player to review (comma-separated names, "
                             "or '*' for every player of every hand)."),
    out: Path = out_option("A folder (must exist) for the review: review.json, review.png and one "
                           "file per finished hand (a rerun with the same folder resumes)."),
    db: str = typer.Option(None, "--db", help="Also store the decisions in this hand database "
                           "(table review_decisions, next to the imported hands)."),
    ranges: Path = typer.Option(None, "--ranges", help="JSON object replacing preset ranges of "
                                "ring games (keys such as open:CO, call:BB, 3bet; docs/review.md)."),
    workers: int = typer.Option(1, "--workers", help="Worker processes (hands in parallel)."),
    limit: int = typer.Option(None, "--limit", help="Review at most this many eligible hands."),
    iterations: int = typer.Option(35, "--iterations", help="Iteration cap per solved spot (flop, and "
                                   "each turn / river subgame)."),
    target: float = typer.Option(1.0, "--target", help="Exploitability target per spot, % of the pot."),
    flop_bets: str = typer.Option("50%", "--flop-bets", help="Flop bet sizes of the review tree."),
    turn_bets: str = typer.Option("75%", "--turn-bets", help="Turn bet sizes of the review tree."),
    river_bets: str = typer.Option("75%", "--river-bets", help="River bet sizes of the review tree."),
    raises: str = typer.Option("100%", "--raises", help="Raise sizes (% of the pot after calling)."),
    raise_cap: int = typer.Option(1, "--raise-cap", help="Bets + raises per street in the tree "
                                  "(raised to the hand's own count where it had more)."),
    raise_streets: str = typer.Option("flop", "--raise-streets", help="Streets where the tree offers "
                                      "the --raises size (flop, turn, river, all or none; elsewhere only "
                                      "the hand's own raises)."),
    allin_threshold: float = typer.Option(0.67, "--allin-threshold", help="Add an all-in where the stack "
                                          "behind is at most this many pots (0: never)."),
    no_resolve: bool = typer.Option(False, "--no-resolve", help="Score turn and river decisions in "
                                    "the flop solve's subtrees instead of turn / river subgames."),
    png: Path = png_option("A picture of the EV loss per decision, per player."),
    force: bool = force_option(),
    as_json: bool = json_option(),
) -> None:
    """Score a hero's postflop decisions in heads-up-from-the-flop pots against solved spots."""
    from pokerlab.errors import ConfigError
    from pokerlab.hands.review import ReviewError, plot_losses, review_hands, store
    from pokerlab.hands.review_ranges import load_presets
    from pokerlab.hands.review_spot import ReviewConfig
    from pokerlab.io import atomic_write_json
    from pokerlab.subgame.spot import tree_config

    names = None if hero.strip() == "*" else [x.strip() for x in hero.split(",") if x.strip()]
    if names is not None and not names:
        raise ConfigError("--hero: give a player's name (or '*')")
    if out is not None and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r}: give an existing folder")
    tree_config(flop_bets=flop_bets, turn_bets=turn_bets, river_bets=river_bets, raises=raises)
    cfg = ReviewConfig(flop_bets=flop_bets, turn_bets=turn_bets, river_bets=river_bets, raises=raises,
                       raise_streets=raise_streets, raise_cap=raise_cap, allin_threshold=allin_threshold,
                       iterations=iterations, target_pct=target, resolve=not no_resolve)
    cfg.raise_on(0)  # a bad --raise-streets is one line now, before any work
    presets = load_presets(ranges)
    cache = None
    if out is not None:
        cache = out / "hands"
        cache.mkdir(exist_ok=True)
    t0 = time.perf_counter()
    with progress("review", enabled=not as_json, unit="hands", fields={"eta": "-"}) as bar:
        def on_hand(done: int, total: int) -> None:
            el = time.perf_counter() - t0
            eta = el / done * (total - done) if done else 0.0
            bar(done, total=total, eta=f"{eta:.0f}s")

        report = review_hands(paths, names, cfg=cfg, presets=presets, workers=workers, cache=cache,
                              on_hand=on_hand, limit=limit)
    if report["reviewed"] == 0:
        reasons = ", ".join(f"{k} {v}" for k, v in report["skipped"].items()) or "no hands"
        raise ReviewError(f"no decision could be reviewed in {report['hands']} hands ({reasons})")
    if db is not None:
        report["stored"] = store(db, report["decisions"])
    if out is not None:
        atomic_write_json(out / "review.json", report)
        plot_losses(report, out / "review.png")
    if png is not None:
        plot_losses(report, png)
    if as_json:
        emit_json(report)
        return
    s = report["ev_loss_bb"]
    typer.echo(f"{report['hands']} hands, {report['hands_reviewed']} reviewed, {report['reviewed']} "
               f"decisions: EV loss {s['total']:.2f} bb in all, {s['mean']:.3f} bb per decision "
               f"(95% CI {s['ci95'][0]:.3f} .. {s['ci95'][1]:.3f})")
    for k, v in report["skipped"].items():
        typer.echo(f"  skipped: {k}: {v}")
    for title, key in (("street", "by_street"), ("situation", "by_situation")):
        typer.echo(f"per {title}:")
        for name, g in report[key].items():
            typer.echo(f"  {name:<18} {g['decisions']:>5} decisions  {g['mean']:.3f} bb/decision  "
                       f"total {g['total']:.2f} bb")
    typer.echo("costliest decisions:")
    for d in report["costliest"][:10]:
        typer.echo(f"  {d['hand']} {d['player']} {d['street']} {d['board']} {d['cards']}: "
                   f"{d['action']} (best {d['best_action']}) -{d['ev_loss_bb']:.2f} bb "
                   f"({d['ev_loss_pct_pot']:.1f}% pot)")


COMMANDS = [review]
