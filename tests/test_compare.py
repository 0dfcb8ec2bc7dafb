"""Agent match logs as hand data, and the thesis's comparison report (pokerlab.hands.compare)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.errors import ConfigError

pytest.importorskip("pokerkit")
pytest.importorskip("duckdb")

MATCHES = (("tag", "random", 120, 3), ("call", "raise", 60, 4), ("tag", "call", 40, 9))


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    from pokerlab.arena.matches import play_match

    d = tmp_path_factory.mktemp("logs")
    out = []
    for a, b, n, seed in MATCHES:
        p = d / f"{a}_{b}.phhs"
        play_match(a, b, hands=n, seed=seed, out=p, workers=1, duplicate=True)
        out.append(p)
    return out


@pytest.fixture(scope="module")
def db(logs: list[Path], tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from pokerlab.hands.db import HandDB

    path = tmp_path_factory.mktemp("db") / "h.duckdb"
    with HandDB(path=path) as h:
        rep = h.import_paths(logs[:2], group="baselines")
        assert rep.stored == 180
        rep = h.import_paths(logs[2:], group="humans-standin")
        assert rep.stored == 40
    return path


def _recount(paths: list[Path]) -> dict[str, float]:
    """Per-game statistics recounted from the PHH text by replaying it in PokerKit."""
    from pokerkit import HandHistory

    hands = allin = showdown = 0
    ent_th = ent_pl = seats = 0
    ratios_th: list[float] = []
    ratios_pl: list[float] = []
    for path in paths:
        for sec in path.read_text().split("\n[")[0:]:
            body = sec.split("\n", 1)[1]
            hh = HandHistory.loads(body)
            start = list(hh.starting_stacks)
            n = len(start)
            prev_stacks: list[int] | None = None
            prev_bets: list[int] | None = None
            street = 0
            entered = [False] * n
            vpip = [False] * n
            any_allin = False
            folded = 0
            for st, act in hh.state_actions:
                stacks = [int(x) for x in st.stacks]
                bets = [int(x) for x in st.bets]
                if isinstance(act, str) and act.startswith("d db"):
                    street += 1
                if isinstance(act, str) and act.startswith("p") and prev_stacks is not None:
                    i = int(act.split()[0][1:]) - 1
                    kind = act.split()[1]
                    assert prev_bets is not None
                    folded += int(kind == "f")
                    if kind in ("cc", "cbr"):
                        added = prev_stacks[i] - stacks[i]
                        pot_before = sum(s - x for s, x in zip(start, prev_stacks, strict=True))
                        if stacks[i] == 0:
                            any_allin = True
                        if street == 0:
                            entered[i] = True
                            if kind == "cbr" or added > 0:
                                vpip[i] = True
                        if kind == "cbr":
                            facing = max(prev_bets)
                            to_call = facing - prev_bets[i]
                            ratios_th.append(added / pot_before)
                            ratios_pl.append((bets[i] - facing) / (pot_before + to_call))
                prev_stacks, prev_bets = stacks, bets
            hands += 1
            allin += int(any_allin)
            showdown += int(n - folded >= 2)
            ent_th += sum(entered)
            ent_pl += sum(vpip)
            seats += n
    return {"hands": hands, "allin_share": allin / hands, "showdown_share": showdown / hands,
            "entered_thesis": ent_th / seats, "entered_pokerlab": ent_pl / seats,
            "raise_thesis": sum(ratios_th) / len(ratios_th),
            "raise_pokerlab": sum(ratios_pl) / len(ratios_pl)}


def test_match_log_names_say_which_agent(db: Path) -> None:
    from pokerlab.hands.compare import group_players
    from pokerlab.hands.db import HandDB

    with HandDB(path=db, read_only=True) as h:
        assert group_players(h, "baselines") == ["A-call", "A-tag", "B-raise", "B-random"]
        assert group_players(h, "humans-standin") == ["A-tag", "B-call"]


def test_match_log_per_game_stats_match_recount(db: Path, logs: list[Path]) -> None:
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.stats import game_stats

    want = _recount(logs[:2])
    with HandDB(path=db, read_only=True) as h:
        gs = game_stats(h, group="baselines")
    assert gs["hands"] == want["hands"] == 180
    assert gs["allin_share"] == pytest.approx(want["allin_share"], abs=1e-4)
    assert gs["showdown_share"] == pytest.approx(want["showdown_share"], abs=1e-4)
    assert gs["entered_share"]["thesis"] == pytest.approx(want["entered_thesis"], abs=1e-4)
    assert gs["entered_share"]["pokerlab"] == pytest.approx(want["entered_pokerlab"], abs=1e-4)
    assert gs["raise_pot_ratio"]["thesis"] == pytest.approx(want["raise_thesis"], abs=1e-4)
    assert gs["raise_pot_ratio"]["pokerlab"] == pytest.approx(want["raise_pokerlab"], abs=1e-4)
    # the baselines do go all-in and do reach showdowns: the checks are not vacuous
    assert 0 < want["allin_share"] < 1 and 0 < want["showdown_share"] < 1


def test_compare_report(db: Path, tmp_path: Path) -> None:
    from pokerlab.hands.compare import THESIS_REFERENCE, write_compare_report
    from pokerlab.hands.db import HandDB
    from pokerlab.hands.stats import game_stats

    with HandDB(path=db, read_only=True) as h:
        s = write_compare_report(h, ["humans-standin", "baselines"], tmp_path / "r")
        gs = game_stats(h, group="baselines")
        with pytest.raises(ConfigError, match="nosuch"):
            write_compare_report(h, ["nosuch"], tmp_path / "x")
    kinds = {g["group"]: g["kind"] for g in s["groups"]}
    assert kinds == {"humans-standin": "human", "baselines": "agent"}
    for p in s["pngs"]:
        assert Path(p).stat().st_size > 5000
    data = json.loads((tmp_path / "r" / "compare.json").read_text())
    base = [g for g in data["groups"] if g["group"] == "baselines"][0]
    assert base["game_stats"]["allin_share"] == gs["allin_share"]
    assert data["thesis_reference"]["agent"]["raise_pot_ratio"] == 5.16
    assert THESIS_REFERENCE["human"]["allin_share"] == 0.065
    page = (tmp_path / "r" / "index.html").read_text()
    assert "thesis: humans" in page and "thesis: agents" in page and "516.0%" in page
    assert "A-tag" in page and base["style"] in page
    assert {p["player"] for p in base["players"]} == {"A-call", "A-tag", "B-raise", "B-random"}


def test_compare_cli(db: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pokerlab.cli import app

    r = CliRunner().invoke(app, ["hands", "report", "--db", str(db), "--out",
                                 str(tmp_path / "c"), "--compare", "humans-standin,baselines",
                                 "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [g["group"] for g in d["groups"]] == ["humans-standin", "baselines"]
    r = CliRunner().invoke(app, ["hands", "report", "--db", str(db), "--out",
                                 str(tmp_path / "d"), "--compare", "nosuch"])
    assert r.exit_code == 2
    assert "nosuch" in r.output and "Traceback" not in r.output
