"""Trainer configuration (a frozen dataclass saved as JSON next to every policy) and presets.

Presets (``preset(name, stack=...)``):

* ``pushfold`` -- any stack (default 10 bb); preflop bet set ``a`` (all-in) with the limp
  removed, no postflop betting: the abstract game *is* heads-up push/fold, with the 169
  lossless preflop classes.  Exploitability is exact (:mod:`pokerlab.pushfold`).
* ``small`` -- 100 bb, bet set :data:`SMALL_BETS` (preflop 2.5x / 3x / 4x / all-in, cap 3;
  postflop 75% pot / all-in, cap 3), HS buckets 169 / 50 / 50 / 50: a useful agent in
  tens of minutes (365,214 information sets).  The common open (2.5x), three-bet (3x),
  isolation raise over a limp (4x) and postflop bet (75%) are on the tree, so the usual
  sizes need no translation (issue 12: the bet set ``small``, 3x / 50%, cap 2, lost to
  ``tag`` through translation of exactly those sizes).
* ``blueprint`` -- the ACPC / Slumbot game (blinds 50/100, 200 bb = 20,000 chips), bet
  set ``default`` (preflop 2.5x, 4x, all-in, cap 3; postflop 33%, 75%, 150% pot, all-in,
  cap 3), 169 / 200 / 200 / 200 buckets, int32 regrets, average strategy preflop and
  snapshots later (Pluribus): trains for hours.

A further trainer (the thesis agent, :mod:`pokerlab.blueprint.thesis`) lives beside this
one with its own config; :data:`PRESETS` names the presets this trainer owns.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from pokerlab.abstraction.bets import BetSet, parse_bet_set
from pokerlab.errors import ConfigError
from pokerlab.holdem.engine import HoldemConfig

if TYPE_CHECKING:  # the bucket tables load numba kernels: imported when used
    from pokerlab.abstraction.buckets import BucketConfig

CONFIG_VERSION = 1
CARD_METHODS = ("hs", "pa")
PA_METHODS = ("lossless", "pa", "pa", "ehs")
"""Bucketing methods per street of ``cards="pa"``."""


@dataclass(frozen=True, kw_only=True)
class BlueprintConfig:
    """Everything that defines a blueprint run (the iteration budget is not part of it).

    Schedules are in iterations: ``lcfr_until`` / ``lcfr_every`` (Linear CFR discounting:
    0 = off), ``prune_after`` (-1 = never prune) with ``prune_prob``, thresholds in big
    blinds (``prune_threshold_bb``, ``regret_floor_bb``), ``avg_streets`` (which streets
    keep an average strategy), ``snapshot_every`` / ``snapshot_after`` (current-strategy
    snapshots summed for the other streets; 0 = off), ``allin_ev`` (a preflop all-in
    showdown pays its exact all-in equity instead of one sampled board), ``board_reuse``
    (K iterations share one sampled board, each with its own hole cards).  ``cards``:
    ``"hs"`` (hand-strength percentile buckets computed on the fly,
    :mod:`pokerlab.abstraction.hs_cards`) or ``"pa"`` (potential-aware buckets: the card
    abstraction's tables of :mod:`pokerlab.abstraction.buckets`, lossless preflop,
    earth mover's k-means on the flop and turn, EHS percentiles on the river; built once
    and cached).
    """

    preset: str = "custom"
    stack_bb: float = 100.0
    small_blind: int = 50
    big_blind: int = 100
    bets: str = "small"
    no_limp: bool = False
    buckets: tuple[int, int, int, int] = (169, 50, 50, 50)
    card_sample: int = 20_000
    card_seed: int = 0
    cards: str = "hs"
    regret_dtype: str = "float32"
    avg_streets: tuple[bool, bool, bool, bool] = (True, True, True, True)
    lcfr_until: int = 0
    lcfr_every: int = 0
    prune_after: int = -1
    prune_prob: float = 0.95
    prune_threshold_bb: float = -300.0
    regret_floor_bb: float = -310.0
    snapshot_every: int = 0
    snapshot_after: int = 0
    allin_ev: bool = True
    board_reuse: int = 1
    seed: int = 0
    max_memory: int = 8 << 30

    def __post_init__(self) -> None:
        if self.regret_dtype not in ("float32", "int32"):
            raise ConfigError(f"regret_dtype must be float32 or int32, got {self.regret_dtype!r}")
        if not 0.0 <= self.prune_prob <= 1.0:
            raise ConfigError(f"prune_prob must be in [0, 1], got {self.prune_prob}")
        if self.regret_floor_bb > self.prune_threshold_bb:
            raise ConfigError(f"regret_floor_bb {self.regret_floor_bb} must be <= "
                              f"prune_threshold_bb {self.prune_threshold_bb}")
        if self.lcfr_every < 0 or self.lcfr_until < 0 or self.snapshot_every < 0:
            raise ConfigError("lcfr_every, lcfr_until and snapshot_every must be >= 0")
        if self.board_reuse < 1:
            raise ConfigError(f"board_reuse must be >= 1, got {self.board_reuse}")
        if self.seed < 0:
            raise ConfigError(f"seed must be >= 0, got {self.seed}")
        if self.cards not in CARD_METHODS:
            raise ConfigError(f"cards must be one of {', '.join(CARD_METHODS)}, got {self.cards!r}")
        if self.cards == "pa" and int(self.buckets[0]) != 169:
            raise ConfigError(f"cards 'pa' keeps the 169 preflop classes; buckets "
                              f"{tuple(self.buckets)!r} start with {self.buckets[0]}")
        object.__setattr__(self, "buckets", tuple(int(b) for b in self.buckets))
        object.__setattr__(self, "avg_streets", tuple(bool(b) for b in self.avg_streets))
        self.bet_set()  # validates the bets text
        self.holdem()

    def bet_set(self) -> BetSet:
        return parse_bet_set(self.bets)

    def bucket_config(self) -> BucketConfig | None:
        """The card abstraction's bucket config (``cards="pa"``), ``None`` for ``"hs"``."""
        if self.cards != "pa":
            return None
        from pokerlab.abstraction.buckets import BucketConfig

        return BucketConfig(buckets=tuple(int(b) for b in self.buckets),
                            methods=PA_METHODS)

    def cards_text(self) -> str:
        """``hs:169-50-50-50`` / ``pa:169-50-50-50``."""
        return f"{self.cards}:" + "-".join(str(b) for b in self.buckets)

    def holdem(self) -> HoldemConfig:
        return HoldemConfig.from_bb(self.stack_bb, small_blind=self.small_blind,
                                    big_blind=self.big_blind)

    def game_string(self) -> str:
        """``load_game`` string of the abstract game's betting (cards in ``card_spec``)."""
        st = self.holdem().stacks[0]
        parts = [f"stacks={st}"]
        if (self.small_blind, self.big_blind) != (50, 100):
            parts += [f"small_blind={self.small_blind}", f"big_blind={self.big_blind}"]
        bets = self.bets if "," not in self.bets and ";" not in self.bets else "custom"
        parts.append(f"bets={bets}")
        if self.cards == "pa":  # the policy's buckets are the game's card tables
            parts.append("buckets=" + "-".join(str(b) for b in self.buckets))
        return f"hunl({','.join(parts)})"

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["buckets"] = list(self.buckets)
        d["avg_streets"] = list(self.avg_streets)
        d["version"] = CONFIG_VERSION
        d["bets_text"] = self.bet_set().text()
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BlueprintConfig:
        d = dict(d)
        if d.pop("version", CONFIG_VERSION) != CONFIG_VERSION:
            raise ConfigError(f"blueprint config version is not {CONFIG_VERSION}")
        d.pop("bets_text", None)
        try:
            d["buckets"] = tuple(d["buckets"])
            d["avg_streets"] = tuple(d["avg_streets"])
            return cls(**d)
        except (KeyError, TypeError) as exc:
            raise ConfigError(f"bad blueprint config: {exc}") from None

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)


