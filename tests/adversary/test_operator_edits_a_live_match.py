"""Issue 39, hole 7: a hidden part or a command edited in storage while the match is live, as a dishonest operator
would (direct SQL, immutability triggers switched off), on every store. The chain hash of a scheme 2 event covers only
its public form and its salted commitment, so the hashes, the transparency log and a spectator's verifier all still
agree; only the seed opens the commitment, and the server holds it. Before the fix the restarted server served both
hands and went on playing, `verify --match` said `verified-so-far`, and only the end revealed `commitment-mismatch`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from cli import main
from domain import match
from domain.catalog import decode_events, game_of
from ledger.events import StoredEvent
from service.matches import snapshots
from service.matches.matches import MatchService
from service.matches.tokens import new_secret, secret_hash
from service.reads.audit import Audit
from store.base import RecordCorrupt, Snapshot
from tests.adversary.test_operator_edits_the_store import _json, assert_corrupt, sql, unlock
from tests.api.http_play import create, play_moves
from tests.store.conftest import Harness

GAME = "expect-delays"
DRAWN = "expect-delays.cards-drawn"
SAID = "commitment was made to"


@pytest.fixture
def served(harness: Harness) -> Iterator[tuple[TestClient, str]]:
    key = new_secret("app")
    harness.store.create_app_key("tests", secret_hash(key))
    with TestClient(create_app(harness.store)) as client:  # type: ignore[arg-type]
        yield client, key


def hands(stored: list[StoredEvent]) -> tuple[tuple[str, ...], ...]:
    """The hands the stored full payloads fold to (what the server serves of them)."""
    first = stored[0].payload
    game = game_of(first["game"], first["rules_version"])
    state = match.fold(game, decode_events(game, [e.payload for e in stored]))
    return state.game_state.hands  # type: ignore[no-any-return]


def deal_seat_1_a_card_of_seat_0(harness: Harness, match_id: str, after: int = 0, *,
                                 set_up: bool = False) -> StoredEvent:
    """Edit the stored full payload of seat 1's latest draw (after version `after`; `set_up`: its opening hand) still
    in its hand: one of its cards becomes one seat 0 holds. The public form, the commitment and every hash are left
    alone. The event edited."""
    stored = harness.store.read_match(match_id)
    held = hands(stored)
    target = next(e for e in reversed(stored) if e.version > after and e.type == DRAWN and e.payload["seat"] == 1
                  and (e.command is None or not set_up) and set(e.payload["cards"]) & set(held[1]))
    assert target.public_payload is not None and target.public_payload["cards"] == []  # hidden from spectators
    mine = next(card for card in target.payload["cards"] if card in held[1])
    stolen = held[0][0]
    cards = [stolen if card == mine else card for card in target.payload["cards"]]
    unlock(harness, "events")
    sql(harness, "UPDATE events SET payload = ? WHERE match_id = ? AND version = ?",
        (_json({**target.payload, "cards": cards}), match_id, target.version))
    doctored = hands(harness.store.read_match(match_id))
    assert stolen in doctored[0] and stolen in doctored[1]  # what the server would serve: one card in both hands
    return target


def edit_a_command(harness: Harness, match_id: str) -> StoredEvent:
    """Edit the stored command of the first event of seat 0's first move: the command column is covered by the
    commitments only, never by a hash directly. The event edited."""
    stored = harness.store.read_match(match_id)
    target = next(e for e in stored if e.command is not None and e.seat == 0)
    unlock(harness, "events")
    sql(harness, "UPDATE events SET command = ? WHERE match_id = ? AND version = ?",
        (_json({"type": "match.resign"}), match_id, target.version))
    assert harness.store.read_match(match_id)[target.version - 1].command == {"type": "match.resign"}
    return target


def assert_audit_fails(harness: Harness, match_id: str, version: int, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    """`Audit.verify` (what `turnstile verify --match/--all` runs) names the event while the match is live; the
    export is refused."""
    verdict = Audit(harness.store).verify(match_id)
    assert not verdict.finished
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "commitment-mismatch", version)
    with pytest.raises(RecordCorrupt, match=SAID):
        Audit(harness.store).export(match_id, None, full=True)
    if harness.kind != "sqlite-memory":  # the command line opens the database itself
        monkeypatch.setenv("TURNSTILE_DATABASE_URL", harness.url)
        capsys.readouterr()
        assert main(["verify", "--match", match_id]) == 1
        assert "commitment-mismatch" in capsys.readouterr().out
        assert main(["verify", "--all"]) == 1
        assert "commitment-mismatch" in capsys.readouterr().out


def test_a_hidden_card_edited_in_a_live_match_is_refused(harness: Harness, served: Any,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The opening hand, dealt at set-up (no command): the rules cannot re-decide it before the seed is revealed,
    so only the commitment tells (with a move's draw, `decision-mismatch` would)."""
    client, key = served
    created = create(client, key, GAME, 2)
    play_moves(client, created, random.Random(11), 1)  # seat 0's: seat 1's opening hand is all there
    target = deal_seat_1_a_card_of_seat_0(harness, created["id"], set_up=True)
    assert target.command is None
    assert_corrupt(harness, created, SAID)  # GET, export and a move, from a restarted server: 500 record-corrupt
    assert_audit_fails(harness, created["id"], target.version, monkeypatch, capsys)


