"""The flop report of the solver page (``/solver``): the form's spot without its board solved
over a set of flops (``pokerlab spot report``, :mod:`pokerlab.subgame.aggregate`) as the
visitor's one running solve.  The API's rows are aggregate's rows; the page in Chromium (as
tests/test_solver_page.py) runs a report of three boards, sorts and filters the table.  A tiny
template (narrow ranges, one bet size, no raises, 5 iterations) keeps the file fast.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from pokerlab.play.server import ServerConfig, create_app  # noqa: E402
from pokerlab.play.solver_report import clean  # noqa: E402

SPOT = {"board": "Td9d6h5c2s", "pot": 100, "stack": 100, "oop": "AA,KK,QQ,AKs", "ip": "JJ,TT,AQs,KQs",
        "flop_bets": "50%", "turn_bets": "50%", "river_bets": "50%",
        "flop_raises": "none", "turn_raises": "none", "river_raises": "none"}
BOARDS = "AsKd2c,7h6h5c,QsQd3h"
REPORT = {**SPOT, "flops": BOARDS, "iterations": 5, "target_pct": 0.01}


@pytest.fixture(scope="module")
def app() -> Any:
    a = create_app(ServerConfig(agent="call"))
    a.state.solver.cfg = replace(a.state.solver.cfg, rate_per_second=1000.0, rate_burst=1000)
    return a


@pytest.fixture(scope="module")
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def wait_report(client: Any, rid: str, timeout: float = 120.0, texture: str | None = None) -> dict[str, Any]:
    t0 = time.monotonic()
    url = f"/api/solver/report/{rid}/status" + (f"?texture={texture}" if texture else "")
    while True:
        st = client.get(url).json()
        if st["state"] not in ("starting", "running"):
            return st
        assert time.monotonic() - t0 < timeout, st
        time.sleep(0.05)


def error_of(resp: Any, status: int = 400) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"} and "\n" not in body["error"] and "Traceback" not in body["error"]
    return str(body["error"])


@pytest.fixture(scope="module")
def finished(client) -> dict[str, Any]:
    r = client.post("/api/solver/report", json=REPORT)
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["total"] == 3 and st["boards"] == ["AsKd2c", "7h6h5c", "QsQd3h"]
    return wait_report(client, st["report"])


def test_report_rows_are_aggregates_rows(finished):
    from pokerlab.subgame import aggregate as agg
    from pokerlab.subgame.flops import parse_flop_set

    st = finished
    assert st["state"] == "done" and st["done"] == st["total"] == 3 and st["progress"] == 1.0
    tpl = agg.ReportTemplate(pot=100.0, stack=100.0, oop="AA,KK,QQ,AKs", ip="JJ,TT,AQs,KQs", flop_bets="50%",
                             turn_bets="50%", river_bets="50%", raises="none", iterations=5, target=0.01)
    assert agg.ReportTemplate.from_json(st["template"]) == tpl
    want = clean(agg.run_report(tpl, parse_flop_set(BOARDS))["flops"])
    got = st["rows"]
    assert [r["board"] for r in got] == ["AsKd2c", "7h6h5c", "QsQd3h"]
    for g, w in zip(got, want, strict=True):
        g, w = dict(g), dict(w)
        assert g.pop("solve_seconds") > 0 and w.pop("solve_seconds") > 0
        assert g == w  # the same numbers, exactly
    assert [r["weight"] for r in got] == [24.0, 12.0, 12.0]
    assert [r["iterations"] for r in got] == [5, 5, 5]
    assert st["actions"] == ["check", "bet 50", "allin 100"]
    s = st["summary"]
    assert s == clean(agg.summary(want))
    assert s["weight"] == 48.0
    assert s["ev_oop"] == pytest.approx(sum(r["weight"] * r["ev_oop"] for r in want) / 48.0)
    assert sum(s["root_actions"].values()) == pytest.approx(1.0)


def test_report_table_filtered_by_texture(client, finished):
    rid = finished["report"]
    paired = client.get(f"/api/solver/report/{rid}/status?texture=paired").json()
    assert [r["board"] for r in paired["rows"]] == ["QsQd3h"] and paired["shown"] == 1
    assert paired["summary"]["weight"] == 12.0 and paired["summary"]["ev_oop"] == paired["rows"][0]["ev_oop"]
    assert paired["done"] == 3  # the progress counts every flop
    two = client.get(f"/api/solver/report/{rid}/status?texture=rainbow").json()
    assert [r["board"] for r in two["rows"]] == ["AsKd2c", "QsQd3h"] and two["summary"]["weight"] == 36.0
    none = client.get(f"/api/solver/report/{rid}/status?texture=monotone").json()
    assert none["rows"] == [] and none["summary"] is None
    assert "unknown term 'shiny'" in error_of(client.get(f"/api/solver/report/{rid}/status?texture=shiny"))
    error_of(client.get("/api/solver/report/no-such-report-token/status"), 404)


@pytest.mark.parametrize(("change", "needle"), [
    ({"flops": ""}, "the flop set is empty"),
    ({"flops": " , "}, "the flop set is empty"),
    ({"flops": "AsKx2c"}, "bad board 'AsKx2c'"),
    ({"flops": "AsKd"}, "board 'AsKd' has 2 cards, a flop has 3"),
    ({"flops": "AsKd2c,AsKd2c"}, "listed twice"),
    ({"flops": "7"}, "flops 7: the flop sets have 25, 49, 95, 184, 1755 flops"),
    ({"flops": "95"}, "the 95-flop set is over the server's limit of 49 flops per report"),
    ({"flops": "1755"}, "the 1,755-flop set is over the server's limit of 49"),
    ({"flops": "AsKd2c", "texture": "monotone"}, "no flop of the set has the texture 'monotone'"),
    ({"texture": "wet"}, "texture: unknown term 'wet'"),
    ({"turn_raises": "2.5x"}, "the flop, turn and river raises differ"),
    ({"oop": "ZZ"}, "ZZ"),
    ({"iterations": 0}, "iterations must be between 1"),
    ({"target_pct": 0.0}, "target_pct must be at least"),
    ({"pot": None}, "missing field 'pot'"),
    ({"flop_bets": "50%,abc"}, "abc"),
])
def test_bad_reports_are_one_line(client, change, needle):
    body = {k: v for k, v in {**REPORT, **change}.items() if v is not None}
    assert needle in error_of(client.post("/api/solver/report", json=body))


def test_memory_is_checked_on_every_flop_first(app, client):
    hub = app.state.solver
    old = hub.cfg
    hub.cfg = replace(old, max_memory=14_000_000)  # AsKd2c's tree needs more, the others less
    try:
        msg = error_of(client.post("/api/solver/report", json={**REPORT, "flops": "QsQd3h,AsKd2c"}))
    finally:
        hub.cfg = old
    assert msg.startswith("flop AsKd2c needs about ") and "over the server's limit of 14.0 MB" in msg
    assert "nothing was solved" in msg
    assert not hub.reports or all(r.flops[0].board != "QsQd3h" for r in hub.reports.values())


def test_one_running_report_or_solve_per_visitor_and_stop(app, client, finished):
    hub = app.state.solver
    r = client.post("/api/solver/report", json={**REPORT, "flops": "25", "iterations": 5})
    assert r.status_code == 200, r.text
    rid = r.json()["report"]
    assert r.json()["total"] == 25
    # a second report or a solve while it runs: one 409 line
    msg = error_of(client.post("/api/solver/report", json=REPORT), 409)
    assert "already have 1 solve(s) running, at most 1 per visitor (a flop report running" in msg
    msg = error_of(client.post("/api/solver/solve", json={**SPOT, "iterations": 5}), 409)
    assert "a flop report running" in msg
    st = client.post(f"/api/solver/report/{rid}/stop").json()
    assert st["stopping"] is True
    st = wait_report(client, rid)
    assert st["state"] == "stopped" and st["reason"] == "stopped" and st["done"] < 25
    assert st["message"] == f"stopped after {st['done']} of 25 flops"
    assert not hub.reports[rid].active
    # the slot is free again: a new report replaces the visitor's finished one
    r = client.post("/api/solver/report", json={**REPORT, "flops": "7h6h5c"})
    assert r.status_code == 200, r.text
    assert rid not in hub.reports
    assert wait_report(client, r.json()["report"])["done"] == 1


def test_unwatched_report_stops(app):
    from pokerlab.play.solver_page import SolverHub

    hub = SolverHub(replace(app.state.solver.cfg, unwatched_seconds=0.0))
    st = hub.start_report({**REPORT, "flops": "7h6h5c,QsQd3h"}, "visitor")
    job = hub.reports[st["report"]]
    assert job.thread is not None
    job.thread.join(timeout=120)
    assert job.state == "stopped" and job.reason == "unwatched" and len(job.rows) < 2
    assert "nobody looked at this report" in job.message
    hub.shutdown()


# ---------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from pokerlab.play.server import BackgroundServer

    with BackgroundServer(ServerConfig(agent="call")) as url:
        yield url


@pytest.fixture
def context(browser) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    ctx.on("page", lambda pg: pg.on("pageerror", lambda e: errors.append(str(e))))
    yield ctx
    ctx.close()
    assert not errors, errors


def open_page(ctx: Any, url: str) -> Any:
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{url}/solver")
    page.wait_for_function("window.solverPage && window.solverPage.ready")
    return page


def boards_shown(page: Any) -> list[str]:
    return page.eval_on_selector_all("#report-table tr[data-board]", "rs => rs.map(r => r.dataset.board)")


def test_flop_report_in_the_browser(server, context):
    page = open_page(context, server)
    other = open_page(context, server)  # a second tab of the same visitor
    for sel, value in (("#pot", "100"), ("#stack", "100"), ("#oop", "AA,KK,QQ,AKs"), ("#ip", "JJ,TT,AQs,KQs"),
                       ("#flop_bets", "50%"), ("#turn_bets", "50%"), ("#river_bets", "50%"),
                       ("#flop_raises", "none"), ("#turn_raises", "none"), ("#river_raises", "none"),
                       ("#target", "0.01"), ("#iterations", "5")):
        page.fill(sel, value)
    # bad input: one clear line, nothing started
    page.select_option("#report-set", "list")
    page.click("#btn-report")
    page.wait_for_function("document.querySelector('#report-error').textContent.length > 0")
    assert page.text_content("#report-error").startswith("the flop set is empty")
    page.fill("#report-list", "AsKx2c, 7h6h5c")
    page.click("#btn-report")
    page.wait_for_function("document.querySelector('#report-error').textContent.includes('AsKx2c')")
    assert "bad board 'AsKx2c'" in page.text_content("#report-error")
    # the 25 flop set: progress; a second report while it runs (another tab of the visitor) is
    # refused with the message; Stop ends it after the flop being solved
    page.select_option("#report-set", "25")
    page.click("#btn-report")
    page.wait_for_function("window.solverPage.reportPolls > 0")
    assert page.text_content("#report-error") == ""
    assert "/ 25 flops" in page.text_content("#report-progress")
    assert page.get_attribute("#report-progress", "data-state") == "running"
    other.select_option("#report-set", "list")
    other.fill("#report-list", BOARDS)
    other.click("#btn-report")
    other.wait_for_function("document.querySelector('#report-error').textContent.length > 0")
    msg = other.text_content("#report-error")
    assert "already have 1 solve(s) running" in msg and "a flop report running" in msg
    page.click("#btn-report-stop")
    page.wait_for_function("document.querySelector('#report-progress').dataset.state === 'stopped'",
                           timeout=120_000)
    assert "stopped after" in page.text_content("#report-progress")
    assert int(page.get_attribute("#report-progress", "data-done")) < 25
    # a list of three boards: the table in the list's order
    page.select_option("#report-set", "list")
    page.fill("#report-list", BOARDS)
    page.click("#btn-report")
    try:
        # a three-flop report of this template may finish before a poll sees it running
        page.wait_for_function("['running', 'done'].includes("
                               "document.querySelector('#report-progress').dataset.state)")
    except Exception:
        raise AssertionError(f"state {page.get_attribute('#report-progress', 'data-state')!r}, "
                             f"error {page.text_content('#report-error')!r}, progress "
                             f"{page.text_content('#report-progress')!r}") from None
    assert "/ 3 flops" in page.text_content("#report-progress")
    page.wait_for_function("document.querySelector('#report-progress').dataset.state === 'done'",
                           timeout=120_000)
    assert page.get_attribute("#report-progress", "data-done") == "3"
    assert "3 / 3 flops" in page.text_content("#report-progress")
    assert page.eval_on_selector("#report-bar", "e => parseFloat(e.style.width)") == 100
    assert boards_shown(page) == ["AsKd2c", "7h6h5c", "QsQd3h"]
    assert page.text_content("#report-table tr.avg td").startswith("weighted average (3)")
    assert page.get_attribute("#report-chart", "data-bars") == "4"  # three flops and the average
    rows = {r["board"]: r for r in page.evaluate("window.solverPage.reportStatus.rows")}
    # sort by EV OOP: highest first, a second click lowest first
    page.click("#report-table th[data-key='ev_oop']")
    by_ev = sorted(rows, key=lambda b: -rows[b]["ev_oop"])
    assert boards_shown(page) == by_ev and by_ev[-1] == "QsQd3h"
    page.click("#report-table th[data-key='ev_oop']")
    assert boards_shown(page) == by_ev[::-1]
    # filter by texture: the server's rows and averages of the rainbow flops, then the paired one
    n = page.evaluate("window.solverPage.reportDrawn")
    page.select_option("#rf-suits", "rainbow")
    page.wait_for_function("n => window.solverPage.reportDrawn > n", arg=n)
    assert boards_shown(page) == [b for b in by_ev[::-1] if b != "7h6h5c"]
    assert page.get_attribute("#report-shown", "data-shown") == "2"
    assert page.text_content("#report-table tr.avg td").startswith("weighted average (2)")
    n = page.evaluate("window.solverPage.reportDrawn")
    page.select_option("#rf-pairing", "paired")
    page.wait_for_function("n => window.solverPage.reportDrawn > n", arg=n)
    assert boards_shown(page) == ["QsQd3h"]
    avg = page.eval_on_selector_all("#report-table tr.avg td", "ts => ts.map(t => t.textContent)")
    assert avg[1] == "12.00" and avg[2] == f"{rows['QsQd3h']['ev_oop']:.2f}"
    assert page.get_attribute("#report-chart", "data-bars") == "2"
    # a row opens its flop in the solve view: the form's board
    page.click("#report-table tr[data-board='QsQd3h'] button.open")
    assert page.input_value("#board") == "QsQd3h"
    on = page.eval_on_selector_all("#board-picker .pcard.on", "bs => bs.map(b => b.dataset.card)")
    assert sorted(on) == ["3h", "Qd", "Qs"]
    assert "QsQd3h is in the form" in page.text_content("#report-info")
