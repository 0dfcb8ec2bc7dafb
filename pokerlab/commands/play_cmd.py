"""``pokerlab play``: play against an agent in the browser (or the terminal with ``--tty``)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import typer

from pokerlab.errors import ConfigError


def play(
    agent: str = typer.Option(
        None, "--agent", help="HUNL agent spec: blueprint, thesis, tag, call, raise, random, "
        "policy:PATH, adapt (default: the shipped blueprint when installed, else tag); kuhn, "
        "leduc and generic games: equilibrium (default), random, adapt, policy:PATH."),
    game: str = typer.Option("hunl", "--game", help="hunl, pushfold, leduc, kuhn, or any "
                             "small two-player game string: gamedef:PATH (or a shipped name "
                             "such as gamedef:leduc5), \"universal_poker(...)\"."),
    stack: float = typer.Option(
        None, "--stack", help="Stack in big blinds (default 100 for hunl, 10 for pushfold)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to serve on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to serve on."),
    no_open: bool = typer.Option(False, "--no-open", help="Do not open a browser."),
    tty: bool = typer.Option(False, "--tty", help="Play in this terminal instead of a browser."),
    carry: bool = typer.Option(False, "--carry", help="Carry stacks from hand to hand "
                               "(default: reset every hand)."),
    out: Path = typer.Option(None, "--out", help="Folder for the session folders with the hand "
                             "histories (default: the user data folder)."),
    seed: int = typer.Option(None, "--seed", min=0, help="Seed the deals (default: random)."),
    grace: float = typer.Option(
        60.0, "--grace", help="Seconds a session without an open page is kept (a reload "
        "resumes it) before it is released."),
    per_client: int = typer.Option(
        4, "--per-client", help="Sessions one client address may hold (a new one first "
        "releases that address's oldest session without an open page)."),
    max_sessions: int = typer.Option(200, "--max-sessions", help="Sessions the server holds."),
) -> None:
    """Play heads-up poker against an agent: a web table, or the terminal with --tty."""
    from pokerlab.play.registry import is_equilibrium, table_spec
    from pokerlab.play.session import Session, SessionConfig

    if not grace > 0 or grace != grace or grace > 86_400:
        raise ConfigError(f"--grace must be a number of seconds in (0, 86400], got {grace:g}")
    for name, v in (("--per-client", per_client), ("--max-sessions", max_sessions)):
        if v < 1:
            raise ConfigError(f"{name} must be >= 1, got {v}")
    table = table_spec(game)  # what the game is (pokerlab.play.registry)
    if table.checked:  # any small two-player game: checked (size, players) before serving
        from pokerlab.play.generic import load_play_game

        load_play_game(game)
    own_agent = table.game_agents  # the spec is this game's agent, not a HUNL one
    if own_agent:  # the exact equilibrium or any agent of the game
        spec = agent if agent is not None else "equilibrium"
        if not is_equilibrium(spec):
            from pokerlab.registry import make_agent

            make_agent(spec, game=game)  # a bad spec fails here, in one line
    else:
        spec = agent if agent is not None else default_agent()
    if stack is None:
        stack = table.default_stack
    if out is not None and out.exists() and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} is a file, not a folder")
    if table.hunl_agents:  # a bad spec fails here, in one line, not in the page
        from pokerlab.holdem.engine import HoldemConfig
        from pokerlab.registry import make_agent

        make_agent(spec, game="hunl", config=HoldemConfig.from_bb(stack))
    if tty:
        from pokerlab.play.service import default_root
        from pokerlab.play.tty import play_tty

        root = out if out is not None else default_root()
        folder = root / f"{time.strftime('%Y%m%d-%H%M%S')}-tty"
        s = Session(SessionConfig(game=game, agent="" if table.own_agent else spec,
                                  stack=stack, carry_stacks=carry, seed=seed), folder=folder)
        play_tty(s)
        typer.echo(f"\nhand histories: {folder}")
        return
    from pokerlab.play.server import ServerConfig, serve

    hunl_spec = default_agent() if own_agent else spec
    cfg = ServerConfig(game=game, agent=hunl_spec, small_agent=spec if own_agent else "equilibrium",
                       stack=stack, carry_stacks=carry,
                       out_dir=str(out) if out is not None else None, seed=seed,
                       grace_seconds=grace, max_sessions_per_client=per_client,
                       max_sessions=max_sessions)
    open_browser = not no_open and sys.stdout.isatty()
    try:
        serve(cfg, host=host, port=port, open_browser=open_browser, quiet=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive
        pass


def default_agent() -> str:
    """``blueprint`` when the shipped blueprint is installed, else ``tag``."""
    try:
        from pokerlab.registry import BLUEPRINT_FILES, shipped_policy

        if shipped_policy(BLUEPRINT_FILES) is not None:
            return "blueprint"
    except ImportError:  # pragma: no cover - agents layer missing
        pass
    return "tag"


COMMANDS = [play]
