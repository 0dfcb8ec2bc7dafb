"""Hand review: a player's (or an agent's) postflop decisions scored against solved spots.

:func:`review_hands` reads hand histories (PHH, PokerStars text: a player's own hands, or
an agent's match from ``pokerlab match --out``), keeps every hand that is heads-up from
the flop on with a hero in it, solves its flop spot once (:mod:`pokerlab.hands.review_spot`:
the fixed review tree plus the hand's own sizes; cached by spot, so a hand reviewed for
both players, or twice, is solved once; turn and river decisions in subgames from the
real board with the ranges narrowed along the real line) and scores each of the hero's postflop decisions:
EV loss in big blinds and in % of the pot, the solution's mix for the hero's hand, the
best action.  Totals per street and per situation, a 95% confidence interval of the mean
loss per decision, the costliest decisions.  Hands run in parallel worker processes
(``workers``); with a cache folder every finished hand is written at once (atomically),
and a rerun with the same folder and tree reuses them (resumable).  Decisions can be
stored in a hand database (table ``review_decisions``, next to the hands).
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.hands.review_spot import (
    ALGO,
    CHECK_EVERY,
    F32_LIMIT,
    STREETS,
    ReviewConfig,
    Skip,
    flop_ranges,
    hand_line,
    score_hand,
)


class ReviewError(PokerlabError):
    """Nothing could be reviewed (no hand of the hero heads-up from the flop)."""


_SOLVED: dict[str, Any] = {}  # spot key -> solver, per process (the last few)
_KEEP = 4


def _solve(spot: Any, cfg: ReviewConfig, threads: int | None, stats: dict[str, Any] | None = None) -> Any:
    """The solved spot, from the per-process cache when the same spot (ranges and tree
    included) was solved before with the same budget."""
    from pokerlab.subgame.solve_config import SolveConfig, estimate_size
    from pokerlab.subgame.solver import SpotSolver

    key = hashlib.sha256((spot.digest_text() + repr(cfg)).encode()).hexdigest()
    if key not in _SOLVED:
        compress = cfg.compress or estimate_size(spot).memory_bytes > F32_LIMIT
        solver = SpotSolver(spot, SolveConfig(algo=ALGO, compress=compress), threads=threads)
        pct = solver.solve(iterations=cfg.iterations, target_pct=cfg.target_pct, check_every=CHECK_EVERY)
        while len(_SOLVED) >= _KEEP:
            _SOLVED.pop(next(iter(_SOLVED)))
        _SOLVED[key] = (solver, pct)
        if stats is not None:
            stats["solves"] = stats.get("solves", 0) + 1
            stats["iterations"] = stats.get("iterations", 0) + solver.iteration
    elif stats is not None:
        stats["cached"] = stats.get("cached", 0) + 1
    solver, pct = _SOLVED[key]
    if stats is not None:
        stats.setdefault("exploitability_pct", {})[str(len(spot.board) - 3)] = pct  # type: ignore[index]
    return solver


def review_one(hand: Any, heroes: Sequence[str] | None, cfg: ReviewConfig, presets: dict[str, str],
               threads: int | None = None) -> dict[str, Any]:
    """One hand: ``{"key", "label", "decisions": [...], "skip": reason | None, "detail"}``;
    ``heroes`` None: every player of the hand."""
    out: dict[str, Any] = {"key": hand.key(), "label": hand.where(), "decisions": [], "skip": None,
                           "detail": ""}
    c0, w0 = time.process_time(), time.perf_counter()
    try:
        _review_into(out, hand, heroes, cfg, presets, threads)
    finally:
        out["cpu_seconds"] = time.process_time() - c0
        out["seconds"] = time.perf_counter() - w0
    return out


def _review_into(out: dict[str, Any], hand: Any, heroes: Sequence[str] | None, cfg: ReviewConfig,
                 presets: dict[str, str], threads: int | None) -> None:
    names = list(hand.players or [])
    if heroes is not None and not any(h in names for h in heroes):
        out["skip"] = "hero not in the hand"
        return
    try:
        line = hand_line(hand)
        seats = {s for s in line.seats if heroes is None or line.players[s] in heroes}
        if not seats:
            raise Skip("hero not on the flop")
        if not any(s in line.hole for s in seats):
            raise Skip("hero's cards unknown")
        r0, r1, src = flop_ranges(line, presets)
        stats: dict[str, Any] = {}
        decisions = score_hand(line, seats, lambda spot: _solve(spot, cfg, threads, stats), cfg, (r0, r1))
        if not decisions:
            raise Skip("no postflop decision")
        pcts = stats.get("exploitability_pct", {})
        expl = {STREETS[int(k)]: float(v) for k, v in pcts.items()}
        for d in decisions:
            d["ranges"] = src
            d["exploitability_pct"] = expl.get(d["street"], expl.get("flop", float("nan")))
        out["decisions"] = decisions
        out["solves"] = stats
    except Skip as exc:
        out["skip"] = exc.reason
        out["detail"] = f"{hand.where()}: {exc}"
    except PokerlabError as exc:  # a spot the solver refuses: counted, never a traceback
        out["skip"] = "spot refused"
        out["detail"] = f"{hand.where()}: {exc}"


def _worker(args: tuple[Any, ...]) -> dict[str, Any]:
    """One hand in a worker process; its file is written there as soon as it is done (a
    review cut short keeps every finished hand)."""
    from pokerlab.io import atomic_write_text

    hand, heroes, cfg, presets, path = args
    res = review_one(hand, heroes, cfg, presets, threads=1)
    if path is not None:
        atomic_write_text(Path(path), json.dumps(res))
    return res


def summary(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """Total and mean EV loss (bb) with a 95% confidence interval of the mean."""
    xs = [float(d["ev_loss_bb"]) for d in decisions]
    n = len(xs)
    tot = float(sum(xs))
    mean = tot / n if n else float("nan")
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else float("nan")
    half = 1.96 * sd / math.sqrt(n) if n > 1 else float("nan")
    return {"total": tot, "mean": mean, "ci95": [mean - half, mean + half], "decisions": n}


def _group(decisions: list[dict[str, Any]], key: str) -> dict[str, Any]:
    out: dict[str, list[dict[str, Any]]] = {}
    for d in decisions:
        out.setdefault(str(d[key]), []).append(d)
    return {k: summary(v) for k, v in sorted(out.items())}


def review_hands(paths: Sequence[str | Path], heroes: Sequence[str] | None, *,
                 cfg: ReviewConfig | None = None, presets: dict[str, str] | None = None,
                 workers: int = 1, cache: Path | None = None,
                 on_hand: Callable[[int, int], None] | None = None,
                 limit: int | None = None, stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """The review report (module docstring); ``limit``: review at most that many eligible
    hands (in file order); ``stop``: asked before each hand (one process), True ends the
    review early with the hands done so far (``stopped`` in the report)."""
    from pokerlab.hands.hand_files import iter_paths
    from pokerlab.hands.model import RawHand
    from pokerlab.hands.review_ranges import PRESETS
    from pokerlab.io import atomic_write_text

    cfg = cfg or ReviewConfig()
    presets = presets if presets is not None else dict(PRESETS)
    skipped: Counter[str] = Counter()
    details: list[str] = []
    hands: list[Any] = []
    seen_names: set[str] = set()
    problems: list[str] = []
    total = 0
    for item in iter_paths([str(p) for p in paths], problems=problems):
        total += 1
        if not isinstance(item, RawHand):  # a Rejection: a corrupt history
            skipped["corrupt history"] += 1
            details.append(str(item))
            continue
        seen_names.update(item.players or [])
        hands.append(item)
    for p in problems:
        skipped["unreadable file"] += 1
        details.append(p)
    if not hands and (problems or details):  # nothing readable: say why, not "no such hero"
        raise ReviewError(problems[0] if problems else
                          f"none of the {total} hand histories could be read; the first: {details[0]}")
    if heroes is not None and not any(h in seen_names for h in heroes):
        raise ReviewError(f"hero {', '.join(heroes)} is in none of the {total} hands "
                          f"(players: {', '.join(sorted(seen_names)[:12]) or 'none'})")
    digest = hashlib.sha256(json.dumps({"cfg": cfg.to_json(), "presets": presets,
                                        "heroes": sorted(heroes) if heroes else None},
                                       sort_keys=True).encode()).hexdigest()[:16]
    results: list[dict[str, Any]] = []
    todo: list[Any] = []
    for h in hands:
        f = None if cache is None else cache / f"{h.key()}-{digest}.json"
        if f is not None and f.is_file():
            try:
                results.append(json.loads(f.read_text(encoding="utf-8")))
                continue
            except (OSError, json.JSONDecodeError):
                pass
        todo.append(h)
    if limit is not None:
        eligible = [h for h in todo if heads_up_from_flop(h, heroes)]
        todo = eligible[:limit]
    t0 = time.perf_counter()
    done = 0
    fresh = 0
    stopped = False

    def file_of(h: Any) -> Path | None:
        return None if cache is None else cache / f"{h.key()}-{digest}.json"

    def finish(res: dict[str, Any]) -> None:
        nonlocal done, fresh
        results.append(res)
        fresh += len(res["decisions"])
        if cache is not None:
            atomic_write_text(cache / f"{res['key']}-{digest}.json", json.dumps(res))
        done += 1
        if on_hand is not None:
            on_hand(done, len(todo))

    if workers > 1 and len(todo) > 1 and stop is None:
        from pokerlab.executor import map_chunks

        def tick(n: int, total: int) -> None:
            if on_hand is not None:
                on_hand(n, total)

        got = map_chunks(_worker, [(h, heroes, cfg, presets, file_of(h)) for h in todo],
                         backend="process", workers=workers, progress=tick)
        for res in got:
            results.append(res)
            fresh += len(res["decisions"])
    else:
        for h in todo:
            if stop is not None and stop():
                stopped = True
                break
            finish(review_one(h, heroes, cfg, presets))
    seconds = time.perf_counter() - t0
    decisions = [d for r in results for d in r["decisions"]]
    for r in results:
        if r["skip"]:
            skipped[r["skip"]] += 1
            if r["detail"]:
                details.append(r["detail"])
    reviewed_hands = sum(1 for r in results if r["decisions"])
    costly = sorted(decisions, key=lambda d: -float(d["ev_loss_bb"]))[:20]
    return {"hands": total, "hands_reviewed": reviewed_hands, "reviewed": len(decisions),
            "skipped": dict(sorted(skipped.items())), "skipped_hands": details[:200],
            "ev_loss_bb": summary(decisions), "by_street": _group(decisions, "street"),
            "by_situation": _group(decisions, "situation"), "by_player": _group(decisions, "player"),
            "costliest": costly, "decisions": decisions, "tree": cfg.to_json(),
            "seconds": seconds, "decisions_solved_now": fresh, "stopped": stopped}


def heads_up_from_flop(h: Any, heroes: Sequence[str] | None) -> bool:
    """Cheap pre-filter for ``limit``: the hero is seated and exactly two players see a flop."""
    if heroes is not None and not any(x in (h.players or []) for x in heroes):
        return False
    acts = [a for a in h.actions if not a.startswith("d dh")]
    if not any(a.startswith("d db") for a in acts):
        return False
    first = next(i for i, a in enumerate(acts) if a.startswith("d db"))
    folds = sum(1 for a in acts[:first] if a.split()[1:2] == ["f"])
    return len(h.starting_stacks) - folds == 2


REVIEW_COLUMNS = ("hand_id", "hero", "decision", "hand", "street", "situation", "board", "cards",
                  "action", "best_action", "ev_loss_bb", "ev_loss_pct_pot", "pot_bb", "mix")


def store(db_path: str | Path, decisions: list[dict[str, Any]]) -> int:
    """Write ``decisions`` into the hand database's ``review_decisions`` table (rows of a
    hand and hero already there are replaced); returns the rows written."""
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.schema import REVIEW_SQL

    with HandDB(path=db_path) as db:
        db.query(REVIEW_SQL)
        keys = sorted({(d["hand_key"], d["player"]) for d in decisions})
        for k, p in keys:
            db.query("DELETE FROM review_decisions WHERE hand_id = ? AND hero = ?", [k, p])
        seq: Counter[tuple[str, str]] = Counter()
        for d in decisions:
            k = (d["hand_key"], d["player"])
            db.query("INSERT INTO review_decisions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     [d["hand_key"], d["player"], seq[k], str(d["hand"]), d["street"], d["situation"],
                      d["board"], d["cards"], d["action"], d["best_action"], float(d["ev_loss_bb"]),
                      float(d["ev_loss_pct_pot"]), float(d["pot_bb"]), json.dumps(d["mix"])])
            seq[k] += 1
    return len(decisions)


def plot_losses(report: dict[str, Any], path: str | Path) -> Path:
    """Per player, the distribution of EV loss per decision (box plot, bb, symlog)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pokerlab.cards.ranges import check_picture_path, save_figure

    p = check_picture_path(path)
    groups: dict[str, list[float]] = {}
    for d in report["decisions"]:
        groups.setdefault(d["player"], []).append(float(d["ev_loss_bb"]))
    names = sorted(groups)
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    if names:
        ax.boxplot([groups[n] for n in names], showmeans=True)
        ax.set_xticks(range(1, len(names) + 1), [f"{n}\n({len(groups[n])})" for n in names])
    ax.set_yscale("symlog", linthresh=0.1)
    ax.set_ylabel("EV loss per decision (bb)")
    ax.set_title("Hand review: EV loss per postflop decision")
    ax.grid(alpha=0.3, axis="y")
    save_figure(fig, p)
    return p
