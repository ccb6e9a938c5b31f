"""The imports read top-down: cli → api, workers → service → store → ledger → domain (projections and settings beside).
Nothing but the command line imports `workers/` (the background processes); neither `api/` nor `service/` does.
`ledger/` (the trust code) is what an outside auditor imports: it loads no store, service, web or database package.
Inside `service/`, the packages by concern keep their own direction: matches never import tournaments or the outbox,
and the log never imports matches."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_domain_is_pure import ROOT, imported_roots

# Each layer, and the top-level packages of this project (and outside) it may not import.
WEB_AND_DATABASE = {"psycopg", "psycopg_pool", "sqlite3", "redis", "rq", "litestar", "httpx", "uvicorn", "granian"}
ABOVE = {
    "api": {"cli", "workers"},
    "service": {"cli", "workers", "api"},
    "store": {"cli", "workers", "api", "service", "projections"},
    "workers": {"cli", "api"},
    "ledger": {"cli", "workers", "api", "service", "store", "projections", "settings"} | WEB_AND_DATABASE,
}
FILES = sorted(p for layer in ABOVE for p in (ROOT / layer).rglob("*.py"))

# Packages of service/ and the service packages each may not import.
SERVICE_NOT = {
    "matches": {"service.tournaments", "service.outbox"},
    "log": {"service.matches", "service.tournaments", "service.outbox"},
}
SERVICE_FILES = sorted(p for package in SERVICE_NOT for p in (ROOT / "service" / package).rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    """The dotted names a Python file imports (for `from a.b import c`: a.b and a.b.c), lazily or at the top."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_layer_above_its_own(path: Path) -> None:
    """Found: `api/ratelimit.py` imported the circuit breaker from `workers/`, and `service/` its notifier, courier
    and webhook sender."""
    layer = path.relative_to(ROOT).parts[0]
    bad = imported_roots(path) & ABOVE[layer]
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", SERVICE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_service_packages_keep_their_direction(path: Path) -> None:
    """Found: the log imported the match snapshots (to hand them its key), the match service the notifications."""
    package = path.relative_to(ROOT / "service").parts[0]
    bad = {m for m in imported_modules(path) for p in SERVICE_NOT[package] if m == p or m.startswith(p + ".")}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_an_auditor_imports_the_ledger_alone() -> None:
    """`import ledger` and every verifier in a fresh process loads no store, service, web or database package."""
    modules = sorted(p.stem for p in (ROOT / "ledger").glob("*.py") if p.stem != "__init__")
    code = ("import sys, importlib\n" + "".join(f"importlib.import_module('ledger.{m}')\n" for m in modules)
            + "print('\\n'.join(sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    roots = {name.split(".")[0] for name in loaded.stdout.split()}
    assert "ledger" in roots and "domain" in roots
    assert not roots & (ABOVE["ledger"] - {"settings"}), sorted(roots & ABOVE["ledger"])


def test_workers_hold_only_the_background_processes() -> None:
    assert sorted(p.name for p in (ROOT / "workers").glob("*.py")) == ["__init__.py", "jobs.py"]
