"""Lossy card abstraction: buckets per street from EHS, EHS^2 or next-street histograms.

Every hand of a street is first mapped to its lossless canonical index
(:mod:`pokerlab.abstraction.indexer`; the board is one set), and the abstraction is a table
``bucket[street][index]``.  Features per canonical hand (all exact, against a uniform
random opponent hand, ties counting half):

* **EHS** -- expected hand strength: the mean river showdown equity over all runouts.
* **EHS^2** -- the mean of the squared river equity (rewards potential; Johanson 2007).
* **histogram** -- the distribution of the *next* street's EHS over the next card(s):
  flop hands over the 47 turn cards, turn hands over the 46 river cards, preflop classes
  over the flops (``bins`` equal-width bins on [0, 1]).

Bucketing methods per street:

* ``"lossless"`` (preflop only, 169 buckets): the canonical class itself.
* ``"ehs"`` / ``"ehs2"`` -- percentile buckets: thresholds at equal shares of the raw
  deal mass (each canonical hand weighted by the number of deals it stands for).
* ``"pa"`` -- distribution-aware buckets as in Johanson, Burch, Valenzano & Bowling 2013,
  "Evaluating state-space abstractions in extensive-form games": k-means over the
  next-street EHS histograms with the earth mover's distance (1-D EMD = L1 distance of
  the cumulative histograms), k-means++ seeding, Lloyd iterations on a deal-weighted
  sample, then every hand assigned to its nearest centre.  (The river has no next
  street: ``"pa"`` is not allowed there.)

Deviations from the papers: centres are mean CDFs (the k-means update) rather than EMD
medians; k-means trains on a seeded, weight-proportional sample of ``kmeans_sample``
hands; the river uses EHS percentiles (no opponent-cluster features).

Results are cached under :func:`pokerlab.io.cache_dir` ``/abstraction/<key>/`` as an npz
of the bucket tables plus a JSON file with the config, sizes, build time and the npz's
SHA-256; a cached build whose checksum fails is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.abstraction import buckets_kernels as BK
from pokerlab.abstraction.indexer import STREET_NAMES, indexer_for, street_indexer
from pokerlab.cards.cards import CLASS_OF_COMBO, COMBO_INDEX, COMBOS
from pokerlab.cards.evaluator import eval_tables, strengths_on_board
from pokerlab.errors import ConfigError
from pokerlab.io import atomic_path, atomic_write_json, cache_dir, sha256_file

METHODS = ("lossless", "ehs", "ehs2", "pa")
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, kw_only=True)
class BucketConfig:
    """Buckets and method per street (preflop, flop, turn, river) and build options.

    ``max_street`` limits the build to streets ``0..max_street`` (preflop ``"ehs"``,
    ``"ehs2"`` and ``"pa"`` need the flop features, so they need ``max_street >= 1``).
    """

    buckets: tuple[int, ...] = (169, 200, 200, 200)
    methods: tuple[str, ...] = ("lossless", "pa", "pa", "ehs")
    bins: int = 20
    kmeans_sample: int = 50_000
    kmeans_iters: int = 25
    seed: int = 0
    max_street: int = 3
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        if len(self.buckets) != 4 or len(self.methods) != 4:
            raise ConfigError(f"buckets and methods need 4 entries (one per street), got "
                              f"{self.buckets!r} / {self.methods!r}")
        if not 0 <= self.max_street <= 3:
            raise ConfigError(f"max_street must be 0..3, got {self.max_street}")
        for s, (k, m) in enumerate(zip(self.buckets, self.methods, strict=True)):
            if m not in METHODS:
                raise ConfigError(f"unknown bucketing method {m!r} on the {STREET_NAMES[s]}; "
                                  f"expected one of {METHODS}")
            if m == "lossless" and (s != 0 or k != 169):
                raise ConfigError(f"'lossless' is the preflop method with 169 buckets, got "
                                  f"{k} on the {STREET_NAMES[s]}")
            if m == "pa" and s == 3:
                raise ConfigError("'pa' needs a next street; the river has none (use ehs)")
            if s == 0 and m != "lossless" and self.max_street < 1:
                raise ConfigError(f"preflop method {m!r} needs the flop features: max_street >= 1")
            if not 1 <= k <= 65535:
                raise ConfigError(f"bucket count {k} on the {STREET_NAMES[s]} out of 1..65535")
        if not 2 <= self.bins <= 255:
            raise ConfigError(f"bins must be 2..255, got {self.bins}")
        if self.kmeans_sample < 1 or self.kmeans_iters < 1:
            raise ConfigError("kmeans_sample and kmeans_iters must be >= 1")

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["buckets"] = list(self.buckets)
        d["methods"] = list(self.methods)
        return d

    def key(self) -> str:
        """Cache key: a digest of everything that changes the result (not the name)."""
        d = self.to_json()
        d.pop("name")
        d["version"] = 1
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


PRESETS: dict[str, BucketConfig] = {
    "default": BucketConfig(name="default"),
    "ehs": BucketConfig(buckets=(169, 200, 200, 200), methods=("lossless", "ehs", "ehs", "ehs"),
                        name="ehs"),
    "small": BucketConfig(buckets=(169, 50, 50, 50), methods=("lossless", "pa", "pa", "ehs"),
                          name="small"),
    "flop": BucketConfig(buckets=(169, 50, 1, 1), methods=("lossless", "pa", "ehs", "ehs"),
                         max_street=1, name="flop"),
    "test": BucketConfig(buckets=(169, 1, 1, 1), methods=("lossless", "ehs", "ehs", "ehs"),
                         max_street=0, name="test"),
}
"""Named configs.  ``default`` is 169 / 200 / 200 / 200 (lossless, PA, PA, EHS)."""


def preset(name: str) -> BucketConfig:
    if name not in PRESETS:
        raise ConfigError(f"unknown card abstraction preset {name!r}; known: {', '.join(PRESETS)}")
    return PRESETS[name]


# ------------------------------------------------------------------ canonical boards
def canonical_boards(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Representatives of the suit-isomorphism classes of ``n``-card boards and, for each,
    the number of raw boards in its class (sums to C(52, n))."""
    ix = indexer_for((n,))
    raw = np.array(list(combinations(range(52), n)), dtype=np.int64)
    idx = ix.index_many(raw)
    w = np.bincount(idx, minlength=ix.size).astype(np.float64)
    reps = ix.unindex_many(np.arange(ix.size, dtype=np.int64))
    return reps, w


