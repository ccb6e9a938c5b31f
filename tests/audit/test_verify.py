"""The verifier accepts honest records of every game and names the first event of every kind of forgery."""

from __future__ import annotations

import gc
import random
from typing import Any

import msgspec
import pytest

from domain.catalog import GAMES
from domain.engine import Game
from domain.rng import seed_commitment
from ledger.records import FORMAT, encode_record, parse_record
from ledger.rules_checks import SealedRng, SeedNeeded
from ledger.verify import verify_record, verify_text
from tests.audit.records import played, rechain, record_of, replace, swapped_shuffle, with_lines

GAME_IDS = [g.slug for g in GAMES]
EVERY_GAME = pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
ALL_CHECKS = ["format", "chain", "seed", "rules", "commitments", "fold", "redecide", "outcome"]


@EVERY_GAME
def test_an_honest_record_verifies(game: Game[Any]) -> None:
    """A record exactly as the store keeps it passes every check, also after an NDJSON round trip."""
    record = record_of(game)
    assert parse_record(encode_record(record)) == record
    verdict = verify_text(encode_record(record))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (True, "verified", None), verdict.message
    assert verdict.passed == ALL_CHECKS
    assert verdict.finished and verdict.version == len(record.lines) and verdict.game == game.slug


def test_encoding_a_record_keeps_nothing_alive() -> None:
    """Encoding a record leaves no object behind (msgspec 0.22 keeps the iterator of a tuple it encodes as lines)."""
    record = record_of(GAMES[0])
    encode_record(record)
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(200):
        encode_record(record)
    gc.collect()
    assert len(gc.get_objects()) - before < 50


@EVERY_GAME
def test_flipping_any_byte_of_an_event_line_fails_at_that_event(game: Game[Any]) -> None:
    """One changed byte anywhere in an event's line, whatever it turns into, is caught at that event."""
    text = encode_record(record_of(game))
    rows = text.splitlines(keepends=True)
    rng = random.Random(game.slug)
    for _ in range(25):
        row = rng.randrange(1, len(rows))
        at = rng.randrange(len(rows[row]) - 1)  # not the newline
        flipped = bytearray(rows[row])
        flipped[at] ^= 1 << rng.randrange(7)
        verdict = verify_text(b"".join([*rows[:row], bytes(flipped), *rows[row + 1:]]))
        assert not verdict.ok, f"flipping byte {at} of event {row} went unnoticed"
        assert verdict.failed_version == row, (bytes(flipped), verdict.message)


@EVERY_GAME
def test_changing_an_event_breaks_the_chain_there(game: Game[Any]) -> None:
    """An altered payload no longer hashes to its recorded hash."""
    record = record_of(game)
    version = len(record.lines) // 2
    lines = list(record.lines)
    lines[version - 1] = replace(lines[version - 1], event={**lines[version - 1].event, "extra": 1})
    verdict = verify_record(with_lines(record, lines))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "chain-broken", version)


@EVERY_GAME
def test_dropping_an_event_is_caught_where_it_was(game: Game[Any]) -> None:
    """A missing event, in the middle or at the end, is named by its version; one cut off the end is `truncated`."""
    record = record_of(game)
    last = len(record.lines)
    for version in (2, last // 2, last):
        lines = [line for line in record.lines if line.version != version]
        verdict = verify_record(with_lines(record, lines))
        code = "truncated" if version == last else "chain-broken"
        assert (verdict.ok, verdict.code, verdict.failed_version) == (False, code, version)


@EVERY_GAME
def test_reordering_two_events_is_caught_at_the_first(game: Game[Any]) -> None:
    """Two swapped events, with or without their versions renumbered, break the chain at the first of them."""
    record = record_of(game)
    i = len(record.lines) // 2
    lines = list(record.lines)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    verdict = verify_record(with_lines(record, lines))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "chain-broken", i + 1)
    renumbered = [*lines[:i], replace(lines[i], version=i + 1), replace(lines[i + 1], version=i + 2), *lines[i + 2:]]
    verdict = verify_record(with_lines(record, renumbered))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "chain-broken", i + 1)


