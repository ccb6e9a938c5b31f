"""Issue 27's attack, replayed: with `client_entropy` a dishonest server that had seen the players' text tried server
parts until seat 0 held a chosen opening hand, and the record still verified. With option `entropy: "seats"` the
server commits to its part before any entropy exists, so for one commitment the deal follows the seats' entropy;
a server part changed after the entropy fails verification (`seed-mismatch`), and an entropy event recorded before
the commitment fails it too (`entropy-order`)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain import match
from domain.catalog import by_slug
from domain.engine import Event, Game
from domain.lifecycle import AddEntropy, Deal, MatchStarted, Resign
from domain.rng import Rng, deal_seed, mixed_seed, seed_commitment
from ledger.records import Record, encode_record
from ledger.verify import verify_record, verify_text
from service.matches.matches import MatchService
from service.reads.audit import Audit
from store.factory import open_store
from tests.audit.records import rechain

replace = msgspec.structs.replace
SERVER_PART = "5" * 64  # one committed server part, fixed for the whole test
CHOSEN = ["T01", "T02", "T03"]  # the opening hand the attacker of issue 27 gave seat 0


def expect_delays() -> Game[Any]:
    game = by_slug("expect-delays")
    assert game is not None
    return game


def hand_of_seat_0(setup: list[Event]) -> list[str]:
    """Seat 0's opening hand, from the set-up events as recorded."""
    dealt = msgspec.to_builtins(setup)
    return sorted(next(e for e in dealt if e["type"] == "expect-delays.cards-drawn" and e["seat"] == 0)["cards"])


def seats_deal(game: Game[Any], server_part: str, entropy: tuple[str, str]) -> list[Event]:
    """The set-up of an `entropy: "seats"` match: the server commits to `server_part`, the seats add `entropy`, and
    the service deals with `Rng.derive(deal_seed(server_part, entropy), version)`."""
    events = match.open_match(game, ["ada", "bob"], {"entropy": "seats"}, server_part, seed_source="server+seats",
                              server_seed_commitment=seed_commitment(server_part))
    assert isinstance(events[0], MatchStarted) and events[0].server_seed_commitment == seed_commitment(server_part)
    assert len(events) == 1  # nothing dealt before the seats' entropy
    state = match.fold(game, events)
    for seat, text in enumerate(entropy):
        state = match.fold(game, match.decide(game, state, seat, AddEntropy(entropy=text), Rng(b"")), state)
    dealt = match.decide(game, state, None, Deal(), Rng.derive(deal_seed(server_part, entropy), state.version))
    return dealt[1:]


def test_the_old_attack_chooses_the_hand_when_the_server_sees_client_entropy_first() -> None:
    """What issue 27 found, as it still is for `client_entropy` (documented so): knowing the players' text before
    drawing its part, the server tries parts until seat 0 holds T01, T02, T03 — and the seed it then commits to
    verifies."""
    game = expect_delays()
    tried = next(n for n in range(20_000) if hand_of_seat_0(
        match.open_match(game, ["ada", "bob"], None, mixed_seed(f"{n:064x}", "our dice: 3 5 6"))[1:]) == CHOSEN)
    assert tried < 20_000


def test_for_one_commitment_the_deal_follows_the_entropy_sent_after_it() -> None:
    """With `entropy: "seats"` the server's part is fixed (committed) before the seats speak: two different entropy
    sets after that one commitment deal differently, and the last seat's words alone move the deal (30 of them give
    at least 25 different opening hands), so the server, bound to its part, no longer chooses the deal."""
    game = expect_delays()
    first = seats_deal(game, SERVER_PART, ("ada's dice: 3 5 6", "bob's words"))
    second = seats_deal(game, SERVER_PART, ("ada's dice: 3 5 6", "bob's other words"))
    assert msgspec.to_builtins(first) != msgspec.to_builtins(second)
    assert seats_deal(game, SERVER_PART, ("ada's dice: 3 5 6", "bob's words")) == first  # the same inputs: one deal
    hands = {tuple(hand_of_seat_0(seats_deal(game, SERVER_PART, ("ada", f"bob {n}")))) for n in range(30)}
    assert len(hands) >= 25


