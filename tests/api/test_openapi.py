"""The committed OpenAPI file is the one the code generates, and the API honours it (schemathesis)."""

from __future__ import annotations

import json

import schemathesis
from hypothesis import HealthCheck, settings

from api.app import create_app
from api.cli import OPENAPI_PATH
from api.openapi_schema import openapi_json
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
    assert move.get("discriminator", {}).get("propertyName") == "type" or "$ref" in move
    assert document["components"]["schemas"]["MoveRequest"]["additionalProperties"] is False


_STORE = open_store("sqlite:///:memory:")
_KEY = new_secret("app")
_STORE.create_app_key("schemathesis", secret_hash(_KEY))
APP = create_app(_STORE)
schema = schemathesis.openapi.from_asgi("/schema/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    """No 5xx, and every answer (status, headers, body) is documented."""
    case.call_and_validate(headers={"Authorization": f"Bearer {_KEY}"})