# ------------------------------------------------------------------ features
@dataclass(kw_only=True)
class StreetFeatures:
    """Per canonical hand of one street: EHS, EHS^2, next-street histogram, deal weight."""

    street: int
    ehs: np.ndarray
    ehs2: np.ndarray
    hist: np.ndarray  # (N, bins) uint8 counts, or (0, bins)
    weight: np.ndarray


def street_features(street: int, *, bins: int = 20, want_hist: bool = True,
                    boards: tuple[np.ndarray, np.ndarray] | None = None) -> StreetFeatures:
    """Exact features of every canonical hand of ``street`` (1 = flop .. 3 = river).

    ``boards`` restricts the pass to some canonical boards (tests); entries of hands on
    other boards stay at zero weight.
    """
    if street not in (1, 2, 3):
        raise ConfigError(f"street features exist for the flop, turn and river; got {street}")
    ix = street_indexer(street)
    reps, w = boards if boards is not None else canonical_boards(street + 2)
    n = ix.size
    ehs = np.zeros(n, dtype=np.float32)
    weight = np.zeros(n, dtype=np.float64)
    combos = COMBOS.astype(np.int64)
    ET = eval_tables()
    if street == 3:
        BK.river_pass(ET, ix.tables, reps, w, combos, ehs, weight)
        return StreetFeatures(street=3, ehs=ehs, ehs2=ehs * ehs, hist=np.zeros((0, bins), np.uint8),
                              weight=weight)
    ehs2 = np.zeros(n, dtype=np.float32)
    hist = np.zeros((n if want_hist else 0, bins), dtype=np.uint8)
    kern = BK.turn_pass if street == 2 else BK.flop_pass
    kern(ET, ix.tables, reps, w, combos, bins, ehs, ehs2, hist, weight)
    return StreetFeatures(street=street, ehs=ehs, ehs2=ehs2, hist=hist, weight=weight)


