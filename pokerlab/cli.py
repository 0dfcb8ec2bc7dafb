"""The ``pokerlab`` command: one typer app, one sub-command group per area.

Each area lives in :mod:`pokerlab.commands` as a module exposing ``app`` (a typer app) and
``NAME``/``HELP``; modules are registered here.  Heavy imports happen inside the commands,
so ``pokerlab --help`` stays fast.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable
from typing import Any

import typer

from pokerlab.errors import PokerlabError

app = typer.Typer(
    name="pokerlab",
    help="Solve, train, measure, play and analyse imperfect-information games, poker first.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# (module, name) of the sub-command groups.  A module that defines ``COMMANDS`` (a list of
# callables) adds plain top-level commands instead of a group.
_GROUPS = [
    "pokerlab.commands.demo_cmd",
    "pokerlab.commands.cards_cmd",
    "pokerlab.commands.solve_cmd",
    "pokerlab.commands.pushfold_cmd",
    "pokerlab.commands.ttt_cmd",
    "pokerlab.commands.holdem_cmd",
    "pokerlab.commands.abstraction_cmd",
    "pokerlab.commands.hands_cmd",
    "pokerlab.commands.deepcfr_cmd",
]


def _friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn bad-input errors into one clear line on stderr and exit status 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PokerlabError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None

    return wrapper


def _wrap_app(sub: typer.Typer) -> None:
    for cmd in sub.registered_commands:
        if cmd.callback is not None and not getattr(cmd.callback, "__wrapped__", None):
            cmd.callback = _friendly(cmd.callback)
    for group in sub.registered_groups:
        if group.typer_instance is not None:
            _wrap_app(group.typer_instance)


def _register() -> None:
    for modname in _GROUPS:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname:
                continue  # area not built yet
            raise
        for fn in getattr(mod, "COMMANDS", []):
            app.command()(_friendly(fn))
        for sub_name, sub_app, sub_help in getattr(mod, "GROUPS", []):
            _wrap_app(sub_app)
            app.add_typer(sub_app, name=sub_name, help=sub_help)


_register()


def main() -> None:
    try:
        app()
    except PokerlabError as exc:  # raised outside a command body (e.g. in a callback)
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
