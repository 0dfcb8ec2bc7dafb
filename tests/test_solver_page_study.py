"""The study tool of the solver page (``/solver``): the hand-class, runout and preflop-chart
views, saving and loading a solve, node locking with a re-solve.  The API's numbers are the
plain functions' (:mod:`pokerlab.subgame.classes`, :mod:`pokerlab.subgame.runouts`,
:mod:`pokerlab.blueprint.charts`); the page in Chromium (as tests/test_solver_page.py) shows
them.  Small river/turn spots and few iterations keep the file fast.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from pokerlab.cards.cards import CLASS_NAMES, CLASS_OF_COMBO  # noqa: E402
from pokerlab.play.server import ServerConfig, create_app  # noqa: E402
from pokerlab.play.solver_report import clean  # noqa: E402

RIVER = {"board": "Td9d6h5c2s", "pot": 100, "stack": 400, "oop": "QQ+,AK,JTs", "ip": "JJ+,AQs+,98s",
         "river_bets": "50%,100%", "river_raises": "none"}
TURN = {"board": "Td9d6h5c", "pot": 100, "stack": 400, "oop": "QQ+,AK,JTs", "ip": "JJ+,AQs+,98s",
        "turn_bets": "75%", "turn_raises": "none", "river_bets": "75%", "river_raises": "none"}


@pytest.fixture(scope="module")
def app() -> Any:
    a = create_app(ServerConfig(agent="call"))
    a.state.solver.cfg = replace(a.state.solver.cfg, rate_per_second=1000.0, rate_burst=1000)
    return a


@pytest.fixture(scope="module")
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def wait_done(client: Any, sid: str, timeout: float = 60.0) -> dict[str, Any]:
    t0 = time.monotonic()
    while True:
        st = client.get(f"/api/solver/{sid}/status").json()
        if st["state"] not in ("starting", "running"):
            return st
        assert time.monotonic() - t0 < timeout, st
        time.sleep(0.05)


def solved(client: Any, spot: dict[str, Any], iterations: int = 40) -> str:
    r = client.post("/api/solver/solve", json={**spot, "iterations": iterations, "target_pct": 0.01})
    assert r.status_code == 200, r.text
    sid = r.json()["session"]
    assert wait_done(client, sid)["iteration"] == iterations
    return sid


@pytest.fixture(scope="module")
def river(client) -> str:
    return solved(client, RIVER)


def error_of(resp: Any, status: int = 400) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"} and "\n" not in body["error"] and "Traceback" not in body["error"]
    return str(body["error"])


# ---------------------------------------------------------------------------- API


def test_classes_are_the_plain_functions_numbers(app, client, river):
    from pokerlab.subgame.classes import node_classes

    solver = app.state.solver.jobs[river].solver
    for path in ([], ["check"], ["bet 50"]):
        got = client.post(f"/api/solver/{river}/classes", json={"path": path}).json()
        want = clean(node_classes(solver, solver.cursor(path)))
        assert got["classes"] == want["classes"] and got["comparison"] == want["comparison"]
        assert got["draws"] == want["draws"] and got["board"] == "Td9d6h5c2s"
        # the classes split each range: shares sum to 1, combos to the node's range
        for who in ("oop", "ip"):
            rows = [r for r in got["classes"] if r["player"] == who]
            assert sum(r["share"] for r in rows) == pytest.approx(1.0)
    root = client.post(f"/api/solver/{river}/classes", json={"path": []}).json()
    oop = {r["name"]: r for r in root["classes"] if r["player"] == "oop"}
    assert oop["overpair"]["combos"] == 18.0  # QQ+ on a ten-high board, none blocked
    assert root["actions"] == ["check", "bet 50", "bet 100"]
    assert sum(oop["overpair"]["actions"].values()) == pytest.approx(1.0)
    bad = client.post(f"/api/solver/{river}/classes", json={"path": ["raise 9"]})
    assert "no action 'raise 9'" in error_of(bad)
    assert "unknown field" in error_of(client.post(f"/api/solver/{river}/classes", json={"node": []}))
    error_of(client.post("/api/solver/no-such-session-token/classes", json={"path": []}), 404)


def test_runouts_are_the_plain_functions_numbers(app, client):
    from pokerlab.subgame.runouts import runout_report

    sid = solved(client, TURN, 20)
    solver = app.state.solver.jobs[sid].solver
    got = client.post(f"/api/solver/{sid}/runouts", json={"path": ["check", "check"]}).json()
    want = clean(runout_report(solver, solver.cursor(["check", "check"])))
    assert got["unseen"] == 48 and sum(len(r["cards"]) for r in got["cards"]) == 48
    for g, w in zip(got["cards"], want["cards"], strict=True):
        assert {k: g[k] for k in w} == w
        assert g["relative"] == pytest.approx(48 * w["weight"])
    assert sum(r["relative"] for r in got["cards"]) == pytest.approx(48.0)
    assert got["ev_oop"] == want["ev_oop"] and got["equity_oop"] == want["equity_oop"]
    msg = error_of(client.post(f"/api/solver/{sid}/runouts", json={"path": []}))
    assert "not a chance node" in msg


def test_save_and_load_a_solve(app, client, river, tmp_path):
    from pokerlab.subgame import SpotSolver

    r = client.get(f"/api/solver/{river}/save")
    assert r.status_code == 200 and r.headers["content-type"] == "application/octet-stream"
    assert "attachment" in r.headers["content-disposition"]
    # the file of 'pokerlab spot solve --out': the CLI's loader reads it, same strategy
    f = tmp_path / "spot.npz"
    f.write_bytes(r.content)
    cli = SpotSolver.load(f)
    assert cli.iteration == 40
    assert cli.root_actions() == pytest.approx(app.state.solver.jobs[river].solver.root_actions())
    up = client.post("/api/solver/load", content=r.content,
                     headers={"Content-Type": "application/octet-stream"})
    assert up.status_code == 200, up.text
    st = up.json()
    assert st["state"] == "done" and st["reason"] == "loaded" and st["iteration"] == 40
    assert st["source"] == "loaded" and st["exploitability_pct"] > 0
    assert st["ev_oop"] + st["ev_ip"] == pytest.approx(100, abs=1e-2)
    a = client.post(f"/api/solver/{river}/node", json={"path": ["check"]}).json()
    b = client.post(f"/api/solver/{st['session']}/node", json={"path": ["check"]}).json()
    assert a["frequencies"] == b["frequencies"] and a["ip"]["mix"] == b["ip"]["mix"]
    # damaged, foreign, empty and oversized files: one line each
    raw = bytearray(r.content)
    raw[len(raw) // 2] ^= 0xFF
    for bad in (bytes(raw), r.content[: len(r.content) // 2], b"not a spot file", b"PK\x03\x04" + b"\0" * 64):
        msg = error_of(client.post("/api/solver/load", content=bad))
        assert msg.startswith("cannot load the file") and "/tmp" not in msg
    assert "empty" in error_of(client.post("/api/solver/load", content=b""))
    hub = app.state.solver
    old = hub.cfg
    hub.cfg = replace(old, max_upload_bytes=1000)
    try:
        assert "too large" in error_of(client.post("/api/solver/load", content=r.content), 413)
    finally:
        hub.cfg = old


def test_save_refuses_a_running_solve(client):
    r = client.post("/api/solver/solve", json={**TURN, "iterations": 10_000, "target_pct": 0.01})
    sid = r.json()["session"]
    try:
        assert "still running" in error_of(client.get(f"/api/solver/{sid}/save"), 409)
        assert "still running" in error_of(client.post(f"/api/solver/{sid}/lock", json={
            "path": [], "hands": "AKo", "mix": {"check": 1}}), 409)
    finally:
        client.post(f"/api/solver/{sid}/stop")
        wait_done(client, sid)


def test_lock_a_class_and_resolve(app, client, river):
    k = CLASS_NAMES.index("AKo")
    body = {"path": [], "hands": "AKo", "mix": {"check": 0.25, "bet 100": 0.75}, "iterations": 30}
    r = client.post(f"/api/solver/{river}/lock", json=body)
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["session"] != river and st["source"] == "locked" and st["parent"] == river
    assert st["locks"] == [{"path": [], "hands": "AKo", "player": "oop", "combos": 12,
                            "mix": {"check": 0.25, "bet 50": 0.0, "bet 100": 0.75}}]
    done = wait_done(client, st["session"])
    assert done["state"] == "done" and done["iteration"] == 30
    node = client.post(f"/api/solver/{st['session']}/node", json={"path": []}).json()
    assert node["locked"] is True and node["locks"][0]["hands"] == "AKo"
    assert node["oop"]["mix"][k] == pytest.approx([0.25, 0.0, 0.75], abs=1e-4)
    for row in node["oop"]["combos"]:
        if row[1] == k:
            assert row[5] == pytest.approx([0.25, 0.0, 0.75], abs=1e-4)
    free = client.post(f"/api/solver/{river}/node", json={"path": []}).json()
    assert free["locked"] is False and free["oop"]["mix"][k] != pytest.approx([0.25, 0.0, 0.75], abs=1e-3)
    # a second lock (a board class, then a combo) keeps the first
    r2 = client.post(f"/api/solver/{st['session']}/lock", json={
        "path": ["check"], "hands": "overpair", "mix": {"bet 50": 1}, "iterations": 20})
    assert r2.status_code == 200, r2.text
    sid2 = r2.json()["session"]
    wait_done(client, sid2)
    solver = app.state.solver.jobs[sid2].solver
    rep = solver.node_report(solver.cursor(["check"]))
    over = [c for c in range(1326) if rep["ip"]["reach"][c] > 0 and CLASS_OF_COMBO[c] in
            [CLASS_NAMES.index(n) for n in ("QQ", "KK", "AA", "JJ")]]
    assert rep["actions"] == ["check", "bet 50", "bet 100"] and len(over) == 24
    assert np.allclose(rep["strategy"][:, over], [[0.0], [1.0], [0.0]])
    root = client.post(f"/api/solver/{sid2}/node", json={"path": []}).json()
    assert root["oop"]["mix"][k] == pytest.approx([0.25, 0.0, 0.75], abs=1e-4)
    assert len(r2.json()["locks"]) == 2
    # bad locks: one line each
    for change, needle in (({"mix": {"check": 0.5}}, "sum to 1"), ({"mix": {"jump": 1}}, "no action 'jump'"),
                           ({"mix": {"check": -1, "bet 50": 2}}, ">= 0"), ({"hands": "AXs"}, "bad hands"),
                           ({"hands": "TdTc"}, "board"), ({"hands": "72o"}, "no combo of 72o"),
                           ({"path": ["check", "check"]}, "only a decision"), ({"mix": [1]}, "an object")):
        msg = error_of(client.post(f"/api/solver/{river}/lock", json={**body, **change}))
        assert needle in msg, msg


def test_charts_api(app, client):
    from pokerlab.blueprint.charts import preflop_charts

    ch = client.get("/api/solver/charts?stack=100").json()
    plain = preflop_charts(100)
    assert len(ch["charts"]) == len(plain.nodes) and len(ch["flop_lines"]) == len(plain.flops)
    first = plain.nodes[0]
    assert ch["charts"][0]["actions"] == first.actions
    g = first.grid(0)
    assert ch["charts"][0]["grid"][0] == [round(g[n], 3) for n in CLASS_NAMES]
    f0 = ch["flop_lines"][0]
    assert f0["oop"] == plain.flops[0].ranges()["oop"] and f0["pot"] == plain.flops[0].pot
    # the ranges are the spot form's: the range endpoint reads them
    r = client.post("/api/solver/range", json={"range": f0["ip"]}).json()
    assert r["combos"] == pytest.approx(f0["ip_combos"], rel=1e-3)
    assert "no preflop charts" in error_of(client.get("/api/solver/charts?stack=150"))
    assert "no preflop charts" in error_of(client.get("/api/solver/charts?stack=abc"))


# ---------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from pokerlab.play.server import BackgroundServer
    with BackgroundServer(ServerConfig(agent="call")) as url:
        yield url


@pytest.fixture
def page(browser) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


def solve_in_page(page: Any, url: str, spot: dict[str, Any], iterations: int) -> None:
    page.goto(f"{url}/solver")
    page.wait_for_function("window.solverPage && window.solverPage.ready")
    for k in ("board", "oop", "ip"):
        page.fill(f"#{k}", spot[k])
    for k in ("flop_bets", "flop_raises", "turn_bets", "turn_raises", "river_bets", "river_raises"):
        page.fill(f"#{k}", spot.get(k, "none"))
    page.fill("#target", "0.01")
    page.fill("#iterations", str(iterations))
    n = page.evaluate("window.solverPage.nodes")
    page.click("#btn-solve")
    page.wait_for_function("n => window.solverPage.nodes > n", arg=n, timeout=60_000)


def test_classes_lock_save_and_load_in_the_browser(server, page, tmp_path):
    solve_in_page(page, server, RIVER, 40)
    sid = page.evaluate("window.solverPage.session")
    # the hand-class view: the rows are the API's numbers
    page.click("#btn-classes")
    page.wait_for_function("window.solverPage.classesDrawn > 0")
    api = post(f"{server}/api/solver/{sid}/classes", {"path": []})
    for who in ("oop", "ip"):
        rows = page.eval_on_selector_all(
            f"#classes-view table[data-player='{who}'] tr[data-name]",
            "rs => rs.map(r => [r.dataset.name, +r.dataset.combos, +r.dataset.share, +r.dataset.ev, "
            "+r.dataset.equity, r.dataset.mix || null])")
        want = [r for r in api["classes"] if r["player"] == who]
        assert [r[0] for r in rows] == [w["name"] for w in want]
        for r, w in zip(rows, want, strict=True):
            assert r[1:5] == [w["combos"], w["share"], w["ev"], w["equity"]]
            if who == "oop":
                assert [float(x) for x in r[5].split(",")] == [w["actions"][a] for a in api["actions"]]
    assert page.get_attribute("#curves", "data-curves") == "2"
    assert "nut advantage" in page.text_content("#classes-view")
    # save: the download is the spot file
    with page.expect_download() as info:
        page.click("#btn-save")
    saved = tmp_path / "saved.npz"
    info.value.save_as(saved)
    root_before = post(f"{server}/api/solver/{sid}/node", {"path": []})
    # lock AKo to check 100% at the root and re-solve: the view is replaced when done
    page.fill("#lock-hands", "AKo")
    page.fill("#lock-mix input[data-action='check']", "100")
    page.click("#btn-lock")
    page.wait_for_function("window.solverPage.relocks > 0", timeout=60_000)
    assert page.evaluate("window.solverPage.session") != sid
    assert page.get_attribute("#node-info", "data-locked") == "1"
    assert "locked" in page.text_content("#node-info")
    mix = [float(x) for x in page.get_attribute("#grid .cell[data-cls='AKo']", "data-mix").split(",")]
    assert mix == pytest.approx([1.0, 0.0, 0.0], abs=1e-3)
    assert "AKo" in page.text_content("#lock-info")
    # load the saved file back: the same root strategy as before the lock
    page.set_input_files("#load-file", str(saved))
    page.wait_for_function("window.solverPage.loads > 0")
    assert page.get_attribute("#node-info", "data-locked") == ""
    node = page.evaluate("window.solverPage.node")
    assert node["frequencies"] == root_before["frequencies"]
    assert node["oop"]["mix"] == root_before["oop"]["mix"]
    mix = [float(x) for x in page.get_attribute("#grid .cell[data-cls='AKo']", "data-mix").split(",")]
    assert mix == pytest.approx(root_before["oop"]["mix"][CLASS_NAMES.index("AKo")], abs=1e-6)
    assert "loaded" in page.text_content("#progress-text")
    # a corrupt upload: one clear message
    page.set_input_files("#load-file", files=[{"name": "broken.npz", "mimeType": "application/octet-stream",
                                               "buffer": saved.read_bytes()[:500]}])
    page.wait_for_function("document.querySelector('#error').textContent.length > 0")
    assert "cannot load the file" in page.text_content("#error")


def test_runouts_in_the_browser(server, page):
    solve_in_page(page, server, TURN, 20)
    for a in ("check", "check"):
        n = page.evaluate("window.solverPage.nodes")
        page.click(f"#actions .act[data-action='{a}']")
        page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    assert not page.is_disabled("#btn-runouts")
    page.click("#btn-runouts")
    page.wait_for_function("window.solverPage.runoutsDrawn > 0")
    rows = page.eval_on_selector_all("#runout-table tr[data-card]",
                                     "rs => rs.map(r => [r.dataset.cards, +r.dataset.weight])")
    assert sum(len(c.split(",")) for c, _ in rows) == 48
    assert sum(w for _, w in rows) == pytest.approx(48.0, abs=1e-6)
    assert page.get_attribute("#runouts-view svg", "data-bars") == str(len(rows))
    # a row deals its card
    n = page.evaluate("window.solverPage.nodes")
    page.click("#runout-table tr[data-card='2s']")
    page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    assert page.evaluate("window.solverPage.node.board") == "Td9d6h5c2s"


def test_preflop_charts_fill_the_ranges(server, page):
    page.goto(f"{server}/solver")
    page.wait_for_function("window.solverPage && window.solverPage.ready")
    page.select_option("#chart-stack", "200")
    page.click("#btn-charts")
    page.wait_for_function("window.solverPage.chartsDrawn > 0")
    ch = page.evaluate("window.solverPage.charts")
    assert ch["stack_bb"] == 200
    assert page.eval_on_selector_all("#chart-grid .cell", "cs => cs.length") == 169
    mix = [float(x) for x in page.get_attribute("#chart-grid .cell[data-cls='AA']", "data-mix").split(",")]
    assert sum(mix) == pytest.approx(1.0, abs=2e-3) and mix == [g[0] for g in ch["charts"][0]["grid"]]
    line = ch["flop_lines"][1]
    page.click("#flop-lines button.use[data-i='1']")
    page.wait_for_function("window.solverPage.filled > 0")
    assert page.input_value("#oop") == line["oop"] and page.input_value("#ip") == line["ip"]
    assert page.input_value("#pot") == str(line["pot"]) and page.input_value("#stack") == str(line["stack"])
    page.wait_for_function("document.querySelector('#oop-info').textContent.includes('combos')")
    shown = float(page.text_content("#oop-info").split(" combos")[0].replace(",", ""))
    assert shown == pytest.approx(line["oop_combos"], abs=0.5)
