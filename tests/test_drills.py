"""Drills graded by EV loss (pokerlab.play.drills, drill_library, ``pokerlab train-spot``):
EVs of the actions against the solved values, dealing by the range's weights, the DuckDB
score (mean, CI, by class) across a restart, the terminal drill driven through stdin and
the bad input of the command and of the prompt.  A tiny river spot is solved here (the
library is not built, except by the slow test)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.cards.cards import combo_index, parse_card
from pokerlab.cli import app
from pokerlab.errors import PokerlabError
from pokerlab.play import drill_library as lib
from pokerlab.play.drills import MIX_THRESHOLD, Z95, Drill, DrillError, DrillSession, DrillStore, load_drill
from pokerlab.rng import SplitMix64
from pokerlab.subgame import SpotSolver, make_spot, tree_config

BOARD = "Td9d6h5c2s"
OOP = "QQ+,AK,JTs:0.25,87s"
IP = "JJ+,AQs+,98s,K9s"
BB = 2.0  # chips per big blind of the tiny spot: figures in bb are half the chips

runner = CliRunner()


def combo(text: str) -> int:
    a, b = parse_card(text[:2]), parse_card(text[2:])
    return combo_index(min(a, b), max(a, b))


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[SpotSolver, Path]:
    spot = make_spot(board=BOARD, pot=100, stack=400, oop=OOP, ip=IP,
                     tree=tree_config(bets="50%,100%", raises="2.5x", raise_cap=2), big_blind=BB)
    solver = SpotSolver(spot, threads=1)
    solver.solve(iterations=400, target_pct=0.05)
    path = tmp_path_factory.mktemp("drill") / "tiny.npz"
    solver.save(path)
    return solver, path


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("POKERLAB_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.mark.parametrize("node", ["", "check", "bet 50", "check,bet 100"])
def test_action_evs_mix_to_the_node_value(solved, node):
    """Each action's EV is its child's value: weighted by the solution's mix they give the
    node's value for every hand (to float32 precision)."""
    solver, _ = solved
    d = Drill(solver, name="tiny", node=node)
    live = d.live
    mixed = (d.strategy[:, live] * d.ev[:, live]).sum(axis=0)
    assert np.all(np.isfinite(d.ev[:, live]))
    assert np.max(np.abs(mixed - d.node_ev[live])) < 1e-3
    assert d.actions == list(solver.tree.action_names[solver.cursor(node).node])


def test_best_action_loses_nothing_and_a_dominated_one_loses_what_the_values_say(solved):
    solver, _ = solved
    d = Drill(solver, name="tiny", node="check,bet 100")  # OOP checked, faces a pot-size bet
    assert d.player == "oop" and d.pot == 200.0 and d.actions[:2] == ["fold", "call"]
    nuts = combo("8h7h")  # the nut straight: IP holds no 87, no flush is possible
    call = d.grade(nuts, "call")
    fold = d.grade(nuts, "fold")
    # calling wins the 100 pot and the 100 bet: 200 chips = 100 bb = 100% of the pot at the node
    assert call["ev_chosen"] == pytest.approx(200.0, abs=1e-3)
    assert call["ev_chosen_bb"] == pytest.approx(100.0, abs=1e-3)
    assert call["ev_chosen_pct"] == pytest.approx(100.0, abs=1e-3)
    assert fold["ev_chosen"] == pytest.approx(0.0, abs=1e-6)
    best = fold["best"]
    assert best != "fold" and fold["ev_best"] >= 200.0 - 1e-3
    assert fold["ev_loss"] == pytest.approx(fold["ev_best"] - fold["ev_chosen"], abs=1e-9)
    assert fold["ev_loss_bb"] == pytest.approx(fold["ev_loss"] / BB)
    assert fold["ev_loss_pct"] == pytest.approx(100 * fold["ev_loss"] / 200.0)
    assert not fold["in_mix"] and fold["mix"]["fold"] < MIX_THRESHOLD
    # the best action of every dealt hand loses exactly nothing, and it is in the mix
    for c in d.live:
        g = d.grade(int(c), int(np.argmax(d.ev[:, c])))
        assert g["ev_loss"] == 0.0 and g["chosen"] == g["best"]
        # an action the solution plays often is (near) best: its loss is within the solve's
        # precision (exploitability target 0.05% of the 100 pot, spread over few hands)
        top = int(np.argmax(d.strategy[:, c]))
        if d.strategy[top, c] > 0.5:
            assert d.grade(int(c), top)["ev_loss"] < 2.0
    assert sum(call["mix"].values()) == pytest.approx(1.0, abs=1e-6)


