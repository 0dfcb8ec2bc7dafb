"""The value network, training levels, resume and the short-run improvement check (torch)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from pokerlab.errors import ConfigError  # noqa: E402
from pokerlab.games.tictactoe import TicTacToeGame  # noqa: E402
from pokerlab.selfplay.data import generate  # noqa: E402
from pokerlab.selfplay.net import (  # noqa: E402
    ModelFileError,
    NetConfig,
    ValueNet,
    load_model,
    make_value_fn,
    save_model,
)
from pokerlab.selfplay.players import RandomPlayer  # noqa: E402
from pokerlab.selfplay.train import (  # noqa: E402
    TrainConfig,
    completed_levels,
    final_model_path,
    run_training,
    train_network,
)

torch.set_num_threads(1)


def test_net_roundtrip_and_checks(tmp_path: Path) -> None:
    torch.manual_seed(0)
    net = ValueNet(config=NetConfig(input_shape=(2, 3, 3), width=16, depth=2, dropout=0.2))
    p = tmp_path / "m.safetensors"
    save_model(net, p, metadata={"level": 3})
    back, meta = load_model(p)
    assert meta == {"level": 3}
    assert back.config == net.config
    x = np.random.default_rng(0).integers(0, 2, size=(7, 2, 3, 3)).astype(np.float32)
    np.testing.assert_array_equal(make_value_fn(net)(x), make_value_fn(back)(x))
    assert np.all(np.abs(make_value_fn(net)(x)) <= 1.0)
    cfg = json.loads((tmp_path / "m.json").read_text())
    assert cfg["net"] == {"input_shape": [2, 3, 3], "width": 16, "depth": 2, "dropout": 0.2,
                          "heads": 1}
    # tampered weights fail the checksum
    raw = bytearray(p.read_bytes())
    raw[-1] ^= 0xFF
    p.write_bytes(bytes(raw))
    with pytest.raises(ModelFileError, match="SHA-256"):
        load_model(p)
    with pytest.raises(ModelFileError, match="nope"):
        load_model(tmp_path / "nope.safetensors")
    with pytest.raises(ConfigError, match="m.bin"):
        save_model(net, tmp_path / "m.bin")
    with pytest.raises(ConfigError, match="width 0"):
        NetConfig(input_shape=(2, 3, 3), width=0)
    with pytest.raises(ConfigError, match="heads 3"):
        NetConfig(input_shape=(2, 3, 3), heads=3)
    two = ValueNet(config=NetConfig(input_shape=(2, 3, 3), width=8, heads=2))
    out = make_value_fn(two)(x)
    assert out.shape == (7, 2)
    assert np.all(np.abs(out[:, 0]) <= 1) and np.all((out[:, 1] >= 0) & (out[:, 1] <= 1))
    save_model(two, tmp_path / "two.safetensors")
    back2, _ = load_model(tmp_path / "two.safetensors")
    np.testing.assert_array_equal(make_value_fn(back2)(x), out)


def test_train_config_validation() -> None:
    with pytest.raises(ConfigError, match="games 0"):
        TrainConfig(games=0)
    with pytest.raises(ConfigError, match="gamma 1.5"):
        TrainConfig(gamma=1.5)
    with pytest.raises(ConfigError, match="epsilon -0.1"):
        TrainConfig(epsilons=(-0.1,))
    with pytest.raises(ConfigError, match="chess"):
        TrainConfig(game="chess")
    cfg = TrainConfig(levels=3, epsilons=(0.3, 0.2, 0.1))
    assert TrainConfig.from_json(cfg.to_json()) == cfg
    with pytest.raises(ConfigError, match="bogus"):
        TrainConfig.from_json({"bogus": 1})


def test_two_head_run(tmp_path: Path) -> None:
    cfg = TrainConfig(levels=2, games=200, epochs=2, eval_games=20, width=16, heads=2, seed=1)
    metrics = run_training(cfg, tmp_path / "run")
    assert len(metrics) == 2
    net, meta = load_model(final_model_path(tmp_path / "run"))
    assert net.config.heads == 2 and meta["train_config"]["heads"] == 2


def test_training_reduces_loss() -> None:
    ds = generate(TicTacToeGame(), [RandomPlayer(), RandomPlayer()], num_games=400, gamma=0.9,
                  tensor_shape=(2, 3, 3), seed=0)
    torch.manual_seed(0)
    net = ValueNet(config=NetConfig(input_shape=(2, 3, 3), width=32))
    losses = train_network(net, ds, epochs=6, lr=3e-3, batch_size=64, weight_decay=0.0,
                           val_fraction=0.2, seed=0)
    assert len(losses) == 6
    assert losses[-1].train_loss < losses[0].train_loss
    assert losses[-1].val_loss < losses[0].val_loss
    # the variance of the targets is the loss of predicting 0; training must beat it clearly
    assert losses[-1].train_loss < 0.8 * float(np.mean(ds.y**2))


def _score(m: dict) -> float:
    """Exact expected score (win - loss) against a uniformly random player, both seats."""
    ex = m["exact_vs_random"]
    return sum(ex[s]["win"] - ex[s]["loss"] for s in ("as_first", "as_second")) / 2


def test_short_run_improves_over_level0(tmp_path: Path) -> None:
    cfg = TrainConfig(levels=4, games=3000, epochs=5, eval_games=200, seed=0)
    metrics = run_training(cfg, tmp_path / "run")
    assert [m["level"] for m in metrics] == [0, 1, 2, 3]
    assert _score(metrics[-1]) > _score(metrics[0]) + 0.02
    assert metrics[-1]["vs_minimax"]["total"]["loss"] < metrics[0]["vs_minimax"]["total"]["loss"]
    for m in metrics:
        assert len(m["losses"]) == 5
        tot = m["vs_random"]["total"]
        assert tot["win"] + tot["draw"] + tot["loss"] == 200
    run = tmp_path / "run"
    for k in range(4):
        for f in ("dataset.csv", "model.safetensors", "model.json", "metrics.json"):
            assert (run / f"level_{k:02d}" / f).is_file()
    assert json.loads((run / "config.json").read_text())["games"] == 3000
    assert final_model_path(run) == run / "level_03" / "model.safetensors"


def test_resume_reproduces_uninterrupted_run(tmp_path: Path) -> None:
    small = dict(games=150, epochs=2, eval_games=20, width=16, seed=5)
    a, b = tmp_path / "a", tmp_path / "b"
    run_training(TrainConfig(levels=2, **small), a)  # type: ignore[arg-type]
    assert completed_levels(a) == 2
    resumed = run_training(TrainConfig(levels=3, **small), a)  # type: ignore[arg-type]
    fresh = run_training(TrainConfig(levels=3, **small), b)  # type: ignore[arg-type]
    assert len(resumed) == len(fresh) == 3
    for r, f in zip(resumed, fresh, strict=True):
        r, f = dict(r), dict(f)
        r.pop("seconds")
        f.pop("seconds")
        assert r == f
    csv_a, csv_b = (d / "level_02" / "dataset.csv" for d in (a, b))
    assert csv_a.read_text() == csv_b.read_text()
    na, _ = load_model(a / "level_02" / "model.safetensors")
    nb, _ = load_model(b / "level_02" / "model.safetensors")
    for (ka, va), (kb, vb) in zip(na.state_dict().items(), nb.state_dict().items(), strict=True):
        assert ka == kb and torch.equal(va, vb)
    with pytest.raises(ConfigError, match="gamma"):
        run_training(TrainConfig(levels=3, gamma=0.5, **small), a)  # type: ignore[arg-type]


def test_resume_with_replay_and_decay(tmp_path: Path) -> None:
    small = dict(games=120, epochs=1, eval_games=10, width=8, seed=2, replay_levels=2,
                 lr_decay=0.5)
    a, b = tmp_path / "a", tmp_path / "b"
    run_training(TrainConfig(levels=2, **small), a)  # type: ignore[arg-type]
    resumed = run_training(TrainConfig(levels=3, **small), a)  # type: ignore[arg-type]
    fresh = run_training(TrainConfig(levels=3, **small), b)  # type: ignore[arg-type]
    assert resumed[2]["train_samples"] == resumed[1]["samples"] + resumed[2]["samples"]
    assert resumed[2]["losses"] == fresh[2]["losses"]
