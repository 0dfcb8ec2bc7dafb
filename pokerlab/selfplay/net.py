"""The value network (PyTorch, CPU) and its safetensors + JSON files.

A multilayer perceptron on the flattened state tensor: ``depth`` hidden layers of ``width``
ReLU units with dropout, and one ``tanh`` output predicting the mover's discounted return
in ``[-1, 1]``; with ``heads=2`` a second, ``sigmoid`` output predicts the (discounted)
probability that the mover wins. Weights go to ``NAME.safetensors``; the config (and any
metadata, e.g. the training history) to ``NAME.json`` next to it, with the weights'
SHA-256.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from safetensors.torch import load_file, save_file
from torch import nn

from pokerlab.errors import ConfigError, PokerlabError
from pokerlab.io import atomic_path, atomic_write_json, sha256_file

FORMAT = "pokerlab.selfplay.valuenet"
VERSION = 1


class ModelFileError(PokerlabError):
    """A value-network file is missing, malformed, of an unknown version or fails its checksum."""


@dataclass(frozen=True, kw_only=True)
class NetConfig:
    input_shape: tuple[int, ...]
    width: int = 128
    depth: int = 2
    dropout: float = 0.1
    heads: int = 1
    """1: value only; 2: value and win probability."""

    def __post_init__(self) -> None:
        if self.heads not in (1, 2):
            raise ConfigError(f"heads {self.heads!r} is not 1 or 2")
        if self.width < 1:
            raise ConfigError(f"width {self.width!r} must be >= 1")
        if self.depth < 1:
            raise ConfigError(f"depth {self.depth!r} must be >= 1")
        if not 0.0 <= self.dropout < 1.0:
            raise ConfigError(f"dropout {self.dropout!r} is not in [0, 1)")
        if not self.input_shape or any(int(d) < 1 for d in self.input_shape):
            raise ConfigError(f"input_shape {self.input_shape!r} is not a positive shape")


class ValueNet(nn.Module):
    def __init__(self, *, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        n_in = int(np.prod(config.input_shape))
        layers: list[nn.Module] = [nn.Flatten()]
        for _ in range(config.depth):
            layers += [nn.Linear(n_in, config.width), nn.ReLU(), nn.Dropout(config.dropout)]
            n_in = config.width
        layers += [nn.Linear(n_in, config.heads)]
        self.body = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """``[n]`` values, or ``[n, 2]`` (value, win probability) with two heads."""
        z = self.body(x)
        if self.config.heads == 1:
            return torch.tanh(z[:, 0])
        return torch.stack([torch.tanh(z[:, 0]), torch.sigmoid(z[:, 1])], dim=1)


def make_value_fn(net: ValueNet) -> Any:
    """A :data:`pokerlab.selfplay.players.ValueFunction` of ``net`` in eval mode."""

    def fn(batch: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        net.eval()
        with torch.no_grad():
            out = net(torch.from_numpy(np.ascontiguousarray(batch, dtype=np.float32)))
        return out.numpy().astype(np.float32)

    return fn


def _json_path(path: Path) -> Path:
    return path.with_suffix(".json")


def save_model(
    net: ValueNet, path: str | os.PathLike[str], *, metadata: dict[str, Any] | None = None
) -> None:
    """Write ``path`` (safetensors) and ``path`` with suffix ``.json`` (config + metadata)."""
    p = Path(path)
    if p.suffix != ".safetensors":
        raise ConfigError(f"model path {str(p)!r} must end in .safetensors")
    tensors = {k: v.detach().contiguous().clone() for k, v in net.state_dict().items()}
    with atomic_path(p) as tmp:
        save_file(tensors, str(tmp), metadata={"format": FORMAT, "version": str(VERSION)})
    cfg = asdict(net.config)
    cfg["input_shape"] = list(net.config.input_shape)
    atomic_write_json(_json_path(p), {
        "format": FORMAT, "version": VERSION, "net": cfg,
        "weights": p.name, "sha256": sha256_file(p), "metadata": metadata or {},
    })


def load_model(path: str | os.PathLike[str]) -> tuple[ValueNet, dict[str, Any]]:
    """Load a network saved by :func:`save_model`; returns it (eval mode) and its metadata."""
    p = Path(path)
    if p.suffix == ".json":
        p = p.with_suffix(".safetensors")
    jp = _json_path(p)
    if not p.is_file() or not jp.is_file():
        raise ModelFileError(f"model {str(p)!r}: need both {p.name} and {jp.name}")
    try:
        meta = json.loads(jp.read_text())
    except json.JSONDecodeError as exc:
        raise ModelFileError(f"model config {str(jp)!r} is not JSON: {exc}") from exc
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise ModelFileError(
            f"model config {str(jp)!r}: format {meta.get('format')!r} version "
            f"{meta.get('version')!r}, expected {FORMAT!r} version {VERSION}"
        )
    if meta.get("sha256") != sha256_file(p):
        raise ModelFileError(f"model weights {str(p)!r} fail their SHA-256 check")
    try:
        n = meta["net"]
        cfg = NetConfig(input_shape=tuple(int(d) for d in n["input_shape"]), width=int(n["width"]),
                        depth=int(n["depth"]), dropout=float(n["dropout"]),
                        heads=int(n.get("heads", 1)))
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelFileError(f"model config {str(jp)!r}: bad 'net' entry ({exc})") from exc
    net = ValueNet(config=cfg)
    try:
        net.load_state_dict(load_file(str(p)))
    except (RuntimeError, KeyError) as exc:
        raise ModelFileError(f"model weights {str(p)!r} do not fit the config: {exc}") from exc
    net.eval()
    return net, dict(meta.get("metadata", {}))
