"""A table people can follow, in a real Chromium: every log line tells its move in words, a replay shows nothing of
the end before the end, each header says who the API says is to move, a phone sees the board, and the site has an
icon."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.site import Site

SLUGS = ["expect-delays", "metro-x", "terminus", "mass-transit", "touched-on"]


def wait_for_version(page: Any, version: int) -> None:
    """Until the table shows `version`."""
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{version}'")


def console_errors(page: Any) -> list[str]:
    """Collects the page's console errors from now on."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


@pytest.mark.parametrize("slug", SLUGS)
def test_every_log_line_tells_its_move_in_words(site: Site, page: Any, slug: str) -> None:
    """Each line of the log is the API's sentence for that event (as a spectator sees it), not the event's type."""
    errors = console_errors(page)
    match_id = site.finished[slug]
    told = httpx.get(f"{site.base}/v1/matches/{match_id}/events", params={"include": "text", "limit": 500}).json()
    page.goto(f"{site.base}/web/matches/{match_id}")
    page.wait_for_selector("#log li", state="attached")  # under "Every event" (the move list tells the same words)
    lines = page.locator("#log li").all_text_contents()
    assert len(lines) == len(told["items"]) > 1
    for line, item in zip(lines, told["items"], strict=False):
        assert line == f"{item['version']}. {item['text']}"
        assert item["event"]["type"] not in line
    assert "ada" in " ".join(lines) and errors == []


@pytest.mark.parametrize("slug", SLUGS)
def test_version_one_of_a_finished_match_gives_nothing_of_the_end_away(site: Site, page: Any, slug: str) -> None:
    """At version 1 of a finished match no score, rank, winner or ending is shown; at the last version they are."""
    match_id = site.finished[slug]
    page.goto(f"{site.base}/web/matches/{match_id}?version=1")
    wait_for_version(page, 1)
    page.wait_for_selector("#players li")
    shown = page.text_content("#players-box") + page.inner_html("#table")
    for spoiler in ("rank", "winner", "score ", "Ended", "match over", "team won", "team lost"):
        assert spoiler not in shown, spoiler
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#outcome').textContent.startsWith('Ended')")
    assert page.get_attribute("#table svg", "data-ended") == "true"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_header_agrees_with_the_api_about_who_is_to_move(site: Site, page: Any, slug: str) -> None:
    """Stepping through a whole finished match move by move, each picture's to-move and the Players panel say what
    GET .../state says at the version shown."""
    match_id = site.finished[slug]
    latest = httpx.get(f"{site.base}/v1/matches/{match_id}").json()["version"]
    with httpx.Client(base_url=site.base, timeout=30) as http:
        states = [http.get(f"/v1/matches/{match_id}/state", params={"version": v}).json() for v in range(1, latest + 1)]
    page.goto(f"{site.base}/web/matches/{match_id}?version=1")
    wait_for_version(page, 1)
    shown = []
    while True:
        version = int(page.get_attribute("#table", "data-version"))
        shown.append(version)
        state = states[version - 1]
        if state["view"] is not None:  # else inside the set-up append: no table yet
            drawn = page.get_attribute("#table svg", "data-to-move")
            assert drawn == " ".join(map(str, state["to_move"])), version
            marked = [int(li.get_attribute("data-seat")) for li in page.locator("#players li").all()
                      if "to move" in li.text_content()]
            assert marked == [seat for seat in state["to_move"] if seat >= 0], version
        if version == latest:
            break
        page.keyboard.press("ArrowRight")  # to the end of the next move
        page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {version}")
    assert len(shown) > 2


@pytest.mark.parametrize("slug", SLUGS)
def test_a_phone_sees_the_board_after_loading_and_after_prev(site: Site, browser: Any, slug: str) -> None:
    """At 420 px: nothing scrolls sideways, and the board's top is on screen and not under the controls, after
    loading and after Prev."""
    phone_sees_the_board(site, browser, site.finished[slug])


@pytest.mark.parametrize("seats", [4, 6])
def test_metro_x_at_many_seats_fits_a_phone_and_reads_at_1440_px(site: Site, browser: Any, page: Any,
                                                                   seats: int) -> None:
    """Metro X draws a sheet per seat: at 4 and 6 seats too, a phone sees the board and a desktop reads it."""
    phone_sees_the_board(site, browser, site.crowded[seats])
    readable_at_1440(site, page, site.crowded[seats])


