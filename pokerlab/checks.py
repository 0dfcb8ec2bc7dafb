"""The field checks that the frozen-dataclass configs' ``__post_init__`` share.

Each check reads the named fields of a config object and raises ``error`` (a
:class:`~pokerlab.errors.PokerlabError`; :class:`~pokerlab.errors.ConfigError` unless the
caller's layer has its own type) with one message naming the field and its value, so every
config says the same thing for the same mistake.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from pokerlab.errors import ConfigError, PokerlabError


def check_counts(obj: object, names: Iterable[str], *, error: type[PokerlabError] = ConfigError,
                 prefix: str = "", most: int | None = None) -> None:
    """Each field ``names`` of ``obj`` is a whole number >= 1 (a ``bool`` is not one) and at
    most ``most`` when given; the first that is not raises ``error``
    (``"{prefix}{name} must be a positive integer, got {value!r}"``)."""
    for name in names:
        v = getattr(obj, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1 or (most is not None and v > most):
            limit = "" if most is None else f" (at most {most})"
            raise error(f"{prefix}{name} must be a positive integer{limit}, got {v!r}")


def check_finite_at_least(obj: object, names: Iterable[str], lo: float = 0.0, *,
                          error: type[PokerlabError] = ConfigError, prefix: str = "") -> None:
    """Each field ``names`` of ``obj`` is a finite number >= ``lo`` (``nan`` and ``inf`` are
    refused); the first that is not raises ``error``
    (``"{prefix}{name} must be a finite number >= {lo:g}, got {value!r}"``)."""
    for name in names:
        v = getattr(obj, name)
        if not (math.isfinite(v) and v >= lo):
            raise error(f"{prefix}{name} must be a finite number >= {lo:g}, got {v!r}")
