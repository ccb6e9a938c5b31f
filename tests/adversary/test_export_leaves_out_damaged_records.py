"""The bulk export checks each page's records together (service/reads/audit.py `Audit.export_page`): it still
serves only records that pass every check `intact` makes, byte for byte what the one-record path gives, and leaves
out one whose stored events were edited or disagree with the transparency log (every store)."""

from __future__ import annotations

from typing import Any

from domain.lifecycle import Resign
from ledger.notes import Signer
from service.log.transparency import DEFAULT_ORIGIN, Transparency
from service.matches.matches import MatchService
from service.reads.audit import Audit
from service.reads.exports import Exports
from store.exports import ExportQuery
from tests.adversary.test_operator_edits_the_store import sql, unlock
from tests.store.conftest import Harness


def exported(harness: Harness, page: int) -> tuple[Exports, list[bytes]]:
    log = Transparency(harness.store, Signer.generate(DEFAULT_ORIGIN))
    log.catch_up()
    exports = Exports(harness.store, Audit(harness.store, log=log), page=page)  # type: ignore[arg-type]
    return exports, list(exports.lines(ExportQuery(), 0, 1000))


def test_a_page_serves_what_one_record_at_a_time_serves_and_leaves_out_the_damaged(harness: Harness) -> None:
    service = MatchService(harness.store)  # type: ignore[arg-type]
    matches = []
    for n in range(5):
        match_id = service.create("expect-delays", [f"a{n}", f"b{n}"], None).record.id
        service.play(match_id, 0, Resign(), expected_version=None, command_id=None)
        matches.append(match_id)
    exports, lines = exported(harness, page=3)
    one_by_one = [exports.line(finished) for finished in exports.finished(ExportQuery(), 0, 1000)]
    assert lines == one_by_one and len(lines) == 5
    assert all(b"leaf_index" in line for line in lines), "every record carries its log proof"

    unlock(harness, "events", "log_leaves")
    edit = "payload || '{\"x\": 1}'::jsonb" if harness.kind == "postgres" else "json_set(payload, '$.x', 1)"
    sql(harness, f"UPDATE events SET payload = {edit} WHERE match_id = ? AND version = 1", (matches[1],))
    sql(harness, "UPDATE log_leaves SET hash = ? WHERE match_id = ? AND version = 1", ("0" * 64, matches[3]))
    _, after = exported(harness, page=3)
    assert after == [line for n, line in enumerate(lines) if n not in (1, 3)]


def test_a_page_of_one_and_a_page_of_all_give_the_same_lines(harness: Harness) -> None:
    service = MatchService(harness.store)  # type: ignore[arg-type]
    for n in range(4):
        match_id = service.create("expect-delays", [f"a{n}", f"b{n}"], None).record.id
        service.play(match_id, 0, Resign(), expected_version=None, command_id=None)
    lines: list[Any] = [exported(harness, page)[1] for page in (1, 2, 100)]
    assert lines[0] == lines[1] == lines[2] and len(lines[0]) == 4
