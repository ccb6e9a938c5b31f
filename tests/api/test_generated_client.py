"""A client generated from the committed OpenAPI document plays a complete match of every game.

What an integrator does: run `openapi-python-client` on `openapi/openapi.json`, import the package, and play. The
generator must not warn or skip anything, and this test uses no hand-written HTTP: create, read, legal moves (sent
back exactly as listed), events, export, verification and the leaderboard, all through the generated functions,
against a live server.
"""

from __future__ import annotations

import importlib
import inspect
import random
import re
import socket
import subprocess
import sys
import threading
import time
import typing
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from api.openapi_games import view_components
from api.openapi_schema import OPENAPI_PATH
from domain.catalog import GAMES
from domain.engine import Game, setups
from service.matches.tokens import new_secret, secret_hash
from service.reads.runner import catch_up
from store.factory import open_store

PACKAGE = "turnstile_client"  # what `openapi-python-client generate --path openapi/openapi.json` names it
GENERATOR_CONFIG = "post_hooks: []\n"  # no formatter run: it is not what is tested, and may not be on PATH


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client package generated from the committed document (module scope: generated once)."""
    folder = tmp_path_factory.mktemp("generated")
    config = folder / "config.yaml"
    config.write_text(GENERATOR_CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run([str(generator), "generate", "--path", str(OPENAPI_PATH), "--output-path",
                           str(folder / PACKAGE), "--config", str(config), "--meta", "none"],
                          capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Warning" not in output and "Unable" not in output and "will not be generated" not in output, output
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Any]]:
    """A live server over a SQLite store: (base URL, an app key, the store)."""
    import uvicorn

    from api.app import create_app

    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('served') / 'store.db'}")
    key = new_secret("app")
    store.create_app_key("generated-client", secret_hash(key))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    running = uvicorn.Server(uvicorn.Config(create_app(store), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", key, store
    finally:
        running.should_exit = True
        thread.join(10)
        store.close()


def api(client: ModuleType, name: str) -> Any:
    """A generated operation module, e.g. `matches.play_move`."""
    return importlib.import_module(f"{client.__name__}.api.{name}")


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_a_generated_client_plays_a_whole_match(generated: ModuleType, server: tuple[str, str, Any],
                                                game: Game[Any]) -> None:
    """Only generated functions and models: create, read, legal moves back as listed, events, export, verify."""
    base_url, key, store = server
    models = importlib.import_module(f"{generated.__name__}.models")
    app = generated.AuthenticatedClient(base_url=base_url, token=key, raise_on_unexpected_status=True)
    seats, _ = setups(game)[0]
    request = models.CreateMatchRequest(game=game.slug,
                                        seats=[models.SeatRequest(player=f"gen-{game.slug}-{i}") for i in range(seats)])
    created = api(generated, "matches.create_match").sync(client=app, body=request)
    assert isinstance(created, models.CreatedMatch), created
    tokens = {seat.seat: generated.AuthenticatedClient(base_url=base_url, token=seat.token,
                                                       raise_on_unexpected_status=True) for seat in created.seats}
    rng = random.Random(game.slug)
    detail = api(generated, "matches.get_match").sync(created.id, client=app)
    moves = 0
    while detail.status == "active":
        seat = rng.choice(detail.to_move)
        legal = api(generated, "matches.get_legal_moves").sync(created.id, client=tokens[seat])
        assert isinstance(legal, models.LegalMoves) and legal.moves, legal
        body = models.MoveRequest(move=rng.choice(legal.moves), expected_version=legal.version)
        played = api(generated, "matches.play_move").sync(created.id, client=tokens[seat], body=body,
                                                             include="legal")
        assert isinstance(played, models.MoveResult), played
        detail = api(generated, "matches.get_match").sync(created.id, client=app)
        moves += 1
        assert moves < 5_000, "the match did not end"
    assert detail.outcome is not None and len(detail.outcome.results) == seats
    # `view` is typed: the game's own view model, not a bare dict (the document names one schema per game).
    assert type(detail.view).__name__ == next(iter(view_components()[game.slug])), type(detail.view)
    events = api(generated, "matches.get_events").sync(created.id, client=app, limit=500)
    assert isinstance(events, models.EventPage) and isinstance(events.items[0].event, models.MatchStarted)
    record = api(generated, "audit.export_record").sync(created.id, client=app)
    assert isinstance(record, str) and record.count("\n") == detail.version + 1
    verdict = api(generated, "audit.verify_record").sync(client=app, body=models.VerificationRequest(record=record))
    assert verdict.code == "verified", verdict.message
    catch_up(store)
    board = api(generated, "statistics.get_leaderboard").sync(game.slug, client=app)
    assert isinstance(board, models.Leaderboard)
    if not game.cooperative and seats > 1:
        assert {entry.player for entry in board.items} >= {f"gen-{game.slug}-{i}" for i in range(seats)}


def test_a_generated_client_plays_a_seats_entropy_match_from_start_to_end(generated: ModuleType,
                                                                          server: tuple[str, str, Any]) -> None:
    """Option `entropy: "seats"` through the generated models: the match is `dealing` with the server's commitment
    in the create answer; each seat adds its entropy (`add_entropy`), the last one deals; the match is played to its
    end; the revealed server part opens the commitment, the seed is the documented deal seed, and the record
    verifies."""
    from domain.rng import deal_seed, seed_commitment

    base_url, key, _ = server
    models = importlib.import_module(f"{generated.__name__}.models")
    app = generated.AuthenticatedClient(base_url=base_url, token=key, raise_on_unexpected_status=True)
    options = models.MetroXOptions(entropy=models.MetroXOptionsEntropyType0.SEATS, entropy_deadline=120)
    request = models.CreateMatchRequest(game="metro-x", options=options,
                                        seats=[models.SeatRequest(player=f"gen-seats-{i}") for i in range(2)])
    created = api(generated, "matches.create_match").sync(client=app, body=request)
    assert isinstance(created, models.CreatedMatch) and created.status == "dealing", created
    assert isinstance(created.server_seed_commitment, str)
    tokens = {seat.seat: generated.AuthenticatedClient(base_url=base_url, token=seat.token,
                                                       raise_on_unexpected_status=True) for seat in created.seats}
    entropy = [f"seat {seat}: {random.Random(seat).getrandbits(128):032x}" for seat in range(2)]
    for seat in range(2):
        answer = api(generated, "matches.add_entropy").sync(created.id, client=tokens[seat],
                                                            body=models.EntropyRequest(entropy=entropy[seat]))
        assert isinstance(answer, models.EntropyAnswer) and answer.seat == seat, answer
    assert answer.status == "active" and answer.entropy == entropy
    rng = random.Random("seats")
    detail = api(generated, "matches.get_match").sync(created.id, client=app)
    for _ in range(5_000):
        if detail.status != "active":
            break
        seat = rng.choice(detail.to_move)
        legal = api(generated, "matches.get_legal_moves").sync(created.id, client=tokens[seat])
        body = models.MoveRequest(move=rng.choice(legal.moves), expected_version=legal.version)
        api(generated, "matches.play_move").sync(created.id, client=tokens[seat], body=body)
        detail = api(generated, "matches.get_match").sync(created.id, client=app)
    assert detail.status == "finished" and detail.outcome is not None
    assert seed_commitment(detail.server_seed) == created.server_seed_commitment
    assert detail.seed == deal_seed(detail.server_seed, entropy)
    record = api(generated, "audit.export_record").sync(created.id, client=app)
    verdict = api(generated, "audit.verify_record").sync(client=app, body=models.VerificationRequest(record=record))
    assert verdict.code == "verified", verdict.message


def test_operations_that_take_no_credential_are_offered_on_the_plain_client(generated: ModuleType) -> None:
    """Taking an open seat needs only its join code: the generated function takes a plain `Client`, as reading the
    games, the statistics and verifying do. (Operations whose token is optional declare `[{}, {"bearer": []}]`;
    openapi-python-client up to 0.29 still asks for an `AuthenticatedClient` there: its issue #1372.)"""
    for name in ("matches.join_match", "games.list_games", "audit.verify_record"):
        annotation = inspect.signature(api(generated, name).sync).parameters["client"].annotation
        assert generated.Client in typing.get_args(annotation), (name, annotation)


def test_the_readmes_python_snippets_import_what_the_generator_makes(generated: ModuleType) -> None:
    """Found: the fair-deal snippet imported `client`, a package nothing makes; the generator names it
    `turnstile_client`. Every import line of the README's Python blocks that names it runs as written."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    imports = [line for block in blocks for line in block.splitlines()
               if re.match(r"(from|import) (turnstile_client|client)\b", line)]
    assert imports, "the README shows no use of the generated client"
    for line in imports:
        exec(line, {})  # noqa: S102  # the README's own import line