def test_hands_are_dealt_by_the_weights_at_the_node(solved):
    """JTs has weight 0.25 in OOP's range, QQ weight 1: over 20,000 deals with a fixed seed
    each combo's frequency is its weight's share within 4 standard errors."""
    solver, _ = solved
    d = Drill(solver, name="tiny", node="")
    p = d.probabilities()
    heavy, light = combo("QhQc"), combo("JhTh")
    assert p[heavy] == pytest.approx(4 * p[light])
    n = 20_000
    rng = SplitMix64(7)
    counts = np.bincount([d.deal(rng, i).combo for i in range(n)], minlength=1326)
    for c in (heavy, light):
        se = math.sqrt(p[c] * (1 - p[c]) / n)
        assert abs(counts[c] / n - p[c]) < 4 * se, (c, counts[c] / n, p[c])
    assert counts[heavy] / counts[light] == pytest.approx(4.0, rel=0.35)
    assert counts[p == 0].sum() == 0  # nothing off the range (or blocked by the board)
    # the same seed deals the same hands
    a, b = SplitMix64(3), SplitMix64(3)
    assert [d.deal(a).combo for _ in range(20)] == [d.deal(b).combo for _ in range(20)]


def test_answers_parse_and_malformed_ones_are_refused(solved):
    solver, _ = solved
    d = Drill(solver, name="tiny", node="check,bet 100")
    assert d.actions == ["fold", "call", "raise 250", "allin 400"]
    assert [d.parse_answer(t) for t in ("fold", "f", "C", "2", "raise 250", "Raise-250", "250", "a",
                                        "all-in", "4")] == [0, 0, 1, 1, 2, 2, 2, 3, 3, 3]
    for bad in ("", "  ", "bet 50", "9", "raise", "xyzzy"):
        with pytest.raises(DrillError, match="actions are|an answer names"):
            d.parse_answer(bad)


def test_bad_nodes(solved):
    solver, _ = solved
    with pytest.raises(DrillError, match="not a decision node.*showdown"):
        Drill(solver, name="tiny", node="bet 50,call")
    with pytest.raises(DrillError, match="not a decision node.*fold"):
        Drill(solver, name="tiny", node="bet 50,fold")
    with pytest.raises(PokerlabError, match="no action 'bet 77'"):
        Drill(solver, name="tiny", node="bet 77")


def test_score_from_the_stored_decisions_survives_a_restart(solved, tmp_path):
    solver, path = solved
    db = tmp_path / "drills.duckdb"
    drill = load_drill(path, node="bet 50")
    store = DrillStore(db)
    s = DrillSession(drill, store, seed=11)
    losses, in_mix, classes = [], [], []
    for i in range(12):
        h = s.deal()
        g = s.answer(("fold", "call", "raise 125")[i % 3], h.deal)
        losses.append(g["ev_loss_bb"])
        in_mix.append(g["in_mix"])
        classes.append(g["class"])
    other = DrillSession(drill, store, seed=12)
    h = other.deal()
    other.answer("call", h.deal)
    sc = s.score()
    assert sc["decisions"] == 12 and sc["sessions"] == 1
    assert sc["mean_ev_loss_bb"] == pytest.approx(np.mean(losses), abs=1e-9)
    half = Z95 * np.std(losses, ddof=1) / math.sqrt(12)
    assert sc["ci95_bb"] == pytest.approx(half, abs=1e-9)
    assert sc["ci95_low_bb"] == pytest.approx(np.mean(losses) - half, abs=1e-9)
    assert sc["accuracy"] == pytest.approx(np.mean(in_mix))
    for cls in set(classes):
        mine = [k for k, c in enumerate(classes) if c == cls]
        assert sc["by_class"][cls]["decisions"] == len(mine)
        assert sc["by_class"][cls]["accuracy"] == pytest.approx(np.mean([in_mix[k] for k in mine]))
    # a new store on the same file (a restart) computes the same numbers from the rows
    again = DrillStore(db)
    assert again.score(s.id) == sc
    assert again.score()["decisions"] == 13 and again.score()["sessions"] == 2
    assert len(again.decisions(s.id)) == 12
    with pytest.raises(DrillError, match="not the hand dealt now"):
        h = s.deal()
        s.answer("call", h.deal + 1)


