"""The drill page (``/drill`` of ``pokerlab play``): its JSON API through the ASGI test client
(grades equal to the drill's own numbers, bad input a 400 with one line) and the page in a
real browser (Playwright driving Debian's Chromium, as tests/test_solver_page.py): deal,
answer, the grade shown with the numbers the API returned, the score.

``POKERLAB_DRILL_SHOT=docs/drill.png`` makes the browser test save the page's picture there
(how docs/drill.png is made).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from pokerlab.play.drills import DrillStore, load_drill  # noqa: E402
from pokerlab.play.server import ServerConfig, create_app  # noqa: E402
from pokerlab.subgame import SpotSolver, make_spot, tree_config  # noqa: E402


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A data folder with one solved river spot in its drill folder."""
    root = tmp_path_factory.mktemp("drilldata")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("POKERLAB_DATA", str(root))
        spot = make_spot(board="Td9d6h5c2s", pot=100, stack=400, oop="QQ+,AK,JTs,87s", ip="JJ+,AQs+,98s,K9s",
                         tree=tree_config(bets="50%,100%", raises="2.5x", raise_cap=2), big_blind=2.0)
        solver = SpotSolver(spot, threads=1)
        solver.solve(iterations=300, target_pct=0.1)
        (root / "drills").mkdir()
        solver.save(root / "drills" / "tiny.npz")
        yield root


@pytest.fixture(scope="module")
def client(data: Path) -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(agent="call"))) as c:
        yield c


def one_line(resp: Any, status: int = 400) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"}
    msg = body["error"]
    assert isinstance(msg, str) and msg and "\n" not in msg and "Traceback" not in msg
    return msg


def test_api_deals_and_grades_as_the_drill(client, data):
    spots = client.get("/api/drill/spots").json()
    assert spots["files"] == ["tiny"]
    assert len(spots["library"]) >= 6 and not any(e["built"] for e in spots["library"])
    r = client.post("/api/drill/start", json={"spot": "tiny", "node": "bet 50", "seed": 3})
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["info"]["player"] == "ip" and st["info"]["actions"] == ["fold", "call", "raise 125"]
    assert st["info"]["pot"] == 150.0 and st["info"]["facing_bb"] == 25.0
    drill = load_drill(data / "drills" / "tiny.npz", node="bet 50", name="tiny")
    assert st["hand"]["combo"] in set(int(c) for c in drill.live)
    sid, hand = st["session"], st["hand"]
    losses = []
    for action in ("call", "fold", "raise 125"):
        r = client.post(f"/api/drill/{sid}/answer", json={"action": action, "deal": hand["deal"]})
        assert r.status_code == 200, r.text
        out = r.json()
        want = drill.grade(hand["combo"], action)
        g = out["grade"]
        for k in ("ev_chosen_bb", "ev_best_bb", "ev_loss_bb", "ev_loss_pct", "ev_chosen_pct"):
            assert g[k] == pytest.approx(want[k], abs=1e-9), k
        assert g["best"] == want["best"] and g["mix"] == pytest.approx(want["mix"])
        losses.append(g["ev_loss_bb"])
        assert out["score"]["decisions"] == len(losses)
        assert out["score"]["mean_ev_loss_bb"] == pytest.approx(sum(losses) / len(losses))
        hand = out["hand"]
        assert hand["deal"] == len(losses)
    # the scores come from the database file in the data folder
    assert DrillStore(data / "drills.duckdb").score(sid)["decisions"] == 3
    assert client.get("/api/drill/score", params={"spot": "tiny"}).json()["decisions"] >= 3


@pytest.mark.parametrize("body, needle", [
    ({"spot": "nosuch"}, "unknown spot 'nosuch'"),
    ({"spot": "../drills/tiny"}, "unknown spot"),
    ({"spot": "tiny", "node": "bet 77"}, "no action 'bet 77'"),
    ({"spot": "tiny", "node": "bet 50,call"}, "not a decision node"),
    ({"spot": "tiny", "seed": -1}, "seed"),
    ({"spot": "tiny", "seed": "x"}, "seed"),
    ({}, "missing field 'spot'"),
])
def test_bad_start_is_one_line_400(client, body, needle):
    assert needle in one_line(client.post("/api/drill/start", json=body))


