"""The tournaments' half of both store adapters: creation, conditional appends, reads bounded by the row."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from ledger.chain import GENESIS, verify_chain
from store.base import ConflictError
from store.tournaments import NewTournament, TournamentNotFound

NEW = NewTournament(id="t1", game="expect-delays", format="swiss", owner="club", visibility="public", seed="s" * 64,
                    token_secret="x" * 64, places={"2": "hash-of-a-code"})


def test_appends_chain_and_a_stale_version_conflicts(store: Any) -> None:
    record = store.create_tournament(NEW, {"type": "tournament.created", "game": "expect-delays"})
    assert (record.version, record.status, record.places) == (1, "open", {"2": "hash-of-a-code"})
    store.append_tournament("t1", 1, [{"type": "tournament.started", "order": [0, 1]},
                                      {"type": "tournament.round-paired", "round": 1}])
    with pytest.raises(ConflictError):
        store.append_tournament("t1", 1, [{"type": "tournament.player-withdrawn", "entrant": 0}])
    row, events = store.tournament_with_events("t1")
    assert (row.version, row.status, row.head_hash) == (3, "running", events[-1].hash)
    assert [e.version for e in events] == [1, 2, 3] and events[0].prev_hash == GENESIS
    assert verify_chain(events) is None
    assert [e.version for e in store.tournament_with_events("t1", 3)[1]] == [3]
    store.append_tournament("t1", 3, [{"type": "tournament.finished", "standings": []}])
    assert store.get_tournament("t1").status == "finished"
    assert store.running_tournaments() == []
    with pytest.raises(TournamentNotFound):
        store.tournament_with_events("nope")


def test_links_and_lists(store: Any) -> None:
    store.create_tournament(NEW, {"type": "tournament.created"})
    private = msgspec.structs.replace(NEW, id="t2", visibility="private")
    store.create_tournament(private, {"type": "tournament.created"})
    store.link_tournament_match("m1", "t1", 2, 0)
    store.link_tournament_match("m1", "t1", 2, 0)  # a retry changes nothing
    link = store.tournament_link("m1")
    assert (link.tournament_id, link.round, link.table, link.owner) == ("t1", 2, 0, "club")
    assert store.tournament_link("m2") is None
    assert [t.id for t in store.list_tournaments(reader=None)] == ["t1"]
    assert {t.id for t in store.list_tournaments(reader="club")} == {"t1", "t2"}
    assert [t.id for t in store.list_tournaments(reader="club", mine=True, status="open", game="nope")] == []
