"""Running tournaments across processes, on both stores (issue 30): a round advances exactly once when its last
results land at the same moment on two processes; a result a crash left unrecorded is caught up by the sweep;
deadlines forfeit matches; the owning app alone is told seat tokens (feed and webhooks); a tampered stored stream is
refused, not served."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import msgspec
import pytest

from domain.engine import Refusal
from domain.lifecycle import AddEntropy, Resign
from domain.tournaments import match_seed, played_seed
from domain.tournaments.commands import CreateTournament, EntryOf
from ledger import tournament_records
from service.matches.deadlines import sweep as sweep_deadlines
from service.matches.matches import MatchService
from service.outbox.notifications import Follower
from service.outbox.webhook_fold import fold_all
from service.outbox.webhooks import Webhooks
from service.reads.audit import Audit
from service.tournaments import records as tournament_exports
from service.tournaments.tournaments import TournamentService
from store.base import RecordCorrupt, utc_now
from store.factory import open_store

APP = "club"
SHORT = {"max_turns": 8}


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A fresh store's URL: a SQLite file, or a clean PostgreSQL schema."""
    return f"sqlite:///{tmp_path / 'store.db'}" if request.param == "sqlite" else str(
        request.getfixturevalue("pg_clean_url"))


class Process:
    """What one API process holds: its own store connection, match service and tournament service."""

    def __init__(self, url: str) -> None:
        self.store = open_store(url)
        self.matches = MatchService(self.store)
        self.tournaments = TournamentService(self.store, self.matches)

    def close(self) -> None:
        self.store.close()


@pytest.fixture
def processes(url: str) -> Iterator[tuple[Process, Process]]:
    """Two processes over one database."""
    pair = (Process(url), Process(url))
    yield pair
    for process in pair:
        process.close()


def round_robin(process: Process, players: tuple[Any, ...], **extra: Any) -> str:
    """A started round robin of Expect Delays (short matches); its id."""
    command = CreateTournament(game="expect-delays", format="round-robin", entrants=players, seats=2,
                               seed_commitment="", options=SHORT, **extra)
    tournament_id = process.tournaments.create(APP, command).loaded.record.id
    process.tournaments.start(tournament_id, APP)
    return tournament_id


def exported(process: Process, loaded: Any) -> Any:
    """The tournament's record as the process exports it (the seed as it reveals it)."""
    return tournament_exports.export(loaded, Audit(process.store), process.tournaments.revealed_seed(loaded))


def pending(process: Process, tournament_id: str) -> list[str]:
    """The current round's matches without a result."""
    state = process.tournaments.load(tournament_id).state
    current = state.current
    assert current is not None
    return [m.match_id for t, opened in enumerate(current.matches) if not current.table_done(t) for m in opened]


def counts(process: Process, tournament_id: str) -> dict[str, int]:
    """How many events of each type the tournament recorded."""
    found: dict[str, int] = {}
    for event in process.tournaments.load(tournament_id).stored:
        found[event.type] = found.get(event.type, 0) + 1
    return found


def test_a_round_advances_exactly_once_when_its_last_results_land_together(
        processes: tuple[Process, Process]) -> None:
    """Each round's two matches end at the same moment on two processes (both drive the tournament at once): every
    result is recorded once, every round ends once and is paired once, every table gets exactly one match."""
    first, second = processes
    tournament_id = round_robin(first, ("ann", "bob", "cy", "dee"))
    for _ in range(3):
        left, right = pending(first, tournament_id)
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def resign(process: Process, match_id: str, barrier: threading.Barrier = barrier,
                   errors: list[BaseException] = errors) -> None:
            try:
                barrier.wait(timeout=10)
                process.matches.play(match_id, 0, Resign(), expected_version=None, command_id=None)
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=resign, args=(p, m)) for p, m in ((first, left), (second, right))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert errors == []
    loaded = first.tournaments.load(tournament_id)
    assert loaded.state.finished
    found = counts(first, tournament_id)
    assert found["tournament.round-ended"] == 3 and found["tournament.round-paired"] == 3
    assert found["tournament.table-opened"] == 6 and found["tournament.match-result"] == 6
    assert found["tournament.finished"] == 1
    opened = [m.match_id for r in loaded.state.rounds for t in r.matches for m in t]
    assert len(set(opened)) == 6
    assert all(first.store.get_match(m).status == "finished" for m in opened)  # type: ignore[union-attr]


