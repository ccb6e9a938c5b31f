"""Helpers for audit tests: records of played matches, and the ways a forger might alter them."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from domain.catalog import by_slug
from domain.codec import event_from_builtins
from domain.engine import Game, setups
from domain.playout import Playout, play
from ledger.chain import (
    GENESIS,
    SCHEME_FULL,
    canonical,
    commitment,
    committed_event_hash,
    event_hash,
    event_salt,
)
from ledger.records import Record, RecordLine, playout_record
from ledger.sealing import public_form

replace = msgspec.structs.replace


def played(game: Game[Any], seed: str = "audit", max_moves: int = 20_000) -> Playout:
    """A seeded random match of `game` at its first sample set-up (played once per test session)."""
    return _played(game.slug, seed, max_moves)


@cache
def _played(slug: str, seed: str, max_moves: int) -> Playout:
    game = by_slug(slug)
    assert game is not None
    seats, options = setups(game)[0]
    return play(game, seats, options, seed, max_moves=max_moves)


def record_of(game: Game[Any], seed: str = "audit", max_moves: int = 20_000) -> Record:
    """The complete record of `played(game, seed)`."""
    return playout_record(played(game, seed, max_moves), match_id=f"audit-{game.slug}")


def with_lines(record: Record, lines: list[RecordLine]) -> Record:
    """The record with other event lines (header untouched)."""
    return replace(record, lines=tuple(lines))


def rechain(record: Record) -> Record:
    """What a forger who recomputes every hash would publish: an intact chain over altered events.

    For a format 2 record the forger also re-seals each event: a public form redacted from the (altered) event,
    and, where the seed is revealed, a commitment opened by it (without the seed the old commitments stay).
    """
    header = record.header
    game = by_slug(header.game)
    prev, lines = GENESIS, []
    for line in record.lines:
        if header.scheme == SCHEME_FULL:
            digest = event_hash(prev, header.match_id, line.version, line.type, line.event, line.seat,
                                line.command, line.recorded_at)
            lines.append(replace(line, prev_hash=prev, hash=digest))
        else:
            assert game is not None
            public = canonical(public_form(game, event_from_builtins(game, line.event)))
            key = header.server_seed if header.entropy == "seats" else header.seed  # what salts the commitments
            sealed = line.commitment if key is None else commitment(
                event_salt(key, line.version), canonical(line.event), canonical(line.command))
            assert sealed is not None
            digest = committed_event_hash(prev, header.match_id, line.version, line.type, public, line.seat,
                                          sealed, line.recorded_at)
            lines.append(replace(line, public=None if public == canonical(line.event) else public, commitment=sealed,
                                 prev_hash=prev, hash=digest))
        prev = digest
    return replace(record, header=replace(header, head_hash=prev), lines=tuple(lines))


def _string_list(value: Any, path: list[Any]) -> list[Any] | None:
    """The path of the first list of at least two distinct strings inside `value` (a shuffled order)."""
    if isinstance(value, list) and len(set(map(str, value))) > 1 and all(isinstance(v, str) for v in value):
        return path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _string_list(item, [*path, key])
        if found is not None:
            return found
    return None


def swapped_shuffle(record: Record) -> tuple[int, dict[str, Any]]:
    """(version, forged payload) of the first set-up event holding a random outcome, given another one.

    A shuffled order is rotated (the same cards in another order); a single drawn card (`card`) is
    replaced by another card the record shows elsewhere.
    """
    set_up = [line for line in record.lines[1:] if line.command is None]
    for line in set_up:
        path = _string_list(line.event, [])
        if path is not None:
            copy = msgspec.json.decode(msgspec.json.encode(line.event))
            target = copy
            for key in path[:-1]:
                target = target[key]
            items = target[path[-1]]
            target[path[-1]] = [*items[1:], items[0]]
            return line.version, copy
    for line in set_up:
        card = line.event.get("card")
        if isinstance(card, str):
            other = next(o.event["card"] for o in record.lines
                         if isinstance(o.event.get("card"), str) and o.event["card"] != card)
            return line.version, {**line.event, "card": other}
    raise AssertionError("no random outcome in the set-up events")
