"""The web routes over each store: pages, assets, and the table picture's redaction, authorization, bad input and
behaviour under concurrent moves."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.web.routes import STATIC
from domain import match
from service.matches.simulate import play_random_moves
from store.base import EventStore
from tests.web.tables import leaked, parse, values

PAGES = ["/web/", "/web/matches/some-id", "/web/games/terminus", "/web/players/ada"]


@pytest.fixture
def client(store: EventStore) -> Iterator[TestClient[Any]]:
    """A test client of the app over `store`."""
    with TestClient(create_app(store)) as test_client:
        yield test_client


@pytest.fixture
def active(client: TestClient[Any]) -> tuple[str, list[str]]:
    """An Expect Delays match some moves in, both seats holding cards (a deal, about one in 600, leaves a seat's
    hand empty by then: the hand tests would have nothing to look at), and its seat tokens."""
    service = client.app.state.service
    for _ in range(20):
        created = service.create("expect-delays", ["ada", "grace"], None)
        play_random_moves(service, created.record.id, random.Random(3), 4)
        loaded = service.load(created.record.id)
        if all(loaded.game.view(loaded.state.game_state, seat).hand for seat in (0, 1)):
            break
    return created.record.id, list(created.tokens)


def bearer(token: str) -> dict[str, str]:
    """An Authorization header."""
    return {"Authorization": f"Bearer {token}"}


def test_the_root_leads_to_the_match_browser(client: TestClient[Any]) -> None:
    """`GET /` redirects to /web/."""
    answer = client.get("/", follow_redirects=False)
    assert answer.status_code in (301, 302, 307, 308)
    assert answer.headers["location"] == "/web/"


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_html_with_a_strict_content_security_policy(client: TestClient[Any], path: str) -> None:
    """Every page is served, allows scripts only from this origin, and never echoes its path."""
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in answer.headers["content-security-policy"]
    assert "some-id" not in answer.text


def test_every_asset_ships_with_the_package_and_nothing_comes_from_elsewhere(client: TestClient[Any]) -> None:
    """Each script and style is served from /web/static; no page or asset names another host (no CDN)."""
    files = sorted(p.name for p in STATIC.iterdir())
    assert {"common.js", "match.js", "web.css"} <= set(files)
    for name in files:
        answer = client.get(f"/web/static/{name}")
        assert answer.status_code == 200, name
        assert not re.search(r"(src|href)=[\"']?(https?:)?//|import .* from [\"']https?:", answer.text), name
    for page in STATIC.glob("*.html"):
        for asset in re.findall(r"(?:src|href)=\"(/web/static/[^\"]+)\"", page.read_text()):
            assert (STATIC / Path(asset).name).exists(), asset


def test_the_table_as_a_spectator_hides_every_hand(client: TestClient[Any], active: tuple[str, list[str]]) -> None:
    """No token: no hand is drawn, and no card hidden from a spectator is anywhere in the picture."""
    match_id, _ = active
    answer = client.get(f"/web/matches/{match_id}/table.svg")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.headers["cache-control"] == "no-store"
    loaded = client.app.state.service.load(match_id)
    assert values(parse(answer.text), "data-card") == []
    assert leaked(answer.text, loaded.game, loaded, None) == []


@pytest.mark.parametrize("seat", [0, 1])
def test_the_table_as_a_seat_shows_its_hand_and_no_other(client: TestClient[Any], active: tuple[str, list[str]],
                                                         seat: int) -> None:
    """A seat token: that seat's hand is drawn, the other seat's cards are not."""
    match_id, tokens = active
    answer = client.get(f"/web/matches/{match_id}/table.svg", headers=bearer(tokens[seat]))
    loaded = client.app.state.service.load(match_id)
    hand = loaded.game.view(loaded.state.game_state, seat).hand
    assert values(parse(answer.text), "data-card") == list(hand) and hand
    assert leaked(answer.text, loaded.game, loaded, seat) == []


def test_the_table_at_a_version_is_the_table_then(client: TestClient[Any], active: tuple[str, list[str]]) -> None:
    """`?version=N` draws the state after event N; during set-up there is no table yet."""
    match_id, _ = active
    latest = client.app.state.service.load(match_id).record.version
    early = client.get(f"/web/matches/{match_id}/table.svg?version=1")
    assert early.headers["x-turnstile-version"] == "1" and "data-table=\"none\"" in early.text
    pictures = {client.get(f"/web/matches/{match_id}/table.svg?version={v}").text for v in (latest - 3, latest)}
    assert len(pictures) == 2


@pytest.mark.parametrize(("query", "headers", "status", "code"), [
    ("?version=abc", {}, 400, "invalid-request"),
    ("?version=0", {}, 400, "invalid-request"),
    ("?layout=sideways", {}, 400, "invalid-request"),
    ("?version=99999", {}, 404, "unknown-version"),
    ("", {"Authorization": "Basic abc"}, 401, "bad-authorization"),
    ("", {"Authorization": "Bearer seat_not-a-token"}, 403, "wrong-token"),
])
def test_bad_requests_for_the_table_are_problems(client: TestClient[Any], active: tuple[str, list[str]], query: str,
                                                 headers: dict[str, str], status: int, code: str) -> None:
    """Bad input and bad credentials answer problem+json with a stable code."""
    match_id, _ = active
    answer = client.get(f"/web/matches/{match_id}/table.svg{query}", headers=headers)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_another_matchs_token_and_unknown_or_private_matches(client: TestClient[Any],
                                                             active: tuple[str, list[str]]) -> None:
    """A token of another match is wrong here; an unknown match and a private one (to strangers) are unknown."""
    match_id, _ = active
    service = client.app.state.service
    private = service.create("expect-delays", ["ada", "grace"], None, owner="someone", visibility="private")
    answer = client.get(f"/web/matches/{match_id}/table.svg", headers=bearer(private.tokens[0]))
    assert answer.json()["code"] == "wrong-token"
    for path in ("no-such-match", private.record.id):
        assert client.get(f"/web/matches/{path}/table.svg").json()["code"] == "unknown-match"
    seat = client.get(f"/web/matches/{private.record.id}/table.svg", headers=bearer(private.tokens[1]))
    assert seat.status_code == 200


def test_pictures_stay_whole_while_moves_are_played(client: TestClient[Any], active: tuple[str, list[str]]) -> None:
    """Readers of the latest table while moves commit get whole pictures of consecutive, existing versions."""
    match_id, _ = active
    service = client.app.state.service
    seen: list[int] = []
    failures: list[str] = []
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            answer = client.get(f"/web/matches/{match_id}/table.svg")
            if answer.status_code != 200:
                failures.append(answer.text)
                continue
            parse(answer.text)
            seen.append(int(answer.headers["x-turnstile-version"]))

    readers = [threading.Thread(target=read) for _ in range(3)]
    for reader in readers:
        reader.start()
    try:
        rng = random.Random(5)
        for _ in range(12):
            loaded = service.load(match_id)
            seat = rng.choice(match.to_move(loaded.game, loaded.state))
            service.play(match_id, seat, rng.choice(match.legal(loaded.game, loaded.state, seat)),
                         expected_version=loaded.state.version, command_id=None)
    finally:
        done.set()
        for reader in readers:
            reader.join()
    final = service.load(match_id).record.version
    assert failures == [] and seen and max(seen) <= final
    assert client.get(f"/web/matches/{match_id}/table.svg").headers["x-turnstile-version"] == str(final)
