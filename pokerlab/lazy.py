"""Package attributes loaded on first use (PEP 562), so that importing one light module of
a package does not import the heavy ones its ``__init__`` re-exports."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_getattr"]


def lazy_getattr(package: str, where: dict[str, str],
                 namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: attribute ``name`` is imported from the
    submodule ``where[name]`` on first use and kept in ``namespace`` (the package's
    ``globals()``), so later lookups are plain."""

    def __getattr__(name: str) -> Any:
        mod = where.get(name)
        if mod is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{mod}"), name)
        namespace[name] = value
        return value

    return __getattr__
