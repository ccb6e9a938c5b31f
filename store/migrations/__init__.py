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
    # A repeated number means two files claim one step; refuse rather than apply either in an arbitrary order. A gap
    # is allowed: a number may be taken by a change on another branch, and each step is applied when its number is
    # not yet recorded (so one merged later is applied then).
    if len(set(numbers)) != len(numbers) or not numbers or numbers[0] != 1:
        raise RuntimeError(f"{dialect} migrations must be numbered from 1 without repeats, got {numbers}")
    return found
