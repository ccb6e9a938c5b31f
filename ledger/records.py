"""The match record: one self-contained NDJSON file, a header line then one line per event.

Format 2 (record scheme 2, every match created since commitments exist):
- Header: `{"record": "turnstile.match-record/2", "match_id", "game", "rules_version", "players", "options",
  "seed_commitment", "seed_source", "client_entropy"?, "server_seed_commitment"?, "entropy"?, "status", "version",
  "head_hash", "created_at" [, "seed", "server_seed"?] [, "transparency"]}`. Version, status and head hash come from
  the match row, so a record cut short does not verify. `server_seed_commitment` is the one the first event published
  (absent in records written before it existed); `entropy` is `"seats"` for a match dealt from its seats' entropy
  (its `options.entropy`), whose revealed `seed` is the deal's seed and `server_seed` the server's committed part.
  `transparency` (absent while the head event is not yet in a signed tree) is `{"checkpoint": "<signed note>",
  "leaf_index", "tree_size", "inclusion": ["<hex>", ...] [, "tlog_proof"]}`: the log's checkpoint and the proof that
  the head event is a leaf of it (service/log/transparency.py). Under a witness policy, once a checkpoint holding the
  head is cosigned by the quorum, `checkpoint` carries the witnesses' cosignatures and `tlog_proof` is the same proof
  as a c2sp.org/tlog-proof text (ledger/tlog_proof.py), checked offline by `turnstile verify --policy`.
- Event line: `{"version", "event", "public"?, "commitment", "command", "seat", "recorded_at", "hash", "prev_hash"
  [, "redacted": true]}`. The hash covers the public form (`public` when given, else `event`) and the commitment
  (ledger/chain.py), so every line carries its hash and a spectator's record of a live match verifies as a chain.

Before the end a record is for one caller: `event` as that seat (or a spectator) may see it, other seats'
commands withheld, no seed; `redacted` marks a line that withholds something. After the end it is complete:
every event and command as recorded, and the seed, which opens every commitment.

Format 1 (scheme 1, older matches) hashed full events: there a redacted line carries no hash (nor the next line
its `prev_hash`), since a hash over hidden cards can be brute-forced. Both formats are read and verified.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.codec import event_from_builtins, to_builtins
from domain.engine import Event, Game
from domain.lifecycle import LIFECYCLE_EVENTS, MatchStarted
from domain.playout import Playout
from domain.rng import deal_seed
from ledger.chain import GENESIS, SCHEME_FULL, canonical
from ledger.events import MatchRecord, SeatRecord, StoredEvent, build_events, check_events
from ledger.json_limits import MAX_DEPTH, too_deep
from ledger.sealing import sealed

FORMAT = "turnstile.match-record/2"
FORMAT_V1 = "turnstile.match-record/1"
FORMATS = {FORMAT_V1: 1, FORMAT: 2}  # record format -> record scheme
MEDIA_TYPE = "application/x-ndjson"
# Records built outside a store (the corpus, tests) carry this fixed time, so they are byte-for-byte reproducible.
FIXED_TIME = "2026-01-01T00:00:00.000000Z"


class LogProof(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The head event's place in the transparency log: a signed checkpoint and the inclusion proof of the leaf of
    (match id, version, head hash) at `leaf_index` in its tree of `tree_size` leaves (audit path in hex)."""

    checkpoint: str
    leaf_index: int
    tree_size: int
    inclusion: list[str]
    tlog_proof: str | None = None  # c2sp.org/tlog-proof, once the checkpoint is cosigned by a policy's quorum


