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
from collections.abc import Sequence
from typing import Any

import typer
import typer.core

from pokerlab.commands import RAW_ARGS, error_message
from pokerlab.commands import friendly as _friendly
from pokerlab.errors import PokerlabError


def usage_line(exc: BaseException) -> str:
    """One line for a usage error of the parser (bad type, unknown option, missing
    argument): its message, the command it concerns, and where to find help."""
    fmt = getattr(exc, "format_message", None)
    text = fmt() if callable(fmt) else str(exc)
    text = " ".join(str(text).split()).rstrip(".") or type(exc).__name__
    ctx = getattr(exc, "ctx", None)
    where = f" (see {ctx.command_path} --help)" if ctx is not None else ""
    return f"{text[:1].lower()}{text[1:]}{where}"


class PokerlabGroup(typer.core.TyperGroup):
    """The root command: the parser's own errors (a bad integer, an unknown option, a
    missing argument) are one line ``error: ...`` on stderr and exit status 2, like every
    other bad input -- no usage block, no box."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        from typer import exceptions as tx
        from typer._click import exceptions as cx

        code = 0
        RAW_ARGS.set(tuple(sys.argv[1:] if args is None else args))  # empty paths: _validate
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False,
                              windows_expand_args=windows_expand_args, **extra)
        except cx.NoArgsIsHelpError as exc:
            exc.show()
            code = 2
        except cx.ClickException as exc:
            print(f"error: {usage_line(exc)}", file=sys.stderr)
            code = 2
        except tx.Abort:
            print("error: aborted", file=sys.stderr)
            code = 1
        except (PokerlabError, OSError) as exc:  # raised outside a command body
            print(f"error: {error_message(exc)}", file=sys.stderr)
            code = 2
        else:
            if not standalone_mode:
                return rv
            code = rv if isinstance(rv, int) and not isinstance(rv, bool) else 0
        if not standalone_mode and code == 0:
            return code
        sys.exit(code)


def _root() -> None:
    """The root has no options of its own (a callback keeps it a group of commands even
    when a route builds it with one command)."""


def new_app() -> typer.Typer:
    """An empty root app (commands are added by :func:`build_app`)."""
    app = typer.Typer(
        cls=PokerlabGroup,
        name="pokerlab",
        help="Solve, train, measure, play and analyse imperfect-information games, poker first.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_root)
    return app


# The modules of the sub-command groups and commands, in the order of ``pokerlab --help``.
# A module that defines ``COMMANDS`` (a list of callables) adds plain top-level commands; a
# module may add commands to another module's group (blueprint_cmd adds to ``bench``).
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
    "pokerlab.commands.review_cmd",
    "pokerlab.commands.drill_cmd",
]

ROUTES: dict[str, tuple[str, ...]] = {
    "demo": ("demo_cmd",), "equity": ("cards_cmd",), "range": ("cards_cmd",),
    "eval": ("cards_cmd",), "bench": ("cards_cmd", "blueprint_cmd"), "solve": ("solve_cmd",),
    "policy": ("policy_cmd",), "game": ("game_cmd",), "pushfold": ("pushfold_cmd",),
    "ttt": ("ttt_cmd",), "holdem": ("holdem_cmd",), "abstraction": ("abstraction_cmd",),
    "hands": ("hands_cmd",), "deepcfr": ("deepcfr_cmd",), "play": ("play_cmd",),
    "match": ("match_cmd",), "blueprint": ("blueprint_cmd",), "exploit": ("exploit_cmd",),
    "opponent": ("exploit_cmd",), "lbr": ("lbr_cmd",), "league": ("lbr_cmd",),
    "spot": ("spot_cmd",), "review": ("review_cmd",), "train-spot": ("drill_cmd",),
}
"""Each top-level command or group and the command modules that define it, so that one
command imports only its own modules (start-up time: ``pokerlab spot solve`` of a river
spot is meant to take under a second, the process included).  ``tests/test_cli_routes.py``
checks that each route builds the same command as the whole app."""


def route(args: Sequence[str]) -> list[str]:
    """The command modules a command line needs: its command's, or all of them (``--help``
    at the root, an unknown command: the whole app answers)."""
    if args and not args[0].startswith("-") and args[0] in ROUTES:
        return [f"pokerlab.commands.{m}" for m in ROUTES[args[0]]]
    return list(_GROUPS)


def _command_name(cmd: Any) -> str:
    return cmd.name or cmd.callback.__name__.lower().replace("_", "-")


def _wrap_app(sub: typer.Typer, path: str) -> None:
    for cmd in sub.registered_commands:
        if cmd.callback is not None:
            cmd.callback = _friendly(cmd.callback, f"{path} {_command_name(cmd)}")
    for group in sub.registered_groups:
        if group.typer_instance is not None:
            name = group.name or group.typer_instance.info.name or ""
            _wrap_app(group.typer_instance, f"{path} {name}")


def build_app(modules: Sequence[str] | None = None) -> typer.Typer:
    """The root app with the commands of ``modules`` (default: every command module)."""
    app = new_app()
    for modname in _GROUPS if modules is None else modules:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname:
                continue  # area not built yet
            raise
        for fn in getattr(mod, "COMMANDS", []):
            app.command()(_friendly(fn, fn.__name__.lower().replace("_", "-")))
        for sub_name, sub_app, sub_help in getattr(mod, "GROUPS", []):
            app.add_typer(sub_app, name=sub_name, help=sub_help)
    # wrapped last: a module may add commands to another module's group
    for cmd in app.registered_commands:
        if cmd.callback is not None:
            cmd.callback = _friendly(cmd.callback, _command_name(cmd))
    for group in app.registered_groups:
        if group.typer_instance is not None:
            _wrap_app(group.typer_instance, group.name or "")
    return app


_APP: typer.Typer | None = None


def __getattr__(name: str) -> Any:
    """``app``: the whole command line (built on first use)."""
    global _APP
    if name == "app":
        if _APP is None:
            _APP = build_app()
        return _APP
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    try:
        build_app(route(sys.argv[1:]))()
    except (PokerlabError, OSError) as exc:  # raised outside a command body (a callback)
        print(f"error: {error_message(exc)}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
