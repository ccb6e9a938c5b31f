"""The checks of a record that need the rules: fold, re-decide every decision, outcome.

Re-deciding uses the revealed seed (`Rng.derive(seed, version)`, set-up from `match.open_match`); without it,
decisions run on a sealed RNG, so every decision that draws nothing is still checked and the others are counted.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal

import msgspec

from domain import match
from domain.codec import command_from_builtins, event_from_builtins, to_builtins
from domain.engine import Event, Game, Refusal
from domain.lifecycle import DrawAccepted, MatchEnded, MatchOpened, MatchStarted, SeatResigned, TimedOut
from domain.match import MatchState
from domain.rng import Rng
from ledger.chain import canonical
from ledger.records import Record, RecordLine

Status = Literal["passed", "failed", "partial", "not-revealed", "not-run"]


class Check(msgspec.Struct, frozen=True, kw_only=True):
    """One check of a verification: its status, the first version it failed at, and why."""

    name: str
    status: Status
    detail: str
    version: int | None = None
    code: str | None = None  # a failure's verdict code, when more precise than the check's own


class SeedNeeded(Exception):
    """A decision drew randomness, and the seed has not been revealed."""


class SealedRng(Rng):
    """An RNG for re-deciding without the seed: any draw raises SeedNeeded (every draw of `Rng` reads `_bytes`)."""

    def __init__(self) -> None:
        super().__init__(b"")

    def _bytes(self, n: int) -> bytes:
        raise SeedNeeded


def check_fold(game: Game[Any], record: Record) -> tuple[Check, list[MatchState]]:
    """Fold every event; `states[i]` is the state after version i+1, as far as the fold got."""
    states: list[MatchState] = []
    state: MatchState | None = None

    def failed(version: int, detail: str) -> tuple[Check, list[MatchState]]:
        return Check(name="fold", status="failed", version=version, detail=detail), states

    for index, line in enumerate(record.lines):
        if line.version != index + 1:
            return failed(index + 1, f"expected version {index + 1}, found {line.version}")
        if state is not None and state.finished:
            return failed(line.version, "an event follows match.ended")
        try:
            event = event_from_builtins(game, line.event)
        except msgspec.ValidationError as exc:
            return failed(line.version, f"{line.type!r} is not a {game.slug} event: {exc}")
        if (index == 0) != isinstance(event, MatchStarted | MatchOpened) and not (
                isinstance(event, MatchStarted) and state is not None and state.waiting):
            return failed(line.version, "match.started (or match.opened) must be the first event, and only the first "
                                        "(match.started follows match.opened when the last open seat is taken)")
        try:
            state = match.evolve(game, state, event)
        except Exception as exc:  # the rules could not apply the event: the record is not a valid match
            return failed(line.version, f"{line.type} cannot be applied: {exc!r}")
        states.append(state)
    if not states:
        return failed(1, "the record has no events")
    return Check(name="fold", status="passed", detail=f"{len(states)} events fold to a consistent state"), states




def check_redecide(game: Game[Any], record: Record, states: list[MatchState]) -> Check:
    """Re-decide set-up and every recorded command; the events must come out exactly as recorded."""
    header, lines = record.header, record.lines
    seed = header.seed

    def failed(version: int, detail: str) -> Check:
        return Check(name="redecide", status="failed", version=version, detail=detail)

    try:
        setup = _setup(game, header, seed, lines)
    except Refusal as refusal:
        return failed(1, f"the match could not be opened: {refusal}")
    position, sealed = 0, 0
    if setup is None:  # set-up shuffles, and the seed is not revealed: skip to the first move
        sealed += 1
        position = next((i for i, line in enumerate(lines) if line.command is not None), len(lines)) or 1
    else:
        mismatch = _compare(game, setup, lines, 0, None, None)
        if mismatch is not None:
            return failed(mismatch, f"set-up event {mismatch} is not what opening the match gives")
        position = len(setup)
    decisions = 0
    while position < len(lines):
        line = lines[position]
        if position > len(states):
            return Check(name="redecide", status="not-run", detail=f"stopped at {line.version}: the fold failed")
        if line.command is None:
            return failed(line.version, "an event after set-up names no command")
        state = states[position - 1]
        try:
            command = command_from_builtins(game, line.command)
            rng = SealedRng() if seed is None else Rng.derive(seed, state.version)
            events = match.decide(game, state, line.seat, command, rng)
        except msgspec.ValidationError as exc:
            return failed(line.version, f"the recorded command is not a {game.slug} command: {exc}")
        except Refusal as refusal:
            return failed(line.version, f"the rules refuse the recorded command: {refusal}")
        except SeedNeeded:
            sealed += 1
            position += 1
            while position < len(lines) and (lines[position].seat, lines[position].command) == (line.seat,
                                                                                                 line.command):
                position += 1
            continue
        mismatch = _compare(game, events, lines, position, line.seat, line.command)
        if mismatch is not None:
            return failed(mismatch, f"event {mismatch} is not what seat {line.seat}'s command of version "
                                    f"{line.version} gives when re-decided")
        decisions += 1
        position += len(events)
    if sealed:
        return Check(name="redecide", status="partial",
                     detail=f"{decisions} decisions re-decided; {sealed} drew randomness and await the seed")
    return Check(name="redecide", status="passed", detail=f"set-up and {decisions} decisions re-decided exactly")


def _drawn(game: Game[Any], lines: tuple[RecordLine, ...]) -> list[Event]:
    """The entropy the server drew for its bots' seats, recorded with the first event (no command): it cannot be
    re-drawn, only checked for its place (the `entropy` check)."""
    drawn = []
    for line in lines[1:]:
        if line.command is not None or line.type != "match.entropy-added":
            break
        drawn.append(event_from_builtins(game, line.event))
    return drawn


def _setup(game: Game[Any], header: Any, seed: str | None, lines: tuple[RecordLine, ...]) -> list[Event] | None:
    """The set-up events opening the match gives (None: they shuffle, and the seed is not revealed). A match opened
    with open seats begins with `match.opened` alone (checked against the header by the format check); its set-up
    comes with the last join, re-decided like a move."""
    first = lines[0] if lines else None
    drawn = _drawn(game, lines) if header.entropy == "seats" else []
    if first is not None and first.type == "match.opened":
        return [event_from_builtins(game, first.event), *drawn]
    if seed is not None and header.entropy != "seats":
        return match.open_match(game, header.players, header.options, seed, seed_source=header.seed_source,
                                client_entropy=header.client_entropy, visibility=header.visibility,
                                rematch_of=header.rematch_of, server_seed_commitment=header.server_seed_commitment)
    if not game.min_seats <= len(header.players) <= game.max_seats:
        raise Refusal("bad-seat-count", f"{game.slug} takes {game.min_seats}-{game.max_seats} seats")
    options, recorded = match.recorded_options(game, header.options)
    started = match.started_event(game, header.players, recorded, header.seed_commitment,
                                  seed_source=header.seed_source, client_entropy=header.client_entropy,
                                  visibility=header.visibility, rematch_of=header.rematch_of,
                                  server_seed_commitment=header.server_seed_commitment)
    if header.entropy == "seats":  # no set-up yet: the server's draws for its bots' seats, then the seats' entropy
        return [started, *drawn]
    try:
        return [started, *game.start(options, len(header.players), SealedRng())]
    except SeedNeeded:
        return None


def _compare(game: Game[Any], events: list[Event], lines: tuple[RecordLine, ...], start: int,
             seat: int | None, command: dict[str, Any] | None) -> int | None:
    """The version of the first recorded event that differs from `events` (made by `seat`'s `command`)."""
    for offset, event in enumerate(events):
        if start + offset >= len(lines):
            return start + offset + 1
        line = lines[start + offset]
        if (line.seat, canonical(line.command)) != (seat, canonical(command)) or not _same(game, line.event, event):
            return line.version
    return None


def _same(game: Game[Any], recorded: dict[str, Any], made: Event) -> bool:
    """Equal canonical JSON; an older record may lack fields added since with defaults (schema evolution)."""
    expected = canonical(to_builtins(made))
    if canonical(recorded) == expected:
        return True
    if not set(recorded) <= set(expected):
        return False
    try:
        return canonical(to_builtins(event_from_builtins(game, recorded))) == expected
    except msgspec.ValidationError:
        return False


def check_deadlines(record: Record, states: list[MatchState]) -> Check:
    """Every `match.timed-out` is recorded at or after the seat's deadline: the recorded time of the event that put
    it to move plus the match's `move_deadline` (a timeout forged early, or with no deadline, fails); an abandonment
    at or after `abandon_after` from the event before it."""
    lines, checked = record.lines, 0
    for index, line in enumerate(lines):
        if index == 0 or index > len(states):
            continue
        if (line.command or {}).get("type") == "match.abandon":
            seconds = states[index - 1].options.get("abandon_after") or 0
            if _moment(line.recorded_at) < _moment(lines[index - 1].recorded_at) + timedelta(seconds=seconds):
                return Check(name="deadlines", status="failed", version=line.version,
                             detail=f"the match was closed as abandoned before {seconds} s without a move")
            checked += 1
        if line.type == "match.entropy-closed" and line.event.get("absent"):
            before = states[index - 1]
            seconds = before.options.get("entropy_deadline") or 0
            since = lines[before.started_version - 1].recorded_at if before.started_version else line.recorded_at
            if _moment(line.recorded_at) < _moment(since) + timedelta(seconds=seconds):
                return Check(name="deadlines", status="failed", version=line.version,
                             detail=f"seats {line.event.get('absent')} were recorded absent before the "
                                    f"{seconds} s of `entropy_deadline` had run out")
            checked += 1
        if line.type != "match.timed-out":
            continue
        before, seat = states[index - 1], line.event.get("seat")
        seconds = before.options.get("move_deadline")
        put = before.since[seat] if isinstance(seat, int) and 0 <= seat < len(before.since) else 0
        if not seconds or not put:
            return Check(name="deadlines", status="failed", version=line.version,
                         detail=f"seat {seat} timed out but had no deadline running")
        due = _moment(lines[put - 1].recorded_at) + timedelta(seconds=seconds)
        if _moment(line.recorded_at) < due:
            return Check(name="deadlines", status="failed", version=line.version,
                         detail=f"seat {seat} timed out at {line.recorded_at}, before its deadline "
                                f"(version {put}'s time plus {seconds} s)")
        checked += 1
    return Check(name="deadlines", status="passed",
                 detail=f"{checked} timeouts and abandonments, each recorded at or after its time")


def _moment(recorded_at: str) -> datetime:
    return datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))


