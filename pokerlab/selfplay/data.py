"""Self-play games and their discounted value targets; datasets as CSV.

Every position a player moved into becomes one sample: the state tensor from the mover's
point of view and a target equal to the mover's final return (+1 win, -1 loss, 0 draw),
discounted by ``gamma`` per move of that same player going back toward the start: the
winner's last move gets +1, its move before that ``gamma``, then ``gamma**2``...; the
loser's last move -1, then ``-gamma``... Both players' moves are used, each seen from its
own side.

For the win-probability head the same discounting is applied to the indicator "the mover
won" (1 for a win, 0 for a draw or a loss): ``win_target``.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import Game
from pokerlab.io import atomic_path
from pokerlab.selfplay.players import Player, encode


@dataclass(frozen=True, kw_only=True)
class Move:
    player: int
    action: int
    ply: int
    tensor: npt.NDArray[np.float32]
    """The position after the move, from the mover's point of view."""


@dataclass(frozen=True, kw_only=True)
class GameRecord:
    moves: tuple[Move, ...]
    returns: tuple[float, ...]


def play_game(game: Game, players: Sequence[Player], rng: np.random.Generator) -> GameRecord:
    """Play one game; ``players[p]`` moves for player ``p``; chance is sampled from ``rng``."""
    if len(players) != game.num_players:
        raise ConfigError(f"{len(players)} players given for a {game.num_players}-player game")
    s = game.new_initial_state()
    moves: list[Move] = []
    ply = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            i = int(rng.choice(len(outs), p=np.asarray([p for _, p in outs], dtype=np.float64)))
            s.apply_action(outs[i][0])
            continue
        p = s.current_player()
        a = int(players[p].choose(s, rng, ply=ply))
        s.apply_action(a)
        moves.append(Move(player=p, action=a, ply=ply, tensor=encode(s, p)))
        ply += 1
    return GameRecord(moves=tuple(moves), returns=tuple(float(r) for r in s.returns()))


def discounted_targets(record: GameRecord, *, gamma: float, win: bool = False) -> list[float]:
    """One target per move of ``record`` (see the module docstring).

    ``win=False``: the mover's return, discounted; ``win=True``: 1 if the mover won else 0,
    discounted the same way.
    """
    check_gamma(gamma)
    out = [0.0] * len(record.moves)
    seen: dict[int, int] = {}
    for i in range(len(record.moves) - 1, -1, -1):
        p = record.moves[i].player
        k = seen.get(p, 0)
        r = record.returns[p]
        out[i] = (1.0 if r > 0 else 0.0) * gamma**k if win else r * gamma**k
        seen[p] = k + 1
    return out


def check_gamma(gamma: float) -> None:
    if not 0.0 < gamma <= 1.0:
        raise ConfigError(f"gamma {gamma!r} is not in (0, 1]")


@dataclass(frozen=True, kw_only=True)
class Dataset:
    """Samples of one level: ``x[i]`` (a state tensor) should predict ``y[i]``."""

    x: npt.NDArray[np.float32]
    y: npt.NDArray[np.float32]
    y_win: npt.NDArray[np.float32]
    """Discounted "the mover won" indicator (target of the win-probability head)."""
    game: npt.NDArray[np.int64]
    ply: npt.NDArray[np.int64]
    player: npt.NDArray[np.int64]
    outcome: npt.NDArray[np.float32]
    """The mover's undiscounted final return."""

    def __len__(self) -> int:
        return int(self.y.shape[0])

    @property
    def num_games(self) -> int:
        return int(self.game.max()) + 1 if len(self) else 0


def build_dataset(
    records: Iterable[GameRecord], *, gamma: float, tensor_shape: Sequence[int]
) -> Dataset:
    xs: list[npt.NDArray[np.float32]] = []
    ys: list[float] = []
    yw: list[float] = []
    gs: list[int] = []
    ps: list[int] = []
    pl: list[int] = []
    oc: list[float] = []
    for gi, rec in enumerate(records):
        tw = discounted_targets(rec, gamma=gamma, win=True)
        for m, t, w in zip(rec.moves, discounted_targets(rec, gamma=gamma), tw, strict=True):
            xs.append(m.tensor)
            ys.append(t)
            yw.append(w)
            gs.append(gi)
            ps.append(m.ply)
            pl.append(m.player)
            oc.append(rec.returns[m.player])
    shape = tuple(int(d) for d in tensor_shape)
    x = np.stack(xs).astype(np.float32) if xs else np.zeros((0, *shape), dtype=np.float32)
    return Dataset(
        x=x.reshape((-1, *shape)),
        y=np.asarray(ys, dtype=np.float32),
        y_win=np.asarray(yw, dtype=np.float32),
        game=np.asarray(gs, dtype=np.int64),
        ply=np.asarray(ps, dtype=np.int64),
        player=np.asarray(pl, dtype=np.int64),
        outcome=np.asarray(oc, dtype=np.float32),
    )


