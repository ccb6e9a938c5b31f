"""Every registered game has a recorded match in tests/corpus/, and every recorded match still verifies.

A rules change that would make old records unverifiable fails here the day it is made. A deliberate change is a
new rules edition (README, "Changing a rule"): old records keep verifying under the edition they were played by, so
record a match of the new edition beside them; never edit a record by hand. `tests/corpus/scheme1/` keeps records
of the first record format (hashes over full events, no commitments): the verifier must keep reading them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.catalog import GAMES, by_slug
from ledger.records import FORMAT, FORMAT_V1, parse_record
from ledger.verify import verify_text
from tests.corpus.make import COMMAND, CORPUS, path_of

RECORDS = sorted(CORPUS.glob("*.ndjson"))
SCHEME1 = sorted((CORPUS / "scheme1").glob("*.ndjson"))


@pytest.mark.parametrize("slug", [g.slug for g in GAMES])
def test_every_registered_game_has_a_recorded_match(slug: str) -> None:
    """A newly registered game needs its record: the corpus test cannot guard rules it has never seen played."""
    assert path_of(slug).exists(), f"no recorded match of {slug!r} in tests/corpus/: run `{COMMAND}` and commit it"


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_every_recorded_match_verifies(path: Path) -> None:
    """Chain, seed, rules version, fold, every decision re-decided, outcome: all pass on today's rules."""
    game = by_slug(path.stem)
    assert game is not None, f"{path.name} records a game that is not registered (domain/catalog.py)"
    verdict = verify_text(path.read_bytes())
    assert verdict.code == "verified", (
        f"{path.name} no longer verifies: {verdict.message}. A rules change broke recorded matches: an edition is "
        f"never edited; put the change in a new edition of {game.slug} (README, 'Changing a rule')"
    )
    assert verdict.ok and verdict.finished
    assert parse_record(path.read_bytes()).header.record == FORMAT
    assert verdict.passed == ["format", "chain", "seed", "rules", "commitments", "fold", "redecide", "outcome"]


@pytest.mark.parametrize("path", SCHEME1, ids=[p.stem for p in SCHEME1])
def test_records_of_the_first_format_still_verify(path: Path) -> None:
    """A record written before commitments existed (format 1) is read, and verifies with every check it has."""
    assert parse_record(path.read_bytes()).header.record == FORMAT_V1
    verdict = verify_text(path.read_bytes())
    assert (verdict.ok, verdict.code) == (True, "verified"), verdict.message
    assert verdict.passed == ["format", "chain", "seed", "rules", "fold", "redecide", "outcome"]


def test_there_is_a_record_of_the_first_format() -> None:
    """The old format stays under test."""
    assert SCHEME1
