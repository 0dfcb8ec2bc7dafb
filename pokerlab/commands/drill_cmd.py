"""``pokerlab train-spot FILE|LIBRARY``: drills of a solved spot graded by EV loss, in the
terminal (the browser version is the ``/drill`` page of ``pokerlab play``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import emit_json, json_option, progress, seed_option


def _echo(text: str, *, err: bool) -> None:
    typer.echo(text, err=err)


def _open(spot: str, node: str | None, as_json: bool) -> Any:
    """The drill of ``spot``: a saved solve (a file), or a library drill by name (built on
    first use, with the progress bar)."""
    from pokerlab.play import drill_library as lib
    from pokerlab.play.drills import load_drill

    p = Path(spot)
    if spot in lib.DRILLS:
        d = lib.DRILLS[spot]
        if lib.is_built(d.spot):
            return lib.open_library_drill(spot, node=node)
        with progress(f"building library spot {d.spot}", enabled=not as_json, total=lib.MAX_ITERATIONS,
                      unit="it", fields={"expl": "-"}) as bar:
            def cb(it: int, pct: float | None) -> None:
                if pct is None:
                    bar(it)
                else:
                    bar(it, expl=f"{pct:.3f}%")

            return lib.open_library_drill(spot, node=node, progress=cb)
    if p.exists() or p.suffix.lower() == ".npz" or os.sep in spot:
        if p.is_dir():
            from pokerlab.play.drills import DrillError
            raise DrillError(f"{spot!r} is a folder, not a saved spot")
        return load_drill(p, node=node or "", name=p.stem)
    raise lib.unknown(spot)


def _library(as_json: bool) -> None:
    from pokerlab.play import drill_library as lib

    with progress("drill library", enabled=not as_json, total=len(lib.SPOTS), unit="spots",
                  fields={"spot": "-"}) as bar:
        lib.ensure_built(progress=lambda key, done, total: bar(done, spot=key))
    entries = lib.library_entries()
    if as_json:
        emit_json({"library": entries, "folder": os.fspath(lib.library_dir())})
        return
    for e in entries:
        typer.echo(f"{e['name']:18} {e['label']}")
    typer.echo(f"spots in {lib.library_dir()}")


def _show_hand(drill: Any, hand: Any, i: int, total: int, err: bool) -> None:
    info = drill.info()
    face = f"facing {info['facing_bb']:g} bb" if info["facing_bb"] > 0 else "first to act / checked to"
    _echo(f"hand {i + 1}/{total}  {hand.cards} ({hand.hand_class})  board {info['board']}  "
          f"pot {info['pot_bb']:g} bb  you are {info['player']}, {face}", err=err)
    _echo("  " + "  ".join(f"{k + 1}) {a}" for k, a in enumerate(drill.actions)), err=err)


def _show_grade(g: dict[str, Any], err: bool) -> None:
    _echo(f"  you: {g['chosen']}  EV {g['ev_chosen_bb']:.3f} bb ({g['ev_chosen_pct']:.2f}% of the pot)   "
          f"best: {g['best']}  EV {g['ev_best_bb']:.3f} bb ({g['ev_best_pct']:.2f}%)", err=err)
    mix = "  ".join(f"{a} {f * 100:.0f}%" for a, f in g["mix"].items())
    verdict = "in the mix" if g["in_mix"] else "not in the mix"
    _echo(f"  EV loss {g['ev_loss_bb']:.3f} bb ({g['ev_loss_pct']:.2f}% of the pot)   solution: {mix}  "
          f"-> {verdict}", err=err)


def _score_text(s: dict[str, Any], what: str) -> str:
    if not s["decisions"]:
        return f"{what}: no decisions yet"
    ci = "" if s["ci95_bb"] is None else f" +- {s['ci95_bb']:.3f}"
    return (f"{what}: mean EV loss {s['mean_ev_loss_bb']:.3f}{ci} bb per decision (95% CI) over "
            f"{s['decisions']} decisions, {s['accuracy'] * 100:.0f}% in the mix")


def train_spot(
    spot: str = typer.Argument(..., help="A spot saved by 'pokerlab spot solve --out', a library drill "
                               "(srp-K72-5-oop, 3bp-A83-J-ip, ...), or 'library' (build the library "
                               "and list it)."),
    node: str | None = typer.Option(None, "--node", help="The decision node to drill, e.g. 'check,bet 375' "
                                    "(default: a library drill's node; a file's root)."),
    hands: int = typer.Option(10, "--hands", help="Hands to deal."),
    seed: int = seed_option(),
    db: Path | None = typer.Option(None, "--db", help="The DuckDB file of drill scores (default: "
                                   "drills.duckdb in the data folder)."),
    as_json: bool = json_option(),
) -> None:
    """Drill a solved spot: hands dealt by the range's weights at a node, each answer graded
    by its EV loss against the solution; the score is kept across sessions."""
    from pokerlab.play.drills import DrillError, DrillSession, DrillStore

    if spot == "library":
        if node is not None:
            raise DrillError("--node drills one spot: name it instead of 'library'")
        _library(as_json)
        return
    store = DrillStore(db)
    drill = _open(spot, node, as_json)
    session = DrillSession(drill, store, seed=seed, source=spot)
    err = as_json  # with --json the prompts and grades go to stderr, the one object to stdout
    info = drill.info()
    _echo(f"drill {info['spot']} at {info['node'] or 'the root'}: {info['street']} {info['board']}, "
          f"{info['player']} to act ({info['combos']:.1f} combos). Answer with an action's name or "
          "number; q quits.", err=err)
    grades: list[dict[str, Any]] = []
    stopped = False
    for i in range(hands):
        hand = session.deal()
        _show_hand(drill, hand, i, hands, err)
        while True:
            out = sys.stderr if err else sys.stdout
            out.write("> ")
            out.flush()
            line = sys.stdin.readline()
            if line and not sys.stdin.isatty():
                out.write(line if line.endswith("\n") else line + "\n")  # the answer read, echoed
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                stopped = True
                break
            try:
                g = session.answer(line.strip(), hand.deal)
            except DrillError as exc:
                _echo(f"error: {exc} (try again)", err=err)
                continue
            grades.append(g)
            _show_grade(g, err)
            break
        if stopped:
            if line:
                _echo("", err=err)
            break
    score = session.score()
    overall = store.score(spot=drill.name)
    if as_json:
        emit_json({"spot": drill.name, "node": drill.node, "session": session.id, "seed": seed,
                   "db": os.fspath(store.path), "info": info, "decisions": grades, "score": score,
                   "all_sessions": overall,
                   "units": "ev in bb (ev_*_bb) and % of the pot at the node (ev_*_pct); ci95: half "
                            "width of the 95% interval of the mean EV loss"})
        return
    typer.echo(_score_text(score, "this session"))
    for cls, r in score["by_class"].items():
        typer.echo(f"  {cls:22} {r['decisions']:3d} decisions  {r['accuracy'] * 100:5.1f}% in the mix  "
                   f"mean EV loss {r['mean_ev_loss_bb']:.3f} bb")
    typer.echo(_score_text(overall, f"all sessions of {drill.name}"))


COMMANDS = [train_spot]
