"""The play page in a real browser (Playwright driving Debian's Chromium).

Complete hands are played by clicking: fold, check/call, raise by the slider and by the
quick sizes, all-in to a showdown; the pot and stacks shown are checked against the
engine after every step; replay, PHH download, coach, a push/fold and a Leduc hand.

Chromium comes from Debian (`apt-get install -y chromium`; `make test` installs it).
Without it the tests fail under CI and are skipped only on a developer machine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from pokerlab.holdem import phh  # noqa: E402
from pokerlab.play.server import BackgroundServer, ServerConfig  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[str, Any]]:
    out = tmp_path_factory.mktemp("play")
    cfg = ServerConfig(agent="call", agents=("call", "random", "tag"), out_dir=str(out),
                       seed=21)
    bg = BackgroundServer(cfg)
    with bg as url:
        yield url, bg.app.state.play


@pytest.fixture
def page(browser) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    ctx.close()


def open_game(page: Any, url: str, query: str) -> None:
    page.goto(f"{url}/?{query}&pace=0")
    page.wait_for_function("window.pokerlab && window.pokerlab.tables > 0")


def session_of(page: Any, play: Any) -> Any:
    sid = page.evaluate("window.pokerlab.session")
    return play.manager.sessions[sid].session


def click_and_wait(page: Any, selector: str) -> None:
    n = page.evaluate("window.pokerlab.tables")
    page.click(selector)
    page.wait_for_function("n => window.pokerlab.tables > n", arg=n)


def num(page: Any, sel: str) -> int:
    """An amount shown on the page, in chips (every amount element keeps its chips)."""
    return int(page.get_attribute(sel, "data-chips"))


def check_page_against_engine(page: Any, session: Any) -> dict[str, Any]:
    snap = session.snapshot()
    assert num(page, "#pot") == snap["pot"]
    assert num(page, "#you-stack") == snap["you"]["stack"]
    assert num(page, "#opp-stack") == snap["opponent"]["stack"]
    assert num(page, "#you-bet") == snap["you"]["bet"]
    assert num(page, "#opp-bet") == snap["opponent"]["bet"]
    h = session.current
    total = sum(h.state.config.stacks)
    # what is shown adds up: both stacks plus the pot are all the chips
    assert num(page, "#you-stack") + num(page, "#opp-stack") + num(page, "#pot") == total
    shown = page.eval_on_selector_all("#you-cards .card", "cs => cs.map(c => c.dataset.card)")
    assert shown == snap["you"]["cards"]
    return snap


def set_slider(page: Any, value: int) -> None:
    page.eval_on_selector("#raise-slider", "(e, v) => { e.value = v; "
                          "e.dispatchEvent(new Event('input')); }", value)


def test_hunl_hands_by_clicking(server, page, tmp_path):
    url, play = server
    open_game(page, url, "game=hunl&agent=call")
    s = session_of(page, play)
    # hand 1: the person has the button; fold
    assert s.current.human_player == 1
    check_page_against_engine(page, s)
    assert page.text_content("#btn-call").startswith("Call 0.5 bb")  # bb by default
    click_and_wait(page, "#btn-fold")
    snap = check_page_against_engine(page, s)
    assert snap["over"] and num(page, "#you-stack") == 9950
    assert "You lose 0.5 bb" in page.text_content("#hand-result")
    assert page.text_content("#hands-played") == "1"
    # hand 2: big blind; check, then raise by the slider, the pot quick size, all-in
    click_and_wait(page, "#btn-deal")
    assert s.current.human_player == 0
    check_page_against_engine(page, s)
    assert page.text_content("#btn-call").startswith("Check")
    click_and_wait(page, "#btn-call")  # check preflop -> flop, the caller checks
    snap = check_page_against_engine(page, s)
    assert snap["street"] == "flop" and len(snap["board"]) == 3
    set_slider(page, 350)
    assert page.input_value("#raise-amount") == "3.5"  # bb
    click_and_wait(page, "#btn-raise")  # bet 350, called -> turn
    snap = check_page_against_engine(page, s)
    assert snap["street"] == "turn" and snap["pot"] == 200 + 700
    quick = snap["legal"]["quick"]
    page.click("#quick-pot")
    assert float(page.input_value("#raise-amount")) * 100 == quick["pot"] == 900
    click_and_wait(page, "#btn-raise")  # pot bet, called -> river
    snap = check_page_against_engine(page, s)
    assert snap["street"] == "river" and snap["pot"] == 900 * 3
    page.click("#quick-allin")
    assert float(page.input_value("#raise-amount")) * 100 == snap["legal"]["max"]
    click_and_wait(page, "#btn-raise")  # all-in, called: showdown
    snap = check_page_against_engine(page, s)
    assert snap["over"] and snap["opponent"]["cards"]
    opp = page.eval_on_selector_all("#opp-cards .card", "cs => cs.map(c => c.dataset.card)")
    assert opp == snap["opponent"]["cards"]
    pay = s.current.state.payoffs()[0]
    assert num(page, "#you-stack") == 10000 + pay
    assert float(page.text_content("#result-bb")) == pytest.approx(-0.5 + pay / 100, abs=0.01)
    # replay hand 2 step by step
    n = page.evaluate("window.pokerlab.replays || 0")
    page.click(".hand-list li:first-child .replay-btn")
    page.wait_for_function("n => (window.pokerlab.replays || 0) > n", arg=n)
    frames = s.replay(2)["frames"]
    assert page.text_content("#replay-info") == f"Replay of hand 2: step 1 / {len(frames)}"
    assert page.eval_on_selector_all("#opp-cards .card.back", "cs => cs.length") == 2
    for i in range(1, len(frames)):
        page.click("#replay-next")
        assert num(page, "#pot") == frames[i]["pot"]
    assert page.is_disabled("#replay-next")
    assert page.eval_on_selector_all("#opp-cards .card.back", "cs => cs.length") == 0
    page.click("#replay-exit")
    assert page.is_hidden("#replay-bar")
    # download the session's hand histories
    with page.expect_download() as dl:
        page.click("#download-phh")
    path = tmp_path / "session.phhs"
    dl.value.save_as(path)
    states = phh.read_phhs(path)
    assert [st.payoffs() for st in states] == [h.state.payoffs() for h in s.hands]
    # coach on; hand 3 by keyboard (c = check/call) until the end
    page.check("#coach-toggle")
    page.wait_for_function("window.pokerlab.coachOn === true")
    click_and_wait(page, "#btn-deal")
    n_coach = page.evaluate("window.pokerlab.coaches || 0")
    while not s.current.over:
        n = page.evaluate("window.pokerlab.tables")
        page.keyboard.press("c")
        page.wait_for_function("n => window.pokerlab.tables > n", arg=n)
        check_page_against_engine(page, s)
    page.wait_for_function("n => (window.pokerlab.coaches || 0) > n", arg=n_coach)
    assert "agent would check" in page.text_content("#coach") or \
        "agent would call" in page.text_content("#coach")
    assert page.eval_on_selector_all("#grid div", "ds => ds.length") == 169
    page.screenshot(path=str(tmp_path / "play.png"))
    assert (tmp_path / "play.png").stat().st_size > 10_000


def test_pushfold_hand(server, page):
    url, play = server
    open_game(page, url, "game=pushfold&stack=10")
    s = session_of(page, play)
    assert s.game == "pushfold" and s.current.human_player == 1
    assert page.is_visible("#ev-loss-row")
    assert page.is_disabled("#btn-call")  # the trainer has no limp
    check_page_against_engine(page, s)
    page.click("#quick-allin")
    click_and_wait(page, "#btn-raise")
    snap = check_page_against_engine(page, s)
    assert snap["over"]
    assert page.text_content("#graded") == "1"
    h = s.current
    _, loss = s.grader.nash.grade(True, *h.state.hole[1], aggressive=True)
    assert float(page.text_content("#ev-loss")) == pytest.approx(loss, abs=0.01)
    # hand 2 (big blind): the Nash small blind shoves or folds; fold by keyboard if asked
    click_and_wait(page, "#btn-deal")
    h2 = s.current
    if not h2.over:
        n = page.evaluate("window.pokerlab.tables")
        page.keyboard.press("f")
        page.wait_for_function("n => window.pokerlab.tables > n", arg=n)
        assert h2.over and h2.state.folded == 0
        _, loss2 = s.grader.nash.grade(False, *h2.state.hole[0], aggressive=False)
        assert page.text_content("#graded") == "2"
        assert float(page.text_content("#ev-loss")) == pytest.approx(loss + loss2, abs=0.01)
    check_page_against_engine(page, s)


@pytest.mark.parametrize("game", ["leduc", "kuhn"])
def test_small_game_hand(server, page, game):
    url, play = server
    open_game(page, url, f"game={game}")
    s = session_of(page, play)
    assert s.game == game
    start = 100 if game == "leduc" else 2
    for _ in range(8):
        if s.current.over:
            break
        click_and_wait(page, "#btn-call")
    snap = s.snapshot()
    assert snap["over"]
    assert num(page, "#you-stack") == snap["you"]["stack"] == start + s.current.chips
    assert num(page, "#you-stack") + num(page, "#opp-stack") == 2 * start
    assert page.eval_on_selector_all("#you-cards .card", "cs => cs.length") == 1
    if game == "leduc":  # switching games from the header starts a new session
        old_sid = page.evaluate("window.pokerlab.session")
        page.select_option("#game-select", "hunl")
        assert page.input_value("#stack-input") == "100"
        page.fill("#stack-input", "40")
        click_and_wait(page, "#btn-new")
        s2 = session_of(page, play)
        assert page.evaluate("window.pokerlab.session") != old_sid
        assert s2.game == "hunl" and s2.base_config.stacks == (4000, 4000)
        assert old_sid not in play.manager.sessions  # replaced, not hoarded
        check_page_against_engine(page, s2)
