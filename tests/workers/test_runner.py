"""The projection runner on both stores: checkpoints, batches, rebuilds, concurrent runners, errors."""

from __future__ import annotations

import threading
from typing import Any

from ledger.events import NewEvent
from projections.catalog import PROJECTIONS
from service.reads.runner import LogPages, StagedDocs, catch_up, rebuild, rebuild_all, run_batch
from tests.workers.helpers import assert_tables_equal_a_fresh_fold, play_matches


def test_catching_up_in_small_batches_equals_one_fold_of_the_log(store: Any) -> None:
    """Batch after batch, with more matches in between, the tables equal a fold from zero."""
    play_matches(store, 2, seed=1)
    catch_up(store, limit=37)
    play_matches(store, 2, seed=2)
    assert catch_up(store, limit=50) > 0
    assert catch_up(store) == 0, "a second catch-up finds nothing new"
    head = store.head_position()
    assert all(c.position == head and c.error is None for c in store.checkpoints())
    assert_tables_equal_a_fresh_fold(store)


def test_a_rebuild_from_zero_gives_identical_tables(store: Any) -> None:
    """Drop and rebuild each projection: the same documents, group and rank."""
    play_matches(store, 3, seed=3)
    catch_up(store, limit=25)
    before = {p.name: sorted((r.kind, r.key, repr(r.doc), r.rank) for kind in ("summary", "stats", "game", "rating",
                                                                              "player")
                             for r in store.docs(p.name, kind, limit=100_000)) for p in PROJECTIONS}
    for projection in PROJECTIONS:
        rebuild(store, projection, limit=11)
    after = {p.name: sorted((r.kind, r.key, repr(r.doc), r.rank) for kind in ("summary", "stats", "game", "rating",
                                                                             "player")
                            for r in store.docs(p.name, kind, limit=100_000)) for p in PROJECTIONS}
    assert before == after
    assert any(before.values())


def test_concurrent_runners_never_count_twice(store: Any) -> None:
    """Several threads run batches of the same projections at once: the result equals one fold."""
    play_matches(store, 3, seed=4)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            catch_up(store, limit=7)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert_tables_equal_a_fresh_fold(store)


def test_a_projection_stops_at_an_event_it_cannot_handle_and_says_so(store: Any) -> None:
    """An unknown lifecycle event: the projection stops before it, records why, and skips nothing."""
    play_matches(store, 1, seed=5)
    record = store.list_matches(limit=1)[0]
    bad = store.append(record.id, record.version, [NewEvent(type="match.paused", payload={"type": "match.paused"})],
                       seat=None, command=None, command_id=None)
    play_matches(store, 1, seed=6)
    catch_up(store)
    for checkpoint in store.checkpoints():
        assert checkpoint.error is not None and "match.paused" in checkpoint.error
        assert checkpoint.error_position == bad.position
        assert checkpoint.position == bad.position - 1
    assert run_batch(store, PROJECTIONS[0]) == 0, "a stopped projection stays stopped"


def test_one_catch_up_reads_each_stretch_of_the_log_once(store: Any) -> None:
    """The projections advance batch by batch together, so the log is read once for all of them, not per projection."""
    play_matches(store, 3, seed=6)
    reads: list[tuple[int, int]] = []
    read_all = store.read_all

    def counted(after: int = 0, limit: int = 500) -> Any:
        page = read_all(after, limit)
        reads.append((after, len(page)))
        return page

    store.read_all = counted
    rebuild_all(store, PROJECTIONS, limit=40)
    events = sum(n for _, n in reads)
    assert events == store.events_after(0), "every event read once, for all projections together"
    assert_tables_equal_a_fresh_fold(store)


