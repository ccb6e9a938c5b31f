"""`rederive(events, seed)`: check a tournament record against its seed, re-deciding every event from its cause.

Every event a tournament records follows from a command: a join, a withdrawal (with the forfeit of its pending
match), the start (the seeded order and round 1), a table's match, a result, the end of a round (its standings,
then the next round's pairing or the final standings). Re-deciding each cause on the record folded so far, with
`Rng.derive(seed, round)` as the service did, must give back exactly the events recorded. So a pairing edited, a
result changed after the next round was paired (the standings and later pairings no longer follow), an order not
drawn from the seed, or a round paired before its last result all show as the first event that differs. The
results themselves are the matches' own: the verifier checks each match record on its own (domain/match.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import msgspec

from domain.engine import Command, Event, Refusal
from domain.rng import Rng, seed_commitment
from domain.tournaments.commands import Advance, Join, OpenTable, RecordResult, Start, Withdraw
from domain.tournaments.decide import decide, pairing_round
from domain.tournaments.events import (
    MatchResult,
    PlayerJoined,
    PlayerWithdrawn,
    RoundEnded,
    TableOpened,
    TournamentCreated,
    TournamentStarted,
)
from domain.tournaments.state import TournamentState, evolve


class Mismatch(msgspec.Struct, frozen=True, kw_only=True):
    """Where a record stops following from its seed: the index of the first event that differs, and why."""

    index: int
    reason: str
    expected: Event | None = None


def cause(event: Event) -> Command | None:
    """The command that records `event` (None: an event only another command's decision derives)."""
    if isinstance(event, PlayerJoined):
        return Join(handle=event.handle, entrant=event.entrant, members=event.members)
    if isinstance(event, PlayerWithdrawn):
        return Withdraw(entrant=event.entrant)
    if isinstance(event, TournamentStarted):
        return Start(entropy=event.entropy)
    if isinstance(event, TableOpened):
        return OpenTable(round=event.round, table=event.table, match_id=event.match_id, entrants=event.entrants)
    if isinstance(event, MatchResult):
        return RecordResult(round=event.round, table=event.table, results=event.results, match_id=event.match_id)
    if isinstance(event, RoundEnded):
        return Advance()
    return None


def rederive(events: Sequence[Event], seed: str) -> Mismatch | None:
    """The first event of the record that does not follow from its causes and `seed` (the committed one; mixed with
    the start's entropy when it has some), or None: it verifies."""
    if not events or not isinstance(events[0], TournamentCreated):
        return Mismatch(index=0, reason="a tournament record begins with tournament.created")
    if seed_commitment(seed) != events[0].seed_commitment:
        return Mismatch(index=0, reason="the seed does not match the commitment")
    state: TournamentState = evolve(None, events[0])
    index = 1
    while index < len(events):
        event = events[index]
        command = cause(event)
        tag = event.__struct_config__.tag
        if command is None:
            return Mismatch(index=index, reason=f"{tag} follows from no command here")
        try:
            expected = decide(state, command, Rng.derive(seed_for(seed, state, command), pairing_round(state)))
        except Refusal as refusal:
            return Mismatch(index=index, reason=f"{tag} refused: {refusal.code}: {refusal.message}")
        for offset, derived in enumerate(expected):
            recorded = events[index + offset] if index + offset < len(events) else None
            if recorded != derived:
                return Mismatch(index=index + offset, reason=f"{tag} derives another event here", expected=derived)
        for derived in expected:
            state = evolve(state, derived)
        index += len(expected)
    return None


def played_seed(seed: str, entropy: str | None) -> str:
    """The seed a tournament is played from: the one committed at creation, or, when the organiser gave entropy at
    the start, the two mixed, so that neither chose it: the server committed to its seed before the entropy existed,
    and the organiser did not know the seed. sha256 hex of

        "turnstile-tournament/1" 0x00 | u32(len S) S | u32(len E) E

    (S the committed seed's UTF-8 bytes, E the entropy's; each length 4 bytes big-endian)."""
    if entropy is None:
        return seed
    fields = [part.encode() for part in (seed, entropy)]
    return hashlib.sha256(b"turnstile-tournament/1\x00" + b"".join(len(f).to_bytes(4, "big") + f for f in fields)
                          ).hexdigest()


def seed_for(seed: str, state: TournamentState | None, command: Command | None = None) -> str:
    """The played seed a decision on `state` takes: the start's own entropy for the start, the recorded one after."""
    if isinstance(command, Start):
        return played_seed(seed, command.entropy)
    return played_seed(seed, None if state is None else state.start_entropy)


def match_seed(seed: str, number: int, table: int) -> str:
    """The seed of the matches of round `number`'s table `table`, from the tournament seed (hex SHA-256): the
    service may use it so the verifier can check each deal too; every team at a cooperative table gets one deal."""
    return hashlib.sha256(f"turnstile/tournament-match/v1\n{seed}\n{number}\n{table}".encode()).hexdigest()


def team_seed(seed: str, number: int, table: int, entrant: int) -> str:
    """The seed of one team's match at a cooperative table: each team its own deal. (A shared deal would leak: the
    first team to finish makes its whole record public, every card of the deal the others are still playing.)"""
    return hashlib.sha256(f"turnstile/tournament-team/v1\n{match_seed(seed, number, table)}\n{entrant}".encode()
                          ).hexdigest()
