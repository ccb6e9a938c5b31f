"""Issue 39, hole 1: a bot's seat let the server choose a fair deal. The verifier held *server-drawn* entropy to "a
bot seat's, recorded first", but nothing held a *bot seat's* entropy to being server-drawn: a server that kept its
bot silent at creation read the person's entropy (public once recorded), tried bot entropies until seat 0 was dealt
the hand it wanted, and recorded the winner as the bot seat's own `match.add-entropy` — and the record verified.

Now a bot seat's entropy is drawn by the server when the match is created (`match.open_match` opens no fair-deal
match with a bot left silent), the rules refuse `match.add-entropy` for a bot's seat (`bot-seat`), and the verifier
fails a record in which a bot seat's entropy is anything but server-drawn at creation: the `entropy` check, code
`bot-entropy`, whether the record is read by `ledger.verify`, `turnstile verify` or POST /v1/verifications. The
dishonest server here is the project's own service with two changes (a silent bot at creation, the rules' refusal
skipped for the bot's command), over both stores."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from cli import main
from domain import bots, match
from domain.catalog import game_of
from domain.engine import Event, Game, Refusal
from domain.lifecycle import AddEntropy, Deal, EntropyAdded, Resign
from domain.rng import Rng, deal_seed, seed_commitment
from ledger.events import NewEvent, NewMatch
from ledger.records import Record, encode_record
from ledger.sealing import sealed
from ledger.verify import Verdict, verify_record, verify_text
from service.matches.matches import MatchService
from service.matches.model import LoadedMatch, new_seats
from service.matches.seating import rematch
from service.matches.tokens import new_seed
from service.reads.audit import Audit
from store.base import EventStore
from tests.audit.records import rechain

SEATS = {"entropy": "seats"}
PLAYERS = ("ada", "bot:random")  # seat 0 a person, seat 1 the server's bot
CHOSEN = ["T01", "T02", "T03"]  # the opening hand the dishonest server gives seat 0
BUDGET = 20_000  # bot entropies the server may try (about 200 suffice on average, in a few milliseconds)
ADA = "ada's dice: 3 5 6"


def expect_delays() -> Game[Any]:
    return game_of("expect-delays", None)


def hand_of_seat_0(setup: list[Event]) -> list[str]:
    """Seat 0's opening hand, from the set-up events of a deal."""
    dealt = msgspec.to_builtins(setup)
    return sorted(next(e for e in dealt if e["type"] == "expect-delays.cards-drawn" and e["seat"] == 0)["cards"])


class GrindingServer(MatchService):
    """The dishonest server of issue 39: the project's match service, but it opens a fair-deal match with its bot
    silent (no entropy drawn at creation), and records the bot's entropy, chosen later, as the bot seat's own
    `match.add-entropy` (the rules' `bot-seat` refusal skipped); everything else is the honest code."""

    def open_silent(self) -> str:
        """`match.started` publishing the commitment, and nothing else: the bot's entropy is not drawn."""
        game, part = expect_delays(), new_seed()
        _, recorded = match.recorded_options(game, SEATS)
        started = match.started_event(game, PLAYERS, recorded, seed_commitment(part), seed_source="server+seats",
                                      client_entropy=None, visibility="public",
                                      server_seed_commitment=seed_commitment(part))
        seats, _, _ = new_seats(PLAYERS)
        new = NewMatch(id=str(uuid.uuid4()), game=game.slug, rules_version=game.rules_version, seats=seats,
                       options=recorded, seed=part, seed_commitment=seed_commitment(part),
                       seed_source="server+seats", server_seed=part)
        self.store.create_match(new, sealed(game, part, new.scheme, 1, [started], None), due_in_s=300.0)
        return new.id

    def grind(self, match_id: str, seat: int) -> str:
        """Having read the person's entropy, try bot entropies until the deal gives seat 0 the CHOSEN hand."""
        loaded = self.load(match_id)
        part = loaded.record.server_seed
        assert part is not None and loaded.state.seat_entropy[0] == ADA  # the person's entropy, public now
        for n in range(BUDGET):
            entropy = f"{n:064x}"
            state = match.fold(loaded.game, [EntropyAdded(seat=seat, entropy=entropy)], loaded.state)
            dealt = match.decide(loaded.game, state, None, Deal(),
                                 Rng.derive(deal_seed(part, state.seat_entropy), state.version))
            if hand_of_seat_0(dealt[1:]) == CHOSEN:
                return entropy
        raise AssertionError("no bot entropy in the budget deals the chosen hand")

    def _decided(self, loaded: LoadedMatch, seat: int | None, command: Any,
                 asked: dict[str, Any]) -> tuple[list[NewEvent], match.MatchState]:
        if isinstance(command, AddEntropy) and seat is not None and bots.bot_name(loaded.state.players[seat]):
            events: list[Event] = [EntropyAdded(seat=seat, entropy=command.entropy)]
            new = sealed(loaded.game, loaded.record.seed, loaded.record.scheme, loaded.state.version + 1, events,
                         asked)
            return new, match.fold(loaded.game, events, loaded.state)
        return super()._decided(loaded, seat, command, asked)


