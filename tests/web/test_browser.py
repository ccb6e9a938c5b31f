"""The pages in a real Chromium (Debian's, driven by Playwright): browse, step, view as a seat, audit, follow live,
and attacks (a token in a URL, a crafted player name). One server and one browser for the module."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import ARTIFACTS, Recorder
from tests.web.site import CRAFTED, Site


def table_version(page: Any) -> int:
    """The version the drawn table shows."""
    return int(page.get_attribute("#table", "data-version"))


def wait_for_version(page: Any, version: int) -> None:
    """Until the table and the URL show `version` (the URL names the move when the version ends one)."""
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{version}'")
    assert f"version={version}" in page.url or "move=" in page.url


def drawn(page: Any) -> str:
    """The table's picture as the server drew it, without the marks the page adds around the last move's pieces a
    moment after drawing them (frames, and a glow class on a changed route or rail), whether they are there yet."""
    return page.evaluate("""() => { const svg = document.querySelector('#table svg').cloneNode(true);
      svg.querySelectorAll('.changes').forEach((n) => n.remove());
      svg.querySelectorAll('[data-changed]').forEach((n) => {
        n.removeAttribute('data-changed');
        n.classList.remove('changed-glow');
        if (!n.getAttribute('class')) n.removeAttribute('class');
      });
      return svg.outerHTML; }""")


def test_the_browser_lists_matches_and_filters_them(site: Site, page: Any) -> None:
    """/ goes to /web/, which lists the matches; filters narrow the list and live in the URL."""
    page.goto(site.base + "/")
    assert page.url.endswith("/web/")
    page.wait_for_selector("#matches tbody tr")
    # active, crafted, dealing, lobby and the newcomer's, and the tournaments' (public too)
    assert page.locator("#matches tbody tr").count() == (len(site.finished) + len(site.crowded) + 5
                                                         + site.tournament_matches)  # not the unlisted ones
    page.select_option("#game", "terminus")
    page.select_option("select[name=status]", "finished")
    page.click("#filters button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#matches tbody tr').length === 1")
    assert "game=terminus" in page.url and "status=finished" in page.url
    row = page.locator("#matches tbody tr")
    assert row.get_attribute("data-match") == site.finished["terminus"]
    page.fill("#player", "nobody-plays")
    page.click("#filters button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#matches tbody tr').length === 0")
    page.goto(site.base + "/web/?game=metro-x")
    page.wait_for_selector("#matches tbody tr")
    page.click(f"#matches tbody tr[data-match='{site.finished['metro-x']}'] a")
    page.wait_for_url(f"**/web/matches/{site.finished['metro-x']}**")


@pytest.mark.parametrize("slug", ["expect-delays", "metro-x", "terminus", "mass-transit", "touched-on"])
def test_a_finished_match_of_each_game_steps_and_verifies(site: Site, page: Any, slug: str) -> None:
    """The table is drawn at every move, keys and buttons move it by a move and the URL follows, an event of the log
    opens at that event, the audit says verified."""
    match_id = site.finished[slug]
    latest = httpx.get(f"{site.base}/v1/matches/{match_id}").json()["version"]
    # Event 12, or earlier in a short match (a random Mass Transit team can lose within a dozen events; each match's
    # deal is the server's): the steps below need a few moves after it.
    start = min(12, latest // 3)
    page.goto(f"{site.base}/web/matches/{match_id}?version={start}")
    wait_for_version(page, start)
    assert page.locator(f"#table svg[data-game='{slug}']").count() == 1
    assert page.locator("#log li.current").get_attribute("data-version") == str(start)
    at_start = drawn(page)
    page.click("#next")  # to the end of the move after the one holding event `start`
    page.wait_for_function(f"document.querySelector('#table').dataset.version !== '{start}'")
    after = table_version(page)
    assert after > start and "move=" in page.url
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {after}")
    page.keyboard.press("End")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{latest}'")
    assert drawn(page) != at_start
    page.screenshot(path=str(ARTIFACTS / f"{slug}.png"), full_page=True)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) < {latest}")
    page.click("#first")
    page.wait_for_function("document.querySelector('#moves li.current').dataset.move === '1'")
    page.goto(f"{site.base}/web/matches/{match_id}?version={start}")
    wait_for_version(page, start)
    assert drawn(page) == at_start
    page.wait_for_function("document.querySelector('#badge').dataset.verdict === 'ok'")
    assert page.text_content("#badge") == "verified"
    assert "matches the commitment" in page.text_content("#seed")
    assert page.locator("#players li").count() == 2


def test_the_record_downloads_as_ndjson(site: Site, page: Any, tmp_path: Path) -> None:
    """"Download record" saves the match's NDJSON export."""
    match_id = site.finished["touched-on"]
    page.goto(f"{site.base}/web/matches/{match_id}")
    page.wait_for_function("document.querySelector('#badge').dataset.verdict === 'ok'")
    with page.expect_download() as caught:
        page.click("#download")
    saved = tmp_path / "record.ndjson"
    caught.value.save_as(saved)
    assert all(json.loads(line) for line in saved.read_text().splitlines())
    assert saved.read_text() == httpx.get(f"{site.base}/v1/matches/{match_id}/export").text


