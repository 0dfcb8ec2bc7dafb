"""``pokerlab spot solve|tree|show``: the range-vs-range postflop spot solver."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import (
    check_image_path,
    check_output_path,
    emit_json,
    force_option,
    json_option,
    png_option,
    progress,
)
from pokerlab.commands.option_groups import option_group, with_option_groups
from pokerlab.commands.spot_options import (
    BOARD,
    COMPRESS,
    MAX_MEM,
    NO_ISO,
    TREE_OPTIONS,
    check_memory,
    parse_check_every,
    solver_settings,
    spot_template,
)
from pokerlab.commands.spot_report_cmd import report_cmd

app = typer.Typer(help="Range-vs-range postflop spot solver (board, pot, stack, two ranges, bet sizes).",
                  no_args_is_help=True)
GROUPS = [("spot", app, "Range-vs-range postflop spot solver.")]


def _located(board: str | None, template: dict[str, Any]) -> list[tuple[str, Any]]:
    """(flag, value) of the options that place a spot: board, pot, stack and ranges."""
    return [("--board", board), *((f"--{k}", template[k]) for k in ("pot", "stack", "oop", "ip"))]


def _spot(board: str | None, template: dict[str, Any]) -> Any:
    """The spot of ``--board`` and the :func:`spot_template` options."""
    from pokerlab.subgame import SpotError, make_spot, tree_config

    missing = [n for n, v in _located(board, template) if v is None]
    if missing:
        raise SpotError(f"a spot needs {', '.join(missing)}")
    tree = tree_config(**{k: template[k] for k in TREE_OPTIONS})
    assert board is not None
    return make_spot(board=board, pot=template["pot"], stack=template["stack"],
                     oop=_range_arg(template["oop"], "oop"), ip=_range_arg(template["ip"], "ip"),
                     tree=tree, rake=template["rake"], rake_cap=template["rake_cap"],
                     big_blind=template["big_blind"])


def _cell(value: float | None, spec: str, *, percent: bool = False) -> str:
    """A table cell: ``value`` in the format ``spec`` (``"8.2f"``; with ``percent``, times 100
    and a ``%``), ``-`` for none (no hands reach it)."""
    if value is None:
        return "-"
    return f"{value * 100:{spec}}%" if percent else f"{value:{spec}}"


def _range_arg(text: str, who: str) -> Any:
    """A range given as text, or ``@FILE``: a range file (weighted text, or JSON as ``spot
    ranges --out`` writes; pokerlab.cards.ranges.load_range)."""
    if not text.startswith("@"):
        return text
    from pokerlab.cards.ranges import load_range

    return load_range(Path(text[1:]), player=who)


@app.command("tree")
@with_option_groups
def tree_cmd(board: str | None = BOARD, template: dict[str, Any] = option_group(spot_template),
             max_memory: float = MAX_MEM, no_isomorphism: bool = NO_ISO, compress: bool = COMPRESS,
             as_json: bool = json_option()) -> None:
    """Node count and memory estimate of a spot, without solving."""
    from pokerlab.subgame import estimate_size
    from pokerlab.subgame.tree import build_betting_tree

    check_memory(max_memory)
    spot = _spot(board, template)
    tree = build_betting_tree(spot)
    size = estimate_size(spot, isomorphism=not no_isomorphism, tree=tree, compress=compress)
    full = (estimate_size(spot, isomorphism=False, tree=tree, compress=compress) if not no_isomorphism
            else size)
    obj = {"board": spot.board_str(), "pot": spot.pot, "stack": spot.stack, **size.to_json(),
           "memory_bytes_without_isomorphism": full.memory_bytes,
           "nodes_without_isomorphism": full.nodes, "fits": size.memory_bytes <= max_memory,
           "max_memory": max_memory, "compress": compress, "root_actions": list(tree.action_names[0]),
           "hands": [int((spot.ranges[0] > 0).sum()), int((spot.ranges[1] > 0).sum())],
           "units": "chips; memory in bytes"}
    if as_json:
        emit_json(obj)
        return
    typer.echo(f"spot {spot.board_str()}  pot {spot.pot}  stack {spot.stack}  hands {obj['hands'][0]} vs "
               f"{obj['hands'][1]}")
    typer.echo(f"betting nodes {size.betting_nodes:,} (decisions {size.decision_nodes:,}); over every board "
               f"{size.nodes:,} nodes (without isomorphism {full.nodes:,})")
    typer.echo(f"memory about {size.memory_bytes / 1e6:,.1f} MB (without isomorphism "
               f"{full.memory_bytes / 1e6:,.1f} MB); --max-memory {max_memory / 1e6:,.0f} MB: "
               + ("fits" if obj["fits"] else "too large"))
    typer.echo("root actions: " + ", ".join(obj["root_actions"]))


@app.command("solve")
@with_option_groups
def solve_cmd(board: str | None = BOARD, template: dict[str, Any] = option_group(spot_template),
              settings: dict[str, Any] = option_group(solver_settings),
              threads: int | None = typer.Option(None, "--threads", help="Threads (default: all cores)."),
              out: Path | None = typer.Option(None, "--out", help="Save the solved spot (.npz; refuses to "
                                              "replace a file: use --resume to continue one)."),
              resume: Path | None = typer.Option(None, "--resume", help="Continue the solve saved in this "
                                                 "file (written back to it unless --out is given)."),
              checkpoint_minutes: float = typer.Option(
                  5.0, "--checkpoint-minutes", help="With --out (or --resume): save the solve "
                  "there this often while it runs, so a killed solve continues with --resume."),
              png: Path | None = png_option("Exploitability against CPU time (.png or .svg)."),
              force: bool = force_option("Replace an existing --out file (without --force it is "
                                         "refused; --resume FILE continues FILE in place)."),
              as_json: bool = json_option()) -> None:
    """Solve a spot to --target % of the pot; print EVs, equity and the root strategy."""
    from pokerlab.errors import ConfigError
    from pokerlab.subgame import SolveConfig, SpotSolver

    target, iterations, algo, max_memory = (settings[k] for k in ("target", "iterations", "algo",
                                                                  "max_memory"))
    check_memory(max_memory)
    check_every = parse_check_every(settings["check_every"], 10)
    config = SolveConfig(algo=algo, isomorphism=not settings["no_isomorphism"],
                         compress=settings["compress"], precision=settings["precision"])
    if iterations < 0:
        raise ConfigError(f"--iterations must be >= 0, got {iterations}")
    if not (math.isfinite(checkpoint_minutes) and checkpoint_minutes > 0):
        raise ConfigError(f"--checkpoint-minutes must be positive, got {checkpoint_minutes!r}")
    if not (math.isfinite(target) and target >= 0):
        raise ConfigError(f"--target must be a percentage of the pot >= 0, got {target!r}")
    if threads is not None and threads < 1:
        raise ConfigError(f"--threads must be >= 1, got {threads}")
    if out is not None:
        check_output_path(out, option="--out", suffixes=(".npz",))
        if out.exists() and not force and (resume is None or out.resolve() != resume.resolve()):
            raise ConfigError(f"--out {str(out)!r} already exists: pass --resume {out} to continue it, or "
                              "choose another file")
    if png is not None:
        check_image_path(png)
    wall0 = time.perf_counter()
    cpu0 = time.process_time()
    if resume is not None:
        given = [n for n, v in _located(board, template) if v is not None]
        if given:
            raise ConfigError(f"--resume continues the saved spot: drop {', '.join(given)}")
        solver = SpotSolver.load(resume, threads=threads)
        out = out if out is not None else resume
        check_output_path(out, option="--out", suffixes=(".npz",))
        if max_memory < solver.size.memory_bytes:
            raise ConfigError(f"the saved spot needs {solver.size.memory_bytes / 1e6:,.1f} MB, "
                              "over --max-memory")
    else:
        spot = _spot(board, template)
        solver = SpotSolver(spot, config, max_memory=max_memory, threads=threads)
    spot = solver.spot
    every = checkpoint_minutes * 60.0
    last_save = time.perf_counter()
    checkpoints = 0
    with progress(f"spot {spot.board_str()}", enabled=not as_json, total=iterations, unit="it",
                  fields={"expl": "-"}) as bar:
        def cb(it: int, pct: float | None) -> None:
            nonlocal last_save, checkpoints
            if pct is None:
                bar(it)
            else:
                bar(it, expl=f"{pct:.3f}%")
            if out is not None and it < iterations and time.perf_counter() - last_save >= every:
                solver.save(out)  # a checkpoint: the whole solve, with its iteration count
                checkpoints += 1
                last_save = time.perf_counter()

        # --target 0 is no target: measured as usual, never stopped early by it
        pct = solver.solve(iterations=iterations, target_pct=target if target > 0 else -math.inf,
                           check_every=check_every, callback=cb)
    chips = pct * spot.pot / 100.0
    ev = solver.values()
    eq = solver.equity()
    if out is not None:
        solver.save(out)
    if png is not None:
        from pokerlab.subgame.report import plot_convergence
        plot_convergence([(f"{spot.board_str()} {solver.config.algo}", solver.history)], png,
                         title=f"{spot.board_str()} pot {spot.pot} stack {spot.stack}")
    bb = spot.big_blind
    obj = {"board": spot.board_str(), "pot": spot.pot, "stack": spot.stack, "big_blind": bb,
           "algo": solver.config.algo, "compress": solver.config.compress,
           "precision": solver.config.precision, "iterations": solver.iteration,
           "target_pct": target,
           "target_reached": target > 0 and pct <= target, "exploitability": chips, "exploitability_pct": pct,
           "exploitability_mbb": 1000.0 * chips / bb, "ev_oop": ev[0], "ev_ip": ev[1],
           "ev_oop_bb": ev[0] / bb, "ev_ip_bb": ev[1] / bb, "equity_oop": eq,
           "root_actions": solver.root_actions(), "nodes": solver.size.nodes,
           "memory_bytes": solver.size.memory_bytes, "seconds": time.perf_counter() - wall0,
           "cpu_seconds": time.process_time() - cpu0, "solve_cpu_seconds": solver.cpu_seconds,
           "solve_seconds": solver.wall_seconds,
           "threads": threads, "out": None if out is None else os.fspath(out),
           "checkpoints": checkpoints,
           "units": "chips (ev counts each player's share of the pot; ev_oop + ev_ip = pot without rake); "
                    "exploitability_pct in % of the starting pot; memory in bytes; seconds / cpu_seconds: "
                    "the command after start-up, solve_seconds / solve_cpu_seconds: the iterations and "
                    "exploitability checks only"}
    if as_json:
        emit_json(obj)
        return
    typer.echo(f"{spot.board_str()}  pot {spot.pot}  stack {spot.stack}  {solver.config.algo}  "
               f"{solver.iteration} iterations  {obj['seconds']:.2f} s")
    typer.echo(f"exploitability {chips:.4f} chips = {pct:.3f}% of pot"
               + ("" if obj["target_reached"] or not target else f" (target {target}% not reached)"))
    typer.echo(f"EV oop {ev[0]:.3f}  ip {ev[1]:.3f} chips   equity oop {eq * 100:.2f}%")
    root = solver.root_actions()
    typer.echo("root (oop): " + ", ".join(f"{a} {f * 100:.1f}%" for a, f in root.items()))
    if out is not None:
        typer.echo(f"saved to {out}")


@app.command("show")
def show_cmd(file: Path = typer.Argument(..., help="A spot saved by 'pokerlab spot solve --out'."),
             node: str = typer.Option("", "--node", help="Path of actions and dealt cards, e.g. "
                                      "'check,bet 75,call,Qc' (default: the root)."),
             who: str | None = typer.Option(None, "--player", help="oop or ip: whose hands to list "
                                            "(default: the player to act)."),
             png: Path | None = png_option("The 13x13 grid coloured by action mix (.png or .svg); with "
                                           "--classes, both players' equity distribution curves."),
             force: bool = force_option(),
             classes: bool = typer.Option(False, "--classes", help="Both ranges by hand class on the "
                                          "node's board (combos, share, action mix, EV, equity, EQR) and "
                                          "the range-versus-range comparison."),
             as_json: bool = json_option()) -> None:
    """At a node of a solved spot: the 13x13 grid of action frequencies and per-combo
    strategy, EV and equity (--classes: by hand class)."""
    from pokerlab.errors import ConfigError
    from pokerlab.subgame import SpotSolver
    from pokerlab.subgame.report import combo_rows, grid_text, plot_strategy_grid

    if who is not None and who not in ("oop", "ip"):
        raise ConfigError(f"--player must be oop or ip, got {who!r}")
    if png is not None:
        check_image_path(png)
    if classes:
        _show_classes(file, node, who, png, as_json)
        return
    solver = SpotSolver.load(file)
    view = solver.cursor(node)
    rep = solver.node_report(view)
    side = who or rep.get("player") or "oop"
    rows = combo_rows(rep, side)
    if png is not None:
        if rep["kind"] != "decision":
            raise ConfigError(f"--png draws a decision's strategy; the node is a {rep['kind']} node")
        plot_strategy_grid(rep, png)
    if as_json:
        obj: dict[str, Any] = {k: rep[k] for k in ("path", "board", "street", "pot", "kind")}
        obj.update({"iterations": solver.iteration, "player": rep.get("player"),
                    "actions": rep.get("actions"), "frequencies": rep.get("frequencies"),
                    "cards": rep.get("cards"), "hands_of": side, "hands": rows,
                    "range_ev": rep[side]["range_ev"], "range_equity": rep[side]["range_equity"],
                    "units": "chips (ev with the pot share), equity as a fraction"})
        emit_json(obj)
        return
    typer.echo(f"{rep['board']}  {' / '.join(rep['path']) or 'root'}  pot {rep['pot']:g}  ({rep['kind']})")
    if rep["kind"] == "decision":
        typer.echo(f"{rep['player']} to act: " + ", ".join(f"{a} {f * 100:.1f}%"
                                                          for a, f in rep["frequencies"].items()))
        typer.echo(grid_text(rep))
    elif rep["kind"] == "chance":
        typer.echo("deal one of: " + " ".join(rep["cards"]))
    typer.echo(f"{side}: range EV {rep[side]['range_ev']:.3f} chips, "
               f"equity {rep[side]['range_equity'] * 100:.2f}%"
               if rep[side]["range_ev"] is not None else f"{side}: no hands reach this node")
    for r in rows[:400]:
        strat = "  ".join(f"{a} {p * 100:5.1f}%" for a, p in r.get("strategy", {}).items())
        ev = _cell(r["ev"], "8.2f")
        eq = _cell(r["equity"], "5.1f", percent=True)
        typer.echo(f"{r['combo']}  reach {r['reach']:.3f}  ev {ev}  eq {eq}  {strat}")


# ----------------------------------------------- the study tool: classes, runouts, export


def _show_classes(file: Path, node: str, who: str | None, png: Path | None, as_json: bool) -> None:
    """``spot show --classes``: both ranges at the node by hand class (pokerlab.subgame.classes)."""
    from pokerlab.subgame import SpotSolver
    from pokerlab.subgame.classes import node_classes, plot_equity_curves

    solver = SpotSolver.load(file)
    view = solver.cursor(node)
    res = node_classes(solver, view)
    if who is not None:
        res["classes"] = [r for r in res["classes"] if r["player"] == who]
        res["draws"] = [r for r in res["draws"] if r["player"] == who]
    if png is not None:
        where = " / ".join(res["path"]) or "root"
        plot_equity_curves(res["comparison"], png, title=f"{res['board']} {where}: equity distributions")
    if as_json:
        emit_json({**res, "iterations": solver.iteration,
                   "units": "combos: weighted combos of the range at the node; share of the player's "
                            "range; ev in chips (with the share of the starting pot); equity as a "
                            "fraction; eqr = (ev + chips put in since the spot began) / (equity x pot)"})
        return
    typer.echo(f"{res['board']}  {' / '.join(res['path']) or 'root'}  pot {res['pot']:g}  ({res['kind']}"
               + (f", {res['player']} to act)" if res.get("player") else ")"))
    for title, rows in (("classes", res["classes"]), ("draws (overlapping the classes)", res["draws"])):
        typer.echo(f"-- {title}")
        for r in rows:
            ev = _cell(r["ev"], "8.2f")
            eq = _cell(r["equity"], "5.1f", percent=True)
            eqr = _cell(r["eqr"], "5.2f")
            mix = "  ".join(f"{a} {f * 100:.0f}%" for a, f in r["actions"].items())
            typer.echo(f"{r['player']:>3} {r['name']:<21} {r['combos']:7.1f} {r['share'] * 100:5.1f}%  "
                       f"ev {ev}  eq {eq}  eqr {eqr}  {mix}")
    cmp = res["comparison"]
    for w in ("oop", "ip"):
        if cmp["range_equity"][w] is not None:
            typer.echo(f"{w}: equity {cmp['range_equity'][w] * 100:.1f}%, nut share (equity >= "
                       f"{cmp['nut_equity'] * 100:.0f}%) {cmp['nut_share'][w] * 100:.1f}%")
    if cmp["nut_advantage"] is not None:
        typer.echo(f"nut advantage (oop - ip): {cmp['nut_advantage'] * 100:+.1f} points")


@app.command("runouts")
def runouts_cmd(file: Path = typer.Argument(..., help="A spot saved by 'pokerlab spot solve --out'."),
                node: str = typer.Option(..., "--node", help="Path to a chance node, e.g. 'check,check' or "
                                         "'bet 75,call'."),
                png: Path | None = png_option("Per card: EVs, equity and the next decision's action mix "
                                              "(.png or .svg)."),
                force: bool = force_option(),
                as_json: bool = json_option()) -> None:
    """At a chance node: per turn (or river) card, both players' EV and equity and the next
    decision's action mix (suit-isomorphic cards grouped, with their weights)."""
    from pokerlab.subgame import SpotSolver
    from pokerlab.subgame.runouts import plot_runouts, runout_report

    if png is not None:
        check_image_path(png)
    solver = SpotSolver.load(file)
    rep = runout_report(solver, solver.cursor(node))
    if png is not None:
        plot_runouts(rep, png)
    if as_json:
        emit_json({**rep, "iterations": solver.iteration,
                   "units": "weight: probability of the card (group) given both ranges at the node; ev in "
                            "chips (with the share of the starting pot); equity as a fraction"})
        return
    typer.echo(f"{rep['board']}  {' / '.join(rep['path'])}  pot {rep['pot']:g}: {rep['next_street']} cards")
    typer.echo(f"node: ev oop {rep['ev_oop']:.3f}  ip {rep['ev_ip']:.3f}  equity oop "
               f"{rep['equity_oop'] * 100:.2f}%")
    for r in rep["cards"]:
        ev0 = _cell(r["ev_oop"], "8.3f")
        ev1 = _cell(r["ev_ip"], "8.3f")
        eq = _cell(r["equity_oop"], "5.1f", percent=True)
        mix = "  ".join(f"{a} {f * 100:.0f}%" for a, f in r["actions"].items())
        typer.echo(f"{' '.join(r['cards']):<12} w {r['weight'] * 100:5.2f}%  ev oop {ev0}  ip {ev1}  "
                   f"eq oop {eq}  {r['player'] or ''} {mix}")


