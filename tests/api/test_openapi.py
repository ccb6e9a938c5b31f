"""The committed OpenAPI file is the one the code generates, and the API honours it (schemathesis)."""

from __future__ import annotations

import itertools
import json
import random

import schemathesis
from hypothesis import HealthCheck, settings

from api.app import create_app
from api.cli import OPENAPI_PATH
from api.openapi_schema import openapi_json
from domain.catalog import GAMES
from domain.engine import setups
from service.matches import MatchService
from service.simulate import play_random_moves
from service.tokens import new_secret, secret_hash
from store.factory import open_store


def test_the_openapi_file_is_up_to_date() -> None:
    """Regenerate with `uv run turnstile openapi` after changing the API or a game's commands."""
    generated = openapi_json(create_app(open_store("sqlite:///:memory:")).openapi_schema)
    assert OPENAPI_PATH.read_bytes() == generated, "openapi/openapi.json is stale: run `uv run turnstile openapi`"


def test_command_and_event_unions_carry_type_discriminators() -> None:
    """Clients can dispatch on `type`: every union of commands or events declares its discriminator."""
    document = json.loads(OPENAPI_PATH.read_text())
    move = document["components"]["schemas"]["MoveRequest"]["properties"]["move"]
    tags = {kind.__struct_config__.tag for game in GAMES for kind in game.command_types} | {"match.resign"}
    assert move["discriminator"]["propertyName"] == "type"
    assert set(move["discriminator"]["mapping"]) == tags
    event = document["components"]["schemas"]["RecordedEvent"]["properties"]["event"]
    assert event["discriminator"]["propertyName"] == "type" and "match.ended" in event["discriminator"]["mapping"]
    assert document["components"]["schemas"]["MoveRequest"]["additionalProperties"] is False


_STORE = open_store("sqlite:///:memory:")
_KEY = new_secret("app")
_STORE.create_app_key("schemathesis", secret_hash(_KEY))
APP = create_app(_STORE)
schema = schemathesis.openapi.from_asgi("/schema/openapi.json", APP)
# One live match per game, a few moves in, so generated requests also reach real matches and seats.
_SERVICE = MatchService(_STORE)
_LIVE = [(_SERVICE.create(g.slug, [f"p{i}" for i in range(setups(g)[0][0])], setups(g)[0][1], seed=f"st-{g.slug}"))
         for g in GAMES]
for _created in _LIVE:
    play_random_moves(_SERVICE, _created.record.id, random.Random(1), 5)
_COUNTER = itertools.count()


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    """No 5xx, and every answer (status, headers, body) is documented; two schema-valid cases in three that name a
    match name a live one, with one of its seat tokens."""
    auth = f"Bearer {_KEY}"
    turn = next(_COUNTER)
    positive = case.meta is None or not case.meta.generation.mode.is_negative
    if positive and case.path_parameters and "match_id" in case.path_parameters and turn % 3:
        live = _LIVE[turn % len(_LIVE)]
        case.path_parameters["match_id"] = live.record.id
        auth = f"Bearer {live.tokens[turn % len(live.tokens)]}"
    case.call_and_validate(headers={"Authorization": auth})
