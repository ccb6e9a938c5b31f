"""The table as people use it, in a real Chromium at a phone's width (420 px) and a desktop's (1440 px): every text
readable (never under 12 CSS px as rendered), no word broken inside, nothing clipped, no console error; the lobby
and the titles name the players; a finished match shows every hand."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import ARTIFACTS
from tests.web.site import Site
from tests.web.test_browser import table_version

GAMES = ["expect-delays", "metro-x", "terminus", "mass-transit", "touched-on"]

# Each word of the page's own text (outside pictures) that the browser broke across lines, and whether the page is
# wider than the window.
WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('svg, #seed, [hidden], details:not([open])')) continue;
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1 && !match[0].includes('<')) broken.push(match[0]); // not the crafted <script> name
    }
  }
  return { broken, wide: document.documentElement.scrollWidth > innerWidth };
}"""

# Measured in the page: each SVG text's rendered size (its font size times the picture's scale on screen) and whether
# it lies inside the picture; each word of the page's own text on one line (a Range per word: one client rect).
MEASURE = """() => {
  const svg = document.querySelector('#table svg');
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
             inside: r.left >= box.left - 1 && r.right <= box.right + 1 };
  });
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(), n = 0; node && n < 4000; node = walker.nextNode()) {
    if (node.parentElement.closest('svg, #seed, #log li:nth-child(n+40), [hidden], details:not([open])')) continue;
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      n += 1;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  const clipped = [...document.querySelectorAll('main, header, #controls, #table, aside, aside section, h1')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.id || e.tagName);
  return { texts, broken, clipped, pageWidth: document.documentElement.scrollWidth, viewport: innerWidth };
}"""


@pytest.fixture
def sized(browser: Any) -> Iterator[Any]:
    """Opens pages at a given width; collects console errors and page errors of them all."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_at(width: int) -> Any:
        context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True,
                                      is_mobile=width < 700, device_scale_factor=1)
        contexts.append(context)
        opened = context.new_page()
        opened.on("pageerror", lambda error: errors.append(str(error)))
        opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        return opened

    allowed: list[str] = []  # errors a test provokes on purpose
    open_at.allowed = allowed  # type: ignore[attr-defined]
    yield open_at
    for context in contexts:
        context.close()
    assert [e for e in errors if not any(a in e for a in allowed)] == [], errors


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_reads_at_a_phones_and_a_desktops_width(site: Site, sized: Any, slug: str) -> None:
    """At 420 px the table is drawn for a phone (one column) and no text renders under 12 px; at both widths no word
    is broken inside, nothing is clipped, the page never scrolls sideways; the finished match shows every hand."""
    match_id = site.finished[slug]
    for width in (420, 1440):
        page = sized(width)
        page.goto(f"{site.base}/web/matches/{match_id}")
        page.wait_for_selector("#table svg")
        page.wait_for_function("document.querySelector('#badge').dataset.verdict === 'ok'")
        measured = page.evaluate(MEASURE)
        small = [(t["text"], round(t["px"], 1)) for t in measured["texts"] if t["px"] < 12 - 0.01]
        assert small == [], (width, small[:10])
        assert [t["text"] for t in measured["texts"] if not t["inside"]] == [], width
        assert measured["broken"] == [] and measured["clipped"] == [], (width, measured["broken"],
                                                                         measured["clipped"])
        assert measured["pageWidth"] <= measured["viewport"], width
        svg = page.locator("#table svg")
        assert (float(svg.get_attribute("width")) <= 380) == (width == 420)  # the phone's layout, and only there
        text = page.text_content("#table svg") or ""
        assert "Card data" not in text and "Placeholder" not in text and "no hand is shown" not in text
        if slug == "terminus":  # each player's board shows its Agendas and its secret one
            assert page.locator("#table [data-secret]").count() == 2
        elif slug != "metro-x":  # Metro X has no hands; every other game's end shows each seat's
            assert text.count("'s hand:") == 2, text
        page.screenshot(path=str(ARTIFACTS / f"table-{slug}-{width}.png"), full_page=True)


def test_titles_and_the_lobby_name_the_players_the_result_and_the_tournament(site: Site, sized: Any) -> None:
    """"Expect Delays: ada vs grace" titles the page; a lobby row names its players and who won (and its tournament);
    there is no Version column; the game's data notes live in "About this data", not on the table."""
    page = sized(1440)
    match_id = site.finished["terminus"]
    page.goto(f"{site.base}/web/matches/{match_id}")
    page.wait_for_selector("#table svg")
    page.wait_for_function("document.querySelector('#title').textContent.includes(' vs ')")
    assert page.text_content("#title") == "Terminus: ada vs grace"
    assert page.title() == "Terminus: ada vs grace · Turnstile"
    page.wait_for_selector("#about-data", state="attached")
    page.wait_for_function("!document.querySelector('#about-data').hidden")
    assert "boards/default.toml" in page.text_content("#about-data-list")
    page.goto(f"{site.base}/web/?game=terminus&status=finished")
    row = page.locator(f"#matches tbody tr[data-match='{match_id}']")
    row.wait_for()
    assert row.locator("a").first.text_content() == "Terminus: ada vs grace"
    # The lobby redraws its rows as it follows the feed: between two drawings the row may be gone for a moment.
    page.wait_for_function(f"(document.querySelector(\"tr[data-match='{match_id}'] .result\")?.textContent ?? '')"
                           ".match(/won|no winner/) !== null")
    outcome = httpx.get(f"{site.base}/v1/matches/{match_id}").json()["outcome"]
    winners = [["ada", "grace"][r["seat"]] for r in outcome["results"] if r["winner"]]
    assert all(name in row.locator(".result").text_content() for name in winners)
    assert "Version" not in page.text_content("#matches thead")
    tournament_match = httpx.get(f"{site.base}/v1/tournaments/{site.live_tournament}").json()
    page.goto(f"{site.base}/web/?game=expect-delays")
    live = page.locator(f"#matches tbody tr[data-match='{site.live_match}']")
    live.wait_for()
    page.wait_for_function(f"document.querySelector(\"tr[data-match='{site.live_match}'] .tournament a\")")
    assert "round 1" in live.locator(".tournament").text_content(), tournament_match
    phone = sized(420)
    phone.goto(f"{site.base}/web/")
    phone.wait_for_selector("#matches tbody tr")
    measured = phone.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert measured


