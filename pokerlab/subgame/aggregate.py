"""The aggregate flop report: one spot template solved over a set of flops.

A :class:`ReportTemplate` is a spot without its board (pot, stack, the two ranges, the
bet tree, rake) and the solve settings (algorithm, iterations, target).  :func:`run_report`
solves it on every flop of a set (:mod:`pokerlab.subgame.flops`) through the project's
executor (``local``, ``process`` on every core, or ``ray``), one chain of flops per chunk,
and returns one row per flop: EVs, equity, exploitability and the first decision's action
frequencies.  A chain (:func:`~pokerlab.subgame.warm.flop_chains`) is up to six flops of one
shape, each warm-started from the one before (:mod:`pokerlab.subgame.warm`); the
template's ``warm=False`` (``--cold``) solves each flop exactly as ``pokerlab spot solve``
of that board with the same template and ``--check-every``.  The chains depend on the flops
only, so the thread and worker counts never change a result.

With a report folder every finished flop's row is written at once
(``flops/<board>.json``, atomically; ``--keep-spots`` also keeps the solved spot,
``flops/<board>.npz``, for ``pokerlab spot show``) next to ``report.json`` (the template),
so a killed report run again on the same folder solves only the flops still missing.  A
folder holding a report of another template is refused.  On a Ray cluster whose workers
cannot see the folder the driver writes the rows as each batch of flops comes back.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from pokerlab.errors import ConfigError, PokerlabError
from pokerlab.subgame.flops import Flop, texture

FORMAT_NAME = "pokerlab-spot-report"
FORMAT_VERSION = 1
TEMPLATE_FILE = "report.json"
ROWS_FOLDER = "flops"


@dataclass(frozen=True, kw_only=True)
class ReportTemplate:
    """A spot without its board, and how each flop is solved (the options of
    ``pokerlab spot solve``)."""

    pot: float
    stack: float
    oop: str
    ip: str
    bets: str = "75%"
    raises: str = "2.5x"
    flop_bets: str | None = None
    turn_bets: str | None = None
    river_bets: str | None = None
    oop_bets: str | None = None
    ip_bets: str | None = None
    donk: str | None = None
    allin_threshold: float = 1.5
    force_allin: float = 0.15
    merge: float = 0.1
    raise_cap: int = 0
    rake: float = 0.0
    rake_cap: float = 0.0
    big_blind: float = 1.0
    algo: str = "rdcfr"
    iterations: int = 1000
    target: float = 0.3
    isomorphism: bool = True
    compress: bool = False
    precision: str = "single"
    check_every: str = "auto"
    warm: bool = True

    def tree(self) -> Any:
        from pokerlab.subgame.spot import tree_config

        return tree_config(bets=self.bets, raises=self.raises, flop_bets=self.flop_bets,
                           turn_bets=self.turn_bets, river_bets=self.river_bets,
                           oop_bets=self.oop_bets, ip_bets=self.ip_bets, donk=self.donk,
                           allin_threshold=self.allin_threshold, force_allin=self.force_allin,
                           merge=self.merge, raise_cap=self.raise_cap)

    def spot(self, board: str, tree: Any = None) -> Any:
        """The spot on ``board`` (one clear error naming the board for bad input)."""
        from pokerlab.subgame.spot import make_spot

        try:
            return make_spot(board=board, pot=self.pot, stack=self.stack, oop=self.oop, ip=self.ip,
                             tree=tree if tree is not None else self.tree(), rake=self.rake,
                             rake_cap=self.rake_cap, big_blind=self.big_blind)
        except PokerlabError as exc:
            raise type(exc)(f"flop {board}: {exc}") from None

    def checks(self) -> int | str:
        """``SpotSolver.solve``'s ``check_every`` (``"auto"`` or a number of iterations)."""
        return "auto" if self.check_every == "auto" else int(self.check_every)

    def solve_config(self) -> Any:
        from pokerlab.subgame.solve_config import SolveConfig

        return SolveConfig(algo=self.algo, isomorphism=self.isomorphism, compress=self.compress,
                           precision=self.precision)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(obj: dict[str, Any]) -> ReportTemplate:
        names = {f.name for f in fields(ReportTemplate)}
        return ReportTemplate(**{k: v for k, v in obj.items() if k in names})


