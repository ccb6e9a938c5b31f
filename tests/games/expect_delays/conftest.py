"""Lets `pytest -k expect-delays` (the game's slug) select these rule tests as well as the shared suites."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tag this folder's tests with the slug, which `-k` matches (the folder name has an underscore)."""
    for item in items:
        if HERE in item.path.parents:
            item.extra_keyword_matches.add("expect-delays")
