"""``pokerlab blueprint``: train a HUNL blueprint (MCCFR), inspect it, draw its strategy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import (
    check_image_path,
    check_positive,
    check_seed,
    emit_json,
    force_option,
    json_option,
    png_option,
    progress,
    seed_option,
)
from pokerlab.errors import ConfigError

app = typer.Typer(help="Train and inspect heads-up no-limit blueprints (MCCFR).",
                  no_args_is_help=True)

GROUPS = [("blueprint", app, "Train and inspect heads-up no-limit blueprints (MCCFR).")]


def _out_dir(out: Path | None, preset: str) -> Path:
    p = out if out is not None else Path(f"blueprint_{preset}")
    if p.exists() and not p.is_dir():
        raise ConfigError(f"--out {str(p)!r} is a file, not a folder")
    if not p.parent.is_dir():
        raise ConfigError(f"--out {str(p)!r}: folder {str(p.parent)!r} does not exist "
                          "(pokerlab does not create parent folders)")
    p.mkdir(exist_ok=True)
    return p


@app.command("train")
def train(
    preset: str = typer.Option("small", "--preset",
                               help="pushfold | small | blueprint | thesis (docs/blueprint.md, thesis.md)."),
    stack: float | None = typer.Option(None, "--stack",
                                       help="Stack in big blinds (default: the preset's)."),
    iterations: int | None = typer.Option(None, "--iterations", help="Iterations to run."),
    minutes: float | None = typer.Option(None, "--minutes", help="Train for this long."),
    threads: int = typer.Option(1, "--threads",
                                help="Lock-free worker threads (>1: not bit-reproducible)."),
    ray_workers: int = typer.Option(0, "--ray-workers",
                                    help="Train on this many Ray workers (0: no Ray)."),
    ray_address: str | None = typer.Option(None, "--ray-address",
                                           help="Join this Ray cluster (default workers: 2)."),
    merge_every: int = typer.Option(10_000, "--merge-every",
                                    help="Ray: iterations per worker between merges."),
    out: Path | None = typer.Option(None, "--out",
                                    help="Run folder (checkpoint, config, policy)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the checkpoint in --out."),
    force: bool = typer.Option(False, "--force", help="Replace the run in --out (its files "
                               "are removed once the new run writes)."),
    storage: str = typer.Option("memory", "--storage", help="memory | disk."),
    cards: str | None = typer.Option(None, "--cards",
                                     help="Card buckets: hs (hand strength, on the fly) | pa "
                                     "(potential-aware tables, built once and cached); "
                                     "default: the preset's."),
    buckets: str | None = typer.Option(None, "--buckets",
                                       help="Buckets per street, e.g. 169,50,50,50 "
                                       "(default: the preset's)."),
    bets: str | None = typer.Option(None, "--bets",
                                    help="Bet set, e.g. \"preflop: 2.5x, a, cap 3; flop: 33%, "
                                    "75%, a, cap 2; turn: 75%, a\" (docs/abstraction.md; "
                                    "default: the preset's)."),
    update: str = typer.Option("mccfr", "--update",
                               help="thesis preset: mccfr | thesis (its own update, docs/thesis.md)."),
    max_memory_gb: float | None = typer.Option(None, "--max-memory",
                                               help="Refuse tables above this many GiB."),
    checkpoint_every: float = typer.Option(5.0, "--checkpoint-minutes",
                                           help="Write a checkpoint this often."),
    seed: int = seed_option(),
    as_json: bool = json_option(),
) -> None:
    """Train a blueprint by external-sampling MCCFR; write checkpoint + policy to --out."""
    import time
    from dataclasses import replace

    from pokerlab.blueprint.config import preset as get_preset
    from pokerlab.blueprint.trainer import BlueprintTrainer
    from pokerlab.executor import check_ray_address

    check_seed(seed)
    check_ray_address(ray_address, reachable=True)
    if iterations is not None and minutes is not None:
        raise ConfigError("give --iterations or --minutes, not both")
    if preset.strip().lower() == "thesis":  # the thesis agent's own trainer
        from pokerlab.blueprint.thesis_run import train_command as thesis_train

        if resume:
            raise ConfigError("--resume is not available for the thesis preset")
        if threads != 1 or ray_workers or ray_address:
            raise ConfigError("--threads/--ray-workers/--ray-address are not available for "
                              "the thesis preset")
        res = thesis_train(stack=stack, iterations=iterations, minutes=minutes,
                           out=_out_dir(out, "thesis"), storage=storage, seed=seed,
                           update=update)
        if as_json:
            emit_json(res)
        else:
            typer.echo(f"thesis: {res['iterations']} pairs, {res['games']} games in "
                       f"{res['seconds']:.1f} s, {res['infosets']} information sets; "
                       f"policy {res['policy_path']}")
        return
    if update != "mccfr":
        raise ConfigError("--update is an option of the thesis preset")
    if iterations is None and minutes is None:
        iterations = 100_000
    if iterations is not None:
        check_positive(iterations, "--iterations", allow_zero=True)
    if minutes is not None:
        check_positive(minutes, "--minutes")
    check_positive(threads, "--threads")
    check_positive(ray_workers, "--ray-workers", allow_zero=True)
    check_positive(merge_every, "--merge-every")
    if ray_address and not ray_workers:
        ray_workers = 2
    if ray_workers and threads != 1:
        raise ConfigError(f"--threads {threads} with --ray-workers: choose one")
    if storage not in ("memory", "disk"):
        raise ConfigError(f"--storage must be memory or disk, got {storage!r}")
    if stack is not None:
        check_positive(stack, "--stack")
    folder = _out_dir(out, preset)
    if resume:
        tr = BlueprintTrainer.resume(folder, storage=storage)
    else:
        cfg = get_preset(preset, stack=stack, seed=seed)
        cfg = _with_cards(cfg, cards, buckets, bets)
        if cfg.cards == "pa" and threads != 1:
            raise ConfigError(f"--threads {threads} with --cards pa: the table kernel runs on "
                              "one thread per process (use --threads 1 or --ray-workers)")
        if max_memory_gb is not None:
            check_positive(max_memory_gb, "--max-memory")
            if max_memory_gb > MAX_MEMORY_GIB:
                raise ConfigError(f"--max-memory {max_memory_gb:g} GiB is more than any machine "
                                  f"holds (at most {MAX_MEMORY_GIB:,} GiB)")
            cfg = replace(cfg, max_memory=int(max_memory_gb * (1 << 30)))
        tr = BlueprintTrainer(cfg, storage=storage, folder=folder,
                              cards=_card_tables(cfg, enabled=not as_json))
    if resume and (cards is not None or buckets is not None or bets is not None):
        raise ConfigError("--cards/--buckets/--bets cannot change a run: --resume keeps its "
                          "config")
    budget = iterations if iterations is not None else 1 << 62
    seconds = None if minutes is None else 60.0 * minutes
    eval_every = 100_000 if tr.config.preset == "pushfold" else 0
    start = time.perf_counter()
    last_save = start
    total = None if iterations is None else float(iterations)
    done = 0
    ray_run = None
    if ray_workers:
        from pokerlab.blueprint.distributed import RayTrainer

        ray_run = RayTrainer(tr, workers=ray_workers, merge_every=merge_every,
                             address=ray_address)
    with progress(f"blueprint {tr.config.preset}", enabled=not as_json, total=total,
                  unit="it", fields={"it/s": "-", "MB": "-", "eval": "-"}) as bar:
        while done < budget:
            left = None if seconds is None else seconds - (time.perf_counter() - start)
            if left is not None and left <= 0:
                break
            step = min(budget - done, 100_000)
            before = tr.iterations
            if ray_run is not None:
                t0 = time.perf_counter()
                ray_run.run(step)
                tr.seconds += time.perf_counter() - t0
                if eval_every:
                    tr.evaluate()
            else:
                tr.run(step, chunk=20_000, seconds=left, eval_every=eval_every,
                       threads=threads)
            done += tr.iterations - before
            st = tr.status()
            ev = st["last_eval"].get("exploitability_bb")
            fields: dict[str, Any] = {"it/s": f"{st['iterations_per_s']:.0f}",
                                      "MB": f"{st['bytes'] / 1e6:.1f}",
                                      "eval": "-" if ev is None else f"{ev:.5f} bb"}
            bar(done, None, **fields)
            # the first checkpoint within a minute, then every --checkpoint-minutes
            every = checkpoint_every if last_save > start else min(1.0, checkpoint_every)
            if time.perf_counter() - last_save > 60.0 * every:
                tr.save(folder, policy=False)
                last_save = time.perf_counter()
    if ray_run is not None:
        ray_run.close()
    if tr.config.preset == "pushfold" and (not tr.history
                                           or tr.history[-1]["iterations"] != tr.iterations):
        tr.evaluate()
    paths = tr.save(folder)
    result: dict[str, Any] = {
        "preset": tr.config.preset, "game": tr.config.game_string(),
        "iterations": tr.iterations, "seconds": round(tr.seconds, 3),
        "infosets": tr.infosets, "bytes": tr.table_nbytes,
        "iterations_per_s": tr.iterations / tr.seconds if tr.seconds else 0.0,
        "policy_path": str(paths["policy"]), "checkpoint_path": str(paths["checkpoint"]),
        "cards": tr.config.cards_text(), "nodes": tr.tree.num_nodes,
        "threads": threads, "ray_workers": ray_workers,
    }
    if tr.config.preset == "pushfold":
        from pokerlab.commands._common import exploitability_fields

        e = tr.history[-1]["exploitability_bb"]
        result["exploitability_bb"] = e
        result.update(exploitability_fields(e * tr.config.big_blind, float(tr.config.big_blind)))
    if as_json:
        emit_json(result)
        return
    for k, v in result.items():
        typer.echo(f"{k}: {v}")


def _with_cards(cfg: Any, cards: str | None, buckets: str | None,
                bets: str | None = None) -> Any:
    """``cfg`` with ``--cards`` / ``--buckets`` / ``--bets`` applied (validated by the
    config)."""
    from dataclasses import replace

    if bets is not None:
        if not bets.strip():
            raise ConfigError("--bets is empty; give a bet set such as "
                              "\"preflop: 2.5x, a, cap 3; postflop: 75%, a, cap 3\"")
        cfg = replace(cfg, bets=bets.strip())

    if buckets is not None:
        try:
            counts = tuple(int(x) for x in buckets.replace("-", ",").split(","))
        except ValueError:
            raise ConfigError(f"--buckets {buckets!r}: expected four counts, e.g. "
                              "169,50,50,50") from None
        if len(counts) != 4 or min(counts) < 1:
            raise ConfigError(f"--buckets {buckets!r}: expected four positive counts (preflop, "
                              "flop, turn, river), e.g. 169,50,50,50")
        cfg = replace(cfg, buckets=counts)
    if cards is not None:
        cfg = replace(cfg, cards=cards.strip().lower())
    return cfg


def _card_tables(cfg: Any, *, enabled: bool) -> Any:
    """The potential-aware tables of ``cfg`` (``None`` for hand-strength cards), built
    under a progress bar when they are not cached yet."""
    bcfg = cfg.bucket_config()
    if bcfg is None:
        return None
    from pokerlab.blueprint.trainer import card_tables

    with progress("card abstraction", enabled=enabled, total=4.0, unit="street",
                  fields={"street": "-"}) as bar:
        abs_, _ = card_tables(bcfg, progress=lambda label, k, n: bar(k, None, street=label))
    return abs_


def _policy_file(path: Path) -> Path:
    """A blueprint policy file, or the ``policy.npz`` of a run folder given instead."""
    if not path.is_dir():
        return path
    if (path / "policy.npz").is_file():
        return path / "policy.npz"
    what = "holds a run but no policy.npz yet" if (path / "checkpoint.npz").is_file() \
        else "is a folder with no policy.npz"
    raise ConfigError(f"PATH {str(path)!r} {what} (give a blueprint policy file or a "
                      "finished run folder of blueprint train)")


def _load(path: Path) -> tuple[Any, Any, dict[str, Any]]:
    """(IndexedPolicy, ActionTree, train.json or {}) of a blueprint policy file."""
    from pokerlab.abstraction.action_tree import compile_tree
    from pokerlab.blueprint.config import BlueprintConfig
    from pokerlab.policy.indexed import IndexedPolicy, load_any_policy

    pol = load_any_policy(path)
    if not isinstance(pol, IndexedPolicy) or "config" not in pol.metadata:
        raise ConfigError(f"{str(path)!r} is not a blueprint policy (no trainer config inside)")
    if pol.metadata.get("card_key") == "preflop_class":  # a thesis policy (preset thesis)
        from pokerlab.blueprint.thesis import ThesisConfig, build_tree

        return pol, build_tree(ThesisConfig.from_json(pol.metadata["config"])).tree, {}
    cfg = BlueprintConfig.from_json(pol.metadata["config"])
    tree = compile_tree(cfg.bet_set(), cfg.holdem(), no_limp=cfg.no_limp)
    summary: dict[str, Any] = {}
    # the run's train.json beside policy.npz, or a shipped policy's NAME.json ("summary")
    for side, key in ((Path(path).with_name("train.json"), None),
                      (Path(path).with_suffix(".json"), "summary")):
        if not side.exists():
            continue
        try:
            data = json.loads(side.read_text())
        except (OSError, ValueError):
            continue
        if key is not None:
            data = data.get(key) if isinstance(data, dict) else None
        if isinstance(data, dict):
            summary = data
            break
    return pol, tree, summary


def _resolve_node(tree: Any, node: str) -> int:
    text = node.strip().lower()
    if text in ("root", "sb", ""):
        return 0
    if text.startswith("path:"):
        ids = [int(x) for x in text[5:].split("-") if x]
        return int(tree.node_of(ids))
    try:
        n = int(text)
    except ValueError:
        raise ConfigError(f"--node {node!r}: expected a node id, 'root' or path:A-B-...") from None
    if not 0 <= n < tree.num_nodes:
        raise ConfigError(f"--node {n} out of range 0..{tree.num_nodes - 1}")
    return n


@app.command("info")
def info(path: Path = typer.Argument(..., help="policy.npz of a blueprint run (or its "
                                     "run folder)."),
         as_json: bool = json_option()) -> None:
    """Config, iterations, information sets, memory and evaluation history of a policy."""
    from pokerlab.abstraction.action_tree import DECISION

    path = _policy_file(path)
    pol, tree, summary = _load(path)
    pre = [int(n) for n in range(tree.num_nodes)
           if tree.kind[n] == DECISION and tree.street[n] == 0][:12]
    conf = pol.metadata.get("config")
    # a thesis policy keeps its preset in its trainer config and its cards as a card key
    preset = pol.metadata.get("preset") or (conf.get("preset") if isinstance(conf, dict)
                                            else None)
    cards = pol.metadata.get("buckets") or pol.metadata.get("card_key")
    res: dict[str, Any] = {"path": str(path), "game": pol.metadata.get("game"),
           "preset": preset, "config": conf,
           "cards": cards, "iterations": pol.metadata.get("iterations"),
           "infosets": len(pol), "nodes": tree.num_nodes,
           "decision_nodes": tree.num_decision_nodes, "policy_bytes": pol.nbytes,
           "file_bytes": Path(path).stat().st_size, "train_bytes": summary.get("bytes"),
           "seconds": summary.get("seconds"), "history": summary.get("history", []),
           "preflop_nodes": [{"node": n, "path": tree.path(n), "actor": int(tree.actor[n]),
                              "actions": tree.actions(n)} for n in pre]}
    if as_json:
        emit_json(res)
        return
    for k, v in res.items():
        if k != "config":
            typer.echo(f"{k}: {v}")


@app.command("strategy")
def strategy(path: Path = typer.Argument(..., help="policy.npz of a blueprint run (or "
                                         "its run folder)."),
             node: str = typer.Option("root", "--node",
                                      help="Preflop node: id, 'root' or path:A-B (action ids)."),
             png: Path | None = png_option("Write the 13x13 grids (one per action) here."),
             force: bool = force_option(),
             as_json: bool = json_option()) -> None:
    """Action frequencies of a preflop node per starting-hand class (13x13 grid)."""
    import numpy as np

    from pokerlab.abstraction.action_map import ActionMap
    from pokerlab.abstraction.action_tree import DECISION
    from pokerlab.cards.cards import CLASS_NAMES, CLASS_OF_COMBO, CLASS_SIZES
    from pokerlab.holdem.engine import HoldemState

    if png is not None:
        check_image_path(png)
    pol, tree, _ = _load(_policy_file(path))
    n = _resolve_node(tree, node)
    if tree.kind[n] != DECISION or tree.street[n] != 0:
        raise ConfigError(f"--node {node!r} (node {n}) is not a preflop decision node")
    if int(pol.num_buckets[n]) != 169:
        raise ConfigError(f"node {n} has {int(pol.num_buckets[n])} buckets, not the 169 classes")
    acts = [int(a) for a in pol.actions(n)]
    probs = np.array([pol.probabilities(n, c) for c in range(169)])  # (169, k)
    # name the actions at the node's engine state
    st = HoldemState(config=tree.config)
    st.deal_hole(None)
    st.deal_hole(None)
    amap = ActionMap(tree.bets)
    names = []
    for a in tree.path(n):
        chips = dict(amap.raise_options(st))
        if a == 0:
            st.fold()
        elif a == 1:
            st.check_or_call()
        else:
            st.raise_to(chips[a])
    for a in acts:
        names.append(amap.action_name(st, a))
    w = CLASS_SIZES.astype(np.float64)
    freq = {names[i]: float((probs[:, i] * w).sum() / w.sum()) for i in range(len(acts))}
    res: dict[str, Any] = {"node": n, "path": tree.path(n), "actor": int(tree.actor[n]),
                           "actions": names, "frequency": freq,
                           "grid": {CLASS_NAMES[c]: [round(float(x), 4) for x in probs[c]]
                                    for c in range(169)}}
    if png is not None:
        from pokerlab.cards.ranges import plot_range_grids

        cls = np.asarray(CLASS_OF_COMBO, dtype=np.int64)
        cmaps = ["Greys", "Blues", "Reds", "Oranges", "Purples", "Greens"]
        panels = [(probs[cls, i], f"{names[i]} {freq[names[i]]:.1%}", cmaps[i % len(cmaps)])
                  for i in range(len(acts))]
        plot_range_grids(panels, png, ncols=min(3, len(panels)),
                         suptitle=f"node {n} ({'SB' if tree.actor[n] == 1 else 'BB'} to act)")
        res["png"] = str(png)
    if as_json:
        emit_json(res)
        return
    typer.echo(f"node {n}, path {tree.path(n)}, player {int(tree.actor[n])} to act")
    for name, f in freq.items():
        typer.echo(f"  {name}: {f:.1%}")
    for r in range(13):
        row = []
        for c in range(13):
            k = r * 13 + c
            row.append(f"{CLASS_NAMES[k]:>4} " + "/".join(f"{x:.2f}" for x in probs[k]))
        typer.echo("  ".join(row))


#: the longest ``bench mccfr --seconds`` (per run; two runs per call)
MAX_BENCH_SECONDS = 3600.0
#: the largest ``blueprint train --max-memory`` in GiB (1 PiB)
MAX_MEMORY_GIB = 1 << 20


def bench_mccfr(
    seconds: float = typer.Option(10.0, "--seconds", help="Wall-clock budget per run."),
    pushfold_iterations: int = typer.Option(1_000_000, "--pushfold-iterations",
                                            help="Budget of the discounting comparison."),
    as_json: bool = json_option(),
) -> None:
    """ES-MCCFR on 200 bb HUNL with fcpa betting: pokerlab vs OpenSpiel (same run)."""
    from pokerlab.blueprint.bench import run_benchmark

    check_positive(seconds, "--seconds")
    if seconds > MAX_BENCH_SECONDS:
        raise ConfigError(f"--seconds {seconds:g} is too long a benchmark: at most "
                          f"{MAX_BENCH_SECONDS:g} seconds per run")
    check_positive(pushfold_iterations, "--pushfold-iterations")
    res = run_benchmark(seconds=seconds, pushfold_iterations=pushfold_iterations)
    if as_json:
        emit_json(res)
        return
    for k, v in res.items():
        typer.echo(f"{k:>36}: {v:,.4g}" if isinstance(v, float) else f"{k:>36}: {v}")


def _register_bench() -> None:
    """``pokerlab bench mccfr`` joins the one ``bench`` group (defined in cards_cmd)."""
    from pokerlab.commands._common import friendly
    from pokerlab.commands.cards_cmd import bench_app

    if not any(c.name == "mccfr" for c in bench_app.registered_commands):
        bench_app.command("mccfr")(friendly(bench_mccfr))


_register_bench()


@app.command("charts")
def charts_cmd(stack: float = typer.Option(100.0, "--stack", help="The shipped blueprint of this stack "
                                           "(big blinds: 100 or 200)."),
               depth: int = typer.Option(4, "--depth", help="Preflop actions deep (open, 3-bet, 4-bet, "
                                         "5-bet/all-in)."),
               line: str | None = typer.Option(None, "--line", help="Only this line's chart and flop "
                                               "ranges, e.g. 'SB raise 2.5bb' (default: all)."),
               png: Path | None = png_option("The 13x13 grids of --line (default: the small blind's "
                                             "first decision), one per action."),
               force: bool = force_option(),
               as_json: bool = json_option()) -> None:
    """The shipped blueprint's preflop strategy as 13x13 charts per line, and the ranges
    each line hands to the flop (usable as --oop/--ip of 'pokerlab spot solve')."""
    _charts(stack, depth, line, png, as_json)


def _charts(stack: float, depth: int, line: str | None, png: Path | None, as_json: bool) -> None:
    from pokerlab.blueprint.charts import charts_json, plot_charts, preflop_charts

    if png is not None:
        check_image_path(png)
    ch = preflop_charts(stack, depth=depth)
    obj = charts_json(ch)
    if line is not None:
        obj["charts"] = [c for c in obj["charts"] if c["line"] == line]
        obj["flop_lines"] = [f for f in obj["flop_lines"] if f["line"].startswith(line)]
        if not obj["charts"] and not obj["flop_lines"]:
            known = "; ".join(c["line"] for c in charts_json(ch, grids=False)["charts"][:8])
            raise ConfigError(f"--line {line!r} is not a preflop line of the blueprint (lines such as: "
                              f"{known}, ...)")
    if png is not None:
        plot_charts(ch, png, line=line)
    if as_json:
        emit_json(obj)
        return
    from pokerlab.cards.cards import CLASS_NAMES

    for c in obj["charts"]:
        typer.echo(f"{c['line']}: {c['player']} to act (pot {c['pot_bb']:g} bb): "
                   + ", ".join(f"{a} {f * 100:.1f}%" for a, f in c["frequencies"].items()))
        if line is not None:
            for a, g in c["grid"].items():
                typer.echo(f"  {a}:")
                for r in range(13):
                    names = CLASS_NAMES[r * 13:r * 13 + 13]
                    typer.echo("    " + " ".join(f"{n:>3} {g[n] * 100:3.0f}" for n in names))
    for f in obj["flop_lines"]:
        typer.echo(f"to the flop: {f['line']} (pot {f['pot_bb']:g} bb; oop {f['oop_combos']:.1f} combos, "
                   f"ip {f['ip_combos']:.1f})")
        typer.echo(f"  {f['spot_args']}")
