"""Hand ranges: standard notation <-> weight vectors over the 1326 combos, and the 13x13 grid.

Notation (comma and/or space separated tokens, each optionally ``:weight``)::

    AA  AKs  AKo  AK          a class (AK = suited and offsuit)
    TT+  A2s+  K9o+           a pair and all higher pairs / a kicker and all higher kickers
    22-55  KTo-KQo  A5s-A2s   an inclusive span (either order)
    AsKs                      one specific combo
    AKo:0.5                   any token with a weight in [0, 1]
    random (or "any", "100%") all 1326 combos

Later tokens override earlier ones for the combos they name.  Dead cards (a board)
remove combos.  Errors name the token and its position in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.cards.cards import (
    CLASS_INDEX,
    CLASS_NAMES,
    CLASS_OF_COMBO,
    CLASS_SIZES,
    COMBO_INDEX,
    COMBO_MASKS,
    NUM_COMBOS,
    RANKS,
    cards_mask,
    combo_str,
    parse_card,
)
from pokerlab.errors import CardError, RangeError

_TOKEN = re.compile(r"[^\s,]+")
_RANK = {ch: i for i, ch in enumerate(RANKS)}


def _rank(ch: str) -> int | None:
    return _RANK.get(ch.upper())


def _class_name(hi: int, lo: int, kind: str) -> str:
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + kind


def _parse_class(text: str) -> tuple[int, int, str] | None:
    """``"AKs"`` -> (12, 11, "s"); ``"AK"`` -> (12, 11, ""); ``"77"`` -> (5, 5, "")."""
    if len(text) not in (2, 3):
        return None
    r1, r2 = _rank(text[0]), _rank(text[1])
    if r1 is None or r2 is None:
        return None
    kind = text[2].lower() if len(text) == 3 else ""
    if kind not in ("", "s", "o"):
        return None
    if r1 == r2 and kind:
        return None
    hi, lo = max(r1, r2), min(r1, r2)
    return hi, lo, kind


def _classes_of(hi: int, lo: int, kind: str) -> list[str]:
    if hi == lo:
        return [_class_name(hi, hi, "")]
    if kind == "":
        return [_class_name(hi, lo, "s"), _class_name(hi, lo, "o")]
    return [_class_name(hi, lo, kind)]


def _expand(body: str) -> list[str] | np.ndarray | None:
    """Expand one token without weight into class names, or combo indices (ndarray)."""
    low = body.lower()
    if low in ("random", "any", "100%", "all"):
        return list(CLASS_NAMES)
    if len(body) == 4 and _rank(body[0]) is not None and _rank(body[2]) is not None:
        try:
            a, b = parse_card(body[:2]), parse_card(body[2:])
        except CardError:
            return None
        if a == b:
            return None
        return np.array([COMBO_INDEX[a, b]])
    if body.endswith("+"):
        c = _parse_class(body[:-1])
        if c is None:
            return None
        hi, lo, kind = c
        if hi == lo:
            return [_class_name(r, r, "") for r in range(hi, 13)]
        out: list[str] = []
        for k in range(lo, hi):
            out += _classes_of(hi, k, kind)
        return out
    if "-" in body:
        left, _, right = body.partition("-")
        ca, cb = _parse_class(left), _parse_class(right)
        if ca is None or cb is None:
            return None
        if ca[0] == ca[1] and cb[0] == cb[1]:
            lo_r, hi_r = sorted((ca[0], cb[0]))
            return [_class_name(r, r, "") for r in range(lo_r, hi_r + 1)]
        if ca[0] != cb[0] or ca[2] != cb[2] or ca[0] == ca[1] or cb[0] == cb[1]:
            return None
        lo_k, hi_k = sorted((ca[1], cb[1]))
        out = []
        for k in range(lo_k, hi_k + 1):
            out += _classes_of(ca[0], k, ca[2])
        return out
    c = _parse_class(body)
    if c is None:
        return None
    return _classes_of(*c)


def parse_range(text: str, *, dead: Sequence[int] | Iterable[int] = ()) -> np.ndarray:
    """Weight vector (1326,) of a range in standard notation; dead cards remove combos."""
    if not isinstance(text, str):
        raise RangeError(f"a range must be a string, got {type(text).__name__}")
    w = np.zeros(NUM_COMBOS)
    found = False
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        pos = m.start() + 1
        body, sep, wtext = token.partition(":")
        weight = 1.0
        if sep:
            try:
                weight = float(wtext)
            except ValueError:
                raise RangeError(
                    f"bad weight {wtext!r} in range token {token!r} at position {pos}"
                ) from None
            if not 0.0 <= weight <= 1.0:
                raise RangeError(
                    f"weight {wtext} out of [0, 1] in range token {token!r} at position {pos}"
                )
        exp = _expand(body)
        if exp is None:
            raise RangeError(
                f"bad range token {token!r} at position {pos}: expected e.g. AA, AKs, AKo, "
                "TT+, A2s+, KTo-KQo, 22-55, AsKs, AKo:0.5"
            )
        if isinstance(exp, np.ndarray):
            w[exp] = weight
        else:
            for name in exp:
                w[CLASS_OF_COMBO == CLASS_INDEX[name]] = weight
        found = True
    if not found:
        raise RangeError(f"empty range {text!r}")
    dead_mask = cards_mask(dead)
    if dead_mask:
        w[(COMBO_MASKS & np.uint64(dead_mask)) != 0] = 0.0
    return w


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def _grid_pos(name: str) -> tuple[int, int, str]:
    """(high rank, low rank, kind) of a class name."""
    hi, lo = _RANK[name[0]], _RANK[name[1]]
    return hi, lo, (name[2] if len(name) == 3 else "")


def _weight_vector(weights: np.ndarray) -> np.ndarray:
    """``weights`` as float64, refused unless it is one weight per combo."""
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (NUM_COMBOS,):
        raise RangeError(f"a range is a weight vector over the 1326 combos, got shape {w.shape}")
    return w


def _class_or_combo_weights(w: np.ndarray) -> Iterator[tuple[str, int, float]]:
    """The positive weights of ``w`` class by class (``CLASS_NAMES`` order): ``(class
    name, -1, weight)`` where all the class's combos share one weight, else ``(combo
    name, combo index, weight)`` for each of its combos of weight > 0."""
    for k, name in enumerate(CLASS_NAMES):
        idx = np.flatnonzero(CLASS_OF_COMBO == k)
        vals = w[idx]
        if np.all(vals == vals[0]):
            if vals[0] > 0:
                yield name, -1, float(vals[0])
            continue
        for i in idx:
            if w[i] > 0:
                yield combo_str(int(i)), int(i), float(w[i])


def range_to_string(weights: np.ndarray) -> str:
    """Compact notation of a weight vector; ``parse_range`` of it gives the vector back
    (weights to 6 significant digits)."""
    w = _weight_vector(weights)
    class_w: dict[str, float] = {}
    singles: list[str] = []
    for name, combo, x in _class_or_combo_weights(w):
        if combo < 0:
            class_w[name] = x
        else:
            singles.append(name + ("" if x == 1 else ":" + _fmt(x)))
    tokens: list[str] = []

    def emit(first: str, last: str, weight: float, plus: bool) -> None:
        if plus:
            tok = first + "+"
        elif first == last:
            tok = first
        else:
            tok = f"{first}-{last}"
        tokens.append(tok if weight == 1.0 else f"{tok}:{_fmt(weight)}")

    # pairs, from AA down
    r = 12
    while r >= 0:
        name = RANKS[r] * 2
        if name not in class_w:
            r -= 1
            continue
        wt = class_w[name]
        top = r
        while r - 1 >= 0 and class_w.get(RANKS[r - 1] * 2) == wt:
            r -= 1
        emit(RANKS[r] * 2, RANKS[top] * 2, wt, plus=(top == 12 and r != 12))
        r -= 1
    for kind in ("s", "o"):
        for hi in range(12, 0, -1):
            k = hi - 1
            while k >= 0:
                name = RANKS[hi] + RANKS[k] + kind
                if name not in class_w:
                    k -= 1
                    continue
                wt = class_w[name]
                top = k
                while k - 1 >= 0 and class_w.get(RANKS[hi] + RANKS[k - 1] + kind) == wt:
                    k -= 1
                first = RANKS[hi] + RANKS[k] + kind
                last = RANKS[hi] + RANKS[top] + kind
                emit(first, last, wt, plus=(top == hi - 1 and k != top))
                k -= 1
    return ", ".join(tokens + singles)


def class_frequencies(weights: np.ndarray) -> np.ndarray:
    """Mean weight per preflop class, as a 13x13 grid (row/column A..2, suited above the
    diagonal)."""
    w = np.asarray(weights, dtype=np.float64)
    sums = np.bincount(CLASS_OF_COMBO, weights=w, minlength=169)
    return (sums / CLASS_SIZES).reshape(13, 13)


def combo_fraction(weights: np.ndarray) -> float:
    """Share of the 1326 combos in the range (weighted)."""
    return float(np.asarray(weights, dtype=np.float64).sum() / NUM_COMBOS)


def range_grid_text(weights: np.ndarray, *, values: np.ndarray | None = None,
                    compact: bool = False) -> str:
    """The 13x13 chart as plain text.

    Full form (104 columns): each cell ``AKs 100`` (percent), blank when 0.  Compact form
    (52 columns): the class name when played always, its percentage when mixed, ``.`` when
    never.
    """
    grid = class_frequencies(weights) if values is None else np.asarray(values).reshape(13, 13)
    lines = []
    for i in range(13):
        cells = []
        for j in range(13):
            name = CLASS_NAMES[i * 13 + j]
            v = grid[i, j]
            if compact:
                if v >= 0.995:
                    cells.append(f"{name:>3}")
                elif v > 0.005:
                    cells.append(f"{v * 100:2.0f}%")
                else:
                    cells.append("  .")
            else:
                cells.append(f"{name:>3} {v * 100:3.0f}" if v > 0 else f"{name:>3}    ")
        lines.append(" ".join(cells))
    return "\n".join(lines)


def _grid_of(weights: np.ndarray | None, values: np.ndarray | None) -> np.ndarray:
    if values is None:
        if weights is None:
            raise RangeError("plot_range_grid needs weights or values")
        return class_frequencies(weights)
    return np.asarray(values, dtype=np.float64).reshape(13, 13)


def _draw_grid(ax: Any, grid: np.ndarray, *, title: str, labels: Sequence[str] | None,
               vmax: float, cmap: str) -> None:
    ax.imshow(np.clip(grid / vmax, 0, 1), cmap=cmap, vmin=0, vmax=1)
    for i in range(13):
        for j in range(13):
            k = i * 13 + j
            name = CLASS_NAMES[k]
            sub = labels[k] if labels is not None else (f"{grid[i, j] * 100:.0f}%" if grid[i, j] > 0 else "")
            dark = grid[i, j] / vmax > 0.6
            ax.text(j, i - 0.15, name, ha="center", va="center", fontsize=8,
                    color="white" if dark else "black", fontweight="bold")
            if sub:
                ax.text(j, i + 0.25, sub, ha="center", va="center", fontsize=6.5,
                        color="white" if dark else "black")
    ax.set_xticks([])
    ax.set_yticks([])
    for t in range(14):
        ax.axhline(t - 0.5, color="grey", lw=0.4)
        ax.axvline(t - 0.5, color="grey", lw=0.4)
    if title:
        ax.set_title(title)


def _save_figure(fig: Any, p: Path, dpi: int = 110) -> None:
    import matplotlib.pyplot as plt

    from pokerlab.io import atomic_path

    fig.tight_layout()
    with atomic_path(p) as tmp:
        fig.savefig(tmp, format=p.suffix[1:].lower(), dpi=dpi)
    plt.close(fig)


def _check_picture_path(path: str | Path) -> Path:
    p = Path(path)
    if p.suffix.lower() not in (".png", ".svg"):
        raise RangeError(f"chart file must end in .png or .svg, got {p.name!r}")
    return p


def plot_range_grid(
    weights: np.ndarray | None,
    path: str | Path,
    *,
    title: str = "",
    values: np.ndarray | None = None,
    labels: Sequence[str] | None = None,
    vmax: float = 1.0,
    cmap: str = "Reds",
) -> Path:
    """Draw the 13x13 chart to PNG or SVG (by suffix), cells shaded by frequency.

    ``values``/``labels`` (169 each, grid order) replace the frequencies and the text in
    each cell, e.g. for a push/fold chart of stack sizes.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    p = _check_picture_path(path)
    grid = _grid_of(weights, values)
    fig, ax = plt.subplots(figsize=(7.5, 7.5))
    _draw_grid(ax, grid, title=title, labels=labels, vmax=vmax, cmap=cmap)
    _save_figure(fig, p)
    return p