def test_a_stored_command_edited_in_a_live_match_is_refused(harness: Harness, served: Any,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    client, key = served
    created = create(client, key, GAME, 2)
    play_moves(client, created, random.Random(12), 6)
    target = edit_a_command(harness, created["id"])
    assert_corrupt(harness, created, SAID)
    assert_audit_fails(harness, created["id"], target.version, monkeypatch, capsys)


def test_an_event_another_process_appended_and_edited_is_refused_by_a_warm_process(harness: Harness) -> None:
    """The warm path: this process holds the match folded; another appends; the operator edits what it appended
    before this process reads it."""
    here, there = MatchService(harness.store), MatchService(harness.store)  # two processes: two caches
    match_id = here.create(GAME, ["ann", "bob"], None).record.id
    rng = random.Random(13)
    for service, moves in ((here, 4), (there, 8)):
        for _ in range(moves):
            loaded = service.load(match_id)
            seat = match.to_move(loaded.game, loaded.state)[0]
            service.play(match_id, seat, rng.choice(match.legal(loaded.game, loaded.state, seat)),
                         expected_version=None, command_id=None)
    held = here.cache.get(match_id)
    assert held is not None
    deal_seat_1_a_card_of_seat_0(harness, match_id, after=held.record.version)
    with pytest.raises(RecordCorrupt, match=SAID):
        here.load(match_id)


def _play_until_seat_1_draws_after_a_snapshot(service: MatchService, harness: Harness, match_id: str,
                                              rng: random.Random) -> Snapshot | None:
    """Play random legal moves until seat 1 holds a card drawn after the newest snapshot; None if the match ends."""
    while True:
        loaded = service.load(match_id)
        saved = harness.store.snapshot(match_id)
        stored = harness.store.read_match(match_id)
        if saved is not None and any(e.version > saved.version and e.type == DRAWN and e.payload["seat"] == 1 and
                                     set(e.payload["cards"]) & set(hands(stored)[1]) for e in stored):
            return saved
        to_move = match.to_move(loaded.game, loaded.state)
        if not to_move:
            return None
        seat = to_move[0]
        service.play(match_id, seat, rng.choice(match.legal(loaded.game, loaded.state, seat)), expected_version=None,
                     command_id=None)


def test_a_hidden_card_edited_after_the_snapshot_is_refused(harness: Harness,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold load on a snapshot reads (and opens) the events after its base."""
    monkeypatch.setattr(snapshots, "EVERY", 5)
    service = MatchService(harness.store)
    rng = random.Random(14)
    match_id, saved = "", None
    while saved is None:  # the deal is the server's: a match can end before seat 1 draws after a snapshot
        match_id = service.create(GAME, ["ann", "bob"], None).record.id
        saved = _play_until_seat_1_draws_after_a_snapshot(service, harness, match_id, rng)
    deal_seat_1_a_card_of_seat_0(harness, match_id, after=saved.version)

    def fold_all(self: MatchService, match_id: str) -> None:
        raise AssertionError("the snapshot was set aside: the load did not start at its base")

    monkeypatch.setattr(MatchService, "_fold_all", fold_all)
    with pytest.raises(RecordCorrupt, match=SAID):
        MatchService(harness.store).load(match_id)
