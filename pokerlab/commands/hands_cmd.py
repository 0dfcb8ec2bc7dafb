"""``pokerlab hands``: import hand histories, player statistics, styles and the HTML report."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pokerlab.errors import PokerlabError

if TYPE_CHECKING:
    from pokerlab.hands.stats import HandFilter
    from pokerlab.hands.style import StyleThresholds

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

GROUPS = [
    ("hands", app, "Hand histories: import PHH/PokerStars into DuckDB, statistics, styles, report.")
]

_DB_HELP = "Hand database file (default: hands.duckdb in the user data directory)."


def _fail(exc: Exception) -> typer.Exit:
    typer.echo(f"error: {exc}", err=True)
    return typer.Exit(2)


def _date(text: str | None, what: str) -> dt.datetime | None:
    if text is None:
        return None
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        from pokerlab.errors import ConfigError

        raise ConfigError(f"bad {what} date {text!r}: expected YYYY-MM-DD[THH:MM]") from None


def _filter(
    players: list[str] | None,
    table_size: int | None,
    stakes: str | None,
    since: str | None,
    until: str | None,
) -> HandFilter:
    from pokerlab.hands.stats import HandFilter

    names: list[str] = []
    for p in players or []:
        names.extend(x.strip() for x in p.split(",") if x.strip())
    return HandFilter(
        players=tuple(names),
        table_size=table_size,
        stakes=stakes,
        since=_date(since, "--since"),
        until=_date(until, "--until"),
    )


def _thresholds(
    vpip_loose: float | None, aggression: str, af: float, afq: float
) -> StyleThresholds:
    from pokerlab.hands.style import StyleThresholds

    base = StyleThresholds(aggression=aggression, af_aggressive=af, afq_aggressive=afq)
    if vpip_loose is None:
        return base
    return StyleThresholds(
        vpip_heads_up=vpip_loose,
        vpip_short_handed=vpip_loose,
        vpip_full_ring=vpip_loose,
        aggression=aggression,
        af_aggressive=af,
        afq_aggressive=afq,
    )


@app.command("import")
def import_cmd(
    paths: list[Path] = typer.Argument(
        ..., help="Files (.phh, .phhs, PokerStars .txt; may be .xz/.gz/.bz2) or folders."
    ),
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    batch_size: int = typer.Option(20_000, "--batch-size", min=1, help="Hands per bulk insert."),
    show_rejected: int = typer.Option(20, "--show-rejected", min=0, help="Rejected hands to list."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Import hand histories; a hand already stored is not stored again, bad hands are skipped."""
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.phh import expand_paths

    try:
        files = expand_paths(paths)
        with HandDB(path=db) as hdb:
            if as_json:
                rep = hdb.import_paths(files, batch_size=batch_size)
            else:
                from rich.console import Console
                from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

                with Progress(
                    SpinnerColumn(),
                    TextColumn("{task.description}"),
                    TimeElapsedColumn(),
                    console=Console(stderr=True),
                    transient=True,
                ) as prog:
                    task = prog.add_task(f"importing {len(files)} file(s)", total=None)

                    def tick(n: int) -> None:
                        prog.update(task, description=f"importing: {n} hands read")

                    rep = hdb.import_paths(files, batch_size=batch_size, progress=tick)
            out = rep.to_json(max_rejections=show_rejected)
            out["db"] = str(hdb.path)
            out["files"] = len(files)
    except PokerlabError as exc:
        raise _fail(exc) from None
    if as_json:
        typer.echo(json.dumps(out))
        return
    typer.echo(
        f"{out['files']} file(s), {rep.read} hands read: {rep.stored} stored, "
        f"{rep.duplicates} already present, {rep.rejected} rejected "
        f"({out['hands_per_second']} hands/s) -> {out['db']}"
    )
    for r in rep.rejections[:show_rejected]:
        typer.echo(f"  rejected: {r}")
    if rep.rejected > show_rejected:
        typer.echo(f"  ... and {rep.rejected - show_rejected} more")


