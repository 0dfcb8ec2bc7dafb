"""Running the thesis trainer (:mod:`pokerlab.blueprint.thesis`) as a command: the saved
run (policy, config, records and the memory graph), the statistics of a strategy in
self-play, the eternal all-in experiment and the size of a policy."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.agents.thesis import hand_class
from pokerlab.blueprint.thesis import (
    ThesisConfig,
    ThesisError,
    ThesisResult,
    ThesisTree,
    train_thesis,
)
from pokerlab.errors import ConfigError
from pokerlab.io import atomic_path, atomic_write_json


def _class_table() -> np.ndarray:
    out = np.zeros((52, 52), dtype=np.int64)
    for a in range(52):
        for b in range(52):
            if a != b:
                out[a, b] = hand_class(a, b)
    return out


def play_stats(t: ThesisTree, strat: np.ndarray, *, games: int, seed: int, big_blind: int,
               use_kernel: bool = True) -> dict[str, Any]:
    """The thesis's per-game statistics (its definitions, docs/hands.md) of ``strat`` in
    self-play over ``games`` random deals: entered share (of player-hands), all-in,
    showdown and fold shares (of hands) with 95% normal CIs, the mean bet or raise over the
    pot before it, and the chips put in per street (big blinds, both players, over the
    hands that reached the street; a showdown reaches the river)."""
    from . import thesis_kernels as K

    if games < 1:
        raise ThesisError(f"games must be positive, got {games}")
    A = t.arrays
    tree = t.tree
    committed = (tree.committed0.astype(np.float64) + tree.committed1.astype(np.float64))
    street = tree.street.astype(np.int64)
    out = np.zeros(K.N_PLAY_STATS, dtype=np.float64)
    cls = _class_table()
    if use_kernel:
        K.play_stats_kernel(games, np.uint64(seed), A["kind"], A["actor"], A["child_start"],
                            A["num_children"], A["child_node"], A["child_action"], A["row_of"],
                            street, committed, A["allin_node"], cls, strat, out)
    else:
        K.play_stats_py(games, seed, {**A, "street": street, "committed": committed}, cls,
                        strat, out)
    n = float(out[0])

    def share(x: float, m: float) -> tuple[float, float]:
        q = float(x / m)
        return round(q, 4), round(1.96 * float(np.sqrt(max(q * (1 - q), 0.0) / m)), 4)

    e, e_ci = share(out[1], 2 * n)
    a, a_ci = share(out[2], n)
    sd, sd_ci = share(out[3], n)
    f, _ = share(out[4], n)
    return {"hands": int(n), "entered_share": e, "entered_ci": e_ci, "allin_share": a,
            "allin_ci": a_ci, "showdown_share": sd, "showdown_ci": sd_ci, "fold_share": f,
            "raises_per_hand": round(float(out[5]) / n, 4),
            "raise_pot_ratio": round(float(out[6] / out[5]), 4) if out[5] else None,
            "bet_per_street_bb": [round(float(out[7 + s] / out[11 + s]) / big_blind, 3)
                                  if out[11 + s] else None for s in range(4)],
            "reached_street_share": [round(float(out[11 + s]) / n, 4) for s in range(4)]}


# ----------------------------------------------------------------------------- artefacts
def plot_memory(records: list[dict[str, Any]], path: str | os.PathLike[str], *,
                title: str = "Thesis agent: memory over training") -> None:
    """The space-complexity graph: stored bytes (all subtrees) and the two loaded subtrees
    over pairs (``.png`` or ``.svg`` by suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [r["pairs"] for r in records]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(xs, [r["bytes"] / 2**20 for r in records], label="all subtrees (stored rows)")
    ax.plot(xs, [r["loaded_bytes"] / 2**20 for r in records],
            label="two loaded subtrees (in memory)")
    ax.set_xlabel("hole-card pairs trained (iterations)")
    ax.set_ylabel("MiB")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax2 = ax.twinx()
    ax2.plot(xs, [r["settled"] for r in records], color="grey", ls=":",
             label="settled (pruned) nodes")
    ax2.set_ylabel("settled nodes")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, loc="upper left", fontsize=8)
    fig.tight_layout()
    p = Path(path)
    with atomic_path(p) as tmp:
        fig.savefig(tmp, format=p.suffix.lstrip(".").lower() or "png", dpi=110)
    plt.close(fig)


