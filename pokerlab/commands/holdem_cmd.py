"""``pokerlab holdem``: the heads-up no-limit hold'em engine -- deal a hand, self-play to PHH."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import typer

from pokerlab.commands._common import fail as _fail  # the one error path
from pokerlab.commands._common import force_option
from pokerlab.commands.option_groups import option_group, with_option_groups
from pokerlab.errors import ConfigError, PokerlabError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

GROUPS = [("holdem", app, "Heads-up no-limit hold'em engine: deal a hand, self-play to PHH.")]


def _game_config(stacks: str, sb: int, bb: int, ante: int):  # type: ignore[no-untyped-def]
    from pokerlab.commands._validate import MAX_STACK_BB
    from pokerlab.holdem.engine import HoldemConfig

    try:
        vals = [float(t) for t in stacks.split(",") if t.strip()]
    except ValueError:
        raise ConfigError(f"bad --stacks {stacks!r}: expected big blinds like '200' or "
                          f"'200,150'") from None
    if len(vals) not in (1, 2):
        raise ConfigError(f"bad --stacks {stacks!r}: one value, or two (p1 = big blind, "
                          f"p2 = button)")
    if any(v <= 0 for v in vals):
        raise ConfigError(f"bad --stacks {stacks!r}: stacks must be positive")
    if not all(math.isfinite(v) and v <= MAX_STACK_BB for v in vals):
        raise ConfigError(f"bad --stacks {stacks!r}: stacks are finite numbers of big blinds, "
                          f"at most {MAX_STACK_BB:g}")
    return HoldemConfig.from_bb(vals[0] if len(vals) == 1 else vals, small_blind=sb,
                                big_blind=bb, ante=ante)


def _weights(text: str) -> tuple[int, ...]:
    from pokerlab.agents.random_agent import check_weights

    try:
        vals = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise ConfigError(f"bad --weights {text!r}: expected 5 integers") from None
    return check_weights(vals)


STACKS_HELP = "Stacks in big blinds: '200' for both or '200,150' (p1 = big blind, p2 = button)."
WEIGHTS_HELP = "Random agent weights: fold, check/call, min-raise, all-in, uniform raise."
SEED = typer.Option(0, help="Seed of cards and actions.")
JSON = typer.Option(False, "--json", help="Print one JSON object.")


def table_options(
    stacks: str = typer.Option("200", "--stack", "--stacks", help=STACKS_HELP),
    small_blind: int = typer.Option(50, "--sb", help="Small blind in chips."),
    big_blind: int = typer.Option(100, "--bb", help="Big blind in chips."),
    ante: int = typer.Option(0, help="Ante in chips."),
    weights: str = typer.Option("10,40,20,15,15", help=WEIGHTS_HELP),
) -> dict[str, Any]:
    """The option group of the table and its random agents (``deal``, ``selfplay``)."""
    return dict(locals())


def _table(table: dict[str, Any]) -> tuple[Any, tuple[int, ...]]:
    """The game config and the random agents' weights of :func:`table_options`."""
    return (_game_config(table["stacks"], table["small_blind"], table["big_blind"], table["ante"]),
            _weights(table["weights"]))


@app.command()
@with_option_groups
def deal(
    seed: int = SEED,
    table: dict[str, Any] = option_group(table_options),
    json_out: bool = JSON,
) -> None:
    """Deal one hand played by two random agents; show it as text and as PHH."""
    try:
        from pokerlab.agents.random_agent import SplitMix64, play_hand
        from pokerlab.holdem import phh
        from pokerlab.holdem.engine import HoldemState
        from pokerlab.holdem.render import describe_hand

        if seed < 0:
            raise ConfigError(f"seed must be >= 0, got {seed}")
        cfg, weights = _table(table)
        state = play_hand(HoldemState(config=cfg), SplitMix64(seed), weights)
        text = phh.dumps(state, hand=seed, players=["random-bb", "random-button"])
    except PokerlabError as exc:
        raise _fail(exc) from None
    if json_out:
        from pokerlab.cards.cards import cards_str

        pay = state.payoffs()
        typer.echo(json.dumps({
            "seed": seed, "config": cfg.to_json(),
            "hole": [cards_str(state.hole[0]), cards_str(state.hole[1])],
            "board": cards_str(state.board), "actions": phh.phh_actions(state),
            "payoffs": list(pay), "final_stacks": list(state.final_stacks()),
            "showdown": state.is_showdown, "phh": text,
        }))
        return
    for line in describe_hand(state):
        typer.echo(line)
    typer.echo("")
    typer.echo(text.rstrip("\n"))


@app.command()
@with_option_groups
def selfplay(
    hands: int = typer.Option(1000, help="Number of hands."),
    seed: int = SEED,
    table: dict[str, Any] = option_group(table_options),
    out: str = typer.Option("selfplay.phhs", "--out", help="PHH file to write (.phhs)."),
    force: bool = force_option(),
    verify: bool = typer.Option(False, "--verify",
                                help="Replay the file in PokerKit and compare final stacks."),
    json_out: bool = JSON,
) -> None:
    """Play N hands between random agents (favouring all-ins and min-raises) into PHH."""
    try:
        from pokerlab.agents.selfplay import SelfplayConfig, run_selfplay

        game, weights = _table(table)
        cfg = SelfplayConfig(hands=hands, seed=seed, game=game, weights=weights)  # type: ignore[arg-type]
        if json_out:
            rep = run_selfplay(cfg, out, verify=verify)
        else:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            with Progress(TextColumn("[bold]selfplay"), BarColumn(), MofNCompleteColumn(),
                          console=Console(stderr=True), transient=True) as prog:
                task = prog.add_task("hands", total=hands)
                step = max(1, hands // 200)

                def tick(i: int) -> None:
                    if (i + 1) % step == 0 or i + 1 == hands:
                        prog.update(task, completed=i + 1)

                rep = run_selfplay(cfg, out, progress=tick, verify=verify)
    except PokerlabError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        typer.echo(f"error: cannot write {out!r}: {exc}", err=True)
        raise typer.Exit(2) from None
    if json_out:
        typer.echo(json.dumps(rep))
        return
    won = rep["chips_won"]
    print(f"wrote {rep['hands']} hands to {rep['out']} (config {rep['out']}.json)\n"
          f"showdowns {rep['showdowns']}, folds {rep['folds']}, all-in hands "
          f"{rep['all_in_hands']}, actions {rep['actions']}\n"
          f"chips won: p1 {won[0]:+d}, p2 {won[1]:+d}; played in {rep['play_seconds']} s"
          + (f"\nPokerKit replayed all {rep['verified_hands']} hands to the same stacks"
             if "verified_hands" in rep else ""), file=sys.stdout)