def test_the_seed_layout_is_the_documented_bytes() -> None:
    """`deal_seed` is SHA-256 of "turnstile-deal/1" NUL, then 4-byte big-endian lengths (of UTF-8 bytes) before the
    server part, the seat count and each seat's entropy (absent: length 0), as the README lays it out."""
    def u32(n: int) -> bytes:
        return n.to_bytes(4, "big")

    laid_out = (b"turnstile-deal/1\x00" + u32(64) + SERVER_PART.encode() + u32(3) + u32(2) + b"ab" + u32(0)
                + u32(5) + "é€".encode())
    assert deal_seed(SERVER_PART, ["ab", None, "é€"]) == hashlib.sha256(laid_out).hexdigest()
    assert deal_seed(SERVER_PART, ["a", "b"]) != deal_seed(SERVER_PART, ["ab", None])  # lengths keep seats apart


@pytest.fixture
def honest(tmp_path: Path) -> Record:
    """The complete record of an `entropy: "seats"` match played through the service: both seats add entropy, the
    deal follows, a seat resigns."""
    store = open_store(f"sqlite:///{tmp_path / 'deals.db'}")
    service = MatchService(store)
    created = service.create("expect-delays", ["ada", "bob"], {"entropy": "seats"})
    match_id = created.record.id
    for seat, text in enumerate(("ada's dice: 3 5 6", "bob's words")):
        service.play(match_id, seat, AddEntropy(entropy=text), expected_version=None, command_id=None)
    service.play(match_id, 0, Resign(), expected_version=None, command_id=None)
    record = Audit(store).export(match_id, None)
    store.close()
    return record


def test_the_honest_record_verifies_and_reveals_what_recomputes_the_seed(honest: Record) -> None:
    header = honest.header
    assert header.entropy == "seats" and header.server_seed is not None
    assert seed_commitment(header.server_seed) == header.server_seed_commitment == header.seed_commitment
    assert header.seed == deal_seed(header.server_seed, ["ada's dice: 3 5 6", "bob's words"])
    verdict = verify_text(encode_record(honest))
    assert verdict.code == "verified", verdict.message
    assert {"seed", "entropy", "commitments", "redecide"} <= set(verdict.passed)


def test_a_server_part_changed_after_the_entropy_fails_with_seed_mismatch(honest: Record) -> None:
    """The dishonest server, having seen both seats' entropy, grinds a new part until seat 0 holds the chosen hand,
    re-deals from it and re-seals and re-chains the whole record: its part no longer opens the commitment it
    published first, so the record fails at version 1 with `seed-mismatch`."""
    game = expect_delays()
    entropy = ("ada's dice: 3 5 6", "bob's words")
    ground = next(f"{n:064x}" for n in range(20_000)
                  if hand_of_seat_0(seats_deal(game, f"{n:064x}", entropy)) == CHOSEN)
    setup = msgspec.to_builtins(seats_deal(game, ground, entropy))
    lines = list(honest.lines)
    closed = next(i for i, line in enumerate(lines) if line.type == "match.entropy-closed")
    for offset, event in enumerate(setup, start=closed + 1):
        lines[offset] = replace(lines[offset], event=event)
    assert hand_of_seat_0(setup) == CHOSEN
    forged = replace(honest, header=replace(honest.header, server_seed=ground,
                                            seed=deal_seed(ground, list(entropy))), lines=tuple(lines))
    verdict = verify_record(rechain(forged))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "seed-mismatch", 1), verdict.message


def test_an_entropy_event_recorded_before_the_commitment_fails_with_entropy_order(honest: Record) -> None:
    """A forger moves a seat's entropy in front of the event that publishes the server's commitment (re-chained):
    `entropy-order` at version 1. Entropy recorded after the deal fails the same way."""
    lines = list(honest.lines)
    first_entropy = next(i for i, line in enumerate(lines) if line.type == "match.entropy-added")
    moved = [lines[first_entropy], *lines[:first_entropy], *lines[first_entropy + 1:]]
    forged = replace(honest, lines=tuple(replace(line, version=i + 1) for i, line in enumerate(moved)))
    verdict = verify_record(rechain(forged))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "entropy-order", 1), verdict.message
    closed = next(i for i, line in enumerate(lines) if line.type == "match.entropy-closed")
    late = [*lines[:first_entropy], *lines[first_entropy + 1:closed + 1], lines[first_entropy], *lines[closed + 1:]]
    forged = replace(honest, lines=tuple(replace(line, version=i + 1) for i, line in enumerate(late)))
    verdict = verify_record(rechain(forged))
    assert (verdict.ok, verdict.code) == (False, "entropy-order"), verdict.message
