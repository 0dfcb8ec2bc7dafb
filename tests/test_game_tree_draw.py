"""``pokerlab game tree``: the extensive-form layout and drawing (pokerlab.commands.game_draw)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pokerlab.commands.game_draw import KIND_CHANCE, KIND_TERMINAL, draw_tree, layout_tree
from pokerlab.games import load_game


def test_kuhn_layout_whole() -> None:
    L = layout_tree(load_game("kuhn"))
    s = L.summary()
    assert (s["nodes"], s["chance_nodes"], s["decision_nodes"], s["terminal_nodes"]) == (
        58, 4, 24, 30)
    assert s["cut_nodes"] == 0 and s["depth"] == 5
    # 12 information sets, each of the two deals that share the card: 2 members
    assert s["information_sets"] == 12
    assert sorted(len(v) for v in L.infosets.values()) == [2] * 12
    assert L.infosets[(0, "0")] and L.infosets[(1, "2b")]
    # payoffs: player 0 wins or loses the ante or ante + bet
    term = [n for n in L.nodes if n.kind == KIND_TERMINAL]
    assert sorted({n.payoff for n in term}) == [-2.0, -1.0, 1.0, 2.0]
    # layout: leaves distinct, parents centred over their children
    xs = [n.x for n in L.nodes if not n.children]
    assert len(set(xs)) == len(xs)
    for n in L.nodes:
        if n.children:
            assert n.x == (L.nodes[n.children[0]].x + L.nodes[n.children[-1]].x) / 2
    assert L.nodes[0].kind == KIND_CHANCE


def test_leduc_cut_by_depth_and_limit() -> None:
    L = layout_tree(load_game("leduc"), depth=3)
    s = L.summary()
    assert s["depth"] == 3 and s["cut_nodes"] > 0
    assert s["chance_nodes"] == 1 + 6  # the two private cards
    assert s["decision_nodes"] == 30 + 60
    assert all(n.children == [] for n in L.nodes if n.cut)
    L2 = layout_tree(load_game("leduc"), limit=50)
    assert len(L2.nodes) <= 50
    L3 = layout_tree(load_game("leduc"), chance=2, depth=6)
    s3 = L3.summary()
    assert s3["depth"] == 6
    # root: 2 of 6 first cards, then 2 of 5 second cards: 4 first decisions
    assert sum(1 for n in L3.nodes if n.depth == 2 and n.kind == "decision") == 4
    assert L3.nodes[0].cut and len(L3.nodes[0].children) == 2
    # long OpenSpiel keys are drawn as I<k>, listed in the summary
    assert all(lab.startswith("I") and key.startswith("[Observer")
               for lab, key in s3["infoset_labels"].items())


def test_draw_png_and_svg(tmp_path: Path) -> None:
    L = layout_tree(load_game("kuhn"))
    r = draw_tree(L, tmp_path / "k.png")
    assert (tmp_path / "k.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert r["nodes"] == 58
    draw_tree(L, tmp_path / "k.svg")
    assert "<svg" in (tmp_path / "k.svg").read_text()[:2000]


def test_cli_tree_and_normal_form(tmp_path: Path) -> None:
    from pokerlab.cli import app

    run = CliRunner().invoke
    out = tmp_path / "t.svg"
    r = run(app, ["game", "tree", "vonneumann(num_hands=2)", "--svg", str(out), "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["terminal_nodes"] == 4 * 3 and obj["information_sets"] == 4 and out.exists()
    r = run(app, ["game", "tree", "kuhn"])
    assert r.exit_code == 2 and "error: give exactly one of --png" in r.output
    r = run(app, ["game", "tree", "kuhn", "--png", str(tmp_path / "x.svg")])
    assert r.exit_code == 2 and "must end in .png" in r.output
    r = run(app, ["game", "normal-form", "kuhn", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["normal_form"]["pure_strategies"] == [64, 64]
    assert abs(obj["normal_form"]["value"] + 1 / 18) < 1e-9
    r = run(app, ["game", "normal-form", "leduc"])
    assert r.exit_code == 2 and r.output.startswith("error: ") and "Traceback" not in r.output