def silent_match(store: EventStore) -> tuple[GrindingServer, str, str]:
    """The dishonest server's match, dealing: the bot silent at creation, the person's entropy added, and the bot
    entropy ground for the CHOSEN hand (not recorded yet)."""
    server = GrindingServer(store)
    match_id = server.open_silent()
    server.play(match_id, 0, AddEntropy(entropy=ADA), expected_version=None, command_id=None)
    return server, match_id, server.grind(match_id, 1)


@pytest.fixture
def ground(store: EventStore) -> tuple[Record, str]:
    """The dishonest record, played to its end on the store: the bot silent at creation, the person's entropy, the
    bot's ground entropy as its own command, the deal (seat 0 holds CHOSEN), then the person resigns. Also the
    ground entropy."""
    server, match_id, entropy = silent_match(store)
    dealt = server.play(match_id, 1, AddEntropy(entropy=entropy), expected_version=None, command_id=None)
    assert not dealt.after.state.dealing  # the bot's "own" command dealt at once
    server.play(match_id, 0, Resign(), expected_version=None, command_id=None)
    return Audit(store).export(match_id, None), entropy


def test_the_honest_service_refuses_a_bot_seats_entropy_command(store: EventStore) -> None:
    """(1) On the dishonest server's dealing match, the honest service refuses the bot's ground entropy as a command
    (`bot-seat`, nothing written); nor does the honest opening leave a bot silent."""
    _, match_id, entropy = silent_match(store)
    honest = MatchService(store)
    with pytest.raises(Refusal) as refused:
        honest.play(match_id, 1, AddEntropy(entropy=entropy), expected_version=None, command_id=None)
    assert refused.value.code == "bot-seat"
    assert honest.load(match_id).state.version == 2 and honest.load(match_id).state.dealing  # nothing written
    part = new_seed()
    with pytest.raises(ValueError):
        match.open_match(expect_delays(), PLAYERS, SEATS, part, seed_source="server+seats",
                         server_seed_commitment=seed_commitment(part), server_entropy={})


def assert_caught(verdict: Verdict, version: int) -> None:
    """The verdict fails the record at `version` by the entropy check's `bot-entropy` (not merely by another)."""
    failed = [(c.name, c.code, c.version) for c in verdict.checks if c.status == "failed"]
    assert ("entropy", "bot-entropy", version) in failed, verdict.message
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "bot-entropy", version), verdict.message


def test_the_ground_record_deals_the_chosen_hand_and_fails_verification(ground: tuple[Record, str]) -> None:
    """(2) The record is the attack's: the bot's entropy came by a command after the person's, and seat 0 holds the
    chosen hand. `ledger.verify` fails it at the bot's entropy (version 3): `entropy` check, code `bot-entropy`."""
    record, entropy = ground
    lines = record.lines
    assert [(line.type, line.seat, line.event.get("source")) for line in lines[:4]] == [
        ("match.started", None, None), ("match.entropy-added", 0, None), ("match.entropy-added", 1, None),
        ("match.entropy-closed", None, None)]
    assert lines[2].command == {"type": "match.add-entropy", "entropy": entropy}
    assert record.header.seed == deal_seed(str(record.header.server_seed), [ADA, entropy])
    setup = [line.event for line in lines[4:] if line.command == {"type": "match.deal"}]
    assert sorted(next(e for e in setup if e["type"] == "expect-delays.cards-drawn" and e["seat"] == 0)["cards"]) \
        == CHOSEN
    verdict = verify_record(record)
    assert_caught(verdict, 3)
    assert {"chain", "seed", "commitments"} <= set(verdict.passed)  # intact, sealed and seeded as published
    assert verify_text(encode_record(record)).code == "bot-entropy"