@EVERY_GAME
def test_a_seed_that_is_not_the_committed_one_is_refused(game: Game[Any]) -> None:
    """The revealed seed must hash to the commitment published at creation (held by match.started)."""
    record = record_of(game)
    forged = replace(record, header=replace(record.header, seed=record.header.seed + "x"))
    verdict = verify_record(forged)
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "seed-mismatch", 1)
    assert "chain" in verdict.passed


@EVERY_GAME
def test_a_new_seed_with_a_new_commitment_still_fails_at_the_first_shuffle(game: Game[Any]) -> None:
    """Rewriting the commitment too (and every hash) makes the seed check pass, but not the re-dealing."""
    record = record_of(game)
    seed = "another seed"
    started = replace(record.lines[0], event={**record.lines[0].event, "seed_commitment": seed_commitment(seed)})
    header = replace(record.header, seed=seed, seed_commitment=seed_commitment(seed))
    verdict = verify_record(rechain(replace(record, header=header, lines=(started, *record.lines[1:]))))
    assert (verdict.ok, verdict.code) == (False, "decision-mismatch")
    assert verdict.failed_version is not None and verdict.failed_version > 1
    assert {"chain", "seed", "fold"} <= set(verdict.passed)


@EVERY_GAME
def test_swapping_a_shuffle_for_another_is_caught_at_that_event(game: Game[Any]) -> None:
    """Another order of the same cards folds fine and chains fine (rehashed), but is not what the seed deals."""
    record = record_of(game)
    version, forged = swapped_shuffle(record)
    lines = list(record.lines)
    lines[version - 1] = replace(lines[version - 1], event=forged)
    verdict = verify_record(with_lines(record, lines))
    # A hidden shuffle is outside what the chain hashes (its public form hides the order): its commitment catches it.
    code = "commitment-mismatch" if lines[version - 1].public is not None else "chain-broken"
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, code, version)
    verdict = verify_record(rechain(with_lines(record, lines)))
    assert not verdict.ok and verdict.failed_version == version, verdict.message
    assert verdict.code == "decision-mismatch"
    assert "chain" in verdict.passed


@EVERY_GAME
def test_a_forged_move_is_caught_at_that_event(game: Game[Any]) -> None:
    """A seat's command replaced by another of its legal commands (events kept, chain rehashed) is caught."""
    record = record_of(game)
    moves = [line for line in record.lines if line.command is not None]
    line = moves[len(moves) // 2]
    forged = replace(line, command={"type": "match.resign"})
    lines = [forged if other.version == line.version else other for other in record.lines]
    verdict = verify_record(rechain(with_lines(record, lines)))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "decision-mismatch", line.version)


@EVERY_GAME
def test_a_forged_result_is_caught(game: Game[Any]) -> None:
    """A rewritten match.ended (rehashed) is neither what the last move decides nor the rules' outcome."""
    record = record_of(game)
    ended = record.lines[-1]
    results = [{**r, "score": r["score"] + 1} for r in ended.event["results"]]
    lines = [*record.lines[:-1], replace(ended, event={**ended.event, "results": results})]
    verdict = verify_record(rechain(with_lines(record, lines)))
    assert (verdict.ok, verdict.failed_version) == (False, ended.version)
    assert verdict.code == "decision-mismatch"
    unrevealed = rechain(replace(with_lines(record, lines), header=replace(record.header, seed=None)))
    checks = {c.name: c for c in verify_record(unrevealed).checks}
    assert checks["outcome"].status == "failed" and checks["outcome"].version == ended.version


