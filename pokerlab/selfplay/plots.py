"""Plots of a training run: results per level and validation loss per level (PNG)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from pokerlab.io import atomic_path


def plot_levels(metrics: Sequence[dict[str, Any]], path: str | os.PathLike[str]) -> None:
    """Three panels: vs previous level, vs random (win/draw/loss fractions) and val loss."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    levels = [int(m["level"]) for m in metrics]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for ax, key, title in (
        (axes[0], "vs_previous", "vs previous level (eps 0.5 / 0.1; level 0 vs random)"),
        (axes[1], "vs_random", "greedy vs uniformly random"),
    ):
        for res, colour in (("win", "tab:green"), ("draw", "tab:gray"), ("loss", "tab:red")):
            ys = []
            for m in metrics:
                tot = m.get(key, {}).get("total", {"win": 0, "draw": 0, "loss": 0})
                n = max(tot["win"] + tot["draw"] + tot["loss"], 1)
                ys.append(tot[res] / n)
            ax.plot(levels, ys, marker="o", color=colour, label=res)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("level")
        ax.set_ylabel("fraction of games")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    ax = axes[2]
    ax.plot(levels, [float(m["final_val_loss"]) for m in metrics], marker="o", label="validation")
    ax.plot(levels, [float(m["losses"][-1]["train_loss"]) for m in metrics], marker=".",
            label="train (with dropout)")
    mm_loss = [int(m["vs_minimax"]["total"]["loss"]) for m in metrics]
    ax2 = ax.twinx()
    ax2.bar(levels, mm_loss, alpha=0.2, color="tab:red", label="losses vs minimax lines")
    ax2.set_ylabel("games lost vs minimax (all openings)")
    ax.set_title("final-epoch MSE per level", fontsize=10)
    ax.set_xlabel("level")
    ax.set_ylabel("MSE")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, dpi=90, format="png")
    plt.close(fig)
