"""One parser for the ``name(key=value,...)`` strings of the command line: agent specs
(``search(ms=250,street=turn):tag``, ``adapt(base=call,refit=5)``) and the like.

:func:`parse_call` splits a string into its name, its ``key=value`` parameters (raw text,
in order) and an optional ``:SUFFIX`` (``search:POLICY``, ``adapt:BASE``); the caller
checks the keys against its own table (:func:`check_keys`) and converts the values.
Parameters are split on commas outside quotes and parentheses; ``keyed_commas`` splits only
at a comma followed by ``key=`` (so a value may itself hold commas, as game strings allow).
Every syntax error is one ``error`` exception naming the string and the offending part.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pokerlab.errors import PokerlabError

_KEY = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_.]*\s*=")


@dataclass(frozen=True)
class Call:
    """A parsed ``name(key=value,...)[:suffix]`` string."""

    text: str
    name: str
    params: tuple[tuple[str, str], ...]
    """(key, value) pairs in order, both stripped (keys lower-cased with ``lower_keys``)."""
    suffix: str | None = None
    """The text after ``:`` (``None`` without one)."""
    parens: bool = False

    def as_dict(self) -> dict[str, str]:
        return dict(self.params)


def split_params(body: str, *, keyed_commas: bool = False) -> list[str]:
    """``body`` split on the commas outside quotes and parentheses (with ``keyed_commas``
    only those followed by ``key=``).  Raises ``ValueError`` for an unbalanced ``)``, an
    unclosed quote or parenthesis."""
    parts: list[str] = []
    start = 0
    depth, quote = 0, ""
    for i, ch, depth, quote in _scan(body, 0):
        if depth < 0:
            raise ValueError("unbalanced ')'")
        if ch == "," and not quote and depth == 0 and (
                not keyed_commas or _KEY.match(body, i + 1)):
            parts.append(body[start:i])
            start = i + 1
    if quote or depth:
        raise ValueError("unclosed quote or parenthesis")
    parts.append(body[start:])
    return parts


def _scan(text: str, start: int) -> Iterator[tuple[int, str, int, str]]:
    """``(i, ch, depth, quote)`` for each character from ``start``: the parenthesis depth
    and the open quote *after* ``ch`` (a quote character opening or closing a string, and
    every character inside one, has ``quote`` set or just cleared)."""
    depth, quote = 0, ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
                yield i, "", depth, quote
                continue
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        yield i, ch, depth, quote


def _close(text: str, start: int) -> int:
    """Index of the ``)`` closing the ``(`` at ``start`` (quotes and nesting respected);
    -1 when there is none."""
    for i, ch, depth, quote in _scan(text, start):
        if ch == ")" and not quote and depth == 0:
            return i
    return -1


def parse_call(text: str, *, error: type[PokerlabError], what: str, usage: str,
               suffix: bool = True, keyed_commas: bool = False, lower_keys: bool = True,
               repeat_ok: bool = False) -> Call:
    """``text`` as ``name``, ``name:SUFFIX``, ``name(k=v,...)`` or ``name(k=v,...):SUFFIX``
    (``suffix=False``: no suffix after the parentheses).  Errors are ``error`` with the
    message ``{what} {text!r}: ...``; ``usage`` says what to write.  Blank parameters are
    skipped; a parameter given twice is an error unless ``repeat_ok`` (the last wins)."""
    s = text.strip()

    def bad(msg: str) -> PokerlabError:
        return error(f"{what} {text!r}: {msg}")

    open_at = s.find("(")
    colon = s.find(":")
    if open_at < 0 or (0 <= colon < open_at):
        name, _, rest = s.partition(":")
        name = name.strip()
        if not name or any(c in name for c in "()=,"):
            raise bad(f"expected {usage}")
        if colon >= 0:
            if not rest.strip():
                raise bad(f"{name}:... needs a base spec after ':'")
            return Call(text=text, name=name, params=(), suffix=rest.strip())
        return Call(text=text, name=name, params=())
    name = s[:open_at].strip()
    end = _close(s, open_at)
    if not name or end < 0:
        raise bad(f"expected {usage}")
    tail = s[end + 1:].strip()
    tail_suffix: str | None = None
    if tail:
        if not suffix or not tail.startswith(":") or not tail[1:].strip():
            raise bad(f"expected {usage}")
        tail_suffix = tail[1:].strip()
    try:
        parts = split_params(s[open_at + 1:end], keyed_commas=keyed_commas)
    except ValueError as exc:
        raise bad(str(exc)) from None
    params: list[tuple[str, str]] = []
    seen: set[str] = set()
    for part in parts:
        if not part.strip():
            continue
        if "=" not in part:
            raise bad(f"{part.strip()!r} is not key=value")
        k, v = (x.strip() for x in part.split("=", 1))
        if lower_keys:
            k = k.lower()
        if not _KEY.fullmatch(k + "="):
            raise bad(f"bad key {k!r} in {part.strip()!r} (expected key=value)")
        if not v:
            raise bad(f"{part.strip()!r} is not key=value (no value)")
        if k in seen and not repeat_ok:
            raise bad(f"{k!r} given twice")
        seen.add(k)
        params.append((k, v))
    return Call(text=text, name=name, params=tuple(params), suffix=tail_suffix, parens=True)


def parse_named_call(text: str, name: str, *, error: type[PokerlabError], what: str,
                     usage: str, **options: bool) -> Call:
    """:func:`parse_call` of ``text`` that must be called ``name`` (any case); another
    name is ``error``: ``{what} {text!r}: expected {usage}``."""
    call = parse_call(text, error=error, what=what, usage=usage, **options)
    if call.name.lower() != name:
        raise error(f"{what} {text!r}: expected {usage}")
    return call


def check_keys(call: Call, known: Iterable[str], *, error: type[PokerlabError], what: str,
               scope: str = "") -> None:
    """Refuse a key of ``call`` that is not in ``known``, listing them (``scope``: words
    after "known", such as " on hunl")."""
    names = list(known)
    for k, _ in call.params:
        if k not in names:
            raise error(f"{what} {call.text!r}: unknown key {k!r}; known{scope}: {', '.join(names)}")
