"""The ``pokerlab`` command: one typer app, one sub-command group per area.

Each area lives in :mod:`pokerlab.commands` as a module exposing ``app`` (a typer app) and
``NAME``/``HELP``; modules are registered here.  Heavy imports happen inside the commands,
so ``pokerlab --help`` stays fast.
"""

from __future__ import annotations

import importlib

import typer

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
    "pokerlab.commands.cards_cmd",
    "pokerlab.commands.solve_cmd",
    "pokerlab.commands.pushfold_cmd",
    "pokerlab.commands.ttt_cmd",
    "pokerlab.commands.holdem_cmd",
    "pokerlab.commands.abstraction_cmd",
    "pokerlab.commands.hands_cmd",
    "pokerlab.commands.deepcfr_cmd",
]


def _register() -> None:
    for modname in _GROUPS:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname:
                continue  # area not built yet
            raise
        for fn in getattr(mod, "COMMANDS", []):
            app.command()(fn)
        for sub_name, sub_app, sub_help in getattr(mod, "GROUPS", []):
            app.add_typer(sub_app, name=sub_name, help=sub_help)


_register()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
