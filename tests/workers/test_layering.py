"""`workers/` runs without the API: the API imports the workers, never the reverse."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_domain_is_pure import ROOT, imported_roots

WORKER_FILES = sorted((ROOT / "workers").rglob("*.py"))


@pytest.mark.parametrize("path", WORKER_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_workers_never_import_the_api(path: Path) -> None:
    """Not even inside a function: a worker process must not load the web layer to find its store."""
    assert "api" not in imported_roots(path), f"{path.relative_to(ROOT)} imports api"