def test_terminal_drill_through_stdin(solved, data, tmp_path):
    _, path = solved
    db = tmp_path / "d.duckdb"
    res = runner.invoke(app, ["train-spot", str(path), "--node", "bet 50", "--hands", "3", "--seed", "5",
                              "--db", str(db)], input="call\nxyz\nraise 125\n3\n")
    assert res.exit_code == 0, res.output
    out = res.output
    drill = load_drill(path, node="bet 50")
    rng = SplitMix64(5)
    hands = [drill.deal(rng, i) for i in range(3)]
    grades = [drill.grade(h.combo, a) for h, a in zip(hands, ("call", "raise 125", "raise 125"), strict=True)]
    for h, g in zip(hands, grades, strict=True):
        assert f"{h.cards} ({h.hand_class})" in out
        assert f"you: {g['chosen']}  EV {g['ev_chosen_bb']:.3f} bb" in out
        assert f"EV loss {g['ev_loss_bb']:.3f} bb ({g['ev_loss_pct']:.2f}% of the pot)" in out
        assert f"best: {g['best']}  EV {g['ev_best_bb']:.3f} bb" in out
    # the malformed answer was refused with one line and asked again
    assert "error: unknown answer 'xyz': the actions are 1) fold, 2) call, 3) raise 125 (try again)" in out
    mean = np.mean([g["ev_loss_bb"] for g in grades])
    assert f"this session: mean EV loss {mean:.3f} +- " in out
    assert "over 3 decisions" in out
    # --json: one object, the prompts on stderr; the score counts the stored sessions
    res = runner.invoke(app, ["train-spot", str(path), "--node", "bet 50", "--hands", "2", "--seed", "5",
                              "--db", str(db), "--json"], input="call\nq\n")
    assert res.exit_code == 0, res.output
    import json
    obj = json.loads(res.stdout)
    assert len(obj["decisions"]) == 1 and obj["decisions"][0]["ev_loss_bb"] == pytest.approx(
        grades[0]["ev_loss_bb"])
    assert obj["score"]["decisions"] == 1 and obj["all_sessions"]["decisions"] == 4
    assert obj["all_sessions"]["sessions"] == 2


@pytest.mark.parametrize("args, needle", [
    (["train-spot", "no-such-drill"], "unknown spot 'no-such-drill'"),
    (["train-spot", "pyproject.toml"], "not a pokerlab spot file"),
    (["train-spot", "missing.npz"], "cannot read spot file"),
    (["train-spot", "@SPOT", "--node", "bet 77"], "no action 'bet 77'"),
    (["train-spot", "@SPOT", "--node", "bet 50,call"], "not a decision node"),
    (["train-spot", "@SPOT", "--hands", "0"], "--hands"),
    (["train-spot", "@SPOT", "--db", "/no/such/folder/x.duckdb"], "folder does not exist"),
    (["train-spot", "library", "--node", "check"], "--node drills one spot"),
])
def test_bad_input_is_one_line_exit_2(solved, data, args, needle):
    _, path = solved
    args = [str(path) if a == "@SPOT" else a for a in args]
    res = runner.invoke(app, args, input="")
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("error: ")]
    assert len(lines) == 1 and needle in lines[0], res.stderr
    assert "Traceback" not in res.output


def test_library_definitions(data):
    assert 6 <= len(lib.DRILLS) <= 10
    for d in lib.DRILLS.values():
        assert d.spot in lib.SPOTS
    # out of position (first to act, or facing a stab after checking) and in position
    assert any(d.node in ((), ("check", "bet")) for d in lib.DRILLS.values())
    assert any(d.node in (("check",), ("bet",)) for d in lib.DRILLS.values())
    assert {s.stack_bb for s in lib.SPOTS.values()} == {100.0, 200.0}
    assert any("raise 10bb" in s.line for s in lib.SPOTS.values())  # 3-bet pots
    entries = lib.library_entries()
    assert [e["name"] for e in entries] == list(lib.DRILLS) and not any(e["built"] for e in entries)
    assert str(lib.library_dir()).startswith(str(data))
    with pytest.raises(DrillError, match="unknown spot 'nope'"):
        lib.open_library_drill("nope")


@pytest.mark.slow
def test_library_spot_builds_deterministically(data):
    """One library spot, built twice: the same solution; its drill deals and grades."""
    p = lib.build_spot("srp200-Q84-2")
    first = SpotSolver.load(p)
    p.unlink()
    again = SpotSolver.load(lib.build_spot("srp200-Q84-2"))
    assert first.iteration == again.iteration
    assert np.array_equal(first.ssum, again.ssum) and np.array_equal(first.regrets, again.regrets)
    d = lib.open_library_drill("srp200-Q84-2-ip")
    assert d.player == "ip" and d.actions[:2] == ["fold", "call"] and d.big_blind == 100.0
    h = d.deal(SplitMix64(0))
    g = d.grade(h.combo, "call")
    assert g["ev_loss"] >= 0 and math.isfinite(g["ev_chosen_bb"])
