"""The match record: one self-contained NDJSON file, a header line then one line per event.

Header: `{"record": "turnstile.match-record/1", "match_id", "game", "rules_version", "players", "options",
"seed_commitment", "status", "version", "head_hash", "created_at"[, "seed"]}`.
Event line: `{"version", "event", "command", "seat", "recorded_at", "hash", "prev_hash"[, "redacted": true]}`;
`event` is the payload (with its `type`) and `command` the command that produced it, so the hash of each
line can be recomputed with `store.chain.event_hash` from the line and the header's match id.

After the end the record is complete: every event as recorded and the seed. Before it a record is for one
caller: events redacted for that seat (or a spectator), other seats' commands withheld, and no seed. A line
whose content was withheld says `"redacted": true` and carries no hash (nor does the next line carry its
`prev_hash`): a hash over hidden cards can be brute-forced back to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.codec import event_from_builtins, to_builtins
from domain.engine import Game
from domain.lifecycle import LIFECYCLE_EVENTS, MatchStarted
from domain.playout import Playout
from service.matches import new_event
from store.base import MatchRecord, SeatRecord, StoredEvent, build_events, check_events
from store.chain import GENESIS, canonical

FORMAT = "turnstile.match-record/1"
MEDIA_TYPE = "application/x-ndjson"
# Records built outside a store (the corpus, tests) carry this fixed time, so they are byte-for-byte reproducible.
FIXED_TIME = "2026-01-01T00:00:00.000000Z"


class RecordHeader(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The first line: which match, game, rules, seats and options; the head it ends at; the seed after the end."""

    record: str
    match_id: str
    game: str
    rules_version: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed_commitment: str
    status: str
    version: int
    head_hash: str | None
    created_at: str
    seed: str | None = None