def save_run(res: ThesisResult, out: str | os.PathLike[str], *, png: bool = True) -> dict[str, str]:
    """Write ``thesis_policy.npz``, its frozen config ``thesis_config.json``, the memory
    records ``thesis_memory.json`` (and ``thesis_memory.png``) into folder ``out``."""
    from pokerlab.policy.indexed import save_indexed_policy

    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    paths = {"policy_path": str(d / "thesis_policy.npz"),
             "config_path": str(d / "thesis_config.json"),
             "memory_path": str(d / "thesis_memory.json")}
    save_indexed_policy(res.policy, paths["policy_path"])
    atomic_write_json(paths["config_path"], {**res.config.to_json(), "summary": res.summary()})
    atomic_write_json(paths["memory_path"], {"records": res.records})
    if png:
        paths["png_path"] = str(d / "thesis_memory.png")
        plot_memory(res.records, paths["png_path"])
    return paths


# ----------------------------------------------------------------------------- experiment
def eternal_allin_experiment(*, pairs: int, seed: int = 0, window: int | None = None,
                             base: ThesisConfig | None = None) -> dict[str, Any]:
    """Train with the fold rule (both readings) and without it on the same budget (memory
    storage); report the share of the sampled self-play games (current strategies, last ``window`` pairs) that
    end with a player all-in, and that end in a fold."""
    cfg = replace(base or ThesisConfig(), storage="memory", seed=seed)
    win = window if window is not None else max(1, pairs // 5)
    out: dict[str, Any] = {"pairs": pairs, "window_pairs": win, "seed": seed}
    for name, rule, mode in (("with_fold_rule", True, "move"),
                             ("without_fold_rule", False, "move"),
                             ("with_fold_rule_credit", True, "credit")):
        r = train_thesis(replace(cfg, fold_rule=rule, fold_rule_mode=mode), pairs=pairs,
                         window=win)
        s = r.summary()
        out[name] = {
            "allin_share": s["selfplay_allin_share"], "fold_share": s["selfplay_fold_share"],
            "selfplay_games": s["selfplay_games"], "games": r.games,
            "seconds": s["seconds"], "settled_nodes": s["settled_nodes"]}
    return out


# ----------------------------------------------------------------------------- CLI entry
def train_command(*, stack: float | None, iterations: int | None, minutes: float | None,
                  out: str | os.PathLike[str] | None, storage: str, seed: int,
                  progress: Callable[[int, dict[str, Any]], None] | None = None,
                  fold_rule: bool = True, update: str = "mccfr") -> dict[str, Any]:
    """``pokerlab blueprint train --preset thesis``: train, save into ``out`` (default
    ``thesis_run``) and return the JSON summary (``preset``, ``iterations``, ``seconds``,
    ``infosets``, ``bytes``, ``iterations_per_s``, ``policy_path``, ...)."""
    cfg = ThesisConfig(seed=seed, storage=storage, fold_rule=fold_rule, update=update)
    if stack is not None:
        cfg = replace(cfg, stack_bb=float(stack))
    d = Path(out) if out is not None else Path("thesis_run")
    if iterations is None and minutes is None:
        iterations = 2000
    res = train_thesis(cfg, pairs=iterations, minutes=minutes, folder=d / "subtrees",
                       progress=progress)
    paths = save_run(res, d)
    return {**res.summary(), **paths}


def policy_bytes(policy: Any) -> int:
    """Size of ``policy`` as a saved file (bytes)."""
    import tempfile

    from pokerlab.policy.indexed import save_indexed_policy

    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "p.npz"
        save_indexed_policy(policy, p)
        return p.stat().st_size


def load_config(path: str | os.PathLike[str]) -> ThesisConfig:
    try:
        obj = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read thesis config {str(path)!r}: {exc}") from None
    obj.pop("summary", None)
    return ThesisConfig.from_json(obj)