@dataclass(frozen=True, kw_only=True)
class FlopTask:
    """One flop to solve (picklable; the worker writes its row when it can see
    ``folder``)."""

    template: ReportTemplate
    board: str
    folder: str | None = None
    keep_spot: bool = False
    threads: int = 1


@dataclass(frozen=True, kw_only=True)
class ChainTask:
    """One chunk of the executor: a chain of flops of one shape (:func:`warm.flop_chains`),
    solved in order, each after the first warm-started from the one before when the
    template's ``warm`` is on."""

    template: ReportTemplate
    boards: tuple[str, ...]
    folder: str | None = None
    keep_spot: bool = False
    threads: int = 1


def row_path(folder: str | os.PathLike[str], board: str) -> Path:
    return Path(folder) / ROWS_FOLDER / f"{board}.json"


def solve_flop_warm(task: FlopTask, source: Any = None) -> tuple[dict[str, Any], Any]:
    """Solve one flop as ``pokerlab spot solve`` does (with the template's ``--check-every``),
    or warm-started from ``source`` (the :class:`~pokerlab.subgame.warm.WarmSource` of a solved
    flop) when the template's ``warm`` is on and the flops are of one shape; return (and
    save) its row, and its own ``WarmSource`` for the next flop of a chain (``None`` when
    ``warm`` is off).  The row's ``warm_from`` names the flop it started from (``None``:
    cold); its ``iterations`` are the iterations this flop ran."""
    from pokerlab.cards.cards import cards_str
    from pokerlab.io import atomic_write_json
    from pokerlab.subgame.solver import SpotSolver
    from pokerlab.subgame.warm import WarmSource, warm_start

    tpl = task.template
    t0 = time.perf_counter()
    solver = SpotSolver(tpl.spot(task.board), tpl.solve_config(), threads=task.threads)
    warm_from = None
    if tpl.warm and source is not None and warm_start(solver, source):
        warm_from = cards_str(source.board)
    start = solver.iteration
    pct = solver.solve(iterations=tpl.iterations + start, target_pct=tpl.target, check_every=tpl.checks())
    ev = solver.values()
    spot = solver.spot
    row = {"board": task.board, "ev_oop": ev[0], "ev_ip": ev[1], "equity_oop": solver.equity(),
           "root_actions": solver.root_actions(), "exploitability_pct": pct,
           "exploitability": pct * spot.pot / 100.0, "iterations": solver.iteration - start,
           "target_reached": pct <= tpl.target, "warm_from": warm_from, "nodes": solver.size.nodes,
           "memory_bytes": solver.size.memory_bytes,
           "solve_seconds": time.perf_counter() - t0}
    if task.folder is not None and (Path(task.folder) / ROWS_FOLDER).is_dir():
        if task.keep_spot:
            solver.save(Path(task.folder) / ROWS_FOLDER / f"{task.board}.npz")
        atomic_write_json(row_path(task.folder, task.board), row)
    return row, (WarmSource.of(solver) if tpl.warm else None)


def solve_chain(task: ChainTask) -> list[dict[str, Any]]:
    """The rows of a chain's flops, in its order (each saved as it finishes)."""
    source = None
    rows = []
    for board in task.boards:
        row, source = solve_flop_warm(FlopTask(template=task.template, board=board, folder=task.folder,
                                               keep_spot=task.keep_spot, threads=task.threads), source)
        rows.append(row)
    return rows


def check_memory(template: ReportTemplate, flops: list[Flop], max_memory: float) -> list[int]:
    """Every flop's memory estimate (bytes), before any solving: a flop over
    ``max_memory`` (or a bad template on a flop: a range emptied by its cards) is one
    error naming it.  A flop warm-started from the one before it in its chain counts that
    flop's regrets too (at most half its estimate), kept while it solves."""
    from pokerlab.subgame.solve_config import estimate_size
    from pokerlab.subgame.spot import SpotError
    from pokerlab.subgame.tree import build_betting_tree
    from pokerlab.subgame.warm import flop_chains

    tree_cfg = template.tree()
    cfg = template.solve_config()
    tree = None
    sizes: dict[str, int] = {}
    for f in flops:
        spot = template.spot(f.board, tree_cfg)
        if tree is None:
            tree = build_betting_tree(spot)  # the same for every board: pot and stack only
        sizes[f.board] = int(estimate_size(spot, isomorphism=cfg.isomorphism, tree=tree,
                                           compress=cfg.compress,
                                           predictive=cfg.predictive).memory_bytes)
    kept = {f.board: 0 for f in flops}
    if template.warm:
        for chain in flop_chains(flops):
            for prev, f in zip(chain, chain[1:], strict=False):
                kept[f.board] = sizes[prev.board] // 2
    for f in flops:
        need = sizes[f.board] + kept[f.board]
        if need > max_memory:
            warm = (f" (with {kept[f.board] / 1e6:,.1f} MB of the previous flop's regrets kept for its "
                    "warm start; --cold needs less)") if kept[f.board] else ""
            raise SpotError(f"flop {f.board} needs about {need / 1e6:,.1f} MB{warm}, over "
                            f"--max-memory {max_memory / 1e6:,.1f} MB (nothing was solved): use fewer bet "
                            "sizes, a raise cap or narrower ranges")
    return [sizes[f.board] + kept[f.board] for f in flops]


