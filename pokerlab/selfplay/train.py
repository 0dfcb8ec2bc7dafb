"""Level-by-level self-play training of a value network, with resume.

Level 0 plays ``games`` games between uniformly random players, turns them into
(state tensor, discounted target) samples and trains a fresh network. Level ``k + 1`` plays
``games`` games where both sides use the level-``k`` network epsilon-greedily (``epsilons``
per move index, the last one repeating) and trains the next network starting from the
level-``k`` weights. Every level writes, under ``run_dir/level_KK/``:

* ``dataset.csv`` - the samples (see :mod:`pokerlab.selfplay.data`),
* ``model.safetensors`` + ``model.json`` - the network and its config,
* ``metrics.json`` - train/validation loss per epoch and the evaluation (written last, so a
  level counts as done only when it exists).

``run_dir/config.json`` holds the :class:`TrainConfig`; :func:`run_training` resumes after
the last finished level (the config must match, except that ``levels`` may grow). Each
level's randomness is seeded from ``(seed, level)``, so a resumed run reproduces an
uninterrupted one.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import Game
from pokerlab.io import atomic_write_json
from pokerlab.selfplay.data import (
    Dataset,
    check_gamma,
    concat_datasets,
    generate,
    load_csv,
    save_csv,
)
from pokerlab.selfplay.evaluate import WDL, play_match, vs_minimax_every_opening
from pokerlab.selfplay.exact import deterministic_policy, exact_vs_random, worst_case_return
from pokerlab.selfplay.minimax import MinimaxSolver
from pokerlab.selfplay.net import NetConfig, ValueNet, load_model, make_value_fn, save_model
from pokerlab.selfplay.players import (
    EpsilonGreedyPlayer,
    Player,
    RandomPlayer,
    ValueAgent,
    check_epsilons,
)


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    game: str = "tictactoe"
    levels: int = 16
    games: int = 30000
    epochs: int = 8
    gamma: float = 0.9
    lr: float = 1e-3
    batch_size: int = 256
    width: int = 128
    depth: int = 2
    dropout: float = 0.1
    weight_decay: float = 1e-5
    val_fraction: float = 0.1
    epsilons: tuple[float, ...] = (0.5, 0.1)
    eval_games: int = 1000
    eval_epsilons: tuple[float, ...] = (0.5, 0.1)
    augment: bool = True
    """Train on a random board symmetry per minibatch (games with ``board_symmetry``)."""
    heads: int = 1
    """1: value head only; 2: value + win-probability heads (the stretch goal)."""
    win_margin: float = 0.1
    """Two heads: moves within this much of the best value count as safe."""
    replay_levels: int = 1
    """Train level k on the datasets of levels k-replay_levels+1..k (1: only its own)."""
    lr_decay: float = 1.0
    """Level k trains with learning rate ``lr * lr_decay**k``."""
    epsilon_per_player_move: bool = False
    """Index ``epsilons`` by the player's own move number (tutorial) instead of the ply."""
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("levels", "games", "epochs", "batch_size", "eval_games", "replay_levels"):
            if int(getattr(self, name)) < 1:
                raise ConfigError(f"{name} {getattr(self, name)!r} must be >= 1")
        check_gamma(self.gamma)
        if not self.lr > 0:
            raise ConfigError(f"lr {self.lr!r} must be > 0")
        if not 0 < self.lr_decay <= 1:
            raise ConfigError(f"lr_decay {self.lr_decay!r} is not in (0, 1]")
        if self.weight_decay < 0:
            raise ConfigError(f"weight_decay {self.weight_decay!r} must be >= 0")
        if not self.weight_decay <= MAX_WEIGHT_DECAY:
            raise ConfigError(f"--weight-decay {self.weight_decay:g} is too large: at most "
                              f"{MAX_WEIGHT_DECAY:g} (more shrinks the weights faster than "
                              "they learn)")
        if not 0.0 < self.val_fraction < 1.0:
            raise ConfigError(f"val_fraction {self.val_fraction!r} is not in (0, 1)")
        check_epsilons(self.epsilons)
        check_epsilons(self.eval_epsilons)
        make_game(self.game)
        NetConfig(input_shape=(1,), width=self.width, depth=self.depth, dropout=self.dropout,
                  heads=self.heads)
        if not self.win_margin >= 0:
            raise ConfigError(f"win_margin {self.win_margin!r} must be >= 0")
        if self.seed < 0:
            raise ConfigError(f"seed {self.seed!r} must be >= 0")

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["epsilons"] = list(self.epsilons)
        d["eval_epsilons"] = list(self.eval_epsilons)
        return d

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> TrainConfig:
        """Named settings: ``default`` (pokerlab's) or ``tutorial`` (the tic-tac-toe
        tutorial script's: discount 0.95, 5 epochs, validation 0.2, batch 64, dropout 0.5,
        learning rate 1e-4, weight decay 1e-5, exploration 1.0 at level 0 (random games)
        then 0.5, 0.5, 0.1 per player move)."""
        if name not in PRESETS:
            raise ConfigError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
        return cls(**{**PRESETS[name], **overrides})

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ConfigError(f"unknown training config keys {sorted(unknown)!r}")
        kw = dict(d)
        for k in ("epsilons", "eval_epsilons"):
            if k in kw:
                kw[k] = tuple(float(e) for e in kw[k])
        return cls(**kw)


PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "tutorial": {"gamma": 0.95, "epochs": 5, "val_fraction": 0.2, "batch_size": 64,
                 "dropout": 0.5, "lr": 1e-4, "weight_decay": 1e-5, "epsilons": (0.5, 0.5, 0.1),
                 "epsilon_per_player_move": True},
}
"""Settings of ``TrainConfig.preset``; level 0 is always random play (exploration 1.0)."""


def make_game(name: str) -> Game:
    """A game by name: :func:`pokerlab.games.load_game` (the one registry)."""
    from pokerlab.games import load_game

    return load_game(name)  # type: ignore[no-any-return]


def tensor_shape(game: Game) -> tuple[int, ...]:
    fn = getattr(game, "state_tensor_shape", None)
    if fn is not None:
        return tuple(int(d) for d in fn())
    s = game.new_initial_state()
    to_t = getattr(s, "to_tensor", None)
    if to_t is None:
        raise ConfigError(f"game {game.name!r} states have no to_tensor(player)")
    return tuple(int(d) for d in np.asarray(to_t(0)).shape)


def _has_board_symmetry(game: Game, shape: tuple[int, ...]) -> bool:
    return (getattr(game, "board_symmetry", None) == "dihedral" and len(shape) >= 2
            and shape[-1] == shape[-2])


@dataclass(frozen=True, kw_only=True)
class EpochLoss:
    epoch: int
    train_loss: float
    val_loss: float


