"""Tournament records written by past releases keep verifying: tests/corpus/tournaments/ holds records exported
(`GET /v1/tournaments/{id}/record`) by the code of the commit each file is named after, never edited by hand.

- `b5d08b2-knockout.json`: four bots, Expect Delays, before fair deals and start entropy existed.
- `fa0a650-knockout-fair-deals-start-entropy.json`: the same shape with option `entropy: "seats"` and the
  organiser's entropy at the start: the played seed is mixed, every match a fair deal.
- `c46c755-knockout-in-the-log.json`: after tournaments joined the transparency log: its header carries the proof
  that its head is a leaf ("tournament:<id>") of a signed tree; `.vkey` beside it is that log's verifier key.

Each was written by a checkout of its commit playing a knockout of four random bots in Expect Delays
(`max_turns: 6`) on a fresh SQLite store and exporting the record, as the README's session does over HTTP.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from cli import main
from ledger import tournament_records
from ledger.notes import Verifier
from ledger.records import parse_record
from service.log.log_client import check_record

FOLDER = Path(__file__).resolve().parent.parent / "corpus" / "tournaments"
RECORDS = sorted(FOLDER.glob("*.json"))


def test_the_corpus_holds_a_record_from_before_and_after_start_entropy_and_the_log() -> None:
    assert {p.name for p in RECORDS} >= {"b5d08b2-knockout.json", "fa0a650-knockout-fair-deals-start-entropy.json",
                                         "c46c755-knockout-in-the-log.json"}


def test_the_record_in_the_log_proves_its_head_and_the_older_ones_carry_no_proof(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = FOLDER / "c46c755-knockout-in-the-log.json"
    header = msgspec.json.decode(path.read_bytes(), type=tournament_records.TournamentExport).header
    verifier = Verifier.parse(path.with_suffix(".vkey").read_text().strip())
    assert header.transparency is not None
    assert check_record(header, verifier).size == header.transparency.tree_size
    assert main(["verify", str(path), "--key", str(path.with_suffix(".vkey"))]) == 0
    assert "head event is leaf of the signed tree" in capsys.readouterr().out
    for old in ("b5d08b2-knockout.json", "fa0a650-knockout-fair-deals-start-entropy.json"):
        assert "transparency" not in json.loads((FOLDER / old).read_text())["header"]


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