def test_a_seat_token_shows_that_seats_hand_only_and_never_enters_a_url(site: Site, page: Any) -> None:
    """Seat 0's token shows seat 0's hand; the spectator's page and every answer about the table it fetched hold no
    hand card; the token travels in headers only and stays in session storage."""
    recorder = Recorder(page)
    hands = [httpx.get(f"{site.base}/v1/matches/{site.active}", headers={"Authorization": f"Bearer {t}"}).json()
             ["view"]["hand"] for t in site.tokens]
    page.goto(f"{site.base}/web/matches/{site.active}")
    page.wait_for_selector("#table svg")
    assert page.locator("#table [data-card]").count() == 0
    page.wait_for_function("document.querySelector('#badge').dataset.verdict === 'ok'")
    assert page.text_content("#badge") == "verified-so-far"
    spectator_html = page.content()
    for card in hands[0] + hands[1]:
        assert f'"{card}"' not in "".join(recorder.bodies) and f">{card}<" not in spectator_html
    page.fill("#token", site.tokens[0])
    page.click("#seat-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#table [data-card]').length > 0")
    shown = [node.get_attribute("data-card") for node in page.locator("#table [data-card]").all()]
    assert shown == hands[0]
    assert page.text_content("#viewer") == "ada (seat 0)"
    seat_bodies = "".join(recorder.bodies)
    others = set(hands[1]) - set(hands[0])
    assert hands[1] and not [card for card in others if f'"{card}"' in seat_bodies or f">{card}<" in page.content()]
    assert page.evaluate("Object.values(sessionStorage)") == [site.tokens[0]]
    assert page.evaluate("Object.values(localStorage)") == []
    assert all(site.tokens[0] not in url for url in recorder.urls + [page.url])
    page.reload()
    page.wait_for_function("document.querySelectorAll('#table [data-card]').length > 0")
    page.click("#spectate")
    page.wait_for_function("document.querySelector('#viewer').textContent === 'Spectator'")
    page.wait_for_function("document.querySelectorAll('#table [data-card]').length === 0")


def test_a_wrong_token_falls_back_to_the_spectator(site: Site, page: Any) -> None:
    """A token that holds no seat here is said to be wrong and forgotten; the spectator's view is shown."""
    page.goto(f"{site.base}/web/matches/{site.active}")
    page.wait_for_selector("#table svg")
    page.fill("#token", "seat_not-a-real-token")
    page.click("#seat-form button[type=submit]")
    page.wait_for_function("document.querySelector('#status').dataset.kind === 'error'")
    assert "wrong-token" in page.text_content("#status")
    assert page.evaluate("Object.values(sessionStorage)") == []


