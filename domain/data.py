"""Loads a game's data file (TOML beside its code) into typed Structs, once, at import time.

This is the one place in `domain/` that reads a file: read-only package data, never state.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import TypeVar

import msgspec

T = TypeVar("T")


def load_data(package: str, filename: str, into: type[T]) -> T:
    """Decode `filename` from `package`'s directory into `into`, failing loudly on any mismatch."""
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return msgspec.convert(tomllib.loads(text), into, strict=True)


def data_names(package: str, folder: str, suffix: str) -> tuple[str, ...]:
    """The names, without `suffix`, of the data files in `package`'s `folder`, sorted."""
    entries = resources.files(package).joinpath(folder).iterdir()
    return tuple(sorted(e.name.removesuffix(suffix) for e in entries if e.name.endswith(suffix)))