def test_a_start_plays_bots_only_for_its_budget_and_the_background_plays_on_to_the_end_once(
        processes: tuple[Process, Process]) -> None:
    """Eight bots, round robin (28 matches): the start answers after its budget with the tournament running and
    matches still to play; this process's background driver plays the rest while the other process's sweep drives
    it too; it finishes with every table's match opened once, every result recorded once, and it verifies."""
    first, second = processes
    first.tournaments.budget_s = 0.0  # the start opens nothing itself: everything after it is the background's
    bots = tuple(EntryOf(bot="random", name=f"r{i}") for i in range(8))
    command = CreateTournament(game="expect-delays", format="round-robin", entrants=bots, seats=2,
                               seed_commitment="", options=SHORT)
    tournament_id = first.tournaments.create(APP, command).loaded.record.id
    began = time.monotonic()
    started = first.tournaments.start(tournament_id, APP)
    assert time.monotonic() - began < 5 and started.state.started and not started.state.finished
    deadline = time.monotonic() + 120
    while not second.tournaments.load(tournament_id).state.finished:
        second.tournaments.sweep()  # another process's sweep drives it at the same time
        assert time.monotonic() < deadline, "the background driver did not finish the tournament"
        time.sleep(0.05)
    loaded = first.tournaments.load(tournament_id)
    found = counts(first, tournament_id)
    assert found["tournament.table-opened"] == 28 and found["tournament.match-result"] == 28
    assert found["tournament.round-ended"] == 7 and found["tournament.finished"] == 1
    opened = [m.match_id for r in loaded.state.rounds for t in r.matches for m in t]
    assert len(set(opened)) == 28
    assert all(first.store.get_match(m).status == "finished" for m in opened)  # type: ignore[union-attr]
    assert tournament_records.verify(exported(first, loaded)).code == "verified"


def test_a_drive_within_its_budget_plays_to_the_end_on_the_callers_thread(processes: tuple[Process, Process]) -> None:
    """A budget long enough: the start answers with the tournament finished, and nothing was handed over."""
    first, _ = processes
    first.tournaments.budget_s = 60.0
    tournament_id = round_robin(first, tuple(EntryOf(bot="random", name=f"r{i}") for i in range(3)))
    assert first.tournaments.load(tournament_id).state.finished
    assert first.tournaments.background._thread is None


def fair_round_robin(process: Process, entrants: tuple[Any, ...]) -> str:
    """A started round robin of short Expect Delays whose matches are fair deals (option `entropy: "seats"`)."""
    command = CreateTournament(game="expect-delays", format="round-robin", entrants=entrants, seats=2,
                               seed_commitment="", options={**SHORT, "entropy": "seats"})
    tournament_id = process.tournaments.create(APP, command).loaded.record.id
    process.tournaments.start(tournament_id, APP)
    return tournament_id


def play_out_with_entropy(process: Process, tournament_id: str) -> list[str]:
    """Each person adds entropy to each match the tournament opens, then the first person seated resigns; the ids
    of the matches, in the order they were opened, once the tournament has finished."""
    rng = random.Random(7)
    for _ in range(20):
        if process.tournaments.load(tournament_id).state.finished:
            break
        for match_id in pending(process, tournament_id):
            record = process.store.get_match(match_id)
            assert record is not None
            people = [s.seat for s in record.seats if not s.player.startswith("bot:")]
            for seat in people:
                with contextlib.suppress(Refusal):  # added already (a match read twice)
                    process.matches.play(match_id, seat, AddEntropy(entropy=rng.randbytes(16).hex()),
                                         expected_version=None, command_id=None)
            process.matches.play(match_id, people[0], Resign(), expected_version=None, command_id=None)
    loaded = process.tournaments.load(tournament_id)
    assert loaded.state.finished
    return [m.match_id for r in loaded.state.rounds for t in r.matches for m in t]