def test_turnstile_verify_fails_the_ground_record(ground: tuple[Record, str], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ground.ndjson"
    path.write_bytes(encode_record(ground[0]))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "bot-entropy" in out
    assert main(["verify", "--json", str(path)]) == 1
    verdict = msgspec.json.decode(capsys.readouterr().out)
    assert (verdict["ok"], verdict["code"], verdict["failed_version"]) == (False, "bot-entropy", 3)


def test_post_verifications_fails_the_ground_record(ground: tuple[Record, str], client: TestClient) -> None:
    answer = client.post("/v1/verifications", json={"record": encode_record(ground[0]).decode()})
    assert answer.status_code == 200, answer.text
    verdict = answer.json()
    assert (verdict["ok"], verdict["code"], verdict["failed_version"]) == (False, "bot-entropy", 3)
    assert {"name": "entropy", "code": "bot-entropy"}.items() <= next(
        c for c in verdict["checks"] if c["name"] == "entropy").items()


def test_a_bot_seat_silent_to_the_end_fails_too(ground: tuple[Record, str]) -> None:
    """The server's other way: the bot left absent (its entropy never drawn) and the record re-chained. The verifier
    names the bot's missing draw at version 1, whatever else it finds."""
    record = ground[0]
    lines = [line for line in record.lines if line.version != 3]
    closed = next(i for i, line in enumerate(lines) if line.type == "match.entropy-closed")
    lines[closed] = msgspec.structs.replace(lines[closed], event={"type": "match.entropy-closed", "absent": [1]})
    forged = msgspec.structs.replace(record, lines=tuple(
        msgspec.structs.replace(line, version=i + 1) for i, line in enumerate(lines)))
    forged = msgspec.structs.replace(forged, header=msgspec.structs.replace(
        forged.header, version=len(lines), seed=deal_seed(str(record.header.server_seed), [ADA, None])))
    verdict = verify_record(rechain(forged))
    assert any((c.name, c.code, c.version) == ("entropy", "bot-entropy", 1) for c in verdict.checks), verdict.message
    assert not verdict.ok


def test_a_bot_entropy_recorded_as_the_servers_but_after_the_persons_fails_too(ground: tuple[Record, str]) -> None:
    """The same grinding, the bot's entropy relabelled `source: server` with no command, but still after the
    person's (re-chained): `bot-entropy` at that event."""
    record = ground[0]
    lines = list(record.lines)
    lines[2] = msgspec.structs.replace(lines[2], command=None, seat=None,
                                       event={**lines[2].event, "source": "server"})
    verdict = verify_record(rechain(msgspec.structs.replace(record, lines=tuple(lines))))
    assert any((c.name, c.code, c.version) == ("entropy", "bot-entropy", 3) for c in verdict.checks), verdict.message
    assert not verdict.ok


def test_every_honest_path_draws_each_bots_entropy_at_creation(store: EventStore) -> None:
    """The honest service: a person and a bot, the bot's entropy drawn in the creating append (`source: server`, no
    command, right after `match.started`); its command refused (`bot-seat`); the person's deals; the record, and
    its rematch's (the seats rotated: the bot now seat 0), verify."""
    service = MatchService(store)
    created = service.create("expect-delays", list(PLAYERS), SEATS, owner="tests")
    match_id = created.record.id
    first = store.read_match(match_id)
    assert [(e.type, e.payload.get("seat"), e.payload.get("source"), e.command) for e in first] == [
        ("match.started", None, None, None), ("match.entropy-added", 1, "server", None)]
    assert first[0].recorded_at == first[1].recorded_at
    with pytest.raises(Refusal) as refused:
        service.play(match_id, 1, AddEntropy(entropy="mine"), expected_version=None, command_id=None)
    assert refused.value.code == "bot-seat"
    service.play(match_id, 0, AddEntropy(entropy=ADA), expected_version=None, command_id=None)
    service.play(match_id, 0, Resign(), expected_version=None, command_id=None)
    verdict = verify_record(Audit(store).export(match_id, None))
    assert verdict.code == "verified" and "entropy" in verdict.passed, verdict.message
    again = rematch(service, match_id, "tests")
    events = store.read_match(again.record.id)
    assert [(e.type, e.payload.get("seat"), e.payload.get("source")) for e in events] == [
        ("match.started", None, None), ("match.entropy-added", 0, "server")]
    assert verify_text(encode_record(Audit(store).export(again.record.id, None))).code == "verified-so-far"
