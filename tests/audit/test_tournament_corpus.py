"""Tournament records written by past releases keep verifying: tests/corpus/tournaments/ holds records exported
(`GET /v1/tournaments/{id}/record`) by the code of the commit each file is named after, never edited by hand.

- `b5d08b2-knockout.json`: four bots, Expect Delays, before fair deals and start entropy existed.
- `fa0a650-knockout-fair-deals-start-entropy.json`: the same shape with option `entropy: "seats"` and the
  organiser's entropy at the start: the played seed is mixed, every match a fair deal.

Each was written by a checkout of its commit playing a knockout of four random bots in Expect Delays
(`max_turns: 6`) on a fresh SQLite store and exporting the record, as the README's session does over HTTP.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger import tournament_records
from ledger.records import parse_record

FOLDER = Path(__file__).resolve().parent.parent / "corpus" / "tournaments"
RECORDS = sorted(FOLDER.glob("*.json"))


def test_the_corpus_holds_a_record_from_before_and_after_start_entropy() -> None:
    assert {p.name for p in RECORDS} >= {"b5d08b2-knockout.json",
                                         "fa0a650-knockout-fair-deals-start-entropy.json"}


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_every_recorded_tournament_still_verifies(path: Path) -> None:
    verdict = tournament_records.verify(path.read_text())
    assert verdict.ok and verdict.code == "verified", verdict


def test_the_fair_record_was_played_from_the_mixed_seed_with_fair_deals() -> None:
    """What the newer record holds is what it is kept for: the start's entropy, and matches dealt by the seats."""
    document = json.loads((FOLDER / "fa0a650-knockout-fair-deals-start-entropy.json").read_text())
    started = [line["event"] for line in document["events"] if line["event"]["type"] == "tournament.started"]
    assert [event["entropy"] for event in started] == ["corpus dice: 3 5 2"]
    headers = [parse_record(match["record"]).header for match in document["matches"]]
    assert headers and all(h.seed_source == "server+seats" for h in headers)
    old = json.loads((FOLDER / "b5d08b2-knockout.json").read_text())
    assert all("entropy" not in line["event"] for line in old["events"])