def test_bad_answers(client):
    sid = client.post("/api/drill/start", json={"spot": "tiny", "node": "bet 50"}).json()["session"]
    url = f"/api/drill/{sid}/answer"
    assert "unknown answer 'bet 9'" in one_line(client.post(url, json={"action": "bet 9"}))
    assert "not the hand dealt now" in one_line(client.post(f"/api/drill/{sid}/answer",
                                                            json={"action": "call", "deal": 5}))
    assert "must be one of" in one_line(client.post(f"/api/drill/{sid}/answer", json={"action": 3}))
    assert "JSON object" in one_line(client.post(f"/api/drill/{sid}/answer", content=b"[1"))
    assert "unknown or expired" in one_line(client.post("/api/drill/nope/answer", json={"action": "call"}),
                                            404)


# ---------------------------------------------------------------------------- browser



@pytest.fixture(scope="module")
def server(data: Path) -> Iterator[str]:
    from pokerlab.play.server import BackgroundServer
    with BackgroundServer(ServerConfig(agent="call")) as url:
        yield url


@pytest.fixture
def page(browser) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 820})
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def test_drill_in_the_browser(server, page, data):
    page.goto(f"{server}/drill")
    page.wait_for_function("window.drillPage && window.drillPage.ready")
    options = page.eval_on_selector_all("#spot option", "os => os.map(o => o.value)")
    assert options[0] == "tiny" and "srp-K72-5-oop" in options
    page.select_option("#spot", "tiny")
    page.fill("#node", "bet 50")
    page.fill("#seed", "4")
    page.click("#btn-start")
    page.wait_for_function("window.drillPage.hand !== null")
    st = page.evaluate("window.drillPage")
    assert st["info"]["actions"] == ["fold", "call", "raise 125"]
    assert page.eval_on_selector_all("#board .card", "cs => cs.map(c => c.dataset.card)") == [
        "Td", "9d", "6h", "5c", "2s"]
    hand = st["hand"]
    assert page.get_attribute("#hand", "data-combo") == str(hand["combo"])
    shown = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card).join('')")
    assert shown == hand["cards"]
    assert "facing 25.0 bb" in page.text_content("#spot-info")
    drill = load_drill(data / "drills" / "tiny.npz", node="bet 50", name="tiny")
    losses = []
    for k, action in enumerate(("call", "raise 125")):
        page.click(f"#actions .act[data-action='{action}']")
        page.wait_for_function("n => window.drillPage.answered === n", arg=k + 1)
        g = page.evaluate("window.drillPage.lastGrade")
        want = drill.grade(hand["combo"], action)
        assert g["ev_loss_bb"] == pytest.approx(want["ev_loss_bb"], abs=1e-9)
        # the page shows the API's numbers
        assert page.text_content("#ev-loss") == f"{g['ev_loss_bb']:.3f}"
        assert page.text_content("#ev-chosen") == f"{g['ev_chosen_bb']:.3f}"
        assert page.text_content("#ev-best") == f"{g['ev_best_bb']:.3f}"
        assert page.text_content("#ev-loss-pct") == f"{g['ev_loss_pct']:.2f}"
        assert page.text_content("#best") == g["best"]
        assert page.get_attribute("#grade", "data-in-mix") == str(g["in_mix"]).lower()
        rows = page.eval_on_selector_all("#grade-table tbody tr",
                                         "rs => rs.map(r => [...r.children].map(td => td.textContent))")
        assert [r[0] for r in rows] == ["fold", "call", "raise 125"]
        for r, a in zip(rows, g["actions"], strict=True):
            assert r[1] == f"{a['ev_bb']:.3f}" and r[4] == f"{100 * a['frequency']:.1f}%"
        losses.append(g["ev_loss_bb"])
        assert page.get_attribute("#score", "data-decisions") == str(k + 1)
        assert f"over {k + 1} decisions" in page.text_content("#score")
        assert page.is_visible("#btn-next")
        if k == 0:
            shot = os.environ.get("POKERLAB_DRILL_SHOT")
            if shot:
                page.screenshot(path=shot, full_page=True)
            page.click("#btn-next")
            hand = page.evaluate("window.drillPage.hand")
            assert hand["deal"] == 1
    mean = sum(losses) / 2
    assert f"mean EV loss {mean:.3f}" in page.text_content("#score")
    assert page.eval_on_selector_all("#class-table tbody tr", "rs => rs.length") >= 1
    # a bad node: the one line of the API in the status
    page.fill("#node", "bet 77")
    page.click("#btn-start")
    page.wait_for_function("document.querySelector('#status').textContent.includes('no action')")
    assert "error" in (page.get_attribute("#status", "class") or "")
