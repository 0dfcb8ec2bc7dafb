"""The ``pokerlab`` command: one typer app, one sub-command group per area.

Each area lives in :mod:`pokerlab.commands` as a ``<area>_cmd`` module listed in
``_GROUPS``; a module defines ``GROUPS = [(name, typer_app, help)]`` (sub-command groups)
and/or ``COMMANDS = [fn, ...]`` (top-level commands).  Every registered command is wrapped
by :func:`pokerlab.commands._common.friendly`: a ``PokerlabError`` or ``OSError`` becomes
one line ``error: ...`` and exit status 2.  Heavy imports happen inside the commands, so
``pokerlab --help`` stays fast.
"""

from __future__ import annotations

import importlib
import sys

import typer

from pokerlab.commands._common import error_message
from pokerlab.commands._common import friendly as _friendly
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
    "pokerlab.commands.policy_cmd",
    "pokerlab.commands.game_cmd",
    "pokerlab.commands.pushfold_cmd",
    "pokerlab.commands.ttt_cmd",
    "pokerlab.commands.holdem_cmd",
    "pokerlab.commands.abstraction_cmd",
    "pokerlab.commands.hands_cmd",
    "pokerlab.commands.deepcfr_cmd",
    "pokerlab.commands.play_cmd",
    "pokerlab.commands.match_cmd",
    "pokerlab.commands.blueprint_cmd",
    "pokerlab.commands.exploit_cmd",
    "pokerlab.commands.lbr_cmd",
    "pokerlab.commands.spot_cmd",
]


def _wrap_app(sub: typer.Typer) -> None:
    for cmd in sub.registered_commands:
        if cmd.callback is not None:
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
    except (PokerlabError, OSError) as exc:  # raised outside a command body (a callback)
        print(f"error: {error_message(exc)}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
