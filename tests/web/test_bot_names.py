"""A bot seat reads as its level's title from the catalog (issue 41), wherever the web page names a seat's player:
the match's title, the players box, the move list and the events' narration, a tournament's standings and the
lobby's rows; the handle stays one hover away."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.site import Site

SEARCH = "Computer, level 4 (search)"  # ismcts-3's `title` in the catalog's `bot_levels`
RANDOM = "Computer, level 0 (random moves)"


def test_a_match_against_a_search_bot_names_the_bot_by_its_level(site: Site, page: Any) -> None:
    levels = httpx.get(f"{site.base}/v1/games/expect-delays").json()["bot_levels"]
    assert next(level["title"] for level in levels if level["name"] == "ismcts-3") == SEARCH
    page.goto(f"{site.base}/web/matches/{site.searching}")
    page.wait_for_selector("#table svg")
    page.wait_for_function("document.querySelector('#title').textContent.includes(' vs ')")
    assert page.text_content("#title") == f"Expect Delays: lin vs {SEARCH}"
    assert page.title() == f"Expect Delays: lin vs {SEARCH} · Turnstile"
    bot = page.locator("#players li[data-seat='1'] .name")
    assert bot.text_content() == SEARCH and bot.get_attribute("title") == "bot:ismcts-3"
    assert page.locator("#players li[data-seat='0'] .name").text_content() == "lin"
    movers = page.locator("#moves li b").all_text_contents()
    assert "lin" in movers and SEARCH in movers, movers  # the bot's reply is in the list under its level's name
    for where in ("#moves", "#log", "#players", "#title", "#table"):
        assert "bot:" not in page.inner_text(where), where
    events = httpx.get(f"{site.base}/v1/matches/{site.searching}/events?include=text").json()["items"]
    assert any(SEARCH in (item["text"] or "") for item in events)  # the narration names it so too


def test_a_tournament_and_the_lobby_name_bot_entrants_by_label_and_level(site: Site, page: Any) -> None:
    page.goto(f"{site.base}/web/tournaments/{site.tournament}")
    page.wait_for_selector("#standings tbody tr")
    standings = page.inner_text("#standings")
    assert f"r1: {RANDOM}" in standings and "random bot" not in standings
    body = httpx.get(f"{site.base}/v1/tournaments/{site.tournament}").json()
    match_id = body["rounds"][0]["tables"][0]["matches"][0]
    page.goto(f"{site.base}/web/?game=touched-on")
    row = page.locator(f"#matches tbody tr[data-match='{match_id}']")
    row.wait_for()
    title = row.locator("a").first.text_content() or ""
    assert title.startswith("Touched On: ") and title.count(RANDOM) == 2 and "bot:" not in title, title