def _decision_paths(solver: Any) -> list[str]:
    """The paths of the starting street's decision nodes (no card dealt), root first."""
    from pokerlab.subgame.tree import DECISION

    tr = solver.tree
    out: list[str] = []
    stack: list[tuple[int, tuple[str, ...]]] = [(0, ())]
    while stack:
        nd, path = stack.pop()
        if int(tr.kind[nd]) != DECISION:
            continue
        out.append(",".join(path))
        names = tr.action_names[nd]
        for a in range(int(tr.num_children[nd]) - 1, -1, -1):
            stack.append((int(tr.child(nd, a)), (*path, names[a])))
    return out


@app.command("export")
def export_cmd(file: Path = typer.Argument(..., help="A spot saved by 'pokerlab spot solve --out'."),
               node: list[str] | None = typer.Option(None, "--node", help="A node to export (repeat for "
                                                      "several; default: every decision node of the "
                                                      "starting street)."),
               out: Path = typer.Option(..., "--out", help="The CSV file to write."),
               force: bool = force_option(),
               as_json: bool = json_option()) -> None:
    """Per node and per combo of both players: hand class, reach, EV, equity and the acting
    player's strategy, as CSV (one column per action)."""
    import csv
    import io as _io

    from pokerlab.io import atomic_write_text
    from pokerlab.subgame import SpotSolver
    from pokerlab.subgame.classes import combo_class_rows

    check_output_path(out, option="--out", suffixes=(".csv",))
    solver = SpotSolver.load(file)
    paths = list(node) if node else _decision_paths(solver)
    actions: list[str] = []
    blocks = []
    for path in paths:
        view = solver.cursor(path)
        rep = solver.node_report(view)
        for a in rep.get("actions") or []:
            if a not in actions:
                actions.append(a)
        blocks.append((rep, [r for who in ("oop", "ip")
                             for r in combo_class_rows(rep, who, board=view.board)]))
    fixed = ["node", "street", "board", "pot", "kind", "player", "combo", "class", "reach", "ev", "equity"]
    buf = _io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(fixed + actions)
    count = 0
    for rep, rows in blocks:
        for r in rows:
            strat = r.get("strategy", {})
            w.writerow([",".join(rep["path"]), rep["street"], rep["board"], repr(rep["pot"]), rep["kind"],
                        r["player"], r["combo"], r["class"] or "", repr(r["reach"]),
                        "" if r["ev"] is None else repr(r["ev"]),
                        "" if r["equity"] is None else repr(r["equity"])]
                       + [repr(strat[a]) if a in strat else "" for a in actions])
            count += 1
    atomic_write_text(out, buf.getvalue())
    if as_json:
        emit_json({"out": os.fspath(out), "nodes": len(paths), "rows": count, "actions": actions,
                   "columns": fixed + actions})
        return
    typer.echo(f"wrote {count:,} rows ({len(paths)} nodes) to {out}")


