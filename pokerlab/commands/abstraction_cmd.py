"""``pokerlab abstraction``: build the card abstraction, size the abstract betting tree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import fail as _fail  # the one error path
from pokerlab.errors import ConfigError, PokerlabError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

GROUPS = [("abstraction", app,
           "Card abstraction (lossless indexer, EHS / potential-aware buckets) and bet sets.")]


def _parse_ints(text: str, what: str) -> tuple[int, ...]:
    try:
        vals = tuple(int(t) for t in text.replace("/", ",").split(",") if t.strip())
    except ValueError:
        raise ConfigError(f"bad {what} {text!r}: expected 4 integers like 169,200,200,200") from None
    if len(vals) != 4:
        raise ConfigError(f"bad {what} {text!r}: expected 4 integers (one per street)")
    return vals


@app.command()
def build(
    preset: str = typer.Option("default", help="Preset: default, ehs, small, flop, test."),
    buckets: str | None = typer.Option(None, help="Override buckets per street, e.g. "
                                                  "'169,200,200,200'."),
    seed: int | None = typer.Option(None, help="Override the k-means seed."),
    force: bool = typer.Option(False, help="Rebuild even if a verified cache exists."),
    cache: Path | None = typer.Option(None, help="Cache root (default: pokerlab's cache dir)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Build (or load from the checksummed cache) the card abstraction; report sizes and time."""
    try:
        _build(preset, buckets, seed, force, cache, as_json)
    except PokerlabError as exc:
        raise _fail(exc) from None


def _build(preset_name: str, buckets: str | None, seed: int | None, force: bool,
           cache: Path | None, as_json: bool) -> None:
    import dataclasses
    import time

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from pokerlab.abstraction import buckets as B
    from pokerlab.abstraction.indexer import STREET_NAMES, street_indexer

    cfg = B.preset(preset_name)
    if buckets is not None:
        cfg = dataclasses.replace(cfg, buckets=_parse_ints(buckets, "--buckets"), name="custom")
    if seed is not None:
        cfg = dataclasses.replace(cfg, seed=seed)
    progress: Progress | None = None
    task: Any = None
    if not as_json:
        progress = Progress(TextColumn("[bold]abstraction"), BarColumn(),
                            TextColumn("{task.fields[label]}"), TimeElapsedColumn(),
                            console=Console(stderr=True))
        progress.start()
        task = progress.add_task("build", total=cfg.max_street + 1, label="starting")

    def on_progress(label: str, done: int, total: int) -> None:
        if progress is not None:
            progress.update(task, completed=done, total=total, label=f"{label} done")

    t0 = time.perf_counter()
    try:
        ab, cached = B.load_or_build(cfg, root=cache, force=force, progress=on_progress)
        if progress is not None:
            progress.update(task, completed=cfg.max_street + 1,
                            label="loaded from cache" if cached else "built")
    finally:
        if progress is not None:
            progress.stop()
    folder = B.cache_path(cfg, cache)
    out: dict[str, Any] = {
        "preset": preset_name,
        "config": cfg.to_json(),
        "from_cache": cached,
        "seconds": round(time.perf_counter() - t0, 3),
        "build_seconds": ab.info.get("build_seconds"),
        "street_seconds": ab.info.get("seconds"),
        "streets": [
            {"street": STREET_NAMES[s], "canonical_hands": street_indexer(s).size,
             "buckets": cfg.buckets[s], "method": cfg.methods[s],
             "used_buckets": int(len(set(ab.tables[s].tolist())))}
            for s in range(len(ab.tables))
        ],
        "bytes": int(sum(t.nbytes for t in ab.tables)),
        "path": str(folder),
    }
    if as_json:
        typer.echo(json.dumps(out))
        return
    for st in out["streets"]:
        typer.echo(f"{st['street']:8s} {st['canonical_hands']:>12,} hands -> "
                   f"{st['used_buckets']:>5} buckets ({st['method']})")
    src = "loaded from cache" if cached else f"built in {out['build_seconds']} s"
    typer.echo(f"{out['bytes']:,} bytes, {src}: {folder}")


@app.command()
def tree(
    bets: str = typer.Option("default", help="Bet set text (e.g. 'preflop: 2.5x, 4x, a; "
                                             "postflop: 33%, 75%, a, cap 3') or a preset name."),
    stacks: float = typer.Option(100.0, "--stack", "--stacks",
                                 help="Stacks in big blinds (both players)."),
    buckets: str = typer.Option("169,200,200,200", help="Buckets per street."),
    bytes_per_value: int = typer.Option(4, help="Bytes per regret / strategy value."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Size of the abstract betting tree: sequences per street, infosets, memory."""
    try:
        from pokerlab.abstraction.bets import parse_bet_set
        from pokerlab.abstraction.tree_count import tree_size
        from pokerlab.holdem.engine import HoldemConfig

        if stacks <= 1:
            raise ConfigError(f"--stack must exceed 1 big blind, got {stacks}")
        if bytes_per_value not in (1, 2, 4, 8):
            raise ConfigError(f"--bytes-per-value must be 1, 2, 4 or 8, got {bytes_per_value}")
        bs = parse_bet_set(bets)
        size = tree_size(bs, HoldemConfig.from_bb(stacks), buckets=_parse_ints(buckets, "--buckets"),
                         bytes_per_value=bytes_per_value)
    except PokerlabError as exc:
        raise _fail(exc) from None
    out = {"bets": bs.text(), "stacks_bb": stacks, **size.to_json()}
    if as_json:
        typer.echo(json.dumps(out))
        return
    typer.echo(f"bets: {out['bets']}  (stacks {stacks:g} BB)")
    for name in ("preflop", "flop", "turn", "river"):
        typer.echo(f"  {name:8s} {out['sequences'][name]:>12,} sequences "
                   f"{out['actions'][name]:>12,} actions")
    typer.echo(f"  terminals: {out['terminal_folds']:,} folds, "
               f"{out['terminal_showdowns']:,} showdowns")
    typer.echo(f"  infosets with buckets {buckets}: {out['infosets']:,} "
               f"(perfect recall of buckets: {out['infosets_perfect_recall']:,})")
    mib = out["memory_bytes"] / 2**20
    typer.echo(f"  regrets + strategy: {out['values_per_table']:,} values each, "
               f"{mib:,.1f} MiB at {bytes_per_value} bytes")