class RecordLine(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """One event of the match, with the command and seat behind it and its place in the hash chain."""

    version: int
    event: dict[str, Any]
    command: dict[str, Any] | None
    seat: int | None
    recorded_at: str
    hash: str | None
    prev_hash: str | None
    redacted: bool = False

    @property
    def type(self) -> str:
        """The event's tag."""
        return str(self.event.get("type", ""))


class Record(msgspec.Struct, frozen=True):
    """A parsed record."""

    header: RecordHeader
    lines: tuple[RecordLine, ...]

    @property
    def redacted(self) -> bool:
        """True when some line withholds what was recorded (a record exported before the end)."""
        return any(line.redacted for line in self.lines)


class RecordError(ValueError):
    """The text is not a match record; `version` names the offending event line when there is one."""

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.version = version


_header_decoder = msgspec.json.Decoder(RecordHeader)
_line_decoder = msgspec.json.Decoder(RecordLine)
_encoder = msgspec.json.Encoder(order="deterministic")


def parse_record(text: str | bytes) -> Record:
    """A record from its NDJSON text, or RecordError saying which line is wrong."""
    raw = text.encode() if isinstance(text, str) else text
    rows = [row for row in raw.splitlines() if row.strip()]
    if not rows:
        raise RecordError("the record is empty")
    try:
        header = _header_decoder.decode(rows[0])
    except msgspec.DecodeError as exc:
        raise RecordError(f"line 1 is not a record header: {exc}") from None
    if header.record != FORMAT:
        raise RecordError(f"unknown record format {header.record!r} (this verifier reads {FORMAT!r})")
    lines = []
    for number, row in enumerate(rows[1:], start=2):
        try:
            line = _line_decoder.decode(row)
        except msgspec.DecodeError as exc:
            raise RecordError(f"line {number} is not an event line: {exc}", _version_hint(row, number - 1)) from None
        if not line.type:
            raise RecordError(f"line {number}: the event has no type", line.version)
        lines.append(line)
    return Record(header=header, lines=tuple(lines))


def _version_hint(row: bytes, position: int) -> int:
    """The `version` of a line that failed to decode as a whole: its own if readable, else its position."""
    try:
        value = msgspec.json.decode(row)
    except msgspec.DecodeError:
        return position
    version = value.get("version") if isinstance(value, dict) else None
    return version if isinstance(version, int) else position


def encode_record(record: Record) -> bytes:
    """The record as NDJSON: one JSON object per line, dict keys sorted (the same bytes from either store)."""
    return b"".join(_encoder.encode(item) + b"\n" for item in (record.header, *record.lines))


def build_record(
    game: Game[Any] | None, match: MatchRecord, stored: Sequence[StoredEvent], *, seat: int | None, full: bool = False
) -> Record:
    """The record of `match` from its events; complete once finished (or when `full`), else for `seat`.

    Only a record for one seat needs the game (to redact); a complete record is the events as stored.
    """
    finished = any(e.type == "match.ended" for e in stored)
    complete = finished or full
    if game is None and not complete:
        raise ValueError(f"redacting a record of {match.game} needs its rules")
    lines: list[RecordLine] = []
    previous_withheld = False
    for event in stored:
        line = _full_line(event) if game is None or complete else _line_for(game, event, seat, previous_withheld)
        previous_withheld = line.redacted
        lines.append(line)
    last = stored[-1]
    header = RecordHeader(
        record=FORMAT,
        match_id=match.id,
        game=match.game,
        rules_version=match.rules_version,
        players=tuple(s.player for s in sorted(match.seats, key=lambda s: s.seat)),
        options=match.options,
        seed_commitment=match.seed_commitment,
        status="finished" if finished else "active",
        version=last.version,
        head_hash=None if previous_withheld else last.hash,
        created_at=match.created_at,
        seed=match.seed if finished else None,
    )
    return Record(header=header, lines=tuple(lines))


def _full_line(event: StoredEvent) -> RecordLine:
    return RecordLine(version=event.version, event=event.payload, command=event.command, seat=event.seat,
                      recorded_at=event.recorded_at, hash=event.hash, prev_hash=event.prev_hash)


def seen_by(game: Game[Any], event: StoredEvent, seat: int | None) -> tuple[Any, bool]:
    """A stored event as `seat` (None: a spectator) may see it during play, and whether anything was hidden."""
    decoded = event_from_builtins(game, event.payload)
    if isinstance(decoded, LIFECYCLE_EVENTS):
        return decoded, False
    shown = game.redact(decoded, seat)
    return shown, shown != decoded


def _line_for(game: Game[Any], event: StoredEvent, seat: int | None, previous_withheld: bool) -> RecordLine:
    """The line as `seat` may see it before the end: the event redacted, other seats' commands withheld."""
    shown, hidden = seen_by(game, event, seat)
    payload = to_builtins(shown) if hidden else event.payload
    command = event.command if seat is not None and event.seat == seat else None
    withheld = payload is not event.payload or command != event.command
    return RecordLine(version=event.version, event=payload, command=command, seat=event.seat,
                      recorded_at=event.recorded_at, hash=None if withheld else event.hash,
                      prev_hash=None if previous_withheld else event.prev_hash, redacted=withheld)


def playout_record(played: Playout, *, match_id: str, recorded_at: str = FIXED_TIME) -> Record:
    """The complete record a store would keep of a played match (hashes chained as the store chains them)."""
    Step = tuple[int | None, dict[str, Any] | None, list[Any]]
    steps: list[Step] = [(None, None, played.events[:played.setup_count])]
    position = played.setup_count
    for (seat, command), count in zip(played.moves, played.event_counts, strict=True):
        steps.append((seat, canonical(to_builtins(command)), played.events[position:position + count]))
        position += count
    stored: list[StoredEvent] = []
    head = GENESIS
    for by, asked, events in steps:
        new = [new_event(e) for e in events]
        stored.extend(build_events(match_id, len(stored), head, recorded_at, new, check_events(new), by, asked, None))
        head = stored[-1].hash
    started = played.events[0]
    assert isinstance(started, MatchStarted)
    match = MatchRecord(
        id=match_id, game=started.game, rules_version=started.rules_version,
        seats=tuple(SeatRecord(seat=i, player=p, token_hash="") for i, p in enumerate(started.players)),
        options=started.options, seed=played.seed, seed_commitment=started.seed_commitment,
        status="finished" if played.state is not None and played.state.finished else "active",
        version=len(stored), created_at=recorded_at, updated_at=recorded_at, head_hash=head,
    )
    return build_record(played.game, match, stored, seat=None, full=True)
