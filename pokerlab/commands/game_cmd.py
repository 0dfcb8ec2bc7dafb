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

from pokerlab.commands._common import emit_json, force_option, json_option

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

GROUPS = [("game", app, "Facts and sizes of a game; its tree drawn; its normal form.")]


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


@app.command("tree")
def tree(
    game: str = typer.Argument(..., help="A small game: kuhn, leduc (with --depth), "
                               "vonneumann(num_hands=3), ..."),
    png: str | None = typer.Option(None, "--png", help="Write the drawing here (.png)."),
    svg: str | None = typer.Option(None, "--svg", help="Write the drawing here (.svg)."),
    force: bool = force_option(),
    depth: int | None = typer.Option(None, "--depth",
                                     help="Draw this many levels below the root (a cut)."),
    limit: int = typer.Option(400, "--limit", help="Draw at most this many nodes."),
    chance: int | None = typer.Option(None, "--chance",
                                      help="Draw only the first this many outcomes of each "
                                      "chance node."),
    as_json: bool = json_option(),
) -> None:
    """Draw GAME's extensive form: chance, decision and terminal nodes, information sets
    joined by dashed lines, payoffs (Oliehoek's Fig. 2.1)."""
    from pokerlab.commands._common import check_output_path
    from pokerlab.commands.game_draw import draw_tree, layout_tree
    from pokerlab.errors import ConfigError
    from pokerlab.games import load_game

    if (png is None) == (svg is None):
        raise ConfigError("give exactly one of --png FILE or --svg FILE")
    path = check_output_path(png or svg or "", option="--png" if png else "--svg",
                             suffixes=(".png",) if png else (".svg",))
    g = load_game(game)
    res = draw_tree(layout_tree(g, depth=depth, limit=limit, chance=chance), path)
    if as_json:
        emit_json({**res, "units": {"payoff": "chips (player 0)"}})
        return
    typer.echo(f"{res['game']}: {res['nodes']} nodes ({res['chance_nodes']} chance, "
               f"{res['decision_nodes']} decision, {res['terminal_nodes']} terminal, "
               f"{res['cut_nodes']} cut), {res['information_sets']} information sets "
               f"drawn; wrote {res['path']}")


@app.command("normal-form")
def normal_form_cmd(
    game: str = typer.Argument(..., help="A small game: kuhn, vonneumann(num_hands=4), ..."),
    max_strategies: int = typer.Option(4096, "--max-strategies",
                                       help="Refuse games with more pure strategies per "
                                       "player."),
    matrix: bool = typer.Option(False, "--matrix",
                                help="Print (or put in the JSON) the payoff matrix."),
    as_json: bool = json_option(),
) -> None:
    """Build GAME's normal form (pure strategies, payoff matrix), solve it by LP and compare
    its mixed equilibrium, as a behaviour strategy, with the sequence-form LP's."""
    from pokerlab.commands._common import check_positive
    from pokerlab.games import load_game
    from pokerlab.solvers.normal_form import compare_with_sequence_form, normal_form

    check_positive(max_strategies, "--max-strategies")
    g = load_game(game)
    res = compare_with_sequence_form(g, max_strategies=max_strategies)
    if matrix:
        nf = normal_form(g, max_strategies=max_strategies)
        res["payoff_matrix"] = [[round(float(v), 9) for v in row] for row in nf.payoff]
        res["pure_strategies"] = [[nf.label(p, i) for i in range(nf.num_strategies[p])]
                                  for p in (0, 1)]
    if as_json:
        emit_json(res)
        return
    nfd, sfd = res["normal_form"], res["sequence_form"]
    lines = [f"game: {res['game']}",
             f"normal form: {nfd['pure_strategies'][0]} x {nfd['pure_strategies'][1]} pure "
             f"strategies ({nfd['matrix_entries']} payoffs), value {nfd['value']:.6f}",
             f"sequence form: {sfd['sequences'][0]} x {sfd['sequences'][1]} sequences "
             f"({sfd['payoff_nonzeros']} nonzero payoffs), value {sfd['value']:.6f}",
             f"mixed equilibrium as behaviour strategy vs sequence-form solution: "
             f"{res['nf_behaviour_vs_sf']:.6f}; exploitability "
             f"{res['exploitability']['normal_form_solution']:.2e} (normal form) / "
             f"{res['exploitability']['sequence_form_solution']:.2e} (sequence form); "
             f"largest behaviour difference per player "
             f"{[round(d, 6) for d in res['max_behaviour_difference']]}"]
    for p, pl in enumerate(res["players"]):
        lines.append(f"player {p}: support {pl['support']} of {pl['pure_strategies']} pure "
                     f"strategies; realisation-equivalent behaviour: "
                     f"{pl['realisation_equivalent']}")
        for t in pl["top_mixed"]:
            lines.append(f"  {t['probability']:.4f}  {t['strategy']}")
        lines.append("  behaviour: " + ", ".join(
            f"{k}={'/'.join(f'{b:.3f}' for b in v)}" for k, v in pl["behaviour"].items()))
    if matrix:
        lines.append("payoff matrix (player 0, rows: player 0's pure strategies):")
        lines += [" ".join(f"{v:7.3f}" for v in row) for row in res["payoff_matrix"]]
    typer.echo("\n".join(lines))