def phone_sees_the_board(site: Site, browser: Any, match_id: str) -> None:
    """The 420 px checks of one match page."""
    context = browser.new_context(viewport={"width": 420, "height": 860}, is_mobile=True, bypass_csp=True)
    try:
        phone = context.new_page()
        errors = console_errors(phone)
        latest = httpx.get(f"{site.base}/v1/matches/{match_id}").json()["version"]
        phone.goto(f"{site.base}/web/matches/{match_id}")
        wait_for_version(phone, latest)
        for step in ("load", "prev"):
            if step == "prev":
                phone.click("#prev")  # to the end of the move before the last
                phone.wait_for_function(f"Number(document.querySelector('#table').dataset.version) < {latest}")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 420, step
            top, bottom = phone.evaluate("(() => { const r = document.querySelector('#table svg')"
                                         ".getBoundingClientRect(); return [r.top, r.bottom]; })()")
            covered = phone.evaluate("(() => { const c = document.querySelector('#controls').getBoundingClientRect();"
                                     " return getComputedStyle(document.querySelector('#controls')).position "
                                     "=== 'sticky' ? c.bottom : 0; })()")
            assert covered <= top < 860 and bottom > top, (step, top, covered)
        assert errors == []
    finally:
        context.close()


def test_the_site_has_an_icon(site: Site, page: Any) -> None:
    """/favicon.ico answers 200 with a picture, and the pages point to it."""
    answer = httpx.get(f"{site.base}/favicon.ico")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/")
    page.goto(f"{site.base}/web/")
    assert page.get_attribute("link[rel=icon]", "href") == "/favicon.ico"


def test_an_open_match_page_follows_joins_live(site: Site, page: Any) -> None:
    """The page of a match waiting for a player shows the join as it happens, and the table once it starts."""
    errors = console_errors(page)
    page.goto(f"{site.base}/web/matches/{site.lobby}")
    page.wait_for_selector("#players li[data-seat='1']")
    page.wait_for_selector("#live", state="visible")  # shown once the page has loaded and starts following
    assert page.text_content("#players li[data-seat='1'] .name") == "open"
    joined = httpx.post(f"{site.base}/v1/matches/{site.lobby}/join", json={"code": site.join_code, "player": "joan"})
    assert joined.status_code == 201, joined.text
    page.wait_for_function("document.querySelector(\"#players li[data-seat='1'] .name\").textContent === 'joan'")
    page.wait_for_selector("#table svg[data-game='expect-delays']")
    assert "joan took seat 1." in page.text_content("#log") and errors == []


def test_a_player_with_only_active_matches_has_a_page_linking_them(site: Site, page: Any) -> None:
    """No `unknown-player` error: the page lists the player's matches, linked, and says no statistics yet."""
    errors = console_errors(page)
    page.goto(f"{site.base}/web/players/{site.newcomer}")
    page.wait_for_selector("#matches li a")
    assert "No finished match yet" in page.text_content("#stats-position")
    assert page.get_attribute("#status", "data-kind") != "error"
    page.click("#matches li a")
    page.wait_for_selector("#table svg[data-game='touched-on']")
    assert errors == []


@pytest.mark.parametrize("slug", SLUGS)
def test_the_table_text_is_readable_at_1440_px(site: Site, page: Any, slug: str) -> None:
    """At 1440 px no text of the table is drawn smaller than 8 CSS pixels (Metro X drew ~7 px), and nothing scrolls
    sideways."""
    readable_at_1440(site, page, site.finished[slug])


def readable_at_1440(site: Site, page: Any, match_id: str) -> None:
    """The 1440 px checks of one match page: no table text under 8 CSS pixels, nothing scrolls sideways."""
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{site.base}/web/matches/{match_id}")
    page.wait_for_selector("#table svg")
    smallest = page.evaluate("""(() => {
        const svg = document.querySelector('#table svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Math.min(...[...svg.querySelectorAll('text')].map(t => Number(t.getAttribute('font-size')) * scale));
    })()""")
    assert smallest >= 8, smallest
    assert page.evaluate("document.documentElement.scrollWidth") <= 1440