def test_log_pages_answer_as_the_store_does_from_any_checkpoint(store: Any) -> None:
    play_matches(store, 2, seed=7)
    log = store.read_all(0, 100_000)
    pages = LogPages(store, keep=9)
    for after in [0, *[e.position for e in log[:: max(1, len(log) // 25)]], log[3].position, 0]:
        for limit in (1, 7, 50):
            assert [e.position for e in pages.read(after, limit)] == [e.position for e in store.read_all(after, limit)]


def test_a_catch_up_that_reaches_the_head_asks_no_projection_again(store: Any) -> None:
    """A batch that came back short has reached the head: one transaction per projection, not a second empty round."""
    play_matches(store, 2, seed=8)
    opened: list[str] = []
    open_batch = store.read_model_batch

    def counted(projection: str, version: int) -> Any:
        opened.append(projection)
        return open_batch(projection, version)

    store.read_model_batch = counted
    assert catch_up(store, limit=100_000) > 0
    assert sorted(opened) == sorted(p.name for p in PROJECTIONS)
    opened.clear()
    events = store.events_after(0)
    catch_up(store, limit=1)  # nothing new: each projection looks once
    assert sorted(opened) == sorted(p.name for p in PROJECTIONS)
    for projection in PROJECTIONS:
        store.reset_read_model(projection.name)
    opened.clear()
    catch_up(store, limit=events)  # a full batch may have more behind it: looked at once more
    assert len(opened) == 2 * len(PROJECTIONS)
    assert_tables_equal_a_fresh_fold(store)


def test_a_batch_reads_each_committed_document_once_and_hands_out_copies() -> None:
    """A projection reads its match's document at every event of that match: the store is asked once a batch. What
    it gets is its own copy (projections change documents in place before they put them), and what it puts or
    deletes is what it reads next."""
    reads: list[tuple[str, str]] = []

    class Batch:
        def get(self, kind: str, key: str) -> dict[str, Any] | None:
            reads.append((kind, key))
            return {"moves": 1} if key == "m1" else None

    docs = StagedDocs(Batch())  # type: ignore[arg-type]
    first = docs.get("match", "m1")
    assert first == {"moves": 1}
    first["moves"] = 99  # changed in place and never put (say the event was refused): the next read is unchanged
    assert docs.get("match", "m1") == {"moves": 1} and docs.get("match", "m2") is None is docs.get("match", "m2")
    assert reads == [("match", "m1"), ("match", "m2")]
    docs.put("match", "m1", {"moves": 2})
    assert docs.get("match", "m1") == {"moves": 2}
    docs.delete("match", "m1")
    assert docs.get("match", "m1") is None and len(reads) == 2


def test_the_first_read_of_a_kind_read_ahead_reads_every_key_of_the_batch_at_once() -> None:
    """The runner names the batch's matches for the `match` kind: the first read of one reads them all in one call
    (each projection reads its match's document at every event), a later read of any of them asks nothing, and a
    key outside them (or another kind) is read alone, once."""
    calls: list[tuple[str, tuple[str, ...]]] = []

    class Batch:
        def get(self, kind: str, key: str) -> dict[str, Any] | None:
            calls.append((kind, (key,)))
            return None

        def get_many(self, kind: str, keys: list[str]) -> dict[str, dict[str, Any]]:
            calls.append((kind, tuple(keys)))
            return {key: {"of": key} for key in keys if key != "m3"}

    docs = StagedDocs(Batch(), {"match": ["m1", "m2", "m1", "m3"]})  # type: ignore[arg-type]
    assert docs.get("match", "m2") == {"of": "m2"}
    assert calls == [("match", ("m1", "m2", "m3"))]
    assert docs.get("match", "m1") == {"of": "m1"} and docs.get("match", "m3") is None and len(calls) == 1
    assert docs.get("match", "m9") is None and docs.get("player", "ada") is None
    assert calls[1:] == [("match", ("m9",)), ("player", ("ada",))]


def test_a_batch_writes_and_reads_many_documents_at_once(store: Any) -> None:
    """`commit` writes a batch's upserts and deletes (each one statement where statements are round trips) and
    `get_many` reads a kind's documents by key, more keys than one statement names included; a rank JSON cannot
    hold (infinity) is written as it is."""
    from store.read_models import Checkpoint, DocChange

    def commit(changes: list[DocChange]) -> None:
        with store.read_model_batch("tally", 1) as batch:
            batch.commit(changes, Checkpoint(projection="tally", version=1, position=0))

    keys = [f"k{i:04d}" for i in range(1203)]
    commit([DocChange(kind="row", key=key, doc={"n": i, "nested": {"text": "é"}}, group="g", rank=float(i))
            for i, key in enumerate(keys)])
    commit([*(DocChange(kind="row", key=key, doc=None) for key in keys[:3]),
            DocChange(kind="row", key=keys[3], doc={"n": -1}, group="h", rank=0.5),
            DocChange(kind="other", key=keys[4], doc={"n": 4})])
    commit([DocChange(kind="row", key=keys[5], doc={"n": 5}, rank=float("inf"))])
    with store.read_model_batch("tally", 1) as batch:
        found = batch.get_many("row", [*keys, "missing"])
    assert sorted(found) == keys[3:]
    assert found[keys[3]] == {"n": -1} and found[keys[6]] == {"n": 6, "nested": {"text": "é"}}
    moved = store.docs("tally", "row", key=keys[3])[0]
    assert moved.rank == 0.5 and moved.group == "h"
    assert store.docs("tally", "row", key=keys[5])[0].rank == float("inf")
    assert store.docs("tally", "other", key=keys[4])[0].doc == {"n": 4}


def test_an_event_a_projection_refuses_leaves_the_documents_as_the_event_before_left_them(store: Any) -> None:
    """A projection changes a document in place and then refuses the event: the batch commits the document as the
    previous event left it (the runner's undo restores what was staged, and what was staged is never the object the
    projection changed), and the checkpoint stops at the previous event."""
    from projections.log import Projection, ProjectionError
    from service.reads.runner import fold_batch

    play_matches(store, 1, seed=7)  # more than two events
    seen: list[int] = []

    def apply(docs: Any, entry: Any) -> None:
        doc = docs.get("tally", "all") or {"events": 0}
        doc["events"] += 1  # in place, as game_stats and match_summaries do
        seen.append(entry.position)
        if len(seen) == 2:
            raise ProjectionError("tally", entry, "refused after changing its document")
        docs.put("tally", "all", doc)

    fold_batch(store, Projection(name="tally", version=1, apply=apply), 100, None)
    assert [row.doc for row in store.docs("tally", "tally", key="all")] == [{"events": 1}]
    checkpoint = next(c for c in store.checkpoints() if c.projection == "tally")
    assert checkpoint.position == seen[0] and checkpoint.error_position == seen[1]
