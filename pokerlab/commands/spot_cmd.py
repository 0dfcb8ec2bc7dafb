"""``pokerlab spot solve|tree|show``: the range-vs-range postflop spot solver."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import (
    algo_option,
    check_image_path,
    check_output_path,
    emit_json,
    json_option,
    png_option,
    progress,
)

app = typer.Typer(help="Range-vs-range postflop spot solver (board, pot, stack, two ranges, bet sizes).",
                  no_args_is_help=True)
GROUPS = [("spot", app, "Range-vs-range postflop spot solver.")]


def _opt(default: Any, name: str, help: str) -> Any:
    return typer.Option(default, name, help=help)


BOARD = _opt(None, "--board", "Board of 3, 4 or 5 cards, e.g. Td9d6h.")
POT = _opt(None, "--pot", "Chips in the pot at the start of the spot.")
STACK = _opt(None, "--stack", "Effective stack behind, in chips.")
OOP = _opt(None, "--oop", "Out-of-position range, e.g. '66+,AJo+,KQs' (weights as AKo:0.5).")
IP = _opt(None, "--ip", "In-position range.")
BETS = _opt("75%", "--bets", "Bet sizes on every street (% of pot, a = all-in), e.g. '33%,75%'.")
RAISES = _opt("2.5x", "--raises", "Raise sizes: multiples of the bet faced (2.5x), % of pot, a, or none.")
FLOP_BETS = _opt(None, "--flop-bets", "Flop bet sizes (default: --bets).")
TURN_BETS = _opt(None, "--turn-bets", "Turn bet sizes (default: --bets).")
RIVER_BETS = _opt(None, "--river-bets", "River bet sizes (default: --bets).")
OOP_BETS = _opt(None, "--oop-bets", "Out of position's bet sizes (default: --bets; 'none': never bets).")
IP_BETS = _opt(None, "--ip-bets", "In position's bet sizes (default: --bets).")
DONK = _opt(None, "--donk", "Donk-bet sizes on turn and river (default: the ordinary bet sizes).")
ALLIN = _opt(1.5, "--allin-threshold", "Also offer all-in when it is at most X pots.")
FORCE = _opt(0.15, "--force-allin", "A bet becomes all-in when the stack-to-pot ratio after a call is <= Y.")
MERGE = _opt(0.1, "--merge", "Merge sizes whose pot ratios are closer than this (0: never).")
CAP = _opt(0, "--raise-cap", "Most bets + raises per street (0: no cap).")
RAKE = _opt(0.0, "--rake", "Rake as a fraction of the final pot (e.g. 0.05).")
RAKE_CAP = _opt(0.0, "--rake-cap", "Rake cap in chips (0: no cap).")
BB = _opt(1.0, "--big-blind", "Chips per big blind (for figures in bb).")
MAX_MEM = _opt(8e9, "--max-memory", "Refuse a spot whose memory estimate (bytes) is larger.")
NO_ISO = _opt(False, "--no-isomorphism", "Solve every turn/river card (no suit isomorphism).")
COMPRESS = _opt(False, "--compress", "Store regrets and strategy sums in 16 bits (about half the memory).")
PRECISION = _opt("single", "--precision", "Reach and value vectors in single (float32, faster) or double "
                 "(float64) precision.")


def _spot(board: str | None, pot: float | None, stack: float | None, oop: str | None, ip: str | None,
          bets: str, raises: str, flop_bets: str | None, turn_bets: str | None, river_bets: str | None,
          oop_bets: str | None, ip_bets: str | None, donk: str | None, allin_threshold: float,
          force_allin: float, merge: float, raise_cap: int, rake: float, rake_cap: float,
          big_blind: float) -> Any:
    from pokerlab.subgame import SpotError, make_spot, tree_config

    missing = [n for n, v in (("--board", board), ("--pot", pot), ("--stack", stack), ("--oop", oop),
                              ("--ip", ip)) if v is None]
    if missing:
        raise SpotError(f"a spot needs {', '.join(missing)}")
    tree = tree_config(bets=bets, raises=raises, flop_bets=flop_bets, turn_bets=turn_bets,
                       river_bets=river_bets, oop_bets=oop_bets, ip_bets=ip_bets, donk=donk,
                       allin_threshold=allin_threshold, force_allin=force_allin, merge=merge,
                       raise_cap=raise_cap)
    assert board is not None and pot is not None and stack is not None and oop is not None and ip is not None
    return make_spot(board=board, pot=pot, stack=stack, oop=oop, ip=ip, tree=tree, rake=rake,
                     rake_cap=rake_cap, big_blind=big_blind)


def _check_memory(max_memory: float) -> None:
    from pokerlab.errors import ConfigError

    if not (math.isfinite(max_memory) and max_memory > 0):
        raise ConfigError(f"--max-memory must be a positive number of bytes, got {max_memory!r}")


@app.command("tree")
def tree_cmd(board: str | None = BOARD, pot: float | None = POT, stack: float | None = STACK,
             oop: str | None = OOP, ip: str | None = IP, bets: str = BETS, raises: str = RAISES,
             flop_bets: str | None = FLOP_BETS, turn_bets: str | None = TURN_BETS,
             river_bets: str | None = RIVER_BETS, oop_bets: str | None = OOP_BETS,
             ip_bets: str | None = IP_BETS, donk: str | None = DONK,
             allin_threshold: float = ALLIN, force_allin: float = FORCE, merge: float = MERGE,
             raise_cap: int = CAP, rake: float = RAKE, rake_cap: float = RAKE_CAP, big_blind: float = BB,
             max_memory: float = MAX_MEM, no_isomorphism: bool = NO_ISO, compress: bool = COMPRESS,
             as_json: bool = json_option()) -> None:
    """Node count and memory estimate of a spot, without solving."""
    from pokerlab.subgame import estimate_size
    from pokerlab.subgame.tree import build_betting_tree

    _check_memory(max_memory)
    spot = _spot(board, pot, stack, oop, ip, bets, raises, flop_bets, turn_bets, river_bets, oop_bets,
                 ip_bets, donk, allin_threshold, force_allin, merge, raise_cap, rake, rake_cap, big_blind)
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
def solve_cmd(board: str | None = BOARD, pot: float | None = POT, stack: float | None = STACK,
              oop: str | None = OOP, ip: str | None = IP, bets: str = BETS, raises: str = RAISES,
              flop_bets: str | None = FLOP_BETS, turn_bets: str | None = TURN_BETS,
              river_bets: str | None = RIVER_BETS, oop_bets: str | None = OOP_BETS,
              ip_bets: str | None = IP_BETS, donk: str | None = DONK,
              allin_threshold: float = ALLIN, force_allin: float = FORCE, merge: float = MERGE,
              raise_cap: int = CAP, rake: float = RAKE, rake_cap: float = RAKE_CAP, big_blind: float = BB,
              target: float = typer.Option(0.3, "--target",
                                           help="Stop at this exploitability, % of the pot."),
              iterations: int = typer.Option(1000, "--iterations", help="Most iterations in all."),
              threads: int | None = typer.Option(None, "--threads", help="Threads (default: all cores)."),
              algo: str = algo_option("dcfr", "dcfr (alpha 1.5, beta 0, gamma 2), cfr+, lcfr or cfr"),
              max_memory: float = MAX_MEM, no_isomorphism: bool = NO_ISO, compress: bool = COMPRESS,
              precision: str = PRECISION,
              out: Path | None = typer.Option(None, "--out", help="Save the solved spot (.npz; refuses to "
                                              "replace a file: use --resume to continue one)."),
              resume: Path | None = typer.Option(None, "--resume", help="Continue the solve saved in this "
                                                 "file (written back to it unless --out is given)."),
              png: Path | None = png_option("Exploitability against CPU time (.png or .svg)."),
              as_json: bool = json_option()) -> None:
    """Solve a spot to --target % of the pot; print EVs, equity and the root strategy."""
    from pokerlab.errors import ConfigError
    from pokerlab.subgame import SolveConfig, SpotSolver

    _check_memory(max_memory)
    config = SolveConfig(algo=algo, isomorphism=not no_isomorphism, compress=compress, precision=precision)
    if iterations < 0:
        raise ConfigError(f"--iterations must be >= 0, got {iterations}")
    if not (math.isfinite(target) and target >= 0):
        raise ConfigError(f"--target must be a percentage of the pot >= 0, got {target!r}")
    if threads is not None and threads < 1:
        raise ConfigError(f"--threads must be >= 1, got {threads}")
    if out is not None:
        check_output_path(out, option="--out", suffixes=(".npz",))
        if out.exists() and (resume is None or out.resolve() != resume.resolve()):
            raise ConfigError(f"--out {str(out)!r} already exists: pass --resume {out} to continue it, or "
                              "choose another file")
    if png is not None:
        check_image_path(png)
    wall0 = time.perf_counter()
    cpu0 = time.process_time()
    if resume is not None:
        given = [n for n, v in (("--board", board), ("--pot", pot), ("--stack", stack), ("--oop", oop),
                                ("--ip", ip)) if v is not None]
        if given:
            raise ConfigError(f"--resume continues the saved spot: drop {', '.join(given)}")
        solver = SpotSolver.load(resume, threads=threads)
        out = out if out is not None else resume
        check_output_path(out, option="--out", suffixes=(".npz",))
        if max_memory < solver.size.memory_bytes:
            raise ConfigError(f"the saved spot needs {solver.size.memory_bytes / 1e6:,.1f} MB, "
                              "over --max-memory")
    else:
        spot = _spot(board, pot, stack, oop, ip, bets, raises, flop_bets, turn_bets, river_bets, oop_bets,
                     ip_bets, donk, allin_threshold, force_allin, merge, raise_cap, rake, rake_cap,
                     big_blind)
        solver = SpotSolver(spot, config, max_memory=max_memory, threads=threads)
    spot = solver.spot
    with progress(f"spot {spot.board_str()}", enabled=not as_json, total=iterations, unit="it",
                  fields={"expl": "-"}) as bar:
        def cb(it: int, pct: float | None) -> None:
            if pct is None:
                bar(it)
            else:
                bar(it, expl=f"{pct:.3f}%")

        pct = solver.solve(iterations=iterations, target_pct=target, callback=cb)
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
           "target_reached": pct <= target, "exploitability": chips, "exploitability_pct": pct,
           "exploitability_mbb": 1000.0 * chips / bb, "ev_oop": ev[0], "ev_ip": ev[1],
           "ev_oop_bb": ev[0] / bb, "ev_ip_bb": ev[1] / bb, "equity_oop": eq,
           "root_actions": solver.root_actions(), "nodes": solver.size.nodes,
           "memory_bytes": solver.size.memory_bytes, "seconds": time.perf_counter() - wall0,
           "cpu_seconds": time.process_time() - cpu0, "solve_cpu_seconds": solver.cpu_seconds,
           "solve_seconds": solver.wall_seconds,
           "threads": threads, "out": None if out is None else os.fspath(out),
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
               + ("" if obj["target_reached"] else f" (target {target}% not reached)"))
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
             png: Path | None = png_option("The 13x13 grid coloured by action mix (.png or .svg)."),
             as_json: bool = json_option()) -> None:
    """At a node of a solved spot: the 13x13 grid of action frequencies and per-combo
    strategy, EV and equity."""
    from pokerlab.errors import ConfigError
    from pokerlab.subgame import SpotSolver
    from pokerlab.subgame.report import combo_rows, grid_text, plot_strategy_grid

    if who is not None and who not in ("oop", "ip"):
        raise ConfigError(f"--player must be oop or ip, got {who!r}")
    if png is not None:
        check_image_path(png)
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
        ev = "-" if r["ev"] is None else f"{r['ev']:8.2f}"
        eq = "-" if r["equity"] is None else f"{r['equity'] * 100:5.1f}%"
        typer.echo(f"{r['combo']}  reach {r['reach']:.3f}  ev {ev}  eq {eq}  {strat}")
