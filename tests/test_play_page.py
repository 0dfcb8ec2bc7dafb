"""The play page as a player expects it, in real Chromium (issue 28).

One action per decision (double click, double key press), amounts refused with the legal
range (never clamped) and Enter submitting, the your-turn marker and the agent's move at
its seat, named showdown hands with the amount won, the phone layout at 390 and 360 px
(no horizontal scroll; Raise, Next hand and the session panel on screen), reload and
second-tab resynchronisation, a lost connection that reconnects, a full server shown with
a retry, and the agent menu from the registry with league strengths.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from pokerlab.cards.evaluator import evaluate  # noqa: E402
from pokerlab.play.agent_pool import LEAGUE_FILE, offered_specs  # noqa: E402
from pokerlab.play.server import BackgroundServer, ServerConfig  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[str, Any]]:
    out = tmp_path_factory.mktemp("play_page")
    cfg = ServerConfig(agent="call", agents=("call", "random", "tag"), out_dir=str(out),
                       seed=7)
    bg = BackgroundServer(cfg)
    with bg as url:
        yield url, bg.app.state.play


def new_page(browser: Any, width: int = 1280, height: int = 900) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    return ctx, pg


@pytest.fixture
def page(browser) -> Iterator[Any]:
    ctx, pg = new_page(browser)
    yield pg
    ctx.close()


def open_game(page: Any, url: str, query: str = "game=hunl&agent=call") -> None:
    page.goto(f"{url}/?{query}&pace=0")
    page.wait_for_function("window.pokerlab && window.pokerlab.tables > 0")


def session_of(page: Any, play: Any) -> Any:
    return play.manager.sessions[page.evaluate("window.pokerlab.session")].session


def wait_table(page: Any, n: int) -> None:
    page.wait_for_function("n => window.pokerlab.tables > n && !window.pokerlab.pending", arg=n)


def tables(page: Any) -> int:
    return int(page.evaluate("window.pokerlab.tables"))


def test_double_click_and_double_key_apply_one_action(server, page):
    url, play = server
    open_game(page, url)
    s = session_of(page, play)
    h = s.current
    assert h.human_player == 1 and s.waiting == "you"  # the button acts first preflop
    n = tables(page)
    page.dblclick("#btn-call")  # the second click lands on a locked button
    wait_table(page, n)
    page.wait_for_timeout(300)
    assert len(h.decisions) == 1 and page.evaluate("window.pokerlab.sent") == 1
    # the call agent checked the big blind: flop, the agent checks, the person acts
    assert s.snapshot()["street"] == "flop" and s.waiting == "you"
    moves = sum(1 for e in h.events if e.is_move)
    n = tables(page)
    # two presses of c in one task: the second comes before any reply can (and is dropped)
    page.evaluate("""() => { for (let i = 0; i < 2; i++)
        document.dispatchEvent(new KeyboardEvent('keydown', {key: 'c'})); }""")
    wait_table(page, n)
    page.wait_for_timeout(300)
    assert len(h.decisions) == 2 and page.evaluate("window.pokerlab.sent") == 2
    assert sum(1 for e in h.events if e.is_move) == moves + 2
    # the server refuses a move for a decision that has passed, even from a raw client
    snap = s.snapshot()
    stale = snap["decision"] - 1
    n = tables(page)
    page.evaluate("""d => window.pokerlab.ws.send(JSON.stringify({type: 'action',
        session: window.pokerlab.session, hand: window.pokerlab.state.hand, kind: 'check',
        decision: d}))""", stale)
    page.wait_for_function("n => window.pokerlab.tables > n", arg=n)
    page.wait_for_function("document.getElementById('error').textContent.length > 0")
    assert "nothing was applied" in page.text_content("#error")
    assert s.snapshot() == snap and len(h.decisions) == 2


def test_amounts_refused_with_the_range_and_enter_submits(server, page):
    url, play = server
    open_game(page, url)
    s = session_of(page, play)
    lg = s.legal()
    assert lg["raise"] and lg["min"] == 200 and lg["max"] == 10_000
    assert "2 \u2013 100 bb" in page.text_content("#legal-range")
    for typed, why in (("999999.99", "outside the legal range"), ("99999999", "outside"),
                       ("0.5", "outside the legal range"), ("abc", "not a number"),
                       ("2.555", "whole chips")):
        page.fill("#raise-amount", typed)
        page.press("#raise-amount", "Enter")
        assert why in page.text_content("#amount-error"), typed
        if why.startswith("outside"):
            assert "2 \u2013 100 bb" in page.text_content("#amount-error")
    assert page.evaluate("window.pokerlab.sent") == 0 and not s.current.decisions
    n = tables(page)
    page.fill("#raise-amount", "3")
    assert page.text_content("#btn-raise").startswith("Raise to 3 bb")
    page.press("#raise-amount", "Enter")
    wait_table(page, n)
    d = s.current.decisions
    assert len(d) == 1 and d[0].chosen == "raise to 300"


def test_turn_marker_agent_action_at_its_seat_and_named_showdown(server, page):
    url, play = server
    open_game(page, url)
    s = session_of(page, play)
    assert page.is_visible("#your-turn") and s.waiting == "you"
    assert page.text_content("#blinds") == "Blinds 0.5/1 bb"
    assert page.text_content("#hand-no") == "Hand 1"
    assert page.text_content("#stack-policy") == "new stacks each hand"
    n = tables(page)
    page.click("#btn-fold")
    wait_table(page, n)
    assert page.is_hidden("#your-turn")  # the hand is over
    # hand 2: the agent (button) acts first: its call is shown at its seat
    n = tables(page)
    page.click("#btn-deal")
    wait_table(page, n)
    assert s.current.human_player == 0 and s.waiting == "you"
    assert page.text_content("#opp-action") == "Call 0.5 bb"
    assert page.is_visible("#your-turn")
    assert page.text_content("#btn-call").startswith("Check")
    assert page.text_content("#btn-raise").startswith("Raise to")  # never "Bet" facing a limp
    # all-in and called: both hands named, the amount won at the pot
    n = tables(page)
    page.keyboard.press("a")
    wait_table(page, n)
    h = s.current
    assert h.over and h.state.is_showdown
    st = h.state
    mine = evaluate(list(st.hole[0]) + list(st.board))[2].lower()
    theirs = evaluate(list(st.hole[1]) + list(st.board))[2].lower()
    assert page.text_content("#you-hand-name") == mine
    assert page.text_content("#opp-hand-name") == theirs
    text = page.text_content("#pot-won")
    sd = s.snapshot()["showdown"]
    if sd["winner"] == "you":
        assert text.startswith("You win 200 bb with " + mine)
    elif sd["winner"] == "agent":
        assert text.startswith("Agent wins 200 bb with " + theirs)
    else:
        assert text.startswith("Split pot: 100 bb each")
    # the chips toggle: every amount in chips, the same numbers underneath
    page.click("#unit-toggle")
    assert page.text_content("#blinds") == "Blinds 50/100 chips"
    assert page.text_content("#you-stack") == page.get_attribute("#you-stack", "data-chips")
    history = page.text_content("#history")
    assert "Hand 1:" in history and "Hand 2:" in history
    page.click("#unit-toggle")  # back to bb (kept in localStorage)


@pytest.mark.parametrize("width,height", [(390, 844), (360, 740)])
def test_phone_width(server, browser, width, height):
    url, play = server
    ctx, pg = new_page(browser, width, height)
    try:
        open_game(pg, url)
        assert pg.evaluate("document.scrollingElement.scrollWidth") == width
        assert pg.evaluate("window.innerWidth") == width
        for sel in ("#btn-raise", "#btn-deal", "#btn-call", "#btn-fold", "#session-panel",
                    "#raise-amount"):
            assert pg.is_visible(sel), sel
            box = pg.locator(sel).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, sel
        # play to a showdown and back: still no horizontal scroll
        n = tables(pg)
        pg.click("#quick-allin")
        pg.click("#btn-raise")
        wait_table(pg, n)
        assert session_of(pg, play).current.over
        assert pg.evaluate("document.scrollingElement.scrollWidth") == width
        assert pg.is_enabled("#btn-deal")
    finally:
        ctx.close()


def test_reload_second_tab_and_reconnect(server, browser):
    url, play = server
    ctx, pg = new_page(browser)
    ctx2 = None
    try:
        open_game(pg, url)
        sid = pg.evaluate("window.pokerlab.session")
        s = session_of(pg, play)
        for _ in range(2):  # two hands: check/call to the end, next
            while not s.current.over:
                n = tables(pg)
                pg.click("#btn-call")
                wait_table(pg, n)
            n = tables(pg)
            pg.click("#btn-deal")
            wait_table(pg, n)
        pg.check("#coach-toggle")
        pg.wait_for_function("window.pokerlab.coachOn === true")
        cards = pg.eval_on_selector_all("#you-cards .card", "cs => cs.map(c => c.dataset.card)")
        pg.reload()
        pg.wait_for_function("window.pokerlab && window.pokerlab.tables > 0")
        assert pg.evaluate("window.pokerlab.session") == sid
        assert pg.is_checked("#coach-toggle")
        assert pg.eval_on_selector_all(".hand-list li", "ls => ls.length") == 2
        assert pg.eval_on_selector_all("#history .hh", "ds => ds.length") == 2
        assert pg.eval_on_selector_all("#you-cards .card",
                                       "cs => cs.map(c => c.dataset.card)") == cards
        # a second tab joins the session and follows every move of the first
        ctx2, pg2 = new_page(browser)
        pg2.goto(f"{url}/?pace=0")
        pg2.wait_for_function("window.pokerlab && window.pokerlab.tables > 0")
        own = pg2.evaluate("window.pokerlab.session")
        pg2.evaluate("""sid => { sessionStorage.setItem('pokerlab-session', sid);
            sessionStorage.setItem('pokerlab-query', location.search); location.reload(); }""",
                     sid)
        pg2.wait_for_function("sid => window.pokerlab && window.pokerlab.session === sid "
                              "&& window.pokerlab.tables > 0", arg=sid)
        assert own not in play.manager.sessions or own != sid
        assert len(play.manager.sessions[sid].conns) == 2
        n2 = tables(pg2)
        n = tables(pg)
        pg.click("#btn-fold")
        wait_table(pg, n)
        pg2.wait_for_function("n => window.pokerlab.tables > n", arg=n2)
        assert pg2.eval_on_selector_all(".hand-list li", "ls => ls.length") == 3
        assert pg2.get_attribute("#you-stack", "data-chips") == str(
            s.snapshot()["you"]["stack"])
        # a lost connection reconnects and resumes the same session
        n = tables(pg)
        pg.evaluate("window.pokerlab.ws.close()")
        pg.wait_for_function("n => window.pokerlab.tables > n && window.pokerlab.connected",
                             arg=n)
        assert pg.evaluate("window.pokerlab.session") == sid
        assert pg.is_hidden("#notice")
        assert pg.is_enabled("#btn-deal")
    finally:
        ctx.close()
        if ctx2 is not None:
            ctx2.close()


def test_full_server_message_and_retry(browser, tmp_path):
    cfg = ServerConfig(agent="call", agents=("call",), out_dir=str(tmp_path), max_sessions=1,
                       grace_seconds=0.3, seed=2)
    bg = BackgroundServer(cfg)
    with bg as url:
        ctx1, p1 = new_page(browser)
        ctx2, p2 = new_page(browser)
        try:
            open_game(p1, url)
            p2.goto(f"{url}/?game=hunl&pace=0")
            p2.wait_for_function("!document.getElementById('notice').classList.contains('hidden')")
            assert "server is full" in p2.text_content("#notice-text")
            assert p2.is_visible("#notice-retry")
            assert p2.is_disabled("#btn-call") and p2.is_disabled("#btn-deal")
            ctx1.close()  # the first visitor leaves: released after the grace period
            play = bg.app.state.play
            for _ in range(200):
                if not play.manager.sessions:
                    break
                p2.wait_for_timeout(50)
            assert not play.manager.sessions
            p2.click("#notice-retry")
            p2.wait_for_function("window.pokerlab.tables > 0")
            assert p2.is_hidden("#notice") and p2.is_enabled("#btn-call")
        finally:
            ctx2.close()


def test_agent_menu_lists_the_registry_specs_with_strengths(browser, tmp_path):
    cfg = ServerConfig(agent="call", out_dir=str(tmp_path), seed=3)  # agents: the registry's
    bg = BackgroundServer(cfg)
    with bg as url:
        ctx, pg = new_page(browser)
        try:
            open_game(pg, url)
            opts = pg.eval_on_selector_all("#agent-select option",
                                           "os => os.map(o => [o.value, o.title])")
            values = [v for v, _ in opts]
            assert set(values) == set(offered_specs()) | {"call"}
            titles = dict(opts)
            tag = json.loads(LEAGUE_FILE.read_text())["agents"]["tag"]  # play_league.py
            assert f"{tag['average']:+,} mbb/hand" in titles["tag"]
            assert "not measured" in titles.get("pushfold", "not measured")
            pg.select_option("#agent-select", "tag")
            assert "league" in pg.get_attribute("#agent-select", "title")
            n = tables(pg)
            pg.click("#btn-new")
            wait_table(pg, n)
            assert session_of(pg, bg.app.state.play).agent_name == "tag"
        finally:
            ctx.close()


def test_the_agents_moves_and_the_streets_are_paced(server, page):
    url, play = server
    page.goto(f"{url}/?game=hunl&agent=call&pace=250")
    page.wait_for_function("window.pokerlab && window.pokerlab.tables > 0")
    s = session_of(page, play)
    assert s.current.human_player == 1  # the button: call, the agent checks, the flop ...
    page.evaluate("window.pokerlab.trace = []")
    # with pacing on, a click within 0.25 s of a new decision is not taken for it
    page.wait_for_function("performance.now() >= (window.pokerlab.guardUntil || 0)")
    n = tables(page)
    # the indicator is shown while the server works, never re-shown for each paced move
    # (issue 53 item 9: no invented think time): record each showing rather than race it
    page.evaluate("""() => {
        const el = document.getElementById("opp-thinking");
        window.thinkingShown = el.classList.contains("hidden") ? 0 : 1;
        new MutationObserver(() => {
            if (!el.classList.contains("hidden")) window.thinkingShown += 1;
        }).observe(el, {attributes: true, attributeFilter: ["class"]});
    }""")
    page.click("#btn-call")
    page.wait_for_function("window.pokerlab.pacing === true")
    wait_table(page, n)
    assert page.evaluate("window.thinkingShown") == 1  # once, from the click to the reply
    trace = page.evaluate("window.pokerlab.trace")
    # the agent's preflop check is drawn before the flop, then the flop, then its flop check
    assert [0, "Check"] in trace
    first_flop = next(i for i, (board, _) in enumerate(trace) if board == 3)
    assert trace.index([0, "Check"]) < first_flop
    assert trace[-1] == [3, "Check"] and s.snapshot()["street"] == "flop"
    assert page.is_hidden("#opp-thinking") and page.is_visible("#your-turn")