@EVERY_GAME
@pytest.mark.parametrize("edition", ["99", "0-old"])
def test_a_record_of_an_edition_this_release_lacks_is_unknown_not_tampered(game: Game[Any], edition: str) -> None:
    """Recorded under an edition this release does not have (a newer release's): `unknown-edition`, saying so, with
    chain and seed still checked. Every edition ever released is runnable, so no known one gets this verdict."""
    record = record_of(game)
    started = replace(record.lines[0], event={**record.lines[0].event, "rules_version": edition})
    old = rechain(replace(record, header=replace(record.header, rules_version=edition),
                          lines=(started, *record.lines[1:])))
    verdict = verify_record(old)
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "unknown-edition", 1)
    assert ("newer than this release" in verdict.message) == (edition == "99"), verdict.message
    assert verdict.passed == ["format", "chain", "seed"]
    tampered = replace(old, header=replace(old.header, seed="not it"))
    assert verify_record(tampered).code == "seed-mismatch"


@EVERY_GAME
def test_an_unfinished_match_verifies_as_far_as_it_can_without_the_seed(game: Game[Any]) -> None:
    """Chain, fold, outcome and every decision that draws nothing pass; the seed and commitments are "not-revealed",
    and the verdict says the record is verified so far."""
    record = record_of(game, seed="unfinished", max_moves=12)
    assert record.header.status == "active" and record.header.seed is None
    verdict = verify_record(record)
    assert (verdict.ok, verdict.code) == (True, "verified-so-far"), verdict.message
    checks = {c.name: c.status for c in verdict.checks}
    assert checks == {"format": "passed", "chain": "passed", "seed": "not-revealed", "rules": "passed",
                      "commitments": "not-revealed", "fold": "passed", "redecide": checks["redecide"],
                      "outcome": "passed"}
    assert checks["redecide"] in ("passed", "partial")
    moves = [line for line in record.lines if line.command is not None]
    forged = replace(moves[-1], command={"type": "match.resign"})
    lines = [forged if line.version == forged.version else line for line in record.lines]
    verdict = verify_record(rechain(with_lines(record, lines)))
    assert verdict.failed_version in (forged.version, None)  # caught, unless that decision drew randomness


def test_a_game_that_is_not_registered_is_named() -> None:
    """A record of a game this server does not referee cannot be checked beyond its chain."""
    record = record_of(GAMES[0])
    verdict = verify_record(replace(record, header=replace(record.header, game="no-such-game")))
    assert not verdict.ok and verdict.code in ("malformed-record", "unknown-game")


@pytest.mark.parametrize("text", [b"", b"not json\n", b'{"record": "something-else/9"}\n', b"[]\n"])
def test_what_is_not_a_record_is_called_malformed(text: bytes) -> None:
    """Garbage gets a verdict too, never an exception."""
    verdict = verify_text(text)
    assert (verdict.ok, verdict.code) == (False, "malformed-record")
    assert verdict.checks[0].name == "format"


def test_a_header_that_disagrees_with_match_started_is_malformed() -> None:
    """The header is not hashed: it must repeat what match.started (hashed) says."""
    record = record_of(GAMES[0])
    verdict = verify_record(replace(record, header=replace(record.header, players=("mallory",) * 2)))
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "malformed-record", 1)


def test_a_finished_record_may_not_hide_anything() -> None:
    """After the end the record is public: a "redacted" line in it is a forgery, not a partial record."""
    record = record_of(GAMES[0])
    lines = list(record.lines)
    lines[3] = replace(lines[3], redacted=True, hash=None)
    verdict = verify_record(with_lines(record, lines))
    assert (verdict.ok, verdict.failed_version) == (False, 4)


def test_the_record_format_is_versioned() -> None:
    """The header names the format; an unknown one is refused rather than misread."""
    record = record_of(GAMES[0])
    assert msgspec.json.decode(encode_record(record).splitlines()[0])["record"] == FORMAT
    assert played(GAMES[0]).state is not None


def test_the_sealed_rng_refuses_every_draw_but_a_certain_one() -> None:
    """Without the seed a decision may run only if it draws nothing (choosing among one is no draw)."""
    assert SealedRng().below(1) == 0 and SealedRng().shuffled(["only"]) == ("only",)
    for draw in (lambda r: r.below(2), lambda r: r.shuffled([1, 2]), lambda r: r.choice("ab")):
        with pytest.raises(SeedNeeded):
            draw(SealedRng())