def test_a_fair_deal_tournament_deals_each_match_from_its_derived_part_and_the_seats_entropy(
        processes: tuple[Process, Process]) -> None:
    """Option `entropy: "seats"`: each match opens `dealing`, its server part committed to (the part the
    tournament's seed derives for its table, itself committed to before anyone entered), and is dealt only once its
    people's entropy is in; the tournament's record verifies, its matches saying who chose their deals."""
    first, _ = processes
    tournament_id = fair_round_robin(first, ("ann", "bob", EntryOf(bot="random", name="r1")))
    opened = first.tournaments.load(tournament_id).state.rounds[0].matches
    waiting = first.store.get_match(opened[0][0].match_id)
    assert waiting is not None and waiting.status == "dealing"
    matches = play_out_with_entropy(first, tournament_id)
    loaded = first.tournaments.load(tournament_id)
    for number, paired in enumerate(loaded.state.rounds, start=1):
        for table, opened_matches in enumerate(paired.matches):
            for opened_match in opened_matches:
                record = first.store.get_match(opened_match.match_id)
                assert record is not None and record.seed_source == "server+seats"
                assert record.server_seed == match_seed(loaded.record.seed, number, table)
                events = first.store.read_match(opened_match.match_id)
                added = [e for e in events if e.type == "match.entropy-added"]
                people = [s.seat for s in record.seats if not s.player.startswith("bot:")]
                assert sorted(e.seat for e in added if e.payload.get("source", "seat") == "seat") == people
    assert len(matches) == 3
    verdict = tournament_records.verify(exported(first, loaded))
    assert verdict.code == "verified", verdict


def test_a_fair_deal_match_whose_server_part_the_server_chose_fails_the_tournaments_verification(
        processes: tuple[Process, Process], monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack: a server that grinds a match's server part (here: any part but the one derived from the committed
    seed). Each match still verifies on its own, but the tournament's record does not."""
    first, _ = processes
    monkeypatch.setattr("service.tournaments.tournaments.match_seed",
                        lambda seed, number, table: f"ground-{number}-{table}")
    tournament_id = fair_round_robin(first, ("ann", "bob"))
    play_out_with_entropy(first, tournament_id)
    loaded = first.tournaments.load(tournament_id)
    verdict = tournament_records.verify(exported(first, loaded))
    assert not verdict.ok and verdict.code == "match-mismatch", verdict
    assert "was not dealt from the seed the tournament derives for it" in verdict.message


def test_a_start_with_the_organisers_entropy_deals_every_match_from_the_mixed_seed(
        processes: tuple[Process, Process]) -> None:
    """The seed played is the committed one mixed with the start's entropy: every match is dealt from the seed that
    played seed derives for its table, and the record (entropy in `tournament.started`) verifies."""
    first, _ = processes
    command = CreateTournament(game="expect-delays", format="round-robin", seats=2, seed_commitment="",
                               entrants=tuple(EntryOf(bot="random", name=f"r{i}") for i in range(4)), options=SHORT)
    tournament_id = first.tournaments.create(APP, command).loaded.record.id
    loaded = first.tournaments.start(tournament_id, APP, entropy="organiser-dice")
    assert loaded.state.finished and loaded.state.start_entropy == "organiser-dice"
    played = played_seed(loaded.record.seed, "organiser-dice")
    for number, paired in enumerate(loaded.state.rounds, start=1):
        for table, opened_matches in enumerate(paired.matches):
            for opened_match in opened_matches:
                record = first.store.get_match(opened_match.match_id)
                assert record is not None and record.seed == match_seed(played, number, table)
    verdict = tournament_records.verify(exported(first, loaded))
    assert verdict.code == "verified", verdict