@app.command("stats")
def stats_cmd(
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    players: list[str] | None = typer.Option(
        None, "--players", "-p", help="Player names (repeat or comma-separate)."
    ),
    table_size: int | None = typer.Option(
        None, "--table-size", help="Only hands with this many players (2 = heads-up)."
    ),
    stakes: str | None = typer.Option(
        None, "--stakes", help="Only these stakes: SB/BB (e.g. 50/100) or the big blind."
    ),
    since: str | None = typer.Option(
        None, "--since", help="Only hands played on/after this date (YYYY-MM-DD)."
    ),
    until: str | None = typer.Option(None, "--until", help="Only hands played before this date."),
    group: str | None = typer.Option(
        None, "--group", help="Pool the selected players into one row with this name."
    ),
    min_hands: int = typer.Option(
        1, "--min-hands", min=1, help="Leave out players with fewer hands."
    ),
    vpip_loose: float | None = typer.Option(
        None,
        "--vpip-loose",
        help="VPIP %% at/above which a player is loose (default by table size: 50/25/20).",
    ),
    aggression: str = typer.Option(
        "af", "--aggression", help="Aggression measure for the style: af or afq."
    ),
    af_aggressive: float = typer.Option(
        2.0, "--af-aggressive", help="AF at/above which a player is aggressive."
    ),
    afq_aggressive: float = typer.Option(
        50.0, "--afq-aggressive", help="AFq %% at/above which a player is aggressive."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Per-player statistics (VPIP, PFR, 3-bet, AF, AFq, WTSD, W$SD, ..., bb/100) and style."""
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.stats import player_stats
    from pokerlab.hands.style import classify_all

    try:
        filt = _filter(players, table_size, stakes, since, until)
        thr = _thresholds(vpip_loose, aggression, af_aggressive, afq_aggressive)
        with HandDB(path=db, read_only=True) as hdb:
            stats = classify_all(
                player_stats(hdb, filt=filt, group=group, min_hands=min_hands),
                thr,
                table_size=table_size,
            )
            n = int(hdb.query("SELECT count(*) FROM hands")[0][0])
    except PokerlabError as exc:
        raise _fail(exc) from None
    keys = (
        "player",
        "hands",
        "vpip",
        "pfr",
        "three_bet",
        "af",
        "afq",
        "wtsd",
        "wsd",
        "cbet",
        "fold_to_cbet",
        "allin_rate",
        "showdown_rate",
        "avg_raise_pot_ratio",
        "bet_per_street",
        "bb_per_100",
        "bb_per_100_se",
        "style",
    )
    if as_json:
        rows = []
        for s in stats:
            d = s.to_json()
            rows.append(
                {
                    **{k: d[k] for k in keys},
                    "net_bb": d["net_bb"],
                    "table_size": d["table_size"],
                    "counts": d["counts"],
                }
            )
        typer.echo(json.dumps({"hands_in_db": n, "players": rows}))
        return
    from rich.console import Console
    from rich.table import Table

    def f(v: float | None, nd: int = 1) -> str:
        return "-" if v is None else f"{v:.{nd}f}"

    t = Table(title=f"{n} hands in the database")
    for col in (
        "player",
        "hands",
        "VPIP",
        "PFR",
        "3B",
        "AF",
        "AFq",
        "WTSD",
        "W$SD",
        "cbet",
        "F-cbet",
        "allin",
        "SD",
        "r/pot",
        "bb/100",
        "SE",
        "style",
    ):
        t.add_column(col, justify="left" if col in ("player", "style") else "right")
    for s in stats:
        t.add_row(
            s.player,
            str(s.hands),
            f(s.vpip),
            f(s.pfr),
            f(s.three_bet),
            f(s.af, 2),
            f(s.afq),
            f(s.wtsd),
            f(s.wsd),
            f(s.cbet),
            f(s.fold_to_cbet),
            f(s.allin_rate, 2),
            f(s.showdown_rate),
            f(s.avg_raise_pot_ratio, 2),
            f(s.bb_per_100),
            f(s.bb_per_100_se),
            s.style,
        )
    Console(file=sys.stdout, width=200).print(t)


@app.command("report")
def report_cmd(
    out: Path = typer.Option(..., "--out", help="Folder for index.html and the PNGs."),
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    players: list[str] | None = typer.Option(
        None, "--players", "-p", help="Player names (repeat or comma-separate)."
    ),
    table_size: int | None = typer.Option(
        None, "--table-size", help="Only hands with this many players."
    ),
    stakes: str | None = typer.Option(None, "--stakes", help="Only these stakes (SB/BB or BB)."),
    since: str | None = typer.Option(None, "--since", help="Only hands played on/after this date."),
    until: str | None = typer.Option(None, "--until", help="Only hands played before this date."),
    min_hands: int = typer.Option(
        100, "--min-hands", min=1, help="Players with fewer hands stay out of the plots."
    ),
    max_players: int = typer.Option(
        12, "--max-players", min=1, help="At most this many players in the plots."
    ),
    vpip_loose: float | None = typer.Option(
        None, "--vpip-loose", help="VPIP %% at/above which a player is loose."
    ),
    aggression: str = typer.Option("af", "--aggression", help="af or afq."),
    af_aggressive: float = typer.Option(2.0, "--af-aggressive"),
    afq_aggressive: float = typer.Option(50.0, "--afq-aggressive"),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Write an HTML page with the statistics, style scatter, bets per street and winnings."""
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.report import ReportConfig, write_report

    try:
        cfg = ReportConfig(
            filter=_filter(players, table_size, stakes, since, until),
            thresholds=_thresholds(vpip_loose, aggression, af_aggressive, afq_aggressive),
            min_hands=min_hands,
            max_players=max_players,
        )
        with HandDB(path=db, read_only=True) as hdb:
            summary = write_report(hdb, out, config=cfg)
    except PokerlabError as exc:
        raise _fail(exc) from None
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(
            f"report for {summary['players']} players / {summary['hands']} hands: {summary['html']}"
        )
