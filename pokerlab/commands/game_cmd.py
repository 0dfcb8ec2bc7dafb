"""``pokerlab game``: facts and sizes of a game before anything is solved.

* ``pokerlab game info GAME [--json]``: the game's static facts (``GameInfo``), its ACPC
  definition when it has one, and its size: histories (tree nodes, chance included),
  information sets, public-tree nodes and the memory full-width CFR needs.  Exact counts
  come from walking the tree once; past ``--max-nodes`` only Knuth's estimate of the
  number of histories is given, with the advice to use MCCFR.
* ``pokerlab game list [--json]``: the ACPC game definitions shipped with pokerlab.
"""

from __future__ import annotations

from typing import Any

import typer

from pokerlab.commands._common import emit_json, json_option

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

GROUPS = [("game", app, "Facts and sizes of a game (histories, information sets, memory).")]


def game_sizes(game: Any, *, max_nodes: int | None = None) -> dict[str, Any]:
    """Sizes of ``game`` (see the module docs); exact when the tree fits ``max_nodes``."""
    from pokerlab.errors import ConfigError
    from pokerlab.games.compiled import (
        DEFAULT_MAX_NODES,
        KIND_TERMINAL,
        GameTooLargeError,
        compile_game,
        estimate_tree_size,
    )
    from pokerlab.games.protocol import game_info
    from pokerlab.games.public_tree import build_public_tree

    limit = DEFAULT_MAX_NODES if max_nodes is None else int(max_nodes)
    if limit < 1:
        raise ConfigError(f"--max-nodes must be >= 1, got {max_nodes!r}")
    info = game_info(game)
    out: dict[str, Any] = {"game": str(game.name),
                           "info": None if info is None else info.to_json()}
    gd = getattr(game, "gamedef", None)
    if gd is not None:
        out["gamedef"] = gd.to_json()
        out["acpc"] = gd.to_acpc()
        try:
            out["universal_poker"] = gd.to_universal_poker(
                getattr(game, "betting_abstraction", None))
        except ConfigError:
            out["universal_poker"] = None
    est = float(estimate_tree_size(game))
    out.update({"estimated_histories": est, "exact": False, "histories": None,
                "terminal_histories": None, "information_sets": None,
                "information_sets_per_player": None, "infoset_actions": None,
                "public_nodes": None, "hands_per_player": None, "cfr_memory_bytes": None,
                "too_large": None})
    advice = ("too large for exact solvers: use a sampling solver "
              "(pokerlab solve GAME --algo os-mccfr or es-mccfr)")
    if est > 4 * limit:
        out["too_large"] = f"about {est:.3g} histories (estimated) > {limit}: {advice}"
        return out
    try:
        cg = compile_game(game, max_nodes=limit)
    except GameTooLargeError:
        out["too_large"] = f"more than {limit} histories: {advice}"
        return out
    n_players = int(cg.num_players)
    out.update({
        "exact": True, "histories": cg.num_nodes,
        "terminal_histories": int((cg.kind == KIND_TERMINAL).sum()),
        "information_sets": cg.num_infosets,
        "information_sets_per_player": [int((cg.infoset_player == p).sum())
                                        for p in range(n_players)],
        "infoset_actions": cg.num_slots,
    })
    try:
        tree = build_public_tree(game, max_nodes=limit)
    except ConfigError:  # not a two-player zero-sum card game: no public tree
        return out
    H = tree.max_hands
    f8 = 8
    cfr_bytes = (3 * tree.num_slots * H * f8          # regrets, average, current strategy
                 + 2 * tree.num_nodes * 2 * H * f8    # reach and value buffers
                 + tree.utility.size * f8 + tree.valid.size)
    out.update({"public_nodes": tree.num_nodes, "hands_per_player": list(tree.num_hands),
                "cfr_memory_bytes": int(cfr_bytes)})
    return out


def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} PiB"


@app.command("info")
def info(
    game: str = typer.Argument(..., help="Game: kuhn, leduc, gamedef:PATH, "
                               "'universal_poker(...)', ..."),
    max_nodes: int | None = typer.Option(
        None, "--max-nodes", help="Count exactly up to this many histories (default: the "
        "exact solvers' limit, 5000000)."),
    as_json: bool = json_option(),
) -> None:
    """Print GAME's facts and sizes: histories, information sets, public nodes, CFR memory."""
    from pokerlab.games import load_game

    sizes = game_sizes(load_game(game), max_nodes=max_nodes)
    if as_json:
        emit_json(sizes)
        return
    lines = [f"game: {sizes['game']}"]
    if sizes.get("universal_poker"):
        lines.append(f"universal_poker: {sizes['universal_poker']}")
    if sizes["info"] is not None:
        lines.append("info: " + ", ".join(f"{k}={v}" for k, v in sizes["info"].items()))
    lines.append(f"histories (estimated): {sizes['estimated_histories']:.4g}")
    if sizes["exact"]:
        lines.append(f"histories: {sizes['histories']} ({sizes['terminal_histories']} terminal)")
        per = sizes["information_sets_per_player"]
        lines.append(f"information sets: {sizes['information_sets']} (per player {per}), "
                     f"{sizes['infoset_actions']} information-set actions")
    if sizes["public_nodes"] is not None:
        lines.append(f"public nodes: {sizes['public_nodes']}, hands per player "
                     f"{sizes['hands_per_player']}")
        lines.append(f"memory for CFR: {_human(sizes['cfr_memory_bytes'])}")
    if sizes["too_large"]:
        lines.append(sizes["too_large"])
    typer.echo("\n".join(lines))


@app.command("list")
def list_games(as_json: bool = json_option()) -> None:
    """List the ACPC game definitions shipped with pokerlab (use them as gamedef:NAME)."""
    from pokerlab.games.gamedef import load_gamedef, shipped_gamedefs

    rows = []
    for name, path in shipped_gamedefs().items():
        gd = load_gamedef(path)
        rows.append({"name": f"gamedef:{name}", "path": str(path), "betting": gd.betting,
                     "rounds": gd.num_rounds, "deck": f"{gd.num_ranks}x{gd.num_suits}",
                     "hole_cards": gd.num_hole_cards,
                     "board_cards": list(gd.num_board_cards)})
    if as_json:
        emit_json({"games": rows})
        return
    for r in rows:
        typer.echo(f"{r['name']:<42} {r['betting']:<8} rounds={r['rounds']} deck={r['deck']} "
                   f"hole={r['hole_cards']} board={r['board_cards']}")
