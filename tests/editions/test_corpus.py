"""Records written by past releases' own code (tests/corpus/editions/, README there) verify under today's code,
forever: each under the rules edition it was played by. Every released edition has such records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.catalog import EDITIONS
from ledger.records import parse_record
from ledger.verify import verify_text

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "editions"
RECORDS = sorted(CORPUS.glob("*/*.ndjson"))


def manifest_entry(path: Path) -> dict[str, Any]:
    """What the release that wrote the record said of it (tests/corpus/editions/<release>/manifest.json)."""
    manifest = json.loads((path.parent / "manifest.json").read_text())
    entries = manifest["matches"] if isinstance(manifest, dict) else manifest
    return next(entry for entry in entries if entry["file"] == path.name)


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}/{p.stem}" for p in RECORDS])
def test_every_record_of_a_past_release_verifies(path: Path) -> None:
    """Today's verdict is the one the release that wrote the record gave it: finished, `verified` (chain, seed,
    commitments, fold, every decision re-decided under its edition, outcome); unfinished (exported for a spectator),
    `verified-so-far`, or `partial` for record format 1, whose hashes of redacted events are withheld."""
    verdict = verify_text(path.read_bytes())
    entry = manifest_entry(path)
    assert verdict.ok, f"{path.parent.name}/{path.name}: {verdict.message}"
    assert verdict.code == entry["verdict_by_own_release"]["code"], verdict.message
    assert verdict.code == "verified" or entry["status"] != "finished"
    assert verdict.finished == (entry["status"] == "finished")


def test_every_released_edition_has_finished_records_of_past_releases() -> None:
    """So that no edition runs untested against what its own release wrote."""
    written: set[tuple[str, str]] = set()
    for path in RECORDS:
        header = parse_record(path.read_bytes()).header
        if header.status == "finished":
            written.add((header.game, header.rules_version))
    missing = {(slug, version) for slug, editions in EDITIONS.items() for version in editions} - written
    assert not missing, f"editions with no record written by their own release: {sorted(missing)}"
