"""The hand review page (``/review``): its API through the ASGI test client (uploads, limits,
one job per visitor, a job stopped when unwatched, a review's numbers) and the page in a real
browser (Playwright driving Debian's Chromium, as tests/test_solver_page.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from pokerlab.play.review_page import ReviewHub, ReviewJob, ReviewPageConfig, ReviewPageError  # noqa: E402
from pokerlab.play.server import ServerConfig, create_app  # noqa: E402

# 6-max: UTG opens, HJ 3-bets, UTG 4-bets, HJ calls (ranges "4bet" / "call4bet": ~35 combos a
# side, a fast solve); flop UTG bets 2000, HJ calls; turn check, check; river UTG all-in, HJ folds
ACTIONS = repr(["d dh p1 3c9s", "d dh p2 4h5d", "d dh p3 AhAd", "d dh p4 KhKd", "d dh p5 Tc9c",
                "d dh p6 7c7h", "p3 cbr 300", "p4 cbr 900", "p5 f", "p6 f", "p1 f", "p2 f",
                "p3 cbr 2200", "p4 cc", "d db Ks7d2c", "p3 cbr 2000", "p4 cc", "d db 3h", "p3 cc",
                "p4 cc", "d db 8h", "p3 cbr 5800", "p4 f"]).replace('"', "'")
HAND = """[1]
variant = 'NT'
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 0, 0, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]
actions = """ + ACTIONS + """
players = ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay']
"""
ITERATIONS = 8


def one_line(resp: Any, status: int) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"}
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return str(body["error"])


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(agent="call"))) as c:
        yield c


def wait(client: TestClient, job: str) -> dict[str, Any]:
    while True:
        st = client.get(f"/api/review/{job}/status").json()
        if st["state"] not in ("starting", "running"):
            return st
        time.sleep(0.1)


def upload(client: TestClient, text: str = HAND) -> dict[str, Any]:
    r = client.post("/api/review/upload", content=text.encode(), headers={"X-File-Name": "t.phhs"})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_upload_lists_players_and_refuses_bad_files(client: TestClient) -> None:
    up = upload(client)
    assert up["hands"] == 1 and up["rejected"] == 0
    assert sorted(p["name"] for p in up["players"]) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    assert all(p["hands"] == 1 for p in up["players"])
    assert "empty" in one_line(client.post("/api/review/upload", content=b"  \n"), 400)
    assert "no hand" in one_line(client.post("/api/review/upload", content=b"hello world"), 400)
    cap = client.get("/api/review/config").json()["max_upload_bytes"]
    assert "too large" in one_line(client.post("/api/review/upload", content=b"x" * (cap + 1)), 413)
    tok = up["upload"]
    for body, status, needle in [
        ({"upload": tok, "hero": "Nobody"}, 400, "Nobody"),
        ({"upload": tok, "hero": "Cat", "iterations": 0}, 400, "iterations"),
        ({"upload": tok, "hero": "Cat", "iterations": 2.5}, 400, "integer"),
        ({"upload": tok, "hero": "Cat", "colour": 1}, 400, "colour"),
        ({"upload": "x" * 16, "hero": "Cat"}, 404, "upload"),
    ]:
        assert needle in one_line(client.post("/api/review/start", json=body), status)
    assert "JSON" in one_line(client.post("/api/review/start", content=b"{nope"), 400)
    assert one_line(client.get("/api/review/" + "y" * 16 + "/status"), 404)


def test_review_job_numbers(client: TestClient) -> None:
    up = upload(client)
    st = client.post("/api/review/start", json={"upload": up["upload"], "hero": "Cat",
                                                "iterations": ITERATIONS}).json()
    st = wait(client, st["job"])
    assert st["state"] == "done", st
    rep = st["report"]
    assert rep["hands"] == 1 and rep["reviewed"] == 3
    ds = rep["decisions"]
    assert [(d["street"], d["action"]) for d in ds] == [("flop", "bet 2000"), ("turn", "check"),
                                                        ("river", "allin 5800")]
    assert [d["situation"] for d in ds] == ["c-bet", "barrel", "probe"]
    for d in ds:
        assert d["player"] == "Cat" and d["cards"] in ("AdAh", "AhAd")
        assert d["hand"].startswith("t.phhs") and "pokerlab-review" not in d["hand"]
        assert d["ev_loss_bb"] >= 0 and abs(sum(d["mix"].values()) - 1) < 1e-6
        assert d["ev_loss_pct_pot"] == pytest.approx(100 * d["ev_loss_bb"] / d["pot_bb"], rel=1e-9)
        if d["action"] == d["best_action"]:
            assert d["ev_loss_bb"] == 0
    assert rep["ev_loss_bb"]["total"] == pytest.approx(sum(d["ev_loss_bb"] for d in ds))
    assert {k: v["decisions"] for k, v in rep["by_street"].items()} == {"flop": 1, "river": 1, "turn": 1}
    assert sum(v["decisions"] for v in rep["by_situation"].values()) == 3


def test_one_job_per_visitor_and_unwatched_jobs_stop(tmp_path) -> None:
    hub = ReviewHub(ReviewPageConfig(unwatched_seconds=0.0))
    try:
        up = hub.upload(HAND.encode(), "t.phhs", "v1")
        busy = ReviewJob(jid="busyjob1", owner="v1", upload=up["upload"], hero="Cat", iterations=1,
                         state="running")
        hub.jobs[busy.jid] = busy
        with pytest.raises(ReviewPageError) as err:
            hub.start({"upload": up["upload"], "hero": "Cat"}, "v1")
        assert err.value.status == 409
        # another visitor may start; a job nobody polls stops before its first hand
        st = hub.start({"upload": up["upload"], "hero": "Cat", "iterations": 1}, "v2")
        job = hub.jobs[st["job"]]
        assert job.thread is not None
        job.thread.join(120)
        assert job.state == "stopped" and "nobody looked" in job.message
        assert job.report is not None and job.report["reviewed"] == 0
        busy.state = "done"
    finally:
        hub.shutdown()


# ---------------------------------------------------------------------------- browser

@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from pokerlab.play.server import BackgroundServer
    with BackgroundServer(ServerConfig(agent="call")) as url:
        yield url


def test_page_table_equals_the_api(server: str, browser: Any, tmp_path) -> None:
    f = tmp_path / "two.phhs"
    f.write_text(HAND, encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(240_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server}/review")
        page.set_input_files("#file", str(f))
        page.wait_for_selector("#hero option[value='Cat']", state="attached")
        page.select_option("#hero", "Cat")
        page.fill("#iterations", str(ITERATIONS))
        page.click("#start")
        page.wait_for_selector("body[data-state='done']")
        job = page.evaluate("document.body.dataset.job")
        api = page.evaluate(f"fetch('/api/review/{job}/status').then(r => r.json())")["report"]
        rows = page.eval_on_selector_all(
            "#decisions tbody tr", "trs => trs.map(tr => [...tr.children].map(td => td.textContent))")
        assert len(rows) == api["reviewed"] == 3
        # sorted by EV loss, largest first; every number is the API's
        losses = [float(r[8]) for r in rows]
        assert losses == sorted(losses, reverse=True)
        by_n = {d["n"]: d for d in api["decisions"]}
        for r in rows:
            d = by_n[int(r[0])]
            assert r[1] == d["hand"] and r[1].startswith("two.phhs")
            assert r[2] == d["street"] and r[6] == d["action"] and r[7] == d["best_action"]
            assert r[8] == f"{d['ev_loss_bb']:.3f}" and r[9] == f"{d['ev_loss_pct_pot']:.1f}"
        streets = page.eval_on_selector_all(
            "#by-street tbody tr", "trs => trs.map(tr => [...tr.children].map(td => td.textContent))")
        assert [s[0] for s in streets] == ["flop", "turn", "river"]
        assert {s[0]: (int(s[1]), s[2]) for s in streets} == {
            k: (v["decisions"], f"{v['total']:.3f}") for k, v in api["by_street"].items()}
        page.click("#decisions th[data-key='n']")  # sort by number: file order
        firsts = page.eval_on_selector_all("#decisions tbody tr", "trs => trs.map(tr => tr.dataset.n)")
        assert firsts == ["1", "2", "3"]
    finally:
        ctx.close()
    assert not errors, errors
