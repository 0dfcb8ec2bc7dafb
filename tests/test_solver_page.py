"""The spot solver page (``/solver``): its JSON API through the ASGI test client (bad input is
400 with one line, the limits, a solve to its target, the node reports) and the page in a
real browser (Playwright driving Debian's Chromium, as tests/test_play_browser.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from pokerlab.cards.cards import CLASS_NAMES  # noqa: E402
from pokerlab.play.server import ServerConfig, create_app  # noqa: E402
from pokerlab.play.solver_page import SolverHub, SolverPageConfig, SolverPageError, node_json  # noqa: E402

RIVER = {"board": "Td9d6h5c2s", "pot": 100, "stack": 400, "oop": "QQ+,AK,JTs", "ip": "JJ+,AQs+,98s",
         "river_bets": "50%,100%", "river_raises": "2.5x"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(ServerConfig(agent="call"))
    hub = app.state.solver  # these tests poll fast: lift the per-visitor rate limit
    hub.cfg = replace(hub.cfg, rate_per_second=1000.0, rate_burst=1000)
    with TestClient(app) as c:
        yield c


def wait_done(client: TestClient, sid: str, timeout: float = 60.0) -> dict[str, Any]:
    t0 = time.monotonic()
    while True:
        st = client.get(f"/api/solver/{sid}/status").json()
        if st["state"] not in ("starting", "running"):
            return st
        assert time.monotonic() - t0 < timeout, st
        time.sleep(0.05)


def one_line_400(resp: Any, status: int = 400) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"}
    msg = body["error"]
    assert isinstance(msg, str) and msg and "\n" not in msg and "Traceback" not in msg
    return msg


@pytest.mark.parametrize("change, needle", [
    ({"board": "Td9d"}, "3, 4 or 5 cards"),
    ({"board": "Td9dXx"}, "bad card"),
    ({"board": "TdTd6h"}, "twice"),
    ({"oop": "QQ+,AX"}, "bad range token 'AX'"),
    ({"ip": ""}, "missing field 'ip'"),
    ({"ip": "TdTc"}, "empty once the board"),
    ({"river_bets": "2.5x"}, "raise size"),
    ({"river_bets": "fifty"}, "bad river bet size"),
    ({"river_raises": "0.5x"}, "above 1x"),
    ({"pot": "100"}, "must be a number"),
    ({"pot": True}, "must be a number"),
    ({"pot": -5}, "positive"),
    ({"stack": 10.5}, "whole number"),
    ({"allin_threshold": -1}, ">= 0"),
    ({"raise_cap": 1000}, "raise_cap"),
    ({"oop": "AA," * 3000}, "too long"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"target_pct": 0}, "target_pct"),
    ({"iterations": 10**9}, "iterations"),
    ({"iterations": 2.5}, "integer"),
    ({"session": "../../etc"}, "session"),
])
def test_bad_spots_are_400_with_one_line(client, change, needle):
    msg = one_line_400(client.post("/api/solver/solve", json={**RIVER, **change}))
    assert needle in msg


def test_bad_bodies_and_sessions(client):
    assert "not valid JSON" in one_line_400(client.post("/api/solver/solve", content=b"{nope",
                                                        headers={"Content-Type": "application/json"}))
    assert "JSON object" in one_line_400(client.post("/api/solver/solve", json=[1, 2]))
    assert "too large" in one_line_400(client.post("/api/solver/solve", content=b"x" * 70_000))
    assert "bad range token" in one_line_400(client.post("/api/solver/range", json={"range": "AKx"}))
    assert "given twice" in one_line_400(client.post("/api/solver/tree", json={**RIVER, "board": "AsAs"}))
    one_line_400(client.get("/api/solver/unknown-session-token/status"), 404)
    one_line_400(client.post("/api/solver/unknown-session-token/stop"), 404)
    one_line_400(client.post("/api/solver/unknown-session-token/node", json={"path": []}), 404)


def test_memory_limit_is_one_line(client):
    flop = {**RIVER, "board": "Td9d6h", "oop": "random", "ip": "random", "bets": "33%,75%", "raises": "2.5x"}
    flop = {k: v for k, v in flop.items() if not k.startswith("river")}
    # about 14 GB: over the server's default of 2 GB
    msg = one_line_400(client.post("/api/solver/solve", json=flop))
    assert "over the server's limit of 2,000.0 MB" in msg
    tree = client.post("/api/solver/tree", json=flop).json()
    assert tree["over_limit"] is True and tree["memory_bytes"] > tree["max_memory"] == 2_000_000_000
    hub = SolverHub(SolverPageConfig(max_memory=1_000))
    with pytest.raises(SolverPageError) as info:
        hub.start(dict(RIVER))
    assert info.value.status == 400 and "over the server's limit of 0.0 MB" in str(info.value)
    assert not hub.jobs


def test_range_and_config(client):
    cfg = client.get("/api/solver/config").json()
    assert cfg["classes"] == list(CLASS_NAMES) and cfg["max_memory"] == 2_000_000_000
    r = client.post("/api/solver/range", json={"range": "QQ+,AK"}).json()
    assert r["combos"] == 18 + 16
    w = dict(zip(CLASS_NAMES, r["weights"], strict=True))
    assert w["AA"] == w["AKs"] == w["AKo"] == 1.0 and w["JJ"] == 0.0
    assert r["text"].replace(" ", "") == "QQ+,AKs,AKo"


def test_solve_to_target_and_walk(client):
    r = client.post("/api/solver/solve", json={**RIVER, "target_pct": 0.2, "iterations": 2000})
    assert r.status_code == 200, r.text
    sid = r.json()["session"]
    st = wait_done(client, sid)
    assert st["state"] == "done" and st["reason"] == "target"
    assert st["exploitability_pct"] <= 0.2 and st["history"][-1][1] == st["exploitability_pct"]
    pcts = [p for _, p in st["history"]]
    assert pcts[0] > pcts[-1]
    assert st["ev_oop"] + st["ev_ip"] == pytest.approx(100, abs=1e-3)
    # the same session: a second solve replaces the finished one
    root = client.post(f"/api/solver/{sid}/node", json={"path": []}).json()
    assert root["kind"] == "decision" and root["player"] == "oop"
    assert root["actions"][0] == "check" and sum(root["frequencies"]) == pytest.approx(1, abs=1e-3)
    oop = root["oop"]
    assert len(oop["mix"]) == 169 and oop["mix"][CLASS_NAMES.index("AA")] is not None
    assert oop["mix"][CLASS_NAMES.index("72o")] is None
    combos = {c[0]: c for c in oop["combos"]}
    assert "AsAh" in combos and "TdTc" not in combos  # JTs is in range; pairs of tens are not
    row = combos["AsAh"]
    assert len(row[5]) == len(root["actions"]) and sum(row[5]) == pytest.approx(1, abs=1e-3)
    assert row[3] is not None and 0 <= row[4] <= 1
    bet = next(a for a in root["actions"] if a.startswith("bet"))
    node = client.post(f"/api/solver/{sid}/node", json={"path": [bet]}).json()
    assert node["player"] == "ip" and node["actions"][:2] == ["fold", "call"]
    assert node["ip"]["mix"] is not None and node["oop"]["mix"] is None
    msg = one_line_400(client.post(f"/api/solver/{sid}/node", json={"path": ["raise 7"]}))
    assert "no action 'raise 7'" in msg
    one_line_400(client.post(f"/api/solver/{sid}/node", json={"path": "check"}))
    one_line_400(client.post(f"/api/solver/{sid}/node", json={"path": [1]}))
    again = {**RIVER, "session": sid, "iterations": 5, "target_pct": 0.01}
    r2 = client.post("/api/solver/solve", json=again)
    assert r2.status_code == 200 and r2.json()["session"] == sid
    st2 = wait_done(client, sid)
    assert st2["reason"] == "iterations" and st2["iteration"] == 5


def test_turn_chance_node_and_stop(client):
    spot = {**RIVER, "board": "Td9d6h5c", "oop": "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+",
            "ip": "22+,A2s+,K9s+,QTs+,J9s+,T9s,98s,ATo+,KJo+", "turn_bets": "33%,75%",
            "turn_raises": "2.5x", "river_bets": "33%,75%", "river_raises": "2.5x"}
    r = client.post("/api/solver/solve", json={**spot, "iterations": 10_000, "target_pct": 0.01})
    sid = r.json()["session"]
    # one solve at a time per session
    msg = one_line_400(client.post("/api/solver/solve", json={**spot, "session": sid}), 409)
    assert "already running" in msg
    time.sleep(0.3)
    # the event loop is not blocked by the solve: requests answer at once
    t0 = time.monotonic()
    assert client.get(f"/api/solver/{sid}/status").json()["state"] == "running"
    assert client.get("/api/solver/config").status_code == 200
    assert time.monotonic() - t0 < 1.0
    client.post(f"/api/solver/{sid}/stop")
    st = wait_done(client, sid)
    assert st["state"] == "stopped" and st["iteration"] > 0 and st["exploitability_pct"] is not None
    chance = client.post(f"/api/solver/{sid}/node", json={"path": ["check", "check"]}).json()
    assert chance["kind"] == "chance" and len(chance["cards"]) == 48 and "Td" not in chance["cards"]
    river = client.post(f"/api/solver/{sid}/node", json={"path": ["check", "check", "2s"]}).json()
    assert river["street"] == "river" and river["board"] == "Td9d6h5c2s" and river["player"] == "oop"
    assert "already on the board" in one_line_400(
        client.post(f"/api/solver/{sid}/node", json={"path": ["check", "check", "Td"]}))


def test_concurrency_cap():
    hub = SolverHub(SolverPageConfig(max_running=1))
    a = hub.start({**RIVER, "iterations": 10_000, "target_pct": 0.01}, "visitor-a")
    try:
        with pytest.raises(Exception) as info:
            hub.start(dict(RIVER), "visitor-b")
        assert getattr(info.value, "status", None) == 503 and "busy" in str(info.value)
    finally:
        hub.shutdown()
    assert hub.jobs[a["session"]].state == "stopped"


def test_node_json_grid_mix():
    from pokerlab.subgame import SpotSolver, make_spot, tree_config
    spot = make_spot(board="Td9d6h5c2s", pot=100, stack=400, oop="QQ+,AK", ip="JJ+,AQs+",
                     tree=tree_config(bets="50%", raises="none"))
    s = SpotSolver(spot)
    for _ in range(30):
        s.step()
    rep = s.node_report(s.cursor([]))
    out = node_json(rep)
    k = CLASS_NAMES.index("AKo")
    from pokerlab.cards.cards import CLASS_OF_COMBO
    idx = np.flatnonzero((CLASS_OF_COMBO == k) & (rep["oop"]["reach"] > 0))
    want = rep["strategy"][:, idx].mean(axis=1)  # reach 1 everywhere at the root
    assert out["oop"]["mix"][k] == pytest.approx(want, abs=1e-4)
    assert out["oop"]["reach"][k] == pytest.approx(1.0)
    assert out["oop"]["reach"][CLASS_NAMES.index("TT")] == 0.0


# ---------------------------------------------------------------------------- browser



@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from pokerlab.play.server import BackgroundServer
    with BackgroundServer(ServerConfig(agent="call")) as url:
        yield url


@pytest.fixture
def page(browser) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def open_page(page: Any, url: str) -> None:
    page.goto(f"{url}/solver")
    page.wait_for_function("window.solverPage && window.solverPage.ready")


def test_solve_walk_and_hover_in_the_browser(server, page):
    open_page(page, server)
    # the board by the picker: clear it, then click five cards
    page.fill("#board", "")
    page.dispatch_event("#board", "input")
    for c in ("Td", "9d", "6h", "5c", "2s"):
        page.click(f"#board-picker .pcard[data-card='{c}']")
    assert page.input_value("#board") == "Td9d6h5c2s"
    assert page.eval_on_selector_all("#board-picker .pcard.on", "bs => bs.length") == 5
    # ranges as text; the painter follows
    page.fill("#oop", "QQ+,AK,JTs")
    page.fill("#ip", "JJ+,AQs+,98s")
    page.wait_for_function("document.querySelector('#ip-info').textContent.includes('combos')")
    page.fill("#river_bets", "50%,100%")
    page.fill("#target", "0.2")
    page.fill("#iterations", "3000")
    page.click("#btn-solve")
    page.wait_for_function("window.solverPage.nodes > 0", timeout=60_000)
    st = page.evaluate("window.solverPage.status")
    assert st["state"] == "done" and st["reason"] == "target"
    shown = float(page.get_attribute("#expl", "data-pct"))
    assert 0 < shown <= 0.2
    assert "% of pot" in page.text_content("#expl")
    assert page.get_attribute("#chart", "data-points") not in (None, "0")
    assert page.eval_on_selector("#progress-bar", "e => parseFloat(e.style.width)") == 100
    # the root: OOP's strategy on the grid
    assert "OOP to act" in page.text_content("#node-info")
    actions = page.eval_on_selector_all("#actions .act", "bs => bs.map(b => b.dataset.action)")
    assert actions[0] == "check" and any(a.startswith("bet") for a in actions)
    bet = next(a for a in actions if a.startswith("bet"))
    n = page.evaluate("window.solverPage.nodes")
    page.click(f"#actions .act[data-action='{bet}']")
    page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    assert "IP to act" in page.text_content("#node-info")
    ip_actions = page.eval_on_selector_all("#actions .act", "bs => bs.map(b => b.dataset.action)")
    assert ip_actions[:2] == ["fold", "call"] and ip_actions[2].startswith("raise")
    # the grid shows IP's action mix: cells in range carry frequencies summing to 1
    mix = page.get_attribute("#grid .cell[data-cls='AKs']", "data-mix")
    freqs = [float(x) for x in mix.split(",")]
    assert len(freqs) == len(ip_actions) and sum(freqs) == pytest.approx(1, abs=1e-3)
    fill = page.eval_on_selector("#grid .cell[data-cls='AKs'] .fill", "e => e.style.background")
    assert "linear-gradient" in fill
    assert page.get_attribute("#grid .cell[data-cls='72o']", "data-mix") is None
    assert "fold" in page.text_content("#legend") and "%" in page.text_content("#legend")
    # hover: the combos of the class with strategy, EV and equity
    page.hover("#grid .cell[data-cls='AKs']")
    page.wait_for_selector("#tip:not(.hidden)")
    tip = page.text_content("#tip")
    assert "AKs" in tip and "EV" in tip and "equity" in tip and "AhKh" in tip
    assert "fold" in tip and "call" in tip
    # back to the root by the crumbs
    n = page.evaluate("window.solverPage.nodes")
    page.click("#crumbs .crumb >> nth=0")
    page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    assert "OOP to act" in page.text_content("#node-info")


def test_bad_input_shows_one_line_in_the_page(server, page):
    open_page(page, server)
    page.fill("#board", "Td9d6h5c2s")
    page.fill("#river_bets", "2.5x")
    page.click("#btn-solve")
    page.wait_for_function("document.querySelector('#error').textContent.length > 0")
    err = page.text_content("#error")
    assert "raise size" in err and "Traceback" not in err and "\n" not in err
    assert not page.is_disabled("#btn-solve")
    page.fill("#river_bets", "50%")
    page.fill("#oop", "QQ+,AX")
    page.wait_for_function("document.querySelector('#oop-info').classList.contains('bad')")
    assert "bad range token" in page.text_content("#oop-info")


def test_paint_a_range(server, page):
    open_page(page, server)
    page.check("input[name=paint][value=ip]")
    page.fill("#ip", "AA")
    page.wait_for_function("document.querySelector('#ip-info').textContent.startsWith('6 combos')")
    # drag from AKs to AQs (the row of aces, right of AA)
    a = page.locator("#range-grid .cell[data-k='1']").bounding_box()
    b = page.locator("#range-grid .cell[data-k='2']").bounding_box()
    page.mouse.move(a["x"] + 3, a["y"] + 3)
    page.mouse.down()
    page.mouse.move(b["x"] + 3, b["y"] + 3, steps=4)
    page.mouse.up()
    page.wait_for_function("document.querySelector('#ip-info').textContent.startsWith('14 combos')")
    assert page.input_value("#ip").replace(" ", "") == "AA,AQs+"


def test_deal_turn_and_river_cards_in_the_browser(server, page):
    open_page(page, server)
    page.fill("#board", "Td9d6h")
    page.fill("#oop", "QQ+")
    page.fill("#ip", "JJ+,98s")
    page.fill("#flop_bets", "75%")
    page.fill("#flop_raises", "none")
    page.fill("#turn_bets", "75%")
    page.fill("#turn_raises", "none")
    page.fill("#river_bets", "75%")
    page.fill("#river_raises", "none")
    page.fill("#iterations", "20")
    page.click("#btn-solve")
    page.wait_for_function("window.solverPage.nodes > 0", timeout=120_000)
    assert page.evaluate("window.solverPage.status.iteration") == 20
    for a in ("check", "check"):
        n = page.evaluate("window.solverPage.nodes")
        page.click(f"#actions .act[data-action='{a}']")
        page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    assert "deal the next card" in page.text_content("#node-info")
    assert page.is_disabled("#deal .pcard[data-card='Td']")  # on the board
    assert page.eval_on_selector_all("#deal .pcard:not(:disabled)", "bs => bs.length") == 49
    n = page.evaluate("window.solverPage.nodes")
    page.click("#deal .pcard[data-card='2c']")
    page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    assert "turn" in page.text_content("#node-info") and "OOP to act" in page.text_content("#node-info")
    board = page.eval_on_selector_all("#node-board .bcard", "cs => cs.map(c => c.dataset.card)")
    assert board == ["Td", "9d", "6h", "2c"]
    for a in ("check", "check"):
        n = page.evaluate("window.solverPage.nodes")
        page.click(f"#actions .act[data-action='{a}']")
        page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    n = page.evaluate("window.solverPage.nodes")
    page.click("#deal .pcard[data-card='As']")
    page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    assert "river" in page.text_content("#node-info")
    crumbs = page.eval_on_selector_all("#crumbs .crumb", "bs => bs.map(b => b.textContent)")
    assert crumbs == ["root", "check", "check", "2c", "check", "check", "As"]


def test_reload_keeps_the_form_and_asks_before_replacing(server, page):
    """Issue 53 item 10: a reload keeps the form beside the old solve; Solve asks before it
    replaces a finished or running solve; the raise cap and 16-bit storage reach the solver,
    and the memory estimate is shown before solving."""
    open_page(page, server)
    page.fill("#board", "Td9d6h5c2s")
    page.fill("#oop", "QQ+,AK,JTs")
    page.fill("#ip", "JJ+,AQs+,98s")
    page.fill("#river_bets", "50%")
    page.fill("#river_raises", "2.5x")
    page.fill("#raise_cap", "1")
    page.check("#compress")
    page.fill("#target", "0.2")
    page.fill("#iterations", "3000")
    # the estimate of this form (16 bits, the cap) is on the page before solving
    page.wait_for_function("document.querySelector('#estimate').textContent.includes('in 16 bits')")
    from pokerlab.subgame import estimate_size, make_spot, tree_config
    tree = tree_config(flop_bets="33%,75%", turn_bets="75%", river_bets="50%", raises="2.5x", raise_cap=1)
    want = estimate_size(make_spot(board="Td9d6h5c2s", pot=100, stack=400, oop="QQ+,AK,JTs",
                                   ip="JJ+,AQs+,98s", tree=tree), compress=True)
    assert int(page.get_attribute("#estimate", "data-bytes")) == want.memory_bytes
    page.click("#btn-solve")
    page.wait_for_function("window.solverPage.nodes > 0", timeout=60_000)
    st = page.evaluate("window.solverPage.status")
    assert st["state"] == "done" and st["compress"] is True and st["memory_bytes"] == want.memory_bytes
    sid = st["session"]
    n = page.evaluate("window.solverPage.nodes")
    page.click("#actions .act[data-action='bet 50']")
    page.wait_for_function("n => window.solverPage.nodes > n", arg=n)
    acts = page.eval_on_selector_all("#actions .act", "bs => bs.map(b => b.dataset.action)")
    assert acts == ["fold", "call"]  # raise cap 1: no raise over the bet
    # reload: the form and the old solve are both there
    page.reload()
    page.wait_for_function("window.solverPage && window.solverPage.ready")
    assert page.input_value("#river_bets") == "50%" and page.input_value("#raise_cap") == "1"
    assert page.is_checked("#compress") and page.input_value("#target") == "0.2"
    assert page.input_value("#iterations") == "3000" and page.input_value("#board") == "Td9d6h5c2s"
    page.wait_for_function("window.solverPage.status && window.solverPage.status.state === 'done'")
    assert page.evaluate("window.solverPage.session") == sid
    done_at = page.evaluate("window.solverPage.status.iteration")
    # Solve asks first: dismissed, nothing is replaced
    asked: list[str] = []

    def dismiss(d: Any) -> None:
        asked.append(d.message)
        d.dismiss()

    page.once("dialog", dismiss)
    page.click("#btn-solve")
    page.wait_for_function("window.solverPage.asked === 1")
    assert "Replace it" in asked[0] and "has finished" in asked[0] and f"iteration {done_at}" in asked[0]
    time.sleep(0.3)
    assert page.evaluate("window.solverPage.status.iteration") == done_at
    assert page.evaluate("window.solverPage.status.state") == "done"
    # accepted: the new solve replaces it in the same session
    page.fill("#iterations", "7")
    page.fill("#target", "0.01")
    page.once("dialog", lambda d: d.accept())
    page.click("#btn-solve")
    page.wait_for_function("window.solverPage.asked === 2 && window.solverPage.status.iteration === 7 && "
                           "window.solverPage.status.state === 'done'", timeout=60_000)
    assert page.evaluate("window.solverPage.session") == sid


def test_progress_goes_toward_the_target_in_the_browser(server, page):
    """The bar shows how far the exploitability has come toward the target (log scale), with
    the seconds left, not the share of the iteration limit."""
    open_page(page, server)
    page.fill("#board", "Td9d6h5c")
    page.fill("#oop", "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+")
    page.fill("#ip", "22+,A2s+,K9s+,QTs+,J9s+,T9s,98s,ATo+,KJo+")
    for street in ("turn", "river"):
        page.fill(f"#{street}_bets", "33%,75%")
        page.fill(f"#{street}_raises", "2.5x")
    page.fill("#target", "0.01")
    page.fill("#iterations", "10000")
    page.click("#btn-solve")
    page.wait_for_function("window.solverPage.status && window.solverPage.status.state === 'running' && "
                           "window.solverPage.status.history.length >= 4", timeout=60_000)
    snap = page.evaluate("""() => ({st: window.solverPage.status,
        width: document.querySelector('#progress-bar').style.width,
        prog: document.querySelector('#progress-bar').dataset.progress,
        eta: document.querySelector('#progress-text').dataset.eta,
        text: document.querySelector('#progress-text').textContent})""")
    st = snap["st"]
    pts = [p for _, p in st["history"]]
    want = math.log(pts[0] / pts[-1]) / math.log(pts[0] / 0.01)
    assert float(snap["prog"]) == pytest.approx(st["progress"]) == pytest.approx(max(0.0, want), abs=2e-3)
    assert 0 < st["progress"] < 1 and st["iteration"] < 0.05 * st["max_iterations"]
    assert snap["width"] == f"{100 * st['progress']:.1f}%"
    # progress toward the target, not iterations of the maximum (which would be under 5%)
    assert st["progress"] > st["iteration"] / st["max_iterations"]
    assert float(snap["eta"]) >= 0 and "to 0.01%" in snap["text"] and "about" in snap["text"]
    page.click("#btn-stop")
    page.wait_for_function("window.solverPage.status.state === 'stopped'", timeout=60_000)
