"""The tournament pages in a real Chromium: the standings and rounds of a finished tournament with links to every
replay, a tournament page that follows results as they land, the list, and a crafted entrant's name shown as text;
a tournament's match links back to it."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.site import CRAFTED, Site


def test_a_finished_tournament_shows_standings_rounds_and_replays(site: Site, page: Any) -> None:
    """Every entrant in the standings, placed 1..n with the format's tie-breaks; every round with its tables and a
    replay link per match; the revealed seed; a crafted bot name is text, never markup."""
    body = httpx.get(f"{site.base}/v1/tournaments/{site.tournament}").json()
    page.goto(f"{site.base}/web/tournaments/{site.tournament}")
    page.wait_for_selector("#standings tbody tr")
    places = [int(p) for p in page.locator("#standings tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.place)")]
    assert places == [1, 2, 3, 4]
    assert page.locator("#standings th.tiebreak").all_inner_texts() == ["Buchholz", "Sonneborn-Berger"]
    assert page.locator("section.round").count() == len(body["rounds"]) == 2
    links = page.locator("a.replay")
    assert links.count() == sum(len(t["matches"]) for r in body["rounds"] for t in r["tables"])
    assert CRAFTED in page.inner_text("#standings")
    assert page.evaluate("window.__xss") is None
    assert body["seed"] in page.inner_text("#seed")
    assert "finished after 2 rounds" in page.inner_text("#summary")
    links.first.click()
    page.wait_for_url("**/web/matches/**")
    page.wait_for_selector("#table svg")


def test_a_tournaments_match_links_back_to_its_tournament_and_a_match_of_its_own_does_not(site: Site,
                                                                                          page: Any) -> None:
    """The replay of a tournament's match names its round and table and links to the tournament; a match played on
    its own shows no such link."""
    body = httpx.get(f"{site.base}/v1/tournaments/{site.tournament}").json()
    last = body["rounds"][-1]
    match_id = last["tables"][-1]["matches"][0]
    page.goto(f"{site.base}/web/matches/{match_id}")
    page.wait_for_selector("#tournament-link", state="visible")
    link = page.locator("#tournament-link")
    assert link.inner_text() == f"tournament: round {last['round']}, table {last['tables'][-1]['table'] + 1}"
    link.click()
    page.wait_for_url(f"**/web/tournaments/{site.tournament}")
    page.wait_for_selector("#standings tbody tr")
    page.goto(f"{site.base}/web/matches/{site.active}")
    page.wait_for_selector("#table svg")
    assert page.locator("#tournament-link").is_hidden()


def test_a_tournament_page_follows_results_as_they_land(site: Site, page: Any) -> None:
    """With the page open, a seat resigns its round-1 match: without a reload the page shows the result, the
    standings after it and round 2 being played."""
    page.goto(f"{site.base}/web/tournaments/{site.live_tournament}")
    page.wait_for_selector("section.round[data-round='1'] tr[data-done='no']")
    assert "Live" in page.inner_text("#status")
    moved = httpx.post(f"{site.base}/v1/matches/{site.live_match}/moves", json={"move": {"type": "match.resign"}},
                       headers={"Authorization": f"Bearer {site.live_token}"})
    assert moved.status_code == 201, moved.text
    page.wait_for_selector("section.round[data-round='2']", timeout=15_000)
    assert page.locator("section.round[data-round='1'] tr[data-done='yes']").count() == 1
    assert "forfeit (resignation)" in page.inner_text("section.round[data-round='1']")
    assert "round 2 of 3 being played" in page.inner_text("#summary")


def test_the_list_links_every_public_tournament(site: Site, page: Any) -> None:
    page.goto(f"{site.base}/web/")
    page.click("header a[href='/web/tournaments']")
    page.wait_for_selector("#tournaments tbody tr")
    ids = page.locator("#tournaments tbody tr").evaluate_all("rows => rows.map(r => r.dataset.tournament)")
    assert {site.tournament, site.live_tournament} <= set(ids)
