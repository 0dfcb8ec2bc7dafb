"""The command line's routes: one command imports only its own modules and builds the same
command as the whole app (``pokerlab.cli.ROUTES``)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import typer.main

from pokerlab.cli import ROUTES, build_app, route


def _shape(cmd: Any) -> Any:
    """A command as names: its parameters' flags and, for a group, its sub-commands'."""
    params = sorted((p.name, tuple(sorted(getattr(p, "opts", []))), str(p.default))
                    for p in getattr(cmd, "params", []))
    subs = {n: _shape(c) for n, c in sorted(getattr(cmd, "commands", {}).items())}
    return (params, subs)


def test_every_command_is_routed_and_each_route_builds_the_same_command() -> None:
    full: Any = typer.main.get_command(build_app())
    assert sorted(full.commands) == sorted(ROUTES)
    for name in ROUTES:
        alone: Any = typer.main.get_command(build_app(route([name, "--help"])))
        assert set(alone.commands) >= {name}
        assert _shape(alone.commands[name]) == _shape(full.commands[name]), name


def test_root_help_and_unknown_commands_take_the_whole_app() -> None:
    assert len(route([])) == len(route(["--help"])) == len(route(["no-such-command"])) > 10
    assert route(["spot", "solve", "--board", "AsKsQs"]) == ["pokerlab.commands.spot_cmd"]


def test_a_routed_command_does_not_import_the_other_areas() -> None:
    code = ("import sys; from pokerlab.cli import build_app, route; build_app(route(['spot']));"
            "print(sorted(m for m in sys.modules if m.startswith('pokerlab.commands.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pokerlab.commands.spot_cmd" in out
    for other in ("deepcfr_cmd", "ttt_cmd", "play_cmd", "hands_cmd", "blueprint_cmd", "lbr_cmd"):
        assert other not in out
    bad = subprocess.run([sys.executable, "-m", "pokerlab.cli", "nosuch"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error:")