def open_folder(folder: Path, template: ReportTemplate) -> dict[str, dict[str, Any]]:
    """Prepare the report folder: write the template, or check that the one there is the
    same; return the rows already saved (by board)."""
    from pokerlab.io import atomic_write_json

    meta = folder / TEMPLATE_FILE
    want = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "template": template.to_json()}
    if meta.exists():
        try:
            have = json.loads(meta.read_text())
            old = ReportTemplate.from_json(have["template"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigError(f"--out {str(folder)!r}: {TEMPLATE_FILE} is damaged ({exc}); give a new "
                              "folder") from None
        if have.get("format") != FORMAT_NAME or old != template:
            diff = [k for k, v in template.to_json().items() if old.to_json().get(k) != v]
            raise ConfigError(f"--out {str(folder)!r} holds a report of another spot template (differs in "
                              f"{', '.join(diff) or 'format'}): give a new folder")
    else:
        atomic_write_json(meta, want)
    (folder / ROWS_FOLDER).mkdir(exist_ok=True)
    rows: dict[str, dict[str, Any]] = {}
    for p in sorted((folder / ROWS_FOLDER).glob("*.json")):
        try:
            row = json.loads(p.read_text())
        except ValueError:
            continue  # unreadable: solved again
        if isinstance(row, dict) and row.get("board") == p.stem:
            rows[p.stem] = row
    return rows


def full_row(row: dict[str, Any], flop: Flop) -> dict[str, Any]:
    """A saved row with the flop's weight and texture."""
    return {"board": row["board"], "weight": flop.weight, **{k: v for k, v in row.items() if k != "board"},
            "texture": texture(flop.cards).to_json()}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The weighted averages of a table's rows (weights: raw flops)."""
    total = sum(r["weight"] for r in rows)
    if total <= 0:
        return {"weight": 0.0}
    acts: dict[str, float] = {}
    for r in rows:
        for a, f in r["root_actions"].items():
            acts[a] = acts.get(a, 0.0) + r["weight"] * f / total
    return {"weight": total,
            "ev_oop": sum(r["weight"] * r["ev_oop"] for r in rows) / total,
            "ev_ip": sum(r["weight"] * r["ev_ip"] for r in rows) / total,
            "equity_oop": sum(r["weight"] * r["equity_oop"] for r in rows) / total,
            "root_actions": acts}


def run_report(template: ReportTemplate, flops: list[Flop], *, folder: Path | None = None,
               backend: str = "local", workers: int = 1, ray_address: str | None = None,
               keep_spots: bool = False,
               progress: Callable[[int, int, float | None], None] | None = None) -> dict[str, Any]:
    """Solve ``template`` on ``flops``; returns ``{"flops": rows (in the set's order),
    "solved": flops solved by this call, "resumed": rows read from ``folder``}``.

    ``progress(done, total, eta_seconds)`` hears of each finished flop."""
    from pokerlab.executor import map_chunks
    from pokerlab.subgame.warm import flop_chains

    if not flops:
        raise ConfigError("the flop set is empty")
    saved = open_folder(folder, template) if folder is not None else {}
    todo = [f for f in flops if f.board not in saved]
    chains = flop_chains(todo) if template.warm else [[f] for f in todo]
    chains.sort(key=len, reverse=True)  # the short chains last: the workers finish together
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    lanes = max(1, min(workers, len(chains)))
    threads = max(1, cores // lanes) if backend != "ray" else 1
    tasks = [ChainTask(template=template, boards=tuple(f.board for f in chain),
                       folder=None if folder is None else os.fspath(folder.resolve()),
                       keep_spot=keep_spots, threads=threads) for chain in chains]
    total = len(flops)
    start = time.perf_counter()
    base = total - len(todo)
    if progress is not None:
        progress(base, total, None)
    results: dict[str, dict[str, Any]] = {}
    # process / local workers write each row themselves as it finishes; Ray runs in batches
    # so the driver saves the rows of each batch even when workers cannot see the folder
    step = len(tasks) if backend != "ray" else max(1, 4 * workers)
    done_before = 0
    for lo in range(0, len(tasks), max(1, step)):
        batch = tasks[lo:lo + step]
        done0 = base + done_before

        def tick(done: int, _total: int, done0: int = done0) -> None:
            if progress is None:
                return
            now = done0 + done - base
            el = time.perf_counter() - start
            eta = el / now * (total - base - now) if now > 0 else None
            progress(done0 + done, total, eta)

        chunks = map_chunks(solve_chain, batch, backend=backend,  # type: ignore[arg-type]
                            workers=workers, ray_address=ray_address, progress=tick,
                            size=lambda t: len(t.boards))
        for task, rows in zip(batch, chunks, strict=True):
            for board, row in zip(task.boards, rows, strict=True):
                results[board] = row
                if folder is not None and not row_path(folder, board).exists():
                    from pokerlab.io import atomic_write_json

                    atomic_write_json(row_path(folder, board), row)
            done_before += len(task.boards)
    table = [full_row(results[f.board] if f.board in results else saved[f.board], f) for f in flops]
    return {"flops": table, "solved": len(todo), "resumed": base}


def filter_rows(rows: list[dict[str, Any]], terms: list[str]) -> list[dict[str, Any]]:
    """The rows whose texture passes every filter term (:func:`flops.matches`)."""
    from pokerlab.subgame.flops import Texture, matches

    return [r for r in rows if matches(Texture(**r["texture"]), terms)]


def plot_report(rows: list[dict[str, Any]], path: str | Path, *, title: str = "") -> Path:
    """The report's charts: the first decision's action mix per flop (sorted by the out of
    position player's EV) and its weighted mix by high card and by suits / pairing."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pokerlab.subgame.report import action_colour

    p = Path(path)
    actions: list[str] = []
    for r in rows:
        for a in r["root_actions"]:
            if a not in actions:
                actions.append(a)
    colours = {a: action_colour(a, i, len(actions)) for i, a in enumerate(actions)}
    fig, axes = plt.subplots(3, 1, figsize=(max(8.0, min(30.0, 0.12 * len(rows) + 4)), 11))
    by_ev = sorted(rows, key=lambda r: -r["ev_oop"])
    groups = [("flops by EV (oop)", [(r["board"], [r]) for r in by_ev])]
    for key, label in (("high", "high card"), ("suits", "suits / pairing")):
        buckets: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            t = r["texture"]
            k = t["high"] if key == "high" else f"{t['suits']} {t['pairing']}"
            buckets.setdefault(k, []).append(r)
        groups.append((f"weighted mix by {label}", sorted(buckets.items())))
    for ax, (name, items) in zip(axes, groups, strict=True):
        x = range(len(items))
        bottom = [0.0] * len(items)
        for a in actions:
            vals = []
            for _, rs in items:
                w = sum(r["weight"] for r in rs)
                vals.append(sum(r["weight"] * r["root_actions"].get(a, 0.0) for r in rs) / w if w else 0.0)
            ax.bar(x, vals, bottom=bottom, color=colours[a], label=a, width=0.9)
            bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
        ax.set_title(name)
        ax.set_ylim(0, 1)
        ax.set_xticks(list(x))
        ax.set_xticklabels([k for k, _ in items], rotation=90 if len(items) > 13 else 0,
                           fontsize=6 if len(items) > 60 else 8)
    axes[0].legend(loc="upper right", fontsize=7, ncols=max(1, len(actions)))
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    from pokerlab.io import atomic_path

    with atomic_path(p, suffix=p.suffix) as tmp:
        fig.savefig(tmp, format=p.suffix.lstrip(".") or "png", dpi=110)
    plt.close(fig)
    return p


def eta_text(eta: float | None) -> str:
    if eta is None or not math.isfinite(eta):
        return "-"
    s = int(round(eta))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
