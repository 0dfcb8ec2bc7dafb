"""Reports of a solved spot: the 13x13 grid of action frequencies at a node (text and
picture), per-combo rows, and the exploitability-versus-time figure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.cards.cards import CLASS_NAMES, CLASS_OF_COMBO, combo_str

ACTION_COLOURS = {"fold": "#5b8def", "check": "#4caf50", "call": "#4caf50", "bet": "#e57373",
                  "raise": "#c62828", "allin": "#6a1b9a"}


def action_colour(name: str, index: int, count: int) -> str:
    """Colour of an action: folds blue, checks/calls green, bets red (darker when larger)."""
    head = name.split()[0]
    if head in ("bet", "raise"):
        shades = ["#ef9a9a", "#e57373", "#d32f2f", "#b71c1c", "#7f0000"]
        return shades[min(index, len(shades) - 1)]
    return ACTION_COLOURS.get(head, "#999999")


def class_mix(report: dict[str, Any]) -> np.ndarray:
    """(169, actions): the acting player's reach-weighted action mix per preflop class
    (NaN rows for classes out of its range)."""
    who = report["player"]
    reach = np.nan_to_num(report[who]["reach"])
    strat = np.nan_to_num(report["strategy"])
    k = strat.shape[0]
    out = np.full((169, k), np.nan)
    w = np.bincount(CLASS_OF_COMBO, weights=reach, minlength=169)
    for a in range(k):
        s = np.bincount(CLASS_OF_COMBO, weights=reach * strat[a], minlength=169)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[:, a] = np.where(w > 0, s / np.where(w > 0, w, 1), np.nan)
    return out


def grid_text(report: dict[str, Any]) -> str:
    """The 13x13 grid as text: each cell the class and its most frequent action's letter
    and percentage (``.`` out of range)."""
    if report.get("kind") != "decision":
        return f"({report.get('kind')} node: no strategy)"
    mix = class_mix(report)
    letters = [_letter(a) for a in report["actions"]]
    lines = []
    for i in range(13):
        cells = []
        for j in range(13):
            k = i * 13 + j
            row = mix[k]
            if np.all(np.isnan(row)):
                cells.append(f"{CLASS_NAMES[k]:>4} {'.':<4}")
            else:
                a = int(np.nanargmax(row))
                cells.append(f"{CLASS_NAMES[k]:>4} {letters[a]}{row[a] * 100:3.0f}")
        lines.append(" ".join(cells))
    legend = "  ".join(f"{ltr}={name}" for ltr, name in zip(letters, report["actions"], strict=True))
    return "\n".join(lines) + "\n" + legend


def _letter(name: str) -> str:
    head = name.split()
    if head[0] in ("bet", "raise", "allin"):
        return {"bet": "B", "raise": "R", "allin": "A"}[head[0]]
    return {"fold": "F", "check": "X", "call": "C"}.get(head[0], "?")


def combo_rows(report: dict[str, Any], who: str | None = None) -> list[dict[str, Any]]:
    """Per combo of ``who`` (default: the acting player) in range at the node: its reach,
    strategy (action -> probability), EV (chips) and equity."""
    who = who or report.get("player") or "oop"
    side = report[who]
    rows = []
    for c in np.flatnonzero(side["reach"] > 0):
        row: dict[str, Any] = {"combo": combo_str(int(c)), "reach": float(side["reach"][c]),
                               "ev": _f(side["ev"][c]), "equity": _f(side["equity"][c])}
        if report.get("kind") == "decision" and report.get("player") == who:
            row["strategy"] = {a: float(report["strategy"][i, c]) for i, a in enumerate(report["actions"])}
        rows.append(row)
    return rows


def _f(x: float) -> float | None:
    return None if not np.isfinite(x) else float(x)


def plot_strategy_grid(report: dict[str, Any], path: str | Path, *, title: str = "") -> Path:
    """The 13x13 grid with each cell split into its action mix (PNG or SVG by suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Rectangle

    from pokerlab.cards.ranges import check_picture_path, save_figure

    p = check_picture_path(path)
    mix = class_mix(report)
    actions = report["actions"]
    bets = [i for i, a in enumerate(actions) if a.split()[0] in ("bet", "raise")]
    colours = [action_colour(a, bets.index(i) if i in bets else 0, len(actions))
               for i, a in enumerate(actions)]
    fig, ax = plt.subplots(figsize=(8.2, 8.6))
    for i in range(13):
        for j in range(13):
            k = i * 13 + j
            row = mix[k]
            if np.all(np.isnan(row)):
                ax.add_patch(Rectangle((j, i), 1, 1, facecolor="#eeeeee", edgecolor="white"))
            else:
                x = float(j)
                for a in range(len(actions)):
                    w = float(row[a])
                    if w > 0:
                        ax.add_patch(Rectangle((x, i), w, 1, facecolor=colours[a], edgecolor="none"))
                        x += w
                ax.add_patch(Rectangle((j, i), 1, 1, fill=False, edgecolor="white", lw=0.8))
            ax.text(j + 0.5, i + 0.5, CLASS_NAMES[k], ha="center", va="center", fontsize=7.5,
                    fontweight="bold", color="black")
    ax.set_xlim(0, 13)
    ax.set_ylim(13, 0)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.legend(handles=[Patch(facecolor=c, label=f"{a} {report['frequencies'][a] * 100:.1f}%")
                       for a, c in zip(actions, colours, strict=True)],
              loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=min(len(actions), 4), fontsize=9)
    ax.set_title(title or f"{report['player'].upper()} at {' / '.join(report['path']) or 'root'} "
                 f"({report['board']}, pot {report['pot']:g})")
    save_figure(fig, p)
    return p


def plot_convergence(series: list[tuple[str, list[tuple[int, float, float]]]], path: str | Path, *,
                     title: str = "") -> Path:
    """Exploitability (% of pot) against CPU seconds for each (label, history) series."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pokerlab.cards.ranges import check_picture_path, save_figure

    p = check_picture_path(path)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for label, hist in series:
        xs = [h[1] for h in hist if h[2] > 0]
        ys = [h[2] for h in hist if h[2] > 0]
        ax.plot(xs, ys, marker=".", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("CPU seconds")
    ax.set_ylabel("exploitability (% of pot)")
    ax.axhline(0.3, color="grey", lw=0.6, ls="--")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    if title:
        ax.set_title(title)
    save_figure(fig, p)
    return p