def test_a_move_appears_live_without_reload(site: Site, page: Any) -> None:
    """While the page is open at the latest version, a move posted through the API is drawn and logged."""
    page.goto(f"{site.base}/web/matches/{site.active}")
    page.wait_for_selector("#table svg")
    before = table_version(page)
    page.wait_for_selector("#live", state="visible")  # shown once the page has loaded and starts following
    headers = {"Authorization": f"Bearer {site.tokens[0]}"}
    detail = httpx.get(f"{site.base}/v1/matches/{site.active}").json()
    seat = detail["to_move"][0]
    headers = {"Authorization": f"Bearer {site.tokens[seat]}"}
    legal = httpx.get(f"{site.base}/v1/matches/{site.active}/legal-moves", headers=headers).json()
    move = random.Random(1).choice(legal["moves"])
    played = httpx.post(f"{site.base}/v1/matches/{site.active}/moves", headers=headers,
                        json={"move": move, "expected_version": legal["version"]}).json()
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{played['version']}'")
    assert played["version"] > before
    assert page.locator(f"#log li[data-version='{played['version']}']").count() == 1


def test_a_seat_adds_browser_random_entropy_and_the_page_follows_the_deal(site: Site, page: Any) -> None:
    """A dealing match (option `entropy: "seats"`): a spectator is offered nothing; seat 0's page shows the server's
    commitment and "Add entropy", whose click sends 32 bytes from `crypto.getRandomValues` (64 hex digits, recorded
    for seat 0); when seat 1 adds its own through the API, the open page follows the deal live (status `active`)."""
    url = f"{site.base}/web/matches/{site.dealing}"
    page.goto(url)
    page.wait_for_function("document.querySelector('#outcome').textContent === 'dealing'")
    assert not page.is_visible("#add-entropy")
    page.fill("#token", site.dealing_tokens[0])
    page.click("#seat-form button[type=submit]")
    page.wait_for_selector("#add-entropy", state="visible")
    commitment = httpx.get(f"{site.base}/v1/matches/{site.dealing}").json()["server_seed_commitment"]
    assert commitment in page.text_content("#entropy-note")
    page.click("#add-entropy")
    page.wait_for_function("document.querySelector('#entropy-box').hidden")
    entropy = httpx.get(f"{site.base}/v1/matches/{site.dealing}").json()["entropy"]
    assert entropy[1] is None and re.fullmatch(r"[0-9a-f]{64}", entropy[0] or ""), entropy
    assert "waits for the other seats" in page.text_content("#status")
    added = httpx.post(f"{site.base}/v1/matches/{site.dealing}/entropy", json={"entropy": "grace's"},
                       headers={"Authorization": f"Bearer {site.dealing_tokens[1]}"})
    assert added.status_code == 201 and added.json()["status"] == "active"
    page.wait_for_function("document.querySelector('#outcome').textContent === 'active'")
    page.wait_for_selector("#table svg")


def test_a_crafted_player_name_is_text_and_never_runs(site: Site, page: Any) -> None:
    """A player named with <script> and an onerror image is shown as those characters, and nothing runs."""
    page.goto(f"{site.base}/web/?game=mass-transit")
    page.wait_for_selector(f"#matches tbody tr[data-match='{site.crafted}']")
    page.goto(f"{site.base}/web/matches/{site.crafted}")
    page.wait_for_selector("#players li")
    assert page.text_content("#players li[data-seat='0'] .name") == CRAFTED
    assert page.evaluate("window.__xss") is None
    assert page.locator("#players img, #players script").count() == 0


def test_opening_a_version_beyond_the_end_shows_the_last(site: Site, page: Any) -> None:
    """?version past the end (or nonsense) opens at the last version, which the URL then says."""
    match_id = site.finished["mass-transit"]
    latest = httpx.get(f"{site.base}/v1/matches/{match_id}").json()["version"]
    page.goto(f"{site.base}/web/matches/{match_id}?version=999999")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{latest}'")
    assert "move=" in page.url  # the last version ends the last move
    # Found: "Ended: team lost: seat 0 could not play two cards; … · the team lost": the result said twice.
    ended = page.text_content("#outcome") or ""
    assert ended.startswith("Ended: team ") and len(re.findall(r"\bteam (?:won|lost)\b", ended)) == 1, ended


