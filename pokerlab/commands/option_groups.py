"""Option groups: options that several commands share, declared once.

A group is a plain function whose parameters are typer options (the flags, defaults and
help texts) and whose result a command receives as one argument.  A command names the
group by a parameter whose default is ``option_group(the_function)`` and is decorated with
:func:`with_option_groups` (under ``app.command``): the command-line sees the group's
options in that parameter's place (so ``--help`` lists them there, and the validation layer
checks each by its flag), and the command body gets the group function's result::

    def table(stack: float = STACK, ante: float = ANTE) -> dict[str, Any]:
        return dict(locals())

    @app.command("deal")
    @with_option_groups
    def deal(seed: int = SEED, game: dict[str, Any] = option_group(table)) -> None:
        ...  # game == {"stack": ..., "ante": ...}
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class OptionGroup:
    """The default of a command parameter that stands for the options of ``build``."""

    build: Callable[..., Any]


def option_group(build: Callable[..., Any]) -> Any:
    """The default of a command parameter that receives ``build(**its options)``."""
    return OptionGroup(build)


@functools.cache
def _group_params(build: Callable[..., Any]) -> tuple[inspect.Parameter, ...]:
    """The parameters of a group function (read once: several commands share a group)."""
    return tuple(inspect.signature(build, eval_str=True).parameters.values())


def with_option_groups(fn: F) -> F:
    """``fn`` with each :func:`option_group` parameter replaced, in the signature typer
    reads, by the group's own parameters; a call gathers them back into the group's result."""
    sig = inspect.signature(fn, eval_str=True)
    params: list[inspect.Parameter] = []
    groups: dict[str, tuple[Callable[..., Any], tuple[str, ...]]] = {}
    for p in sig.parameters.values():
        if not isinstance(p.default, OptionGroup):
            params.append(p)
            continue
        inner = _group_params(p.default.build)
        groups[p.name] = (p.default.build, tuple(q.name for q in inner))
        params.extend(inner)
    new_sig = sig.replace(parameters=params)  # a name given twice is a ValueError here

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for name, (build, names) in groups.items():
            kwargs[name] = build(**{n: kwargs.pop(n) for n in names if n in kwargs})
        return fn(*args, **kwargs)

    wrapper.__signature__ = new_sig  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    wrapper.__annotations__["return"] = sig.return_annotation
    return wrapper  # type: ignore[return-value]