def preflop_features(flop: StreetFeatures, *, bins: int) -> StreetFeatures:
    """Preflop class features (169, canonical preflop index order) from the flop features:
    deal-weighted means and the histogram of flop EHS (as fractions * 255, uint8)."""
    pre = street_indexer(0)
    fix = street_indexer(1)
    cards = fix.unindex_many(np.arange(fix.size, dtype=np.int64))
    holes = np.sort(cards[:, :2], axis=1)
    cls_idx = pre.index_many(holes)
    w = flop.weight
    tot = np.bincount(cls_idx, weights=w, minlength=169)
    ehs = np.bincount(cls_idx, weights=w * flop.ehs, minlength=169) / tot
    ehs2 = np.bincount(cls_idx, weights=w * flop.ehs2, minlength=169) / tot
    b = np.minimum((flop.ehs * bins).astype(np.int64), bins - 1)
    h = np.zeros((169, bins), dtype=np.float64)
    np.add.at(h, (cls_idx, b), w)
    h = h / h.sum(axis=1, keepdims=True)
    hist = np.round(h * 255).astype(np.uint8)
    return StreetFeatures(street=0, ehs=ehs.astype(np.float32), ehs2=ehs2.astype(np.float32),
                          hist=hist, weight=tot)


# ------------------------------------------------------------------ bucketing
def percentile_buckets(values: np.ndarray, weights: np.ndarray, k: int) -> np.ndarray:
    """Bucket ``0..k-1`` of every value: thresholds at equal shares of the weight mass
    (ascending: bucket ``k-1`` holds the strongest hands).  Equal values share a bucket."""
    v = np.asarray(values, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if k <= 1:
        return np.zeros(v.shape[0], dtype=np.uint16)
    order = np.argsort(v, kind="mergesort")
    cw = np.cumsum(w[order])
    total = cw[-1] if cw.size else 0.0
    if total <= 0:
        return np.zeros(v.shape[0], dtype=np.uint16)
    targets = total * np.arange(1, k) / k
    pos = np.searchsorted(cw, targets, side="left")
    thresholds = v[order][np.minimum(pos, v.size - 1)]
    return np.searchsorted(thresholds, v, side="left").astype(np.uint16).clip(0, k - 1)


def hist_to_cdf(hist: np.ndarray) -> np.ndarray:
    h = hist.astype(np.float32)
    tot = h.sum(axis=1, keepdims=True)
    tot[tot == 0] = 1.0
    return np.cumsum(h, axis=1) / tot


def emd_buckets(hist: np.ndarray, weights: np.ndarray, k: int, *, sample: int, iters: int,
                seed: int) -> tuple[np.ndarray, float]:
    """K-means (EMD) buckets of histogram rows; returns labels (sorted so that a higher
    bucket has a higher mean strength) and the weighted mean EMD to the centre."""
    n = hist.shape[0]
    live = np.flatnonzero(weights > 0)
    rng = np.random.default_rng(seed)
    p = weights[live] / weights[live].sum()
    m = min(sample, live.size)
    pick = rng.choice(live, size=m, replace=live.size < m * 4, p=p)
    cdf_s = hist_to_cdf(hist[pick])
    centers, _, _ = BK.kmeans_emd(np.ascontiguousarray(cdf_s), k, iters, int(seed))
    # order centres by mean strength: the mean of a histogram on [0,1] is 1 - mean(CDF)
    strength = 1.0 - centers.mean(axis=1)
    order = np.argsort(strength, kind="mergesort")
    centers = np.ascontiguousarray(centers[order])
    labels = np.empty(n, dtype=np.int64)
    dist = np.empty(n, dtype=np.float32)
    norm = hist.sum(axis=1).astype(np.float32)
    BK.assign_emd(np.ascontiguousarray(hist), norm, centers, labels, dist)
    wsum = float(weights.sum())
    mean_d = float((dist.astype(np.float64) * weights).sum() / wsum) if wsum > 0 else 0.0
    return labels.astype(np.uint16), mean_d


# ------------------------------------------------------------------ abstraction
@dataclass(kw_only=True)
class CardAbstraction:
    """Bucket tables per built street (index by the street's canonical index)."""

    config: BucketConfig
    tables: list[np.ndarray]
    info: dict[str, Any] = field(default_factory=dict)

    def num_buckets(self, street: int) -> int:
        return int(self.config.buckets[street])

    def bucket(self, street: int, hole: Sequence[int], board: Sequence[int] = ()) -> int:
        if street >= len(self.tables):
            raise ConfigError(f"this abstraction was built up to street {len(self.tables) - 1}, "
                              f"not {STREET_NAMES[street]}")
        ix = street_indexer(street)
        return int(self.tables[street][ix.index(list(hole) + list(board))])


def build(config: BucketConfig, *, progress: Progress | None = None) -> CardAbstraction:
    """Compute the bucket tables (no caching; see :func:`load_or_build`)."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    cfg = config
    tables: list[np.ndarray] = []
    info: dict[str, Any] = {"seconds": {}, "sizes": [], "mean_emd": {}}
    steps = cfg.max_street + 1
    done = 0

    def tick(label: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(label, done, steps)

    feats: dict[int, StreetFeatures] = {}
    out: dict[int, np.ndarray] = {}
    for s in range(cfg.max_street, 0, -1):  # river first: cheapest to explain, no deps
        ts = time.perf_counter()
        need_hist = cfg.methods[s] == "pa" or (s == 1 and cfg.methods[0] == "pa")
        f = street_features(s, bins=cfg.bins, want_hist=need_hist)
        k, m = cfg.buckets[s], cfg.methods[s]
        if m == "pa":
            labels, md = emd_buckets(f.hist, f.weight, k, sample=cfg.kmeans_sample,
                                     iters=cfg.kmeans_iters, seed=cfg.seed + s)
            info["mean_emd"][STREET_NAMES[s]] = md
        else:
            labels = percentile_buckets(f.ehs if m == "ehs" else f.ehs2, f.weight, k)
        out[s] = labels
        if s == 1:
            feats[1] = f
        info["seconds"][STREET_NAMES[s]] = round(time.perf_counter() - ts, 3)
        info.setdefault("cpu", {})[STREET_NAMES[s]] = round(time.process_time() - c0, 3)
        tick(STREET_NAMES[s])
    ts = time.perf_counter()
    if cfg.methods[0] == "lossless":
        out[0] = np.arange(169, dtype=np.uint16)
    else:
        pf = preflop_features(feats[1], bins=cfg.bins)
        if cfg.methods[0] == "pa":
            out[0], md = emd_buckets(pf.hist, pf.weight, cfg.buckets[0], sample=169,
                                     iters=cfg.kmeans_iters, seed=cfg.seed)
            info["mean_emd"]["preflop"] = md
        else:
            out[0] = percentile_buckets(pf.ehs if cfg.methods[0] == "ehs" else pf.ehs2,
                                        pf.weight, cfg.buckets[0])
    info["seconds"]["preflop"] = round(time.perf_counter() - ts, 3)
    tick("preflop")
    tables = [out[s] for s in range(cfg.max_street + 1)]
    info["sizes"] = [int(t.size) for t in tables]
    info["used_buckets"] = [int(np.unique(t).size) for t in tables]
    info["build_seconds"] = round(time.perf_counter() - t0, 3)
    info["cpu_seconds"] = round(time.process_time() - c0, 3)
    return CardAbstraction(config=cfg, tables=tables, info=info)


def cache_path(config: BucketConfig, root: Path | None = None) -> Path:
    return (root or cache_dir()) / "abstraction" / config.key()


def save(abstraction: CardAbstraction, folder: Path) -> None:
    """Write ``buckets.npz`` and ``config.json`` (config, info, SHA-256 of the npz)."""
    folder.mkdir(parents=True, exist_ok=True)
    npz = folder / "buckets.npz"
    arrays = {STREET_NAMES[s]: t for s, t in enumerate(abstraction.tables)}
    with atomic_path(npz) as tmp, open(tmp, "wb") as fh:
        np.savez(fh, **arrays)  # type: ignore[arg-type]
    atomic_write_json(folder / "config.json", {
        "config": abstraction.config.to_json(), "info": abstraction.info,
        "sha256": sha256_file(npz), "format": "pokerlab.abstraction.buckets/1"})


def load(folder: Path) -> CardAbstraction:
    """Load a saved abstraction, verifying its checksum (:class:`ConfigError` if bad)."""
    meta_path = folder / "config.json"
    npz = folder / "buckets.npz"
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{meta_path}: cannot read abstraction metadata ({exc})") from None
    if not npz.exists() or sha256_file(npz) != meta.get("sha256"):
        raise ConfigError(f"{npz}: missing or fails its checksum")
    c = meta["config"]
    cfg = BucketConfig(buckets=tuple(c["buckets"]), methods=tuple(c["methods"]),
                       bins=c["bins"], kmeans_sample=c["kmeans_sample"],
                       kmeans_iters=c["kmeans_iters"], seed=c["seed"],
                       max_street=c["max_street"], name=c.get("name", "custom"))
    with np.load(npz, allow_pickle=False) as z:
        tables = [np.array(z[STREET_NAMES[s]]) for s in range(cfg.max_street + 1)]
    return CardAbstraction(config=cfg, tables=tables, info=dict(meta.get("info", {})))


def load_or_build(config: BucketConfig, *, root: Path | None = None, force: bool = False,
                  progress: Progress | None = None) -> tuple[CardAbstraction, bool]:
    """The cached abstraction for ``config`` (checksum-verified), building it if needed.

    Returns ``(abstraction, from_cache)``.
    """
    folder = cache_path(config, root)
    if not force and (folder / "config.json").exists():
        try:
            return load(folder), True
        except ConfigError:
            pass  # corrupt or stale: rebuild
    ab = build(config, progress=progress)
    save(ab, folder)
    return ab, False


# ------------------------------------------------------------------ Python twins
def river_equity_py(board: Sequence[int]) -> np.ndarray:
    """Plain numpy twin of :func:`buckets_kernels.equity_on_board`: O(n^2) over combos."""
    s = strengths_on_board(list(board)).astype(np.int64)
    masks = (np.uint64(1) << COMBOS[:, 0].astype(np.uint64)) | (
        np.uint64(1) << COMBOS[:, 1].astype(np.uint64))
    disjoint = (masks[:, None] & masks[None, :]) == 0
    live = s > 0
    ok = disjoint & live[None, :] & live[:, None]
    win = ((s[:, None] > s[None, :]) & ok).sum(axis=1)
    tie = ((s[:, None] == s[None, :]) & ok).sum(axis=1)
    tot = ok.sum(axis=1)
    eq = np.where(live & (tot > 0), (win + 0.5 * tie) / np.maximum(tot, 1), -1.0)
    return eq


def turn_features_py(board4: Sequence[int], bins: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Twin of the turn pass for one board: per combo (EHS, EHS^2, histogram counts)."""
    s1 = np.zeros(1326)
    s2 = np.zeros(1326)
    cnt = np.zeros(1326)
    hist = np.zeros((1326, bins), dtype=np.int64)
    for r in range(52):
        if r in board4:
            continue
        eq = river_equity_py(list(board4) + [r])
        live = eq >= 0
        s1[live] += eq[live]
        s2[live] += eq[live] ** 2
        cnt[live] += 1
        b = np.minimum((eq * bins).astype(np.int64), bins - 1)
        for i in np.flatnonzero(live):
            hist[i, b[i]] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return s1 / cnt, s2 / cnt, hist


def assign_emd_py(hist: np.ndarray, centers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Twin of :func:`buckets_kernels.assign_emd`: nearest centre by L1 of the CDFs."""
    cdf = hist_to_cdf(hist).astype(np.float64)
    d = np.abs(cdf[:, None, :] - centers[None, :, :].astype(np.float64)).sum(axis=2)
    return d.argmin(axis=1), d.min(axis=1)


def combo_of(hole: Sequence[int]) -> int:
    return int(COMBO_INDEX[hole[0], hole[1]])


__all__ = ["BucketConfig", "CardAbstraction", "PRESETS", "build", "load", "load_or_build",
           "percentile_buckets", "emd_buckets", "street_features", "canonical_boards",
           "CLASS_OF_COMBO"]