def test_a_result_a_crash_left_unrecorded_is_caught_up_by_the_sweep(processes: tuple[Process, Process],
                                                                      url: str) -> None:
    """Matches end in a process that never tells the tournament (it crashed right after): nothing advances until
    the sweep, which records both results and pairs the next round, once."""
    first, _ = processes
    tournament_id = round_robin(first, ("ann", "bob", "cy", "dee"))
    crashed = MatchService(open_store(url))  # no tournament service listens to it
    for match_id in pending(first, tournament_id):
        crashed.play(match_id, 1, Resign(), expected_version=None, command_id=None)
    crashed.store.close()
    assert counts(first, tournament_id).get("tournament.match-result", 0) == 0
    assert first.tournaments.sweep() == 1
    found = counts(first, tournament_id)
    assert found["tournament.match-result"] == 2 and found["tournament.round-paired"] == 2
    assert first.tournaments.sweep() == 0  # nothing left to do: nothing written twice
    assert counts(first, tournament_id) == found


def test_a_missed_move_deadline_forfeits_the_match(processes: tuple[Process, Process]) -> None:
    """With a move deadline, the deadline sweep times out seats that do not move; the forfeits are recorded as
    `deadline`, the rounds go on, and the tournament finishes."""
    first, _ = processes
    tournament_id = round_robin(first, ("ann", "bob", "cy"), move_deadline=30)
    later = utc_now() + timedelta(hours=1)
    for _ in range(6):
        if first.tournaments.load(tournament_id).state.finished:
            break
        later += timedelta(hours=1)
        sweep_deadlines(first.matches, now=lambda at=later: at)
    state = first.tournaments.load(tournament_id).state
    assert state.finished
    forfeits = [r.forfeit for rnd in state.rounds for table in rnd.results for r in table]
    assert "deadline" in forfeits


def test_only_the_owning_app_is_told_the_seat_tokens(processes: tuple[Process, Process]) -> None:
    """`tournament.match-ready` reaches the owning app's feed and webhooks with each person's seat token (a token
    that plays the seat), never another app's; a bot's seat has no token."""
    first, _ = processes
    hooks = Webhooks(first.store, allow_private=True)
    mine = hooks.create(APP, "http://127.0.0.1:9/hook", ["tournament.match-ready"])
    theirs = hooks.create("another-app", "http://127.0.0.1:9/hook", ["tournament.match-ready", "turn"])
    tournament_id = round_robin(first, ("ann", "bob", EntryOf(bot="random", name="r1")))
    follower = Follower(first.store)
    notes, _ = follower.read(0, owner=APP, limit=10_000)
    ready = [n for n in notes if n.kind == "tournament.match-ready"]
    assert len(ready) == 1 and ready[0].tournament is not None and ready[0].tournament.id == tournament_id
    assert follower.read(0, owner="another-app", limit=10_000)[0] == []
    assert all(n.tournament is None for n in follower.read(0, limit=10_000)[0])  # no owner: no tokens
    seats = ready[0].tournament.seats
    person = next(s for s in seats if s.token)
    assert all(s.token is None for s in seats if s.player.startswith("bot:"))
    played = first.matches.play(ready[0].match_id, person.seat, Resign(), expected_version=None, command_id=None)
    assert played.after.state.finished  # the token told is the seat's: the seat's move was accepted
    fold_all(first.store, Follower(first.store))
    stored = first.store.deliveries(APP, mine.id, 100) or []  # as the sender reads them (the API's reads prune them)
    bodies = [msgspec.json.decode(d.body) for d in stored]
    assert {b["kind"] for b in bodies} == {"tournament.match-ready"} and len(bodies) >= 2
    assert all(any(s.get("token") for s in b["tournament"]["seats"]) for b in bodies)
    assert hooks.deliveries("another-app", theirs.id, 100) == []