def check_outcome(game: Game[Any], record: Record, states: list[MatchState]) -> Check:
    """The recorded `match.ended` is the outcome the rules give (or the resignation's); none while not over."""
    final = states[-1]
    if final.ended is None:
        if final.game_state is not None and game.outcome(final.game_state) is not None:
            return Check(name="outcome", status="failed", version=final.version + 1,
                         detail="the game is over but its end is not recorded")
        return Check(name="outcome", status="passed", detail="the match has not ended, and the rules agree")
    before = states[-2] if len(states) > 1 else final
    last_but_one = event_from_builtins(game, record.lines[-2].event) if len(record.lines) > 1 else None
    third_last = event_from_builtins(game, record.lines[-3].event) if len(record.lines) > 2 else None
    if isinstance(last_but_one, SeatResigned | TimedOut):
        reason = "timed-out" if isinstance(last_but_one, TimedOut) or isinstance(third_last, TimedOut) else "resigned"
        expected: Event | None = match.resignation_end(game, before, last_but_one.seat, reason)
    elif isinstance(last_but_one, DrawAccepted):
        expected = match.draw_end(game, before)
    elif (record.lines[-1].command or {}).get("type") == "match.abandon":
        expected = MatchEnded(reason="abandoned", results=())
    elif before.waiting or before.dealing:  # called off before it started (or was dealt)
        expected = MatchEnded(reason="cancelled", results=())
    else:
        outcome = game.outcome(before.game_state) if before.game_state is not None else None
        expected = None if outcome is None else match.ended_event(outcome)
    if expected is None or canonical(to_builtins(expected)) != canonical(to_builtins(final.ended)):
        return Check(name="outcome", status="failed", version=final.version,
                     detail="the recorded result is not the outcome the rules give for the final position")
    return Check(name="outcome", status="passed", detail=f"the recorded end ({final.ended.reason}) is the rules' own")
