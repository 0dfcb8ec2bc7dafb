"""Ranges in and out (weighted text, JSON, files) and the CSV export of a saved solve."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cards.cards import CLASS_INDEX, CLASS_OF_COMBO, COMBO_INDEX, parse_card, parse_cards
from pokerlab.cards.ranges import (
    load_range,
    parse_range,
    range_from_json,
    range_to_json,
    range_to_weighted_text,
    save_range,
)
from pokerlab.errors import RangeError
from pokerlab.subgame import SolveConfig, SpotSolver, make_spot, tree_config
from pokerlab.subgame.report import combo_rows


def _random_range(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w = rng.random(1326) * (rng.random(1326) < 0.4)
    w[CLASS_OF_COMBO == CLASS_INDEX["QQ"]] = 1.0  # whole classes too
    w[CLASS_OF_COMBO == CLASS_INDEX["AKs"]] = 0.25
    w[CLASS_OF_COMBO == CLASS_INDEX["72o"]] = 0.0
    w[rng.integers(0, 1326, 30)] = 1.0
    return w


def test_weighted_text_round_trips_exactly() -> None:
    for seed in range(4):
        w = _random_range(seed)
        text = range_to_weighted_text(w)
        assert " " not in text
        assert np.array_equal(parse_range(text), w)
    w = _random_range(0)
    tokens = range_to_weighted_text(w).split(",")
    assert "QQ" in tokens and "AKs:0.25" in tokens and not any(t.startswith("72o") for t in tokens)


def test_commercial_solver_text() -> None:
    w = parse_range("AhKh:0.5,QQ,AKo:0.25,KsQs:0.125")
    ahkh = COMBO_INDEX[parse_card("Kh"), parse_card("Ah")]
    assert w[ahkh] == 0.5 and w[CLASS_OF_COMBO == CLASS_INDEX["QQ"]].tolist() == [1.0] * 6
    assert w[CLASS_OF_COMBO == CLASS_INDEX["AKo"]].sum() == pytest.approx(12 * 0.25)
    assert w.sum() == pytest.approx(0.5 + 6 + 3 + 0.125)
    assert np.array_equal(parse_range(range_to_weighted_text(w)), w)


def test_json_round_trips_exactly(tmp_path: Path) -> None:
    w = _random_range(7)
    obj = json.loads(json.dumps(range_to_json(w)))
    assert obj["format"] == "pokerlab-range" and len(obj["combos"]) == int((w > 0).sum())
    assert np.array_equal(range_from_json(obj), w)
    for name in ("r.json", "r.txt"):
        save_range(tmp_path / name, w)
        assert np.array_equal(load_range(tmp_path / name), w)
    # dead cards remove combos, as in the text notation
    board = parse_cards("QcQd2h")
    assert np.array_equal(load_range(tmp_path / "r.json", dead=board), parse_range(
        range_to_weighted_text(w), dead=board))
    assert np.array_equal(range_from_json({"range": "AhKh:0.5,QQ"}), parse_range("AhKh:0.5,QQ"))


@pytest.mark.parametrize("text, message", [
    ("AhKh:1.5", r"out of \[0, 1\]"),
    ("AhKh:x", "bad weight"),
    ("AhKh:", "bad weight"),
    ("AhKh:0.5:0.2", "bad weight"),
    ("AhKh:nan", r"out of \[0, 1\]"),
    ("AhAh:0.5", "bad range token"),
    ("AhKx:0.5", "bad range token"),
    ("QQ,,AKo:-0.1", r"out of \[0, 1\]"),
])
def test_malformed_weighted_text(text: str, message: str) -> None:
    with pytest.raises(RangeError, match=message):
        parse_range(text)


@pytest.mark.parametrize("obj, message", [
    ({"AhKh": 1.5}, "bad weight"),
    ({"AhKh": "0.5"}, "bad weight"),
    ({"AhKh": True}, "bad weight"),
    ({"AK": 0.5}, "bad combo"),
    ({}, "empty"),
    ([1, 2], "object"),
    ({"format": "other", "combos": {}}, "not a pokerlab range"),
    ({"format": "pokerlab-range", "version": 9, "combos": {}}, "version"),
])
def test_malformed_json(obj: object, message: str) -> None:
    with pytest.raises(RangeError, match=message):
        range_from_json(obj)


def test_bad_range_files(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(RangeError, match="not valid JSON"):
        load_range(tmp_path / "x.json")
    (tmp_path / "both.json").write_text(json.dumps({"oop": range_to_json(np.ones(1326)), "ip": {}}))
    with pytest.raises(RangeError, match="oop, ip"):
        load_range(tmp_path / "both.json")
    assert load_range(tmp_path / "both.json", player="oop").sum() == 1326


# ------------------------------------------------------------------ a saved solve


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pokerlab.cli", *args], capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sp = make_spot(board="Td9d6hQc2s", pot=100, stack=300, oop="AA,KK,QQ,JTs,98s,A5s,76s:0.5,AhKh:0.25",
                   ip="KK,QJs,T9s,AQo,88,54s,A2s", tree=tree_config(bets="50%,100%"))
    s = SpotSolver(sp, SolveConfig(precision="double"))
    s.solve(iterations=150, target_pct=None)
    f = tmp_path_factory.mktemp("solve") / "s.npz"
    s.save(f)
    return f


def test_export_rows_equal_show(tmp_path: Path, saved: Path) -> None:
    out = tmp_path / "e.csv"
    r = _cli("spot", "export", str(saved), "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    with out.open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == info["rows"]
    nodes = sorted({row["node"] for row in rows})
    assert "" in nodes and "check" in nodes and "bet 50" in nodes and len(nodes) == info["nodes"]
    solver = SpotSolver.load(saved)
    for node in ("", "bet 100", "check,bet 50"):
        for who in ("oop", "ip"):
            if (node, who) in (("", "oop"), ("bet 100", "ip")):  # the command itself
                r = _cli("spot", "show", str(saved), "--node", node, "--player", who, "--json")
                assert r.returncode == 0, r.stderr
                show = json.loads(r.stdout)
            else:  # what the command prints
                show = {"hands": combo_rows(solver.node_report(solver.cursor(node)), who)}
            mine = {row["combo"]: row for row in rows if row["node"] == node and row["player"] == who}
            assert len(mine) == len(show["hands"]) > 0
            for h in show["hands"]:
                row = mine[h["combo"]]
                assert float(row["reach"]) == h["reach"]
                assert (row["ev"] == "" and h["ev"] is None) or float(row["ev"]) == pytest.approx(h["ev"],
                                                                                             rel=1e-12)
                assert (row["equity"] == "" and h["equity"] is None) or float(row["equity"]) == pytest.approx(
                    h["equity"], rel=1e-12)
                for a, p in h.get("strategy", {}).items():
                    assert float(row[a]) == pytest.approx(p, rel=1e-12)
                if "strategy" not in h:
                    assert all(row[a] == "" for a in info["actions"])
    r = _cli("spot", "export", str(saved), "--node", "bet 100", "--out", str(tmp_path / "one.csv"))
    assert r.returncode == 0, r.stderr
    with (tmp_path / "one.csv").open() as fh:
        one = list(csv.DictReader(fh))
    assert {row["node"] for row in one} == {"bet 100"} and set(one[0]) >= {"fold", "call"}
    assert {row["class"] for row in one if row["player"] == "ip"} >= {"overpair", "two pair", "third pair"}


def test_export_and_ranges_bad_input(tmp_path: Path, saved: Path) -> None:
    r = _cli("spot", "export", str(saved), "--node", "bet 77", "--out", str(tmp_path / "e.csv"))
    assert r.returncode == 2 and "no action 'bet 77'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = _cli("spot", "export", str(saved), "--out", str(tmp_path / "e.txt"))
    assert r.returncode == 2 and r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04garbage")
    for args in (["export", str(tmp_path / "bad.npz"), "--out", str(tmp_path / "x.csv")],
                 ["ranges", str(tmp_path / "bad.npz")]):
        r = _cli("spot", *args)
        assert r.returncode == 2 and r.stderr.startswith("error:") and len(r.stderr.strip().splitlines()) == 1
    r = _cli("spot", "ranges", str(saved), "--out", str(tmp_path / "r.txt"))
    assert r.returncode == 2 and "--player" in r.stderr


def test_ranges_at_a_node(tmp_path: Path, saved: Path) -> None:
    s = SpotSolver.load(saved)
    rep = s.node_report(s.cursor("bet 100"))
    r = _cli("spot", "ranges", str(saved), "--node", "bet 100", "--json", "--out", str(tmp_path / "r.json"))
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    for who in ("oop", "ip"):
        assert np.array_equal(parse_range(obj[who]["range"]), rep[who]["reach"])
        assert np.array_equal(load_range(tmp_path / "r.json", player=who), rep[who]["reach"])
    # the spot's own ranges at the root, weights included
    r = _cli("spot", "ranges", str(saved), "--player", "oop", "--out", str(tmp_path / "oop.txt"))
    assert r.returncode == 0, r.stderr
    w = load_range(tmp_path / "oop.txt")
    assert np.array_equal(w, s.spot.ranges[0])
    assert w[COMBO_INDEX[parse_card("Kh"), parse_card("Ah")]] == 0.25


def test_spot_ranges_from_files(tmp_path: Path, saved: Path) -> None:
    from pokerlab.commands.spot_cmd import _range_arg

    w = _random_range(11)
    save_range(tmp_path / "w.txt", w)
    assert np.array_equal(_range_arg(f"@{tmp_path / 'w.txt'}", "oop"), w)
    assert _range_arg("QQ,AKs", "oop") == "QQ,AKs"
    r = _cli("spot", "ranges", str(saved), "--node", "check", "--out", str(tmp_path / "both.json"))
    assert r.returncode == 0, r.stderr
    s = SpotSolver.load(saved)
    rep = s.node_report(s.cursor("check"))
    both = f"@{tmp_path / 'both.json'}"
    sp = make_spot(board="Td9d6hQc2s", pot=100, stack=300, oop=_range_arg(both, "oop"),
                   ip=_range_arg(both, "ip"), tree=tree_config(bets="50%"))
    assert np.array_equal(sp.ranges[0], rep["oop"]["reach"])
    assert np.array_equal(sp.ranges[1], rep["ip"]["reach"])
    (tmp_path / "bad.txt").write_text("AhKh:2,QQ")
    with pytest.raises(RangeError, match="weight 2 out of"):
        _range_arg(f"@{tmp_path / 'bad.txt'}", "ip")


def test_a_missing_range_file_is_one_clear_error(tmp_path: Path) -> None:
    from pokerlab.cards.ranges import load_range
    from pokerlab.errors import PokerlabError

    with pytest.raises(PokerlabError, match="range file .* not found"):
        load_range(tmp_path / "none.txt")
    bad = tmp_path / "latin.txt"
    bad.write_bytes(b"\xff\xfeAA")
    with pytest.raises(PokerlabError, match="cannot be read"):
        load_range(bad)