SMALL_BETS = "preflop: 2.5x, 3x, 4x, a, cap 3; postflop: 75%, a, cap 3"
"""Bet set of the ``small`` preset (and of the shipped agent)."""

PRESETS: dict[str, BlueprintConfig] = {
    "pushfold": BlueprintConfig(
        preset="pushfold", stack_bb=10.0, bets="preflop: a, cap 1; postflop: cap 0",
        no_limp=True, buckets=(169, 1, 1, 1), lcfr_until=200_000, lcfr_every=1_000,
        prune_after=-1, card_sample=100),
    "small": BlueprintConfig(
        preset="small", stack_bb=100.0, bets=SMALL_BETS, buckets=(169, 50, 50, 50),
        lcfr_until=4_000_000, lcfr_every=100_000, prune_after=2_000_000,
        regret_dtype="float32", avg_streets=(True, True, True, True), board_reuse=16),
    "blueprint": BlueprintConfig(
        preset="blueprint", stack_bb=200.0, bets="default", buckets=(169, 200, 200, 200),
        lcfr_until=40_000_000, lcfr_every=1_000_000, prune_after=20_000_000,
        regret_dtype="int32", avg_streets=(True, False, False, False),
        snapshot_every=1_000_000, snapshot_after=40_000_000, board_reuse=16,
        max_memory=96 << 30),
}
"""Presets of this trainer (see the module docstring)."""


def preset(name: str, *, stack: float | None = None, seed: int | None = None) -> BlueprintConfig:
    key = name.strip().lower()
    if key not in PRESETS:
        raise ConfigError(f"unknown blueprint preset {name!r}; known: {', '.join(PRESETS)}")
    cfg = PRESETS[key]
    if stack is not None:
        cfg = replace(cfg, stack_bb=float(stack))
    if seed is not None:
        cfg = replace(cfg, seed=int(seed))
    return cfg
