"""CLI sub-commands, one module per area (each exposes a typer ``app``)."""