def test_a_tampered_stored_stream_is_refused(processes: tuple[Process, Process], url: str) -> None:
    """An operator's edit of a stored tournament event is noticed by every process that reads it (each event is
    hashed again when a process first reads it), and a tail cut also by a process that held the tournament: the
    stream is neither served nor extended (RecordCorrupt)."""
    first, _ = processes
    tournament_id = round_robin(first, ("ann", "bob", "cy"))
    store: Any = first.store
    paired = next(e for e in first.tournaments.load(tournament_id).stored if e.type == "tournament.round-paired")
    edited = {**paired.payload, "byes": []}  # the bye taken away: the event says something else now
    with store._transaction() as conn:
        conn.execute(store.dialect.sql("UPDATE tournament_events SET payload = ? WHERE tournament_id = ? AND "
                                       "version = ?"), (msgspec.json.encode(edited).decode(), tournament_id,
                                                        paired.version))
    fresh = Process(url)
    try:
        with pytest.raises(RecordCorrupt):
            fresh.tournaments.load(tournament_id)
    finally:
        fresh.close()
    other = round_robin(first, ("ann", "bob", "cy"))
    first.tournaments.load(other)  # held, as the process that just started it
    with store._transaction() as conn:
        conn.execute(store.dialect.sql("DELETE FROM tournament_events WHERE tournament_id = ? AND version = "
                                       "(SELECT max(version) FROM tournament_events WHERE tournament_id = ?)"),
                     (other, other))
    with pytest.raises(RecordCorrupt):
        first.tournaments.load(other)


def test_two_claims_of_one_open_place_at_once_seat_exactly_one(processes: tuple[Process, Process]) -> None:
    """Two processes take the same open place at the same moment (each holding its code): one is entered, the other
    refused `place-taken`, and the record has one join."""
    first, second = processes
    command = CreateTournament(game="expect-delays", format="swiss", rounds=2, entrants=("ann", None, "cy"), seats=2,
                               seed_commitment="")
    created = first.tournaments.create(APP, command)
    tournament_id, code = created.loaded.record.id, created.codes[1]
    barrier, outcomes = threading.Barrier(2), []

    def claim(process: Process, handle: str) -> None:
        barrier.wait(timeout=10)
        try:
            process.tournaments.join(tournament_id, code, handle)
            outcomes.append("joined")
        except Refusal as refusal:
            outcomes.append(refusal.code)

    threads = [threading.Thread(target=claim, args=(p, h)) for p, h in ((first, "bo"), (second, "di"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["joined", "place-taken"]
    assert counts(first, tournament_id).get("tournament.player-joined") == 1


def test_nothing_secret_is_in_what_anyone_may_read(processes: tuple[Process, Process]) -> None:
    """Before the end, neither the tournament's seed, nor its token secret, nor any seat token it told its app, nor a
    match's seed appears in the view or the record anyone may read; after the end the seed is there, tokens still
    not."""
    from litestar.testing import TestClient

    from api.app import create_app

    first, _ = processes
    tournament_id = round_robin(first, ("ann", "bob", "cy", "dee"))
    row = first.store.get_tournament(tournament_id)
    assert row is not None
    notes, _ = Follower(first.store).read(0, owner=APP, limit=10_000)
    tokens = [s.token for n in notes if n.tournament is not None for s in n.tournament.seats if s.token]
    match_seeds = [first.store.get_match(n.match_id).seed for n in notes  # type: ignore[union-attr]
                   if n.kind == "tournament.match-ready"]
    assert len(tokens) == 4 and len(match_seeds) == 2
    secrets = [row.seed, row.token_secret, *tokens, *match_seeds]
    with TestClient(create_app(first.store)) as client:
        bodies = [client.get(f"/v1/tournaments/{tournament_id}{path}").text for path in ("", "/record")]
        bodies.append(client.get("/v1/tournaments").text)
        assert not [s for s in secrets for body in bodies if s in body]
        for match_id in pending(first, tournament_id):
            first.matches.play(match_id, 0, Resign(), expected_version=None, command_id=None)
        while not first.tournaments.load(tournament_id).state.finished:
            for match_id in pending(first, tournament_id):
                first.matches.play(match_id, 0, Resign(), expected_version=None, command_id=None)
        finished = client.get(f"/v1/tournaments/{tournament_id}/record").text
        assert row.seed in finished and row.token_secret not in finished
        assert not [token for token in tokens if token in finished]