class RecordHeader(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The first line: which match, game, rules, seats and options; the head it ends at; the seed after the end."""

    record: str
    match_id: str
    game: str
    rules_version: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed_commitment: str
    seed_source: str = "server"
    client_entropy: str | None = None
    visibility: str = "public"
    rematch_of: str | None = None
    server_seed_commitment: str | None = None
    entropy: str | None = None
    status: str
    version: int
    head_hash: str | None
    created_at: str
    seed: str | None = None
    server_seed: str | None = None
    transparency: LogProof | None = None

    @property
    def scheme(self) -> int:
        """The record scheme of the chain (1 or 2)."""
        return FORMATS[self.record]


# gc=False: it holds only strings, numbers and JSON data (no cycle), and an export makes thousands a page; left
# out of the collector's counts, they no longer bring on collections that walk them (issue 42).
class RecordLine(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True,
                 gc=False):
    """One event of the match, with the command and seat behind it and its place in the hash chain."""

    version: int
    event: dict[str, Any]
    public: dict[str, Any] | None = None
    commitment: str | None = None
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

    @property
    def public_event(self) -> dict[str, Any]:
        """The event as a spectator saw it during play (what a scheme 2 hash covers)."""
        return self.event if self.public is None else self.public


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
    for number, row in enumerate(rows, start=1):
        # Checked before decoding, as every later step walks the values recursively.
        if too_deep(row):
            raise RecordError(f"line {number} nests deeper than {MAX_DEPTH} levels", number - 1 or None)
    try:
        header = _header_decoder.decode(rows[0])
    except msgspec.DecodeError as exc:
        raise RecordError(f"line 1 is not a record header: {exc}") from None
    if header.record not in FORMATS:
        raise RecordError(f"unknown record format {header.record!r} (this verifier reads {', '.join(FORMATS)})")
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
    # A list: msgspec 0.22's encode_lines never frees the iterator of anything else (a tuple's, a generator's): one
    # object a record, tracked by the collector, kept for the process's life (a server exporting 10^6 records kept
    # 10^6 of them, each walked by every full collection).
    return _encoder.encode_lines([record.header, *record.lines])


def seen_by(game: Game[Any], event: StoredEvent, seat: int | None) -> tuple[Event, bool]:
    """A stored event as `seat` (None: a spectator) may see it during play, and whether anything was hidden."""
    if seat is None and event.commitment is not None:  # the public form sealed into the chain at the append
        return event_from_builtins(game, event.public), event.public_payload is not None
    decoded = event_from_builtins(game, event.payload)
    if isinstance(decoded, LIFECYCLE_EVENTS):
        return decoded, False
    shown = game.redact(decoded, seat)
    return shown, shown != decoded


def build_record(
    game: Game[Any] | None, match: MatchRecord, stored: Sequence[StoredEvent], *, seat: int | None, full: bool = False
) -> Record:
    """The record of `match` from its events; complete once finished (or when `full`), else for `seat`.

    The header states the match row's version, status and head hash, whatever the events say: a record whose
    stored events fall short of them is cut short, and verification says so. Only a record for one seat needs
    the game (to redact); a complete record is the events as stored.
    """
    finished = match.status == "finished"
    complete = finished or full
    if game is None and not complete:
        raise ValueError(f"redacting a record of {match.game} needs its rules")
    scheme = match.scheme
    lines: list[RecordLine] = []
    withheld_from: int | None = None
    for event in stored:
        if complete or game is None:
            line = _full_line(event)
        elif scheme == SCHEME_FULL:
            line = _scheme1_line(game, event, seat, withheld_from)
            if line.hash is None and withheld_from is None:
                withheld_from = event.version
        else:
            line = _line_for(game, event, seat)
        lines.append(line)
    revealed = finished
    header = RecordHeader(
        record=FORMAT if scheme != SCHEME_FULL else FORMAT_V1,
        match_id=match.id,
        game=match.game,
        rules_version=match.rules_version,
        players=tuple(s.player for s in sorted(match.seats, key=lambda s: s.seat)),
        options=match.options,
        seed_commitment=match.seed_commitment,
        seed_source=match.seed_source,
        client_entropy=match.client_entropy,
        visibility=match.visibility,
        rematch_of=match.rematch_of,
        server_seed_commitment=stored[0].payload.get("server_seed_commitment") if stored else None,
        entropy=match.options.get("entropy"),
        status=match.status,
        version=match.version,
        head_hash=None if withheld_from is not None else match.head_hash,
        created_at=match.created_at,
        seed=drawn_seed(match, stored) if revealed else None,
        server_seed=match.server_seed if revealed else None,
    )
    return Record(header=header, lines=tuple(lines))


def seats_entropy(events: Sequence[StoredEvent] | Sequence[RecordLine], seats: int) -> tuple[list[str | None], bool]:
    """Each seat's entropy as recorded (None: none), and whether the entropy was closed (the deal recorded)."""
    entropy: list[str | None] = [None] * seats
    closed = False
    for item in events:
        payload = item.payload if isinstance(item, StoredEvent) else item.event
        if payload.get("type") == "match.entropy-added":
            seat = payload.get("seat")
            if isinstance(seat, int) and 0 <= seat < seats:
                entropy[seat] = str(payload.get("entropy"))
        elif payload.get("type") == "match.entropy-closed":
            closed = True
    return entropy, closed


def drawn_seed(match: MatchRecord, stored: Sequence[StoredEvent]) -> str | None:
    """The seed the match's draws derived from: the row's, or for `entropy: "seats"` the deal's seed (None: never
    dealt)."""
    if match.options.get("entropy") != "seats":
        return match.seed
    entropy, closed = seats_entropy(stored, len(match.seats))
    return deal_seed(match.server_seed or match.seed, entropy) if closed else None


def _full_line(event: StoredEvent) -> RecordLine:
    return RecordLine(version=event.version, event=event.payload, public=event.public_payload,
                      commitment=event.commitment, command=event.command, seat=event.seat,
                      recorded_at=event.recorded_at, hash=event.hash, prev_hash=event.prev_hash)


def _line_for(game: Game[Any], event: StoredEvent, seat: int | None) -> RecordLine:
    """Scheme 2, before the end: the event as `seat` sees it, others' commands withheld, every hash public."""
    shown, hidden = seen_by(game, event, seat)
    payload = to_builtins(shown) if hidden else event.payload
    command = event.command if seat is not None and event.seat == seat else None
    public = event.public
    return RecordLine(version=event.version, event=payload, public=None if canonical(payload) == public else public,
                      commitment=event.commitment, command=command, seat=event.seat, recorded_at=event.recorded_at,
                      hash=event.hash, prev_hash=event.prev_hash,
                      redacted=payload is not event.payload or command != event.command)


def _scheme1_line(game: Game[Any], event: StoredEvent, seat: int | None, withheld_from: int | None) -> RecordLine:
    """Scheme 1, before the end: as `_line_for`, but from the first withheld line on no hash is given (each later
    hash depends on the withheld one through the chain, so it would let guesses of the hidden cards be tested)."""
    shown, hidden = seen_by(game, event, seat)
    payload = to_builtins(shown) if hidden else event.payload
    command = event.command if seat is not None and event.seat == seat else None
    withheld = payload is not event.payload or command != event.command
    hiding = withheld_from is not None or withheld
    return RecordLine(version=event.version, event=payload, command=command, seat=event.seat,
                      recorded_at=event.recorded_at, hash=None if hiding else event.hash,
                      prev_hash=None if withheld_from is not None else event.prev_hash, redacted=withheld)


def playout_record(played: Playout, *, match_id: str, recorded_at: str = FIXED_TIME) -> Record:
    """The complete record a store would keep of a played match (sealed and chained as the service and store do)."""
    Step = tuple[int | None, dict[str, Any] | None, list[Any]]
    steps: list[Step] = [(None, None, played.events[:played.setup_count])]
    position = played.setup_count
    for (seat, command), count in zip(played.moves, played.event_counts, strict=True):
        steps.append((seat, canonical(to_builtins(command)), played.events[position:position + count]))
        position += count
    stored: list[StoredEvent] = []
    head = GENESIS
    started = played.events[0]
    assert isinstance(started, MatchStarted)
    match = MatchRecord(
        id=match_id, game=started.game, rules_version=started.rules_version,
        seats=tuple(SeatRecord(seat=i, player=p, token_hash="") for i, p in enumerate(started.players)),
        options=started.options, seed=played.seed, seed_commitment=started.seed_commitment,
        seed_source=started.seed_source, client_entropy=started.client_entropy,  # type: ignore[arg-type]
        visibility=started.visibility,  # type: ignore[arg-type]
        status="finished" if played.state is not None and played.state.finished else "active",
        version=0, created_at=recorded_at, updated_at=recorded_at, head_hash="",
    )
    for by, asked, events in steps:
        new = check_events(sealed(played.game, played.seed, match.scheme, len(stored) + 1, events, asked))
        stored.extend(build_events(match_id, len(stored), head, recorded_at, new, by, asked, None))
        head = stored[-1].hash
    match = msgspec.structs.replace(match, version=len(stored), head_hash=head)
    return build_record(played.game, match, stored, seat=None, full=True)
