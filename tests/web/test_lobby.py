"""Starting a match from the lobby (issue 41): the "New match" form creates a match against the top search level with
an app key (kept in the tab's session storage only), opens it as the person's seat (the seat token never in a URL),
and the page follows the match while the service plays the bot's turns in the background: the bot's seat shows to
move, then its move, then the person to move again. A refused request shows the API's problem text beside the form
and creates nothing. At a desktop's width and a phone's."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.web.conftest import ARTIFACTS, Recorder
from tests.web.site import Site
from tests.web.test_table import MEASURE, sized  # noqa: F401 (the fixture)

TOP = "Computer, level 4 (search)"  # the top level's title in the catalog (ismcts-3)
WAIT_MS = 60_000  # a search bot's turn is a few decisions of ≤ 1 s each on one core; the machine may be shared

# The form on a phone: every text at least 12 px, nothing sticking out of its box, no sideways scrolling.
FORM = """() => {
  const box = document.querySelector('#new-match-box');
  const edge = box.getBoundingClientRect();
  const small = [], out = [];
  for (const node of box.querySelectorAll('*')) {
    const r = node.getBoundingClientRect();
    if (!r.width) continue;
    if (r.left < edge.left - 1 || r.right > edge.right + 1) out.push(node.id || node.tagName);
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (own && parseFloat(getComputedStyle(node).fontSize) < 12) small.push(node.textContent.trim().slice(0, 40));
  }
  return { small, out, wide: document.documentElement.scrollWidth > innerWidth };
}"""

# Records, from now on, whether the players box ever named seat 1 (the bot) as the one to move. Live, the bot may move
# before the page has drawn the table it was to move at (a race the page may lose): the test then checks that table
# by stepping back to it.
WATCH_BOT = """() => {
  window.botShownToMove = false;
  const seen = () => {
    const bot = document.querySelector("#players li[data-seat='1']");
    if (bot && bot.textContent.includes('to move')) window.botShownToMove = true;
  };
  new MutationObserver(seen).observe(document.querySelector('#players'), { childList: true, subtree: true,
    characterData: true });
}"""

PLAYABLE = ("document.querySelector('#table').dataset.playable === document.querySelector('#table').dataset.version"
            " && document.querySelectorAll('#legal button.move:not([disabled])').length > 0")


def own_matches(site: Site) -> list[str]:
    """The ids of the test app's own matches, of any visibility."""
    answer = httpx.get(f"{site.base}/v1/matches?mine=true&limit=200",
                       headers={"Authorization": f"Bearer {site.app_key}"})
    assert answer.status_code == 200, answer.text
    return [item["id"] for item in answer.json()["items"]]


def public_matches(site: Site) -> list[str]:
    """The ids of the public matches."""
    return [item["id"] for item in httpx.get(f"{site.base}/v1/matches?limit=200").json()["items"]]


def open_form(page: Any, site: Site) -> None:
    """The lobby with its "New match" form open and drawn."""
    page.goto(f"{site.base}/web/")
    page.click("#new-match-box summary")
    page.wait_for_selector("#new-opponents select")


def fill(page: Any, slug: str, name: str, key: str, visibility: str) -> None:
    """Chooses the game, names the person and gives the key; the other seats keep their default level."""
    page.select_option("#new-game", slug)
    page.wait_for_function(f"document.querySelector('#new-game').value === '{slug}' && "
                           "document.querySelectorAll('#new-opponents select').length === 1")
    page.fill("#new-name", name)
    page.select_option("#new-visibility", visibility)
    page.fill("#new-key", key)


BOT_MOVES = f"[...document.querySelectorAll('#moves li b')].filter((b) => b.textContent === '{TOP}').length"


def play_a_turn(page: Any) -> int:
    """Plays the seat's moves from the list until the bot's seat is shown to move or has moved (the end of the turn
    when it is offered, else the first move listed); how many moves it played."""
    bot_moves = page.evaluate(BOT_MOVES)
    handed_over = f"window.botShownToMove || {BOT_MOVES} > {bot_moves}"
    for played in range(40):
        page.wait_for_function(f"{handed_over} || ({PLAYABLE})", timeout=WAIT_MS)
        if page.evaluate(handed_over):
            return played
        version = page.get_attribute("#play-box", "data-version")
        buttons = page.locator("#legal button.move:not([disabled])")
        moves = [json.loads(text) for text in buttons.evaluate_all("(all) => all.map((b) => b.dataset.move)")]
        ends = [i for i, move in enumerate(moves) if move["type"].endswith(("end-turn", "end-actions", ".pass"))]
        buttons.nth(ends[0] if ends else 0).click()
        page.wait_for_function(f"{handed_over} || document.querySelector('#play-box').dataset.version !== '{version}'",
                               timeout=WAIT_MS)
    raise AssertionError("the turn did not hand over to the bot in 40 moves")


