"""Random-agent self-play written as PHH (``pokerlab holdem selfplay``).

Every hand starts from the configured stacks (player 0 = big blind = PHH ``p1``).  One
SplitMix64 stream seeded with ``seed`` drives cards and actions, so a run is
reproducible.  The configuration is saved as JSON next to the ``.phhs`` file
(``FILE.phhs.json``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pokerlab.agents.random_agent import DEFAULT_WEIGHTS, SplitMix64, check_weights, play_hand
from pokerlab.errors import ConfigError
from pokerlab.holdem.engine import HoldemConfig, HoldemState
from pokerlab.io import atomic_write_json, sha256_file

PLAYER_NAMES = ("random-bb", "random-button")


@dataclass(frozen=True, kw_only=True)
class SelfplayConfig:
    hands: int
    seed: int
    game: HoldemConfig
    weights: tuple[int, int, int, int, int] = DEFAULT_WEIGHTS

    def __post_init__(self) -> None:
        if self.hands < 1:
            raise ConfigError(f"hands must be >= 1, got {self.hands}")
        if self.seed < 0:
            raise ConfigError(f"seed must be >= 0, got {self.seed}")
        object.__setattr__(self, "weights", check_weights(self.weights))

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["game"] = self.game.to_json()
        d["weights"] = list(self.weights)
        return d


def play(cfg: SelfplayConfig,
         progress: Callable[[int], None] | None = None) -> list[HoldemState]:
    """Play ``cfg.hands`` hands; ``progress(i)`` is called after hand ``i``."""
    rng = SplitMix64(cfg.seed)
    out: list[HoldemState] = []
    for i in range(cfg.hands):
        out.append(play_hand(HoldemState(config=cfg.game), rng, cfg.weights))
        if progress is not None:
            progress(i)
    return out


def summary(states: list[HoldemState]) -> dict[str, Any]:
    pay = [s.payoffs() for s in states]
    return {
        "hands": len(states),
        "showdowns": sum(1 for s in states if s.is_showdown),
        "folds": sum(1 for s in states if s.folded >= 0),
        "all_in_hands": sum(1 for s in states if 0 in s.stacks),
        "chips_won": [sum(p[0] for p in pay), sum(p[1] for p in pay)],
        "actions": sum(sum(len(a) for a in s.street_actions) for s in states),
    }


def run_selfplay(cfg: SelfplayConfig, out: str | Path, *,
                 progress: Callable[[int], None] | None = None,
                 verify: bool = False) -> dict[str, Any]:
    """Play, write ``out`` (.phhs) and ``out.json`` (config); report numbers.

    With ``verify`` the file is replayed by PokerKit and its finishing stacks compared
    with ours (``verified_hands`` in the report; a mismatch raises)."""
    from pokerlab.errors import HandHistoryError
    from pokerlab.holdem.phh import pokerkit_replay_file, write_phhs

    path = Path(out)
    t0 = time.perf_counter()
    states = play(cfg, progress)
    t_play = time.perf_counter() - t0
    write_phhs(path, states, players=PLAYER_NAMES)
    atomic_write_json(str(path) + ".json", cfg.to_json())
    rep: dict[str, Any] = {"out": str(path), "config": cfg.to_json(), **summary(states),
                           "play_seconds": round(t_play, 3), "sha256": sha256_file(path)}
    if verify:
        fins = pokerkit_replay_file(path)
        ours = [s.final_stacks() for s in states]
        bad = [i for i, (a, b) in enumerate(zip(fins, ours, strict=True)) if a != b]
        if bad:
            raise HandHistoryError(
                f"PokerKit replays hand {bad[0] + 1} of {str(path)!r} to {fins[bad[0]]}, "
                f"we have {ours[bad[0]]}")
        rep["verified_hands"] = len(fins)
    return rep
