"""Numbered schema migrations, one SQL file each, per dialect: `<dialect>/NNNN_name.sql`."""

from __future__ import annotations

from importlib import resources
from typing import NamedTuple


class Migration(NamedTuple):
    """One schema step: applied once, in number order, recorded in schema_migrations."""

    number: int
    name: str
    sql: str


def load(dialect: str) -> list[Migration]:
    """The migrations of a dialect ("postgres" or "sqlite"), in number order."""
    found = []
    for entry in resources.files(__package__).joinpath(dialect).iterdir():
        stem, dot, ext = entry.name.partition(".")
        if ext != "sql":
            continue
        number, _, name = stem.partition("_")
        found.append(Migration(int(number), name, entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [m.number for m in found]
    # A gap or a repeated number means a file was misnamed; refuse rather than skip a step.
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{dialect} migrations must be numbered 1..n without gaps, got {numbers}")
    return found
