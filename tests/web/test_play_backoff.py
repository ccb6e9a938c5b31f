"""A seat's page whose event stream is behind the server: it reads the legal moves again after a growing pause, not in
a tight loop, and shows them once the stream catches up."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.web.site import Site

WATCH_S = 1.5  # pauses of 250 ms doubling: asked at about 0, 0.25 and 0.75 s, then 1.75 s


def test_legal_moves_are_asked_again_with_a_growing_pause_while_the_stream_is_behind(site: Site, page: Any) -> None:
    opened = httpx.post(f"{site.base}/v1/matches", headers={"Authorization": f"Bearer {site.app_key}"},
                        json={"game": "expect-delays", "seats": [{"player": "lin"}, {"player": "max"}],
                              "options": {"max_turns": 6}, "visibility": "unlisted"}).json()
    match_id, tokens = opened["id"], [s["token"] for s in opened["seats"]]
    held: list[Any] = []  # the page's stream requests, held: the page hears of no event meanwhile
    asked: list[float] = []
    page.route(lambda url: f"/v1/matches/{match_id}/stream?" in url, lambda route: held.append(route))

    def server_ahead(route: Any) -> None:
        """Before the page's first read of its moves, a move is played: the server is ahead of the page."""
        if not asked:
            play_one(site, match_id, tokens)
        asked.append(time.monotonic())
        route.continue_()

    page.route(f"**/v1/matches/{match_id}/legal-moves", server_ahead)
    page.goto(f"{site.base}/web/matches/{match_id}")
    page.wait_for_selector("#table svg")
    page.fill("#token", tokens[0])
    page.click("#seat-form button[type=submit]")
    page.wait_for_timeout(WATCH_S * 1000)
    within = [t for t in asked if t - asked[0] <= WATCH_S]
    assert 2 <= len(within) <= 4, [round(t - asked[0], 3) for t in asked]
    gaps = [b - a for a, b in zip(within, within[1:], strict=False)]
    assert all(later > earlier for earlier, later in zip(gaps, gaps[1:], strict=False)), gaps
    version = httpx.get(f"{site.base}/v1/matches/{match_id}").json()["version"]
    for route in held:  # the stream catches up: the moves of the newest version are shown
        route.continue_()
    page.wait_for_function(f"document.querySelector('#play-box').dataset.version === '{version}'")


def play_one(site: Site, match_id: str, tokens: list[str]) -> None:
    """The seat to move plays its first legal move."""
    seat = httpx.get(f"{site.base}/v1/matches/{match_id}").json()["to_move"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    legal = httpx.get(f"{site.base}/v1/matches/{match_id}/legal-moves", headers=auth).json()
    played = httpx.post(f"{site.base}/v1/matches/{match_id}/moves", headers=auth,
                        json={"move": legal["moves"][0], "expected_version": legal["version"]})
    assert played.status_code == 201, played.text