def moves_of(events: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(first, last) version of each move: consecutive events of one seat recorded at one time (one command)."""
    moves: list[tuple[int, int, Any, str]] = []
    for item in events:
        if moves and (moves[-1][2], moves[-1][3]) == (item["seat"], item["recorded_at"]):
            moves[-1] = (moves[-1][0], item["version"], item["seat"], item["recorded_at"])
        else:
            moves.append((item["version"], item["version"], item["seat"], item["recorded_at"]))
    return [(first, last) for first, last, _, _ in moves]


def test_a_replay_steps_by_move_with_a_move_list_and_the_last_move_framed(site: Site, sized: Any) -> None:
    """Next/Prev, the slider, the URL and "go to move" step by move (a command's events together); the move list
    names who moved and what happened, a click on it goes there; the pieces the move changed are framed."""
    match_id = site.finished["expect-delays"]
    events = httpx.get(f"{site.base}/v1/matches/{match_id}/events", params={"limit": 500}).json()["items"]
    moves = moves_of(events)
    assert len(moves) < len(events)  # a move is often several events
    page = sized(1440)
    page.goto(f"{site.base}/web/matches/{match_id}?move=5")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{moves[4][1]}'")
    assert page.locator("#moves li").count() == len(moves)
    assert page.locator("#moves li.current").get_attribute("data-move") == "5"
    assert page.text_content("#where") == f"move 5 of {len(moves)}"
    page.click("#next")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{moves[5][1]}'")
    assert "move=6" in page.url
    framed = 0
    for index in range(5, 25):  # a move that changes only hidden cards frames nothing: one of these changes a piece
        page.wait_for_function(f"document.querySelector('#table').dataset.changedAt === '{moves[index][1]}'")
        framed = int(page.get_attribute("#table", "data-changed"))
        if framed:
            break
        page.click("#next")
    assert framed == page.locator("#table [data-changed]").count() > 0
    page.goto(f"{site.base}/web/matches/{match_id}?move=5")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{moves[4][1]}'")
    page.click("#next")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{moves[5][1]}'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{moves[4][1]}'")
    page.fill("#goto-move", "12")
    page.click("#goto button")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{moves[11][1]}'")
    assert "move=12" in page.url
    first, last = moves[8]
    line = page.locator("#moves li[data-move='9']")
    told = [e["text"] for e in httpx.get(f"{site.base}/v1/matches/{match_id}/events",
                                          params={"after": first - 1, "limit": last - first + 1,
                                                  "include": "text"}).json()["items"]]
    assert all(text in line.text_content() for text in told)
    line.click()
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{last}'")
    page.fill("#slider", "3")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{moves[2][1]}'")


def stale(route: Any) -> None:
    """Sends an intercepted move as if it had been chosen at version 1."""
    body = json.loads(route.request.post_data)
    route.continue_(post_data=json.dumps({**body, "expected_version": 1}))


def test_a_seat_plays_a_whole_match_of_every_game_against_a_bot_from_the_page(site: Site, sized: Any) -> None:
    """With lin's seat token the page lists lin's legal moves; a click sends one (with an Idempotency-Key and the
    version it was legal at), the bot answers, and the page follows live, to the end of each game's match. A move
    the server refuses (here: sent at a stale version) shows its problem text and changes nothing."""
    page = sized(1440)
    sized.allowed.append("status of 409 (Conflict)")  # the refused move, logged by the browser
    posts: list[Any] = []
    page.on("request", lambda request: posts.append(request) if request.method == "POST" else None)
    rng = random.Random(43)
    refused = False
    for slug, (match_id, token) in site.against_bot.items():
        page.goto(f"{site.base}/web/matches/{match_id}")
        page.wait_for_selector("#table svg")
        assert page.is_hidden("#play-box")  # a spectator plays nothing
        page.fill("#token", token)
        page.click("#seat-form button[type=submit]")
        page.wait_for_selector("#play-box", state="visible")
        for _ in range(400):
            page.wait_for_function("document.querySelector('#play-box').hidden || ("
                                   "document.querySelector('#play-box').dataset.version === "
                                   "document.querySelector('#table').dataset.version && "
                                   "document.querySelectorAll('#legal button:not([disabled])').length > 0)")
            if page.is_hidden("#play-box"):
                break
            if not refused:  # once: the move goes out at a stale version, and the server's refusal is shown
                page.route("**/moves?include=text", stale)
                before = table_version(page)
                page.locator("#legal button").first.click()
                page.wait_for_function("document.querySelector('#play-problem').textContent !== ''")
                assert "Move refused" in page.text_content("#play-problem")
                assert httpx.get(f"{site.base}/v1/matches/{match_id}",
                                 headers={"Authorization": f"Bearer {token}"}).json()["version"] == before
                page.unroute("**/moves?include=text")
                refused = True
                continue
            buttons = page.locator("#legal button")
            version = table_version(page)
            buttons.nth(rng.randrange(buttons.count())).click()
            page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {version}")
        detail = httpx.get(f"{site.base}/v1/matches/{match_id}").json()
        assert detail["status"] == "finished", slug
        page.wait_for_function("document.querySelector('#outcome').textContent.startsWith('Ended')")
    moves = [r for r in posts if r.url.split("?")[0].endswith("/moves")]
    assert moves and all(r.headers.get("idempotency-key") for r in moves)
    assert all("expected_version" in (r.post_data or "") for r in moves)


def test_the_other_pages_read_on_a_phone(site: Site, sized: Any) -> None:
    """At 420 px the lobby, the tournaments, a tournament, a game's and a player's statistics break no word inside and
    never scroll sideways (their tables stack); a cooperative game's empty leaderboard says why it is empty."""
    httpx.get(f"{site.base}/v1/leaderboards/mass-transit", params={"min_position": httpx.get(
        f"{site.base}/v1/projections").json()["head"]}, timeout=30)
    page = sized(420)
    pages = {"/web/": "#matches tbody tr", "/web/tournaments": "#tournaments tbody tr",
             f"/web/tournaments/{site.tournament}": "section.round", "/web/games/expect-delays": "#charts img",
             "/web/games/mass-transit": "#empty-why", "/web/players/ada": "#per-game tbody tr"}
    for path, ready in pages.items():
        page.goto(site.base + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        measured = page.evaluate(WORDS)
        assert measured == {"broken": [], "wide": False}, (path, measured)
        page.screenshot(path=str(ARTIFACTS / f"phone-{path.strip('/').replace('/', '-') or 'lobby'}.png"),
                        full_page=True)
    page.goto(site.base + "/web/games/mass-transit")
    page.wait_for_selector("#empty-why")
    assert "cooperative" in page.text_content("#empty-why")


@pytest.mark.parametrize("slug", GAMES)
def test_every_games_replay_steps_by_move_at_both_widths(site: Site, sized: Any, slug: str) -> None:
    """At 420 and 1440 px each game's finished match opens at a move named in the URL, lists every move, and Next,
    a click on a line of the move list and "go to move" each show the end of the move they name."""
    match_id = site.finished[slug]
    events = httpx.get(f"{site.base}/v1/matches/{match_id}/events", params={"limit": 500}).json()["items"]
    moves = moves_of(events)
    assert len(moves) >= 6, slug

    def shows(move: int) -> None:
        page.wait_for_function(f"document.querySelector('#table').dataset.version === '{moves[move - 1][1]}'")
        assert page.locator("#moves li.current").get_attribute("data-move") == str(move)
        assert page.text_content("#where") == f"move {move} of {len(moves)}"

    for width in (420, 1440):
        page = sized(width)
        page.goto(f"{site.base}/web/matches/{match_id}?move=3")
        shows(3)
        assert page.locator("#moves li").count() == len(moves)
        page.click("#next")
        shows(4)
        assert "move=4" in page.url
        page.locator("#moves li[data-move='2']").click()
        shows(2)
        page.fill("#goto-move", "5")
        page.click("#goto button")
        shows(5)