def _split_by_game(ds: Dataset, val_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    n_games = ds.num_games
    rng = np.random.default_rng(seed)
    n_val = max(1, int(round(n_games * val_fraction))) if n_games > 1 else 0
    val_games = np.zeros(max(n_games, 1), dtype=bool)
    val_games[rng.permutation(n_games)[:n_val]] = True
    is_val = val_games[ds.game]
    return np.flatnonzero(~is_val), np.flatnonzero(is_val)


#: the largest weight decay a training run accepts
MAX_WEIGHT_DECAY = 1.0


class TrainingDiverged(ConfigError):
    """The loss or the weights became non-finite: nothing of that level is saved."""


def _diverged(epoch: int, lr: float, what: str) -> str:
    return (f"training diverged in epoch {epoch + 1}: {what} with learning rate {lr:g}; "
            "lower --learning-rate (nothing of this level was saved)")


def train_network(
    net: ValueNet,
    ds: Dataset,
    *,
    epochs: int,
    lr: float,
    batch_size: int,
    weight_decay: float,
    val_fraction: float,
    seed: int,
    augment: bool = False,
    on_epoch: Callable[[EpochLoss], None] | None = None,
) -> list[EpochLoss]:
    """Adam on MSE with a validation split by game; returns the loss of every epoch.

    With two heads the loss is the mean of both heads' squared errors.

    With ``augment`` every minibatch is turned by one of the 8 symmetries of the square
    board formed by the last two tensor dimensions (chosen at random, seeded).
    """
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    tr_idx, va_idx = _split_by_game(ds, val_fraction, seed)
    x = torch.from_numpy(ds.x)
    y = torch.from_numpy(ds.y)
    if net.config.heads == 2:
        y = torch.stack([y, torch.from_numpy(ds.y_win)], dim=1)
    x_tr, y_tr = x[tr_idx], y[tr_idx]
    x_va, y_va = x[va_idx], y[va_idx]
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    loss_fn = torch.nn.MSELoss()
    out: list[EpochLoss] = []
    n = x_tr.shape[0]
    for ep in range(epochs):
        net.train()
        perm = torch.randperm(n, generator=gen)
        total = 0.0
        for i in range(0, n, batch_size):
            idx = perm[i : i + batch_size]
            xb = x_tr[idx]
            if augment:
                xb = dihedral(xb, int(torch.randint(8, (1,), generator=gen).item()))
            opt.zero_grad()
            loss = loss_fn(net(xb), y_tr[idx])
            loss.backward()
            try:
                opt.step()
            except RuntimeError as exc:  # a step too large for float32 (lr near 1e308)
                if "overflow" not in str(exc):
                    raise
                raise TrainingDiverged(_diverged(ep, lr, "the optimizer step overflowed")) \
                    from None
            total += float(loss.item()) * int(idx.shape[0])
        net.eval()
        with torch.no_grad():
            val = float(loss_fn(net(x_va), y_va).item()) if x_va.shape[0] else float("nan")
            finite = all(bool(torch.isfinite(p).all()) for p in net.parameters())
        if not (finite and math.isfinite(total) and (math.isfinite(val) or not x_va.shape[0])):
            what = "the weights" if not finite else "the loss"
            raise TrainingDiverged(_diverged(ep, lr, f"{what} became non-finite (inf/nan)"))
        rec = EpochLoss(epoch=ep, train_loss=total / max(n, 1), val_loss=val)
        out.append(rec)
        if on_epoch is not None:
            on_epoch(rec)
    return out


def dihedral(x: torch.Tensor, k: int) -> torch.Tensor:
    """Symmetry ``k`` (0..7) of the square formed by the last two dims: ``k % 4`` quarter
    turns, then a left-right mirror when ``k >= 4``."""
    y = torch.rot90(x, k % 4, dims=(-2, -1))
    return torch.flip(y, dims=(-1,)) if k >= 4 else y


def evaluate_agent(
    game: Game,
    agent: ValueAgent,
    *,
    solver: MinimaxSolver,
    previous: Player | None,
    games: int,
    eval_epsilons: tuple[float, ...],
    seed: int,
) -> dict[str, Any]:
    """Everything reported for one network (counts from the agent's point of view)."""
    rnd = play_match(game, agent, RandomPlayer(), num_games=games, seed=seed)
    mm = vs_minimax_every_opening(game, agent.best_action, solver)
    pol = deterministic_policy(agent.best_action)
    exact = {
        side: exact_vs_random(game, pol, player=p).as_floats()
        for side, p in (("as_first", 0), ("as_second", 1))
    }
    worst = [worst_case_return(game, agent.best_action, player=p) for p in (0, 1)]
    out: dict[str, Any] = {
        "vs_random": _wdl_json(rnd),
        "vs_minimax": _wdl_json(mm),
        "exact_vs_random": exact,
        "worst_case_return": {"as_first": worst[0], "as_second": worst[1]},
        "never_loses": bool(min(worst) >= 0),
    }
    if previous is not None:
        me = EpsilonGreedyPlayer(inner=agent, epsilons=eval_epsilons)
        prev = EpsilonGreedyPlayer(inner=previous, epsilons=eval_epsilons)
        out["vs_previous"] = _wdl_json(play_match(game, me, prev, num_games=games, seed=seed + 1))
    return out


def _wdl_json(d: dict[str, WDL]) -> dict[str, dict[str, int]]:
    return {k: v.to_dict() for k, v in d.items()}


def _level_dir(run_dir: Path, level: int) -> Path:
    return run_dir / f"level_{level:02d}"


def _level_seed(seed: int, level: int, salt: int) -> int:
    return int(np.random.SeedSequence([seed, level, salt]).generate_state(1)[0])


def completed_levels(run_dir: str | os.PathLike[str]) -> int:
    """Number of finished levels (consecutive ``level_KK/metrics.json`` from 0)."""
    rd = Path(run_dir)
    k = 0
    while (_level_dir(rd, k) / "metrics.json").is_file():
        k += 1
    return k


def _check_resume(run_dir: Path, cfg: TrainConfig) -> None:
    p = run_dir / "config.json"
    if not p.is_file():
        return
    old = TrainConfig.from_json(json.loads(p.read_text())).to_json()  # fills new defaults
    new = cfg.to_json()
    for k in sorted(set(old) | set(new)):
        if k != "levels" and old.get(k) != new.get(k):
            raise ConfigError(
                f"run {str(run_dir)!r} was started with {k}={old.get(k)!r}, not {new.get(k)!r}; "
                "use another run folder"
            )


@dataclass(kw_only=True)
class Progress:
    """Optional callbacks for the CLI's progress display."""

    on_level: Callable[[int, str], None] | None = None
    on_games: Callable[[int], None] | None = None
    on_epoch: Callable[[int, EpochLoss], None] | None = None
    on_done: Callable[[int, dict[str, Any]], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def run_training(
    cfg: TrainConfig, run_dir: str | os.PathLike[str], *, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """Train ``cfg.levels`` levels into ``run_dir`` (resuming); returns every level's metrics."""
    torch.set_num_threads(1)
    pr = progress or Progress()
    rd = Path(run_dir)
    rd.mkdir(parents=True, exist_ok=True)
    _check_resume(rd, cfg)
    atomic_write_json(rd / "config.json", cfg.to_json())
    game = make_game(cfg.game)
    shape = tensor_shape(game)
    solver = MinimaxSolver(game=game)
    solver.solve()
    done = min(completed_levels(rd), cfg.levels)
    all_metrics = [
        json.loads((_level_dir(rd, k) / "metrics.json").read_text()) for k in range(done)
    ]
    recent = [load_csv(_level_dir(rd, k) / "dataset.csv", tensor_shape=shape)
              for k in range(max(done - cfg.replay_levels + 1, 0), done)]
    prev_net: ValueNet | None = None
    if done > 0:
        prev_net, _ = load_model(_level_dir(rd, done - 1) / "model.safetensors")
    for level in range(done, cfg.levels):
        t0 = time.perf_counter()
        ld = _level_dir(rd, level)
        prev_agent = None if prev_net is None else ValueAgent(
            value_fn=make_value_fn(prev_net), win_margin=cfg.win_margin)
        if pr.on_level:
            pr.on_level(level, "games")
        if prev_agent is None:
            players: list[Player] = [RandomPlayer(), RandomPlayer()]
        else:
            eg = EpsilonGreedyPlayer(inner=prev_agent, epsilons=cfg.epsilons,
                                     per_player_move=cfg.epsilon_per_player_move,
                                     num_players=game.num_players)
            players = [eg, eg]
        ds = generate(game, players, num_games=cfg.games, gamma=cfg.gamma, tensor_shape=shape,
                      seed=_level_seed(cfg.seed, level, 0), progress=pr.on_games)
        save_csv(ds, ld / "dataset.csv")
        recent.append(ds)
        del recent[: max(len(recent) - cfg.replay_levels, 0)]
        train_ds = concat_datasets(recent)
        if pr.on_level:
            pr.on_level(level, "train")
        torch.manual_seed(_level_seed(cfg.seed, level, 1))
        net = ValueNet(config=NetConfig(input_shape=shape, width=cfg.width, depth=cfg.depth,
                                        dropout=cfg.dropout, heads=cfg.heads))
        if prev_net is not None:
            net.load_state_dict(prev_net.state_dict())

        def _ep(e: EpochLoss, _lv: int = level) -> None:
            if pr.on_epoch:
                pr.on_epoch(_lv, e)

        losses = train_network(net, train_ds, epochs=cfg.epochs, lr=cfg.lr * cfg.lr_decay**level,
                               batch_size=cfg.batch_size,
                               weight_decay=cfg.weight_decay, val_fraction=cfg.val_fraction,
                               seed=_level_seed(cfg.seed, level, 2), on_epoch=_ep,
                               augment=cfg.augment and _has_board_symmetry(game, shape))
        if pr.on_level:
            pr.on_level(level, "eval")
        agent = ValueAgent(value_fn=make_value_fn(net), win_margin=cfg.win_margin)
        ev = evaluate_agent(game, agent, solver=solver,
                            previous=prev_agent if prev_agent is not None else RandomPlayer(),
                            games=cfg.eval_games, eval_epsilons=cfg.eval_epsilons,
                            seed=_level_seed(cfg.seed, level, 3))
        metrics: dict[str, Any] = {
            "level": level,
            "samples": len(ds),
            "train_samples": len(train_ds),
            "mean_target": float(ds.y.mean()),
            "losses": [asdict(e) for e in losses],
            "final_val_loss": losses[-1].val_loss,
            "previous": "random" if level == 0 else f"level_{level - 1:02d}",
            **ev,
            "seconds": round(time.perf_counter() - t0, 2),
        }
        save_model(net, ld / "model.safetensors",
                   metadata={"game": cfg.game, "level": level, "train_config": cfg.to_json()})
        atomic_write_json(ld / "metrics.json", metrics)
        all_metrics.append(metrics)
        if pr.on_done:
            pr.on_done(level, metrics)
        prev_net = net
    atomic_write_json(rd / "summary.json", {"config": cfg.to_json(), "levels": all_metrics})
    return all_metrics


def final_model_path(run_dir: str | os.PathLike[str]) -> Path:
    k = completed_levels(run_dir)
    if k == 0:
        raise ConfigError(f"run {str(run_dir)!r} has no finished level")
    return _level_dir(Path(run_dir), k - 1) / "model.safetensors"
