"""The adversary suite (issue 39): each module is one party or seam of docs/threat-model.md performing its cheats
against the real service, on both stores. `uv run pytest tests/adversary` (or `-m adversary` anywhere) runs it all.

Its fixtures are the suite's shared ones, imported, not copied: an API client and app keys over the `store` of each
kind (tests/api/conftest.py), and a store with raw SQL beside it for the operator's edits (tests/store/conftest.py).
"""

from __future__ import annotations

import pytest

from tests.api.conftest import app_key, client, other_key  # noqa: F401  (fixtures, shared)
from tests.store.conftest import harness  # noqa: F401  (a store with raw SQL beside it, for tampering)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test of this folder carries the `adversary` marker."""
    here = __file__.rsplit("/", 1)[0]
    for item in items:
        if str(item.path).startswith(here + "/"):
            item.add_marker(pytest.mark.adversary)