def plot_range_grids(panels: Sequence[tuple[np.ndarray, str, str]], path: str | Path, *,
                     ncols: int = 2, suptitle: str = "") -> Path:
    """Several 13x13 charts side by side in one picture: ``panels`` = (weights (1326,),
    title, colour map) each, filled row by row, ``ncols`` per row."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    p = _check_picture_path(path)
    if not panels:
        raise RangeError("plot_range_grids needs at least one panel")
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(7.0 * ncols, 7.0 * nrows), squeeze=False)
    for k, ax in enumerate(axes.flat):
        if k >= len(panels):
            ax.axis("off")
            continue
        w, title, cmap = panels[k]
        _draw_grid(ax, _grid_of(w, None), title=title, labels=None, vmax=1.0, cmap=cmap)
    if suptitle:
        fig.suptitle(suptitle)
    _save_figure(fig, p, dpi=80)
    return p


# ------------------------------------------------------------ ranges in and out (files)

RANGE_FORMAT = "pokerlab-range"
RANGE_VERSION = 1


def check_picture_path(path: str | Path) -> Path:
    """``path`` as a :class:`Path`, refused unless it ends in ``.png`` or ``.svg``."""
    return _check_picture_path(path)


def save_figure(fig: Any, path: Path, dpi: int = 110) -> None:
    """Write a matplotlib figure atomically (format by suffix) and close it."""
    _save_figure(fig, path, dpi)


def _weight_text(x: float) -> str:
    return repr(float(x))


def range_to_weighted_text(weights: np.ndarray) -> str:
    """The range in the text format of the commercial solvers: comma-separated tokens
    without spaces, a class (``QQ``, ``AKs``) where all its live combos share one weight,
    each combo otherwise (``AhKh:0.5``); weights are written exactly (``parse_range`` of
    the text gives the same vector bit for bit).  Combos of weight 0 are left out."""
    w = _weight_vector(weights)
    if not np.all(np.isfinite(w)) or np.any(w < 0) or np.any(w > 1):
        raise RangeError("range weights must be numbers in [0, 1]")
    return ",".join(name if x == 1.0 else f"{name}:{_weight_text(x)}"
                    for name, _, x in _class_or_combo_weights(w))


def range_to_json(weights: np.ndarray) -> dict[str, Any]:
    """``{"format": "pokerlab-range", "version": 1, "combos": {"AhKh": 0.5, ...}}``: every
    combo of weight > 0 with its exact weight."""
    w = _weight_vector(weights)
    return {"format": RANGE_FORMAT, "version": RANGE_VERSION,
            "combos": {combo_str(int(i)): float(w[i]) for i in np.flatnonzero(w > 0)}}


def range_from_json(obj: Any, *, dead: Sequence[int] | Iterable[int] = ()) -> np.ndarray:
    """The weight vector of :func:`range_to_json`'s object (or of a plain ``{"AhKh": 0.5}``
    mapping, or ``{"range": "text"}``); one :class:`RangeError` naming what is wrong."""
    if isinstance(obj, dict) and "range" in obj and isinstance(obj["range"], str):
        return parse_range(obj["range"], dead=dead)
    if isinstance(obj, dict) and "format" in obj:
        if obj.get("format") != RANGE_FORMAT:
            raise RangeError(f"not a pokerlab range: format {obj.get('format')!r}")
        if obj.get("version") != RANGE_VERSION:
            raise RangeError(f"pokerlab range version {obj.get('version')!r}; this pokerlab reads "
                             f"version {RANGE_VERSION}")
        obj = obj.get("combos")
    if not isinstance(obj, dict):
        raise RangeError("a JSON range is an object of combos and weights, e.g. {\"AhKh\": 0.5}")
    w = np.zeros(NUM_COMBOS)
    for key, val in obj.items():
        idx = _expand(str(key)) if isinstance(key, str) else None
        if not isinstance(idx, np.ndarray):
            raise RangeError(f"bad combo {key!r} in a JSON range: expected e.g. AhKh")
        if isinstance(val, bool) or not isinstance(val, (int, float)) or not 0.0 <= float(val) <= 1.0:
            raise RangeError(f"bad weight {val!r} for {key} in a JSON range: expected a number in [0, 1]")
        w[idx] = float(val)
    if not np.any(w > 0):
        raise RangeError("empty JSON range")
    dead_mask = cards_mask(dead)
    if dead_mask:
        w[(COMBO_MASKS & np.uint64(dead_mask)) != 0] = 0.0
    return w


def load_range(path: str | Path, *, dead: Sequence[int] | Iterable[int] = (),
               player: str | None = None) -> np.ndarray:
    """Read a range file: JSON (``.json``, :func:`range_from_json`; a file of both players'
    ranges, as ``pokerlab spot ranges --out`` writes, needs ``player``: ``oop`` or ``ip``)
    or text in the weighted notation (anything else, :func:`parse_range`)."""
    import json

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RangeError(f"range file {str(p)!r} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RangeError(f"range file {str(p)!r} cannot be read: {exc}") from None
    if p.suffix.lower() == ".json":
        try:
            obj = json.loads(text)
        except ValueError as exc:
            raise RangeError(f"range file {str(p)!r} is not valid JSON: {exc}") from None
        if isinstance(obj, dict) and ("oop" in obj or "ip" in obj) and "format" not in obj:
            if player not in obj:
                raise RangeError(f"range file {str(p)!r} holds the ranges of "
                                 f"{', '.join(k for k in ('oop', 'ip') if k in obj)}: name one (oop or ip)")
            obj = obj[player]
        return range_from_json(obj, dead=dead)
    return parse_range(text, dead=dead)


def save_range(path: str | Path, weights: np.ndarray) -> Path:
    """Write a range atomically: JSON for ``.json``, the weighted text otherwise."""
    import json

    from pokerlab.io import atomic_write_text

    p = Path(path)
    if p.suffix.lower() == ".json":
        body = json.dumps(range_to_json(weights), indent=1) + "\n"
    else:
        body = range_to_weighted_text(weights) + "\n"
    atomic_write_text(p, body)
    return p
