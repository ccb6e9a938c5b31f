"""The imports read top-down: cli → api, workers → service → store, projections, domain, settings. Nothing but the
command line imports `workers/` (the background processes); neither `api/` nor `service/` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_domain_is_pure import ROOT, imported_roots

# Each layer, and the top-level packages of this project it may not import (the ones above it).
ABOVE = {
    "api": {"cli", "workers"},
    "service": {"cli", "workers", "api"},
    "store": {"cli", "workers", "api", "service", "projections"},
    "workers": {"cli", "api"},
}
FILES = sorted(p for layer in ABOVE for p in (ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_layer_above_its_own(path: Path) -> None:
    """Found: `api/ratelimit.py` imported the circuit breaker from `workers/`, and `service/` its notifier, courier
    and webhook sender."""
    layer = path.relative_to(ROOT).parts[0]
    bad = imported_roots(path) & ABOVE[layer]
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_workers_hold_only_the_background_processes() -> None:
    assert sorted(p.name for p in (ROOT / "workers").glob("*.py")) == ["__init__.py", "jobs.py"]
