"""Configuration comes from one place: `settings.Settings`, read from TURNSTILE_* with one default each."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parent.parent


def test_unset_variables_give_the_defaults_and_set_ones_are_read() -> None:
    assert Settings.from_env({}) == Settings()
    assert Settings().database_url == "sqlite:///turnstile.db" and Settings().redis_url is None
    read = Settings.from_env({"TURNSTILE_DATABASE_URL": "postgresql://db/x", "TURNSTILE_REDIS_URL": "redis://r/1",
                              "TURNSTILE_QUEUE": "q", "TURNSTILE_BOT_QUEUE": "b", "TURNSTILE_NOTIFY_TIMEOUT_S": "0.1",
                              "TURNSTILE_NOTIFY_BREAKER_FAILURES": "5", "TURNSTILE_NOTIFY_BREAKER_COOL_DOWN_S": "30",
                              "TURNSTILE_PROJECTION_BATCH": "50", "TURNSTILE_DATABASE_URLX": "ignored",
                              "TURNSTILE_SWEEP_SECONDS": "", "TURNSTILE_SEARCH_GRACE_S": "45"})
    assert read == Settings(database_url="postgresql://db/x", redis_url="redis://r/1", queue="q", bot_queue="b",
                            notify_timeout_s=0.1, notify_breaker_failures=5, notify_breaker_cool_down_s=30.0,
                            projection_batch=50, search_grace_s=45.0)


@pytest.mark.parametrize(("env", "message"), [
    ({"TURNSTILE_NOTIFY_TIMEOUT_S": "soon"}, "TURNSTILE_NOTIFY_TIMEOUT_S='soon' is not a number"),
    ({"TURNSTILE_PROJECTION_BATCH": "1.5"}, "is not an integer"),
    ({"TURNSTILE_NOTIFY_TIMEOUT_S": "0"}, "must be positive"),
    ({"TURNSTILE_NOTIFY_BREAKER_FAILURES": "0"}, "must be positive"),
    ({"TURNSTILE_SEARCH_GRACE_S": "0"}, "TURNSTILE_SEARCH_GRACE_S must be positive"),
    ({"TURNSTILE_NOTIFY_BREAKER_COOL_DOWN_S": "-1"}, "may not be negative"),
])
def test_nonsense_is_refused_naming_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_env(env)


def test_nothing_else_reads_the_environment() -> None:
    """`os.environ` / `os.getenv` appear in settings.py only, among the service's own modules."""
    readers = []
    for folder in ("api", "cli", "domain", "projections", "service", "store", "workers"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv"):
                    readers.append(str(path.relative_to(ROOT)))
    assert readers == []
