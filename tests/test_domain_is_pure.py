"""`domain/` and `projections/` stay pure: no I/O, clock, global randomness or framework imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "random", "secrets", "time", "datetime", "os", "io", "pathlib", "socket", "subprocess", "shutil",
    "sqlite3", "psycopg", "psycopg_pool", "redis", "rq", "litestar", "httpx", "uuid", "threading",
    "asyncio", "logging", "urllib", "requests", "store", "api", "workers",
}
# The one reader of packaged, read-only game data (card lists, maps): see domain/data.py.
ALLOWED_IN = {"domain/data.py": {"importlib"}}


def imported_roots(path: Path) -> set[str]:
    """Top-level module names imported by a Python file."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


PURE_FILES = sorted(p for d in ("domain", "projections") for p in (ROOT / d).rglob("*.py"))


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_nothing_impure(path: Path) -> None:
    """Rules and projections are folds and decisions: the shell does all I/O."""
    relative = str(path.relative_to(ROOT))
    bad = imported_roots(path) & FORBIDDEN
    assert not bad, f"{relative} imports {sorted(bad)}"
    if relative not in ALLOWED_IN:
        assert "importlib" not in imported_roots(path), f"{relative} imports importlib"


def test_the_checker_catches_an_impure_import(tmp_path: Path) -> None:
    """The walk above really sees imports (so the purity test can fail)."""
    sample = tmp_path / "sample.py"
    sample.write_text("import random\nfrom time import monotonic\nfrom domain import engine\n")
    assert imported_roots(sample) == {"random", "time", "domain"}
