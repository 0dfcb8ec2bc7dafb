"""``pokerlab demo``: the main job for a newcomer (``make run``)."""

from __future__ import annotations

import typer


def demo(
    quick: bool = typer.Option(False, "--quick", help="Skip the Leduc solve and the hand-history import."),
) -> None:
    """A tour: rank a hand, exact equity, a range chart, then solve games if built."""
    from rich.console import Console

    from pokerlab.demo import run_demo

    run_demo(Console(), quick=quick)


COMMANDS = [demo]
