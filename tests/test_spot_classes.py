"""Hand classes on a board and a solved node read by class (pokerlab.subgame.classes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cards.cards import COMBOS, parse_cards
from pokerlab.cards.evaluator import evaluate
from pokerlab.subgame import SolveConfig, SpotSolver, make_spot, tree_config
from pokerlab.subgame.classes import (
    CLASS_NAMES,
    DRAW_NAMES,
    class_counts,
    compatible_mass,
    draw_masks,
    hand_classes,
    node_classes,
)

BOARDS = ["Td9d6h", "Kh7c2s", "KsKd7h", "8h7h6h", "Ah5c4d", "7s7d7c", "AhKh5h9c", "QcJdTs9h", "2c5d8hJs3c",
          "9s9h4c4d"]
MADE = {"Straight Flush": "straight flush", "Four of a Kind": "quads", "Full House": "full house",
        "Flush": "flush", "Straight": "straight"}


def _straight(ranks: set[int]) -> bool:
    rs = set(ranks) | ({-1} if 12 in ranks else set())  # the ace plays low too
    return any(all(lo + k in rs for k in range(5)) for lo in range(-1, 9))


def _brute(board: list[int], c1: int, c2: int) -> tuple[str, set[str]]:
    """The class and the draws of one combo, by the evaluator and explicit rank logic."""
    cards = [*board, c1, c2]
    cat = evaluate(cards)[1]
    br = [c >> 2 for c in board]
    h = sorted([c1 >> 2, c2 >> 2], reverse=True)
    suits = [c & 3 for c in cards]
    draws: set[str] = set()
    if len(board) < 5:
        fd = cat not in ("Flush", "Full House", "Four of a Kind", "Straight Flush") and any(
            suits.count(s) == 4 and s in (c1 & 3, c2 & 3) for s in range(4))
        made_straight = cat in ("Straight", "Flush", "Full House", "Four of a Kind", "Straight Flush")
        outs = 0 if made_straight else sum(
            1 for r in range(13) if _straight({*br, *h, r}) and not _straight({*br, r}))
        bd = (len(board) == 3 and not fd and cat not in ("Flush", "Full House", "Four of a Kind",
                                                         "Straight Flush")
              and any(suits.count(s) == 3 and s in (c1 & 3, c2 & 3) for s in range(4)))
        if fd:
            draws.add("flush draw")
        if outs >= 2:
            draws.add("open-ended")
        if outs == 1:
            draws.add("gutshot")
        if fd and outs:
            draws.add("combo draw")
        if bd:
            draws.add("backdoor flush draw")
    if cat in MADE:
        return MADE[cat], draws
    distinct = sorted(set(br), reverse=True)
    if h[0] == h[1]:
        p = h[0]
        if p in br:
            return "set", draws
        if p > distinct[0]:
            return "overpair", draws
        if p < distinct[-1]:
            return "underpair", draws
        return ("second pair" if p > distinct[1] else "third pair"), draws
    hits = [x for x in h if x in br]
    if any(br.count(x) >= 2 for x in hits):
        return "trips", draws
    if len(hits) == 2:
        return "two pair", draws
    if len(hits) == 1:
        p = hits[0]
        kick = h[1] if h[0] == p else h[0]
        pos = distinct.index(p)
        if pos == 0:
            better = [r for r in range(kick + 1, 13) if r not in br]
            if not better:
                return "top pair top kicker", draws
            return ("top pair good kicker" if len(better) <= 3 else "top pair weak kicker"), draws
        return ("second pair" if pos == 1 else "third pair"), draws
    for name in ("combo draw", "flush draw", "open-ended", "gutshot", "backdoor flush draw"):
        if name in draws:
            return name, draws
    if len(set(br)) < len(br):
        return "board pair", draws
    return "air", draws


@pytest.mark.parametrize("text", BOARDS)
def test_classes_and_draws_equal_brute_force(text: str) -> None:
    board = parse_cards(text)
    cls = hand_classes(board)
    masks = draw_masks(board)
    rng = np.random.default_rng(len(text) + board[0])
    weights = rng.random(1326) * (rng.random(1326) < 0.7)
    want: dict[str, float] = {}
    alive_weight = 0.0
    for i, (c1, c2) in enumerate(COMBOS.tolist()):
        if c1 in board or c2 in board:
            assert cls[i] == -1 and not any(m[i] for m in masks.values())
            continue
        name, draws = _brute(board, c1, c2)
        assert CLASS_NAMES[cls[i]] == name, (text, i, name)
        assert {d for d in DRAW_NAMES if masks[d][i]} == draws, (text, i, draws)
        want[name] = want.get(name, 0.0) + float(weights[i])
        alive_weight += float(weights[i])
    got = class_counts(board, weights)
    assert set(got) == {k for k, v in want.items() if v > 0}
    for k, v in want.items():
        assert got.get(k, 0.0) == pytest.approx(v, rel=1e-12)
    assert sum(got.values()) == pytest.approx(alive_weight, rel=1e-12)


def test_known_counts() -> None:
    # full combos on Kh7c2s: 9 sets, 27 two pair (3 x 3 x 3), 6 overpairs (AA), top pair with an
    # ace kicker 4 x 3 = 12; no draws on a rainbow dry board but backdoors
    c = class_counts(parse_cards("Kh7c2s"), np.ones(1326))
    assert (c["set"], c["two pair"], c["overpair"], c["top pair top kicker"]) == (9.0, 27.0, 6.0, 12.0)
    assert "flush draw" not in c and sum(c.values()) == 1176.0
    # straights on Td9d6h: 87 only (16 combos, two of them 8d7d: straight flush? no: 6h breaks it)
    c = class_counts(parse_cards("Td9d6h"), np.ones(1326))
    assert c["straight"] == 16.0 and c["set"] == 9.0
    assert class_counts(parse_cards("2c5d8hJs3c"), np.ones(1326))["straight"] == 32.0  # A4 and 64


def test_compatible_mass_counts_non_colliding_combos() -> None:
    r = np.ones(1326)
    # a combo meets the 1225 combos of the other 50 cards (its own cards excluded)
    assert np.all(compatible_mass(r) == 1225.0)
    rng = np.random.default_rng(3)
    r = rng.random(1326)
    brute = np.array([sum(r[j] for j in range(1326) if not set(COMBOS[i]) & set(COMBOS[j]))
                      for i in range(0, 1326, 97)])
    np.testing.assert_allclose(compatible_mass(r)[::97], brute, rtol=1e-12)


RIVER = "Td9d6hQc2s"
SMALL_OOP = "AA,KK,QQ,JTs,98s,A5s,76s"
SMALL_IP = "KK,QJs,T9s,AQo,88,54s,A2s"


def _turn_solver() -> SpotSolver:
    sp = make_spot(board="Kh9c4s2s", pot=60, stack=120, oop="AA,KQs,T9s,66,A5s,JJ,QTs",
                   ip="QQ,KJs,87s,A4s,99,AK", tree=tree_config(bets="50%", raises="none"))
    s = SpotSolver(sp, SolveConfig(precision="double"))
    s.solve(iterations=60, target_pct=None)
    return s


@pytest.fixture(scope="module")
def turn_solver() -> SpotSolver:
    return _turn_solver()


@pytest.mark.parametrize("path", ["", "check", "bet 30", "check,bet 30"])
def test_classes_combine_to_the_node(turn_solver: SpotSolver, path: str) -> None:
    s = turn_solver
    view = s.cursor(path)
    rep = s.node_report(view)
    res = node_classes(s, view, rep)
    cls = hand_classes(view.board)
    contrib = s.tree.contrib[view.node]
    for p, who in enumerate(("oop", "ip")):
        rows = [r for r in res["classes"] if r["player"] == who]
        reach = rep[who]["reach"]
        # combos are the node's range per class, and sum to it
        assert sum(r["combos"] for r in rows) == pytest.approx(reach.sum(), rel=1e-12)
        assert sum(r["share"] for r in rows) == pytest.approx(1.0, rel=1e-12)
        for r in rows:
            assert r["combos"] == pytest.approx(reach[cls == CLASS_NAMES.index(r["name"])].sum(), rel=1e-12)
        # EV and equity combine (by reach x opponent mass) to the range's figures
        wt = reach * compatible_mass(rep["ip" if who == "oop" else "oop"]["reach"])
        zs = {r["name"]: wt[cls == CLASS_NAMES.index(r["name"])].sum() for r in rows}
        ev = sum(zs[r["name"]] * r["ev"] for r in rows) / sum(zs.values())
        eq = sum(zs[r["name"]] * r["equity"] for r in rows) / sum(zs.values())
        assert ev == pytest.approx(rep[who]["range_ev"], rel=1e-9)
        assert eq == pytest.approx(rep[who]["range_equity"], rel=1e-9)
        assert res["comparison"]["range_equity"][who] == pytest.approx(rep[who]["range_equity"], rel=1e-9)
        for r in rows:
            want = (r["ev"] + contrib[p]) / (r["equity"] * rep["pot"])
            assert r["eqr"] == pytest.approx(want, rel=1e-12)
        if rep["kind"] == "decision" and rep["player"] == who:
            for a, f in rep["frequencies"].items():
                mix = sum(r["combos"] * r["actions"][a] for r in rows) / sum(r["combos"] for r in rows)
                assert mix == pytest.approx(f, rel=1e-9)
        else:
            assert all(r["actions"] == {} for r in rows)
        # nut share by hand from the per-combo equities
        eqs = np.nan_to_num(rep[who]["equity"])
        nut = wt[(eqs >= 0.8) & (wt > 0)].sum() / wt.sum()
        assert res["comparison"]["nut_share"][who] == pytest.approx(nut, rel=1e-12)
    cmp = res["comparison"]
    assert cmp["nut_advantage"] == pytest.approx(cmp["nut_share"]["oop"] - cmp["nut_share"]["ip"])
    for who in ("oop", "ip"):
        curve = cmp["curves"][who]
        assert len(curve) == 101 and all(a >= b - 1e-12 for a, b in zip(curve, curve[1:], strict=False))


def test_eqr_is_one_without_betting() -> None:
    # no bets: everybody checks down, EV = equity x pot for every class
    sp = make_spot(board=RIVER, pot=100, stack=300, oop=SMALL_OOP, ip=SMALL_IP, tree=tree_config(bets="none"))
    s = SpotSolver(sp, SolveConfig(precision="double"))
    s.solve(iterations=2, target_pct=None)
    res = node_classes(s, s.cursor(""))
    assert res["classes"]
    for r in res["classes"]:
        if r["eqr"] is not None:
            assert r["eqr"] == pytest.approx(1.0, rel=1e-9)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pokerlab.cli", *args], capture_output=True, text=True,
                          timeout=600)


def test_cli_show_classes(tmp_path: Path, turn_solver: SpotSolver) -> None:
    f = tmp_path / "t.npz"
    turn_solver.save(f)
    r = _cli("spot", "show", str(f), "--node", "check", "--classes", "--json",
             "--png", str(tmp_path / "c.png"))
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    want = node_classes(turn_solver, turn_solver.cursor("check"))
    assert len(obj["classes"]) == len(want["classes"])
    for got, exp in zip(obj["classes"], want["classes"], strict=True):
        assert set(got) >= {"player", "name", "combos", "share", "actions", "ev", "equity", "eqr"}
        assert got["player"] in ("oop", "ip") and got["name"] == exp["name"]
        for k in ("combos", "share", "ev", "equity", "eqr"):
            assert got[k] == pytest.approx(exp[k], rel=1e-9)
    assert obj["player"] == "ip" and any(c["actions"] for c in obj["classes"] if c["player"] == "ip")
    assert (tmp_path / "c.png").stat().st_size > 1000
    r = _cli("spot", "show", str(f), "--classes", "--player", "ip")
    assert r.returncode == 0 and " ip " in r.stdout and "oop set" not in r.stdout
    r = _cli("spot", "show", str(f), "--node", "check,nope", "--classes")
    assert r.returncode == 2 and r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1
    (tmp_path / "bad.npz").write_bytes(f.read_bytes()[:300])
    r = _cli("spot", "show", str(tmp_path / "bad.npz"), "--classes", "--json")
    assert r.returncode == 2 and r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1