def test_the_page_reads_on_a_phone(site: Site, browser: Any) -> None:
    """At a phone's width the table fits the screen (no sideways scrolling) and the controls are reachable."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, bypass_csp=True)
    try:
        phone = context.new_page()
        phone.goto(f"{site.base}/web/matches/{site.finished['expect-delays']}")
        phone.wait_for_selector("#table svg")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390 + 1
        assert phone.locator("#next").is_visible()
    finally:
        context.close()


def test_statistics_pages_show_the_leaderboard_and_charts(site: Site, page: Any) -> None:
    """A game's page lists its leaderboard and draws its charts; a player's page draws the rating history."""
    head = httpx.get(f"{site.base}/v1/projections").json()["head"]
    httpx.get(f"{site.base}/v1/leaderboards/expect-delays", params={"min_position": head}, timeout=30)
    page.goto(f"{site.base}/web/games/expect-delays")
    page.wait_for_selector("#leaderboard tbody tr")
    assert {row.get_attribute("data-player") for row in page.locator("#leaderboard tbody tr").all()} == {"ada",
                                                                                                         "grace"}
    page.wait_for_function("[...document.querySelectorAll('#charts img')].every(i => i.complete && i.naturalWidth)")
    assert page.locator("#charts img").count() == 2
    page.click("#leaderboard a >> nth=0")
    page.wait_for_selector("#per-game tbody tr")
    page.wait_for_function("[...document.querySelectorAll('#charts img')].every(i => i.complete && i.naturalWidth)")
    assert "log position" in page.text_content("#stats-position")


def test_the_statistics_page_shows_the_insight_picked_as_the_api_answers_it(site: Site, page: Any) -> None:
    """Picking a metric and a grouping on a game's page shows the insights API's rows as a table and draws them, and
    picking a period shows that period's leaderboard; the console stays free of errors."""
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    head = httpx.get(f"{site.base}/v1/projections").json()["head"]
    api = f"{site.base}/v1/games/expect-delays/insights"
    want = httpx.get(api, params={"metric": "mean_score", "by": "seat", "min_position": head}, timeout=30).json()
    assert want["rows"]
    page.goto(f"{site.base}/web/games/expect-delays")
    page.wait_for_function("document.querySelector('#insights').dataset.shown === 'metric=win_rate&by=seat'")
    page.select_option("#metric", "mean_score")
    page.wait_for_function("document.querySelector('#insights').dataset.shown === 'metric=mean_score&by=seat'")
    shown = [[cell.text_content() for cell in row.locator("td").all()[:3]]
             for row in page.locator("#insights tbody tr").all()]
    assert shown == [[row["group"]["seat"], str(row["n"]), f"{row['value']:.2f}"] for row in want["rows"]]
    page.select_option("#by", "edition")
    page.wait_for_function("document.querySelector('#insights').dataset.shown === 'metric=mean_score&by=edition'")
    by_edition = httpx.get(api, params={"metric": "mean_score", "by": "edition"}).json()["rows"]
    assert [row.get_attribute("data-group") for row in page.locator("#insights tbody tr").all()] == \
        [row["group"]["edition"] for row in by_edition]
    page.wait_for_function("[...document.querySelectorAll('#insight-chart img')].every(i => i.complete && "
                           "i.naturalWidth)")
    chart = httpx.get(site.base + page.get_attribute("#insight-chart img", "src")).text
    assert chart.count("data-label=") == len(by_edition) and "Mean score by edition" in chart
    page.select_option("#period", "week")  # the leaderboard of the last 7 days, by rating gained
    page.wait_for_function("document.querySelector('#leaderboard').dataset.period === 'week'")
    week = httpx.get(f"{site.base}/v1/leaderboards/expect-delays", params={"period": "week"}).json()["items"]
    assert week and [[cell.text_content() for cell in row.locator("td").all()[1:]]
                     for row in page.locator("#leaderboard tbody tr").all()] == \
        [[e["player"], *(f"{e[k]:.2f}" for k in ("ordinal", "mu", "sigma")), str(e["matches"]), f"{e['gained']:.2f}"]
         for e in week]
    assert console == []
