"""``pokerlab equity``, ``pokerlab range``, ``pokerlab eval`` and ``pokerlab bench evaluator``."""

from __future__ import annotations

from pathlib import Path

import typer

from pokerlab.commands._common import (
    check_image_path,
    check_seed,
    emit_json,
    force_option,
    json_option,
    png_option,
    seed_option,
)
from pokerlab.errors import CardError, ConfigError

bench_app = typer.Typer(help="Speed benchmarks against peer libraries (same run, ratios).",
                        no_args_is_help=True)


def _is_hand(text: str) -> bool:
    """Two exact cards (``AsKs``, ``10hJs``, ``As Ks``) rather than a range."""
    from pokerlab.cards import parse_cards

    try:
        return len(parse_cards(text)) == 2
    except CardError:
        return False


def equity(
    players: list[str] = typer.Argument(..., help="Two or more hands (AsKs) or ranges (\"TT+,AKs\")."),
    board: str = typer.Option("", "--board", "-b", help="Board cards, e.g. 'Ah7d2c'."),
    mc: int = typer.Option(0, "--mc", help="Use Monte Carlo with this many samples (0: exact)."),
    seed: int = seed_option("Seed for Monte Carlo (>= 0)."),
    as_json: bool = json_option(),
) -> None:
    """Showdown equity of hands or ranges: exact enumeration, or Monte Carlo with --mc."""
    from pokerlab.cards import parse_board, parse_cards
    from pokerlab.cards.equity import (
        hand_equity,
        monte_carlo_equity,
        one_hot,
        range_equity,
    )
    from pokerlab.cards.ranges import parse_range

    if len(players) < 2:
        raise CardError("equity needs at least two hands or ranges")
    if mc < 0:
        raise ConfigError(f"--mc must be 0 (exact) or a positive number of samples, got {mc}")
    check_seed(seed)
    b = parse_board(board) if board else []
    all_hands = all(_is_hand(p) for p in players)
    if mc > 0:
        ranges = [one_hot(parse_cards(p)) if _is_hand(p) else parse_range(p, dead=b) for p in players]
        res = monte_carlo_equity(ranges, b, samples=mc, seed=seed)
    elif all_hands:
        res = hand_equity([parse_cards(p) for p in players], b)
    elif len(players) == 2:
        ranges = [one_hot(parse_cards(p)) if _is_hand(p) else parse_range(p, dead=b) for p in players]
        res = range_equity(ranges[0], ranges[1], b)
    else:
        ranges = [one_hot(parse_cards(p)) if _is_hand(p) else parse_range(p, dead=b) for p in players]
        res = monte_carlo_equity(ranges, b, samples=200_000, seed=seed)
    if as_json:
        emit_json(res.to_json())
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"Equity ({'exact, ' if res.exact else 'Monte Carlo, '}{res.boards:,} boards)"
              + (f" on {board}" if board else ""))
    t.add_column("player")
    t.add_column("equity", justify="right")
    t.add_column("win", justify="right")
    t.add_column("tie", justify="right")
    if res.stderr:
        t.add_column("± s.e.", justify="right")
    for k, p in enumerate(players):
        row = [p, f"{res.equity[k]:.3%}", f"{res.win[k]:.3%}", f"{res.tie[k]:.3%}"]
        if res.stderr:
            row.append(f"{res.stderr[k]:.3%}")
        t.add_row(*row)
    Console().print(t)


def range_(
    notation: str = typer.Argument(..., help="Range in standard notation, e.g. 'TT+,AKs,KQo:0.5'."),
    board: str = typer.Option("", "--board", "-b", help="Dead cards (board) removing combos."),
    png: Path | None = png_option("Write the 13x13 chart here (.png or .svg by suffix)."),
    force: bool = force_option(),
    as_json: bool = json_option(),
) -> None:
    """Parse a range, print its 13x13 grid and combo count, optionally draw the chart."""
    from pokerlab.cards import parse_board
    from pokerlab.cards.ranges import (
        combo_fraction,
        parse_range,
        plot_range_grid,
        range_grid_text,
        range_to_string,
    )

    if png is not None:
        check_image_path(png)
    b = parse_board(board) if board else []
    w = parse_range(notation, dead=b)
    if png is not None:
        plot_range_grid(w, png, title=range_to_string(w)[:80])
    info = {"range": range_to_string(w), "combos": float(w.sum()), "fraction": combo_fraction(w),
            "png": str(png) if png else None}
    if as_json:
        emit_json(info)
        return
    import shutil

    typer.echo(range_grid_text(w, compact=shutil.get_terminal_size().columns < 105))
    typer.echo(f"\n{info['range']}\n{w.sum():g} combos ({combo_fraction(w):.1%} of 1326)")
    if png:
        typer.echo(f"chart written to {png}")


range_.__name__ = "range"


def eval_(
    cards: str = typer.Argument(..., help="5 to 7 cards, e.g. 'AsKsQhJdTc9c2d'."),
    as_json: bool = json_option(),
) -> None:
    """Rank a 5-7 card hand: strength (1..7462), category and description."""
    from pokerlab.cards.evaluator import NUM_STRENGTHS, evaluate

    s, cat, desc = evaluate(cards)
    if as_json:
        emit_json({"strength": s, "category": cat, "description": desc})
    else:
        typer.echo(f"{desc}  (category {cat}, strength {s} of {NUM_STRENGTHS})")


eval_.__name__ = "eval"


@bench_app.command("evaluator")
def bench_evaluator(
    hands: int = typer.Option(2_000_000, "--hands", help="Random 7-card hands for the batch path."),
    peer_hands: int = typer.Option(300_000, "--peer-hands", help="Hands for per-hand peers."),
    seed: int = seed_option(),
    as_json: bool = json_option(),
) -> None:
    """7-card evaluation rate: pokerlab's batch path vs eval7 / phevaluator / treys, same hands."""
    from pokerlab.cards.bench import run_evaluator_benchmark

    res = run_evaluator_benchmark(hands=hands, peer_hands=peer_hands, seed=seed)
    if as_json:
        emit_json(res)
        return
    for k, v in res.items():
        typer.echo(f"{k:>28}: {v:,.3f}" if isinstance(v, float) else f"{k:>28}: {v}")


COMMANDS = [equity, range_, eval_]
GROUPS = [("bench", bench_app, "Speed benchmarks against peer libraries (same run, ratios).")]
