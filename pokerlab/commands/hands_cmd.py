"""``pokerlab hands``: import hand histories, player statistics, styles and the HTML report."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pokerlab.commands._common import emit_json, force_option, progress

if TYPE_CHECKING:
    from pokerlab.hands.stats import HandFilter
    from pokerlab.hands.style import StyleThresholds

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

GROUPS = [
    ("hands", app, "Hand histories: import PHH/PokerStars into DuckDB, statistics, styles, report.")
]

_DB_HELP = "Hand database file (default: hands.duckdb in the user data directory)."


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
    from pokerlab.hands.style import MAX_AF, StyleThresholds

    if not af <= MAX_AF:
        from pokerlab.errors import ConfigError

        raise ConfigError(f"--af-aggressive {af:g} is too large: an aggression factor "
                          f"threshold is at most {MAX_AF:g}")
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


EXIT_REJECTED = 3
"""Exit status of ``hands import`` when any hand was rejected, a path was missing or held
no recognisable hand, or nothing was imported (2 stays for bad options / unreadable db)."""


@app.command("import")
def import_cmd(
    paths: list[Path] = typer.Argument(
        ...,
        help="Files (.phh, .phhs, PokerStars .txt, ACPC .log; may be .xz/.gz/.bz2) or folders.",
    ),
    db: Path | None = typer.Option(None, "--db", help=_DB_HELP),
    batch_size: int = typer.Option(4_000, "--batch-size", min=1, help="Hands per bulk insert."),
    show_rejected: int = typer.Option(20, "--show-rejected", min=0, help="Rejected hands to list."),
    group: str | None = typer.Option(
        None, "--group", help="Label the imported hands (compare sets with stats --per-game --group)."
    ),
    one_process: bool = typer.Option(
        False,
        "--one-process",
        help="Replay in this process (by default a second process loads the numba kernels "
        "while this one reads the files: shorter start-up).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Import hand histories; a hand already stored is not stored again, bad hands are skipped.

    Exit status: 0 when at least one hand was imported (or already present) and nothing
    was rejected or missing; 3 when some or all hands were rejected, a path is missing or a
    file holds no recognisable hand (the other paths are still imported); 2 for bad options.
    """
    from contextlib import nullcontext

    from pokerlab.errors import HandHistoryError
    from pokerlab.hands.kernel_worker import KernelWorker

    missing = [str(p) for p in paths if not p.exists()]
    if len(missing) == len(paths):  # nothing to import at all: a usage error, not a report
        raise HandHistoryError(
            "no such file or folder: " + ", ".join(repr(m) for m in missing))

    # Started first (standard library only): the child loads numba while this process
    # imports DuckDB and reads the files.  Not when this process already has the kernels.
    use_worker = not one_process and "pokerlab.hands.replay_kernels" not in sys.modules
    with KernelWorker.start() if use_worker else nullcontext() as worker:
        from pokerlab.hands.db import HandDB

        with HandDB(path=db) as hdb:
            with progress("importing", enabled=not as_json, unit="hands") as tick:
                rep = hdb.import_paths(
                    paths,
                    batch_size=batch_size,
                    progress=lambda n: tick(n),
                    group=group,
                    kernels=worker,
                )
            out = rep.to_json(max_rejections=show_rejected)
            out["db"] = str(hdb.path)
            out["exit_code"] = 0 if rep.ok else EXIT_REJECTED
    if as_json:
        emit_json(out)
    else:
        typer.echo(
            f"{rep.read} hands read: {rep.stored} stored, "
            f"{rep.duplicates} already present, {rep.rejected} rejected "
            f"({out['hands_per_second']} hands/s) -> {out['db']}"
        )
        for prob in rep.problems:
            typer.echo(f"  problem: {prob}", err=True)
        for r in rep.rejections[:show_rejected]:
            typer.echo(f"  rejected: {r}")
        if rep.rejected > show_rejected:
            typer.echo(f"  ... and {rep.rejected - show_rejected} more")
        if rep.read == 0 and not rep.problems:
            typer.echo("  no hands found", err=True)
    if not rep.ok:
        raise typer.Exit(EXIT_REJECTED)


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
        None,
        "--group",
        help="Pool the selected players into one row with this name; with --per-game: "
        "only the hands imported with this --group label.",
    ),
    per_game: bool = typer.Option(
        False, "--per-game", help="Per-game (table-level) statistics instead of per player."
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
    """Per-player statistics (VPIP, PFR, 3-bet, AF, AFq, WTSD, W$SD, ..., bb/100) and style.

    With ``--per-game``: the table-level statistics (entered-hand, all-in and showdown
    shares, raise relative to the pot, bets per street), thesis's and pokerlab's
    definitions side by side (docs/hands.md).
    """
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.stats import game_stats, player_stats
    from pokerlab.hands.style import classify_all

    if per_game:
        filt = _filter(players, table_size, stakes, since, until)
        with HandDB(path=db, read_only=True) as hdb:
            gs = game_stats(hdb, filt=filt, group=group)
        if as_json:
            emit_json(gs)
        else:
            _print_game_stats(gs)
        return

    filt = _filter(players, table_size, stakes, since, until)
    thr = _thresholds(vpip_loose, aggression, af_aggressive, afq_aggressive)
    with HandDB(path=db, read_only=True) as hdb:
        stats = classify_all(
            player_stats(hdb, filt=filt, group=group, min_hands=min_hands),
            thr,
            table_size=table_size,
        )
        n = int(hdb.query("SELECT count(*) FROM hands")[0][0])
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
                    "net_currency": d["net_currency"],
                }
            )
        emit_json({"hands_in_db": n, "players": rows})
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
    force: bool = force_option("Replace the report (index.html and its pictures) in --out "
                               "(without --force an existing one is refused)."),
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
    compare: list[str] | None = typer.Option(
        None, "--compare", help="Compare these import groups (repeat or comma-separate): the "
        "thesis's human/agent panels, per-game table, styles (pokerlab.hands.compare)."
    ),
    human: list[str] | None = typer.Option(
        None, "--human", help="With --compare: the human groups (default: names containing "
        "human/pluribus/people)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Write an HTML page with the statistics, style scatter, bets per street and winnings."""
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.report import ReportConfig, write_report

    if compare:
        from pokerlab.hands.compare import write_compare_report

        groups = [g.strip() for item in compare for g in item.split(",") if g.strip()]
        hum = None if not human else [g.strip() for it in human for g in it.split(",") if g.strip()]
        th = _thresholds(vpip_loose, aggression, af_aggressive, afq_aggressive)
        with HandDB(path=db, read_only=True) as hdb:
            csum = write_compare_report(hdb, groups, out, human=hum, thresholds=th)
        if as_json:
            emit_json(csum)
        else:
            for g in csum["groups"]:
                typer.echo(f"{g['group']} ({g['kind']}): {g['hands']} hands, style {g['style']}")
            typer.echo(f"comparison report: {csum['html']}")
        return

    cfg = ReportConfig(
        filter=_filter(players, table_size, stakes, since, until),
        thresholds=_thresholds(vpip_loose, aggression, af_aggressive, afq_aggressive),
        min_hands=min_hands,
        max_players=max_players,
    )
    with HandDB(path=db, read_only=True) as hdb:
        summary = write_report(hdb, out, config=cfg)
    if as_json:
        emit_json(summary)
    else:
        typer.echo(
            f"report for {summary['players']} players / {summary['hands']} hands: {summary['html']}"
        )


def _print_game_stats(gs: dict[str, object]) -> None:
    def f(v: object) -> str:
        return "-" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v)

    typer.echo(f"group {gs['group'] or '(all)'}: {gs['hands']} hands")
    for key in ("entered_share", "allin_share", "showdown_share", "raise_pot_ratio"):
        v = gs[key]
        if isinstance(v, dict):
            typer.echo(f"  {key}: pokerlab {f(v['pokerlab'])}, thesis {f(v['thesis'])}")
        else:
            typer.echo(f"  {key}: {f(v)}")
    bets = gs["bet_per_street_bb"]
    assert isinstance(bets, dict)
    for defn in ("pokerlab", "thesis"):
        typer.echo(
            f"  bet per street (bb, {defn}): "
            + ", ".join(f"{k} {f(v)}" for k, v in bets[defn].items())
        )
    cur = gs.get("bet_per_street_currency")
    if isinstance(cur, dict):
        typer.echo(
            f"  bet per street ({gs['currency']}): " + ", ".join(f"{k} {f(v)}" for k, v in cur.items())
        )
