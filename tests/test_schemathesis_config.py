"""The schemathesis CLI run over HTTP (`schemathesis.toml`) waits longer than any request the API may hold open."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def longest_wait() -> int:
    """The largest `timeout` (seconds) any operation of the committed OpenAPI document lets a caller ask to wait."""
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    waits = [parameter["schema"]["maximum"] for path in document["paths"].values() for operation in path.values()
             if isinstance(operation, dict) for parameter in operation.get("parameters", [])
             if parameter["name"] == "timeout" and "maximum" in parameter.get("schema", {})]
    assert waits, "no operation takes a timeout: this test looks for the long poll's"
    return max(waits)


def test_the_request_timeout_outlasts_the_longest_long_poll() -> None:
    """Found: schemathesis's default timeout cut long polls (`wait_for_version`, up to `timeout` seconds) short and
    reported them as errors."""
    config = tomllib.loads((ROOT / "schemathesis.toml").read_text())
    assert config.get("request-timeout", 0) > longest_wait() >= 25