@app.command("ranges")
def ranges_cmd(file: Path = typer.Argument(..., help="A spot saved by 'pokerlab spot solve --out'."),
               node: str = typer.Option("", "--node", help="Path of actions and dealt cards (default: the "
                                        "root: the spot's ranges)."),
               who: str | None = typer.Option(None, "--player", help="oop or ip (default: both)."),
               out: Path | None = typer.Option(None, "--out", help="Write the range(s): .json (both or "
                                               "one player), or text in the weighted notation "
                                               "(AhKh:0.5,QQ,...; needs --player)."),
               force: bool = force_option(),
               as_json: bool = json_option()) -> None:
    """Both players' ranges at a node (their reach: the starting weights times the
    strategy along the path), in the weighted text notation of the commercial solvers."""
    import json

    import numpy as np

    from pokerlab.cards.ranges import range_to_json, range_to_weighted_text, save_range
    from pokerlab.errors import ConfigError
    from pokerlab.io import atomic_write_text
    from pokerlab.subgame import SpotSolver

    if who is not None and who not in ("oop", "ip"):
        raise ConfigError(f"--player must be oop or ip, got {who!r}")
    if out is not None:
        check_output_path(out, option="--out")
        if out.suffix.lower() != ".json" and who is None:
            raise ConfigError("--out as text holds one range: pass --player oop or --player ip (or write "
                              ".json for both)")
    solver = SpotSolver.load(file)
    view = solver.cursor(node)
    rep = solver.node_report(view)
    players = [who] if who is not None else ["oop", "ip"]
    weights = {p: np.clip(np.asarray(rep[p]["reach"], dtype=np.float64), 0.0, 1.0) for p in players}
    if out is not None:
        if out.suffix.lower() == ".json":
            body = {"board": rep["board"], "path": rep["path"],
                    **{p: range_to_json(weights[p]) for p in players}}
            atomic_write_text(out, json.dumps(body, indent=1) + "\n")
        else:
            save_range(out, weights[players[0]])
    if as_json:
        emit_json({"board": rep["board"], "path": rep["path"], "out": None if out is None else os.fspath(out),
                   **{p: {"range": range_to_weighted_text(weights[p]), "combos": float(weights[p].sum())}
                      for p in players}})
        return
    for p in players:
        typer.echo(f"{p} ({weights[p].sum():.1f} combos): {range_to_weighted_text(weights[p])}")
    if out is not None:
        typer.echo(f"saved to {out}")


app.command("report")(report_cmd)
