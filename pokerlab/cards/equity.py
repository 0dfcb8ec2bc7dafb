"""Equity: exact enumeration, range vs range, Monte Carlo, and the preflop equity matrix.

* :func:`hand_equity` -- exact showdown equity of two or more known hands on a board of
  0, 3, 4 or 5 cards by full enumeration of the remaining board cards (preflop heads-up:
  all 1,712,304 boards).
* :func:`range_equity` -- exact equity of a range against a range (heads-up): preflop via
  the exact 1326 x 1326 matrix, postflop by enumerating runouts with an O(n log n)
  weighted showdown per runout.
* :func:`monte_carlo_equity` -- seeded sampling for multiway ranges, with standard errors.
* :func:`preflop_equity_matrix` -- the exact all-in equity of every combo against every
  combo, built from the 47,008 suit-isomorphic matchups (shipped, rebuildable).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from pokerlab.cards.cards import (
    COMBO_INDEX,
    COMBO_MASKS,
    COMBOS,
    NUM_COMBOS,
    cards_mask,
    suit_permutations,
)
from pokerlab.cards.equity_kernels import (
    enumerate_boards,
    matchup_counts,
    monte_carlo,
    showdown_vs_range,
)
from pokerlab.cards.evaluator import eval_tables, strengths_on_board
from pokerlab.errors import CardError
from pokerlab.io import PACKAGE_DATA, atomic_path

MATCHUPS_FILE = PACKAGE_DATA / "preflop_matchups.npz"
BOARDS_PER_MATCHUP = 1_712_304  # C(48, 5)


@dataclass(frozen=True, kw_only=True)
class EquityResult:
    """Showdown equity of each player (pot share), with win and tie probabilities."""

    equity: list[float]
    win: list[float]
    tie: list[float]
    boards: int
    exact: bool
    stderr: list[float] | None = None
    samples: int | None = None
    extra: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {
            "equity": self.equity,
            "win": self.win,
            "tie": self.tie,
            "boards": self.boards,
            "exact": self.exact,
        }
        if self.stderr is not None:
            d["stderr"] = self.stderr
            d["samples"] = self.samples
        return d


def _check_disjoint(groups: Sequence[Sequence[int]]) -> None:
    seen: dict[int, int] = {}
    for g, cards in enumerate(groups):
        for c in cards:
            if c in seen:
                from pokerlab.cards.cards import card_str

                raise CardError(f"card {card_str(c)} is used twice (hands and board must not overlap)")
            seen[c] = g


def hand_equity(holes: Sequence[Sequence[int]], board: Sequence[int] = ()) -> EquityResult:
    """Exact equity of two or more known hands by enumerating every board completion."""
    if len(holes) < 2:
        raise CardError("equity needs at least two hands")
    if len(board) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")
    for h in holes:
        if len(h) != 2:
            raise CardError(f"a hand has exactly 2 cards, got {len(h)}")
    _check_disjoint([*holes, board])
    used = {c for h in holes for c in h} | set(board)
    deck = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    hole_arr = np.array(holes, dtype=np.int64)
    board_arr = np.array(list(board) or [0], dtype=np.int64)
    win, tie, eq, n = enumerate_boards(eval_tables(), hole_arr, board_arr, len(board), deck)
    n = int(n)
    return EquityResult(
        equity=[float(x) / n for x in eq],
        win=[float(x) / n for x in win],
        tie=[float(x) / n for x in tie],
        boards=n,
        exact=True,
    )


# ---------------------------------------------------------------- preflop matrix
def canonical_matchups() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 47,008 suit-isomorphic classes of non-conflicting combo pairs.

    Returns ``(pairs, cls, flip)``: ``pairs`` (47008, 2) a representative ``(i, j)`` per
    class; for every ordered non-conflicting pair ``(a, b)`` in ``np.triu_indices`` order,
    ``cls`` is its class and ``flip`` is True when ``a`` plays the representative's ``j``.
    """
    perms = suit_permutations().astype(np.int64)
    c0 = COMBOS[:, 0].astype(np.int64)
    c1 = COMBOS[:, 1].astype(np.int64)
    i, j = np.triu_indices(NUM_COMBOS, 1)
    ok = (COMBO_MASKS[i] & COMBO_MASKS[j]) == 0
    i, j = i[ok], j[ok]
    best = np.full(i.size, np.iinfo(np.int64).max, dtype=np.int64)
    flip = np.zeros(i.size, dtype=bool)
    for p in perms:
        cp = COMBO_INDEX[(c0 >> 2) * 4 + p[c0 & 3], (c1 >> 2) * 4 + p[c1 & 3]].astype(np.int64)
        a, b = cp[i], cp[j]
        key = np.minimum(a, b) * NUM_COMBOS + np.maximum(a, b)
        better = key < best
        best = np.where(better, key, best)
        flip = np.where(better, a > b, flip)
    uniq, cls = np.unique(best, return_inverse=True)
    pairs = np.stack([uniq // NUM_COMBOS, uniq % NUM_COMBOS], axis=1)
    return pairs, cls, flip


def build_matchup_counts(
    progress: Callable[[int, int], None] | None = None, chunk: int = 512
) -> np.ndarray:
    """Exact (wins of i, wins of j, ties) over all 1,712,304 boards for each canonical
    matchup; shape (47008, 3).  Parallel numba kernel; minutes on two cores."""
    pairs, _, _ = canonical_matchups()
    out = np.zeros((pairs.shape[0], 3), dtype=np.int64)
    combos = COMBOS.astype(np.int64)
    tables = eval_tables()
    for start in range(0, pairs.shape[0], chunk):
        stop = min(start + chunk, pairs.shape[0])
        sub = np.zeros((stop - start, 3), dtype=np.int64)
        matchup_counts(tables, pairs[start:stop], combos, sub)
        out[start:stop] = sub
        if progress is not None:
            progress(stop, pairs.shape[0])
    return out


def _digest(pairs: np.ndarray, counts: np.ndarray) -> str:
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(pairs, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(counts, dtype=np.int64).tobytes())
    return h.hexdigest()


def save_matchups(path: str | Path, counts: np.ndarray) -> None:
    pairs, _, _ = canonical_matchups()
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez_compressed(
            fh,
            pairs=pairs.astype(np.int16),
            counts=counts.astype(np.uint32),
            sha256=np.array(_digest(pairs, counts)),
        )


def load_matchups(path: str | Path = MATCHUPS_FILE) -> np.ndarray:
    """Load the shipped canonical matchup counts, verifying the checksum."""
    with np.load(path, allow_pickle=False) as z:
        pairs = z["pairs"].astype(np.int64)
        counts = z["counts"].astype(np.int64)
        digest = str(z["sha256"])
    expected, _, _ = canonical_matchups()
    if not np.array_equal(pairs, expected) or digest != _digest(pairs, counts):
        raise CardError(f"{path}: preflop matchup table fails its checksum")
    return counts


@lru_cache(maxsize=1)
def preflop_win_tie_matrices() -> tuple[np.ndarray, np.ndarray]:
    """``(win, tie)``: probability that combo ``i`` beats / ties combo ``j`` all-in preflop
    over all 1,712,304 boards (exact).  Conflicting pairs are ``nan``."""
    counts = load_matchups() if MATCHUPS_FILE.exists() else build_matchup_counts()
    _, cls, flip = canonical_matchups()
    i, j = np.triu_indices(NUM_COMBOS, 1)
    ok = (COMBO_MASKS[i] & COMBO_MASKS[j]) == 0
    i, j = i[ok], j[ok]
    c = counts[cls].astype(np.float64) / BOARDS_PER_MATCHUP
    # (wins of the representative's i, of its j, ties); flip when a plays the j side
    w_ij = np.where(flip, c[:, 1], c[:, 0])
    w_ji = np.where(flip, c[:, 0], c[:, 1])
    win = np.full((NUM_COMBOS, NUM_COMBOS), np.nan)
    tie = np.full((NUM_COMBOS, NUM_COMBOS), np.nan)
    win[i, j] = w_ij
    win[j, i] = w_ji
    tie[i, j] = c[:, 2]
    tie[j, i] = c[:, 2]
    win.setflags(write=False)
    tie.setflags(write=False)
    return win, tie


@lru_cache(maxsize=1)
def preflop_equity_matrix() -> np.ndarray:
    """``eq[i, j]``: exact all-in preflop equity of combo ``i`` against combo ``j`` (pot
    share, ties count half).  Conflicting pairs (a shared card) are ``nan``."""
    win, tie = preflop_win_tie_matrices()
    m = win + 0.5 * tie
    m.setflags(write=False)
    return m


# ---------------------------------------------------------------- ranges
def _as_weights(w: np.ndarray) -> np.ndarray:
    arr = np.asarray(w, dtype=np.float64)
    if arr.shape != (NUM_COMBOS,):
        raise CardError(f"a range is a weight vector over the 1326 combos, got shape {arr.shape}")
    if np.any(arr < 0) or not np.all(np.isfinite(arr)):
        raise CardError("range weights must be finite and non-negative")
    return arr


def range_equity(
    range1: np.ndarray, range2: np.ndarray, board: Sequence[int] = ()
) -> EquityResult:
    """Exact heads-up equity of ``range1`` against ``range2`` (weight vectors over combos),
    with exact card removal.  Preflop uses :func:`preflop_equity_matrix`; postflop
    enumerates every runout."""
    w1 = _as_weights(range1)
    w2 = _as_weights(range2)
    if len(board) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")
    dead = np.uint64(cards_mask(board))
    blocked = (COMBO_MASKS & dead) != 0
    w1 = np.where(blocked, 0.0, w1)
    w2 = np.where(blocked, 0.0, w2)
    if len(board) == 0:
        wm, tm = preflop_win_tie_matrices()
        valid = ~np.isnan(wm)
        joint = np.outer(w1, w2) * valid
        total = joint.sum()
        if total <= 0:
            raise CardError("the two ranges have no non-conflicting combos")
        pw = float((joint * np.nan_to_num(wm)).sum() / total)
        pt = float((joint * np.nan_to_num(tm)).sum() / total)
        return EquityResult(equity=[pw + pt / 2, 1.0 - pw - pt / 2], win=[pw, 1.0 - pw - pt],
                            tie=[pt, pt], boards=BOARDS_PER_MATCHUP, exact=True)
    win = tie = total = 0.0
    combos = COMBOS.astype(np.int64)
    ow = np.zeros(NUM_COMBOS)
    ot = np.zeros(NUM_COMBOS)
    otot = np.zeros(NUM_COMBOS)
    deck = [c for c in range(52) if c not in set(board)]
    import itertools

    nboards = 0
    for extra in itertools.combinations(deck, 5 - len(board)):
        full = list(board) + list(extra)
        s = strengths_on_board(full)
        ow[:] = 0.0
        ot[:] = 0.0
        otot[:] = 0.0
        showdown_vs_range(s, np.where(s > 0, w2, 0.0), combos, ow, ot, otot)
        live = s > 0
        win += float((w1[live] * ow[live]).sum())
        tie += float((w1[live] * ot[live]).sum())
        total += float((w1[live] * otot[live]).sum())
        nboards += 1
    if total <= 0:
        raise CardError("the two ranges have no non-conflicting combos on this board")
    pw, pt = win / total, tie / total
    return EquityResult(
        equity=[pw + pt / 2, 1.0 - pw - pt / 2],
        win=[pw, 1.0 - pw - pt],
        tie=[pt, pt],
        boards=nboards,
        exact=True,
    )


def monte_carlo_equity(
    ranges: Sequence[np.ndarray],
    board: Sequence[int] = (),
    *,
    samples: int = 100_000,
    seed: int = 0,
) -> EquityResult:
    """Monte Carlo equity of two or more ranges (or single hands as one-hot ranges)."""
    if len(ranges) < 2:
        raise CardError("equity needs at least two players")
    if samples <= 0:
        raise CardError(f"samples must be positive, got {samples}")
    if len(board) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")
    dead = cards_mask(board)
    blocked = (COMBO_MASKS & np.uint64(dead)) != 0
    cum = np.zeros((len(ranges), NUM_COMBOS))
    for p, r in enumerate(ranges):
        w = np.where(blocked, 0.0, _as_weights(r))
        if w.sum() <= 0:
            raise CardError(f"range {p + 1} is empty once the board's cards are removed")
        cum[p] = np.cumsum(w)
    b = np.array(list(board) or [0], dtype=np.int64)
    win, tie, eq, eq_sq, n = monte_carlo(
        eval_tables(), cum, COMBOS.astype(np.int64), b, len(board), dead, samples, seed
    )
    n = int(n)
    if n == 0:
        raise CardError("could not deal non-conflicting hands from these ranges")
    mean = eq / n
    var = np.maximum(eq_sq / n - mean**2, 0.0)
    return EquityResult(
        equity=[float(x) for x in mean],
        win=[float(x) / n for x in win],
        tie=[float(x) / n for x in tie],
        boards=n,
        exact=False,
        stderr=[float(x) for x in np.sqrt(var / n)],
        samples=n,
    )


def one_hot(hole: Sequence[int]) -> np.ndarray:
    """A range holding exactly one combo."""
    w = np.zeros(NUM_COMBOS)
    w[COMBO_INDEX[hole[0], hole[1]]] = 1.0
    return w
