"""CLI sub-commands, one ``<area>_cmd`` module per area.

Each module defines ``GROUPS = [(name, typer_app, help)]`` and/or ``COMMANDS = [fn, ...]``
and is listed in ``pokerlab.cli._GROUPS``; shared options, the error path, the progress bar
and the JSON emitter are in :mod:`pokerlab.commands._common`.
"""

from pokerlab.commands._common import RAW_ARGS, error_message, friendly

__all__ = ["RAW_ARGS", "error_message", "friendly"]