@pytest.mark.parametrize(("width", "slug"), [(1440, "touched-on"), (420, "expect-delays")])
def test_a_person_starts_a_match_against_the_top_level_from_the_lobby_and_the_bot_answers(
        site: Site, sized: Any, width: int, slug: str) -> None:  # noqa: F811
    page = sized(width)
    recorder = Recorder(page)
    levels = httpx.get(f"{site.base}/v1/games/{slug}").json()["bot_levels"]
    top = max(levels, key=lambda level: level["level"])
    assert top["title"] == TOP
    open_form(page, site)
    fill(page, slug, "kim", site.app_key, "unlisted")
    bot = page.locator("#new-opponents select")
    assert bot.input_value() == top["name"]  # the top level by default, named by its title, saying what it does
    assert bot.locator("option:checked").text_content() == TOP
    assert page.text_content("#new-about-1").startswith("Searches ")
    # A password field with no name: the browser could never put it in a URL by sending the form itself.
    assert page.get_attribute("#new-key", "type") == "password" and page.get_attribute("#new-key", "name") is None
    measured = page.evaluate(FORM)
    assert measured == {"small": [], "out": [], "wide": False}, (width, measured)
    page.screenshot(path=str(ARTIFACTS / f"lobby-form-{width}.png"), full_page=True)
    before = own_matches(site)
    page.click("#new-submit")
    page.wait_for_url("**/web/matches/**", timeout=WAIT_MS)
    match_id = page.url.split("/web/matches/")[1].split("?")[0]
    assert match_id not in before and match_id in own_matches(site)
    created = httpx.get(f"{site.base}/v1/matches/{match_id}", headers={"Authorization": f"Bearer {site.app_key}"})
    assert [seat["player"] for seat in created.json()["seats"]] == ["kim", f"bot:{top['name']}"]

    # The page is the person's seat: the hand is drawn; the token is in session storage, never in a URL.
    page.wait_for_function("document.querySelectorAll('#table [data-card]').length > 0", timeout=WAIT_MS)
    page.wait_for_function("document.querySelector('#viewer').textContent === 'kim (seat 0)'")
    stored = page.evaluate("Object.entries(sessionStorage)")
    token = dict(stored)[f"turnstile.seat-token.{match_id}"]
    assert token.startswith("seat_") and dict(stored)["turnstile.app-key"] == site.app_key
    assert page.evaluate("Object.values(localStorage)") == []
    for secret in (token, site.app_key):
        assert all(secret not in url for url in recorder.urls + [page.url])
    assert page.title().startswith(f"{'Touched On' if slug == 'touched-on' else 'Expect Delays'}: kim vs {TOP}")

    # The person plays from the page; the bot's seat shows to move, its move arrives, the person is to move again.
    page.wait_for_function(PLAYABLE, timeout=WAIT_MS)  # the bot may have had the first turn: played by now
    page.evaluate(WATCH_BOT)
    bot_moves = page.evaluate(BOT_MOVES)
    moves_before = page.locator("#moves li").count()
    assert play_a_turn(page) >= 1
    page.wait_for_function(f"{BOT_MOVES} > {bot_moves}", timeout=WAIT_MS)  # the bot's move, under its level's name
    page.wait_for_function(f"document.querySelector(\"#players li[data-seat='0']\").textContent.includes('to move')"
                           f" && {PLAYABLE}", timeout=WAIT_MS)
    # The table the bot was to move at (the end of the person's turn): the players box names the bot to move.
    handover = page.evaluate(f"""() => {{
      const items = [...document.querySelectorAll('#moves li')].slice({moves_before});
      const first = items.findIndex((li) => li.querySelector('b').textContent === '{TOP}');
      return Number(items[first].dataset.first) - 1; }}""")
    page.click(f"#moves li[data-last='{handover}']")
    page.wait_for_function(f"document.querySelector('#table').dataset.version === '{handover}' && document"
                           ".querySelector(\"#players li[data-seat='1']\").textContent.includes('to move')")
    assert "to move" not in page.text_content("#players li[data-seat='0']")
    page.click("#last")
    page.wait_for_function(PLAYABLE, timeout=WAIT_MS)
    detail = httpx.get(f"{site.base}/v1/matches/{match_id}", headers={"Authorization": f"Bearer {token}"}).json()
    assert detail["to_move"] == [0] and detail["status"] == "active"
    assert page.get_attribute("#table", "data-version") == str(detail["version"])
    if width == 420:  # the seat's page on a phone: every text readable, nothing broken or clipped
        measured = page.evaluate(MEASURE)
        assert [t["text"] for t in measured["texts"] if t["px"] < 12 - 0.01] == []
        assert measured["clipped"] == [] and measured["pageWidth"] <= measured["viewport"], measured["clipped"]
    page.screenshot(path=str(ARTIFACTS / f"lobby-match-{slug}-{width}.png"), full_page=True)


def test_a_refused_match_shows_the_apis_problem_text_and_creates_nothing(site: Site, sized: Any) -> None:  # noqa: F811
    page = sized(1440)
    sized.allowed.extend(["403", "400", "422"])  # the refused requests' console lines
    recorder = Recorder(page)
    open_form(page, site)
    mine, public = own_matches(site), public_matches(site)
    fill(page, "touched-on", "kim", "app_not-a-key-of-this-server", "public")
    page.click("#new-submit")
    page.wait_for_function("document.querySelector('#new-match-problem').textContent !== ''")
    problem = page.text_content("#new-match-problem")
    assert "this app key is not known" in problem and "unknown-app-key" in problem, problem
    assert page.url == f"{site.base}/web/" and page.evaluate("Object.keys(sessionStorage)") == []
    assert page.is_enabled("#new-submit")
    # A handle the API refuses (a space): its own problem text, with the right key.
    fill(page, "touched-on", "kim lee", site.app_key, "public")
    page.click("#new-submit")
    page.wait_for_function("document.querySelector('#new-match-problem').textContent.includes('invalid-request')")
    assert "player" in (page.text_content("#new-match-problem") or "").split("(invalid-request)")[1]  # the field
    assert own_matches(site) == mine and public_matches(site) == public
    assert page.evaluate("Object.keys(sessionStorage)") == []
    assert all("app_not-a-key" not in url and site.app_key not in url for url in recorder.urls + [page.url])
