"""Playing on the table itself: in Expect Delays and Touched On a card of the seat's hand is a click target. A click
sends the one legal move that uses the card (with an Idempotency-Key and the version it was legal at); when several
moves use it they are marked in the list instead; a refused move shows its problem text."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.web.site import Site
from tests.web.test_table import MEASURE, sized, stale  # noqa: F401 (the fixture)


def uses(move: dict[str, Any], card: str, patterns: list[dict[str, Any]]) -> bool:
    """Whether a legal move uses `card`, as the drawing marks it: it names the card, or matches one of its patterns."""
    if move.get("card") == card or card in (move.get("cards") or []):
        return True
    return any(all(move.get(key) == value for key, value in pattern.items()) for pattern in patterns)


def ready(page: Any) -> None:
    """Until the match is over or the seat's moves at the version shown are listed and playable."""
    page.wait_for_function("document.querySelector('#play-box').hidden || ("
                           "document.querySelector('#table').dataset.playable === "
                           "document.querySelector('#table').dataset.version && "
                           "document.querySelectorAll('#legal button:not([disabled])').length > 0)")


@pytest.mark.parametrize("slug", ["expect-delays", "touched-on"])
def test_a_click_on_a_card_in_the_hand_plays_it_or_marks_the_moves_using_it(site: Site, sized: Any,  # noqa: F811
                                                                            slug: str) -> None:
    match_id, token = site.clickable[slug]
    phone = sized(420)  # a seat's page on a phone, moves listed: every text readable, nothing broken or clipped
    phone.goto(f"{site.base}/web/matches/{match_id}")
    phone.wait_for_selector("#table svg")
    phone.fill("#token", token)
    phone.click("#seat-form button[type=submit]")
    phone.wait_for_selector("#play-box", state="visible")
    ready(phone)
    measured = phone.evaluate(MEASURE)
    assert [t["text"] for t in measured["texts"] if t["px"] < 12 - 0.01 or not t["inside"]] == []
    assert measured["broken"] == [] and measured["clipped"] == [], (measured["broken"], measured["clipped"])
    assert measured["pageWidth"] <= measured["viewport"] and phone.locator("#table [data-play]").count() > 0
    page = sized(1440)
    sized.allowed.append("status of 409 (Conflict)")  # the refused move, logged by the browser
    page.goto(f"{site.base}/web/matches/{match_id}")
    page.wait_for_selector("#table svg")
    page.fill("#token", token)
    page.click("#seat-form button[type=submit]")
    page.wait_for_selector("#play-box", state="visible")
    sent, marked, refused = 0, 0, slug != "expect-delays"  # the refusal is shown once, in Expect Delays
    for _ in range(80):
        ready(page)
        if page.is_hidden("#play-box") or (sent >= 2 and marked):
            break
        legal = httpx.get(f"{site.base}/v1/matches/{match_id}/legal-moves",
                          headers={"Authorization": f"Bearer {token}"}).json()
        cards = {node.get_attribute("data-card"): json.loads(node.get_attribute("data-play"))
                 for node in page.locator("#table [data-play]").all()}
        using = {card: [m for m in legal["moves"] if uses(m, card, patterns)] for card, patterns in cards.items()}
        single = next((card for card, moves in using.items() if len(moves) == 1), None)
        several = next((card for card, moves in using.items() if len(moves) > 1), None)
        if single is not None and not refused:  # sent at a stale version: the server's refusal is shown
            page.route("**/moves?include=text", stale)
            page.locator(f"#table [data-play][data-card='{single}']").click()
            page.wait_for_function("document.querySelector('#play-problem').textContent !== ''")
            assert "Move refused" in page.text_content("#play-problem")
            page.unroute("**/moves?include=text")
            refused = True
            continue
        if single is not None and (sent < 2 or several is None):
            with page.expect_request(lambda r: r.method == "POST" and "/moves" in r.url) as request:
                page.locator(f"#table [data-play][data-card='{single}']").click()
            body = json.loads(request.value.post_data)
            assert body == {"move": using[single][0], "expected_version": legal["version"]}, (single, body)
            assert request.value.headers.get("idempotency-key")
            page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {legal['version']}")
            sent += 1
            continue
        if several is not None and not marked:
            page.locator(f"#table [data-play][data-card='{several}']").click()
            page.wait_for_selector("#legal button.candidate")
            marks = [json.loads(b.get_attribute("data-move")) for b in page.locator("#legal button.candidate").all()]
            assert sorted(map(json.dumps, marks)) == sorted(map(json.dumps, using[several]))
            assert f"{len(marks)} moves use {several}" in page.text_content("#play-hint")
            marked += 1
        page.locator("#legal button").first.click()  # the list plays the rest
        page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {legal['version']}")
    assert refused and sent >= 2 and marked, (refused, sent, marked)
