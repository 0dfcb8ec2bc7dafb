"""The package's declared layers, bottom up (docs/conventions.md; checked by tests/test_layers.py).

A module may import modules of its own layer or of a lower one, never of a higher one; no
two modules may import each other, directly or through others (function-level and
``TYPE_CHECKING`` imports count); packages of one layer may import each other only one
way.  Names are the top-level modules and sub-packages of :mod:`pokerlab`.
"""

from __future__ import annotations

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("errors", "checks", "io", "rng", "executor", "runlock", "lazy", "kinds",
              "think", "_layers")),
    ("cards", ("cards",)),
    ("holdem", ("holdem",)),
    ("games", ("games", "abstraction")),
    ("policy", ("policy",)),
    ("solvers", ("solvers", "subgame", "evaluation", "pushfold")),
    ("agents", ("agents",)),
    ("applications", ("blueprint", "opponents", "deepcfr", "selfplay", "interop")),
    ("composition", ("registry",)),
    ("spec users", ("hands", "play", "arena")),
    ("front end", ("commands", "cli", "demo", "demo_solvers", "__init__", "__main__")),
)
"""(layer name, the top-level names in it), from the bottom up."""


def layer_of(name: str) -> int | None:
    """The layer index of a top-level name (``"holdem"``), ``None`` when it has none."""
    for i, (_, names) in enumerate(LAYERS):
        if name in names:
            return i
    return None