def generate(
    game: Game,
    players: Sequence[Player],
    *,
    num_games: int,
    gamma: float,
    tensor_shape: Sequence[int],
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> Dataset:
    """``num_games`` games between ``players`` (seeded), turned into a :class:`Dataset`."""
    if num_games < 1:
        raise ConfigError(f"num_games {num_games!r} must be >= 1")
    check_gamma(gamma)
    rng = np.random.default_rng(seed)
    records = []
    for i in range(num_games):
        records.append(play_game(game, players, rng))
        if progress is not None and (i + 1) % 500 == 0:
            progress(500)
    if progress is not None and num_games % 500:
        progress(num_games % 500)
    return build_dataset(records, gamma=gamma, tensor_shape=tensor_shape)


def concat_datasets(parts: Sequence[Dataset]) -> Dataset:
    """One dataset of several; game ids are renumbered so they stay distinct."""
    if not parts:
        raise ConfigError("no datasets to concatenate")
    if len(parts) == 1:
        return parts[0]
    offsets = np.cumsum([0] + [d.num_games for d in parts[:-1]])
    return Dataset(
        x=np.concatenate([d.x for d in parts]),
        y=np.concatenate([d.y for d in parts]),
        y_win=np.concatenate([d.y_win for d in parts]),
        game=np.concatenate([d.game + off for d, off in zip(parts, offsets, strict=True)]),
        ply=np.concatenate([d.ply for d in parts]),
        player=np.concatenate([d.player for d in parts]),
        outcome=np.concatenate([d.outcome for d in parts]),
    )


_FIXED = ["game", "ply", "player", "outcome", "target", "win_target"]


def save_csv(ds: Dataset, path: str | os.PathLike[str]) -> None:
    """Write ``ds`` as CSV: game, ply, player, outcome, target, win_target, x0..x{n-1}.

    ``x*`` is the flattened state tensor.
    """
    flat = ds.x.reshape(len(ds), -1)
    header = _FIXED + [f"x{i}" for i in range(flat.shape[1])]
    if flat.size and np.array_equal(flat, np.round(flat)):
        feats = flat.astype(np.int64).astype(str)
    else:
        feats = np.char.mod("%.9g", flat)
    fixed = zip(ds.game.tolist(), ds.ply.tolist(), ds.player.tolist(), ds.outcome.tolist(),
                ds.y.tolist(), ds.y_win.tolist(), strict=True)
    lines = [",".join(header)]
    for (g, k, p, o, t, w), row in zip(fixed, feats.tolist(), strict=True):
        lines.append(f"{g},{k},{p},{o:g},{t:.9g},{w:.9g}," + ",".join(row))
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n")


def load_csv(path: str | os.PathLike[str], *, tensor_shape: Sequence[int]) -> Dataset:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"dataset file {str(p)!r} does not exist")
    with open(p, newline="") as fh:
        header = next(csv.reader(fh), None)
    shape = tuple(int(d) for d in tensor_shape)
    n_feat = int(np.prod(shape))
    expect = _FIXED + [f"x{i}" for i in range(n_feat)]
    if header != expect:
        raise ConfigError(f"dataset file {str(p)!r} has columns {header!r}, expected {expect!r}")
    arr = np.loadtxt(p, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2)
    return Dataset(
        x=arr[:, 6:].astype(np.float32).reshape((-1, *shape)),
        y=arr[:, 4].astype(np.float32),
        y_win=arr[:, 5].astype(np.float32),
        game=arr[:, 0].astype(np.int64),
        ply=arr[:, 1].astype(np.int64),
        player=arr[:, 2].astype(np.int64),
        outcome=arr[:, 3].astype(np.float32),
    )
